//! Sequences of C API calls, read with `arbitrary` from bytes as the fuzz target reads them.
//! A file of its own, its tests one at a time: the property counts the library's live
//! handles, which another test running beside it would disturb.

mod common;

use arbitrary::{Arbitrary, Unstructured};
use carcassonne_properties::c_calls::{Call, Script, are_safe};
use std::sync::{Mutex, PoisonError};

use common::{chunked, corpus, mutated_script};
use proptest::prelude::*;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any calls, with NULLs, stale and made-up handles and garbage values: never a panic
    /// inside the library, outputs only on success, refused calls change nothing, and no
    /// handle outlives its free.
    #[test]
    fn c_calls_are_safe(script in scripts()) {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        are_safe(&script);
    }
}

/// Each committed seed, as it is: what the fuzzer starts from holds too.
#[test]
fn the_seeds_are_safe() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    for seed in corpus("c_calls_are_safe") {
        are_safe(&script(&seed));
    }
}

/// Half random scripts of up to 96 calls, half committed seeds with a few edits.
fn scripts() -> impl Strategy<Value = Script> {
    prop_oneof![
        chunked::<Call>(96).prop_map(|calls| Script { calls }),
        mutated_script("c_calls_are_safe").prop_map(|bytes| script(&bytes)),
    ]
}

fn script(bytes: &[u8]) -> Script {
    Script::arbitrary_take_rest(Unstructured::new(bytes)).expect("any bytes make a script")
}
