//! Properties of declared rules: whatever marks and rules a valid file declares, random games
//! with them play to the end without panicking, every event's points add up to the scores,
//! and memory and time stay bounded. The files are the base set with random declarations
//! added and random marks printed on its segments.

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

/// The base set renamed, with `marks` declared beside its pennant, `rules` over them, and
/// each mark printed on the segments `printed` picks among those of the kinds it allows.
fn declared_set(marks: &[MarkSpec], rules: &[RuleSpec], printed: &[u16]) -> String {
    let base = Catalog::builtin("base").unwrap().to_toml();
    let (head, tiles) = base.split_at(base.find("\n[[tile]]").unwrap());
    let mut out = head.replace("id = \"base\"", "id = \"declared\"");
    let id = |index: usize| format!("m{}", index % marks.len());
    for (index, mark) in marks.iter().enumerate() {
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
    for (index, rule) in rules.iter().enumerate() {
        let mut with: Vec<String> = rule.with.iter().map(|at| format!("{:?}", id(*at))).collect();
        with.sort();
        with.dedup();
        if rule.farm {
            if with.is_empty() {
                with.push(format!("{:?}", id(0)));
            }
            out += &format!(
                "\n[[farm]]\nid = \"r{index}\"\nwith = [{}]\ntimes = {}\nprecedence = {}\n",
                with.join(", "),
                rule.times,
                rule.precedence
            );
            continue;
        }
        out += &format!(
            "\n[[value]]\nid = \"r{index}\"\nfeature = \"{}\"\nstate = \"{}\"\nwith = [{}]\n\
             precedence = {}\nper_tile = {}\n",
            if rule.road { "road" } else { "city" },
            rule.state,
            with.join(", "),
            rule.precedence,
            rule.per_tile
        );
        if let Some(tiles) = rule.tiles {
            out += &format!("tiles = {tiles}\n");
        }
        if let Some(option) = rule.option {
            out += &format!("option = {{ {option} }}\n");
        }
        let mut per_mark: Vec<(String, u8)> =
            rule.per_mark.iter().map(|(at, points)| (id(*at), *points)).collect();
        per_mark.sort();
        per_mark.dedup_by(|a, b| a.0 == b.0);
        let entries: Vec<String> =
            per_mark.iter().map(|(mark, points)| format!("{mark} = {points}")).collect();
        out += &format!("per_mark = {{ {} }}\n", entries.join(", "));
    }
    // Print marks on segments: the n-th segment line of the file gets mark `printed[n]` when
    // that mark may stand on its kind.
    let mut segment = 0;
    for line in tiles.lines() {
        let kind = ["city", "road", "field", "monastery"]
            .into_iter()
            .find(|kind| line.starts_with(&format!("  {{ kind = \"{kind}\"")));
        let pick = kind.and_then(|kind| {
            let chosen = usize::from(*printed.get(segment % printed.len().max(1))?);
            let mark = marks.get(chosen % (marks.len() + 1))?;
            mark.kinds.contains(&kind).then(|| id(chosen % (marks.len() + 1)))
        });
        segment += usize::from(kind.is_some());
        match pick {
            Some(mark) if !line.contains("marks = ") => {
                let end = line.rfind(" },").unwrap();
                out += &format!("{}, marks = [\"{mark}\"] }},\n", &line[..end]);
            }
            _ => {
                out += line;
                out.push('\n');
            }
        }
    }
    out
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
        printed in prop::collection::vec(0u16..8, 1..40),
        seed in any::<u64>(),
        pick in any::<u8>(),
    ) {
        let text = declared_set(&marks, &rules, &printed);
        let catalog = Catalog::from_toml("declared.toml", &text)
            .unwrap_or_else(|problems| panic!("{problems}\n{text}"));
        prop_assert_eq!(&Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap(), &catalog);
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
            let choice = (rng % game.legal_action_count() as u64) as usize;
            events.clear();
            game.apply_into(game.legal_action(choice).unwrap(), &mut events).unwrap();
            for event in &events {
                if let Event::FeatureScored(score) = event {
                    prop_assert!(score.rule.is_none_or(|rule| rule.index() < game.rules().len()));
                    prop_assert!(score.marks.iter().all(|(mark, _)| mark.index() < game.marks().len()));
                    for player in score.scorers.iter() {
                        points[player.index()] += u64::from(score.points);
                    }
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
