//! `carcassonne analyze`: one position ranked, its heat map, and a whole game reviewed.

mod common;

use common::{fails, ok, scratch};

fn saved_game(dir: &std::path::Path) -> String {
    let save = dir.join("game.json");
    std::fs::write(&save, ok(&["play", "--players", "medium,easy", "--seed", "4", "--json"]))
        .unwrap();
    save.to_str().unwrap().to_owned()
}

#[test]
fn a_turn_is_ranked_with_the_played_move_marked_and_drawn_as_a_heat_map() {
    let dir = scratch("analyze", "turn");
    let save = saved_game(&dir);
    let svg = dir.join("heat.svg");
    let base = ["analyze", &save, "--turn", "12", "--iterations", "1500", "--top", "3"];
    let text = ok(&[&base[..], &["--svg", svg.to_str().unwrap()]].concat());
    assert!(text.contains("compared over 1500 rollouts"), "{text}");
    assert_eq!(text.lines().filter(|line| line.starts_with("  1 ")).count(), 1, "{text}");
    assert!(text.contains("(played)"), "{text}");
    assert!(text.contains("after move 1, on one shuffle of the tiles:"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.matches("class=\"shade\"").count() > 3, "candidate cells are shaded");
    assert_eq!(picture.matches("class=\"suggestion\"").count(), 1);

    // The same seed and budget give the same ranking on one thread as on two.
    let json = |threads: &str| {
        let out = ok(&[&base[..], &["--json", "--threads", threads]].concat());
        let mut value: serde_json::Value = serde_json::from_str(&out).unwrap();
        value.as_object_mut().unwrap().remove("seconds");
        value
    };
    let one = json("1");
    assert_eq!(one, json("2"));
    let moves = one["moves"].as_array().unwrap();
    assert!(moves.len() > 3);
    assert_eq!(moves.iter().filter(|stats| stats["played"] == true).count(), 1);
    assert!(moves[0]["margin"].as_f64().unwrap() >= moves[1]["margin"].as_f64().unwrap());
}

#[test]
fn a_whole_game_is_reviewed() {
    let dir = scratch("analyze", "all");
    let save = saved_game(&dir);
    let text = ok(&["analyze", &save, "--all", "--iterations", "100", "--top", "2"]);
    assert!(text.starts_with("71 turns reviewed, 100 rollouts each"), "{text}");
    assert!(text.contains("the 2 costliest moves:"), "{text}");
    assert_eq!(text.matches("\n    played ").count(), 2, "{text}");
}

#[test]
fn positions_without_a_choice_are_refused() {
    let dir = scratch("analyze", "refused");
    let save = saved_game(&dir);
    let error = fails(&["analyze", &save]);
    assert!(error.contains("the save stops between turns (71 made)"), "{error}");
    let error = fails(&["analyze", &save, "--turn", "0"]);
    assert!(error.contains("turns count from 1"), "{error}");
    let error = fails(&["analyze", &save, "--turn", "72"]);
    assert!(error.contains("the save has 71 turns"), "{error}");
    let error = fails(&["analyze", &save, "--turn", "3", "--seconds=-1"]);
    assert!(error.contains("give a time above 0"), "{error}");
    let error = fails(&["analyze", &save, "--turn", "3", "--iterations", "0"]);
    assert!(error.contains("at least one rollout"), "{error}");
}

/// How many moves are shown does not change the analysis: --top 1 and --top 5 rank the same
/// move first with the same numbers, and every move alike; the race's own --keep may.
#[test]
fn how_many_moves_are_shown_does_not_change_the_ranking() {
    let dir = scratch("analyze", "top");
    let save = saved_game(&dir);
    let ranked = |extra: &[&str]| {
        let args = ["analyze", &save, "--turn", "14", "--iterations", "3000", "--seed", "2"];
        let out = ok(&[&args[..], extra, &["--json"]].concat());
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        let moves = value["moves"].as_array().unwrap().clone();
        // The continuations shown follow --top; the numbers must not.
        moves
            .into_iter()
            .map(|mut stats| {
                stats.as_object_mut().unwrap().remove("continuation");
                stats
            })
            .collect::<Vec<_>>()
    };
    let one = ranked(&["--top", "1"]);
    let five = ranked(&["--top", "5"]);
    assert!(one.len() > 5, "{} moves", one.len());
    for key in ["place", "figure", "margin", "win", "rollouts"] {
        assert_eq!(one[0][key], five[0][key], "{key} of the first move");
    }
    assert_eq!(one, five, "every move, every number");
    assert_eq!(ranked(&["--top", "12"]), five);
    // The table shows one row or five of the same ranking.
    let table = |top: &str| {
        ok(&["analyze", &save, "--turn", "14", "--iterations", "3000", "--seed", "2", "--top", top])
    };
    let (short, long) = (table("1"), table("5"));
    let first_row =
        |text: &str| text.lines().find(|line| line.starts_with("  1 ")).unwrap().to_owned();
    assert_eq!(first_row(&short), first_row(&long));
    assert!(long.lines().any(|line| line.starts_with("  5 ")), "{long}");
    assert!(
        !short.lines().any(|line| line.starts_with("  2 ") && !line.ends_with("(played)")),
        "{short}"
    );
    let refused = common::carcassonne(&["analyze", &save, "--turn", "14", "--keep", "0"]);
    assert_eq!(refused.status.code(), Some(2), "a usage error");
    let error = common::text(&refused.stderr);
    assert!(error.contains("--keep"), "{error}");
}
