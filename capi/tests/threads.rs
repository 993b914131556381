//! Eight threads on one game handle (`consumers/threads.c`): apply, list, save, events,
//! queries and a free midway, all at once. Before each slot of the handle registry had its
//! lock, this gave heap-use-after-free under AddressSanitizer, `double free or corruption`
//! aborts and saves that did not load; now every call answers a documented code and every
//! save taken under contention reloads.
//!
//! Built with AddressSanitizer and UndefinedBehaviorSanitizer here; `.ci/sanitized-consumers`
//! runs it against a library whose Rust code AddressSanitizer instruments, and
//! `.ci/thread-sanitizer` against one whose Rust code and standard library ThreadSanitizer
//! instruments (`CARC_SANITIZED_LIBRARY=thread`).

mod common;

use common::Instrument;

/// Rounds of eight threads; half of them free the game midway.
const ROUNDS: &str = "24";

#[test]
fn eight_threads_on_one_game_handle_stay_sound() {
    let exe = common::compile("threads.c", Instrument::Sanitizers);
    let output = common::run(&exe, &[ROUNDS]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(stdout.contains(", 0 failed"), "{stdout}");
    assert!(!stdout.contains(" 0 saves reloaded"), "no save was taken: {stdout}");
}
