//! One WebSocket connection: frames in (bounded in size and rate), messages out (a bounded
//! queue: a client that does not read is cut off), and the session it speaks for.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::mpsc;

use crate::hub::{Conn, Hub};
use crate::listen::Slot;
use crate::protocol::client;
use crate::protocol::codes::{ErrorCode, Refusal};
use crate::rate::{Bucket, Rate};

/// How long one frame may take to leave: a client that stops reading is cut off after it,
/// whatever its queue holds.
const SEND_PATIENCE: Duration = Duration::from_secs(30);

/// Serves one connection from `ip` until it closes, is cut off, or the server shuts down;
/// `slot` holds its place in the per-address count meanwhile.
pub async fn serve(hub: Arc<Hub>, socket: WebSocket, ip: IpAddr, slot: Option<Slot>) {
    let _slot = slot;
    let mut stopping = hub.stopping.subscribe();
    let limits = hub.config.limits.clone();
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(limits.outbox);
    let conn = Conn::new(hub.connection_id(), ip, tx, limits.outbox_bytes);
    let open = hub.connections.fetch_add(1, Ordering::Relaxed) + 1;
    if open > limits.connections {
        conn.refuse(
            &Refusal::new(ErrorCode::ServerFull, "the server holds as many connections as it may"),
            None,
        );
        if let Some(text) = rx.recv().await {
            let _ = sink.send(Message::Text(text.as_ref().into())).await;
        }
        let _ = sink.close().await;
        hub.disconnected(None, &conn).await;
        return;
    }
    let writer = {
        let conn = conn.clone();
        tokio::spawn(async move {
            while let Some(text) = rx.recv().await {
                let sent = tokio::time::timeout(
                    SEND_PATIENCE,
                    sink.send(Message::Text(text.as_ref().into())),
                )
                .await;
                conn.written(text.len());
                if !matches!(sent, Ok(Ok(()))) {
                    conn.kick.notify_one();
                    break;
                }
            }
            let _ = tokio::time::timeout(Duration::from_secs(2), sink.close()).await;
        })
    };
    let mut bucket = Bucket::new(Rate::new(limits.messages_per_second, limits.burst));
    let mut player: Option<String> = None;
    let started = Instant::now();
    let mut last_heard = Instant::now();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    loop {
        tokio::select! {
            frame = stream.next() => {
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        conn.refuse(&Refusal::new(ErrorCode::MalformedMessage, "messages are UTF-8 JSON text frames"), None);
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                last_heard = Instant::now();
                if !bucket.take() {
                    if bucket.should_warn() {
                        conn.refuse(&Refusal::new(ErrorCode::RateLimited, format!(
                            "at most {} messages a second; this one was dropped", limits.messages_per_second
                        )), None);
                    }
                    continue;
                }
                if text.len() > limits.frame_bytes {
                    conn.refuse(&Refusal::new(ErrorCode::FrameTooLarge, format!(
                        "a message is at most {} bytes", limits.frame_bytes
                    )).with_details(json!({ "bytes": text.len() })), None);
                    continue;
                }
                let incoming = client::parse(text.as_str());
                let answering = incoming.message_id.as_deref();
                match incoming.message {
                    Ok(message) => match hub.handle(&conn, player.as_deref(), message).await {
                        Ok(Some(connected)) => player = Some(connected),
                        Ok(None) => {}
                        Err(refusal) => conn.refuse(&refusal, answering),
                    },
                    Err(refusal) => conn.refuse(&refusal, answering),
                }
            }
            _ = conn.kick.notified() => break,
            _ = crate::listen::stopped(&mut stopping) => break,
            _ = tick.tick() => {
                let quiet = last_heard.elapsed();
                if player.is_none() && started.elapsed() > hub.config.handshake_timeout {
                    break;
                }
                if quiet > hub.config.session_timeout {
                    break;
                }
            }
        }
    }
    writer.abort();
    hub.disconnected(player, &conn).await;
}
