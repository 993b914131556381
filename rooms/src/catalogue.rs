//! What a page needs to offer games and draw them: a host's tile sets with the colours
//! they bring, the palette's shades, each set's tiles with where figures stand, and the bot
//! levels. The server serves these over HTTP; the page's offline host hands them over itself.

use carcassonne::{PALETTE, Rotation};
use serde_json::{Value, json};

use crate::library::Library;
use crate::protocol::views;

/// The built-in levels `ADD_BOT` takes, weakest first.
pub const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

/// The tile sets of `library` a room may use (`{id, name, tiles, colours, builtin}`: built-in
/// ones first, then the host's own files) and the palette's shades (`{name, shade}`), as
/// `{tilesets, colours}`.
pub fn tilesets(library: &Library) -> Value {
    let sets: Vec<Value> = library
        .sets()
        .map(|catalog| {
            let info = catalog.info();
            json!({
                "id": info.id,
                "name": info.name,
                "tiles": catalog.tiles().iter().map(|tile| u32::from(tile.count())).sum::<u32>(),
                "colours": catalog.figures().colours,
                "builtin": library.is_builtin(&info.id),
            })
        })
        .collect();
    let colours: Vec<Value> = PALETTE
        .iter()
        .map(|colour| json!({ "name": colour.name(), "shade": colour.shade() }))
        .collect();
    json!({ "tilesets": sets, "colours": colours })
}

/// A tile set of `library` as `{id, tiles: [{tile, count, anchors}]}`: every tile as the
/// protocol's Tile, with where a figure stands on each feature at each rotation (the board
/// picture's own anchors), and with `pictures` its SVG at each rotation as well (for a page
/// that has no server to fetch them from). None for a name the library has no set of.
pub fn tileset(library: &Library, set: &str, pictures: bool) -> Option<Value> {
    let catalog = library.get(set)?;
    let tiles: Vec<Value> = catalog
        .tiles()
        .iter()
        .map(|tile| {
            let anchors: Vec<Vec<[f64; 2]>> = Rotation::ALL
                .iter()
                .map(|rotation| {
                    carcassonne_render::anchors(tile, catalog.marks(), *rotation)
                        .iter()
                        .map(|anchor| [anchor.x, anchor.y])
                        .collect()
                })
                .collect();
            let mut entry = json!({
                "tile": views::tile(tile, catalog.marks()),
                "count": tile.count(),
                "anchors": anchors
            });
            if pictures {
                entry["pictures"] = Rotation::ALL
                    .iter()
                    .map(|rotation| carcassonne_render::tile_svg(tile, catalog.marks(), *rotation))
                    .collect();
            }
            entry
        })
        .collect();
    Some(json!({ "id": set, "tiles": tiles }))
}

/// The built-in levels as `GET /bots` lists them: `{name, description, external: false}`.
pub fn builtin_bots() -> Vec<Value> {
    LEVELS
        .iter()
        .filter_map(|level| {
            let profile = carcassonne_bots::Profile::builtin(level).ok()?;
            Some(json!({ "name": level, "description": profile.description, "external": false }))
        })
        .collect()
}
