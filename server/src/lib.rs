//! The carcassonne multiplayer server: rooms and games over WebSocket (`../shared/PROTOCOL.md`
//! parts 1 and 2, documented in `server/README.md`), bots on their own threads, every game
//! stored as it happens (SQLite), and a web page to play in, all on one port.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let config = carcassonne_server::Config::default();
//! let listener = tokio::net::TcpListener::bind(config.addr).await?;
//! carcassonne_server::serve(config, listener, std::future::pending()).await?;
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

pub mod config;
mod http;
mod hub;
pub mod protocol;
pub mod room;
pub mod storage;
mod ws;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

pub use config::{Config, Limits};
pub use hub::PROTOCOL_VERSION;

use storage::{SqliteStorage, StorageError, StorageHandle};

/// Serves `config` on `listener` until `shutdown` completes: rooms and sessions come back from
/// the database first, and a shutdown closes every connection (each game is already stored).
///
/// # Errors
/// The database cannot be opened or read, or the listener fails.
pub async fn serve(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let storage: Box<dyn storage::Storage> = match &config.db {
        Some(path) => Box::new(SqliteStorage::open(path)?),
        None => Box::new(SqliteStorage::memory()?),
    };
    let hub = hub::Hub::start(config, StorageHandle::start(storage)).await?;
    let sweeper = {
        let hub = Arc::clone(&hub);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                hub.sweep_sessions().await;
            }
        })
    };
    let stopping = Arc::clone(&hub.shutdown);
    let app = http::router(Arc::clone(&hub));
    let result = axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stopping.notify_waiters();
        })
        .await;
    sweeper.abort();
    result.map_err(ServeError::Io)
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
}
