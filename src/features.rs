//! Features: cities, roads, rivers, fields, monasteries and gardens as tiles join them.
//!
//! Every segment of every placed tile is a node. Placing a tile unites its segments with the
//! segments they touch across each edge (union-find by size), and each feature's root keeps
//! what scoring needs: open edges (zero means complete) and how many of each declared mark the
//! feature carries. Members
//! of a feature also form a circular list, so scoring one feature walks only that feature,
//! never the board.

use alloc::vec::Vec;

use crate::board::Board;
use crate::edge::HalfEdge;
use crate::geom::Dir;
use crate::pos::Pos;
use crate::rulebook::{MAX_MARKS, MarkCounts};
use crate::segment::{Segment, SegmentIndex, SegmentKind};
use crate::tile::{NONE, TileType};

/// No slot of mark counts: the feature carries no mark.
const NO_SLOT: u32 = u32::MAX;

/// A segment of a placed tile, numbered in placement order; also names the feature whose root
/// it is.
pub type NodeId = u32;

/// What is known about a whole feature, kept at its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureData {
    /// The kind of every segment in the feature.
    pub kind: SegmentKind,
    /// City, road or river edges of the feature that face an empty cell; 0 means complete
    /// (always 0 for fields, monasteries and gardens, whose completion is judged otherwise).
    pub open_edges: u32,
    /// Segments in the feature.
    pub segments: u32,
    /// Where its mark counts are kept, for a feature that carries marks
    /// ([`Features::marks`] reads them).
    pub(crate) slot: u32,
    /// Figures standing on its segments.
    pub figures: u32,
}

impl FeatureData {
    /// A segment as a feature of its own.
    pub(crate) fn alone(segment: &Segment) -> FeatureData {
        FeatureData {
            kind: segment.kind(),
            open_edges: segment.edges().len() as u32,
            segments: 1,
            slot: NO_SLOT,
            figures: 0,
        }
    }

    /// Whether a city, road or river has no open edge left.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.kind.edge_kind().is_some() && self.open_edges == 0
    }
}

/// The features of a board, updated one placed tile at a time.
///
/// A clone keeps the original's capacity, so a copy taken to explore a line of play (a
/// search, a rollout) grows without reallocating, as the original would.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Features {
    parent: Vec<NodeId>,
    /// The next member of the same feature, circularly.
    next: Vec<NodeId>,
    /// The placement order of each node's tile.
    node_tile: Vec<u16>,
    /// Each node's segment index within its tile.
    node_segment: Vec<SegmentIndex>,
    /// Valid at roots.
    data: Vec<FeatureData>,
    /// The first node of the tile placed n-th.
    first_node: Vec<NodeId>,
    /// How many marks the game declares: each slot has that many counts in `marks`.
    stride: usize,
    /// The mark counts of the features that carry marks, `stride` counts a slot; a root's
    /// `slot` says which are its. Features without marks (most) have none.
    marks: Vec<u32>,
}

impl Clone for Features {
    fn clone(&self) -> Features {
        Features {
            parent: roomy_clone(&self.parent),
            next: roomy_clone(&self.next),
            node_tile: roomy_clone(&self.node_tile),
            node_segment: roomy_clone(&self.node_segment),
            data: roomy_clone(&self.data),
            first_node: roomy_clone(&self.first_node),
            stride: self.stride,
            marks: roomy_clone(&self.marks),
        }
    }

    fn clone_from(&mut self, source: &Features) {
        roomy_clone_from(&mut self.parent, &source.parent);
        roomy_clone_from(&mut self.next, &source.next);
        roomy_clone_from(&mut self.node_tile, &source.node_tile);
        roomy_clone_from(&mut self.node_segment, &source.node_segment);
        roomy_clone_from(&mut self.data, &source.data);
        roomy_clone_from(&mut self.first_node, &source.first_node);
        self.stride = source.stride;
        roomy_clone_from(&mut self.marks, &source.marks);
    }
}

/// A copy of `items` with the same capacity.
pub(crate) fn roomy_clone<T: Clone>(items: &Vec<T>) -> Vec<T> {
    let mut copy = Vec::with_capacity(items.capacity());
    copy.extend_from_slice(items);
    copy
}

/// `copy` made a copy of `items` with at least its capacity, in the memory `copy` holds when
/// that is enough: a search that copies one game into the same buffer again and again then
/// allocates nothing (on a deck of a thousand tiles, fresh copies spent most of a greedy
/// bot's turn taking fresh pages from the system).
pub(crate) fn roomy_clone_from<T: Clone>(copy: &mut Vec<T>, items: &Vec<T>) {
    copy.clear();
    copy.reserve(items.capacity());
    copy.extend_from_slice(items);
}

impl Features {
    /// No features: an empty board.
    #[must_use]
    pub fn new() -> Features {
        Features::default()
    }

    /// No features, with room for `tiles` tiles of `nodes` segments in all, so a game that
    /// knows its deck never reallocates, counting `marks` declared marks (at most
    /// [`MAX_MARKS`]; more are not counted).
    #[must_use]
    pub fn with_capacity(tiles: usize, nodes: usize, marks: usize) -> Features {
        let stride = marks.min(MAX_MARKS);
        Features {
            stride,
            // Few segments carry a mark: room for one in four.
            marks: Vec::with_capacity(nodes.div_ceil(4) * stride),
            parent: Vec::with_capacity(nodes),
            next: Vec::with_capacity(nodes),
            node_tile: Vec::with_capacity(nodes),
            node_segment: Vec::with_capacity(nodes),
            data: Vec::with_capacity(nodes),
            first_node: Vec::with_capacity(tiles),
        }
    }

    /// Removes every feature, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.parent.clear();
        self.next.clear();
        self.node_tile.clear();
        self.node_segment.clear();
        self.data.clear();
        self.first_node.clear();
        self.marks.clear();
    }

    /// Adds the tile that lies at `pos` on `board` (its latest tile), joining its segments
    /// with its neighbours'. `tiles` resolves the board's tile numbers. Returns the cities and
    /// roads that this tile closed, each once, as their roots.
    ///
    /// # Panics
    /// If `pos` holds no tile, if that tile is not the one placed right after the tiles
    /// already added, or if a tile number is outside `tiles`: each is a defect of the caller,
    /// which adds every tile exactly once in placement order.
    pub fn add_tile(&mut self, board: &Board, tiles: &[TileType], pos: Pos) -> Vec<NodeId> {
        let first = self.node_count();
        self.join_tile(board, tiles, pos);
        self.closed_by(first, (self.node_count() - first) as usize)
    }

    /// [`Features::add_tile`] without listing what closed, for callers that look themselves;
    /// returns whether the tile closed any city or road, so that they need not look when
    /// it closed none.
    pub(crate) fn join_tile(&mut self, board: &Board, tiles: &[TileType], pos: Pos) -> bool {
        let (tile_index, order, rotation) =
            board.peek(pos).expect("a tile lies at the added position");
        assert_eq!(usize::from(order), self.first_node.len(), "tiles are added in order");
        let tile = &tiles[usize::from(tile_index)];
        let first = self.node_count();
        self.first_node.push(first);
        let alone = tile.alone();
        let count = alone.len();
        // Each node starts as its own feature: its own parent, alone in its member ring.
        self.parent.extend(first..first + count as NodeId);
        self.next.extend(first..first + count as NodeId);
        self.node_tile.extend(core::iter::repeat_n(order, count));
        self.node_segment.extend(0..count as SegmentIndex);
        self.data.extend_from_slice(alone);
        // A segment that carries marks gets a slot of counts; most tiles carry none.
        if tile.carries_marks() {
            self.count_marks(first, tile);
        }

        let mine = tile.turned(rotation);
        let neighbours = board.peek_neighbours(pos);
        let mut closed = false;
        for dir in Dir::ALL {
            let Some((other_index, other_order, other_rotation)) = neighbours[dir] else {
                continue;
            };
            let theirs = tiles[usize::from(other_index)].turned(other_rotation);
            let other_first = self.first_node[usize::from(other_order)];
            // A city, road or river edge joins one segment on each side; a field edge has
            // none, and its halves join the fields on either side instead.
            let (edge, facing) =
                (mine.edge_segment[dir.index()], theirs.edge_segment[dir.opposite().index()]);
            if edge != NONE && facing != NONE {
                let root =
                    self.union(first + NodeId::from(edge), other_first + NodeId::from(facing));
                let data = &mut self.data[root as usize];
                data.open_edges = data.open_edges.saturating_sub(2);
                closed |= data.open_edges == 0
                    && matches!(data.kind, SegmentKind::City | SegmentKind::Road);
            }
            for half in HalfEdge::halves(dir) {
                let field = mine.half_field[half.index()];
                let facing = theirs.half_field[half.facing().index()];
                if field != NONE && facing != NONE {
                    self.union(first + NodeId::from(field), other_first + NodeId::from(facing));
                }
            }
        }
        closed
    }

    /// The closed cities and roads among the `count` nodes from `first`, each root once.
    fn closed_by(&self, first: NodeId, count: usize) -> Vec<NodeId> {
        let mut closed: Vec<NodeId> = Vec::new();
        for index in 0..count {
            let root = self.root(first + index as NodeId);
            let data = self.data[root as usize];
            let scored = matches!(data.kind, SegmentKind::City | SegmentKind::Road);
            if scored && data.is_closed() && !closed.contains(&root) {
                closed.push(root);
            }
        }
        closed
    }

    /// How many segments have been added.
    #[must_use]
    pub fn node_count(&self) -> NodeId {
        self.parent.len() as NodeId
    }

    /// The node of segment `segment` of the tile placed `order`-th, if it exists.
    #[must_use]
    pub fn node(&self, order: u16, segment: SegmentIndex) -> Option<NodeId> {
        let first = *self.first_node.get(usize::from(order))?;
        let node = first + NodeId::from(segment);
        let end = self.first_node.get(usize::from(order) + 1).copied().unwrap_or(self.node_count());
        (node < end).then_some(node)
    }

    /// The root that names the feature `node` belongs to.
    #[must_use]
    pub fn root(&self, mut node: NodeId) -> NodeId {
        while self.parent[node as usize] != node {
            node = self.parent[node as usize];
        }
        node
    }

    /// What is known about the feature `node` belongs to.
    #[must_use]
    pub fn data(&self, node: NodeId) -> FeatureData {
        self.data[self.root(node) as usize]
    }

    /// The kind of feature `node` belongs to: every node keeps its own, so no root is needed.
    pub(crate) fn kind(&self, node: NodeId) -> SegmentKind {
        self.data[node as usize].kind
    }

    /// How many of each declared mark the feature of `node` carries.
    #[must_use]
    pub fn marks(&self, node: NodeId) -> MarkCounts {
        let mut counts = MarkCounts::default();
        let slot = self.data[self.root(node) as usize].slot;
        if slot != NO_SLOT {
            let at = slot as usize * self.stride;
            counts.0[..self.stride].copy_from_slice(&self.marks[at..at + self.stride]);
        }
        counts
    }

    /// Gives each node from `first`, the segments of `tile`, that carries marks a slot
    /// holding one of each.
    fn count_marks(&mut self, first: NodeId, tile: &TileType) {
        let stride = self.stride;
        if stride == 0 {
            return;
        }
        for (index, segment) in tile.segments().iter().enumerate() {
            if segment.marks().is_empty() {
                continue;
            }
            let slot = self.marks.len() / stride;
            self.marks.extend(core::iter::repeat_n(0, stride));
            for mark in segment.marks().iter().filter(|mark| mark.index() < stride) {
                self.marks[slot * stride + mark.index()] = 1;
            }
            self.data[first as usize + index].slot = slot as u32;
        }
    }

    /// What is known about the feature whose root is `root`.
    pub(crate) fn root_data(&self, root: NodeId) -> &FeatureData {
        &self.data[root as usize]
    }

    /// The segments of the feature `node` belongs to, as (placement order, segment index).
    pub fn members(&self, node: NodeId) -> impl Iterator<Item = (u16, SegmentIndex)> + '_ {
        let start = node;
        let mut current = Some(node);
        core::iter::from_fn(move || {
            let at = current?;
            let next = self.next[at as usize];
            current = (next != start).then_some(next);
            Some((self.node_tile[at as usize], self.node_segment[at as usize]))
        })
    }

    /// How many distinct tiles the feature of `node` covers: a tile counts once even when two
    /// of its segments belong to the feature.
    #[must_use]
    pub fn tile_count(&self, node: NodeId) -> usize {
        // Most features span a few tiles: counting them should not allocate.
        let mut tiles: smallvec::SmallVec<[u16; 32]> =
            self.members(node).map(|(order, _)| order).collect();
        tiles.sort_unstable();
        tiles.dedup();
        tiles.len()
    }

    /// Records a figure arriving on (`arrived`) or leaving the feature of `node`.
    pub(crate) fn count_figure(&mut self, node: NodeId, arrived: bool) {
        let root = self.root(node) as usize;
        let figures = &mut self.data[root].figures;
        *figures = if arrived { *figures + 1 } else { figures.saturating_sub(1) };
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.parent.capacity() * size_of::<NodeId>()
            + self.next.capacity() * size_of::<NodeId>()
            + self.node_tile.capacity() * size_of::<u16>()
            + self.node_segment.capacity() * size_of::<SegmentIndex>()
            + self.data.capacity() * size_of::<FeatureData>()
            + self.first_node.capacity() * size_of::<NodeId>()
            + self.marks.capacity() * size_of::<u32>()
    }

    /// The root of `node`, pointing every other node on the way at its grandparent (path
    /// halving), so later lookups from anywhere in the feature take fewer steps.
    pub(crate) fn find(&mut self, mut node: NodeId) -> NodeId {
        loop {
            let parent = self.parent[node as usize];
            if parent == node {
                return node;
            }
            let grandparent = self.parent[parent as usize];
            self.parent[node as usize] = grandparent;
            node = grandparent;
        }
    }

    fn union(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return a;
        }
        let (big, small) = if self.data[a as usize].segments >= self.data[b as usize].segments {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.next.swap(big as usize, small as usize);
        let absorbed = self.data[small as usize];
        let data = &mut self.data[big as usize];
        data.open_edges += absorbed.open_edges;
        data.segments += absorbed.segments;
        data.figures += absorbed.figures;
        // Most features carry no mark, and then there is nothing to add; a feature that
        // joins one without marks lends it its slot.
        if absorbed.slot != NO_SLOT {
            if data.slot == NO_SLOT {
                data.slot = absorbed.slot;
            } else {
                let stride = self.stride;
                let (from, to) = (absorbed.slot as usize * stride, data.slot as usize * stride);
                for m in 0..stride {
                    let count = self.marks[from + m];
                    let total = &mut self.marks[to + m];
                    *total = total.saturating_add(count);
                }
            }
        }
        big
    }
}
