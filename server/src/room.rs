//! A room: its members, its settings and its game, and every rule of part 1 and 2 about
//! them. A room changes only through the methods here, each of which either refuses (and
//! changes nothing) or returns what to store and what to tell whom; the hub stores, then
//! tells. No I/O and no clocks here, so every rule is tested without a socket.

use std::collections::VecDeque;
use std::sync::Arc;

use carcassonne::{
    Action, ActionError, Catalog, Event, Game, GameSetup, Phase, PlayerId, Pos, RuleOptions,
};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::protocol::codes::{ErrorCode, Refusal};
use crate::protocol::views::{self, Seat};

/// Where a room stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RoomState {
    Waiting,
    Starting,
    InProgress,
    Finished,
}

/// Who a message is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipient {
    /// Every member and spectator.
    All,
    /// One player.
    Player(String),
}

/// A message the room sends, numbered in the room's sequence.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub seq: u64,
    pub to: Recipient,
    /// The whole envelope, serialised once for every recipient.
    pub text: Arc<str>,
}

/// A turn's clock the hub should start: when it rings and the turn is still `turn`, the room
/// plays for the player (`Room::timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The room's turn time.
    TurnTime { turn: usize, seconds: u32 },
    /// A placed tile waiting for its figure action from a client that may never send one
    /// (a 1.0 client has no `SKIP_MEEPLE`).
    FigureGrace { turn: usize },
    /// A bot's turn.
    Bot { turn: usize },
    /// The player to move is disconnected.
    Absent { turn: usize },
}

/// A seat's player: a person (by player id) or a bot of a level.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Member {
    pub player_id: String,
    pub name: String,
    pub color: String,
    /// The bot level, for a bot.
    pub bot: Option<String>,
}

/// What `CREATE_ROOM` set, checked.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    pub name: String,
    pub max_players: u8,
    pub tilesets: Vec<String>,
    pub rules: RuleOptions,
    pub seed: u64,
    pub turn_seconds: Option<u32>,
}

/// A room as stored: everything but its game, which is its action log.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomRecord {
    pub id: String,
    pub settings: Settings,
    pub created_by: String,
    pub host: Option<String>,
    pub state: RoomState,
    pub members: Vec<Member>,
    /// The last message number sent.
    pub seq: u64,
}

/// The bytes of recent messages kept for clients that reconnect with `lastSeq`: a few turns'
/// worth (each `TURN_END` carries the whole state); a client further behind gets the state.
const LOG_BYTES: usize = 96 * 1024;

/// A message as it goes out: numbered (`seq`) when it is a room's.
#[derive(Serialize)]
pub struct Envelope<'a, T: ?Sized> {
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub data: &'a T,
    pub timestamp: String,
    #[serde(rename = "messageId")]
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
}

/// `TURN_END`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TurnEnd<'a> {
    player_id: &'a str,
    score_change: u32,
    score_changes: serde_json::Map<String, Value>,
    next_player: Option<String>,
    game_state: &'a RawValue,
    events: &'a [Event],
}

/// `GAME_END`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameEnd<'a> {
    winner: Option<&'a str>,
    winners: Vec<&'a str>,
    final_score: serde_json::Map<String, Value>,
    game_state: &'a RawValue,
    events: &'a [Event],
    game_id: &'a str,
}

/// `GAME_STATE`'s data.
#[derive(Serialize)]
pub struct GameStateMessage<'a> {
    #[serde(rename = "gameState")]
    pub game_state: &'a RawValue,
}

/// Colours given to members who name none, and to bots.
const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "gray"];

/// A room.
pub struct Room {
    pub id: String,
    pub settings: Settings,
    pub created_by: String,
    pub host: Option<String>,
    pub state: RoomState,
    pub members: Vec<Member>,
    pub spectators: Vec<String>,
    /// Members whose client is connected now (bots always are).
    pub connected: Vec<String>,
    pub game: Option<Game>,
    /// The last message number sent.
    pub seq: u64,
    log: VecDeque<Delivery>,
    log_bytes: usize,
    /// The Tile JSON of every tile type in the game, shared by games on the same sets.
    tiles: Option<views::TileJson>,
    /// The Player each person was last sent in `PLAYER_UPDATE`, by seat.
    sent_players: Vec<Value>,
    /// Scores when the turn began, for `scoreChange`.
    turn_scores: Vec<u32>,
    /// The turn's events, for `TURN_END`.
    turn_events: Vec<Event>,
    /// Messages and clocks of the change being made, taken by the hub.
    pub outbox: Vec<Delivery>,
    pub clocks: Vec<Clock>,
    /// Whether the change touched the members or settings (the stored room is rewritten).
    pub room_changed: bool,
    /// Actions of the change, for the stored game log.
    pub new_actions: Vec<Action>,
}

/// The time now, as the envelope's ISO 8601 `timestamp`.
pub fn now() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

impl Room {
    /// A new room with its creator as host and first member.
    pub fn new(id: String, settings: Settings, creator: Member) -> Room {
        let created_by = creator.player_id.clone();
        let mut room = Room {
            id,
            settings,
            created_by: created_by.clone(),
            host: Some(created_by.clone()),
            state: RoomState::Waiting,
            members: Vec::new(),
            spectators: Vec::new(),
            connected: vec![created_by],
            game: None,
            seq: 0,
            log: VecDeque::new(),
            log_bytes: 0,
            tiles: None,
            sent_players: Vec::new(),
            turn_scores: Vec::new(),
            turn_events: Vec::new(),
            outbox: Vec::new(),
            clocks: Vec::new(),
            room_changed: true,
            new_actions: Vec::new(),
        };
        room.members.push(room.coloured(creator));
        room.emit_room_state();
        room
    }

    /// What is stored of the room: everything but its game, which is its action log.
    pub fn record(&self) -> RoomRecord {
        RoomRecord {
            id: self.id.clone(),
            settings: self.settings.clone(),
            created_by: self.created_by.clone(),
            host: self.host.clone(),
            state: self.state,
            members: self.members.clone(),
            seq: self.seq,
        }
    }

    /// A room as stored, its game replayed from its actions.
    pub fn restore(record: RoomRecord, actions: &[Action]) -> Result<Room, String> {
        let RoomRecord { id, settings, created_by, host, state, members, seq } = record;
        let game = match state {
            RoomState::InProgress | RoomState::Finished => {
                let setup = setup(&settings, members.len())?;
                Some(Game::replay(setup, actions).map_err(|error| error.to_string())?)
            }
            _ => None,
        };
        let turn_scores = game.as_ref().map(|game| game.scores().to_vec()).unwrap_or_default();
        let tiles = game.as_ref().map(views::tile_json);
        let connected = members
            .iter()
            .filter(|member| member.bot.is_some())
            .map(|member| member.player_id.clone())
            .collect();
        Ok(Room {
            id,
            settings,
            created_by,
            host,
            state,
            connected,
            members,
            spectators: Vec::new(),
            game,
            seq,
            log: VecDeque::new(),
            log_bytes: 0,
            tiles,
            sent_players: Vec::new(),
            turn_scores,
            turn_events: Vec::new(),
            outbox: Vec::new(),
            clocks: Vec::new(),
            room_changed: false,
            new_actions: Vec::new(),
        })
    }

    fn coloured(&self, mut member: Member) -> Member {
        let taken = |colour: &str| self.members.iter().any(|other| other.color == colour);
        if member.color.is_empty() || taken(&member.color) {
            if let Some(free) = COLOURS.iter().find(|colour| !taken(colour)) {
                member.color = (*free).to_owned();
            }
        }
        member
    }

    // ----- Messages -----

    /// Sends `kind` with `data` to `to`, numbered in the room's sequence and kept for resync.
    pub fn emit<T: Serialize + ?Sized>(&mut self, to: Recipient, kind: &str, data: &T) {
        self.seq += 1;
        let envelope = Envelope {
            kind,
            data,
            timestamp: now(),
            message_id: format!("{}-{}", self.id, self.seq),
            seq: Some(self.seq),
        };
        let text: Arc<str> = serde_json::to_string(&envelope)
            .unwrap_or_else(|error| format!("{{\"type\":\"ERROR\",\"data\":{{\"code\":\"INTERNAL_ERROR\",\"message\":\"{error}\"}}}}"))
            .into();
        let delivery = Delivery { seq: self.seq, to, text };
        self.log_bytes += delivery.text.len();
        self.log.push_back(delivery.clone());
        while self.log_bytes > LOG_BYTES && self.log.len() > 1 {
            if let Some(old) = self.log.pop_front() {
                self.log_bytes -= old.text.len();
            }
        }
        self.outbox.push(delivery);
    }

    /// The messages after `last_seq` for `player`, or None when some are gone (the caller then
    /// sends a full state).
    pub fn since(&self, last_seq: u64, player: &str) -> Option<Vec<Arc<str>>> {
        if last_seq > self.seq {
            return None;
        }
        if last_seq == self.seq {
            return Some(Vec::new());
        }
        let first = self.log.front()?.seq;
        if last_seq + 1 < first {
            return None;
        }
        Some(
            self.log
                .iter()
                .filter(|delivery| delivery.seq > last_seq)
                .filter(|delivery| match &delivery.to {
                    Recipient::All => true,
                    Recipient::Player(id) => id == player,
                })
                .map(|delivery| delivery.text.clone())
                .collect(),
        )
    }

    fn seats(&self) -> Vec<Seat> {
        self.members
            .iter()
            .map(|member| Seat {
                player_id: member.player_id.clone(),
                name: member.name.clone(),
                color: member.color.clone(),
                is_bot: member.bot.is_some(),
                connected: member.bot.is_some() || self.connected.contains(&member.player_id),
            })
            .collect()
    }

    fn followers(&self) -> u8 {
        self.settings
            .tilesets
            .iter()
            .filter_map(|name| Catalog::builtin(name).ok())
            .map(|catalog| catalog.figures().followers)
            .max()
            .unwrap_or(7)
    }

    /// `ROOM_STATE`'s data.
    pub fn room_state(&self) -> Value {
        let followers = self.followers();
        let players: Vec<Value> = match (&self.game, self.game.as_ref().map(Game::view)) {
            (Some(_), Some(view)) => self
                .seats()
                .iter()
                .enumerate()
                .map(|(index, seat)| views::player(&view, index, seat))
                .collect(),
            _ => self
                .seats()
                .iter()
                .enumerate()
                .map(|(index, seat)| views::waiting_player(seat, index, followers))
                .collect(),
        };
        json!({
            "roomId": self.id,
            "name": self.settings.name,
            "players": players,
            "spectators": self.spectators.len(),
            "host": self.host,
            "maxPlayers": self.settings.max_players,
            "state": self.state,
            "gameStarted": matches!(self.state, RoomState::InProgress | RoomState::Finished),
            "gameEnded": self.state == RoomState::Finished,
            "tilesets": self.settings.tilesets,
            "rules": self.settings.rules,
            "turnSeconds": self.settings.turn_seconds,
        })
    }

    fn emit_room_state(&mut self) {
        let state = self.room_state();
        self.emit(Recipient::All, "ROOM_STATE", &state);
    }

    /// `GAME_STATE`'s `gameState`: the game's public state, or the room's before it starts,
    /// serialised.
    pub fn game_state(&self) -> Box<RawValue> {
        match (&self.game, &self.tiles) {
            (Some(game), Some(tiles)) => {
                views::game_state(game, &game.view(), &self.seats(), tiles)
            }
            _ => {
                let followers = self.followers();
                let players: Vec<Value> = self
                    .seats()
                    .iter()
                    .enumerate()
                    .map(|(index, seat)| views::waiting_player(seat, index, followers))
                    .collect();
                views::raw(&json!({
                    "tiles": {},
                    "currentTile": null,
                    "players": players,
                    "currentPlayer": null,
                    "gameStarted": false,
                    "gameEnded": false,
                    "scores": {},
                    "tilesLeft": null,
                }))
            }
        }
    }

    /// The list entry of `LIST_ROOMS`.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "name": self.settings.name,
            "playerCount": self.members.len(),
            "maxPlayers": self.settings.max_players,
            "gameStarted": matches!(self.state, RoomState::InProgress | RoomState::Finished),
            "createdBy": self.created_by,
            "state": self.state,
            "tilesets": self.settings.tilesets,
        })
    }

    // ----- Membership -----

    fn is_member(&self, player: &str) -> bool {
        self.members.iter().any(|member| member.player_id == player)
    }

    /// Whether `player` is in the room, playing or watching.
    pub fn contains(&self, player: &str) -> bool {
        self.is_member(player) || self.spectators.iter().any(|id| id == player)
    }

    /// `player` joins as a player (or watches, with `spectate`).
    pub fn join(&mut self, member: Member, spectate: bool) -> Result<(), Refusal> {
        if self.contains(&member.player_id) {
            return Err(Refusal::new(ErrorCode::AlreadyInRoom, "already in this room"));
        }
        if spectate {
            self.spectators.push(member.player_id.clone());
            self.mark_connected(&member.player_id);
        } else {
            if self.state != RoomState::Waiting {
                return Err(Refusal::new(
                    ErrorCode::GameAlreadyStarted,
                    "the game has begun; join with spectate: true to watch",
                ));
            }
            if self.members.len() >= usize::from(self.settings.max_players) {
                return Err(Refusal::new(ErrorCode::RoomFull, "the room is full"));
            }
            self.mark_connected(&member.player_id);
            let member = self.coloured(member);
            self.members.push(member);
            self.room_changed = true;
        }
        self.emit_room_state();
        Ok(())
    }

    fn mark_connected(&mut self, player: &str) {
        if !self.connected.iter().any(|id| id == player) {
            self.connected.push(player.to_owned());
        }
    }

    /// `player` leaves. Returns whether the room is now to be closed (no person left in it).
    pub fn leave(&mut self, player: &str) -> Result<bool, Refusal> {
        if let Some(index) = self.spectators.iter().position(|id| id == player) {
            self.spectators.remove(index);
            self.connected.retain(|id| id != player);
            self.emit_room_state();
            return Ok(false);
        }
        if !self.is_member(player) {
            return Err(Refusal::new(ErrorCode::NotInRoom, "not in this room"));
        }
        if self.state == RoomState::InProgress || self.state == RoomState::Starting {
            return Err(Refusal::new(
                ErrorCode::GameAlreadyStarted,
                "a game in progress takes game actions only; the room closes when it ends",
            ));
        }
        self.members.retain(|member| member.player_id != player);
        self.connected.retain(|id| id != player);
        self.room_changed = true;
        if self.host.as_deref() == Some(player) {
            self.host = self
                .members
                .iter()
                .find(|member| member.bot.is_none())
                .map(|member| member.player_id.clone());
        }
        let close = !self.members.iter().any(|member| member.bot.is_none());
        if !close {
            self.emit_room_state();
        }
        Ok(close)
    }

    /// The host adds a bot of `level`.
    pub fn add_bot(&mut self, by: &str, name: String, level: String) -> Result<(), Refusal> {
        self.check_host(by)?;
        if self.state != RoomState::Waiting {
            return Err(Refusal::new(ErrorCode::GameAlreadyStarted, "the game has begun"));
        }
        if self.members.len() >= usize::from(self.settings.max_players) {
            return Err(Refusal::new(ErrorCode::RoomFull, "the room is full"));
        }
        let number = (1..).find(|n| !self.is_member(&format!("{}-bot-{n}", self.id))).unwrap_or(1);
        let member = Member {
            player_id: format!("{}-bot-{number}", self.id),
            name,
            color: String::new(),
            bot: Some(level),
        };
        let member = self.coloured(member);
        self.members.push(member);
        self.room_changed = true;
        self.emit_room_state();
        Ok(())
    }

    fn check_host(&self, by: &str) -> Result<(), Refusal> {
        if !self.is_member(by) && !self.spectators.iter().any(|id| id == by) {
            return Err(Refusal::new(ErrorCode::NotInRoom, "not in this room"));
        }
        if self.host.as_deref() != Some(by) {
            return Err(Refusal::new(ErrorCode::NotHost, "only the host may do that"));
        }
        Ok(())
    }

    /// A member's client connected or went away.
    pub fn set_connected(&mut self, player: &str, connected: bool) {
        let known = self.contains(player);
        let was = self.connected.iter().any(|id| id == player);
        if !known || was == connected {
            return;
        }
        if connected {
            self.connected.push(player.to_owned());
        } else {
            self.connected.retain(|id| id != player);
        }
        if self.is_member(player) {
            self.emit_room_state();
            if !connected && self.is_current(player) {
                self.clocks.push(Clock::Absent { turn: self.turn() });
            }
        }
    }

    // ----- The game -----

    /// The host starts the game.
    pub fn start(&mut self, by: &str) -> Result<(), Refusal> {
        self.check_host(by)?;
        if self.state != RoomState::Waiting {
            return Err(Refusal::new(ErrorCode::GameAlreadyStarted, "the game has begun"));
        }
        if self.members.len() < 2 {
            return Err(Refusal::new(
                ErrorCode::NotEnoughPlayers,
                "a game needs at least two players",
            ));
        }
        let setup = setup(&self.settings, self.members.len())
            .map_err(|error| Refusal::new(ErrorCode::InvalidRoomSettings, error))?;
        let game = Game::new(setup)
            .map_err(|error| Refusal::new(ErrorCode::InvalidRoomSettings, error.to_string()))?;
        self.state = RoomState::InProgress;
        self.room_changed = true;
        self.tiles = Some(views::tile_json(&game));
        self.game = Some(game);
        let players: Vec<Value> = {
            let view = self.game.as_ref().map(Game::view);
            let seats = self.seats();
            match view {
                Some(view) => seats
                    .iter()
                    .enumerate()
                    .map(|(index, seat)| views::player(&view, index, seat))
                    .collect(),
                None => Vec::new(),
            }
        };
        let data = json!({ "roomId": self.id, "players": players });
        self.emit(Recipient::All, "GAME_START", &data);
        self.update_players();
        self.draw_and_start_turn()?;
        Ok(())
    }

    /// How many actions the game has had: identifies a moment of the game for clocks.
    pub fn turn(&self) -> usize {
        self.game.as_ref().map_or(0, |game| game.actions().len())
    }

    fn current_member(&self) -> Option<&Member> {
        let game = self.game.as_ref()?;
        self.members.get(game.current_player().index())
    }

    fn is_current(&self, player: &str) -> bool {
        self.current_member().is_some_and(|member| member.player_id == player)
    }

    /// The current player's bot level, when a bot is to move.
    pub fn bot_to_move(&self) -> Option<(PlayerId, String)> {
        let game = self.game.as_ref()?;
        if self.state != RoomState::InProgress || game.is_over() {
            return None;
        }
        let member = self.current_member()?;
        member.bot.clone().map(|level| (game.current_player(), level))
    }

    fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        let Some(game) = self.game.as_mut() else { return Err(ActionError::GameOver) };
        game.apply_into(action, &mut self.turn_events)?;
        self.new_actions.push(action);
        Ok(())
    }

    /// Draws until a tile waits for its player (discarding what fits nowhere), then
    /// `TURN_START` and the turn's clocks; or the end.
    fn draw_and_start_turn(&mut self) -> Result<(), Refusal> {
        loop {
            let Some(game) = self.game.as_ref() else { return Ok(()) };
            match game.phase() {
                Phase::Draw => self.apply(Action::Draw).map_err(internal)?,
                Phase::GameOver => return self.end_game(),
                _ => break,
            }
        }
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        self.turn_scores = game.scores().to_vec();
        if let Some((kind, data)) = self.turn_message() {
            self.emit(Recipient::All, kind, &data);
        }
        let clocks = self.turn_clocks();
        self.clocks.extend(clocks);
        Ok(())
    }

    /// The clocks the moment of the game calls for: a bot's move; else the room's turn time,
    /// the figure grace once the tile is down, and the absence grace when the player to move
    /// is not connected. Used as each turn starts and when a stored game resumes.
    pub fn turn_clocks(&self) -> Vec<Clock> {
        let Some(game) = self.game.as_ref().filter(|_| self.state == RoomState::InProgress) else {
            return Vec::new();
        };
        let turn = self.turn();
        if self.bot_to_move().is_some() {
            return vec![Clock::Bot { turn }];
        }
        let mut clocks = Vec::new();
        if let Some(seconds) = self.settings.turn_seconds {
            clocks.push(Clock::TurnTime { turn, seconds });
        }
        if matches!(game.phase(), Phase::Figure { .. }) {
            clocks.push(Clock::FigureGrace { turn });
        }
        if self.current_member().is_some_and(|member| !self.connected.contains(&member.player_id)) {
            clocks.push(Clock::Absent { turn });
        }
        clocks
    }

    /// The turn in progress as its message: `TURN_START` while the drawn tile waits to be
    /// placed, `TILE_PLACED` (with the figure choices) while its player chooses a figure.
    /// Sent to the room as the turn moves, and again to a client that comes back.
    pub fn turn_message(&self) -> Option<(&'static str, Value)> {
        let game = self.game.as_ref()?;
        let view = game.view();
        let current = self.current_member().map(|member| member.player_id.clone());
        match game.phase() {
            Phase::Place { .. } => Some((
                "TURN_START",
                json!({
                    "currentPlayer": current,
                    "currentTile": views::current_tile(game, &view),
                    "validPlacements": views::valid_placements(game),
                    "tilesLeft": view.tiles_left,
                    "turnSeconds": self.settings.turn_seconds,
                }),
            )),
            Phase::Figure { pos } => {
                let placed = view.tiles.iter().find(|tile| tile.pos == pos)?;
                let recalls: Vec<Value> = game
                    .legal_actions()
                    .iter()
                    .filter_map(|action| match action {
                        Action::RecallAbbot { pos } => Some(views::position(pos.x, pos.y)),
                        _ => None,
                    })
                    .collect();
                Some((
                    "TILE_PLACED",
                    json!({
                        "playerId": current,
                        "position": views::position(pos.x, pos.y),
                        "rotation": placed.rotation.degrees(),
                        "tile": views::current_tile(game, &view),
                        "meepleOptions": views::meeple_options(game),
                        "abbotRecalls": recalls,
                    }),
                ))
            }
            _ => None,
        }
    }

    fn check_turn(&self, player: &str) -> Result<(), Refusal> {
        if self.spectators.iter().any(|id| id == player) {
            return Err(Refusal::new(ErrorCode::NotAPlayer, "spectators watch; they do not act"));
        }
        if !self.is_member(player) {
            return Err(Refusal::new(ErrorCode::NotInRoom, "not in this room"));
        }
        if self.state != RoomState::InProgress || self.game.is_none() {
            return Err(Refusal::new(
                ErrorCode::GameNotStarted,
                "the room has no game in progress",
            ));
        }
        if !self.is_current(player) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        Ok(())
    }

    /// The current player places the drawn tile.
    pub fn place_tile(
        &mut self,
        player: &str,
        x: i16,
        y: i16,
        degrees: u16,
    ) -> Result<(), Refusal> {
        self.check_turn(player)?;
        let pos = Pos::new(x, y);
        let action = Action::Place { pos, rotation: views::rotation(degrees) };
        if let Err(error) = self.apply(action) {
            return Err(match error {
                ActionError::WrongPhase { .. } => Refusal::new(
                    ErrorCode::WrongPhase,
                    "the tile is placed; choose a figure or skip",
                ),
                other => Refusal::new(ErrorCode::InvalidPlacement, other.to_string()).with_details(
                    json!({
                        "position": views::position(x, y),
                        "rotation": degrees,
                        "reason": other.reason(),
                    }),
                ),
            });
        }
        let Some((kind, data)) = self.turn_message() else { return Ok(()) };
        self.emit(Recipient::All, kind, &data);
        let none = |field: &str| data[field].as_array().is_none_or(Vec::is_empty);
        if none("meepleOptions") && none("abbotRecalls") {
            // Nothing to choose: the turn ends as a 1.0 client expects, without a message.
            self.apply(Action::Skip).map_err(internal)?;
            return self.end_turn(player);
        }
        if self.bot_to_move().is_none() {
            self.clocks.push(Clock::FigureGrace { turn: self.turn() });
        }
        Ok(())
    }

    /// The current player's figure action: a figure on a feature of the placed tile, none, or
    /// an abbot recalled.
    pub fn figure_action(&mut self, player: &str, action: Action) -> Result<(), Refusal> {
        self.check_turn(player)?;
        if let Err(error) = self.apply(action) {
            return Err(match error {
                ActionError::WrongPhase { .. } => {
                    Refusal::new(ErrorCode::WrongPhase, "place the tile first")
                }
                ActionError::NoneLeft { .. } => {
                    Refusal::new(ErrorCode::NoMeeples, error.to_string())
                }
                other => Refusal::new(ErrorCode::InvalidMeeple, other.to_string())
                    .with_details(json!({ "reason": other.reason() })),
            });
        }
        self.end_turn(player)
    }

    fn end_turn(&mut self, player: &str) -> Result<(), Refusal> {
        // The next draw happens here, so its events (a discard) belong to this TURN_END.
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        let scores = game.scores().to_vec();
        let changes: serde_json::Map<String, Value> = self
            .members
            .iter()
            .enumerate()
            .map(|(index, member)| {
                let before = self.turn_scores.get(index).copied().unwrap_or(0);
                (member.player_id.clone(), json!(scores[index].saturating_sub(before)))
            })
            .collect();
        let seat = self.members.iter().position(|member| member.player_id == player).unwrap_or(0);
        let score_change =
            scores[seat].saturating_sub(self.turn_scores.get(seat).copied().unwrap_or(0));
        let next = (!game.is_over())
            .then(|| self.current_member().map(|member| member.player_id.clone()))
            .flatten();
        let state = self.game_state();
        let events = std::mem::take(&mut self.turn_events);
        let data = views::raw(&TurnEnd {
            player_id: player,
            score_change,
            score_changes: changes,
            next_player: next,
            game_state: &state,
            events: &events,
        });
        self.turn_events = events;
        self.turn_events.clear();
        self.emit(Recipient::All, "TURN_END", &data);
        self.update_players();
        self.draw_and_start_turn()
    }

    /// `PLAYER_UPDATE` to each person whose Player (score, figures in hand, connection)
    /// changed since they were last sent it.
    fn update_players(&mut self) {
        let Some(game) = self.game.as_ref() else { return };
        let view = game.view();
        let seats = self.seats();
        let players: Vec<Value> = seats
            .iter()
            .enumerate()
            .map(|(index, seat)| views::player(&view, index, seat))
            .collect();
        for (index, player) in players.iter().enumerate() {
            if seats[index].is_bot || self.sent_players.get(index) == Some(player) {
                continue;
            }
            let data = json!({ "player": player });
            self.emit(Recipient::Player(seats[index].player_id.clone()), "PLAYER_UPDATE", &data);
        }
        self.sent_players = players;
    }

    fn end_game(&mut self) -> Result<(), Refusal> {
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        let scores = game.scores().to_vec();
        let leaders = game.leaders();
        let winners: Vec<&str> = leaders
            .iter()
            .filter_map(|player| self.members.get(player.index()))
            .map(|member| member.player_id.as_str())
            .collect();
        let final_score: serde_json::Map<String, Value> = self
            .members
            .iter()
            .zip(&scores)
            .map(|(member, score)| (member.player_id.clone(), json!(score)))
            .collect();
        let state = self.game_state();
        let data = views::raw(&GameEnd {
            winner: winners.first().copied(),
            winners: winners.clone(),
            final_score,
            game_state: &state,
            events: &self.turn_events,
            game_id: &self.id,
        });
        self.turn_events.clear();
        self.state = RoomState::Finished;
        self.room_changed = true;
        self.emit(Recipient::All, "GAME_END", &data);
        self.emit_room_state();
        Ok(())
    }

    /// A clock rang: if the game is still at `turn`, the room plays for the player (a random
    /// placement from the game's seed and turn, then no figure) or, for a figure grace, ends
    /// the turn without a figure. Returns whether it acted.
    pub fn timeout(&mut self, clock: Clock) -> Result<bool, Refusal> {
        let (turn, what) = match clock {
            Clock::TurnTime { turn, .. } => (turn, "turn time"),
            Clock::FigureGrace { turn } => (turn, "figure grace"),
            Clock::Absent { turn } => (turn, "absent"),
            Clock::Bot { .. } => return Ok(false),
        };
        if self.turn() != turn || self.state != RoomState::InProgress {
            return Ok(false);
        }
        if let Clock::Absent { .. } = clock
            && self
                .current_member()
                .is_some_and(|member| self.connected.contains(&member.player_id))
        {
            return Ok(false);
        }
        let Some(player) = self.current_member().map(|member| member.player_id.clone()) else {
            return Ok(false);
        };
        let Some(game) = self.game.as_ref() else { return Ok(false) };
        match game.phase() {
            Phase::Place { .. } => {
                let count = game.legal_action_count().max(1) as u64;
                let pick = carcassonne_bots::derive_seed(self.settings.seed, turn as u64) % count;
                let Some(Action::Place { pos, rotation }) = game.legal_action(pick as usize) else {
                    return Ok(false);
                };
                let data = json!({ "playerId": player, "reason": what, "position": views::position(pos.x, pos.y), "rotation": rotation.degrees() });
                self.emit(Recipient::All, "TURN_TIMEOUT", &data);
                self.place_tile(&player, pos.x, pos.y, rotation.degrees())?;
                if matches!(self.game.as_ref().map(Game::phase), Some(Phase::Figure { .. })) {
                    self.figure_action(&player, Action::Skip)?;
                }
            }
            Phase::Figure { .. } => {
                let data = json!({ "playerId": player, "reason": what });
                self.emit(Recipient::All, "TURN_TIMEOUT", &data);
                self.figure_action(&player, Action::Skip)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Plays a bot's chosen turn (its placement and figure action), if the game is still at
    /// `turn`.
    pub fn bot_turn(&mut self, turn: usize, actions: &[Action]) -> Result<bool, Refusal> {
        if self.turn() != turn || self.state != RoomState::InProgress {
            return Ok(false);
        }
        let Some(player) = self
            .current_member()
            .filter(|member| member.bot.is_some())
            .map(|member| member.player_id.clone())
        else {
            return Ok(false);
        };
        for action in actions {
            match action {
                Action::Place { pos, rotation } => {
                    self.place_tile(&player, pos.x, pos.y, rotation.degrees())?
                }
                other => {
                    if matches!(self.game.as_ref().map(Game::phase), Some(Phase::Figure { .. })) {
                        self.figure_action(&player, *other)?;
                    }
                }
            }
        }
        Ok(true)
    }
}

fn internal(error: ActionError) -> Refusal {
    Refusal::new(ErrorCode::InternalError, format!("the server's own action was refused: {error}"))
}

/// The engine's setup for a room's settings and players.
pub fn setup(settings: &Settings, players: usize) -> Result<GameSetup, String> {
    let catalogs = settings
        .tilesets
        .iter()
        .map(|name| Catalog::builtin(name).map_err(|error| error.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let players = u8::try_from(players).map_err(|_| "too many players".to_owned())?;
    Ok(GameSetup { catalogs, players, seed: settings.seed, options: settings.rules })
}
