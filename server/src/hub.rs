//! The hub: every room and session, what connections ask of them, storing each change before
//! anyone hears of it, and the clocks and bots that move games on. Rooms decide; the hub
//! carries out their [`Effects`](crate::room::Effects).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use carcassonne::Colour;
use carcassonne_bots::{Bot, ExternalBot, Profile};
use serde::Serialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::sync::{Notify, Semaphore, mpsc, watch};

use crate::config::Config;
use crate::protocol::client::{BotLevel, ClientMessage, RoomSettings};
use crate::protocol::codes::{ErrorCode, Refusal};
use crate::protocol::direct::{Connected, ErrorMessage, envelope};
use crate::rate::{Rates, Refused};
use crate::room::{
    Clock, Closing, Effects, FigureAction, GameStateMessage, Member, Recipient, Room, RoomState,
    check_settings,
};
use crate::storage::{Storage, StorageError, StorageHandle, StoredSession, Write};

pub use crate::protocol::PROTOCOL_VERSION;

/// The most finished games `GAMES` lists.
const GAMES_LISTED: usize = 20;

/// A lock whose holder panicked is still used: every map under these locks is changed in one
/// step, so a panic cannot leave one half-changed, and a server that stopped serving every
/// client over one fault would be worse. The fault itself is logged where it happened.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A connection's way out: its queue of frames, bounded in count and bytes, and a bell that
/// cuts it off.
#[derive(Clone)]
pub struct Conn {
    pub id: u64,
    /// The address it came from.
    pub ip: IpAddr,
    tx: mpsc::Sender<Arc<str>>,
    pub kick: Arc<Notify>,
    sent: Arc<AtomicU64>,
    /// Bytes queued and not yet written to the socket.
    queued: Arc<AtomicUsize>,
    most_queued: usize,
}

impl Conn {
    pub fn new(id: u64, ip: IpAddr, tx: mpsc::Sender<Arc<str>>, most_queued: usize) -> Conn {
        Conn {
            id,
            ip,
            tx,
            kick: Arc::new(Notify::new()),
            sent: Arc::new(AtomicU64::new(0)),
            queued: Arc::new(AtomicUsize::new(0)),
            most_queued,
        }
    }

    /// Queues a frame; a client too slow to take it (more than the queue's count or bytes
    /// waiting) is cut off rather than buffered for.
    pub fn push(&self, text: Arc<str>) {
        let bytes = text.len();
        let before = self.queued.fetch_add(bytes, Ordering::Relaxed);
        if before + bytes > self.most_queued || self.tx.try_send(text).is_err() {
            self.queued.fetch_sub(bytes, Ordering::Relaxed);
            // `notify_one` keeps a permit, so the connection sees it even while busy.
            self.kick.notify_one();
        }
    }

    /// The writer took `bytes` off the queue and wrote them.
    pub fn written(&self, bytes: usize) {
        self.queued.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Sends `kind` with `data` to this connection alone (not numbered in a room).
    pub fn send<T: Serialize + ?Sized>(&self, kind: &str, data: &T) {
        let number = self.sent.fetch_add(1, Ordering::Relaxed) + 1;
        match envelope(kind, data, format!("c{}-{number}", self.id)) {
            Some(text) => self.push(text.into()),
            None => tracing::error!(kind, "a message could not be written"),
        }
    }

    /// An `ERROR` for `refusal`, echoing the message it answers.
    pub fn refuse(&self, refusal: &Refusal, answering: Option<&str>) {
        self.send("ERROR", &ErrorMessage::of(refusal, answering));
    }
}

/// A player's session: who they are, their token's digest, their room, their connection if
/// any.
struct Session {
    token_digest: String,
    name: String,
    /// The colour the client asked for, if any (seats play the sets' colours in seat order).
    color: Option<Colour>,
    room: Option<String>,
    conn: Option<Conn>,
    /// Where the session was made (None for sessions read back after a restart).
    ip: Option<IpAddr>,
    last_active: Instant,
}

impl Session {
    fn stored(&self, player: &str) -> StoredSession {
        StoredSession {
            player_id: player.to_owned(),
            token_digest: self.token_digest.clone(),
            name: self.name.clone(),
            color: self.color.map(Colour::name).unwrap_or_default().to_owned(),
            room: self.room.clone(),
            last_seen: unix_now(),
        }
    }
}

/// Open rooms by who made them and from where, for the per-client and per-address caps.
#[derive(Default)]
struct Creators {
    rooms: HashMap<String, (String, Option<IpAddr>)>,
}

impl Creators {
    fn by_player(&self, player: &str) -> usize {
        self.rooms.values().filter(|(creator, _)| creator == player).count()
    }

    fn by_address(&self, ip: IpAddr) -> usize {
        self.rooms.values().filter(|(_, from)| *from == Some(ip)).count()
    }
}

type Shared<T> = Arc<tokio::sync::Mutex<T>>;

/// Every room and session.
pub struct Hub {
    pub config: Config,
    storage: StorageHandle,
    rooms: RwLock<HashMap<String, Shared<Room>>>,
    sessions: Mutex<HashMap<String, Session>>,
    creators: Mutex<Creators>,
    bots: Arc<Semaphore>,
    bot_pool: rayon::ThreadPool,
    /// External bots' turns thinking at once, in all: each waits on its program on a blocking
    /// thread of its own, never on `bot_pool`.
    external_turns: Arc<Semaphore>,
    /// External bots' turns thinking at once, by the address that made their room.
    external_turns_by_address: Mutex<HashMap<Option<IpAddr>, Arc<Semaphore>>>,
    /// How often each address and session may do what is rate-limited.
    pub rates: Rates,
    /// When identities were last forgotten (once an hour).
    identities_forgotten: Mutex<Option<Instant>>,
    /// The running external bots, by room and seat: each keeps its program between its turns.
    externals: Mutex<HashMap<(String, u8), Arc<ExternalBot>>>,
    next_room: AtomicU64,
    next_conn: AtomicU64,
    pub connections: AtomicUsize,
    /// Turns true when the server stops; every connection watches it.
    pub stopping: watch::Sender<bool>,
}

/// How many external bots' programs may wait between their turns at once.
const MAX_RUNNING_EXTERNAL_BOTS: usize = 64;

fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

/// The SHA-256 digest of a session token, in hex: what is stored and compared.
pub fn token_digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// `bytes` in lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A new session token (128 bits from the operating system) and its digest; none when the
/// system has no random source, since a guessable token would let anyone take a session.
fn new_token() -> Option<(String, String)> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    let token = hex(&bytes);
    let digest = token_digest(&token);
    Some((token, digest))
}

/// Whether two digests are equal, in time that does not depend on where they differ.
fn same_digest(a: &str, b: &str) -> bool {
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
            external_turns: Arc::new(Semaphore::new(config.limits.external_turns.max(1))),
            external_turns_by_address: Mutex::new(HashMap::new()),
            rates: Rates::new(&config.limits),
            identities_forgotten: Mutex::new(None),
            config,
            storage,
            rooms: RwLock::new(HashMap::new()),
            sessions: Mutex::new(HashMap::new()),
            creators: Mutex::new(Creators::default()),
            bot_pool,
            externals: Mutex::new(HashMap::new()),
            next_room: AtomicU64::new(1),
            next_conn: AtomicU64::new(1),
            connections: AtomicUsize::new(0),
            stopping: watch::Sender::new(false),
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
            match Room::restore(stored, &actions, Arc::clone(&self.config.library)) {
                Ok(room) => {
                    // Nobody is connected yet: the absence grace runs with the others.
                    let clocks = room.turn_clocks();
                    lock(&self.creators)
                        .rooms
                        .insert(id.clone(), (room.created_by().to_owned(), None));
                    self.rooms_mut().insert(id.clone(), Arc::new(tokio::sync::Mutex::new(room)));
                    for clock in clocks {
                        self.start_clock(&id, clock);
                    }
                }
                Err(error) => {
                    tracing::error!(room = %id, %error, "a stored room cannot be resumed")
                }
            }
        }
        self.next_room.store(highest + 1, Ordering::Relaxed);
        let mut map = lock(&self.sessions);
        for stored in sessions {
            map.insert(
                stored.player_id,
                Session {
                    token_digest: stored.token_digest,
                    name: stored.name,
                    color: Colour::named(&stored.color),
                    room: stored.room,
                    conn: None,
                    ip: None,
                    last_active: Instant::now(),
                },
            );
        }
        Ok(())
    }

    fn rooms_mut(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Shared<Room>>> {
        self.rooms.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn rooms_ref(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Shared<Room>>> {
        self.rooms.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn rooms_now(&self) -> Vec<Shared<Room>> {
        self.rooms_ref().values().cloned().collect()
    }

    /// A number for a new connection.
    pub fn connection_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn room(&self, id: &str) -> Result<Shared<Room>, Refusal> {
        self.rooms_ref()
            .get(id)
            .cloned()
            .ok_or_else(|| Refusal::new(ErrorCode::RoomNotFound, format!("no room is called {id}")))
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        self.rooms_ref().len()
    }

    fn session_room(&self, player: &str) -> Option<String> {
        lock(&self.sessions).get(player)?.room.clone()
    }

    /// Moves `player`'s session to `room` in memory; the write that stores it.
    fn set_session_room(&self, player: &str, room: Option<String>) -> Option<Write> {
        let mut sessions = lock(&self.sessions);
        let session = sessions.get_mut(player)?;
        session.room = room;
        Some(Write::Session(session.stored(player)))
    }

    /// Delivers a room's messages to the connections of the people they are for.
    fn deliver(&self, room: &Room, deliveries: &[crate::room::Delivery]) {
        if deliveries.is_empty() {
            return;
        }
        let sessions = lock(&self.sessions);
        let conn_of = |player: &str| sessions.get(player).and_then(|session| session.conn.as_ref());
        for delivery in deliveries {
            match &delivery.to {
                Recipient::All => {
                    for conn in room.people().filter_map(conn_of) {
                        conn.push(delivery.text.clone());
                    }
                }
                Recipient::Player(player) => {
                    if let Some(conn) = conn_of(player) {
                        conn.push(delivery.text.clone());
                    }
                }
            }
        }
    }

    /// Changes room `id` with `change`, then carries out its effects. A refusal changes
    /// nothing.
    async fn change_room(
        self: &Arc<Hub>,
        id: &str,
        change: impl FnOnce(&mut Room) -> Result<Effects, Refusal>,
    ) -> Result<(), Refusal> {
        let shared = self.room(id)?;
        let mut room = shared.lock().await;
        match change(&mut room) {
            Ok(effects) => self.carry_out(room, effects).await,
            Err(refusal) => {
                if refusal.details.get("reload").is_some() {
                    tracing::error!(room = %id, message = %refusal.message, "a room was refused half-changed");
                    drop(room);
                    self.reload(id).await;
                }
                Err(refusal)
            }
        }
    }

    /// An accepted change's effects: stored first (a change that cannot be stored is undone:
    /// the room is read back from storage, and refused), then told, then its clocks started,
    /// then the room closed if it ended.
    async fn carry_out(
        self: &Arc<Hub>,
        room: tokio::sync::MutexGuard<'_, Room>,
        effects: Effects,
    ) -> Result<(), Refusal> {
        let id = room.id().to_owned();
        let closing = effects.closing();
        let (writes, deliveries, clocks) = effects.into_parts();
        if let Err(error) = self.storage.write(writes).await {
            tracing::error!(room = %id, %error, "storing a change failed; the room is read back");
            drop(room);
            self.reload(&id).await;
            return Err(Refusal::new(
                ErrorCode::StorageFailed,
                "the change could not be stored; nothing was done",
            ));
        }
        self.deliver(&room, &deliveries);
        let people: Vec<String> = room.people().map(str::to_owned).collect();
        drop(room);
        for clock in clocks {
            self.start_clock(&id, clock);
        }
        if let Some(closing) = closing {
            self.close_room(&id, &people, closing == Closing::Empty).await;
        }
        Ok(())
    }

    /// Reads room `id` back from storage after a failed write: as stored, or gone when
    /// storage has no open room of that id.
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
        match stored {
            Ok(Ok(Some((stored, actions)))) => {
                match Room::restore(stored, &actions, Arc::clone(&self.config.library)) {
                    Ok(room) => {
                        self.rooms_mut()
                            .insert(id.to_owned(), Arc::new(tokio::sync::Mutex::new(room)));
                    }
                    Err(error) => {
                        tracing::error!(room = %id, %error, "the stored room cannot be resumed")
                    }
                }
            }
            Ok(Ok(None)) => {
                self.rooms_mut().remove(id);
                lock(&self.creators).rooms.remove(id);
            }
            _ => {
                tracing::error!(room = %id, "the room could not be read back; it stays as it was in memory")
            }
        }
    }

    /// Forgets a room: its game has ended (it stays stored, downloadable) or nobody is left
    /// (it is deleted when it never had a game).
    async fn close_room(self: &Arc<Hub>, id: &str, people: &[String], delete: bool) {
        self.rooms_mut().remove(id);
        // Its external bots' programs stop (once any turn they are thinking is done).
        let stopping: Vec<Arc<ExternalBot>> = lock(&self.externals)
            .extract_if(|(room, _), _| room == id)
            .map(|(_, bot)| bot)
            .collect();
        stop_aside(stopping);
        lock(&self.creators).rooms.remove(id);
        let mut writes: Vec<Write> = people
            .iter()
            .filter(|player| self.session_room(player).as_deref() == Some(id))
            .filter_map(|player| self.set_session_room(player, None))
            .collect();
        if delete {
            writes.push(Write::DeleteRoom(id.to_owned()));
        }
        if let Err(error) = self.storage.write(writes).await {
            tracing::error!(room = %id, %error, "closing the room was not stored");
        }
    }

    // ----- Clocks and bots -----

    fn start_clock(self: &Arc<Hub>, room: &str, clock: Clock) {
        let delay = match clock {
            Clock::TurnTime { seconds, .. } => Duration::from_secs(u64::from(seconds)),
            Clock::FigureGrace { .. } => self.config.figure_grace,
            Clock::Absent { .. } => self.config.absent_grace,
            Clock::Bot { .. } => self.config.bot_delay,
            Clock::RoomState => self.config.limits.room_state_interval,
        };
        let hub = Arc::clone(self);
        let room = room.to_owned();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            match clock {
                Clock::Bot { turn } => hub.bot_move(&room, turn).await,
                other => {
                    let _ = hub.change_room(&room, |room| room.timeout(other)).await;
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
            let Some(game) = room.game().cloned() else { return };
            (game, seat, level)
        };
        let answer = match self.seat_bot(room_id, seat, &level, &game) {
            SeatBot::Builtin(bot) => self.think_builtin(game, seat, bot).await,
            SeatBot::External(bot, budget) => {
                self.think_external(room_id, game, seat, bot, budget).await
            }
        };
        let actions = match answer {
            Some(Ok(actions)) => actions,
            Some(Err(error)) => {
                tracing::error!(room = %room_id, %error, "a bot could not move");
                return;
            }
            None => {
                tracing::error!(room = %room_id, "a bot's thread stopped before it moved");
                return;
            }
        };
        // One action every bot delay, as part 1 has bots play: the tile, then the figure
        // (with a flock's choice straight after it).
        let Some((placement, figure)) = actions.split_first() else { return };
        let placed = self.change_room(room_id, |room| room.bot_turn(turn, &[*placement])).await;
        if placed.is_ok() && !figure.is_empty() {
            tokio::time::sleep(self.config.bot_delay).await;
            let _ = self.change_room(room_id, |room| room.bot_turn(turn + 1, figure)).await;
        }
    }

    /// The bot for `seat` of room `room_id` at level `level`: a built-in level's bot seeded by
    /// the game and the turn, or the seat's external bot (started at its first turn and kept
    /// for the next ones). A level the server no longer knows (a room stored before its
    /// operator removed the bot) plays as the random bot, so that its game goes on.
    fn seat_bot(
        &self,
        room_id: &str,
        seat: carcassonne::PlayerId,
        level: &str,
        game: &carcassonne::Game,
    ) -> SeatBot {
        if let Some(bot) = carcassonne_rooms::builtin_bot(level, game) {
            return SeatBot::Builtin(Arc::from(bot));
        }
        let seed = carcassonne_bots::derive_seed(game.seed(), game.actions().len() as u64);
        let Some(profile) = self.config.external_bots.iter().find(|p| p.name == level) else {
            tracing::error!(room = %room_id, %level, "no bot has this name now; it plays at random");
            return SeatBot::Builtin(Arc::from(Profile::builtin("random").map_or_else(
                |_| Box::new(carcassonne_bots::RandomBot::new("random", seed, 0.5)) as Box<dyn Bot>,
                |random| random.bot(seed),
            )));
        };
        let carcassonne_bots::BotKind::External(config) = &profile.kind else {
            return SeatBot::Builtin(Arc::from(profile.bot(seed)));
        };
        let budget = Duration::from_millis(config.move_ms);
        let mut running = lock(&self.externals);
        let key = (room_id.to_owned(), seat.0);
        if let Some(bot) = running.get(&key) {
            return SeatBot::External(Arc::clone(bot), budget);
        }
        // A bounded number of programs run between turns; one stopped here is started again
        // at its next turn, which the protocol allows (every turn carries the whole game).
        if running.len() >= MAX_RUNNING_EXTERNAL_BOTS
            && let Some(evicted) = running.keys().next().cloned()
        {
            stop_aside(running.remove(&evicted).into_iter().collect());
        }
        let bot_seed = carcassonne_bots::derive_seed(game.seed(), u64::from(seat.0));
        let bot = Arc::new(ExternalBot::new(&profile.name, bot_seed, config.clone()));
        running.insert(key, Arc::clone(&bot));
        SeatBot::External(bot, budget)
    }

    /// A built-in bot's turn, on the bot threads; None when its thread stopped before it
    /// answered.
    async fn think_builtin(
        &self,
        game: carcassonne::Game,
        seat: carcassonne::PlayerId,
        bot: Arc<dyn Bot>,
    ) -> Option<Thought> {
        let permit = Arc::clone(&self.bots).acquire_owned().await.ok()?;
        let (done, answer) = tokio::sync::oneshot::channel();
        self.bot_pool.spawn(move || {
            let _permit = permit;
            let _ = done.send(carcassonne_rooms::think(game, seat, bot.as_ref()));
        });
        answer.await.ok()
    }

    /// An external bot's turn: on a blocking thread of its own (its program may take its whole
    /// budget to answer, and the built-in bots' threads never wait for it), once its room's
    /// address and the server have a turn to spare, and within `budget` in all, start-up
    /// included.
    async fn think_external(
        &self,
        room: &str,
        game: carcassonne::Game,
        seat: carcassonne::PlayerId,
        bot: Arc<ExternalBot>,
        budget: Duration,
    ) -> Option<Thought> {
        let address = lock(&self.creators).rooms.get(room).and_then(|(_, ip)| *ip);
        let for_address =
            Arc::clone(lock(&self.external_turns_by_address).entry(address).or_insert_with(|| {
                Arc::new(Semaphore::new(self.config.limits.external_turns_per_address.max(1)))
            }));
        // The address's turn first, so that an address waiting on its own share holds none
        // of the server's.
        let for_address = for_address.acquire_owned().await.ok()?;
        let in_all = Arc::clone(&self.external_turns).acquire_owned().await.ok()?;
        let room = room.to_owned();
        tokio::task::spawn_blocking(move || {
            let _permits = (for_address, in_all);
            let lost = bot.faults().total();
            let thought = carcassonne_rooms::think(game, seat, &bot.for_turn(budget));
            log_faults(&room, bot.as_ref(), lost);
            thought
        })
        .await
        .ok()
    }

    // ----- Connections -----

    /// A connection closed: its session stays (for a reconnect) but is no longer reachable.
    pub async fn disconnected(self: &Arc<Hub>, player: Option<String>, conn: &Conn) {
        self.connections.fetch_sub(1, Ordering::Relaxed);
        let Some(player) = player else { return };
        let room = {
            let mut sessions = lock(&self.sessions);
            let Some(session) = sessions.get_mut(&player) else { return };
            if session.conn.as_ref().is_none_or(|current| current.id != conn.id) {
                return; // replaced by a newer connection
            }
            session.conn = None;
            session.last_active = Instant::now();
            session.room.clone()
        };
        if let Some(room) = room {
            let _ = self.change_room(&room, |room| Ok(room.set_connected(&player, false))).await;
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
            && let Some(session) = lock(&self.sessions).get_mut(player)
        {
            session.last_active = Instant::now();
        }
        match (message, player) {
            (ClientMessage::Ping, _) => {
                conn.send("PONG", &json!({}));
                Ok(None)
            }
            (ClientMessage::Connect { player_id, name, color, session_token, last_seq }, None) => {
                let asked = Asked { player: player_id, name, color, token: session_token };
                self.connect(conn, asked, last_seq).await.map(Some)
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
        asked: Asked,
        last_seq: Option<u64>,
    ) -> Result<String, Refusal> {
        let Asked { player, name, color, token } = asked;
        self.rates
            .connects
            .take(&conn.ip)
            .map_err(|refused| rate_limited(refused, "one address may connect"))?;
        // An id without a live session may still be someone's: its identity outlives it.
        let held = if lock(&self.sessions).contains_key(&player) {
            None
        } else {
            self.identity(&player).await?
        };
        let (session_token, room, resumed, stored) = {
            let mut sessions = lock(&self.sessions);
            let from_here = sessions.values().filter(|session| session.ip == Some(conn.ip)).count();
            match sessions.get_mut(&player) {
                Some(session) => {
                    let presented = token.as_deref().map(token_digest);
                    if !presented.is_some_and(|digest| same_digest(&digest, &session.token_digest))
                    {
                        return Err(Refusal::new(
                            ErrorCode::InvalidSession,
                            "this playerId has a session: reconnect with its sessionToken",
                        ));
                    }
                    // Counted only with the token, so that nobody can spend another's.
                    self.rates
                        .reconnects
                        .take(&player)
                        .map_err(|refused| rate_limited(refused, "one session may reconnect"))?;
                    if let Some(old) = session.conn.replace(conn.clone())
                        && old.id != conn.id
                    {
                        old.kick.notify_one();
                    }
                    // A returning player may have renamed themselves; their seats keep the
                    // name they joined with.
                    session.name = name;
                    session.color = color.or(session.color);
                    session.last_active = Instant::now();
                    let token = token.unwrap_or_default();
                    (token, session.room.clone(), true, session.stored(&player))
                }
                None => {
                    let most = self.config.limits.sessions_per_address;
                    if from_here >= most {
                        return Err(Refusal::new(
                            ErrorCode::TooManySessions,
                            format!(
                                "one address may hold {most} sessions; reconnect with a session you have"
                            ),
                        ));
                    }
                    let (token, token_digest) = match held {
                        // The id's identity: its own token takes it again, nobody else's.
                        Some(digest) => match token.as_deref() {
                            Some(token) if same_digest(&token_digest(token), &digest) => {
                                (token.to_owned(), digest)
                            }
                            _ => {
                                return Err(Refusal::new(
                                    ErrorCode::InvalidSession,
                                    "this playerId is someone's: connect with its sessionToken, or choose another playerId",
                                ));
                            }
                        },
                        None => {
                            let Some(made) = new_token() else {
                                tracing::error!("no random source: no session can be made");
                                return Err(Refusal::new(
                                    ErrorCode::InternalError,
                                    "the server has no random source for a session token",
                                ));
                            };
                            made
                        }
                    };
                    let session = Session {
                        token_digest,
                        name,
                        color,
                        room: None,
                        conn: Some(conn.clone()),
                        ip: Some(conn.ip),
                        last_active: Instant::now(),
                    };
                    let stored = session.stored(&player);
                    sessions.insert(player.clone(), session);
                    (token, None, false, stored)
                }
            }
        };
        if let Err(error) = self.storage.write(vec![Write::Session(stored)]).await {
            if !resumed {
                lock(&self.sessions).remove(&player);
            }
            return Err(Refusal::new(
                ErrorCode::StorageFailed,
                format!("the session could not be stored: {error}"),
            ));
        }
        conn.send(
            "CONNECTED",
            &Connected {
                session_token: &session_token,
                protocol_version: PROTOCOL_VERSION,
                player_id: &player,
                resumed,
                room_id: room.as_deref(),
            },
        );
        if let Some(room_id) = room {
            self.resync(conn, &player, &room_id, last_seq).await;
        }
        Ok(player)
    }

    /// The token digest of `player`'s identity, if the id has held a session.
    async fn identity(&self, player: &str) -> Result<Option<String>, Refusal> {
        let wanted = player.to_owned();
        self.read_for_client("the session could not be looked up", move |storage| {
            storage.identity(&wanted)
        })
        .await
    }

    /// Runs `read` on the storage thread for a client's message: its answer, or a
    /// `STORAGE_FAILED` refusal saying `what` went wrong, and why.
    async fn read_for_client<T: Send + 'static>(
        &self,
        what: &str,
        read: impl FnOnce(&mut dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, Refusal> {
        self.storage
            .read(read)
            .await
            .and_then(|read| read)
            .map_err(|error| Refusal::new(ErrorCode::StorageFailed, format!("{what}: {error}")))
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
        let mut room = shared.lock().await;
        match last_seq.and_then(|last| room.since(last, player)) {
            Some(messages) => {
                for text in messages {
                    conn.push(text);
                }
            }
            None => {
                conn.send("ROOM_STATE", &room.room_state());
                let state = room.game_state();
                conn.send("GAME_STATE", &GameStateMessage { game_state: &state });
                if let Some(game) = room.game()
                    && !game.is_over()
                    && let Some(message) = room.turn_message()
                {
                    conn.send(message.kind(), &message);
                }
            }
        }
        let effects = room.set_connected(player, true);
        let _ = self.carry_out(room, effects).await;
    }

    async fn act(
        self: &Arc<Hub>,
        conn: &Conn,
        player: &str,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::ListRooms => {
                let mut rooms = Vec::new();
                for room in self.rooms_now() {
                    let room = room.lock().await;
                    if room.state() != RoomState::Finished {
                        rooms.push((
                            room.id().to_owned(),
                            crate::protocol::views::raw(&room.summary()),
                        ));
                    }
                }
                rooms.sort_by(|a, b| a.0.cmp(&b.0));
                let rooms: Vec<_> = rooms.into_iter().map(|(_, room)| room).collect();
                conn.send("LIST_ROOMS", &json!({ "rooms": rooms }));
                Ok(())
            }
            ClientMessage::ListGames => {
                let games = self.finished_games_of(player).await?;
                conn.send("GAMES", &json!({ "games": games }));
                Ok(())
            }
            ClientMessage::CreateRoom(settings) => {
                self.room_move(player)?;
                self.create_room(conn, player, settings).await
            }
            ClientMessage::JoinRoom { room_id, spectate } => {
                self.room_move(player)?;
                if let Some(current) = self.session_room(player) {
                    return Err(already_in(&current));
                }
                let shared = self.room(&room_id)?;
                let mut room = shared.lock().await;
                let (mut effects, session) =
                    self.enter_room(player, &room_id, |member| room.join(member, spectate))?;
                effects.store_too(session);
                let joined = self.carry_out(room, effects).await;
                if joined.is_err() {
                    self.set_session_room(player, None);
                }
                joined
            }
            ClientMessage::LeaveRoom { room_id } => {
                self.room_move(player)?;
                if self.session_room(player).as_deref() != Some(room_id.as_str()) {
                    return Err(Refusal::new(
                        ErrorCode::NotInRoom,
                        format!("you are not in room {room_id}"),
                    ));
                }
                let shared = self.room(&room_id)?;
                let mut room = shared.lock().await;
                let mut effects = room.leave(player)?;
                if let Some(write) = self.set_session_room(player, None) {
                    effects.store_too(write);
                }
                if let Err(refusal) = self.carry_out(room, effects).await {
                    self.set_session_room(player, Some(room_id));
                    return Err(refusal);
                }
                conn.send("ROOM_LEFT", &json!({ "roomId": room_id }));
                Ok(())
            }
            ClientMessage::AddBot { bot_name, difficulty } => {
                if let BotLevel::Named(name) = &difficulty
                    && !self.config.external_bots.iter().any(|bot| bot.name == *name)
                {
                    return Err(Refusal::new(
                        ErrorCode::InvalidData,
                        format!("ADD_BOT: `difficulty` is easy, medium, hard, expert or a bot GET /bots lists, not `{name}`"),
                    )
                    .with_details(json!({ "field": "difficulty" })));
                }
                let room = self.current_room(player)?;
                self.change_room(&room, |room| room.add_bot(player, bot_name, difficulty)).await
            }
            ClientMessage::StartGame => {
                let room = self.current_room(player)?;
                self.change_room(&room, |room| room.start(player)).await
            }
            ClientMessage::PlaceTile { x, y, rotation } => {
                let room = self.current_room(player)?;
                self.change_room(&room, |room| room.place_tile(player, x, y, rotation)).await
            }
            ClientMessage::PlaceMeeple { feature_id, figure } => {
                let action = FigureAction::Deploy { feature: feature_id, figure };
                self.figure_action(player, action).await
            }
            ClientMessage::SkipMeeple => self.figure_action(player, FigureAction::Skip).await,
            ClientMessage::TendFlock { grow } => {
                self.figure_action(player, FigureAction::TendFlock { grow }).await
            }
            ClientMessage::RecallAbbot { x, y } => {
                self.figure_action(player, FigureAction::RecallAbbot { x, y }).await
            }
            ClientMessage::Ping | ClientMessage::Connect { .. } => Ok(()),
        }
    }

    /// Counts a room move of `player`'s (creating, joining, leaving), or refuses it.
    fn room_move(&self, player: &str) -> Result<(), Refusal> {
        self.rates
            .room_moves
            .take(&player.to_owned())
            .map_err(|refused| rate_limited(refused, "one session may move between rooms"))
    }

    async fn figure_action(
        self: &Arc<Hub>,
        player: &str,
        action: FigureAction,
    ) -> Result<(), Refusal> {
        let room = self.current_room(player)?;
        self.change_room(&room, |room| room.figure_action(player, action)).await
    }

    /// Moves `player`'s session into room `room_id` if `enter` takes them in as the member
    /// it is given: the session and the room change together, under the sessions' lock, and
    /// neither changes when `enter` refuses. Returns what `enter` gave and the session's
    /// write, to be stored with the room's.
    fn enter_room<T>(
        &self,
        player: &str,
        room_id: &str,
        enter: impl FnOnce(Member) -> Result<T, Refusal>,
    ) -> Result<(T, Write), Refusal> {
        let mut sessions = lock(&self.sessions);
        let session = sessions
            .get_mut(player)
            .ok_or_else(|| Refusal::new(ErrorCode::NotConnected, "your session has ended"))?;
        if let Some(current) = &session.room {
            return Err(already_in(current));
        }
        let member = Member {
            player_id: player.to_owned(),
            name: session.name.clone(),
            color: String::new(),
            bot: None,
        };
        let entered = enter(member)?;
        session.room = Some(room_id.to_owned());
        Ok((entered, Write::Session(session.stored(player))))
    }

    fn current_room(&self, player: &str) -> Result<String, Refusal> {
        self.session_room(player)
            .ok_or_else(|| Refusal::new(ErrorCode::NotInRoom, "you are in no room"))
    }

    async fn create_room(
        self: &Arc<Hub>,
        conn: &Conn,
        player: &str,
        asked: RoomSettings,
    ) -> Result<(), Refusal> {
        if let Some(current) = self.session_room(player) {
            return Err(already_in(&current));
        }
        let settings = check_settings(asked, &self.config.library, || {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).ok().map(|()| u64::from_le_bytes(bytes))
        })?;
        if self.room_count() >= self.config.limits.rooms {
            return Err(Refusal::new(
                ErrorCode::ServerFull,
                "the server holds as many rooms as it may",
            ));
        }
        let id = {
            let creators = lock(&self.creators);
            let limits = &self.config.limits;
            if creators.by_player(player) >= limits.rooms_per_client {
                return Err(Refusal::new(
                    ErrorCode::TooManyRooms,
                    format!("one client may have {} open rooms", limits.rooms_per_client),
                ));
            }
            if creators.by_address(conn.ip) >= limits.rooms_per_address {
                return Err(Refusal::new(
                    ErrorCode::TooManyRooms,
                    format!("one address may have {} open rooms", limits.rooms_per_address),
                ));
            }
            format!("r{}", self.next_room.fetch_add(1, Ordering::Relaxed))
        };
        let ((room, mut effects), session) = self.enter_room(player, &id, |creator| {
            Ok(Room::new(id.clone(), settings, creator, Arc::clone(&self.config.library)))
        })?;
        effects.store_too(session);
        let shared = Arc::new(tokio::sync::Mutex::new(room));
        let room = shared.lock().await;
        self.rooms_mut().insert(id.clone(), Arc::clone(&shared));
        lock(&self.creators).rooms.insert(id.clone(), (player.to_owned(), Some(conn.ip)));
        let created = self.carry_out(room, effects).await;
        if created.is_err() {
            self.set_session_room(player, None);
            self.rooms_mut().remove(&id);
            lock(&self.creators).rooms.remove(&id);
        }
        created
    }

    /// The finished games `player` was seated in, latest first (at most [`GAMES_LISTED`]): each
    /// `{id, name, tilesets, players: [{name, score, isBot}], winners}`, its scores from the
    /// game replayed; `GET /games/{id}` downloads it.
    async fn finished_games_of(&self, player: &str) -> Result<Vec<serde_json::Value>, Refusal> {
        let wanted = player.to_owned();
        let stored = self
            .read_for_client("the games could not be read", move |storage| {
                storage.finished_games_of(&wanted, GAMES_LISTED)
            })
            .await?;
        let library = Arc::clone(&self.config.library);
        tokio::task::spawn_blocking(move || finished_games(stored, &library))
            .await
            .map_err(|_| Refusal::new(ErrorCode::InternalError, "the games could not be read back"))
    }

    /// Ends sessions without a connection for longer than the session timeout, and tells
    /// their rooms. A session seated in a game in progress does not end: the seat stays its
    /// owner's (by token) until the game is over.
    pub async fn sweep_sessions(self: &Arc<Hub>) {
        let timeout = self.config.session_timeout;
        let idle: Vec<(String, Option<String>)> = lock(&self.sessions)
            .iter()
            .filter(|(_, session)| {
                session.conn.is_none() && session.last_active.elapsed() > timeout
            })
            .map(|(player, session)| (player.clone(), session.room.clone()))
            .collect();
        for (player, room) in idle {
            if let Some(room) = &room
                && let Ok(shared) = self.room(room)
                && shared.lock().await.seats_in_play(&player)
            {
                continue;
            }
            let ended = {
                let mut sessions = lock(&self.sessions);
                let still_idle = sessions.get(&player).is_some_and(|session| {
                    session.conn.is_none() && session.last_active.elapsed() > timeout
                });
                still_idle && sessions.remove(&player).is_some()
            };
            if !ended {
                continue;
            }
            if let Some(room) = room {
                let _ = self.change_room(&room, |room| Ok(room.expire(&player))).await;
            }
            let _ = self.storage.write(vec![Write::DeleteSession(player)]).await;
        }
        self.rates.prune();
        let most = self.config.limits.external_turns_per_address.max(1);
        lock(&self.external_turns_by_address)
            .retain(|_, turns| Arc::strong_count(turns) > 1 || turns.available_permits() < most);
        self.forget_identities().await;
    }

    /// Forgets, once an hour, the identities unused for longer than the retention: their ids
    /// are free again, and start with no finished games.
    async fn forget_identities(&self) {
        {
            let mut last = lock(&self.identities_forgotten);
            if last.is_some_and(|last| last.elapsed() < Duration::from_secs(3600)) {
                return;
            }
            *last = Some(Instant::now());
        }
        let before = unix_now().saturating_sub(self.config.identity_retention.as_secs());
        let forget = Write::ForgetIdentities { last_seen_before: before };
        if let Err(error) = self.storage.write(vec![forget]).await {
            tracing::warn!(%error, "forgetting old identities failed; tried again in an hour");
        }
    }

    /// A finished game as a saved game (the CLI's `replay` reads it), or None.
    pub async fn saved_game(&self, id: &str) -> Result<Option<String>, StorageError> {
        let wanted = id.to_owned();
        let stored = self.storage.read(move |storage| storage.finished_game(&wanted)).await??;
        let Some((room, actions)) = stored else { return Ok(None) };
        let library = Arc::clone(&self.config.library);
        // A replay is work for a blocking thread, not a socket's.
        tokio::task::spawn_blocking(move || {
            let setup = crate::room::setup(&room.settings, room.members.len(), &library)
                .map_err(StorageError::Corrupt)?;
            let game = carcassonne::Game::replay(setup, &actions)
                .map_err(|error| StorageError::Corrupt(error.to_string()))?;
            serde_json::to_string_pretty(&game)
                .map(Some)
                .map_err(|error| StorageError::Corrupt(error.to_string()))
        })
        .await
        .map_err(|_| StorageError::Stopped)?
    }
}

/// Each finished game as `GAMES` lists it, its scores from the game replayed.
fn finished_games(
    stored: Vec<(crate::storage::StoredRoom, Vec<carcassonne::Action>)>,
    library: &carcassonne_rooms::Library,
) -> Vec<serde_json::Value> {
    let mut games = Vec::with_capacity(stored.len());
    for (room, actions) in stored {
        let Ok(setup) = crate::room::setup(&room.settings, room.members.len(), library) else {
            tracing::error!(room = %room.id, "a finished game's tile sets are gone; left out of GAMES");
            continue;
        };
        let Ok(game) = carcassonne::Game::replay(setup, &actions) else {
            tracing::error!(room = %room.id, "a finished game no longer replays; left out of GAMES");
            continue;
        };
        let players: Vec<serde_json::Value> = room
                .members
                .iter()
                .zip(game.scores())
                .map(|(member, score)| {
                    json!({ "name": member.name, "score": score, "isBot": member.bot.is_some() })
                })
                .collect();
        let winners: Vec<&str> = game
            .leaders()
            .iter()
            .filter_map(|seat| room.members.get(seat.index()).map(|member| member.name.as_str()))
            .collect();
        games.push(json!({
            "id": room.id,
            "name": room.settings.name,
            "tilesets": room.settings.tilesets,
            "players": players,
            "winners": winners,
        }));
    }
    games
}

/// A bot's turn: its actions, or why it could not move.
type Thought = Result<Vec<carcassonne::Action>, String>;

/// A seat's bot for one turn: a built-in one, which thinks on the bot threads, or an external
/// one, which waits on its program within its turn's budget.
enum SeatBot {
    Builtin(Arc<dyn Bot>),
    External(Arc<ExternalBot>, Duration),
}

/// Drops external bots on a blocking thread: a program's exit grace is waited for there, never
/// on the sockets' threads.
fn stop_aside(bots: Vec<Arc<ExternalBot>>) {
    if !bots.is_empty() {
        drop(tokio::task::spawn_blocking(move || drop(bots)));
    }
}

/// Logs the moves an external bot lost in its turn (it had lost `before` until then).
fn log_faults(room: &str, bot: &ExternalBot, before: u32) {
    let faults = bot.faults();
    if faults.total() > before {
        tracing::warn!(
            %room,
            bot = bot.name(),
            lost = faults.total() - before,
            first = faults.first.as_deref().unwrap_or(""),
            "an external bot lost moves to random ones"
        );
    }
}

/// The refusal of a room to someone already in another.
fn already_in(current: &str) -> Refusal {
    Refusal::new(ErrorCode::AlreadyInRoom, format!("you are in room {current}: leave it first"))
}

/// A rate-limited refusal: `what` (`one address may connect`) and how often, with when to try
/// again in `details.retryAfterMs`.
fn rate_limited(refused: Refused, what: &str) -> Refusal {
    let rate = refused.rate;
    let retry_ms = u64::try_from(refused.retry_after.as_millis()).unwrap_or(u64::MAX).max(1);
    Refusal::new(
        ErrorCode::RateLimited,
        format!(
            "{what} {} times a second ({} at once); try again in {} ms",
            rate.per_second, rate.burst, retry_ms
        ),
    )
    .with_details(json!({ "retryAfterMs": retry_ms }))
}

/// What `CONNECT` asked for.
struct Asked {
    player: String,
    name: String,
    color: Option<Colour>,
    token: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_as_digests_and_compared_whole() {
        let (token, digest) = new_token().expect("a random source");
        assert_eq!(token.len(), 32);
        assert_ne!(token, digest);
        assert_eq!(token_digest(&token), digest);
        assert!(same_digest(&digest, &token_digest(&token)));
        assert!(!same_digest(&digest, &token_digest("guess")));
        assert!(!same_digest(&digest, &digest[..10]));
    }
}
