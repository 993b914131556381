//! Any bytes as setup JSON, the form `carc_game_new_json` and saved games use.

use carcassonne::{Action, Game, GameSetup, Phase};

/// Setup JSON is refused with an error, or makes a setup that writes back to equal JSON and
/// either starts a game waiting for its first draw or is refused by [`Game::new`]; never a
/// panic, and a refusal's message is bounded.
///
/// # Panics
/// When the library breaks that promise.
pub fn round_trips(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    let setup = match serde_json::from_str::<GameSetup>(text) {
        Ok(setup) => setup,
        Err(error) => return crate::assert_bounded_error(&error, text),
    };
    let json = serde_json::to_string(&setup).expect("a setup writes as JSON");
    let again: GameSetup = serde_json::from_str(&json)
        .unwrap_or_else(|error| panic!("a setup's own JSON was refused: {error}\n{json}"));
    assert!(again == setup, "a setup changed on its way through JSON");
    let Ok(game) = Game::new(setup.clone()) else { return };
    assert!(game.setup() == setup, "the game's setup is not the one given");
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.legal_actions(), [Action::Draw]);
    crate::invariants::assert_consistent(&game);
}
