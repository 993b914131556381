//! The sheet of a tile set: every tile type unrotated, with its id, name and count; and one
//! tile type at any rotation.

use carcassonne::{Catalog, MarkInfo, Rotation, TileType};

use crate::layout::layout;
use crate::style::*;
use crate::svg::{escape, num, open_document, push, truncate};
use crate::tile::{Fields, draw_face};

/// Draws every tile type of `catalog` unrotated, eight to a row, each with its id, name and
/// count underneath and a title line naming the set.
///
/// Everything is drawn from the segments, so the picture shows what the engine read: which
/// edges a city joins, where roads run and end, which half-edges each field touches (one
/// shade of green per field), and where the pennants, cathedrals, inns, monasteries and
/// gardens are. The document is standalone and the same catalog always gives the same bytes.
#[must_use]
pub fn catalog_sheet(catalog: &Catalog) -> String {
    let tiles = catalog.tiles();
    let info = catalog.info();
    let title = format!(
        "{} \u{2014} set \u{201c}{}\u{201d}, edition {} \u{2014} {} tiles of {} types",
        info.name,
        info.id,
        info.edition,
        catalog.tile_count(),
        tiles.len()
    );
    let columns = tiles.len().clamp(1, COLUMNS);
    let rows = tiles.len().div_ceil(COLUMNS).max(1);
    let cell_width = TILE + GAP;
    let cell_height = TILE + CAPTION_HEIGHT + GAP;
    // A rough width of the title at 16 px keeps a long set name on the sheet.
    let title_width = title.chars().count() as f64 * 8.5;
    let width = (2.0 * MARGIN + columns as f64 * cell_width - GAP).max(2.0 * MARGIN + title_width);
    let height = 2.0 * MARGIN + TITLE_HEIGHT + rows as f64 * cell_height - GAP;

    let mut out = String::new();
    open_document(&mut out, width, height);
    push(&mut out, format_args!("<title>{}</title>\n", escape(&title)));
    push(
        &mut out,
        format_args!(
            "<defs><clipPath id=\"tile-clip\"><rect width=\"{t}\" height=\"{t}\"/></clipPath></defs>\n",
            t = num(TILE)
        ),
    );
    push(&mut out, format_args!("<rect width=\"100%\" height=\"100%\" fill=\"#f7f5ef\"/>\n"));
    push(
        &mut out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" fill=\"#222\">{}</text>\n",
            num(MARGIN),
            num(MARGIN + 16.0),
            escape(&title)
        ),
    );
    for (index, tile) in tiles.iter().enumerate() {
        let x = MARGIN + (index % COLUMNS) as f64 * cell_width;
        let y = MARGIN + TITLE_HEIGHT + (index / COLUMNS) as f64 * cell_height;
        render_tile(&mut out, tile, catalog.marks(), x, y);
    }
    out.push_str("</svg>\n");
    out
}

/// One tile type turned by `rotation` as a standalone SVG document, 120 units square, drawn
/// as the board draws it: the picture of a drawn tile, or of a tile a client lays itself.
/// [`crate::anchors`] gives, in tile sides, where figures stand on it.
///
/// ```
/// use carcassonne::{Catalog, Rotation};
/// let base = Catalog::builtin("base")?;
/// let (_, start) = base.tile_by_id("D").unwrap();
/// let svg = carcassonne_render::tile_svg(start, base.marks(), Rotation::R90);
/// assert!(svg.starts_with("<svg") && svg.contains("turned 90"));
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[must_use]
pub fn tile_svg(tile: &TileType, marks: &[MarkInfo], rotation: Rotation) -> String {
    let layout = layout(tile, marks).turned(rotation.quarter_turns());
    let mut out = String::new();
    open_document(&mut out, TILE, TILE);
    push(
        &mut out,
        format_args!(
            "<title>{}: {} turned {rotation}</title>\n\
             <defs><clipPath id=\"tile-clip\"><rect width=\"{t}\" height=\"{t}\"/></clipPath></defs>\n",
            escape(tile.id()),
            escape(tile.name()),
            t = num(TILE)
        ),
    );
    draw_face(&mut out, &layout, Fields::Alike);
    out.push_str("</svg>\n");
    out
}

fn render_tile(out: &mut String, tile: &TileType, marks: &[MarkInfo], x: f64, y: f64) {
    let layout = layout(tile, marks);
    push(out, format_args!("<g transform=\"translate({},{})\">\n", num(x), num(y)));
    push(
        out,
        format_args!(
            "<title>{}: {} \u{d7}{}</title>\n",
            escape(tile.id()),
            escape(tile.name()),
            tile.count()
        ),
    );
    draw_face(out, &layout, Fields::Apart);
    // Ids are never cut, since they are what a tile is looked up by; a long one gets a smaller
    // font (a bold character is about 0.6 of its size wide) so it stays under its tile.
    let caption = format!("{} \u{d7}{}", tile.id(), tile.count());
    let caption_size = (TILE / (0.6 * caption.chars().count() as f64)).clamp(7.0, 12.0);
    push(
        out,
        format_args!(
            "<rect width=\"{t}\" height=\"{t}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>\n",
            t = num(TILE)
        ),
    );
    push(
        out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#222\">\
             <tspan font-weight=\"bold\">{}</tspan> \u{d7}{}</text>\n",
            num(TILE / 2.0),
            num(TILE + 14.0),
            num(caption_size),
            escape(tile.id()),
            tile.count()
        ),
    );
    push(
        out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"9.5\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
            num(TILE / 2.0),
            num(TILE + 27.0),
            escape(&truncate(tile.name(), NAME_CHARS))
        ),
    );
    out.push_str("</g>\n");
}
