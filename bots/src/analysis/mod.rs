//! The move analyzer: every way the player to move can play the turn, ranked by the final
//! margin and win chance it leads to, measured by playing the game out many times.
//!
//! Each candidate (a placement with its figure action) is played out from copies of the game
//! whose hidden tile order is shuffled anew, as a player would have to imagine it: rollout `k`
//! of every candidate uses the same shuffle and the same dice, so candidates are compared on
//! the same futures and their differences are sharper than their values. Rollouts go in
//! sweeps over the candidates still in the race; after 8, 16, 32 … sweeps the worse half
//! drops out (never below `keep` candidates, never a pinned one), so the budget goes where
//! the ranking is close. The ranking puts the candidates still in the race first, then
//! those that dropped out, the later first.
//!
//! The same seed and budget of rollouts give the same analysis whatever the thread count:
//! which rollouts are run depends only on the results so far, each rollout only on its seed,
//! and results are added in a fixed order. A time budget stops between rollouts and so
//! depends on speed.

mod race;
mod review;
mod rollout;
mod tally;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use carcassonne::{Action, Game, Phase, PlayerId, TileIndex};

use crate::BotError;

pub use review::{ReviewProgress, TurnReview, review};
pub use rollout::Continuation;

/// How much to analyse, and how.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AnalysisConfig {
    /// Rollouts in all, over every candidate; `None` for no limit (then `time` must stop it).
    pub rollouts: Option<u64>,
    /// Time to think; `None` for no limit. Stops between rollouts.
    pub time: Option<Duration>,
    /// The seed of every shuffle and every die.
    pub seed: u64,
    /// Rollouts run at once; the result does not depend on it.
    pub threads: usize,
    /// How the game is played on after each candidate.
    pub continuation: Continuation,
    /// Candidates that stay in the race to the end, and get a continuation each.
    pub keep: usize,
    /// Whole turns of the expected continuation shown after each of the `keep` best moves.
    pub continuation_turns: u32,
    /// How often the progress callback hears the ranking so far.
    pub report_every: Duration,
}

impl Default for AnalysisConfig {
    fn default() -> AnalysisConfig {
        AnalysisConfig {
            rollouts: Some(20_000),
            time: None,
            seed: 0,
            threads: 1,
            continuation: Continuation::Random { figure_chance: 0.5 },
            keep: 5,
            continuation_turns: 2,
            report_every: Duration::from_millis(250),
        }
    }
}

impl AnalysisConfig {
    /// Sets [`rollouts`](Self::rollouts), for chaining.
    #[must_use]
    pub fn with_rollouts(mut self, rollouts: Option<u64>) -> AnalysisConfig {
        self.rollouts = rollouts;
        self
    }

    /// Sets [`time`](Self::time), for chaining.
    #[must_use]
    pub fn with_time(mut self, time: Option<Duration>) -> AnalysisConfig {
        self.time = time;
        self
    }

    /// Sets [`seed`](Self::seed), for chaining.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> AnalysisConfig {
        self.seed = seed;
        self
    }

    /// Sets [`threads`](Self::threads), for chaining.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> AnalysisConfig {
        self.threads = threads;
        self
    }

    /// Sets [`continuation`](Self::continuation), for chaining.
    #[must_use]
    pub fn with_continuation(mut self, continuation: Continuation) -> AnalysisConfig {
        self.continuation = continuation;
        self
    }

    /// Sets [`keep`](Self::keep), for chaining.
    #[must_use]
    pub fn with_keep(mut self, keep: usize) -> AnalysisConfig {
        self.keep = keep;
        self
    }

    /// Sets [`continuation_turns`](Self::continuation_turns), for chaining.
    #[must_use]
    pub fn with_continuation_turns(mut self, continuation_turns: u32) -> AnalysisConfig {
        self.continuation_turns = continuation_turns;
        self
    }

    /// Sets [`report_every`](Self::report_every), for chaining.
    #[must_use]
    pub fn with_report_every(mut self, report_every: Duration) -> AnalysisConfig {
        self.report_every = report_every;
        self
    }
}

/// One way to play the turn and what it leads to.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MoveStats {
    /// The placement; `None` when the analysis began after the tile was placed.
    pub place: Option<Action>,
    /// The figure action after it: a deployment, an abbot's recall or a skip.
    pub figure: Action,
    /// Rollouts played from this move.
    pub rollouts: u32,
    /// Mean final margin of the player to move: their score less the best other score.
    pub margin: f64,
    /// Standard error of `margin`.
    pub margin_se: f64,
    /// The player's mean share of the win (a shared win is split).
    pub win: f64,
    /// Standard error of `win`.
    pub win_se: f64,
    /// Mean final score of the player.
    pub score: f64,
    /// How the game might go on: the next whole turns on one shuffle of the tiles, played by
    /// the greedy bot (each draw as the [`Action::DrawTile`] it gave). Empty for moves below
    /// the kept ones and in progress reports.
    pub continuation: Vec<Action>,
    /// Whether the caller asked for this move to be measured to the end (the move played,
    /// in a review); it may then be a placement the ranking would otherwise fold into a
    /// symmetric one.
    pub pinned: bool,
}

/// Why the analysis stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It is still running (in progress reports).
    Running,
    /// The rollout budget is spent.
    Budget,
    /// The time is up.
    Time,
    /// The cancel flag was raised.
    Cancelled,
    /// Only one move was possible: nothing to compare.
    Forced,
}

/// The ranked moves of the player to move.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Analysis {
    /// The player to move.
    pub player: PlayerId,
    /// The tile they drew.
    pub tile: TileIndex,
    /// Every candidate, best first: those that stayed in the race longest first, each group
    /// by mean margin, then win share.
    pub moves: Vec<MoveStats>,
    /// Rollouts played.
    pub rollouts: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stop: Stop,
}

/// Why a game cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The game is over, or the tile is still to be drawn (the bag, not the player, chooses
    /// then).
    #[error("there is no move to analyse: {0}")]
    NoChoice(&'static str),
    /// Neither a rollout budget nor a time limit would stop the analysis.
    #[error("an analysis needs a rollout budget or a time limit")]
    Unbounded,
    /// The thread pool could not start.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// The pinned move, or a move of the reviewed game, is not legal where it is played.
    #[error("the move to measure is not legal: {0}")]
    PinnedIllegal(String),
    /// A bot playing a continuation failed; a bug in the bot.
    #[error("a continuation failed: {0}")]
    Bot(#[from] BotError),
}

/// Ranks the moves of the player to move in `game` (in its place or figure phase).
///
/// `progress` hears the ranking so far about every [`AnalysisConfig::report_every`], from
/// the calling thread; raising `cancel` stops the analysis soon after, returning what it has.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use carcassonne::{Action, Catalog, Game, GameSetup};
/// use carcassonne_bots::analysis::{AnalysisConfig, analyze};
///
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// game.apply(Action::Draw)?;
/// let config = AnalysisConfig::default().with_rollouts(Some(2_000));
/// let analysis = analyze(&game, &config, |_| {}, &AtomicBool::new(false))?;
/// let best = &analysis.moves[0];
/// println!("{:?} then {:?}: margin {:+.1} ± {:.1}", best.place, best.figure, best.margin, best.margin_se);
/// assert_eq!(analysis.rollouts, 2_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`AnalysisError`] when there is no move to choose or the budget has no bound.
pub fn analyze(
    game: &Game,
    config: &AnalysisConfig,
    progress: impl FnMut(&Analysis),
    cancel: &AtomicBool,
) -> Result<Analysis, AnalysisError> {
    analyze_pinned(game, config, None, progress, cancel)
}

/// As [`analyze`], with `pinned` (a whole turn: placement then figure action, or the figure
/// action alone in the figure phase) measured to the end whether or not it stays in the race.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_pinned(
    game: &Game,
    config: &AnalysisConfig,
    pinned: Option<(Option<Action>, Action)>,
    progress: impl FnMut(&Analysis),
    cancel: &AtomicBool,
) -> Result<Analysis, AnalysisError> {
    if config.rollouts.is_none() && config.time.is_none() {
        return Err(AnalysisError::Unbounded);
    }
    let (player, tile) = match game.phase() {
        Phase::Place { tile } => (game.current_player(), tile),
        Phase::Figure { pos } | Phase::Flock { pos } => {
            let tile = game.board().get(pos).map(|placed| placed.tile).unwrap_or_default();
            (game.current_player(), tile)
        }
        Phase::Draw => return Err(AnalysisError::NoChoice("the next tile is still to be drawn")),
        Phase::Sheep { .. } => {
            return Err(AnalysisError::NoChoice("the flock's token is still to be drawn"));
        }
        Phase::GameOver => return Err(AnalysisError::NoChoice("the game is over")),
    };
    let candidates = race::Candidates::of(game, pinned)?;
    if candidates.is_empty() {
        // The rules always leave a placement or a skip; this guards the race's loop.
        return Err(AnalysisError::NoChoice("no legal move"));
    }
    race::run(player, tile, &candidates, config, progress, cancel)
}
