//! The C# binding in `bindings/csharp/` against the shared library, with Mono: it compiles with
//! `mcs` without warnings (and without `unsafe`), its sample plays the same games as the Rust
//! API, its structs and constants are the header's, byte for byte, its API tests pass, and it
//! declares every function of the header.
//!
//! Needs `mcs`, `mono` (Debian: `mono-mcs mono-runtime`) and `gcc`; elsewhere than CI a missing
//! tool skips the test with a printed reason.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use carcassonne::{Catalog, Game, GameSetup};

/// The seeds the sample plays, each compared with the Rust API's game.
const SEEDS: [u64; 3] = [1, 2, 20_240_601];

fn binding_dir() -> PathBuf {
    common::repo_root().join("bindings").join("csharp")
}

fn header() -> String {
    std::fs::read_to_string(common::repo_root().join("include").join("carcassonne.h"))
        .expect("read include/carcassonne.h")
}

/// Whether every tool is here; says on the terminal why not otherwise (a missing tool fails
/// in CI). `test` names the test that skips.
fn have_tools(test: &str) -> bool {
    for tool in ["mcs", "mono", "gcc"] {
        if !common::have(tool) {
            let reason = format!(
                "`{tool}` is not installed (Debian: apt-get install mono-mcs mono-runtime gcc)"
            );
            common::skip(test, &reason);
            return false;
        }
    }
    true
}

/// The compiled C# programs and the folder of the shared library they load.
struct Built {
    lib_dir: PathBuf,
    sample: PathBuf,
    layout: PathBuf,
    api_tests: PathBuf,
}

/// Runs `mcs` with warnings as errors, failing the test with its output.
fn mcs(args: &[&str], sources: &[&Path], out: &Path) {
    let output = Command::new("mcs")
        .args(["-nologo", "-warn:4", "-warnaserror"])
        .args(args)
        .arg(format!("-out:{}", out.display()))
        .args(sources)
        .output()
        .expect("run mcs");
    assert!(
        output.status.success(),
        "mcs failed for {}:\n{}{}",
        out.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Builds the library and the binding's programs once per test binary.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let lib_dir =
            common::static_library().parent().expect("the library's folder").to_path_buf();
        assert!(
            lib_dir.join("libcarcassonne_capi.so").exists(),
            "cargo build made no libcarcassonne_capi.so in {}",
            lib_dir.display()
        );
        let out = lib_dir.join("capi-csharp");
        std::fs::create_dir_all(&out).expect("create the C# build folder");
        let src = binding_dir();
        let binding = src.join("Carcassonne.cs");
        // The binding alone, as a library with its XML docs: a public member without a doc
        // comment is a warning (CS1591), so an error here.
        let dll = out.join("Carcassonne.dll");
        let doc = format!("-doc:{}", out.join("Carcassonne.xml").display());
        mcs(&["-target:library", &doc], &[&binding], &dll);
        // The sample and the API tests see only the public API, as a Unity script would.
        let reference = format!("-r:{}", dll.display());
        let sample = out.join("Sample.exe");
        mcs(&[&reference], &[&src.join("Sample").join("Program.cs")], &sample);
        let api_tests = out.join("ApiTests.exe");
        mcs(
            &[&reference, "-r:System.Core.dll"],
            &[&src.join("Tests").join("ApiTests.cs")],
            &api_tests,
        );
        // The layout check reads the internal structs, so it is compiled with the binding.
        let layout = out.join("Layout.exe");
        mcs(&[], &[&binding, &src.join("Layout").join("Layout.cs")], &layout);
        Built { lib_dir, sample, layout, api_tests }
    })
}

/// Runs a C# program with mono from the repository root, the library on the loader's path.
fn mono(exe: &Path, args: &[&str]) -> String {
    let built = built();
    let mut path = built.lib_dir.clone().into_os_string();
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
        path.push(":");
        path.push(old);
    }
    let output = common::run_command(
        Command::new("mono").arg("--debug").arg(exe).args(args).env("LD_LIBRARY_PATH", path),
    );
    String::from_utf8(output.stdout).expect("the C# programs print UTF-8")
}

/// SplitMix64, the rule every consumer uses for random choices: `legal[next() % count]`.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The sample's last line for `seed`, from the same game played through the Rust API.
fn rust_final_line(seed: u64) -> String {
    let mut setup = GameSetup::new(vec![Catalog::builtin("base").expect("base is built in")], 2);
    setup.seed = seed;
    let mut game = Game::new(setup).expect("base with two players is a valid setup");
    let mut rng = SplitMix64(seed);
    let mut legal = Vec::new();
    let mut actions = 0;
    while !game.is_over() {
        game.legal_actions_into(&mut legal);
        let count = u64::try_from(legal.len()).expect("a count fits in 64 bits");
        let index = usize::try_from(rng.next() % count).expect("an index below the count");
        game.apply(legal[index]).expect("a legal action is accepted");
        actions += 1;
    }
    let scores: Vec<String> = game.scores().iter().map(u32::to_string).collect();
    let winners = game.leaders().iter().fold(0u8, |mask, player| mask | 1 << player.index());
    format!("seed={seed} actions={actions} scores={} winners={winners}", scores.join(","))
}

#[test]
fn the_sample_plays_the_games_of_the_rust_api() {
    if !have_tools("the_sample_plays_the_games_of_the_rust_api") {
        return;
    }
    for seed in SEEDS {
        let stdout = mono(&built().sample, &[&seed.to_string()]);
        let last = stdout.lines().last().unwrap_or_default();
        assert_eq!(last, rust_final_line(seed), "seed {seed}; the sample printed:\n{stdout}");
        assert!(
            stdout.contains("refused as expected: CARC_RESULT_CELL_OCCUPIED (406)"),
            "the sample shows a refused action:\n{stdout}"
        );
    }
}

#[test]
fn the_api_tests_pass() {
    if !have_tools("the_api_tests_pass") {
        return;
    }
    let stdout = mono(&built().api_tests, &[]);
    assert!(stdout.contains(" checks, 0 failed"), "{stdout}");
}

/// The names of the structs with a body in the header, and every numeric constant
/// (`#define`s and the `carc_result` enumerators) with its value.
fn header_structs_and_constants() -> (BTreeSet<String>, BTreeSet<String>) {
    let mut structs = BTreeSet::new();
    let mut constants = BTreeSet::new();
    for line in header().lines() {
        if let Some(rest) = line.strip_prefix("typedef struct ") {
            if let Some(name) = rest.strip_suffix(" {") {
                structs.insert(name.to_owned());
            }
        } else if let Some(rest) = line.strip_prefix("#define CARC_") {
            let mut words = rest.split_whitespace();
            if let (Some(name), Some(value), None) = (words.next(), words.next(), words.next())
                && value.parse::<u64>().is_ok()
            {
                constants.insert(format!("const CARC_{name} {value}"));
            }
        } else if let Some(rest) = line.trim_start().strip_prefix("CARC_RESULT_")
            && let Some((name, value)) = rest.trim_end_matches(',').split_once(" = ")
        {
            constants.insert(format!("const CARC_RESULT_{name} {value}"));
        }
    }
    (structs, constants)
}

#[test]
fn the_structs_and_constants_match_the_header() {
    if !have_tools("the_structs_and_constants_match_the_header") {
        return;
    }
    let built = built();
    let src = binding_dir();
    let c_exe = built.lib_dir.join("capi-csharp").join("layout");
    let output = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I"])
        .arg(common::repo_root().join("include"))
        .arg(src.join("layout.c"))
        .arg("-o")
        .arg(&c_exe)
        .output()
        .expect("run gcc");
    assert!(
        output.status.success(),
        "gcc failed on layout.c:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let c_out = String::from_utf8(common::run(&c_exe, &[]).stdout).expect("layout.c prints ASCII");
    let c_lines: BTreeSet<&str> = c_out.lines().collect();

    // layout.c must cover the whole header, so that agreeing with it means agreeing with the header.
    let (structs, constants) = header_structs_and_constants();
    assert!(structs.len() >= 17 && constants.len() >= 100, "the header parse found too little");
    for name in &structs {
        assert!(
            c_lines.iter().any(|line| line.starts_with(&format!("size {name} "))),
            "layout.c does not print struct {name}"
        );
    }
    let c_constants: BTreeSet<String> = c_lines
        .iter()
        .filter(|line| line.starts_with("const "))
        .map(|line| (*line).to_owned())
        .collect();
    assert_eq!(c_constants, constants, "layout.c's constants differ from the header's");

    let cs_out = mono(&built.layout, &[]);
    let cs_lines: BTreeSet<&str> = cs_out.lines().collect();
    let only_c: Vec<_> = c_lines.difference(&cs_lines).collect();
    let only_cs: Vec<_> = cs_lines.difference(&c_lines).collect();
    assert!(
        only_c.is_empty() && only_cs.is_empty(),
        "the C# layout differs from the C one\nonly in C: {only_c:#?}\nonly in C#: {only_cs:#?}"
    );
}

/// The function names declared by a line of the header: a declaration starts in the first
/// column and names its function just before the first parenthesis.
fn header_functions() -> BTreeSet<String> {
    header()
        .lines()
        .filter(|line| line.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
        .filter_map(|line| {
            let before = &line[..line.find('(')?];
            let name = before.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next()?;
            name.starts_with("carc_").then(|| name.to_owned())
        })
        .collect()
}

#[test]
fn every_header_function_is_declared_in_the_binding() {
    let binding =
        std::fs::read_to_string(binding_dir().join("Carcassonne.cs")).expect("read Carcassonne.cs");
    let declared: BTreeSet<String> = binding
        .lines()
        .filter(|line| line.contains(" static extern "))
        .filter_map(|line| {
            let before = &line[..line.find('(')?];
            before.rsplit(' ').next().map(str::to_owned)
        })
        .collect();
    let functions = header_functions();
    assert!(functions.len() >= 60, "the header parse found only {} functions", functions.len());
    let missing: Vec<_> = functions.difference(&declared).collect();
    let stale: Vec<_> = declared.difference(&functions).collect();
    assert!(missing.is_empty(), "Carcassonne.cs declares no DllImport for {missing:?}");
    assert!(stale.is_empty(), "Carcassonne.cs declares functions the header lacks: {stale:?}");
}
