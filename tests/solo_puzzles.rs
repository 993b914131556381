//! The published solo puzzles' scoring, on small landscapes whose totals are worked out by
//! hand in the comments: one player owns every feature, a city scores 2 per tile complete
//! and 1 per tile unfinished with no pennant bonus either way, a road 1 per tile, a
//! monastery 9 complete or 1 plus its neighbours, and fields nothing.

use carcassonne::{
    Catalog, FarmScoring, Landscape, LandscapeFigure, LandscapeOptions, LandscapeTile, PlayerId,
    Rotation, RuleOptions, SegmentKind,
};

fn tile(id: &str, x: i16, y: i16, degrees: u16) -> LandscapeTile {
    LandscapeTile {
        tile: id.into(),
        x,
        y,
        rotation: Rotation::from_degrees(degrees).expect("a quarter turn"),
    }
}

fn base(tiles: Vec<LandscapeTile>, figures: Vec<LandscapeFigure>) -> Landscape {
    Landscape { catalogs: vec![Catalog::builtin("base").unwrap()], tiles, figures }
}

/// Points per feature kind, in the order scored.
fn by_kind(landscape: &Landscape, options: &LandscapeOptions) -> (Vec<u32>, Vec<SegmentKind>) {
    let score = landscape.score(options).unwrap();
    (score.total, score.features.iter().map(|feature| feature.kind).collect())
}

/// The puzzle most tests use, 6 tiles:
///
/// ```text
///            D (0,1): city cap north (open), road west to east (open)
///  E (-1,0)  F (0,0)  E (1,0)  M (2,0)
///            B (0,-1)
/// ```
///
/// - F's city, east to west with a pennant, closed by two city caps facing it: complete,
///   3 tiles, 1 pennant: 6 in the solo puzzles (the pennant is worth nothing), 8 in a game.
/// - D's city cap, north, open: unfinished, 1 tile: 1.
/// - D's road, west to east, open at both ends: 1 tile: 1.
/// - B's monastery: F, E and E are among its 8 neighbours: 1 + 3 = 4.
/// - M, turned 180 so its city (south and east, with a pennant) faces away: unfinished,
///   1 tile: 1 in the solo puzzles, 1 + 1 for the pennant in a game.
/// - Fields, with farmers: F's north field with D's south one, F's south field with B's,
///   E(-1,0)'s, and E(1,0)'s joined to M's each border the complete city once: 4 fields of
///   3 points each, 12; D's north field and M's only touch unfinished cities.
///
/// A player-1 follower stands on the complete city: claimed puzzles ignore it.
fn puzzle() -> Landscape {
    base(
        vec![
            tile("F", 0, 0, 0),
            tile("E", -1, 0, 90),
            tile("E", 1, 0, 270),
            tile("D", 0, 1, 0),
            tile("B", 0, -1, 0),
            tile("M", 2, 0, 180),
        ],
        vec![LandscapeFigure {
            player: PlayerId(1),
            figure: carcassonne::Figure::FOLLOWER,
            x: 0,
            y: 0,
            segment: 0,
        }],
    )
}

#[test]
fn the_solo_puzzle_scores_cities_without_pennants_and_no_fields() {
    let (total, kinds) = by_kind(&puzzle(), &LandscapeOptions::solo_puzzle());
    // 6 (complete city) + 1 (D's city) + 1 (road) + 4 (monastery) + 1 (M's city).
    assert_eq!(total, [13]);
    assert!(!kinds.contains(&SegmentKind::Field), "{kinds:?}");
    let score = puzzle().score(&LandscapeOptions::solo_puzzle()).unwrap();
    let pennant = score.rulebook.mark_by_id("pennant").unwrap();
    let mut cities: Vec<(bool, u32, u32)> = score
        .features
        .iter()
        .filter(|feature| feature.kind == SegmentKind::City)
        .map(|feature| (feature.complete, feature.marks.get(pennant), feature.points))
        .collect();
    cities.sort_unstable();
    assert_eq!(cities, [(false, 0, 1), (false, 1, 1), (true, 1, 6)]);
}

#[test]
fn each_override_is_its_own_option() {
    let claimed = |farmers, pennant_value, unfinished_pennant_value| {
        LandscapeOptions::default()
            .with_rules(RuleOptions::default().with_farmers(farmers))
            .with_claim_all(true)
            .with_pennant_value(pennant_value)
            .with_unfinished_pennant_value(unfinished_pennant_value)
    };
    // Claimed, no farmers, pennants as in a game: 8 + 1 + 1 + 4 + 2.
    assert_eq!(puzzle().score(&claimed(false, None, None)).unwrap().total, [16]);
    // Farmers on: the 4 fields of 3 points each besides (what claim_all always did before
    // farmers could turn fields off under it).
    assert_eq!(puzzle().score(&claimed(true, None, None)).unwrap().total, [28]);
    // Only the completed city's pennant worth nothing: 6 + 1 + 1 + 4 + 2.
    assert_eq!(puzzle().score(&claimed(false, Some(0), None)).unwrap().total, [14]);
    // Only the unfinished one's: 8 + 1 + 1 + 4 + 1.
    assert_eq!(puzzle().score(&claimed(false, None, Some(0))).unwrap().total, [15]);
    // Both, and fields on: the solo scoring plus 12.
    assert_eq!(puzzle().score(&claimed(true, Some(0), Some(0))).unwrap().total, [25]);
    // Any value: 3 a pennant in unfinished cities gives 8 + 1 + 1 + 4 + (1 + 3).
    assert_eq!(puzzle().score(&claimed(false, None, Some(3))).unwrap().total, [18]);
}

#[test]
fn without_claim_all_the_figures_decide_and_fields_follow_farmers() {
    // Only player 1's follower on the complete city: 8 points to player 1.
    let options = LandscapeOptions::default();
    assert_eq!(puzzle().score(&options).unwrap().total, [0, 8]);
    let options = LandscapeOptions::default()
        .with_rules(RuleOptions::default().with_farm_scoring(FarmScoring::PerCity4));
    assert_eq!(puzzle().score(&options).unwrap().total, [0, 8], "no farmers stand anywhere");
}

#[test]
fn a_surrounded_monastery_scores_nine_and_its_neighbours_by_their_neighbours() {
    // Nine monasteries in a square: the middle one is surrounded, 9; each corner has 3
    // neighbours, 4; each edge one 5, 6. 9 + 4 * 4 + 4 * 6 = 49; the one field borders no
    // city, so fields add nothing even with farmers.
    let mut tiles = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            tiles.push(tile("B", x, y, 0));
        }
    }
    let landscape = base(tiles, vec![]);
    let score = landscape.score(&LandscapeOptions::solo_puzzle()).unwrap();
    assert_eq!(score.total, [49]);
    let mut points: Vec<u32> = score.features.iter().map(|feature| feature.points).collect();
    points.sort_unstable();
    assert_eq!(points, [4, 4, 4, 4, 6, 6, 6, 6, 9]);
}

#[test]
fn a_road_scores_one_a_tile_complete_or_not() {
    // Four curves in a ring: a complete road of 4 tiles, 4 points.
    let ring = base(
        vec![tile("V", 0, 1, 270), tile("V", 1, 1, 0), tile("V", 0, 0, 180), tile("V", 1, 0, 90)],
        vec![],
    );
    let score = ring.score(&LandscapeOptions::solo_puzzle()).unwrap();
    assert_eq!(score.total, [4]);
    assert_eq!(score.features.len(), 1);
    assert!(score.features[0].complete);
    // Three straight pieces, open at both ends: 3.
    let line = base(vec![tile("U", 0, 0, 0), tile("U", 0, 1, 0), tile("U", 0, 2, 0)], vec![]);
    assert_eq!(line.score(&LandscapeOptions::solo_puzzle()).unwrap().total, [3]);
}

#[test]
fn the_options_read_from_json_with_every_key_optional() {
    let options: LandscapeOptions = serde_json::from_str(
        r#"{"rules": {"farmers": false}, "claim_all": true, "pennant_value": 0,
            "unfinished_pennant_value": 0}"#,
    )
    .unwrap();
    assert_eq!(options, LandscapeOptions::solo_puzzle());
    let options: LandscapeOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(options, LandscapeOptions::default());
}
