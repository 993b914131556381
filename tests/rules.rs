//! The rules of docs/rules.md, one test per subtlety: hand-built positions played through the
//! API.
//!
//! Scoring rules are data: `tests/scenarios/*.toml` (format in its README) name a deck, the
//! turns and the exact points, and each file runs as its own test below. Rules about what is
//! refused, what a turn emits and how the River and the abbot behave are Rust tests after them.

use std::collections::BTreeMap;
use std::path::Path;

use carcassonne::{
    Action, ActionError, BagToken, Catalog, Dir, EdgeKind, Event, FeatureScore, Figure, Forbidden,
    Game, GameSetup, MarkCounts, Phase, PlacementError, PlayerId, PlayerSet, Pos, Rotation, RuleId,
    RuleOptions, ScoreReason, SegmentKind, SetupError, TileIndex, TitleId, TokenId,
};
use serde::Deserialize;

// ----- Driving a game by tile id -----

/// A game of the built-in sets `sets` in full, for rules that need no end of game.
fn new_game(sets: &[&str], players: u8, options: RuleOptions) -> Game {
    let catalogs = sets.iter().map(|set| Catalog::builtin(set).unwrap()).collect();
    Game::new(GameSetup::new(catalogs, players).with_options(options)).unwrap()
}

/// The number of tile type `id` in `game`.
fn tile(game: &Game, id: &str) -> TileIndex {
    game.tile_by_id(id).unwrap_or_else(|| panic!("no tile `{id}` in this game")).0
}

fn pos(x: i16, y: i16) -> Pos {
    Pos::new(x, y)
}

fn rotation(degrees: u16) -> Rotation {
    Rotation::try_from(degrees).unwrap()
}

/// Draws tile `id` by name; the events of the draw.
fn draw(game: &mut Game, id: &str) -> Vec<Event> {
    let tile = tile(game, id);
    game.apply(Action::DrawTile { tile }).unwrap_or_else(|e| panic!("drawing {id}: {e}"))
}

/// Draws tile `id` and places it at (x, y) turned `degrees` clockwise; the placement's events.
fn put(game: &mut Game, id: &str, x: i16, y: i16, degrees: u16) -> Vec<Event> {
    draw(game, id);
    let place = Action::Place { pos: pos(x, y), rotation: rotation(degrees) };
    game.apply(place).unwrap_or_else(|e| panic!("placing {id} at ({x}, {y}) {degrees}: {e}"))
}

/// Deploys `figure` on segment `segment` of the tile just placed; the turn's remaining events.
fn deploy(game: &mut Game, segment: u8, figure: Figure) -> Vec<Event> {
    game.apply(Action::Deploy { segment, figure })
        .unwrap_or_else(|e| panic!("deploying a {figure} on segment {segment}: {e}"))
}

/// Ends the figure step without a figure.
fn skip(game: &mut Game) -> Vec<Event> {
    game.apply(Action::Skip).unwrap()
}

/// Applies an action that must be refused, checks that `check` gives the same reason and that
/// the game is exactly as before, and returns the reason.
fn refuse(game: &mut Game, action: Action) -> ActionError {
    let before = game.clone();
    let error = game.apply(action).expect_err("the action should be refused");
    assert_eq!(*game, before, "{action:?} was refused ({error}) but changed the game");
    assert_eq!(game.check(action), Err(error), "check and apply disagree on {action:?}");
    error
}

/// The built-in set `set` cut down to the tiles `tiles` (id, count; the start tile's copy
/// counts), every tile as the set defines it: a deck small enough for a test to play out.
fn cut_down(set: &str, tiles: &BTreeMap<String, u16>) -> Catalog {
    cut_down_catalog(set, &Catalog::builtin(set).unwrap(), tiles)
}

/// `catalog` (called `set` in messages) cut down as [`cut_down`] does.
fn cut_down_catalog(set: &str, catalog: &Catalog, tiles: &BTreeMap<String, u16>) -> Catalog {
    let text = catalog.to_toml();
    let mut blocks = text.split("\n[[tile]]\n");
    let head = blocks.next().unwrap();
    let mut kept = Vec::new();
    let mut body = String::new();
    for block in blocks {
        let id = quoted(block.lines().find(|line| line.starts_with("id = ")).unwrap())[0];
        let Some(count) = tiles.get(id) else { continue };
        kept.push(id);
        body.push_str("\n[[tile]]\n");
        for line in block.lines() {
            if line.starts_with("count = ") {
                body.push_str(&format!("count = {count}\n"));
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    for id in tiles.keys() {
        assert!(kept.contains(&id.as_str()), "set `{set}` has no tile `{id}`");
    }
    let mut out = String::new();
    for line in head.lines() {
        if line.starts_with("start = ") && !kept.contains(&quoted(line)[0]) {
            continue;
        }
        if line.starts_with("last = ") {
            let last: Vec<String> = quoted(line)
                .into_iter()
                .filter(|id| kept.contains(id))
                .map(|id| format!("\"{id}\""))
                .collect();
            if !last.is_empty() {
                out.push_str(&format!("last = [{}]\n", last.join(", ")));
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&body);
    Catalog::from_toml(&format!("{set} (cut down)"), &out)
        .unwrap_or_else(|problems| panic!("cutting down {set}:\n{problems}\n{out}"))
}

/// The double-quoted strings of a line of canonical tile set text.
fn quoted(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

// ----- Scenario files -----

/// One `tests/scenarios/*.toml` file; see the README there.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    rule: String,
    players: u8,
    deck: Vec<DeckPart>,
    step: Vec<Step>,
    variant: Vec<Variant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckPart {
    set: Option<String>,
    /// A tile set file, relative to the repository (cut down to `tiles` like a built-in set).
    file: Option<String>,
    #[serde(default)]
    tiles: BTreeMap<String, u16>,
    toml: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    player: Option<u8>,
    tile: String,
    at: [i16; 2],
    rotation: Rotation,
    deploy: Option<Deploy>,
    recall: Option<[i16; 2]>,
    /// The sheep tokens drawn in the step (Hills & Sheep), in order: for a shepherd just
    /// deployed, then for a flock grown; the sheep a token shows, 0 for a wolf.
    #[serde(default)]
    draws: Vec<u8>,
    /// The flock's step, when the tile extended the field of the player's shepherd: `grow` or
    /// `drive`.
    flock: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deploy {
    segment: u8,
    figure: Figure,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Variant {
    #[serde(default)]
    options: RuleOptions,
    scores: Vec<u32>,
    #[serde(default)]
    scored: Vec<Scored>,
    /// Every TokensTaken event of the game, in order (default none).
    #[serde(default)]
    taken: Vec<Taken>,
    /// Every TokensScored event of the final scoring, in order (default none).
    #[serde(default)]
    majority: Vec<Majority>,
    /// Every TitleTaken event of the game, in order (default none).
    #[serde(default)]
    title_taken: Vec<TitleTaken>,
    /// Every TitleScored event, in order: of the final scoring, or during play under
    /// `title_scoring = "continuous"` (default none).
    #[serde(default)]
    title_scored: Vec<TitleScored>,
    /// The steps that gave their player a second turn (a builder's road or city grew), in
    /// order (default none).
    #[serde(default)]
    extra_turns: Vec<usize>,
    /// Tiles hidden under hills at the end, when given.
    hidden_tiles: Option<u32>,
}

/// A TitleTaken event: the step, the new holder, the title by id, the winning size.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct TitleTaken {
    step: usize,
    player: u8,
    title: String,
    tiles: u32,
}

/// A TitleScored event: the title by id, its holder, the features counted, the points.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct TitleScored {
    title: String,
    player: u8,
    features: u32,
    points: u32,
}

/// A TokensTaken event as a scenario states it: the step, the taker, the kind by id, how many.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Taken {
    step: usize,
    player: u8,
    token: String,
    count: u32,
}

/// A TokensScored event: the kind by id, how many the scorers hold, the points each scores.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Majority {
    token: String,
    held: u32,
    points: u32,
    scorers: PlayerSet,
}

/// A FeatureScored event as a scenario states it: everything but where the engine reports
/// the feature, plus the step that scored it and the figures that went home right after.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scored {
    step: Option<usize>,
    kind: SegmentKind,
    reason: ScoreReason,
    complete: bool,
    tiles: u32,
    /// Each declared mark the feature carries, by id, with its count (default none).
    #[serde(default)]
    marks: BTreeMap<String, u32>,
    #[serde(default)]
    cities: u32,
    /// The declared rule that set the value, by id (default none: the plain value).
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    farmers: bool,
    points: u32,
    scorers: PlayerSet,
    #[serde(default)]
    returned: usize,
}

impl Scored {
    fn observed(game: &Game, score: &FeatureScore, step: usize, returned: usize) -> Scored {
        let marks = score
            .marks
            .iter()
            .map(|(mark, count)| (game.marks()[mark.index()].id.clone(), count))
            .collect();
        let rule = score.rule.map(|rule| game.rules()[rule.index()].id.clone());
        Scored {
            step: (score.reason != ScoreReason::GameEnd).then_some(step),
            kind: score.kind,
            reason: score.reason,
            complete: score.complete,
            tiles: score.tiles,
            marks,
            cities: score.cities,
            rule,
            farmers: score.farmers,
            points: score.points,
            scorers: score.scorers,
            returned,
        }
    }

    /// Where the final scoring must put this entry: roads, cities, monasteries and gardens,
    /// then fields (and, under per_city_4, cities paying their farmers).
    fn final_rank(&self) -> u8 {
        match (self.farmers, self.kind) {
            (true, _) => 3,
            (false, SegmentKind::Road) => 0,
            (false, SegmentKind::City) => 1,
            (false, _) => 2,
        }
    }
}

fn load_scenario(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/scenarios/{name}.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn scenario_catalogs(scenario: &Scenario) -> Vec<Catalog> {
    scenario
        .deck
        .iter()
        .map(|part| match (&part.set, &part.file, &part.toml) {
            (Some(set), None, None) => cut_down(set, &part.tiles),
            (None, Some(file), None) => {
                let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
                let text = std::fs::read_to_string(&path).unwrap();
                let catalog = Catalog::from_toml(file, &text).unwrap();
                cut_down_catalog(file, &catalog, &part.tiles)
            }
            (None, None, Some(text)) => Catalog::from_toml("inline", text).unwrap(),
            _ => panic!(
                "a deck part names a built-in `set`, a tile set `file`, or an inline `toml` set"
            ),
        })
        .collect()
}

/// Plays scenario `name` under each of its variants and checks every score.
fn run_scenario(name: &str) {
    let scenario = load_scenario(name);
    let catalogs = scenario_catalogs(&scenario);
    for (index, variant) in scenario.variant.iter().enumerate() {
        let context = format!("{name} (variant {}): {}", index + 1, scenario.rule);
        let setup =
            GameSetup::new(catalogs.clone(), scenario.players).with_options(variant.options);
        let mut game = Game::new(setup).unwrap();
        let mut events: Vec<(usize, Event)> = Vec::new();
        for (number, step) in (1..).zip(&scenario.step) {
            let at = format!("{context}: step {number}");
            if let Some(player) = step.player {
                assert_eq!(game.current_player(), PlayerId(player), "{at}: whose turn");
            }
            let mut turn = draw(&mut game, &step.tile);
            assert!(
                !turn.iter().any(|event| matches!(event, Event::TileDiscarded { .. })),
                "{at}: {} was discarded",
                step.tile
            );
            let place = Action::Place { pos: pos(step.at[0], step.at[1]), rotation: step.rotation };
            turn.extend(game.apply(place).unwrap_or_else(|e| panic!("{at}: {e}")));
            let figure = match (&step.deploy, step.recall) {
                (None, None) => Action::Skip,
                (Some(Deploy { segment, figure }), None) => {
                    Action::Deploy { segment: *segment, figure: *figure }
                }
                (None, Some([x, y])) => Action::RecallAbbot { pos: pos(x, y) },
                (Some(_), Some(_)) => panic!("{at}: deploy or recall, not both"),
            };
            turn.extend(game.apply(figure).unwrap_or_else(|e| panic!("{at}: {e}")));
            let mut draws = step.draws.iter();
            loop {
                let action = match game.phase() {
                    Phase::Sheep { .. } => match draws.next() {
                        // Scenario files name a token by the sheep it shows, 0 for the wolf.
                        Some(0) => Action::DrawToken { token: BagToken::from_id("wolf").unwrap() },
                        Some(sheep) => Action::DrawToken {
                            token: BagToken::from_id(&format!("sheep_{sheep}")).unwrap(),
                        },
                        None => panic!("{at}: a sheep token is drawn, and `draws` names none"),
                    },
                    Phase::Flock { .. } => match step.flock.as_deref() {
                        Some("grow") => Action::GrowFlock,
                        Some("drive") => Action::DriveFlock,
                        other => {
                            panic!("{at}: the flock's step is `grow` or `drive`, not {other:?}")
                        }
                    },
                    _ => break,
                };
                turn.extend(game.apply(action).unwrap_or_else(|e| panic!("{at}: {e}")));
            }
            assert!(draws.next().is_none(), "{at}: `draws` names more tokens than were drawn");
            events.extend(turn.into_iter().map(|event| (number, event)));
        }
        assert!(game.is_over(), "{context}: the deck should be used up after the last step");

        let mut during = Vec::new();
        let mut at_end = Vec::new();
        let mut totals = vec![0; usize::from(scenario.players)];
        let token_id = |token: TokenId| game.tokens()[token.index()].id.clone();
        let mut taken = Vec::new();
        let mut majority = Vec::new();
        let title_id = |title: TitleId| game.titles()[title.index()].id.clone();
        let (mut title_taken, mut title_scored) = (Vec::new(), Vec::new());
        for (index, (step, event)) in events.iter().enumerate() {
            if let Event::TokensTaken { player, token, count, .. } = *event {
                let token = token_id(token);
                taken.push(Taken { step: *step, player: player.0, token, count });
            }
            if let Event::TitleTaken { player, title, tiles, .. } = *event {
                let title = title_id(title);
                title_taken.push(TitleTaken { step: *step, player: player.0, title, tiles });
            }
            if let Event::TitleScored { title, player, features, points } = *event {
                totals[player.index()] += points;
                let title = title_id(title);
                title_scored.push(TitleScored { title, player: player.0, features, points });
            }
            if let Event::TokensScored { token, held, points, scorers } = *event {
                for player in scorers.iter() {
                    totals[player.index()] += points;
                }
                majority.push(Majority { token: token_id(token), held, points, scorers });
            }
            let Event::FeatureScored(score) = event else { continue };
            for player in score.scorers.iter() {
                totals[player.index()] += score.points;
            }
            let returned = events[index + 1..]
                .iter()
                .take_while(|(_, event)| matches!(event, Event::FigureReturned { .. }))
                .count();
            let scored = Scored::observed(&game, score, *step, returned);
            let list =
                if scored.reason == ScoreReason::GameEnd { &mut at_end } else { &mut during };
            list.push(scored);
        }
        let (expected_at_end, expected_during): (Vec<Scored>, Vec<Scored>) =
            variant.scored.iter().cloned().partition(|s| s.reason == ScoreReason::GameEnd);

        assert_eq!(during, expected_during, "{context}: features scored during play");
        let ranks: Vec<u8> = at_end.iter().map(Scored::final_rank).collect();
        assert!(
            ranks.is_sorted(),
            "{context}: final scoring out of order (roads, cities, cloisters, fields): {at_end:#?}"
        );
        // Within one kind the rules set no order: compare as lists sorted the same way.
        let sorted = |mut list: Vec<Scored>| {
            list.sort_by_key(|s| (s.final_rank(), format!("{s:?}")));
            list
        };
        assert_eq!(sorted(at_end), sorted(expected_at_end), "{context}: final scoring");
        assert_eq!(taken, variant.taken, "{context}: tokens taken");
        assert_eq!(majority, variant.majority, "{context}: token majorities");
        assert_eq!(title_taken, variant.title_taken, "{context}: titles taken");
        assert_eq!(title_scored, variant.title_scored, "{context}: titles scored");
        let extra_turns: Vec<usize> = events
            .iter()
            .filter(|(_, event)| matches!(event, Event::ExtraTurn { .. }))
            .map(|(step, _)| *step)
            .collect();
        assert_eq!(extra_turns, variant.extra_turns, "{context}: second turns");
        if let Some(hidden) = variant.hidden_tiles {
            assert_eq!(game.hidden_tiles(), hidden, "{context}: tiles hidden under hills");
        }
        assert_eq!(game.scores(), variant.scores, "{context}: scores");
        assert_eq!(totals, variant.scores, "{context}: the events should add up to the scores");
    }
}

/// One test per scenario file, with a doc comment saying what the file pins, and the list of
/// them so that a file without a test is caught.
macro_rules! scenarios {
    ($($(#[$meta:meta])* $name:ident,)+) => {
        $(
            $(#[$meta])*
            #[test]
            fn $name() {
                run_scenario(stringify!($name));
            }
        )+

        const SCENARIOS: &[&str] = &[$(stringify!($name)),+];
    };
}

scenarios! {
    /// Ties share in full: one follower each on a merged city of 5 tiles, and both players
    /// score 5 x 2 = 10.
    city_majority_tie_shares_in_full,
    /// A merged city with 2 followers of player 1 against 1 of player 0 pays only player 1:
    /// 5 tiles x 2 = 10, and all three followers return.
    city_majority_two_followers_beat_one,
    /// A big follower (strength 2) beats one follower in a city and scores what a follower
    /// would: 5 tiles x 2 = 10, not 20.
    big_follower_beats_one_follower_in_city,
    /// A big follower (2) ties two followers (2): both players score 5 tiles x 2 = 10.
    big_follower_ties_two_followers_in_city,
    /// A big farmer (2) beats one farmer in a field: 1 completed city x 3 = 3 for player 0
    /// alone, not 6; under per_city_4 the city's 4, not 8.
    big_follower_beats_one_farmer,
    /// A big farmer (2) ties two farmers (2) in a field: 1 city x 3 = 3 each; under per_city_4
    /// 4 each.
    big_follower_ties_two_farmers,
    /// A completed city: 4 tiles x 2 + 2 pennants x 2 = 12; tiny_city leaves a 4-tile city at
    /// 12.
    completed_city_tiles_and_pennants,
    /// A city reaching both caps of tile I counts I once: 4 tiles x 2 = 8, not 10.
    city_tile_counted_once,
    /// A 2-tile city with a pennant: 2 x 2 + 1 x 2 = 6 by default, 2 x 1 + 1 x 1 = 3 under
    /// tiny_city.
    tiny_city,
    /// A set's own rules, declared in TOML only: a besieged 2-tile city scores 2 x 1 = 2, a
    /// toll road of 2 tiles 2 x 3 = 6, and the besieged city pays its farmer 2 x 3 = 6 (under
    /// per_city_4, 2 x 4 = 8).
    declared_rules_value_roads_and_pay_farmers,
    /// The Cathars: a completed 2-tile besieged city scores 2 x 1 = 2, not 4, also under
    /// tiny_city.
    besieged_city_completed,
    /// The Cathars: an unfinished besieged city scores 0 at the end, not 2, under either
    /// option for unfinished inns and cathedrals.
    besieged_city_unfinished,
    /// The Cathars: a farmer beside a completed besieged city is paid 2 x 3 = 6 for it, not
    /// 3 (under per_city_4, 2 x 4 = 8).
    besieged_city_pays_farmers_double,
    /// Traders & Builders: the player who completes a city takes one token per goods symbol
    /// in it, whoever holds it (red scores 8, green takes a wine and a grain), and the most
    /// of each kind scores 10 at the end (green 20).
    goods_go_to_the_player_who_completes_the_city,
    /// Traders & Builders: a city nobody holds still gives its goods to its completer, and a
    /// tied majority pays 10 to each tied player (16 and 10).
    goods_majority_tie_pays_every_tied_player,
    /// Traders & Builders: an unfinished city gives no goods (2 points, no token).
    goods_of_an_unfinished_city_give_nothing,
    /// Hills & Sheep: a completed monastery with 3 vineyards around it scores 9 + 3 x 3 = 18.
    vineyards_add_to_a_completed_monastery,
    /// Hills & Sheep: an unfinished monastery gets nothing from its vineyards (8, not 17).
    vineyards_give_nothing_to_an_unfinished_monastery,
    /// Hills & Sheep: of two knights tied in a city, the one on a hill tile takes it alone.
    a_follower_on_a_hill_wins_a_tied_city,
    /// Traders & Builders with the Cathars: a pig adds 1 a completed city to its owner's
    /// farm, doubled for a besieged city: 6 + 2 = 8 (per_city_4: 8 + 2 = 10).
    a_pig_beside_a_besieged_city,
    /// Traders & Builders: red's own tile closes the road of its thief and builder: 5 tiles
    /// x 1 = 5, both go home, and red takes a second turn.
    a_builder_on_a_road_its_tile_closes,
    /// Hills & Sheep: green closes the field of red's flock of 3: it goes to market at the
    /// end of green's turn, 3 for red.
    a_field_closed_with_a_flock_goes_to_market,
    /// Traders & Builders with Hills & Sheep: a second turn that draws a hill hides a tile;
    /// the unfinished road scores 5 x 1 = 5 at the end.
    a_second_turn_draws_a_hill,
    /// A hill tie-break in a field: tied farmers, the one on a hill tile paid alone (3, and
    /// 4 under per_city_4).
    a_farmer_on_a_hill_wins_a_tied_field,
    /// King & Robber Baron: each title goes to the completer of a strictly larger city or road
    /// and its holder scores 1 per city or road completed in the game.
    the_king_goes_to_whoever_completes_the_largest_city,
    /// The Cult: a shrine completed first scores 9, and the open monastery beside it sends its
    /// monk home with nothing (0 and 9).
    a_shrine_completed_first_defeats_the_monastery_beside_it,
    /// The Cult: a monastery and a shrine completed by the same tile both score 9.
    rivals_completed_by_one_tile_both_score,
    /// An invented set (tests/invented/market_town.toml): a toll road worth 2 a tile, its salt
    /// going to the road's scorer, not its completer, the most salt paying 6, and the road's
    /// completer holding the Toll Keeper, a flat 5.
    invented_toll_road_pays_salt_to_its_scorers,
    /// The invented set: wells pay 2 each to a monastery even unfinished (4 + 4 = 8).
    invented_wells_pay_an_unfinished_monastery,
    /// The pennant of IC06 belongs to its corner city (3 x 2 + 1 x 2 = 8), not to the cap on
    /// the same tile (2 x 2 = 4, not 6).
    pennant_belongs_to_its_segment,
    /// An unfinished city at the end: 2 tiles x 1 + 1 pennant x 1 = 3.
    unfinished_city,
    /// A completed road: 3 tiles x 1 = 3.
    completed_road,
    /// A ring of 4 curves is a complete road: 4 x 1 = 4, scored when it closes.
    road_loop_is_complete,
    /// A completed road with an inn: 4 tiles x 2 = 8.
    inn_on_completed_road,
    /// Two inns on one road do not stack: 4 tiles x 2 = 8, not 16.
    two_inns_do_not_stack,
    /// The inn of junction IC14 stands by its east road: its west road ending the start road
    /// scores 3 tiles x 1 = 3, not 6.
    inn_belongs_to_its_road_segment,
    /// An unfinished inn road: 0 by default, 2 tiles x 1 = 2 under
    /// inn_cathedral_unfinished = normal.
    unfinished_inn,
    /// A completed city with a cathedral: 6 tiles x 3 + 1 pennant x 3 = 21.
    cathedral_on_completed_city,
    /// An unfinished cathedral city: 0 by default, 3 tiles x 1 + 1 pennant x 1 = 4 under
    /// inn_cathedral_unfinished = normal.
    unfinished_cathedral,
    /// A monastery with all 8 neighbours scores 9 at once and its monk returns.
    monastery_completed,
    /// A monk deployed on the monastery that completes as it lands scores 9 in that turn.
    monastery_completed_by_its_own_tile,
    /// A monastery left unfinished scores 1 + 2 neighbours = 3 at the end.
    monastery_unfinished,
    /// Final scoring order: road (3), city (1), monastery (1 + 3 = 4), field (1 city x 3 = 3),
    /// though the figures went down the other way round.
    end_of_game_order,
    /// The start tile's field south of the road borders no city (0), the one north of it does
    /// (1 x 3 = 3), from the tile data rather than from sharing a tile.
    start_tile_south_field_borders_no_city,
    /// A field touching one city on two tiles counts it once: 1 x 3 = 3, not 6.
    field_counts_a_city_once,
    /// A field bordering a completed and an unfinished city: only the completed one pays,
    /// 1 x 3 = 3.
    field_pays_only_for_completed_cities,
    /// One city, three fields: per_field pays 3 per field (3 and 6), per_field_once each player
    /// once (3 and 3), per_city_4 the farmer majority of all three fields (0 and 4).
    farm_scoring_options,
    /// An abbot on a garden with all 8 neighbours scores 9 at once and returns.
    abbot_completes_garden,
    /// An abbot left on an unfinished garden scores 1 + 2 neighbours = 3 at the end.
    abbot_unfinished_at_end,
}

/// A scenario file without a test would silently never run.
#[test]
fn every_scenario_file_has_a_test() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut tests: Vec<String> = SCENARIOS.iter().map(|name| (*name).to_owned()).collect();
    tests.sort();
    assert_eq!(files, tests);
}

// ----- Turns and figures -----

/// Placing a figure on a feature the tile just completed is allowed and scores in the same
/// turn: a follower on the 2-tile city E closes at (0,1) earns 2 x 2 = 4 and comes straight
/// back, in the order placed, scored, returned.
#[test]
fn deploying_on_a_feature_the_tile_just_completed_scores_at_once() {
    let mut game = new_game(&["base"], 2, RuleOptions::default());
    put(&mut game, "E", 0, 1, 180);
    let city = Action::Deploy { segment: 0, figure: Figure::FOLLOWER };
    assert!(game.legal_actions().contains(&city));
    let events = deploy(&mut game, 0, Figure::FOLLOWER);
    let [placed, Event::FeatureScored(score), returned, next] = events[..] else {
        panic!("expected placed, scored, returned, next turn: {events:#?}");
    };
    let player = PlayerId(0);
    let figure = Figure::FOLLOWER;
    assert_eq!(placed, Event::FigurePlaced { player, figure, pos: pos(0, 1), segment: 0 });
    assert!([pos(0, 0), pos(0, 1)].contains(&score.pos) && score.segment == 0, "{score:?}");
    assert_eq!(
        FeatureScore { pos: pos(0, 1), ..score },
        FeatureScore {
            kind: SegmentKind::City,
            pos: pos(0, 1),
            segment: 0,
            reason: ScoreReason::Completed,
            complete: true,
            tiles: 2,
            marks: MarkCounts::default(),
            cities: 0,
            rule: None,
            farmers: false,
            points: 4,
            scorers: PlayerSet::EMPTY.with(player),
        }
    );
    assert_eq!(returned, Event::FigureReturned { player, figure, pos: pos(0, 1), segment: 0 });
    assert_eq!(next, Event::TurnStarted { player: PlayerId(1) });
    assert_eq!(game.scores(), [4, 0]);
    assert_eq!(game.supply(player).count(Figure::FOLLOWER), 7);
}

/// Without the farmers option no follower, big or not, may stand on a field; roads stay open.
#[test]
fn farmers_off_refuses_followers_on_fields() {
    let options = RuleOptions::default().with_farmers(false);
    let mut game = new_game(&["base", "inns_and_cathedrals"], 2, options);
    // U turned 90: road segment 0 west-east, field 1 south of it, field 2 north.
    put(&mut game, "U", 1, 0, 90);
    for figure in [Figure::FOLLOWER, Figure::BIG_FOLLOWER] {
        for segment in [1, 2] {
            assert_eq!(
                refuse(&mut game, Action::Deploy { segment, figure }),
                ActionError::FigureNotAllowed {
                    figure,
                    kind: SegmentKind::Field,
                    why: Forbidden::NoFarmers
                }
            );
        }
    }
    let legal = game.legal_actions();
    assert!(legal.contains(&Action::Deploy { segment: 0, figure: Figure::FOLLOWER }));
    assert!(!legal.iter().any(|a| matches!(a, Action::Deploy { segment: 1 | 2, .. })), "{legal:?}");
}

/// A set of all-city tiles and one crossroads, which fits next to no city edge.
const WALLED: &str = r#"
[set]
id = "walled"
name = "Walled cities and a crossroads"
edition = 1

[deck]
start = "walls"

[figures]
followers = 7
colours = ["red", "green"]

[[tile]]
id = "walls"
name = "City on four sides"
count = 2
edges = { N = "city", E = "city", S = "city", W = "city" }
segments = [{ kind = "city", edges = ["N", "E", "S", "W"] }]

[[tile]]
id = "crossing"
name = "Four-way junction"
count = 1
edges = { N = "road", E = "road", S = "road", W = "road" }
segments = [
  { kind = "road", edges = ["N"] },
  { kind = "road", edges = ["E"] },
  { kind = "road", edges = ["S"] },
  { kind = "road", edges = ["W"] },
  { kind = "field", half_edges = ["N_e", "E_n"] },
  { kind = "field", half_edges = ["E_s", "S_e"] },
  { kind = "field", half_edges = ["S_w", "W_s"] },
  { kind = "field", half_edges = ["W_n", "N_w"] },
]
"#;

fn walled_game() -> Game {
    let walled = Catalog::from_toml("walled.toml", WALLED).unwrap();
    Game::new(GameSetup::new(vec![walled], 2)).unwrap()
}

/// A drawn tile that fits nowhere is discarded, not placed, counted, and the same player
/// draws again.
#[test]
fn a_tile_that_fits_nowhere_is_discarded_and_the_same_player_draws_again() {
    let mut game = walled_game();
    let crossing = tile(&game, "crossing");
    let events = draw(&mut game, "crossing");
    let player = PlayerId(0);
    assert_eq!(
        events,
        [
            Event::TileDrawn { player, tile: crossing },
            Event::TileDiscarded { player, tile: crossing }
        ]
    );
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.current_player(), player);
    assert_eq!(game.discarded(), 1);
    assert_eq!(game.board().len(), 1);
    assert_eq!(game.placements().len(), 1);
    assert_eq!(game.remaining()[usize::from(crossing)], 0);
    assert_eq!(game.tiles_left(), 1);
    put(&mut game, "walls", 0, 1, 0);
    assert_eq!(game.board().len(), 2);
}

/// Discarding the last tile ends the game like placing it would: final scoring runs (here a
/// knight on the open 2-tile city: 2 x 1 = 2) and the game is over.
#[test]
fn discarding_the_last_tile_ends_the_game() {
    let mut game = walled_game();
    put(&mut game, "walls", 0, 1, 0);
    deploy(&mut game, 0, Figure::FOLLOWER);
    let events = draw(&mut game, "crossing");
    assert!(matches!(events[1], Event::TileDiscarded { player: PlayerId(1), .. }), "{events:#?}");
    let Event::FeatureScored(score) = events[2] else { panic!("{events:#?}") };
    assert_eq!((score.reason, score.tiles, score.points), (ScoreReason::GameEnd, 2, 2));
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
    assert!(game.is_over());
    assert_eq!(game.scores(), [2, 0]);
    assert_eq!(game.discarded(), 1);
}

// ----- The River -----

const RIVER_AND_BASE: &[&str] = &["base", "river"];

/// With the River in play the spring, not D, is the start tile, whatever the order of sets.
#[test]
fn the_spring_is_the_start_tile_with_the_river() {
    for sets in [["base", "river"], ["river", "base"]] {
        let game = new_game(&sets, 2, RuleOptions::default());
        let start = game.board().get(pos(0, 0)).unwrap();
        assert_eq!(start.tile, tile(&game, "river_spring"), "{sets:?}");
        assert_eq!(game.placements(), [(pos(0, 0), tile(&game, "river_spring"))]);
        // The base start tile is shuffled in with the land: all 72 D..X tiles are left.
        assert_eq!(game.remaining()[usize::from(tile(&game, "D"))], 4, "{sets:?}");
    }
}

/// Land tiles cannot be drawn while river tiles are left, and the lake only as the last of
/// them.
#[test]
fn river_tiles_come_before_land_tiles_and_the_lake_last() {
    let mut game = new_game(RIVER_AND_BASE, 2, RuleOptions::default());
    let land = tile(&game, "D");
    let lake = tile(&game, "river_lake");
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: land }),
        ActionError::TileOfLaterStage { tile: land }
    );
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: lake }),
        ActionError::TileComesLast { tile: lake }
    );
    assert!(game.drawable(tile(&game, "river_straight")));
}

/// Random draws keep the same order: ten river tiles, then the lake, then land.
#[test]
fn random_draws_give_the_river_then_the_lake_then_land() {
    for seed in 0..20 {
        let mut game = new_game(RIVER_AND_BASE, 2, RuleOptions::default()).restarted(seed);
        let mut drawn = Vec::new();
        while drawn.len() < 12 {
            let action = game.legal_actions()[0];
            for event in game.apply(action).unwrap() {
                if let Event::TileDrawn { tile, .. } = event {
                    drawn.push(game.tile(tile).unwrap().id().to_owned());
                }
            }
        }
        let river = drawn[..10].iter().all(|id| id.starts_with("river_") && id != "river_lake");
        assert!(river, "seed {seed}: {drawn:?}");
        assert_eq!(drawn[10], "river_lake", "seed {seed}: {drawn:?}");
        assert!(!drawn[11].starts_with("river_"), "seed {seed}: {drawn:?}");
    }
}

/// A river tile must put a river edge against the open river end; the board's own edge rule
/// is not enough, and the legal placements list only spots at the river's mouth.
#[test]
fn a_river_tile_must_continue_the_river() {
    let mut game = new_game(RIVER_AND_BASE, 2, RuleOptions::default());
    draw(&mut game, "river_straight");
    // North of the spring the straight river's south field meets the spring's field: a legal
    // spot for a land tile, but the river would not flow on.
    let north = Action::Place { pos: pos(0, 1), rotation: Rotation::R0 };
    assert_eq!(refuse(&mut game, north), ActionError::RiverNotContinued { pos: pos(0, 1) });
    let legal = game.legal_actions();
    assert!(!legal.is_empty());
    for action in legal {
        assert!(matches!(action, Action::Place { pos: p, .. } if p == pos(1, 0)), "{action:?}");
    }
}

/// Two river curves may not turn the same way, and a straight piece between them does not
/// reset that: right at (1,0), a second right refused, left accepted at (1,-1); after a
/// straight at (2,-1), a second left is refused at (3,-1) and a right accepted.
#[test]
fn river_curves_may_not_turn_the_same_way_twice() {
    let mut game = new_game(RIVER_AND_BASE, 2, RuleOptions::default());
    // The spring flows east; the curve (river west and south) turns it south: right.
    put(&mut game, "river_curve", 1, 0, 0);
    skip(&mut game);
    draw(&mut game, "river_curve_road");
    // Turned 90 its river runs north to west: coming from the north, a right turn again.
    let right = Action::Place { pos: pos(1, -1), rotation: Rotation::R90 };
    assert_eq!(refuse(&mut game, right), ActionError::RiverTurnsBack { pos: pos(1, -1) });
    assert!(!game.legal_actions().contains(&right), "legal placements obey the turn rule too");
    // Turned 180 it runs north to east: a left turn.
    game.apply(Action::Place { pos: pos(1, -1), rotation: Rotation::R180 }).unwrap();
    skip(&mut game);
    put(&mut game, "river_straight", 2, -1, 0);
    skip(&mut game);
    draw(&mut game, "river_curve");
    // Turned 90 the curve runs west to north: left again, though a straight came between.
    let left = Action::Place { pos: pos(3, -1), rotation: Rotation::R90 };
    assert_eq!(refuse(&mut game, left), ActionError::RiverTurnsBack { pos: pos(3, -1) });
    game.apply(Action::Place { pos: pos(3, -1), rotation: Rotation::R0 }).unwrap();
}

/// The spring's one field goes round the river's source, so the fields on both banks of the
/// river next to it are one feature: a farmer on the north bank also holds the south bank.
#[test]
fn the_spring_field_goes_round_the_river_end() {
    let mut game = new_game(RIVER_AND_BASE, 2, RuleOptions::default());
    // The straight river: segment 1 its north bank, 2 its south bank.
    put(&mut game, "river_straight", 1, 0, 0);
    deploy(&mut game, 1, Figure::FOLLOWER);
    let spring = game.feature(pos(0, 0), 1).unwrap();
    assert_eq!(spring.kind, SegmentKind::Field);
    assert_eq!(spring.figures, 1, "the farmer at (1,0) stands in the spring's field");
    assert_eq!(spring.leaders, PlayerSet::EMPTY.with(PlayerId(0)));
    assert_eq!(game.feature(pos(1, 0), 1), Some(spring));
    assert_eq!(game.feature(pos(1, 0), 2), Some(spring));
    // Past the bridge's road the banks are separate fields: its north-west quarter (2) and
    // south-west quarter (5) reach the spring's field, the north-east quarter (3) does not.
    put(&mut game, "river_bridge", 2, 0, 0);
    for segment in [2, 5] {
        let action = Action::Deploy { segment, figure: Figure::FOLLOWER };
        assert_eq!(refuse(&mut game, action), ActionError::FeatureOccupied { segment });
    }
    assert_eq!(game.check(Action::Deploy { segment: 3, figure: Figure::FOLLOWER }), Ok(()));
}

/// The lake's one field goes round the river's end as the spring's does: past a bridge,
/// whose road cuts both banks off from the spring, the lake still joins the two banks.
#[test]
fn the_lake_field_goes_round_the_river_end() {
    let tiles = [("river_spring", 1), ("river_bridge", 1), ("river_lake", 1)];
    let river = cut_down("river", &tiles.map(|(id, count)| (id.to_owned(), count)).into());
    let base = Catalog::builtin("base").unwrap();
    let mut game = Game::new(GameSetup::new(vec![base, river], 2)).unwrap();
    // The bridge's quarters: 2 north-west, 3 north-east, 4 south-east, 5 south-west.
    put(&mut game, "river_bridge", 1, 0, 0);
    skip(&mut game);
    put(&mut game, "river_lake", 2, 0, 0);
    deploy(&mut game, 1, Figure::FOLLOWER);
    let lake = game.feature(pos(2, 0), 1).unwrap();
    assert_eq!((lake.kind, lake.figures), (SegmentKind::Field, 1));
    assert_eq!(game.feature(pos(1, 0), 3), Some(lake), "north-east quarter");
    assert_eq!(game.feature(pos(1, 0), 4), Some(lake), "south-east quarter");
    for west in [2, 5] {
        let spring = game.feature(pos(1, 0), west).unwrap();
        assert_eq!(spring.figures, 0, "quarter {west} lies in the spring's field, not the lake's");
    }
}

/// No figure may stand on the river.
#[test]
fn no_figure_stands_on_the_river() {
    let mut game = new_game(&["base", "river", "inns_and_cathedrals"], 2, with_abbots());
    put(&mut game, "river_straight", 1, 0, 0);
    for figure in Figure::PUBLISHED {
        let error = refuse(&mut game, Action::Deploy { segment: 0, figure });
        assert!(
            matches!(error, ActionError::FigureNotAllowed { kind: SegmentKind::River, .. }),
            "{figure}: {error:?}"
        );
    }
    let legal = game.legal_actions();
    assert!(!legal.iter().any(|a| matches!(a, Action::Deploy { segment: 0, .. })), "{legal:?}");
}

// ----- The River II: a fork, two branches that never join -----

/// "The fork tile is to be placed first (after the source tile)" (The River II): until it is
/// drawn, every other river tile, the volcano lake too, must wait.
#[test]
fn the_fork_is_drawn_first() {
    let mut game = new_game(&["base", "river_ii"], 2, RuleOptions::default());
    assert_eq!(
        game.board().get(pos(0, 0)).map(|placed| placed.tile),
        Some(tile(&game, "river_spring"))
    );
    for id in ["river2_curve", "river2_city_end"] {
        let waiting = tile(&game, id);
        assert_eq!(
            refuse(&mut game, Action::DrawTile { tile: waiting }),
            ActionError::TilesComeFirst { tile: waiting }
        );
    }
    let lake = tile(&game, "river2_volcano");
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: lake }),
        ActionError::TilesComeFirst { tile: lake }
    );
    assert!(game.drawable(tile(&game, "river2_fork")));
}

/// "The two river branches must not be connected" (The River II): with the fork's branches
/// led to the two sides of one cell, the bend that would join them there has no place and is
/// discarded, and so is every river tile after it (each branch has its one open end in that
/// cell), the volcano lake too; the land tiles follow.
#[test]
fn the_branches_of_the_river_never_join() {
    let mut game = new_game(&["base", "river_ii"], 2, RuleOptions::default());
    // The fork at (1,0): in from the spring at the west, out north (a left turn) and east.
    put(&mut game, "river2_fork", 1, 0, 0);
    skip(&mut game);
    // The north branch bends east, a right turn after the fork's left: its end at (2,1).
    put(&mut game, "river2_curve", 1, 1, 270);
    skip(&mut game);
    // The east branch bends north: its end at (2,1) too.
    put(&mut game, "river2_curve_pig_herd", 2, 0, 0);
    skip(&mut game);
    // Its river edges south and west, the bend fits the cell's edges, but would join the
    // branches.
    let bend = tile(&game, "river2_curve_road");
    assert!(
        matches!(draw(&mut game, "river2_curve_road")[..], [_, Event::TileDiscarded { tile, .. }] if tile == bend)
    );
    let mut discarded = 1;
    while game.tiles_left() > 0 {
        let drawn = game.apply(Action::Draw).unwrap();
        let Event::TileDrawn { tile, .. } = drawn[0] else { panic!("{drawn:?}") };
        if !game.tile(tile).unwrap().id().starts_with("river") {
            break;
        }
        assert!(matches!(drawn[1], Event::TileDiscarded { .. }), "{drawn:?}");
        discarded += 1;
    }
    assert_eq!(discarded, 8, "the 12 river tiles less the spring, the fork and two bends");
}

/// Each branch keeps its own last curve: the north branch turned left at the fork, so a
/// second left on it is refused, while the east branch, straight from the fork, may turn
/// either way.
#[test]
fn each_branch_of_the_river_alternates_its_own_turns() {
    let mut game = new_game(&["base", "river_ii"], 2, RuleOptions::default());
    put(&mut game, "river2_fork", 1, 0, 0);
    skip(&mut game);
    draw(&mut game, "river2_curve");
    // At (1,1), unturned, the bend runs from the south to the west: a left turn after the
    // fork's left.
    let left = Action::Place { pos: pos(1, 1), rotation: Rotation::R0 };
    assert_eq!(refuse(&mut game, left), ActionError::RiverTurnsBack { pos: pos(1, 1) });
    // Turned 90 at (2,0) it runs from the west to the north: a left turn on the east branch.
    game.apply(Action::Place { pos: pos(2, 0), rotation: Rotation::R90 }).unwrap();
}

/// The two rivers share their spring's id, so a game of both is refused with the reason
/// rather than played with a second spring in the bag (docs/rules.md).
#[test]
fn the_river_and_the_river_ii_together_are_refused() {
    let both = vec![Catalog::builtin("river").unwrap(), Catalog::builtin("river_ii").unwrap()];
    assert_eq!(
        Game::new(GameSetup::new(both, 2)).unwrap_err(),
        SetupError::DuplicateTileId {
            id: "river_spring".to_owned(),
            first: "river".to_owned(),
            second: "river_ii".to_owned()
        }
    );
}

// ----- Rivals: The Cult's shrines and monasteries -----

/// The refusal a placement at `at` gets for crowding rivals, and that no legal placement of
/// the drawn tile lies there.
fn crowded(game: &mut Game, at: Pos) -> ActionError {
    let legal = game.legal_actions();
    assert!(!legal.iter().any(|a| matches!(a, Action::Place { pos, .. } if *pos == at)));
    assert_eq!(legal.len(), game.legal_action_count());
    refuse(game, Action::Place { pos: at, rotation: Rotation::R0 })
}

fn too_many_rivals(game: &Game, at: Pos) -> ActionError {
    let rule = RuleId(game.rules().iter().position(|rule| rule.id == "challenge").unwrap() as u8);
    ActionError::TooManyRivals { pos: at, rule, feature: SegmentKind::Monastery, at_most: 1 }
}

/// "A shrine may not be placed in such a way that it adjoins several cloisters" (The Cult):
/// between two monasteries, diagonally or not, a shrine is refused; a plain monastery there is
/// not, and a shrine beside only one of them is accepted.
#[test]
fn a_shrine_may_not_adjoin_two_monasteries() {
    let mut game = new_game(&["base", "cult"], 2, RuleOptions::default());
    put(&mut game, "B", 0, -1, 0);
    skip(&mut game);
    put(&mut game, "U", 1, 0, 90);
    skip(&mut game);
    put(&mut game, "U", 2, 0, 90);
    skip(&mut game);
    put(&mut game, "B", 2, -1, 0);
    skip(&mut game);
    draw(&mut game, "CU01");
    assert_eq!(crowded(&mut game, pos(1, -1)), too_many_rivals(&game, pos(1, -1)));
    // Beside the monastery at (2,-1) only.
    game.apply(Action::Place { pos: pos(3, -1), rotation: Rotation::R0 }).unwrap();
    skip(&mut game);
    // A monastery between two monasteries has no rival.
    draw(&mut game, "B");
    game.apply(Action::Place { pos: pos(1, -1), rotation: Rotation::R0 }).unwrap();
}

/// "Similarly, a cloister may not be placed so that it neighbors several shrines" (The Cult).
#[test]
fn a_monastery_may_not_adjoin_two_shrines() {
    let mut game = new_game(&["base", "cult"], 2, RuleOptions::default());
    put(&mut game, "CU01", 0, -1, 0);
    skip(&mut game);
    put(&mut game, "U", 1, 0, 90);
    skip(&mut game);
    put(&mut game, "U", 2, 0, 90);
    skip(&mut game);
    // CU03: a shrine with a road end to the south.
    put(&mut game, "CU03", 2, -1, 0);
    skip(&mut game);
    draw(&mut game, "B");
    assert_eq!(crowded(&mut game, pos(1, -1)), too_many_rivals(&game, pos(1, -1)));
}

/// Nor may a tile give a building that already has a rival a second one (JCloisterZone's
/// reading, docs/sources/cult.md): a shrine beside a monastery that has a shrine is refused
/// though the new shrine itself would have one monastery only.
#[test]
fn a_building_with_a_rival_gets_no_second_one() {
    let mut game = new_game(&["base", "cult"], 2, RuleOptions::default());
    put(&mut game, "B", 0, -1, 0);
    skip(&mut game);
    put(&mut game, "CU01", 1, -1, 0);
    skip(&mut game);
    draw(&mut game, "CU03");
    assert_eq!(crowded(&mut game, pos(-1, -1)), too_many_rivals(&game, pos(-1, -1)));
    // Two cells away from the monastery, beside the shrine only: the same kind, no rival.
    game.apply(Action::Place { pos: pos(2, -1), rotation: Rotation::R0 }).unwrap();
}

/// Only an occupied building wins a challenge, and only an occupied one loses it: a shrine
/// completed with nobody on it leaves the monk beside it where he is, and that monk, completed
/// later, scores 9 (docs/sources/cult.md: "only occupied features are scored, while
/// unoccupied ones are simply completed").
#[test]
fn an_empty_shrine_neither_wins_nor_loses() {
    let mut game = new_game(&["base", "cult"], 2, RuleOptions::default());
    put(&mut game, "B", 0, -1, 0);
    deploy(&mut game, 0, Figure::FOLLOWER);
    put(&mut game, "CU01", 1, -1, 0);
    skip(&mut game);
    assert!(game.challenges().is_empty(), "an empty shrine challenges nobody");
    let mut events = Vec::new();
    for (id, x, y, degrees) in [
        ("U", 1, 0, 90),
        ("U", 2, 0, 90),
        ("E", 2, -1, 90),
        ("E", 0, -2, 180),
        ("E", 1, -2, 180),
        ("E", 2, -2, 180),
    ] {
        events.extend(put(&mut game, id, x, y, degrees));
        events.extend(skip(&mut game));
    }
    assert_eq!(game.board().surrounding_tiles(pos(1, -1)), 8, "the shrine is complete");
    assert!(
        !events.iter().any(|e| matches!(e, Event::FeatureScored(_) | Event::FigureReturned { .. })),
        "{events:?}"
    );
    let mut events = Vec::new();
    for (id, x, y, degrees) in [("U", -1, 0, 90), ("E", -1, -1, 270), ("B", -1, -2, 0)] {
        events.extend(put(&mut game, id, x, y, degrees));
        events.extend(skip(&mut game));
    }
    let scored: Vec<&FeatureScore> = events
        .iter()
        .filter_map(|e| if let Event::FeatureScored(s) = e { Some(s) } else { None })
        .collect();
    assert_eq!(scored.len(), 1, "{events:?}");
    assert_eq!((scored[0].reason, scored[0].points), (ScoreReason::Completed, 9));
}

// ----- The abbot -----

fn with_abbots() -> RuleOptions {
    RuleOptions::default().with_abbots(true)
}

/// The abbot stands only on a monastery or a garden, never on a city, road or field.
#[test]
fn the_abbot_stands_only_on_a_monastery_or_garden() {
    let mut game = new_game(&["base_c2"], 2, with_abbots());
    // D at (1,0): city 0, road 1, fields 2 and 3.
    put(&mut game, "D", 1, 0, 0);
    let kinds = [SegmentKind::City, SegmentKind::Road, SegmentKind::Field, SegmentKind::Field];
    for (segment, kind) in (0..).zip(kinds) {
        assert_eq!(
            refuse(&mut game, Action::Deploy { segment, figure: Figure::ABBOT }),
            ActionError::FigureNotAllowed {
                figure: Figure::ABBOT,
                kind,
                why: Forbidden::StandsOnlyOn(
                    [SegmentKind::Monastery, SegmentKind::Garden].into_iter().collect()
                )
            }
        );
    }
    skip(&mut game);
    put(&mut game, "B", 0, -1, 0);
    assert_eq!(game.check(Action::Deploy { segment: 0, figure: Figure::ABBOT }), Ok(()));
    skip(&mut game);
    // E_garden turned 180: city 0 to the south, field 1, garden 2.
    put(&mut game, "E_garden", 0, -2, 180);
    assert_eq!(game.check(Action::Deploy { segment: 2, figure: Figure::ABBOT }), Ok(()));
}

/// Only the abbot may stand on a garden: neither a follower nor a big follower. The second
/// edition's file declares it (`[[occupants]]` in tilesets/base_c2.toml), and the refusal says
/// so.
#[test]
fn followers_and_big_followers_stay_off_gardens() {
    let mut game = new_game(&["base_c2", "inns_and_cathedrals"], 2, with_abbots());
    put(&mut game, "E_garden", 0, -1, 180);
    for figure in [Figure::FOLLOWER, Figure::BIG_FOLLOWER] {
        let refused = refuse(&mut game, Action::Deploy { segment: 2, figure });
        let why = Forbidden::OnlyDeclared(carcassonne::FigureList::EMPTY.with(Figure::ABBOT));
        assert_eq!(
            refused,
            ActionError::FigureNotAllowed { figure, kind: SegmentKind::Garden, why }
        );
        assert!(refused.to_string().ends_with("; the tile sets let only an abbot stand there"));
    }
    let on_garden: Vec<Action> = game
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { segment: 2, .. }))
        .collect();
    assert_eq!(on_garden, [Action::Deploy { segment: 2, figure: Figure::ABBOT }]);
}

/// Recalling the abbot scores its monastery at once as at the end (1 + 3 neighbours = 4),
/// returns the abbot, and takes the place of the figure step: the turn passes on and the tile
/// just placed stays empty.
#[test]
fn recalling_the_abbot_scores_at_once_and_returns_it() {
    let mut game = new_game(&["base"], 2, with_abbots());
    let p0 = PlayerId(0);
    put(&mut game, "B", 0, -1, 0);
    deploy(&mut game, 0, Figure::ABBOT);
    assert_eq!(game.supply(p0).count(Figure::ABBOT), 0);
    put(&mut game, "A", -1, 0, 270);
    skip(&mut game);
    put(&mut game, "A", 1, 0, 90);
    let recall = Action::RecallAbbot { pos: pos(0, -1) };
    assert!(game.legal_actions().contains(&recall));
    let events = game.apply(recall).unwrap();
    let monastery = FeatureScore {
        kind: SegmentKind::Monastery,
        pos: pos(0, -1),
        segment: 0,
        reason: ScoreReason::AbbotRecalled,
        complete: false,
        tiles: 4,
        marks: MarkCounts::default(),
        cities: 0,
        rule: None,
        farmers: false,
        points: 4,
        scorers: PlayerSet::EMPTY.with(p0),
    };
    assert_eq!(
        events,
        [
            Event::AbbotRecalled { player: p0, pos: pos(0, -1) },
            Event::FeatureScored(monastery),
            Event::FigureReturned {
                player: p0,
                figure: Figure::ABBOT,
                pos: pos(0, -1),
                segment: 0
            },
            Event::TurnStarted { player: PlayerId(1) },
        ]
    );
    assert_eq!(game.scores(), [4, 0]);
    assert_eq!(game.supply(p0).count(Figure::ABBOT), 1);
    assert_eq!(game.figures().count(), 0, "nothing went onto the tile at (1,0)");
    assert_eq!(game.phase(), Phase::Draw);
    let late = Action::Deploy { segment: 0, figure: Figure::FOLLOWER };
    assert!(matches!(refuse(&mut game, late), ActionError::WrongPhase { .. }));
}

/// A recall needs the player's own abbot at that cell: not another player's, not an empty one.
#[test]
fn only_the_players_own_abbot_can_be_recalled() {
    let mut game = new_game(&["base"], 2, with_abbots());
    put(&mut game, "B", 0, -1, 0);
    deploy(&mut game, 0, Figure::ABBOT);
    put(&mut game, "A", -1, 0, 270);
    let theirs = Action::RecallAbbot { pos: pos(0, -1) };
    assert_eq!(refuse(&mut game, theirs), ActionError::NoAbbotThere { pos: pos(0, -1) });
    assert!(!game.legal_actions().contains(&theirs));
    let empty = Action::RecallAbbot { pos: pos(-1, 0) };
    assert_eq!(refuse(&mut game, empty), ActionError::NoAbbotThere { pos: pos(-1, 0) });
}

/// docs/rules.md recalls the abbot only from an unfinished monastery: in the turn its owner
/// completes the monastery, the recall is not offered and is refused, and skipping scores the
/// full 9 and returns the abbot, so refusing costs the player nothing.
#[test]
fn an_abbot_on_a_just_completed_monastery_is_not_recalled_but_scores_9() {
    let mut game = new_game(&["base"], 2, with_abbots());
    let p0 = PlayerId(0);
    put(&mut game, "A", 0, -1, 0);
    deploy(&mut game, 0, Figure::ABBOT);
    // Around the monastery, with one tile off to the side so that p0 places the eighth.
    let around = [
        ("U", -1, 0, 90),
        ("U", 1, 0, 90),
        ("U", 2, 0, 90),
        ("B", -1, -1, 0),
        ("B", 1, -1, 0),
        ("B", -1, -2, 0),
        ("B", 1, -2, 0),
    ];
    for (id, x, y, degrees) in around {
        put(&mut game, id, x, y, degrees);
        skip(&mut game);
    }
    assert_eq!(game.current_player(), p0);
    put(&mut game, "U", 0, -2, 0);
    let recall = Action::RecallAbbot { pos: pos(0, -1) };
    assert!(!game.legal_actions().contains(&recall));
    assert_eq!(refuse(&mut game, recall), ActionError::AbbotFeatureComplete { pos: pos(0, -1) });
    let events = skip(&mut game);
    assert!(
        events.iter().any(|event| matches!(
            event,
            Event::FeatureScored(FeatureScore {
                kind: SegmentKind::Monastery,
                reason: ScoreReason::Completed,
                points: 9,
                ..
            })
        )),
        "{events:#?}"
    );
    assert_eq!(game.scores()[0], 9);
    assert_eq!(game.supply(p0).count(Figure::ABBOT), 1);
}

// ----- Refused actions and setups -----

/// Every refusal a player can meet leaves the game exactly as it was (`refuse` compares the
/// game with a clone taken before), so a UI or a search can try actions freely. Walks one game
/// through each `ActionError` but `BoardFull`, which needs 65,536 tiles.
#[test]
fn every_refused_action_leaves_the_game_unchanged() {
    let mut game = new_game(&["base", "river", "inns_and_cathedrals"], 2, with_abbots());
    let straight = tile(&game, "river_straight");
    let at = |x, y| Action::Place { pos: pos(x, y), rotation: Rotation::R0 };
    let follower = |segment| Action::Deploy { segment, figure: Figure::FOLLOWER };

    // Draw phase.
    for action in [at(1, 0), follower(0), Action::RecallAbbot { pos: pos(0, 0) }, Action::Skip] {
        assert!(matches!(
            refuse(&mut game, action),
            ActionError::WrongPhase { phase: Phase::Draw, .. }
        ));
    }
    let unknown = TileIndex::MAX;
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: unknown }),
        ActionError::UnknownTile { tile: unknown }
    );
    let land = tile(&game, "D");
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: land }),
        ActionError::TileOfLaterStage { tile: land }
    );
    let lake = tile(&game, "river_lake");
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: lake }),
        ActionError::TileComesLast { tile: lake }
    );

    // Place phase.
    draw(&mut game, "river_straight");
    assert_eq!(game.phase(), Phase::Place { tile: straight });
    for action in [Action::Draw, Action::DrawTile { tile: straight }, follower(1), Action::Skip] {
        assert!(matches!(
            refuse(&mut game, action),
            ActionError::WrongPhase { phase: Phase::Place { .. }, .. }
        ));
    }
    let placement = |error| ActionError::Placement(error);
    assert_eq!(refuse(&mut game, at(0, 0)), placement(PlacementError::Occupied { pos: pos(0, 0) }));
    assert_eq!(
        refuse(&mut game, at(5, 5)),
        placement(PlacementError::NoNeighbour { pos: pos(5, 5) })
    );
    assert_eq!(
        refuse(&mut game, at(2000, 0)),
        placement(PlacementError::OutOfBounds { pos: pos(2000, 0) })
    );
    assert_eq!(
        refuse(&mut game, at(-1, 0)),
        placement(PlacementError::EdgeMismatch {
            pos: pos(-1, 0),
            dir: Dir::E,
            expected: EdgeKind::Field,
            found: EdgeKind::River,
        })
    );
    assert_eq!(refuse(&mut game, at(0, 1)), ActionError::RiverNotContinued { pos: pos(0, 1) });

    // Figure phase: the straight river at (1,0), segment 1 its north bank.
    game.apply(at(1, 0)).unwrap();
    for action in [Action::Draw, at(2, 0)] {
        assert!(matches!(
            refuse(&mut game, action),
            ActionError::WrongPhase { phase: Phase::Figure { .. }, .. }
        ));
    }
    assert_eq!(refuse(&mut game, follower(31)), ActionError::NoSuchSegment { segment: 31 });
    assert!(matches!(
        refuse(&mut game, follower(0)),
        ActionError::FigureNotAllowed { kind: SegmentKind::River, why: Forbidden::River, .. }
    ));
    assert!(matches!(
        refuse(&mut game, Action::Deploy { segment: 1, figure: Figure::ABBOT }),
        ActionError::FigureNotAllowed { figure: Figure::ABBOT, kind: SegmentKind::Field, .. }
    ));
    assert_eq!(
        refuse(&mut game, Action::RecallAbbot { pos: pos(0, 0) }),
        ActionError::NoAbbotThere { pos: pos(0, 0) }
    );
    deploy(&mut game, 1, Figure::BIG_FOLLOWER);

    // Player 1: the curve turns right; its outer field joins the occupied north bank.
    put(&mut game, "river_curve", 2, 0, 0);
    assert_eq!(refuse(&mut game, follower(1)), ActionError::FeatureOccupied { segment: 1 });
    skip(&mut game);

    // Player 0: a second right turn, then a left; no big follower left for its road.
    draw(&mut game, "river_curve_road");
    let turn = |degrees| Action::Place { pos: pos(2, -1), rotation: rotation(degrees) };
    assert_eq!(refuse(&mut game, turn(90)), ActionError::RiverTurnsBack { pos: pos(2, -1) });
    game.apply(turn(180)).unwrap();
    assert_eq!(
        refuse(&mut game, Action::Deploy { segment: 0, figure: Figure::BIG_FOLLOWER }),
        ActionError::NoneLeft { figure: Figure::BIG_FOLLOWER }
    );
    skip(&mut game);

    // Player 1: the only river_curve_road is on the board.
    let gone = tile(&game, "river_curve_road");
    assert_eq!(
        refuse(&mut game, Action::DrawTile { tile: gone }),
        ActionError::TileNotInBag { tile: gone }
    );

    // A finished game refuses everything.
    let mut tiles = BTreeMap::new();
    tiles.insert("D".to_owned(), 1);
    tiles.insert("E".to_owned(), 1);
    let mut over = Game::new(GameSetup::new(vec![cut_down("base", &tiles)], 2)).unwrap();
    put(&mut over, "E", 0, 1, 180);
    skip(&mut over);
    assert!(over.is_over());
    for action in [Action::Draw, at(1, 0), follower(0), Action::Skip] {
        assert_eq!(refuse(&mut over, action), ActionError::GameOver);
    }
}

/// A game needs at least two players.
#[test]
fn one_player_is_too_few() {
    let base = Catalog::builtin("base").unwrap();
    assert_eq!(
        Game::new(GameSetup::new(vec![base], 1)).unwrap_err(),
        SetupError::TooFewPlayers { players: 1 }
    );
}

/// The base game has five colours; Inns & Cathedrals brings the sixth, with a big follower
/// for everyone.
#[test]
fn a_sixth_player_needs_inns_and_cathedrals() {
    let base = Catalog::builtin("base").unwrap();
    assert_eq!(
        Game::new(GameSetup::new(vec![base.clone()], 6)).unwrap_err(),
        SetupError::TooManyPlayers { players: 6, max: 5 }
    );
    let inns = Catalog::builtin("inns_and_cathedrals").unwrap();
    let game = Game::new(GameSetup::new(vec![base, inns], 6)).unwrap();
    assert_eq!(game.players(), 6);
    let sixth = game.supply(PlayerId(5));
    assert_eq!(
        (
            sixth.count(Figure::FOLLOWER),
            sixth.count(Figure::BIG_FOLLOWER),
            sixth.count(Figure::ABBOT)
        ),
        (7, 1, 0)
    );
}

/// The two editions of the base game share tile ids, so a game cannot use both: a tile named
/// `A` would be ambiguous.
#[test]
fn base_and_base_c2_together_are_refused() {
    let both = vec![Catalog::builtin("base").unwrap(), Catalog::builtin("base_c2").unwrap()];
    assert_eq!(
        Game::new(GameSetup::new(both, 2)).unwrap_err(),
        SetupError::DuplicateTileId {
            id: "A".to_owned(),
            first: "base".to_owned(),
            second: "base_c2".to_owned()
        }
    );
}

/// An `[[occupants]]` rule governs its own set's tiles unless it says it reaches every set
/// (tilesets/README.md, "[[occupants]]"): a small set that keeps its hermitages for abbots does
/// not change the base game's monasteries, which a follower may still take; with `reach =
/// "every_set"` it does.
#[test]
fn an_occupants_rule_reaches_other_sets_only_when_it_says_so() {
    let hermits = |reach: &str| {
        let text = format!(
            "[set]\nid = \"hermits\"\nname = \"Hermits\"\nedition = 1\n\
             [[occupants]]\nid = \"hermitage\"\nfeature = \"monastery\"\nfigures = [\"abbot\"]\n{reach}\n\
             [[tile]]\nid = \"H1\"\nname = \"Hermitage\"\ncount = 2\n\
             edges = {{ N = \"field\", E = \"field\", S = \"field\", W = \"field\" }}\n\
             segments = [{{ kind = \"monastery\" }}, {{ kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", \"W_s\", \"W_n\"] }}]\n"
        );
        Catalog::from_toml("hermits.toml", &text).unwrap()
    };
    let game_with = |reach: &str| {
        let sets = vec![Catalog::builtin("base").unwrap(), hermits(reach)];
        Game::new(GameSetup::new(sets, 2).with_options(with_abbots())).unwrap()
    };
    let follower = Action::Deploy { segment: 0, figure: Figure::FOLLOWER };
    let abbot = Action::Deploy { segment: 0, figure: Figure::ABBOT };

    let mut game = game_with("");
    put(&mut game, "B", 0, -1, 0);
    assert!(game.legal_actions().contains(&follower), "the base game's monastery is as it was");
    skip(&mut game);
    put(&mut game, "H1", 1, -1, 0);
    assert!(matches!(
        refuse(&mut game, follower),
        ActionError::FigureNotAllowed {
            kind: SegmentKind::Monastery,
            why: Forbidden::OnlyDeclared(_),
            ..
        }
    ));
    assert!(game.legal_actions().contains(&abbot));

    let mut game = game_with("reach = \"every_set\"");
    put(&mut game, "B", 0, -1, 0);
    assert!(!game.legal_actions().contains(&follower), "the rule reaches the base game's too");
    assert!(game.legal_actions().contains(&abbot));
}

/// Hills & Sheep: a tile that extends two fields, each with a shepherd of the player who placed
/// it, gives each flock its own choice, one after the other in the order of the tile's
/// segments: "If the new tile expands a field containing your shepherd, you must choose one
/// of the following actions" [Hills & Sheep rules, wikicarpedia; docs/sources/hills_and_sheep.md]
/// holds for every such field. (A published set gives one shepherd a player; this deck's copy
/// of Hills & Sheep gives two, as an author's file may.)
///
/// Red's shepherds stand north of the start tile's road (a token of 2, at (1, 0)) and south of
/// it (a token of 3, at (0, -1)); red's straight road at (2, 0) extends both fields. Its north
/// meadow is segment 2, after the south one (1), so red first tends the south flock (drives
/// it: 3 points), then the north one (grows it by a token of 1).
#[test]
fn a_tile_extending_two_flocks_of_one_player_tends_each() {
    let two = std::fs::read_to_string("tilesets/hills_and_sheep.toml")
        .unwrap()
        .replace("id = \"shepherd\"\nper_player = 1", "id = \"shepherd\"\nper_player = 2");
    assert!(two.contains("per_player = 2"), "the set still declares its shepherd as it did");
    let catalogs =
        vec![Catalog::builtin("base").unwrap(), Catalog::from_toml("two.toml", &two).unwrap()];
    let mut game = Game::new(GameSetup::new(catalogs, 2)).unwrap();
    put(&mut game, "U", 1, 0, 90);
    deploy(&mut game, 2, Figure::SHEPHERD);
    game.apply(Action::DrawToken { token: BagToken::from_id("sheep_2").unwrap() }).unwrap();
    put(&mut game, "E", 0, 1, 180);
    skip(&mut game);
    put(&mut game, "E", 0, -1, 180);
    deploy(&mut game, 1, Figure::SHEPHERD);
    game.apply(Action::DrawToken { token: BagToken::from_id("sheep_3").unwrap() }).unwrap();
    put(&mut game, "E", 0, 2, 0);
    skip(&mut game);

    put(&mut game, "U", 2, 0, 90);
    skip(&mut game);
    let tended =
        |game: &Game| game.tended_hoard().map(|flock| (flock.pos, flock.worth(game.bag_kinds())));
    assert_eq!(game.phase(), Phase::Flock { pos: pos(2, 0) });
    assert_eq!(tended(&game), Some((pos(0, -1), 3)), "the south field first (segment 1)");
    let events = game.apply(Action::DriveFlock).unwrap();
    assert!(events.iter().any(|event| matches!(
        event,
        Event::FeatureScored(FeatureScore { reason: ScoreReason::Market, points: 3, .. })
    )));
    assert_eq!(game.phase(), Phase::Flock { pos: pos(2, 0) }, "then the north field's choice");
    assert_eq!(tended(&game), Some((pos(1, 0), 2)));
    game.apply(Action::GrowFlock).unwrap();
    let events =
        game.apply(Action::DrawToken { token: BagToken::from_id("sheep_1").unwrap() }).unwrap();
    assert!(events.iter().any(|event| matches!(event, Event::TurnStarted { player: PlayerId(1) })));
    assert_eq!(game.scores(), [3, 0]);
    assert_eq!(
        game.hoards().iter().map(|flock| flock.worth(game.bag_kinds())).collect::<Vec<_>>(),
        [3]
    );
}

/// Hills & Sheep: a wolf drawn for a flock on a field two shepherds share sends both home with
/// nothing, and every token goes back to the bag: "If a wolf is drawn ... all flocks on that
/// field are lost: the shepherds return to their owners and all sheep tokens go back into
/// the bag" [Hills & Sheep rules, wikicarpedia; docs/sources/hills_and_sheep.md].
///
/// Red's shepherd stands in a monastery's meadow south of the start tile's road (a token of
/// 2), green's in the meadow north of it on a straight road (a token of 3); red's monastery
/// tile at the road's east end joins the two meadows, red grows the flock, and draws the wolf.
#[test]
fn a_wolf_on_a_field_shared_by_two_shepherds_sends_both_home() {
    let sets = ["base", "hills_and_sheep"];
    let mut game = new_game(&sets, 2, RuleOptions::default());
    let full = game.bag();
    assert_eq!((full.total(), full.count(BagToken::from_id("wolf").unwrap())), (18, 2));

    put(&mut game, "B", 0, -1, 0);
    let red = deploy(&mut game, 1, Figure::SHEPHERD);
    assert!(matches!(game.phase(), Phase::Sheep { .. }), "a token is drawn at once: {red:?}");
    game.apply(Action::DrawToken { token: BagToken::from_id("sheep_2").unwrap() }).unwrap();

    put(&mut game, "U", 1, 0, 90);
    deploy(&mut game, 2, Figure::SHEPHERD);
    game.apply(Action::DrawToken { token: BagToken::from_id("sheep_3").unwrap() }).unwrap();
    assert_eq!(
        game.hoards().iter().map(|flock| flock.worth(game.bag_kinds())).collect::<Vec<_>>(),
        [2, 3]
    );
    assert_eq!(game.bag().total(), 16);

    put(&mut game, "A", 2, 0, 90);
    skip(&mut game);
    assert!(matches!(game.phase(), Phase::Flock { .. }), "red's field grew: grow or drive");
    assert_eq!(game.legal_actions(), [Action::GrowFlock, Action::DriveFlock]);
    game.apply(Action::GrowFlock).unwrap();
    let events =
        game.apply(Action::DrawToken { token: BagToken::from_id("wolf").unwrap() }).unwrap();
    let shepherd = |player: u8, pos: Pos, segment: u8| Event::FigureReturned {
        player: PlayerId(player),
        figure: Figure::SHEPHERD,
        pos,
        segment,
    };
    assert_eq!(
        events[..3],
        [
            Event::TokenDrawn {
                player: PlayerId(0),
                pos: pos(0, -1),
                segment: 1,
                drawn: BagToken::from_id("wolf").unwrap()
            },
            shepherd(0, pos(0, -1), 1),
            shepherd(1, pos(1, 0), 2),
        ],
        "{events:?}"
    );
    assert!(!events.iter().any(|event| matches!(event, Event::FeatureScored(_))));
    assert!(game.hoards().is_empty());
    assert_eq!(game.bag(), full, "every token back in the bag, the wolf too");
    assert_eq!(game.scores(), [0, 0]);
    for player in [PlayerId(0), PlayerId(1)] {
        assert_eq!(game.supply(player).count(Figure::SHEPHERD), 1, "{player:?}'s shepherd is home");
    }
}
