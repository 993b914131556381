//! `analyze`: the move analyzer, with its ranking so far handed to a callback as it runs;
//! `analysisSvg`, its heat map on the board; `review`, every turn of a game against the best.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use carcassonne::Action;
use carcassonne_bots::analysis::{
    self, Analysis, AnalysisConfig, AnalysisError, Continuation, MoveStats, Stop,
};
use carcassonne_render::{BoardOptions, Overlay, Suggestion, board_svg};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, to_js};
use crate::errors::{error, type_error};
use crate::game::Game;

/// The analysis's options, as JavaScript gives them; every field may be left out.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OptionsDoc {
    rollouts: Option<f64>,
    seconds: Option<f64>,
    seed: f64,
    continuation: String,
    keep: f64,
    report_every: f64,
}

impl Default for OptionsDoc {
    fn default() -> OptionsDoc {
        OptionsDoc {
            rollouts: Some(20_000.0),
            seconds: None,
            seed: 0.0,
            continuation: "random".into(),
            keep: 5.0,
            report_every: 0.25,
        }
    }
}

impl OptionsDoc {
    fn config(&self) -> Result<AnalysisConfig, JsValue> {
        let seconds_ok = |value: f64| value.is_finite() && value > 0.0 && value <= 86_400.0;
        let whole = |value: f64, what: &str, max: f64| {
            crate::convert::whole(value, what, 1.0, max).map(|value| value as u64)
        };
        if !seconds_ok(self.report_every) || self.seconds.is_some_and(|value| !seconds_ok(value)) {
            return Err(type_error(
                "analysis options",
                "times are seconds above 0 and up to a day",
            ));
        }
        let rollouts = self.rollouts.map(|count| whole(count, "rollouts", 1e12)).transpose()?;
        if rollouts.is_none() && self.seconds.is_none() {
            return Err(type_error(
                "analysis options",
                "give rollouts or seconds, or the analysis never stops",
            ));
        }
        let continuation = match self.continuation.as_str() {
            "random" => Continuation::Random { figure_chance: 0.5 },
            "greedy" => Continuation::Greedy,
            other => {
                return Err(type_error(
                    "continuation",
                    format!("{other:?} is not \"random\" or \"greedy\""),
                ));
            }
        };
        Ok(AnalysisConfig::default()
            .with_rollouts(rollouts)
            .with_time(self.seconds.map(Duration::from_secs_f64))
            .with_seed(crate::convert::seed(self.seed)?)
            .with_threads(1)
            .with_continuation(continuation)
            .with_keep(whole(self.keep, "keep", 1000.0)? as usize)
            .with_report_every(Duration::from_secs_f64(self.report_every)))
    }
}

/// One ranked move, as JavaScript reads it (the same keys as the Python package's).
#[derive(Serialize)]
struct MoveDoc<'a> {
    place: Option<Action>,
    figure: Action,
    rollouts: u32,
    margin: f64,
    margin_se: Option<f64>,
    win: f64,
    win_se: Option<f64>,
    score: f64,
    continuation: &'a [Action],
    pinned: bool,
}

/// An analysis, finished or so far.
#[derive(Serialize)]
struct AnalysisDoc<'a> {
    player: usize,
    tile: u16,
    rollouts: u64,
    /// The rollouts the analysis will play in all, where a budget bounds it.
    planned: Option<u64>,
    seconds: f64,
    stop: &'static str,
    moves: Vec<MoveDoc<'a>>,
}

fn document(analysis: &Analysis, planned: Option<u64>) -> AnalysisDoc<'_> {
    let moves = analysis.moves.iter().map(move_doc).collect();
    AnalysisDoc {
        player: analysis.player.index(),
        tile: analysis.tile,
        rollouts: analysis.rollouts,
        planned,
        seconds: analysis.elapsed.as_secs_f64(),
        stop: match analysis.stop {
            Stop::Running => "running",
            Stop::Budget => "budget",
            Stop::Time => "time",
            Stop::Cancelled => "cancelled",
            Stop::Forced => "forced",
        },
        moves,
    }
}

/// A JavaScript progress callback, as `analyze` and `review` call it: each report goes to it
/// (until it asks to stop by returning `true`), and an exception it throws stops the work and
/// is thrown on once the work has returned.
struct Progress {
    callback: Option<js_sys::Function>,
    cancel: AtomicBool,
    thrown: RefCell<Option<JsValue>>,
}

impl Progress {
    /// The callback JavaScript passed, if any.
    fn new(progress: JsValue) -> Result<Progress, JsValue> {
        let callback = match progress {
            value if value.is_undefined() || value.is_null() => None,
            value => Some(
                value
                    .dyn_into::<js_sys::Function>()
                    .map_err(|_| type_error("progress", "not a function"))?,
            ),
        };
        Ok(Progress { callback, cancel: AtomicBool::new(false), thrown: RefCell::new(None) })
    }

    /// Hands `value` to the callback, unless it has already asked to stop.
    fn report<T: Serialize + ?Sized>(&self, value: &T) {
        let Some(callback) = &self.callback else { return };
        if self.cancel.load(Ordering::Relaxed) {
            return;
        }
        match to_js(value).and_then(|value| callback.call1(&JsValue::NULL, &value)) {
            Ok(stop) if stop.is_truthy() => self.cancel.store(true, Ordering::Relaxed),
            Ok(_) => {}
            Err(exception) => {
                *self.thrown.borrow_mut() = Some(exception);
                self.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The work's result, or the exception the callback threw during it.
    fn finish<T>(self, result: Result<T, AnalysisError>) -> Result<T, JsValue> {
        if let Some(exception) = self.thrown.into_inner() {
            return Err(exception);
        }
        result.map_err(|refusal| error("AnalysisError", refusal.to_string()))
    }
}

/// Ranks every way the player to move in `game` (after the draw) can play the turn by the
/// final margin and win share it leads to, from rollouts on fresh shuffles of the tiles.
/// `progress(partial)` hears the ranking so far every `report_every` seconds; returning `true`
/// from it stops the analysis, which returns what it has (`stop: "cancelled"`); an exception
/// it throws stops it too and is thrown on. The same seed and rollouts give the same analysis.
#[wasm_bindgen(unchecked_return_type = "Analysis")]
pub fn analyze(
    game: &Game,
    #[wasm_bindgen(unchecked_param_type = "AnalysisOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "((partial: Analysis) => boolean | void) | undefined")]
    progress: JsValue,
) -> Result<JsValue, JsValue> {
    let options: OptionsDoc = if options.is_undefined() || options.is_null() {
        OptionsDoc::default()
    } else {
        from_js(options, "analysis options")?
    };
    let config = options.config()?;
    let progress = Progress::new(progress)?;
    let result = analysis::analyze(
        game.core(),
        &config,
        |partial| progress.report(&document(partial, config.rollouts)),
        &progress.cancel,
    );
    let analysis = progress.finish(result)?;
    to_js(&document(&analysis, config.rollouts))
}

/// What `analysisSvg` reads of an analysis: the tile and each move's placement, figure and
/// margin (the rest of what `analyze` returned is passed over).
#[derive(Deserialize)]
struct HeatDoc {
    tile: u16,
    moves: Vec<HeatMove>,
}

#[derive(Deserialize)]
struct HeatMove {
    place: Option<Action>,
    figure: Action,
    #[serde(default)]
    margin: f64,
}

/// The board of `game` with `analysis` over it, as the command line's heat map draws it: each
/// cell a move could use shaded by the best margin there (red to green) and labelled, the best
/// move drawn in (cyan), and `played` (`{ place, figure }`, the move played there) drawn in with
/// a dashed magenta outline.
#[wasm_bindgen(js_name = analysisSvg)]
pub fn analysis_svg(
    game: &Game,
    #[wasm_bindgen(unchecked_param_type = "Analysis")] analysis: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ place: Action | null, figure: Action } | undefined")]
    played: JsValue,
) -> Result<String, JsValue> {
    let heat: HeatDoc = from_js(analysis, "analysis")?;
    let played: Option<HeatMove> = if played.is_undefined() || played.is_null() {
        None
    } else {
        Some(from_js(played, "played")?)
    };
    let candidates = heat.moves.iter().filter_map(|stats| match stats.place {
        Some(Action::Place { pos, .. }) => Some((pos, stats.margin)),
        _ => None,
    });
    let best =
        heat.moves.first().and_then(|best| Suggestion::of_move(heat.tile, best.place, best.figure));
    let played =
        played.and_then(|played| Suggestion::of_move(heat.tile, played.place, played.figure));
    let options = BoardOptions::default().with_overlay(Overlay::heat_map(candidates, best, played));
    Ok(board_svg(game.core(), &options))
}

/// One turn of a reviewed game, as JavaScript reads it.
#[derive(Serialize)]
struct TurnDoc<'a> {
    turn: usize,
    player: usize,
    tile: u16,
    played: MoveDoc<'a>,
    best: MoveDoc<'a>,
    /// Expected final margin the played move gave away (never below zero).
    loss: f64,
    candidates: usize,
}

fn move_doc(stats: &MoveStats) -> MoveDoc<'_> {
    MoveDoc {
        place: stats.place,
        figure: stats.figure,
        rollouts: stats.rollouts,
        margin: stats.margin,
        margin_se: stats.margin_se.is_finite().then_some(stats.margin_se),
        win: stats.win,
        win_se: stats.win_se.is_finite().then_some(stats.win_se),
        score: stats.score,
        continuation: &stats.continuation,
        pinned: stats.pinned,
    }
}

/// Rollouts a turn of a review gets when its options name no budget.
const REVIEW_ROLLOUTS: f64 = 2_000.0;

/// Reviews every turn of `game` (a game played to its end, or as far as it went): each turn
/// analysed with `options`' budget (2,000 rollouts a turn when it names none) and the move
/// played measured against the best one.
/// `progress({ done, turns })` hears each turn finished; returning `true` stops the review,
/// which returns the turns done. Turns come in order; sort by `loss` for the costliest.
#[wasm_bindgen(unchecked_return_type = "TurnReview[]")]
pub fn review(
    game: &Game,
    #[wasm_bindgen(unchecked_param_type = "AnalysisOptions | undefined")] options: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "((progress: { done: number, turns: number }) => boolean | void) | undefined"
    )]
    progress: JsValue,
) -> Result<JsValue, JsValue> {
    let given =
        |key: &str| js_sys::Reflect::has(&options, &JsValue::from_str(key)).unwrap_or(false);
    let budget_given = options.is_object() && (given("rollouts") || given("seconds"));
    let mut options: OptionsDoc = if options.is_undefined() || options.is_null() {
        OptionsDoc::default()
    } else {
        from_js(options, "review options")?
    };
    if !budget_given {
        // A turn of a review is one of many: a tenth of a single analysis's budget.
        options.rollouts = Some(REVIEW_ROLLOUTS);
    }
    let config = options.config()?;
    let progress = Progress::new(progress)?;
    let result = analysis::review(
        game.core(),
        &config,
        |at| progress.report(&serde_json::json!({ "done": at.done, "turns": at.turns })),
        &progress.cancel,
    );
    let turns = progress.finish(result)?;
    let docs: Vec<TurnDoc<'_>> = turns
        .iter()
        .map(|turn| TurnDoc {
            turn: turn.turn,
            player: turn.player.index(),
            tile: turn.tile,
            played: move_doc(&turn.played),
            best: move_doc(&turn.best),
            loss: turn.loss,
            candidates: turn.candidates,
        })
        .collect();
    to_js(&docs)
}
