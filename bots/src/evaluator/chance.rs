//! Chances: how likely a cell is to be filled, a road or city completed, a monastery kept
//! through its challenges, from the tiles left, as every player can count them.

use carcassonne::{Challenge, FeatureScore, Game, Pos};

use super::Scratch;

/// The share of its value a monastery or garden at `pos` keeps through its challenges: for
/// each rival beside it, the chance it is completed first, guessed from the empty cells each
/// still needs (fewer, sooner). 1 when it has no rival.
pub(super) fn survival(game: &Game, pos: Pos, challenges: &[Challenge]) -> f32 {
    let empty = |at: Pos| at.surrounding().filter(|cell| game.board().get(*cell).is_none()).count();
    let mut keeps = 1.0;
    for challenge in challenges {
        let rival = if challenge.marked == pos {
            challenge.plain
        } else if challenge.plain == pos {
            challenge.marked
        } else {
            continue;
        };
        let (mine, theirs) = (empty(pos) as f32, empty(rival) as f32);
        keeps *= (theirs + 0.5) / (mine + theirs + 1.0);
    }
    keeps
}

/// The root of the feature segment `segment` of the tile at `pos` belongs to.
pub(super) fn root_of(game: &Game, pos: Pos, segment: u8) -> Option<u32> {
    let placed = game.board().get(pos)?;
    let features = game.features();
    Some(features.root(features.node(placed.order, segment)?))
}

/// What a completed city, road, monastery or garden would score as it is now, by the declared
/// rules (the engine's own valuation, so a new set's marks are valued with no code here).
pub(super) fn completed_value(game: &Game, score: &FeatureScore) -> f32 {
    game.feature(score.pos, score.segment)
        .map_or(score.points as f32, |view| view.points_if_complete as f32)
}

/// The chance that the city or road through segment `segment` of the tile at `pos` is
/// completed in `draws` draws: every cell it is open to filled.
pub(super) fn linear_chance(
    game: &Game,
    pos: Pos,
    segment: u8,
    draws: f32,
    scratch: &mut Scratch,
) -> f32 {
    scratch.cells.clear();
    open_cells(game, pos, segment, &mut scratch.cells);
    let cells = std::mem::take(&mut scratch.cells);
    let chance = cells.iter().map(|cell| fill_chance(game, *cell, draws, scratch)).product();
    scratch.cells = cells;
    chance
}

/// The empty cells the feature through segment `segment` of the tile at `pos` is open to.
fn open_cells(game: &Game, pos: Pos, segment: u8, cells: &mut Vec<Pos>) {
    let board = game.board();
    let features = game.features();
    let Some(placed) = board.get(pos) else { return };
    let Some(node) = features.node(placed.order, segment) else { return };
    for (order, member) in features.members(node) {
        let Some(&(at, tile)) = game.placements().get(usize::from(order)) else { continue };
        let (Some(tile), Some(lying)) = (game.tile(tile), board.get(at)) else { continue };
        let Some(printed) = tile.segments().get(usize::from(member)) else { continue };
        for dir in printed.rotated(lying.rotation).edges().iter() {
            if let Some(next) = at.neighbour(dir)
                && board.get(next).is_none()
                && !cells.contains(&next)
            {
                cells.push(next);
            }
        }
    }
}

/// The chance that some tile fills `cell` in `draws` draws: a frontier cell by the share of
/// tiles left that fit it, a cell not yet next to the board at half the rate of an average
/// cell, since it needs a neighbour first.
pub(super) fn fill_chance(game: &Game, cell: Pos, draws: f32, scratch: &mut Scratch) -> f32 {
    let left = game.tiles_left();
    if left == 0 {
        return 0.0;
    }
    let fitting = match game.board().frontier_key(cell) {
        Some(key) => fitting_tiles(game, key, scratch),
        None => left / 4,
    };
    let miss = 1.0 - fitting as f32 / left as f32;
    1.0 - miss.powf(draws)
}

/// How many tiles left fit a frontier cell with constraint key `key` in some rotation.
fn fitting_tiles(game: &Game, key: u16, scratch: &mut Scratch) -> u32 {
    if let Some((_, count)) = scratch.fits.iter().find(|(k, _)| *k == key) {
        return *count;
    }
    let table = game.fit_table();
    let count = game
        .remaining()
        .iter()
        .enumerate()
        .filter(|(tile, count)| {
            **count > 0 && !table.rotations_by_key(*tile as u16, key).is_empty()
        })
        .map(|(_, count)| u32::from(*count))
        .sum();
    scratch.fits.push((key, count));
    count
}
