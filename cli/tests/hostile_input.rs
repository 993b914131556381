//! The command-line tool on input an attacker would hand it: pipes, devices, files far over
//! the limits, documents that name files. Each runs under a cap on its address space
//! (`ulimit -v`) and a time limit, so the test fails, rather than the machine, when memory or
//! time is not bounded. Each case broke before the fix it guards: `/dev/zero` was read until
//! memory ran out, a 63 MiB replay took 5.7 GB, a landscape echoed `/etc/passwd`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use common::{repo_root, text};

/// The address space the tool may use, in KiB: its code, its libraries and the 64 MiB it may
/// read, with room to spare, and far less than the gigabytes the untyped parse took.
const ADDRESS_SPACE_KIB: u64 = 400 << 10;

/// The longest any case may take.
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("carcassonne-hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for `child` at most [`TIME_LIMIT`], killing it after that. Its output is read as it
/// comes (on another thread), so a long message cannot fill a pipe and stall it.
fn finish(child: Child, what: &str) -> Output {
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    match receiver.recv_timeout(TIME_LIMIT) {
        Ok(output) => output.expect("the child's output"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("{what} ran over {TIME_LIMIT:?}");
        }
    }
}

/// Runs `carcassonne args` under the address-space cap, with `stdin` as its standard input.
fn limited(args: &[&str], stdin: Stdio) -> Output {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_carcassonne"))
        .args(args)
        .current_dir(repo_root())
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    finish(child, &format!("carcassonne {args:?}"))
}

/// A refusal: exit code 1 (not a crash, an abort for want of memory, or a panic) and the
/// error message.
fn refused(args: &[&str], stdin: Stdio) -> String {
    let output = limited(args, stdin);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.starts_with("error: ") && !stderr.contains("panicked"), "{stderr}");
    stderr
}

/// A saved game followed by `entries` events of one unknown key each.
fn save_with_junk_events(path: &Path, entries: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    file.write_all(
        br#"{"format":1,"setup":{"tilesets":["base"],"players":2},"actions":[],"events":["#,
    )
    .unwrap();
    for index in 0..entries {
        file.write_all(if index == 0 { b"{\"a\":0}" } else { b",{\"a\":0}" }).unwrap();
    }
    file.write_all(b"]}").unwrap();
}

/// 40 MiB of junk events took 3.6 GB as an untyped tree; typed, the first one is refused.
#[test]
fn replay_reads_a_large_save_typed_within_a_few_times_its_size() {
    let dir = temp_dir("junk");
    let save = dir.join("junk.json");
    save_with_junk_events(&save, 5 << 20);
    assert!(std::fs::metadata(&save).unwrap().len() > 40 << 20);
    let stderr = refused(&["replay", save.to_str().unwrap()], Stdio::null());
    assert!(stderr.contains("unknown field `a`"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A pipe has no size to check beforehand: it is read to one byte over 64 MiB and refused,
/// from `-` and from `/dev/stdin` alike, as is a device that never ends.
#[test]
fn pipes_and_devices_are_read_to_the_limit_and_no_further() {
    let dir = temp_dir("pipe");
    let save = dir.join("big.json");
    save_with_junk_events(&save, 9 << 20);
    assert!(std::fs::metadata(&save).unwrap().len() > 64 << 20);
    for name in ["-", "/dev/stdin"] {
        let stdin = Stdio::from(std::fs::File::open(&save).unwrap());
        let stderr = refused(&["replay", name], stdin);
        assert!(stderr.contains("is over 67108864 bytes"), "{name}: {stderr}");
    }
    // Through a real pipe, from a writer that would go on for ever.
    let mut yes = Command::new("sh")
        .args(["-c", "while :; do printf '{\"a\":0},'; done"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = Stdio::from(yes.stdout.take().unwrap());
    let stderr = refused(&["replay", "-"], pipe);
    let _ = yes.kill();
    let _ = yes.wait();
    assert!(stderr.contains("is over"), "{stderr}");
    for args in [["replay", "/dev/zero"], ["score", "/dev/zero"]] {
        let stderr = refused(&args, Stdio::null());
        assert!(stderr.contains("is over 67108864 bytes"), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Tile set files are read only from regular files the user names, at most 1 MiB.
#[test]
fn tile_sets_come_only_from_regular_files() {
    let stderr = refused(&["tileset", "check", "/dev/zero"], Stdio::null());
    assert!(stderr.contains("/dev/zero is not a regular file"), "{stderr}");
    let stderr =
        refused(&["score", "examples/landscape.json", "--tilesets", "/dev/zero"], Stdio::null());
    assert!(stderr.contains("/dev/zero is not a regular file"), "{stderr}");
    let stderr = refused(&["play", "--tilesets", "/dev/zero"], Stdio::null());
    assert!(stderr.contains("/dev/zero is not a regular file"), "{stderr}");
    let dir = temp_dir("big-set");
    let big = dir.join("big.toml");
    std::fs::write(&big, "#".repeat((1 << 20) + 1)).unwrap();
    let stderr = refused(&["tileset", "check", big.to_str().unwrap()], Stdio::null());
    assert!(stderr.contains("is over 1048576 bytes"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A landscape names tile sets as built-in names or inline TOML, never as files: a path is
/// an unknown name, whether the file exists or not, and nothing of it is read or echoed.
/// Files come from the user's own `--tilesets`.
#[test]
fn a_landscape_cannot_make_the_tool_open_a_file() {
    let dir = temp_dir("paths");
    let mine = dir.join("mine.toml");
    let set = carcassonne::Catalog::builtin("base").unwrap().to_toml();
    std::fs::write(&mine, set.replace("id = \"base\"", "id = \"mine\"")).unwrap();
    let tiles = r#""tiles": [{"tile": "E", "x": 0, "y": 0}]"#;
    for path in ["/etc/passwd", "/no/such/file.toml", mine.to_str().unwrap(), "/dev/zero"] {
        let landscape = dir.join("landscape.json");
        std::fs::write(&landscape, format!(r#"{{"tilesets": ["{path}"], {tiles}}}"#)).unwrap();
        let stderr = refused(&["score", landscape.to_str().unwrap()], Stdio::null());
        assert!(stderr.contains(&format!("no built-in tile set is called `{path}`")), "{stderr}");
        assert!(!stderr.contains("root:") && !stderr.contains("dsl-"), "{stderr}");
    }
    // The same set, named by the user on the command line, is read.
    let landscape = dir.join("landscape.json");
    std::fs::write(&landscape, format!("{{{tiles}}}")).unwrap();
    let output = limited(
        &["score", landscape.to_str().unwrap(), "--tilesets", mine.to_str().unwrap()],
        Stdio::null(),
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    // But not both at once.
    std::fs::write(&landscape, format!(r#"{{"tilesets": ["base"], {tiles}}}"#)).unwrap();
    let stderr =
        refused(&["score", landscape.to_str().unwrap(), "--tilesets", "base"], Stdio::null());
    assert!(stderr.contains("give one or the other"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// serde_json quotes an unknown key whole: a 32 MiB key comes back cut short.
#[test]
fn a_huge_key_is_quoted_short() {
    let dir = temp_dir("key");
    let save = dir.join("key.json");
    let key = "k".repeat(32 << 20);
    std::fs::write(&save, format!(r#"{{"format":1,"{key}":0}}"#)).unwrap();
    let stderr = refused(&["replay", save.to_str().unwrap()], Stdio::null());
    assert!(stderr.len() < 200_000, "the message is {} bytes", stderr.len());
    assert!(stderr.contains('…'), "{}", &stderr[..300]);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A reader that stops early (`| head`) closes the pipe: the tool stops quietly, never with a
/// panic, whatever the command.
#[test]
fn a_closed_pipe_is_no_panic() {
    for args in [&["tileset", "list"][..], &["tileset", "check", "tilesets/base.toml"], &["play"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(args)
            .current_dir(repo_root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tool runs");
        drop(child.stdout.take());
        let output = finish(child, &format!("carcassonne {args:?} into a closed pipe"));
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
