//! Monte Carlo tree search over a turn: the placement, then the figure, then the draws of
//! the turns that follow, as separate levels of the tree.

mod exact;
mod playout;
mod tree;

pub(crate) use playout::{play_randomly, play_turns};

use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

use carcassonne::{Action, Game, Phase, PlayerId};
use rand::RngCore;
use rayon::prelude::*;
use serde::Deserialize;

use crate::budget::phase_share;
use crate::evaluator::EvaluatorWeights;
use crate::reward::Reward;
use crate::seeds::{decision_seed, dice};
use crate::{Bot, BotError, forced};
use tree::{RootStat, Tree, distinct_or_legal};

/// How a search values the position where its tree ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Playout {
    /// Random turns to the end of the game, then the final scores.
    Random,
    /// Up to this many random turns, then the evaluator.
    Truncated {
        /// Whole turns played at random before the evaluator.
        turns: u32,
    },
    /// Up to this many turns played by the greedy bot on the search's evaluator, then the
    /// evaluator: costlier than random turns, and closer to how players play.
    Greedy {
        /// Whole turns played greedily before the evaluator.
        turns: u32,
    },
    /// The evaluator at once.
    None,
}

/// Progressive widening: a decision node visited `n` times considers only its first
/// `ceil(c · n^alpha)` actions.
///
/// Made with [`Widening::new`]: it is `#[non_exhaustive]`, so a parameter added in a later release
/// breaks no caller.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Widening {
    /// The multiplier.
    pub c: f32,
    /// The exponent.
    pub alpha: f32,
}

impl Widening {
    /// Widening that allows `c` × visits^`alpha` children.
    #[must_use]
    pub const fn new(c: f32, alpha: f32) -> Widening {
        Widening { c, alpha }
    }
}

/// Everything that sets a search's strength and cost.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct MctsConfig {
    /// Iterations per turn, over all trees (placement and figure together).
    pub iterations: u32,
    /// A cap on the time per turn, in seconds; none when absent. With a cap the answer
    /// depends on the machine's speed.
    pub seconds: Option<f64>,
    /// Independent trees whose root visits are summed; the iterations are split among them.
    /// The answer depends on this, never on `threads`.
    pub trees: u32,
    /// Threads that grow the trees.
    pub threads: u32,
    /// UCT's exploration constant, on rewards in `[0, 1]`.
    pub exploration: f32,
    /// How leaves are valued.
    pub playout: Playout,
    /// How often a random playout puts a figure out when it may.
    pub figure_chance: f64,
    /// Whether each tree fixes one sampled tile order for all its iterations (determinized
    /// trees, as in the anchor bot) instead of sampling the draws in every iteration.
    pub determinized: bool,
    /// Progressive widening; none considers every action at once.
    pub widening: Option<Widening>,
    /// How many levels of decisions from the root list their actions best first by the
    /// evaluator (and widen progressively); deeper ones list them in random order and
    /// consider all at once. Ordering costs one evaluation per action.
    pub ordered_levels: u32,
    /// At ordered levels, how many visits the evaluator's estimate of each action counts as
    /// before any iteration runs through it (0: none; every action is then tried once first).
    pub prior_visits: f32,
    /// The share of the turn's iterations (and time cap) spent on the figure, after the
    /// placement; half of it each for the figure and a flock's choice when one follows.
    pub figure_share: f32,
    /// Exact search when this many tiles or fewer are left in the bag (0: never).
    pub exact_tiles: u32,
    /// The most nodes an exact search may visit before it gives up for the tree search.
    pub exact_nodes: u64,
    /// How outcomes are valued.
    pub reward: Reward,
    /// The evaluator's weights (a profile sets them in its own `evaluator` table).
    #[serde(skip)]
    pub evaluator: EvaluatorWeights,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            iterations: 4000,
            seconds: None,
            trees: 1,
            threads: 1,
            exploration: 0.5,
            playout: Playout::Random,
            figure_chance: 0.5,
            determinized: false,
            widening: None,
            ordered_levels: 0,
            prior_visits: 0.0,
            figure_share: 0.25,
            exact_tiles: 0,
            exact_nodes: 200_000,
            reward: Reward::default(),
            evaluator: EvaluatorWeights::default(),
        }
    }
}

impl MctsConfig {
    /// Sets [`iterations`](Self::iterations), for chaining.
    #[must_use]
    pub fn with_iterations(mut self, iterations: u32) -> MctsConfig {
        self.iterations = iterations;
        self
    }

    /// Sets [`seconds`](Self::seconds), for chaining.
    #[must_use]
    pub fn with_seconds(mut self, seconds: Option<f64>) -> MctsConfig {
        self.seconds = seconds;
        self
    }

    /// Sets [`trees`](Self::trees), for chaining.
    #[must_use]
    pub fn with_trees(mut self, trees: u32) -> MctsConfig {
        self.trees = trees;
        self
    }

    /// Sets [`threads`](Self::threads), for chaining.
    #[must_use]
    pub fn with_threads(mut self, threads: u32) -> MctsConfig {
        self.threads = threads;
        self
    }

    /// Sets [`exploration`](Self::exploration), for chaining.
    #[must_use]
    pub fn with_exploration(mut self, exploration: f32) -> MctsConfig {
        self.exploration = exploration;
        self
    }

    /// Sets [`playout`](Self::playout), for chaining.
    #[must_use]
    pub fn with_playout(mut self, playout: Playout) -> MctsConfig {
        self.playout = playout;
        self
    }

    /// Sets [`figure_chance`](Self::figure_chance), for chaining.
    #[must_use]
    pub fn with_figure_chance(mut self, figure_chance: f64) -> MctsConfig {
        self.figure_chance = figure_chance;
        self
    }

    /// Sets [`determinized`](Self::determinized), for chaining.
    #[must_use]
    pub fn with_determinized(mut self, determinized: bool) -> MctsConfig {
        self.determinized = determinized;
        self
    }

    /// Sets [`widening`](Self::widening), for chaining.
    #[must_use]
    pub fn with_widening(mut self, widening: Option<Widening>) -> MctsConfig {
        self.widening = widening;
        self
    }

    /// Sets [`ordered_levels`](Self::ordered_levels), for chaining.
    #[must_use]
    pub fn with_ordered_levels(mut self, ordered_levels: u32) -> MctsConfig {
        self.ordered_levels = ordered_levels;
        self
    }

    /// Sets [`prior_visits`](Self::prior_visits), for chaining.
    #[must_use]
    pub fn with_prior_visits(mut self, prior_visits: f32) -> MctsConfig {
        self.prior_visits = prior_visits;
        self
    }

    /// Sets [`figure_share`](Self::figure_share), for chaining.
    #[must_use]
    pub fn with_figure_share(mut self, figure_share: f32) -> MctsConfig {
        self.figure_share = figure_share;
        self
    }

    /// Sets [`exact_tiles`](Self::exact_tiles), for chaining.
    #[must_use]
    pub fn with_exact_tiles(mut self, exact_tiles: u32) -> MctsConfig {
        self.exact_tiles = exact_tiles;
        self
    }

    /// Sets [`exact_nodes`](Self::exact_nodes), for chaining.
    #[must_use]
    pub fn with_exact_nodes(mut self, exact_nodes: u64) -> MctsConfig {
        self.exact_nodes = exact_nodes;
        self
    }

    /// Sets [`reward`](Self::reward), for chaining.
    #[must_use]
    pub fn with_reward(mut self, reward: Reward) -> MctsConfig {
        self.reward = reward;
        self
    }

    /// Sets [`evaluator`](Self::evaluator), for chaining.
    #[must_use]
    pub fn with_evaluator(mut self, evaluator: EvaluatorWeights) -> MctsConfig {
        self.evaluator = evaluator;
        self
    }
}

/// What one search found: each choice at the decision with its visits and mean reward for the
/// player to move, most visited first.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchStats {
    /// The choices, best first.
    pub choices: Vec<ChoiceStat>,
    /// Iterations run, over all trees.
    pub iterations: u64,
    /// Nodes in all trees.
    pub nodes: usize,
    /// Whether the values are exact (the endgame solved), not sampled.
    pub exact: bool,
    /// Time taken.
    pub elapsed: Duration,
}

/// One choice's statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChoiceStat {
    /// The action.
    pub action: Action,
    /// Iterations through it (0 in an exact search).
    pub visits: u32,
    /// Its mean reward for the player to move, in `[0, 1]`.
    pub mean: f32,
}

/// The Monte Carlo tree search bot.
#[derive(Clone)]
pub struct MctsBot {
    name: String,
    seed: u64,
    config: MctsConfig,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for MctsBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MctsBot").field("name", &self.name).field("config", &self.config).finish()
    }
}

impl MctsBot {
    /// A search bot with `seed` and `config`; with more than one thread it keeps a pool of
    /// that many.
    #[must_use]
    pub fn new(name: &str, seed: u64, config: MctsConfig) -> MctsBot {
        let config = MctsConfig {
            trees: config.trees.max(1),
            threads: config.threads.max(1),
            figure_share: config.figure_share.clamp(0.0, 1.0),
            ..config
        };
        let pool = (config.threads > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(config.threads as usize).build())
            .and_then(Result::ok)
            .map(Arc::new);
        MctsBot { name: name.to_owned(), seed, config, pool }
    }

    /// The configuration in use.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Searches the decision `game` is at (the placement or the figure of the player to move)
    /// with this phase's share of the budget.
    ///
    /// # Errors
    /// [`BotError::GameOver`]; a game in the draw phase has no decision and gives an empty
    /// list.
    pub fn search(&self, game: &Game) -> Result<SearchStats, BotError> {
        if game.is_over() {
            return Err(BotError::GameOver);
        }
        let started = Instant::now();
        let share = phase_share(game, f64::from(self.config.figure_share));
        let mut choices = Vec::new();
        if game.phase() != Phase::Draw {
            distinct_or_legal(game, &mut choices);
        }
        if choices.len() <= 1 {
            let choices =
                choices.into_iter().map(|action| ChoiceStat { action, visits: 0, mean: 0.5 });
            return Ok(SearchStats {
                choices: choices.collect(),
                iterations: 0,
                nodes: 0,
                exact: false,
                elapsed: started.elapsed(),
            });
        }
        if self.config.exact_tiles > 0
            && game.tiles_left() <= self.config.exact_tiles
            && let Some(ranked) =
                exact::exact_choices(game, &self.config.reward, self.config.exact_nodes)
        {
            let mut choices: Vec<ChoiceStat> = ranked
                .into_iter()
                .map(|(action, mean)| ChoiceStat { action, visits: 0, mean })
                .collect();
            choices.sort_by(|a, b| b.mean.total_cmp(&a.mean));
            return Ok(SearchStats {
                choices,
                iterations: 0,
                nodes: 0,
                exact: true,
                elapsed: started.elapsed(),
            });
        }
        let iterations = ((self.config.iterations as f32 * share as f32).round() as u64).max(1);
        let deadline = self
            .config
            .seconds
            .map(|seconds| started + Duration::from_secs_f64(seconds.max(0.0) * share));
        let seed = decision_seed(self.seed, game);
        let trees = u64::from(self.config.trees);
        let grow = |index: u64| {
            let budget = iterations / trees + u64::from(index < iterations % trees);
            self.grow(game, seed, index, budget, deadline)
        };
        let grown: Vec<(Vec<RootStat>, u64, usize)> = match &self.pool {
            Some(pool) => pool.install(|| (0..trees).into_par_iter().map(grow).collect()),
            None => (0..trees).map(grow).collect(),
        };
        let mut choices: Vec<ChoiceStat> = Vec::new();
        let (mut iterations, mut nodes) = (0, 0);
        let mut values: Vec<f32> = Vec::new();
        for (stats, ran, size) in grown {
            iterations += ran;
            nodes += size;
            for stat in stats {
                match choices.iter().position(|choice| choice.action == stat.action) {
                    Some(index) => {
                        choices[index].visits += stat.visits;
                        values[index] += stat.value;
                    }
                    None => {
                        choices.push(ChoiceStat {
                            action: stat.action,
                            visits: stat.visits,
                            mean: 0.0,
                        });
                        values.push(stat.value);
                    }
                }
            }
        }
        for (choice, value) in choices.iter_mut().zip(values) {
            choice.mean = if choice.visits > 0 { value / choice.visits as f32 } else { 0.0 };
        }
        // Most visits first; equal visits by the higher mean, then by the action, so that
        // the order never depends on how the trees listed them.
        choices.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)).then(a.action.cmp(&b.action))
        });
        Ok(SearchStats { choices, iterations, nodes, exact: false, elapsed: started.elapsed() })
    }

    /// Grows tree `index` of the search seeded `seed` for `budget` iterations or until the
    /// deadline.
    fn grow(
        &self,
        game: &Game,
        seed: u64,
        index: u64,
        budget: u64,
        deadline: Option<Instant>,
    ) -> (Vec<RootStat>, u64, usize) {
        let mut dice = dice(seed, index + 1);
        let determinized = self.config.determinized.then(|| game.reshuffled(dice.next_u64()));
        let mut tree = Tree::new(&self.config, game);
        let mut ran = 0;
        while ran < budget {
            if ran % 32 == 0
                && deadline.is_some_and(|deadline| Instant::now() >= deadline)
                && ran > 0
            {
                break;
            }
            let copy = match &determinized {
                Some(root) => root.clone(),
                None => game.reshuffled(dice.next_u64()),
            };
            tree.iterate(copy, &mut dice);
            ran += 1;
        }
        (tree.root_stats(), ran, tree.size())
    }
}

impl Bot for MctsBot {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        if let Some(action) = forced(game, seat)? {
            return Ok(action);
        }
        let stats = self.search(game)?;
        match stats.choices.first() {
            Some(choice) => Ok(choice.action),
            None => game.legal_actions().first().copied().ok_or(BotError::GameOver),
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}
