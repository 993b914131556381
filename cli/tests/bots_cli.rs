//! `carcassonne play --players BOT,...` and `carcassonne arena`, run as a user runs them.

mod common;

use common::{fails, ok};
use serde_json::Value;

/// A profile file with a search small enough for a debug build.
fn quick_profiles() -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("carcassonne-profiles-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "[[profile]]\nname = \"quick\"\ndescription = \"a small search\"\nkind = \"mcts\"\n\
         mcts = { iterations = 60, playout = { truncated = { turns = 2 } } }\n",
    )
    .unwrap();
    path
}

#[test]
fn bots_play_a_game_that_replays() {
    let profiles = quick_profiles();
    let profiles = profiles.to_str().unwrap();
    let args = ["play", "--players", "quick,medium,random", "--profiles", profiles, "--seed", "4"];
    let report = ok(&args);
    assert!(report.starts_with("players: red quick, green medium, blue random\n"), "{report}");
    assert!(report.contains("\nwinner"), "{report}");
    assert_eq!(ok(&args), report, "the seed fixes the bots' choices");
    let mut json = args.to_vec();
    json.push("--json");
    let saved = ok(&json);
    let file =
        std::env::temp_dir().join(format!("carcassonne-bots-game-{}.json", std::process::id()));
    std::fs::write(&file, &saved).unwrap();
    let replayed = ok(&["replay", file.to_str().unwrap()]);
    assert!(replayed.contains("\nwinner"), "{replayed}");
}

#[test]
fn unknown_and_broken_bots_are_refused() {
    let stderr = fails(&["play", "--players", "medium,grandmaster"]);
    assert!(stderr.contains("grandmaster") && stderr.contains("hard"), "{stderr}");
    let broken =
        std::env::temp_dir().join(format!("carcassonne-broken-{}.toml", std::process::id()));
    std::fs::write(
        &broken,
        "[[profile]]\nname = \"x\"\nkind = \"mcts\"\nmcts = { iterations = 0 }\n",
    )
    .unwrap();
    let stderr = fails(&["arena", "x", "easy", "--profiles", broken.to_str().unwrap()]);
    assert!(stderr.contains("iterations"), "{stderr}");
    let stderr = fails(&["arena", "easy", "random", "medium", "--sprt", "0,50"]);
    assert!(stderr.contains("two entrants"), "{stderr}");
    let stderr = fails(&["arena", "easy", "random", "--threads", "0"]);
    assert!(stderr.contains("--threads"), "{stderr}");
}

/// An arena's JSON report with its times taken out: what a seed fixes.
fn without_times(out: &str) -> Value {
    let mut report: Value = serde_json::from_str(out).unwrap();
    report["seconds"] = Value::Null;
    for entrant in report["entrants"].as_array_mut().unwrap() {
        entrant["ms_per_turn"] = Value::Null;
        entrant["max_ms_per_turn"] = Value::Null;
    }
    report
}

/// The arena's report for a seed is the same on one thread and on three, times aside; its
/// games come in whole deals, and the stronger bot wins.
#[test]
fn the_arena_is_the_same_whatever_the_threads() {
    let run = |threads: &str| -> Value {
        let out = ok(&[
            "arena",
            "medium",
            "random",
            "--games",
            "7",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]);
        without_times(&out)
    };
    let one = run("1");
    assert_eq!(one, run("3"));
    assert_eq!((one["deals"].as_u64(), one["games"].as_u64()), (Some(4), Some(8)));
    assert!(one["entrants"][0]["win_rate"].as_f64() > one["entrants"][1]["win_rate"].as_f64());
    let table = ok(&["arena", "medium", "random", "--games", "2"]);
    assert!(table.contains("medium vs random: pairwise score"), "{table}");
}

/// `--journal`: an arena stopped after some deals goes on from its journal to the report an
/// uninterrupted one gives; a journal of another arena is refused and left as it was.
#[test]
fn an_arena_goes_on_from_its_journal() {
    let journal =
        std::env::temp_dir().join(format!("carcassonne-journal-cli-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&journal);
    let path = journal.to_str().unwrap();
    let arena = |games: &str, seed: &str, journal: Option<&str>| -> Vec<String> {
        let mut args = vec!["arena", "easy", "random", "--games", games, "--seed", seed, "--json"];
        args.extend(journal.map(|path| ["--journal", path]).into_iter().flatten());
        args.into_iter().map(String::from).collect()
    };
    let strip = |out: String| without_times(&out);
    let run = |args: Vec<String>| ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = strip(run(arena("8", "3", None)));
    // The first two deals, as an arena stopped there leaves them.
    let first = strip(run(arena("4", "3", Some(path))));
    assert_eq!(first["deals"].as_u64(), Some(2));
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), 3);
    assert_eq!(strip(run(arena("8", "3", Some(path)))), whole);
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), 5);
    // Everything played: the same report again, nothing appended.
    assert_eq!(strip(run(arena("8", "3", Some(path)))), whole);
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), 5);

    let before = std::fs::read(&journal).unwrap();
    let args = arena("8", "4", Some(path));
    let stderr = fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(stderr.contains("another arena's") && stderr.contains("seed 3"), "{stderr}");
    assert_eq!(std::fs::read(&journal).unwrap(), before);
    std::fs::remove_file(&journal).unwrap();
}

/// `replay` prints who played, as `play` does, from the names `play --json` keeps: the whole
/// report is the same, its `players:` line included; a save whose names do not fit its seats
/// is refused.
#[test]
fn replay_prints_the_players_line_that_play_printed() {
    let args = ["play", "--players", "medium,easy,random", "--seed", "5"];
    let report = ok(&args);
    assert!(report.starts_with("players: red medium, green easy, blue random\n"), "{report}");
    let saved = ok(&[&args[..], &["--json"]].concat());
    let dir = std::env::temp_dir().join(format!("carcassonne-players-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.json");
    std::fs::write(&file, &saved).unwrap();
    assert_eq!(ok(&["replay", file.to_str().unwrap()]), report);

    // Random players have no names: neither play nor replay prints the line.
    let random = ok(&["play", "--players", "2", "--seed", "5"]);
    assert!(!random.contains("players: red"), "{random}");

    for (bad, why) in [
        (r#""players": ["medium","easy"]"#, "players lists 2 names for a game of 3 players"),
        (r#""players": ["medium","easy","a\u001b[2Jb"]"#, "the name of seat 2 is not"),
        (r#""players": ["medium","","random"]"#, "the name of seat 1 is not"),
    ] {
        let edited = saved.replace(r#""players": ["medium","easy","random"]"#, bad);
        assert_ne!(edited, saved);
        std::fs::write(&file, edited).unwrap();
        let stderr = fails(&["replay", file.to_str().unwrap()]);
        assert!(stderr.contains(why), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train-evaluator` writes weights a profile can name, the same on one thread or two, by
/// either method, and `--check` measures them; bad settings are refused.
#[test]
fn train_evaluator_writes_weights_a_profile_uses() {
    let folder = common::scratch("bots", "train_evaluator");
    let path = |name: &str| folder.join(name).to_str().unwrap().to_owned();
    let (one, two) = (path("one.toml"), path("two.toml"));
    let train = |out: &str, threads: &str| {
        ok(&[
            "train-evaluator",
            "--steps",
            "3",
            "--deals",
            "1",
            "--seed",
            "5",
            "--threads",
            threads,
            "-o",
            out,
        ])
    };
    let summary = train(&one, "1");
    assert!(summary.contains("weights written to"), "{summary}");
    train(&two, "2");
    let weights = |file: &str| {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.starts_with("# Learned evaluator weights"), "{text}");
        text.lines().filter(|line| !line.starts_with('#')).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(weights(&one), weights(&two), "the threads change nothing");
    let profiles = path("profiles.toml");
    std::fs::write(
        &profiles,
        format!(
            "[[profile]]\nname = \"mine\"\nkind = \"greedy\"\nevaluator = {{ learned = {:?} }}\n",
            one
        ),
    )
    .unwrap();
    let report = ok(&["arena", "mine", "random", "--profiles", &profiles, "--games", "2"]);
    assert!(report.contains("mine vs random"), "{report}");

    let regression = path("regression.toml");
    let summary = ok(&[
        "train-evaluator",
        "--method",
        "regression",
        "--games",
        "3",
        "--rounds",
        "1",
        "--check",
        "2",
        "-o",
        &regression,
    ]);
    assert!(summary.contains("round 1: 3 games"), "{summary}");
    assert!(summary.contains("check: greedy on these weights"), "{summary}");
    assert!(std::fs::read_to_string(&regression).unwrap().contains("# check: "));

    let error = fails(&["train-evaluator", "--steps", "0", "-o", &path("none.toml")]);
    assert!(error.contains("at least one step"), "{error}");
    std::fs::write(&profiles, "[[profile]]\nname = \"x\"\nkind = \"greedy\"\nevaluator = { learned = \"/nonexistent/w.toml\" }\n").unwrap();
    let error = fails(&["arena", "x", "random", "--profiles", &profiles, "--games", "2"]);
    assert!(error.contains("/nonexistent/w.toml"), "{error}");
}

/// `--bot NAME=COMMAND` plays a program through the bot protocol in `arena` and `play`; a
/// failing one is reported and the games still end.
#[cfg(unix)]
#[test]
fn external_bots_play_from_the_command_line() {
    let script = |name: &str| common::repo_root().join("bots/tests/external").join(name);
    let first = format!("first=sh {}", script("first_legal.sh").display());
    let report = ok(&["arena", "first", "random", "--bot", &first, "--games", "2"]);
    assert!(report.contains("first vs random"), "{report}");
    assert!(!report.contains("moves lost"), "{report}");
    let quitter = format!("quitter=sh {} exit", script("faulty.sh").display());
    let report =
        ok(&["arena", "quitter", "random", "--bot", &quitter, "--bot-ms", "500", "--games", "2"]);
    assert!(report.contains("bot quitter: "), "{report}");
    assert!(report.contains("exited"), "{report}");
    let output = common::carcassonne(&["play", "--players", "quitter,random", "--bot", &quitter]);
    assert!(output.status.success());
    let stderr = common::text(&output.stderr);
    assert!(stderr.contains("bot quitter: ") && stderr.contains("moves lost"), "{stderr}");
    for bad in ["noequals", "a b=sh x", "=sh x", "x=sh 'unclosed"] {
        let error = fails(&["arena", "x", "random", "--bot", bad, "--games", "2"]);
        assert!(error.contains("--bot"), "{bad}: {error}");
    }
}
