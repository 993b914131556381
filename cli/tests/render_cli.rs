//! `carcassonne render`, and the final board that `play --svg` and `replay --svg` draw.

mod common;

use common::{fails, ok, scratch};

#[test]
fn a_saved_game_is_drawn_at_any_turn_as_svg_and_png() {
    let dir = scratch("render", "turns");
    let save = dir.join("game.json");
    let json = ok(&["play", "--players", "medium,easy", "--seed", "4", "--json"]);
    std::fs::write(&save, json).unwrap();
    let save = save.to_str().unwrap();

    let end = dir.join("end.svg");
    let said = ok(&["render", save, "-o", end.to_str().unwrap()]);
    assert!(said.contains("the board after 71 turns"), "{said}");
    let svg = std::fs::read_to_string(&end).unwrap();
    assert_eq!(svg.matches("class=\"tile\"").count(), 72);
    assert!(svg.contains("Game over"));

    let early = dir.join("early.svg");
    ok(&["render", save, "-o", early.to_str().unwrap(), "--turn", "5"]);
    let svg = std::fs::read_to_string(&early).unwrap();
    assert_eq!(svg.matches("class=\"tile\"").count(), 6, "the start tile and five turns");
    assert!(svg.contains("tiles left"));

    let start = dir.join("start.svg");
    ok(&["render", save, "-o", start.to_str().unwrap(), "--turn", "0"]);
    let svg = std::fs::read_to_string(&start).unwrap();
    assert_eq!(svg.matches("class=\"tile\"").count(), 1);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 0, "no move yet");

    let png = dir.join("early.png");
    ok(&["render", save, "-o", png.to_str().unwrap(), "--turn", "5", "--png"]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    assert!(width > 400, "{width} pixels wide");

    let error = fails(&["render", save, "-o", early.to_str().unwrap(), "--turn", "500"]);
    assert!(error.contains("--turn 500 asks for more turns than the game's 71"), "{error}");
    let missing = dir.join("missing.json");
    let error = fails(&["render", missing.to_str().unwrap(), "-o", early.to_str().unwrap()]);
    assert!(error.contains("cannot read"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_and_replay_draw_the_final_board() {
    let dir = scratch("render", "final");
    let played = dir.join("played.svg");
    let json = ok(&["play", "--seed", "9", "--json", "--svg", played.to_str().unwrap()]);
    let save = dir.join("game.json");
    std::fs::write(&save, json).unwrap();
    let replayed = dir.join("replayed.svg");
    ok(&["replay", save.to_str().unwrap(), "--svg", replayed.to_str().unwrap()]);
    let played = std::fs::read_to_string(&played).unwrap();
    assert!(played.starts_with("<svg"));
    assert_eq!(played, std::fs::read_to_string(&replayed).unwrap(), "the same board twice");
    let _ = std::fs::remove_dir_all(&dir);
}
