//! Tile types: the four edge kinds and the segments printed on one kind of tile.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::edge::{EdgeKind, HalfEdge};
use crate::features::FeatureData;
use crate::geom::{ByDir, Dir, Rotation};
use crate::rulebook::{Mark, MarkSet};
use crate::segment::{Segment, SegmentIndex, SegmentKind};

/// The index of a tile type within its [`Catalog`](crate::Catalog).
pub type TileIndex = u16;

/// One kind of tile as its tile set describes it, unrotated.
///
/// Built only by the tile set loader, so its edges and segments are consistent: every city,
/// road and river edge belongs to exactly one segment of its kind, and every half-edge of a
/// non-city edge to exactly one field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileType {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) count: u16,
    pub(crate) edges: ByDir<EdgeKind>,
    pub(crate) segments: Vec<Segment>,
    /// Marks printed on the whole tile rather than on a segment (a hill, a vineyard).
    pub(crate) marks: MarkSet,
    /// Derived from `segments` for the hot paths: the segment at each edge and the field at
    /// each half-edge of the unrotated tile, [`NONE`] where there is none.
    lookup: Lookup,
}

/// No segment, in [`Lookup`] and [`Turned`].
pub(crate) const NONE: SegmentIndex = SegmentIndex::MAX;

/// A tile's segment at each edge and field at each half-edge as it lies turned, indexed by
/// the board's directions ([`Dir::index`], [`HalfEdge::index`]); [`NONE`] where there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Turned {
    pub(crate) edge_segment: [SegmentIndex; 4],
    pub(crate) half_field: [SegmentIndex; 8],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Lookup {
    edge_segment: [SegmentIndex; 4],
    half_field: [SegmentIndex; 8],
    /// The same as the tile lies turned by each rotation, indexed by the board's directions.
    turned: [Turned; 4],
    /// What each segment alone is, as a feature: the nodes a placed copy starts with. Shared,
    /// so that copying a tile set (every new game copies its sets' tiles) costs no more for it.
    alone: Arc<[FeatureData]>,
    /// Whether any segment carries a mark: placing a tile without (most) counts none.
    carries_marks: bool,
}

impl TileType {
    /// A tile type from parts the loader has checked.
    pub(crate) fn new(
        id: String,
        name: String,
        count: u16,
        edges: ByDir<EdgeKind>,
        segments: Vec<Segment>,
        marks: MarkSet,
    ) -> TileType {
        let find = |matches: &dyn Fn(&Segment) -> bool| {
            segments
                .iter()
                .position(matches)
                .and_then(|index| SegmentIndex::try_from(index).ok())
                .unwrap_or(NONE)
        };
        let edge_segment = Dir::ALL.map(|dir| find(&|segment| segment.edges().contains(dir)));
        let half_field =
            HalfEdge::ALL.map(|half| find(&|segment| segment.half_edges().contains(half)));
        let lookup = Lookup {
            edge_segment,
            half_field,
            turned: Rotation::ALL.map(|rotation| {
                let unturn = rotation.inverse();
                Turned {
                    edge_segment: Dir::ALL.map(|dir| edge_segment[dir.rotated(unturn).index()]),
                    half_field: HalfEdge::ALL.map(|half| half_field[half.rotated(unturn).index()]),
                }
            }),
            alone: segments.iter().map(FeatureData::alone).collect(),
            carries_marks: segments.iter().any(|segment| !segment.marks().is_empty()),
        };
        TileType { id, name, count, edges, segments, marks, lookup }
    }

    /// The id that is unique within the tile set and stable across releases, such as `"D"`.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The name shown to people.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many copies of this tile the set contains.
    #[must_use]
    pub const fn count(&self) -> u16 {
        self.count
    }

    /// The edge kinds of the unrotated tile.
    #[must_use]
    pub const fn edges(&self) -> ByDir<EdgeKind> {
        self.edges
    }

    /// The kind of edge `dir` when the tile is turned by `rotation`.
    ///
    /// ```
    /// use carcassonne::{Catalog, Dir, EdgeKind, Rotation};
    /// let base = Catalog::builtin("base").unwrap();
    /// let start = base.tile_by_id("D").unwrap().1;
    /// assert_eq!(start.edge(Dir::N, Rotation::R0), EdgeKind::City);
    /// assert_eq!(start.edge(Dir::E, Rotation::R90), EdgeKind::City);
    /// ```
    #[must_use]
    pub fn edge(&self, dir: Dir, rotation: Rotation) -> EdgeKind {
        self.edges[dir.rotated(rotation.inverse())]
    }

    /// The marks printed on the whole tile, not on one of its segments (Hills & Sheep's hill
    /// and vineyard): what neighbourhood bonuses count and tie-breaks look for.
    #[must_use]
    pub const fn marks(&self) -> MarkSet {
        self.marks
    }

    /// The segments of the unrotated tile; a [`SegmentIndex`] indexes this list.
    #[must_use]
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The segment lookups of the tile turned by `rotation`.
    pub(crate) fn turned(&self, rotation: Rotation) -> &Turned {
        &self.lookup.turned[rotation.quarter_turns()]
    }

    /// Whether any segment of the tile carries a mark.
    pub(crate) fn carries_marks(&self) -> bool {
        self.lookup.carries_marks
    }

    /// Each segment as a feature of its own, before it joins its neighbours.
    pub(crate) fn alone(&self) -> &[FeatureData] {
        &self.lookup.alone
    }

    /// The city, road or river segment that reaches edge `dir` of the unrotated tile, if the
    /// edge is not a field edge.
    #[must_use]
    pub fn segment_at_edge(&self, dir: Dir) -> Option<SegmentIndex> {
        Some(self.lookup.edge_segment[dir.index()]).filter(|index| *index != NONE)
    }

    /// The field that touches `half` on the unrotated tile, if the edge is not a city edge.
    #[must_use]
    pub fn field_at(&self, half: HalfEdge) -> Option<SegmentIndex> {
        Some(self.lookup.half_field[half.index()]).filter(|index| *index != NONE)
    }

    /// How many segments of `kind` the tile has.
    #[must_use]
    pub fn count_segments(&self, kind: SegmentKind) -> usize {
        self.segments.iter().filter(|segment| segment.kind() == kind).count()
    }

    /// The same tile with each segment's and its own marks renumbered through `map` (mark `n`
    /// becomes `map[n]`): a set's tile as a game that numbers the marks of all its sets sees it.
    pub(crate) fn with_marks_renumbered(&self, map: &[crate::rulebook::Mark]) -> TileType {
        let segments = self
            .segments
            .iter()
            .map(|segment| Segment {
                marks: segment
                    .marks
                    .iter()
                    .filter_map(|mark| map.get(mark.index()).copied())
                    .collect::<MarkSet>(),
                ..*segment
            })
            .collect();
        let marks = self.marks.iter().filter_map(|mark| map.get(mark.index()).copied()).collect();
        TileType::new(self.id.clone(), self.name.clone(), self.count, self.edges, segments, marks)
    }

    /// How many segments of the tile carry `mark`.
    #[must_use]
    pub fn count_marks(&self, mark: Mark) -> usize {
        self.segments.iter().filter(|segment| segment.marks().contains(mark)).count()
    }
}
