//! What a host keeps of rooms and sessions: the changes a room's [`Effects`](crate::room::Effects)
//! ask to store. The server stores them in SQLite; the page's offline host keeps nothing.

use carcassonne::Action;

pub use crate::room::RoomRecord as StoredRoom;

/// A session as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSession {
    pub player_id: String,
    /// The SHA-256 digest of the session token, in hex: the token itself is never stored,
    /// so a copy of the database resumes no one's session.
    pub token_digest: String,
    pub name: String,
    pub color: String,
    pub room: Option<String>,
    /// Seconds since the Unix epoch.
    pub last_seen: u64,
}

/// One change to store.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// The room, inserted or replaced.
    Room(StoredRoom),
    /// The room's last message number.
    Seq { room: String, seq: u64 },
    /// Actions `first..` of the room's game.
    Actions { room: String, first: usize, actions: Vec<Action> },
    /// A room closed before any game: nothing of it to keep.
    DeleteRoom(String),
    /// The session, inserted or replaced.
    Session(StoredSession),
    /// A session that timed out (its identity stays: only its token may take the id again).
    DeleteSession(String),
    /// Identities without a session, last seen before this (seconds since the Unix epoch):
    /// their ids are free again.
    ForgetIdentities { last_seen_before: u64 },
}
