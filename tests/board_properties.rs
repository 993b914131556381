//! Random tile-only games on the board: placements chosen from the fit table over the
//! frontier, for every built-in set, keep the board's invariants.

mod common;

use carcassonne::{Board, Catalog, Dir};
use proptest::prelude::*;

fn play(catalog: &Catalog, choices: &[u32]) -> (Board, usize) {
    common::random_game(catalog, choices, |_, _| {})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 64 }))]

    /// Every tile's edges match all its neighbours, every tile but the first touches another,
    /// and the frontier is exactly the set of empty cells next to a tile.
    #[test]
    fn random_placement_keeps_the_board_consistent(
        set in prop::sample::select(vec!["base", "base_c2", "inns_and_cathedrals"]),
        choices in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let catalog = Catalog::builtin(set).unwrap();
        let (board, discards) = play(&catalog, &choices);
        prop_assert_eq!(board.len() + discards, catalog.tile_count());
        let mut expected_frontier = Vec::new();
        for (pos, placed) in board.tiles() {
            prop_assert_eq!(placed.edges, catalog.tiles()[placed.tile as usize].edges().rotated(placed.rotation));
            for dir in Dir::ALL {
                let next = pos.neighbour(dir).unwrap();
                match board.get(next) {
                    Some(other) => prop_assert_eq!(placed.edges[dir], other.edges[dir.opposite()]),
                    None if !expected_frontier.contains(&next) => expected_frontier.push(next),
                    None => {}
                }
            }
        }
        for cell in board.frontier_cells() {
            prop_assert_eq!(usize::from(cell.key), board.constraint(cell.pos).key());
        }
        let mut frontier: Vec<carcassonne::Pos> = board.frontier().collect();
        frontier.sort();
        expected_frontier.sort();
        prop_assert_eq!(frontier, expected_frontier);
    }
}

/// The fit table is not too strict: in the base game a drawn tile almost always has a place
/// (the rules' discard clause is for rare dead ends).
#[test]
#[cfg_attr(miri, ignore = "plays 50 whole games")]
fn base_games_rarely_discard() {
    let catalog = Catalog::builtin("base").unwrap();
    let discards: usize =
        (0..50u32).map(|seed| play(&catalog, &[seed.wrapping_mul(2_654_435_761), seed]).1).sum();
    assert!(discards <= 5, "{discards} discards in 50 games");
}
