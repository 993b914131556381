//! Landscape JSON through the C API as a proptest over mutations of its fuzz target's seeds.
//! A file of its own: the property counts the library's live handles, which other tests in
//! the same process would disturb.

mod common;

use carcassonne_properties::landscape_json;
use common::mutated_seed;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any landscape JSON: refused with an error object, or totals that are the sum of the
    /// per-feature scores; never a panic inside the library.
    #[test]
    fn landscape_json_scores(data in mutated_seed("landscape_json_scores", 8)) {
        landscape_json::scores(&data);
    }
}
