//! The second review's attackers, each a task that goes on until told to stop: the probes run
//! them one at a time against a fresh server, the load test (`--abusers`) all at once beside
//! its honest players. Each comes from loopback addresses of its own (127.x.y.z), so that
//! per-address limits are not what holds it.
// Shared by two examples (`probe` and, through `#[path]`, `load`), each using a part.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What every attacker shares: when to stop, and what it did.
#[derive(Default)]
pub struct Attack {
    pub stop: AtomicBool,
    /// Requests or messages sent.
    pub sent: AtomicU64,
    /// Of them, refused by a limit (HTTP 429, `RATE_LIMITED`).
    pub refused: AtomicU64,
    /// Bytes the server sent back.
    pub bytes: AtomicU64,
    /// Whole answers served (HTTP 200s, accepted reconnections).
    pub served: AtomicUsize,
}

impl Attack {
    pub fn new() -> Arc<Attack> {
        Arc::new(Attack::default())
    }

    fn going(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
    }
}

/// The test bots of the bots crate, as `--bot NAME=COMMAND`: `faulty.sh FAULT` fails in the
/// way FAULT names (`mute`: never answers `hello`; `chatter`: 2 MB of short lines between its
/// moves).
pub fn faulty_bot(name: &str, fault: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../bots/tests/external/faulty.sh");
    format!("{name}=sh {script} {fault}")
}

pub fn envelope(kind: &str, data: Value) -> Message {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let text = json!({ "type": kind, "data": data, "timestamp": "2026-12-01T12:00:00Z", "messageId": format!("a{id}") });
    Message::Text(text.to_string().into())
}

/// A WebSocket from the loopback address `from`.
pub async fn open_from(addr: SocketAddr, from: [u8; 4]) -> Option<Socket> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::from((from, 0))).ok()?;
    let stream =
        tokio::time::timeout(Duration::from_secs(3), socket.connect(addr)).await.ok()?.ok()?;
    let url = format!("ws://{addr}/ws");
    let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream)).await.ok()?;
    Some(ws)
}

/// The next message of one of `kinds` (an `ERROR` always counts), within five seconds.
pub async fn next_of(ws: &mut Socket, kinds: &[&str]) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let frame = tokio::time::timeout_at(deadline, ws.next()).await.ok()??;
        let Ok(Message::Text(text)) = frame else { continue };
        let message: Value = serde_json::from_str(&text).ok()?;
        let kind = message["type"].as_str().unwrap_or_default();
        if kind == "ERROR" || kinds.contains(&kind) {
            return Some(message);
        }
    }
}

/// A client from `from` after `CONNECT` with `data`: its socket and the answer.
pub async fn connected_from(
    addr: SocketAddr,
    from: [u8; 4],
    data: Value,
) -> Option<(Socket, Value)> {
    let mut ws = open_from(addr, from).await?;
    ws.send(envelope("CONNECT", data)).await.ok()?;
    let answer = next_of(&mut ws, &["CONNECTED"]).await?;
    Some((ws, answer))
}

/// A room of `host`'s from `from` with `bots` (levels or the server's bots), started: the
/// host's socket.
pub async fn started_room(
    addr: SocketAddr,
    from: [u8; 4],
    host: &str,
    bots: &[&str],
) -> Option<Socket> {
    let (mut ws, _) = connected_from(addr, from, json!({ "playerId": host, "name": host })).await?;
    let asked = json!({ "roomName": host, "maxPlayers": bots.len() + 1 });
    ws.send(envelope("CREATE_ROOM", asked)).await.ok()?;
    next_of(&mut ws, &["ROOM_STATE"]).await?;
    for (index, bot) in bots.iter().enumerate() {
        let data = json!({ "botName": format!("b{index}"), "difficulty": bot });
        ws.send(envelope("ADD_BOT", data)).await.ok()?;
    }
    ws.send(envelope("START_GAME", json!({}))).await.ok()?;
    Some(ws)
}

/// Plays `me`'s turns on `ws` (the first placement, no figure) while the attack goes on.
pub async fn play_along(ws: &mut Socket, me: &str, attack: &Attack) {
    while attack.going() {
        let Ok(Some(Ok(frame))) = tokio::time::timeout(Duration::from_millis(200), ws.next()).await
        else {
            continue;
        };
        let Message::Text(text) = frame else { continue };
        let Ok(message) = serde_json::from_str::<Value>(&text) else { continue };
        let data = &message["data"];
        let answer = match message["type"].as_str() {
            Some("TURN_START") if data["currentPlayer"] == me => {
                let placement = &data["validPlacements"][0];
                envelope(
                    "PLACE_TILE",
                    json!({ "position": placement["position"], "rotation": placement["rotation"] }),
                )
            }
            Some("TILE_PLACED") if data["playerId"] == me => envelope("SKIP_MEEPLE", json!({})),
            Some("GAME_END") => return,
            _ => continue,
        };
        if ws.send(answer).await.is_err() {
            return;
        }
    }
}

/// Finding 1's attacker: one keep-alive connection from `from` pipelining
/// `GET /tilesets/traders_and_builders`, sixteen at a time, reading what comes back as fast
/// as it comes.
pub async fn pipeline_tilesets(addr: SocketAddr, from: [u8; 4], attack: Arc<Attack>) {
    let request = format!("GET /tilesets/traders_and_builders HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let pipeline = request.repeat(16);
    let mut buffer = vec![0u8; 1 << 16];
    while attack.going() {
        let Ok(socket) = TcpSocket::new_v4() else { return };
        if socket.bind(SocketAddr::from((from, 0))).is_err() {
            return;
        }
        let Ok(mut stream) = socket.connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        while attack.going() {
            if stream.write_all(pipeline.as_bytes()).await.is_err() {
                break;
            }
            attack.sent.fetch_add(16, Ordering::Relaxed);
            let read =
                tokio::time::timeout(Duration::from_millis(20), stream.read(&mut buffer)).await;
            match read {
                Ok(Ok(0) | Err(_)) => break,
                Ok(Ok(count)) => {
                    attack.bytes.fetch_add(count as u64, Ordering::Relaxed);
                    let text = String::from_utf8_lossy(&buffer[..count]);
                    attack
                        .served
                        .fetch_add(text.matches("HTTP/1.1 200").count(), Ordering::Relaxed);
                    let refused = text.matches("HTTP/1.1 429").count() as u64;
                    attack.refused.fetch_add(refused, Ordering::Relaxed);
                }
                Err(_) => {}
            }
        }
    }
}

/// Finding 2's attacker: a room from `from` with four silent external bots (the server's bot
/// `silent`), its host playing along.
pub async fn silent_room(addr: SocketAddr, from: [u8; 4], host: String, attack: Arc<Attack>) {
    let silent = ["silent", "silent", "silent", "silent"];
    if let Some(mut ws) = started_room(addr, from, &host, &silent).await {
        play_along(&mut ws, &host, &attack).await;
    }
}

/// Finding 4's attacker: a room from `from` with two external bots that write 2 MB between
/// their moves (the server's bot `chatter`).
pub async fn chatter_room(addr: SocketAddr, from: [u8; 4], host: String, attack: Arc<Attack>) {
    if let Some(mut ws) = started_room(addr, from, &host, &["chatter", "chatter"]).await {
        play_along(&mut ws, &host, &attack).await;
    }
}

/// Finding 5's attacker: `player`, seated in a room of its own with `other`, reconnecting
/// with its token as fast as it can.
pub async fn reconnect_storm(addr: SocketAddr, from: [u8; 4], player: String, attack: Arc<Attack>) {
    let Some((mut host, _)) =
        connected_from(addr, from, json!({ "playerId": format!("{player}-host"), "name": "h" }))
            .await
    else {
        return;
    };
    let _ =
        host.send(envelope("CREATE_ROOM", json!({ "roomName": "storm", "maxPlayers": 2 }))).await;
    let room = next_of(&mut host, &["ROOM_STATE"]).await.unwrap_or(Value::Null)["data"]["roomId"]
        .as_str()
        .unwrap_or("r1")
        .to_owned();
    let Some((mut ws, answer)) =
        connected_from(addr, from, json!({ "playerId": player, "name": "m" })).await
    else {
        return;
    };
    let token = answer["data"]["sessionToken"].as_str().unwrap_or_default().to_owned();
    let _ = ws.send(envelope("JOIN_ROOM", json!({ "roomId": room }))).await;
    next_of(&mut ws, &["GAME_STATE"]).await;
    drop(ws);
    // The host reads what it is sent, so it is not cut as a slow reader.
    let reader = tokio::spawn(async move { while host.next().await.is_some() {} });
    while attack.going() {
        attack.sent.fetch_add(1, Ordering::Relaxed);
        let data = json!({ "playerId": player, "name": "m", "sessionToken": token });
        match connected_from(addr, from, data).await {
            Some((_, answer)) if answer["type"] == "CONNECTED" => {
                attack.served.fetch_add(1, Ordering::Relaxed);
            }
            Some(_) => {
                attack.refused.fetch_add(1, Ordering::Relaxed);
            }
            None => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    reader.abort();
}

/// Finding 6's attacker: a stranger from `from` toggling spectate and leave on `rooms` in
/// turn, as fast as its message rate allows (20 a second).
pub async fn spectator_churn(
    addr: SocketAddr,
    from: [u8; 4],
    player: String,
    rooms: Vec<String>,
    attack: Arc<Attack>,
) {
    let Some((mut ws, _)) =
        connected_from(addr, from, json!({ "playerId": player, "name": "eve" })).await
    else {
        return;
    };
    let mut index = 0;
    while attack.going() && !rooms.is_empty() {
        let room = &rooms[index % rooms.len()];
        index += 1;
        for message in [
            envelope("JOIN_ROOM", json!({ "roomId": room, "spectate": true })),
            envelope("LEAVE_ROOM", json!({ "roomId": room })),
        ] {
            if ws.send(message).await.is_err() {
                return;
            }
            attack.sent.fetch_add(1, Ordering::Relaxed);
        }
        // Read what comes, so that this client is not cut as a slow reader.
        while let Ok(Some(Ok(frame))) =
            tokio::time::timeout(Duration::from_millis(1), ws.next()).await
        {
            if let Message::Text(text) = frame {
                attack.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
                if text.contains("RATE_LIMITED") {
                    attack.refused.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
