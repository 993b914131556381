//! A real game and any actions against it: legal accepted, illegal refused without a trace.
#![no_main]
use carcassonne_properties::action_script::{Script, keeps_invariants};
libfuzzer_sys::fuzz_target!(|script: Script| keeps_invariants(&script));
