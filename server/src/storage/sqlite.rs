//! The SQLite storage: a file (write-ahead log, so a killed server loses nothing it
//! answered) or memory, for tests.

use std::path::Path;

use carcassonne::Action;
use rusqlite::{Connection, OptionalExtension, params};

use super::{Storage, StorageError, StoredRoom, StoredSession, Write};
use crate::room::{Member, RoomState, Settings};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created_by TEXT NOT NULL,
    host TEXT,
    state TEXT NOT NULL,
    members TEXT NOT NULL,
    seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, idx)
) WITHOUT ROWID;
-- Who played in each finished game (since schema 2), in the order the games ended: what
-- LIST_GAMES reads, by index, without scanning every room's members.
CREATE TABLE IF NOT EXISTS finished_games (
    player_id TEXT NOT NULL,
    room TEXT NOT NULL,
    ended INTEGER NOT NULL,
    PRIMARY KEY (player_id, room)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS finished_games_by_player ON finished_games (player_id, ended);
CREATE TABLE IF NOT EXISTS sessions (
    player_id TEXT PRIMARY KEY,
    -- The SHA-256 digest of the session token in hex (since schema 1), never the token.
    token TEXT NOT NULL,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    room TEXT,
    last_seen INTEGER NOT NULL
);
-- Every player id that has held a session (since schema 3), kept after its session ends:
-- only its token connects as it again, and it lists only the finished games that ended
-- after it was first held (`since`, a value of finished_games.ended), so that an id forgotten
-- and taken anew inherits nobody's history.
CREATE TABLE IF NOT EXISTS identities (
    player_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    since INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS identities_by_last_seen ON identities (last_seen);
";

/// A `rooms` row: id, settings, creator, host, state, members, seq.
type RoomRow = (String, String, String, Option<String>, String, String, i64);

/// Rooms, sessions and games in an SQLite database.
pub struct SqliteStorage {
    db: Connection,
    /// Dropped with the storage: the checkpointing thread then stops.
    _checkpoints: Option<std::sync::mpsc::Sender<()>>,
}

/// How often the write-ahead log is copied into the database, off the writer's path.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl SqliteStorage {
    /// The database in the file `path`, created if need be, readable by its owner only (it
    /// holds who plays where; sessions are kept as digests, but a game's seed is in it).
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        private_file(path)?;
        let db = Connection::open(path)?;
        // The write-ahead log survives a killed process; NORMAL syncs at checkpoints, which
        // only a power cut could make matter.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        // Checkpoints run on a thread of their own (PASSIVE: never blocking the writer), not
        // inside a commit, where one would hold up every move waiting on it.
        db.pragma_update(None, "wal_autocheckpoint", 0)?;
        let mut storage = SqliteStorage::with(db)?;
        let checkpointer = Connection::open(path)?;
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name("checkpoints".into()).spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(CHECKPOINT_EVERY)
            {
                if let Err(error) =
                    checkpointer.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                {
                    tracing::warn!(%error, "checkpoint failed");
                }
            }
        });
        if spawned.is_ok() {
            storage._checkpoints = Some(stop);
        } else {
            // No thread: the writer checkpoints as SQLite does by default.
            storage.db.pragma_update(None, "wal_autocheckpoint", 1000)?;
        }
        Ok(storage)
    }

    /// A database in memory (tests).
    pub fn memory() -> Result<SqliteStorage, StorageError> {
        SqliteStorage::with(Connection::open_in_memory()?)
    }

    fn with(db: Connection) -> Result<SqliteStorage, StorageError> {
        db.execute_batch(SCHEMA)?;
        migrate(&db)?;
        Ok(SqliteStorage { db, _checkpoints: None })
    }

    fn room_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RoomRow> {
        Ok((
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
            row.get(5)?,
            row.get(6)?,
        ))
    }

    fn room(
        &self,
        (id, settings, created_by, host, state, members, seq): (
            String,
            String,
            String,
            Option<String>,
            String,
            String,
            i64,
        ),
    ) -> Result<(StoredRoom, Vec<Action>), StorageError> {
        let corrupt = |what: &str, error: serde_json::Error| {
            StorageError::Corrupt(format!("room {id}: {what}: {error}"))
        };
        let settings: Settings =
            serde_json::from_str(&settings).map_err(|error| corrupt("settings", error))?;
        let state: RoomState = serde_json::from_value(serde_json::Value::String(state))
            .map_err(|error| corrupt("state", error))?;
        let members: Vec<Member> =
            serde_json::from_str(&members).map_err(|error| corrupt("members", error))?;
        let mut statement =
            self.db.prepare_cached("SELECT action FROM actions WHERE room = ?1 ORDER BY idx")?;
        let texts = statement
            .query_map(params![id], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let actions = texts
            .iter()
            .map(|text| {
                serde_json::from_str::<Action>(text).map_err(|error| corrupt("action", error))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let seq = u64::try_from(seq).unwrap_or(0);
        Ok((StoredRoom { id, settings, created_by, host, state, members, seq }, actions))
    }
}

/// The schema's version, in SQLite's `user_version`.
const SCHEMA_VERSION: i64 = 3;

/// Who played in finished game `room`, recorded once when it ends.
const RECORD_PLAYERS: &str = "INSERT OR IGNORE INTO finished_games (player_id, room, ended) \
    SELECT json_extract(member.value, '$.player_id'), ?1, \
        (SELECT COALESCE(MAX(ended), 0) + 1 FROM finished_games) \
    FROM json_each(?2) AS member";

/// A session's write keeps its identity too: made with the games so far as its `since`, or
/// seen again.
const KEEP_IDENTITY: &str = "INSERT INTO identities (player_id, token, since, last_seen) \
    VALUES (?1, ?2, (SELECT COALESCE(MAX(ended), 0) FROM finished_games), ?3) \
    ON CONFLICT (player_id) DO UPDATE SET token = excluded.token, last_seen = excluded.last_seen";

/// Brings an older database up to `SCHEMA_VERSION`: version 0 kept session tokens as they
/// were; version 1 keeps their digests; version 2 indexes finished games by player; version
/// 3 keeps the identities of ended sessions (those of the sessions it finds hold every game
/// they played).
fn migrate(db: &Connection) -> Result<(), StorageError> {
    let version: i64 = db.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version < 2 {
        // The games finished before the index, in the order their rooms were last written.
        let finished: Vec<(String, String)> = db
            .prepare("SELECT id, members FROM rooms WHERE state = 'FINISHED' ORDER BY rowid")?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let transaction = db.unchecked_transaction()?;
        for (room, members) in finished {
            transaction.execute(RECORD_PLAYERS, params![room, members])?;
        }
        if version >= 1 {
            transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
        transaction.commit()?;
    }
    if version < 1 {
        let tokens: Vec<(String, String)> = db
            .prepare("SELECT player_id, token FROM sessions")?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let transaction = db.unchecked_transaction()?;
        for (player, token) in tokens {
            transaction.execute(
                "UPDATE sessions SET token = ?2 WHERE player_id = ?1",
                params![player, crate::hub::token_digest(&token)],
            )?;
        }
        transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        transaction.commit()?;
    }
    if version < 3 {
        let transaction = db.unchecked_transaction()?;
        transaction.execute(
            "INSERT OR IGNORE INTO identities (player_id, token, since, last_seen) \
             SELECT player_id, token, 0, last_seen FROM sessions",
            [],
        )?;
        transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        transaction.commit()?;
    }
    Ok(())
}

/// Creates `path` readable and writable by its owner only, or makes an existing file so
/// (SQLite gives its journal files the database file's mode).
fn private_file(path: &Path) -> Result<(), StorageError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let io =
            |error: std::io::Error| StorageError::Corrupt(format!("{}: {error}", path.display()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        let mode = file.metadata().map_err(io)?.permissions().mode();
        if mode & 0o077 != 0 {
            tracing::warn!(path = %path.display(), "the database was readable by others; it is now its owner's only");
            file.set_permissions(std::fs::Permissions::from_mode(mode & 0o700)).map_err(io)?;
        }
        for suffix in ["-wal", "-shm"] {
            let mut journal = path.as_os_str().to_owned();
            journal.push(suffix);
            if let Ok(metadata) = std::fs::metadata(&journal)
                && metadata.permissions().mode() & 0o077 != 0
            {
                std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o600))
                    .map_err(io)?;
            }
        }
    }
    Ok(())
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|error| StorageError::Corrupt(error.to_string()))
}

fn state_name(state: RoomState) -> Result<String, StorageError> {
    match serde_json::to_value(state) {
        Ok(serde_json::Value::String(name)) => Ok(name),
        _ => Err(StorageError::Corrupt("a room state has no name".into())),
    }
}

impl Storage for SqliteStorage {
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        let transaction = self.db.transaction()?;
        for write in writes {
            match write {
                Write::Room(room) => {
                    let members = json(&room.members)?;
                    if room.state == RoomState::Finished {
                        transaction
                            .prepare_cached(RECORD_PLAYERS)?
                            .execute(params![room.id, members])?;
                    }
                    transaction.prepare_cached(
                        "INSERT OR REPLACE INTO rooms (id, settings, created_by, host, state, members, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    )?.execute(params![
                        room.id,
                        json(&room.settings)?,
                        room.created_by,
                        room.host,
                        state_name(room.state)?,
                        members,
                        i64::try_from(room.seq).unwrap_or(i64::MAX),
                    ])?;
                }
                Write::Seq { room, seq } => {
                    transaction
                        .prepare_cached("UPDATE rooms SET seq = ?2 WHERE id = ?1")?
                        .execute(params![room, i64::try_from(*seq).unwrap_or(i64::MAX)])?;
                }
                Write::Actions { room, first, actions } => {
                    let mut insert = transaction.prepare_cached(
                        "INSERT OR REPLACE INTO actions (room, idx, action) VALUES (?1, ?2, ?3)",
                    )?;
                    for (offset, action) in actions.iter().enumerate() {
                        let index = i64::try_from(first + offset).unwrap_or(i64::MAX);
                        insert.execute(params![room, index, json(action)?])?;
                    }
                }
                Write::DeleteRoom(room) => {
                    transaction
                        .prepare_cached("DELETE FROM actions WHERE room = ?1")?
                        .execute(params![room])?;
                    transaction
                        .prepare_cached("DELETE FROM rooms WHERE id = ?1")?
                        .execute(params![room])?;
                }
                Write::Session(session) => {
                    transaction.prepare_cached(
                        "INSERT OR REPLACE INTO sessions (player_id, token, name, color, room, last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?.execute(params![
                        session.player_id,
                        session.token_digest,
                        session.name,
                        session.color,
                        session.room,
                        i64::try_from(session.last_seen).unwrap_or(i64::MAX),
                    ])?;
                    transaction.prepare_cached(KEEP_IDENTITY)?.execute(params![
                        session.player_id,
                        session.token_digest,
                        i64::try_from(session.last_seen).unwrap_or(i64::MAX),
                    ])?;
                }
                Write::ForgetIdentities { last_seen_before } => {
                    transaction
                        .prepare_cached(
                            "DELETE FROM identities WHERE last_seen < ?1 \
                             AND player_id NOT IN (SELECT player_id FROM sessions)",
                        )?
                        .execute(params![i64::try_from(*last_seen_before).unwrap_or(i64::MAX)])?;
                }
                Write::DeleteSession(player) => {
                    transaction
                        .prepare_cached("DELETE FROM sessions WHERE player_id = ?1")?
                        .execute(params![player])?;
                }
            }
        }
        transaction.commit()?;
        Ok(())
    }

    fn open_rooms(&mut self) -> Result<Vec<(StoredRoom, Vec<Action>)>, StorageError> {
        let rows = {
            let mut statement = self.db.prepare(
                "SELECT id, settings, created_by, host, state, members, seq FROM rooms WHERE state != 'FINISHED' ORDER BY id",
            )?;
            statement.query_map([], SqliteStorage::room_row)?.collect::<Result<Vec<_>, _>>()?
        };
        rows.into_iter().map(|row| self.room(row)).collect()
    }

    fn sessions(&mut self) -> Result<Vec<StoredSession>, StorageError> {
        let mut statement = self
            .db
            .prepare("SELECT player_id, token, name, color, room, last_seen FROM sessions")?;
        let sessions = statement
            .query_map([], |row| {
                Ok(StoredSession {
                    player_id: row.get(0)?,
                    token_digest: row.get(1)?,
                    name: row.get(2)?,
                    color: row.get(3)?,
                    room: row.get(4)?,
                    last_seen: u64::try_from(row.get::<_, i64>(5)?).unwrap_or(0),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(sessions)
    }

    fn finished_games_of(
        &mut self,
        player: &str,
        most: usize,
    ) -> Result<Vec<(StoredRoom, Vec<Action>)>, StorageError> {
        let rows = {
            let mut statement = self.db.prepare_cached(
                "SELECT rooms.id, settings, created_by, host, state, members, seq \
                 FROM finished_games JOIN rooms ON rooms.id = finished_games.room \
                 WHERE finished_games.player_id = ?1 AND state = 'FINISHED' \
                 AND finished_games.ended > \
                     COALESCE((SELECT since FROM identities WHERE player_id = ?1), 0) \
                 ORDER BY finished_games.ended DESC LIMIT ?2",
            )?;
            let most = i64::try_from(most).unwrap_or(i64::MAX);
            statement
                .query_map(params![player, most], SqliteStorage::room_row)?
                .collect::<Result<Vec<_>, _>>()?
        };
        rows.into_iter().map(|row| self.room(row)).collect()
    }

    fn identity(&mut self, player: &str) -> Result<Option<String>, StorageError> {
        Ok(self
            .db
            .prepare_cached("SELECT token FROM identities WHERE player_id = ?1")?
            .query_row(params![player], |row| row.get(0))
            .optional()?)
    }

    fn finished_game(
        &mut self,
        id: &str,
    ) -> Result<Option<(StoredRoom, Vec<Action>)>, StorageError> {
        let row = self
            .db
            .query_row(
                "SELECT id, settings, created_by, host, state, members, seq FROM rooms WHERE id = ?1 AND state = 'FINISHED'",
                params![id],
                SqliteStorage::room_row,
            )
            .optional()?;
        row.map(|row| self.room(row)).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(id: &str, players: &[&str]) -> StoredRoom {
        StoredRoom {
            id: id.to_owned(),
            settings: Settings {
                name: format!("room {id}"),
                max_players: 2,
                tilesets: vec!["base".to_owned()],
                rules: carcassonne::RuleOptions::default(),
                seed: 1,
                seed_chosen: false,
                turn_seconds: None,
            },
            created_by: players[0].to_owned(),
            host: None,
            state: RoomState::Finished,
            members: players
                .iter()
                .map(|player| Member {
                    player_id: (*player).to_owned(),
                    name: (*player).to_owned(),
                    color: String::new(),
                    bot: None,
                })
                .collect(),
            seq: 9,
        }
    }

    fn listed(storage: &mut SqliteStorage, player: &str) -> Vec<String> {
        let games = storage.finished_games_of(player, 20).expect("read");
        games.into_iter().map(|(room, _)| room.id).collect()
    }

    fn session(player: &str, digest: &str, last_seen: u64) -> Write {
        Write::Session(StoredSession {
            player_id: player.to_owned(),
            token_digest: digest.to_owned(),
            name: player.to_owned(),
            color: String::new(),
            room: None,
            last_seen,
        })
    }

    /// Finding 7 of the second review: an expired session's id, taken by a stranger, inherited
    /// its finished games. The identity outlives the session; once forgotten, the id taken anew
    /// lists only the games after it.
    #[test]
    fn an_identity_outlives_its_session_and_a_new_one_inherits_no_games() {
        let mut storage = SqliteStorage::memory().expect("a database");
        storage.write(&[session("ann", "digest-1", 100)]).expect("stored");
        storage.write(&[Write::Room(finished("r1", &["ann", "bob"]))]).expect("stored");
        storage.write(&[Write::DeleteSession("ann".into())]).expect("stored");
        assert_eq!(storage.identity("ann").expect("read").as_deref(), Some("digest-1"));
        assert_eq!(listed(&mut storage, "ann"), ["r1"], "its games stay listed");
        // Recently seen: kept. Unseen since before the retention: forgotten.
        storage.write(&[Write::ForgetIdentities { last_seen_before: 100 }]).expect("stored");
        assert!(storage.identity("ann").expect("read").is_some());
        storage.write(&[Write::ForgetIdentities { last_seen_before: 101 }]).expect("stored");
        assert_eq!(storage.identity("ann").expect("read"), None);
        storage.write(&[session("ann", "digest-2", 200)]).expect("stored");
        assert!(listed(&mut storage, "ann").is_empty(), "a new holder inherits nothing");
        storage.write(&[Write::Room(finished("r2", &["ann", "cy"]))]).expect("stored");
        assert_eq!(listed(&mut storage, "ann"), ["r2"]);
        // An identity with a session is never forgotten.
        storage
            .write(&[Write::ForgetIdentities { last_seen_before: u64::MAX / 2 }])
            .expect("stored");
        assert_eq!(storage.identity("ann").expect("read").as_deref(), Some("digest-2"));
    }

    #[test]
    fn finished_games_are_listed_by_player_latest_first_and_older_databases_are_indexed() {
        let mut storage = SqliteStorage::memory().expect("a database");
        let rooms = [finished("r1", &["ann", "bob"]), finished("r2", &["bob", "cy"])];
        for room in rooms {
            storage.write(&[Write::Room(room)]).expect("stored");
        }
        // Written again (as a finished room never is, but a replace must not move it).
        storage.write(&[Write::Room(finished("r1", &["ann", "bob"]))]).expect("stored");
        assert_eq!(listed(&mut storage, "bob"), ["r2", "r1"]);
        assert_eq!(listed(&mut storage, "ann"), ["r1"]);
        assert!(listed(&mut storage, "dee").is_empty());
        assert_eq!(storage.finished_games_of("bob", 1).expect("read").len(), 1);

        // A database of schema 1 had no index: opening it fills the index from its rooms.
        storage.db.execute_batch("DELETE FROM finished_games; PRAGMA user_version = 1;").unwrap();
        assert!(listed(&mut storage, "bob").is_empty());
        migrate(&storage.db).expect("migrated");
        assert_eq!(listed(&mut storage, "cy"), ["r2"]);
        assert_eq!(listed(&mut storage, "bob").len(), 2);
        let version: i64 =
            storage.db.query_row("PRAGMA user_version", [], |row| row.get(0)).unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }
}
