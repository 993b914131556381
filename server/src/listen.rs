//! Accepting connections: hyper's HTTP/1 server under the router, with a deadline for each
//! request's head, a cap on connections per address and in all, and a clean stop.
//!
//! `axum::serve` sets no timer, so hyper's header-read timeout never fired there and a
//! half-sent request held its socket for ever; nor does it let a server count connections by
//! address. This loop does both and otherwise serves as `axum::serve` does.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// Whether an address is past its rate of requests now: its connections are turned away as
/// they come, before a byte of theirs is read.
pub type Refusing = Arc<dyn Fn(IpAddr) -> bool + Send + Sync>;

/// Live connections by address, with the caps on them.
pub struct Slots {
    counts: Mutex<Counts>,
    per_address: usize,
    in_all: usize,
    refusing: Option<Refusing>,
}

/// Connections held, by address and in all (kept, not summed on each accept).
#[derive(Default)]
struct Counts {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// One connection's place in the count: held by the HTTP connection and, after an upgrade,
/// by its WebSocket; the place frees when the last holder drops it.
#[derive(Clone)]
pub struct Slot {
    _held: Arc<Held>,
}

struct Held {
    slots: Arc<Slots>,
    ip: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.slots.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.by_address.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.by_address.remove(&self.ip);
            }
            counts.total -= 1;
        }
    }
}

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The address holds as many connections as one may.
    Address,
    /// The server holds as many connections as it may.
    Server,
    /// The address is past its rate of requests.
    Rate,
}

impl Slots {
    /// `per_address` connections an address, `in_all` in all.
    #[cfg(test)]
    pub fn new(per_address: usize, in_all: usize) -> Arc<Slots> {
        Arc::new(Slots {
            counts: Mutex::new(Counts::default()),
            per_address,
            in_all,
            refusing: None,
        })
    }

    /// The same caps, and connections from an address that `refusing` names turned away.
    pub fn refusing(per_address: usize, in_all: usize, refusing: Refusing) -> Arc<Slots> {
        Arc::new(Slots {
            counts: Mutex::new(Counts::default()),
            per_address,
            in_all,
            refusing: Some(refusing),
        })
    }

    /// A place for a connection from `ip`, or why there is none.
    pub fn take(self: &Arc<Slots>, ip: IpAddr) -> Result<Slot, Full> {
        if self.refusing.as_ref().is_some_and(|refusing| refusing(ip)) {
            return Err(Full::Rate);
        }
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= self.in_all {
            return Err(Full::Server);
        }
        let count = counts.by_address.entry(ip).or_insert(0);
        if *count >= self.per_address {
            return Err(Full::Address);
        }
        *count += 1;
        counts.total += 1;
        Ok(Slot { _held: Arc::new(Held { slots: Arc::clone(self), ip }) })
    }

    /// Connections held now, in all.
    #[cfg(test)]
    fn total(&self) -> usize {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).total
    }
}

/// The most connections this process can hold with its file limit: a server past it cannot
/// open its database or answer `/health`, so it stops accepting a margin before.
pub fn file_limit_cap() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|line| line.starts_with("Max open files"))?;
    let soft: usize = line.split_whitespace().nth(3)?.parse().ok()?;
    Some(soft.saturating_sub(32).max(1))
}

/// Resolves once `stopping` turns true (or its sender is gone).
pub async fn stopped(stopping: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: it is dropped here, inside, so that the
    // tasks awaiting this stay `Send`.
    let _ = stopping.wait_for(|stopping| *stopping).await;
}

/// Serves `router` on `listener` until `stopping` turns true, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    slots: Arc<Slots>,
    header_timeout: Duration,
    send_buffer: Option<usize>,
    stopping: watch::Receiver<bool>,
) {
    let mut stop = stopping.clone();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of files or a connection reset before it was taken: wait a moment
                    // rather than spin, as `axum::serve` does.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopped(&mut stop) => break,
        };
        match slots.take(peer.ip()) {
            Ok(slot) => {
                if let Some(bytes) = send_buffer {
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(bytes);
                }
                let router = router.clone();
                let stopping = stopping.clone();
                tokio::spawn(connection(stream, peer, slot, router, header_timeout, stopping));
            }
            Err(Full::Rate) => {
                // Told in one write that never waits, and closed: an address that connects as
                // fast as it can costs an accept and a write each time, no task. Logged by the
                // rate's first refusal, not once a connection.
                const SLOW_DOWN: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\n\
                    content-length: 18\r\nconnection: close\r\nretry-after: 1\r\n\r\ntoo many requests\n";
                let _ = stream.try_write(SLOW_DOWN);
                drop(stream);
            }
            Err(full) => {
                tracing::warn!(peer = %peer.ip(), ?full, "connection refused: too many");
                tokio::spawn(turn_away(stream));
            }
        }
    }
}

/// One HTTP connection, its requests carrying the peer's address and the connection's slot.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    slot: Slot,
    router: Router,
    header_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let service = router.map_request(move |request: Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(slot.clone());
        request
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let connection = builder
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
        .with_upgrades();
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(error) = result {
                tracing::debug!(%peer, %error, "connection ended");
            }
            return;
        }
        _ = stopped(&mut stopping) => {}
    }
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(Duration::from_secs(5), connection).await;
}

/// A connection past a cap: told so in HTTP and closed.
async fn turn_away(mut stream: TcpStream) {
    const TOO_MANY: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\n\
        content-length: 21\r\nconnection: close\r\nretry-after: 10\r\n\r\ntoo many connections\n";
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(TOO_MANY)).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_its_share_and_a_dropped_slot_frees_its_place() {
        let slots = Slots::new(2, 3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let first = slots.take(a).unwrap();
        let second = first.clone();
        let third = slots.take(a).unwrap();
        assert_eq!(slots.take(a).err(), Some(Full::Address));
        drop(first);
        assert_eq!(slots.take(a).err(), Some(Full::Address), "a clone still holds the place");
        drop(second);
        let again = slots.take(a).unwrap();
        let other = slots.take(b).unwrap();
        assert_eq!(slots.take(b).err(), Some(Full::Server));
        assert_eq!(slots.total(), 3);
        drop((third, again, other));
        assert_eq!(slots.total(), 0);
    }
}
