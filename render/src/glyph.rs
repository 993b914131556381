//! Glyphs: how a declared mark is drawn. A tile set gives each mark a glyph and a colour;
//! this module knows how to draw each glyph in any colour and nothing about any mark.

use carcassonne::{Colour, Glyph};

use crate::geom::Pt;
use crate::style::{CATHEDRAL_RADIUS, INN_RADIUS, PENNANT_RADIUS};
use crate::svg::push;
use crate::tile::open_icon;

/// A mark as a picture draws it: its glyph, its colour, and where on the tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Drawn {
    pub(crate) glyph: Glyph,
    pub(crate) colour: Colour,
    pub(crate) spot: Pt,
}

/// How much room a glyph takes, in tile widths.
pub(crate) fn radius(glyph: Glyph) -> f64 {
    match glyph {
        Glyph::Church | Glyph::Tower => CATHEDRAL_RADIUS,
        Glyph::House => INN_RADIUS,
        _ => PENNANT_RADIUS,
    }
}

/// Whether a glyph on a city is a building that stands in its middle, rather than a token
/// near its wall.
pub(crate) fn stands_in_the_middle(glyph: Glyph) -> bool {
    matches!(glyph, Glyph::Church | Glyph::Tower)
}

/// The character a text picture shows the glyph as.
pub(crate) fn letter(glyph: Glyph) -> char {
    match glyph {
        Glyph::Shield => '*',
        Glyph::House => '^',
        Glyph::Church => '!',
        Glyph::Barrel => 'u',
        Glyph::Sheaf => 'y',
        Glyph::Cloth => '&',
        Glyph::Tower => '@',
        Glyph::Grapes => '%',
        Glyph::Hill => 'n',
        Glyph::Star => 'x',
        Glyph::Circle => 'o',
        Glyph::Diamond => '$',
    }
}

/// Draws `glyph` in `colour` centred on `spot`. The group's class is the glyph's name.
pub(crate) fn draw(out: &mut String, drawn: &Drawn) {
    let Drawn { glyph, colour, spot } = *drawn;
    let fill = colour.shade();
    open_icon(out, spot, glyph.name());
    let body = match glyph {
        Glyph::Shield => format!(
            "<path d=\"M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z\" fill=\"#fff\"/>\
             <path d=\"M-7,-8H0V9Q-7,6 -7,0Z\" fill=\"{fill}\"/>\
             <path d=\"M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z\" fill=\"none\" stroke=\"#333\" \
             stroke-width=\"1.3\" stroke-linejoin=\"round\"/>"
        ),
        Glyph::Church => format!(
            "<rect x=\"-10\" y=\"-3\" width=\"20\" height=\"14\" fill=\"{fill}\" stroke=\"#444\"/>\
             <path d=\"M-12,-3L0,-12L12,-3Z\" fill=\"#7d7d7d\" stroke=\"#444\" stroke-linejoin=\"round\"/>\
             <path d=\"M0,-20V-12M-3.5,-17H3.5\" stroke=\"#222\" stroke-width=\"1.8\"/>\
             <path d=\"M-3,11V5Q0,2 3,5V11Z\" fill=\"#444\"/>"
        ),
        Glyph::House => format!(
            "<rect x=\"-8\" y=\"-2\" width=\"16\" height=\"10\" fill=\"#f4e3c1\" stroke=\"#6b4523\"/>\
             <path d=\"M-10,-2L0,-10L10,-2Z\" fill=\"{fill}\" stroke=\"#6b4523\" stroke-linejoin=\"round\"/>\
             <rect x=\"-5\" y=\"1\" width=\"4\" height=\"4\" fill=\"#6b4523\"/>\
             <rect x=\"2\" y=\"2\" width=\"3.5\" height=\"6\" fill=\"#6b4523\"/>"
        ),
        Glyph::Barrel => format!(
            "<ellipse cx=\"0\" cy=\"0\" rx=\"8\" ry=\"6.5\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.2\"/>\
             <path d=\"M-4,-6V6M4,-6V6\" stroke=\"#333\" stroke-width=\"1.2\"/>"
        ),
        Glyph::Sheaf => format!(
            "<path d=\"M0,9L-6,-8M0,9L0,-9M0,9L6,-8\" stroke=\"{fill}\" stroke-width=\"3\" \
             stroke-linecap=\"round\"/><path d=\"M-4,2H4\" stroke=\"#333\" stroke-width=\"1.5\"/>"
        ),
        Glyph::Cloth => format!(
            "<rect x=\"-8\" y=\"-6\" width=\"16\" height=\"12\" rx=\"2\" fill=\"{fill}\" \
             stroke=\"#333\" stroke-width=\"1.2\"/><path d=\"M-8,-1H8M-8,3H8\" stroke=\"#333\" \
             stroke-width=\"0.8\"/>"
        ),
        Glyph::Tower => format!(
            "<path d=\"M-7,11V-6H-4V-10H-1V-6H1V-10H4V-6H7V11Z\" fill=\"{fill}\" stroke=\"#333\" \
             stroke-width=\"1.2\" stroke-linejoin=\"round\"/><path d=\"M-2,11V5H2V11Z\" fill=\"#333\"/>"
        ),
        Glyph::Grapes => format!(
            "<g fill=\"{fill}\" stroke=\"#333\" stroke-width=\"0.8\">\
             <circle cx=\"-4\" cy=\"-3\" r=\"3\"/><circle cx=\"2\" cy=\"-3\" r=\"3\"/>\
             <circle cx=\"-1\" cy=\"2\" r=\"3\"/><circle cx=\"0\" cy=\"7\" r=\"2.5\"/></g>\
             <path d=\"M-1,-6L2,-10\" stroke=\"#2e6b25\" stroke-width=\"1.5\"/>"
        ),
        Glyph::Hill => format!(
            "<path d=\"M-10,7Q0,-14 10,7Z\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.2\"/>"
        ),
        Glyph::Star => format!(
            "<path d=\"M0,-9L2.6,-3.2L9,-2.8L4.1,1.3L5.6,7.6L0,4.2L-5.6,7.6L-4.1,1.3L-9,-2.8L-2.6,-3.2Z\" \
             fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1\" stroke-linejoin=\"round\"/>"
        ),
        Glyph::Circle => {
            format!("<circle r=\"7\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.2\"/>")
        }
        Glyph::Diamond => format!(
            "<path d=\"M0,-9L8,0L0,9L-8,0Z\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.2\"/>"
        ),
    };
    push(out, format_args!("{body}</g>\n"));
}
