//! How a turn's thinking budget (a time cap or a number of iterations) is split among the
//! decisions of the turn, so that a whole turn stays within it.

use carcassonne::{Action, Game, Phase};

/// The share of a turn's budget a decision in `game`'s phase may use: `1 − figure_share` for
/// the placement and `figure_share` for the figure; when the figure may lead to a flock's
/// choice in the same turn (Hills & Sheep), half of `figure_share` each for the figure and that
/// choice. A builder's second tile is a turn of its own, as the rules call it.
pub(crate) fn phase_share(game: &Game, figure_share: f64) -> f64 {
    let figure_share = figure_share.clamp(0.0, 1.0);
    match game.phase() {
        Phase::Place { .. } => 1.0 - figure_share,
        Phase::Figure { .. } if !flock_follows(game) => figure_share,
        _ => figure_share / 2.0,
    }
}

/// Whether the figure decision `game` is at leads to a flock's choice: the placed tile
/// extended the field of the player's own shepherd, which shows when the figure is skipped
/// (a figure placed instead leads to the same choice; the one shepherd cannot be both placed
/// and tended in a turn).
fn flock_follows(game: &Game) -> bool {
    let mut skipped = game.clone();
    skipped.apply(Action::Skip).is_ok() && matches!(skipped.phase(), Phase::Flock { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Catalog, Figure, GameSetup, Pos, Rotation};

    /// The decisions of one turn share the budget without passing it: the placement and the
    /// figure, or the placement, the figure and a flock's choice.
    #[test]
    fn a_turns_decisions_share_the_budget() {
        let sets = ["base", "hills_and_sheep"].map(|name| Catalog::builtin(name).unwrap());
        let mut game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let play = |game: &mut Game, id: &str, pos: Pos, figure: Action| {
            let tile = game.tile_by_id(id).unwrap().0;
            game.apply(Action::DrawTile { tile }).unwrap();
            let place = phase_share(game, 0.25);
            game.apply(Action::Place { pos, rotation: Rotation::R0 }).unwrap();
            let figure_share = phase_share(game, 0.25);
            game.apply(figure).unwrap();
            (place, figure_share)
        };
        // The first player's shepherd on the field of a monastery below the first tile.
        let (place, figure) = play(
            &mut game,
            "B",
            Pos::new(0, -1),
            Action::Deploy { segment: 1, figure: Figure::SHEPHERD },
        );
        assert_eq!(place + figure, 1.0);
        game.apply(Action::DrawToken { token: carcassonne::BagToken::from_id("sheep_2").unwrap() })
            .unwrap();
        play(&mut game, "B", Pos::new(-1, -1), Action::Skip);
        // A monastery beside the first extends the shepherd's field: a flock's choice follows.
        let (place, figure) = play(&mut game, "B", Pos::new(1, -1), Action::Skip);
        assert!(matches!(game.phase(), Phase::Flock { .. }), "{:?}", game.phase());
        assert_eq!(place + figure + phase_share(&game, 0.25), 1.0);
        assert_eq!(figure, 0.125);
    }
}
