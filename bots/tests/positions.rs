//! Hand-built positions where one move is clearly best, and the bots that must find it.

use carcassonne::{Action, Catalog, Figure, Game, GameSetup, Pos, Rotation, SegmentKind};
use carcassonne_bots::{Bot, Evaluator, GreedyBot, MctsBot, MctsConfig, Playout};

/// Plays one whole turn for the player to move: draws tile `id`, lays it at `(x, y)` turned
/// `quarter_turns` clockwise, and deploys a follower on its first segment of `kind`.
fn turn(
    game: &mut Game,
    id: &str,
    (x, y): (i16, i16),
    quarter_turns: usize,
    kind: Option<SegmentKind>,
) {
    let (tile, tile_type) = game.tile_by_id(id).unwrap();
    let segment = kind.map(|kind| {
        tile_type.segments().iter().position(|segment| segment.kind() == kind).unwrap() as u8
    });
    game.apply(Action::DrawTile { tile }).unwrap();
    let rotation = Rotation::from_quarter_turns(quarter_turns);
    game.apply(Action::Place { pos: Pos::new(x, y), rotation }).unwrap();
    let figure = match segment {
        Some(segment) => Action::Deploy { segment, figure: Figure::Follower },
        None => Action::Skip,
    };
    game.apply(figure).unwrap();
}

fn base_game() -> Game {
    Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap()
}

/// Red holds a city of four tiles and two pennants going north from the start tile; red
/// draws the city cap E, which closes it for 14 points where it lies upside down.
fn city_to_close() -> (Game, Action) {
    let mut game = base_game();
    turn(&mut game, "G", (0, 1), 0, Some(SegmentKind::City));
    turn(&mut game, "U", (1, 0), 1, None);
    turn(&mut game, "F", (0, 2), 1, None);
    turn(&mut game, "U", (-1, 0), 1, None);
    turn(&mut game, "F", (0, 3), 1, None);
    turn(&mut game, "U", (2, 0), 1, None);
    let (cap, _) = game.tile_by_id("E").unwrap();
    game.apply(Action::DrawTile { tile: cap }).unwrap();
    (game, Action::Place { pos: Pos::new(0, 4), rotation: Rotation::R180 })
}

/// Red has a follower on the monastery below the start tile, with seven of its eight
/// neighbours filled; red draws the last monastery B, which fills the eighth cell.
fn monastery_to_complete() -> (Game, Action) {
    let mut game = base_game();
    turn(&mut game, "B", (0, -1), 0, Some(SegmentKind::Monastery));
    turn(&mut game, "U", (1, 0), 1, None);
    turn(&mut game, "U", (-1, 0), 1, None);
    turn(&mut game, "B", (-1, -1), 0, None);
    turn(&mut game, "B", (1, -1), 0, None);
    turn(&mut game, "A", (-1, -2), 0, None);
    turn(&mut game, "A", (1, -2), 0, None);
    turn(&mut game, "U", (2, 0), 1, None);
    let (monastery, _) = game.tile_by_id("B").unwrap();
    game.apply(Action::DrawTile { tile: monastery }).unwrap();
    (game, Action::Place { pos: Pos::new(0, -2), rotation: Rotation::R0 })
}

fn bots() -> Vec<Box<dyn Bot>> {
    let search = MctsConfig { iterations: 1500, playout: Playout::None, ..MctsConfig::default() };
    vec![
        Box::new(GreedyBot::new("greedy", 1, Evaluator::default(), 0.0)),
        Box::new(MctsBot::new("mcts", 1, search)),
    ]
}

#[test]
fn bots_close_the_big_city() {
    let (game, best) = city_to_close();
    assert!(game.legal_actions().len() > 10, "the cap has other places to go");
    for bot in bots() {
        let seat = game.current_player();
        assert_eq!(bot.choose(&game, seat).unwrap(), best, "{}", bot.name());
        let mut closed = game.clone();
        closed.apply(best).unwrap();
        closed.apply(bot.choose(&closed, seat).unwrap()).unwrap();
        assert_eq!(closed.scores()[0], 14, "the city scores 5 tiles and 2 pennants, twice");
    }
}

#[test]
fn bots_complete_the_monastery() {
    let (game, best) = monastery_to_complete();
    for bot in bots() {
        let seat = game.current_player();
        assert_eq!(bot.choose(&game, seat).unwrap(), best, "{}", bot.name());
        let mut completed = game.clone();
        completed.apply(best).unwrap();
        completed.apply(bot.choose(&completed, seat).unwrap()).unwrap();
        assert_eq!(completed.scores()[0], 9);
    }
}
