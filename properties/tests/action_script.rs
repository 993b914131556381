//! Scripts of actions against real games, read with `arbitrary` from random bytes as the
//! fuzz target reads them from the fuzzer's.

mod common;

use arbitrary::{Arbitrary, Unstructured};
use carcassonne_properties::action_script::{Script, Step, keeps_invariants};
use common::{chunked, corpus, mutated_script};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Legal actions are accepted, any other action is refused by `check` and `apply` alike
    /// and leaves the game as it was, and the engine's invariants hold after every step.
    #[test]
    fn action_script_keeps_invariants(script in scripts()) {
        keeps_invariants(&script);
    }
}

/// Each committed seed, as it is: what the fuzzer starts from holds too.
#[test]
fn the_seeds_keep_invariants() {
    for seed in corpus("action_script_keeps_invariants") {
        keeps_invariants(&script(&seed));
    }
}

/// Half random scripts (a game read from 64 random bytes, then up to 160 steps), half
/// committed seeds with a few edits.
fn scripts() -> impl Strategy<Value = Script> {
    let random =
        (prop::collection::vec(any::<u8>(), 64), chunked::<Step>(160)).prop_map(|(head, steps)| {
            let mut script = script(&head);
            script.steps.extend(steps);
            script
        });
    prop_oneof![
        random,
        mutated_script("action_script_keeps_invariants").prop_map(|bytes| script(&bytes))
    ]
}

fn script(bytes: &[u8]) -> Script {
    Script::arbitrary_take_rest(Unstructured::new(bytes)).expect("any bytes make a script")
}
