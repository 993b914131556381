//! Tile sets: built-in, from a file, or from TOML text.

use carcassonne::{BUILTIN_NAMES, Catalog, LoadError};
use pyo3::prelude::*;

use crate::convert::serialized;
use crate::errors::tileset_error;

/// A validated tile set: its tile types, counts, figures and deck rules.
#[pyclass(module = "carcassonne", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct TileSet {
    pub(crate) catalog: Catalog,
}

#[pymethods]
impl TileSet {
    /// A built-in set: `base`, `base_c2`, `river`, `inns_and_cathedrals` or `cathars`.
    #[staticmethod]
    fn builtin(py: Python<'_>, name: &str) -> PyResult<TileSet> {
        Catalog::builtin(name).map(|catalog| TileSet { catalog }).map_err(|error| {
            tileset_error(
                py,
                format!("{error}; the built-in sets are {}", BUILTIN_NAMES.join(", ")),
                &[],
            )
        })
    }

    /// The names of the built-in sets.
    #[staticmethod]
    fn builtin_names() -> Vec<&'static str> {
        BUILTIN_NAMES.to_vec()
    }

    /// A set from the text of a tile set file; `file` names it in diagnostics.
    #[staticmethod]
    #[pyo3(signature = (text, file = "<string>"))]
    fn from_toml(py: Python<'_>, text: &str, file: &str) -> PyResult<TileSet> {
        Catalog::from_toml(file, text)
            .map(|catalog| TileSet { catalog })
            .map_err(|diagnostics| tileset_error(py, diagnostics.to_string(), &diagnostics.0))
    }

    /// A set from a tile set file, or a built-in set by name.
    #[staticmethod]
    pub fn load(py: Python<'_>, name_or_path: &str) -> PyResult<TileSet> {
        Catalog::load(name_or_path).map(|catalog| TileSet { catalog }).map_err(
            |error| match error {
                LoadError::Invalid(diagnostics) => {
                    tileset_error(py, diagnostics.to_string(), &diagnostics.0)
                }
                other => tileset_error(py, other.to_string(), &[]),
            },
        )
    }

    /// The set's id, such as `base`.
    #[getter]
    fn id(&self) -> String {
        self.catalog.info().id.clone()
    }

    /// The set's name, such as `Carcassonne (base game)`.
    #[getter]
    fn name(&self) -> String {
        self.catalog.info().name.clone()
    }

    /// How many tiles the set has, all copies counted.
    #[getter]
    fn tile_count(&self) -> usize {
        self.catalog.tile_count()
    }

    /// The ids of its tile types, in order.
    fn tile_ids(&self) -> Vec<String> {
        self.catalog.tiles().iter().map(|tile| tile.id().to_owned()).collect()
    }

    /// The set in its JSON export form (tiles, segments, edges, counts), as Python values.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.catalog)
    }

    /// The set as canonical tile set TOML.
    fn to_toml(&self) -> String {
        self.catalog.to_toml()
    }

    /// An SVG sheet of every tile type.
    fn sheet_svg(&self) -> String {
        carcassonne_render::catalog_sheet(&self.catalog)
    }

    fn __repr__(&self) -> String {
        format!("TileSet({:?}, {} tiles)", self.catalog.info().id, self.catalog.tile_count())
    }
}
