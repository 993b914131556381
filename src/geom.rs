//! Directions, rotations and the per-direction lookup table [`ByDir`].

use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// One of the four edges of a tile, or the direction to a neighbouring cell.
///
/// North is up; x grows east and y grows north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// North, towards +y.
    N = 0,
    /// East, towards +x.
    E = 1,
    /// South, towards -y.
    S = 2,
    /// West, towards -x.
    W = 3,
}

impl Dir {
    /// All four directions, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction with the given clockwise index (0 = north), taken modulo 4.
    #[must_use]
    pub const fn from_index(index: usize) -> Dir {
        Dir::ALL[index % 4]
    }

    /// The clockwise index of this direction (north = 0).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction facing the other way: the edge of a neighbour that touches this edge.
    ///
    /// ```
    /// use carcassonne::Dir;
    /// assert_eq!(Dir::N.opposite(), Dir::S);
    /// ```
    #[must_use]
    pub const fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 2)
    }

    /// This direction turned clockwise by `rotation`.
    ///
    /// ```
    /// use carcassonne::{Dir, Rotation};
    /// assert_eq!(Dir::N.rotated(Rotation::R90), Dir::E);
    /// assert_eq!(Dir::W.rotated(Rotation::R180), Dir::E);
    /// ```
    #[must_use]
    pub const fn rotated(self, rotation: Rotation) -> Dir {
        Dir::from_index(self.index() + rotation.quarter_turns())
    }

    /// The one-letter name used in tile set files: `N`, `E`, `S` or `W`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
        }
    }

    /// Parses a one-letter name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|dir| dir.name() == name)
    }

    /// The offset `(dx, dy)` to the neighbouring cell in this direction.
    #[must_use]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }
}

/// Degrees clockwise: `90°`.
impl core::fmt::Display for Rotation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}°", self.degrees())
    }
}

impl core::fmt::Display for Dir {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A clockwise rotation of a tile in 90° steps.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(into = "u16", try_from = "u16")]
pub enum Rotation {
    /// As drawn in the tile set.
    #[default]
    R0 = 0,
    /// A quarter turn clockwise: north becomes east.
    R90 = 1,
    /// A half turn.
    R180 = 2,
    /// Three quarter turns clockwise: north becomes west.
    R270 = 3,
}

impl Rotation {
    /// All four rotations in increasing order.
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// The rotation of `quarter_turns` clockwise quarter turns, taken modulo 4.
    #[must_use]
    pub const fn from_quarter_turns(quarter_turns: usize) -> Rotation {
        match quarter_turns % 4 {
            0 => Rotation::R0,
            1 => Rotation::R90,
            2 => Rotation::R180,
            _ => Rotation::R270,
        }
    }

    /// How many clockwise quarter turns this rotation makes (0–3).
    #[must_use]
    pub const fn quarter_turns(self) -> usize {
        self as usize
    }

    /// The rotation in degrees clockwise: 0, 90, 180 or 270.
    #[must_use]
    pub const fn degrees(self) -> u16 {
        self as u16 * 90
    }

    /// The rotation of `degrees` clockwise, if it is a multiple of 90 below 360.
    #[must_use]
    pub const fn from_degrees(degrees: u16) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation::R0),
            90 => Some(Rotation::R90),
            180 => Some(Rotation::R180),
            270 => Some(Rotation::R270),
            _ => None,
        }
    }

    /// Applying `self` and then `other`.
    #[must_use]
    pub const fn then(self, other: Rotation) -> Rotation {
        Rotation::from_quarter_turns(self.quarter_turns() + other.quarter_turns())
    }

    /// The rotation that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Rotation {
        Rotation::from_quarter_turns(4 - self.quarter_turns())
    }
}

impl From<Rotation> for u16 {
    fn from(rotation: Rotation) -> u16 {
        rotation.degrees()
    }
}

impl TryFrom<u16> for Rotation {
    type Error = InvalidRotation;

    fn try_from(degrees: u16) -> Result<Rotation, InvalidRotation> {
        Rotation::from_degrees(degrees).ok_or(InvalidRotation(degrees))
    }
}

/// A rotation in degrees that is not 0, 90, 180 or 270.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rotation must be 0, 90, 180 or 270 degrees, not {0}")]
pub struct InvalidRotation(pub u16);

/// One value per direction, indexed by [`Dir`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByDir<T>(pub [T; 4]);

impl<T> ByDir<T> {
    /// Builds the table by calling `f` for N, E, S and W in that order.
    pub fn from_fn(mut f: impl FnMut(Dir) -> T) -> ByDir<T> {
        ByDir(Dir::ALL.map(&mut f))
    }

    /// The entries with their directions, clockwise from north.
    pub fn iter(&self) -> impl Iterator<Item = (Dir, &T)> {
        Dir::ALL.into_iter().zip(self.0.iter())
    }

    /// Applies `f` to every entry.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByDir<U> {
        ByDir(self.0.map(f))
    }
}

impl<T: Copy> ByDir<T> {
    /// The table as seen on a tile turned by `rotation`: the entry for north moves to the
    /// direction north turns into.
    ///
    /// ```
    /// use carcassonne::{ByDir, Dir, Rotation};
    /// let edges = ByDir(['c', 'r', 'f', 'r']);
    /// assert_eq!(edges.rotated(Rotation::R90)[Dir::E], 'c');
    /// ```
    #[must_use]
    pub fn rotated(self, rotation: Rotation) -> ByDir<T> {
        ByDir::from_fn(|dir| self[dir.rotated(rotation.inverse())])
    }
}

impl<T> Index<Dir> for ByDir<T> {
    type Output = T;

    fn index(&self, dir: Dir) -> &T {
        &self.0[dir.index()]
    }
}

impl<T> IndexMut<Dir> for ByDir<T> {
    fn index_mut(&mut self, dir: Dir) -> &mut T {
        &mut self.0[dir.index()]
    }
}

crate::bits::bit_set! {
    /// A set of directions, as a 4-bit mask in clockwise order from north.
    DirSet(u8) of Dir, capacity 4,
    index |dir| dir.index(),
    member |n| Dir::from_index(n),
}

impl DirSet {
    /// The set as seen on a tile turned by `rotation`.
    #[must_use]
    pub fn rotated(self, rotation: Rotation) -> DirSet {
        self.iter().map(|dir| dir.rotated(rotation)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_quarter_turns_are_the_identity() {
        for dir in Dir::ALL {
            let mut turned = dir;
            for _ in 0..4 {
                turned = turned.rotated(Rotation::R90);
            }
            assert_eq!(turned, dir);
        }
    }

    #[test]
    fn rotation_composes_and_inverts() {
        for a in Rotation::ALL {
            assert_eq!(a.then(a.inverse()), Rotation::R0);
            for b in Rotation::ALL {
                for dir in Dir::ALL {
                    assert_eq!(dir.rotated(a).rotated(b), dir.rotated(a.then(b)));
                }
            }
        }
    }

    #[test]
    fn offsets_of_opposites_cancel() {
        for dir in Dir::ALL {
            let (x, y) = dir.offset();
            let (ox, oy) = dir.opposite().offset();
            assert_eq!((x + ox, y + oy), (0, 0));
        }
    }

    #[test]
    fn rotated_table_follows_the_directions() {
        let table = ByDir([0, 1, 2, 3]);
        for rotation in Rotation::ALL {
            let turned = table.rotated(rotation);
            for dir in Dir::ALL {
                assert_eq!(turned[dir.rotated(rotation)], table[dir]);
            }
        }
    }

    #[test]
    fn degrees_round_trip() {
        for rotation in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(rotation.degrees()), Some(rotation));
        }
        assert_eq!(Rotation::try_from(45), Err(InvalidRotation(45)));
    }

    #[test]
    fn dir_set_rotates_each_member() {
        let set: DirSet = [Dir::N, Dir::W].into_iter().collect();
        let turned = set.rotated(Rotation::R90);
        assert_eq!(turned.iter().collect::<alloc::vec::Vec<_>>(), [Dir::N, Dir::E]);
        assert_eq!(turned.len(), 2);
    }
}
