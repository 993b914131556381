//! Shared by the command-line tests: running the built binary from the repository root.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `carcassonne` with `args` from the repository root, as a user would.
#[allow(dead_code)] // hostile_input.rs runs it under limits of its own
pub fn carcassonne(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("the binary runs")
}

/// The repository's top folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Command output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Runs a command that must succeed and returns its standard output.
#[allow(dead_code)] // not every test file uses every helper
pub fn ok(args: &[&str]) -> String {
    let output = carcassonne(args);
    assert!(output.status.success(), "{args:?} failed: {}", text(&output.stderr));
    text(&output.stdout)
}

/// Runs a command that must fail with exit code 1 (no panic, which exits with 101) and
/// returns its error output.
#[allow(dead_code)] // not every test file uses every helper
pub fn fails(args: &[&str]) -> String {
    let output = carcassonne(args);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// A fresh scratch folder for test `name` of file `file` under the system's temporary
/// folder, emptied first if a run left it.
#[allow(dead_code)] // not every test file uses every helper
pub fn scratch(file: &str, name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("carcassonne-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
