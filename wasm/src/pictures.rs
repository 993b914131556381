//! Pictures and the catalogue of sets: tiles as SVG, the built-in set names.

use carcassonne::{BUILTIN_NAMES, Rotation};
use wasm_bindgen::prelude::*;

use crate::convert::to_js;
use crate::errors::error;
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
    tile: u16,
    #[wasm_bindgen(unchecked_param_type = "Rotation")] rotation: u16,
) -> Result<String, JsValue> {
    let rotation = match rotation {
        0 | 90 | 180 | 270 => Rotation::from_quarter_turns(usize::from(rotation / 90)),
        other => {
            return Err(error("RangeError", format!("rotation {other} is not 0, 90, 180 or 270")));
        }
    };
    let game = game.core();
    let tiles = game.tiles().len();
    let tile_type = game.tile(tile).ok_or_else(|| {
        error("RangeError", format!("tile {tile} is past the game's {tiles} tiles"))
    })?;
    Ok(carcassonne_render::tile_svg(tile_type, game.marks(), rotation))
}
