//! Every limit the library sets on input from outside, in one place, so a host that reads
//! files or messages from strangers knows how much memory and time one can cost.
//!
//! Breaking a limit is always an error that names it, never a panic or a truncation:
//! tile-set files get a diagnostic, setups a [`SetupError`](crate::SetupError), placements a
//! [`PlacementError`](crate::PlacementError). The JSON size limit is for front ends that
//! read JSON (the C API and the command-line tool check it before parsing), since a serde
//! `Deserialize` never sees the size of its input.

pub use crate::board::MAX_COORDINATE;
pub use crate::dsl::limits::{
    MAX_COLOUR, MAX_COLOURS, MAX_COPIES, MAX_FIGURES, MAX_FILE_BYTES, MAX_ID, MAX_NAME, MAX_STAGE,
    MAX_TILE_TYPES, MAX_TILES,
};
pub use crate::player::MAX_PLAYERS;

/// The most tiles a board holds: every cell is numbered with a `u16`. A landscape with more
/// is refused with [`PlacementError::BoardFull`](crate::PlacementError::BoardFull).
pub const MAX_BOARD_TILES: usize = 1 << 16;

/// The most tiles one game may bring, counting every copy of every set: no more than a board
/// holds. More is [`SetupError::TooManyTiles`](crate::SetupError::TooManyTiles).
pub const MAX_GAME_TILES: u64 = MAX_BOARD_TILES as u64;

/// The largest JSON text (a setup, a saved game, a landscape) the C API and the command-line
/// tool read: 64 MiB. A saved game of every built-in set is a few hundred kilobytes; this
/// leaves room for dozens of user tile sets written inline, each at most
/// [`MAX_FILE_BYTES`].
pub const MAX_JSON_BYTES: usize = 64 << 20;

/// The deepest JSON nesting serde_json reads (its fixed recursion limit); deeper is a syntax
/// error, not a stack overflow. None of the library's forms nests deeper than 5.
pub const MAX_JSON_DEPTH: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_numbers_as_many_cells_as_it_holds_tiles() {
        assert_eq!(MAX_BOARD_TILES, usize::from(u16::MAX) + 1);
        const { assert!(MAX_GAME_TILES >= MAX_TILES) };
        const { assert!(MAX_JSON_BYTES >= 16 * MAX_FILE_BYTES) };
    }
}
