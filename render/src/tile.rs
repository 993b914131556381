//! One tile's picture: fields, cities, roads and rivers, then the icons, in a square of
//! [`TILE`] pixels.

use crate::geom::Pt;
use crate::layout::{Layout, Stroke, sector_runs};
use crate::style::*;
use crate::svg::{num, push};

/// How fields are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fields {
    /// Each field of a tile in its own shade, so a tile set's author sees where each lies.
    Apart,
    /// Every field the same green, as on a table, where fields run on across tiles.
    Alike,
}

/// Draws the face of a tile laid out as `layout`, clipped to its square, at the origin.
pub(crate) fn draw_face(out: &mut String, layout: &Layout, fields: Fields) {
    out.push_str("<g clip-path=\"url(#tile-clip)\">\n");
    push(
        out,
        format_args!("<rect width=\"{t}\" height=\"{t}\" fill=\"{GROUND}\"/>\n", t = num(TILE)),
    );

    // Fields first; a same-colour stroke hides the seams between pieces of a field. A bend
    // patch gets a wide one: beyond its straight sides lies the same field, beyond its curve
    // the road or river that covers it, and a thin one let the field under it show through.
    let green = |field: usize| match fields {
        Fields::Apart => GREENS[layout.greens.get(field).copied().unwrap_or(0)],
        Fields::Alike => GREENS[0],
    };
    let runs = sector_runs(&layout.sectors);
    let pieces =
        runs.iter().map(|run| (run, 1.2)).chain(layout.bend_patches.iter().map(|p| (p, 3.0)));
    for ((field, shape), width) in pieces {
        let g = green(*field);
        push(
            out,
            format_args!(
                "<path d=\"{}\" fill=\"{g}\" stroke=\"{g}\" stroke-width=\"{width}\" \
                 stroke-linejoin=\"round\"/>\n",
                shape.d()
            ),
        );
    }
    for (field, centre) in &layout.meadows {
        push(
            out,
            format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#2e6b25\"/>\n",
                num(centre.x * TILE),
                num(centre.y * TILE),
                num(MEADOW_RADIUS * TILE),
                green(*field)
            ),
        );
    }

    for city in &layout.cities {
        push(
            out,
            format_args!(
                "<path d=\"{}\" fill=\"{CITY_FILL}\" stroke=\"{CITY_WALL}\" stroke-width=\"1.6\" \
                 stroke-linejoin=\"round\"/>\n",
                city.shape.d()
            ),
        );
    }

    // Rivers under roads, so a road crossing a river reads as a bridge; each kind's dark
    // edges under all of its light middles, so joined arms look like one road.
    for river in [true, false] {
        let (edge, fill, outer, inner) = if river {
            (RIVER_EDGE, RIVER_FILL, RIVER_OUTER, RIVER_INNER)
        } else {
            (ROAD_EDGE, ROAD_FILL, ROAD_OUTER, ROAD_INNER)
        };
        let strokes: Vec<&Stroke> = layout.strokes.iter().filter(|s| s.river == river).collect();
        for (colour, width) in [(edge, outer), (fill, inner)] {
            for stroke in &strokes {
                push(
                    out,
                    format_args!(
                        "<path d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" \
                         stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
                        stroke.shape.d(),
                        num(width * TILE)
                    ),
                );
            }
        }
        if river {
            for lake in &layout.lakes {
                push(
                    out,
                    format_args!(
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{RIVER_FILL}\" \
                         stroke=\"{RIVER_EDGE}\" stroke-width=\"2\"/>\n",
                        num(lake.x * TILE),
                        num(lake.y * TILE),
                        num(LAKE_RADIUS * TILE * 0.9)
                    ),
                );
            }
        }
    }
    for junction in &layout.junctions {
        let side = JUNCTION_RADIUS * TILE * 1.4;
        push(
            out,
            format_args!(
                "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"#333\"/>\n",
                num(junction.x * TILE - side / 2.0),
                num(junction.y * TILE - side / 2.0),
                s = num(side)
            ),
        );
    }

    for monastery in &layout.monasteries {
        draw_monastery(out, *monastery);
    }
    for garden in &layout.gardens {
        draw_garden(out, *garden);
    }
    for drawn in &layout.marks {
        crate::glyph::draw(out, drawn);
    }
    out.push_str("</g>\n");
}

/// Opens a group drawn in pixels round the icon centre `spot`.
pub(crate) fn open_icon(out: &mut String, spot: Pt, class: &str) {
    push(
        out,
        format_args!(
            "<g class=\"{class}\" transform=\"translate({},{})\">",
            num(spot.x * TILE),
            num(spot.y * TILE)
        ),
    );
}

pub(crate) fn draw_monastery(out: &mut String, spot: Pt) {
    open_icon(out, spot, "monastery");
    out.push_str(
        "<rect x=\"-11\" y=\"-3\" width=\"22\" height=\"15\" fill=\"#f1e6cc\" stroke=\"#5a4630\"/>\
         <path d=\"M-14,-3L0,-15L14,-3Z\" fill=\"#c0392b\" stroke=\"#7a1f16\" stroke-linejoin=\"round\"/>\
         <rect x=\"-3\" y=\"4\" width=\"6\" height=\"8\" fill=\"#5a4630\"/>\
         <path d=\"M0,-22V-15M-3,-19.5H3\" stroke=\"#5a4630\" stroke-width=\"1.5\"/></g>\n",
    );
}

pub(crate) fn draw_garden(out: &mut String, spot: Pt) {
    open_icon(out, spot, "garden");
    out.push_str(
        "<rect x=\"-11\" y=\"-9\" width=\"22\" height=\"18\" rx=\"7\" fill=\"#6fbf4a\" \
         stroke=\"#2e6b25\" stroke-width=\"1.2\"/>\
         <circle cx=\"-5\" cy=\"-3\" r=\"2\" fill=\"#e84f8a\"/>\
         <circle cx=\"4\" cy=\"-4\" r=\"2\" fill=\"#f5d33b\"/>\
         <circle cx=\"0\" cy=\"4\" r=\"3\" fill=\"#2e6b25\"/>\
         <circle cx=\"6\" cy=\"3\" r=\"1.8\" fill=\"#e84f8a\"/></g>\n",
    );
}
