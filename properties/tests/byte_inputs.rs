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
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any saved game: refused, or a game that replays, saves and loads to itself and keeps
    /// its invariants. A save file is as untrusted as a tile set.
    #[test]
    fn saved_game_json_replays(data in mutated_seed("saved_game_json_replays", 6)) {
        saved_game_json::replays(&data);
    }
}
