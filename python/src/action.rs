//! Actions as Python values: hashable, comparable, printable, with constructors by kind.

use carcassonne::{Action as CoreAction, BagToken, Figure, Pos, Rotation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::serialized;

/// One step of a turn: draw, draw_tile, place, deploy, recall_abbot or skip; and with Hills &
/// Sheep's flocks, draw_sheep, draw_wolf, grow_flock or drive_flock.
#[pyclass(module = "carcassonne", name = "Action", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action {
    pub(crate) action: CoreAction,
}

impl From<CoreAction> for Action {
    fn from(action: CoreAction) -> Action {
        Action { action }
    }
}

fn rotation(degrees: u16) -> PyResult<Rotation> {
    Rotation::from_degrees(degrees).ok_or_else(|| {
        PyValueError::new_err(format!("a rotation of {degrees} degrees is not 0, 90, 180 or 270"))
    })
}

fn figure(name: &str) -> PyResult<Figure> {
    Figure::from_id(name).ok_or_else(|| {
        let names: Vec<String> =
            Figure::PUBLISHED.iter().map(|figure| format!("{:?}", figure.id())).collect();
        PyValueError::new_err(format!(
            "no figure {name:?}: use one of {} or the id of a figure the game's sets declare \
             ({})",
            names.join(", "),
            Figure::ID_RULE
        ))
    })
}

fn figure_name(figure: &Figure) -> String {
    figure.id().to_owned()
}

#[pymethods]
impl Action {
    /// Draw a random tile from the bag.
    #[staticmethod]
    fn draw() -> Action {
        CoreAction::Draw.into()
    }

    /// Draw tile type `tile` (a real table's draw, or a chance outcome a search explores).
    #[staticmethod]
    fn draw_tile(tile: u16) -> Action {
        CoreAction::DrawTile { tile }.into()
    }

    /// Place the drawn tile at (x, y) turned `rotation` degrees clockwise.
    #[staticmethod]
    #[pyo3(signature = (x, y, rotation = 0))]
    fn place(x: i16, y: i16, rotation: u16) -> PyResult<Action> {
        Ok(CoreAction::Place { pos: Pos::new(x, y), rotation: self::rotation(rotation)? }.into())
    }

    /// Put `figure` (`follower`, `big_follower`, `abbot`, `builder`, `pig`, `shepherd`) on
    /// segment `segment` of the tile just placed.
    #[staticmethod]
    #[pyo3(signature = (segment, figure = "follower"))]
    fn deploy(segment: u8, figure: &str) -> PyResult<Action> {
        Ok(CoreAction::Deploy { segment, figure: self::figure(figure)? }.into())
    }

    /// Take the player's abbot back from (x, y) instead of deploying.
    #[staticmethod]
    fn recall_abbot(x: i16, y: i16) -> Action {
        CoreAction::RecallAbbot { pos: Pos::new(x, y) }.into()
    }

    /// Deploy no figure.
    #[staticmethod]
    fn skip() -> Action {
        CoreAction::Skip.into()
    }

    /// Draw the token of id `token` from the bag a token is being drawn from (a real table's
    /// draw, or a chance outcome a search explores): `"sheep_2"` or `"wolf"` from the flock's.
    #[staticmethod]
    fn draw_token(token: &str) -> PyResult<Action> {
        let token = BagToken::from_id(token).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no token {token:?}: a token is named by the id its bag declares ({})",
                Figure::ID_RULE
            ))
        })?;
        Ok(CoreAction::DrawToken { token }.into())
    }

    /// Grow the flock whose field the tile just placed extended.
    #[staticmethod]
    fn grow_flock() -> Action {
        CoreAction::GrowFlock.into()
    }

    /// Drive that flock to market.
    #[staticmethod]
    fn drive_flock() -> Action {
        CoreAction::DriveFlock.into()
    }

    /// `draw`, `draw_tile`, `place`, `deploy`, `recall_abbot`, `skip`, `draw_token`,
    /// `grow_flock` or `drive_flock`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.action {
            CoreAction::Draw => "draw",
            CoreAction::DrawTile { .. } => "draw_tile",
            CoreAction::Place { .. } => "place",
            CoreAction::Deploy { .. } => "deploy",
            CoreAction::RecallAbbot { .. } => "recall_abbot",
            CoreAction::Skip => "skip",
            CoreAction::DrawToken { .. } => "draw_token",
            CoreAction::GrowFlock => "grow_flock",
            CoreAction::DriveFlock => "drive_flock",
        }
    }

    /// The cell (x, y) of a placement or recall; None otherwise.
    #[getter]
    fn pos(&self) -> Option<(i16, i16)> {
        match self.action {
            CoreAction::Place { pos, .. } | CoreAction::RecallAbbot { pos } => Some((pos.x, pos.y)),
            _ => None,
        }
    }

    /// Degrees clockwise of a placement; None otherwise.
    #[getter]
    fn rotation(&self) -> Option<u16> {
        match self.action {
            CoreAction::Place { rotation, .. } => Some(rotation.degrees()),
            _ => None,
        }
    }

    /// The segment of a deployment; None otherwise.
    #[getter]
    fn segment(&self) -> Option<u8> {
        match self.action {
            CoreAction::Deploy { segment, .. } => Some(segment),
            _ => None,
        }
    }

    /// The figure of a deployment; None otherwise.
    #[getter]
    fn figure(&self) -> Option<String> {
        match self.action {
            CoreAction::Deploy { figure, .. } => Some(figure_name(&figure)),
            _ => None,
        }
    }

    /// The tile type of a named draw; None otherwise.
    #[getter]
    fn tile(&self) -> Option<u16> {
        match self.action {
            CoreAction::DrawTile { tile } => Some(tile),
            _ => None,
        }
    }

    /// The token id of a named token's draw; None otherwise.
    #[getter]
    fn token(&self) -> Option<String> {
        match self.action {
            CoreAction::DrawToken { token } => Some(token.id().to_owned()),
            _ => None,
        }
    }

    /// The action in the saved-game JSON form, as a dict.
    // The name Python users expect; PyO3 methods take `&self`.
    #[allow(clippy::wrong_self_convention)]
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.action)
    }

    fn __repr__(&self) -> String {
        match self.action {
            CoreAction::Draw => "Action.draw()".to_owned(),
            CoreAction::DrawTile { tile } => format!("Action.draw_tile({tile})"),
            CoreAction::Place { pos, rotation } => {
                format!("Action.place({}, {}, {})", pos.x, pos.y, rotation.degrees())
            }
            CoreAction::Deploy { segment, figure } => {
                format!("Action.deploy({segment}, {:?})", figure_name(&figure))
            }
            CoreAction::RecallAbbot { pos } => format!("Action.recall_abbot({}, {})", pos.x, pos.y),
            CoreAction::Skip => "Action.skip()".to_owned(),
            CoreAction::DrawToken { token } => format!("Action.draw_token({:?})", token.id()),
            CoreAction::GrowFlock => "Action.grow_flock()".to_owned(),
            CoreAction::DriveFlock => "Action.drive_flock()".to_owned(),
        }
    }

    fn __str__(&self) -> String {
        self.action.to_string()
    }
}
