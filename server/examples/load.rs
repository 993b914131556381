//! A load test on localhost: many concurrent two-player rooms, each a scripted client against
//! a bot, on a server started here over a fresh database. It reports rooms, connections, the
//! move latency each client measures (from sending `PLACE_TILE` or `SKIP_MEEPLE` to the
//! server's answer; the bots' thinking is not in it), the server's memory per room, and
//! checks that every game finished and reloads from the database. Each client comes from a
//! loopback address of its own (127.1.x.y), as players do.
//!
//! With `--abusers`, the same rooms play on fresh servers alone, then beside the
//! second security review's attackers (`probe/attacks.rs`: 8 connections pipelining a tile-set
//! route, 6 rooms of silent external bots from one address, 2 rooms of bots flooding their
//! output, a seated member reconnecting as fast as it can, 29 strangers toggling spectate and
//! leave across the honest rooms), `--pairs` times (3) in turn; it fails unless the honest
//! moves' median and 99th percentile beside them (the medians over the runs) are within twice
//! those alone. The attackers run in a process of
//! their own at the lowest priority (`nice -n 19`), so that on a machine the server shares
//! with its clients, what the attackers' own side costs does not count against the honest
//! clients' clocks, while what the server spends on them does.
//!
//! ```sh
//! cargo build --release -p carcassonne-server
//! cargo run --release -p carcassonne-server --example load -- --rooms 2000
//! cargo run --release -p carcassonne-server --example load -- --rooms 300 --abusers
//! ```
//!
//! Bounded: `--rooms` rooms, `--minutes` at most for each run, then it stops by itself.

#[path = "probe/attacks.rs"]
mod attacks;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    rooms: usize,
    server: PathBuf,
    think_ms: u64,
    bot_delay: f64,
    minutes: f64,
    abusers: bool,
    /// The attackers `--abusers` starts, by name (all of them unless `--attacks` says).
    attacks: Vec<String>,
    /// Run as the attackers' process, against this server, until stdin closes.
    attack_only: Option<SocketAddr>,
    /// How many times `--abusers` plays the rooms alone and beside the attackers.
    pairs: usize,
}

/// The attackers' names, for `--attacks`.
const ATTACKS: [&str; 5] = ["pipeline", "silent", "chatter", "storm", "churn"];

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
        abusers: false,
        attacks: ATTACKS.iter().map(|name| (*name).to_owned()).collect(),
        attack_only: None,
        pairs: 3,
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
            "--abusers" => parsed.abusers = true,
            "--pairs" => {
                parsed.pairs = value()?.parse().map_err(|_| "--pairs is a number")?;
                if parsed.pairs == 0 {
                    return Err("--pairs is at least 1".to_owned());
                }
            }
            "--attack-only" => {
                parsed.attack_only =
                    Some(value()?.parse().map_err(|_| "--attack-only is an address")?)
            }
            "--attacks" => {
                parsed.attacks = value()?.split(',').map(str::to_owned).collect();
                if let Some(unknown) =
                    parsed.attacks.iter().find(|name| !ATTACKS.contains(&name.as_str()))
                {
                    return Err(format!(
                        "--attacks: no attacker is called {unknown}; they are {}",
                        ATTACKS.join(",")
                    ));
                }
            }
            "--bot-delay" => {
                parsed.bot_delay =
                    value()?.parse().map_err(|_| "--bot-delay is a number of seconds")?
            }
            other => {
                return Err(format!(
                    "unknown argument {other}; use --rooms N --server PATH --think-ms MS --bot-delay S --minutes M [--abusers [--attacks LIST] [--pairs N]]"
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
            // The attackers' bots, there in both runs so that only the attackers differ.
            "--bot",
            &attacks::faulty_bot("silent", "mute"),
            "--bot",
            &attacks::faulty_bot("chatter", "chatter"),
            "--bot-ms",
            "1000",
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
    let from = honest_address(number);
    let mut ws = attacks::open_from(addr, from).await.ok_or(format!("load-{number}: no socket"))?;
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

/// The loopback address of honest client `number`: 127.1.x.y, one each.
fn honest_address(number: usize) -> [u8; 4] {
    [127, 1, (number / 250) as u8, (number % 250) as u8 + 1]
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

/// What one run measured, and what went wrong in it.
struct Run {
    latencies: Vec<u32>,
    failures: Vec<String>,
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
    if let Some(addr) = args.attack_only {
        attack_until_stdin_closes(addr, &args.attacks).await;
        return;
    }
    if !args.abusers {
        let alone = run(&args, false).await;
        report_failures(&alone.failures);
        return;
    }
    // Alone and beside the attackers in turn, `--pairs` times, on a machine whose other load
    // comes and goes: each figure is the median of its runs'.
    let mut failures = Vec::new();
    let (mut alone, mut beside) = (Vec::new(), Vec::new());
    for pair in 0..args.pairs {
        for abusers in [false, true] {
            println!();
            let run = run(&args, abusers).await;
            failures.extend(run.failures.iter().cloned());
            let figures = (percentile(&run.latencies, 0.5), percentile(&run.latencies, 0.99));
            if abusers { beside.push(figures) } else { alone.push(figures) }
        }
        println!("(pair {} of {})", pair + 1, args.pairs);
    }
    let median = |runs: &[(f64, f64)], pick: fn(&(f64, f64)) -> f64| {
        let mut values: Vec<f64> = runs.iter().map(pick).collect();
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(0.0)
    };
    let (p50, p99) = (median(&alone, |run| run.0), median(&alone, |run| run.1));
    let (b50, b99) = (median(&beside, |run| run.0), median(&beside, |run| run.1));
    println!();
    println!(
        "honest moves beside the attackers against alone, medians of {} runs each: p50 {b50:.2} ms against {p50:.2} ms ({:.2}x), p99 {b99:.2} ms against {p99:.2} ms ({:.2}x)",
        args.pairs,
        b50 / p50.max(0.001),
        b99 / p99.max(0.001)
    );
    if b50 > 2.0 * p50 || b99 > 2.0 * p99 {
        failures.push("the attackers more than doubled the honest players' move times".into());
    }
    report_failures(&failures);
}

/// Prints what failed, and exits 1 if anything did.
fn report_failures(failures: &[String]) {
    for failure in failures.iter().take(10) {
        eprintln!("load: {failure}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

/// One run on a fresh server: the rooms to their end, with the attackers beside them when
/// `abusers` is set.
async fn run(args: &Args, abusers: bool) -> Run {
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
        "load{}: {} rooms (a client and an easy bot each), the client thinking ~{} ms a move, the bot waiting {} s, server pid {pid}, {baseline} KiB at rest",
        if abusers { " beside the attackers" } else { "" },
        args.rooms,
        args.think_ms,
        args.bot_delay
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
    let mut attackers = if abusers {
        let spawned = Command::new("nice")
            .args(["-n", "19"])
            .arg(std::env::current_exe().expect("this program's path"))
            .arg("--attack-only")
            .arg(addr.to_string())
            .arg("--attacks")
            .arg(args.attacks.join(","))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the attackers' process starts");
        Some(spawned)
    } else {
        None
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
    let attacked = attackers.as_mut().map(|process| {
        drop(process.stdin.take());
        let mut told = String::new();
        if let Some(mut out) = process.stdout.take() {
            use std::io::Read;
            let _ = out.read_to_string(&mut told);
        }
        let _ = process.wait();
        told
    });
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
    if let Some(told) = attacked {
        print!("{told}");
    }
    if results.len() != args.rooms && failures.is_empty() {
        failures.push(format!("{} of {} rooms finished", results.len(), args.rooms));
    }
    Run { latencies, failures }
}

/// The attackers' process: every attacker chosen, against `addr`, until this process's stdin
/// closes; then what they did, in one line.
async fn attack_until_stdin_closes(addr: SocketAddr, chosen: &[String]) {
    let attack = attacks::Attack::new();
    let tasks = attack_all(addr, &attack, chosen).await;
    let _ = tokio::task::spawn_blocking(|| {
        use std::io::Read;
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
    })
    .await;
    attack.stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    let count = |what: &std::sync::atomic::AtomicU64| what.load(Ordering::Relaxed);
    println!(
        "the attackers: {} requests and messages, {} of them refused by a limit, {} answers served whole, {:.0} MB sent back",
        count(&attack.sent),
        count(&attack.refused),
        attack.served.load(Ordering::Relaxed),
        count(&attack.bytes) as f64 / 1e6
    );
}

/// Starts every attacker of the second review beside the honest rooms (whose ids it reads
/// from `LIST_ROOMS` for the spectators): their tasks, which stop with `attack.stop`.
async fn attack_all(
    addr: SocketAddr,
    attack: &Arc<attacks::Attack>,
    chosen: &[String],
) -> Vec<tokio::task::JoinHandle<()>> {
    let on = |name: &str| chosen.iter().any(|chosen| chosen == name);
    let mut tasks = Vec::new();
    if on("pipeline") {
        for index in 0..8u8 {
            let from = [127, 2, 0, index + 1];
            tasks.push(tokio::spawn(attacks::pipeline_tilesets(addr, from, Arc::clone(attack))));
        }
    }
    if on("silent") {
        for index in 0..6 {
            let host = format!("silent-{index}");
            tasks.push(tokio::spawn(attacks::silent_room(
                addr,
                [127, 2, 1, 1],
                host,
                Arc::clone(attack),
            )));
        }
    }
    if on("chatter") {
        for index in 0..2 {
            let host = format!("chatter-{index}");
            tasks.push(tokio::spawn(attacks::chatter_room(
                addr,
                [127, 2, 2, 1],
                host,
                Arc::clone(attack),
            )));
        }
    }
    if on("storm") {
        let storm =
            attacks::reconnect_storm(addr, [127, 2, 3, 1], "storm".into(), Arc::clone(attack));
        tasks.push(tokio::spawn(storm));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rooms = honest_rooms(addr).await;
    if on("churn") {
        for index in 0..29u8 {
            let from = [127, 2, 4, index + 1];
            let churn = attacks::spectator_churn(
                addr,
                from,
                format!("eve-{index}"),
                rooms.clone(),
                Arc::clone(attack),
            );
            tasks.push(tokio::spawn(churn));
        }
    }
    tasks
}

/// The ids of the honest players' rooms, from `LIST_ROOMS`.
async fn honest_rooms(addr: SocketAddr) -> Vec<String> {
    let Some((mut ws, _)) =
        attacks::connected_from(addr, [127, 2, 5, 1], json!({ "playerId": "lister", "name": "l" }))
            .await
    else {
        return Vec::new();
    };
    let _ = ws.send(attacks::envelope("LIST_ROOMS", json!({}))).await;
    let listed = attacks::next_of(&mut ws, &["LIST_ROOMS"]).await.unwrap_or(Value::Null);
    listed["data"]["rooms"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|room| room["name"].as_str().is_some_and(|name| name.starts_with("load-")))
        .filter_map(|room| room["id"].as_str().map(str::to_owned))
        .collect()
}
