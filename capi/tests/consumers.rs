//! The C and C++ consumers (`consumers/play.c`, `consumers/play.cpp`) play seeded random games
//! through the C ABI under AddressSanitizer and UndefinedBehaviorSanitizer (and `play.c` under
//! valgrind), checking the library's answers against each other as they go; here the same games
//! are played through the Rust API, and every summary line must be the same from all three.
//!
//! A line holds the actions played, the final scores, the winners and an FNV-1a hash of the
//! saved game, so equal lines mean the C ABI drove exactly the game the Rust API plays and
//! saved it byte for byte as `serde_json::to_string(&game)` does.

mod common;

use std::process::Command;

use carcassonne::{
    Catalog, Event, FarmScoring, Game, GameSetup, PlayerSet, RuleOptions, UnfinishedMarks,
};
use common::Instrument;

/// Games per configuration in the sanitizer runs: seeds 1 to this.
const GAMES: u64 = 4;

/// The configuration and the number of games the valgrind run plays: the one with every rule
/// that has code of its own (river, abbots, inns and cathedrals, big followers).
const VALGRIND_CONFIG: &str = "river_c2_ic_5p_abbots_once";
const VALGRIND_GAMES: u64 = 1;

/// One line of `CONFIGS` in play.c and play.cpp, in the same order.
struct Config {
    name: &'static str,
    sets: &'static [&'static str],
    players: u8,
    options: RuleOptions,
}

const PUBLISHED: RuleOptions = RuleOptions::new();

const CONFIGS: [Config; 13] = [
    Config { name: "base_2p", sets: &["base"], players: 2, options: PUBLISHED },
    Config {
        name: "base_c2_3p_abbots",
        sets: &["base_c2"],
        players: 3,
        options: PUBLISHED.with_abbots(true),
    },
    Config {
        name: "river_base_4p_city4",
        sets: &["river", "base"],
        players: 4,
        options: PUBLISHED.with_farm_scoring(FarmScoring::PerCity4),
    },
    Config {
        name: "base_ic_6p_tiny_normal",
        sets: &["base", "inns_and_cathedrals"],
        players: 6,
        options: PUBLISHED
            .with_tiny_city(true)
            .with_inn_cathedral_unfinished(UnfinishedMarks::Normal),
    },
    Config {
        name: "river_c2_ic_5p_abbots_once",
        sets: &["river", "base_c2", "inns_and_cathedrals"],
        players: 5,
        options: PUBLISHED.with_abbots(true).with_farm_scoring(FarmScoring::PerFieldOnce),
    },
    Config {
        name: "base_ic_cathars_4p_city4",
        sets: &["base", "inns_and_cathedrals", "cathars"],
        players: 4,
        options: PUBLISHED.with_farm_scoring(FarmScoring::PerCity4),
    },
    Config {
        name: "base_traders_3p",
        sets: &["base", "traders_and_builders"],
        players: 3,
        options: PUBLISHED,
    },
    Config {
        name: "base_c2_hills_2p_abbots",
        sets: &["base_c2", "hills_and_sheep"],
        players: 2,
        options: PUBLISHED.with_abbots(true),
    },
    Config {
        name: "base_king_robber_3p",
        sets: &["base", "king_and_robber"],
        players: 3,
        options: PUBLISHED,
    },
    Config {
        name: "base_cult_2p_abbots",
        sets: &["base", "cult"],
        players: 2,
        options: PUBLISHED.with_abbots(true),
    },
    Config {
        name: "river_ii_base_ic_3p",
        sets: &["river_ii", "base", "inns_and_cathedrals"],
        players: 3,
        options: PUBLISHED,
    },
    // Every set and figure at once: the builder, the pig, the shepherd and the hills.
    Config {
        name: "every_set_6p_abbots",
        sets: &[
            "river",
            "base",
            "inns_and_cathedrals",
            "cathars",
            "traders_and_builders",
            "hills_and_sheep",
            "king_and_robber",
            "cult",
        ],
        players: 6,
        options: PUBLISHED.with_abbots(true),
    },
    // The consumers make this one from a JSON setup that leaves most options out.
    Config {
        name: "ic_base_3p_no_farmers_json",
        sets: &["inns_and_cathedrals", "base"],
        players: 3,
        options: PUBLISHED.with_farmers(false),
    },
];

/// splitmix64, as the consumers implement it: the one source of every random choice.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn mask(players: PlayerSet) -> u8 {
    players.iter().fold(0, |mask, player| mask | 1 << player.0)
}

/// The consumers' line for one game, played through the Rust API with the same choices.
fn rust_line(config: &Config, seed: u64) -> String {
    let catalogs = config
        .sets
        .iter()
        .map(|name| Catalog::builtin(name).unwrap_or_else(|error| panic!("{error}")))
        .collect();
    let mut setup = GameSetup::new(catalogs, config.players);
    setup.seed = seed;
    setup.options = config.options;
    let mut game = Game::new(setup).unwrap_or_else(|error| panic!("{}: {error}", config.name));
    let mut rng = SplitMix64(seed);
    let (mut legal, mut winners, mut steps) = (Vec::new(), None, 0);
    while !game.is_over() {
        game.legal_actions_into(&mut legal);
        let count = u64::try_from(legal.len()).expect("a list length fits in u64");
        let choice = usize::try_from(rng.next() % count).expect("an index below a length");
        for event in game.apply(legal[choice]).expect("a legal action is accepted") {
            if let Event::GameOver { winners: set } = event {
                winners = Some(mask(set));
            }
        }
        steps += 1;
    }
    let winners = winners.expect("the last action ends the game with GameOver");
    assert_eq!(
        winners,
        mask(game.leaders()),
        "{} seed {seed}: GameOver is not the leaders",
        config.name
    );
    let scores: Vec<String> = game.scores().iter().map(u32::to_string).collect();
    let save = serde_json::to_string(&game).expect("a game saves");
    format!(
        "config={} seed={seed} actions={steps} scores={} winners={winners} save_fnv={:016x}",
        config.name,
        scores.join(","),
        fnv1a64(save.as_bytes())
    )
}

/// The lines the consumers must print for `play GAMES [CONFIG]`.
fn expected_lines(games: u64, only: Option<&str>) -> Vec<String> {
    CONFIGS
        .iter()
        .filter(|config| only.is_none_or(|name| name == config.name))
        .flat_map(|config| (1..=games).map(move |seed| rust_line(config, seed)))
        .collect()
}

/// Fails with the first line that differs, and both whole outputs, unless they are equal.
fn assert_same_lines(who: &str, stdout: &[u8], expected: &[String]) {
    let stdout = String::from_utf8_lossy(stdout);
    let actual: Vec<&str> = stdout.lines().collect();
    if actual == expected {
        return;
    }
    let first = actual.iter().zip(expected).position(|(a, e)| a != e).unwrap_or(0);
    panic!(
        "{who} played other games than the Rust API (or printed other lines), first at line {}:\n  \
         {who}: {}\n  rust: {}\n--- {who} printed\n{stdout}\n--- the Rust API expects\n{}",
        first + 1,
        actual.get(first).unwrap_or(&"<nothing>"),
        expected.get(first).map_or("<nothing>", String::as_str),
        expected.join("\n")
    );
}

/// C, C++ and Rust play the same games to the same end, and the consumers find nothing wrong
/// on the way, with every memory access and undefined behaviour checked by the sanitizers.
#[test]
fn c_and_cpp_consumers_play_the_rust_api_games_under_sanitizers() {
    let games = GAMES.to_string();
    let (runs, expected) = std::thread::scope(|scope| {
        let games = games.as_str();
        let runs = ["play.c", "play.cpp"].map(|source| {
            scope.spawn(move || {
                let exe = common::compile(source, Instrument::Sanitizers);
                (source, common::run(&exe, &[games]))
            })
        });
        // Meanwhile, on this thread, the same games through the Rust API.
        let expected = expected_lines(GAMES, None);
        (runs.map(|run| run.join().expect("a consumer run panicked")), expected)
    });
    for (source, output) in &runs {
        assert_same_lines(source, &output.stdout, &expected);
    }
}

/// valgrind sees what the sanitizers cannot: uninitialised reads inside the Rust library and
/// leaks of memory it allocated, with an uninstrumented build of play.c.
#[test]
fn c_consumer_is_clean_under_valgrind() {
    if !common::have("valgrind") {
        common::skip(
            "c_consumer_is_clean_under_valgrind",
            "valgrind is not installed, so the uninstrumented run is not checked",
        );
        return;
    }
    let exe = common::compile("play.c", Instrument::Plain);
    let output = common::run_command(
        Command::new("valgrind")
            .args(["--error-exitcode=99", "--leak-check=full"])
            .args(["--errors-for-leak-kinds=definite,indirect", "-q"])
            .arg(&exe)
            .args([VALGRIND_GAMES.to_string().as_str(), VALGRIND_CONFIG]),
    );
    assert_same_lines(
        "play.c under valgrind",
        &output.stdout,
        &expected_lines(VALGRIND_GAMES, Some(VALGRIND_CONFIG)),
    );
}
