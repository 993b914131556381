//! Figures as their sets declare them: an author's `[[figure]]` changes where a figure stands,
//! whom it joins and whom it keeps out, and the engine plays what the table says with no code
//! of its own. Each position starts from a built-in set whose figure table is rewritten; for
//! strength, farm_bonus, recall and flock the points are exact, worked out by hand.

#[path = "common/giant.rs"]
mod giant;

use carcassonne::{
    Action, ActionError, BagToken, Catalog, Figure, Forbidden, Game, GameSetup, Landscape,
    LandscapeFigure, LandscapeOptions, LandscapeTile, PlayerId, Pos, Rotation, RuleOptions,
    SegmentKind,
};
use giant::{giant, with_giant};

/// The built-in set `set` with `from` replaced by `to` in its file (which must hold it).
fn rewritten(set: &str, from: &str, to: &str) -> Catalog {
    let text = std::fs::read_to_string(format!("tilesets/{set}.toml")).unwrap();
    assert!(text.contains(from), "{set}.toml no longer declares {from:?}");
    Catalog::from_toml("rewritten.toml", &text.replace(from, to))
        .unwrap_or_else(|problems| panic!("{problems}"))
}

fn game_of(sets: Vec<Catalog>, options: RuleOptions) -> Game {
    Game::new(GameSetup::new(sets, 2).with_options(options)).unwrap()
}

fn put(game: &mut Game, id: &str, x: i16, y: i16, degrees: u16) {
    let tile = game.tile_by_id(id).unwrap().0;
    game.apply(Action::DrawTile { tile }).unwrap();
    let rotation = Rotation::try_from(degrees).unwrap();
    game.apply(Action::Place { pos: Pos::new(x, y), rotation }).unwrap();
}

fn refused(game: &Game, action: Action) -> ActionError {
    let error = game.check(action).expect_err("the action should be refused");
    assert!(!game.legal_actions().contains(&action), "{action:?} is listed but refused");
    error
}

/// A big follower declared to stand on cities only is refused on a road, with the reason its
/// table gives, and is not offered there; the follower still is.
#[test]
fn stands_on_limits_where_a_figure_goes() {
    let giants = rewritten(
        "inns_and_cathedrals",
        "strength = 2\nstands_on = [\"city\", \"road\", \"field\", \"monastery\", \"garden\"]",
        "strength = 2\nstands_on = [\"city\"]",
    );
    let mut game = game_of(vec![Catalog::builtin("base").unwrap(), giants], RuleOptions::default());
    // D at (1, 0): city 0, road 1, fields 2 and 3.
    put(&mut game, "D", 1, 0, 0);
    let error = refused(&game, Action::Deploy { segment: 1, figure: Figure::BIG_FOLLOWER });
    assert_eq!(
        error,
        ActionError::FigureNotAllowed {
            figure: Figure::BIG_FOLLOWER,
            kind: SegmentKind::Road,
            why: Forbidden::StandsOnlyOn([SegmentKind::City].into_iter().collect()),
        }
    );
    assert_eq!(
        error.to_string(),
        "a big follower cannot stand on a road; it stands only on a city"
    );
    assert_eq!(game.check(Action::Deploy { segment: 0, figure: Figure::BIG_FOLLOWER }), Ok(()));
    assert_eq!(game.check(Action::Deploy { segment: 1, figure: Figure::FOLLOWER }), Ok(()));
}

/// A follower declared no farmer stands in a field even when the game plays without farmers;
/// the published follower, a farmer, does not.
#[test]
fn a_figure_that_is_no_farmer_stands_in_fields_without_farmers() {
    let options = RuleOptions::default().with_farmers(false);
    let published = game_of(vec![Catalog::builtin("base").unwrap()], options);
    let herders = rewritten(
        "base",
        "stands_on = [\"city\", \"road\", \"field\", \"monastery\", \"garden\"]\nfarmer = true",
        "stands_on = [\"city\", \"road\", \"field\", \"monastery\", \"garden\"]",
    );
    let declared = game_of(vec![herders], options);
    for mut game in [published, declared] {
        put(&mut game, "D", 1, 0, 0);
        let farmer = Action::Deploy { segment: 2, figure: Figure::FOLLOWER };
        let farmer_rule = game.figure_rule(Figure::FOLLOWER).unwrap().farmer;
        if farmer_rule {
            assert_eq!(
                refused(&game, farmer),
                ActionError::FigureNotAllowed {
                    figure: Figure::FOLLOWER,
                    kind: SegmentKind::Field,
                    why: Forbidden::NoFarmers,
                }
            );
        } else {
            assert!(game.legal_actions().contains(&farmer));
        }
    }
}

/// The published shepherd keeps every other shepherd out of its field (`alone = "all"`); one
/// declared `alone = "owner"` lets the other player's shepherd join it.
#[test]
fn alone_decides_whose_figures_keep_a_companion_out() {
    let from = "alone = \"all\"\n";
    let sharing = rewritten("hills_and_sheep", from, "alone = \"owner\"\n");
    for (set, second_may_join) in
        [(Catalog::builtin("hills_and_sheep").unwrap(), false), (sharing, true)]
    {
        let mut game =
            game_of(vec![Catalog::builtin("base").unwrap(), set], RuleOptions::default());
        // Red's shepherd in the field south of the start tile's road (U at (1, 0) turned 90:
        // field 1 south of the road, which is the start tile's south field).
        put(&mut game, "U", 1, 0, 90);
        game.apply(Action::Deploy { segment: 1, figure: Figure::SHEPHERD }).unwrap();
        game.apply(Action::DrawToken { token: BagToken::from_id("sheep_1").unwrap() }).unwrap();
        // Green extends the same field with a straight road at (-1, 0).
        put(&mut game, "U", -1, 0, 90);
        let join = Action::Deploy { segment: 1, figure: Figure::SHEPHERD };
        if second_may_join {
            assert!(game.legal_actions().contains(&join), "{:?}", game.legal_actions());
        } else {
            assert!(matches!(refused(&game, join), ActionError::FigureAlreadyThere { .. }));
        }
    }
}

/// The published pig joins only a field where its owner has a farmer (`joins =
/// "own_follower"`); one declared `joins = "any"` goes into an empty field.
#[test]
fn joins_decides_whether_a_companion_needs_its_owners_follower() {
    let anywhere = rewritten(
        "traders_and_builders",
        "joins = \"own_follower\"\nfarm_bonus = true",
        "farm_bonus = true",
    );
    for (set, alone_allowed) in
        [(Catalog::builtin("traders_and_builders").unwrap(), false), (anywhere, true)]
    {
        let mut game =
            game_of(vec![Catalog::builtin("base").unwrap(), set], RuleOptions::default());
        put(&mut game, "U", 1, 0, 90);
        let pig = Action::Deploy { segment: 1, figure: Figure::PIG };
        if alone_allowed {
            assert!(game.legal_actions().contains(&pig));
        } else {
            assert!(matches!(refused(&game, pig), ActionError::NeedsOwnFollower { .. }));
        }
    }
}

/// Two sets declaring one figure differently cannot share a game, whichever is listed first.
#[test]
fn a_figure_declared_differently_by_two_sets_refuses_the_game() {
    let giants = rewritten("inns_and_cathedrals", "strength = 2", "strength = 3");
    let giants = rewritten_ids(giants);
    let sets = [Catalog::builtin("inns_and_cathedrals").unwrap(), giants];
    let clashes = carcassonne::clashes(&sets);
    let messages: Vec<String> = clashes.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        ["`giants` declares figure `big_follower` differently from `inns_and_cathedrals`; sets \
          that share a figure must declare it alike"]
    );
    let error = Game::new(GameSetup::new(sets.to_vec(), 2)).map(|_| ()).unwrap_err();
    assert_eq!(error, clashes[0]);
}

/// `catalog` under the set id `giants`, each tile id prefixed `G`, so that it shares no tile
/// with the set it was copied from.
fn rewritten_ids(catalog: Catalog) -> Catalog {
    let text = catalog.to_toml().replace("id = \"inns_and_cathedrals\"", "id = \"giants\"");
    let ids: Vec<String> = catalog.tiles().iter().map(|tile| tile.id().to_owned()).collect();
    let mut text = text;
    for id in ids {
        text = text.replace(&format!("id = \"{id}\""), &format!("id = \"G{id}\""));
    }
    Catalog::from_toml("giants.toml", &text).unwrap_or_else(|problems| panic!("{problems}\n{text}"))
}

/// The points of a landscape of `sets` scored as a finished game: `tiles` as (id, x, y,
/// degrees), `figures` as (player, figure, x, y, segment).
fn landscape_points(
    sets: Vec<Catalog>,
    tiles: &[(&str, i16, i16, u16)],
    figures: &[(u8, Figure, i16, i16, u8)],
) -> Vec<u32> {
    let landscape = Landscape {
        catalogs: sets,
        tiles: tiles
            .iter()
            .map(|&(tile, x, y, degrees)| LandscapeTile {
                tile: tile.to_owned(),
                x,
                y,
                rotation: Rotation::try_from(degrees).unwrap(),
            })
            .collect(),
        figures: figures
            .iter()
            .map(|&(player, figure, x, y, segment)| LandscapeFigure {
                player: PlayerId(player),
                figure,
                x,
                y,
                segment,
            })
            .collect(),
    };
    landscape.score(&LandscapeOptions::default()).unwrap().total
}

/// A city of three tiles (a cap, a city from north to south, a cap): complete, 2 points a
/// tile, 6 in all [base rules: a completed city scores 2 a tile]. Red has one big follower in
/// it, green two followers.
fn three_tile_city(big_follower_set: Catalog) -> Vec<u32> {
    landscape_points(
        vec![Catalog::builtin("base").unwrap(), big_follower_set],
        &[("E", 0, 1, 180), ("G", 0, 0, 0), ("E", 0, -1, 0)],
        &[
            (0, Figure::BIG_FOLLOWER, 0, 1, 0),
            (1, Figure::FOLLOWER, 0, 0, 0),
            (1, Figure::FOLLOWER, 0, -1, 0),
        ],
    )
}

/// `strength` decides the majority, with exact points: the published big follower counts as
/// two followers [HiG Inns & Cathedrals rules 2002, "The big follower"], so red's one
/// ties green's two and both score the city's 6; declared at 3 it wins the city alone, and
/// declared at 1 it loses it.
#[test]
fn strength_decides_who_scores_a_city() {
    let published = Catalog::builtin("inns_and_cathedrals").unwrap();
    assert_eq!(three_tile_city(published), [6, 6]);
    let strong = rewritten("inns_and_cathedrals", "strength = 2", "strength = 3");
    assert_eq!(three_tile_city(strong), [6, 0]);
    let weak = rewritten("inns_and_cathedrals", "strength = 2", "strength = 1");
    assert_eq!(three_tile_city(weak), [0, 6]);
}

/// `farm_bonus` decides whether a pig raises its farm's value, with exact points: two city
/// caps make a completed city, and the field of the southern cap borders it. Red's farmer
/// there scores 3 for the city [base rules: 3 a completed city], and 4 with red's published
/// pig beside it ["4 instead of 3 points for each castle", Hans im Glück's Traders & Builders
/// rules, docs/sources/traders_and_builders.md];
/// a pig declared without `farm_bonus` adds nothing.
#[test]
fn farm_bonus_decides_what_a_pig_adds_to_a_farm() {
    let farm = |set: Catalog, pig: bool| {
        let mut figures = vec![(0, Figure::FOLLOWER, 0, 0, 1)];
        if pig {
            figures.push((0, Figure::PIG, 0, 0, 1));
        }
        landscape_points(
            vec![Catalog::builtin("base").unwrap(), set],
            &[("E", 0, 0, 0), ("E", 0, 1, 180)],
            &figures,
        )
    };
    let published = || Catalog::builtin("traders_and_builders").unwrap();
    assert_eq!(farm(published(), false), [3]);
    assert_eq!(farm(published(), true), [4]);
    let plain = rewritten("traders_and_builders", "farm_bonus = true\n", "");
    assert_eq!(farm(plain, true), [3]);
}

/// `recall` decides whether an abbot may come home early, with exact points: red's abbot on a
/// monastery south of the start tile, with the start tile and two more neighbours, is
/// recalled for 4 points, one a tile of the monastery's 3×3 [The Abbot, wikicarpedia: its
/// owner may take it back, scoring it as at the end of the game]; an abbot declared without
/// `recall` is never offered it, and the request is refused.
#[test]
fn recall_decides_whether_an_abbot_comes_home_early() {
    let options = RuleOptions::default().with_abbots(true);
    let no_recall = rewritten("base", "recall = true\n", "");
    for (set, recalls) in [(Catalog::builtin("base").unwrap(), true), (no_recall, false)] {
        let mut game = game_of(vec![set], options);
        // A (a monastery, its road leading south) at (0, -1), under the start tile's field.
        put(&mut game, "A", 0, -1, 0);
        game.apply(Action::Deploy { segment: 0, figure: Figure::ABBOT }).unwrap();
        // Green: E at (1, -1), a neighbour of the monastery; no figure.
        put(&mut game, "E", 1, -1, 0);
        game.apply(Action::Skip).unwrap();
        // Red again: B (a monastery in a field) at (-1, -1), the third neighbour; the figure
        // step offers the recall.
        put(&mut game, "B", -1, -1, 0);
        let recall = Action::RecallAbbot { pos: Pos::new(0, -1) };
        if recalls {
            assert!(game.legal_actions().contains(&recall), "{:?}", game.legal_actions());
            let before = game.scores()[0];
            game.apply(recall).unwrap();
            // The monastery, the start tile, E and B: 4 of its 3×3.
            assert_eq!(game.scores()[0] - before, 4);
        } else {
            assert!(game.check(recall).is_err());
            assert!(!game.legal_actions().contains(&recall));
        }
    }
}

/// `extended = "extra_turn"` gives the builder's owner a second turn when their tile extends
/// the builder's road [docs/sources/traders_and_builders.md; docs/rules.md "The builder and
/// the pig"]; a builder
/// declared without it gives none, and the turn passes to green.
#[test]
fn extra_turn_gives_the_builders_owner_a_second_turn() {
    let idle = rewritten("traders_and_builders", "extended = \"extra_turn\"\n", "");
    for (set, second_turn) in
        [(Catalog::builtin("traders_and_builders").unwrap(), true), (idle, false)]
    {
        let mut game =
            game_of(vec![Catalog::builtin("base").unwrap(), set], RuleOptions::default());
        // Red: V at (1, 0) continues the start tile's road east and turns it south; a follower
        // on it.
        put(&mut game, "V", 1, 0, 0);
        game.apply(Action::Deploy { segment: 0, figure: Figure::FOLLOWER }).unwrap();
        // Green: a city cap north of the start tile.
        put(&mut game, "E", 0, 1, 180);
        game.apply(Action::Skip).unwrap();
        // Red: U at (1, -1) extends the road; the builder joins red's follower on it.
        put(&mut game, "U", 1, -1, 0);
        game.apply(Action::Deploy { segment: 0, figure: Figure::BUILDER }).unwrap();
        assert_eq!(game.current_player(), PlayerId(1));
        // Green: a monastery in the field east of V.
        put(&mut game, "B", 2, 0, 0);
        game.apply(Action::Skip).unwrap();
        // Red: U at (1, -2) extends the builder's road again.
        put(&mut game, "U", 1, -2, 0);
        game.apply(Action::Skip).unwrap();
        let next = if second_turn { PlayerId(0) } else { PlayerId(1) };
        assert_eq!(game.current_player(), next, "second turn: {second_turn}");
    }
}

/// `draws = "flock"` with `extended = "draw_or_cash"` keeps a flock for the shepherd, with exact points: red's shepherd
/// draws a token of 3 sheep, and when red's next tile extends its field, driving the flock
/// to market after the figure step pays 3, a point a sheep [wikicarpedia, "Hills & Sheep";
/// docs/rules.md "The shepherd and the flock"]. A shepherd declared without it draws nothing
/// and is never asked.
#[test]
fn flock_keeps_a_flock_that_pays_a_point_a_sheep() {
    let shepherdless =
        rewritten("hills_and_sheep", "draws = \"flock\"\nextended = \"draw_or_cash\"\n", "");
    for (set, flocks) in
        [(Catalog::builtin("hills_and_sheep").unwrap(), true), (shepherdless, false)]
    {
        let mut game =
            game_of(vec![Catalog::builtin("base").unwrap(), set], RuleOptions::default());
        // Red's shepherd in the field south of the start tile's road (U at (1, 0) turned 90).
        put(&mut game, "U", 1, 0, 90);
        game.apply(Action::Deploy { segment: 1, figure: Figure::SHEPHERD }).unwrap();
        if flocks {
            assert!(matches!(game.phase(), carcassonne::Phase::Sheep { .. }));
            game.apply(Action::DrawToken { token: BagToken::from_id("sheep_3").unwrap() }).unwrap();
        }
        // Green: a city cap north of the start tile.
        put(&mut game, "E", 0, 1, 180);
        game.apply(Action::Skip).unwrap();
        // Red: U at (-1, 0) turned 90 extends the same field west; after the figure step
        // comes the flock's.
        put(&mut game, "U", -1, 0, 90);
        game.apply(Action::Skip).unwrap();
        if flocks {
            assert!(matches!(game.phase(), carcassonne::Phase::Flock { .. }));
            let before = game.scores()[0];
            game.apply(Action::DriveFlock).unwrap();
            assert_eq!(game.scores()[0] - before, 3);
        } else {
            assert!(!game.legal_actions().contains(&Action::DriveFlock));
            assert!(game.check(Action::DriveFlock).is_err());
        }
    }
}

/// A bag of an author's own is played by its declaration alone: the shepherd's flock bag
/// rewritten to hold gold (worth 5, kept) and a thief (sends home), 2 points a unit of worth.
/// Red's shepherd draws the gold, named; its hoard is worth 5, and driving it to market pays
/// 5 × 2 = 10. A second shepherd drawing the thief goes home at once with nothing, the thief
/// back in the bag. (No published set has this bag; the rule it follows is Hills & Sheep's
/// market, "every shepherd receives those points" [wikicarpedia, "Hills & Sheep"].)
#[test]
fn an_authors_bag_is_drawn_kept_and_cashed_as_declared() {
    let flock = std::fs::read_to_string("tilesets/hills_and_sheep.toml").unwrap();
    let start = flock.find("\n[[bag]]").unwrap() + 1;
    let end = start + flock[start..].find("]\n\n").unwrap() + 1;
    let gold = "[[bag]]\nid = \"flock\"\npoints = 2\ntokens = [\n  { id = \"gold\", count = 1, worth = 5 },\n  { id = \"thief\", count = 1, then = \"send_home\" },\n]";
    let hoarders = rewritten("hills_and_sheep", &flock[start..end], gold);
    let mut game =
        game_of(vec![Catalog::builtin("base").unwrap(), hoarders], RuleOptions::default());
    let token = |id| BagToken::from_id(id).unwrap();
    assert_eq!(serde_json::to_string(&game.bag()).unwrap(), r#"{"gold":1,"thief":1}"#);
    put(&mut game, "U", 1, 0, 90);
    game.apply(Action::Deploy { segment: 1, figure: Figure::SHEPHERD }).unwrap();
    assert_eq!(
        game.check(Action::DrawToken { token: token("sheep_3") }),
        Err(ActionError::TokenNotInBag { token: token("sheep_3"), then: None })
    );
    let events = game.apply(Action::DrawToken { token: token("gold") }).unwrap();
    assert!(events.iter().any(|event| matches!(
        event,
        carcassonne::Event::TokenDrawn { drawn, .. } if *drawn == token("gold")
    )));
    assert_eq!(game.hoards()[0].worth(game.bag_kinds()), 5);
    // Green's shepherd north of the road, on a straight road east of red's, draws the thief
    // and goes home.
    put(&mut game, "U", 2, 0, 90);
    game.apply(Action::Deploy { segment: 2, figure: Figure::SHEPHERD }).unwrap();
    let before = game.clone();
    let thief = Action::DrawToken { token: token("thief") };
    let events = game.apply(thief).unwrap();
    assert!(events.iter().any(|event| matches!(
        event,
        carcassonne::Event::FigureReturned { figure: Figure::SHEPHERD, player: PlayerId(1), .. }
    )));
    assert_eq!(game.hoards().len(), 1);
    assert_eq!(game.bag().count(token("thief")), 1, "the thief goes back into the bag");
    assert_eq!(
        before.clone().apply(Action::DrawToken { token: token("gold") }),
        Err(ActionError::TokenNotInBag {
            token: token("gold"),
            then: Some(carcassonne::Drawn::Keep)
        }),
        "the gold is red's now"
    );
    // Red: U at (-1, 0) extends the same field west; red drives the hoard to market.
    put(&mut game, "U", -1, 0, 90);
    game.apply(Action::Skip).unwrap();
    assert!(matches!(game.phase(), carcassonne::Phase::Flock { .. }));
    let before = game.scores()[0];
    game.apply(Action::DriveFlock).unwrap();
    assert_eq!(game.scores()[0] - before, 10);
    assert!(game.hoards().is_empty());
    assert_eq!(game.bag().total(), 2, "every token back in the bag");
}

/// An author's own figure is played by its declaration alone: it has its place after the
/// published follower, its count in the supply (and the supply's JSON), its deployments listed
/// after the follower's on each segment it may stand on, refusals in its own words, events and
/// saves that name it, and once deployed none left.
#[test]
fn an_authors_own_figure_plays_as_declared() {
    let mut game = game_of(vec![with_giant()], RuleOptions::default());
    assert_eq!(game.figure_kinds().collect::<Vec<_>>(), [Figure::FOLLOWER, giant()]);
    let red = PlayerId(0);
    assert_eq!(serde_json::to_string(&game.supply(red)).unwrap(), r#"{"follower":7,"giant":1}"#);
    // D at (1, 0): city 0, road 1, fields 2 and 3.
    put(&mut game, "D", 1, 0, 0);
    let deploy = |segment, figure| Action::Deploy { segment, figure };
    assert_eq!(
        game.legal_actions(),
        [
            deploy(0, Figure::FOLLOWER),
            deploy(0, giant()),
            deploy(1, Figure::FOLLOWER),
            deploy(1, giant()),
            deploy(2, Figure::FOLLOWER),
            deploy(3, Figure::FOLLOWER),
            Action::Skip,
        ]
    );
    assert_eq!(
        refused(&game, deploy(2, giant())).to_string(),
        "a giant cannot stand on a field; it stands only on a city or a road"
    );
    let events = game.apply(deploy(0, giant())).unwrap();
    let placed = serde_json::to_string(&events[0]).unwrap();
    assert!(placed.contains(r#""figure":"giant""#), "{placed}");
    assert_eq!(game.supply(red).count(giant()), 0);
    assert_eq!(game.in_hand(red, giant()), 0);
    assert_eq!(game.in_hand(red, Figure::FOLLOWER), 7);
    let saved = serde_json::to_string(&game).unwrap();
    let loaded: Game = serde_json::from_str(&saved).unwrap();
    assert!(loaded == game, "a save of a game with an author's figure loads back equal");
    // Green passes; red's next tile offers no giant, and naming it is refused.
    put(&mut game, "E", 0, 1, 180);
    game.apply(Action::Skip).unwrap();
    put(&mut game, "D", 2, 0, 0);
    assert!(game.legal_actions().iter().all(|action| *action != deploy(0, giant())));
    assert_eq!(refused(&game, deploy(0, giant())), ActionError::NoneLeft { figure: giant() });
}

/// A figure the game's sets do not declare is refused with its name, whatever its id, and a
/// text that is no figure id is refused where actions are read.
#[test]
fn a_figure_no_set_declares_is_refused() {
    let mut game = game_of(vec![Catalog::builtin("base").unwrap()], RuleOptions::default());
    put(&mut game, "D", 1, 0, 0);
    let wagon = Figure::from_id("wagon").unwrap();
    let error = refused(&game, Action::Deploy { segment: 0, figure: wagon });
    assert_eq!(error.to_string(), "the player has no wagon left");
    for bad in ["", "Wagon", "9lives", "a_very_long_figure_id", "wagon!"] {
        assert!(Figure::from_id(bad).is_none(), "{bad:?}");
        let json = format!(r#""{bad}""#);
        assert!(serde_json::from_str::<Figure>(&json).is_err(), "{json}");
    }
}

/// The giant's strength decides a majority it shares with the published follower, with exact
/// points: in the city of three tiles, red's giant (3) beats green's two followers (2) and
/// red alone scores the city's 6 [base rules: a completed city scores 2 a tile; the
/// majority takes it].
#[test]
fn an_authors_figure_counts_its_strength_in_a_majority() {
    let points = landscape_points(
        vec![with_giant()],
        &[("E", 0, 1, 180), ("G", 0, 0, 0), ("E", 0, -1, 0)],
        &[(0, giant(), 0, 1, 0), (1, Figure::FOLLOWER, 0, 0, 0), (1, Figure::FOLLOWER, 0, -1, 0)],
    );
    assert_eq!(points, [6, 0]);
}

/// More kinds of follower than a game holds are refused in the file that declares them, and
/// in a game of sets that together declare them.
#[test]
fn too_many_kinds_of_figure_are_refused() {
    let figure = |n: usize| {
        format!(
            "[[figure]]\nid = \"f{n}\"\nper_player = 1\nrole = \"follower\"\nstands_on = [\"city\"]\n\n"
        )
    };
    let nine: String = (0..=carcassonne::MAX_FOLLOWER_KINDS).map(figure).collect();
    let text = std::fs::read_to_string("tilesets/base.toml").unwrap();
    let crowded = text.replacen("[[figure]]", &format!("{nine}[[figure]]"), 1);
    let problems = Catalog::from_toml("crowded.toml", &crowded).unwrap_err().to_string();
    assert!(problems.contains("a set declares at most 8 kinds of follower"), "{problems}");
    // Eight in each set (the base game's follower and abbot and six more; Inns & Cathedrals'
    // big follower and two more), eleven together.
    let six: String = (0..6).map(figure).collect();
    let first = Catalog::from_toml(
        "first.toml",
        &text.replacen("[[figure]]", &format!("{six}[[figure]]"), 1),
    )
    .unwrap_or_else(|problems| panic!("{problems}"));
    let second = rewritten_ids(
        Catalog::from_toml(
            "second.toml",
            &std::fs::read_to_string("tilesets/inns_and_cathedrals.toml").unwrap().replacen(
                "[[figure]]",
                &format!("{}{}[[figure]]", figure(6), figure(7)),
                1,
            ),
        )
        .unwrap_or_else(|problems| panic!("{problems}")),
    );
    let error = Game::new(GameSetup::new(vec![first, second], 2)).map(|_| ()).unwrap_err();
    assert_eq!(error.to_string(), "the tile sets declare more than 8 kinds of follower together");
}
