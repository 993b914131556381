//! The protocol with a real WebSocket client: every message, every error code, whole games,
//! reconnection with `lastSeq`, and a 1.0 client that never sends `SKIP_MEEPLE`.

mod common;

use common::{Client, Server, config, http_get, play_until_end};
use serde_json::json;

async fn room_of_two(server: &Server) -> (Client, Client, String) {
    let mut host = server.client().await;
    host.connect_as("ann").await;
    host.send("CREATE_ROOM", json!({ "roomName": "Ann's", "maxPlayers": 3 })).await;
    let state = host.expect("ROOM_STATE").await;
    let room = state["data"]["roomId"].as_str().expect("a room id").to_owned();
    assert_eq!(state["data"]["host"], "ann");
    host.expect("GAME_STATE").await;
    let mut guest = server.client().await;
    guest.connect_as("bob").await;
    guest.send("JOIN_ROOM", json!({ "roomId": room })).await;
    let state = guest.expect("ROOM_STATE").await;
    assert_eq!(state["data"]["players"].as_array().map(Vec::len), Some(2));
    guest.expect("GAME_STATE").await;
    (host, guest, room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connecting_and_the_envelope() {
    let server = Server::start(config()).await;
    let mut client = server.client().await;
    client.send("PING", json!({})).await;
    client.expect("PONG").await;
    client.send("LIST_ROOMS", json!({})).await;
    client.expect_error("NOT_CONNECTED").await;
    client.send_text("not json".into()).await;
    client.expect_error("MALFORMED_MESSAGE").await;
    client.send_text(r#"{"type": "PING", "data": {}}"#.into()).await;
    let error = client.expect_error("MALFORMED_MESSAGE").await;
    assert_eq!(error["data"]["details"]["field"], "timestamp");
    client.send("DANCE", json!({})).await;
    client.expect_error("UNKNOWN_MESSAGE_TYPE").await;
    client.send("CONNECT", json!({ "name": "no id" })).await;
    let error = client.expect_error("INVALID_DATA").await;
    assert_eq!(error["data"]["details"]["field"], "playerId");
    assert_eq!(error["data"]["inReplyTo"], "t4", "the refused message is named");

    let connected = client.connect_as("ann").await;
    assert_eq!(connected["data"]["protocolVersion"], "1.1");
    assert_eq!(connected["data"]["sessionToken"].as_str().map(str::len), Some(32));
    client.send("CONNECT", json!({ "playerId": "ann", "name": "Ann" })).await;
    client.expect_error("ALREADY_CONNECTED").await;

    // A playerId alone never takes over a session.
    let mut thief = server.client().await;
    thief.send("CONNECT", json!({ "playerId": "ann", "name": "Mallory" })).await;
    thief.expect_error("INVALID_SESSION").await;
    thief
        .send(
            "CONNECT",
            json!({ "playerId": "ann", "name": "Mallory", "sessionToken": "0".repeat(32) }),
        )
        .await;
    thief.expect_error("INVALID_SESSION").await;

    client.send("LIST_ROOMS", json!({})).await;
    let rooms = client.expect("LIST_ROOMS").await;
    assert_eq!(rooms["data"]["rooms"], json!([]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_and_their_refusals() {
    let server = Server::start(config()).await;
    let (mut host, mut guest, room) = room_of_two(&server).await;
    host.send("LIST_ROOMS", json!({})).await;
    let rooms = host.expect("LIST_ROOMS").await;
    let listed = &rooms["data"]["rooms"][0];
    assert_eq!(listed["id"], room.as_str());
    assert_eq!(listed["playerCount"], 2);
    assert_eq!(listed["maxPlayers"], 3);
    assert_eq!(listed["gameStarted"], false);
    assert_eq!(listed["createdBy"], "ann");

    guest.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    guest.expect_error("NOT_HOST").await;
    guest.send("START_GAME", json!({})).await;
    guest.expect_error("NOT_HOST").await;
    guest.send("JOIN_ROOM", json!({ "roomId": "r999" })).await;
    guest.expect_error("ALREADY_IN_ROOM").await;
    guest.send("CREATE_ROOM", json!({ "roomName": "x", "maxPlayers": 2 })).await;
    guest.expect_error("ALREADY_IN_ROOM").await;
    guest.send("PLACE_TILE", json!({ "position": {"x": 0, "y": 1}, "rotation": 0 })).await;
    guest.expect_error("GAME_NOT_STARTED").await;

    let mut third = server.client().await;
    third.connect_as("cid").await;
    third.send("JOIN_ROOM", json!({ "roomId": "r999" })).await;
    third.expect_error("ROOM_NOT_FOUND").await;
    third.send("CREATE_ROOM", json!({ "roomName": "x", "maxPlayers": 7 })).await;
    third.expect_error("INVALID_DATA").await;
    third.send("CREATE_ROOM", json!({ "roomName": "x", "maxPlayers": 6 })).await;
    third.expect_error("INVALID_ROOM_SETTINGS").await;
    third
        .send("CREATE_ROOM", json!({ "roomName": "x", "maxPlayers": 2, "tilesets": ["moon"] }))
        .await;
    third.expect_error("INVALID_ROOM_SETTINGS").await;
    third
        .send(
            "CREATE_ROOM",
            json!({ "roomName": "x", "maxPlayers": 2, "rules": {"dragons": true} }),
        )
        .await;
    third.expect_error("INVALID_ROOM_SETTINGS").await;

    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    let mut state = host.expect("ROOM_STATE").await;
    while state["data"]["players"].as_array().map(Vec::len) != Some(3) {
        state = host.expect("ROOM_STATE").await;
    }
    assert_eq!(state["data"]["players"][2]["isBot"], true);
    assert_eq!(state["data"]["players"][2]["name"], "Robo");
    third.send("JOIN_ROOM", json!({ "roomId": room })).await;
    third.expect_error("ROOM_FULL").await;
    third.send("JOIN_ROOM", json!({ "roomId": room, "spectate": true })).await;
    third.expect("GAME_STATE").await;

    host.send("START_GAME", json!({})).await;
    host.expect("GAME_START").await;
    let turn = host.expect("TURN_START").await;
    assert_eq!(turn["data"]["currentPlayer"], "ann");
    assert!(turn["data"]["validPlacements"].as_array().is_some_and(|list| !list.is_empty()));
    assert!(turn["data"]["currentTile"]["features"].is_array());
    third.expect("TURN_START").await;
    third.send("PLACE_TILE", json!({ "position": {"x": 0, "y": 1}, "rotation": 0 })).await;
    third.expect_error("NOT_A_PLAYER").await;
    guest.send("PLACE_TILE", json!({ "position": {"x": 0, "y": 1}, "rotation": 0 })).await;
    guest.expect_error("NOT_YOUR_TURN").await;
    host.send("PLACE_TILE", json!({ "position": {"x": 5, "y": 5}, "rotation": 0 })).await;
    let error = host.expect_error("INVALID_PLACEMENT").await;
    assert_eq!(error["data"]["details"]["reason"], "no_neighbour");
    assert_eq!(error["data"]["details"]["position"], json!({"x": 5, "y": 5}));
    host.send("PLACE_MEEPLE", json!({ "featureId": 0 })).await;
    host.expect_error("WRONG_PHASE").await;
    guest.send("LEAVE_ROOM", json!({ "roomId": room })).await;
    guest.expect_error("GAME_ALREADY_STARTED").await;
    let mut late = server.client().await;
    late.connect_as("dee").await;
    late.send("JOIN_ROOM", json!({ "roomId": room })).await;
    late.expect_error("GAME_ALREADY_STARTED").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_of_two_clients_and_a_bot_then_its_saved_game() {
    let server = Server::start(config()).await;
    let (mut host, mut guest, room) = room_of_two(&server).await;
    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "medium" })).await;
    host.send("START_GAME", json!({})).await;
    let (ann, bob) =
        tokio::join!(play_until_end(&mut host, true), play_until_end(&mut guest, true));
    assert_eq!(ann["data"], bob["data"], "both see the same end");
    let scores = &ann["data"]["finalScore"];
    assert_eq!(scores.as_object().map(|scores| scores.len()), Some(3));
    assert!(ann["data"]["winners"].as_array().is_some_and(|winners| !winners.is_empty()));
    assert_eq!(ann["data"]["gameState"]["gameEnded"], true);
    assert_eq!(ann["data"]["gameState"]["tilesLeft"], 0);
    // Every TURN_END carried the engine's events and every room message its number, in order.
    let seqs: Vec<u64> = host.log.iter().filter_map(|message| message["seq"].as_u64()).collect();
    assert!(seqs.windows(2).all(|pair| pair[0] < pair[1]), "seq grows");
    assert!(host.log.iter().any(|message| message["type"] == "TURN_END"
        && message["data"]["events"].as_array().is_some_and(|events| !events.is_empty())));
    // Each person heard of their own score and figures as they changed, and only of theirs.
    let updates: Vec<&serde_json::Value> =
        host.log.iter().filter(|message| message["type"] == "PLAYER_UPDATE").collect();
    assert!(updates.len() > 5, "{} updates", updates.len());
    assert!(updates.iter().all(|update| update["data"]["player"]["id"] == "ann"));
    let last = updates.last().map(|update| update["data"]["player"]["score"].clone());
    assert_eq!(last, Some(scores["ann"].clone()), "the last update has the final score");
    // No message ever names the bag's order or its seed.
    assert!(host.log.iter().all(|message| !message.to_string().contains("\"seed\"")));

    let (status, saved) = http_get(server.addr, &format!("/games/{room}")).await;
    assert_eq!(status, 200, "{saved}");
    let game: carcassonne::Game =
        serde_json::from_str(&saved).expect("a saved game the engine replays");
    assert!(game.is_over());
    let totals: Vec<u64> = game.scores().iter().map(|score| u64::from(*score)).collect();
    let mut expected: Vec<u64> = scores
        .as_object()
        .into_iter()
        .flat_map(|scores| scores.values())
        .filter_map(|v| v.as_u64())
        .collect();
    let mut got = totals.clone();
    expected.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, expected);
    let (status, _) = http_get(server.addr, "/games/r999").await;
    assert_eq!(status, 404);

    // LIST_GAMES: the game, for each person who played it, with its scores and winners; a
    // client that played nothing hears of nothing.
    host.send("LIST_GAMES", json!({})).await;
    let listed = host.expect("GAMES").await;
    let games = listed["data"]["games"].as_array().cloned().unwrap_or_default();
    assert_eq!(games.len(), 1, "{listed}");
    assert_eq!(games[0]["id"], room.as_str());
    let listed_scores: Vec<u64> = games[0]["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["score"].as_u64())
        .collect();
    assert_eq!(listed_scores, totals, "the listed scores are the game's, in seat order");
    assert!(games[0]["players"][2]["isBot"].as_bool().unwrap_or(false));
    assert!(!games[0]["winners"].as_array().is_none_or(Vec::is_empty));
    guest.send("LIST_GAMES", json!({})).await;
    assert_eq!(guest.expect("GAMES").await["data"]["games"][0]["id"], room.as_str());
    let mut stranger = server.client().await;
    stranger.connect_as("carol").await;
    stranger.send("LIST_GAMES", json!({})).await;
    assert_eq!(stranger.expect("GAMES").await["data"]["games"], json!([]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_point_zero_client_never_skips_and_its_turns_still_end() {
    let mut settings = config();
    settings.figure_grace = std::time::Duration::from_millis(300);
    let server = Server::start(settings).await;
    let mut host = server.client().await;
    host.connect_as("old").await;
    host.send("CREATE_ROOM", json!({ "roomName": "1.0", "maxPlayers": 2 })).await;
    host.expect("ROOM_STATE").await;
    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    host.send("START_GAME", json!({})).await;
    let end = play_until_end(&mut host, false).await;
    assert_eq!(end["data"]["gameState"]["gameEnded"], true);
    assert!(
        host.log.iter().any(|message| message["type"] == "TURN_TIMEOUT"),
        "a grace ended a turn"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_mid_game_with_last_seq_gets_what_was_missed() {
    let server = Server::start(config()).await;
    let (mut host, mut guest, _room) = room_of_two(&server).await;
    host.send("START_GAME", json!({})).await;
    // Ann plays her first turn; Bob then drops his connection.
    let turn = host.expect("TURN_START").await;
    let placement = &turn["data"]["validPlacements"][0];
    host.send(
        "PLACE_TILE",
        json!({ "position": placement["position"], "rotation": placement["rotation"] }),
    )
    .await;
    host.expect("TILE_PLACED").await;
    guest.expect("TILE_PLACED").await;
    let token = guest.token.clone().expect("a token");
    let seen = guest.last_seq;
    guest.close().await;
    host.send("SKIP_MEEPLE", json!({})).await;
    host.expect("TURN_END").await;
    // Bob is away on his turn: after the absence grace the server plays it for him.
    let timeout = host.expect("TURN_TIMEOUT").await;
    assert_eq!(timeout["data"]["playerId"], "bob");
    host.expect("TURN_END").await;

    let mut back = server.client().await;
    back.player = "bob".into();
    back.send(
        "CONNECT",
        json!({ "playerId": "bob", "name": "Bob", "sessionToken": token, "lastSeq": seen }),
    )
    .await;
    let connected = back.expect("CONNECTED").await;
    assert_eq!(connected["data"]["resumed"], true);
    back.expect("TURN_END").await;
    back.expect("TURN_TIMEOUT").await;
    let numbered: Vec<u64> =
        back.log.iter().filter_map(|message| message["seq"].as_u64()).collect();
    assert_eq!(numbered.first(), Some(&(seen + 1)), "the first message missed comes first");
    assert!(numbered.windows(2).all(|pair| pair[1] == pair[0] + 1), "none missing: {numbered:?}");

    // Without lastSeq, a full state.
    let mut again = server.client().await;
    again.player = "bob".into();
    again.send("CONNECT", json!({ "playerId": "bob", "name": "Bob", "sessionToken": back.token.clone().or(Some(connected["data"]["sessionToken"].as_str().unwrap_or_default().to_owned())) })).await;
    again.expect("CONNECTED").await;
    let state = again.expect("GAME_STATE").await;
    assert_eq!(state["data"]["gameState"]["gameStarted"], true);
    assert!(state["data"]["gameState"]["tiles"].as_object().is_some_and(|tiles| tiles.len() >= 3));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_frames_are_answered_and_the_server_goes_on() {
    let mut settings = config();
    settings.limits.frame_bytes = 1024;
    settings.limits.messages_per_second = 5.0;
    settings.limits.burst = 10.0;
    let server = Server::start(settings).await;
    let mut client = server.client().await;
    client.connect_as("eve").await;
    client.send("CREATE_ROOM", json!({ "roomName": "x".repeat(2000), "maxPlayers": 2 })).await;
    client.expect_error("FRAME_TOO_LARGE").await;
    for _ in 0..40 {
        client.send("PING", json!({})).await;
    }
    client.expect_error("RATE_LIMITED").await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    client.forget_pending();
    client.send("LIST_ROOMS", json!({})).await;
    client.expect("LIST_ROOMS").await;
    // A frame beyond the hard limit cuts that connection only.
    let mut brute = server.client().await;
    brute.send_text("x".repeat(300 * 1024)).await;
    assert!(brute.next().await.is_none(), "the connection was cut");
    let mut other = server.client().await;
    other.send("PING", json!({})).await;
    other.expect("PONG").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_meeples_left_and_a_refused_figure() {
    let server = Server::start(config()).await;
    let mut host = server.client().await;
    host.connect_as("big").await;
    let sets = json!(["base", "inns_and_cathedrals"]);
    host.send("CREATE_ROOM", json!({ "roomName": "big", "maxPlayers": 2, "tilesets": sets })).await;
    host.expect("ROOM_STATE").await;
    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    host.send("START_GAME", json!({})).await;
    let mut big_out = false;
    loop {
        let message = host.next().await.expect("the game goes on");
        match message["type"].as_str() {
            Some("TURN_START") if message["data"]["currentPlayer"] == "big" => {
                let placement = &message["data"]["validPlacements"][0];
                host.send(
                    "PLACE_TILE",
                    json!({ "position": placement["position"], "rotation": placement["rotation"] }),
                )
                .await;
            }
            Some("TILE_PLACED") if message["data"]["playerId"] == "big" => {
                let options =
                    message["data"]["meepleOptions"].as_array().cloned().unwrap_or_default();
                if options.is_empty()
                    && message["data"]["abbotRecalls"].as_array().is_none_or(Vec::is_empty)
                {
                    continue; // nothing to choose: the turn has ended already
                }
                // A segment the tile does not have: the engine's reason comes back.
                host.send("PLACE_MEEPLE", json!({ "featureId": 31 })).await;
                let error = host.expect_error("INVALID_MEEPLE").await;
                assert_eq!(error["data"]["details"]["reason"], "no_such_segment");
                let Some(option) = options.iter().find(|option| option["figure"] == "follower")
                else {
                    host.send("SKIP_MEEPLE", json!({})).await;
                    continue;
                };
                // The one big follower: placed once, then asked for again on a free feature.
                host.send(
                    "PLACE_MEEPLE",
                    json!({ "featureId": option["featureId"], "figure": "big_follower" }),
                )
                .await;
                if big_out {
                    let answer = host.expect_any(&["ERROR", "TURN_END"]).await;
                    if answer["type"] == "ERROR" {
                        assert_eq!(answer["data"]["code"], "NO_MEEPLES", "{answer}");
                        break;
                    }
                    // Else it had come back (its feature was completed) and went out again.
                } else {
                    big_out = true;
                }
            }
            Some("ERROR") => panic!("{message}"),
            Some("GAME_END") => {
                panic!("the game ended before the big follower was asked for twice")
            }
            _ => {}
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_timer_plays_for_a_player_who_waits_too_long_and_spectators_see_it() {
    let server = Server::start(config()).await;
    let mut host = server.client().await;
    host.connect_as("slow").await;
    host.send("CREATE_ROOM", json!({ "roomName": "timed", "maxPlayers": 2, "turnSeconds": 1 }))
        .await;
    let room = host.expect("ROOM_STATE").await["data"]["roomId"].as_str().expect("id").to_owned();
    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    let mut watcher = server.client().await;
    watcher.connect_as("watcher").await;
    watcher.send("JOIN_ROOM", json!({ "roomId": room, "spectate": true })).await;
    watcher.expect("GAME_STATE").await;
    host.send("START_GAME", json!({})).await;
    host.expect("TURN_START").await;
    // The host does nothing: after a second the server plays a random placement for it.
    let timeout = host.expect("TURN_TIMEOUT").await;
    assert_eq!(timeout["data"]["reason"], "turn time");
    assert!(timeout["data"]["position"].is_object());
    let end = host.expect("TURN_END").await;
    assert_eq!(end["data"]["playerId"], "slow");
    let seen = watcher.expect("TURN_TIMEOUT").await;
    assert_eq!(seen["data"], timeout["data"]);
    watcher.expect("TURN_END").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_idle_connections_are_held_then_closed_and_the_server_serves_on() {
    // Held: a thousand connections that never say anything, and a player served among them.
    let mut settings = config();
    settings.handshake_timeout = std::time::Duration::from_secs(120);
    let server = Server::start(settings).await;
    // Both ends are in this process: a thousand where the file limit allows two thousand
    // sockets, fewer (said aloud) where it is lower.
    let wanted = open_files_limit().map_or(1000, |limit| (limit.saturating_sub(100) / 2).min(1000));
    if wanted < 1000 {
        eprintln!(
            "idle connections: {wanted}, not 1000: this process may open only {:?} files",
            open_files_limit()
        );
    }
    let mut idle = Vec::new();
    for _ in 0..wanted {
        idle.push(server.client().await);
    }
    let counted = std::time::Instant::now();
    loop {
        let (_, health) = http_get(server.addr, "/health").await;
        let open: serde_json::Value = serde_json::from_str(&health).expect("JSON");
        if open["connections"].as_u64().unwrap_or(0) >= wanted as u64 {
            break;
        }
        assert!(counted.elapsed().as_secs() < 60, "not every connection was served: {health}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let mut worker = server.client().await;
    worker.connect_as("busy").await;
    worker.send("CREATE_ROOM", json!({ "roomName": "among the idle", "maxPlayers": 2 })).await;
    worker.expect("ROOM_STATE").await;
    worker.send("PING", json!({})).await;
    worker.expect("PONG").await;
    drop(idle);
    server.stop().await;

    // Closed: connections that never send CONNECT are cut after the handshake timeout.
    let mut settings = config();
    settings.handshake_timeout = std::time::Duration::from_secs(1);
    let server = Server::start(settings).await;
    let mut idle = Vec::new();
    for _ in 0..50 {
        idle.push(server.client().await);
    }
    let mut worker = server.client().await;
    worker.connect_as("busy").await;
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    for client in &mut idle {
        assert!(client.next().await.is_none(), "an idle connection without CONNECT was closed");
    }
    let (_, health) = http_get(server.addr, "/health").await;
    let open: serde_json::Value = serde_json::from_str(&health).expect("JSON");
    assert_eq!(open["connections"], 1, "only the player is left: {health}");
    worker.send("PING", json!({})).await;
    worker.expect("PONG").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_remaining_refusals() {
    let mut settings = config();
    settings.limits.connections = 6;
    let server = Server::start(settings).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    ann.send("LEAVE_ROOM", json!({ "roomId": "r1" })).await;
    ann.expect_error("NOT_IN_ROOM").await;
    ann.send("START_GAME", json!({})).await;
    ann.expect_error("NOT_IN_ROOM").await;
    // Three rooms of Ann's stay open after she leaves them, each with someone in it.
    let mut helpers = Vec::new();
    for (index, name) in ["dee", "eve", "fay"].into_iter().enumerate() {
        ann.send("CREATE_ROOM", json!({ "roomName": format!("room {index}"), "maxPlayers": 2 }))
            .await;
        let room =
            ann.expect("ROOM_STATE").await["data"]["roomId"].as_str().expect("id").to_owned();
        if index == 0 {
            ann.send("START_GAME", json!({})).await;
            ann.expect_error("NOT_ENOUGH_PLAYERS").await;
        }
        let mut helper = server.client().await;
        helper.connect_as(name).await;
        helper.send("JOIN_ROOM", json!({ "roomId": room })).await;
        helper.expect("GAME_STATE").await;
        ann.send("LEAVE_ROOM", json!({ "roomId": room })).await;
        ann.expect("ROOM_LEFT").await;
        ann.forget_pending(); // the room's news from before she left
        let state = helper.expect("ROOM_STATE").await;
        assert_eq!(state["data"]["roomId"], room.as_str());
        helpers.push(helper);
    }
    ann.send("CREATE_ROOM", json!({ "roomName": "one too many", "maxPlayers": 2 })).await;
    ann.expect_error("TOO_MANY_ROOMS").await;
    // Four connections are open; the limit is six: the seventh is refused and closed.
    let _fifth = server.client().await;
    let _sixth = server.client().await;
    let mut seventh = server.client().await;
    seventh.expect_error("SERVER_FULL").await;
    assert!(seventh.next().await.is_none(), "and closed");
    server.stop().await;
}

/// The soft limit on open files of this process, from /proc (Linux).
fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|line| line.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Part 1: "bots act automatically, one action every 2 seconds": a bot's tile comes one bot
/// delay after its turn starts, and its figure step one more delay later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_takes_one_action_per_bot_delay() {
    let mut settings = config();
    settings.bot_delay = std::time::Duration::from_millis(400);
    let server = Server::start(settings).await;
    let mut ann = server.client().await;
    ann.connect_as("ann").await;
    ann.send("CREATE_ROOM", json!({ "roomName": "r", "maxPlayers": 2 })).await;
    ann.expect("ROOM_STATE").await;
    ann.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    ann.send("START_GAME", json!({})).await;
    loop {
        let message = ann.next().await.expect("open");
        match message["type"].as_str() {
            Some("TURN_START") if message["data"]["currentPlayer"] == "ann" => {
                let placement = &message["data"]["validPlacements"][0];
                ann.send(
                    "PLACE_TILE",
                    json!({ "position": placement["position"], "rotation": placement["rotation"] }),
                )
                .await;
            }
            Some("TILE_PLACED") if message["data"]["playerId"] == "ann" => {
                ann.send("SKIP_MEEPLE", json!({})).await;
            }
            Some("TURN_START") => break,
            _ => {}
        }
    }
    let started = std::time::Instant::now();
    let placed = ann.expect("TILE_PLACED").await;
    let placed_after = started.elapsed();
    assert!(placed["data"]["playerId"].as_str().is_some_and(|id| id.starts_with("bot:")));
    let options = placed["data"]["meepleOptions"].as_array().map_or(0, Vec::len);
    ann.expect("TURN_END").await;
    let ended_after = started.elapsed();
    assert!(placed_after.as_millis() >= 350, "the tile after one delay: {placed_after:?}");
    if options > 0 {
        assert!(
            (ended_after - placed_after).as_millis() >= 350,
            "the figure step one delay after the tile: {placed_after:?} then {ended_after:?}"
        );
    }
    server.stop().await;
}

/// What a person saw of the special figures in one game over the protocol.
#[derive(Default)]
struct SpecialsSeen {
    deployed: std::collections::BTreeSet<String>,
    flock_choices: usize,
    second_turns: usize,
    events: std::collections::BTreeSet<String>,
}

/// Plays `client`'s turns to the end, preferring the special figures (a builder, a pig or a
/// shepherd whenever one may go), growing a flock while it is small and driving it after;
/// records what it saw. Checks on the way that a `FLOCK_CHOICE` shows the flock and the bag
/// and that no state ever waits on a sheep draw (the server draws at once).
async fn play_specials(client: &mut Client, seen: &mut SpecialsSeen) -> serde_json::Value {
    let mut turns = 0usize;
    loop {
        let message =
            client.next().await.unwrap_or_else(|| panic!("{}: closed mid-game", client.player));
        let data = &message["data"];
        assert_ne!(data["gameState"]["phase"], "sheep", "a state waits on a sheep draw: {message}");
        if let Some(events) = data["events"].as_array() {
            for event in events {
                let mut name = event["event"].as_str().unwrap_or_default().to_owned();
                if name == "feature_scored" {
                    name = format!("scored_{}", event["reason"].as_str().unwrap_or_default());
                }
                seen.events.insert(name);
            }
        }
        // A second turn is announced to everyone, whoever takes it.
        if message["type"] == "TURN_START" && data["secondTurn"] == true {
            seen.second_turns += 1;
        }
        match message["type"].as_str() {
            Some("TURN_START") if data["currentPlayer"] == client.player.as_str() => {
                let placements = data["validPlacements"].as_array().expect("placements");
                let placement = &placements[turns % placements.len()];
                client
                    .send("PLACE_TILE", json!({ "position": placement["position"], "rotation": placement["rotation"] }))
                    .await;
            }
            Some("TILE_PLACED") if data["playerId"] == client.player.as_str() => {
                turns += 1;
                let options = data["meepleOptions"].as_array().cloned().unwrap_or_default();
                let special = options.iter().find(|option| {
                    ["builder", "pig", "shepherd"]
                        .contains(&option["figure"].as_str().unwrap_or(""))
                });
                if let Some(option) =
                    special.or(options.first().filter(|_| turns.is_multiple_of(3)))
                {
                    seen.deployed.insert(option["figure"].as_str().unwrap_or_default().to_owned());
                    client
                        .send(
                            "PLACE_MEEPLE",
                            json!({ "featureId": option["featureId"], "figure": option["figure"] }),
                        )
                        .await;
                } else if !options.is_empty()
                    || !data["abbotRecalls"].as_array().is_none_or(Vec::is_empty)
                {
                    client.send("SKIP_MEEPLE", json!({})).await;
                }
            }
            Some("FLOCK_CHOICE") if data["playerId"] == client.player.as_str() => {
                seen.flock_choices += 1;
                assert!(data["bag"]["tokens"].is_u64() && data["sheep"].is_u64(), "{message}");
                let grow = data["canGrow"] == true && data["sheep"].as_u64() < Some(4);
                client.send("TEND_FLOCK", json!({ "grow": grow })).await;
            }
            Some("ERROR") => panic!("{}: {message}", client.player),
            Some("GAME_END") => return message,
            _ => {}
        }
    }
}

/// Traders & Builders' builder and pig and Hills & Sheep's shepherd and hills over the
/// protocol: two people who prefer the new figures and a bot play whole games; between them
/// they deploy every new figure, meet a flock's choice both ways, a second turn, sheep, a
/// market and a hidden tile, and the saved game replays to the same scores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_special_figures_over_the_protocol() {
    let server = Server::start(config()).await;
    let mut seen = SpecialsSeen::default();
    for game in 0..4 {
        let mut host = server.client().await;
        host.connect_as(&format!("ann{game}")).await;
        let sets = json!(["base", "traders_and_builders", "hills_and_sheep"]);
        host.send(
            "CREATE_ROOM",
            json!({ "roomName": "figures", "maxPlayers": 3, "tilesets": sets, "seed": game }),
        )
        .await;
        let state = host.expect("ROOM_STATE").await;
        let room = state["data"]["roomId"].as_str().expect("a room id").to_owned();
        let players = &host.expect("GAME_STATE").await["data"]["gameState"]["players"];
        assert_eq!(players[0]["builders"], 1, "the seat starts with a builder: {players}");
        assert_eq!(players[0]["shepherds"], 1, "and a shepherd: {players}");
        let mut guest = server.client().await;
        guest.connect_as(&format!("bob{game}")).await;
        guest.send("JOIN_ROOM", json!({ "roomId": room })).await;
        guest.expect("ROOM_STATE").await;
        host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "medium" })).await;
        host.send("START_GAME", json!({})).await;
        let mut bob = SpecialsSeen::default();
        let (ann_end, bob_end) =
            tokio::join!(play_specials(&mut host, &mut seen), play_specials(&mut guest, &mut bob));
        assert_eq!(ann_end["data"], bob_end["data"], "both see the same end");
        seen.deployed.extend(bob.deployed);
        seen.flock_choices += bob.flock_choices;
        seen.second_turns += bob.second_turns;
        let end_state = &ann_end["data"]["gameState"];
        assert!(end_state["sheepBag"]["tokens"].is_u64(), "the bag is shown: {end_state}");

        let (status, saved) = http_get(server.addr, &format!("/games/{room}")).await;
        assert_eq!(status, 200, "{saved}");
        let replayed: carcassonne::Game =
            serde_json::from_str(&saved).expect("a saved game the engine replays");
        let scores = &ann_end["data"]["finalScore"];
        for (seat, score) in replayed.scores().iter().enumerate() {
            let id = ann_end["data"]["gameState"]["players"][seat]["id"].clone();
            assert_eq!(scores[id.as_str().unwrap_or_default()], *score, "seat {seat}");
        }
        let done =
            ["builder", "pig", "shepherd"].iter().all(|figure| seen.deployed.contains(*figure))
                && seen.flock_choices > 0
                && seen.second_turns > 0
                && ["sheep_drawn", "scored_market", "tile_hidden", "extra_turn"]
                    .iter()
                    .all(|event| seen.events.contains(*event));
        if done {
            server.stop().await;
            return;
        }
    }
    panic!(
        "four games did not meet every mechanism: deployed {:?}, {} flock choices, {} second \
         turns, events {:?}",
        seen.deployed, seen.flock_choices, seen.second_turns, seen.events
    );
}

/// The operator's own bots (`--bot NAME=COMMAND`): `GET /bots` lists them after the levels
/// without their command lines, `ADD_BOT` adds them by name and refuses a name the server does
/// not have, and a game with one that answers (its first legal action every time) and one that
/// exits at every move still plays to its end, the first one's moves exactly its answers.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_own_bots_play_through_the_bot_protocol() {
    let script =
        |name: &str| format!("{}/../bots/tests/external/{name}", env!("CARGO_MANIFEST_DIR"));
    let external = |name: &str, command: Vec<String>| {
        let mut bot = carcassonne_bots::ExternalConfig::from_command_line("sh").unwrap();
        bot.command = command;
        bot.move_ms = 5_000;
        bot.show_stderr = false;
        carcassonne_bots::Profile::external(name, bot).unwrap()
    };
    let mut settings = config();
    settings.external_bots = vec![
        external("first", vec!["sh".into(), script("first_legal.sh")]),
        external("quitter", vec!["sh".into(), script("faulty.sh"), "exit".into()]),
    ];
    let server = Server::start(settings).await;
    let (status, listed) = http_get(server.addr, "/bots").await;
    assert_eq!(status, 200);
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let names: Vec<&str> =
        listed["bots"].as_array().unwrap().iter().filter_map(|bot| bot["name"].as_str()).collect();
    assert_eq!(names, ["easy", "medium", "hard", "expert", "first", "quitter"]);
    assert!(!listed.to_string().contains(".sh"), "a command line is private: {listed}");

    let mut host = server.client().await;
    host.connect_as("ann").await;
    host.send("CREATE_ROOM", json!({ "roomName": "Ann's", "maxPlayers": 3 })).await;
    let room = host.expect("ROOM_STATE").await["data"]["roomId"].as_str().unwrap().to_owned();
    host.send("ADD_BOT", json!({ "botName": "Nobody", "difficulty": "nobody" })).await;
    let error = host.expect_error("INVALID_DATA").await;
    assert_eq!(error["data"]["details"]["field"], "difficulty");
    host.send("ADD_BOT", json!({ "botName": "First", "difficulty": "first" })).await;
    host.send("ADD_BOT", json!({ "botName": "Quitter", "difficulty": "quitter" })).await;
    host.send("START_GAME", json!({})).await;
    let end = play_until_end(&mut host, true).await;
    assert_eq!(end["data"]["gameState"]["gameEnded"], true);

    let (status, saved) = http_get(server.addr, &format!("/games/{room}")).await;
    assert_eq!(status, 200, "{saved}");
    let game: carcassonne::Game = serde_json::from_str(&saved).unwrap();
    let mut replay = carcassonne::Game::new(game.setup()).unwrap();
    let mut asked = 0;
    for action in game.actions() {
        if replay.current_player() == carcassonne::PlayerId(1) && !replay.phase().is_chance() {
            assert_eq!(*action, replay.legal_actions()[0], "the bot's answer, played as given");
            asked += 1;
        }
        replay.apply(*action).unwrap();
    }
    assert!(asked > 30, "{asked} decisions of the bot");
    server.stop().await;
}
