//! `carcassonne play --players human,...`: a person's answers read from standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `play` with `args`, `input` as standard input.
fn play_with(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before all of the input is read; a closed pipe is not a failure here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_person_plays_a_whole_game_against_a_bot() {
    let svg = std::env::temp_dir().join(format!("carcassonne-human-{}.svg", std::process::id()));
    // The first placement offered, a figure whenever one is, and some bad answers.
    let mut input = String::from("\nnonsense\n99999\n");
    input.push_str(&"1\n1\n".repeat(200));
    let output = play_with(
        &["--players", "human,easy", "--seed", "3", "--svg", svg.to_str().unwrap()],
        &input,
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.starts_with("players: red human, green easy"), "{stdout}");
    assert!(stdout.contains("winner"), "{stdout}");
    assert!(stderr.contains("'nonsense' is not a number from 1 to 6"), "{stderr}");
    assert!(stderr.contains("'99999' is not a number"), "{stderr}");
    assert!(stderr.contains("red, you drew tile"), "{stderr}");
    assert!(stderr.contains("green (easy) laid tile"), "{stderr}");
    assert!(stderr.contains("0. no figure"), "{stderr}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("Game over"), "the picture follows the game to its end");
    let _ = std::fs::remove_file(&svg);
}

#[test]
fn a_person_who_stops_answering_ends_the_game_with_a_message() {
    let output = play_with(&["--players", "easy,human"], "1\n");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("error: standard input ended before the game did"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let output = play_with(&["--players", "human,human"], "q\n");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("error: the game was stopped by its human player"), "{stderr}");
}
