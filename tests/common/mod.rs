//! Shared by the integration tests: random tile-only games from a list of random choices.

use carcassonne::engine::FitTable;
use carcassonne::{Board, Catalog, Pos, Rotation, TileIndex};

/// Shuffles the whole deck of `catalog` with `choices`, lays the first tile at the origin
/// and every other at a random legal spot (discarding a tile with none), calling `placed`
/// after each placement. Returns the board and the number of discards.
pub fn random_game(
    catalog: &Catalog,
    choices: &[u32],
    mut placed: impl FnMut(&Board, Pos),
) -> (Board, usize) {
    let tiles = catalog.tiles();
    let table = FitTable::new(tiles.iter().map(|tile| tile.edges()));
    let mut deck: Vec<TileIndex> = Vec::new();
    for (index, tile) in tiles.iter().enumerate() {
        deck.extend(std::iter::repeat_n(index as TileIndex, usize::from(tile.count())));
    }
    let mut choices = choices.iter().copied().cycle();
    for i in (1..deck.len()).rev() {
        deck.swap(i, choices.next().unwrap() as usize % (i + 1));
    }
    let mut board = Board::new();
    let first = deck.pop().unwrap();
    board.place(Pos::ORIGIN, first, Rotation::R0, tiles[first as usize].edges()).unwrap();
    placed(&board, Pos::ORIGIN);
    let mut discards = 0;
    for tile in deck {
        let options: Vec<(Pos, Rotation)> = board
            .frontier()
            .flat_map(|pos| {
                table.rotations(tile, board.constraint(pos)).iter().map(move |r| (pos, r))
            })
            .collect();
        if options.is_empty() {
            discards += 1;
            continue;
        }
        let (pos, rotation) = options[choices.next().unwrap() as usize % options.len()];
        let edges = tiles[tile as usize].edges().rotated(rotation);
        board.place(pos, tile, rotation, edges).expect("the fit table offers only legal spots");
        placed(&board, pos);
    }
    (board, discards)
}
