//! Scripts of actions against real games, read with `arbitrary` from random bytes as the
//! fuzz target reads them from the fuzzer's.

mod common;

use arbitrary::{Arbitrary, Unstructured};
use carcassonne_properties::action_script::{Script, keeps_invariants};
use common::{corpus, script_input};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Legal actions are accepted, any other action is refused by `check` and `apply` alike
    /// and leaves the game as it was, and the engine's invariants hold after every step.
    #[test]
    fn action_script_keeps_invariants(bytes in script_input("action_script_keeps_invariants", 2048)) {
        keeps_invariants(&script(&bytes));
    }
}

/// Each committed seed, as it is: what the fuzzer starts from holds too.
#[test]
fn the_seeds_keep_invariants() {
    for seed in corpus("action_script_keeps_invariants") {
        keeps_invariants(&script(&seed));
    }
}

fn script(bytes: &[u8]) -> Script {
    Script::arbitrary_take_rest(Unstructured::new(bytes)).expect("any bytes make a script")
}
