//! Sequences of C API calls, read with `arbitrary` from random bytes as the fuzz target
//! reads them. A file of its own: the property counts the library's live handles, which
//! other tests in the same process would disturb.

mod common;

use arbitrary::{Arbitrary, Unstructured};
use carcassonne_properties::c_calls::{Script, are_safe};
use common::script_bytes;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any calls, with NULLs, stale and made-up handles and garbage values: never a panic
    /// inside the library, outputs only on success, refused calls change nothing, and no
    /// handle outlives its free.
    #[test]
    fn c_calls_are_safe(bytes in script_bytes(4096)) {
        let script = Script::arbitrary_take_rest(Unstructured::new(&bytes)).expect("any bytes make a script");
        are_safe(&script);
    }
}
