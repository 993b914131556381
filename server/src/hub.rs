//! The hub: every room and session, what connections ask of them, storing each change before
//! anyone hears of it, and the clocks and bots that move games on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use carcassonne::{Action, Catalog, RuleOptions};
use carcassonne_bots::Profile;
use serde_json::json;
use tokio::sync::{Notify, Semaphore, mpsc};

use crate::config::Config;
use crate::protocol::client::{ClientMessage, RoomSettings};
use crate::protocol::codes::{ErrorCode, Refusal};
use crate::protocol::views;
use crate::room::{Clock, Member, Recipient, Room, RoomState, Settings};
use crate::storage::{StorageError, StorageHandle, StoredSession, Write};

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: &str = "1.1";

/// A connection's way out: its queue of frames, and a bell that cuts it off.
#[derive(Clone)]
pub struct Conn {
    pub id: u64,
    tx: mpsc::Sender<Arc<str>>,
    pub kick: Arc<Notify>,
    sent: Arc<AtomicU64>,
}

impl Conn {
    pub fn new(id: u64, tx: mpsc::Sender<Arc<str>>) -> Conn {
        Conn { id, tx, kick: Arc::new(Notify::new()), sent: Arc::new(AtomicU64::new(0)) }
    }

    /// Queues a frame; a client too slow to take it is cut off rather than buffered for.
    pub fn push(&self, text: Arc<str>) {
        if self.tx.try_send(text).is_err() {
            self.kick.notify_one();
        }
    }

    /// Sends `kind` with `data` to this connection alone (not numbered in a room).
    pub fn send<T: serde::Serialize + ?Sized>(&self, kind: &str, data: &T) {
        let number = self.sent.fetch_add(1, Ordering::Relaxed) + 1;
        let direct = crate::room::Envelope {
            kind,
            data,
            timestamp: crate::room::now(),
            message_id: format!("c{}-{number}", self.id),
            seq: None,
        };
        if let Ok(text) = serde_json::to_string(&direct) {
            self.push(text.into());
        }
    }

    /// An `ERROR` for `refusal`, echoing the message it answers.
    pub fn refuse(&self, refusal: &Refusal, answering: Option<&str>) {
        self.send(
            "ERROR",
            &json!({
                "code": refusal.code.name(),
                "numericCode": refusal.code.number(),
                "message": refusal.message,
                "details": refusal.details,
                "inReplyTo": answering,
            }),
        );
    }
}

/// A player's session: who they are, their token, their room, their connection if any.
struct Session {
    token: String,
    name: String,
    color: String,
    room: Option<String>,
    conn: Option<Conn>,
    last_active: Instant,
}

type Shared<T> = Arc<tokio::sync::Mutex<T>>;

/// Every room and session.
pub struct Hub {
    pub config: Config,
    storage: StorageHandle,
    rooms: RwLock<HashMap<String, Shared<Room>>>,
    sessions: Mutex<HashMap<String, Session>>,
    bots: Arc<Semaphore>,
    bot_pool: rayon::ThreadPool,
    next_room: AtomicU64,
    next_conn: AtomicU64,
    pub connections: AtomicUsize,
    pub shutdown: Arc<Notify>,
}

fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

fn new_token() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No entropy source: a token from the clock and a counter is still unique, if
        // guessable; say so loudly rather than fail every connection.
        eprintln!("carcassonne-server: no random source; session tokens are weak");
        let nanos =
            SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_nanos());
        bytes = nanos.to_le_bytes();
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Whether two tokens are equal, in time that does not depend on where they differ.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Hub {
    /// A hub over `storage`, with the rooms and sessions it holds.
    pub async fn start(config: Config, storage: StorageHandle) -> Result<Arc<Hub>, StorageError> {
        let bot_pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.bot_threads.max(1))
            .thread_name(|index| format!("bots-{index}"))
            .build()
            .map_err(|error| StorageError::Corrupt(format!("bot threads: {error}")))?;
        let hub = Arc::new(Hub {
            bots: Arc::new(Semaphore::new(config.bot_threads.max(1) * 4)),
            config,
            storage,
            rooms: RwLock::new(HashMap::new()),
            sessions: Mutex::new(HashMap::new()),
            bot_pool,
            next_room: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
            connections: AtomicUsize::new(0),
            shutdown: Arc::new(Notify::new()),
        });
        hub.restore().await?;
        Ok(hub)
    }

    async fn restore(self: &Arc<Hub>) -> Result<(), StorageError> {
        let rooms = self.storage.read(|storage| storage.open_rooms()).await??;
        let sessions = self.storage.read(|storage| storage.sessions()).await??;
        let mut highest = 0;
        for (stored, actions) in rooms {
            if let Some(number) = stored.id.strip_prefix('r').and_then(|n| n.parse::<u64>().ok()) {
                highest = highest.max(number);
            }
            let id = stored.id.clone();
            match Room::restore(stored, &actions) {
                Ok(room) => {
                    // Nobody is connected yet: the absence grace runs with the others.
                    let clocks = room.turn_clocks();
                    if let Ok(mut rooms) = self.rooms.write() {
                        rooms.insert(id.clone(), Arc::new(tokio::sync::Mutex::new(room)));
                    }
                    for clock in clocks {
                        self.start_clock(&id, clock);
                    }
                }
                Err(error) => eprintln!("carcassonne-server: room {id} cannot be resumed: {error}"),
            }
        }
        self.next_room.store(highest + 1, Ordering::Relaxed);
        if let Ok(mut map) = self.sessions.lock() {
            for stored in sessions {
                map.insert(
                    stored.player_id,
                    Session {
                        token: stored.token,
                        name: stored.name,
                        color: stored.color,
                        room: stored.room,
                        conn: None,
                        last_active: Instant::now(),
                    },
                );
            }
        }
        Ok(())
    }

    /// A number for a new connection.
    pub fn connection_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn room(&self, id: &str) -> Result<Shared<Room>, Refusal> {
        self.rooms
            .read()
            .ok()
            .and_then(|rooms| rooms.get(id).cloned())
            .ok_or_else(|| Refusal::new(ErrorCode::RoomNotFound, format!("no room is called {id}")))
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        self.rooms.read().map_or(0, |rooms| rooms.len())
    }

    fn session_room(&self, player: &str) -> Option<String> {
        self.sessions.lock().ok()?.get(player)?.room.clone()
    }

    fn stored_session(&self, player: &str) -> Option<StoredSession> {
        let sessions = self.sessions.lock().ok()?;
        let session = sessions.get(player)?;
        Some(StoredSession {
            player_id: player.to_owned(),
            token: session.token.clone(),
            name: session.name.clone(),
            color: session.color.clone(),
            room: session.room.clone(),
            last_seen: unix_now(),
        })
    }

    fn set_session_room(&self, player: &str, room: Option<String>) -> Option<Write> {
        if let Ok(mut sessions) = self.sessions.lock()
            && let Some(session) = sessions.get_mut(player)
        {
            session.room = room;
        }
        self.stored_session(player).map(Write::Session)
    }

    /// The connections of everyone in `room` that `to` names.
    fn deliver(&self, room: &Room, deliveries: Vec<crate::room::Delivery>) {
        if deliveries.is_empty() {
            return;
        }
        let Ok(sessions) = self.sessions.lock() else { return };
        let everyone: Vec<&String> = room
            .members
            .iter()
            .filter(|member| member.bot.is_none())
            .map(|member| &member.player_id)
            .chain(room.spectators.iter())
            .collect();
        for delivery in deliveries {
            match &delivery.to {
                Recipient::All => {
                    for player in &everyone {
                        if let Some(conn) =
                            sessions.get(*player).and_then(|session| session.conn.as_ref())
                        {
                            conn.push(delivery.text.clone());
                        }
                    }
                }
                Recipient::Player(player) => {
                    if let Some(conn) =
                        sessions.get(player).and_then(|session| session.conn.as_ref())
                    {
                        conn.push(delivery.text.clone());
                    }
                }
            }
        }
    }

    /// Changes room `id` with `change`, stores the change, then tells the room and starts its
    /// clocks. A refusal changes nothing; a change that cannot be stored is undone (the room
    /// is read back from storage) and refused.
    async fn change_room<T>(
        self: &Arc<Hub>,
        id: &str,
        extra: Vec<Write>,
        change: impl FnOnce(&mut Room) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        let shared = self.room(id)?;
        let mut room = shared.lock().await;
        let first_action = room.turn();
        let seq = room.seq;
        let answer = change(&mut room);
        let answer = match answer {
            Ok(answer) => answer,
            Err(refusal) => {
                room.outbox.clear();
                room.clocks.clear();
                room.new_actions.clear();
                room.room_changed = false;
                return Err(refusal);
            }
        };
        let mut writes = extra;
        if room.room_changed {
            writes.push(Write::Room(room.record()));
        } else if room.seq != seq {
            writes.push(Write::Seq { room: room.id.clone(), seq: room.seq });
        }
        if !room.new_actions.is_empty() {
            writes.push(Write::Actions {
                room: room.id.clone(),
                first: first_action,
                actions: std::mem::take(&mut room.new_actions),
            });
        }
        room.room_changed = false;
        if let Err(error) = self.storage.write(writes).await {
            eprintln!("carcassonne-server: room {id}: storing failed: {error}");
            room.outbox.clear();
            room.clocks.clear();
            drop(room);
            self.reload(id).await;
            return Err(Refusal::new(
                ErrorCode::StorageFailed,
                "the change could not be stored; nothing was done",
            ));
        }
        let outbox = std::mem::take(&mut room.outbox);
        let clocks = std::mem::take(&mut room.clocks);
        self.deliver(&room, outbox);
        let finished = room.state == RoomState::Finished;
        let members: Vec<String> = room
            .members
            .iter()
            .map(|member| member.player_id.clone())
            .chain(room.spectators.clone())
            .collect();
        drop(room);
        for clock in clocks {
            self.start_clock(id, clock);
        }
        if finished {
            self.close_room(id, &members, false).await;
        }
        Ok(answer)
    }

    /// Reads room `id` back from storage after a failed write.
    async fn reload(self: &Arc<Hub>, id: &str) {
        let wanted = id.to_owned();
        let stored = self
            .storage
            .read(move |storage| {
                storage
                    .open_rooms()
                    .map(|rooms| rooms.into_iter().find(|(room, _)| room.id == wanted))
            })
            .await;
        let Ok(Ok(Some((stored, actions)))) = stored else {
            eprintln!(
                "carcassonne-server: room {id} could not be read back; it stays as it was in memory"
            );
            return;
        };
        if let Ok(room) = Room::restore(stored, &actions)
            && let Ok(mut rooms) = self.rooms.write()
        {
            rooms.insert(id.to_owned(), Arc::new(tokio::sync::Mutex::new(room)));
        }
    }

    /// Forgets a room: its game has ended (it stays stored, downloadable) or nobody is left
    /// (it is deleted when it never had a game).
    async fn close_room(self: &Arc<Hub>, id: &str, members: &[String], delete: bool) {
        if let Ok(mut rooms) = self.rooms.write() {
            rooms.remove(id);
        }
        let mut writes: Vec<Write> = members
            .iter()
            .filter(|player| self.session_room(player).as_deref() == Some(id))
            .filter_map(|player| self.set_session_room(player, None))
            .collect();
        if delete {
            writes.push(Write::DeleteRoom(id.to_owned()));
        }
        if let Err(error) = self.storage.write(writes).await {
            eprintln!("carcassonne-server: room {id}: closing it was not stored: {error}");
        }
    }

    // ----- Clocks and bots -----

    fn start_clock(self: &Arc<Hub>, room: &str, clock: Clock) {
        let delay = match clock {
            Clock::TurnTime { seconds, .. } => Duration::from_secs(u64::from(seconds)),
            Clock::FigureGrace { .. } => self.config.figure_grace,
            Clock::Absent { .. } => self.config.absent_grace,
            Clock::Bot { .. } => self.config.bot_delay,
        };
        let hub = Arc::clone(self);
        let room = room.to_owned();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            match clock {
                Clock::Bot { turn } => hub.bot_move(&room, turn).await,
                other => {
                    let _ = hub.change_room(&room, Vec::new(), |room| room.timeout(other)).await;
                }
            }
        });
    }

    /// A bot's turn: it thinks on the bot threads (never a socket's), from a copy of the
    /// game it reshuffles itself, then plays if the game is still where it was.
    async fn bot_move(self: &Arc<Hub>, room_id: &str, turn: usize) {
        let Ok(shared) = self.room(room_id) else { return };
        let (game, seat, level) = {
            let room = shared.lock().await;
            if room.turn() != turn {
                return;
            }
            let Some((seat, level)) = room.bot_to_move() else { return };
            let Some(game) = room.game.clone() else { return };
            (game, seat, level)
        };
        let Ok(permit) = Arc::clone(&self.bots).acquire_owned().await else { return };
        let (done, answer) = tokio::sync::oneshot::channel();
        self.bot_pool.spawn(move || {
            let _permit = permit;
            let _ = done.send(think(game, seat, &level));
        });
        let Ok(Ok(actions)) = answer.await else {
            eprintln!("carcassonne-server: room {room_id}: a bot could not move");
            return;
        };
        let _ = self.change_room(room_id, Vec::new(), |room| room.bot_turn(turn, &actions)).await;
    }

    // ----- Connections -----

    /// A connection closed: its session stays (for a reconnect) but is no longer reachable.
    pub async fn disconnected(self: &Arc<Hub>, player: Option<String>, conn: &Conn) {
        self.connections.fetch_sub(1, Ordering::Relaxed);
        let Some(player) = player else { return };
        let room = {
            let Ok(mut sessions) = self.sessions.lock() else { return };
            let Some(session) = sessions.get_mut(&player) else { return };
            if session.conn.as_ref().is_none_or(|current| current.id != conn.id) {
                return; // replaced by a newer connection
            }
            session.conn = None;
            session.last_active = Instant::now();
            session.room.clone()
        };
        if let Some(room) = room {
            let _ = self
                .change_room(&room, Vec::new(), |room| {
                    room.set_connected(&player, false);
                    Ok(())
                })
                .await;
        }
    }

    /// Handles one message of the connection whose session is `player` (None before
    /// `CONNECT`); returns the session's player id after a successful `CONNECT`.
    pub async fn handle(
        self: &Arc<Hub>,
        conn: &Conn,
        player: Option<&str>,
        message: ClientMessage,
    ) -> Result<Option<String>, Refusal> {
        if let Some(player) = player
            && let Ok(mut sessions) = self.sessions.lock()
            && let Some(session) = sessions.get_mut(player)
        {
            session.last_active = Instant::now();
        }
        match (message, player) {
            (ClientMessage::Ping, _) => {
                conn.send("PONG", &json!({}));
                Ok(None)
            }
            (ClientMessage::Connect { player_id, name, color, session_token, last_seq }, None) => {
                self.connect(conn, player_id, name, color, session_token, last_seq).await.map(Some)
            }
            (ClientMessage::Connect { .. }, Some(_)) => Err(Refusal::new(
                ErrorCode::AlreadyConnected,
                "this connection already has a session",
            )),
            (_, None) => Err(Refusal::new(ErrorCode::NotConnected, "send CONNECT first")),
            (message, Some(player)) => self.act(conn, player, message).await.map(|()| None),
        }
    }

    async fn connect(
        self: &Arc<Hub>,
        conn: &Conn,
        player: String,
        name: String,
        color: String,
        token: Option<String>,
        last_seq: Option<u64>,
    ) -> Result<String, Refusal> {
        let (session_token, room, resumed) = {
            let mut sessions = self
                .sessions
                .lock()
                .map_err(|_| Refusal::new(ErrorCode::InternalError, "sessions are unavailable"))?;
            match sessions.get_mut(&player) {
                Some(session) => {
                    if !token.as_deref().is_some_and(|token| same_token(token, &session.token)) {
                        return Err(Refusal::new(
                            ErrorCode::InvalidSession,
                            "this playerId has a session: reconnect with its sessionToken",
                        ));
                    }
                    if let Some(old) = session.conn.replace(conn.clone())
                        && old.id != conn.id
                    {
                        old.kick.notify_one();
                    }
                    // A returning player may have renamed themselves; their seats keep the
                    // name they joined with.
                    session.name = name.clone();
                    if !color.is_empty() {
                        session.color = color.clone();
                    }
                    session.last_active = Instant::now();
                    (session.token.clone(), session.room.clone(), true)
                }
                None => {
                    let session = Session {
                        token: new_token(),
                        name: name.clone(),
                        color: color.clone(),
                        room: None,
                        conn: Some(conn.clone()),
                        last_active: Instant::now(),
                    };
                    let issued = session.token.clone();
                    sessions.insert(player.clone(), session);
                    (issued, None, false)
                }
            }
        };
        if let Some(stored) = self.stored_session(&player)
            && let Err(error) = self.storage.write(vec![Write::Session(stored)]).await
        {
            if !resumed && let Ok(mut sessions) = self.sessions.lock() {
                sessions.remove(&player);
            }
            return Err(Refusal::new(
                ErrorCode::StorageFailed,
                format!("the session could not be stored: {error}"),
            ));
        }
        conn.send(
            "CONNECTED",
            &json!({
                "sessionToken": session_token,
                "protocolVersion": PROTOCOL_VERSION,
                "playerId": player,
                "resumed": resumed,
                "roomId": room,
            }),
        );
        if let Some(room_id) = room {
            self.resync(conn, &player, &room_id, last_seq).await;
        }
        Ok(player)
    }

    /// A returning player: the messages they missed, or the whole state.
    async fn resync(
        self: &Arc<Hub>,
        conn: &Conn,
        player: &str,
        room_id: &str,
        last_seq: Option<u64>,
    ) {
        let Ok(shared) = self.room(room_id) else {
            // The room closed while they were away.
            if let Some(write) = self.set_session_room(player, None) {
                let _ = self.storage.write(vec![write]).await;
            }
            return;
        };
        {
            let room = shared.lock().await;
            let missed = last_seq.and_then(|last| room.since(last, player));
            match missed {
                Some(messages) => {
                    for text in messages {
                        conn.push(text);
                    }
                }
                None => {
                    conn.send("ROOM_STATE", &room.room_state());
                    let state = room.game_state();
                    conn.send("GAME_STATE", &crate::room::GameStateMessage { game_state: &state });
                    if let Some(game) = &room.game
                        && !game.is_over()
                    {
                        resend_turn(conn, &room);
                    }
                }
            }
        }
        let player = player.to_owned();
        let _ = self
            .change_room(room_id, Vec::new(), move |room| {
                room.set_connected(&player, true);
                Ok(())
            })
            .await;
    }

    fn member(&self, player: &str) -> Member {
        let sessions = self.sessions.lock().ok();
        let session = sessions.as_ref().and_then(|sessions| sessions.get(player));
        Member {
            player_id: player.to_owned(),
            name: session.map_or_else(|| player.to_owned(), |session| session.name.clone()),
            color: session.map(|session| session.color.clone()).unwrap_or_default(),
            bot: None,
        }
    }

    fn current_room(&self, player: &str) -> Result<String, Refusal> {
        self.session_room(player)
            .ok_or_else(|| Refusal::new(ErrorCode::NotInRoom, "you are in no room"))
    }

    async fn act(
        self: &Arc<Hub>,
        conn: &Conn,
        player: &str,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::ListRooms => {
                let shared: Vec<Shared<Room>> = self
                    .rooms
                    .read()
                    .map(|rooms| rooms.values().cloned().collect())
                    .unwrap_or_default();
                let mut rooms = Vec::with_capacity(shared.len());
                for room in shared {
                    let room = room.lock().await;
                    if room.state != RoomState::Finished {
                        rooms.push(room.summary());
                    }
                }
                rooms.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
                conn.send("LIST_ROOMS", &json!({ "rooms": rooms }));
                Ok(())
            }
            ClientMessage::CreateRoom(settings) => self.create_room(player, settings).await,
            ClientMessage::JoinRoom { room_id, spectate } => {
                if let Some(current) = self.session_room(player) {
                    return Err(Refusal::new(
                        ErrorCode::AlreadyInRoom,
                        format!("you are in room {current}: leave it first"),
                    ));
                }
                let member = self.member(player);
                let session = self.set_session_room(player, Some(room_id.clone()));
                let joined = self
                    .change_room(&room_id, session.into_iter().collect(), |room| {
                        room.join(member, spectate)?;
                        let state = room.game_state();
                        room.emit(
                            Recipient::Player(player.to_owned()),
                            "GAME_STATE",
                            &crate::room::GameStateMessage { game_state: &state },
                        );
                        if room.game.is_some() {
                            resend_turn_in_room(room, player);
                        }
                        Ok(())
                    })
                    .await;
                if joined.is_err() {
                    self.set_session_room(player, None);
                }
                joined
            }
            ClientMessage::LeaveRoom { room_id } => {
                if self.session_room(player).as_deref() != Some(room_id.as_str()) {
                    return Err(Refusal::new(
                        ErrorCode::NotInRoom,
                        format!("you are not in room {room_id}"),
                    ));
                }
                let members = self
                    .room(&room_id)?
                    .lock()
                    .await
                    .members
                    .iter()
                    .map(|member| member.player_id.clone())
                    .collect::<Vec<_>>();
                let close =
                    self.change_room(&room_id, Vec::new(), |room| room.leave(player)).await?;
                if let Some(write) = self.set_session_room(player, None) {
                    let _ = self.storage.write(vec![write]).await;
                }
                if close {
                    self.close_room(&room_id, &members, true).await;
                }
                conn.send("ROOM_LEFT", &json!({ "roomId": room_id }));
                Ok(())
            }
            ClientMessage::AddBot { bot_name, difficulty } => {
                let room = self.current_room(player)?;
                self.change_room(&room, Vec::new(), |room| {
                    room.add_bot(player, bot_name, difficulty)
                })
                .await
            }
            ClientMessage::StartGame => {
                let room = self.current_room(player)?;
                self.change_room(&room, Vec::new(), |room| room.start(player)).await
            }
            ClientMessage::PlaceTile { x, y, rotation } => {
                let room = self.current_room(player)?;
                self.change_room(&room, Vec::new(), |room| room.place_tile(player, x, y, rotation))
                    .await
            }
            ClientMessage::PlaceMeeple { feature_id, figure } => {
                let room = self.current_room(player)?;
                let action = Action::Deploy {
                    segment: feature_id,
                    figure: views::figure_of(figure.as_deref()),
                };
                self.change_room(&room, Vec::new(), |room| room.figure_action(player, action)).await
            }
            ClientMessage::SkipMeeple => {
                let room = self.current_room(player)?;
                self.change_room(&room, Vec::new(), |room| room.figure_action(player, Action::Skip))
                    .await
            }
            ClientMessage::RecallAbbot { x, y } => {
                let room = self.current_room(player)?;
                let action = Action::RecallAbbot { pos: carcassonne::Pos::new(x, y) };
                self.change_room(&room, Vec::new(), |room| room.figure_action(player, action)).await
            }
            ClientMessage::Ping | ClientMessage::Connect { .. } => Ok(()),
        }
    }

    async fn create_room(
        self: &Arc<Hub>,
        player: &str,
        asked: RoomSettings,
    ) -> Result<(), Refusal> {
        if let Some(current) = self.session_room(player) {
            return Err(Refusal::new(
                ErrorCode::AlreadyInRoom,
                format!("you are in room {current}: leave it first"),
            ));
        }
        let settings = check_settings(asked)?;
        let (total, mine) = {
            let rooms: Vec<Shared<Room>> = self
                .rooms
                .read()
                .map(|rooms| rooms.values().cloned().collect())
                .unwrap_or_default();
            let mut mine = 0;
            for room in &rooms {
                if room.lock().await.created_by == player {
                    mine += 1;
                }
            }
            (rooms.len(), mine)
        };
        if total >= self.config.limits.rooms {
            return Err(Refusal::new(
                ErrorCode::ServerFull,
                "the server holds as many rooms as it may",
            ));
        }
        if mine >= self.config.limits.rooms_per_client {
            return Err(Refusal::new(
                ErrorCode::TooManyRooms,
                format!("one client may have {} open rooms", self.config.limits.rooms_per_client),
            ));
        }
        let id = format!("r{}", self.next_room.fetch_add(1, Ordering::Relaxed));
        let mut room = Room::new(id.clone(), settings, self.member(player));
        let state = room.game_state();
        room.emit(
            Recipient::Player(player.to_owned()),
            "GAME_STATE",
            &crate::room::GameStateMessage { game_state: &state },
        );
        let session = self.set_session_room(player, Some(id.clone()));
        let mut writes: Vec<Write> = session.into_iter().collect();
        writes.push(Write::Room(room.record()));
        room.room_changed = false;
        if let Err(error) = self.storage.write(writes).await {
            self.set_session_room(player, None);
            return Err(Refusal::new(
                ErrorCode::StorageFailed,
                format!("the room could not be stored: {error}"),
            ));
        }
        let outbox = std::mem::take(&mut room.outbox);
        self.deliver(&room, outbox);
        if let Ok(mut rooms) = self.rooms.write() {
            rooms.insert(id, Arc::new(tokio::sync::Mutex::new(room)));
        }
        Ok(())
    }

    /// Ends sessions idle for longer than the session timeout; their connections are cut and
    /// their rooms told.
    pub async fn sweep_sessions(self: &Arc<Hub>) {
        let timeout = self.config.session_timeout;
        let expired: Vec<(String, Option<String>, Option<Conn>)> = {
            let Ok(mut sessions) = self.sessions.lock() else { return };
            let old: Vec<String> = sessions
                .iter()
                .filter(|(_, session)| session.last_active.elapsed() > timeout)
                .map(|(player, _)| player.clone())
                .collect();
            old.into_iter()
                .filter_map(|player| {
                    sessions.remove(&player).map(|session| (player, session.room, session.conn))
                })
                .collect()
        };
        for (player, room, conn) in expired {
            if let Some(conn) = conn {
                conn.kick.notify_one();
            }
            if let Some(room) = room {
                let closing = self
                    .change_room(&room, Vec::new(), |room| {
                        room.set_connected(&player, false);
                        match room.state {
                            RoomState::Waiting => room.leave(&player),
                            _ => Ok(false),
                        }
                    })
                    .await;
                if let Ok(true) = closing {
                    self.close_room(&room, &[], true).await;
                }
            }
            let _ = self.storage.write(vec![Write::DeleteSession(player)]).await;
        }
    }

    /// A finished game as a saved game (the CLI's `replay` reads it), or None.
    pub async fn saved_game(&self, id: &str) -> Result<Option<String>, StorageError> {
        let wanted = id.to_owned();
        let stored = self.storage.read(move |storage| storage.finished_game(&wanted)).await??;
        let Some((room, actions)) = stored else { return Ok(None) };
        let setup = crate::room::setup(&room.settings, room.members.len())
            .map_err(StorageError::Corrupt)?;
        let game = carcassonne::Game::replay(setup, &actions)
            .map_err(|error| StorageError::Corrupt(error.to_string()))?;
        serde_json::to_string_pretty(&game)
            .map(Some)
            .map_err(|error| StorageError::Corrupt(error.to_string()))
    }
}

/// Tells one connection whose turn it is and what was placed (after a full state).
fn resend_turn(conn: &Conn, room: &Room) {
    if let Some((kind, data)) = room.turn_message() {
        conn.send(kind, &data);
    }
}

fn resend_turn_in_room(room: &mut Room, player: &str) {
    if let Some((kind, data)) = room.turn_message() {
        room.emit(Recipient::Player(player.to_owned()), kind, &data);
    }
}

/// A bot's whole turn: its placement, then its figure action.
fn think(
    mut game: carcassonne::Game,
    seat: carcassonne::PlayerId,
    level: &str,
) -> Result<Vec<Action>, String> {
    let profile = Profile::builtin(level).map_err(|error| error.to_string())?;
    let bot = profile
        .with_threads(1)
        .bot(carcassonne_bots::derive_seed(game.seed(), game.actions().len() as u64));
    let mut actions = Vec::new();
    for _ in 0..2 {
        if game.is_over()
            || game.current_player() != seat
            || matches!(game.phase(), carcassonne::Phase::Draw)
        {
            break;
        }
        let action = bot.choose(&game, seat).map_err(|error| error.to_string())?;
        game.apply(action).map_err(|error| error.to_string())?;
        actions.push(action);
    }
    Ok(actions)
}

/// `CREATE_ROOM`'s settings, checked: sets that exist and combine, a player count the sets
/// allow, rule options the engine knows.
fn check_settings(asked: RoomSettings) -> Result<Settings, Refusal> {
    let refuse = |message: String| Refusal::new(ErrorCode::InvalidRoomSettings, message);
    let mut catalogs = Vec::new();
    for name in &asked.tilesets {
        catalogs.push(Catalog::builtin(name).map_err(|error| refuse(error.to_string()))?);
    }
    let most = if asked.tilesets.iter().any(|name| name == "inns_and_cathedrals") { 6 } else { 5 };
    if !(2..=most).contains(&asked.max_players) {
        return Err(refuse(format!("maxPlayers is 2 to {most} with these tile sets")));
    }
    let rules: RuleOptions = match asked.rules {
        Some(rules) => {
            serde_json::from_value(rules).map_err(|error| refuse(format!("rules: {error}")))?
        }
        None => RuleOptions::default(),
    };
    let seed = asked.seed.unwrap_or_else(|| {
        let mut bytes = [0u8; 8];
        let _ = getrandom::fill(&mut bytes);
        u64::from_le_bytes(bytes)
    });
    let settings = Settings {
        name: asked.name,
        max_players: asked.max_players,
        tilesets: asked.tilesets,
        rules,
        seed,
        turn_seconds: asked.turn_seconds,
    };
    // The engine has the last word: a setup it refuses is refused here, not at START_GAME.
    let setup = crate::room::setup(&settings, 2).map_err(refuse)?;
    carcassonne::Game::new(setup).map_err(|error| refuse(error.to_string()))?;
    Ok(settings)
}
