//! Any bytes as a tile-set file: a catalog or diagnostics, never a panic or a hang.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| carcassonne_properties::tileset_toml::diagnosed(data));
