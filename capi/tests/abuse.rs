//! The C ABI cannot be crashed or confused from outside: `consumers/abuse.c` calls every export
//! with NULL, freed, foreign and made-up handles, bad values and refused actions, under
//! AddressSanitizer and UndefinedBehaviorSanitizer, and checks each exact result code.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use common::{Instrument, compile, have, repo_root, run_command};

/// `text` without its C comments (`/* */` and `//`), string literals kept as they are, so a
/// name mentioned in a comment neither counts as declared nor as called.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(['/', '"', '\'']) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        if let Some(after) = from.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            out.push(' ');
        } else if let Some(after) = from.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else if from.starts_with(['"', '\'']) {
            // Copy the literal whole, escapes included, so a `/*` inside it starts nothing.
            let quote = from.as_bytes()[0];
            let bytes = from.as_bytes();
            let mut end = 1;
            while end < bytes.len() && bytes[end] != quote {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(bytes.len());
            out.push_str(&from[..end]);
            rest = &from[end..];
        } else {
            out.push('/');
            rest = &from[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Every `carc_<name>` directly followed by `(` in `code`: in the header, the declared
/// functions (macros and types are never followed by a parenthesis there); in a C file, the
/// functions it calls.
fn called_names(code: &str) -> BTreeSet<String> {
    let bytes = code.as_bytes();
    let is_ident = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
    let is_name = |byte: u8| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_';
    let mut names = BTreeSet::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("carc_") {
        let start = from + found;
        let mut end = start + "carc_".len();
        while end < bytes.len() && is_name(bytes[end]) {
            end += 1;
        }
        let whole_word = start == 0 || !is_ident(bytes[start - 1]);
        if whole_word && bytes.get(end) == Some(&b'(') && end > start + "carc_".len() {
            names.insert(code[start..end].to_owned());
        }
        from = end;
    }
    names
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// A new export cannot go untested: abuse.c calls every function the header declares.
#[test]
fn abuse_c_calls_every_declared_function() {
    let root = repo_root();
    let header = without_comments(&read(&root.join("include").join("carcassonne.h")));
    let declared = called_names(&header);
    assert!(declared.len() >= 60, "only {} functions found in the header", declared.len());
    assert!(declared.contains("carc_game_apply") && declared.contains("carc_result_name"));

    let abuse = read(&root.join("capi").join("tests").join("consumers").join("abuse.c"));
    let called = called_names(&without_comments(&abuse));
    let missing: Vec<&String> = declared.difference(&called).collect();
    assert!(missing.is_empty(), "abuse.c never calls {missing:?}");
    let unknown: Vec<&String> = called.difference(&declared).collect();
    assert!(unknown.is_empty(), "abuse.c calls {unknown:?}, which the header does not declare");
}

#[test]
fn comments_hide_names_and_literals_keep_them() {
    let code = "int carc_a(void); /* carc_b( */ // carc_c(\nx(\"/* carc_d( */\"); carc_e ();";
    let names = called_names(&without_comments(code));
    assert_eq!(names.into_iter().collect::<Vec<_>>(), ["carc_a", "carc_d"]);
}

/// abuse.c, built with the sanitizers, reports no failed check and no sanitizer finding.
#[test]
fn abuse_c_finds_nothing_wrong() {
    if !have("gcc") {
        eprintln!("skipped: gcc is not installed");
        return;
    }
    let exe = compile("abuse.c", Instrument::Sanitizers);
    // The files abuse.c reads and writes (an oversized tile set, an invalid one...) go here.
    let scratch = std::env::temp_dir().join(format!("carc-abuse-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("create the scratch folder");
    // A library panic is a finding abuse.c reports by its code; its backtrace would only
    // bury the report.
    let output = run_command(Command::new(&exe).arg(&scratch).env("RUST_BACKTRACE", "0"));
    std::fs::remove_dir_all(&scratch).ok();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout
        .lines()
        .find_map(|line| line.strip_prefix("abuse: "))
        .unwrap_or_else(|| panic!("abuse.c printed no summary:\n{stdout}"));
    // The exit status already says whether a check failed; the count guards against a run
    // that stopped early but still exited with 0.
    let checks: u32 = summary
        .split(' ')
        .next()
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("cannot read the summary `{summary}`"));
    assert!(checks >= 5000, "abuse.c ran only {checks} checks:\n{stdout}");
    assert!(summary.ends_with(" 0 failed"), "{stdout}");
}
