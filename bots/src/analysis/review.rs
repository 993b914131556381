//! A whole game reviewed: every turn's move against the best the analyzer finds there.

use std::sync::atomic::{AtomicBool, Ordering};

use carcassonne::{Action, Game, PlayerId, TileIndex};

use super::race::{after_move, measure};
use super::{AnalysisConfig, AnalysisError, MoveStats, analyze_pinned};
use crate::seeds::derive;

/// The salt of the shuffles a review measures its best and played moves on again.
const VERIFY_SALT: u64 = u64::MAX - 1;

/// One turn of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TurnReview {
    /// The turn, counting from 1 (the first tile placed after the start tile).
    pub turn: usize,
    /// Who moved.
    pub player: PlayerId,
    /// The tile they drew.
    pub tile: TileIndex,
    /// The move they played, measured.
    pub played: MoveStats,
    /// The best move the analyzer found (the played one when nothing beat it).
    pub best: MoveStats,
    /// Expected final margin the played move gave away: the best move's margin less the
    /// played one's, both measured again on fresh shuffles (the race picks its best on the
    /// same rollouts that measure it, which flatters it); never below zero.
    pub loss: f64,
    /// How many moves were compared.
    pub candidates: usize,
}

/// Where a review has got to, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReviewProgress {
    /// Turns analysed.
    pub done: usize,
    /// Turns to analyse.
    pub turns: usize,
}

/// Analyses every turn of `game` (each with `config`'s budget, and a seed derived from its
/// seed and the turn) and measures the move played against the best one: again, on a
/// quarter of the budget's rollouts each (at least 64) on shuffles the race did not use.
///
/// Returns the turns in order; stops early, with the turns done, when `cancel` is raised.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use carcassonne::{Catalog, Game, GameSetup};
/// use carcassonne_bots::analysis::{AnalysisConfig, review};
///
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// for _ in 0..9 {
///     let first = game.legal_actions()[0];
///     game.apply(first)?;
/// }
/// let config = AnalysisConfig::default().with_rollouts(Some(200));
/// let turns = review(&game, &config, |_| {}, &AtomicBool::new(false))?;
/// assert_eq!(turns.len(), 3);
/// assert!(turns.iter().all(|turn| turn.loss >= 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`super::analyze`]; a game whose actions do not replay cannot be a [`Game`].
pub fn review(
    game: &Game,
    config: &AnalysisConfig,
    mut progress: impl FnMut(ReviewProgress),
    cancel: &AtomicBool,
) -> Result<Vec<TurnReview>, AnalysisError> {
    let actions = game.actions();
    let places: Vec<usize> = (0..actions.len())
        .filter(|index| {
            matches!(actions[*index], Action::Place { .. }) && *index + 1 < actions.len()
        })
        .collect();
    let turns = places.len();
    progress(ReviewProgress { done: 0, turns });
    let mut replayed = Game::new(game.setup())
        .map_err(|_| AnalysisError::NoChoice("the game cannot be set up again"))?;
    let mut applied = 0;
    let mut reviews = Vec::with_capacity(turns);
    for (done, place) in places.into_iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        for action in &actions[applied..place] {
            replayed
                .apply(*action)
                .map_err(|error| AnalysisError::PinnedIllegal(error.to_string()))?;
        }
        applied = place;
        let played = (Some(actions[place]), actions[place + 1]);
        let turn = done + 1;
        let turn_config =
            AnalysisConfig { seed: derive(config.seed, turn as u64), ..config.clone() };
        let analysis = analyze_pinned(&replayed, &turn_config, Some(played), |_| {}, cancel)?;
        let mut best = analysis.moves[0].clone();
        let Some(mut played) = analysis.moves.iter().find(|stats| stats.pinned).cloned() else {
            continue;
        };
        let loss = if played == best {
            0.0
        } else {
            let after = |stats: &MoveStats| after_move(&replayed, stats.place, stats.figure);
            let (Ok(best_after), Ok(played_after)) = (after(&best), after(&played)) else {
                return Err(AnalysisError::PinnedIllegal("a ranked move no longer applies".into()));
            };
            let rollouts = (config.rollouts.unwrap_or(256) / 4).max(64);
            let seed = derive(turn_config.seed, VERIFY_SALT);
            let games = [&best_after, &played_after];
            let again = measure(&games, analysis.player, rollouts, seed, &turn_config, cancel)?;
            if let [best_again, played_again] = &again[..] {
                best_again.write_into(&mut best);
                played_again.write_into(&mut played);
            }
            (best.margin - played.margin).max(0.0)
        };
        reviews.push(TurnReview {
            turn,
            player: analysis.player,
            tile: analysis.tile,
            loss,
            played,
            best,
            candidates: analysis.moves.len(),
        });
        progress(ReviewProgress { done: done + 1, turns });
    }
    Ok(reviews)
}
