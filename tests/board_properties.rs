//! Random tile-only games on the board: placements chosen from the fit table over the
//! frontier, for every built-in set, keep the board's invariants.

use carcassonne::{Board, Catalog, Dir, FitTable, Pos, Rotation, TileIndex};
use proptest::prelude::*;

/// Places a shuffled deck of `catalog`, each tile at a random legal spot (or discarded when
/// none exists), and returns the board with the number of discards.
fn play(catalog: &Catalog, choices: &[u32]) -> (Board, usize) {
    let table = FitTable::new(catalog.tiles().iter().map(|tile| tile.edges()));
    let mut deck: Vec<TileIndex> = Vec::new();
    for (index, tile) in catalog.tiles().iter().enumerate() {
        deck.extend(std::iter::repeat_n(index as TileIndex, usize::from(tile.count())));
    }
    let mut choices = choices.iter().copied().cycle();
    for i in (1..deck.len()).rev() {
        deck.swap(i, choices.next().unwrap() as usize % (i + 1));
    }
    let mut board = Board::new();
    let first = deck.pop().unwrap();
    board.place(Pos::ORIGIN, first, Rotation::R0, catalog.tiles()[first as usize].edges()).unwrap();
    let mut discards = 0;
    for tile in deck {
        let options: Vec<(Pos, Rotation)> = board
            .frontier()
            .iter()
            .flat_map(|pos| {
                table.rotations(tile, board.constraint(*pos)).iter().map(move |r| (*pos, r))
            })
            .collect();
        if options.is_empty() {
            discards += 1;
            continue;
        }
        let (pos, rotation) = options[choices.next().unwrap() as usize % options.len()];
        let edges = catalog.tiles()[tile as usize].edges().rotated(rotation);
        board.place(pos, tile, rotation, edges).expect("the fit table offers only legal spots");
    }
    (board, discards)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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
        let mut frontier = board.frontier().to_vec();
        frontier.sort();
        expected_frontier.sort();
        prop_assert_eq!(frontier, expected_frontier);
    }
}

/// The fit table is not too strict: in the base game a drawn tile almost always has a place
/// (the rules' discard clause is for rare dead ends).
#[test]
fn base_games_rarely_discard() {
    let catalog = Catalog::builtin("base").unwrap();
    let discards: usize =
        (0..50u32).map(|seed| play(&catalog, &[seed.wrapping_mul(2_654_435_761), seed]).1).sum();
    assert!(discards <= 5, "{discards} discards in 50 games");
}
