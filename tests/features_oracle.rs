//! The incremental feature tracking against an oracle: a from-scratch flood fill of the
//! board, written separately and kept simple, after every placement of random games.

mod common;
#[path = "common/oracle.rs"]
mod oracle;

use carcassonne::engine::Features;
use carcassonne::{Board, Catalog, Pos, Rotation, SegmentKind};
use oracle::{assert_matches_oracle, incremental};
use proptest::prelude::*;

/// Plays a random tile-only game, checking the tracker after every placement, including that
/// the cities and roads reported closed are exactly those of the new tile that closed.
fn play_and_check(catalog: &Catalog, choices: &[u32]) {
    let tiles = catalog.tiles();
    let mut features = Features::with_capacity(0, 0, catalog.marks().len());
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
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 48 }))]

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
