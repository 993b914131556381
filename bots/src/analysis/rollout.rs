//! One rollout: the game after a candidate move, its tiles shuffled anew, played to the end.

use carcassonne::{Action, Event, Game, Phase, PlayerId};

use crate::greedy::GreedyBot;
use crate::mcts::play_randomly;
use crate::seeds::{derive, dice};
use crate::{Bot, BotError, Evaluator};

/// How every player plays on after the move being measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Continuation {
    /// A random legal placement, then a random figure action `figure_chance` of the time:
    /// tens of thousands of rollouts a second, each one weakly played.
    Random {
        /// How often a random player puts a figure out.
        figure_chance: f64,
    },
    /// The greedy bot for every player: a few milliseconds a rollout, but each player takes
    /// the points in front of them and keeps their followers working, as people do.
    Greedy,
}

impl Continuation {
    /// The name the command line and the C API use: `random` or `greedy`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Continuation::Random { .. } => "random",
            Continuation::Greedy => "greedy",
        }
    }
}

/// What one rollout gave the player being analysed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) margin: f64,
    pub(crate) win: f64,
    pub(crate) score: f64,
}

/// Plays rollouts; one a worker thread.
pub(crate) struct RollingOut {
    continuation: Continuation,
    greedy: GreedyBot,
    events: Vec<Event>,
}

impl RollingOut {
    pub(crate) fn new(continuation: Continuation) -> RollingOut {
        RollingOut {
            continuation,
            greedy: GreedyBot::new("greedy", 0, Evaluator::default(), 0.0),
            events: Vec::new(),
        }
    }

    /// Plays `after` (a game just after the candidate move) to the end on the shuffle and
    /// dice of `seed`, for `player`.
    pub(crate) fn play(
        &mut self,
        after: &Game,
        player: PlayerId,
        seed: u64,
    ) -> Result<Outcome, BotError> {
        let mut game = after.reshuffled(derive(seed, 0));
        match self.continuation {
            Continuation::Random { figure_chance } => {
                let mut dice = dice(seed, 1);
                play_randomly(&mut game, u32::MAX, figure_chance, &mut dice, &mut self.events);
            }
            Continuation::Greedy => {
                while !game.is_over() {
                    let action = self.greedy.choose(&game, game.current_player())?;
                    self.events.clear();
                    // The bot chose among the legal actions; a refusal would be its bug.
                    if game.apply_into(action, &mut self.events).is_err() {
                        return Err(BotError::GameOver);
                    }
                }
            }
        }
        Ok(outcome(game.scores(), player))
    }
}

/// The player's margin, win share and score from final scores.
fn outcome(scores: &[u32], player: PlayerId) -> Outcome {
    let mine = scores[player.index()];
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|(seat, _)| *seat != player.index())
        .map(|(_, score)| *score)
        .max()
        .unwrap_or(mine);
    let best = mine.max(best_other);
    let winners = scores.iter().filter(|score| **score == best).count();
    let win = if mine == best { 1.0 / winners as f64 } else { 0.0 };
    Outcome { margin: f64::from(mine) - f64::from(best_other), win, score: f64::from(mine) }
}

/// The next `turns` whole turns after `after` on the shuffle of `seed`, played by the greedy
/// bot, each draw written as the tile it gave.
pub(crate) fn continuation(after: &Game, seed: u64, turns: u32) -> Result<Vec<Action>, BotError> {
    let mut game = after.reshuffled(seed);
    let bot = GreedyBot::new("greedy", seed, Evaluator::default(), 0.0);
    let mut line = Vec::new();
    let mut started = 0;
    while !game.is_over() {
        if game.phase() == Phase::Draw {
            if started == turns {
                break;
            }
            started += 1;
        }
        let action = bot.choose(&game, game.current_player())?;
        let Ok(events) = game.apply(action) else { return Err(BotError::GameOver) };
        let drawn = events.iter().find_map(|event| match event {
            Event::TileDrawn { tile, .. } => Some(Action::DrawTile { tile: *tile }),
            Event::TokenDrawn { drawn, .. } => Some(Action::DrawToken { token: *drawn }),
            _ => None,
        });
        line.push(drawn.unwrap_or(action));
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_split_shared_wins_and_measure_against_the_best_other() {
        let of = |scores: &[u32], seat: u8| outcome(scores, PlayerId(seat));
        assert_eq!(of(&[30, 20, 25], 0), Outcome { margin: 5.0, win: 1.0, score: 30.0 });
        assert_eq!(of(&[30, 20, 25], 1), Outcome { margin: -10.0, win: 0.0, score: 20.0 });
        assert_eq!(of(&[30, 30, 25], 1), Outcome { margin: 0.0, win: 0.5, score: 30.0 });
    }
}
