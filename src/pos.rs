//! Board positions.

use serde::{Deserialize, Serialize};

use crate::geom::Dir;

/// A cell of the board: x grows east, y grows north; the start tile is at (0, 0).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
// Aligned as one 32-bit word, so a position is copied with one load and one store: listing
// placements writes one per legal placement, and an `Action` stays 8 bytes.
#[repr(align(4))]
pub struct Pos {
    /// Column, growing east.
    pub x: i16,
    /// Row, growing north.
    pub y: i16,
}

impl Pos {
    /// The start tile's cell.
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    /// The cell at `(x, y)`.
    #[must_use]
    pub const fn new(x: i16, y: i16) -> Pos {
        Pos { x, y }
    }

    /// The orthogonal neighbour in direction `dir`, or `None` at the edge of the `i16` range.
    ///
    /// ```
    /// use carcassonne::{Dir, Pos};
    /// assert_eq!(Pos::ORIGIN.neighbour(Dir::N), Some(Pos::new(0, 1)));
    /// assert_eq!(Pos::new(i16::MAX, 0).neighbour(Dir::E), None);
    /// ```
    #[must_use]
    pub fn neighbour(self, dir: Dir) -> Option<Pos> {
        Some(match dir {
            Dir::N => Pos { x: self.x, y: self.y.checked_add(1)? },
            Dir::E => Pos { x: self.x.checked_add(1)?, y: self.y },
            Dir::S => Pos { x: self.x, y: self.y.checked_sub(1)? },
            Dir::W => Pos { x: self.x.checked_sub(1)?, y: self.y },
        })
    }

    /// Whether `other` is this cell or one of the eight around it.
    #[must_use]
    pub fn touches(self, other: Pos) -> bool {
        i32::from(self.x).abs_diff(i32::from(other.x)) <= 1
            && i32::from(self.y).abs_diff(i32::from(other.y)) <= 1
    }

    /// The eight cells around this one (orthogonal and diagonal) that exist in the `i16`
    /// range: the neighbourhood that completes a monastery or garden.
    pub fn surrounding(self) -> impl Iterator<Item = Pos> {
        const OFFSETS: [(i32, i32); 8] =
            [(-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0)];
        OFFSETS.into_iter().filter_map(move |(dx, dy)| {
            let x = i16::try_from(i32::from(self.x) + dx).ok()?;
            let y = i16::try_from(i32::from(self.y) + dy).ok()?;
            Some(Pos { x, y })
        })
    }
}

impl core::fmt::Display for Pos {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_step_back_through_the_opposite_direction() {
        let pos = Pos::new(3, -7);
        for dir in Dir::ALL {
            assert_eq!(pos.neighbour(dir).unwrap().neighbour(dir.opposite()), Some(pos));
        }
    }

    #[test]
    fn surrounding_has_eight_distinct_cells_except_at_the_range_edge() {
        let around: alloc::vec::Vec<Pos> = Pos::ORIGIN.surrounding().collect();
        assert_eq!(around.len(), 8);
        assert!(!around.contains(&Pos::ORIGIN));
        assert_eq!(Pos::new(i16::MIN, i16::MIN).surrounding().count(), 3);
    }
}
