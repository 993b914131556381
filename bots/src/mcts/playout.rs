//! The value of a leaf: a random playout to the end, a few random turns and the evaluator, or
//! the evaluator at once.

use carcassonne::{Action, Event, Game, Phase};
use rand::Rng;

use super::{MctsConfig, Playout};
use crate::evaluator::{Evaluator, Scratch};
use crate::greedy::GreedyBot;
use crate::seeds::Dice;

/// The buffers a leaf's valuation uses, kept by the tree between iterations: a playout runs
/// tens of thousands of times a second, and allocating them each time showed in its cost.
#[derive(Default)]
pub(crate) struct LeafBuffers {
    pub(crate) events: Vec<Event>,
    /// Final scores or expected points, one a player.
    pub(crate) points: Vec<f32>,
    pub(crate) scratch: Scratch,
}

/// Fills `reward` with each player's reward for the position `game` is in, playing it on as
/// the configuration says.
pub(crate) fn leaf_value(
    config: &MctsConfig,
    evaluator: &Evaluator,
    game: &mut Game,
    dice: &mut Dice,
    buffers: &mut LeafBuffers,
    reward: &mut [f32],
) {
    match config.playout {
        Playout::Random => {
            play_randomly(game, u32::MAX, config.figure_chance, dice, &mut buffers.events);
        }
        Playout::Truncated { turns } => {
            play_randomly(game, turns, config.figure_chance, dice, &mut buffers.events);
        }
        Playout::Greedy { turns } => play_greedily(game, turns, evaluator, dice, buffers),
        Playout::None => {}
    }
    buffers.points.clear();
    if game.is_over() {
        buffers.points.extend(game.scores().iter().map(|score| *score as f32));
        config.reward.of_scores(&buffers.points, reward);
    } else {
        buffers.points.resize(reward.len(), 0.0);
        evaluator.expected_points_into(game, &mut buffers.scratch, &mut buffers.points);
        config.reward.of_estimates(&buffers.points, reward);
    }
}

/// Plays up to `turns` whole turns as the greedy bot on `evaluator` would; the draws come
/// from `game`'s bag, which the caller has reshuffled.
fn play_greedily(
    game: &mut Game,
    turns: u32,
    evaluator: &Evaluator,
    dice: &mut Dice,
    buffers: &mut LeafBuffers,
) {
    let player = GreedyBot::new("playout", dice.random(), *evaluator, 0.0);
    let LeafBuffers { events, points, scratch } = buffers;
    points.resize(usize::from(game.players()), 0.0);
    play_turns(game, turns, events, |game| player.choose_with(game, scratch, points));
}

/// Plays up to `turns` whole turns at random: any placement, then a random figure action
/// `figure_chance` of the time. The draws come from `game`'s bag, which the caller has
/// reshuffled.
pub(crate) fn play_randomly(
    game: &mut Game,
    turns: u32,
    figure_chance: f64,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) {
    play_turns(game, turns, events, |game| {
        Some(match game.phase() {
            // Picked by number, not from a list: a playout lists nothing.
            Phase::Flock { .. } => {
                let index = dice.random_range(0..game.legal_action_count());
                game.legal_action(index).unwrap_or(Action::DriveFlock)
            }
            Phase::Figure { .. } => {
                // Skip is listed last; the figure actions come before it.
                let figures = game.legal_action_count() - 1;
                if figures > 0 && dice.random_bool(figure_chance) {
                    game.legal_action(dice.random_range(0..figures)).unwrap_or(Action::Skip)
                } else {
                    Action::Skip
                }
            }
            _ => {
                let index = dice.random_range(0..game.legal_action_count());
                game.legal_action(index).unwrap_or(Action::Skip)
            }
        })
    });
}

/// Plays on from `game` until `turns` more whole turns have begun (stopping at the draw that
/// would begin the next) or the game ends: the bag draws, `decide` makes every decision
/// (stopping where it has none).
pub(crate) fn play_turns(
    game: &mut Game,
    turns: u32,
    events: &mut Vec<Event>,
    mut decide: impl FnMut(&Game) -> Option<Action>,
) {
    let mut played = 0;
    loop {
        let action = match game.phase() {
            Phase::GameOver => return,
            Phase::Draw if played >= turns => return,
            Phase::Draw => {
                played += 1;
                Action::Draw
            }
            phase if phase.is_chance() => Action::Draw,
            _ => match decide(game) {
                Some(action) => action,
                None => return,
            },
        };
        events.clear();
        if game.apply_into(action, events).is_err() {
            return;
        }
    }
}
