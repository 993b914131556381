//! Pictures and the catalogue of sets: tiles as SVG, the built-in set names.

use carcassonne::{BUILTIN_NAMES, Rotation};
use wasm_bindgen::prelude::*;

use crate::convert::to_js;
use crate::errors::range_error;
use crate::game::Game;

/// The names of the built-in tile sets, for `GameSetup.tilesets`.
#[wasm_bindgen(js_name = builtinSets, unchecked_return_type = "string[]")]
pub fn builtin_sets() -> Result<JsValue, JsValue> {
    to_js(&BUILTIN_NAMES[..])
}

/// Tile `tile` of `game`'s tiles (the index `drawnTile` and the actions use) as an SVG
/// document, turned `rotation` degrees clockwise (0, 90, 180 or 270).
#[wasm_bindgen(js_name = tileSvg)]
pub fn tile_svg(
    game: &Game,
    tile: f64,
    #[wasm_bindgen(unchecked_param_type = "Rotation")] rotation: f64,
) -> Result<String, JsValue> {
    let rotation = match rotation {
        0.0 => Rotation::R0,
        90.0 => Rotation::R90,
        180.0 => Rotation::R180,
        270.0 => Rotation::R270,
        other => return Err(range_error(format!("rotation {other} is not 0, 90, 180 or 270"))),
    };
    let game = game.core();
    let tiles = game.tiles().len();
    let tile_type = (tile.fract() == 0.0 && (0.0..65_536.0).contains(&tile))
        .then(|| game.tile(tile as u16))
        .flatten()
        .ok_or_else(|| {
            range_error(format!(
                "tile {tile} is not one of the game's {tiles} (0 to {})",
                tiles.saturating_sub(1)
            ))
        })?;
    Ok(carcassonne_render::tile_svg(tile_type, game.marks(), rotation))
}
