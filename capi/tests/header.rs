//! The committed header is exactly what cbindgen makes of the crate today, and it compiles on
//! its own as C99 and as C++17 with warnings as errors.
//!
//! After an intended change of the API, `CARC_BLESS=1 cargo test -p carcassonne-capi --test
//! header` rewrites `include/carcassonne.h`; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("capi/ sits in the repository").into()
}

fn header_path() -> PathBuf {
    repo_root().join("include").join("carcassonne.h")
}

/// The header as cbindgen writes it from `capi/src` with the root `cbindgen.toml`.
fn generate() -> String {
    let root = repo_root();
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml"))
        .unwrap_or_else(|error| panic!("cbindgen.toml: {error}"));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("capi").join("src").join("lib.rs"))
        .generate()
        .unwrap_or_else(|error| panic!("cbindgen failed: {error}"));
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("cbindgen writes UTF-8")
}

/// The first difference between two texts, with a few lines of context, in the style of a
/// unified diff.
fn first_difference(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let same_start = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let same_end = old[same_start..]
        .iter()
        .rev()
        .zip(new[same_start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let context = same_start.saturating_sub(3);
    let mut out = format!(
        "@@ -{},{} +{},{} @@\n",
        context + 1,
        old.len() - same_end - context,
        context + 1,
        new.len() - same_end - context
    );
    for line in &old[context..same_start] {
        out += &format!(" {line}\n");
    }
    let shown = 40;
    for line in old[same_start..old.len() - same_end].iter().take(shown) {
        out += &format!("-{line}\n");
    }
    for line in new[same_start..new.len() - same_end].iter().take(shown) {
        out += &format!("+{line}\n");
    }
    out
}

#[test]
fn the_committed_header_is_what_cbindgen_generates() {
    let fresh = generate();
    let path = header_path();
    if std::env::var("CARC_BLESS").is_ok_and(|value| value == "1") {
        std::fs::write(&path, &fresh).expect("write include/carcassonne.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        panic!(
            "include/carcassonne.h is out of date; rerun with CARC_BLESS=1 to rewrite it and \
             review the change:\n--- include/carcassonne.h (committed)\n+++ generated\n{}",
            first_difference(&committed, &fresh)
        );
    }
}

fn compile(compiler: &str, args: &[&str]) {
    let header = header_path();
    let output = Command::new(compiler)
        .args(args)
        .arg(&header)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {compiler} (install gcc and g++): {error}"));
    assert!(
        output.status.success(),
        "{compiler} {} {} failed:\n{}",
        args.join(" "),
        header.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_header_compiles_as_c99() {
    compile(
        "gcc",
        &[
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Wstrict-prototypes",
            "-Werror",
            "-fsyntax-only",
            "-x",
            "c",
        ],
    );
}

#[test]
fn the_header_compiles_as_cpp17() {
    compile(
        "g++",
        &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only", "-x", "c++"],
    );
}

/// `include/README.md` describes the header that lies beside it: it names it, and never says
/// the folder holds none (it did, long after the header was committed).
#[test]
fn the_folders_readme_describes_the_header_beside_it() {
    let readme = std::fs::read_to_string(repo_root().join("include").join("README.md"))
        .expect("include/README.md");
    assert!(header_path().is_file(), "the header is committed");
    assert!(readme.contains("`carcassonne.h`"), "it names the header: {readme}");
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    for denial in ["no header", "holds no", "until then"] {
        assert!(!flat.contains(denial), "it says \"{denial}\": {readme}");
    }
    assert!(flat.contains("cbindgen") && flat.contains("--test header"), "{readme}");
}
