//! The second security review's findings, each as the attack it was: the tile-set routes, the
//! external bots' seats, reconnect storms, spectator churn, freed player ids, names, and a page
//! whose name was rebound to this server. Each test failed before its fix; clients that must
//! look like other people come from other loopback addresses (127.0.0.x).

mod common;

use std::time::{Duration, Instant};

use carcassonne_server::Rate;
use common::{Client, Server, config, http_request};
use serde_json::{Value, json};

fn count(messages: &[Value], kind: &str) -> usize {
    messages.iter().filter(|message| message["type"] == kind).count()
}

/// Finding 1: each `GET /tilesets/{set}` computed every tile's anchors again on the sockets'
/// threads, with no cache and no rate. Now a computed route answers from memory with an ETag
/// (`304` for a page that has it) and every route counts against its address's rate, past
/// which it answers `429` with `Retry-After` while other addresses are served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computed_routes_have_a_validator_and_every_route_a_rate() {
    let mut settings = config();
    settings.limits.http_requests = Rate::new(0.5, 6.0);
    let server = Server::start(settings).await;
    let host = server.addr.to_string();
    let from = [127, 0, 0, 2];
    for path in ["/tilesets/traders_and_builders", "/tilesets", "/tiles/base/A.svg?rotation=90"] {
        let (status, head, body) = http_request(server.addr, from, path, &[("Host", &host)]).await;
        assert_eq!(status, 200, "{path}: {head}");
        assert!(!body.is_empty());
        let etag = head
            .lines()
            .find_map(|line| line.strip_prefix("etag: "))
            .unwrap_or_else(|| panic!("{path} has no ETag: {head}"))
            .trim()
            .to_owned();
        assert!(head.contains("cache-control: "), "{path}: {head}");
        let asked = [("Host", host.as_str()), ("If-None-Match", etag.as_str())];
        let (again, head, body) = http_request(server.addr, from, path, &asked).await;
        assert_eq!(again, 304, "{path} with its tag: {head}");
        assert!(body.is_empty());
    }
    let (status, head, _) = http_request(server.addr, from, "/health", &[("Host", &host)]).await;
    assert_eq!(status, 429, "the seventh request of a burst of six: {head}");
    assert!(head.contains("retry-after: "), "{head}");
    assert!(head.contains("content-security-policy"), "a refusal carries the headers: {head}");
    let other = [127, 0, 0, 3];
    let (status, _, _) = http_request(server.addr, other, "/health", &[("Host", &host)]).await;
    assert_eq!(status, 200, "another address is served");
    let (status, _, _) = http_request(server.addr, other, "/tilesets/nothing", &[]).await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// An external bot of the server's: `faulty.sh FAULT` (bots/tests/external), or `first_legal.sh`.
fn external(
    name: &str,
    script: &str,
    fault: Option<&str>,
    move_ms: u64,
) -> carcassonne_bots::Profile {
    let path = format!("{}/../bots/tests/external/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut bot = carcassonne_bots::ExternalConfig::from_command_line("sh").unwrap();
    bot.command = vec!["sh".into(), path];
    bot.command.extend(fault.map(str::to_owned));
    bot.move_ms = move_ms;
    bot.show_stderr = false;
    carcassonne_bots::Profile::external(name, bot).unwrap()
}

/// A room from `from` with `bots` (levels) after its host, started: the host's client.
async fn room_with_bots(server: &Server, from: [u8; 4], host: &str, bots: &[&str]) -> Client {
    let mut client = Client::open_from_address(server.addr, from).await;
    client.connect_as(host).await;
    client.create_room(json!({ "roomName": host, "maxPlayers": bots.len() + 1 })).await;
    for (index, level) in bots.iter().enumerate() {
        client
            .send("ADD_BOT", json!({ "botName": format!("Bot {index}"), "difficulty": level }))
            .await;
    }
    client.send("START_GAME", json!({})).await;
    client
}

/// Plays the host's first turn (its first placement, no figure): its bots move next.
async fn play_first_turn(client: &mut Client) {
    loop {
        let message = client.expect_any(&["TURN_START", "TILE_PLACED"]).await;
        let data = &message["data"];
        match message["type"].as_str() {
            Some("TURN_START") if data["currentPlayer"] == client.player.as_str() => {
                let placement = &data["validPlacements"][0];
                let at =
                    json!({ "position": placement["position"], "rotation": placement["rotation"] });
                client.send("PLACE_TILE", at).await;
            }
            Some("TILE_PLACED") if data["playerId"] == client.player.as_str() => {
                client.send("SKIP_MEEPLE", json!({})).await;
                return;
            }
            _ => {}
        }
    }
}

/// The time from now until a bot of the room places a tile.
async fn until_a_bot_places(client: &mut Client) -> Duration {
    let started = Instant::now();
    loop {
        let placed = client.expect("TILE_PLACED").await;
        if placed["data"]["playerId"].as_str().is_some_and(|id| id.starts_with("bot:")) {
            return started.elapsed();
        }
    }
}

/// Finding 2: an external bot that never answers held one of the bot threads for its whole
/// wait, so silent bots of one address made other rooms' built-in bots wait 10 s a move. Now
/// an external bot waits on a thread of its own, and an address's rooms hold a bounded share
/// of those: here, with one bot thread and one external turn an address, two rooms of silent
/// bots (10 s each) from one address delay neither a built-in bot's room nor an external
/// bot's room from other addresses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_external_bot_delays_no_other_room() {
    let mut settings = config();
    settings.bot_threads = 1;
    settings.limits.external_turns_per_address = 1;
    settings.external_bots = vec![
        external("silent", "faulty.sh", Some("mute"), 10_000),
        external("first", "first_legal.sh", None, 10_000),
    ];
    let server = Server::start(settings).await;
    let mut abusers = Vec::new();
    for host in ["mal", "lory"] {
        let mut abuser = room_with_bots(&server, [127, 0, 0, 2], host, &["silent", "silent"]).await;
        play_first_turn(&mut abuser).await;
        abusers.push(abuser);
    }
    // The silent bots are waiting for their programs now.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut honest = room_with_bots(&server, [127, 0, 0, 3], "ann", &["easy"]).await;
    play_first_turn(&mut honest).await;
    let built_in = until_a_bot_places(&mut honest).await;
    assert!(built_in < Duration::from_secs(3), "the easy bot waited {built_in:?}");
    let mut other = room_with_bots(&server, [127, 0, 0, 4], "bob", &["first"]).await;
    play_first_turn(&mut other).await;
    let external = until_a_bot_places(&mut other).await;
    assert!(
        external < Duration::from_secs(3),
        "the other address's external bot waited {external:?}"
    );
    drop(abusers);
    server.stop().await;
}

/// Finding 3: with `--bot-ms 1000` a silent bot's turn took 20.1 s (two actions, each starting
/// the program and waiting 10 s for it). Now the operator's limit bounds the turn in all,
/// start-up included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_external_bots_turn_keeps_to_the_operators_limit() {
    let mut settings = config();
    settings.external_bots = vec![external("silent", "faulty.sh", Some("mute"), 1_000)];
    let server = Server::start(settings).await;
    let mut host = room_with_bots(&server, [127, 0, 0, 1], "ann", &["silent"]).await;
    play_first_turn(&mut host).await;
    let started = Instant::now();
    loop {
        let ended = host.expect("TURN_END").await;
        if ended["data"]["playerId"].as_str().is_some_and(|id| id.starts_with("bot:")) {
            break;
        }
    }
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2_500), "the silent bot's turn took {took:?}");
    server.stop().await;
}

/// Finding 5: a seated member reconnecting 3,000 times in 2.5 s sent every other member 5,990
/// room states. Now a session reconnects at a bounded rate (past it, `RATE_LIMITED` with
/// `retryAfterMs`) and comings and goings are told together, a few times a second at most.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_storm_costs_the_others_a_few_messages() {
    let server = Server::start(config()).await;
    let mut ann = Client::open_from_address(server.addr, [127, 0, 0, 2]).await;
    ann.connect_as("ann").await;
    let room = ann.create_room(json!({ "roomName": "r", "maxPlayers": 3 })).await;
    let mut bob = Client::open_from_address(server.addr, [127, 0, 0, 3]).await;
    bob.connect_as("bob").await;
    let token = bob.token.clone().expect("a token");
    bob.send("JOIN_ROOM", json!({ "roomId": room })).await;
    bob.expect("GAME_STATE").await;
    let _ = ann.drain_for(Duration::from_millis(400)).await;

    let storm = tokio::spawn({
        let addr = server.addr;
        async move {
            let (mut refused, mut accepted) = (0, 0);
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(2) {
                let mut again = Client::open_from_address(addr, [127, 0, 0, 3]).await;
                let data = json!({ "playerId": "bob", "name": "bob", "sessionToken": token });
                again.send("CONNECT", data).await;
                let answer = again.expect_any(&["CONNECTED", "ERROR"]).await;
                if answer["type"] == "CONNECTED" {
                    accepted += 1;
                } else {
                    assert_eq!(answer["data"]["code"], "RATE_LIMITED", "{answer}");
                    assert!(answer["data"]["details"]["retryAfterMs"].as_u64().is_some());
                    refused += 1;
                }
            }
            (accepted, refused)
        }
    });
    let told = ann.drain_for(Duration::from_millis(2_300)).await;
    let (accepted, refused) = storm.await.expect("the storm ran");
    let states = count(&told, "ROOM_STATE");
    assert!(refused > 0, "{accepted} reconnections, none refused");
    assert!(accepted <= 12, "{accepted} reconnections in 2 s");
    assert!(states <= 12, "{states} room states for {accepted} reconnections");
    server.stop().await;
}

/// Finding 6: 29 strangers toggling spectate and leave pushed 505 room states a second to every
/// player of a game in progress. Now watchers' comings and goings are told together, and each
/// session moves between rooms at a bounded rate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectator_churn_costs_the_players_a_few_messages() {
    let server = Server::start(config()).await;
    let mut ann = room_with_bots(&server, [127, 0, 0, 2], "ann", &["easy"]).await;
    let room = ann.expect("ROOM_STATE").await["data"]["roomId"].as_str().unwrap().to_owned();
    ann.expect("TURN_START").await;
    let _ = ann.drain_for(Duration::from_millis(300)).await;
    let mut churners = Vec::new();
    for index in 0..10u8 {
        let addr = server.addr;
        let room = room.clone();
        churners.push(tokio::spawn(async move {
            let mut eve = Client::open_from_address(addr, [127, 0, 1, index + 1]).await;
            eve.connect_as(&format!("eve-{index}")).await;
            let started = Instant::now();
            let mut limited = 0;
            while started.elapsed() < Duration::from_secs(2) {
                eve.send("JOIN_ROOM", json!({ "roomId": room, "spectate": true })).await;
                eve.send("LEAVE_ROOM", json!({ "roomId": room })).await;
                limited += eve
                    .drain_for(Duration::from_millis(1))
                    .await
                    .iter()
                    .filter(|message| message["data"]["code"] == "RATE_LIMITED")
                    .count();
            }
            limited
        }));
    }
    let told = ann.drain_for(Duration::from_millis(2_300)).await;
    let mut limited = 0;
    for churner in churners {
        limited += churner.await.expect("a churner ran");
    }
    let states = count(&told, "ROOM_STATE");
    assert!(states <= 12, "{states} room states in 2.3 s");
    assert!(limited > 0, "no churner was rate-limited");
    server.stop().await;
}

/// Finding 8: names of invisible characters only, and names with bidi overrides, were taken
/// for players, rooms and bots. Now each is refused with `INVALID_NAME` (1010), naming the
/// field; names in every script, with emoji, stay welcome.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_and_bidi_names_are_refused() {
    let server = Server::start(config()).await;
    for (index, name) in
        ["\u{202E}mallory", "\u{200B}", "\u{3164}", "\u{2800}", "\u{E0041}"].iter().enumerate()
    {
        let mut eve = server.client().await;
        let data = json!({ "playerId": format!("eve-{index}"), "name": name, "color": "" });
        eve.send("CONNECT", data).await;
        let error = eve.expect_error("INVALID_NAME").await;
        assert_eq!(error["data"]["numericCode"], 1010);
        assert_eq!(error["data"]["details"]["field"], "name");
    }
    let mut ann = server.client().await;
    ann.send("CONNECT", json!({ "playerId": "ann", "name": "אנה 7", "color": "" })).await;
    ann.player = "ann".into();
    ann.expect("CONNECTED").await;
    ann.send("CREATE_ROOM", json!({ "roomName": "\u{2067}room", "maxPlayers": 2 })).await;
    let error = ann.expect_error("INVALID_NAME").await;
    assert_eq!(error["data"]["details"]["field"], "roomName");
    ann.create_room(json!({ "roomName": "غرفة 👩‍🚀", "maxPlayers": 2 })).await;
    ann.send("ADD_BOT", json!({ "botName": "\u{FEFF}", "difficulty": "easy" })).await;
    let error = ann.expect_error("INVALID_NAME").await;
    assert_eq!(error["data"]["details"]["field"], "botName");
    server.stop().await;
}

/// Finding 10: the socket's origin check compared `Origin` with `Host`, so a page at a name
/// rebound to this server (Host = Origin = attacker.example) was served. Now the server answers
/// only to addresses, `localhost` and the names it is given (`--host`, `--allow-origin`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_rebound_to_the_server_reaches_nothing() {
    let mut settings = config();
    settings.allowed_hosts = vec!["games.example.org".to_owned()];
    let server = Server::start(settings).await;
    let port = server.addr.port();
    let rebound = format!("attacker.example:{port}");
    for path in ["/", "/health", "/tilesets/base", "/ws"] {
        let (status, head, body) =
            http_request(server.addr, [127, 0, 0, 1], path, &[("Host", &rebound)]).await;
        assert_eq!(status, 421, "{path}: {head}{body}");
    }
    let mut request = {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        format!("ws://{}/ws", server.addr).into_client_request().expect("a request")
    };
    request.headers_mut().insert("host", rebound.parse().unwrap());
    let origin = format!("http://{rebound}");
    request.headers_mut().insert("origin", origin.parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a rebound page's socket opened");
    for host in
        [format!("games.example.org:{port}"), format!("localhost:{port}"), server.addr.to_string()]
    {
        let (status, head, _) =
            http_request(server.addr, [127, 0, 0, 1], "/health", &[("Host", &host)]).await;
        assert_eq!(status, 200, "{host}: {head}");
    }
    server.stop().await;
}
