//! The native module of the `carcassonne` Python package (`carcassonne._native`): tile sets,
//! games and actions, bots, the evaluator, the arena and the analyzer, wrapping the Rust
//! library. The Python package re-exports it with type
//! stubs; nothing here is meant to be imported directly.

mod action;
mod bots;
mod convert;
mod encoding;
mod errors;
mod game;
mod landscape;
mod observe;
mod tileset;
mod vector;

use pyo3::prelude::*;

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The engine's one palette: every colour name a tile set may give a seat, with the shade
    // pictures and the server's page draw it in, in order.
    let palette = pyo3::types::PyDict::new(module.py());
    for colour in carcassonne::PALETTE {
        palette.set_item(colour.name(), colour.shade())?;
    }
    module.add("PALETTE", palette)?;
    module.add_class::<tileset::TileSet>()?;
    module.add_class::<action::Action>()?;
    module.add_class::<game::Game>()?;
    module.add_class::<bots::Bot>()?;
    module.add_class::<bots::Evaluator>()?;
    module.add_class::<observe::Encoding>()?;
    module.add_class::<vector::VectorGames>()?;
    module.add_function(wrap_pyfunction!(bots::arena, module)?)?;
    module.add_function(wrap_pyfunction!(bots::analyse, module)?)?;
    module.add_function(wrap_pyfunction!(landscape::score_landscape, module)?)?;
    errors::register(module)?;
    Ok(())
}
