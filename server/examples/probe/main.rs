//! The server as an attacker tries it from outside: each probe starts the given server binary
//! afresh on a free localhost port, attacks it one way, and prints what held, with the
//! figures of the worst input tried. The README's Security section quotes its output; run it
//! against an older build to see what each fix changed.
//!
//! ```sh
//! cargo build --release -p carcassonne-server --bin carcassonne-server --example probe
//! target/release/examples/probe --server target/release/carcassonne-server
//! ```
//!
//! Exits 1 when a probe finds the server open to its attack (`--report-only` prints and exits
//! 0, for measuring an older build). Bounded: about two minutes in all; every wait has a
//! limit. The first review's probes are here; the second's, in `second.rs`.

mod attacks;
mod second;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use attacks::{Socket, envelope, next_of};

/// A server under attack: its process and address.
struct Target {
    child: Child,
    addr: SocketAddr,
    _folder: Folder,
}

/// A scratch folder, removed when dropped.
struct Folder(PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port")
}

/// Starts `server` with the flags every version has, and `files` as its open-file limit.
async fn launch(server: &PathBuf, extra: &[&str], files: Option<u32>) -> Target {
    let port = free_port();
    let folder =
        std::env::temp_dir().join(format!("carcassonne-probe-{}-{port}", std::process::id()));
    let _ = std::fs::create_dir_all(&folder);
    let db = folder.join("games.sqlite");
    let mut command = Command::new("sh");
    let limit = files.map_or_else(String::new, |files| format!("ulimit -n {files}; "));
    command
        .arg("-c")
        .arg(format!("{limit}exec \"$0\" \"$@\""))
        .arg(server)
        .args(["--addr", &format!("127.0.0.1:{port}"), "--db"])
        .arg(&db)
        .args(["--bot-delay", "0"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = command.spawn().unwrap_or_else(|error| panic!("{}: {error}", server.display()));
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(addr).await.is_err() {
        assert!(Instant::now() < deadline, "the server never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Target { child, addr, _folder: Folder(folder) }
}

async fn open(addr: SocketAddr) -> Socket {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("the socket opens").0
}

async fn send(ws: &mut Socket, kind: &str, data: Value) {
    let _ = ws.send(envelope(kind, data)).await;
}

/// `send`, then a pause that keeps a client under the server's 20 messages a second.
async fn send_paced(ws: &mut Socket, kind: &str, data: Value) {
    send(ws, kind, data).await;
    tokio::time::sleep(Duration::from_millis(55)).await;
}

/// A client connected as `player`: its socket and the CONNECTED (or ERROR) answer.
async fn connected(addr: SocketAddr, player: &str, color: &str) -> (Socket, Value) {
    let mut ws = open(addr).await;
    send(&mut ws, "CONNECT", json!({ "playerId": player, "name": player, "color": color })).await;
    let answer = next_of(&mut ws, &["CONNECTED"]).await.unwrap_or(Value::Null);
    (ws, answer)
}

/// Ann, connected, in a room she made with `settings`: her socket and the room's id.
async fn host(addr: SocketAddr, settings: Value) -> (Socket, String) {
    let (mut ann, _) = connected(addr, "ann", "").await;
    send(&mut ann, "CREATE_ROOM", settings).await;
    let state = next_of(&mut ann, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
    let room = state["data"]["roomId"].as_str().unwrap_or("r1").to_owned();
    (ann, room)
}

async fn http_get(addr: SocketAddr, from: [u8; 4], path: &str) -> Option<(u16, String)> {
    http_get_for(addr, from, path, &addr.to_string()).await
}

/// A GET from `from` with `host` as its `Host`: the status and the lower-cased response.
async fn http_get_for(
    addr: SocketAddr,
    from: [u8; 4],
    path: &str,
    host: &str,
) -> Option<(u16, String)> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::from((from, 0))).ok()?;
    let mut stream =
        tokio::time::timeout(Duration::from_secs(3), socket.connect(addr)).await.ok()?.ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(3), stream.read_to_end(&mut response))
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.split(' ').nth(1)?.parse().ok()?;
    Some((status, text.to_ascii_lowercase()))
}

fn rss_mib(target: &Target) -> f64 {
    std::fs::read_to_string(format!("/proc/{}/status", target.child.id()))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// What one probe found: whether the server held, and the figures.
struct Finding {
    name: &'static str,
    held: bool,
    figures: String,
}

/// Finding 1: a hostile colour and names reach room-mates as markup, or are refused.
async fn hostile_colour(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let colour = r#"red"><img src=x onerror=alert(1)>"#;
    let (mut eve, answer) = connected(target.addr, "eve", colour).await;
    let refused = answer["type"] == "ERROR";
    let mut reached = false;
    if !refused {
        send(&mut eve, "CREATE_ROOM", json!({ "roomName": "r", "maxPlayers": 2 })).await;
        let state = next_of(&mut eve, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
        reached = state.to_string().contains("onerror");
    }
    let (_, headers) = http_get(target.addr, [127, 0, 0, 1], "/").await.unwrap_or_default();
    let policy =
        headers.contains("content-security-policy:") && headers.contains("script-src 'self'");
    let mut foreign = format!("ws://{}/ws", target.addr).into_client_request().expect("a request");
    foreign.headers_mut().insert("origin", "https://evil.example".parse().expect("a value"));
    let foreign_open = tokio_tungstenite::connect_async(foreign).await.is_ok();
    Finding {
        name: "hostile colour (55 bytes of markup) and a foreign page's socket",
        held: !reached && policy && !foreign_open,
        figures: format!(
            "colour {}; CSP on the page: {}; a socket from https://evil.example {}",
            if refused {
                "refused (INVALID_COLOR)"
            } else if reached {
                "sent to the room as it was"
            } else {
                "accepted"
            },
            if policy { "yes, no inline script" } else { "none" },
            if foreign_open { "opened" } else { "refused (403)" }
        ),
    }
}

/// Finding 2: a stranger connects under a bot's id.
async fn bot_identity(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let (mut ann, _) = host(target.addr, json!({ "roomName": "r", "maxPlayers": 2 })).await;
    send(&mut ann, "ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    let mut bot = String::new();
    for _ in 0..4 {
        let state = next_of(&mut ann, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
        if let Some(id) = state["data"]["players"][1]["id"].as_str() {
            bot = id.to_owned();
            break;
        }
    }
    let (_, answer) = connected(target.addr, &bot, "").await;
    let claimed = answer["type"] == "CONNECTED";
    Finding {
        name: "a stranger connecting under a bot's id",
        held: !claimed,
        figures: format!("the bot {bot}: {}", if claimed { "claimed" } else { "refused" }),
    }
}

/// Finding 3: idle and half-sent connections under a 128-file limit; `/health` from another
/// address meanwhile.
async fn idle_connections(server: &PathBuf) -> Finding {
    let target = launch(server, &[], Some(128)).await;
    let mut idle = Vec::new();
    for index in 0..150 {
        if let Ok(Ok(mut socket)) =
            tokio::time::timeout(Duration::from_secs(1), TcpStream::connect(target.addr)).await
        {
            if index % 2 == 0 {
                let _ = socket.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await;
            }
            idle.push(socket);
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let health = http_get(target.addr, [127, 0, 0, 2], "/health").await.map(|(status, _)| status);
    // How long a half-sent request stays open (at most 15 s of watching).
    let started = Instant::now();
    let mut half = async {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::from(([127, 0, 0, 3], 0)))?;
        socket.connect(target.addr).await
    }
    .await;
    let mut closed_after = None;
    if let Ok(half) = half.as_mut() {
        let _ = half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
        let mut buffer = [0u8; 256];
        if let Ok(Ok(_)) =
            tokio::time::timeout(Duration::from_secs(15), half.read(&mut buffer)).await
        {
            closed_after = Some(started.elapsed());
        }
    }
    Finding {
        name: "150 idle sockets from one address under a 128-file limit, and a half-sent request",
        held: health == Some(200) && closed_after.is_some(),
        figures: format!(
            "/health from another address: {}; a half-sent request {}",
            health.map_or("no answer".to_owned(), |status| format!("HTTP {status}")),
            closed_after.map_or("still open after 15 s".to_owned(), |after| format!(
                "closed after {:.1} s",
                after.as_secs_f64()
            ))
        ),
    }
}

/// Finding 4: one address makes rooms under a new player id each time.
async fn room_flood(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let started = Instant::now();
    let mut made = 0;
    for index in 0..60 {
        let (mut ws, answer) = connected(target.addr, &format!("flood-{index}"), "").await;
        if answer["type"] != "CONNECTED" {
            break;
        }
        send(&mut ws, "CREATE_ROOM", json!({ "roomName": "flood", "maxPlayers": 2 })).await;
        match next_of(&mut ws, &["ROOM_STATE"]).await {
            Some(message) if message["type"] == "ROOM_STATE" => made += 1,
            _ => break,
        }
    }
    Finding {
        name: "60 rooms asked from one address, a new player id each",
        held: made < 60,
        figures: format!("{made} made in {:.2} s, then refused", started.elapsed().as_secs_f64()),
    }
}

/// Finding 5: clients that never read, watching game after game; the server's memory. A
/// few megabytes a client fit in the kernel's socket buffers (`tcp_wmem`, 4 MiB at most
/// here); past them, what waits is the server's to hold.
async fn slow_readers(server: &PathBuf) -> Finding {
    let target = launch(server, &["--figure-grace", "60"], None).await;
    let before = rss_mib(&target);
    let mut sleepers = Vec::new();
    for index in 0..6 {
        let socket = TcpSocket::new_v4().expect("a socket");
        let _ = socket.set_recv_buffer_size(4096);
        let stream = socket.connect(target.addr).await.expect("accepted");
        let url = format!("ws://{}/ws", target.addr);
        let (mut ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("the socket opens");
        let name = format!("sleeper-{index}");
        send(&mut ws, "CONNECT", json!({ "playerId": name, "name": "z" })).await;
        sleepers.push(ws);
    }
    let mut peak = before;
    let mut turns = 0;
    let deadline = Instant::now() + Duration::from_secs(90);
    for game in 0..4 {
        let (mut host, _) = connected(target.addr, &format!("host-{game}"), "").await;
        let sets = json!(["base", "inns_and_cathedrals", "river"]);
        let asked = json!({ "roomName": "watched", "maxPlayers": 2, "tilesets": sets });
        send(&mut host, "CREATE_ROOM", asked).await;
        let state = next_of(&mut host, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
        let room = state["data"]["roomId"].as_str().unwrap_or("r1").to_owned();
        send(&mut host, "ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
        for ws in &mut sleepers {
            send(ws, "JOIN_ROOM", json!({ "roomId": room, "spectate": true })).await;
        }
        send(&mut host, "START_GAME", json!({})).await;
        let me = format!("host-{game}");
        while Instant::now() < deadline {
            let kinds = ["TURN_START", "TILE_PLACED", "GAME_END"];
            let Some(message) = next_of(&mut host, &kinds).await else { break };
            peak = peak.max(rss_mib(&target));
            match message["type"].as_str() {
                Some("TURN_START") if message["data"]["currentPlayer"] == me.as_str() => {
                    let placement = &message["data"]["validPlacements"][0];
                    let at = json!({ "position": placement["position"], "rotation": placement["rotation"] });
                    send_paced(&mut host, "PLACE_TILE", at).await;
                }
                Some("TILE_PLACED") if message["data"]["playerId"] == me.as_str() => {
                    turns += 1;
                    let none =
                        |field: &str| message["data"][field].as_array().is_none_or(Vec::is_empty);
                    if !none("meepleOptions") || !none("abbotRecalls") {
                        send_paced(&mut host, "SKIP_MEEPLE", json!({})).await;
                    }
                }
                Some("GAME_END") => break,
                _ => {}
            }
        }
    }
    let health = http_get(target.addr, [127, 0, 0, 2], "/health").await.map(|(_, body)| body);
    let open = health
        .as_deref()
        .and_then(|body| body.split("\"connections\":").nth(1))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|count| count.parse::<usize>().ok())
        .unwrap_or(0);
    drop(sleepers);
    Finding {
        name: "6 clients that never read, watching 4 whole games (base, River, Inns & Cathedrals)",
        // What the kernel's buffers hold is bounded by the system; what the server queues is
        // bounded by the server, and that is what this measures.
        held: peak - before < 40.0,
        figures: format!(
            "server memory {before:.0} MiB before, {peak:.0} MiB at most over {turns} turns of the host's; {} of 6 still connected at the end",
            open.min(6)
        ),
    }
}

/// Finding 6: after the session timeout, a seated player's id is taken without a token.
async fn expired_seat(server: &PathBuf) -> Finding {
    let target = launch(server, &["--session-timeout", "1", "--absent-grace", "60"], None).await;
    let (mut ann, _) = host(target.addr, json!({ "roomName": "r", "maxPlayers": 2 })).await;
    send(&mut ann, "ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    send(&mut ann, "START_GAME", json!({})).await;
    next_of(&mut ann, &["TURN_START"]).await;
    drop(ann);
    tokio::time::sleep(Duration::from_secs(7)).await;
    let (_, answer) = connected(target.addr, "ann", "").await;
    let taken = answer["type"] == "CONNECTED" && answer["data"]["resumed"] != true;
    Finding {
        name: "a seated player's id claimed without a token after the session timeout (1 s)",
        held: !taken,
        figures: format!(
            "after 7 s: {}",
            if taken { "taken by a stranger" } else { "refused (INVALID_SESSION)" }
        ),
    }
}

/// Finding 7: what the database keeps of a session token, and who may read it.
async fn tokens_at_rest(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let (_ws, answer) = connected(target.addr, "ann", "").await;
    let token = answer["data"]["sessionToken"].as_str().unwrap_or_default().to_owned();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let db = target._folder.0.join("games.sqlite");
    let stored: String = rusqlite::Connection::open(&db)
        .and_then(|db| {
            db.query_row("SELECT token FROM sessions WHERE player_id = 'ann'", [], |row| row.get(0))
        })
        .unwrap_or_default();
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(&db).map_or(0, |metadata| metadata.permissions().mode() & 0o777)
    };
    #[cfg(not(unix))]
    let mode = 0;
    let plain = !token.is_empty() && stored == token;
    Finding {
        name: "session tokens at rest",
        held: !plain && mode & 0o077 == 0,
        figures: format!(
            "stored {}; database file mode {mode:o}",
            if plain { "as issued" } else { "as a SHA-256 digest" }
        ),
    }
}

/// Finding 8: a host-chosen seed, known to the host alone.
async fn chosen_seed(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let settings = json!({ "roomName": "r", "maxPlayers": 2, "seed": 42 });
    let (_ann, room) = host(target.addr, settings).await;
    let (mut bob, _) = connected(target.addr, "bob", "").await;
    send(&mut bob, "JOIN_ROOM", json!({ "roomId": room })).await;
    let told = next_of(&mut bob, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
    let shared = told["data"]["seed"] == 42;
    Finding {
        name: "a seed the host chose",
        held: shared,
        figures: format!(
            "the joining player {}",
            if shared { "is told it" } else { "is not told it" }
        ),
    }
}

/// Finding 9: `GAME_STATE` at game start, as part 1 says.
async fn state_at_start(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let (mut ann, _) = host(target.addr, json!({ "roomName": "r", "maxPlayers": 2 })).await;
    next_of(&mut ann, &["GAME_STATE"]).await;
    send(&mut ann, "ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    send(&mut ann, "START_GAME", json!({})).await;
    let mut sent = false;
    while let Some(message) = next_of(&mut ann, &["GAME_STATE", "TURN_START"]).await {
        if message["type"] == "GAME_STATE" {
            sent = message["data"]["gameState"]["tiles"]["0,0"].is_object();
        }
        if message["type"] == "TURN_START" {
            break;
        }
    }
    Finding {
        name: "GAME_STATE at game start",
        held: sent,
        figures: (if sent { "sent, with the start tile" } else { "not sent" }).to_owned(),
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut server = std::env::var("CARGO_TARGET_DIR")
        .map_or_else(|_| PathBuf::from("target"), PathBuf::from)
        .join("release/carcassonne-server");
    let mut report_only = false;
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--server" => server = PathBuf::from(words.next().unwrap_or_default()),
            "--report-only" => report_only = true,
            other => {
                eprintln!("probe: unknown argument {other}; use --server PATH [--report-only]");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let findings = vec![
        hostile_colour(&server).await,
        bot_identity(&server).await,
        idle_connections(&server).await,
        room_flood(&server).await,
        slow_readers(&server).await,
        expired_seat(&server).await,
        tokens_at_rest(&server).await,
        chosen_seed(&server).await,
        state_at_start(&server).await,
        second::tileset_pipelining(&server).await,
        second::silent_external_bots(&server).await,
        second::external_bot_limit(&server).await,
        second::external_bot_flood(&server).await,
        second::reconnect_storm(&server).await,
        second::spectator_churn(&server).await,
        second::freed_identity(&server).await,
        second::invisible_names(&server).await,
        second::rebound_host(&server).await,
    ];
    let mut open = 0;
    for finding in &findings {
        println!(
            "{} {}: {}",
            if finding.held { "held" } else { "OPEN" },
            finding.name,
            finding.figures
        );
        open += usize::from(!finding.held);
    }
    println!("{} of {} probes held", findings.len() - open, findings.len());
    if open > 0 && !report_only {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
