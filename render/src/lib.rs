//! Pictures of Carcassonne drawn from the tile data: SVG text, the same input always giving
//! the same bytes.
//!
//! Everything is drawn from the segments the engine reads, so a picture shows what the rules
//! see: which edges a city joins, where roads run and end, which half-edges each field
//! touches, and where the pennants, cathedrals, inns, monasteries and gardens are.
//!
//! ```
//! use carcassonne::Catalog;
//! let sheet = carcassonne_render::catalog_sheet(&Catalog::builtin("base")?);
//! assert!(sheet.starts_with("<svg") && sheet.ends_with("</svg>\n"));
//! # Ok::<(), carcassonne::UnknownBuiltin>(())
//! ```
//!
//! It uses `std` for its floating-point functions (rounding, square roots); the core engine
//! stays `no_std`.

mod anchor;
pub mod ascii;
mod board;
mod figure;
mod geom;
mod glyph;
mod layout;
#[cfg(feature = "raster")]
pub mod raster;
mod sheet;
mod style;
mod svg;
mod tile;

pub use anchor::{Anchor, anchors};
pub use board::{BoardOptions, Overlay, ShadedCell, Suggestion, board_svg, landscape_svg};
pub use sheet::{catalog_sheet, tile_svg};

#[cfg(test)]
mod tests;

/// The crate README's example, compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
