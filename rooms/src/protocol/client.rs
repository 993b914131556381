//! Messages from clients: the envelope checked, then each type's data read into a typed
//! message, every problem answered with the code that names it.

use carcassonne::{Colour, Figure, RuleOptions};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::codes::{ErrorCode, Refusal};
use super::names;
use crate::room::BOT_PREFIX;

/// The longest string field the server reads (names, ids, room names).
const MAX_TEXT: usize = 64;

/// A message from a client, its data read and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMessage {
    Connect {
        player_id: String,
        name: String,
        /// A palette colour, or None for "any": seats play the tile sets' colours in seat
        /// order, so this is checked, kept for the page, and never trusted as markup.
        color: Option<Colour>,
        session_token: Option<String>,
        last_seq: Option<u64>,
    },
    ListRooms,
    /// 1.1: the finished games the sender played in, latest first (answered with `GAMES`).
    ListGames,
    CreateRoom(RoomSettings),
    JoinRoom {
        room_id: String,
        spectate: bool,
    },
    LeaveRoom {
        room_id: String,
    },
    AddBot {
        bot_name: String,
        difficulty: BotLevel,
    },
    StartGame,
    PlaceTile {
        x: i16,
        y: i16,
        rotation: u16,
    },
    PlaceMeeple {
        feature_id: u8,
        figure: FigureChoice,
    },
    SkipMeeple,
    RecallAbbot {
        x: i16,
        y: i16,
    },
    /// 1.1: grow the flock the tile extended (`grow` true) or drive it to market.
    TendFlock {
        grow: bool,
    },
    Ping,
}

/// A bot `ADD_BOT` may ask for: part 1's three levels, 1.1's `expert`, or (1.1) a bot the
/// server's operator added by name (`--bot NAME=COMMAND`: a program speaking the bot
/// protocol), which the hub checks against its list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotLevel {
    Easy,
    Medium,
    Hard,
    Expert,
    /// A name of the server's own bots, not yet checked.
    Named(String),
}

/// The longest name of a server's own bot.
pub const MAX_BOT_NAME: usize = 64;

impl BotLevel {
    /// The level's name, in messages and as the bots' profile.
    pub fn name(&self) -> &str {
        match self {
            BotLevel::Easy => "easy",
            BotLevel::Medium => "medium",
            BotLevel::Hard => "hard",
            BotLevel::Expert => "expert",
            BotLevel::Named(name) => name,
        }
    }

    /// A built-in level by name, else a name a bot of the server's may have: 1 to 64 ASCII
    /// letters, digits, `-`, `_` or `.`.
    fn parse(name: &str) -> Option<BotLevel> {
        let builtin = [BotLevel::Easy, BotLevel::Medium, BotLevel::Hard, BotLevel::Expert]
            .into_iter()
            .find(|level| level.name() == name);
        builtin.or_else(|| is_bot_name(name).then(|| BotLevel::Named(name.to_owned())))
    }
}

/// Whether `name` may name one of a server's own bots: 1 to 64 ASCII letters, digits, `-`,
/// `_` or `.` (what `ADD_BOT` can carry and `--bot` may give).
pub fn is_bot_name(name: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    !name.is_empty() && name.len() <= MAX_BOT_NAME && name.chars().all(plain)
}

/// The figure `PLACE_MEEPLE` names (a follower when it names none, as part 1 has it): any of
/// the engine's figures, by the name its files and events give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigureChoice(Figure);

impl FigureChoice {
    /// A follower: what `PLACE_MEEPLE` means without a `figure`.
    pub const FOLLOWER: FigureChoice = FigureChoice(Figure::FOLLOWER);

    /// The engine's figure.
    pub const fn figure(self) -> Figure {
        self.0
    }

    /// Any figure id: whether the game has the figure is the game's to say.
    fn parse(name: &str) -> Option<FigureChoice> {
        Figure::from_id(name).map(FigureChoice)
    }

    /// What `parse` reads, for refusals: the published figures' ids, and the rule for any
    /// other.
    fn names() -> String {
        let names: Vec<&str> = Figure::PUBLISHED.iter().map(|figure| figure.id()).collect();
        format!(
            "{} or the id of a figure the room's sets declare (a-z, 0-9 and _)",
            names.join(", ")
        )
    }
}

/// What `CREATE_ROOM` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomSettings {
    pub name: String,
    pub max_players: u8,
    pub tilesets: Vec<String>,
    pub rules: RuleOptions,
    /// A seed the host chose (then announced to everyone), or None for one the server draws.
    pub seed: Option<u64>,
    /// Seconds a player has for a turn; None for no limit.
    pub turn_seconds: Option<u32>,
}

/// A parsed envelope: the type, the message id (echoed in errors) and the message.
#[derive(Debug)]
pub struct Incoming {
    pub message_id: Option<String>,
    pub message: Result<ClientMessage, Refusal>,
}

/// Reads one text frame.
pub fn parse(text: &str) -> Incoming {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            return Incoming {
                message_id: None,
                message: Err(Refusal::new(
                    ErrorCode::MalformedMessage,
                    format!("the message is not JSON: {error}"),
                )),
            };
        }
    };
    let Value::Object(envelope) = value else {
        return Incoming {
            message_id: None,
            message: Err(Refusal::new(
                ErrorCode::MalformedMessage,
                "a message is a JSON object with type, data, timestamp and messageId",
            )),
        };
    };
    let message_id = envelope
        .get("messageId")
        .and_then(Value::as_str)
        .filter(|id| id.len() <= MAX_TEXT)
        .map(str::to_owned);
    Incoming { message_id, message: read(&envelope) }
}

fn envelope_error(field: &str, what: &str) -> Refusal {
    Refusal::new(ErrorCode::MalformedMessage, format!("the envelope's `{field}` {what}"))
        .with_details(serde_json::json!({ "field": field }))
}

fn read(envelope: &Map<String, Value>) -> Result<ClientMessage, Refusal> {
    let kind = match envelope.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => return Err(envelope_error("type", "is a string")),
        None => return Err(envelope_error("type", "is missing")),
    };
    let data = match envelope.get("data") {
        Some(Value::Object(data)) => data,
        Some(_) => return Err(envelope_error("data", "is an object")),
        None => return Err(envelope_error("data", "is missing")),
    };
    match envelope.get("timestamp") {
        Some(Value::String(stamp)) if !stamp.is_empty() && stamp.len() <= MAX_TEXT => {}
        Some(_) => return Err(envelope_error("timestamp", "is an ISO 8601 string")),
        None => return Err(envelope_error("timestamp", "is missing")),
    }
    match envelope.get("messageId") {
        Some(Value::String(id)) if !id.is_empty() && id.len() <= MAX_TEXT => {}
        Some(_) => {
            return Err(envelope_error(
                "messageId",
                &format!("is a string of 1 to {MAX_TEXT} bytes"),
            ));
        }
        None => return Err(envelope_error("messageId", "is missing")),
    }
    let data = Data { kind, data };
    Ok(match kind {
        "CONNECT" => ClientMessage::Connect {
            player_id: {
                let id = data.text("playerId")?;
                if id.starts_with(BOT_PREFIX) {
                    return Err(data.invalid("playerId", "may not begin with `bot:`: bots' ids do"));
                }
                id
            },
            name: data.name("name")?,
            color: match data.optional_text("color")?.as_deref() {
                None | Some("") => None,
                Some(name) => Some(Colour::named(name).ok_or_else(|| {
                    let names: Vec<&str> =
                        carcassonne::PALETTE.iter().map(|colour| colour.name()).collect();
                    Refusal::new(
                        ErrorCode::InvalidColor,
                        format!("CONNECT: `color` is one of {}, or empty", names.join(", ")),
                    )
                    .with_details(serde_json::json!({ "field": "color", "colors": names }))
                })?),
            },
            session_token: data.optional_text("sessionToken")?,
            last_seq: data.optional_u64("lastSeq")?,
        },
        "LIST_ROOMS" => ClientMessage::ListRooms,
        "LIST_GAMES" => ClientMessage::ListGames,
        "CREATE_ROOM" => ClientMessage::CreateRoom(RoomSettings {
            name: data.name("roomName")?,
            max_players: data.small_int("maxPlayers", 1, 6)? as u8,
            tilesets: data.text_list("tilesets")?.unwrap_or_else(|| vec!["base".to_owned()]),
            rules: match data.data.get("rules") {
                None | Some(Value::Null) => RuleOptions::default(),
                Some(rules) => RuleOptions::deserialize(rules).map_err(|error| {
                    Refusal::new(ErrorCode::InvalidRoomSettings, format!("rules: {error}"))
                        .with_details(serde_json::json!({ "field": "rules" }))
                })?,
            },
            seed: data.optional_u64("seed")?,
            turn_seconds: data
                .optional_u64("turnSeconds")?
                .map(|seconds| {
                    u32::try_from(seconds).ok().filter(|s| (1..=86_400).contains(s)).ok_or_else(
                        || {
                            data.invalid(
                                "turnSeconds",
                                "is a whole number of seconds from 1 to 86400",
                            )
                        },
                    )
                })
                .transpose()?,
        }),
        "JOIN_ROOM" => ClientMessage::JoinRoom {
            room_id: data.text("roomId")?,
            spectate: data.optional_bool("spectate")?.unwrap_or(false),
        },
        "LEAVE_ROOM" => ClientMessage::LeaveRoom { room_id: data.text("roomId")? },
        "ADD_BOT" => ClientMessage::AddBot {
            bot_name: match data.data.get("botName") {
                None | Some(Value::Null) => "Bot".to_owned(),
                Some(_) => data.name("botName")?,
            },
            difficulty: BotLevel::parse(&data.text("difficulty")?).ok_or_else(|| {
                data.invalid("difficulty", "is easy, medium, hard, expert or a bot GET /bots lists")
            })?,
        },
        "START_GAME" => ClientMessage::StartGame,
        "PLACE_TILE" => {
            let (x, y) = data.position("position")?;
            let rotation = data.small_int("rotation", 0, 270)?;
            if rotation % 90 != 0 {
                return Err(data.invalid("rotation", "is 0, 90, 180 or 270"));
            }
            ClientMessage::PlaceTile { x, y, rotation }
        }
        "PLACE_MEEPLE" => ClientMessage::PlaceMeeple {
            feature_id: data.feature_id()?,
            figure: match data.optional_text("figure")?.as_deref() {
                None => FigureChoice::FOLLOWER,
                Some(name) => FigureChoice::parse(name).ok_or_else(|| {
                    data.invalid("figure", &format!("is one of {}", FigureChoice::names()))
                })?,
            },
        },
        "TEND_FLOCK" => ClientMessage::TendFlock {
            grow: data
                .optional_bool("grow")?
                .ok_or_else(|| data.invalid("grow", "is missing: true to grow, false to drive"))?,
        },
        "SKIP_MEEPLE" => ClientMessage::SkipMeeple,
        "RECALL_ABBOT" => {
            let (x, y) = data.position("position")?;
            ClientMessage::RecallAbbot { x, y }
        }
        "PING" => ClientMessage::Ping,
        other => {
            let shown: String = other.chars().take(MAX_TEXT).collect();
            return Err(Refusal::new(
                ErrorCode::UnknownMessageType,
                format!("the server knows no message type `{shown}`"),
            )
            .with_details(serde_json::json!({ "type": shown })));
        }
    })
}

/// A message's data, read field by field.
struct Data<'a> {
    kind: &'a str,
    data: &'a Map<String, Value>,
}

impl Data<'_> {
    fn invalid(&self, field: &str, what: &str) -> Refusal {
        Refusal::new(ErrorCode::InvalidData, format!("{}: `{field}` {what}", self.kind))
            .with_details(serde_json::json!({ "field": field }))
    }

    fn optional_text(&self, field: &str) -> Result<Option<String>, Refusal> {
        match self.data.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text))
                if text.len() <= MAX_TEXT && !text.chars().any(char::is_control) =>
            {
                Ok(Some(text.clone()))
            }
            Some(Value::String(_)) => Err(self.invalid(
                field,
                &format!("is at most {MAX_TEXT} bytes without control characters"),
            )),
            Some(_) => Err(self.invalid(field, "is a string")),
        }
    }

    fn text(&self, field: &str) -> Result<String, Refusal> {
        match self.optional_text(field)? {
            Some(text) if !text.trim().is_empty() => Ok(text),
            Some(_) => Err(self.invalid(field, "is not empty")),
            None => Err(self.invalid(field, "is missing")),
        }
    }

    /// A name people will see: text, and [`names::check`]'s rule.
    fn name(&self, field: &str) -> Result<String, Refusal> {
        let name = self.text(field)?;
        names::check(&name).map_err(|problem| {
            Refusal::new(ErrorCode::InvalidName, format!("{}: `{field}` {problem}", self.kind))
                .with_details(serde_json::json!({ "field": field }))
        })?;
        Ok(name)
    }

    fn text_list(&self, field: &str) -> Result<Option<Vec<String>>, Refusal> {
        match self.data.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) if !items.is_empty() && items.len() <= 8 => items
                .iter()
                .map(|item| match item {
                    Value::String(name) if name.len() <= MAX_TEXT => Ok(name.clone()),
                    _ => Err(self.invalid(field, "lists built-in tile set names")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(self.invalid(field, "is a list of 1 to 8 built-in tile set names")),
        }
    }

    fn optional_u64(&self, field: &str) -> Result<Option<u64>, Refusal> {
        match self.data.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(number)) => number
                .as_u64()
                .map(Some)
                .ok_or_else(|| self.invalid(field, "is a whole number ≥ 0")),
            Some(_) => Err(self.invalid(field, "is a number")),
        }
    }

    fn optional_bool(&self, field: &str) -> Result<Option<bool>, Refusal> {
        match self.data.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(*flag)),
            Some(_) => Err(self.invalid(field, "is true or false")),
        }
    }

    fn small_int(&self, field: &str, low: u16, high: u16) -> Result<u16, Refusal> {
        let what = format!("is a whole number from {low} to {high}");
        let value = self.optional_u64(field).map_err(|_| self.invalid(field, &what))?;
        match value {
            Some(value) if (u64::from(low)..=u64::from(high)).contains(&value) => Ok(value as u16),
            Some(_) => Err(self.invalid(field, &what)),
            None => Err(self.invalid(field, "is missing")),
        }
    }

    fn position(&self, field: &str) -> Result<(i16, i16), Refusal> {
        let Some(value) = self.data.get(field) else {
            return Err(self.invalid(field, "is missing"));
        };
        let coordinate = |axis: &str| {
            value
                .get(axis)
                .and_then(Value::as_i64)
                .and_then(|value| i16::try_from(value).ok())
                .ok_or_else(|| {
                    self.invalid(field, "is {x, y} with whole numbers from -32768 to 32767")
                })
        };
        Ok((coordinate("x")?, coordinate("y")?))
    }

    /// `featureId`: the segment's index, as a number or a string of one (1.0 clients differ).
    fn feature_id(&self) -> Result<u8, Refusal> {
        let what = "is the index of one of the tile's features (0 to 31)";
        match self.data.get("featureId") {
            Some(Value::Number(number)) => number
                .as_u64()
                .and_then(|id| u8::try_from(id).ok())
                .filter(|id| *id < 32)
                .ok_or_else(|| self.invalid("featureId", what)),
            Some(Value::String(text)) => text
                .parse::<u8>()
                .ok()
                .filter(|id| *id < 32)
                .ok_or_else(|| self.invalid("featureId", what)),
            Some(_) => Err(self.invalid("featureId", what)),
            None => Err(self.invalid("featureId", "is missing")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(kind: &str, data: Value) -> String {
        serde_json::json!({"type": kind, "data": data, "timestamp": "2026-11-25T10:00:00Z", "messageId": "m1"})
            .to_string()
    }

    fn code(text: &str) -> ErrorCode {
        parse(text).message.unwrap_err().code
    }

    #[test]
    fn envelopes_are_checked_field_by_field() {
        assert_eq!(code("{"), ErrorCode::MalformedMessage);
        assert_eq!(code("[1]"), ErrorCode::MalformedMessage);
        assert_eq!(
            code(r#"{"data": {}, "timestamp": "t", "messageId": "1"}"#),
            ErrorCode::MalformedMessage
        );
        assert_eq!(
            code(r#"{"type": "PING", "timestamp": "t", "messageId": "1"}"#),
            ErrorCode::MalformedMessage
        );
        assert_eq!(
            code(r#"{"type": "PING", "data": [], "timestamp": "t", "messageId": "1"}"#),
            ErrorCode::MalformedMessage
        );
        assert_eq!(
            code(r#"{"type": "PING", "data": {}, "messageId": "1"}"#),
            ErrorCode::MalformedMessage
        );
        assert_eq!(
            code(r#"{"type": "PING", "data": {}, "timestamp": "t"}"#),
            ErrorCode::MalformedMessage
        );
        assert_eq!(code(&frame("DANCE", serde_json::json!({}))), ErrorCode::UnknownMessageType);
        assert_eq!(parse(&frame("PING", serde_json::json!({}))).message, Ok(ClientMessage::Ping));
        assert_eq!(parse(&frame("PING", serde_json::json!({}))).message_id.as_deref(), Some("m1"));
    }

    #[test]
    fn colours_come_from_the_palette_and_nothing_else() {
        let hostile = r#"red" onmouseover="alert(1)"#;
        for colour in [hostile, "gray", "#ff0000", "Red", "<b>red</b>"] {
            let text = frame(
                "CONNECT",
                serde_json::json!({"playerId": "p", "name": "A", "color": colour}),
            );
            assert_eq!(code(&text), ErrorCode::InvalidColor, "{colour}");
        }
        for (colour, expected) in [("grey", Colour::named("grey")), ("", None)] {
            let text = frame(
                "CONNECT",
                serde_json::json!({"playerId": "p", "name": "A", "color": colour}),
            );
            let Ok(ClientMessage::Connect { color, .. }) = parse(&text).message else {
                panic!("{colour} is accepted")
            };
            assert_eq!(color, expected);
        }
    }

    #[test]
    fn rules_are_read_into_the_engine_options_at_the_edge() {
        let text = frame(
            "CREATE_ROOM",
            serde_json::json!({"roomName": "r", "maxPlayers": 2, "rules": {"abbots": true}}),
        );
        let Ok(ClientMessage::CreateRoom(settings)) = parse(&text).message else { panic!() };
        assert!(settings.rules.abbots);
        let text = frame(
            "CREATE_ROOM",
            serde_json::json!({"roomName": "r", "maxPlayers": 2, "rules": {"abots": true}}),
        );
        assert_eq!(code(&text), ErrorCode::InvalidRoomSettings);
    }

    /// A difficulty that is not a level may still name one of the server's own bots: the
    /// hub, which knows them, refuses an unknown one.
    #[test]
    fn a_difficulty_is_a_level_or_a_name() {
        let parsed = |difficulty: &str| {
            parse(&frame("ADD_BOT", serde_json::json!({"difficulty": difficulty}))).message
        };
        assert!(matches!(
            parsed("expert"),
            Ok(ClientMessage::AddBot { difficulty: BotLevel::Expert, .. })
        ));
        assert!(matches!(
            parsed("my-bot.2"),
            Ok(ClientMessage::AddBot { difficulty: BotLevel::Named(name), .. }) if name == "my-bot.2"
        ));
        for bad in ["", "a b", "x".repeat(65).as_str(), "ümlaut"] {
            assert_eq!(parsed(bad).unwrap_err().code, ErrorCode::InvalidData, "{bad:?}");
        }
    }

    #[test]
    fn data_fields_are_checked() {
        let bad = [
            frame("CONNECT", serde_json::json!({"name": "Ann"})),
            frame("CONNECT", serde_json::json!({"playerId": 5, "name": "Ann"})),
            frame("CONNECT", serde_json::json!({"playerId": "p", "name": "x".repeat(65)})),
            frame("CREATE_ROOM", serde_json::json!({"roomName": "r", "maxPlayers": 9})),
            frame(
                "CREATE_ROOM",
                serde_json::json!({"roomName": "r", "maxPlayers": 2, "turnSeconds": 0}),
            ),
            frame("ADD_BOT", serde_json::json!({"botName": "b", "difficulty": "in sane!"})),
            frame("PLACE_TILE", serde_json::json!({"position": {"x": 1}, "rotation": 0})),
            frame("PLACE_TILE", serde_json::json!({"position": {"x": 1, "y": 0}, "rotation": 45})),
            frame(
                "PLACE_TILE",
                serde_json::json!({"position": {"x": 99999, "y": 0}, "rotation": 0}),
            ),
            frame("PLACE_MEEPLE", serde_json::json!({"featureId": 40})),
            frame("PLACE_MEEPLE", serde_json::json!({"featureId": 1, "figure": "Dragon!"})),
            frame("TEND_FLOCK", serde_json::json!({})),
            frame("TEND_FLOCK", serde_json::json!({"grow": "yes"})),
            frame("JOIN_ROOM", serde_json::json!({"roomId": "r", "spectate": "yes"})),
            frame("CONNECT", serde_json::json!({"playerId": "bot:r1:1", "name": "Eve"})),
        ];
        for text in bad {
            assert_eq!(code(&text), ErrorCode::InvalidData, "{text}");
        }
        assert_eq!(
            parse(&frame("PLACE_MEEPLE", serde_json::json!({"featureId": "2"}))).message,
            Ok(ClientMessage::PlaceMeeple { feature_id: 2, figure: FigureChoice::FOLLOWER })
        );
        for figure in carcassonne::Figure::PUBLISHED {
            let data = serde_json::json!({"featureId": 1, "figure": figure.id()});
            assert_eq!(
                parse(&frame("PLACE_MEEPLE", data)).message,
                Ok(ClientMessage::PlaceMeeple { feature_id: 1, figure: FigureChoice(figure) })
            );
        }
        assert_eq!(
            parse(&frame("TEND_FLOCK", serde_json::json!({"grow": false}))).message,
            Ok(ClientMessage::TendFlock { grow: false })
        );
        assert_eq!(
            parse(&frame(
                "PLACE_TILE",
                serde_json::json!({"position": {"x": -1, "y": 2}, "rotation": 270})
            ))
            .message,
            Ok(ClientMessage::PlaceTile { x: -1, y: 2, rotation: 270 })
        );
    }
}
