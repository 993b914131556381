//! Where rooms, sessions and games are kept: one small interface (`Storage`), an SQLite
//! implementation, and the writer thread that stores a batch of changes in one transaction
//! and answers each change once it is stored (the hub answers clients only then).

mod sqlite;

use std::sync::mpsc;
use std::thread;

use carcassonne::Action;
use tokio::sync::oneshot;

pub use sqlite::SqliteStorage;

pub use carcassonne_rooms::records::{StoredRoom, StoredSession, Write};

/// Why storing or loading failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    #[error("the storage thread has stopped")]
    Stopped,
}

/// What a server needs of its storage. Implementations may be shared by several servers
/// later (a database server); this one is a file or memory.
pub trait Storage: Send {
    /// Stores every change, all or none.
    fn write(&mut self, writes: &[Write]) -> Result<(), StorageError>;
    /// The rooms not finished, each with its game's actions.
    fn open_rooms(&mut self) -> Result<Vec<(StoredRoom, Vec<Action>)>, StorageError>;
    /// Every stored session.
    fn sessions(&mut self) -> Result<Vec<StoredSession>, StorageError>;
    /// The rooms whose games have finished with `player` seated, latest first, at most `most`.
    fn finished_games_of(
        &mut self,
        player: &str,
        most: usize,
    ) -> Result<Vec<(StoredRoom, Vec<Action>)>, StorageError>;
    /// The token digest of the identity `player`, if it has held a session and is not
    /// forgotten.
    fn identity(&mut self, player: &str) -> Result<Option<String>, StorageError>;
    /// A room whose game has finished, with its actions.
    fn finished_game(
        &mut self,
        id: &str,
    ) -> Result<Option<(StoredRoom, Vec<Action>)>, StorageError>;
}

type Read = Box<dyn FnOnce(&mut dyn Storage) + Send>;

enum Job {
    Write(Vec<Write>, oneshot::Sender<Result<(), String>>),
    Read(Read),
}

/// The most changes stored in one transaction.
const BATCH: usize = 1024;

/// A handle on the storage thread.
#[derive(Clone)]
pub struct StorageHandle {
    jobs: mpsc::Sender<Job>,
}

impl StorageHandle {
    /// Starts the storage thread over `storage`.
    pub fn start(mut storage: Box<dyn Storage>) -> StorageHandle {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let spawned = thread::Builder::new().name("storage".into()).spawn(move || {
            while let Ok(job) = inbox.recv() {
                let mut writes = Vec::new();
                let mut waiting = Vec::new();
                let mut reads: Vec<Read> = Vec::new();
                let mut next = Some(job);
                // Everything already waiting joins this transaction: one commit for many rooms.
                while let Some(job) = next.take() {
                    match job {
                        Job::Write(batch, done) => {
                            writes.extend(batch);
                            waiting.push(done);
                        }
                        Job::Read(read) => reads.push(read),
                    }
                    if writes.len() < BATCH {
                        next = inbox.try_recv().ok();
                    }
                }
                let result = if writes.is_empty() {
                    Ok(())
                } else {
                    storage.write(&writes).map_err(|error| error.to_string())
                };
                for done in waiting {
                    let _ = done.send(result.clone());
                }
                for read in reads {
                    read(storage.as_mut());
                }
            }
        });
        if let Err(error) = spawned {
            tracing::error!(%error, "the storage thread did not start");
        }
        StorageHandle { jobs }
    }

    /// Stores `writes`; returns once they are stored.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        if writes.is_empty() {
            return Ok(());
        }
        let (done, stored) = oneshot::channel();
        self.jobs.send(Job::Write(writes, done)).map_err(|_| StorageError::Stopped)?;
        stored.await.map_err(|_| StorageError::Stopped)?.map_err(StorageError::Corrupt)
    }

    /// Runs `read` on the storage thread and returns its answer.
    pub async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&mut dyn Storage) -> T + Send + 'static,
    ) -> Result<T, StorageError> {
        let (done, answer) = oneshot::channel();
        let job: Read = Box::new(move |storage| {
            let _ = done.send(read(storage));
        });
        self.jobs.send(Job::Read(job)).map_err(|_| StorageError::Stopped)?;
        answer.await.map_err(|_| StorageError::Stopped)
    }
}
