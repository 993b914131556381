//! The value of a leaf: a random playout to the end, a few random turns and the evaluator, or
//! the evaluator at once.

use carcassonne::{Action, Game, Phase};
use rand::Rng;

use super::{MctsConfig, Playout};
use crate::evaluator::{Evaluator, Scratch};
use crate::seeds::Dice;

/// Fills `reward` with each player's reward for the position `game` is in, playing it on as
/// the configuration says.
pub(crate) fn leaf_value(
    config: &MctsConfig,
    evaluator: &Evaluator,
    game: &mut Game,
    dice: &mut Dice,
    scratch: &mut Scratch,
    reward: &mut [f32],
) {
    let turns = match config.playout {
        Playout::Random => u32::MAX,
        Playout::Truncated { turns } => turns,
        Playout::None => 0,
    };
    play_randomly(game, turns, config.figure_chance, dice);
    if game.is_over() {
        let scores: Vec<f32> = game.scores().iter().map(|score| *score as f32).collect();
        config.reward.of_scores(&scores, reward);
    } else {
        let mut points = vec![0.0; reward.len()];
        evaluator.expected_points_into(game, scratch, &mut points);
        config.reward.of_estimates(&points, reward);
    }
}

/// Plays up to `turns` whole turns at random: any placement, then a random figure action
/// `figure_chance` of the time. The draws come from `game`'s bag, which the caller has
/// reshuffled.
pub(crate) fn play_randomly(game: &mut Game, turns: u32, figure_chance: f64, dice: &mut Dice) {
    let mut actions = Vec::with_capacity(128);
    let mut events = Vec::with_capacity(16);
    let mut played = 0;
    loop {
        let action = match game.phase() {
            Phase::GameOver => return,
            Phase::Draw if played >= turns => return,
            Phase::Draw => {
                played += 1;
                Action::Draw
            }
            Phase::Place { .. } => {
                game.legal_actions_into(&mut actions);
                actions[dice.random_range(0..actions.len())]
            }
            Phase::Figure { .. } => {
                game.legal_actions_into(&mut actions);
                // Skip is listed last; the figure actions come before it.
                let figures = actions.len() - 1;
                if figures > 0 && dice.random_bool(figure_chance) {
                    actions[dice.random_range(0..figures)]
                } else {
                    Action::Skip
                }
            }
        };
        events.clear();
        if game.apply_into(action, &mut events).is_err() {
            return;
        }
    }
}
