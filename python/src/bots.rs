//! Bots, the evaluator, the arena and the analyzer from Python. Long work runs with the GIL
//! released; progress callbacks take it back to call Python, and a callback that raises (or
//! a Ctrl-C) stops the work and the exception reaches the caller.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use carcassonne::{Catalog, GameSetup};
use carcassonne_bots::analysis::{Analysis, AnalysisConfig, Continuation, Stop, analyze};
use carcassonne_bots::arena::{ArenaConfig, run as run_arena};
use carcassonne_bots::{
    Evaluator as CoreEvaluator, EvaluatorWeights, LearnedWeights, Profile, Profiles, Signal,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::action::Action;
use crate::convert::serialized;
use crate::errors::{CarcassonneError, SetupError};
use crate::game::{Game, catalogs, options};

/// The built-in profiles, with those of `profiles` (the text of a profile file) added.
pub(crate) fn profiles(profiles: Option<&str>) -> PyResult<Profiles> {
    match profiles {
        None => Ok(Profiles::builtin().clone()),
        Some(text) => {
            let mine = Profiles::from_toml("<profiles>", text)
                .map_err(|error| PyValueError::new_err(error.to_string()))?;
            Ok(Profiles::builtin().with(&mine))
        }
    }
}

pub(crate) fn profile(all: &Profiles, name: &str) -> PyResult<Profile> {
    all.find(name).cloned().map_err(|error| PyValueError::new_err(error.to_string()))
}

/// A player that chooses actions: a built-in level (`easy`, `medium`, `hard`), `random`,
/// `greedy`, `anchor`, or a profile of your own. It sees only what a player sees.
#[pyclass(module = "carcassonne", frozen, skip_from_py_object)]
pub struct Bot {
    bot: Box<dyn carcassonne_bots::Bot>,
}

#[pymethods]
impl Bot {
    /// The bot of profile `profile` with `seed`; `profiles` is the text of a profile file
    /// (TOML) whose profiles join the built-in ones.
    #[new]
    #[pyo3(signature = (profile = "medium", seed = 0, profiles = None))]
    fn new(profile: &str, seed: u64, profiles: Option<&str>) -> PyResult<Bot> {
        let all = self::profiles(profiles)?;
        Ok(Bot { bot: self::profile(&all, profile)?.bot(seed) })
    }

    /// The names of the built-in profiles.
    #[staticmethod]
    fn builtin_names() -> Vec<String> {
        Profiles::builtin().names().map(str::to_owned).collect()
    }

    /// The profile's name.
    #[getter]
    fn name(&self) -> &str {
        self.bot.name()
    }

    /// The action the player to move in `game` takes: a draw in the draw phase, else a
    /// placement or a figure action the game accepts. Thinks with the GIL released.
    fn choose(&self, py: Python<'_>, game: &Game) -> PyResult<Action> {
        let game = &game.game;
        let seat = game.current_player();
        let bot = &self.bot;
        py.detach(|| bot.choose(game, seat))
            .map(Action::from)
            .map_err(|error| CarcassonneError::new_err(error.to_string()))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.bot.name())
    }
}

/// Expected final points per player from any position: points so far plus a weighted sum of
/// the position's signals (each unfinished feature by its completion chance from the tiles
/// left, fields, figures...). `learned` is None for the hand-set weights, "builtin" for the
/// built-in learned ones, or the path of a weights file `carcassonne train-evaluator` wrote.
#[pyclass(module = "carcassonne", frozen, skip_from_py_object)]
pub struct Evaluator {
    evaluator: CoreEvaluator,
}

#[pymethods]
impl Evaluator {
    #[new]
    #[pyo3(signature = (learned = None))]
    fn new(learned: Option<&str>) -> PyResult<Evaluator> {
        let learned = match learned {
            None => None,
            Some("builtin") => Some(LearnedWeights::builtin()),
            Some(path) => Some(
                LearnedWeights::from_file(std::path::Path::new(path))
                    .map_err(|error| PyValueError::new_err(error.to_string()))?,
            ),
        };
        let weights = EvaluatorWeights::default().with_learned(learned);
        Ok(Evaluator { evaluator: CoreEvaluator::new(weights) })
    }

    /// Each player's expected final points, in turn order.
    fn expected_points(&self, game: &Game) -> Vec<f32> {
        self.evaluator.expected_points(&game.game)
    }

    /// Each player's signals, in turn order: a dict of signal name to value (all 0 in a
    /// finished game).
    fn signals(&self, game: &Game) -> Vec<std::collections::BTreeMap<&'static str, f32>> {
        self.evaluator
            .signals(&game.game)
            .iter()
            .map(|signals| {
                Signal::ALL.iter().map(|signal| (signal.name(), signals[signal.index()])).collect()
            })
            .collect()
    }
}

/// Calls `callback` with `argument` from any thread, the GIL taken; a raised exception or a
/// pending Ctrl-C is kept in `failure` and `stop` is raised.
fn report(
    callback: &Py<PyAny>,
    argument: impl FnOnce(Python<'_>) -> PyResult<Py<PyAny>>,
    failure: &Mutex<Option<PyErr>>,
    stop: &AtomicBool,
) {
    Python::attach(|py| {
        let outcome = py.check_signals().and_then(|()| argument(py)).and_then(|value| {
            let answer = callback.call1(py, (value,))?;
            // A callback may return True to stop early.
            if answer.extract::<bool>(py).unwrap_or(false) {
                stop.store(true, Ordering::Relaxed);
            }
            Ok(())
        });
        if let Err(error) = outcome {
            stop.store(true, Ordering::Relaxed);
            if let Ok(mut slot) = failure.lock() {
                slot.get_or_insert(error);
            }
        }
    });
}

/// Paired games between bots (each tile order once per seat rotation); returns the report as
/// a dict: per bot wins, win rate with its Wilson interval, mean score and margin, time per
/// turn; per pair the Elo difference with its interval. `progress(done, planned)` hears after
/// every game.
#[pyfunction]
#[pyo3(signature = (bots, games, seed = 0, threads = 1, tilesets = None, options = None, profiles = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn arena(
    py: Python<'_>,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    threads: usize,
    tilesets: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
    profiles: Option<&str>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let all = self::profiles(profiles)?;
    let entrants = bots.iter().map(|name| profile(&all, name)).collect::<PyResult<Vec<_>>>()?;
    let catalogs = match tilesets {
        Some(sets) if !sets.is_none() => catalogs(py, sets)?,
        _ => {
            vec![Catalog::builtin("base").map_err(|error| SetupError::new_err(error.to_string()))?]
        }
    };
    let setup = GameSetup::new(catalogs, u8::try_from(entrants.len()).unwrap_or(u8::MAX))
        .with_seed(seed)
        .with_options(self::options(options)?);
    let config = ArenaConfig::new(setup)
        .with_games(games)
        .with_seed(seed)
        .with_threads(threads.clamp(1, 256));
    let failure = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let result = py.detach(|| {
        run_arena(&entrants, &config, &|done| {
            if let Some(callback) = &progress
                && !stop.load(Ordering::Relaxed)
            {
                let value = |py: Python<'_>| {
                    Ok((done.games_done, done.games_planned).into_pyobject(py)?.into_any().unbind())
                };
                report(callback, value, &failure, &stop);
            }
        })
    });
    if let Some(error) = failure.into_inner().ok().flatten() {
        return Err(error);
    }
    let report = result.map_err(|error| CarcassonneError::new_err(error.to_string()))?;
    serialized(py, &report)
}

fn continuation(name: &str) -> PyResult<Continuation> {
    match name {
        "random" => Ok(Continuation::Random { figure_chance: 0.5 }),
        "greedy" => Ok(Continuation::Greedy),
        other => Err(PyValueError::new_err(format!(
            "no continuation {other:?}: use \"random\" or \"greedy\""
        ))),
    }
}

/// `analysis` as a dict: player, tile, rollouts, seconds, stop, and the ranked moves.
fn analysis_dict<'py>(py: Python<'py>, analysis: &Analysis) -> PyResult<Bound<'py, PyDict>> {
    let moves = PyList::empty(py);
    for stats in &analysis.moves {
        let entry = PyDict::new(py);
        entry.set_item("place", stats.place.map(Action::from))?;
        entry.set_item("figure", Action::from(stats.figure))?;
        entry.set_item("rollouts", stats.rollouts)?;
        entry.set_item("margin", stats.margin)?;
        entry.set_item("margin_se", stats.margin_se.is_finite().then_some(stats.margin_se))?;
        entry.set_item("win", stats.win)?;
        entry.set_item("win_se", stats.win_se.is_finite().then_some(stats.win_se))?;
        entry.set_item("score", stats.score)?;
        let line: Vec<Action> = stats.continuation.iter().copied().map(Action::from).collect();
        entry.set_item("continuation", line)?;
        moves.append(entry)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("player", analysis.player.index())?;
    dict.set_item("tile", analysis.tile)?;
    dict.set_item("rollouts", analysis.rollouts)?;
    dict.set_item("seconds", analysis.elapsed.as_secs_f64())?;
    let stop = match analysis.stop {
        Stop::Running => "running",
        Stop::Budget => "budget",
        Stop::Time => "time",
        Stop::Cancelled => "cancelled",
        Stop::Forced => "forced",
    };
    dict.set_item("stop", stop)?;
    dict.set_item("moves", moves)?;
    Ok(dict)
}

/// Ranks the moves of the player to move in `game` by the final margin and win share they
/// lead to, from rollouts on fresh shuffles of the tiles; returns a dict with the moves best
/// first (each with `place`, `figure`, `rollouts`, `margin`, `margin_se`, `win`, `win_se`,
/// `score`, `continuation`). `progress(partial)` hears the ranking so far every
/// `report_every` seconds; returning True from it, or raising, stops the analysis. The same
/// seed and rollouts give the same analysis whatever `threads` is.
#[pyfunction(name = "analyze")]
#[pyo3(signature = (game, rollouts = Some(20_000), seconds = None, seed = 0, threads = 1, continuation = "random", keep = 5, report_every = 0.25, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    py: Python<'_>,
    game: &Game,
    rollouts: Option<u64>,
    seconds: Option<f64>,
    seed: u64,
    threads: usize,
    continuation: &str,
    keep: usize,
    report_every: f64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let seconds_ok = |value: f64| value.is_finite() && (0.0..=86_400.0).contains(&value);
    if !seconds_ok(report_every) || seconds.is_some_and(|value| !seconds_ok(value) || value == 0.0)
    {
        return Err(PyValueError::new_err("times are seconds above 0 and up to a day"));
    }
    let config = AnalysisConfig::default()
        .with_rollouts(rollouts.filter(|count| *count > 0))
        .with_time(seconds.map(Duration::from_secs_f64))
        .with_seed(seed)
        .with_threads(threads.clamp(1, 256))
        .with_continuation(self::continuation(continuation)?)
        .with_keep(keep.clamp(1, 1000))
        .with_report_every(Duration::from_secs_f64(report_every));
    let failure = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let core = &game.game;
    let result = py.detach(|| {
        analyze(
            core,
            &config,
            |partial| {
                if let Some(callback) = &progress {
                    let value =
                        |py: Python<'_>| Ok(analysis_dict(py, partial)?.into_any().unbind());
                    report(callback, value, &failure, &stop);
                }
            },
            &stop,
        )
    });
    if let Some(error) = failure.into_inner().ok().flatten() {
        return Err(error);
    }
    let analysis = result.map_err(|error| match error {
        carcassonne_bots::analysis::AnalysisError::Unbounded => {
            PyValueError::new_err(error.to_string())
        }
        other => CarcassonneError::new_err(other.to_string()),
    })?;
    Ok(analysis_dict(py, &analysis)?.into_any().unbind())
}
