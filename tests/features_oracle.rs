//! The incremental feature tracking against an oracle: a from-scratch flood fill of the
//! board, written separately and kept simple, after every placement of random games.

use std::collections::{BTreeMap, BTreeSet};

mod common;

use carcassonne::{
    Board, Catalog, Dir, FeatureData, Features, HalfEdge, Mark, Pos, Rotation, SegmentKind,
    TileType,
};
use proptest::prelude::*;

/// A segment on the board: the cell and the segment's index in its tile type.
type Node = (Pos, u8);

/// What the oracle finds for one connected feature.
#[derive(Debug, PartialEq, Eq)]
struct Found {
    kind: SegmentKind,
    open_edges: u32,
    segments: u32,
    pennants: u32,
    inn: bool,
    cathedral: bool,
    tiles: usize,
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
fn flood_fill(board: &Board, tiles: &[TileType]) -> Vec<(Vec<Node>, Found)> {
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
        pennants: 0,
        inn: false,
        cathedral: false,
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
        found.pennants += u32::from(segment.marks().contains(Mark::Pennant));
        found.inn |= segment.marks().contains(Mark::Inn);
        found.cathedral |= segment.marks().contains(Mark::Cathedral);
    }
    found
}

fn incremental(features: &Features, board: &Board, node: Node) -> (u32, Found) {
    let order = board.get(node.0).unwrap().order;
    let id = features.node(order, node.1).unwrap();
    let FeatureData { kind, open_edges, segments, pennants, inn, cathedral, .. } =
        features.data(id);
    let tiles = features.tile_count(id);
    (features.root(id), Found { kind, open_edges, segments, pennants, inn, cathedral, tiles })
}

/// Asserts that the incremental features partition the segments exactly as the flood fill
/// does, with the same data per feature.
fn assert_matches_oracle(features: &Features, board: &Board, tiles: &[TileType]) {
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

/// Plays a random tile-only game, checking the tracker after every placement, including that
/// the cities and roads reported closed are exactly those of the new tile that closed.
fn play_and_check(catalog: &Catalog, choices: &[u32]) {
    let tiles = catalog.tiles();
    let mut features = Features::new();
    common::random_game(catalog, choices, |board, pos| {
        let closed = features.add_tile(board, tiles, pos);
        assert_matches_oracle(&features, board, tiles);
        let order = board.get(pos).unwrap().order;
        let tile = board.get(pos).unwrap().tile;
        let mut expected: Vec<u32> = Vec::new();
        for index in 0..tiles[tile as usize].segments().len() as u8 {
            let (root, data) = incremental(&features, board, (pos, index));
            let scored = matches!(data.kind, SegmentKind::City | SegmentKind::Road);
            if scored && data.open_edges == 0 && !expected.contains(&root) {
                expected.push(root);
            }
            assert_eq!(features.node(order, index).map(|n| features.root(n)), Some(root));
        }
        assert_eq!(closed, expected);
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_features_equal_a_flood_fill(
        set in prop::sample::select(vec!["base", "base_c2", "inns_and_cathedrals", "river"]),
        choices in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        play_and_check(&Catalog::builtin(set).unwrap(), &choices);
    }
}

/// A tile counts once in a city that it enters twice: tile I's two separate caps (east and
/// south) are joined round a corner by three diagonal cities, closing one city of five
/// segments on four tiles.
#[test]
fn a_tile_counts_once_in_a_city_it_enters_twice() {
    let base = Catalog::builtin("base").unwrap();
    let tiles = base.tiles();
    let mut board = Board::new();
    let mut features = Features::new();
    let mut place = |name: &str, x, y, rotation: Rotation| {
        let tile = base.tile_by_id(name).unwrap().0;
        let edges = tiles[tile as usize].edges().rotated(rotation);
        board.place(Pos::new(x, y), tile, rotation, edges).unwrap();
        features.add_tile(&board, tiles, Pos::new(x, y))
    };
    assert!(place("I", 0, 0, Rotation::R0).is_empty());
    assert!(place("N", 1, 0, Rotation::R270).is_empty(), "city on W and S");
    assert!(place("N", 0, -1, Rotation::R90).is_empty(), "city on N and E");
    let closed = place("N", 1, -1, Rotation::R0);
    assert_eq!(closed.len(), 1, "the ring closes one city");
    let city = features.data(closed[0]);
    assert_eq!((city.kind, city.segments, city.open_edges), (SegmentKind::City, 5, 0));
    assert_eq!(features.tile_count(closed[0]), 4);
    assert_matches_oracle(&features, &board, tiles);
}
