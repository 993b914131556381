//! A load test on localhost: many concurrent two-player rooms, each a scripted client against
//! a bot, on a server started here over a fresh database. It reports rooms, connections, the
//! move latency each client measures (from sending `PLACE_TILE` or `SKIP_MEEPLE` to the
//! server's answer; the bots' thinking is not in it), the server's memory per room, and
//! checks that every game finished and reloads from the database.
//!
//! ```sh
//! cargo build --release -p carcassonne-server
//! cargo run --release -p carcassonne-server --example load -- --rooms 2000
//! ```
//!
//! Bounded: `--rooms` rooms, `--minutes` at most, then it stops by itself.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    rooms: usize,
    server: PathBuf,
    think_ms: u64,
    bot_delay: f64,
    minutes: f64,
}

fn args() -> Result<Args, String> {
    let mut parsed = Args {
        rooms: 2000,
        server: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/release/carcassonne-server"
        )),
        think_ms: 2000,
        bot_delay: 1.0,
        minutes: 10.0,
    };
    if let Ok(dir) = std::env::var("CARGO_TARGET_DIR") {
        parsed.server = PathBuf::from(dir).join("release/carcassonne-server");
    }
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(format!("{word} needs a value"));
        match word.as_str() {
            "--rooms" => parsed.rooms = value()?.parse().map_err(|_| "--rooms is a number")?,
            "--server" => parsed.server = PathBuf::from(value()?),
            "--think-ms" => {
                parsed.think_ms = value()?.parse().map_err(|_| "--think-ms is a number")?
            }
            "--minutes" => {
                parsed.minutes = value()?.parse().map_err(|_| "--minutes is a number")?
            }
            "--bot-delay" => {
                parsed.bot_delay =
                    value()?.parse().map_err(|_| "--bot-delay is a number of seconds")?
            }
            other => {
                return Err(format!(
                    "unknown argument {other}; use --rooms N --server PATH --think-ms MS --bot-delay S --minutes M"
                ));
            }
        }
    }
    Ok(parsed)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmRSS:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kib| kib.parse().ok())
        })
        .unwrap_or(0)
}

fn launch(server: &PathBuf, port: u16, db: &PathBuf, bot_delay: f64) -> Child {
    Command::new(server)
        .args(["--addr", &format!("127.0.0.1:{port}"), "--db"])
        .arg(db)
        .args([
            "--bot-delay",
            &bot_delay.to_string(),
            "--figure-grace",
            "120",
            "--absent-grace",
            "120",
            // Every simulated client comes from 127.0.0.1: lift the per-address caps, which
            // are meant for one person's connections, not a crowd's.
            "--connections-per-address",
            "1000000",
            "--rooms-per-address",
            "1000000",
            "--sessions-per-address",
            "1000000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "cannot start {}: {error} (build it: cargo build --release -p carcassonne-server)",
                server.display()
            )
        })
}

async fn wait_listening(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(Instant::now() < deadline, "the server never listened on {addr}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut stream) = tokio::net::TcpStream::connect(addr).await else {
        return (0, String::new());
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).await.is_err() {
        return (0, String::new());
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0), body.to_owned())
}

/// One room's client: creates the room, adds a bot, starts, and plays to the end; returns the
/// room id, the final scores and its move latencies in microseconds.
async fn play_room(
    addr: SocketAddr,
    number: usize,
    think: Duration,
    started: Arc<AtomicUsize>,
) -> Result<(String, Value, Vec<u32>), String> {
    let (mut ws, _) = connect_async(format!("ws://{addr}/ws"))
        .await
        .map_err(|error| format!("connect: {error}"))?;
    let me = format!("load-{number}");
    let mut sent = 0u64;
    let mut envelope = |kind: &str, data: Value| {
        sent += 1;
        Message::Text(json!({ "type": kind, "data": data, "timestamp": "2026-11-25T00:00:00Z", "messageId": format!("m{sent}") }).to_string().into())
    };
    ws.send(envelope("CONNECT", json!({ "playerId": me, "name": me, "color": "" })))
        .await
        .map_err(|e| e.to_string())?;
    ws.send(envelope("CREATE_ROOM", json!({ "roomName": me, "maxPlayers": 2 })))
        .await
        .map_err(|e| e.to_string())?;
    ws.send(envelope("ADD_BOT", json!({ "botName": "bot", "difficulty": "easy" })))
        .await
        .map_err(|e| e.to_string())?;
    ws.send(envelope("START_GAME", json!({}))).await.map_err(|e| e.to_string())?;
    let mut latencies = Vec::with_capacity(80);
    let mut waiting: Option<(Instant, &'static str)> = None;
    let mut room = String::new();
    let mut counted = false;
    let mut dice = number as u64 * 2_654_435_761 + 1;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .map_err(|_| format!("{me}: nothing for 120 s"))?
            .ok_or(format!("{me}: closed"))?
            .map_err(|error| format!("{me}: {error}"))?;
        let Message::Text(text) = frame else { continue };
        // The type first; the data only for the messages this client acts on (a game state
        // is skipped unread, as a client that renders lazily would).
        let head: Head = serde_json::from_str(&text).map_err(|error| error.to_string())?;
        let kind = head.kind.as_str();
        let message = match kind {
            "ROOM_STATE" | "GAME_START" | "TURN_START" | "TILE_PLACED" | "ERROR" | "GAME_END" => {
                serde_json::from_str::<Value>(&text).map_err(|error| error.to_string())?
            }
            _ => Value::Null,
        };
        if let Some((sent_at, answer)) = waiting
            && kind == answer
        {
            latencies.push(sent_at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
            waiting = None;
        }
        match kind {
            "ROOM_STATE" if room.is_empty() => {
                room = message["data"]["roomId"].as_str().unwrap_or_default().to_owned()
            }
            "GAME_START" if !counted => {
                counted = true;
                started.fetch_add(1, Ordering::Relaxed);
            }
            "TURN_START" if message["data"]["currentPlayer"] == me.as_str() => {
                dice = dice
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pause = think.mul_f64(0.5 + (dice >> 40) as f64 / (1u64 << 24) as f64);
                tokio::time::sleep(pause).await;
                let placement = &message["data"]["validPlacements"][0];
                ws.send(envelope(
                    "PLACE_TILE",
                    json!({ "position": placement["position"], "rotation": placement["rotation"] }),
                ))
                .await
                .map_err(|e| e.to_string())?;
                waiting = Some((Instant::now(), "TILE_PLACED"));
            }
            "TILE_PLACED" if message["data"]["playerId"] == me.as_str() => {
                let options = message["data"]["meepleOptions"].as_array().map_or(0, Vec::len);
                let recalls = message["data"]["abbotRecalls"].as_array().map_or(0, Vec::len);
                if options + recalls > 0 {
                    ws.send(envelope("SKIP_MEEPLE", json!({}))).await.map_err(|e| e.to_string())?;
                    waiting = Some((Instant::now(), "TURN_END"));
                }
            }
            "ERROR" => return Err(format!("{me}: {message}")),
            "GAME_END" => {
                let _ = ws.close(None).await;
                return Ok((room, message["data"]["finalScore"].clone(), latencies));
            }
            _ => {}
        }
    }
}

/// A message's type, its data left unread.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
}

fn percentile(sorted: &[u32], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() - 1) as f64 * share).round() as usize;
    f64::from(sorted[index]) / 1000.0
}

#[tokio::main]
async fn main() {
    let args = match args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("load: {message}");
            std::process::exit(2);
        }
    };
    let folder = std::env::temp_dir().join(format!("carcassonne-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    let db = folder.join("load.sqlite");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut server = launch(&args.server, port, &db, args.bot_delay);
    wait_listening(addr).await;
    let pid = server.id();
    let baseline = rss_kib(pid);
    println!(
        "load: {} rooms (a client and an easy bot each), the client thinking ~{} ms a move, the bot waiting {} s, server pid {pid}, {baseline} KiB at rest",
        args.rooms, args.think_ms, args.bot_delay
    );

    let started = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(Mutex::new((0usize, 0u64, 0usize)));
    let clock = Instant::now();
    let mut tasks = Vec::with_capacity(args.rooms);
    for number in 0..args.rooms {
        let started = Arc::clone(&started);
        tasks.push(tokio::spawn(play_room(
            addr,
            number,
            Duration::from_millis(args.think_ms),
            started,
        )));
        if number % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Watch: the most rooms in play at once and the server's memory then.
    let watcher = {
        let started = Arc::clone(&started);
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let (status, body) = http_get(addr, "/health").await;
                if status != 200 {
                    continue;
                }
                let health: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let rooms = health["rooms"].as_u64().unwrap_or(0) as usize;
                let connections = health["connections"].as_u64().unwrap_or(0) as usize;
                let mut peak = peak.lock().await;
                if rooms >= peak.0 {
                    *peak = (rooms, rss_kib(pid), connections);
                }
                let _ = started.load(Ordering::Relaxed);
            }
        })
    };
    let deadline = Duration::from_secs_f64(args.minutes * 60.0);
    let mut results = Vec::new();
    let mut failures = Vec::new();
    for task in tasks {
        let left = deadline.saturating_sub(clock.elapsed());
        match tokio::time::timeout(left, task).await {
            Ok(Ok(Ok(result))) => results.push(result),
            Ok(Ok(Err(error))) => failures.push(error),
            Ok(Err(error)) => failures.push(error.to_string()),
            Err(_) => failures.push(format!("not finished in {} minutes", args.minutes)),
        }
    }
    watcher.abort();
    let elapsed = clock.elapsed();
    let (peak_rooms, peak_rss, peak_connections) = *peak.lock().await;
    let mut latencies: Vec<u32> =
        results.iter().flat_map(|(_, _, latencies)| latencies.iter().copied()).collect();
    latencies.sort_unstable();

    // Every game finished; now each one is read back from the database by a server started
    // anew on it.
    server.kill().expect("the server stops");
    let _ = server.wait();
    let mut server = launch(&args.server, port, &db, args.bot_delay);
    wait_listening(addr).await;
    let mut reloaded = 0;
    for (room, scores, _) in &results {
        let (status, body) = http_get(addr, &format!("/games/{room}")).await;
        let game: Option<carcassonne::Game> =
            (status == 200).then(|| serde_json::from_str(&body).ok()).flatten();
        let same = game.is_some_and(|game| {
            let mut stored: Vec<u64> =
                game.scores().iter().map(|score| u64::from(*score)).collect();
            let mut told: Vec<u64> = scores
                .as_object()
                .into_iter()
                .flat_map(|scores| scores.values())
                .filter_map(Value::as_u64)
                .collect();
            stored.sort_unstable();
            told.sort_unstable();
            game.is_over() && stored == told
        });
        if same {
            reloaded += 1;
        } else {
            failures.push(format!("{room}: the stored game does not replay to the scores told"));
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&folder);

    let per_room = if peak_rooms > 0 {
        (peak_rss.saturating_sub(baseline)) as f64 / peak_rooms as f64
    } else {
        0.0
    };
    println!(
        "rooms: {} asked, {} finished, {} failed; at most {peak_rooms} rooms and {peak_connections} connections open at once",
        args.rooms,
        results.len(),
        failures.len()
    );
    println!(
        "move latency at the client over {} moves: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.9),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    println!(
        "server memory: {baseline} KiB at rest, {peak_rss} KiB with {peak_rooms} rooms: {per_room:.0} KiB per room (its client's connection included)"
    );
    println!(
        "games reloaded from the database by a restarted server: {reloaded} of {}; {:.1} s in all",
        results.len(),
        elapsed.as_secs_f64()
    );
    for failure in failures.iter().take(10) {
        eprintln!("load: {failure}");
    }
    if !failures.is_empty() || results.len() != args.rooms {
        std::process::exit(1);
    }
}
