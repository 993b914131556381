//! The lookahead bot: the greedy bot's best few moves, each measured by playing the next turns
//! on sampled tile orders.
//!
//! The evaluator ranks every way to play the turn; the best `candidates` go on. Each sample is
//! one fresh shuffle of the tiles, the same for every candidate (so candidates are compared on
//! the same futures): after the candidate, every player plays `turns` whole turns as the
//! greedy bot would, and the evaluator values the position reached, as the mover's margin
//! over the best other player. Samples come in rounds; after each round the worse half of the
//! candidates drops out (as in the analyzer's race), so the samples go where the choice is
//! close. The answer depends on the seed and the game only, unless `seconds` stops it.

use std::fmt;
use std::time::Duration;
use web_time::Instant;

use carcassonne::{Action, Game, Phase, PlayerId};
use serde::Deserialize;

use crate::budget::phase_share;
use crate::evaluator::{Evaluator, EvaluatorWeights, Scratch};
use crate::greedy::GreedyBot;
use crate::mcts::play_turns;
use crate::reward::{Reward, margin};
use crate::seeds::{decision_seed, derive};
use crate::turn::each_turn_option;
use crate::{Bot, BotError, forced};

/// The lookahead bot's settings; a profile's `lookahead` table.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct LookaheadConfig {
    /// How many of the evaluator's best moves are measured.
    pub candidates: u32,
    /// Samples (tile orders) each candidate still in the race gets in the first round; each
    /// later round doubles them.
    pub samples: u32,
    /// Rounds: after each, the worse half of the candidates drops out (never below two).
    pub rounds: u32,
    /// Whole turns played greedily after a candidate before the evaluator values the game.
    pub turns: u32,
    /// A cap on the time per turn, in seconds (three quarters for the placement, a quarter for
    /// the figure, or an eighth each for the figure and a flock's choice when the figure may
    /// lead to one); none when absent. With a cap the answer depends on the machine's speed.
    pub seconds: Option<f64>,
    /// How a sample's position is valued: none measures the margin in points (every point
    /// alike); a reward values the chance of winning too, so a move that risks the lead for
    /// points counts for less (the tree search's [`Reward`], on the evaluator's expectations).
    pub reward: Option<Reward>,
    /// The evaluator's weights (a profile sets them in its own `evaluator` table).
    #[serde(skip)]
    pub evaluator: EvaluatorWeights,
}

/// Written out as a derived `Debug` would, but without `reward` while it is unset: an arena
/// journal's fingerprint is this text, and the journals of lookahead profiles written before
/// the option existed stay theirs.
impl fmt::Debug for LookaheadConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("LookaheadConfig");
        out.field("candidates", &self.candidates)
            .field("samples", &self.samples)
            .field("rounds", &self.rounds)
            .field("turns", &self.turns)
            .field("seconds", &self.seconds);
        if let Some(reward) = &self.reward {
            out.field("reward", reward);
        }
        out.field("evaluator", &self.evaluator).finish()
    }
}

impl Default for LookaheadConfig {
    fn default() -> LookaheadConfig {
        LookaheadConfig {
            candidates: 8,
            samples: 8,
            rounds: 3,
            turns: 2,
            seconds: None,
            reward: None,
            evaluator: EvaluatorWeights::default(),
        }
    }
}

impl LookaheadConfig {
    /// Sets [`candidates`](Self::candidates), for chaining.
    #[must_use]
    pub fn with_candidates(mut self, candidates: u32) -> LookaheadConfig {
        self.candidates = candidates;
        self
    }

    /// Sets [`samples`](Self::samples), for chaining.
    #[must_use]
    pub fn with_samples(mut self, samples: u32) -> LookaheadConfig {
        self.samples = samples;
        self
    }

    /// Sets [`rounds`](Self::rounds), for chaining.
    #[must_use]
    pub fn with_rounds(mut self, rounds: u32) -> LookaheadConfig {
        self.rounds = rounds;
        self
    }

    /// Sets [`turns`](Self::turns), for chaining.
    #[must_use]
    pub fn with_turns(mut self, turns: u32) -> LookaheadConfig {
        self.turns = turns;
        self
    }

    /// Sets [`seconds`](Self::seconds), for chaining.
    #[must_use]
    pub fn with_seconds(mut self, seconds: Option<f64>) -> LookaheadConfig {
        self.seconds = seconds;
        self
    }

    /// Sets [`reward`](Self::reward), for chaining.
    #[must_use]
    pub fn with_reward(mut self, reward: Option<Reward>) -> LookaheadConfig {
        self.reward = reward;
        self
    }

    /// Sets [`evaluator`](Self::evaluator), for chaining.
    #[must_use]
    pub fn with_evaluator(mut self, evaluator: EvaluatorWeights) -> LookaheadConfig {
        self.evaluator = evaluator;
        self
    }
}

/// The lookahead bot: the evaluator's best `candidates` moves, each measured by greedy turns
/// played on sampled tile orders that all candidates share, the worse half dropped after each
/// round of samples.
#[derive(Clone, Debug)]
pub struct LookaheadBot {
    name: String,
    seed: u64,
    config: LookaheadConfig,
    evaluator: Evaluator,
}

/// A move being measured: what to answer, the game after it, and its samples so far.
struct Candidate {
    action: Action,
    after: Game,
    /// The evaluator's margin right after the move: the order of the list, and the tie-break.
    prior: f32,
    total: f64,
    samples: u32,
}

impl LookaheadBot {
    /// A lookahead bot with `seed` and `config`.
    #[must_use]
    pub fn new(name: &str, seed: u64, config: LookaheadConfig) -> LookaheadBot {
        LookaheadBot {
            name: name.to_owned(),
            seed,
            config,
            evaluator: Evaluator::new(config.evaluator),
        }
    }

    /// The moves to measure, best first by the evaluator: whole turns in the place phase
    /// (answered by their placement), the legal actions otherwise.
    fn candidates(&self, game: &Game, seat: PlayerId, scratch: &mut Scratch) -> Vec<Candidate> {
        let mut points = vec![0.0; usize::from(game.players())];
        let mut all = Vec::new();
        let mut value = |after: &Game, scratch: &mut Scratch| {
            self.evaluator.expected_points_into(after, scratch, &mut points);
            margin(&points, seat.index())
        };
        if matches!(game.phase(), Phase::Place { .. }) {
            each_turn_option(game, |option, after| {
                let prior = value(after, scratch);
                all.push(Candidate {
                    action: option.place,
                    after: after.clone(),
                    prior,
                    total: 0.0,
                    samples: 0,
                });
            });
        } else {
            for action in game.legal_actions() {
                let mut after = game.clone();
                if after.apply(action).is_ok() {
                    let prior = value(&after, scratch);
                    all.push(Candidate { action, after, prior, total: 0.0, samples: 0 });
                }
            }
        }
        // Best first; equal values by the action, so the order never depends on the listing.
        all.sort_by(|a, b| b.prior.total_cmp(&a.prior).then(a.action.cmp(&b.action)));
        all.truncate(self.config.candidates.max(1) as usize);
        all
    }

    /// One sample: `after` on the tile order of `seed`, played on for the configured turns by
    /// greedy players, valued as `seat`'s margin (or reward, when the config names one).
    fn sample(
        &self,
        after: &Game,
        seat: PlayerId,
        seed: u64,
        player: &GreedyBot,
        scratch: &mut Scratch,
        points: &mut [f32],
    ) -> f64 {
        let mut game = after.reshuffled(derive(seed, 0));
        let mut events = Vec::new();
        play_turns(&mut game, self.config.turns, &mut events, |game| {
            player.choose_with(game, scratch, points)
        });
        self.evaluator.expected_points_into(&game, scratch, points);
        match self.config.reward {
            None => f64::from(margin(points, seat.index())),
            Some(reward) => {
                let mut rewards = vec![0.0; points.len()];
                reward.of_estimates(points, &mut rewards);
                f64::from(rewards.get(seat.index()).copied().unwrap_or(0.0))
            }
        }
    }
}

/// The share of a turn's time cap the figure takes (the placement the rest), split with a
/// flock's choice when one follows.
const FIGURE_SHARE: f64 = 0.25;

impl Bot for LookaheadBot {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        let started = Instant::now();
        if let Some(action) = forced(game, seat)? {
            return Ok(action);
        }
        let seed = decision_seed(self.seed, game);
        let mut scratch = Scratch::default();
        let mut points = vec![0.0; usize::from(game.players())];
        let mut candidates = self.candidates(game, seat, &mut scratch);
        let share = phase_share(game, FIGURE_SHARE);
        let deadline = self
            .config
            .seconds
            .map(|seconds| started + Duration::from_secs_f64(seconds.clamp(0.0, 3600.0) * share));
        let Some(first) = candidates.first().map(|candidate| candidate.action) else {
            return game.legal_actions().first().copied().ok_or(BotError::GameOver);
        };
        if candidates.len() == 1 {
            return Ok(first);
        }
        let player = GreedyBot::new("lookahead", derive(seed, 1), self.evaluator, 0.0);
        let mut racing = candidates.len();
        let mut next_sample = 0u64;
        // The longest sample so far: one that would end past the deadline is not begun, so
        // a turn ends within its cap rather than one sample after it.
        let mut longest_sample = Duration::ZERO;
        // A sample may still outrun the longest before it (on a large board with many sets,
        // one candidate's turns can take a tenth of the cap), so each candidate's play is
        // checked too, and a sample counts only when every racing candidate has it: one cut
        // short is dropped whole, and with no sample at all the greedy choice stands.
        let mut longest_play = Duration::ZERO;
        let mut values = Vec::with_capacity(racing);
        'rounds: for round in 0..self.config.rounds.max(1) {
            let samples = u64::from(self.config.samples.max(1)) << round.min(16);
            for sample in next_sample..next_sample + samples {
                let sample_started = Instant::now();
                if deadline.is_some_and(|deadline| sample_started + longest_sample >= deadline) {
                    break 'rounds;
                }
                let sample_seed = derive(seed, 2 + sample);
                values.clear();
                for candidate in &candidates[..racing] {
                    let play_started = Instant::now();
                    if deadline.is_some_and(|deadline| play_started + longest_play >= deadline) {
                        break 'rounds;
                    }
                    values.push(self.sample(
                        &candidate.after,
                        seat,
                        sample_seed,
                        &player,
                        &mut scratch,
                        &mut points,
                    ));
                    longest_play = longest_play.max(play_started.elapsed());
                }
                for (candidate, value) in candidates[..racing].iter_mut().zip(&values) {
                    candidate.total += value;
                    candidate.samples += 1;
                }
                longest_sample = longest_sample.max(sample_started.elapsed());
            }
            next_sample += samples;
            // Every racing candidate has the same samples: rank them by their total.
            candidates[..racing]
                .sort_by(|a, b| b.total.total_cmp(&a.total).then(b.prior.total_cmp(&a.prior)));
            racing = (racing / 2).max(2).min(racing);
        }
        let best = candidates[..racing]
            .iter()
            .max_by(|a, b| {
                let mean = |c: &Candidate| c.total / f64::from(c.samples.max(1));
                mean(a).total_cmp(&mean(b)).then(a.prior.total_cmp(&b.prior))
            })
            .map_or(first, |best| best.action);
        Ok(best)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Catalog, GameSetup};

    fn game_at(turns: usize) -> Game {
        let mut setup = GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2);
        setup.seed = 3;
        let mut game = Game::new(setup).unwrap();
        let greedy = GreedyBot::new("g", 1, Evaluator::default(), 0.0);
        while game.placements().len() < turns || game.phase() != Phase::Draw {
            let seat = game.current_player();
            game.apply(greedy.choose(&game, seat).unwrap()).unwrap();
        }
        game.apply(Action::Draw).unwrap();
        game
    }

    /// With one candidate the bot plays the greedy bot's move; with more it plays a legal
    /// move, the same for the same seed and game.
    #[test]
    fn it_measures_the_greedy_bots_best_moves() {
        let game = game_at(12);
        let seat = game.current_player();
        // One candidate: a placement of the turn the evaluator values most.
        let one = LookaheadConfig { candidates: 1, ..LookaheadConfig::default() };
        let chosen = LookaheadBot::new("l", 5, one).choose(&game, seat).unwrap();
        let evaluator = Evaluator::default();
        let value = |after: &Game| margin(&evaluator.expected_points(after), seat.index());
        let (mut best, mut best_of_chosen) = (f32::MIN, f32::MIN);
        each_turn_option(&game, |option, after| {
            best = best.max(value(after));
            if option.place == chosen {
                best_of_chosen = best_of_chosen.max(value(after));
            }
        });
        assert_eq!(best_of_chosen, best);
        let config = LookaheadConfig { samples: 2, rounds: 2, turns: 1, ..Default::default() };
        let bot = LookaheadBot::new("l", 5, config);
        let action = bot.choose(&game, seat).unwrap();
        assert!(game.legal_actions().contains(&action));
        assert_eq!(LookaheadBot::new("l", 5, config).choose(&game, seat).unwrap(), action);
        let mut after = game.clone();
        after.apply(action).unwrap();
        let figure = bot.choose(&after, seat).unwrap();
        assert!(after.legal_actions().contains(&figure));
    }

    /// Past its deadline the bot begins no sample, not even the first, and plays the
    /// candidate the evaluator ranks first: the greedy choice, as with one candidate.
    #[test]
    fn past_its_deadline_it_plays_the_greedy_choice() {
        // At this turn one sample is enough to change the choice: a bot that began a
        // sample past its deadline fails the test.
        let game = game_at(25);
        let seat = game.current_player();
        let late = LookaheadConfig { seconds: Some(0.0), ..LookaheadConfig::default() };
        let one = LookaheadConfig { candidates: 1, ..LookaheadConfig::default() };
        // Placements the evaluator values alike (a tile turned to the same effect) tie.
        let evaluator = Evaluator::default();
        let value = |action: Action| {
            let mut after = game.clone();
            after.apply(action).unwrap();
            margin(&evaluator.expected_points(&after), seat.index())
        };
        let greedy = value(LookaheadBot::new("l", 5, one).choose(&game, seat).unwrap());
        assert_eq!(value(LookaheadBot::new("l", 5, late).choose(&game, seat).unwrap()), greedy);
    }

    /// With a reward a sample is worth the reward of the position it reaches (from 0 to 1),
    /// not its margin in points; the bot still plays a legal move, the same for the same seed.
    #[test]
    fn a_reward_values_samples_by_the_chance_of_winning() {
        let game = game_at(20);
        let seat = game.current_player();
        let config = LookaheadConfig { samples: 2, rounds: 2, turns: 1, ..Default::default() };
        let rewarded = config.with_reward(Some(Reward::default()));
        let (plain, bot) = (LookaheadBot::new("l", 5, config), LookaheadBot::new("l", 5, rewarded));
        let player = GreedyBot::new("g", 1, Evaluator::default(), 0.0);
        let (mut scratch, mut points) = (Scratch::default(), vec![0.0; 2]);
        let margin = plain.sample(&game, seat, 7, &player, &mut scratch, &mut points);
        let reward = bot.sample(&game, seat, 7, &player, &mut scratch, &mut points);
        let mut expected = [0.0; 2];
        Reward::default().of_estimates(&points, &mut expected);
        assert_eq!(reward, f64::from(expected[seat.index()]));
        assert!(
            (0.0..=1.0).contains(&reward) && (margin > 0.0) == (reward > 0.5),
            "{margin} {reward}"
        );
        let action = bot.choose(&game, seat).unwrap();
        assert!(game.legal_actions().contains(&action));
        assert_eq!(LookaheadBot::new("l", 5, rewarded).choose(&game, seat).unwrap(), action);
    }
}
