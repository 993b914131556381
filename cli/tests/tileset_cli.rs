//! The `carcassonne tileset` subcommands, run as a user runs them.

mod common;

use common::{carcassonne, repo_root, text};

#[test]
fn check_accepts_every_builtin_file() {
    let output = carcassonne(&[
        "tileset",
        "check",
        "tilesets/base.toml",
        "tilesets/base_c2.toml",
        "tilesets/river.toml",
        "tilesets/inns_and_cathedrals.toml",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("ok: tilesets/base.toml: set `base`, 24 tile types, 72 tiles"));
    assert_eq!(stdout.lines().count(), 4);
}

#[test]
fn check_reports_every_problem_of_every_file_and_fails() {
    let output = carcassonne(&[
        "tileset",
        "check",
        "tests/dsl/invalid/uncovered.toml",
        "tilesets/base.toml",
        "tests/dsl/invalid/unknown_half_edge.toml",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    let expected_uncovered =
        std::fs::read_to_string(repo_root().join("tests/dsl/invalid/uncovered.expected")).unwrap();
    let expected_half =
        std::fs::read_to_string(repo_root().join("tests/dsl/invalid/unknown_half_edge.expected"))
            .unwrap();
    assert!(stderr.contains(&expected_uncovered), "{stderr}");
    assert!(stderr.contains(&expected_half), "{stderr}");
    assert!(stderr.contains("tests/dsl/invalid/uncovered.toml: 3 problems"));
    assert!(text(&output.stdout).contains("ok: tilesets/base.toml"));
}

#[test]
fn check_of_a_missing_file_says_so() {
    let output = carcassonne(&["tileset", "check", "no/such/file.toml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("cannot read no/such/file.toml"));
}

#[test]
fn export_json_is_the_catalog() {
    let output = carcassonne(&["tileset", "export", "inns_and_cathedrals", "--format", "json"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["set"]["id"], "inns_and_cathedrals");
    let tiles = json["tiles"].as_array().unwrap();
    let total: u64 = tiles.iter().map(|tile| tile["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 18);
    let inns = tiles
        .iter()
        .flat_map(|tile| tile["segments"].as_array().unwrap())
        .filter(|segment| segment["marks"].as_array().unwrap().iter().any(|mark| mark == "inn"))
        .count();
    assert_eq!(inns, 6);
}

#[test]
fn export_toml_of_a_file_reloads() {
    let dir = std::env::temp_dir().join(format!("carcassonne-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exported = dir.join("river.toml");
    let output = carcassonne(&[
        "tileset",
        "export",
        "tilesets/river.toml",
        "--format",
        "toml",
        "-o",
        exported.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let check = carcassonne(&["tileset", "check", exported.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert!(text(&check.stdout).contains("12 tiles"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn render_writes_an_svg_with_every_tile() {
    let dir = std::env::temp_dir().join(format!("carcassonne-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("base.svg");
    let output = carcassonne(&["tileset", "render", "base", "-o", svg.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let sheet = std::fs::read_to_string(&svg).unwrap();
    assert!(sheet.starts_with("<svg") || sheet.starts_with("<?xml"));
    assert!(sheet.trim_end().ends_with("</svg>"));
    for id in "ABCDEFGHIJKLMNOPQRSTUVWX".chars() {
        assert!(sheet.contains(&format!(">{id}<")), "tile {id} is not labelled");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unknown_set_name_is_a_clear_error() {
    let output = carcassonne(&["tileset", "export", "basic"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("`basic` is not a built-in tile set (base, base_c2,"), "{stderr}");
}

#[test]
fn list_names_the_builtin_sets() {
    let output = carcassonne(&["tileset", "list"]);
    assert!(output.status.success());
    let stdout = text(&output.stdout);
    for name in ["base", "base_c2", "river", "inns_and_cathedrals"] {
        assert!(stdout.contains(name));
    }
}
