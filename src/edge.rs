//! Edge kinds and the eight half-edges that fields touch.

use serde::{Deserialize, Serialize};

use crate::geom::{Dir, Rotation};

/// What an edge of a tile shows; neighbouring edges must show the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// A city wall opening: the edge belongs to a city segment.
    City,
    /// A road crosses the middle of the edge; fields lie on both sides.
    Road,
    /// Open land: both halves belong to fields.
    Field,
    /// A river crosses the middle of the edge; fields lie on both banks.
    River,
}

impl EdgeKind {
    /// All edge kinds in declaration order.
    pub const ALL: [EdgeKind; 4] =
        [EdgeKind::City, EdgeKind::Road, EdgeKind::Field, EdgeKind::River];

    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EdgeKind::City => "city",
            EdgeKind::Road => "road",
            EdgeKind::Field => "field",
            EdgeKind::River => "river",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether fields touch the two halves of an edge of this kind (all but cities).
    #[must_use]
    pub const fn has_field_halves(self) -> bool {
        !matches!(self, EdgeKind::City)
    }
}

impl core::fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One half of an edge, where fields meet across tiles.
///
/// Listed clockwise from the north-west corner; each is named by its edge and the corner it
/// lies towards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[allow(non_camel_case_types)]
pub enum HalfEdge {
    /// The western half of the north edge.
    N_w = 0,
    /// The eastern half of the north edge.
    N_e = 1,
    /// The northern half of the east edge.
    E_n = 2,
    /// The southern half of the east edge.
    E_s = 3,
    /// The eastern half of the south edge.
    S_e = 4,
    /// The western half of the south edge.
    S_w = 5,
    /// The southern half of the west edge.
    W_s = 6,
    /// The northern half of the west edge.
    W_n = 7,
}

impl HalfEdge {
    /// All eight half-edges, clockwise from the north-west corner.
    pub const ALL: [HalfEdge; 8] = [
        HalfEdge::N_w,
        HalfEdge::N_e,
        HalfEdge::E_n,
        HalfEdge::E_s,
        HalfEdge::S_e,
        HalfEdge::S_w,
        HalfEdge::W_s,
        HalfEdge::W_n,
    ];

    /// The half-edge with the given clockwise index (0 = `N_w`), taken modulo 8.
    #[must_use]
    pub const fn from_index(index: usize) -> HalfEdge {
        HalfEdge::ALL[index % 8]
    }

    /// The clockwise index of this half-edge (`N_w` = 0).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The edge this half belongs to.
    #[must_use]
    pub const fn dir(self) -> Dir {
        Dir::from_index(self.index() / 2)
    }

    /// The two halves of an edge, in clockwise order.
    #[must_use]
    pub const fn halves(dir: Dir) -> [HalfEdge; 2] {
        [HalfEdge::from_index(dir.index() * 2), HalfEdge::from_index(dir.index() * 2 + 1)]
    }

    /// This half-edge on a tile turned clockwise by `rotation`.
    ///
    /// ```
    /// use carcassonne::{HalfEdge, Rotation};
    /// assert_eq!(HalfEdge::N_w.rotated(Rotation::R90), HalfEdge::E_n);
    /// ```
    #[must_use]
    pub const fn rotated(self, rotation: Rotation) -> HalfEdge {
        HalfEdge::from_index(self.index() + 2 * rotation.quarter_turns())
    }

    /// The half-edge of the neighbouring tile that touches this one.
    ///
    /// ```
    /// use carcassonne::HalfEdge;
    /// // The western half of my north edge meets the western half of the south edge above.
    /// assert_eq!(HalfEdge::N_w.facing(), HalfEdge::S_w);
    /// ```
    #[must_use]
    pub const fn facing(self) -> HalfEdge {
        match self {
            HalfEdge::N_w => HalfEdge::S_w,
            HalfEdge::N_e => HalfEdge::S_e,
            HalfEdge::E_n => HalfEdge::W_n,
            HalfEdge::E_s => HalfEdge::W_s,
            HalfEdge::S_e => HalfEdge::N_e,
            HalfEdge::S_w => HalfEdge::N_w,
            HalfEdge::W_s => HalfEdge::E_s,
            HalfEdge::W_n => HalfEdge::E_n,
        }
    }

    /// The name used in tile set files, such as `N_w`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            HalfEdge::N_w => "N_w",
            HalfEdge::N_e => "N_e",
            HalfEdge::E_n => "E_n",
            HalfEdge::E_s => "E_s",
            HalfEdge::S_e => "S_e",
            HalfEdge::S_w => "S_w",
            HalfEdge::W_s => "W_s",
            HalfEdge::W_n => "W_n",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<HalfEdge> {
        HalfEdge::ALL.into_iter().find(|half| half.name() == name)
    }
}

impl core::fmt::Display for HalfEdge {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

crate::bits::bit_set! {
    /// A set of half-edges, as an 8-bit mask in clockwise order from `N_w`.
    HalfEdgeSet(u8) of HalfEdge, capacity 8,
    index |half| half.index(),
    member |n| HalfEdge::from_index(n),
}

impl HalfEdgeSet {
    /// The set as seen on a tile turned by `rotation`.
    #[must_use]
    pub const fn rotated(self, rotation: Rotation) -> HalfEdgeSet {
        HalfEdgeSet(self.0.rotate_left(2 * rotation.quarter_turns() as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for half in HalfEdge::ALL {
            assert_eq!(HalfEdge::from_name(half.name()), Some(half));
        }
        for kind in EdgeKind::ALL {
            assert_eq!(EdgeKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(HalfEdge::from_name("N_x"), None);
    }

    #[test]
    fn facing_half_is_on_the_opposite_edge_and_involutive() {
        for half in HalfEdge::ALL {
            assert_eq!(half.facing().dir(), half.dir().opposite());
            assert_eq!(half.facing().facing(), half);
        }
    }

    #[test]
    fn facing_commutes_with_rotation() {
        for half in HalfEdge::ALL {
            for rotation in Rotation::ALL {
                assert_eq!(half.rotated(rotation).facing(), half.facing().rotated(rotation));
            }
        }
    }

    #[test]
    fn rotation_moves_halves_with_their_edge() {
        for half in HalfEdge::ALL {
            for rotation in Rotation::ALL {
                assert_eq!(half.rotated(rotation).dir(), half.dir().rotated(rotation));
            }
        }
        assert_eq!(HalfEdge::W_n.rotated(Rotation::R90), HalfEdge::N_e);
    }

    #[test]
    fn set_rotation_matches_member_rotation() {
        let set: HalfEdgeSet = [HalfEdge::W_n, HalfEdge::S_e].into_iter().collect();
        for rotation in Rotation::ALL {
            let expected: HalfEdgeSet = set.iter().map(|h| h.rotated(rotation)).collect();
            assert_eq!(set.rotated(rotation), expected);
        }
    }

    #[test]
    fn halves_belong_to_their_edge() {
        for dir in Dir::ALL {
            for half in HalfEdge::halves(dir) {
                assert_eq!(half.dir(), dir);
            }
        }
    }
}
