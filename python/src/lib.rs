//! The native module of the `carcassonne` Python package (`carcassonne._native`): tile sets,
//! games and actions, wrapping the Rust library. The Python package re-exports it with type
//! stubs; nothing here is meant to be imported directly.

mod action;
mod convert;
mod errors;
mod game;
mod tileset;

use pyo3::prelude::*;

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<tileset::TileSet>()?;
    module.add_class::<action::Action>()?;
    module.add_class::<game::Game>()?;
    errors::register(module)?;
    Ok(())
}
