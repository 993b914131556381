//! Which rotations of each tile type fit each edge constraint, precomputed once per game.
//!
//! With the table, the legal placements of a drawn tile are one lookup per frontier cell:
//! the cell's [`EdgeConstraint`] key indexes the tile's row and gives the rotations that fit.

use alloc::vec::Vec;

use crate::board::EdgeConstraint;
use crate::edge::EdgeKind;
use crate::geom::{ByDir, Dir, Rotation};
use crate::tile::TileIndex;

crate::bits::bit_set! {
    /// A set of rotations, as a 4-bit mask in increasing order.
    RotationSet(u8) of Rotation, capacity 4,
    index |rotation| rotation.quarter_turns(),
    member |n| Rotation::from_quarter_turns(n),
}

impl RotationSet {
    /// The rotations in the set in increasing order, padded to four with the last one (or
    /// `R0` for the empty set): a fixed-size form for branch-free loops; the first
    /// [`RotationSet::len`] entries are the set.
    #[must_use]
    pub const fn listed(self) -> [Rotation; 4] {
        LISTED[(self.0 & 0b1111) as usize]
    }
}

/// [`RotationSet::listed`] for each of the sixteen sets.
const LISTED: [[Rotation; 4]; 16] = {
    let mut table = [[Rotation::R0; 4]; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut count = 0;
        let mut quarter = 0;
        while quarter < 4 {
            if bits & (1 << quarter) != 0 {
                table[bits][count] = Rotation::from_quarter_turns(quarter);
                count += 1;
            }
            quarter += 1;
        }
        let mut pad = count;
        while pad < 4 {
            table[bits][pad] = if count == 0 { Rotation::R0 } else { table[bits][count - 1] };
            pad += 1;
        }
        bits += 1;
    }
    table
};

/// For every tile type and every [`EdgeConstraint`], the rotations that fit.
///
/// Rotations that give the same edges are all listed: two rotations of a symmetric tile
/// are different placements when its segments differ (a pennant, a field border).
///
/// ```
/// use carcassonne::engine::{EdgeConstraint, FitTable};
/// use carcassonne::{ByDir, Catalog, Dir, EdgeKind, Rotation};
/// let base = Catalog::builtin("base")?;
/// let table = FitTable::new(base.tiles().iter().map(|tile| tile.edges()));
/// let (d, _) = base.tile_by_id("D").unwrap();
/// // A cell with a city to its north: D fits only with its city facing north.
/// let mut sides = ByDir([None; 4]);
/// sides[Dir::N] = Some(EdgeKind::City);
/// let fits: Vec<Rotation> = table.rotations(d, EdgeConstraint(sides)).iter().collect();
/// assert_eq!(fits, [Rotation::R0]);
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FitTable {
    /// Row `tile` holds [`EdgeConstraint::COUNT`] masks.
    masks: Vec<RotationSet>,
}

impl FitTable {
    /// The table for tile types with the given unrotated edges, numbered in iteration order.
    pub fn new(tiles: impl IntoIterator<Item = ByDir<EdgeKind>>) -> FitTable {
        // A rotation fits exactly the constraints that ask, on each side, for its edge there
        // or for nothing: 16 of the 625. Writing those is what makes a new game (and so each
        // replay and loaded save) cheap, rather than testing every constraint.
        let mut masks = Vec::new();
        for edges in tiles {
            let row = masks.len();
            masks.resize(row + EdgeConstraint::COUNT, RotationSet::EMPTY);
            for rotation in Rotation::ALL {
                let turned = edges.rotated(rotation);
                for asked in 0..16u8 {
                    let mut sides = ByDir([None; 4]);
                    for (bit, dir) in Dir::ALL.into_iter().enumerate() {
                        if asked & (1 << bit) != 0 {
                            sides[dir] = Some(turned[dir]);
                        }
                    }
                    let mask = &mut masks[row + EdgeConstraint(sides).key()];
                    *mask = mask.with(rotation);
                }
            }
        }
        FitTable { masks }
    }

    /// The rotations of `tile` that fit `constraint`; empty for an unknown tile.
    #[must_use]
    pub fn rotations(&self, tile: TileIndex, constraint: EdgeConstraint) -> RotationSet {
        self.rotations_by_key(tile, constraint.key() as u16)
    }

    /// The rotations of `tile` for every constraint, indexed by key; empty for an unknown tile.
    #[must_use]
    pub fn row(&self, tile: TileIndex) -> &[RotationSet] {
        let start = usize::from(tile) * EdgeConstraint::COUNT;
        self.masks.get(start..start + EdgeConstraint::COUNT).unwrap_or(&[])
    }

    /// The rotations of `tile` that fit the constraint with key `key` (as kept on the
    /// [`FrontierCell`](crate::engine::FrontierCell)s); empty for an unknown tile or key.
    #[must_use]
    pub fn rotations_by_key(&self, tile: TileIndex, key: u16) -> RotationSet {
        self.row(tile).get(usize::from(key)).copied().unwrap_or(RotationSet::EMPTY)
    }
}

/// The constraint whose [`EdgeConstraint::key`] is `key`.
#[cfg(test)]
fn constraint_of_key(mut key: usize) -> EdgeConstraint {
    let mut sides = ByDir([None; 4]);
    for dir in Dir::ALL {
        sides[dir] = EdgeKind::ALL.get(key % 5).copied();
        key /= 5;
    }
    EdgeConstraint(sides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    #[test]
    fn keys_decode_to_their_constraint() {
        for key in 0..EdgeConstraint::COUNT {
            assert_eq!(constraint_of_key(key).key(), key);
        }
    }

    /// The table agrees with checking every rotation directly, for every built-in tile and
    /// every constraint.
    #[test]
    #[cfg_attr(miri, ignore = "checks 625 constraints for every rotation of every built-in tile")]
    fn the_table_matches_a_direct_check() {
        for name in crate::BUILTIN_NAMES {
            let catalog = Catalog::builtin(name).unwrap();
            let table = FitTable::new(catalog.tiles().iter().map(|tile| tile.edges()));
            for (index, tile) in catalog.tiles().iter().enumerate() {
                for key in 0..EdgeConstraint::COUNT {
                    let constraint = constraint_of_key(key);
                    for rotation in Rotation::ALL {
                        let fits = constraint.admits(tile.edges().rotated(rotation));
                        let listed = table.rotations(index as TileIndex, constraint);
                        assert_eq!(listed.contains(rotation), fits);
                    }
                }
            }
        }
    }

    #[test]
    fn listed_rotations_are_the_set_then_padding() {
        for bits in 0..16u8 {
            let set = Rotation::ALL
                .into_iter()
                .filter(|rotation| bits & (1 << *rotation as u8) != 0)
                .fold(RotationSet::EMPTY, RotationSet::with);
            assert_eq!(set.len(), bits.count_ones() as usize);
            let listed = set.listed();
            assert!(listed[..set.len()].iter().copied().eq(set.iter()), "{bits:04b}");
        }
    }

    #[test]
    fn an_open_cell_admits_every_rotation() {
        let table = FitTable::new([ByDir([EdgeKind::City; 4])]);
        assert_eq!(table.rotations(0, EdgeConstraint::default()).len(), 4);
        assert!(table.rotations(1, EdgeConstraint::default()).is_empty());
    }
}
