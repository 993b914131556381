//! A host for one client that keeps everything in memory: the web page's server when there is
//! none. It speaks the same protocol as the server (the page's code does not know which it
//! talks to), seats the built-in bots, and leaves waiting to its caller: every change returns
//! the frames to deliver and the timers to set, and [`OfflineHost::ring`] carries out a timer
//! that rang. Nothing here reads a clock but the envelope's timestamp, so a test can run a
//! game to its end at once.

use std::collections::BTreeMap;
use std::sync::Arc;

use carcassonne::{Action, Game};
use serde_json::json;

use crate::catalogue::LEVELS;
use crate::library::Library;
use crate::protocol::PROTOCOL_VERSION;
use crate::protocol::client::{BotLevel, ClientMessage, RoomSettings, parse};
use crate::protocol::codes::{ErrorCode, Refusal};
use crate::protocol::direct::{Connected, ErrorMessage, envelope};
use crate::protocol::views;
use crate::room::{
    Clock, Closing, Effects, FigureAction, Member, Recipient, Room, RoomState, check_settings,
};

/// How long the host waits, in milliseconds, where the server's flags set seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delays {
    /// Before each of a bot's actions (the server's `--bot-delay`).
    pub bot_ms: u32,
    /// Before a placed tile's turn ends without a figure (`--figure-grace`).
    pub figure_grace_ms: u32,
}

impl Default for Delays {
    /// Quicker than the server's: no other player waits on the network here.
    fn default() -> Delays {
        Delays { bot_ms: 600, figure_grace_ms: 20_000 }
    }
}

/// A timer the caller sets: after `delay_ms`, it calls [`OfflineHost::ring`] with `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timer {
    pub id: u64,
    pub delay_ms: u32,
}

/// What a message or a timer produced: the frames for the client, in order, and the timers
/// to set.
#[derive(Debug, Default)]
pub struct Outcome {
    pub frames: Vec<String>,
    pub timers: Vec<Timer>,
}

/// What a timer does when it rings.
#[derive(Clone, Debug)]
enum Waiting {
    /// A room's clock: a bot's turn, the turn time, a figure's grace.
    Clock(Clock),
    /// The rest of a bot's turn (its figure action, and a flock's choice), played one bot
    /// delay after its tile as the server plays it.
    BotFigure { turn: usize, actions: Vec<Action> },
}

/// The client, once it has sent `CONNECT`.
#[derive(Clone, Debug)]
struct Client {
    player_id: String,
    name: String,
}

/// The host: one client, at most one room at a time, the last finished game.
pub struct OfflineHost {
    delays: Delays,
    /// Draws a room's seed when the client chose none.
    random_seed: Box<dyn FnMut() -> Option<u64>>,
    client: Option<Client>,
    room: Option<Room>,
    rooms_made: u64,
    waiting: BTreeMap<u64, Waiting>,
    timers_made: u64,
    sent: u64,
    finished: Option<Game>,
    /// The tile sets its rooms may use: the built-in ones.
    library: Arc<Library>,
}

impl std::fmt::Debug for OfflineHost {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("OfflineHost")
            .field("client", &self.client)
            .field("room", &self.room.as_ref().map(Room::id))
            .field("waiting", &self.waiting.len())
            .finish_non_exhaustive()
    }
}

impl OfflineHost {
    /// A host waiting `delays`, drawing unchosen seeds from `random_seed`.
    pub fn new(delays: Delays, random_seed: impl FnMut() -> Option<u64> + 'static) -> OfflineHost {
        OfflineHost {
            delays,
            random_seed: Box::new(random_seed),
            client: None,
            room: None,
            rooms_made: 0,
            waiting: BTreeMap::new(),
            timers_made: 0,
            sent: 0,
            finished: None,
            library: Arc::new(Library::builtin()),
        }
    }

    /// The client's message, as the text of a frame: its replies and the room's messages it
    /// caused, and the timers to set. A refusal is an `ERROR` frame and changes nothing.
    pub fn receive(&mut self, text: &str) -> Outcome {
        let incoming = parse(text);
        let mut outcome = Outcome::default();
        let handled = incoming.message.and_then(|message| self.handle(message, &mut outcome));
        if let Err(refusal) = handled {
            self.send(
                &mut outcome,
                "ERROR",
                &ErrorMessage::of(&refusal, incoming.message_id.as_deref()),
            );
        }
        outcome
    }

    /// Carries out the timer `id` (one a previous outcome asked for): a bot's action, or a
    /// clock's default play. A timer the game has moved past does nothing.
    pub fn ring(&mut self, id: u64) -> Outcome {
        let mut outcome = Outcome::default();
        match self.waiting.remove(&id) {
            Some(Waiting::Clock(Clock::Bot { turn })) => self.bot_move(turn, &mut outcome),
            Some(Waiting::Clock(clock)) => {
                let _ = self.change_room(&mut outcome, |room| room.timeout(clock));
            }
            Some(Waiting::BotFigure { turn, actions }) => {
                let _ = self.change_room(&mut outcome, |room| room.bot_turn(turn, &actions));
            }
            None => {}
        }
        outcome
    }

    /// The last game played to its end here, if any.
    pub fn finished_game(&self) -> Option<&Game> {
        self.finished.as_ref()
    }

    /// The room the client is in, if any.
    pub fn room(&self) -> Option<&Room> {
        self.room.as_ref()
    }

    fn handle(&mut self, message: ClientMessage, outcome: &mut Outcome) -> Result<(), Refusal> {
        let player = match (&message, &self.client) {
            (ClientMessage::Ping, _) => {
                self.send(outcome, "PONG", &json!({}));
                return Ok(());
            }
            (ClientMessage::Connect { player_id, name, .. }, None) => {
                self.client = Some(Client { player_id: player_id.clone(), name: name.clone() });
                let connected = Connected {
                    session_token: "offline",
                    protocol_version: PROTOCOL_VERSION,
                    player_id,
                    resumed: false,
                    room_id: None,
                };
                self.send(outcome, "CONNECTED", &connected);
                return Ok(());
            }
            (ClientMessage::Connect { .. }, Some(_)) => {
                return Err(Refusal::new(
                    ErrorCode::AlreadyConnected,
                    "this connection already has a session",
                ));
            }
            (_, None) => return Err(Refusal::new(ErrorCode::NotConnected, "send CONNECT first")),
            (_, Some(client)) => client.player_id.clone(),
        };
        match message {
            ClientMessage::ListRooms => {
                let rooms: Vec<_> = self
                    .room
                    .iter()
                    .filter(|room| room.state() != RoomState::Finished)
                    .map(|room| views::raw(&room.summary()))
                    .collect();
                self.send(outcome, "LIST_ROOMS", &json!({ "rooms": rooms }));
                Ok(())
            }
            ClientMessage::ListGames => {
                // Nothing is stored here: the game just played is the page's to review (it
                // asks the worker for it), and no other is kept.
                self.send(outcome, "GAMES", &json!({ "games": [] }));
                Ok(())
            }
            ClientMessage::CreateRoom(settings) => self.create_room(outcome, settings),
            ClientMessage::JoinRoom { room_id, spectate } => {
                let member = self.member()?;
                match &self.room {
                    Some(room) if room.id() == room_id && room.contains(&player) => {
                        Err(already_in(&room_id))
                    }
                    Some(room) if room.id() == room_id => {
                        self.change_room(outcome, |room| room.join(member, spectate))
                    }
                    _ => Err(Refusal::new(
                        ErrorCode::RoomNotFound,
                        format!("no room is called {room_id}"),
                    )),
                }
            }
            ClientMessage::LeaveRoom { room_id } => {
                if self
                    .room
                    .as_ref()
                    .is_none_or(|room| room.id() != room_id || !room.contains(&player))
                {
                    return Err(Refusal::new(
                        ErrorCode::NotInRoom,
                        format!("you are not in room {room_id}"),
                    ));
                }
                self.change_room(outcome, |room| room.leave(&player))?;
                // The one person has left (a room refuses that during its game): the room
                // and its clocks go.
                self.room = None;
                self.waiting.clear();
                self.send(outcome, "ROOM_LEFT", &json!({ "roomId": room_id }));
                Ok(())
            }
            ClientMessage::AddBot { bot_name, difficulty } => {
                if let BotLevel::Named(name) = &difficulty {
                    return Err(Refusal::new(
                        ErrorCode::InvalidData,
                        format!(
                            "ADD_BOT: `difficulty` is {} offline, not `{name}`",
                            LEVELS.join(", ")
                        ),
                    )
                    .with_details(json!({ "field": "difficulty" })));
                }
                self.in_room(&player)?;
                self.change_room(outcome, |room| room.add_bot(&player, bot_name, difficulty))
            }
            ClientMessage::StartGame => {
                self.in_room(&player)?;
                self.change_room(outcome, |room| room.start(&player))
            }
            ClientMessage::PlaceTile { x, y, rotation } => {
                self.in_room(&player)?;
                self.change_room(outcome, |room| room.place_tile(&player, x, y, rotation))
            }
            ClientMessage::PlaceMeeple { feature_id, figure } => {
                let action = FigureAction::Deploy { feature: feature_id, figure };
                self.figure_action(outcome, &player, action)
            }
            ClientMessage::SkipMeeple => self.figure_action(outcome, &player, FigureAction::Skip),
            ClientMessage::TendFlock { grow } => {
                self.figure_action(outcome, &player, FigureAction::TendFlock { grow })
            }
            ClientMessage::RecallAbbot { x, y } => {
                self.figure_action(outcome, &player, FigureAction::RecallAbbot { x, y })
            }
            ClientMessage::Ping | ClientMessage::Connect { .. } => Ok(()),
        }
    }

    fn member(&self) -> Result<Member, Refusal> {
        let client = self
            .client
            .as_ref()
            .ok_or_else(|| Refusal::new(ErrorCode::NotConnected, "send CONNECT first"))?;
        Ok(Member {
            player_id: client.player_id.clone(),
            name: client.name.clone(),
            color: String::new(),
            bot: None,
        })
    }

    fn in_room(&self, player: &str) -> Result<(), Refusal> {
        match &self.room {
            Some(room) if room.contains(player) => Ok(()),
            _ => Err(Refusal::new(ErrorCode::NotInRoom, "you are in no room")),
        }
    }

    fn create_room(&mut self, outcome: &mut Outcome, asked: RoomSettings) -> Result<(), Refusal> {
        if let Some(room) = &self.room {
            return Err(already_in(room.id()));
        }
        let settings = check_settings(asked, &self.library, &mut self.random_seed)?;
        let member = self.member()?;
        self.rooms_made += 1;
        let (room, effects) = Room::new(
            format!("offline-{}", self.rooms_made),
            settings,
            member,
            Arc::clone(&self.library),
        );
        self.room = Some(room);
        self.carry_out(outcome, effects);
        Ok(())
    }

    fn figure_action(
        &mut self,
        outcome: &mut Outcome,
        player: &str,
        action: FigureAction,
    ) -> Result<(), Refusal> {
        self.in_room(player)?;
        self.change_room(outcome, |room| room.figure_action(player, action))
    }

    /// Changes the room with `change`, then carries out its effects; a refusal changes nothing.
    fn change_room(
        &mut self,
        outcome: &mut Outcome,
        change: impl FnOnce(&mut Room) -> Result<Effects, Refusal>,
    ) -> Result<(), Refusal> {
        let room = self
            .room
            .as_mut()
            .ok_or_else(|| Refusal::new(ErrorCode::NotInRoom, "you are in no room"))?;
        let effects = change(room)?;
        self.carry_out(outcome, effects);
        Ok(())
    }

    /// An accepted change's effects: nothing to store here; its messages for the client,
    /// its clocks as timers, and the room closed if it ended.
    fn carry_out(&mut self, outcome: &mut Outcome, effects: Effects) {
        let closing = effects.closing();
        let (_writes, deliveries, clocks) = effects.into_parts();
        let me = self.client.as_ref().map(|client| client.player_id.as_str());
        for delivery in deliveries {
            let for_me = match &delivery.to {
                Recipient::All => true,
                Recipient::Player(player) => Some(player.as_str()) == me,
            };
            if for_me {
                outcome.frames.push(delivery.text.to_string());
            }
        }
        for clock in clocks {
            let delay_ms = match clock {
                Clock::TurnTime { seconds, .. } => seconds.saturating_mul(1000),
                Clock::FigureGrace { .. } => self.delays.figure_grace_ms,
                // The one client is never away.
                Clock::Absent { .. } => continue,
                Clock::Bot { .. } => self.delays.bot_ms,
                // One client: nothing to coalesce.
                Clock::RoomState => 0,
            };
            self.wait(outcome, Waiting::Clock(clock), delay_ms);
        }
        if let Some(closing) = closing {
            if closing == Closing::Finished {
                self.finished = self.room.as_ref().and_then(Room::game).cloned();
            }
            self.room = None;
            self.waiting.clear();
        }
    }

    fn wait(&mut self, outcome: &mut Outcome, waiting: Waiting, delay_ms: u32) {
        self.timers_made += 1;
        self.waiting.insert(self.timers_made, waiting);
        outcome.timers.push(Timer { id: self.timers_made, delay_ms });
    }

    /// A bot's turn, thought here and now (the caller runs the host off the page's thread):
    /// its tile at once, its figure one bot delay later, as the server plays bots.
    fn bot_move(&mut self, turn: usize, outcome: &mut Outcome) {
        let Some(room) = &self.room else { return };
        if room.turn() != turn {
            return;
        }
        let Some((seat, level)) = room.bot_to_move() else { return };
        let Some(game) = room.game().cloned() else { return };
        let bot = crate::builtin_bot(&level, &game).unwrap_or_else(|| {
            // A level no built-in profile has cannot be seated here (`ADD_BOT` refuses it);
            // the random bot keeps a game going all the same.
            Box::new(carcassonne_bots::RandomBot::new("random", game.seed(), 0.5))
        });
        let Ok(actions) = crate::think(game, seat, bot.as_ref()) else { return };
        let Some((placement, figure)) = actions.split_first() else { return };
        let placed = self.change_room(outcome, |room| room.bot_turn(turn, &[*placement]));
        if placed.is_ok() && !figure.is_empty() {
            let waiting = Waiting::BotFigure { turn: turn + 1, actions: figure.to_vec() };
            self.wait(outcome, waiting, self.delays.bot_ms);
        }
    }

    /// An unnumbered message to the client.
    fn send<T: serde::Serialize + ?Sized>(&mut self, outcome: &mut Outcome, kind: &str, data: &T) {
        self.sent += 1;
        if let Some(text) = envelope(kind, data, format!("offline-{}", self.sent)) {
            outcome.frames.push(text);
        }
    }
}

/// The refusal of a room to someone already in one.
fn already_in(current: &str) -> Refusal {
    Refusal::new(ErrorCode::AlreadyInRoom, format!("you are in room {current}: leave it first"))
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use serde_json::Value;

    use super::*;

    fn frame(kind: &str, data: Value) -> String {
        json!({ "type": kind, "data": data, "timestamp": "2026-11-27T00:00:00Z", "messageId": kind })
            .to_string()
    }

    /// Plays the client's side: the first valid placement, no figure; rings every timer at
    /// once. Returns every frame the client got.
    fn play(host: &mut OfflineHost, first: Outcome, me: &str) -> Vec<Value> {
        let mut frames: Vec<Value> = Vec::new();
        let mut timers: VecDeque<Timer> = VecDeque::new();
        let mut pending = VecDeque::from([first]);
        for _ in 0..10_000 {
            let Some(outcome) =
                pending.pop_front().or_else(|| timers.pop_front().map(|timer| host.ring(timer.id)))
            else {
                break;
            };
            timers.extend(outcome.timers);
            for text in outcome.frames {
                let message: Value = serde_json::from_str(&text).unwrap();
                let data = &message["data"];
                match message["type"].as_str().unwrap() {
                    "TURN_START" if data["currentPlayer"] == me => {
                        let placement = &data["validPlacements"][0];
                        let place = json!({
                            "position": placement["position"],
                            "rotation": placement["rotation"],
                        });
                        pending.push_back(host.receive(&frame("PLACE_TILE", place)));
                    }
                    "TILE_PLACED" if data["playerId"] == me => {
                        pending.push_back(host.receive(&frame("SKIP_MEEPLE", json!({}))));
                    }
                    _ => {}
                }
                frames.push(message);
            }
        }
        frames
    }

    fn connected(host: &mut OfflineHost) -> Outcome {
        let connect = json!({ "playerId": "p-1", "name": "Ada", "color": "" });
        host.receive(&frame("CONNECT", connect))
    }

    #[test]
    fn a_game_against_bots_runs_to_its_end_in_the_protocol() {
        let mut host = OfflineHost::new(Delays::default(), || Some(11));
        let hello = connected(&mut host);
        let reply: Value = serde_json::from_str(&hello.frames[0]).unwrap();
        assert_eq!(reply["type"], "CONNECTED");
        assert_eq!(reply["data"]["protocolVersion"], PROTOCOL_VERSION);
        let created = host.receive(&frame(
            "CREATE_ROOM",
            json!({ "roomName": "Practice", "maxPlayers": 3, "tilesets": ["base"] }),
        ));
        assert!(created.frames.iter().any(|text| text.contains("ROOM_STATE")));
        for level in ["easy", "hard"] {
            let added = host.receive(&frame(
                "ADD_BOT",
                json!({ "botName": format!("{level} bot"), "difficulty": level }),
            ));
            assert!(!added.frames.iter().any(|text| text.contains("\"ERROR\"")), "{added:?}");
        }
        let started = host.receive(&frame("START_GAME", json!({})));
        let frames = play(&mut host, started, "p-1");
        let end = frames.iter().find(|message| message["type"] == "GAME_END").expect("GAME_END");
        assert_eq!(end["data"]["gameState"]["gameEnded"], true);
        assert!(!frames.iter().any(|message| message["type"] == "ERROR"), "a refusal");
        // Every room message is numbered in order, as the server numbers them.
        let seqs: Vec<u64> = frames.iter().filter_map(|message| message["seq"].as_u64()).collect();
        assert!(seqs.windows(2).all(|pair| pair[1] == pair[0] + 1), "{seqs:?}");
        let game = host.finished_game().expect("the finished game is kept");
        assert!(game.is_over());
        assert_eq!(game.players(), 3);
        assert!(host.room().is_none(), "a finished room closes");
    }

    #[test]
    fn refusals_are_errors_that_change_nothing() {
        let mut host = OfflineHost::new(Delays::default(), || None);
        let early = host.receive(&frame("LIST_ROOMS", json!({})));
        assert!(early.frames[0].contains("NOT_CONNECTED"));
        let _ = connected(&mut host);
        let unseeded = host.receive(&frame(
            "CREATE_ROOM",
            json!({ "roomName": "r", "maxPlayers": 2, "tilesets": ["base"] }),
        ));
        assert!(unseeded.frames[0].contains("INTERNAL_ERROR"), "no random source, no room");
        assert!(host.room().is_none());
        let seeded = json!({ "roomName": "r", "maxPlayers": 2, "tilesets": ["base"], "seed": 5 });
        let _ = host.receive(&frame("CREATE_ROOM", seeded.clone()));
        let again = host.receive(&frame("CREATE_ROOM", seeded));
        assert!(again.frames[0].contains("ALREADY_IN_ROOM"));
        let named =
            host.receive(&frame("ADD_BOT", json!({ "botName": "x", "difficulty": "mine" })));
        assert!(named.frames[0].contains("INVALID_DATA"));
        let early_move = host.receive(&frame(
            "PLACE_TILE",
            json!({ "position": { "x": 1, "y": 0 }, "rotation": 0 }),
        ));
        assert!(early_move.frames[0].contains("\"ERROR\""));
        let garbage = host.receive("not json");
        assert!(garbage.frames[0].contains("MALFORMED_MESSAGE"));
        assert!(host.room().is_some_and(|room| room.state() == RoomState::Waiting));
        let left = host.receive(&frame("LEAVE_ROOM", json!({ "roomId": "offline-1" })));
        assert!(left.frames.iter().any(|text| text.contains("ROOM_LEFT")));
        assert!(host.room().is_none());
    }
}
