//! Any bytes as landscape JSON through the C API: refused, or totals that add up.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| carcassonne_properties::landscape_json::scores(data));
