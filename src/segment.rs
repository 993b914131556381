//! Segments: the pieces of feature printed on one tile, with their marks.

use serde::{Deserialize, Serialize};

use crate::edge::{EdgeKind, HalfEdgeSet};
use crate::geom::{DirSet, Rotation};
use crate::rulebook::MarkSet;

/// The most segments one tile may have; [`SegmentSet`] is a 32-bit mask.
pub const MAX_SEGMENTS_PER_TILE: usize = 32;

/// What kind of feature a segment is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SegmentKind {
    /// Part of a city, reaching one or more city edges.
    City,
    /// Part of a road, reaching one or more road edges.
    Road,
    /// Part of a field, touching zero or more half-edges.
    Field,
    /// Part of the river; never occupied or scored.
    River,
    /// A monastery in the middle of the tile.
    Monastery,
    /// A garden in the middle of the tile (second edition): scored as a monastery is; its set
    /// declares that only an abbot may occupy it.
    Garden,
}

impl SegmentKind {
    /// All segment kinds in declaration order.
    pub const ALL: [SegmentKind; 6] = [
        SegmentKind::City,
        SegmentKind::Road,
        SegmentKind::Field,
        SegmentKind::River,
        SegmentKind::Monastery,
        SegmentKind::Garden,
    ];

    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SegmentKind::City => "city",
            SegmentKind::Road => "road",
            SegmentKind::Field => "field",
            SegmentKind::River => "river",
            SegmentKind::Monastery => "monastery",
            SegmentKind::Garden => "garden",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<SegmentKind> {
        SegmentKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The edge kind this segment reaches, for the kinds that join whole edges.
    #[must_use]
    pub const fn edge_kind(self) -> Option<EdgeKind> {
        match self {
            SegmentKind::City => Some(EdgeKind::City),
            SegmentKind::Road => Some(EdgeKind::Road),
            SegmentKind::River => Some(EdgeKind::River),
            SegmentKind::Field | SegmentKind::Monastery | SegmentKind::Garden => None,
        }
    }
}

impl core::fmt::Display for SegmentKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The index of a segment within its tile type's segment list.
pub type SegmentIndex = u8;

crate::bits::bit_set! {
    /// A set of segments of one tile, as a bit mask over [`SegmentIndex`].
    SegmentSet(u32) of SegmentIndex, capacity MAX_SEGMENTS_PER_TILE,
    index |segment| segment as usize,
    member |n| n as SegmentIndex,
}

/// One feature piece printed on a tile: which edges or half-edges it reaches, its marks, and
/// for a field the city segments of the same tile it borders.
///
/// Built only by the tile set loader, so every segment satisfies the format's rules: a city,
/// road or river reaches at least one edge of its kind; a field touches half-edges only; a
/// monastery or garden touches nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub(crate) kind: SegmentKind,
    pub(crate) edges: DirSet,
    pub(crate) half_edges: HalfEdgeSet,
    pub(crate) marks: MarkSet,
    pub(crate) cities: SegmentSet,
}

impl Segment {
    /// What kind of feature this segment belongs to.
    #[must_use]
    pub const fn kind(&self) -> SegmentKind {
        self.kind
    }

    /// The edges a city, road or river segment joins (empty for other kinds).
    #[must_use]
    pub const fn edges(&self) -> DirSet {
        self.edges
    }

    /// The half-edges a field touches (empty for other kinds).
    #[must_use]
    pub const fn half_edges(&self) -> HalfEdgeSet {
        self.half_edges
    }

    /// The marks printed on this segment, numbered as the tile set or game that owns the
    /// tile declares them ([`Catalog::marks`](crate::Catalog::marks),
    /// [`Game::marks`](crate::Game::marks)).
    #[must_use]
    pub const fn marks(&self) -> MarkSet {
        self.marks
    }

    /// For a field, the city segments of the same tile it borders (empty for other kinds).
    #[must_use]
    pub const fn cities(&self) -> SegmentSet {
        self.cities
    }

    /// This segment on a tile turned clockwise by `rotation`. Segment indices do not change.
    #[must_use]
    pub fn rotated(&self, rotation: Rotation) -> Segment {
        Segment {
            edges: self.edges.rotated(rotation),
            half_edges: self.half_edges.rotated(rotation),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge::HalfEdge;
    use crate::geom::Dir;

    #[test]
    fn segment_is_small_and_copy() {
        assert!(core::mem::size_of::<Segment>() <= 12);
    }

    #[test]
    fn segment_set_ignores_out_of_range_indices() {
        let set = SegmentSet::EMPTY.with(3).with(31).with(32);
        assert_eq!(set.iter().collect::<alloc::vec::Vec<_>>(), [3, 31]);
        assert!(!set.contains(40));
    }

    #[test]
    fn rotating_a_segment_keeps_kind_marks_and_cities() {
        let field = Segment {
            kind: SegmentKind::Field,
            edges: DirSet::EMPTY,
            half_edges: [HalfEdge::E_n, HalfEdge::W_n].into_iter().collect(),
            marks: MarkSet::EMPTY,
            cities: SegmentSet::EMPTY.with(0),
        };
        let turned = field.rotated(Rotation::R90);
        assert_eq!(turned.kind(), SegmentKind::Field);
        assert_eq!(turned.cities(), field.cities());
        assert_eq!(
            turned.half_edges().iter().collect::<alloc::vec::Vec<_>>(),
            [HalfEdge::N_e, HalfEdge::S_e]
        );
        let city = Segment { kind: SegmentKind::City, edges: DirSet::EMPTY.with(Dir::N), ..field };
        assert!(city.rotated(Rotation::R270).edges().contains(Dir::W));
    }
}
