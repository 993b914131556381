//! The random bot: the base protocol's easy level.

use carcassonne::{Action, Event, Game, Phase, PlayerId};
use rand::Rng;

use crate::seeds::{decision_seed, dice};
use crate::{Bot, BotError, forced};

/// Plays `game` on to its end with uniformly random legal actions, the `k`-th chosen by the
/// seed derived from `seed` and `k` (the tiles come from the bag as it stands), and returns how
/// many actions it played: a whole rollout in one call, for bindings and speed measurements.
/// `events` is a buffer the actions' events go to, cleared before each.
///
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// let played = carcassonne_bots::play_random(&mut game, 7, &mut Vec::new());
/// assert!(game.is_over() && played > 71);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_random(game: &mut Game, seed: u64, events: &mut Vec<Event>) -> usize {
    let mut played = 0;
    while !game.is_over() {
        let count = game.legal_action_count() as u64;
        let pick = crate::seeds::derive(seed, played as u64) % count.max(1);
        let Some(action) = game.legal_action(pick as usize) else { break };
        events.clear();
        if game.apply_into(action, events).is_err() {
            break;
        }
        played += 1;
    }
    played
}

/// A random legal placement; then, `figure_chance` of the time, a random figure action (a
/// deploy or an abbot's recall) where there is one, else a skip; and growing or driving a
/// flock at even odds.
#[derive(Clone, Debug)]
pub struct RandomBot {
    name: String,
    seed: u64,
    figure_chance: f64,
}

impl RandomBot {
    /// A random bot with `seed` that places a figure `figure_chance` of the time (clamped to
    /// `[0, 1]`).
    #[must_use]
    pub fn new(name: &str, seed: u64, figure_chance: f64) -> RandomBot {
        let figure_chance =
            if figure_chance.is_nan() { 0.5 } else { figure_chance.clamp(0.0, 1.0) };
        RandomBot { name: name.to_owned(), seed, figure_chance }
    }
}

impl Bot for RandomBot {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        if let Some(action) = forced(game, seat)? {
            return Ok(action);
        }
        let mut dice = dice(decision_seed(self.seed, game), 0);
        let legal = game.legal_actions();
        let figures: Vec<Action> =
            legal.iter().copied().filter(|action| *action != Action::Skip).collect();
        let action = match game.phase() {
            Phase::Place { .. } | Phase::Flock { .. } => legal[dice.random_range(0..legal.len())],
            _ if !figures.is_empty() && dice.random_bool(self.figure_chance) => {
                figures[dice.random_range(0..figures.len())]
            }
            _ => Action::Skip,
        };
        Ok(action)
    }

    fn name(&self) -> &str {
        &self.name
    }
}
