//! Invariants of a game that hold in every reachable state, shared by the game properties
//! here and the hardening properties of `properties/`.

use carcassonne::{Action, Game, Phase, PlayerId};

/// Whatever the history, the game's own accounts agree: every legal action passes `check`,
/// the phase admits what is listed, tiles and figures are all accounted for.
pub(crate) fn assert_consistent(game: &Game) {
    let legal = game.legal_actions();
    for action in &legal {
        assert_eq!(game.check(*action), Ok(()), "{action:?} is listed but refused");
    }
    match game.phase() {
        Phase::Draw => assert_eq!(legal, [Action::Draw]),
        Phase::Place { tile } => {
            assert_eq!(game.drawn_tile(), Some(tile));
            assert!(!legal.is_empty(), "a drawn tile without a placement was not discarded");
            assert!(legal.iter().all(|action| matches!(action, Action::Place { .. })));
        }
        Phase::Figure { .. } => assert!(legal.contains(&Action::Skip)),
        Phase::Sheep { .. } => assert_eq!(legal, [Action::Draw]),
        Phase::Flock { .. } => assert_eq!(legal.last(), Some(&Action::DriveFlock)),
        Phase::GameOver => assert!(legal.is_empty() && game.is_over()),
    }
    let in_hand = u64::from(matches!(game.phase(), Phase::Place { .. }));
    let total: u64 = game.catalogs().iter().map(|catalog| catalog.tile_count() as u64).sum();
    assert_eq!(
        game.board().len() as u64
            + u64::from(game.tiles_left())
            + u64::from(game.discarded())
            + u64::from(game.hidden_tiles())
            + in_hand,
        total,
        "tiles placed + left + discarded + hidden + in hand"
    );
    assert_eq!(
        game.remaining().iter().map(|count| u64::from(*count)).sum::<u64>(),
        u64::from(game.tiles_left()) + u64::from(game.hidden_tiles()),
        "the bag holds the tiles left and those hidden under hills"
    );
    // Every bag token is in its bag or beside a figure drawing from it.
    let kept: u32 =
        game.hoards().iter().map(|hoard| hoard.contents(game.bag_kinds()).total()).sum();
    assert_eq!(
        game.bag().total() + kept,
        game.restarted(game.seed()).bag().total(),
        "bag tokens lost or made"
    );
    for hoard in game.hoards() {
        assert!(
            game.figures().any(|figure| (figure.pos, figure.segment) == (hoard.pos, hoard.segment)
                && game.figure_rule(figure.figure).is_some_and(|rule| rule.draws.is_some())),
            "a hoard without its figure"
        );
    }
    let fresh = game.restarted(game.seed());
    for player in (0..game.players()).map(PlayerId) {
        let supply = game.supply(player);
        for figure in game.figure_kinds() {
            let on_board =
                game.figures().filter(|f| f.player == player && f.figure == figure).count();
            assert_eq!(
                usize::from(supply.count(figure)) + on_board,
                usize::from(fresh.supply(player).count(figure)),
                "{figure:?}s of {player:?} are not all accounted for"
            );
        }
    }
    assert_eq!(game.scores().len(), usize::from(game.players()));
}

/// Saving and loading, replaying and cloning each give back an equal game.
pub(crate) fn assert_saves_and_replays(game: &Game) {
    let json = serde_json::to_string(game).expect("a game writes as JSON");
    let loaded: Game = serde_json::from_str(&json)
        .unwrap_or_else(|error| panic!("a game's own save was refused: {error}"));
    assert!(loaded == *game, "save and load changed the game");
    let replayed = Game::replay(game.setup(), game.actions()).expect("a game replays");
    assert!(replayed == *game, "replaying changed the game");
    assert!(game.clone() == *game, "a clone differs");
    assert_eq!(serde_json::to_string(&loaded).expect("JSON"), json, "the save is not stable");
}
