//! The encoding from Python: observations, masks and the action space as numpy arrays.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::action::Action;
use crate::encoding::Encoder;
use crate::game::Game;

/// Planes, features and mask, as numpy arrays.
type Observation<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// The observation and action encoding of games set up like one game: board planes over a
/// window that follows the play area, features, and a flat action space with its mask.
/// `python/README.md` lists every plane and index.
#[pyclass(module = "carcassonne", frozen, skip_from_py_object)]
pub struct Encoding {
    encoder: Encoder,
}

#[pymethods]
impl Encoding {
    /// The encoding of games set up as `game`: `window` cells a side (None: as large as the
    /// deck can make the frontier, so that no legal move is ever outside it; a smaller
    /// window grows when the frontier outgrows it).
    #[new]
    #[pyo3(signature = (game, window = None))]
    fn new(game: &Game, window: Option<usize>) -> Encoding {
        Encoding { encoder: Encoder::new(&game.game, window) }
    }

    /// Board planes.
    #[getter]
    fn planes(&self) -> usize {
        self.encoder.planes()
    }

    /// Features (the vector of what is not on the board).
    #[getter]
    fn features(&self) -> usize {
        self.encoder.features()
    }

    /// The window's side asked for (a game may need a larger one: see `window`).
    #[getter]
    fn side(&self) -> usize {
        self.encoder.side()
    }

    /// The size of the action space for a window of `side` cells (the encoder's by default).
    #[pyo3(signature = (side = None))]
    fn actions(&self, side: Option<usize>) -> usize {
        self.encoder.actions(side.unwrap_or(self.encoder.side()))
    }

    /// Where the window lies for `game`: (west x, north y, side).
    fn window(&self, game: &Game) -> (i32, i32, usize) {
        let window = self.encoder.window(&game.game);
        (window.west, window.north, window.side)
    }

    /// `(planes, features, mask)` of `game` as `observer` sees it: uint8 planes shaped
    /// (planes, side, side), rows from the north; float32 features; int8 mask over the
    /// action space, 1 exactly for the legal actions.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        game: &Game,
        observer: usize,
    ) -> PyResult<Observation<'py>> {
        if observer >= usize::from(game.game.players()) {
            return Err(PyValueError::new_err(format!("there is no player {observer}")));
        }
        let window = self.encoder.window(&game.game);
        let (mut planes, mut features, mut mask) = (Vec::new(), Vec::new(), Vec::new());
        self.encoder.observe(&game.game, observer, &window, &mut planes, &mut features, &mut mask);
        let shape = [self.encoder.planes(), window.side, window.side];
        let planes = PyArray1::from_vec(py, planes).reshape(shape)?.into_any();
        Ok((planes, PyArray1::from_vec(py, features), PyArray1::from_vec(py, mask)))
    }

    /// The action at `index` of the action space of `game`'s window.
    fn decode(&self, game: &Game, index: usize) -> PyResult<Action> {
        let window = self.encoder.window(&game.game);
        self.encoder
            .action(&window, index, &game.game)
            .map(Action::from)
            .ok_or_else(|| PyValueError::new_err(format!("{index} is outside the action space")))
    }

    /// The index of `action` in the action space of `game`'s window.
    fn encode(&self, game: &Game, action: &Action) -> PyResult<usize> {
        let window = self.encoder.window(&game.game);
        self.encoder.index(&window, action.action, &game.game).ok_or_else(|| {
            PyValueError::new_err(format!("{} has no index: draws are the bag's", action.action))
        })
    }
}
