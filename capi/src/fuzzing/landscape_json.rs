//! Any bytes as landscape JSON, scored through `carc_landscape_score_new`.

use std::ptr;

use crate::fuzzing::{c_string, no_error, settle};
use crate::landscape::{
    carc_landscape_options, carc_landscape_score, carc_landscape_score_features,
    carc_landscape_score_free, carc_landscape_score_json, carc_landscape_score_new,
    carc_landscape_score_new_scoring, carc_landscape_score_totals,
    carc_landscape_scoring_solo_puzzle,
};
use crate::result::carc_result;
use crate::values::{CARC_MAX_PLAYERS, carc_feature_score};

/// Landscape JSON is refused with a result code and a bounded error object and no score, or
/// scores into totals that are exactly the sum of the per-feature scores: under the default
/// rules, with farmers and every feature claimed, and as the published solo puzzles (one
/// total, no field scored); never a panic, and the score object is gone once freed.
///
/// # Panics
/// When the library breaks that promise.
pub fn scores(data: &[u8]) {
    let json = c_string(data);
    let mut options = carc_landscape_options {
        rules: crate::values::rules_to_c(&carcassonne::RuleOptions::default()),
        claim_all: 0,
        has_pennant_value: 0,
        pennant_value: 0,
    };
    for claim_all in [0, 1] {
        options.claim_all = claim_all;
        options.rules.farmers = claim_all;
        let mut score = ptr::null_mut();
        let mut err = no_error();
        // SAFETY: a NUL-terminated string, no catalogs, valid options and out pointers.
        let code = unsafe {
            carc_landscape_score_new(json.as_ptr(), ptr::null(), 0, &options, &mut score, &mut err)
        };
        if settle("carc_landscape_score_new", code, err) != carc_result::Ok {
            assert!(score.is_null(), "a refused landscape wrote a score");
            continue;
        }
        let (totals, features) = check_and_free(score);
        if claim_all == 1 {
            assert_eq!(totals.len(), 1, "a claimed landscape has one total");
        }
        assert!(!features.is_empty() || totals.iter().all(|total| *total == 0));
    }

    let mut solo = std::mem::MaybeUninit::uninit();
    // SAFETY: a writable struct, written on success.
    assert_eq!(unsafe { carc_landscape_scoring_solo_puzzle(solo.as_mut_ptr()) }, carc_result::Ok);
    // SAFETY: written by the call above.
    let solo = unsafe { solo.assume_init() };
    let mut score = ptr::null_mut();
    let mut err = no_error();
    // SAFETY: a NUL-terminated string, no catalogs, a valid scoring and out pointers.
    let code = unsafe {
        carc_landscape_score_new_scoring(json.as_ptr(), ptr::null(), 0, &solo, &mut score, &mut err)
    };
    if settle("carc_landscape_score_new_scoring", code, err) != carc_result::Ok {
        assert!(score.is_null(), "a refused landscape wrote a score");
        return;
    }
    let (totals, features) = check_and_free(score);
    assert_eq!(totals.len(), 1, "a solo puzzle has one total");
    assert!(features.iter().all(|feature| feature.farmers == 0), "a solo puzzle scored a field");
}

/// The totals and features of a live `score`, after checking that the totals are the sums
/// of the features and the JSON is JSON; frees it and checks it is gone.
fn check_and_free(score: *mut carc_landscape_score) -> (Vec<u32>, Vec<carc_feature_score>) {
    assert!(!score.is_null());
    let mut totals = [u32::MAX; CARC_MAX_PLAYERS];
    let (mut players, mut features, mut size) = (0, 0, 0);
    // SAFETY: a live score; buffers of the capacities given; writable counts.
    unsafe {
        let code =
            carc_landscape_score_totals(score, totals.as_mut_ptr(), totals.len(), &mut players);
        assert_eq!(code, carc_result::Ok);
        let code = carc_landscape_score_features(score, ptr::null_mut(), 0, &mut features);
        assert!(matches!(code, carc_result::Ok | carc_result::BufferTooSmall), "{code:?}");
        let mut list = vec![carc_feature_score::default(); features];
        let code =
            carc_landscape_score_features(score, list.as_mut_ptr(), list.len(), &mut features);
        assert_eq!(code, carc_result::Ok);
        let mut sums = [0u64; CARC_MAX_PLAYERS];
        for feature in &list {
            for (player, sum) in sums.iter_mut().enumerate() {
                if feature.scorers & (1 << player) != 0 {
                    *sum += u64::from(feature.points);
                }
            }
        }
        for player in 0..players {
            assert_eq!(u64::from(totals[player]), sums[player], "player {player}'s total");
        }
        let code = carc_landscape_score_json(score, ptr::null_mut(), 0, &mut size);
        assert!(matches!(code, carc_result::Ok | carc_result::BufferTooSmall), "{code:?}");
        let mut text = vec![0u8; size];
        let code =
            carc_landscape_score_json(score, text.as_mut_ptr().cast(), text.len(), &mut size);
        assert_eq!(code, carc_result::Ok);
        assert_eq!(text.last(), Some(&0), "the JSON is NUL-terminated");
        serde_json::from_slice::<serde_json::Value>(&text[..text.len() - 1])
            .expect("the score's JSON is JSON");
        carc_landscape_score_free(score);
        let code =
            carc_landscape_score_totals(score, totals.as_mut_ptr(), totals.len(), &mut players);
        assert_eq!(code, carc_result::InvalidHandle, "a freed score still answers");
        (totals[..players].to_vec(), list)
    }
}
