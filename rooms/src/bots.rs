//! A bot's turn in a room: the bot a level names, and the actions it takes from where the
//! game stands.

use carcassonne::{Action, Game, PlayerId};
use carcassonne_bots::{Bot, Profile, derive_seed};

/// The bot of a built-in level (`easy` to `expert`, or any built-in profile) for the turn
/// `game` stands at: one thread, seeded by the game's seed and the actions so far, so a
/// replayed game gets the same bot. None for a name no built-in profile has.
pub fn builtin_bot(level: &str, game: &Game) -> Option<Box<dyn Bot>> {
    let seed = derive_seed(game.seed(), game.actions().len() as u64);
    Profile::builtin(level).ok().map(|profile| profile.with_threads(1).bot(seed))
}

/// A bot's turn from where it stands: its placement, its figure action, and its flock's
/// choice when the tile extended its shepherd's field; it stops at a draw (the host's, of a
/// tile or a sheep token), so a choice after a sheep draw is asked for again.
///
/// # Errors
/// The bot's own error, or an action of its the engine refuses, as text.
pub fn think(mut game: Game, seat: PlayerId, bot: &dyn Bot) -> Result<Vec<Action>, String> {
    let mut actions = Vec::new();
    for _ in 0..3 {
        if game.is_over() || game.current_player() != seat || game.phase().is_chance() {
            break;
        }
        let action = bot.choose(&game, seat).map_err(|error| error.to_string())?;
        game.apply(action).map_err(|error| error.to_string())?;
        actions.push(action);
    }
    Ok(actions)
}
