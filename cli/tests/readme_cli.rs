//! What README.md says about the tool holds: a newcomer pasting its commands in order has the
//! `carcassonne` command before the first one that needs it, and the analysis it shows as
//! giving "the same numbers" is asked for with the same settings.

mod common;

fn readme() -> String {
    std::fs::read_to_string(common::repo_root().join("README.md")).unwrap()
}

/// The lines of the README's shell blocks, each with its line number.
fn shell_lines(readme: &str) -> Vec<(usize, String)> {
    let mut inside = false;
    let mut lines = Vec::new();
    for (number, line) in readme.lines().enumerate() {
        match line.trim_end() {
            "```sh" | "```bash" | "```shell" => inside = true,
            "```" => inside = false,
            text if inside => lines.push((number + 1, text.to_owned())),
            _ => {}
        }
    }
    lines
}

#[test]
fn the_readme_says_how_to_get_the_command_before_it_uses_it() {
    let readme = readme();
    // CI greps these two lines; they stay as they are.
    for line in ["cargo run --release -p carcassonne-cli -- play", "cargo test --workspace"] {
        assert!(readme.lines().any(|text| text == line), "{line}");
    }
    let shell = shell_lines(&readme);
    let first_use = shell
        .iter()
        .find(|(_, line)| line.starts_with("carcassonne "))
        .expect("the README uses the tool");
    let install = shell
        .iter()
        .find(|(_, line)| line.trim() == "cargo install --path cli")
        .expect("a shell block installs the tool");
    assert!(
        install.0 < first_use.0,
        "line {} uses `carcassonne` before line {} installs it",
        first_use.0,
        install.0
    );
    let before: String = readme.lines().take(first_use.0).collect::<Vec<_>>().join("\n");
    assert!(
        before.contains("`cargo run --release -p carcassonne-cli --`"),
        "the way without installing is said before the first use"
    );
    // Nor does a transcript (`$ carcassonne ...`) come before the install.
    let transcript = readme.lines().position(|line| line.starts_with("$ carcassonne ")).unwrap();
    assert!(install.0 < transcript + 1, "a transcript at line {} comes first", transcript + 1);
}

/// The settings of an `analyze` line that change its numbers: all but how the result is
/// shown (--top, --json, --svg FILE, --png) and the threads.
fn analysis_settings(line: &str) -> Vec<String> {
    let command = line.split('#').next().unwrap();
    let mut words = command.split_whitespace().skip(2);
    let mut kept = Vec::new();
    while let Some(word) = words.next() {
        match word {
            "--json" | "--png" => {}
            "--top" | "--svg" | "--threads" => {
                words.next();
            }
            other => kept.push(other.to_owned()),
        }
    }
    kept
}

#[test]
fn the_readmes_same_numbers_are_asked_for_with_the_same_settings() {
    let readme = readme();
    let shell = shell_lines(&readme);
    let same = shell
        .iter()
        .position(|(_, line)| line.contains("# the same numbers"))
        .expect("the README's analysis lines");
    let (above, line) = (&shell[same - 1].1, &shell[same].1);
    assert!(above.starts_with("carcassonne analyze "), "{above}");
    assert_eq!(analysis_settings(above), analysis_settings(line), "{above}\n{line}");
}
