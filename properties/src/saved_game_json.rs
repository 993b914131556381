//! Any bytes as a saved game.

use carcassonne::Game;

/// A saved game is refused with an error, or loads (by replaying every action, each checked
/// again) into a game that saves back to JSON loading an equal game, equals the replay of its
/// own setup and actions, and keeps the engine's invariants; never a panic, and a refusal's
/// message is bounded (a long file name or key is cut).
///
/// # Panics
/// When the library breaks that promise.
pub fn replays(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    let game = match serde_json::from_str::<Game>(text) {
        Ok(game) => game,
        Err(error) => return crate::assert_bounded_error(&error, text),
    };
    crate::invariants::assert_saves_and_replays(&game);
    crate::invariants::assert_consistent(&game);
}
