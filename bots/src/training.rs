//! Learning the evaluator's weights from self-play, by one of two methods.
//!
//! - **Tuning** ([`Method::Tuning`], the default): simultaneous perturbation stochastic
//!   approximation (SPSA). Each step perturbs every weight at once, up for one greedy player
//!   and down for the other, has the two play paired games (each tile order with the seats
//!   both ways), and moves the weights along the perturbation by the margin the first won by.
//!   It fits the weights to the final margins of the games the weights themselves play.
//! - **Regression** ([`Method::Regression`]): bots play whole games, every position's
//!   [signals](crate::Signal) are set against the margin each player went on to gain over the
//!   others from there, and a ridge regression fits one weight a signal; rounds refine the
//!   play (the first round's players are a given profile, each later round's greedy bots on
//!   the weights the round before learned). It predicts outcomes well and plays worse than
//!   the hand-set weights: a greedy player exploits exactly the errors a fit to another
//!   player's games leaves (the README gives the measurements).
//!
//! Either way each game's contribution is added in game order, so the weights depend on the
//! seed and never on the thread count, and memory does not grow with the games.

use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

use carcassonne::{Game, GameSetup, Phase, SetupError};
use rayon::prelude::*;

use crate::evaluator::{Evaluator, EvaluatorWeights, LearnedWeights, SIGNALS, Signals};
use crate::greedy::GreedyBot;
use crate::profile::Profile;
use crate::seeds::derive;
use crate::{Bot, BotError};

/// How the weights are learned: by tuning (SPSA on the margins perturbed weights win against
/// each other) or by a ridge regression of the margins to come.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// SPSA from the hand-set weights: `steps` steps, each of `deals` tile orders played with
    /// the seats every way.
    Tuning {
        /// Steps.
        steps: u32,
        /// Tile orders a step.
        deals: u32,
    },
    /// A ridge regression of the margins to come: `rounds` rounds of `games` games.
    Regression {
        /// Rounds: the first with the config's `policy`, each later one with greedy bots on
        /// the weights the round before learned.
        rounds: u32,
        /// Games a round.
        games: u64,
    },
}

/// What to learn from.
///
/// Made with [`TrainConfig::new`] and changed with its `with_` methods or by assigning fields: it
/// is `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TrainConfig {
    /// Tile sets, rule options and players; the seed is each game's.
    pub setup: GameSetup,
    /// How.
    pub method: Method,
    /// The seed of every game, bot and perturbation.
    pub seed: u64,
    /// Games played at once; the weights do not depend on it.
    pub threads: usize,
    /// The regression's first round's players.
    pub policy: Profile,
    /// Points of uniform noise on each value of the regression's later greedy players.
    pub noise: f32,
    /// Ridge regularisation, as a share of the mean diagonal of the signals' products.
    pub ridge: f64,
}

impl TrainConfig {
    /// Sets [`method`](Self::method), for chaining.
    #[must_use]
    pub fn with_method(mut self, method: Method) -> TrainConfig {
        self.method = method;
        self
    }

    /// Sets [`seed`](Self::seed), for chaining.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> TrainConfig {
        self.seed = seed;
        self
    }

    /// Sets [`threads`](Self::threads), for chaining.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> TrainConfig {
        self.threads = threads;
        self
    }

    /// Sets [`policy`](Self::policy), for chaining.
    #[must_use]
    pub fn with_policy(mut self, policy: Profile) -> TrainConfig {
        self.policy = policy;
        self
    }

    /// Sets [`noise`](Self::noise), for chaining.
    #[must_use]
    pub fn with_noise(mut self, noise: f32) -> TrainConfig {
        self.noise = noise;
        self
    }

    /// Sets [`ridge`](Self::ridge), for chaining.
    #[must_use]
    pub fn with_ridge(mut self, ridge: f64) -> TrainConfig {
        self.ridge = ridge;
        self
    }

    /// The defaults for `setup`: tuning, 600 steps of 8 deals, seed 0, one thread (and for
    /// the regression: the `medium` bot first, a point of noise, a ridge of 0.001).
    ///
    /// # Errors
    /// Never in practice: the `medium` profile is built in.
    pub fn new(setup: GameSetup) -> Result<TrainConfig, crate::ProfileError> {
        Ok(TrainConfig {
            setup,
            method: Method::Tuning { steps: 600, deals: 8 },
            seed: 0,
            threads: 1,
            policy: Profile::builtin("medium")?,
            noise: 1.0,
            ridge: 1e-3,
        })
    }
}

/// Where the training has got to, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TrainProgress {
    /// Games finished.
    pub games_done: u64,
    /// Games planned.
    pub games_planned: u64,
}

/// One regression round's fit.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RoundReport {
    /// Games played.
    pub games: u64,
    /// Positions (a player at the start of a turn) fitted.
    pub positions: u64,
    /// The share of the variance of the margins still to come that the weights explain.
    pub r2: f64,
    /// The root mean square error of the margins still to come, in points.
    pub rmse: f64,
    /// The weights learned.
    pub weights: LearnedWeights,
}

/// What training made.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TrainReport {
    /// The weights.
    pub weights: LearnedWeights,
    /// The signals the games showed differences in, which tuning moved (the others keep
    /// their hand-set weights); every signal for the regression.
    pub tuned: Vec<crate::Signal>,
    /// Each regression round's fit, in order; empty for tuning.
    pub rounds: Vec<RoundReport>,
    /// Games played.
    pub games: u64,
    /// Wall-clock time.
    pub seconds: f64,
}

/// Why training cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainError {
    /// The setup makes no game.
    #[error("cannot set up the games: {0}")]
    Setup(SetupError),
    /// Nothing to learn from.
    #[error("training needs at least one step or round, and one deal or game in each")]
    Nothing,
    /// The thread pool could not start.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// A bot failed to answer: a bug in the bot.
    #[error("a bot failed: {0}")]
    Bot(BotError),
    /// The regression has no solution (every position alike).
    #[error("the signals do not vary enough to fit weights")]
    Singular,
}

/// The sums the regression needs, over some positions.
#[derive(Clone)]
struct Sums {
    /// Σ x xᵀ, row-major.
    xx: Vec<f64>,
    /// Σ x y.
    xy: [f64; SIGNALS],
    /// Σ y and Σ y².
    y: f64,
    yy: f64,
    n: u64,
}

impl Sums {
    fn new() -> Sums {
        Sums { xx: vec![0.0; SIGNALS * SIGNALS], xy: [0.0; SIGNALS], y: 0.0, yy: 0.0, n: 0 }
    }

    fn add_position(&mut self, x: &Signals, y: f64) {
        for (i, (row, xy)) in self.xx.chunks_exact_mut(SIGNALS).zip(&mut self.xy).enumerate() {
            let xi = f64::from(x[i]);
            if xi == 0.0 {
                continue;
            }
            for (cell, xj) in row.iter_mut().zip(x) {
                *cell += xi * f64::from(*xj);
            }
            *xy += xi * y;
        }
        self.y += y;
        self.yy += y * y;
        self.n += 1;
    }

    fn add(&mut self, other: &Sums) {
        for (a, b) in self.xx.iter_mut().zip(&other.xx) {
            *a += b;
        }
        for (a, b) in self.xy.iter_mut().zip(&other.xy) {
            *a += b;
        }
        self.y += other.y;
        self.yy += other.yy;
        self.n += other.n;
    }

    /// The ridge solution and its fit: weights, R², RMSE.
    fn solve(&self, ridge: f64) -> Option<(Signals, f64, f64)> {
        let mut a = self.xx.clone();
        let trace: f64 = (0..SIGNALS).map(|i| a[i * SIGNALS + i]).sum();
        let lambda = ridge * trace / SIGNALS as f64;
        for i in 0..SIGNALS {
            // A signal that never varies from 0 gets weight 0, not a singular system.
            a[i * SIGNALS + i] += if a[i * SIGNALS + i] == 0.0 { 1.0 } else { lambda };
        }
        let w = cholesky_solve(&a, &self.xy)?;
        let n = self.n as f64;
        let mut sse = self.yy;
        for i in 0..SIGNALS {
            sse -= 2.0 * w[i] * self.xy[i];
            for j in 0..SIGNALS {
                sse += w[i] * self.xx[i * SIGNALS + j] * w[j];
            }
        }
        let sst = self.yy - self.y * self.y / n;
        let r2 = if sst > 0.0 { 1.0 - sse / sst } else { 0.0 };
        let rmse = (sse.max(0.0) / n).sqrt();
        let mut weights = [0.0; SIGNALS];
        for (out, w) in weights.iter_mut().zip(&w) {
            *out = *w as f32;
        }
        Some((weights, r2, rmse))
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (row-major, `SIGNALS` square).
fn cholesky_solve(a: &[f64], b: &[f64; SIGNALS]) -> Option<[f64; SIGNALS]> {
    let n = SIGNALS;
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let diagonal = a[i * n + i] - sum;
                if diagonal <= 0.0 || !diagonal.is_finite() {
                    return None;
                }
                l[i * n + i] = diagonal.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    let mut y = [0.0; SIGNALS];
    for i in 0..n {
        let sum: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - sum) / l[i * n + i];
    }
    let mut x = [0.0; SIGNALS];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - sum) / l[i * n + i];
    }
    Some(x)
}

/// Learns weights by `config`; `progress` hears after every game (from the worker threads).
///
/// ```
/// use carcassonne::{Catalog, GameSetup};
/// use carcassonne_bots::training::{self, Method, TrainConfig};
///
/// let mut config = TrainConfig::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// config.method = Method::Tuning { steps: 2, deals: 1 };
/// let report = training::train(&config, &|_| {})?;
/// assert_eq!(report.games, 2 * 2);
/// config.method = Method::Regression { rounds: 1, games: 3 };
/// let report = training::train(&config, &|_| {})?;
/// assert!(report.rounds[0].positions > 3 * 2 * 60);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`TrainError`] for a setup that makes no game, nothing to play, a bot that fails, or
/// positions too alike to fit.
pub fn train(
    config: &TrainConfig,
    progress: &(dyn Fn(TrainProgress) + Sync),
) -> Result<TrainReport, TrainError> {
    let started = Instant::now();
    let template = Game::new(config.setup.clone()).map_err(TrainError::Setup)?;
    let threads = config.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| TrainError::Threads { threads, message: error.to_string() })?;
    let done = AtomicU64::new(0);
    let players = u64::from(template.players());
    let games_planned = match config.method {
        Method::Tuning { steps, deals } => u64::from(steps) * u64::from(deals) * players,
        Method::Regression { rounds, games } => u64::from(rounds) * games,
    };
    if games_planned == 0 {
        return Err(TrainError::Nothing);
    }
    let finished = || {
        let games_done = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(TrainProgress { games_done, games_planned });
    };
    let mut report = match config.method {
        Method::Tuning { steps, deals } => tune(config, &template, &pool, steps, deals, &finished)?,
        Method::Regression { rounds, games } => {
            regress(config, &template, &pool, rounds, games, &finished)?
        }
    };
    report.games = games_planned;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A greedy player on `weights`, with `noise` points of noise.
fn greedy(weights: Signals, seed: u64, noise: f32) -> Box<dyn Bot> {
    let weights = EvaluatorWeights {
        learned: Some(LearnedWeights { weights }),
        ..EvaluatorWeights::default()
    };
    Box::new(GreedyBot::new("learning", seed, Evaluator::new(weights), noise))
}

/// The regression, round by round.
fn regress(
    config: &TrainConfig,
    template: &Game,
    pool: &rayon::ThreadPool,
    rounds: u32,
    games: u64,
    finished: &(dyn Fn() + Sync),
) -> Result<TrainReport, TrainError> {
    let policy = config.policy.with_threads(1);
    let mut reports = Vec::new();
    let mut learned: Option<LearnedWeights> = None;
    for round in 0..u64::from(rounds) {
        let players = |seed: u64| -> Vec<Box<dyn Bot>> {
            (0..u64::from(template.players()))
                .map(|seat| {
                    let seed = derive(seed, seat);
                    match learned {
                        None => policy.bot(seed),
                        Some(learned) => greedy(learned.weights, seed, config.noise),
                    }
                })
                .collect()
        };
        let per_game: Vec<Result<Sums, TrainError>> = pool.install(|| {
            (0..games)
                .into_par_iter()
                .map(|index| {
                    let seed = derive(derive(config.seed, round), index);
                    let sums = play_and_sum(template, seed, &players(seed));
                    finished();
                    sums
                })
                .collect()
        });
        let mut sums = Sums::new();
        for game in per_game {
            sums.add(&game?);
        }
        let (weights, r2, rmse) = sums.solve(config.ridge).ok_or(TrainError::Singular)?;
        let weights = LearnedWeights { weights };
        reports.push(RoundReport { games, positions: sums.n, r2, rmse, weights });
        learned = Some(weights);
    }
    let weights = reports.last().map(|round| round.weights).ok_or(TrainError::Nothing)?;
    Ok(TrainReport {
        weights,
        tuned: crate::Signal::ALL.to_vec(),
        rounds: reports,
        games: 0,
        seconds: 0.0,
    })
}

/// SPSA's gains (Spall's guidelines): the step `A_GAIN / (k + 1 + A)^0.602` with `A` a tenth
/// of the steps, the perturbation `C_GAIN / (k + 1)^0.101`, both in units of each weight's
/// scale; the objective is the perturbed-up player's margin over `MARGIN_SCALE` points.
const A_GAIN: f64 = 0.5;
const C_GAIN: f64 = 0.5;
const MARGIN_SCALE: f64 = 20.0;

/// SPSA from the hand-set weights.
fn tune(
    config: &TrainConfig,
    template: &Game,
    pool: &rayon::ThreadPool,
    steps: u32,
    deals: u32,
    finished: &(dyn Fn() + Sync),
) -> Result<TrainReport, TrainError> {
    let base = EvaluatorWeights::default().signal_weights();
    // A weight moves in units of half its hand-set size (half a point for those set to 0).
    let scale: Vec<f64> =
        base.iter().map(|weight| f64::from(weight.abs().max(1.0)) * 0.5).collect();
    let tuned = varying_signals(template, config.seed, pool)?;
    let weights_at = |u: &[f64; SIGNALS]| -> Signals {
        let mut weights = base;
        for (index, weight) in weights.iter_mut().enumerate() {
            *weight += (scale[index] * u[index]) as f32;
        }
        weights
    };
    let players = template.players();
    let mut u = [0.0f64; SIGNALS];
    let stability = f64::from(steps) * 0.1;
    for step in 0..steps {
        let k = f64::from(step);
        let a = A_GAIN / (k + 1.0 + stability).powf(0.602);
        let c = C_GAIN / (k + 1.0).powf(0.101);
        let mut dice = crate::seeds::dice(config.seed, u64::from(step));
        let mut delta = [0.0f64; SIGNALS];
        for signal in &tuned {
            delta[signal.index()] = if rand::Rng::random_bool(&mut dice, 0.5) { 1.0 } else { -1.0 };
        }
        let shifted = |sign: f64| {
            let mut at = u;
            for (value, delta) in at.iter_mut().zip(&delta) {
                *value += sign * c * delta;
            }
            weights_at(&at)
        };
        let (plus, minus) = (shifted(1.0), shifted(-1.0));
        let step_seed = derive(derive(config.seed, u64::from(step)), 1);
        let margins: Vec<Result<f64, TrainError>> = pool.install(|| {
            (0..u64::from(deals) * u64::from(players))
                .into_par_iter()
                .map(|index| {
                    let (deal, rotation) = (index / u64::from(players), index % u64::from(players));
                    let margin = duel(template, derive(step_seed, deal), rotation, plus, minus);
                    finished();
                    margin
                })
                .collect()
        });
        let mut total = 0.0;
        for margin in margins {
            total += margin?;
        }
        let objective = total / (f64::from(deals) * f64::from(players)) / MARGIN_SCALE;
        for signal in &tuned {
            let index = signal.index();
            u[index] += a * objective / (2.0 * c * delta[index]);
        }
    }
    Ok(TrainReport {
        weights: LearnedWeights { weights: weights_at(&u) },
        tuned,
        rounds: Vec::new(),
        games: 0,
        seconds: 0.0,
    })
}

/// One game of tile order `seed`: greedy players on `plus` in the seats of one parity (by
/// `rotation`), on `minus` in the others; the mean score of the first less that of the second.
fn duel(
    template: &Game,
    seed: u64,
    rotation: u64,
    plus: Signals,
    minus: Signals,
) -> Result<f64, TrainError> {
    let mut game = template.restarted(seed);
    let players = u64::from(template.players());
    let is_plus = |seat: u64| (seat + rotation).is_multiple_of(2);
    let bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|seat| {
            let weights = if is_plus(seat) { plus } else { minus };
            greedy(weights, derive(seed, seat), 0.0)
        })
        .collect();
    play_out(&mut game, &bots, |_| {})?;
    let (mut plus_total, mut plus_seats, mut minus_total, mut minus_seats) =
        (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (seat, score) in game.scores().iter().enumerate() {
        if is_plus(seat as u64) {
            (plus_total, plus_seats) = (plus_total + f64::from(*score), plus_seats + 1.0);
        } else {
            (minus_total, minus_seats) = (minus_total + f64::from(*score), minus_seats + 1.0);
        }
    }
    Ok(plus_total / plus_seats.max(1.0) - minus_total / minus_seats.max(1.0))
}

/// The signals that tell players apart in these games: those that differ between two players
/// somewhere in a few games of the `medium` bot. The others cannot change a decision, and
/// tuning would only move them at random.
fn varying_signals(
    template: &Game,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> Result<Vec<crate::Signal>, TrainError> {
    let policy = Profile::builtin("medium").map_err(|_| TrainError::Nothing)?;
    let seen: Vec<Result<[bool; SIGNALS], TrainError>> = pool.install(|| {
        (0..8u64)
            .into_par_iter()
            .map(|index| {
                let seed = derive(derive(seed, u64::MAX), index);
                let players: Vec<Box<dyn Bot>> = (0..u64::from(template.players()))
                    .map(|seat| policy.bot(derive(seed, seat)))
                    .collect();
                let mut game = template.restarted(seed);
                let observer = Evaluator::default();
                let mut varies = [false; SIGNALS];
                play_out(&mut game, &players, |game| {
                    let signals = observer.signals(game);
                    for (index, varied) in varies.iter_mut().enumerate() {
                        *varied |= signals.iter().any(|s| s[index] != signals[0][index]);
                    }
                })?;
                Ok(varies)
            })
            .collect()
    });
    let mut varies = [false; SIGNALS];
    for game in seen {
        for (all, one) in varies.iter_mut().zip(game?) {
            *all |= one;
        }
    }
    Ok(crate::Signal::ALL.into_iter().filter(|signal| varies[signal.index()]).collect())
}

/// Plays `game` to its end with `bots` (one a seat), calling `at_turn` at the start of every
/// turn (before its draw).
fn play_out(
    game: &mut Game,
    bots: &[Box<dyn Bot>],
    mut at_turn: impl FnMut(&Game),
) -> Result<(), TrainError> {
    while !game.is_over() {
        if game.phase() == Phase::Draw {
            at_turn(game);
        }
        let seat = game.current_player();
        let action = bots[seat.index()].choose(game, seat).map_err(TrainError::Bot)?;
        game.apply(action).map_err(|_| TrainError::Bot(BotError::GameOver))?;
    }
    Ok(())
}

/// Plays one game seeded `seed` with `players` (one a seat) and sums its positions: at the
/// start of every turn, each player's signals against the points they scored from there on.
fn play_and_sum(template: &Game, seed: u64, players: &[Box<dyn Bot>]) -> Result<Sums, TrainError> {
    let mut game = template.restarted(seed);
    let observer = Evaluator::default();
    // Each position: the signals of every player, and their scores then.
    let mut positions: Vec<(Vec<Signals>, Vec<u32>)> = Vec::new();
    play_out(&mut game, players, |game| {
        positions.push((observer.signals(game), game.scores().to_vec()));
    })?;
    // Each player's gain against the others' mean gain, from their signals against the
    // others' mean signals: the margin is what decides games, and the luck every player
    // shares (what the bag gives everyone) drops out of it.
    let others = (players.len() - 1).max(1) as f64;
    let gains: Vec<Vec<f64>> = positions
        .iter()
        .map(|(_, scores)| {
            scores
                .iter()
                .zip(game.scores())
                .map(|(then, last)| f64::from(*last) - f64::from(*then))
                .collect()
        })
        .collect();
    let mut sums = Sums::new();
    for ((signals, _), gains) in positions.iter().zip(&gains) {
        let total: f64 = gains.iter().sum();
        for (player, mine) in signals.iter().enumerate() {
            let mut x = *mine;
            for (index, value) in x.iter_mut().enumerate() {
                let rest: f32 = signals
                    .iter()
                    .enumerate()
                    .filter(|(p, _)| *p != player)
                    .map(|(_, s)| s[index])
                    .sum();
                *value -= (f64::from(rest) / others) as f32;
            }
            let margin = gains[player] - (total - gains[player]) / others;
            sums.add_position(&x, margin);
        }
    }
    Ok(sums)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A system whose answer is known: the solver finds it.
    #[test]
    fn the_solver_solves() {
        let mut a = vec![0.0; SIGNALS * SIGNALS];
        let mut b = [0.0; SIGNALS];
        for i in 0..SIGNALS {
            a[i * SIGNALS + i] = 2.0 + i as f64;
            if i + 1 < SIGNALS {
                a[i * SIGNALS + i + 1] = 0.5;
                a[(i + 1) * SIGNALS + i] = 0.5;
            }
        }
        let x: Vec<f64> = (0..SIGNALS).map(|i| i as f64 - 3.0).collect();
        for i in 0..SIGNALS {
            b[i] = (0..SIGNALS).map(|j| a[i * SIGNALS + j] * x[j]).sum();
        }
        let solved = cholesky_solve(&a, &b).unwrap();
        for (found, wanted) in solved.iter().zip(&x) {
            assert!((found - wanted).abs() < 1e-9, "{found} vs {wanted}");
        }
    }

    /// Positions generated from known weights, without noise: the regression recovers them
    /// and explains everything.
    #[test]
    fn the_regression_recovers_known_weights() {
        let truth: Vec<f64> = (0..SIGNALS).map(|i| (i as f64 * 0.37).sin() * 3.0).collect();
        let mut sums = Sums::new();
        let mut dice = crate::seeds::dice(1, 2);
        for _ in 0..2000 {
            let mut x = [0.0f32; SIGNALS];
            for value in &mut x {
                *value = rand::Rng::random_range(&mut dice, 0.0..10.0);
            }
            let y: f64 = x.iter().zip(&truth).map(|(x, w)| f64::from(*x) * w).sum();
            sums.add_position(&x, y);
        }
        let (weights, r2, rmse) = sums.solve(1e-9).unwrap();
        for (found, wanted) in weights.iter().zip(&truth) {
            assert!((f64::from(*found) - wanted).abs() < 1e-3, "{found} vs {wanted}");
        }
        assert!(r2 > 0.999_999 && rmse < 1e-3, "{r2} {rmse}");
    }

    /// The same seed gives the same weights on one thread or two, by either method.
    #[test]
    fn the_weights_do_not_depend_on_the_threads() {
        let setup = GameSetup::new(vec![carcassonne::Catalog::builtin("base").unwrap()], 2);
        let mut config = TrainConfig::new(setup).unwrap();
        config.seed = 9;
        for method in
            [Method::Regression { rounds: 2, games: 6 }, Method::Tuning { steps: 3, deals: 2 }]
        {
            config.method = method;
            config.threads = 1;
            let one = train(&config, &|_| {}).unwrap();
            config.threads = 2;
            let two = train(&config, &|_| {}).unwrap();
            assert_eq!(one.weights, two.weights, "{method:?}");
            assert_eq!(one.tuned, two.tuned);
        }
    }
}
