//! Any bytes as a tile-set file that loads: a game with its declared marks and rules plays to
//! the end, its score events adding up to the scores, never a panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| carcassonne_properties::tileset_toml::plays(data));
