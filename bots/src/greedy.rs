//! The greedy bot: one ply, every way to play the turn valued by the evaluator.

use carcassonne::{Action, Game, Phase, PlayerId};
use rand::Rng;

use crate::evaluator::{Evaluator, Scratch};
use crate::reward::margin;
use crate::seeds::{decision_seed, dice};
use crate::turn::each_turn_option;
use crate::{Bot, BotError, forced};

/// Plays the turn whose outcome the evaluator likes best: the score it makes now plus its
/// expected worth later, as the margin over the best other player; `noise` points of uniform
/// noise on each value make it weaker on purpose.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    name: String,
    seed: u64,
    evaluator: Evaluator,
    noise: f32,
}

impl GreedyBot {
    /// A greedy bot with `seed` and `evaluator`.
    #[must_use]
    pub fn new(name: &str, seed: u64, evaluator: Evaluator, noise: f32) -> GreedyBot {
        let noise = if noise.is_finite() { noise.max(0.0) } else { 0.0 };
        GreedyBot { name: name.to_owned(), seed, evaluator, noise }
    }

    /// The margin `seat` expects in `after`, the game once a turn's action is played.
    fn value(
        &self,
        after: &Game,
        seat: PlayerId,
        scratch: &mut Scratch,
        points: &mut [f32],
    ) -> f32 {
        self.evaluator.expected_points_into(after, scratch, points);
        margin(points, seat.index())
    }
}

impl Bot for GreedyBot {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        if let Some(action) = forced(game, seat)? {
            return Ok(action);
        }
        let mut scratch = Scratch::default();
        let mut points = vec![0.0; usize::from(game.players())];
        // A game not over always has a legal action, and each is accepted, so an action is
        // found; the first legal action stands in should that ever fail.
        match self.choose_with(game, &mut scratch, &mut points) {
            Some(action) => Ok(action),
            None => game.legal_actions().first().copied().ok_or(BotError::GameOver),
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl GreedyBot {
    /// The choice of the player to move at a decision, with the caller's buffers (`points`
    /// one entry a player); `None` if no action could be valued.
    pub(crate) fn choose_with(
        &self,
        game: &Game,
        scratch: &mut Scratch,
        points: &mut [f32],
    ) -> Option<Action> {
        let seat = game.current_player();
        let mut dice = dice(decision_seed(self.seed, game), 0);
        let mut best: Option<(f32, Action)> = None;
        let mut consider = |mut value: f32, action: Action| {
            if self.noise > 0.0 {
                value += dice.random_range(-self.noise..=self.noise);
            }
            if best.is_none_or(|(best, _)| value > best) {
                best = Some((value, action));
            }
        };
        if matches!(game.phase(), Phase::Place { .. }) {
            each_turn_option(game, |option, after| {
                consider(self.value(after, seat, scratch, points), option.place);
            });
        } else {
            for action in game.legal_actions() {
                let mut after = game.clone();
                if after.apply(action).is_ok() {
                    consider(self.value(&after, seat, scratch, points), action);
                }
            }
        }
        best.map(|(_, action)| action)
    }
}
