//! Landscape scoring from Python: any board snapshot scored as at the end of a game.

use carcassonne::{LandscapeDoc, LandscapeOptions};
use pyo3::prelude::*;

use crate::convert::{from_python, serialized};
use crate::errors::SetupError;
use crate::game::catalogs;

/// Scores `landscape`, a dict (or its JSON text) `{"tilesets": [...], "tiles": [{"tile", "x",
/// "y", "rotation"}], "figures": [{"player", "figure", "x", "y", "segment"}]}`, as at the end
/// of a game: `{"total": [points by player], "features": [one dict per feature scored]}`.
/// `tilesets` (names, paths or `TileSet` objects) serve when the landscape lists none;
/// `options` is a dict (`rules`, `claim_all`, `pennant_value`, `unfinished_pennant_value`)
/// or `"solo_puzzle"`. A landscape that cannot be scored raises `SetupError` saying which
/// tile or figure is wrong.
#[pyfunction]
#[pyo3(signature = (landscape, tilesets = None, options = None))]
pub fn score_landscape(
    py: Python<'_>,
    landscape: &Bound<'_, PyAny>,
    tilesets: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let refused = |error: String| SetupError::new_err(format!("landscape: {error}"));
    let doc: LandscapeDoc = match landscape.extract::<String>() {
        Ok(text) => {
            if text.len() > carcassonne::limits::MAX_JSON_BYTES {
                return Err(refused(format!(
                    "at most {} bytes of JSON",
                    carcassonne::limits::MAX_JSON_BYTES
                )));
            }
            serde_json::from_str(&text).map_err(|error| refused(error.to_string()))?
        }
        Err(_) => serde_json::from_value(from_python(landscape)?)
            .map_err(|error| refused(error.to_string()))?,
    };
    let options = match options {
        None => LandscapeOptions::default(),
        Some(options) if options.is_none() => LandscapeOptions::default(),
        Some(options) => match options.extract::<String>() {
            Ok(name) if name == "solo_puzzle" => LandscapeOptions::solo_puzzle(),
            Ok(name) => {
                return Err(refused(format!("options is a dict or \"solo_puzzle\", not {name:?}")));
            }
            Err(_) => serde_json::from_value(from_python(options)?)
                .map_err(|error| refused(format!("options: {error}")))?,
        },
    };
    let sets = match tilesets {
        Some(tilesets) if !tilesets.is_none() => catalogs(py, tilesets)?,
        _ => Vec::new(),
    };
    let landscape = doc.into_landscape(sets).map_err(|error| refused(error.to_string()))?;
    let score = landscape.score(&options).map_err(|error| refused(error.to_string()))?;
    serialized(py, &score)
}
