//! A room: its members, its settings and its game, and every rule of part 1 and 2 about
//! them. A room changes only through the methods here, each of which either refuses (and
//! changes nothing) or returns its [`Effects`]: what to store, whom to tell, which clocks to
//! start; the hub stores, then tells. No I/O and no clocks here, so every rule is tested
//! without a socket (the tests at the bottom).

use std::collections::VecDeque;
use std::sync::Arc;

use carcassonne::{Action, ActionError, Event, Game, GameSetup, Phase, PlayerId, Pos, RuleOptions};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::library::Library;
use crate::protocol::client::{BotLevel, FigureChoice, RoomSettings};
use crate::protocol::codes::{ErrorCode, Refusal};
use crate::protocol::views::{self, Seat};
use crate::records::Write;

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
    /// `ROOM_STATE` for the comings and goings since the last one: presence and watchers are
    /// told together, a few times a second at most, however fast they change.
    RoomState,
    /// The player to move is disconnected.
    Absent { turn: usize },
}

/// A seat's player: a person (by player id) or a bot of a level.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Member {
    pub player_id: String,
    pub name: String,
    /// The seat's colour: the tile sets' colour for the seat, set by the room.
    pub color: String,
    /// The bot level, for a bot.
    pub bot: Option<String>,
}

/// Where bots' player ids begin: a client's `playerId` may not, so no client can speak for
/// a bot (`protocol::client` refuses such an id).
pub const BOT_PREFIX: &str = "bot:";

/// Why the hub should close a room after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// The game ended: the room is forgotten, its game kept for download.
    Finished,
    /// No person is left before any game: the room is deleted.
    Empty,
}

/// What an accepted change asks of the hub, in this order: store `writes` (all or none), then
/// deliver the messages, then start the clocks, then close the room if it says so.
#[derive(Debug, Default)]
#[must_use = "a change's effects are stored, then carried out"]
pub struct Effects {
    writes: Vec<Write>,
    deliveries: Vec<Delivery>,
    clocks: Vec<Clock>,
    closing: Option<Closing>,
}

impl Effects {
    /// What to store before anyone hears of the change.
    pub fn writes(&self) -> &[Write] {
        &self.writes
    }

    /// The messages to deliver once stored, in order.
    pub fn deliveries(&self) -> &[Delivery] {
        &self.deliveries
    }

    /// The clocks to start once delivered.
    pub fn clocks(&self) -> &[Clock] {
        &self.clocks
    }

    /// Whether the room closes after the change.
    pub fn closing(&self) -> Option<Closing> {
        self.closing
    }

    /// Adds a write of the hub's own (a session's room) to the change's batch.
    pub fn store_too(&mut self, write: Write) {
        self.writes.push(write);
    }

    /// Takes the parts apart: writes, deliveries, clocks.
    pub fn into_parts(self) -> (Vec<Write>, Vec<Delivery>, Vec<Clock>) {
        (self.writes, self.deliveries, self.clocks)
    }
}

/// What a change being made has produced so far; taken whole into its `Effects`.
#[derive(Debug, Default)]
struct Pending {
    deliveries: Vec<Delivery>,
    clocks: Vec<Clock>,
    /// Whether the change touched the members or settings (the stored room is rewritten).
    room_changed: bool,
    /// Actions of the change, for the stored game log.
    actions: Vec<Action>,
    closing: Option<Closing>,
}

/// What `CREATE_ROOM` set, checked.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    pub name: String,
    pub max_players: u8,
    pub tilesets: Vec<String>,
    pub rules: RuleOptions,
    pub seed: u64,
    /// Whether the host chose the seed: then everyone is told it, since it decides every
    /// draw; a seed the server drew is never told.
    #[serde(default)]
    pub seed_chosen: bool,
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
    events: views::EventsOut<'a>,
}

/// `GAME_END`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameEnd<'a> {
    winner: Option<&'a str>,
    winners: Vec<&'a str>,
    final_score: serde_json::Map<String, Value>,
    game_state: &'a RawValue,
    events: views::EventsOut<'a>,
    game_id: &'a str,
}

/// `ROOM_STATE`'s data: part 1's `roomId`, `players`, `gameStarted`, `gameEnded`, and what
/// 1.1 adds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomStateOut<'a> {
    pub room_id: &'a str,
    pub name: &'a str,
    pub players: Vec<views::PlayerOut>,
    pub spectators: usize,
    pub host: Option<&'a str>,
    pub max_players: u8,
    pub state: RoomState,
    pub game_started: bool,
    pub game_ended: bool,
    pub tilesets: &'a [String],
    pub rules: RuleOptions,
    pub turn_seconds: Option<u32>,
    /// The seed when the host chose it; absent (not null) when the server drew it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// A room in `LIST_ROOMS`: part 1's `{id, name, playerCount, maxPlayers, gameStarted,
/// createdBy}` and what 1.1 adds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomSummary<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub player_count: usize,
    pub max_players: u8,
    pub game_started: bool,
    pub created_by: &'a str,
    pub state: RoomState,
    pub tilesets: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The turn in progress as a message (see `Room::turn_message`).
#[derive(Serialize)]
#[serde(untagged)]
pub enum TurnMessage {
    Start(TurnStart),
    Placed(TilePlaced),
    Flock(FlockChoice),
}

impl TurnMessage {
    /// The message's type.
    pub fn kind(&self) -> &'static str {
        match self {
            TurnMessage::Start(_) => "TURN_START",
            TurnMessage::Placed(_) => "TILE_PLACED",
            TurnMessage::Flock(_) => "FLOCK_CHOICE",
        }
    }

    /// Whether the player has a figure choice to make (a tile placed with options).
    fn has_choices(&self) -> bool {
        match self {
            TurnMessage::Start(_) | TurnMessage::Flock(_) => true,
            TurnMessage::Placed(placed) => {
                !placed.meeple_options.is_empty() || !placed.abbot_recalls.is_empty()
            }
        }
    }
}

/// `TURN_START`'s data: part 1's `currentPlayer`, `currentTile`, `validPlacements`, and what
/// 1.1 adds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnStart {
    pub current_player: Option<String>,
    pub current_tile: Option<views::TileShape>,
    pub valid_placements: Vec<views::Placement>,
    pub tiles_left: u32,
    pub turn_seconds: Option<u32>,
    /// 1.1: present (true) when the turn is a builder's second turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub second_turn: bool,
}

/// `FLOCK_CHOICE`'s data (1.1): the tile extended the field of the current player's shepherd,
/// who now grows its flock or drives it to market with `TEND_FLOCK`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlockChoice {
    pub player_id: Option<String>,
    /// The shepherd's tile.
    pub position: views::Position,
    /// The shepherd's feature on that tile.
    pub feature_id: u8,
    /// The sheep of its flock now.
    pub sheep: u32,
    /// Whether the bag has a token left to grow by.
    pub can_grow: bool,
    /// What the bag holds.
    pub bag: views::SheepBagOut,
}

/// `TILE_PLACED`'s data (1.1): the placement, the tile, and the figure choices it opens.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TilePlaced {
    pub player_id: Option<String>,
    pub position: views::Position,
    pub rotation: u16,
    pub tile: Option<views::TileShape>,
    pub meeple_options: Vec<views::MeepleOption>,
    pub abbot_recalls: Vec<views::Position>,
}

/// `TURN_TIMEOUT`'s data (1.1): whose turn a clock played, why, and where the tile went.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TurnTimeout<'a> {
    player_id: &'a str,
    reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<views::Position>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rotation: Option<u16>,
}

/// `GAME_START`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameStart<'a> {
    room_id: &'a str,
    players: Vec<views::PlayerOut>,
}

/// `PLAYER_UPDATE`'s data.
#[derive(Serialize)]
struct PlayerUpdate<'a> {
    player: &'a views::PlayerOut,
}

/// A waiting room's GameState: part 1's shape, empty.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WaitingState {
    tiles: Map<String, Value>,
    current_tile: Option<Value>,
    players: Vec<views::PlayerOut>,
    current_player: Option<String>,
    game_started: bool,
    game_ended: bool,
    scores: Map<String, Value>,
    tiles_left: Option<u32>,
}

/// `GAME_STATE`'s data.
#[derive(Serialize)]
pub struct GameStateMessage<'a> {
    #[serde(rename = "gameState")]
    pub game_state: &'a RawValue,
}

/// A room.
pub struct Room {
    id: String,
    settings: Settings,
    created_by: String,
    host: Option<String>,
    state: RoomState,
    members: Vec<Member>,
    spectators: Vec<String>,
    /// Members whose client is connected now (bots always are).
    connected: Vec<String>,
    game: Option<Game>,
    /// The last message number sent.
    seq: u64,
    log: VecDeque<Delivery>,
    log_bytes: usize,
    /// The Tile JSON of every tile type in the game, shared by games on the same sets.
    tiles: Option<views::TileJson>,
    /// The Player each person was last sent in `PLAYER_UPDATE`, by seat.
    sent_players: Vec<views::PlayerOut>,
    /// Scores when the turn began, for `scoreChange`.
    turn_scores: Vec<u32>,
    /// The turn's events, for `TURN_END`.
    turn_events: Vec<Event>,
    /// What the change being made has produced.
    pending: Pending,
    /// Whether comings and goings wait to be told in a `ROOM_STATE`.
    room_state_due: bool,
    /// Whether a [`Clock::RoomState`] is running for them.
    room_state_clock: bool,
    /// Where the room's tile sets are looked up by id.
    library: Arc<Library>,
}

/// The time now, as the envelope's ISO 8601 `timestamp`.
pub fn now() -> String {
    // The clock through web-time (std's `SystemTime::now` panics in WebAssembly in a browser),
    // formatted by humantime from the same instant as std's type.
    let since_epoch =
        web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).unwrap_or_default();
    humantime::format_rfc3339_millis(std::time::UNIX_EPOCH + since_epoch).to_string()
}

impl Room {
    /// A new room with its creator as host and first member, and what creating it asks: the
    /// room stored, `ROOM_STATE` and the creator's `GAME_STATE`.
    /// A room made by `creator` with `settings` (checked by [`check_settings`] against
    /// `library`, which the room's sets are looked up in), and what to do about it.
    pub fn new(
        id: String,
        settings: Settings,
        creator: Member,
        library: Arc<Library>,
    ) -> (Room, Effects) {
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
            pending: Pending { room_changed: true, ..Pending::default() },
            room_state_due: false,
            room_state_clock: false,
            library,
        };
        let creator_id = creator.player_id.clone();
        room.members.push(creator);
        room.recolour();
        room.emit_room_state();
        room.emit_game_state_to(&creator_id);
        let effects = room.effects(0, 0);
        (room, effects)
    }

    /// Runs `change`, which cannot be refused, and returns its effects.
    fn change(&mut self, change: impl FnOnce(&mut Room)) -> Effects {
        let (first_action, seq) = (self.turn(), self.seq);
        change(self);
        self.effects(first_action, seq)
    }

    /// Runs `change`: its effects when it is accepted; when refused, nothing changed.
    fn accept(
        &mut self,
        change: impl FnOnce(&mut Room) -> Result<(), Refusal>,
    ) -> Result<Effects, Refusal> {
        let first_action = self.turn();
        let seq = self.seq;
        match change(self) {
            Ok(()) => Ok(self.effects(first_action, seq)),
            Err(refusal) => {
                let pending = std::mem::take(&mut self.pending);
                if self.seq != seq || !pending.actions.is_empty() || pending.room_changed {
                    // Refused after a change began: only a fault of the server's does that
                    // (each rule is checked before anything moves). The hub reads the room
                    // back from storage.
                    return Err(Refusal::new(
                        ErrorCode::InternalError,
                        format!("the room was left half-changed: {}", refusal.message),
                    )
                    .with_details(json!({ "reload": true })));
                }
                Err(refusal)
            }
        }
    }

    /// What the change since (`first_action`, `seq`) produced, taken out of the room.
    fn effects(&mut self, first_action: usize, seq: u64) -> Effects {
        let pending = std::mem::take(&mut self.pending);
        let mut writes = Vec::new();
        if pending.room_changed {
            writes.push(Write::Room(self.record()));
        } else if self.seq != seq {
            writes.push(Write::Seq { room: self.id.clone(), seq: self.seq });
        }
        if !pending.actions.is_empty() {
            writes.push(Write::Actions {
                room: self.id.clone(),
                first: first_action,
                actions: pending.actions,
            });
        }
        Effects {
            writes,
            deliveries: pending.deliveries,
            clocks: pending.clocks,
            closing: pending.closing,
        }
    }

    // ----- What the hub reads -----

    /// The room's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Where the room stands.
    pub fn state(&self) -> RoomState {
        self.state
    }

    /// The player id of who created the room.
    pub fn created_by(&self) -> &str {
        &self.created_by
    }

    /// The room's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game, once started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The last message number sent.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The player ids of every person in the room (members who are not bots, and
    /// spectators): whom `Recipient::All` reaches.
    pub fn people(&self) -> impl Iterator<Item = &str> {
        self.members
            .iter()
            .filter(|member| member.bot.is_none())
            .map(|member| member.player_id.as_str())
            .chain(self.spectators.iter().map(String::as_str))
    }

    /// Whether `player` holds a seat in a game not yet over (their seat stays theirs).
    pub fn seats_in_play(&self, player: &str) -> bool {
        self.state == RoomState::InProgress && self.is_member(player)
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

    /// A room as stored, its game replayed from its actions, its sets looked up in `library`.
    ///
    /// # Errors
    /// A set the library no longer has, or actions its game refuses, as a message.
    pub fn restore(
        record: RoomRecord,
        actions: &[Action],
        library: Arc<Library>,
    ) -> Result<Room, String> {
        let RoomRecord { id, settings, created_by, host, state, mut members, seq } = record;
        // Rooms stored before bots had ids of their own (`r1-bot-1`, which a client could
        // claim) get them now; games refer to seats, never to ids.
        for (seat, member) in members.iter_mut().enumerate() {
            if member.bot.is_some() && !member.player_id.starts_with(BOT_PREFIX) {
                member.player_id = format!("{BOT_PREFIX}{id}:{}", seat + 1);
            }
        }
        let game = match state {
            RoomState::InProgress | RoomState::Finished => {
                let setup = setup(&settings, members.len(), &library)?;
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
            pending: Pending::default(),
            room_state_due: false,
            room_state_clock: false,
            library,
        })
        .map(|mut room| {
            room.recolour();
            room
        })
    }

    /// The engine's game for these settings with every seat filled, before the game starts:
    /// what colour and figures each seat will have comes from it, never from a copy of the
    /// engine's rules here. None only for settings the engine refuses (checked at creation).
    fn seating(&self) -> Option<Game> {
        let seats = usize::from(self.settings.max_players);
        setup(&self.settings, seats, &self.library).ok().and_then(|setup| Game::new(setup).ok())
    }

    /// Gives each seat the colour the engine gives it (the tile sets' colours in seat order:
    /// seat 0 red, 1 green, …), so one seat has one colour everywhere: messages, pictures and
    /// saved games.
    fn recolour(&mut self) {
        let seating = self.seating();
        for (seat, member) in self.members.iter_mut().enumerate() {
            let colour = u8::try_from(seat)
                .ok()
                .and_then(|seat| seating.as_ref()?.player_colour(PlayerId(seat)))
                .unwrap_or(carcassonne::PALETTE[seat % carcassonne::PALETTE.len()].name());
            member.color = colour.to_owned();
        }
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
        self.pending.deliveries.push(delivery);
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

    /// Every seat's Player: from the game once it runs, else what each will start with.
    fn players(&self) -> Vec<views::PlayerOut> {
        let seats = self.seats();
        if let Some(game) = &self.game {
            let view = game.view();
            return seats
                .iter()
                .enumerate()
                .map(|(index, seat)| views::player(game, &view, index, seat))
                .collect();
        }
        let supply = self.seating().map(|game| game.supply(PlayerId(0))).unwrap_or_default();
        seats
            .iter()
            .enumerate()
            .map(|(index, seat)| views::player_out(seat, index, &supply, 0))
            .collect()
    }

    /// `ROOM_STATE`'s data.
    pub fn room_state(&self) -> RoomStateOut<'_> {
        RoomStateOut {
            room_id: &self.id,
            name: &self.settings.name,
            players: self.players(),
            spectators: self.spectators.len(),
            host: self.host.as_deref(),
            max_players: self.settings.max_players,
            state: self.state,
            game_started: matches!(self.state, RoomState::InProgress | RoomState::Finished),
            game_ended: self.state == RoomState::Finished,
            tilesets: &self.settings.tilesets,
            rules: self.settings.rules,
            turn_seconds: self.settings.turn_seconds,
            seed: self.announced_seed(),
        }
    }

    /// The seed, when the host chose it: everyone in or looking at the room is told, since it
    /// decides every draw. A seed the server drew stays the server's.
    fn announced_seed(&self) -> Option<u64> {
        self.settings.seed_chosen.then_some(self.settings.seed)
    }

    /// `GAME_STATE` to one person (on joining, and to the creator).
    fn emit_game_state_to(&mut self, player: &str) {
        let state = self.game_state();
        self.emit(
            Recipient::Player(player.to_owned()),
            "GAME_STATE",
            &GameStateMessage { game_state: &state },
        );
    }

    fn emit_room_state(&mut self) {
        let state = views::raw(&self.room_state());
        self.emit(Recipient::All, "ROOM_STATE", &state);
        self.room_state_due = false;
    }

    /// Comings and goings (presence and watchers; a seat taken or left is told at once, and
    /// seats are few and only in a room that waits) are told at once when none was told for a
    /// [`Clock::RoomState`]'s time, else together when it rings: someone reconnecting or
    /// toggling a watch a thousand times a second costs the room's other people a few
    /// messages a second, not a thousand. `joiner`, a watcher just come in, is told at once
    /// either way.
    fn room_state_soon(&mut self, joiner: Option<&str>) {
        if self.room_state_clock {
            self.room_state_due = true;
            if let Some(player) = joiner {
                self.emit_room_state_to(player);
            }
        } else {
            self.emit_room_state();
            self.room_state_clock = true;
            self.pending.clocks.push(Clock::RoomState);
        }
    }

    /// `ROOM_STATE` to `player` alone, now: what someone just come in needs before anything
    /// else, while the others hear of them with the next coalesced one.
    fn emit_room_state_to(&mut self, player: &str) {
        let state = views::raw(&self.room_state());
        self.emit(Recipient::Player(player.to_owned()), "ROOM_STATE", &state);
    }

    /// `GAME_STATE`'s `gameState`: the game's public state, or the room's before it starts,
    /// serialised.
    pub fn game_state(&self) -> Box<RawValue> {
        match (&self.game, &self.tiles) {
            (Some(game), Some(tiles)) => {
                views::game_state(game, &game.view(), &self.seats(), tiles)
            }
            _ => views::raw(&WaitingState {
                tiles: Map::new(),
                current_tile: None,
                players: self.players(),
                current_player: None,
                game_started: false,
                game_ended: false,
                scores: Map::new(),
                tiles_left: None,
            }),
        }
    }

    /// The list entry of `LIST_ROOMS`.
    pub fn summary(&self) -> RoomSummary<'_> {
        RoomSummary {
            id: &self.id,
            name: &self.settings.name,
            player_count: self.members.len(),
            max_players: self.settings.max_players,
            game_started: matches!(self.state, RoomState::InProgress | RoomState::Finished),
            created_by: &self.created_by,
            state: self.state,
            tilesets: &self.settings.tilesets,
            seed: self.announced_seed(),
        }
    }

    // ----- Membership -----

    fn is_member(&self, player: &str) -> bool {
        self.members.iter().any(|member| member.player_id == player)
    }

    /// Whether `player` is in the room, playing or watching.
    pub fn contains(&self, player: &str) -> bool {
        self.is_member(player) || self.spectators.iter().any(|id| id == player)
    }

    /// `player` joins as a player (or watches, with `spectate`): the room is told, and the
    /// joiner gets the whole state and the turn in progress.
    pub fn join(&mut self, member: Member, spectate: bool) -> Result<Effects, Refusal> {
        self.accept(|room| room.join_now(member, spectate))
    }

    fn join_now(&mut self, member: Member, spectate: bool) -> Result<(), Refusal> {
        let player = member.player_id.clone();
        if member.bot.is_some() || player.starts_with(BOT_PREFIX) {
            return Err(Refusal::new(ErrorCode::NotAPlayer, "bots are added by the host"));
        }
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
            self.members.push(member);
            self.recolour();
            self.pending.room_changed = true;
        }
        if spectate {
            // Watchers come and go as fast as strangers like.
            self.room_state_soon(Some(&player));
        } else {
            self.emit_room_state();
        }
        self.emit_game_state_to(&player);
        if let Some(message) = self.turn_message() {
            self.emit(Recipient::Player(player), message.kind(), &message);
        }
        Ok(())
    }

    fn mark_connected(&mut self, player: &str) {
        if !self.connected.iter().any(|id| id == player) {
            self.connected.push(player.to_owned());
        }
    }

    /// `player` leaves; the effects say whether the room is now to be closed (no person left
    /// in it).
    pub fn leave(&mut self, player: &str) -> Result<Effects, Refusal> {
        self.accept(|room| room.leave_now(player))
    }

    fn leave_now(&mut self, player: &str) -> Result<(), Refusal> {
        if let Some(index) = self.spectators.iter().position(|id| id == player) {
            self.spectators.remove(index);
            self.connected.retain(|id| id != player);
            self.room_state_soon(None);
            return Ok(());
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
        self.recolour();
        self.pending.room_changed = true;
        if self.host.as_deref() == Some(player) {
            self.host = self
                .members
                .iter()
                .find(|member| member.bot.is_none())
                .map(|member| member.player_id.clone());
        }
        if self.members.iter().any(|member| member.bot.is_none()) {
            self.emit_room_state();
        } else {
            self.pending.closing = Some(Closing::Empty);
        }
        Ok(())
    }

    /// The host adds a bot of `level`.
    pub fn add_bot(&mut self, by: &str, name: String, level: BotLevel) -> Result<Effects, Refusal> {
        self.accept(|room| room.add_bot_now(by, name, level))
    }

    fn add_bot_now(&mut self, by: &str, name: String, level: BotLevel) -> Result<(), Refusal> {
        self.check_host(by)?;
        if self.state != RoomState::Waiting {
            return Err(Refusal::new(ErrorCode::GameAlreadyStarted, "the game has begun"));
        }
        if self.members.len() >= usize::from(self.settings.max_players) {
            return Err(Refusal::new(ErrorCode::RoomFull, "the room is full"));
        }
        let id = |n: usize| format!("{BOT_PREFIX}{}:{n}", self.id);
        let number = (1..).find(|n| !self.is_member(&id(*n))).unwrap_or(1);
        let member = Member {
            player_id: id(number),
            name,
            color: String::new(),
            bot: Some(level.name().to_owned()),
        };
        self.members.push(member);
        self.recolour();
        self.pending.room_changed = true;
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
    pub fn set_connected(&mut self, player: &str, connected: bool) -> Effects {
        self.change(|room| room.set_connected_now(player, connected))
    }

    /// A person's session ended: they leave a room that has no game yet, and a watcher
    /// leaves any room; a seated player of a game stays seated (absent).
    pub fn expire(&mut self, player: &str) -> Effects {
        self.change(|room| {
            room.set_connected_now(player, false);
            let watching = room.spectators.iter().any(|id| id == player);
            if room.state == RoomState::Waiting || watching {
                // Refused only for someone not in the room, before anything moved.
                let _ = room.leave_now(player);
            }
        })
    }

    fn set_connected_now(&mut self, player: &str, connected: bool) {
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
            self.room_state_soon(None);
            if !connected && self.is_current(player) {
                self.pending.clocks.push(Clock::Absent { turn: self.turn() });
            }
        }
    }

    // ----- The game -----

    /// The host starts the game: `ROOM_STATE` (the room changed), `GAME_START`, the whole
    /// `GAME_STATE` with the start tile (part 1 sends it "at game start"), each person's
    /// `PLAYER_UPDATE`, then `TURN_START`.
    pub fn start(&mut self, by: &str) -> Result<Effects, Refusal> {
        self.accept(|room| room.start_now(by))
    }

    fn start_now(&mut self, by: &str) -> Result<(), Refusal> {
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
        let setup = setup(&self.settings, self.members.len(), &self.library)
            .map_err(|error| Refusal::new(ErrorCode::InvalidRoomSettings, error))?;
        let game = Game::new(setup)
            .map_err(|error| Refusal::new(ErrorCode::InvalidRoomSettings, error.to_string()))?;
        self.state = RoomState::InProgress;
        self.pending.room_changed = true;
        self.tiles = Some(views::tile_json(&game));
        self.game = Some(game);
        self.draw()?;
        // The room's state changed (gameStarted), so part 1's ROOM_STATE goes first.
        self.emit_room_state();
        let data = views::raw(&GameStart { room_id: &self.id, players: self.players() });
        self.emit(Recipient::All, "GAME_START", &data);
        let state = self.game_state();
        self.emit(Recipient::All, "GAME_STATE", &GameStateMessage { game_state: &state });
        self.update_players();
        self.start_turn()
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
        self.pending.actions.push(action);
        Ok(())
    }

    /// Draws until a tile waits for its player (discarding what fits nowhere) or the game is
    /// over.
    fn draw(&mut self) -> Result<(), Refusal> {
        while let Some(Phase::Draw) = self.game.as_ref().map(Game::phase) {
            self.apply(Action::Draw).map_err(internal)?;
        }
        Ok(())
    }

    /// Draws until a tile waits for its player (discarding what fits nowhere), then
    /// `TURN_START` and the turn's clocks; or the end.
    fn draw_and_start_turn(&mut self) -> Result<(), Refusal> {
        self.draw()?;
        self.start_turn()
    }

    /// `TURN_START` and the turn's clocks for the tile drawn; or the end.
    fn start_turn(&mut self) -> Result<(), Refusal> {
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        if game.is_over() {
            return self.end_game();
        }
        self.turn_scores = game.scores().to_vec();
        if let Some(message) = self.turn_message() {
            self.emit(Recipient::All, message.kind(), &message);
        }
        let clocks = self.turn_clocks();
        self.pending.clocks.extend(clocks);
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
        if matches!(game.phase(), Phase::Figure { .. } | Phase::Flock { .. }) {
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
    pub fn turn_message(&self) -> Option<TurnMessage> {
        let game = self.game.as_ref()?;
        let view = game.view();
        let current = self.current_member().map(|member| member.player_id.clone());
        match game.phase() {
            Phase::Place { .. } => Some(TurnMessage::Start(TurnStart {
                current_player: current,
                current_tile: views::current_tile(game, &view),
                valid_placements: views::valid_placements(game),
                tiles_left: view.tiles_left,
                turn_seconds: self.settings.turn_seconds,
                second_turn: view.second_turn,
            })),
            Phase::Flock { .. } => {
                let flock = game.tended_hoard()?;
                Some(TurnMessage::Flock(FlockChoice {
                    player_id: current,
                    position: views::position(flock.pos.x, flock.pos.y),
                    feature_id: flock.segment,
                    sheep: flock.worth(game.bag_kinds()),
                    can_grow: game.legal_actions().contains(&Action::GrowFlock),
                    bag: views::sheep_bag(game),
                }))
            }
            Phase::Figure { pos } => {
                let placed = view.tiles.iter().find(|tile| tile.pos == pos)?;
                Some(TurnMessage::Placed(TilePlaced {
                    player_id: current,
                    position: views::position(pos.x, pos.y),
                    rotation: placed.rotation.degrees(),
                    tile: views::current_tile(game, &view),
                    meeple_options: views::meeple_options(game),
                    abbot_recalls: views::abbot_recalls(game),
                }))
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

    /// `check_turn` for a person: a bot's turn is the bot's, whoever asks.
    fn check_person_turn(&self, player: &str) -> Result<(), Refusal> {
        self.check_turn(player)?;
        if self.current_member().is_some_and(|member| member.bot.is_some()) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "it is a bot's turn"));
        }
        Ok(())
    }

    /// The current player (a person) places the drawn tile.
    pub fn place_tile(
        &mut self,
        player: &str,
        x: i16,
        y: i16,
        degrees: u16,
    ) -> Result<Effects, Refusal> {
        self.accept(|room| {
            room.check_person_turn(player)?;
            room.place_tile_now(player, x, y, degrees)
        })
    }

    fn place_tile_now(
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
                        "position": { "x": x, "y": y },
                        "rotation": degrees,
                        "reason": other.reason(),
                    }),
                ),
            });
        }
        let Some(message) = self.turn_message() else { return Ok(()) };
        self.emit(Recipient::All, message.kind(), &message);
        if !message.has_choices() {
            // Nothing to choose: the turn ends as a 1.0 client expects, without a message
            // (unless the tile extended the player's flock, whose choice follows).
            self.apply(Action::Skip).map_err(internal)?;
            return self.continue_turn(player);
        }
        if self.bot_to_move().is_none() {
            self.pending.clocks.push(Clock::FigureGrace { turn: self.turn() });
        }
        Ok(())
    }

    /// The current player's (a person's) figure action: a figure on a feature of the placed
    /// tile, none, or an abbot recalled.
    pub fn figure_action(
        &mut self,
        player: &str,
        action: FigureAction,
    ) -> Result<Effects, Refusal> {
        self.accept(|room| {
            room.check_person_turn(player)?;
            room.figure_action_now(player, action.into())
        })
    }

    fn figure_action_now(&mut self, player: &str, action: Action) -> Result<(), Refusal> {
        self.check_turn(player)?;
        if let Err(error) = self.apply(action) {
            return Err(match error {
                ActionError::WrongPhase { .. } => Refusal::new(
                    ErrorCode::WrongPhase,
                    match self.game.as_ref().map(Game::phase) {
                        Some(Phase::Flock { .. }) => "grow the flock or drive it to market",
                        Some(Phase::Figure { .. }) => "the tile is placed: choose a figure or skip",
                        _ => "place the tile first",
                    },
                ),
                ActionError::NoneLeft { .. } => {
                    Refusal::new(ErrorCode::NoMeeples, error.to_string())
                }
                other => Refusal::new(ErrorCode::InvalidMeeple, other.to_string())
                    .with_details(json!({ "reason": other.reason() })),
            });
        }
        self.continue_turn(player)
    }

    /// After a figure step: the server draws the sheep tokens (chance, as it draws tiles);
    /// a flock's choice waits for its player with `FLOCK_CHOICE`; otherwise the turn ends.
    fn continue_turn(&mut self, player: &str) -> Result<(), Refusal> {
        loop {
            match self.game.as_ref().map(Game::phase) {
                Some(Phase::Sheep { .. }) => self.apply(Action::Draw).map_err(internal)?,
                Some(Phase::Flock { .. }) => {
                    if let Some(message) = self.turn_message() {
                        self.emit(Recipient::All, message.kind(), &message);
                    }
                    let clocks = self.turn_clocks();
                    self.pending.clocks.extend(clocks);
                    return Ok(());
                }
                _ => return self.end_turn(player),
            }
        }
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
            events: views::EventsOut { game, events: &events },
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
        if self.game.is_none() {
            return;
        }
        let players = self.players();
        for player in &players {
            if player.is_bot || self.sent_players.get(player.seat) == Some(player) {
                continue;
            }
            let data = PlayerUpdate { player };
            self.emit(Recipient::Player(player.id.clone()), "PLAYER_UPDATE", &data);
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
            events: views::EventsOut { game, events: &self.turn_events },
            game_id: &self.id,
        });
        self.turn_events.clear();
        self.state = RoomState::Finished;
        self.pending.room_changed = true;
        self.pending.closing = Some(Closing::Finished);
        self.emit(Recipient::All, "GAME_END", &data);
        self.emit_room_state();
        Ok(())
    }

    /// A clock rang: if the game is still at `turn`, the room plays for the player (a random
    /// placement from the game's seed and turn, then no figure) or, for a figure grace, ends
    /// the turn without a figure; a [`Clock::RoomState`] sends the `ROOM_STATE` that comings
    /// and goings wait for. Nothing to do is no effect.
    pub fn timeout(&mut self, clock: Clock) -> Result<Effects, Refusal> {
        self.accept(|room| room.timeout_now(clock))
    }

    fn timeout_now(&mut self, clock: Clock) -> Result<(), Refusal> {
        let (turn, what) = match clock {
            Clock::TurnTime { turn, .. } => (turn, "turn time"),
            Clock::FigureGrace { turn } => (turn, "figure grace"),
            Clock::Absent { turn } => (turn, "absent"),
            Clock::Bot { .. } => return Ok(()),
            Clock::RoomState => {
                // What came meanwhile is told now, and the quiet time starts again; nothing
                // came, and the next coming is told at once.
                if self.room_state_due {
                    self.emit_room_state();
                    self.pending.clocks.push(Clock::RoomState);
                } else {
                    self.room_state_clock = false;
                }
                return Ok(());
            }
        };
        if self.turn() != turn || self.state != RoomState::InProgress {
            return Ok(());
        }
        if let Clock::Absent { .. } = clock
            && self
                .current_member()
                .is_some_and(|member| self.connected.contains(&member.player_id))
        {
            return Ok(());
        }
        let Some(player) = self.current_member().map(|member| member.player_id.clone()) else {
            return Ok(());
        };
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        match game.phase() {
            Phase::Place { .. } => {
                let count = game.legal_action_count().max(1) as u64;
                let pick = carcassonne_bots::derive_seed(self.settings.seed, turn as u64) % count;
                let Some(Action::Place { pos, rotation }) = game.legal_action(pick as usize) else {
                    return Ok(());
                };
                let data = TurnTimeout {
                    player_id: &player,
                    reason: what,
                    position: Some(views::position(pos.x, pos.y)),
                    rotation: Some(rotation.degrees()),
                };
                self.emit(Recipient::All, "TURN_TIMEOUT", &data);
                self.place_tile_now(&player, pos.x, pos.y, rotation.degrees())?;
                self.finish_for(&player)?;
            }
            Phase::Figure { .. } | Phase::Flock { .. } => {
                let data = TurnTimeout {
                    player_id: &player,
                    reason: what,
                    position: None,
                    rotation: None,
                };
                self.emit(Recipient::All, "TURN_TIMEOUT", &data);
                self.finish_for(&player)?;
            }
            _ => return Ok(()),
        }
        Ok(())
    }

    /// A clock ends the turn of `player` from its figure step: no figure, and a flock waiting
    /// for its choice goes to market (a sure score, as the player cannot be asked).
    fn finish_for(&mut self, player: &str) -> Result<(), Refusal> {
        loop {
            let action = match self.game.as_ref().map(Game::phase) {
                Some(Phase::Figure { .. }) => Action::Skip,
                Some(Phase::Flock { .. }) => Action::DriveFlock,
                _ => return Ok(()),
            };
            self.figure_action_now(player, action)?;
        }
    }

    /// Plays a bot's chosen turn (its placement and figure action), if the game is still at
    /// `turn`.
    pub fn bot_turn(&mut self, turn: usize, actions: &[Action]) -> Result<Effects, Refusal> {
        self.accept(|room| room.bot_turn_now(turn, actions))
    }

    fn bot_turn_now(&mut self, turn: usize, actions: &[Action]) -> Result<(), Refusal> {
        if self.turn() != turn || self.state != RoomState::InProgress {
            return Ok(());
        }
        let Some(player) = self
            .current_member()
            .filter(|member| member.bot.is_some())
            .map(|member| member.player_id.clone())
        else {
            return Ok(());
        };
        for action in actions {
            match action {
                Action::Place { pos, rotation } => {
                    self.place_tile_now(&player, pos.x, pos.y, rotation.degrees())?
                }
                other => {
                    if matches!(
                        self.game.as_ref().map(Game::phase),
                        Some(Phase::Figure { .. } | Phase::Flock { .. })
                    ) {
                        self.figure_action_now(&player, *other)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A person's figure step, as the protocol gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureAction {
    /// `PLACE_MEEPLE`: a figure on a feature of the tile just placed.
    Deploy { feature: u8, figure: FigureChoice },
    /// `SKIP_MEEPLE`.
    Skip,
    /// `RECALL_ABBOT`.
    RecallAbbot { x: i16, y: i16 },
    /// `TEND_FLOCK`: grow the flock, or drive it to market.
    TendFlock { grow: bool },
}

impl From<FigureAction> for Action {
    fn from(action: FigureAction) -> Action {
        match action {
            FigureAction::Deploy { feature, figure } => {
                Action::Deploy { segment: feature, figure: figure.figure() }
            }
            FigureAction::Skip => Action::Skip,
            FigureAction::RecallAbbot { x, y } => Action::RecallAbbot { pos: Pos::new(x, y) },
            FigureAction::TendFlock { grow: true } => Action::GrowFlock,
            FigureAction::TendFlock { grow: false } => Action::DriveFlock,
        }
    }
}

fn internal(error: ActionError) -> Refusal {
    Refusal::new(ErrorCode::InternalError, format!("the server's own action was refused: {error}"))
}

/// The engine's setup for a room's settings and players, its sets from `library`.
///
/// # Errors
/// A set the library does not have, or too many players, as a message.
pub fn setup(settings: &Settings, players: usize, library: &Library) -> Result<GameSetup, String> {
    let catalogs = library.catalogs(&settings.tilesets)?;
    let players = u8::try_from(players).map_err(|_| "too many players".to_owned())?;
    Ok(GameSetup::new(catalogs, players).with_seed(settings.seed).with_options(settings.rules))
}

/// `CREATE_ROOM`'s settings, checked: sets `library` has and that combine, a player count
/// the sets allow, rule options the engine knows. A room without a chosen seed gets one from
/// `random_seed` (the host's random source; None when it has none).
///
/// # Errors
/// The settings the engine or the protocol refuse, or no random source for a seed.
pub fn check_settings(
    asked: RoomSettings,
    library: &Library,
    random_seed: impl FnOnce() -> Option<u64>,
) -> Result<Settings, Refusal> {
    let refuse = |message: String| Refusal::new(ErrorCode::InvalidRoomSettings, message);
    let seats: usize = library
        .catalogs(&asked.tilesets)
        .map_err(refuse)?
        .iter()
        .map(|catalog| catalog.figures().colours.len())
        .sum();
    let most = seats.min(6);
    if !(2..=most).contains(&usize::from(asked.max_players)) {
        return Err(refuse(format!("maxPlayers is 2 to {most} with these tile sets")));
    }
    let (seed, seed_chosen) = match asked.seed {
        Some(seed) => (seed, true),
        None => {
            let seed = random_seed().ok_or_else(|| {
                Refusal::new(ErrorCode::InternalError, "the server has no random source")
            })?;
            (seed, false)
        }
    };
    let settings = Settings {
        name: asked.name,
        max_players: asked.max_players,
        tilesets: asked.tilesets,
        rules: asked.rules,
        seed,
        seed_chosen,
        turn_seconds: asked.turn_seconds,
    };
    // The engine has the last word: a setup it refuses is refused here, not at START_GAME.
    let game_setup = setup(&settings, 2, library).map_err(refuse)?;
    Game::new(game_setup).map_err(|error| refuse(error.to_string()))?;
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_players_follows_the_sets_colours() {
        let asked = |tilesets: &[&str], max_players| RoomSettings {
            name: "r".into(),
            max_players,
            tilesets: tilesets.iter().map(|name| (*name).to_owned()).collect(),
            rules: carcassonne::RuleOptions::default(),
            seed: Some(1),
            turn_seconds: None,
        };
        let drawn = || Some(7);
        assert!(check_settings(asked(&["base"], 5), &Library::builtin(), drawn).is_ok());
        assert!(check_settings(asked(&["base"], 6), &Library::builtin(), drawn).is_err());
        assert!(
            check_settings(asked(&["base", "inns_and_cathedrals"], 6), &Library::builtin(), drawn)
                .is_ok()
        );
        let unseeded = RoomSettings { seed: None, ..asked(&["base"], 2) };
        let settings = check_settings(unseeded, &Library::builtin(), drawn).unwrap();
        assert_eq!((settings.seed, settings.seed_chosen), (7, false));
        assert!(
            check_settings(asked(&["base"], 2), &Library::builtin(), drawn).unwrap().seed_chosen
        );
        let refused = check_settings(
            RoomSettings { seed: None, ..asked(&["base"], 2) },
            &Library::builtin(),
            || None,
        );
        assert_eq!(refused.unwrap_err().code, ErrorCode::InternalError);
    }

    fn settings(seed: Option<u64>) -> Settings {
        Settings {
            name: "Ann's".into(),
            max_players: 2,
            tilesets: vec!["base".into()],
            rules: RuleOptions::default(),
            seed: seed.unwrap_or(7),
            seed_chosen: seed.is_some(),
            turn_seconds: None,
        }
    }

    fn person(id: &str) -> Member {
        Member { player_id: id.into(), name: id.to_uppercase(), color: String::new(), bot: None }
    }

    fn kinds(effects: &Effects) -> Vec<(String, Recipient)> {
        effects
            .deliveries()
            .iter()
            .map(|delivery| {
                let message: Value = serde_json::from_str(&delivery.text).unwrap();
                (message["type"].as_str().unwrap().to_owned(), delivery.to.clone())
            })
            .collect()
    }

    fn message(effects: &Effects, kind: &str) -> Value {
        effects
            .deliveries()
            .iter()
            .map(|delivery| serde_json::from_str::<Value>(&delivery.text).unwrap())
            .find(|message| message["type"] == kind)
            .unwrap_or_else(|| panic!("no {kind}"))
    }

    /// Ann's room with Bob in it, and the effects of Bob's joining.
    fn room_of_two() -> (Room, Effects) {
        let (mut room, _) = Room::new("r1".into(), settings(None), person("ann"), Arc::default());
        let joined = room.join(person("bob"), false).unwrap();
        (room, joined)
    }

    #[test]
    fn a_new_room_is_stored_then_told() {
        let (_, effects) = Room::new("r1".into(), settings(None), person("ann"), Arc::default());
        assert!(matches!(effects.writes(), [Write::Room(record)] if record.members.len() == 1));
        assert_eq!(
            kinds(&effects),
            [
                ("ROOM_STATE".into(), Recipient::All),
                ("GAME_STATE".into(), Recipient::Player("ann".into()))
            ]
        );
    }

    /// A refusal leaves the room exactly as it was: members, messages and their numbers.
    #[test]
    fn refused_joins_change_nothing() {
        let (mut room, _) = room_of_two();
        let (record, seq) = (room.record(), room.seq());
        let full = room.join(person("cid"), false).unwrap_err();
        assert_eq!(full.code, ErrorCode::RoomFull);
        let again = room.join(person("bob"), true).unwrap_err();
        assert_eq!(again.code, ErrorCode::AlreadyInRoom);
        let bot = Member { bot: Some("easy".into()), ..person("bot:r1:9") };
        assert_eq!(room.join(bot, false).unwrap_err().code, ErrorCode::NotAPlayer);
        assert_eq!((room.record(), room.seq()), (record, seq));
    }

    #[test]
    fn seats_play_the_sets_colours_in_seat_order() {
        let (mut room, joined) = room_of_two();
        let state = message(&joined, "ROOM_STATE");
        assert_eq!(state["data"]["players"][0]["color"], "red");
        assert_eq!(state["data"]["players"][1]["color"], "green");
        let left = room.leave("ann").unwrap();
        assert_eq!(message(&left, "ROOM_STATE")["data"]["players"][0]["color"], "red");
        assert_eq!(room.room_state().host, Some("bob"));
    }

    /// A member reconnecting or a stranger toggling a watch as fast as they can costs the
    /// room's other people one `ROOM_STATE` a clock, not one a change: the issue's storm sent
    /// 5,990 of them in 2.5 s.
    #[test]
    fn comings_and_goings_are_told_together() {
        let (mut room, joined) = room_of_two();
        assert_eq!(kinds(&joined)[0], ("ROOM_STATE".into(), Recipient::All), "a seat, at once");
        assert!(joined.clocks().is_empty());
        let mut clocks = Vec::new();
        let mut told = 0;
        for _ in 0..1000 {
            for connected in [false, true] {
                let effects = room.set_connected("bob", connected);
                told += kinds(&effects).len();
                clocks.extend_from_slice(effects.clocks());
            }
            let watched = room.join(person("eve"), true).unwrap();
            assert_eq!(kinds(&watched)[0].0, "ROOM_STATE", "the watcher is told at once");
            told += kinds(&watched).iter().filter(|(_, to)| *to == Recipient::All).count();
            clocks.extend_from_slice(watched.clocks());
            let left = room.leave("eve").unwrap();
            told += kinds(&left).len();
            clocks.extend_from_slice(left.clocks());
        }
        assert_eq!(told, 1, "the first coming is told at once, the rest wait for the clock");
        assert_eq!(clocks, [Clock::RoomState], "one clock for them all");
        let rung = room.timeout(Clock::RoomState).unwrap();
        assert_eq!(kinds(&rung), [("ROOM_STATE".into(), Recipient::All)]);
        assert_eq!(rung.clocks(), [Clock::RoomState], "a quiet time again");
        let quiet = room.timeout(Clock::RoomState).unwrap();
        assert!(quiet.deliveries().is_empty() && quiet.clocks().is_empty(), "nothing came");
        let again = room.set_connected("bob", false);
        assert_eq!(kinds(&again), [("ROOM_STATE".into(), Recipient::All)], "told at once");
        // Another change's state tells the comings and goings with it, and the clock then
        // has nothing to add.
        let _ = room.set_connected("bob", true);
        let _ = room.leave("bob").unwrap();
        let added = room.add_bot("ann", "Robo".into(), BotLevel::Easy).unwrap();
        assert_eq!(kinds(&added), [("ROOM_STATE".into(), Recipient::All)]);
        let rung = room.timeout(Clock::RoomState).unwrap();
        assert!(rung.deliveries().is_empty() && rung.clocks().is_empty());
    }

    #[test]
    fn the_last_person_out_closes_the_room() {
        let (mut room, _) = Room::new("r1".into(), settings(None), person("ann"), Arc::default());
        let _ = room.add_bot("ann", "Robo".into(), BotLevel::Easy).unwrap();
        let left = room.leave("ann").unwrap();
        assert_eq!(left.closing(), Some(Closing::Empty));
    }

    #[test]
    fn the_game_starts_with_its_whole_state() {
        let (mut room, _) = room_of_two();
        let started = room.start("ann").unwrap();
        let order: Vec<String> = kinds(&started).into_iter().map(|(kind, _)| kind).collect();
        assert_eq!(
            order,
            [
                "ROOM_STATE",
                "GAME_START",
                "GAME_STATE",
                "PLAYER_UPDATE",
                "PLAYER_UPDATE",
                "TURN_START"
            ]
        );
        assert_eq!(message(&started, "ROOM_STATE")["data"]["gameStarted"], true);
        let state = message(&started, "GAME_STATE");
        assert!(state["data"]["gameState"]["tiles"]["0,0"].is_object(), "the start tile");
        assert!(started.writes().iter().any(|write| matches!(write, Write::Actions { .. })));
    }

    #[test]
    fn nobody_plays_a_bots_turn() {
        let (mut room, _) = Room::new("r1".into(), settings(None), person("ann"), Arc::default());
        let _ = room.add_bot("ann", "Robo".into(), BotLevel::Easy).unwrap();
        let _ = room.start("ann").unwrap();
        // Ann moves first; once she has, the bot is to move.
        let game = room.game().unwrap().clone();
        let Some(Action::Place { pos, rotation }) = game.legal_action(0) else { panic!() };
        let _ = room.place_tile("ann", pos.x, pos.y, rotation.degrees()).unwrap();
        if matches!(room.game().unwrap().phase(), Phase::Figure { .. }) {
            let _ = room.figure_action("ann", FigureAction::Skip).unwrap();
        }
        let (bot, _) = room.bot_to_move().expect("the bot's turn");
        let bot_id = room.members[bot.index()].player_id.clone();
        assert!(bot_id.starts_with(BOT_PREFIX));
        let (record, seq, turn) = (room.record(), room.seq(), room.turn());
        for who in ["ann", bot_id.as_str()] {
            let refused = room.place_tile(who, pos.x, pos.y + 1, 0).unwrap_err();
            assert_eq!(refused.code, ErrorCode::NotYourTurn, "{who}");
        }
        assert_eq!((room.record(), room.seq(), room.turn()), (record, seq, turn));
    }

    #[test]
    fn a_refused_placement_changes_nothing() {
        let (mut room, _) = room_of_two();
        let _ = room.start("ann").unwrap();
        let (seq, turn) = (room.seq(), room.turn());
        let refused = room.place_tile("ann", 9, 9, 0).unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidPlacement);
        assert_eq!(refused.details["reason"], "no_neighbour");
        assert_eq!((room.seq(), room.turn()), (seq, turn));
    }

    #[test]
    fn a_chosen_seed_is_told_and_a_drawn_one_is_not() {
        let (chosen, _) = Room::new("r1".into(), settings(Some(42)), person("ann"), Arc::default());
        assert_eq!(chosen.room_state().seed, Some(42));
        assert_eq!(serde_json::to_value(chosen.summary()).unwrap()["seed"], 42);
        let (drawn, _) = Room::new("r2".into(), settings(None), person("ann"), Arc::default());
        let listed = serde_json::to_value(drawn.summary()).unwrap();
        assert!(listed.get("seed").is_none());
        assert!(serde_json::to_value(drawn.room_state()).unwrap().get("seed").is_none());
    }

    #[test]
    fn stored_bots_get_ids_no_client_can_claim() {
        let (mut room, _) = Room::new("r1".into(), settings(None), person("ann"), Arc::default());
        let _ = room.add_bot("ann", "Robo".into(), BotLevel::Easy).unwrap();
        let mut record = room.record();
        record.members[1].player_id = "r1-bot-1".into(); // as rooms were stored before
        let restored = Room::restore(record, &[], Arc::default()).unwrap();
        assert_eq!(restored.members[1].player_id, "bot:r1:2");
    }

    #[test]
    fn an_expired_session_leaves_a_waiting_room_but_keeps_its_seat_in_a_game() {
        let (mut room, _) = room_of_two();
        let _ = room.expire("bob");
        assert!(!room.is_member("bob"));
        let (mut room, _) = room_of_two();
        let _ = room.start("ann").unwrap();
        let _ = room.expire("bob");
        assert!(room.seats_in_play("bob"));
    }
}
