//! Golden tests: every invalid tile set under `tests/dsl/invalid/` next to the exact
//! diagnostics it must produce (`NAME.expected`). Run with `BLESS=1` to rewrite the expected
//! files after an intended change of wording, then review the diff.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use carcassonne::{Catalog, Code};

const DIR: &str = "tests/dsl/invalid";
/// Sets that are each valid and clash when played together: a folder of files per case.
const TOGETHER: &str = "tests/dsl/together";

fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter_map(|name| name.strip_suffix(".toml").map(str::to_owned))
        .collect();
    names.sort();
    names
}

fn diagnostics_of(name: &str) -> carcassonne::Diagnostics {
    let file = format!("{DIR}/{name}.toml");
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file)).unwrap();
    match Catalog::from_toml(&file, &text) {
        Ok(_) => panic!("{file} loaded, but it is meant to be invalid"),
        Err(diagnostics) => diagnostics,
    }
}

/// `actual` against `DIR/NAME.expected` under `dir`: the difference, or `None` when they are
/// the same. With `BLESS` set, the file is rewritten instead.
fn golden(dir: &str, name: &str, actual: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(format!("{name}.expected"));
    if std::env::var_os("BLESS").is_some() {
        fs::write(&path, actual).unwrap();
        return None;
    }
    let expected = fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing; run with BLESS=1", path.display()));
    (actual != expected).then(|| format!("--- {name}.expected\n{expected}+++ actual\n{actual}"))
}

#[test]
fn each_invalid_file_gives_exactly_its_expected_diagnostics() {
    let mismatches: Vec<String> = fixtures()
        .iter()
        .filter_map(|name| golden(DIR, name, &format!("{}\n", diagnostics_of(name))))
        .collect();
    assert!(mismatches.is_empty(), "diagnostics changed:\n{}", mismatches.join("\n"));
}

#[test]
fn there_are_at_least_twelve_fixtures() {
    assert!(fixtures().len() >= 12, "only {} fixtures", fixtures().len());
}

/// The cases under `tests/dsl/together/`, by folder name.
fn together_cases() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(TOGETHER))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// What `carcassonne tileset check` prints for the files of case `name` together, each valid:
/// a line per clash under `dsl-sets-clash`, the files joined as the command joins them.
fn clashes_of(name: &str) -> String {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(TOGETHER).join(name);
    let mut files: Vec<String> = fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|file| file.ends_with(".toml"))
        .collect();
    files.sort();
    let catalogs: Vec<Catalog> = files
        .iter()
        .map(|file| {
            let path = format!("{TOGETHER}/{name}/{file}");
            let text = fs::read_to_string(folder.join(file)).unwrap();
            Catalog::from_toml(&path, &text).unwrap_or_else(|problems| panic!("{problems}"))
        })
        .collect();
    let together: Vec<String> =
        files.iter().map(|file| format!("{TOGETHER}/{name}/{file}")).collect();
    let clashes = carcassonne::clashes(&catalogs);
    assert!(!clashes.is_empty(), "the sets of {name} are meant to clash");
    clashes
        .iter()
        .map(|clash| format!("error[{}]: {}: {clash}\n", Code::SetsClash, together.join(" + ")))
        .collect()
}

/// Each case of sets that clash gives exactly its expected lines (`NAME.expected` beside the
/// folder), every clash at once.
#[test]
fn each_clash_of_sets_together_is_reported() {
    let mismatches: Vec<String> = together_cases()
        .iter()
        .filter_map(|name| golden(TOGETHER, name, &clashes_of(name)))
        .collect();
    assert!(mismatches.is_empty(), "clashes changed:\n{}", mismatches.join("\n"));
}

/// Every diagnostic code a file can produce appears in some golden file, so no message goes
/// untested (the clash of sets in a case of sets together). The size limit needs a 1 MiB file
/// and the error cap 100 mistakes: unit tests cover those two instead.
#[test]
fn the_fixtures_cover_every_code() {
    let mut seen: BTreeSet<Code> = fixtures()
        .iter()
        .flat_map(|name| diagnostics_of(name).iter().map(|d| d.code).collect::<Vec<_>>())
        .collect();
    if !together_cases().is_empty() {
        seen.insert(Code::SetsClash);
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|code| !seen.contains(code) && **code != Code::TooManyErrors)
        .map(|code| code.as_str())
        .collect();
    assert!(missing.is_empty(), "no fixture produces {missing:?}");
}

/// The table of codes in tilesets/README.md lists every code, in number order, so authors
/// and C callers can look a code up.
#[test]
fn the_format_documentation_lists_every_code_in_order() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tilesets/README.md"))
            .unwrap();
    let documented: Vec<&str> = readme
        .lines()
        .filter_map(|line| line.strip_prefix("| `dsl-"))
        .filter_map(|rest| rest.split('`').next())
        .collect();
    let codes: Vec<String> =
        Code::ALL.iter().map(|code| code.as_str().trim_start_matches("dsl-").to_owned()).collect();
    assert_eq!(documented, codes);
}
