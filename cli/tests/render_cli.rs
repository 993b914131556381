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

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Whether `path` holds a PNG (else it must hold SVG).
fn is_png(path: &std::path::Path) -> bool {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(PNG) {
        return true;
    }
    assert!(bytes.starts_with(b"<svg"), "{} is neither PNG nor SVG", path.display());
    false
}

/// Runs a command that must be refused as a usage error (exit code 2, as clap's own) and
/// returns its error output.
fn refused(args: &[&str]) -> String {
    let output = common::carcassonne(args);
    let stderr = common::text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    stderr
}

/// Every command that writes a picture takes its format from the file's name: a .png file
/// gets a PNG, a .svg file SVG, with or without --png where there is one; --png with a .svg
/// name, or a name of a format the tool cannot write, is refused before any work.
#[test]
fn pictures_take_their_format_from_the_file_name() {
    let dir = scratch("render", "formats");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let save = at("game.json");
    std::fs::write(&save, ok(&["play", "--players", "medium,easy", "--seed", "4", "--json"]))
        .unwrap();

    ok(&["render", &save, "-o", &at("board.png")]);
    assert!(is_png(&dir.join("board.png")), "render -o board.png without --png");
    ok(&["render", &save, "-o", &at("board.svg")]);
    assert!(!is_png(&dir.join("board.svg")));
    ok(&["render", &save, "-o", &at("turn.png"), "--turn", "40", "--png"]);
    assert!(is_png(&dir.join("turn.png")), "--png with a .png name, as .ci/run asks");
    ok(&["render", &save, "-o", &at("BOARD.PNG")]);
    assert!(is_png(&dir.join("BOARD.PNG")), "any case");
    ok(&["render", &save, "-o", &at("board"), "--png"]);
    assert!(is_png(&dir.join("board")), "--png decides when the name does not");
    ok(&["render", &save, "-o", &at("board.out")]);
    assert!(!is_png(&dir.join("board.out")), "SVG when neither does");

    let error = refused(&["render", &save, "-o", &at("wrong.svg"), "--png"]);
    assert!(error.contains("--png asks for a PNG, but -o"), "{error}");
    assert!(error.contains("wrong.svg ends in .svg"), "{error}");
    assert!(!dir.join("wrong.svg").exists(), "nothing written");
    let error = refused(&["render", &save, "-o", &at("board.jpg")]);
    assert!(error.contains("cannot write .jpg pictures"), "{error}");

    // analyze --svg: the heat map.
    let analyze = ["analyze", &save, "--turn", "12", "--iterations", "100"];
    ok(&[&analyze[..], &["--svg", &at("heat.png")]].concat());
    assert!(is_png(&dir.join("heat.png")), "analyze --svg heat.png without --png");
    ok(&[&analyze[..], &["--svg", &at("heat2.png"), "--png"]].concat());
    assert!(is_png(&dir.join("heat2.png")), "as .ci/run asks");
    ok(&[&analyze[..], &["--svg", &at("heat.svg")]].concat());
    assert!(!is_png(&dir.join("heat.svg")));
    let error = refused(&[&analyze[..], &["--svg", &at("heat3.svg"), "--png"]].concat());
    assert!(error.contains("--png asks for a PNG, but --svg"), "{error}");

    // replay, play and score --svg, tileset render -o: no --png, the name decides.
    ok(&["replay", &save, "--svg", &at("final.png")]);
    assert!(is_png(&dir.join("final.png")), "replay --svg final.png");
    ok(&["play", "--seed", "2", "--svg", &at("played.png")]);
    assert!(is_png(&dir.join("played.png")), "play --svg played.png");
    ok(&["score", "examples/landscape.json", "--svg", &at("landscape.png")]);
    assert!(is_png(&dir.join("landscape.png")), "score --svg landscape.png");
    ok(&["tileset", "render", "river", "-o", &at("river.png")]);
    assert!(is_png(&dir.join("river.png")), "tileset render -o river.png");
    ok(&["tileset", "render", "river", "-o", &at("river.svg")]);
    assert!(!is_png(&dir.join("river.svg")));
    let error = refused(&["tileset", "render", "river", "-o", &at("river.gif")]);
    assert!(error.contains("cannot write .gif pictures"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}
