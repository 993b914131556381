//! The carcassonne multiplayer server: rooms and games over WebSocket (the protocol of
//! `docs/protocol.md`, parts 1 and 2), bots on their own threads, every game stored as it
//! happens (SQLite), and a web page to play in, all on one port.
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
mod listen;
mod rate;
pub mod storage;
mod ws;

pub use carcassonne_rooms::{protocol, room};

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

pub use config::{Config, Limits, Rate};
pub use http::{CONTENT_SECURITY_POLICY, WORKER_CONTENT_SECURITY_POLICY};
pub use hub::PROTOCOL_VERSION;
pub use protocol::client::is_bot_name;

use storage::{SqliteStorage, StorageError, StorageHandle};

/// Serves `config` on `listener` until `shutdown` completes: rooms and sessions come back from
/// the database first, and a shutdown closes every connection (each game is already stored).
///
/// # Errors
/// The database cannot be opened or read.
pub async fn serve(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let storage: Box<dyn storage::Storage> = match &config.db {
        Some(path) => Box::new(SqliteStorage::open(path)?),
        None => Box::new(SqliteStorage::memory()?),
    };
    // Sockets in all are bounded by the file limit (past it the server could not open its
    // database or answer `/health`); WebSockets by `limits.connections`, refused in the
    // protocol with `SERVER_FULL`.
    let in_all = listen::file_limit_cap().unwrap_or(usize::MAX);
    let per_address = config.limits.connections_per_address;
    let header_timeout = config.header_timeout;
    let send_buffer = config.limits.send_buffer_bytes;
    let hub = hub::Hub::start(config, StorageHandle::start(storage)).await?;
    let slots = listen::Slots::refusing(per_address, in_all, {
        let hub = Arc::clone(&hub);
        Arc::new(move |ip| hub.rates.http.is_refusing(&ip))
    });
    let sweeper = {
        let hub = Arc::clone(&hub);
        tokio::spawn(async move {
            // Often enough that a session ends within half its timeout of it.
            let period = (hub.config.session_timeout / 2)
                .clamp(Duration::from_millis(100), Duration::from_secs(5));
            let mut every = tokio::time::interval(period);
            loop {
                every.tick().await;
                hub.sweep_sessions().await;
            }
        })
    };
    {
        let hub = Arc::clone(&hub);
        tokio::spawn(async move {
            shutdown.await;
            hub.stopping.send_replace(true);
        });
    }
    let app = http::router(Arc::clone(&hub));
    listen::serve(listener, app, slots, header_timeout, send_buffer, hub.stopping.subscribe())
        .await;
    // Every connection watches `stopping`; give them a moment to close.
    let _ = tokio::time::timeout(Duration::from_secs(5), hub.stopping.closed()).await;
    sweeper.abort();
    Ok(())
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
}
