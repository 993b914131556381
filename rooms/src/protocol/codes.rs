//! Error codes: the names part 1 of the protocol gives, and ours, each with its number in the
//! documented range (connection 1000–1099, room 1100–1199, game 1200–1299, system 1300–1399).

use serde::Serialize;

/// Why the server refused a message. The name is the `code` clients see; the number is 1.1's
/// `numericCode`. Numbers are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// A message other than `CONNECT` (or `PING`) before `CONNECT`.
    NotConnected,
    /// Not JSON, or not an object with `type`, `data`, `timestamp` and `messageId`.
    MalformedMessage,
    /// A `type` the server does not know.
    UnknownMessageType,
    /// A known message whose `data` lacks a field or has one of the wrong kind.
    InvalidData,
    /// `CONNECT` on a connection that already has a session.
    AlreadyConnected,
    /// A `playerId` whose session is live or resumable, without its `sessionToken`.
    InvalidSession,
    /// A frame larger than the server accepts.
    FrameTooLarge,
    /// Messages faster than the server accepts from one connection.
    RateLimited,
    /// `CONNECT.color` is not a palette colour (the tile sets' colours) or empty.
    InvalidColor,
    /// The sender's address holds as many sessions as one may.
    TooManySessions,
    /// A player's, room's or bot's name with nothing visible in it, or with a character that
    /// reorders or hides text (`protocol::names`).
    InvalidName,
    /// No room has that id.
    RoomNotFound,
    /// The room has as many players as it may.
    RoomFull,
    /// The room's game has begun (or ended): no joining, adding bots or starting.
    GameAlreadyStarted,
    /// Only the host may do that.
    NotHost,
    /// The sender is not in that room (or in no room).
    NotInRoom,
    /// The sender is already in a room.
    AlreadyInRoom,
    /// The sender has created as many rooms as one client may.
    TooManyRooms,
    /// A game needs at least two players.
    NotEnoughPlayers,
    /// `CREATE_ROOM`'s settings (players, tile sets, rules, seed, timer) cannot make a game.
    InvalidRoomSettings,
    /// Not the sender's turn.
    NotYourTurn,
    /// The tile cannot go there; `details.reason` says why.
    InvalidPlacement,
    /// The player has no figure of that kind left.
    NoMeeples,
    /// That figure cannot go on that feature; `details.reason` says why.
    InvalidMeeple,
    /// Not the moment for that action (a meeple before the tile, say).
    WrongPhase,
    /// The room has no game in progress.
    GameNotStarted,
    /// Spectators watch; they do not act.
    NotAPlayer,
    /// Something went wrong in the server; nothing was changed.
    InternalError,
    /// The server holds as many rooms or connections as it may.
    ServerFull,
    /// The game could not be stored, so the action was not taken.
    StorageFailed,
}

impl ErrorCode {
    /// The code's number.
    pub const fn number(self) -> u16 {
        match self {
            ErrorCode::NotConnected => 1000,
            ErrorCode::MalformedMessage => 1001,
            ErrorCode::UnknownMessageType => 1002,
            ErrorCode::InvalidData => 1003,
            ErrorCode::AlreadyConnected => 1004,
            ErrorCode::InvalidSession => 1005,
            ErrorCode::FrameTooLarge => 1006,
            ErrorCode::RateLimited => 1007,
            ErrorCode::InvalidColor => 1008,
            ErrorCode::TooManySessions => 1009,
            ErrorCode::InvalidName => 1010,
            ErrorCode::RoomNotFound => 1100,
            ErrorCode::RoomFull => 1101,
            ErrorCode::GameAlreadyStarted => 1102,
            ErrorCode::NotHost => 1103,
            ErrorCode::NotInRoom => 1104,
            ErrorCode::AlreadyInRoom => 1105,
            ErrorCode::TooManyRooms => 1106,
            ErrorCode::NotEnoughPlayers => 1107,
            ErrorCode::InvalidRoomSettings => 1108,
            ErrorCode::NotYourTurn => 1200,
            ErrorCode::InvalidPlacement => 1201,
            ErrorCode::NoMeeples => 1202,
            ErrorCode::InvalidMeeple => 1203,
            ErrorCode::WrongPhase => 1204,
            ErrorCode::GameNotStarted => 1205,
            ErrorCode::NotAPlayer => 1206,
            ErrorCode::InternalError => 1300,
            ErrorCode::ServerFull => 1301,
            ErrorCode::StorageFailed => 1302,
        }
    }

    /// Every code, for the documentation and its test.
    pub const ALL: [ErrorCode; 30] = [
        ErrorCode::NotConnected,
        ErrorCode::MalformedMessage,
        ErrorCode::UnknownMessageType,
        ErrorCode::InvalidData,
        ErrorCode::AlreadyConnected,
        ErrorCode::InvalidSession,
        ErrorCode::FrameTooLarge,
        ErrorCode::RateLimited,
        ErrorCode::InvalidColor,
        ErrorCode::TooManySessions,
        ErrorCode::InvalidName,
        ErrorCode::RoomNotFound,
        ErrorCode::RoomFull,
        ErrorCode::GameAlreadyStarted,
        ErrorCode::NotHost,
        ErrorCode::NotInRoom,
        ErrorCode::AlreadyInRoom,
        ErrorCode::TooManyRooms,
        ErrorCode::NotEnoughPlayers,
        ErrorCode::InvalidRoomSettings,
        ErrorCode::NotYourTurn,
        ErrorCode::InvalidPlacement,
        ErrorCode::NoMeeples,
        ErrorCode::InvalidMeeple,
        ErrorCode::WrongPhase,
        ErrorCode::GameNotStarted,
        ErrorCode::NotAPlayer,
        ErrorCode::InternalError,
        ErrorCode::ServerFull,
        ErrorCode::StorageFailed,
    ];

    /// The name clients see in `code`.
    pub fn name(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(name)) => name,
            _ => format!("{self:?}"),
        }
    }
}

/// A refusal: the code, a message for people, and details for programs.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    pub details: serde_json::Value,
}

impl Refusal {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into(), details: serde_json::json!({}) }
    }

    pub fn with_details(mut self, details: serde_json::Value) -> Refusal {
        self.details = details;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_unique_and_in_their_ranges() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.number()), "{code:?} reuses a number");
            assert!((1000..1400).contains(&code.number()));
        }
        assert_eq!(ErrorCode::NotYourTurn.name(), "NOT_YOUR_TURN");
        assert_eq!(ErrorCode::InvalidPlacement.name(), "INVALID_PLACEMENT");
        assert_eq!(ErrorCode::NoMeeples.name(), "NO_MEEPLES");
        assert_eq!(ErrorCode::RoomNotFound.name(), "ROOM_NOT_FOUND");
    }
}
