//! The byte-input properties (tile-set TOML, setup JSON, saved games) as proptests over
//! mutations of their fuzz targets' seed corpora, so CI without a fuzzer covers them too.

mod common;

use carcassonne_properties::{saved_game_json, setup_json, tileset_toml};
use common::mutated_seed;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any tile-set file: a catalog that writes back to itself, or diagnostics that point
    /// into the text. A file from a stranger must never crash the host.
    #[test]
    fn tileset_toml_diagnosed(data in mutated_seed("tileset_toml_diagnosed", 8)) {
        tileset_toml::diagnosed(&data);
    }

    /// Any setup JSON: refused, or a setup that writes back to itself and starts a game.
    #[test]
    fn setup_json_round_trips(data in mutated_seed("setup_json_round_trips", 8)) {
        setup_json::round_trips(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any tile-set file that loads plays: its declared marks and rules carry a game to the
    /// end, its score events adding up to the scores. A stranger's rules must never crash
    /// the host either.
    #[test]
    fn tileset_toml_plays(data in mutated_seed("tileset_toml_plays", 4)) {
        tileset_toml::plays(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any saved game: refused, or a game that replays, saves and loads to itself and keeps
    /// its invariants. A save file is as untrusted as a tile set.
    #[test]
    fn saved_game_json_replays(data in mutated_seed("saved_game_json_replays", 6)) {
        saved_game_json::replays(&data);
    }
}

/// Every seed of `tileset_toml_plays` loads and plays a whole game: the mutations start from
/// files that reach the game, not only the loader.
#[test]
fn the_rule_seeds_play_whole_games() {
    for seed in common::corpus("tileset_toml_plays") {
        let text = std::str::from_utf8(&seed).unwrap();
        assert!(carcassonne::Catalog::from_toml("seed.toml", text).is_ok(), "{text}");
        tileset_toml::plays(&seed);
    }
}
