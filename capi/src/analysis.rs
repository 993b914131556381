//! The move analyzer: the moves of the player to move ranked by the final margin and win
//! share they lead to, with progress reports and a cancel flag.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

use carcassonne::Phase;
use carcassonne_bots::analysis::{
    Analysis, AnalysisConfig, AnalysisError, Continuation, MoveStats, Stop, analyze,
};

use crate::boundary::{ErrSlot, Failure, Out, arg, boundary, plain_boundary};
use crate::error::carc_error;
use crate::game::{carc_game, game_arg};
use crate::result::carc_result;
use crate::values::{action_to_c, carc_action};
use crate::written::Written;

/// How the game is played on after each move an analysis measures.
pub type carc_continuation = u32;
/// Random legal placements, a figure half the time: tens of thousands of rollouts a second.
pub const CARC_CONTINUATION_RANDOM: carc_continuation = 0;
/// The greedy bot for every player: about a thousand times slower, but sensibly played.
pub const CARC_CONTINUATION_GREEDY: carc_continuation = 1;

/// Why an analysis stopped.
pub type carc_analysis_stop = u32;
/// Still running: in progress reports.
pub const CARC_ANALYSIS_STOP_RUNNING: carc_analysis_stop = 0;
/// The rollout budget is spent.
pub const CARC_ANALYSIS_STOP_BUDGET: carc_analysis_stop = 1;
/// The time is up.
pub const CARC_ANALYSIS_STOP_TIME: carc_analysis_stop = 2;
/// The cancel flag was raised.
pub const CARC_ANALYSIS_STOP_CANCELLED: carc_analysis_stop = 3;
/// Only one move was possible.
pub const CARC_ANALYSIS_STOP_FORCED: carc_analysis_stop = 4;

/// How much to analyse, and how; `carc_analysis_config_default` fills in 20,000 rollouts on
/// the calling thread with the random continuation, reports every 250 ms.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct carc_analysis_config {
    /// Rollouts in all, over every move; 0 for no limit (then `seconds` must stop it).
    pub rollouts: u64,
    /// Seconds to think; 0 for no limit. Stops between rollouts.
    pub seconds: f64,
    /// The seed of every shuffle and die: the same seed and `rollouts` give the same
    /// analysis whatever `threads` is.
    pub seed: u64,
    /// Threads to roll out on; 0 and 1 both mean the calling thread alone.
    pub threads: u32,
    /// A `CARC_CONTINUATION_*` constant.
    pub continuation: carc_continuation,
    /// Moves kept in the race to the end (at least 1).
    pub keep: u32,
    /// Milliseconds between progress reports; 0 reports after every batch of rollouts.
    pub report_every_ms: u32,
}

/// One way to play the turn and what it leads to.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct carc_move_stats {
    /// The placement (`CARC_ACTION_KIND_PLACE`) when `has_place` is 1.
    pub place: carc_action,
    /// The figure action after it: a deployment, an abbot's recall or a skip.
    pub figure: carc_action,
    /// 1 when `place` is set; 0 when the analysis began after the tile was placed.
    pub has_place: u8,
    /// Rollouts played from this move.
    pub rollouts: u32,
    /// Mean final margin of the player to move: their score less the best other score.
    pub margin: f64,
    /// Standard error of `margin`; infinite below two rollouts.
    pub margin_se: f64,
    /// The player's mean share of the win (a shared win is split), from 0 to 1.
    pub win: f64,
    /// Standard error of `win`; infinite below two rollouts.
    pub win_se: f64,
    /// Mean final score of the player.
    pub score: f64,
}

/// The whole of an analysis beside its ranked moves.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct carc_analysis_summary {
    /// Rollouts played.
    pub rollouts: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// How many moves were compared (the moves written may be fewer).
    pub moves: u32,
    /// A `CARC_ANALYSIS_STOP_*` constant.
    pub stop: carc_analysis_stop,
    /// The tile drawn.
    pub tile: u16,
    /// The player to move.
    pub player: u8,
}

/// A progress report: `moves` is every move ranked so far, best first (`count` of them;
/// valid during the call only), `summary` the rollouts and time so far. Called on the thread
/// that called `carc_game_analyze`; it must return normally (no `longjmp`, no C++ exception).
pub type carc_analysis_progress = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        moves: *const carc_move_stats,
        count: usize,
        summary: *const carc_analysis_summary,
    ),
>;

/// Fills `*out` with the default analysis: 20,000 rollouts, no time limit, seed 0, one
/// thread, the random continuation, 5 moves kept, a report every 250 ms.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_analysis_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_analysis_config_default(
    out: *mut carc_analysis_config,
) -> carc_result {
    plain_boundary(|| {
        // SAFETY: the caller promises NULL or a writable `carc_analysis_config`.
        let out = unsafe { Out::new(out, "out") }?;
        let default = AnalysisConfig::default();
        out.write(carc_analysis_config {
            rollouts: default.rollouts.unwrap_or(0),
            seconds: 0.0,
            seed: default.seed,
            threads: 1,
            continuation: CARC_CONTINUATION_RANDOM,
            keep: default.keep as u32,
            report_every_ms: default.report_every.as_millis() as u32,
        });
        Ok(())
    })
}

/// Ranks every way the player to move in `game` (in its place or figure phase) can play the
/// turn by the final margin and win share it leads to, from rollouts on fresh shuffles of
/// the tiles (the analysis never reads the bag's order), and writes the best `cap` of them to
/// `moves`, best first; `*count` receives how many were written and `*summary` (if not NULL)
/// the rollouts, time, number of moves compared and why it stopped.
///
/// `progress` (NULL for none) hears the ranking so far about every `report_every_ms`, with
/// `user` passed back. `cancel` (NULL for none) points to a flag another thread may set to a
/// non-zero value, with an atomic store (C11 `atomic_store`, C# `Interlocked.Exchange`), to
/// stop the analysis within a batch of rollouts; what it has is then written as usual, with
/// `CARC_ANALYSIS_STOP_CANCELLED`. The analysis works on a copy of the game: other calls on
/// `game` need not wait for it.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` (`config`, `count`, or `moves` with `cap` above 0),
/// `CARC_RESULT_POISONED`, `CARC_RESULT_INVALID_ENUM` for an unknown continuation,
/// `CARC_RESULT_INVALID_ARGUMENT` for neither a rollout budget nor a time limit or a time
/// that is not a finite number of seconds from 0 up to a day, `CARC_RESULT_WRONG_PHASE` when
/// the next tile is still to be drawn, `CARC_RESULT_GAME_OVER`.
///
/// # Safety
/// `game` is any handle value; `config` is NULL or points to a `carc_analysis_config`;
/// `progress` is NULL or a function safe to call as described; `cancel` is NULL or points to
/// an aligned `int32_t` that stays valid during the call and is written only atomically;
/// `moves` is NULL or valid for writing `cap` `carc_move_stats`; `count` is NULL or points to
/// a writable `size_t`; `summary` is NULL or points to a writable `carc_analysis_summary`;
/// `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn carc_game_analyze(
    game: *const carc_game,
    config: *const carc_analysis_config,
    progress: carc_analysis_progress,
    user: *mut c_void,
    cancel: *const i32,
    moves: *mut carc_move_stats,
    cap: usize,
    count: *mut usize,
    summary: *mut carc_analysis_summary,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a valid `carc_analysis_config`.
        let config = config_from_c(unsafe { arg(config, "config") }?)?;
        // SAFETY: the caller promises NULL or a writable `size_t`.
        let count = unsafe { Out::new(count, "count") }?;
        if moves.is_null() && cap > 0 {
            return Err(Failure::null("moves"));
        }
        // SAFETY: the caller promises NULL or an aligned `int32_t`, valid for the call and
        // written only atomically, which is what an `AtomicI32` is in memory.
        let cancel_flag =
            (!cancel.is_null()).then(|| unsafe { AtomicI32::from_ptr(cancel.cast_mut()) });
        // Analyse a copy, the handle's turn given back at once (as a bot does).
        let copy = game_arg(game)?.game().clone();
        match copy.phase() {
            Phase::GameOver => {
                return Err(Failure::new(
                    carc_result::GameOver,
                    "the game is over; there is no move to analyse",
                ));
            }
            Phase::Draw | Phase::Sheep { .. } => {
                return Err(Failure::new(
                    carc_result::WrongPhase,
                    "a tile or token is still to be drawn: the bag, not the player, chooses now",
                ));
            }
            Phase::Place { .. } | Phase::Figure { .. } | Phase::Flock { .. } => {}
        }
        let (report_every, user_every) = (Duration::ZERO, config.report_every);
        let stopped = AtomicBool::new(false);
        let mut last_report = Instant::now();
        let mut ranked: Vec<carc_move_stats> = Vec::new();
        let inner = config.with_report_every(report_every);
        let analysis = analyze(
            &copy,
            &inner,
            |partial| {
                // The caller's flag is looked at after every batch, and passed on.
                if cancel_flag.is_some_and(|flag| flag.load(Ordering::Relaxed) != 0) {
                    stopped.store(true, Ordering::Relaxed);
                }
                let Some(report) = progress else { return };
                if last_report.elapsed() < user_every {
                    return;
                }
                last_report = Instant::now();
                ranked.clear();
                ranked.extend(partial.moves.iter().map(|stats| move_to_c(stats, &copy)));
                let summary = summary_to_c(partial);
                // SAFETY: the caller promises a function safe to call with its `user`, the
                // moves and the summary, which live until it returns.
                unsafe { report(user, ranked.as_ptr(), ranked.len(), &summary) };
            },
            &stopped,
        )
        .map_err(analysis_failure)?;
        let written = analysis.moves.len().min(cap);
        for (index, stats) in analysis.moves.iter().take(written).enumerate() {
            // SAFETY: `index < written <= cap`, and the caller promised `cap` writable items
            // (so `moves` is not NULL here).
            unsafe { move_to_c(stats, &copy).write_to(moves.add(index)) };
        }
        count.write(written);
        if !summary.is_null() {
            // SAFETY: not NULL, and the caller promises a writable `carc_analysis_summary`.
            unsafe { summary_to_c(&analysis).write_to(summary) };
        }
        Ok(())
    })
}

fn config_from_c(config: &carc_analysis_config) -> Result<AnalysisConfig, Failure> {
    let continuation = match config.continuation {
        CARC_CONTINUATION_RANDOM => Continuation::Random { figure_chance: 0.5 },
        CARC_CONTINUATION_GREEDY => Continuation::Greedy,
        other => return Err(crate::values::invalid_enum("carc_continuation", other)),
    };
    let seconds = config.seconds;
    if !seconds.is_finite() || !(0.0..=86_400.0).contains(&seconds) {
        return Err(Failure::new(
            carc_result::InvalidArgument,
            format!("`seconds` is {seconds}; give 0 for no limit, or up to a day"),
        ));
    }
    if config.rollouts == 0 && seconds == 0.0 {
        return Err(Failure::new(
            carc_result::InvalidArgument,
            "an analysis needs a rollout budget or a time limit: `rollouts` and `seconds` are both 0",
        ));
    }
    Ok(AnalysisConfig::default()
        .with_rollouts((config.rollouts > 0).then_some(config.rollouts))
        .with_time((seconds > 0.0).then(|| Duration::from_secs_f64(seconds)))
        .with_seed(config.seed)
        .with_threads(config.threads.clamp(1, 256) as usize)
        .with_continuation(continuation)
        .with_keep(config.keep.clamp(1, 1000) as usize)
        // No continuation lines travel through the C API.
        .with_continuation_turns(0)
        .with_report_every(Duration::from_millis(u64::from(config.report_every_ms))))
}

fn analysis_failure(error: AnalysisError) -> Failure {
    let code = match &error {
        AnalysisError::NoChoice(_) => carc_result::WrongPhase,
        AnalysisError::Unbounded | AnalysisError::Threads { .. } => carc_result::InvalidArgument,
        AnalysisError::PinnedIllegal(_) | AnalysisError::Bot(_) => carc_result::Panic,
    };
    Failure::new(code, error.to_string())
}

fn move_to_c(stats: &MoveStats, game: &carcassonne::Game) -> carc_move_stats {
    carc_move_stats {
        place: stats.place.map(|place| action_to_c(place, game)).unwrap_or_default(),
        figure: action_to_c(stats.figure, game),
        has_place: u8::from(stats.place.is_some()),
        rollouts: stats.rollouts,
        margin: stats.margin,
        margin_se: stats.margin_se,
        win: stats.win,
        win_se: stats.win_se,
        score: stats.score,
    }
}

fn summary_to_c(analysis: &Analysis) -> carc_analysis_summary {
    carc_analysis_summary {
        rollouts: analysis.rollouts,
        seconds: analysis.elapsed.as_secs_f64(),
        moves: u32::try_from(analysis.moves.len()).unwrap_or(u32::MAX),
        stop: match analysis.stop {
            Stop::Running => CARC_ANALYSIS_STOP_RUNNING,
            Stop::Budget => CARC_ANALYSIS_STOP_BUDGET,
            Stop::Time => CARC_ANALYSIS_STOP_TIME,
            Stop::Cancelled => CARC_ANALYSIS_STOP_CANCELLED,
            Stop::Forced => CARC_ANALYSIS_STOP_FORCED,
        },
        tile: analysis.tile,
        player: analysis.player.0,
    }
}
