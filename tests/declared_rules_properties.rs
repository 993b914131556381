//! Properties of declared rules: whatever marks, rules, token kinds and titles a valid file
//! declares, random games with them play to the end without panicking, every event's points
//! add up to the scores, and memory and time stay bounded. The files are the base set with
//! random declarations added, random marks printed on its segments, and a mark printed on
//! some whole tiles for the neighbourhood bonuses and tie-breaks to read.

use carcassonne::{Catalog, Event, FarmScoring, Game, GameSetup, RuleOptions, UnfinishedMarks};
use proptest::prelude::*;

/// One random declaration of a mark: on which kinds, how it adds up, its points, its glyph.
#[derive(Clone, Debug)]
struct MarkSpec {
    kinds: Vec<&'static str>,
    flag: bool,
    complete: u8,
    unfinished: u8,
    glyph: &'static str,
}

/// One random value or farm rule over the marks declared.
#[derive(Clone, Debug)]
struct RuleSpec {
    farm: bool,
    road: bool,
    state: &'static str,
    with: Vec<usize>,
    tiles: Option<u8>,
    option: Option<&'static str>,
    precedence: u8,
    per_tile: u8,
    per_mark: Vec<(usize, u8)>,
    times: u8,
}

fn mark_spec() -> impl Strategy<Value = MarkSpec> {
    (
        prop::sample::subsequence(vec!["city", "road", "field", "monastery"], 1..=4),
        any::<bool>(),
        0u8..=100,
        0u8..=100,
        prop::sample::select(vec!["shield", "barrel", "tower", "grapes", "star", "circle"]),
    )
        .prop_map(|(kinds, flag, complete, unfinished, glyph)| MarkSpec {
            kinds,
            flag,
            complete,
            unfinished,
            glyph,
        })
}

fn rule_spec() -> impl Strategy<Value = RuleSpec> {
    (
        (any::<bool>(), any::<bool>(), prop::sample::select(vec!["complete", "unfinished", "any"])),
        prop::collection::vec(0usize..6, 0..3),
        prop::option::of(1u8..6),
        prop::option::of(prop::sample::select(vec![
            "tiny_city = true",
            "farmers = false",
            "inn_cathedral_unfinished = \"normal\"",
            "farm_scoring = \"per_city_4\"",
        ])),
        (0u8..=100, 0u8..=100, prop::collection::vec((0usize..6, 0u8..=100), 0..3), 1u8..=10),
    )
        .prop_map(
            |(
                (farm, road, state),
                with,
                tiles,
                option,
                (precedence, per_tile, per_mark, times),
            )| {
                RuleSpec {
                    farm,
                    road,
                    state,
                    with,
                    tiles,
                    option,
                    precedence,
                    per_tile,
                    per_mark,
                    times,
                }
            },
        )
}

/// Token kinds, a tile mark with a bonus and a tie-break reading it, and titles.
#[derive(Clone, Debug)]
struct Extras {
    /// Per token kind: the mark it comes from, taken by the scorers (else the completer), its
    /// majority.
    tokens: Vec<(usize, bool, u8)>,
    /// A bonus per neighbouring marked tile: for gardens (else monasteries), its state, each.
    neighbours: Option<(bool, &'static str, u8)>,
    /// A tie-break by the tile mark: `most` (else `any`).
    tiebreak: Option<bool>,
    /// Per title: won on roads (else cities), per feature, for holding.
    titles: Vec<(bool, u8, u8)>,
    /// A rivalry between monasteries carrying an altar mark and those without, with its
    /// limit if any; the altar printed on every other monastery.
    rival: Option<Option<u8>>,
}

fn extras() -> impl Strategy<Value = Extras> {
    (
        prop::collection::vec((0usize..6, any::<bool>(), 0u8..=100), 0..4),
        prop::option::of((
            any::<bool>(),
            prop::sample::select(vec!["complete", "unfinished", "any"]),
            0u8..=100,
        )),
        prop::option::of(any::<bool>()),
        prop::collection::vec((any::<bool>(), 0u8..=100, 0u8..=100), 0..3),
        prop::option::of(prop::option::of(0u8..=2)),
    )
        .prop_map(|(tokens, neighbours, tiebreak, titles, rival)| Extras {
            tokens,
            neighbours,
            tiebreak,
            titles,
            rival,
        })
}

/// The base set renamed, with `marks` declared beside its pennant, `rules` over them, the
/// `extras`, each mark printed on the segments `printed` picks among those of the kinds it
/// allows, and the tile mark on the tiles it picks. Only what a strict checker accepts: a
/// rule names only marks its feature can carry (the others are left out of it, and a farm
/// rule or token kind left with none is left out), a token's majority and a title pay
/// something, and a mark nothing prints or names is not declared.
fn declared_set(
    marks: &[MarkSpec],
    rules: &[RuleSpec],
    extras: &Extras,
    printed: &[u16],
) -> String {
    let base = Catalog::builtin("base").unwrap().to_toml();
    let (head, tiles) = base.split_at(base.find("\n[[tile]]").unwrap());
    let mut out = head.replace("id = \"base\"", "id = \"declared\"");
    let id = |index: usize| format!("m{}", index % marks.len());
    let carries = |index: usize, kinds: &[&str]| {
        marks[index % marks.len()].kinds.iter().any(|kind| kinds.contains(kind))
    };
    let mut used: Vec<String> = Vec::new();
    let mut rest = String::new();
    for (index, rule) in rules.iter().enumerate() {
        let feature = if rule.farm || !rule.road { "city" } else { "road" };
        let mut with: Vec<String> = rule
            .with
            .iter()
            .filter(|at| carries(**at, &[feature]))
            .map(|at| format!("{:?}", id(*at)))
            .collect();
        with.sort();
        with.dedup();
        if rule.farm {
            if with.is_empty() {
                let Some(first) = (0..marks.len()).find(|at| carries(*at, &["city"])) else {
                    continue;
                };
                with.push(format!("{:?}", id(first)));
            }
            used.extend(with.iter().map(|mark| mark.trim_matches('"').to_owned()));
            rest += &format!(
                "\n[[farm]]\nid = \"r{index}\"\nwith = [{}]\ntimes = {}\nprecedence = {}\n",
                with.join(", "),
                rule.times,
                rule.precedence
            );
            continue;
        }
        used.extend(with.iter().map(|mark| mark.trim_matches('"').to_owned()));
        rest += &format!(
            "\n[[value]]\nid = \"r{index}\"\nfeature = \"{feature}\"\nstate = \"{}\"\nwith = [{}]\n\
             precedence = {}\nper_tile = {}\n",
            rule.state,
            with.join(", "),
            rule.precedence,
            rule.per_tile
        );
        if let Some(tiles) = rule.tiles {
            rest += &format!("tiles = {tiles}\n");
        }
        if let Some(option) = rule.option {
            rest += &format!("option = {{ {option} }}\n");
        }
        let mut per_mark: Vec<(String, u8)> = rule
            .per_mark
            .iter()
            .filter(|(at, _)| carries(*at, &[feature]))
            .map(|(at, points)| (id(*at), *points))
            .collect();
        per_mark.sort();
        per_mark.dedup_by(|a, b| a.0 == b.0);
        used.extend(per_mark.iter().map(|(mark, _)| mark.clone()));
        let entries: Vec<String> =
            per_mark.iter().map(|(mark, points)| format!("{mark} = {points}")).collect();
        rest += &format!("per_mark = {{ {} }}\n", entries.join(", "));
    }
    let spot_named = extras.neighbours.is_some() || extras.tiebreak.is_some();
    if let Some((garden, state, each)) = extras.neighbours {
        let feature = if garden { "garden" } else { "monastery" };
        rest += &format!(
            "\n[[neighbours]]\nid = \"around\"\nfeature = \"{feature}\"\nstate = \"{state}\"\n\
             mark = \"spot\"\neach = {each}\n"
        );
    }
    if let Some(most) = extras.tiebreak {
        let by = if most { "most" } else { "any" };
        rest += &format!("\n[[tiebreak]]\nid = \"spots\"\nmark = \"spot\"\nby = \"{by}\"\n");
    }
    if let Some(at_most) = extras.rival {
        rest += "\n[[mark]]\nid = \"altar\"\nname = \"Altar\"\non = [\"monastery\"]\n\
                merge = \"flag\"\nglyph = \"star\"\ncolour = \"red\"\n";
        rest += "\n[[rival]]\nid = \"challenge\"\nfeature = \"monastery\"\nmarks = [\"altar\"]\n";
        if let Some(at_most) = at_most {
            rest += &format!("at_most = {at_most}\n");
        }
    }
    for (index, (from, scorers, majority)) in extras.tokens.iter().enumerate() {
        if !carries(*from, &["city", "road", "monastery"]) {
            continue;
        }
        let taker = if *scorers { "scorers" } else { "completer" };
        used.push(id(*from));
        rest += &format!(
            "\n[[token]]\nid = \"t{index}\"\nname = \"Token {index}\"\nfrom = [{:?}]\n\
             taken_by = \"{taker}\"\nmajority = {}\n",
            id(*from),
            (*majority).max(1)
        );
    }
    for (index, (road, per_feature, holding)) in extras.titles.iter().enumerate() {
        let feature = if *road { "road" } else { "city" };
        let holding = if *per_feature == 0 { (*holding).max(1) } else { *holding };
        rest += &format!(
            "\n[[title]]\nid = \"title{index}\"\nname = \"Title {index}\"\n\
             feature = \"{feature}\"\nper_feature = {per_feature}\nholding = {holding}\n"
        );
    }
    // Print marks on segments: the n-th segment line of the file gets mark `printed[n]` when
    // that mark may stand on its kind; the n-th tile gets the tile mark when `printed[n]` is
    // odd.
    let mut tiles_out = String::new();
    let (mut segment, mut tile, mut monasteries, mut spotted) = (0, 0, 0, false);
    for line in tiles.lines() {
        if line == "segments = [" {
            if printed.get(tile % printed.len().max(1)).is_some_and(|pick| pick % 2 == 1) {
                tiles_out += "marks = [\"spot\"]\n";
                spotted = true;
            }
            tile += 1;
        }
        let kind = ["city", "road", "field", "monastery"]
            .into_iter()
            .find(|kind| line.starts_with(&format!("  {{ kind = \"{kind}\"")));
        let pick = kind.and_then(|kind| {
            let chosen = usize::from(*printed.get(segment % printed.len().max(1))?);
            let mark = marks.get(chosen % (marks.len() + 1))?;
            mark.kinds.contains(&kind).then(|| id(chosen % (marks.len() + 1)))
        });
        segment += usize::from(kind.is_some());
        let altar = extras.rival.is_some() && kind == Some("monastery") && {
            monasteries += 1;
            monasteries % 2 == 0
        };
        let printed: Vec<String> =
            pick.into_iter().chain(altar.then(|| "altar".to_owned())).collect();
        // A segment line that already carries marks is written as it is, so the marks picked
        // for it are not used.
        match printed[..] {
            [_, ..] if !line.contains("marks = ") => {
                used.extend(printed.iter().cloned());
                let end = line.rfind(" },").unwrap();
                let list: Vec<String> = printed.iter().map(|mark| format!("{mark:?}")).collect();
                tiles_out += &format!("{}, marks = [{}] }},\n", &line[..end], list.join(", "));
            }
            _ => {
                tiles_out += line;
                tiles_out.push('\n');
            }
        }
    }
    for (index, mark) in marks.iter().enumerate() {
        if !used.contains(&format!("m{index}")) {
            continue;
        }
        let kinds: Vec<String> = mark.kinds.iter().map(|kind| format!("{kind:?}")).collect();
        out += &format!(
            "\n[[mark]]\nid = \"m{index}\"\nname = \"Mark {index}\"\non = [{}]\nmerge = \"{}\"\n\
             complete = {}\nunfinished = {}\nglyph = \"{}\"\ncolour = \"purple\"\n",
            kinds.join(", "),
            if mark.flag { "flag" } else { "count" },
            mark.complete,
            mark.unfinished,
            mark.glyph
        );
    }
    if spotted || spot_named {
        out += "\n[[mark]]\nid = \"spot\"\nname = \"Spot\"\non = [\"tile\"]\nmerge = \"flag\"\n\
                glyph = \"hill\"\ncolour = \"green\"\n";
    }
    out + &rest + &tiles_out
}

fn options(pick: u8) -> RuleOptions {
    let mut options = RuleOptions::default();
    match pick % 5 {
        1 => options.farm_scoring = FarmScoring::PerFieldOnce,
        2 => options.farm_scoring = FarmScoring::PerCity4,
        3 => options.tiny_city = true,
        4 => options.inn_cathedral_unfinished = UnfinishedMarks::Normal,
        _ => {}
    }
    options
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 24 }))]

    /// Any valid declarations load, write back to themselves, and play: random games end,
    /// the points of every score event add up to the final scores, each event names a mark
    /// and rule the game declares, and a game's memory stays that of a plain game's order.
    #[test]
    fn any_declared_rules_play_random_games(
        marks in prop::collection::vec(mark_spec(), 1..6),
        rules in prop::collection::vec(rule_spec(), 0..8),
        extras in extras(),
        printed in prop::collection::vec(0u16..8, 1..40),
        seed in any::<u64>(),
        pick in any::<u8>(),
    ) {
        let text = declared_set(&marks, &rules, &extras, &printed);
        let catalog = Catalog::from_toml("declared.toml", &text)
            .unwrap_or_else(|problems| panic!("{problems}\n{text}"));
        prop_assert_eq!(&Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap(), &catalog);
        let spotted = (0..catalog.tiles().len()).filter(|n| printed[n % printed.len()] % 2 == 1);
        prop_assert_eq!(
            catalog.tiles().iter().filter(|tile| !tile.marks().is_empty()).count(),
            spotted.count(),
            "the tiles printed with the tile mark"
        );
        let mut setup = GameSetup::new(vec![catalog], 2 + pick % 4);
        setup.seed = seed;
        setup.options = options(pick);
        let mut game = Game::new(setup).unwrap();
        let mut rng = seed | 1;
        let mut events = Vec::new();
        let mut points = vec![0u64; usize::from(game.players())];
        let mut steps = 0;
        while !game.is_over() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if matches!(game.phase(), carcassonne::Phase::Place { .. }) {
                prop_assert_eq!(game.legal_actions().len(), game.legal_action_count());
            }
            let choice = (rng % game.legal_action_count() as u64) as usize;
            events.clear();
            game.apply_into(game.legal_action(choice).unwrap(), &mut events).unwrap();
            for event in &events {
                match event {
                    Event::FeatureScored(score) => {
                        if score.reason == carcassonne::ScoreReason::Defeated {
                            prop_assert_eq!(score.points, 0);
                            prop_assert!(!score.complete);
                        }
                        prop_assert!(score.rule.is_none_or(|rule| rule.index() < game.rules().len()));
                        prop_assert!(score.marks.iter().all(|(mark, _)| mark.index() < game.marks().len()));
                        for player in score.scorers.iter() {
                            points[player.index()] += u64::from(score.points);
                        }
                    }
                    Event::TokensScored { token, points: each, scorers, .. } => {
                        prop_assert!(token.index() < game.tokens().len());
                        for player in scorers.iter() {
                            points[player.index()] += u64::from(*each);
                        }
                    }
                    Event::TitleScored { title, player, points: each, .. } => {
                        prop_assert!(title.index() < game.titles().len());
                        points[player.index()] += u64::from(*each);
                    }
                    _ => {}
                }
            }
            steps += 1;
            prop_assert!(steps < 72 * 4, "a game of 72 tiles takes at most 3 actions a tile");
        }
        let scores: Vec<u64> = game.scores().iter().map(|s| u64::from(*s)).collect();
        prop_assert_eq!(points, scores);
        prop_assert!(game.heap_bytes() < 64 * 1024, "{} bytes", game.heap_bytes());
    }
}
