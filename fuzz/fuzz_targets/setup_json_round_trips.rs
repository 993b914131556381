//! Any bytes as setup JSON: refused, or a setup that writes back to itself.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| carcassonne_properties::setup_json::round_trips(data));
