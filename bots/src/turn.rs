//! A turn as a search sees it: the placements of the drawn tile that give distinct boards,
//! and each placement's figure choices.

use carcassonne::{Action, Game, Phase, Rotation, TileType};

/// One way to play a whole turn: the drawn tile's placement, then a figure action (a deploy,
/// an abbot's recall, or a skip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnOption {
    /// The [`Action::Place`].
    pub place: Action,
    /// The action of the figure phase that follows it.
    pub figure: Action,
}

/// The legal placements of the drawn tile, less those that give the same board as another:
/// of the rotations that turn a symmetric tile into itself (a straight road turned half way,
/// the four-sided city), only the first is kept. Empty outside the place phase.
///
/// ```
/// use carcassonne::{Action, Catalog, Game, GameSetup};
/// use carcassonne_bots::distinct_placements;
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// let (straight_road, _) = game.tile_by_id("U").unwrap();
/// game.apply(Action::DrawTile { tile: straight_road })?;
/// let mut distinct = Vec::new();
/// distinct_placements(&game, &mut distinct);
/// assert_eq!(distinct.len() * 2, game.legal_actions().len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn distinct_placements(game: &Game, out: &mut Vec<Action>) {
    game.legal_actions_into(out);
    let Phase::Place { tile } = game.phase() else {
        out.clear();
        return;
    };
    let Some(tile) = game.tile(tile) else { return };
    let redundant = redundant_rotations(tile);
    if redundant != [false; 4] {
        out.retain(|action| match action {
            Action::Place { rotation, .. } => !redundant[rotation.quarter_turns()],
            _ => true,
        });
    }
}

/// For each rotation, whether a smaller rotation turns the tile into the same tile.
fn redundant_rotations(tile: &TileType) -> [bool; 4] {
    let shape = |rotation: Rotation| {
        let mut segments: Vec<_> = tile
            .segments()
            .iter()
            .map(|segment| {
                let turned = segment.rotated(rotation);
                (
                    turned.kind() as u8,
                    turned.edges().iter().map(|dir| 1u8 << dir.index()).sum::<u8>(),
                    turned.half_edges().bits(),
                    turned.marks(),
                    turned.cities().len(),
                )
            })
            .collect();
        segments.sort_unstable();
        segments
    };
    let shapes: Vec<_> = Rotation::ALL.into_iter().map(shape).collect();
    core::array::from_fn(|turns| (0..turns).any(|earlier| shapes[earlier] == shapes[turns]))
}

/// Calls `each` with every whole-turn option from a game in the place phase (each distinct
/// placement with each of its figure actions) and the game after it. Each placement is
/// applied once, to a copy its figure actions share.
///
/// ```
/// use carcassonne::{Action, Catalog, Game, GameSetup, Phase};
/// use carcassonne_bots::each_turn_option;
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// game.apply(Action::Draw)?;
/// let mut options = 0;
/// each_turn_option(&game, |option, after| {
///     assert!(matches!(option.place, Action::Place { .. }));
///     assert_eq!(after.phase(), Phase::Draw);
///     options += 1;
/// });
/// assert!(options > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn each_turn_option(game: &Game, mut each: impl FnMut(TurnOption, &Game)) {
    let mut placements = Vec::new();
    distinct_placements(game, &mut placements);
    let mut figures = Vec::new();
    // Two games copied into again and again (`clone_from` reuses their memory): a turn on a
    // large board copies it hundreds of times, and fresh copies cost more than the search.
    let (mut placed, mut after) = (game.clone(), game.clone());
    for place in placements {
        placed.clone_from(game);
        if placed.apply(place).is_err() {
            continue;
        }
        placed.legal_actions_into(&mut figures);
        for figure in &figures {
            after.clone_from(&placed);
            if after.apply(*figure).is_ok() {
                each(TurnOption { place, figure: *figure }, &after);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Catalog, GameSetup};

    #[test]
    fn symmetric_tiles_lose_their_repeated_rotations() {
        let game = Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap();
        let redundant = |id: &str| redundant_rotations(game.tile_by_id(id).unwrap().1);
        // C: a city on all four sides; U: a straight road; E: a city on one side.
        assert_eq!(redundant("C"), [false, true, true, true]);
        assert_eq!(redundant("U"), [false, false, true, true]);
        assert_eq!(redundant("E"), [false; 4]);
        // B, the monastery alone in a field, looks the same every way round.
        assert_eq!(redundant("B"), [false, true, true, true]);
    }
}
