//! The server as an attacker tries it: each test is one finding of the review that made the
//! server safe to host (hostile colours, strangers speaking for bots, idle and half-sent
//! connections, room floods, clients that never read, expired sessions, tokens at rest,
//! a host's secret seed) and fails on the server as it was before its fix.

mod common;

use std::time::Duration;

use common::{Client, Server, config, http_get, http_get_with_head};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Finding 1: a colour is a palette name or nothing; anything else (the 55-byte colour that
/// ran a script in every room-mate's page) is refused, and every colour a client sees is a
/// palette name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colours_come_from_the_palette() {
    let server = Server::start(config()).await;
    let mut eve = server.client().await;
    let hostile = r#"red;background:url(/x)"></span><img src=x onerror=alert(1)>"#;
    eve.send("CONNECT", json!({ "playerId": "eve", "name": "Eve", "color": hostile })).await;
    let error = eve.expect_error("INVALID_COLOR").await;
    assert_eq!(error["data"]["numericCode"], 1008);
    assert!(error["data"]["details"]["colors"].as_array().is_some_and(|names| names.len() >= 6));
    eve.send("CONNECT", json!({ "playerId": "eve", "name": "Eve", "color": "grey" })).await;
    eve.expect("CONNECTED").await;
    eve.player = "eve".into();
    let room = eve.create_room(json!({ "roomName": "<b>x</b>", "maxPlayers": 3 })).await;
    let mut bob = server.client().await;
    bob.connect_as("bob").await;
    bob.send("JOIN_ROOM", json!({ "roomId": room })).await;
    let state = bob.expect("ROOM_STATE").await;
    let colours: Vec<&str> = state["data"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|player| player["color"].as_str().expect("a colour"))
        .collect();
    // Seats play the sets' colours in seat order, as every picture and saved game has them.
    assert_eq!(colours, ["red", "green"]);
    server.stop().await;
}

/// Finding 1: every route carries the page's policy and its companions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_carries_the_security_headers() {
    let server = Server::start(config()).await;
    for path in [
        "/",
        "/app.js",
        "/style.css",
        "/review.js",
        "/health",
        "/tilesets",
        "/tilesets/base",
        "/tiles/base/D.svg",
        "/games/none",
        "/nowhere",
    ] {
        let (_, head, _) = http_get_with_head(server.addr, path).await;
        for header in [
            format!("content-security-policy: {}", carcassonne_server::CONTENT_SECURITY_POLICY),
            "x-content-type-options: nosniff".to_owned(),
            "x-frame-options: deny".to_owned(),
            "referrer-policy: no-referrer".to_owned(),
        ] {
            assert!(head.contains(&header.to_ascii_lowercase()), "{path} lacks {header}:\n{head}");
        }
    }
    // The workers compile the engine's WebAssembly: theirs is the only policy that allows it.
    for path in ["/offline-worker.js", "/review-worker.js"] {
        let (status, head, _) = http_get_with_head(server.addr, path).await;
        assert_eq!(status, 200, "{path}");
        let header = format!(
            "content-security-policy: {}",
            carcassonne_server::WORKER_CONTENT_SECURITY_POLICY
        );
        assert!(head.contains(&header.to_ascii_lowercase()), "{path} lacks {header}:\n{head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{path}:\n{head}");
    }
    let policy = carcassonne_server::CONTENT_SECURITY_POLICY;
    assert!(!policy.contains("wasm-unsafe-eval"), "the page itself compiles no WebAssembly");
    // The page's own copy of its policy (for a static host) is the header's, but for the
    // directive only a header can carry.
    let (_, page) = http_get(server.addr, "/").await;
    let meta = policy.replace(" frame-ancestors 'none';", "");
    assert!(
        page.contains(&format!("http-equiv=\"Content-Security-Policy\" content=\"{meta}\"")),
        "{page}"
    );
    assert!(!carcassonne_server::WORKER_CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
    assert!(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"));
    assert!(policy.contains("frame-ancestors 'none'"));
    let (status, body) = http_get(server.addr, "/tilesets").await;
    assert_eq!(status, 200);
    let sets: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(sets["colours"][0], json!({ "name": "red", "shade": "#d62828" }));
    let listed = sets["tilesets"].as_array().map_or(0, Vec::len);
    assert_eq!(listed, carcassonne::BUILTIN_NAMES.len(), "every built-in set is listed");
    server.stop().await;
}

/// Finding 1: a page of another origin cannot open the socket (its scripts would act with
/// the visitor's session); the server's own origin, allowed ones, and clients that send no
/// origin can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_checks_the_origin() {
    let mut settings = config();
    settings.allowed_origins = vec!["https://games.example.org".into()];
    let server = Server::start(settings).await;
    let own = format!("http://{}", server.addr);
    assert!(Client::open_from(server.addr, &own).await.is_ok());
    assert!(Client::open_from(server.addr, "https://games.example.org").await.is_ok());
    assert_eq!(Client::open_from(server.addr, "https://evil.example").await.err(), Some(403));
    assert_eq!(Client::open_from(server.addr, "null").await.err(), Some(403));
    let mut plain = server.client().await;
    plain.send("PING", json!({})).await;
    plain.expect("PONG").await;
    server.stop().await;
}

/// Finding 2: nobody can connect as a bot, a refused join leaves the session out of the room,
/// and a person who is not the bot cannot play the bot's turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_speaks_for_a_bot() {
    let server = Server::start(config()).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    let room = ann.create_room(json!({ "roomName": "r", "maxPlayers": 2 })).await;
    ann.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    let mut state = ann.expect("ROOM_STATE").await;
    while state["data"]["players"].as_array().map(Vec::len) != Some(2) {
        state = ann.expect("ROOM_STATE").await;
    }
    let bot = state["data"]["players"][1]["id"].as_str().expect("the bot's id").to_owned();
    assert!(bot.starts_with("bot:"), "{bot}");

    let mut eve = server.client().await;
    eve.send("CONNECT", json!({ "playerId": bot, "name": "Eve" })).await;
    let error = eve.expect_error("INVALID_DATA").await;
    assert_eq!(error["data"]["details"]["field"], "playerId");
    // The old way in: a room's full, the join is refused, and in that window the stranger
    // acted as a member. Now the session never enters the room.
    eve.connect_as("eve").await;
    eve.send("JOIN_ROOM", json!({ "roomId": room })).await;
    eve.expect_error("ROOM_FULL").await;
    eve.send("PLACE_TILE", json!({ "position": {"x": 0, "y": 1}, "rotation": 0 })).await;
    eve.expect_error("NOT_IN_ROOM").await;
    eve.send("START_GAME", json!({})).await;
    eve.expect_error("NOT_IN_ROOM").await;
    server.stop().await;
}

/// Finding 3: a request that never finishes its head is cut after the header timeout, and
/// one address cannot hold more than its share of connections (the rest are told 429).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_time_out_and_an_address_holds_its_share() {
    let mut settings = config();
    settings.header_timeout = Duration::from_millis(500);
    settings.limits.connections_per_address = 8;
    let server = Server::start(settings).await;
    let mut idle = Vec::new();
    for index in 0..8 {
        let mut socket = tokio::net::TcpStream::connect(server.addr).await.expect("accepted");
        if index % 2 == 0 {
            socket.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await.expect("half a head");
        }
        idle.push(socket);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = http_get(server.addr, "/health").await;
    assert_eq!(status, 429, "the ninth connection of one address is turned away");
    // Each idle connection is closed by the server within the timeout (and a margin).
    for mut socket in idle {
        let mut buffer = [0u8; 512];
        let closed = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match socket.read(&mut buffer).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "an idle connection is still open after 5 s");
    }
    let (status, body) = http_get(server.addr, "/health").await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}

/// Finding 4: a new player id per room does not get round the room cap; the address is
/// counted too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_flood_the_server_with_rooms() {
    let mut settings = config();
    settings.limits.rooms_per_address = 4;
    let server = Server::start(settings).await;
    let mut clients = Vec::new();
    for index in 0..4 {
        let mut client = server.client().await;
        client.connect_as(&format!("p{index}")).await;
        client.create_room(json!({ "roomName": "r", "maxPlayers": 2 })).await;
        clients.push(client);
    }
    let mut fifth = server.client().await;
    fifth.connect_as("p5").await;
    fifth.send("CREATE_ROOM", json!({ "roomName": "r", "maxPlayers": 2 })).await;
    let error = fifth.expect_error("TOO_MANY_ROOMS").await;
    assert!(error["data"]["message"].as_str().is_some_and(|text| text.contains("address")));
    let (_, health) = http_get(server.addr, "/health").await;
    assert!(health.contains("\"rooms\":4"), "{health}");
    server.stop().await;
}

/// Finding 4, the same for sessions: each is a row in the database, so one address may hold
/// only so many; a client with a session it may resume is still welcome.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_flood_the_server_with_sessions() {
    let mut settings = config();
    settings.limits.sessions_per_address = 3;
    let server = Server::start(settings).await;
    let mut first = server.client().await;
    first.connect_as("s0").await;
    let token = first.token.clone().expect("a token");
    first.close().await;
    for index in 1..3 {
        server.client().await.connect_as(&format!("s{index}")).await;
    }
    let mut fourth = server.client().await;
    fourth.send("CONNECT", json!({ "playerId": "s3", "name": "s3" })).await;
    assert_eq!(fourth.expect_error("TOO_MANY_SESSIONS").await["data"]["numericCode"], 1009);
    fourth.send("CONNECT", json!({ "playerId": "s0", "name": "s0", "sessionToken": token })).await;
    assert_eq!(fourth.expect("CONNECTED").await["data"]["resumed"], true);
    server.stop().await;
}

/// Finding 5: a client that never reads is cut off once what waits for it passes the
/// queue's bytes, instead of holding the server's memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_cut_off() {
    let mut settings = config();
    settings.limits.outbox_bytes = 256 * 1024;
    // The kernel's buffers would otherwise take the first megabytes whole.
    settings.limits.send_buffer_bytes = Some(8 * 1024);
    settings.figure_grace = Duration::from_secs(30);
    let server = Server::start(settings).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    let room = ann.create_room(json!({ "roomName": "r", "maxPlayers": 2 })).await;
    ann.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    let mut sleeper = Client::open_narrow(server.addr).await;
    sleeper.connect_as("sleeper").await;
    sleeper.send("JOIN_ROOM", json!({ "roomId": room, "spectate": true })).await;
    ann.send("START_GAME", json!({})).await;
    // Each TURN_END carries the whole state: a game sends the spectator megabytes.
    common::play_until_end(&mut ann, true).await;
    let (_, health) = http_get(server.addr, "/health").await;
    assert!(health.contains("\"connections\":1"), "the sleeper was cut off: {health}");
    server.stop().await;
}

/// Finding 6: after the session timeout a seated player's seat is still theirs: their id
/// cannot be taken without the token, and with it they come back to their game. A session
/// outside any game does end, and its id is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_stays_its_owners_until_the_game_ends() {
    let mut settings = config();
    settings.session_timeout = Duration::from_millis(300);
    settings.absent_grace = Duration::from_secs(60);
    let server = Server::start(settings).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    ann.create_room(json!({ "roomName": "r", "maxPlayers": 2 })).await;
    ann.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    ann.send("START_GAME", json!({})).await;
    ann.expect("TURN_START").await;
    let token = ann.token.clone().expect("a token");
    ann.close().await;
    let mut idle = server.client().await;
    idle.connect_as("idle").await;
    let idle_token = idle.token.clone().expect("a token");
    idle.close().await;
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let mut eve = server.client().await;
    eve.send("CONNECT", json!({ "playerId": "ann", "name": "Eve" })).await;
    eve.expect_error("INVALID_SESSION").await;
    let mut back = server.client().await;
    back.send("CONNECT", json!({ "playerId": "ann", "name": "Ann", "sessionToken": token })).await;
    let connected = back.expect("CONNECTED").await;
    assert_eq!(connected["data"]["resumed"], true);
    assert!(connected["data"]["roomId"].is_string(), "still seated: {connected}");
    // A session outside a game ended, but its id stays its token's (finding 7 of the second
    // review: a stranger took a freed id, its finished games and its owner's return).
    let mut other = server.client().await;
    other.send("CONNECT", json!({ "playerId": "idle", "name": "Eve" })).await;
    other.expect_error("INVALID_SESSION").await;
    let mut owner = server.client().await;
    let data = json!({ "playerId": "idle", "name": "Idle", "sessionToken": idle_token });
    owner.send("CONNECT", data).await;
    let fresh = owner.expect("CONNECTED").await;
    assert_eq!(fresh["data"]["resumed"], false, "a session outside a game ended");
    assert_eq!(fresh["data"]["sessionToken"], idle_token.as_str(), "the id keeps its token");
    server.stop().await;
}

/// Finding 7: the database keeps token digests, never tokens, and only its owner may read
/// the file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_not_kept_and_the_database_is_private() {
    let folder = common::scratch_folder("tokens");
    let db = folder.join("games.sqlite");
    let mut settings = config();
    settings.db = Some(db.clone());
    let server = Server::start(settings).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    let token = ann.token.clone().expect("a token");
    server.stop().await;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&db).expect("the file").permissions().mode();
        assert_eq!(mode & 0o077, 0, "the database is its owner's only: {mode:o}");
    }
    let stored: String = rusqlite::Connection::open(&db)
        .expect("the database opens")
        .query_row("SELECT token FROM sessions WHERE player_id = 'ann'", [], |row| row.get(0))
        .expect("ann's session");
    assert_ne!(stored, token);
    assert_eq!(stored.len(), 64, "a SHA-256 digest in hex");
    let _ = std::fs::remove_dir_all(&folder);
}

/// Finding 8: a seed the host chose is told to everyone before the game (it decides every
/// draw); a seed the server drew is never told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_seed_is_everyones() {
    let server = Server::start(config()).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    let room = ann.create_room(json!({ "roomName": "r", "maxPlayers": 2, "seed": 42 })).await;
    let mut bob = server.client().await;
    bob.connect_as("bob").await;
    bob.send("LIST_ROOMS", json!({})).await;
    let listed = bob.expect("LIST_ROOMS").await;
    assert_eq!(listed["data"]["rooms"][0]["seed"], 42);
    bob.send("JOIN_ROOM", json!({ "roomId": room })).await;
    assert_eq!(bob.expect("ROOM_STATE").await["data"]["seed"], 42);
    let mut cid = server.client().await;
    cid.connect_as("cid").await;
    cid.create_room(json!({ "roomName": "drawn", "maxPlayers": 2 })).await;
    assert!(cid.log.iter().all(|message| message["data"].get("seed").is_none()));
    server.stop().await;
}

/// Finding 9: at game start every client gets the whole `GAME_STATE` (the start tile on the
/// board), between `GAME_START` and the first `TURN_START`, as part 1 has it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_state_comes_at_game_start() {
    let server = Server::start(config()).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    let room = ann.create_room(json!({ "roomName": "r", "maxPlayers": 2 })).await;
    let mut bob = server.client().await;
    bob.connect_as("bob").await;
    bob.send("JOIN_ROOM", json!({ "roomId": room })).await;
    bob.expect("GAME_STATE").await;
    ann.send("START_GAME", json!({})).await;
    for client in [&mut ann, &mut bob] {
        client.expect("GAME_START").await;
        client.forget_pending(); // the waiting room's state, from before
        let kinds: Vec<String> = {
            let mut kinds = Vec::new();
            loop {
                let message = client.next().await.expect("open");
                let kind = message["type"].as_str().unwrap_or_default().to_owned();
                if kind == "GAME_STATE" {
                    let state = &message["data"]["gameState"];
                    assert_eq!(state["gameStarted"], true);
                    assert!(state["tiles"]["0,0"]["tile"]["id"].is_string(), "{state}");
                    assert!(state["currentTile"].is_object());
                }
                kinds.push(kind.clone());
                if kind == "TURN_START" {
                    break kinds;
                }
            }
        };
        let state = kinds.iter().position(|kind| kind == "GAME_STATE");
        assert!(state.is_some_and(|at| at + 1 < kinds.len()), "{kinds:?}");
    }
    server.stop().await;
}
