//! Every arena journal under `bots/measurements/` still belongs to the bots and the setup its
//! command names, and the figure it gives is the one README.md quotes: its command, with
//! `--journal` on a copy of the file and `--games` twice its deals, prints the report
//! without playing a game, and the Elo line of that report is in the README.
//!
//! A change to a built-in or measured profile, to a set's tiles or to the rules that changes
//! the journal's fingerprint is refused by the arena; a figure copied wrongly into the
//! README, or left there after its journal was played again, is named here.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every set together, as the README's per-set tables play it.
const EVERY_SET: &str = "base,river_ii,inns_and_cathedrals,traders_and_builders,hills_and_sheep,king_and_robber,cult,cathars";

/// A journal's reading: the longest a report from a journal may take; playing one game of
/// `expert` takes longer, so a journal that would need a game played is caught.
const REPORT_LIMIT: Duration = Duration::from_secs(20);

fn journals(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            journals(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "jsonl") {
            found.push(path);
        }
    }
}

/// The arena's arguments for the journal at `relative` (under `bots/measurements/`), as
/// `bots/measurements/README.md` gives them, less `--games` and `--journal`.
fn arena_arguments(relative: &Path) -> Vec<String> {
    let folder = relative.parent().and_then(Path::to_str).unwrap_or("");
    let stem = relative.file_stem().unwrap().to_str().unwrap();
    let mut words = stem.splitn(3, '-');
    let first = words.next().unwrap().to_owned();
    let second = words.next().unwrap_or_else(|| panic!("{stem}: no second entrant")).to_owned();
    let set = words.next();
    let mut arguments = vec!["arena".to_owned(), first, second.clone()];
    let profiles = match folder {
        "ablations" => Some("ablations.toml"),
        "time" => Some("time.toml"),
        "margin" => Some("expert-margin.toml"),
        _ if second == "handset" => Some("handset.toml"),
        "" | "sets" => None,
        other => panic!("{stem}: no command is known for the folder {other}"),
    };
    if let Some(file) = profiles {
        arguments.push("--profiles".into());
        arguments.push(format!("bots/profiles/measure/{file}"));
    }
    match set {
        None => {}
        Some("base_c2") => arguments.extend(["--sets".into(), "base_c2".into(), "--abbots".into()]),
        Some("all") => arguments.extend(["--sets".into(), EVERY_SET.into(), "--abbots".into()]),
        Some(set) => arguments.extend(["--sets".into(), format!("base,{set}")]),
    }
    arguments.extend(["--threads", "1", "--seed", "2026"].map(String::from));
    arguments
}

/// The deals `0..n` a journal holds, in whatever order its threads wrote them: the deals a
/// report of `--games` twice their count reads without playing.
fn deals_from_the_first(journal: &str) -> u64 {
    let held: std::collections::HashSet<u64> = journal
        .lines()
        .skip(1)
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["deal"].as_u64().unwrap()
        })
        .collect();
    (0..).find(|deal| !held.contains(deal)).unwrap()
}

/// Runs `carcassonne` with `arguments` from the repository's top, killed past the limit.
fn report(arguments: &[String]) -> Result<String, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(arguments)
        .current_dir(common::repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > REPORT_LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            return Err(format!("still running after {REPORT_LIMIT:?}: it plays games"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    if output.status.success() {
        Ok(common::text(&output.stdout))
    } else {
        Err(common::text(&output.stderr))
    }
}

/// The Elo line's figure as the README writes it: `Elo -78 (95% -143 – -17)` is
/// `−78 (−143 to −17)`, with the minus sign.
fn readme_figure(report: &str) -> Option<String> {
    let line = report.lines().find(|line| line.contains(", Elo "))?;
    let elo = line.split(", Elo ").nth(1)?;
    let (value, interval) = elo.split_once(" (95% ")?;
    let (low, high) = interval.trim_end_matches(')').split_once(" – ")?;
    let sign = |figure: &str| figure.replace('-', "−");
    Some(format!("{} ({} to {})", sign(value), sign(low), sign(high)))
}

#[test]
fn every_journal_replays_to_the_figure_the_readme_quotes() {
    let root = common::repo_root();
    let measurements = root.join("bots/measurements");
    // A figure may be wrapped across lines of the README's prose.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let scratch = common::scratch("measurements", "replay");
    let mut found = Vec::new();
    journals(&measurements, &mut found);
    found.sort();
    assert!(found.len() >= 60, "only {} journals under {}", found.len(), measurements.display());
    let mut wrong = Vec::new();
    for path in &found {
        let relative = path.strip_prefix(&measurements).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let deals = deals_from_the_first(&text);
        let copy = scratch.join("journal.jsonl");
        std::fs::write(&copy, &text).unwrap();
        let mut arguments = arena_arguments(relative);
        arguments.extend(["--games".into(), (2 * deals).to_string()]);
        arguments.extend(["--journal".into(), copy.display().to_string()]);
        let figure = report(&arguments).map(|report| readme_figure(&report));
        match figure {
            Err(error) => {
                wrong.push(format!("{}: {}: {error}", relative.display(), arguments.join(" ")))
            }
            Ok(None) => wrong.push(format!("{}: the report has no Elo line", relative.display())),
            Ok(Some(figure)) if !readme.contains(&figure) => wrong.push(format!(
                "{}: Elo {figure} over {} games is not in README.md",
                relative.display(),
                2 * deals
            )),
            Ok(Some(_)) => {}
        }
        // Nothing is written to a journal that holds every deal asked for.
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), text, "{}", relative.display());
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    assert!(wrong.is_empty(), "{} of {} journals:\n{}", wrong.len(), found.len(), wrong.join("\n"));
}

#[test]
fn a_negative_figure_is_written_with_the_minus_sign() {
    let report =
        "c005 vs greedy: pairwise score 0.390 (95% 0.305 – 0.475), Elo -78 (95% -143 – -17)";
    assert_eq!(readme_figure(report).unwrap(), "−78 (−143 to −17)");
    let report =
        "expert vs hard: pairwise score 0.720 (95% 0.651 – 0.789), Elo +164 (95% +108 – +230)";
    assert_eq!(readme_figure(report).unwrap(), "+164 (+108 to +230)");
}
