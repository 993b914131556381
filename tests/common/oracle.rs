//! The independent feature oracle shared by the integration tests: a from-scratch flood fill
//! of the board, written separately from the incremental tracker and kept simple.

use std::collections::{BTreeMap, BTreeSet};

use carcassonne::engine::{FeatureData, Features};
use carcassonne::{Board, Dir, HalfEdge, MarkCounts, Pos, Rotation, SegmentKind, TileType};

/// A segment on the board: the cell and the segment's index in its tile type.
pub type Node = (Pos, u8);

/// What the oracle finds for one connected feature.
#[derive(Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: SegmentKind,
    pub open_edges: u32,
    pub segments: u32,
    /// How many segments carry each mark (a flag mark counted per segment too: the tracker
    /// counts, and scoring reads a flag as present or not).
    pub marks: MarkCounts,
    pub tiles: usize,
}

fn tile_at<'a>(board: &Board, tiles: &'a [TileType], pos: Pos) -> Option<(&'a TileType, Rotation)> {
    let placed = board.get(pos)?;
    Some((&tiles[placed.tile as usize], placed.rotation))
}

/// The segment of the tile at `pos` that reaches its (rotated) edge `dir`, found by scanning
/// the segments with their rotated edges.
fn segment_on_edge(board: &Board, tiles: &[TileType], pos: Pos, dir: Dir) -> Option<u8> {
    let (tile, rotation) = tile_at(board, tiles, pos)?;
    tile.segments()
        .iter()
        .position(|segment| segment.rotated(rotation).edges().contains(dir))
        .map(|index| index as u8)
}

fn field_on_half(board: &Board, tiles: &[TileType], pos: Pos, half: HalfEdge) -> Option<u8> {
    let (tile, rotation) = tile_at(board, tiles, pos)?;
    tile.segments()
        .iter()
        .position(|segment| segment.rotated(rotation).half_edges().contains(half))
        .map(|index| index as u8)
}

/// Connected features by breadth-first search over segments touching across edges.
pub fn flood_fill(board: &Board, tiles: &[TileType]) -> Vec<(Vec<Node>, Found)> {
    let mut seen: BTreeSet<Node> = BTreeSet::new();
    let mut features = Vec::new();
    for (pos, placed) in board.tiles() {
        let tile = &tiles[placed.tile as usize];
        for start in 0..tile.segments().len() as u8 {
            if !seen.insert((pos, start)) {
                continue;
            }
            let mut members = vec![(pos, start)];
            let mut queue = vec![(pos, start)];
            while let Some((at, index)) = queue.pop() {
                let (tile, rotation) = tile_at(board, tiles, at).unwrap();
                let segment = tile.segments()[index as usize].rotated(rotation);
                let mut touching = Vec::new();
                for dir in segment.edges().iter() {
                    if let Some(next) = at.neighbour(dir).filter(|next| board.get(*next).is_some())
                    {
                        touching.extend(
                            segment_on_edge(board, tiles, next, dir.opposite()).map(|s| (next, s)),
                        );
                    }
                }
                for half in segment.half_edges().iter() {
                    if let Some(next) = at.neighbour(half.dir()).filter(|n| board.get(*n).is_some())
                    {
                        touching.extend(
                            field_on_half(board, tiles, next, half.facing()).map(|s| (next, s)),
                        );
                    }
                }
                for node in touching {
                    if seen.insert(node) {
                        members.push(node);
                        queue.push(node);
                    }
                }
            }
            let found = describe(board, tiles, &members);
            features.push((members, found));
        }
    }
    features
}

fn describe(board: &Board, tiles: &[TileType], members: &[Node]) -> Found {
    let mut found = Found {
        kind: SegmentKind::River,
        open_edges: 0,
        segments: members.len() as u32,
        marks: MarkCounts::default(),
        tiles: members.iter().map(|(pos, _)| *pos).collect::<BTreeSet<_>>().len(),
    };
    for (pos, index) in members {
        let (tile, rotation) = tile_at(board, tiles, *pos).unwrap();
        let segment = tile.segments()[*index as usize].rotated(rotation);
        found.kind = segment.kind();
        found.open_edges += segment
            .edges()
            .iter()
            .filter(|dir| board.get(pos.neighbour(*dir).unwrap()).is_none())
            .count() as u32;
        for mark in segment.marks().iter() {
            found.marks.0[mark.index()] += 1;
        }
    }
    found
}

pub fn incremental(features: &Features, board: &Board, node: Node) -> (u32, Found) {
    let order = board.get(node.0).unwrap().order;
    let id = features.node(order, node.1).unwrap();
    let FeatureData { kind, open_edges, segments, .. } = features.data(id);
    let tiles = features.tile_count(id);
    let marks = features.marks(id);
    (features.root(id), Found { kind, open_edges, segments, marks, tiles })
}

/// Asserts that the incremental features partition the segments exactly as the flood fill
/// does, with the same data per feature.
pub fn assert_matches_oracle(features: &Features, board: &Board, tiles: &[TileType]) {
    let mut root_of_feature: BTreeMap<u32, usize> = BTreeMap::new();
    for (number, (members, found)) in flood_fill(board, tiles).into_iter().enumerate() {
        let (root, data) = incremental(features, board, members[0]);
        assert_eq!(data, found, "feature at {:?}", members[0]);
        assert_eq!(root_of_feature.insert(root, number), None, "two features share a root");
        for node in &members[1..] {
            assert_eq!(incremental(features, board, *node).0, root, "{node:?} split off");
        }
    }
}
