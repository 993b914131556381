//! Any bytes as a saved game: refused, or a game that replays, saves and loads to itself.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| carcassonne_properties::saved_game_json::replays(data));
