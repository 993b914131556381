//! Building and running the C and C++ programs under `capi/tests/consumers/` against the
//! library exactly as a C user links it: the header from `include/`, the static library from
//! `cargo build -p carcassonne-capi`, gcc or g++ with warnings as errors.
//!
//! With `CARC_SANITIZED_LIBRARY=1` (see [`sanitized_library`]) the Rust code of the library is
//! instrumented by AddressSanitizer as well as the C code; `.ci/sanitized-consumers` runs that.
//! With `CARC_SANITIZED_LIBRARY=thread`, ThreadSanitizer instruments both, and the standard
//! library too; `.ci/thread-sanitizer` runs that.

#![allow(dead_code)] // each test binary uses part of this

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("capi/ sits in the repository").into()
}

/// The folder of this build's artifacts (`target/debug` or `target/release`): the test binary
/// runs from its `deps/` folder.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binaries live in <target>/<profile>/deps")
        .into()
}

/// Whether the consumers link a library whose Rust code AddressSanitizer instruments too: set
/// `CARC_SANITIZED_LIBRARY=1` and build the tests as `.ci/sanitized-consumers` does, with
/// `RUSTC_BOOTSTRAP=1 RUSTFLAGS=-Zsanitizer=address` and `--target <host>` (so build scripts
/// and proc macros, which run inside cargo and rustc, stay uninstrumented). The library is then
/// built the same way, and gcc's libasan, which the consumers link, serves both the C and the
/// Rust code. Unset, the Rust code is built plainly and only the C code is instrumented.
pub fn sanitized_library() -> bool {
    std::env::var("CARC_SANITIZED_LIBRARY").is_ok_and(|value| !value.is_empty() && value != "0")
}

/// Whether the sanitizer of [`sanitized_library`] is ThreadSanitizer
/// (`CARC_SANITIZED_LIBRARY=thread`): the tests and the library are then built with
/// `-Zsanitizer=thread` and `-Zbuild-std`, and the consumers with `-fsanitize=thread`, which
/// rules out AddressSanitizer in the same program.
pub fn thread_sanitizer() -> bool {
    std::env::var("CARC_SANITIZED_LIBRARY").is_ok_and(|value| value == "thread")
}

/// The static library, built with the profile of the running tests. `cargo test` builds the
/// crate only as an rlib for its tests, so the C artifacts are built here, once per test binary.
///
/// # Panics
/// When the build fails, or, with [`sanitized_library`], when the tests were not built for an
/// explicit target or the library's Rust code is not instrumented.
pub fn static_library() -> &'static Path {
    static LIBRARY: OnceLock<PathBuf> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let dir = profile_dir();
        let profile = match dir.file_name().and_then(|name| name.to_str()) {
            Some("debug") => "dev".to_owned(),
            Some(name) => name.to_owned(),
            None => panic!("cannot tell the build profile from {}", dir.display()),
        };
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "--quiet", "-p", "carcassonne-capi", "--profile", &profile]);
        let parent = dir.parent().expect("the profile folder sits in the target folder");
        // Built for an explicit target, the tests run from <target>/<triple>/<profile>/deps.
        // The library is built alike, with the RUSTFLAGS and RUSTC_BOOTSTRAP cargo test ran
        // with, which this process inherits, so cargo reuses what it built for the tests.
        let target_dir = if sanitized_library() {
            let triple = parent.file_name().and_then(|name| name.to_str()).unwrap_or_default();
            assert!(
                triple.contains('-'),
                "CARC_SANITIZED_LIBRARY is set, but the tests were not built with --target \
                 (they run from {}); run .ci/sanitized-consumers",
                dir.display()
            );
            build.args(["--target", triple]);
            parent.parent().expect("the target's folder sits in the target folder")
        } else {
            parent
        };
        let status = build
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(repo_root())
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build -p carcassonne-capi failed");
        let library = dir.join("libcarcassonne_capi.a");
        assert!(library.exists(), "{} was not built", library.display());
        if sanitized_library() {
            assert_instrumented(&library);
        }
        library
    })
}

/// Fails unless the sanitizer instruments the Rust code of `library`: the objects of this
/// crate and of the core must call `__asan_report_*` (`__tsan_func_entry` for
/// ThreadSanitizer), which only `-Zsanitizer=...` emits (the precompiled standard library
/// never does).
fn assert_instrumented(library: &Path) {
    let (hook, flags) = if thread_sanitizer() {
        (
            "U __tsan_func_entry",
            "RUSTFLAGS=-Zsanitizer=thread with -Zbuild-std, as .ci/thread-sanitizer does",
        )
    } else {
        ("U __asan_report_", "RUSTFLAGS=-Zsanitizer=address, as .ci/sanitized-consumers does")
    };
    // `-A -u`: every undefined symbol, as `<archive>:<member>: U <symbol>`.
    let output = Command::new("nm")
        .args(["-A", "-u"])
        .arg(library)
        .output()
        .unwrap_or_else(|error| panic!("cannot run nm (install binutils): {error}"));
    assert!(output.status.success(), "nm {} failed", library.display());
    let symbols = String::from_utf8_lossy(&output.stdout);
    let instrumented = |member_prefix: &str| {
        symbols.lines().any(|line| {
            let mut fields = line.splitn(3, ':');
            let (_, member, symbol) = (fields.next(), fields.next(), fields.next());
            member.is_some_and(|member| member.starts_with(member_prefix))
                && symbol.is_some_and(|symbol| symbol.trim_start().starts_with(hook))
        })
    };
    // Members are named <crate>-<hash>.<...>.o, or <crate>.<...>.o for the library itself.
    let crates = [("carcassonne-capi", "carcassonne_capi."), ("carcassonne", "carcassonne-")];
    for (name, member_prefix) in crates {
        assert!(
            instrumented(member_prefix),
            "CARC_SANITIZED_LIBRARY is set, but the code of {name} in {} is not instrumented \
             (no reference to {hook}): build the tests with RUSTC_BOOTSTRAP=1 {flags}",
            library.display()
        );
    }
}

/// The language of a consumer, which picks the compiler and standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C11 with gcc.
    C,
    /// C++17 with g++.
    Cpp,
}

/// Whether a build is instrumented by AddressSanitizer and UndefinedBehaviorSanitizer (for
/// running directly) or plain (for running under valgrind, which cannot run ASan binaries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instrument {
    Sanitizers,
    Plain,
}

/// Compiles `capi/tests/consumers/<source>` against the header and the static library with
/// every warning an error, and returns the executable's path.
///
/// # Panics
/// When the compiler is missing or reports anything, with its output.
pub fn compile(source: &str, instrument: Instrument) -> PathBuf {
    let root = repo_root();
    let source_path = root.join("capi").join("tests").join("consumers").join(source);
    let lang = if source.ends_with(".c") { Lang::C } else { Lang::Cpp };
    let (compiler, standard) = match lang {
        Lang::C => ("gcc", "-std=c11"),
        Lang::Cpp => ("g++", "-std=c++17"),
    };
    let out_dir = profile_dir().join("capi-consumers");
    std::fs::create_dir_all(&out_dir).expect("create the consumers' build folder");
    let stem = Path::new(source).file_stem().and_then(|stem| stem.to_str()).expect("a file name");
    assert!(
        instrument == Instrument::Sanitizers || !sanitized_library(),
        "{source}: a plain build (for valgrind) cannot link the library instrumented by \
         AddressSanitizer (CARC_SANITIZED_LIBRARY), which needs the ASan runtime; valgrind \
         cannot run that, so skip the valgrind test in a sanitized run"
    );
    let suffix = match instrument {
        Instrument::Sanitizers if thread_sanitizer() => "-tsan",
        Instrument::Sanitizers => "-asan",
        Instrument::Plain => "",
    };
    let exe =
        out_dir.join(format!("{stem}{}{suffix}", if lang == Lang::Cpp { "-cpp" } else { "" }));
    let thread_sanitized = instrument == Instrument::Sanitizers && thread_sanitizer();
    let object = exe.with_extension("o");
    let mut command = Command::new(compiler);
    command
        .arg(standard)
        .args(["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-g", "-O1"])
        .arg("-I")
        .arg(root.join("include"));
    if thread_sanitized {
        // Compiled here, linked below against rustc's runtime.
        command.args(["-fsanitize=thread", "-fno-omit-frame-pointer", "-c", "-o"]).arg(&object);
    } else if instrument == Instrument::Sanitizers {
        command.args([
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]);
    }
    command.arg(&source_path);
    if !thread_sanitized {
        command.arg(static_library()).args(["-lpthread", "-ldl", "-lm", "-o"]).arg(&exe);
    }
    compiler_succeeds(&mut command, compiler, &source_path);
    if thread_sanitized {
        // rustc's LLVM instruments the library with calls (`__tsan_memcpy`...) that gcc's
        // older libtsan lacks, so the program links the ThreadSanitizer runtime rustc ships,
        // which serves gcc's instrumentation too, instead of gcc's.
        let mut link = Command::new(compiler);
        link.arg(&object)
            .arg(static_library())
            .arg("-Wl,--whole-archive")
            .arg(rustc_tsan_runtime())
            .arg("-Wl,--no-whole-archive")
            .args(["-lpthread", "-ldl", "-lm", "-lstdc++", "-o"])
            .arg(&exe);
        compiler_succeeds(&mut link, compiler, &source_path);
    }
    exe
}

/// Runs a compiler, failing with its output unless it succeeds.
fn compiler_succeeds(command: &mut Command, compiler: &str, source: &Path) {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {compiler} (install gcc and g++): {error}"));
    assert!(
        output.status.success(),
        "{compiler} failed on {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The ThreadSanitizer runtime of the rustc on the path (`librustc-<channel>_rt.tsan.a`).
pub fn rustc_tsan_runtime() -> PathBuf {
    let output = Command::new("rustc").args(["--print", "target-libdir"]).output();
    let libdir = output
        .ok()
        .filter(|output| output.status.success())
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
        .expect("rustc --print target-libdir");
    std::fs::read_dir(&libdir)
        .expect("rustc's target library folder can be read")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("librustc-") && name.ends_with("_rt.tsan.a"))
        })
        .unwrap_or_else(|| panic!("no ThreadSanitizer runtime in {}", libdir.display()))
}

/// Runs a consumer with `args` and returns its output, failing the test with its output when it
/// does not exit with 0 or a sanitizer reports anything.
pub fn run(exe: &Path, args: &[&str]) -> Output {
    run_command(Command::new(exe).args(args))
}

/// Runs `command` (a consumer, possibly under valgrind) as [`run`] does.
pub fn run_command(command: &mut Command) -> Output {
    let output = command
        .current_dir(repo_root())
        .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:halt_on_error=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        .env("TSAN_OPTIONS", "halt_on_error=1:second_deadlock_stack=1")
        .output()
        .unwrap_or_else(|error| panic!("cannot run {:?}: {error}", command.get_program()));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{:?} {:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{stderr}",
        command.get_program(),
        command.get_args().collect::<Vec<_>>(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
    );
    for marker in [
        "ERROR: AddressSanitizer",
        "ERROR: LeakSanitizer",
        "runtime error:",
        "WARNING: ThreadSanitizer",
    ] {
        assert!(!stderr.contains(marker), "a sanitizer reported a problem:\n{stderr}");
    }
    output
}

/// Whether this run must not skip anything (CI sets `CI=true`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// Says on the terminal that `test` skipped its check, and why. The test harness swallows the
/// `println!` and `eprintln!` of a passing test, so a skip said that way read as a plain `ok`;
/// this writes to the standard error stream itself, which the harness leaves alone. In CI
/// ([`in_ci`]) nothing may skip: the test fails instead.
pub fn skip(test: &str, reason: &str) {
    use std::io::Write;
    assert!(!in_ci(), "{test} cannot run: {reason}; in CI nothing may skip");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// Whether `program` can be run; in CI a missing tool fails the test, elsewhere the caller
/// skips with [`skip`].
pub fn have(program: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success() || !output.stdout.is_empty());
    assert!(found || !in_ci(), "{program} is not installed; .ci/run installs it");
    found
}
