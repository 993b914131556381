//! `kill -9` mid-game and a restart on the same database: the game resumes where it stood.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Client, http_get};
use serde_json::json;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port")
}

/// The server binary on `port` over the database `db`, once it answers.
async fn launch(port: u16, db: &Path) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_carcassonne-server"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--db"])
        .arg(db)
        .args(["--bot-delay", "0", "--absent-grace", "60", "--figure-grace", "60"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(Instant::now() < deadline, "the server never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child
}

/// Plays `turns` of the client's turns (first placement, no figure).
async fn play_turns(client: &mut Client, turns: usize) {
    let mut played = 0;
    while played < turns {
        let message = client.next().await.expect("the server is up");
        match message["type"].as_str() {
            Some("TURN_START") if message["data"]["currentPlayer"] == client.player.as_str() => {
                let placement = &message["data"]["validPlacements"][0];
                client.send("PLACE_TILE", json!({ "position": placement["position"], "rotation": placement["rotation"] })).await;
            }
            Some("TILE_PLACED") if message["data"]["playerId"] == client.player.as_str() => {
                if !message["data"]["meepleOptions"].as_array().is_none_or(Vec::is_empty)
                    || !message["data"]["abbotRecalls"].as_array().is_none_or(Vec::is_empty)
                {
                    client.send("SKIP_MEEPLE", json!({})).await;
                }
                played += 1;
            }
            Some("ERROR") => panic!("{message}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_game_where_it_stood() {
    let folder = common::scratch_folder("restart");
    let db = folder.join("games.sqlite");
    let port = free_port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));

    let mut server = launch(port, &db).await;
    let mut client = Client::open(addr).await;
    client.connect_as("ann").await;
    let token = client.token.clone().expect("a token");
    client.send("CREATE_ROOM", json!({ "roomName": "durable", "maxPlayers": 2, "tilesets": ["base", "inns_and_cathedrals"] })).await;
    let room =
        client.expect("ROOM_STATE").await["data"]["roomId"].as_str().expect("an id").to_owned();
    client.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    client.send("START_GAME", json!({})).await;
    play_turns(&mut client, 6).await;
    // Let the bot's whole turn land (its tile, then its figure a bot delay later): the game
    // then waits on Ann, and the state everyone agrees on stands still.
    loop {
        let message = client.expect("TURN_START").await;
        if message["data"]["currentPlayer"] == "ann" {
            break;
        }
    }
    client.close().await;
    let mut before = Client::open(addr).await;
    before.player = "ann".into();
    before
        .send("CONNECT", json!({ "playerId": "ann", "name": "Ann", "sessionToken": token }))
        .await;
    before.expect("CONNECTED").await;
    let state = before.expect("GAME_STATE").await["data"]["gameState"].clone();
    let tiles = state["tiles"].as_object().map(|tiles| tiles.len()).expect("tiles");
    assert!(tiles >= 12, "six turns each: {tiles} tiles");

    server.kill().expect("kill -9"); // SIGKILL: nothing is flushed or closed
    server.wait().expect("it died");
    drop(before);

    let mut server = launch(port, &db).await;
    let mut after = Client::open(addr).await;
    after.player = "ann".into();
    after.send("CONNECT", json!({ "playerId": "ann", "name": "Ann", "sessionToken": token })).await;
    let connected = after.expect("CONNECTED").await;
    assert_eq!(connected["data"]["resumed"], true);
    assert_eq!(connected["data"]["roomId"], room.as_str());
    let resumed = after.expect("GAME_STATE").await["data"]["gameState"].clone();
    assert_eq!(resumed["tiles"], state["tiles"], "the board as it stood");
    assert_eq!(resumed["scores"], state["scores"]);
    assert_eq!(resumed["tilesLeft"], state["tilesLeft"]);
    let end = common::play_until_end(&mut after, true).await;
    assert_eq!(end["data"]["gameState"]["gameEnded"], true);
    let (status, saved) = http_get(addr, &format!("/games/{room}")).await;
    assert_eq!(status, 200);
    let game: carcassonne::Game = serde_json::from_str(&saved).expect("the saved game replays");
    assert!(game.is_over());
    server.kill().expect("stopped");
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&folder);
}
