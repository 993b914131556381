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
    assert_eq!(output.status.code(), Some(1), "the two base games clash");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("ok: tilesets/base.toml: set `base`, 24 tile types, 72 tiles"));
    assert_eq!(stdout.lines().count(), 4);
    let stderr = text(&output.stderr);
    assert!(
        stderr.lines().all(|line| line.starts_with("error[dsl-sets-clash]: tilesets/base.toml + ")
            || line.ends_with(" clashes")),
        "{stderr}"
    );
    assert!(stderr.contains("tile id `A` is in both `base` and `base_c2`"), "{stderr}");

    // Each alone, as a folder of alternatives is checked.
    let mut each = vec!["tileset", "check", "--each"];
    let files = std::fs::read_dir(repo_root().join("tilesets"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| format!("tilesets/{}", path.file_name().unwrap().to_string_lossy()))
        .collect::<Vec<_>>();
    each.extend(files.iter().map(String::as_str));
    let output = carcassonne(&each);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).lines().count(), files.len());
}

/// Sets each valid that a game could not combine: every clash, with its code, and a failure;
/// sets that combine say so.
#[test]
fn check_of_sets_together_reports_every_clash() {
    let folder = "tests/dsl/together/marks_and_tiebreaks";
    let (a, b) = (format!("{folder}/a.toml"), format!("{folder}/b.toml"));
    let output = carcassonne(&["tileset", "check", &a, &b]);
    assert_eq!(output.status.code(), Some(1));
    let expected = std::fs::read_to_string(repo_root().join(format!("{folder}.expected"))).unwrap();
    let stderr = text(&output.stderr);
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains(": 3 clashes"), "{stderr}");
    let output = carcassonne(&["tileset", "check", "base", "inns_and_cathedrals", "cathars"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout)
            .contains("ok: base + inns_and_cathedrals + cathars: the sets play together")
    );
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
