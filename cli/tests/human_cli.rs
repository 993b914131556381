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

/// A standard stream whose reader has gone: a pipe with its reading end closed.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

/// The exit code of `carcassonne args`, fed `input`, with standard output or error (or both)
/// going to a pipe nobody reads. A panic would exit with 101.
fn exit_code_with_closed(args: &[&str], input: &str, stdout: bool, stderr: bool) -> Option<i32> {
    let pick = |closed: bool| if closed { closed_pipe() } else { Stdio::null() };
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(pick(stdout))
        .stderr(pick(stderr))
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait().unwrap().code()
}

/// A person's questions go to standard error; when nobody reads it any more, the game ends
/// quietly with exit code 1, never a panic (101) from printing the error about it. The same
/// holds for every command's messages and reports.
#[test]
fn a_closed_standard_error_or_output_ends_the_program_quietly() {
    let answers = "1\n1\n".repeat(200);
    let human = ["play", "--players", "human,easy", "--seed", "3"];
    assert_eq!(exit_code_with_closed(&human, &answers, false, true), Some(1));
    assert_eq!(exit_code_with_closed(&human, &answers, true, true), Some(1));
    // Errors, diagnostics and progress on a closed standard error.
    let invalid = ["tileset", "check", "tests/dsl/invalid/uncovered.toml"];
    assert_eq!(exit_code_with_closed(&invalid, "", false, true), Some(1));
    let missing = ["replay", "no/such/save.json"];
    assert_eq!(exit_code_with_closed(&missing, "", false, true), Some(1));
    let sheet = std::env::temp_dir().join(format!("carcassonne-closed-{}.svg", std::process::id()));
    let render = ["tileset", "render", "base", "-o", sheet.to_str().unwrap()];
    assert_eq!(exit_code_with_closed(&render, "", false, true), Some(0));
    let _ = std::fs::remove_file(&sheet);
    assert_eq!(exit_code_with_closed(&["--no-such-flag"], "", false, true), Some(2));
    // Reports on a closed standard output: a closed pipe (`| head`) ends them, as it does
    // any Unix tool's.
    assert_eq!(exit_code_with_closed(&["play"], "", true, false), Some(0));
    assert_eq!(exit_code_with_closed(&["tileset", "export", "base"], "", true, false), Some(0));
    assert_eq!(exit_code_with_closed(&["--help"], "", true, true), Some(0));
}
