//! The server's settings: where it listens and stores, and its clocks and limits.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

pub use crate::rate::Rate;

/// Limits on what one client, and all of them, may ask of the server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest text frame answered (larger ones get `FRAME_TOO_LARGE`).
    pub frame_bytes: usize,
    /// The largest frame read at all: beyond it the connection is cut.
    pub hard_frame_bytes: usize,
    /// Messages a second one connection may send, on average.
    pub messages_per_second: f64,
    /// Messages one connection may send in a burst.
    pub burst: f64,
    /// Open rooms one client (player id) may have created.
    pub rooms_per_client: usize,
    /// Open rooms the clients of one IP address may have created together.
    pub rooms_per_address: usize,
    /// Sessions one IP address may hold at once (each is a row in the database until it
    /// ends).
    pub sessions_per_address: usize,
    /// Connections (HTTP or WebSocket) one IP address may hold at once.
    pub connections_per_address: usize,
    /// Rooms the server holds.
    pub rooms: usize,
    /// Connections the server holds.
    pub connections: usize,
    /// Messages queued for one connection; a client that reads slower is cut off.
    pub outbox: usize,
    /// Bytes queued for one connection; a client that reads slower is cut off.
    pub outbox_bytes: usize,
    /// The kernel's send buffer for each connection, where set (None: the system's, which
    /// grows to a few megabytes); bytes in it do not count in `outbox_bytes`.
    pub send_buffer_bytes: Option<usize>,
    /// HTTP requests (every route, the WebSocket's handshake included) one IP address may
    /// make; past it, `429 Too Many Requests` with `Retry-After`.
    pub http_requests: Rate,
    /// `CONNECT`s one IP address may send, sessions new and resumed together.
    pub connects_per_address: Rate,
    /// Reconnections of one session (a `CONNECT` with its token).
    pub reconnects_per_session: Rate,
    /// Room moves (`CREATE_ROOM`, `JOIN_ROOM`, `LEAVE_ROOM`) one session may make.
    pub room_moves_per_session: Rate,
    /// The least time between two `ROOM_STATE`s that tell only comings and goings (presence,
    /// watchers, players joining a room that waits): those in between are told together.
    pub room_state_interval: Duration,
    /// External bots' turns (programs of `--bot`) thinking at once, in all; each waits on its
    /// program on a thread of its own, never on the built-in bots' threads.
    pub external_turns: usize,
    /// External bots' turns thinking at once for the rooms of one IP address (the address
    /// that created the room).
    pub external_turns_per_address: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            frame_bytes: 16 * 1024,
            hard_frame_bytes: 256 * 1024,
            messages_per_second: 20.0,
            burst: 40.0,
            rooms_per_client: 3,
            rooms_per_address: 8,
            connections_per_address: 32,
            sessions_per_address: 64,
            rooms: 20_000,
            connections: 50_000,
            outbox: 512,
            outbox_bytes: 1024 * 1024,
            send_buffer_bytes: None,
            // A page's first load asks for a few hundred tile pictures at most; every route
            // answers from memory, so the rate bounds bytes, not work.
            http_requests: Rate::new(20.0, 400.0),
            connects_per_address: Rate::new(10.0, 60.0),
            reconnects_per_session: Rate::new(0.5, 10.0),
            room_moves_per_session: Rate::new(2.0, 20.0),
            room_state_interval: Duration::from_millis(250),
            external_turns: 64,
            external_turns_per_address: 8,
        }
    }
}

/// Everything the server is started with.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// The database file; None keeps everything in memory.
    pub db: Option<PathBuf>,
    /// How long a bot waits before it acts.
    pub bot_delay: Duration,
    /// Threads for bots' thinking (never the sockets').
    pub bot_threads: usize,
    /// Inactivity after which a session ends.
    pub session_timeout: Duration,
    /// How long a placed tile waits for a figure action before the turn ends without one.
    pub figure_grace: Duration,
    /// How long a disconnected player's turn waits before the server plays for them.
    pub absent_grace: Duration,
    /// How long a connection may stay without `CONNECT`.
    pub handshake_timeout: Duration,
    /// How long an HTTP request's head may take to arrive whole (an idle connection counts).
    pub header_timeout: Duration,
    /// Origins whose pages may open the WebSocket (`https://example.org`), besides the
    /// server's own; a request without `Origin` (not a browser) is always welcome. Their
    /// hosts are hosts the server answers to.
    pub allowed_origins: Vec<String>,
    /// Host names the server answers to (`games.example.org`), besides addresses and
    /// `localhost`: a request whose `Host` is another name is refused, so that a page whose
    /// name was rebound to this server's address (DNS rebinding) reaches nothing.
    pub allowed_hosts: Vec<String>,
    /// How long a player id that has held a session stays its token's after its last use:
    /// until then, only that token connects as it (and sees its finished games).
    pub identity_retention: Duration,
    pub limits: Limits,
    /// Bots the operator added (`--bot NAME=COMMAND`): profiles of kind external, which
    /// `ADD_BOT` may name besides the three levels.
    pub external_bots: Vec<carcassonne_bots::Profile>,
    /// The tile sets rooms may use: the built-in ones and the operator's files
    /// (`--tilesets PATH`).
    pub library: std::sync::Arc<carcassonne_rooms::Library>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: None,
            bot_delay: Duration::from_secs(2),
            bot_threads: std::thread::available_parallelism().map_or(2, usize::from),
            session_timeout: Duration::from_secs(300),
            figure_grace: Duration::from_secs(20),
            absent_grace: Duration::from_secs(30),
            handshake_timeout: Duration::from_secs(30),
            header_timeout: Duration::from_secs(10),
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            identity_retention: Duration::from_secs(365 * 86_400),
            limits: Limits::default(),
            external_bots: Vec::new(),
            library: std::sync::Arc::default(),
        }
    }
}
