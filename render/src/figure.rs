//! The figures as drawn on a board: follower, big follower, farmer lying in its field, abbot,
//! and the special figures: builder, pig and shepherd.

use carcassonne::Figure;

use crate::geom::Pt;
use crate::style::TILE;
use crate::svg::{num, push};

/// The outline of a follower standing, in pixels round its middle, 24 high.
const MEEPLE: &str = "M0,-12C3.2,-12 4.6,-9.8 4.6,-7.4C4.6,-5.9 4,-4.9 3.3,-4.2L11,-1.6\
C12.4,-1.1 12.6,0.9 11.2,1.5L6,3.2L9.6,10.2C10,11.2 9.3,12 8.3,12H2.6L0,7L-2.6,12H-8.3\
C-9.3,12 -10,11.2 -9.6,10.2L-6,3.2L-11.2,1.5C-12.6,0.9 -12.4,-1.1 -11,-1.6L-3.3,-4.2\
C-4,-4.9 -4.6,-5.9 -4.6,-7.4C-4.6,-9.8 -3.2,-12 0,-12Z";

/// The abbot: a hooded, robed figure, told apart from a follower at a glance.
const ABBOT: &str = "M0,-12C3.6,-12 5.4,-9 5.2,-6.2C5,-4.4 4.4,-3.4 3.8,-2.8L9.8,10.4\
C10.2,11.3 9.6,12 8.7,12H-8.7C-9.6,12 -10.2,11.3 -9.8,10.4L-3.8,-2.8C-4.4,-3.4 -5,-4.4 \
-5.2,-6.2C-5.4,-9 -3.6,-12 0,-12Z";

/// The builder: a broad, square-shouldered figure under a flat cap, a mason's square in hand.
const BUILDER: &str = "M-4,-12H4L5,-9H3.6C4.4,-8.2 4.8,-7.2 4.8,-6C4.8,-4.8 4.3,-3.8 3.5,-3.1\
L10,-1V4H6.5L8,12H-8L-6.5,4H-10V-1L-3.5,-3.1C-4.3,-3.8 -4.8,-4.8 -4.8,-6\
C-4.8,-7.2 -4.4,-8.2 -3.6,-9H-5Z";

/// The pig: a round body on four short legs, an ear and a snout, facing right.
const PIG: &str = "M-10,-2C-10,-7 -5,-9 0,-9C4,-9 7,-7.5 8.4,-5L9.6,-9L10.4,-4.2\
C11,-3.4 11.6,-2.6 12,-2H13.6V2.4H12C11.2,5 9.2,6.6 7,7.2V11H4.4V7.6H-4.4V11H-7V7\
C-9,6 -10,3.5 -10,-2Z";

/// The shepherd: a long-coated figure holding a crook taller than itself.
const SHEPHERD: &str = "M-1,-11C2,-11 3.6,-8.8 3.6,-6.6C3.6,-5.2 3,-4.2 2.4,-3.6L7,0L6,12\
H-8L-6,-1L-4.6,-3.6C-5.2,-4.2 -5.8,-5.2 -5.8,-6.6C-5.8,-8.8 -4,-11 -1,-11Z\
M9,12V-8C9,-11.5 14,-11.5 14,-8V-6.5H12.4V-8C12.4,-9.6 10.6,-9.6 10.6,-8V12Z";

/// A sheep's fleece, facing left: a cloud of wool on four short legs.
const SHEEP: &str = "M-7,-4C-8,-8 -3,-10 0,-8C2,-10 7,-10 8,-6C12,-5 12,1 9,2C9,6 4,7 2,5\
C0,7 -5,7 -6,4C-10,4 -11,-2 -7,-4ZM-5,5V9H-3V6ZM5,5V9H7V5Z";

/// How a figure stands on a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pose {
    /// Upright: a thief, knight or monk.
    Standing,
    /// Lying down in a field: a farmer.
    Lying,
}

/// Draws `figure` of colour `fill` with its middle at `at` (in pixels on the page).
pub(crate) fn draw_figure(out: &mut String, figure: Figure, pose: Pose, at: Pt, fill: &str) {
    // A follower is about a fifth of the tile high; a big one a third bigger.
    let scale = TILE / 110.0 * if figure == Figure::BIG_FOLLOWER { 1.3 } else { 1.0 };
    let turn = if pose == Pose::Lying { " rotate(-90)" } else { "" };
    // A figure no built-in set brings is a follower's shape marked with its id's first
    // letter; its class is its id (a-z, 0-9 and _, safe in an attribute).
    let (path, class, lies) = match figure {
        Figure::FOLLOWER => (MEEPLE, "follower", true),
        Figure::BIG_FOLLOWER => (MEEPLE, "big-follower", true),
        Figure::ABBOT => (ABBOT, "abbot", true),
        Figure::BUILDER => (BUILDER, "builder", false),
        Figure::PIG => (PIG, "pig", false),
        Figure::SHEPHERD => (SHEPHERD, "shepherd", false),
        _ => (MEEPLE, figure.id(), true),
    };
    // Only a farmer lies down: a pig or a shepherd stands in its field.
    let turn = if lies { turn } else { "" };
    let outline = if fill == "#222222" { "#d8d8d8" } else { "#1a1a1a" };
    push(
        out,
        format_args!(
            "<g class=\"figure {class}\" transform=\"translate({},{}) scale({scale:.3}){turn}\">\
             <path d=\"{path}\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"1.4\" \
             stroke-linejoin=\"round\"/>",
            num(at.x),
            num(at.y),
        ),
    );
    if figure == Figure::ABBOT {
        // A small cross on the robe.
        push(
            out,
            format_args!(
                "<path d=\"M0,0V7M-2.6,2.6H2.6\" stroke=\"{outline}\" stroke-width=\"1.5\"/>"
            ),
        );
    }
    if !Figure::PUBLISHED.contains(&figure) {
        let initial = figure.id().chars().next().unwrap_or('?').to_ascii_uppercase();
        push(
            out,
            format_args!(
                "<text y=\"4\" font-size=\"11\" font-family=\"sans-serif\" font-weight=\"bold\" \
                 text-anchor=\"middle\" fill=\"{outline}\">{initial}</text>"
            ),
        );
    }
    if figure == Figure::BIG_FOLLOWER {
        // A ring round the waist tells the big follower apart even when drawn small.
        push(
            out,
            format_args!(
                "<circle r=\"3\" cy=\"1\" fill=\"none\" stroke=\"{outline}\" stroke-width=\"1.2\"/>"
            ),
        );
    }
    out.push_str("</g>\n");
}

/// A shepherd's flock beside it, at `at` (the shepherd's middle): a sheep (a fleece on four
/// legs, its head black) with the number of sheep the flock's tokens show.
pub(crate) fn draw_flock(out: &mut String, at: Pt, sheep: u32) {
    let scale = TILE / 110.0;
    push(
        out,
        format_args!(
            "<g class=\"flock\" transform=\"translate({},{}) scale({scale:.3})\">\
             <title>a flock of {sheep} sheep</title>\
             <path d=\"{SHEEP}\" fill=\"#f4f1e8\" stroke=\"#1a1a1a\" stroke-width=\"1.2\" \
             stroke-linejoin=\"round\"/>\
             <circle cx=\"-9.5\" cy=\"-3\" r=\"3.2\" fill=\"#1a1a1a\"/>\
             <text x=\"1\" y=\"0.5\" font-family=\"sans-serif\" font-size=\"9\" \
             font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\" \
             fill=\"#1a1a1a\">{sheep}</text></g>\n",
            num(at.x + TILE * 0.17),
            num(at.y - TILE * 0.1),
        ),
    );
}

/// The colour a player's figures are drawn in: the shade of the colour the tile sets give the
/// seat (the engine's one palette), else the palette's colour for the seat.
#[must_use]
pub(crate) fn player_fill(colour: Option<&str>, seat: usize) -> &'static str {
    colour
        .and_then(carcassonne::Colour::named)
        .unwrap_or(carcassonne::PALETTE[seat % carcassonne::PALETTE.len()])
        .shade()
}
