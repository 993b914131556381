//! A server on a free localhost port and a scripted WebSocket client, for the protocol tests.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use carcassonne_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

/// How long a test waits for any one message before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A server for tests: no bot delay, short graces, memory storage unless a file is given.
pub fn config() -> Config {
    Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        bot_delay: Duration::ZERO,
        // Long enough that a figure step never loses a race with it on a loaded machine; the
        // test of a 1.0 client, whose turns it ends, shortens it.
        figure_grace: Duration::from_secs(5),
        absent_grace: Duration::from_millis(300),
        bot_threads: 2,
        // Every test client comes from 127.0.0.1; the per-address caps have tests of their own.
        limits: carcassonne_server::Limits {
            connections_per_address: 100_000,
            rooms_per_address: 100_000,
            sessions_per_address: 100_000,
            http_requests: carcassonne_server::Rate::new(100_000.0, 100_000.0),
            connects_per_address: carcassonne_server::Rate::new(100_000.0, 100_000.0),
            ..carcassonne_server::Limits::default()
        },
        ..Config::default()
    }
}

pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(config: Config) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let addr = listener.local_addr().expect("an address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            carcassonne_server::serve(config, listener, async {
                let _ = stopped.await;
            })
            .await
            .expect("the server runs");
        });
        Server { addr, stop: Some(stop), task }
    }

    pub async fn client(&self) -> Client {
        Client::open(self.addr).await
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), &mut self.task).await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    sent: u64,
    /// Every message received, in order.
    pub log: Vec<Value>,
    /// Messages read past while waiting for another type, still to be looked at.
    pending: std::collections::VecDeque<Value>,
    pub player: String,
    pub token: Option<String>,
    pub last_seq: u64,
    /// When the last messages went out: the client keeps under the server's 20 a second, as
    /// a well-behaved client does, so a fast game is never rate-limited.
    recent: std::collections::VecDeque<std::time::Instant>,
}

impl Client {
    pub async fn open(addr: SocketAddr) -> Client {
        let (ws, _) = connect_async(format!("ws://{addr}/ws")).await.expect("the WebSocket opens");
        Client::with(ws)
    }

    /// A WebSocket opened with `origin` in its handshake, as a browser page sends it: the
    /// client, or the HTTP status of the refusal.
    pub async fn open_from(addr: SocketAddr, origin: &str) -> Result<Client, u16> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/ws").into_client_request().expect("a request");
        request.headers_mut().insert("origin", origin.parse().expect("a header value"));
        match connect_async(request).await {
            Ok((ws, _)) => Ok(Client::with(ws)),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(response.status().as_u16())
            }
            Err(other) => panic!("the handshake failed: {other}"),
        }
    }

    /// A WebSocket whose socket takes in at most a few kilobytes at a time: with a client
    /// that does not read, the server's queue for it fills at once.
    pub async fn open_narrow(addr: SocketAddr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.set_recv_buffer_size(4096).expect("a small buffer");
        Client::over(socket, addr).await
    }

    /// A WebSocket from the local address `from` (any of 127.0.0.0/8), so that per-address
    /// limits see another client.
    pub async fn open_from_address(addr: SocketAddr, from: [u8; 4]) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind(SocketAddr::from((from, 0))).expect("a loopback address");
        Client::over(socket, addr).await
    }

    /// A WebSocket over `socket`, connected to `addr`.
    async fn over(socket: tokio::net::TcpSocket, addr: SocketAddr) -> Client {
        let stream = socket.connect(addr).await.expect("the server accepts");
        let (ws, _) = tokio_tungstenite::client_async(
            format!("ws://{addr}/ws"),
            MaybeTlsStream::Plain(stream),
        )
        .await
        .expect("the WebSocket opens");
        Client::with(ws)
    }

    /// Every message that comes within `time`, without waiting past it.
    pub async fn drain_for(&mut self, time: Duration) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + time;
        let mut messages: Vec<Value> = self.pending.drain(..).collect();
        loop {
            let Ok(frame) = tokio::time::timeout_at(deadline, self.ws.next()).await else {
                return messages;
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
                    self.log.push(value.clone());
                    messages.push(value);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return messages,
                Some(Ok(_)) => {}
            }
        }
    }

    fn with(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            sent: 0,
            log: Vec::new(),
            pending: Default::default(),
            player: String::new(),
            token: None,
            last_seq: 0,
            recent: Default::default(),
        }
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.expect("the frame goes out");
    }

    pub async fn send(&mut self, kind: &str, data: Value) {
        let second = Duration::from_secs(1);
        while self.recent.len() >= 18 {
            let oldest = self.recent[0];
            if oldest.elapsed() >= second {
                self.recent.pop_front();
            } else {
                tokio::time::sleep(second - oldest.elapsed()).await;
            }
        }
        self.recent.push_back(std::time::Instant::now());
        self.sent += 1;
        let text = json!({
            "type": kind,
            "data": data,
            "timestamp": "2026-11-25T12:00:00.000Z",
            "messageId": format!("t{}", self.sent),
        })
        .to_string();
        self.send_text(text).await;
    }

    /// The next message, or None if the server closed the connection.
    pub async fn next(&mut self) -> Option<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Some(message);
        }
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next()).await.unwrap_or_else(|_| {
                panic!("{}: no message in {PATIENCE:?}; last: {:?}", self.player, self.log.last())
            });
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
                    for field in ["type", "data", "timestamp", "messageId"] {
                        assert!(value.get(field).is_some(), "envelope without {field}: {value}");
                    }
                    if let Some(seq) = value.get("seq").and_then(Value::as_u64) {
                        self.last_seq = self.last_seq.max(seq);
                    }
                    self.log.push(value.clone());
                    return Some(value);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Reads until a message of `kind`; the others read past stay pending.
    pub async fn expect(&mut self, kind: &str) -> Value {
        self.expect_any(&[kind]).await
    }

    /// Reads until a message of one of `kinds`; the others read past stay pending.
    pub async fn expect_any(&mut self, kinds: &[&str]) -> Value {
        let mut skipped = Vec::new();
        loop {
            let message = self
                .next()
                .await
                .unwrap_or_else(|| panic!("{}: closed while waiting for {kinds:?}", self.player));
            if kinds.iter().any(|kind| message["type"] == *kind) {
                for other in skipped.into_iter().rev() {
                    self.pending.push_front(other);
                }
                return message;
            }
            skipped.push(message);
        }
    }

    /// Reads until an `ERROR`, and checks its code.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let error = self.expect("ERROR").await;
        assert_eq!(error["data"]["code"], code, "{}: {error}", self.player);
        assert!(error["data"]["numericCode"].as_u64().is_some_and(|n| (1000..1400).contains(&n)));
        error
    }

    /// Drops whatever was read past.
    pub fn forget_pending(&mut self) {
        self.pending.clear();
    }

    pub async fn connect_as(&mut self, player: &str) -> Value {
        self.player = player.to_owned();
        self.send("CONNECT", json!({ "playerId": player, "name": player, "color": "" })).await;
        let connected = self.expect("CONNECTED").await;
        self.token = connected["data"]["sessionToken"].as_str().map(str::to_owned);
        connected
    }

    /// `CREATE_ROOM` with `data`; the new room's id, from its `ROOM_STATE`.
    pub async fn create_room(&mut self, data: Value) -> String {
        self.send("CREATE_ROOM", data).await;
        let state = self.expect("ROOM_STATE").await;
        state["data"]["roomId"].as_str().expect("a room id").to_owned()
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Plays `client`'s turns until the game ends: the first valid placement, then the first
/// figure option every third turn, else `SKIP_MEEPLE` (or nothing, as a 1.0 client, when
/// `skips` is false). Returns the `GAME_END` message.
pub async fn play_until_end(client: &mut Client, skips: bool) -> Value {
    let mut turns = 0;
    loop {
        let message =
            client.next().await.unwrap_or_else(|| panic!("{}: closed mid-game", client.player));
        match message["type"].as_str() {
            Some("TURN_START") if message["data"]["currentPlayer"] == client.player.as_str() => {
                let placement = &message["data"]["validPlacements"][0];
                client
                    .send("PLACE_TILE", json!({ "position": placement["position"], "rotation": placement["rotation"] }))
                    .await;
            }
            Some("TILE_PLACED") if message["data"]["playerId"] == client.player.as_str() => {
                turns += 1;
                let options =
                    message["data"]["meepleOptions"].as_array().cloned().unwrap_or_default();
                if turns % 3 == 0 && !options.is_empty() {
                    client.send("PLACE_MEEPLE", json!({ "featureId": options[0]["featureId"], "figure": options[0]["figure"] })).await;
                } else if skips
                    && (!options.is_empty()
                        || !message["data"]["abbotRecalls"].as_array().is_none_or(Vec::is_empty))
                {
                    client.send("SKIP_MEEPLE", json!({})).await;
                }
            }
            Some("ERROR") => panic!("{}: {message}", client.player),
            Some("GAME_END") => return message,
            _ => {}
        }
    }
}

/// An empty scratch folder for one test run, named after `what` and this process.
pub fn scratch_folder(what: &str) -> std::path::PathBuf {
    let folder =
        std::env::temp_dir().join(format!("carcassonne-server-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    folder
}

/// A plain HTTP GET on localhost: the status and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let (status, _, body) = http_get_with_head(addr, path).await;
    (status, body)
}

/// A plain HTTP GET on localhost: the status, the head (status line and headers, with
/// header names in lower case) and the body.
pub async fn http_get_with_head(addr: SocketAddr, path: &str) -> (u16, String, String) {
    http_request(addr, [127, 0, 0, 1], path, &[("Host", &addr.to_string())]).await
}

/// A GET from the local address `from` with `headers` (a `Host` among them, or none): the
/// status, the head in lower case and the body.
pub async fn http_request(
    addr: SocketAddr,
    from: [u8; 4],
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::from((from, 0))).expect("a loopback address");
    let mut stream = socket.connect(addr).await.expect("the server accepts");
    let headers: String =
        headers.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    let request = format!("GET {path} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("the request goes out");
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response))
        .await
        .expect("an answer")
        .expect("read");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_owned())
}
