//! The `carcassonne play`, `replay` and `score` commands, run as a user runs them.

mod common;

use std::path::PathBuf;

use common::{carcassonne, fails, ok, text};
use serde_json::Value;

/// `play --json` with extra arguments, parsed.
fn play_json(args: &[&str]) -> Value {
    let mut all = vec!["play", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).unwrap()
}

fn events(game: &Value) -> &Vec<Value> {
    game["events"].as_array().unwrap()
}

/// The `feature_scored` events, optionally only those paid to farmers.
fn scored(game: &Value) -> Vec<&Value> {
    events(game).iter().filter(|event| event["event"] == "feature_scored").collect()
}

/// The id of the declared rule that set a `feature_scored` event's value (`none`: plain), as
/// the game's `rules` list names the event's rule number.
fn rule_id(game: &Value, event: &Value) -> String {
    event["rule"]
        .as_u64()
        .map_or("none".into(), |rule| game["rules"][rule as usize].as_str().unwrap().to_owned())
}

fn farmer_scores(game: &Value) -> Vec<&Value> {
    scored(game).into_iter().filter(|event| event["farmers"] == true).collect()
}

fn scores(game: &Value) -> Vec<u64> {
    game["scores"].as_array().unwrap().iter().map(|score| score.as_u64().unwrap()).collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("carcassonne-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One seed must fix the whole game, tiles and choices, or a reported game could not be
/// reproduced: two runs print the same bytes, and another seed prints another game.
#[test]
fn play_is_deterministic_for_a_seed() {
    let first = ok(&["play", "--seed", "7"]);
    assert_eq!(first, ok(&["play", "--seed", "7"]));
    assert_ne!(first, ok(&["play", "--seed", "8"]));
    let json = ok(&["play", "--seed", "7", "--json"]);
    assert_eq!(json, ok(&["play", "--seed", "7", "--json"]));
}

/// The report is what a reader follows: every placed tile gets a move line, the board comes
/// with its legend, and the end-of-game scores and the winner are named.
#[test]
fn play_prints_moves_board_and_final_scores() {
    let report = ok(&["play"]);
    assert!(report.starts_with("carcassonne: base; 2 players; seed 0\n"), "{report}");
    assert!(report.contains("start tile D at (0, 0)"));
    let game = play_json(&[]);
    let placed = events(&game).iter().filter(|event| event["event"] == "tile_placed").count();
    let is_move = |line: &&str| {
        let line = line.trim_start();
        line.split_once(". ").is_some_and(|(number, rest)| {
            number.parse::<u32>().is_ok() && (rest.starts_with("red") || rest.starts_with("green"))
        })
    };
    let moves = report.lines().filter(is_move).count();
    assert_eq!(moves, placed, "one line per placed tile");
    assert_eq!(placed, 71, "every tile but the start tile is placed in this game");
    assert!(report.contains("\nlegend: # city"));
    assert!(report.contains("\nend of game\n"));
    let winners: Vec<u64> =
        game["winners"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
    // Players are named by the colours of the base game, red and green.
    let colours = ["red", "green"];
    let named: Vec<&str> = winners.iter().map(|p| colours[*p as usize]).collect();
    assert!(report.contains(&format!("winner: {}", named.join(", "))), "{report}");
    assert!(report.contains("players: 0 red, 1 green"), "{report}");
    let total: u64 = scores(&game).iter().sum();
    assert!(total > 0);
    for (player, score) in scores(&game).iter().enumerate() {
        let colour = colours[player];
        let row = report.lines().find(|line| line.starts_with(&format!("  {colour} ")));
        let row = row.unwrap_or_else(|| panic!("no points row for player {player}"));
        let total = row.split_whitespace().filter_map(|cell| cell.parse::<u64>().ok()).next_back();
        assert_eq!(total, Some(*score), "the last column is the total: {row}");
    }
}

/// A saved game is only useful if it loads: the `--json` output replays to the same final
/// scores, prints the same report as the game itself, and is also a save the library loads.
#[test]
fn json_output_replays_to_the_same_game() {
    let dir = temp_dir("replay");
    for (seed, sets) in [("3", "base"), ("4", "base,river,inns_and_cathedrals")] {
        let args = ["play", "--seed", seed, "--tilesets", sets, "--players", "3", "--abbots"];
        let json = ok(&[&args[..], &["--json"]].concat());
        let file = dir.join(format!("game-{seed}.json"));
        std::fs::write(&file, &json).unwrap();
        let replayed = ok(&["replay", file.to_str().unwrap()]);
        assert_eq!(replayed, ok(&args), "replay prints the report play printed");

        let mut document: Value = serde_json::from_str(&json).unwrap();
        let recorded = scores(&document);
        assert_eq!(recorded.len(), 3);
        let fields = document.as_object_mut().unwrap();
        for key in ["marks", "rules", "events", "scores", "winners"] {
            fields.remove(key);
        }
        let game: carcassonne::Game = serde_json::from_value(document).unwrap();
        let library: Vec<u64> = game.scores().iter().map(|s| u64::from(*s)).collect();
        assert_eq!(library, recorded);
        assert!(game.is_over());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A save is checked, not trusted: a refused action is named by its index and reason, and
/// recorded scores or events the replay does not reproduce are refused.
#[test]
fn replay_refuses_bad_saves() {
    let stderr = fails(&["replay", "cli/tests/data/refused_action.json"]);
    assert!(stderr.contains("action 1 was refused: no tile lies next to (5, 5)"), "{stderr}");

    let dir = temp_dir("tampered");
    let mut game = play_json(&["--seed", "2"]);
    game["scores"][0] = Value::from(scores(&game)[0] + 1);
    let file = dir.join("scores.json");
    std::fs::write(&file, game.to_string()).unwrap();
    let stderr = fails(&["replay", file.to_str().unwrap()]);
    assert!(stderr.contains("recorded scores"), "{stderr}");

    let mut game = play_json(&["--seed", "2"]);
    let drawn = game["events"][0]["tile"].as_u64().unwrap();
    game["events"][0]["tile"] = Value::from((drawn + 1) % 24);
    std::fs::write(&file, game.to_string()).unwrap();
    let stderr = fails(&["replay", file.to_str().unwrap()]);
    assert!(stderr.contains("recorded events differ from the replay's from event 0"), "{stderr}");

    std::fs::write(&file, "not json").unwrap();
    assert!(fails(&["replay", file.to_str().unwrap()]).contains("is not JSON"));
    assert!(fails(&["replay", "no/such/save.json"]).contains("cannot read no/such/save.json"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A save of an unfinished game (as the library writes it, without events) still replays,
/// and the report says the game is not over instead of naming a winner.
#[test]
fn replay_of_an_unfinished_game_says_so() {
    let dir = temp_dir("unfinished");
    let file = dir.join("one_draw.json");
    std::fs::write(
        &file,
        r#"{"format":1,"setup":{"tilesets":["base"],"players":2},"actions":[{"action":"draw"}]}"#,
    )
    .unwrap();
    let report = ok(&["replay", file.to_str().unwrap()]);
    assert!(report.contains("the game is not over: 70 tiles left, red to play"), "{report}");
    assert!(!report.contains("winner"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Without farmers no follower may go on a field, so no field scores; the option must reach
/// the rules, not just the header.
#[test]
fn no_farmers_means_no_farmer_and_no_field_score() {
    let with = play_json(&[]);
    assert!(!farmer_scores(&with).is_empty(), "seed 0 has farmers by default");
    let without = play_json(&["--no-farmers"]);
    assert_eq!(without["setup"]["options"]["farmers"], false);
    assert!(farmer_scores(&without).is_empty());
    let report = ok(&["play", "--no-farmers"]);
    assert!(!report.contains("a farmer on"), "{report}");
    assert!(report.contains("rules: farmers off, tiny city"), "no farm scoring without farmers");
    assert!(ok(&["play"]).contains("a farmer on the field"));
}

/// The three ways fields score: the options change no legal action, so the same seed plays
/// the same game and only the farmers' entries differ: 3 per city in a field, at most once
/// per player and city, or 4 per city to the farmers around it.
#[test]
fn farm_scoring_changes_only_the_farmers_pay() {
    let per_field = play_json(&["--farm-scoring", "per_field"]);
    assert_eq!(per_field, play_json(&[]), "per_field is the default");
    for entry in farmer_scores(&per_field) {
        assert_eq!(entry["kind"], "field");
        assert_eq!(entry["points"], 3 * entry["cities"].as_u64().unwrap());
    }
    let once = play_json(&["--farm-scoring", "per_field_once"]);
    assert_eq!(once["actions"], per_field["actions"]);
    assert_eq!(once["setup"]["options"]["farm_scoring"], "per_field_once");
    for entry in farmer_scores(&once) {
        assert_eq!(entry["scorers"].as_array().unwrap().len(), 1, "one entry per scorer");
    }
    let per_city = play_json(&["--farm-scoring", "per_city_4"]);
    assert_eq!(per_city["actions"], per_field["actions"]);
    let paid = farmer_scores(&per_city);
    assert!(!paid.is_empty());
    for entry in paid {
        assert_eq!(entry["kind"], "city");
        assert_eq!(entry["points"], 4);
    }
}

/// Seed 0 completes a two-tile city with a follower in it: 4 points normally, 2 under the
/// first edition's tiny-city rule.
#[test]
fn tiny_city_halves_a_two_tile_city() {
    let city = |game: &Value| {
        scored(game)
            .into_iter()
            .find(|e| e["kind"] == "city" && e["reason"] == "completed" && e["tiles"] == 2)
            .cloned()
            .expect("a completed two-tile city")
    };
    let (plain_game, tiny_game) = (play_json(&[]), play_json(&["--tiny-city"]));
    let (plain, tiny) = (city(&plain_game), city(&tiny_game));
    assert_eq!((plain["points"].clone(), rule_id(&plain_game, &plain)), (4.into(), "none".into()));
    assert_eq!(
        (tiny["points"].clone(), rule_id(&tiny_game, &tiny)),
        (2.into(), "tiny_city".into())
    );
}

/// With Inns & Cathedrals, seed 0 leaves a follower on an unfinished road with an inn: 0
/// points under the published rule, 1 per tile with the house rule.
#[test]
fn unfinished_inns_score_zero_or_normally() {
    let sets = ["--tilesets", "base,inns_and_cathedrals"];
    let zero = play_json(&sets);
    let normal = play_json(&[&sets[..], &["--inn-cathedral-unfinished", "normal"]].concat());
    assert_eq!(zero["actions"], normal["actions"]);
    let marked = |game: &Value| {
        scored(game).into_iter().filter(|e| rule_id(game, e).starts_with("unfinished_")).count()
    };
    assert!(marked(&zero) > 0);
    for entry in scored(&zero).into_iter().filter(|e| rule_id(&zero, e) == "unfinished_inn") {
        assert_eq!(entry["points"], 0);
    }
    assert_eq!(marked(&normal), 0);
    let (zero_total, normal_total): (u64, u64) =
        (scores(&zero).iter().sum(), scores(&normal).iter().sum());
    assert!(normal_total > zero_total, "{normal_total} > {zero_total}");
}

/// Abbots exist only with the option: seed 0 then places one and recalls it.
#[test]
fn abbots_only_with_the_option() {
    let with = ok(&["play", "--abbots"]);
    assert!(with.contains("an abbot on the monastery"), "{with}");
    assert!(with.contains("recalls the abbot from"));
    assert!(with.contains("abbot recalled"));
    let without = play_json(&[]);
    assert!(!without["actions"].to_string().contains("abbot"));
}

/// Players and tile sets: three players score three totals, and with the River the spring
/// starts the game and river tiles come first.
#[test]
fn players_and_tilesets_shape_the_game() {
    let three = play_json(&["--players", "3"]);
    assert_eq!(scores(&three).len(), 3);
    let report = ok(&["play", "--tilesets", "base,river"]);
    assert!(report.contains("start tile river_spring at (0, 0)"), "{report}");
    assert!(report.contains("  1. red    tile river_"), "{report}");
    let river = play_json(&["--tilesets", "river,base"]);
    assert_eq!(river["setup"]["tilesets"], serde_json::json!(["river", "base"]));
    let file = ok(&["play", "--tilesets", "tilesets/base.toml", "--seed", "1"]);
    assert_eq!(file, ok(&["play", "--seed", "1"]), "a file loads as the built-in it holds");
}

/// Six players with every set at once: the bots deploy every figure, the report narrates
/// what the sets bring, and the saved game replays to the same winner.
#[test]
fn six_players_play_every_set_with_every_figure() {
    let sets = "river,base,inns_and_cathedrals,cathars,traders_and_builders,hills_and_sheep,\
                king_and_robber,cult";
    let players = "medium,greedy,easy,random,greedy,easy";
    let args = ["--players", players, "--tilesets", sets, "--seed", "3", "--abbots"];
    let game = play_json(&args);
    assert_eq!(scores(&game).len(), 6);
    let placed: std::collections::BTreeSet<&str> = events(&game)
        .iter()
        .filter(|event| event["event"] == "figure_placed")
        .filter_map(|event| event["figure"].as_str())
        .collect();
    for figure in ["follower", "big_follower", "abbot", "builder", "pig", "shepherd"] {
        assert!(placed.contains(figure), "no {figure} deployed: {placed:?}");
    }
    let kinds: std::collections::BTreeSet<&str> =
        events(&game).iter().filter_map(|event| event["event"].as_str()).collect();
    for kind in ["tile_hidden", "token_drawn", "tokens_taken", "title_taken"] {
        assert!(kinds.contains(kind), "no {kind} event: {kinds:?}");
    }
    let dir = temp_dir("every-set");
    let save = dir.join("game.json");
    std::fs::write(&save, serde_json::to_string(&game).unwrap()).unwrap();
    let mut all = vec!["play"];
    all.extend_from_slice(&args);
    let report = ok(&all);
    assert!(report.contains("hides a tile under the hill"), "{report}");
    let replayed = ok(&["replay", save.to_str().unwrap()]);
    let winner = report.lines().last().unwrap_or_default();
    assert!(winner.starts_with("winner") && replayed.contains(winner), "{replayed}");
    std::fs::remove_dir_all(dir).ok();
}

/// A wrong set name or an impossible setup is a message and exit code 1, never a panic.
#[test]
fn bad_setups_fail_with_a_message() {
    let stderr = fails(&["play", "--tilesets", "basic"]);
    assert!(stderr.contains("`basic` is not a built-in tile set (base, base_c2"), "{stderr}");
    let stderr = fails(&["play", "--players", "1"]);
    assert!(stderr.contains("a game needs at least 2 players, not 1"), "{stderr}");
    let stderr = fails(&["play", "--players", "6"]);
    assert!(stderr.contains("6 players is too many"), "{stderr}");
    let stderr = fails(&["play", "--tilesets", "base,base_c2"]);
    assert!(stderr.contains("tile id `A` is in both `base` and `base_c2`"), "{stderr}");
    let stderr = fails(&["play", "--tilesets", "river"]);
    assert!(stderr.contains("no followers"), "{stderr}");
    let stderr = fails(&["play", "--tilesets", "tests/dsl/invalid/uncovered.toml"]);
    assert!(stderr.contains("error[dsl-half-edge-uncovered]"), "{stderr}");
    let output = carcassonne(&["play", "--farm-scoring", "per_city"]);
    assert_eq!(output.status.code(), Some(2), "clap refuses unknown values");
    assert!(text(&output.stderr).contains("per_city_4"));
}

/// `score` output for a landscape file and flags.
fn landscape(args: &[&str]) -> Value {
    let mut all = vec!["score"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).unwrap()
}

fn totals(score: &Value) -> Vec<u64> {
    score["total"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).collect()
}

/// examples/landscape.json, worked out by hand from docs/rules.md. Tiles: D at (0,0) (city N,
/// road W–E); E turned 180 at (0,1) (its city faces south onto D's); monasteries with a road
/// (A) at (1,0) turned 90 and at (-1,0) turned 270, both roads facing D; M (diagonal city
/// with pennant) turned 90 at (1,1), city open to N and E.
///
/// - road A–D–A, closed by both monasteries: 3 tiles × 1 = 3 to player 1 (follower on D);
/// - city D+E, closed: 2 tiles × 2 = 4 to player 0;
/// - city M, open: 1 tile + 1 pennant = 2 to player 0;
/// - monastery (1,0) with D, E and M around it: 1 + 3 = 4 to player 0;
/// - monastery (-1,0) with D and E around it: 1 + 2 = 3 to player 1's abbot;
/// - one field runs through every tile (the monasteries' fields go round their road ends
///   and join D's two fields; M's and E's fields touch the east monastery's and each
///   other's): it borders the closed city D+E once (M's city is open), so 3 points; player
///   0's big follower (strength 2) beats player 1's farmer (1): 3 to player 0.
///
/// Player 0: 4 + 2 + 4 + 3 = 13; player 1: 3 + 3 = 6.
#[test]
fn score_of_the_example_landscape_is_worked_out_by_hand() {
    let score = landscape(&["examples/landscape.json"]);
    assert_eq!(totals(&score), [13, 6]);
    let points: Vec<(String, u64)> = score["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap().to_string(), f["points"].as_u64().unwrap()))
        .collect();
    let expected = [("road", 3), ("city", 4), ("city", 2), ("monastery", 4), ("monastery", 3)];
    let expected: Vec<(String, u64)> =
        expected.iter().map(|(k, p)| (k.to_string(), *p)).chain([("field".into(), 3)]).collect();
    assert_eq!(points, expected);
}

/// The flags change exactly what they name, on the same landscape:
/// - `--no-farmers`: the field's 3 go: [13 − 3, 6] = [10, 6];
/// - `--tiny-city`: city D+E is two tiles, 1 per tile: 4 → 2, so [11, 6];
/// - `--farm-scoring per_city_4`: the one closed city pays 4 to the farmers' majority
///   around it (player 0, 2 against 1) instead of 3: [14, 6];
/// - `--claim-all`: every feature for player 0, figures or not: 3 + 4 + 2 + 4 + 3 + 3 = 19.
#[test]
fn score_flags_change_what_they_name() {
    let file = "examples/landscape.json";
    assert_eq!(totals(&landscape(&[file, "--no-farmers"])), [10, 6]);
    assert_eq!(totals(&landscape(&[file, "--tiny-city"])), [11, 6]);
    assert_eq!(totals(&landscape(&[file, "--farm-scoring", "per_city_4"])), [14, 6]);
    assert_eq!(totals(&landscape(&[file, "--claim-all"])), [19]);
    assert_eq!(totals(&landscape(&[file, "--pennant-value", "5"])), [13, 6], "M is open");
}

/// cli/tests/data/pennant_city.json: M (city N and W, pennant) at (0,0), closed by two city
/// caps E at (0,1) turned 180 and at (-1,0) turned 90; player 2's follower in it. Closed
/// city of 3 tiles and 1 pennant: 3 × 2 + 1 × 2 = 8; with `--pennant-value 5`: 6 + 5 = 11.
/// Totals run from player 0 to the highest player with a figure.
#[test]
fn pennant_value_changes_a_closed_city() {
    let file = "cli/tests/data/pennant_city.json";
    assert_eq!(totals(&landscape(&[file])), [0, 0, 8]);
    assert_eq!(totals(&landscape(&[file, "--pennant-value", "5"])), [0, 0, 11]);
}

/// Landscapes no table could hold are refused with the tile or figure named, never scored
/// and never a panic.
#[test]
fn bad_landscapes_fail_with_a_message() {
    let cases = [
        ("unknown_tile", "tile 1: no tile set in use has a tile `Z`"),
        ("overlapping_tiles", "tile 2: a tile already lies at (0, 0)"),
        ("mismatched_edges", "tile 1: the W edge at (1, 0) is field but the neighbouring"),
        ("bad_rotation", "rotation must be 0, 90, 180 or 270 degrees, not 45 at line 3"),
        ("abbot_on_city", "figure 0: a"),
    ];
    for (name, message) in cases {
        let file = format!("cli/tests/data/{name}.json");
        let stderr = fails(&["score", &file]);
        assert!(stderr.contains(&format!("{file}: {message}")), "{name}: {stderr}");
    }
    assert!(
        fails(&["score", "cli/tests/data/abbot_on_city.json"])
            .contains("abbot cannot stand on a city")
    );
    assert!(fails(&["score", "no/such/landscape.json"]).contains("cannot read"));
}
