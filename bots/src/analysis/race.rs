//! The race between candidate moves: sweeps of rollouts over those still in it, the worse
//! half dropped at doubling sweep counts.

use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use carcassonne::{Action, ActionError, Game, Phase, PlayerId, TileIndex};
use rayon::prelude::*;

use super::rollout::{Continuation, Outcome, RollingOut, continuation};
use super::tally::Tally;
use super::{Analysis, AnalysisConfig, AnalysisError, MoveStats, Stop};
use crate::BotError;
use crate::seeds::derive;
use crate::turn::each_turn_option;

/// The sweeps after which the first cut is made; later cuts come at each doubling. Eight
/// rollouts tell a blunder from a good move; closer calls wait for more.
const FIRST_CUT: u64 = 8;

/// Rollouts when only one move is possible: enough to say what it is worth.
const FORCED_ROLLOUTS: u64 = 64;

/// The salt of the shuffle the continuations are shown on, apart from every sweep's.
const CONTINUATION_SALT: u64 = u64::MAX;

/// The moves to compare and the game after each.
pub(crate) struct Candidates {
    moves: Vec<(Option<Action>, Action)>,
    after: Vec<Game>,
    pinned: Option<usize>,
}

impl Candidates {
    /// Every distinct way to play the rest of the turn in `game`, with `pinned` among them.
    pub(crate) fn of(
        game: &Game,
        pinned: Option<(Option<Action>, Action)>,
    ) -> Result<Candidates, AnalysisError> {
        let mut moves = Vec::new();
        let mut after = Vec::new();
        if matches!(game.phase(), Phase::Place { .. }) {
            each_turn_option(game, |option, next| {
                moves.push((Some(option.place), option.figure));
                after.push(next.clone());
            });
        } else {
            for action in game.legal_actions() {
                let mut next = game.clone();
                if next.apply(action).is_ok() {
                    moves.push((None, action));
                    after.push(next);
                }
            }
        }
        let pinned = match pinned {
            None => None,
            Some(pin) => match moves.iter().position(|candidate| *candidate == pin) {
                Some(index) => Some(index),
                // A symmetric tile's other rotation gives a board the search folded away.
                None => {
                    let next = after_move(game, pin.0, pin.1)
                        .map_err(|error| AnalysisError::PinnedIllegal(error.to_string()))?;
                    moves.push(pin);
                    after.push(next);
                    Some(moves.len() - 1)
                }
            },
        };
        Ok(Candidates { moves, after, pinned })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// `game` once `place` (if any) and then `figure` are played.
pub(crate) fn after_move(
    game: &Game,
    place: Option<Action>,
    figure: Action,
) -> Result<Game, ActionError> {
    let mut next = game.clone();
    if let Some(place) = place {
        next.apply(place)?;
    }
    next.apply(figure)?;
    Ok(next)
}

/// The rollout workers: a pool when more than one thread is asked for, else the calling
/// thread with one reusable `RollingOut`.
struct Rollers {
    pool: Option<rayon::ThreadPool>,
    serial: RollingOut,
    continuation: Continuation,
}

type Played = Option<Result<Outcome, BotError>>;

impl Rollers {
    fn new(config: &AnalysisConfig) -> Result<Rollers, AnalysisError> {
        let threads = config.threads.max(1);
        let pool =
            if threads > 1 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
                Some(pool.map_err(|error| AnalysisError::Threads {
                    threads,
                    message: error.to_string(),
                })?)
            } else {
                None
            };
        Ok(Rollers {
            pool,
            serial: RollingOut::new(config.continuation),
            continuation: config.continuation,
        })
    }

    /// `play` of every job, in the jobs' order whatever the threads.
    fn play<J: Copy + Send + Sync>(
        &mut self,
        jobs: &[J],
        play: impl Fn(&mut RollingOut, J) -> Played + Send + Sync,
    ) -> Vec<Played> {
        match &self.pool {
            Some(pool) => {
                let continuation = self.continuation;
                pool.install(|| {
                    jobs.par_iter()
                        .map_init(
                            || RollingOut::new(continuation),
                            |rolling, job| play(rolling, *job),
                        )
                        .collect()
                })
            }
            None => jobs.iter().map(|job| play(&mut self.serial, *job)).collect(),
        }
    }
}

/// Each candidate's three running means.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tallies {
    margin: Tally,
    win: Tally,
    score: Tally,
}

impl Tallies {
    fn add(&mut self, outcome: Outcome) {
        self.margin.add(outcome.margin);
        self.win.add(outcome.win);
        self.score.add(outcome.score);
    }

    /// Writes the means and their errors into `stats`.
    pub(crate) fn write_into(&self, stats: &mut MoveStats) {
        stats.rollouts = self.margin.count();
        stats.margin = self.margin.mean();
        stats.margin_se = self.margin.standard_error();
        stats.win = self.win.mean();
        stats.win_se = self.win.standard_error();
        stats.score = self.score.mean();
    }
}

/// The race in progress.
struct Race<'a> {
    candidates: &'a Candidates,
    player: PlayerId,
    tile: TileIndex,
    tallies: Vec<Tallies>,
    /// The sweep after which each candidate dropped out of the race; `u64::MAX` while in it.
    dropped: Vec<u64>,
    started: Instant,
    rollouts: u64,
}

impl Race<'_> {
    /// `indices` ordered best first: those that stayed longer in the race first (a move
    /// dropped after a few rollouts may have a lucky mean, but the race saw it was worse),
    /// then by mean margin, then win share, then the candidates' own order, so that equal
    /// results rank the same every time.
    fn rank(&self, indices: &mut [usize]) {
        indices.sort_by(|a, b| {
            let (x, y) = (&self.tallies[*a], &self.tallies[*b]);
            self.dropped[*b]
                .cmp(&self.dropped[*a])
                .then(y.margin.mean().total_cmp(&x.margin.mean()))
                .then(y.win.mean().total_cmp(&x.win.mean()))
                .then(a.cmp(b))
        });
    }

    /// The analysis as it stands, every candidate ranked.
    fn snapshot(&self, stop: Stop) -> Analysis {
        let mut order: Vec<usize> = (0..self.tallies.len()).collect();
        self.rank(&mut order);
        let moves = order
            .into_iter()
            .map(|index| {
                let (place, figure) = self.candidates.moves[index];
                let mut stats = MoveStats {
                    place,
                    figure,
                    rollouts: 0,
                    margin: 0.0,
                    margin_se: f64::INFINITY,
                    win: 0.0,
                    win_se: f64::INFINITY,
                    score: 0.0,
                    continuation: Vec::new(),
                    pinned: self.candidates.pinned == Some(index),
                };
                self.tallies[index].write_into(&mut stats);
                stats
            })
            .collect();
        Analysis {
            player: self.player,
            tile: self.tile,
            moves,
            rollouts: self.rollouts,
            elapsed: self.started.elapsed(),
            stop,
        }
    }
}

/// Each of `games` (positions after different moves) played out `rollouts` times on the
/// shuffles of `seed`, rollout `k` of every game on the same shuffle; the tallies of margin,
/// win share and score, in `games`' order. Stops early, with what it has, on `cancel`.
pub(crate) fn measure(
    games: &[&Game],
    player: PlayerId,
    rollouts: u64,
    seed: u64,
    config: &AnalysisConfig,
    cancel: &AtomicBool,
) -> Result<Vec<Tallies>, AnalysisError> {
    let mut tallies = vec![Tallies::default(); games.len()];
    let jobs: Vec<(u64, usize)> =
        (0..rollouts).flat_map(|k| (0..games.len()).map(move |index| (k, index))).collect();
    let play = |rolling: &mut RollingOut, (k, index): (u64, usize)| {
        (!cancel.load(Ordering::Relaxed))
            .then(|| rolling.play(games[index], player, derive(seed, k)))
    };
    let outcomes = Rollers::new(config)?.play(&jobs, play);
    for ((_, index), outcome) in jobs.iter().zip(outcomes) {
        if let Some(outcome) = outcome {
            tallies[*index].add(outcome?);
        }
    }
    Ok(tallies)
}

/// Runs the race and ranks the moves.
pub(crate) fn run(
    player: PlayerId,
    tile: TileIndex,
    candidates: &Candidates,
    config: &AnalysisConfig,
    mut progress: impl FnMut(&Analysis),
    cancel: &AtomicBool,
) -> Result<Analysis, AnalysisError> {
    let mut rollers = Rollers::new(config)?;
    let count = candidates.moves.len();
    let mut race = Race {
        candidates,
        player,
        tile,
        tallies: vec![Tallies::default(); count],
        dropped: vec![u64::MAX; count],
        started: Instant::now(),
        rollouts: 0,
    };
    let budget = match (config.rollouts, count) {
        (budget, 1) => budget.unwrap_or(u64::MAX).min(FORCED_ROLLOUTS),
        (budget, _) => budget.unwrap_or(u64::MAX),
    };
    // Chunks are the unit of parallel work and of checking the clock; their size depends on
    // the continuation only, never on the threads, so neither does the result.
    let chunk = match config.continuation {
        Continuation::Random { .. } => 256,
        Continuation::Greedy => 16,
    };
    let keep = config.keep.max(1);
    let mut racing: Vec<usize> = (0..count).collect();
    let mut next_cut = FIRST_CUT;
    let mut last_report = race.started;
    let mut sweep = 0u64;
    let stop = 'race: loop {
        let seed = derive(config.seed, sweep);
        for part in racing.chunks(chunk) {
            let left = budget - race.rollouts;
            if left == 0 {
                break 'race if count == 1 { Stop::Forced } else { Stop::Budget };
            }
            let part = &part[..part.len().min(usize::try_from(left).unwrap_or(usize::MAX))];
            let play = |rolling: &mut RollingOut, index: usize| {
                // A raised flag stops the chunk's remaining rollouts, not only the next one.
                (!cancel.load(Ordering::Relaxed))
                    .then(|| rolling.play(&candidates.after[index], player, seed))
            };
            let outcomes = rollers.play(part, play);
            for (index, outcome) in part.iter().zip(outcomes) {
                if let Some(outcome) = outcome {
                    race.tallies[*index].add(outcome?);
                    race.rollouts += 1;
                }
            }
            if cancel.load(Ordering::Relaxed) {
                break 'race Stop::Cancelled;
            }
            if config.time.is_some_and(|time| race.started.elapsed() >= time) {
                break 'race Stop::Time;
            }
            if last_report.elapsed() >= config.report_every {
                progress(&race.snapshot(Stop::Running));
                last_report = Instant::now();
            }
        }
        sweep += 1;
        if sweep == next_cut {
            next_cut *= 2;
            let keeping = keep.max(racing.len().div_ceil(2));
            if racing.len() > keeping {
                race.rank(&mut racing);
                for index in racing.split_off(keeping) {
                    if candidates.pinned == Some(index) {
                        racing.push(index);
                    } else {
                        race.dropped[index] = sweep;
                    }
                }
                racing.sort_unstable();
            }
        }
    };
    let mut analysis = race.snapshot(stop);
    if stop != Stop::Cancelled {
        let seed = derive(config.seed, CONTINUATION_SALT);
        for stats in analysis.moves.iter_mut().take(keep) {
            let index = candidates
                .moves
                .iter()
                .position(|candidate| *candidate == (stats.place, stats.figure))
                .unwrap_or_default();
            stats.continuation =
                continuation(&candidates.after[index], seed, config.continuation_turns)?;
        }
    }
    analysis.elapsed = race.started.elapsed();
    Ok(analysis)
}
