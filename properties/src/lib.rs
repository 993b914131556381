//! The hardening properties of the engine, one function per input a user controls.
//!
//! Each function takes what the outside world hands the library (bytes of a file, a script of
//! actions or C calls) and panics when the library breaks a promise. The cargo-fuzz targets
//! under `fuzz/` are one-line calls of these functions, and this crate's `tests/` run every
//! one as a proptest (over mutations of the same seed corpora, or random scripts), so CI
//! without a fuzzer still checks the same properties.
//!
//! | property | input | fuzz target |
//! |---|---|---|
//! | [`tileset_toml::diagnosed`] | any bytes as a tile-set file | `tileset_toml_diagnosed` |
//! | [`setup_json::round_trips`] | any bytes as setup JSON | `setup_json_round_trips` |
//! | [`saved_game_json::replays`] | any bytes as a saved game | `saved_game_json_replays` |
//! | [`landscape_json::scores`] | any bytes as landscape JSON, through the C API | `landscape_json_scores` |
//! | [`action_script::keeps_invariants`] | a game and any actions against it | `action_script_keeps_invariants` |
//! | [`c_calls::are_safe`] | any sequence of C API calls | `c_calls_are_safe` |

#![forbid(unsafe_code)]

pub mod action_script;
#[path = "../../tests/common/invariants.rs"]
mod invariants;
pub mod saved_game_json;
pub mod setup_json;
pub mod tileset_toml;

/// Landscape JSON scored through `carc_landscape_score_new`.
pub mod landscape_json {
    pub use carcassonne_capi::fuzzing::landscape_json::scores;
}

/// Sequences of C API calls with NULLs, stale handles and garbage values.
pub mod c_calls {
    pub use carcassonne_capi::fuzzing::c_calls::{Call, Script, are_safe};
}

/// Fails when a refusal's message is not bounded: at most [`MAX_ERROR_MESSAGE`] characters
/// of the library's own (a tile set's every diagnostic fits) beside what it quotes of the
/// input, which is never more than the input.
///
/// [`MAX_ERROR_MESSAGE`]: carcassonne::limits::MAX_ERROR_MESSAGE
fn assert_bounded_error(error: &impl std::fmt::Display, input: &str) {
    let chars = error.to_string().chars().count();
    let bound = carcassonne::limits::MAX_ERROR_MESSAGE + input.chars().count();
    assert!(chars <= bound, "an error of {chars} characters for {} of input", input.len());
}

/// The text of `data` when it is UTF-8: every reader takes `&str`, so other bytes never reach
/// the library (the C API refuses them with `CARC_RESULT_INVALID_UTF8` first).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}
