//! Properties of whole games: random reachable games over every tile-set combination and
//! rule option, checked after every action against simple, separately written expectations
//! (a flood-fill feature oracle, brute-force placement and figure legality, conservation of
//! figures and tiles, score bookkeeping, save/load and replay).

#[path = "common/oracle.rs"]
mod oracle;

#[path = "common/combinations.rs"]
mod combinations;

#[path = "common/invariants.rs"]
mod invariants;

use std::collections::{BTreeMap, BTreeSet};

use carcassonne::{
    Action, ActionError, BagToken, Catalog, Dir, Drawn, EdgeKind, Effect, Event, FarmScoring,
    Figure, Game, GameSetup, Phase, PlayerId, PlayerSet, Pos, Rotation, RuleOptions, SegmentKind,
    TileIndex, TileType, TitleScoring, UnfinishedMarks,
};
use combinations::COMBINATIONS;
use proptest::prelude::*;

/// A small generator for the choices a random player makes; separate from the engine's.
struct Choices(u64);

impl Choices {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn options_strategy() -> impl Strategy<Value = RuleOptions> {
    (
        any::<bool>(),
        prop::sample::select(vec![
            FarmScoring::PerField,
            FarmScoring::PerFieldOnce,
            FarmScoring::PerCity4,
        ]),
        any::<bool>(),
        prop::sample::select(vec![UnfinishedMarks::Zero, UnfinishedMarks::Normal]),
        any::<bool>(),
        prop::sample::select(vec![
            TitleScoring::Printed,
            TitleScoring::TenEach,
            TitleScoring::FifteenForty,
            TitleScoring::Continuous,
        ]),
    )
        .prop_map(
            |(
                farmers,
                farm_scoring,
                tiny_city,
                inn_cathedral_unfinished,
                abbots,
                title_scoring,
            )| {
                RuleOptions::default()
                    .with_farmers(farmers)
                    .with_farm_scoring(farm_scoring)
                    .with_tiny_city(tiny_city)
                    .with_inn_cathedral_unfinished(inn_cathedral_unfinished)
                    .with_abbots(abbots)
                    .with_title_scoring(title_scoring)
            },
        )
}

fn setup_strategy() -> impl Strategy<Value = GameSetup> {
    (prop::sample::select(COMBINATIONS.to_vec()), 2u8..=6, any::<u64>(), options_strategy())
        .prop_map(|(sets, players, seed, options)| {
            let catalogs: Vec<Catalog> =
                sets.iter().map(|set| Catalog::builtin(set).unwrap()).collect();
            let colours = if sets.contains(&"inns_and_cathedrals") { 6 } else { 5 };
            GameSetup::new(catalogs, players.min(colours)).with_seed(seed).with_options(options)
        })
}

/// Games with the builder, the pig, the shepherd and the hills' hidden tiles, beside sets that
/// meet them: the Cathars' besieged cities (the pig's doubled point), Inns & Cathedrals' big
/// followers, and each other.
fn special_figures_strategy() -> impl Strategy<Value = GameSetup> {
    let combinations: Vec<&[&str]> = vec![
        &["base", "traders_and_builders"],
        &["base", "hills_and_sheep"],
        &["base", "traders_and_builders", "hills_and_sheep", "cathars"],
        &["base", "inns_and_cathedrals", "traders_and_builders", "hills_and_sheep"],
    ];
    (prop::sample::select(combinations), 2u8..=6, any::<u64>(), options_strategy()).prop_map(
        |(sets, players, seed, options)| {
            let catalogs: Vec<Catalog> =
                sets.iter().map(|set| Catalog::builtin(set).unwrap()).collect();
            let colours = if sets.contains(&"inns_and_cathedrals") { 6 } else { 5 };
            GameSetup::new(catalogs, players.min(colours)).with_seed(seed).with_options(options)
        },
    )
}

fn is_river(tile: &TileType) -> bool {
    Dir::ALL.into_iter().any(|dir| tile.edge(dir, Rotation::R0) == EdgeKind::River)
}

/// Whether placing `tile` obeys rules beyond its edges: the river's, or a declared rivalry's
/// limit on its monastery (The Cult). Its discards are not the edges' alone.
fn has_placement_rules(game: &Game, tile: &TileType) -> bool {
    let rivals = game.rules().iter().any(|rule| matches!(rule.effect, Effect::Rival(_)));
    is_river(tile)
        || rivals && tile.segments().iter().any(|segment| segment.kind() == SegmentKind::Monastery)
}

/// Every (cell, rotation) where `tile` touches the board and matches each neighbour's edge,
/// by trying every empty cell next to a tile.
fn brute_force_placements(game: &Game, tile: TileIndex) -> BTreeSet<(Pos, Rotation)> {
    let board = game.board();
    let tiles = game.tiles();
    let edge_at = |pos: Pos, dir: Dir| {
        board.get(pos).map(|placed| tiles[placed.tile as usize].edge(dir, placed.rotation))
    };
    let cells: BTreeSet<Pos> = board
        .tiles()
        .flat_map(|(pos, _)| Dir::ALL.into_iter().filter_map(move |dir| pos.neighbour(dir)))
        .filter(|pos| board.get(*pos).is_none())
        .collect();
    let mut found = BTreeSet::new();
    for pos in cells {
        for rotation in Rotation::ALL {
            let fits = Dir::ALL.into_iter().all(|dir| {
                let Some(next) = pos.neighbour(dir) else { return false };
                edge_at(next, dir.opposite())
                    .is_none_or(|facing| facing == tiles[tile as usize].edge(dir, rotation))
            });
            if fits {
                found.insert((pos, rotation));
            }
        }
    }
    found
}

/// docs/rules.md: who may stand on what.
fn may_stand(kind: SegmentKind, figure: Figure, farmers: bool) -> bool {
    match figure {
        Figure::ABBOT => matches!(kind, SegmentKind::Monastery | SegmentKind::Garden),
        Figure::FOLLOWER | Figure::BIG_FOLLOWER => match kind {
            SegmentKind::City | SegmentKind::Road | SegmentKind::Monastery => true,
            SegmentKind::Field => farmers,
            SegmentKind::Garden | SegmentKind::River => false,
        },
        Figure::BUILDER => matches!(kind, SegmentKind::City | SegmentKind::Road),
        Figure::PIG => kind == SegmentKind::Field && farmers,
        Figure::SHEPHERD => kind == SegmentKind::Field,
        // The oracle knows the published figures only; the random games here play built-in
        // sets.
        other => panic!("the oracle knows no figure {other}"),
    }
}

/// The figure actions docs/rules.md allows on the tile just placed at `placed`, from the
/// oracle's features and the figures on the board.
fn expected_figure_actions(game: &Game, placed: Pos) -> BTreeSet<Action> {
    let features = oracle::flood_fill(game.board(), game.tiles());
    let mut feature_of = BTreeMap::new();
    for (number, (members, _)) in features.iter().enumerate() {
        for node in members {
            feature_of.insert(*node, number);
        }
    }
    let occupied: BTreeSet<usize> = game
        .figures()
        .filter(|figure| is_follower(figure.figure))
        .map(|figure| feature_of[&(figure.pos, figure.segment)])
        .collect();
    let player = game.current_player();
    // Who stands where, for the special figures' conditions (docs/rules.md).
    let on = |feature: usize, which: &dyn Fn(Figure, PlayerId) -> bool| {
        game.figures().any(|figure| {
            feature_of[&(figure.pos, figure.segment)] == feature
                && which(figure.figure, figure.player)
        })
    };
    let supply = game.supply(player);
    let tile = &game.tiles()[game.board().get(placed).unwrap().tile as usize];
    let mut expected = BTreeSet::new();
    for (segment, printed) in tile.segments().iter().enumerate() {
        let feature = feature_of[&(placed, segment as u8)];
        for figure in Figure::PUBLISHED {
            let own_follower = on(feature, &|each, owner| is_follower(each) && owner == player);
            let free = match figure {
                Figure::BUILDER | Figure::PIG => {
                    own_follower && !on(feature, &|each, owner| each == figure && owner == player)
                }
                Figure::SHEPHERD => !on(feature, &|each, _| each == Figure::SHEPHERD),
                _ => !occupied.contains(&feature),
            };
            if supply.count(figure) > 0
                && may_stand(printed.kind(), figure, game.options().farmers)
                && free
            {
                expected.insert(Action::Deploy { segment: segment as u8, figure });
            }
        }
    }
    for figure in game.figures() {
        let surrounded = figure.pos.surrounding().all(|pos| game.board().get(pos).is_some());
        if figure.player == player && figure.figure == Figure::ABBOT && !surrounded {
            expected.insert(Action::RecallAbbot { pos: figure.pos });
        }
    }
    expected.insert(Action::Skip);
    expected
}

/// Whether the published rules make `figure` a follower: it occupies its feature and counts
/// for its majority (written here from the rule books, not read from the sets' declarations).
fn is_follower(figure: Figure) -> bool {
    matches!(figure, Figure::FOLLOWER | Figure::BIG_FOLLOWER | Figure::ABBOT)
}

/// The incremental features equal the flood fill, figures included.
fn assert_features_match(game: &Game) {
    let (board, features, tiles) = (game.board(), game.features(), game.tiles());
    oracle::assert_matches_oracle(features, board, tiles);
    for (members, _) in oracle::flood_fill(board, tiles) {
        let standing = game
            .figures()
            .filter(|figure| {
                is_follower(figure.figure) && members.contains(&(figure.pos, figure.segment))
            })
            .count() as u32;
        let order = board.get(members[0].0).unwrap().order;
        let node = features.node(order, members[0].1).unwrap();
        assert_eq!(features.data(node).figures, standing, "figures on {:?}", members[0]);
    }
}

/// Any action at all, mostly near the board, to try against the game.
fn random_action(game: &Game, choices: &mut Choices) -> Action {
    let near = |choices: &mut Choices| {
        let (mut low, mut high) = (Pos::new(0, 0), Pos::new(0, 0));
        for (pos, _) in game.board().tiles() {
            low = Pos::new(low.x.min(pos.x), low.y.min(pos.y));
            high = Pos::new(high.x.max(pos.x), high.y.max(pos.y));
        }
        let x = i32::from(low.x) - 2 + choices.below((high.x - low.x + 5) as usize) as i32;
        let y = i32::from(low.y) - 2 + choices.below((high.y - low.y + 5) as usize) as i32;
        Pos::new(x as i16, y as i16)
    };
    let figure = Figure::PUBLISHED[choices.below(Figure::PUBLISHED.len())];
    match choices.below(10) {
        0 => Action::Draw,
        1 => Action::DrawTile { tile: choices.below(game.tiles().len() + 2) as TileIndex },
        2 => Action::Place { pos: near(choices), rotation: Rotation::ALL[choices.below(4)] },
        3 => Action::Deploy { segment: choices.below(10) as u8, figure },
        4 => Action::RecallAbbot { pos: near(choices) },
        5 | 6 => {
            // Any of the game's tokens, or one no bag has.
            let kinds = game.bag_kinds();
            let pick = choices.below(kinds.len() + 1);
            let token = kinds
                .get(pick)
                .map_or(BagToken::from_id("nobody").unwrap(), |kind| kind.rule.token);
            Action::DrawToken { token }
        }
        7 => Action::GrowFlock,
        8 => Action::DriveFlock,
        _ => Action::Skip,
    }
}

/// The tokens left, by kind, in the bag of the hoard the game tends now; empty when it
/// tends none.
fn tended_bag(game: &Game) -> Vec<(BagToken, u8)> {
    game.tended_bag().iter().collect()
}

/// Whether the engine should take `action` now: listed, or a named draw the bag allows.
fn is_legal(game: &Game, legal: &[Action], action: Action) -> bool {
    let sheep_phase = matches!(game.phase(), Phase::Sheep { .. });
    match action {
        Action::DrawTile { tile } => game.phase() == Phase::Draw && game.drawable(tile),
        Action::DrawToken { token } => {
            sheep_phase && tended_bag(game).iter().any(|(kind, left)| *kind == token && *left > 0)
        }
        _ => legal.contains(&action),
    }
}

/// Plays one random game to the end, checking every property along the way.
fn play_and_check(setup: GameSetup, moves: u64) {
    let mut game = Game::new(setup).unwrap();
    let mut choices = Choices(moves);
    let players: Vec<PlayerId> = (0..game.players()).map(PlayerId).collect();
    let mut tally = vec![0u32; players.len()];
    let mut game_overs = 0;
    let save_at = choices.below(200);
    let mut legal = Vec::new();
    for step in 0.. {
        if step == save_at {
            invariants::assert_saves_and_replays(&game);
            // Restarting in place is restarting into a new game.
            let mut again = game.clone();
            again.restart(moves);
            assert_eq!(again, game.restarted(moves));
            // Copying into a game that stands elsewhere (a search's buffer) gives the same
            // game as a fresh copy, every field of it: the restarted game has played on.
            let mut played = game.restarted(moves);
            while let Some(action) = played.legal_action(0).filter(|_| played.actions().len() < 9) {
                played.apply(action).unwrap();
            }
            played.clone_from(&game);
            assert_eq!(played, game);
        }
        game.legal_actions_into(&mut legal);
        // Counting and asking by index agree with the list, one past the end is `None`.
        assert_eq!(game.legal_action_count(), legal.len());
        for (index, action) in legal.iter().enumerate() {
            assert_eq!(game.legal_action(index), Some(*action), "action {index} of {legal:?}");
        }
        assert_eq!(game.legal_action(legal.len()), None);

        // The phase machine and the oracles of legality.
        match game.phase() {
            Phase::Draw => assert_eq!(legal, [Action::Draw]),
            Phase::Place { tile } => {
                assert_eq!(game.drawn_tile(), Some(tile));
                let listed: BTreeSet<(Pos, Rotation)> = legal
                    .iter()
                    .map(|action| match *action {
                        Action::Place { pos, rotation } => (pos, rotation),
                        other => panic!("{other:?} listed while placing"),
                    })
                    .collect();
                assert_eq!(listed.len(), legal.len(), "a placement listed twice");
                assert!(!listed.is_empty(), "a tile without a placement was not discarded");
                let brute = brute_force_placements(&game, tile);
                if has_placement_rules(&game, &game.tiles()[tile as usize]) {
                    assert!(listed.is_subset(&brute), "a placement that does not fit");
                    // What the edges allow and the list leaves out, a river or rival rule
                    // refuses by name.
                    for (pos, rotation) in brute.difference(&listed) {
                        let refused = game.check(Action::Place { pos: *pos, rotation: *rotation });
                        assert!(
                            matches!(
                                refused,
                                Err(ActionError::RiverNotContinued { .. }
                                    | ActionError::RiverTurnsBack { .. }
                                    | ActionError::RiverBranchesJoin { .. }
                                    | ActionError::TooManyRivals { .. })
                            ),
                            "{pos:?} {rotation:?}: {refused:?}"
                        );
                    }
                } else {
                    assert_eq!(listed, brute, "placements of tile {tile}");
                }
            }
            Phase::Figure { pos } => {
                let listed: BTreeSet<Action> = legal.iter().copied().collect();
                assert_eq!(listed.len(), legal.len(), "a figure action listed twice");
                assert_eq!(listed, expected_figure_actions(&game, pos));
            }
            Phase::Sheep { .. } => {
                assert_eq!(legal, [Action::Draw]);
                let left: u32 = tended_bag(&game).iter().map(|(_, left)| u32::from(*left)).sum();
                assert!(left > 0, "a draw from an empty bag");
            }
            Phase::Flock { .. } => {
                let grow = tended_bag(&game).iter().any(|(_, left)| *left > 0);
                let expected: &[Action] = if grow {
                    &[Action::GrowFlock, Action::DriveFlock]
                } else {
                    &[Action::DriveFlock]
                };
                assert_eq!(legal, expected);
                let player = game.current_player();
                assert!(
                    game.hoards().iter().any(|flock| flock.player == player),
                    "a flock phase without a shepherd of the player's"
                );
            }
            Phase::GameOver => assert!(legal.is_empty()),
        }

        // Conservation: tiles and figures all accounted for.
        invariants::assert_consistent(&game);
        assert_eq!(game.scores(), tally, "the scores are the sum of the scoring events");

        // Actions the engine must refuse, leaving the game as it was.
        for _ in 0..3 {
            let action = random_action(&game, &mut choices);
            if is_legal(&game, &legal, action) {
                continue;
            }
            let before = game.clone();
            let error = game.check(action).expect_err("check accepted an unlisted action");
            assert_eq!(game.apply(action), Err(error), "{action:?}");
            assert!(game == before, "the refused {action:?} changed the game");
        }

        if game.is_over() {
            break;
        }

        // The move: a listed action, or sometimes a named tile or token instead of a random
        // draw.
        let action = if matches!(game.phase(), Phase::Sheep { .. }) && choices.below(3) == 0 {
            let named: Vec<Action> = tended_bag(&game)
                .into_iter()
                .filter(|(_, left)| *left > 0)
                .map(|(token, _)| Action::DrawToken { token })
                .collect();
            named[choices.below(named.len())]
        } else if game.phase() == Phase::Draw && choices.below(4) == 0 {
            let drawable: Vec<TileIndex> =
                (0..game.tiles().len() as TileIndex).filter(|tile| game.drawable(*tile)).collect();
            for tile in &drawable {
                assert!(game.remaining()[*tile as usize] > 0, "tile {tile} is drawable but gone");
            }
            assert!(!drawable.is_empty(), "tiles are left but none can be drawn");
            Action::DrawTile { tile: drawable[choices.below(drawable.len())] }
        } else {
            legal[choices.below(legal.len())]
        };
        assert_eq!(game.check(action), Ok(()), "{action:?}");
        let scores_before = game.scores().to_vec();
        let events = game.apply(action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
        // Only a step into a flock's choice or draw may pass silently: the choice or the
        // token drawn next tells the story.
        let silent = matches!(game.phase(), Phase::Flock { .. } | Phase::Sheep { .. });
        assert!(!events.is_empty() || silent, "{action:?} told nothing");
        for event in &events {
            match *event {
                Event::FeatureScored(score) => {
                    assert!(!score.scorers.is_empty() || score.points == 0, "{score:?}");
                    for player in score.scorers.iter() {
                        tally[usize::from(player.0)] += score.points;
                    }
                }
                Event::TokensScored { points, scorers, .. } => {
                    for player in scorers.iter() {
                        tally[usize::from(player.0)] += points;
                    }
                }
                Event::TitleScored { player, points, .. } => {
                    tally[usize::from(player.0)] += points;
                }
                Event::ExtraTurn { player } => {
                    assert_eq!(player, game.current_player(), "a second turn for another player");
                    assert!(game.is_second_turn());
                }
                Event::TileDiscarded { tile, .. }
                    if !has_placement_rules(&game, &game.tiles()[tile as usize]) =>
                {
                    assert!(brute_force_placements(&game, tile).is_empty(), "{tile} fitted");
                }
                Event::GameOver { winners } => {
                    game_overs += 1;
                    let best = tally.iter().copied().max().unwrap();
                    let expected: PlayerSet = players
                        .iter()
                        .copied()
                        .filter(|player| tally[usize::from(player.0)] == best)
                        .fold(PlayerSet::EMPTY, PlayerSet::with);
                    assert_eq!(winners, expected);
                }
                _ => {}
            }
        }
        for (after, before) in game.scores().iter().zip(&scores_before) {
            assert!(after >= before, "a score fell");
        }
        if let Phase::Figure { .. } = game.phase() {
            assert_features_match(&game);
        }
    }
    assert_eq!(game_overs, 1, "exactly one game-over event");
    assert_eq!(game.leaders(), {
        let best = *game.scores().iter().max().unwrap();
        players
            .iter()
            .copied()
            .filter(|p| game.scores()[usize::from(p.0)] == best)
            .fold(PlayerSet::EMPTY, PlayerSet::with)
    });
    assert_features_match(&game);
    invariants::assert_saves_and_replays(&game);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 24 }))]

    /// Every property in one walk, because each needs a reachable game to stand on: legal
    /// actions are exactly what docs/rules.md allows and are accepted, anything else is refused
    /// without a trace, nothing is created or lost, the score is its events, and the
    /// incremental features are the board's.
    #[test]
    #[cfg_attr(miri, ignore = "a whole game with every invariant checked after each action takes over 15 minutes under Miri")]
    fn random_games_keep_every_invariant(setup in setup_strategy(), moves in any::<u64>()) {
        play_and_check(setup, moves);
    }
}

/// Plays a random game, reshuffling the bag at random moments, and checks at every action
/// that a reshuffle changes nothing a player can see and keeps the game its own replay: a
/// bot reshuffles its copies so that it cannot know the coming tiles, and that must neither
/// lose nor invent anything.
fn reshuffle_and_check(setup: GameSetup, moves: u64) {
    let mut game = Game::new(setup).unwrap();
    let mut choices = Choices(moves);
    let mut tile_orders_differed = false;
    while !game.is_over() {
        let copy = game.reshuffled(choices.next());
        assert_eq!(copy.phase(), game.phase());
        assert_eq!(copy.board(), game.board());
        assert_eq!(copy.remaining(), game.remaining());
        assert_eq!(copy.scores(), game.scores());
        assert_eq!(copy.discarded(), game.discarded());
        assert_eq!(copy.figures().collect::<Vec<_>>(), game.figures().collect::<Vec<_>>());
        assert_eq!(copy.legal_actions(), game.legal_actions());
        assert!(copy.actions().iter().all(|action| *action != Action::Draw));
        assert_eq!(Game::replay(copy.setup(), copy.actions()).as_ref(), Ok(&copy));
        if game.phase() == Phase::Draw && game.tiles_left() > 4 {
            let (mut original, mut reshuffled) = (game.clone(), copy.clone());
            original.apply(Action::Draw).unwrap();
            reshuffled.apply(Action::Draw).unwrap();
            tile_orders_differed |= original.drawn_tile() != reshuffled.drawn_tile();
        }
        if choices.below(8) == 0 {
            game.reshuffle(choices.next());
        }
        let legal = game.legal_actions();
        game.apply(legal[choices.below(legal.len())]).unwrap();
    }
    assert_eq!(Game::replay(game.setup(), game.actions()).as_ref(), Ok(&game));
    assert!(tile_orders_differed, "no reshuffle ever changed the next tile");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 24 }))]

    /// A reshuffle hides the future and nothing else (see `reshuffle_and_check`).
    #[test]
    #[cfg_attr(miri, ignore = "whole games with a replay after each action")]
    fn reshuffling_changes_only_the_hidden_order(setup in setup_strategy(), moves in any::<u64>()) {
        reshuffle_and_check(setup, moves);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 24 }))]

    /// The builder, the pig, the shepherd and the hidden tiles keep every invariant of
    /// `play_and_check`: their deployments are exactly what docs/rules.md allows, the flock's
    /// tokens are all accounted for, and a reshuffle hides the sheep bag's order as it hides
    /// the tiles'.
    #[test]
    #[cfg_attr(miri, ignore = "whole games with every invariant checked after each action")]
    fn special_figures_keep_every_invariant(setup in special_figures_strategy(), moves in any::<u64>()) {
        play_and_check(setup.clone(), moves);
        reshuffle_and_check(setup, moves);
    }
}

/// Random games with the special figures reach each of their mechanisms: a builder's second
/// turn, a pig paid at the end, a flock grown, driven to market and eaten, a tile hidden. A
/// property that never meets a mechanism proves nothing about it.
#[test]
#[cfg_attr(miri, ignore = "plays hundreds of whole games")]
fn random_games_reach_every_special_mechanism() {
    let sets = ["base", "traders_and_builders", "hills_and_sheep"]
        .map(|set| Catalog::builtin(set).unwrap())
        .to_vec();
    let game = Game::new(GameSetup::new(sets, 3)).unwrap();
    let mut seen = BTreeSet::new();
    let mut choices = Choices(11);
    for seed in 0..300 {
        let mut game = game.restarted(seed);
        while !game.is_over() {
            // Figures are deployed often: the mechanisms need them on the board.
            let count = game.legal_action_count();
            let index = if matches!(game.phase(), Phase::Figure { .. }) && count > 1 {
                choices.below(count - 1)
            } else {
                choices.below(count)
            };
            let action = game.legal_action(index).unwrap();
            for event in game.apply(action).unwrap() {
                seen.insert(match event {
                    Event::ExtraTurn { .. } => "second turn",
                    Event::TileHidden { .. } => "hidden tile",
                    Event::TokenDrawn { drawn, .. } => {
                        let kind = game.bag_kind(drawn);
                        match kind.map(|kind| kind.rule.then) {
                            Some(Drawn::Keep) => "sheep",
                            _ => "wolf",
                        }
                    }
                    Event::FeatureScored(score)
                        if score.reason == carcassonne::ScoreReason::Market =>
                    {
                        if score.complete {
                            "closed field"
                        } else {
                            "market"
                        }
                    }
                    Event::FeatureScored(score)
                        if score
                            .rule
                            .is_some_and(|rule| game.rules()[rule.index()].id == "pig") =>
                    {
                        "pig"
                    }
                    _ => continue,
                });
            }
        }
    }
    let all = ["second turn", "hidden tile", "sheep", "wolf", "market", "closed field", "pig"];
    assert_eq!(seen, all.into_iter().collect(), "mechanisms met in 300 random games");
}
