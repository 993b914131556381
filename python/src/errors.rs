//! The exceptions the package raises: every refusal of the library as a typed exception that
//! says what was wrong; the game it refused is left exactly as it was.

use carcassonne::{ActionError, Diagnostic};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(
    carcassonne,
    CarcassonneError,
    PyException,
    "The base of every error the library raises."
);
create_exception!(
    carcassonne,
    TileSetError,
    CarcassonneError,
    "A tile set that cannot be read or is not valid; `diagnostics` lists every problem as a \
     dict with file, line, column, code and message."
);
create_exception!(
    carcassonne,
    SetupError,
    CarcassonneError,
    "A setup the rules cannot make a game of (players, tile sets, options)."
);
create_exception!(
    carcassonne,
    IllegalActionError,
    CarcassonneError,
    "An action the rules refuse now; `reason` names the rule (`edge_mismatch`, `occupied`, `wrong_phase` \
     ...) and the game is unchanged."
);
create_exception!(
    carcassonne,
    SaveError,
    CarcassonneError,
    "A saved game that cannot be loaded: not JSON, another format, or an action refused on replay."
);

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("CarcassonneError", py.get_type::<CarcassonneError>())?;
    module.add("TileSetError", py.get_type::<TileSetError>())?;
    module.add("SetupError", py.get_type::<SetupError>())?;
    module.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    module.add("SaveError", py.get_type::<SaveError>())?;
    Ok(())
}

/// A `TileSetError` with `message` and every diagnostic as a dict.
pub fn tileset_error(py: Python<'_>, message: String, diagnostics: &[Diagnostic]) -> PyErr {
    let error = TileSetError::new_err(message);
    let list: PyResult<Vec<Bound<'_, PyDict>>> = diagnostics
        .iter()
        .map(|diagnostic| {
            let dict = PyDict::new(py);
            dict.set_item("file", &*diagnostic.file)?;
            dict.set_item("line", diagnostic.line)?;
            dict.set_item("column", diagnostic.column)?;
            dict.set_item("code", diagnostic.code.to_string())?;
            dict.set_item("message", &diagnostic.message)?;
            Ok(dict)
        })
        .collect();
    match list.and_then(|list| error.value(py).setattr("diagnostics", list)) {
        Ok(()) => error,
        Err(failure) => failure,
    }
}

/// An `IllegalActionError` for `refusal`, its `reason` the rule's name in snake case.
pub fn illegal_action(py: Python<'_>, refusal: &ActionError) -> PyErr {
    let error = IllegalActionError::new_err(refusal.to_string());
    match error.value(py).setattr("reason", refusal.reason()) {
        Ok(()) => error,
        Err(failure) => failure,
    }
}
