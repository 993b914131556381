//! An author's tile set served and played: `--tilesets PATH` adds files to the sets rooms may
//! use, the HTTP routes list and draw them, a room plays one to the end, and a broken file
//! stops the server before it listens, with every problem of the file.

mod common;

use std::sync::Arc;

use carcassonne_rooms::Library;
use common::{Server, config, http_get, play_until_end};
use serde_json::{Value, json};

/// The invented expansion of the tests, in a folder of its own beside a file that is not a
/// tile set (which the folder's reading leaves alone).
fn folder() -> std::path::PathBuf {
    let folder = common::scratch_folder("author-sets");
    let set = include_str!("../../tests/invented/market_town.toml");
    std::fs::write(folder.join("market_town.toml"), set).expect("a scratch file");
    std::fs::write(folder.join("README.txt"), "not a tile set").expect("a scratch file");
    folder
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_from_a_folder_is_listed_drawn_and_played() {
    let mut library = Library::builtin();
    assert_eq!(library.add_path(&folder()).expect("the folder's set"), 1);
    let server =
        Server::start(carcassonne_server::Config { library: Arc::new(library), ..config() }).await;

    let (status, listed) = http_get(server.addr, "/tilesets").await;
    assert_eq!(status, 200, "{listed}");
    let listed: Value = serde_json::from_str(&listed).expect("JSON");
    let sets = listed["tilesets"].as_array().cloned().unwrap_or_default();
    let town = sets.iter().find(|set| set["id"] == "market_town").expect("the author's set");
    assert_eq!(town["builtin"], false);
    assert!(sets.iter().filter(|set| set["id"] != "market_town").all(|set| set["builtin"] == true));
    let (status, tiles) = http_get(server.addr, "/tilesets/market_town").await;
    assert_eq!(status, 200, "{tiles}");
    let tiles: Value = serde_json::from_str(&tiles).expect("JSON");
    let first = tiles["tiles"][0]["tile"]["id"].as_str().expect("a tile id").to_owned();
    let (status, picture) = http_get(server.addr, &format!("/tiles/market_town/{first}")).await;
    assert_eq!(status, 200);
    assert!(picture.starts_with("<svg"), "{picture}");

    let mut host = server.client().await;
    host.connect_as("ann").await;
    host.send(
        "CREATE_ROOM",
        json!({ "roomName": "Town", "maxPlayers": 2, "tilesets": ["base", "nowhere"] }),
    )
    .await;
    let refused = host.expect_error("INVALID_ROOM_SETTINGS").await;
    let message = refused["data"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("no tile set called `nowhere`"), "{refused}");

    let room = host
        .create_room(
            json!({ "roomName": "Town", "maxPlayers": 2, "tilesets": ["base", "market_town"] }),
        )
        .await;
    host.send("ADD_BOT", json!({ "botName": "Robo", "difficulty": "easy" })).await;
    host.send("START_GAME", json!({})).await;
    let end = play_until_end(&mut host, true).await;
    assert_eq!(end["data"]["gameState"]["gameEnded"], true);
    let (status, saved) = http_get(server.addr, &format!("/games/{room}")).await;
    assert_eq!(status, 200, "a finished game of an author's set replays: {saved}");
    server.stop().await;
}

#[test]
fn a_broken_file_stops_the_server_before_it_listens() {
    let folder = common::scratch_folder("broken-set");
    let broken = folder.join("broken.toml");
    std::fs::write(&broken, "[set]\nid = \"broken\"\nname = 3\n").expect("a scratch file");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_carcassonne-server"))
        .args(["--addr", "127.0.0.1:0", "--db", ":memory:", "--tilesets"])
        .arg(&broken)
        .output()
        .expect("the server runs");
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("--tilesets") && said.contains("broken.toml"), "{said}");
    assert!(said.contains("error["), "the file's problems, with their codes: {said}");
}
