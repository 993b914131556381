//! The README's Rust examples build and run as a user pastes them: a fresh project whose
//! `Cargo.toml` takes the README's `[dependencies]` (the path pointed at this repository) and
//! whose `src/main.rs` is one example, unchanged. They are doc tests too (`ReadmeDoctests`),
//! but rustdoc forgives what a new project does not: hidden lines, a missing `fn main`, a
//! dependency only this crate's dev-dependencies bring.
//!
//! The project builds in `<target>/readme-examples`, so its dependencies build once and stay.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The code blocks of `readme` fenced with `language`, in order. A Rust block may be fenced
/// `rust,ignore`: the core's doc tests (which include the README) skip it, since it uses
/// the bots crate, which the core does not depend on; here it runs like any other.
fn blocks(readme: &str, language: &str) -> Vec<String> {
    let fences = [format!("```{language}"), format!("```{language},ignore")];
    let mut found = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if fences.iter().any(|fence| line.trim_end() == fence) {
            let body: Vec<&str> = lines.by_ref().take_while(|line| *line != "```").collect();
            found.push(body.join("\n") + "\n");
        }
    }
    found
}

/// The build folder: beside this test's own, in the same target folder.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    // <target>/<profile>/deps/<test>
    exe.ancestors().nth(3).expect("tests run from <target>/<profile>/deps").join("readme-examples")
}

#[test]
fn every_rust_example_builds_and_runs_in_a_fresh_project() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = blocks(&readme, "rust");
    assert!(examples.len() >= 2, "the README's Rust examples were not found");
    let dependencies = blocks(&readme, "toml")
        .into_iter()
        .find(|block| block.starts_with("[dependencies]"))
        .expect("the README shows the [dependencies] to paste");
    assert!(dependencies.contains("path = \"../carcassonne\""), "{dependencies}");
    let bots = root.join("bots");
    let dependencies = dependencies
        .replace("\"../carcassonne/bots\"", &format!("{:?}", bots.display().to_string()))
        .replace("\"../carcassonne\"", &format!("{:?}", root.display().to_string()));

    let project = std::env::temp_dir().join(format!("carcassonne-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&project);
    std::fs::create_dir_all(project.join("src/bin")).unwrap();
    let manifest = format!(
        "[package]\nname = \"readme-examples\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
         publish = false\n\n[workspace]\n\n{dependencies}"
    );
    std::fs::write(project.join("Cargo.toml"), manifest).unwrap();
    for (index, example) in examples.iter().enumerate() {
        assert!(
            !example.lines().any(|line| line.trim_start().starts_with("# ")),
            "example {index} keeps a hidden line"
        );
        std::fs::write(project.join(format!("src/bin/example{index}.rs")), example).unwrap();
    }
    for (index, example) in examples.iter().enumerate() {
        let output = cargo(&project)
            .args(["run", "--quiet", "--bin", &format!("example{index}")])
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "README example {index} does not build and run pasted into a new project:\n{}\n{}",
            String::from_utf8_lossy(&output.stderr),
            example
        );
    }
    std::fs::remove_dir_all(&project).unwrap();
}

/// Cargo in `project`, building in [`target_dir`], with nothing of this build's environment
/// that would change it (`RUSTFLAGS` of a sanitizer run, say).
fn cargo(project: &Path) -> Command {
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTC_BOOTSTRAP")
        .env_remove("CARGO_UNSTABLE_BUILD_STD");
    command
}
