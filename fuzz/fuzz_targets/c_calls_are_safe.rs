//! Any sequence of C API calls, with NULLs, stale handles and garbage values.
#![no_main]
use carcassonne_properties::c_calls::{Script, are_safe};
libfuzzer_sys::fuzz_target!(|script: Script| are_safe(&script));
