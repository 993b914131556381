//! The sheet and the tile layout.

use carcassonne::{BUILTIN_NAMES, Catalog, HalfEdge, SegmentKind};

use crate::geom::{boundary_distance, contains};
use crate::layout::layout;
use crate::sheet::catalog_sheet as render_sheet;
use crate::svg::{escape, truncate};

fn builtin(name: &str) -> Catalog {
    Catalog::builtin(name).unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn base_sheet_is_a_whole_document_naming_every_tile() {
    let base = builtin("base");
    let sheet = render_sheet(&base);
    assert!(sheet.starts_with("<svg"));
    assert!(sheet.ends_with("</svg>\n"));
    assert_eq!(sheet.matches("<svg").count(), 1);
    assert_eq!(sheet.matches("<g").count(), sheet.matches("</g>").count());
    for tile in base.tiles() {
        assert!(sheet.contains(&format!(">{}<", tile.id())), "tile {} is not named", tile.id());
    }
    assert!(!sheet.contains("NaN") && !sheet.contains("inf"));
}

#[test]
fn one_shield_per_tile_type_with_a_pennant() {
    for name in BUILTIN_NAMES {
        let catalog = builtin(name);
        let Some(pennant) = catalog.mark_by_id("pennant") else { continue };
        let with_pennant =
            catalog.tiles().iter().filter(|tile| tile.count_marks(pennant) > 0).count();
        let sheet = render_sheet(&catalog);
        assert_eq!(sheet.matches("class=\"shield\"").count(), with_pennant, "{name}");
    }
    assert_eq!(render_sheet(&builtin("base")).matches("class=\"shield\"").count(), 6);
}

#[test]
fn text_is_escaped() {
    let text = r#"
[set]
id = "odd"
name = "Roads & <Fields>"
edition = 1

[[tile]]
id = "U"
name = "Road & \"field\" 'n' more"
count = 1
edges = { N = "road", E = "field", S = "road", W = "field" }
segments = [
  { kind = "road", edges = ["N", "S"] },
  { kind = "field", half_edges = ["N_e", "E_n", "E_s", "S_e"] },
  { kind = "field", half_edges = ["S_w", "W_s", "W_n", "N_w"] },
]
"#;
    let catalog = Catalog::from_toml("odd.toml", text).unwrap_or_else(|error| panic!("{error}"));
    let sheet = render_sheet(&catalog);
    assert!(sheet.contains("Roads &amp; &lt;Fields&gt;"));
    assert!(sheet.contains("Road &amp; &quot;field&quot; &apos;n&apos; more"));
    assert!(!sheet.contains("& ") && !sheet.contains("<Fields>"));
    assert_eq!(escape("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
}

#[test]
fn long_names_are_cut_with_an_ellipsis() {
    assert_eq!(truncate("Straight road", 24), "Straight road");
    let cut = truncate("City cap with road curving right", 24);
    assert_eq!(cut.chars().count(), 24);
    assert!(cut.ends_with('\u{2026}'));
}

#[test]
fn every_built_in_set_renders_the_same_twice() {
    for name in BUILTIN_NAMES {
        let catalog = builtin(name);
        assert_eq!(render_sheet(&catalog), render_sheet(&catalog), "{name}");
    }
}

/// Separate cities that overlapped, or nearly touched, would look like one city: the
/// mistake the sheet exists to show.
#[test]
fn separate_cities_keep_apart() {
    for name in BUILTIN_NAMES {
        let catalog = builtin(name);
        for tile in catalog.tiles() {
            let cities = layout(tile, catalog.marks()).cities;
            // Two cities crossing (KR05) are drawn one over the other, as printed.
            let crossing = tile.segments().iter().any(|segment| {
                segment.kind() == SegmentKind::City
                    && crate::layout::crosses_another_city(tile, segment.edges())
            });
            if crossing {
                assert_eq!(cities.len(), 2, "{name} {}: two crossing cities", tile.id());
                continue;
            }
            for (i, a) in cities.iter().enumerate() {
                for b in cities.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, b)| b) {
                    let close = a.polygon.iter().any(|p| {
                        contains(&b.polygon, *p) || boundary_distance(&b.polygon, *p) < 0.05
                    });
                    assert!(!close, "cities touch on {name} {}", tile.id());
                }
            }
        }
    }
}

/// A pennant or cathedral outside its city would put the mark on the wrong feature.
#[test]
fn city_marks_sit_inside_their_city() {
    for name in BUILTIN_NAMES {
        let catalog = builtin(name);
        for tile in catalog.tiles() {
            let layout = layout(tile, catalog.marks());
            // Marks are drawn in segment order; the cities are laid out in the same order.
            let printed =
                tile.segments().iter().flat_map(|s| s.marks().iter().map(move |m| (s, m)));
            let mut cities = layout.cities.iter();
            let mut city_of_segment = Vec::new();
            for segment in tile.segments() {
                let city = (segment.kind() == SegmentKind::City).then(|| cities.next()).flatten();
                city_of_segment.push(city);
            }
            let mut drawn = layout.marks.iter();
            for (segment, mark) in printed {
                let spot = drawn.next().expect("every mark is drawn").spot;
                let index = tile.segments().iter().position(|s| core::ptr::eq(s, segment)).unwrap();
                let Some(city) = city_of_segment[index] else { continue };
                let id = &catalog.marks()[mark.index()].id;
                assert!(contains(&city.polygon, spot), "{id} outside on {}", tile.id());
            }
        }
    }
}

#[test]
fn start_tile_has_two_fields_of_different_green() {
    let base = builtin("base");
    let (_, start) = base.tile_by_id("D").unwrap_or_else(|| panic!("no tile D"));
    let layout = layout(start, base.marks());
    let fields: Vec<usize> = layout.sectors.iter().flatten().copied().collect();
    assert_eq!(fields.len(), 8);
    let north = layout.sectors[HalfEdge::E_n.index()].unwrap_or(usize::MAX);
    let south = layout.sectors[HalfEdge::E_s.index()].unwrap_or(usize::MAX);
    assert_ne!(north, south);
    assert_ne!(layout.greens[north], layout.greens[south]);
}

/// Every figure's anchor lies in its segment's drawn area, for every built-in tile in every
/// rotation: inside its city, on its road or river, in its field and out of every city and
/// off every road, or on its monastery or garden.
#[test]
fn anchors_lie_in_their_segments_in_every_rotation() {
    use carcassonne::Rotation;

    use crate::anchor::anchors;
    use crate::geom::{chain_distance, pt};
    use crate::layout::sector_runs;
    use crate::style::{GARDEN_RADIUS, MONASTERY_RADIUS};

    for name in BUILTIN_NAMES {
        let catalog = builtin(name);
        for tile in catalog.tiles() {
            for rotation in Rotation::ALL {
                let turns = rotation.quarter_turns();
                let layout = layout(tile, catalog.marks()).turned(turns);
                let points = anchors(tile, catalog.marks(), rotation);
                let runs = sector_runs(&layout.sectors);
                let (mut cities, mut monasteries, mut gardens) = (0, 0, 0);
                for (index, (segment, anchor)) in tile.segments().iter().zip(&points).enumerate() {
                    let p = pt(anchor.x, anchor.y);
                    let at = format!("{name} {} {rotation} segment {index}", tile.id());
                    assert!((0.0..=1.0).contains(&p.x) && (0.0..=1.0).contains(&p.y), "{at}");
                    match segment.kind() {
                        SegmentKind::City => {
                            assert!(
                                contains(&layout.cities[cities].polygon, p),
                                "{at}: not in its city"
                            );
                            cities += 1;
                        }
                        SegmentKind::Road | SegmentKind::River => {
                            let on = layout
                                .strokes
                                .iter()
                                .filter(|s| s.segment == index)
                                .any(|s| chain_distance(&s.chain, p) <= s.half_width() + 1e-9);
                            assert!(on, "{at}: off its road");
                        }
                        SegmentKind::Field => {
                            let meadow =
                                layout.meadows.iter().any(|(f, c)| *f == index && c.dist(p) < 1e-9);
                            let in_run = runs.iter().any(|(field, shape)| {
                                *field == index && contains(&shape.points(), p)
                            });
                            assert!(meadow || in_run, "{at}: outside its field");
                            for city in &layout.cities {
                                assert!(!contains(&city.polygon, p), "{at}: in a city");
                            }
                            for stroke in &layout.strokes {
                                assert!(
                                    chain_distance(&stroke.chain, p) > stroke.half_width(),
                                    "{at}: on a road"
                                );
                            }
                        }
                        SegmentKind::Monastery => {
                            let centre = layout.monasteries[monasteries];
                            assert!(centre.dist(p) <= MONASTERY_RADIUS, "{at}");
                            monasteries += 1;
                        }
                        SegmentKind::Garden => {
                            let centre = layout.gardens[gardens];
                            assert!(centre.dist(p) <= GARDEN_RADIUS, "{at}");
                            gardens += 1;
                        }
                    }
                }
                assert_eq!(points.len(), tile.segments().len());
            }
        }
    }
}

/// A board names every tile, draws one glyph per standing figure, marks the last move and
/// shows each player's score; overlays add their cells and suggestion.
#[test]
fn a_board_shows_tiles_figures_last_move_and_scores() {
    use carcassonne::{Game, GameSetup, Phase, Pos, Rotation};

    use crate::board::{BoardOptions, Overlay, ShadedCell, Suggestion, board_svg};

    let sets = ["base", "river", "inns_and_cathedrals"].map(builtin).to_vec();
    let mut setup = GameSetup::new(sets, 3);
    setup.options.abbots = true;
    let mut game = Game::new(setup).unwrap();
    // Deploy whenever possible: the last figure action before Skip.
    for _ in 0..90 {
        if game.is_over() {
            break;
        }
        let count = game.legal_action_count();
        let pick =
            if matches!(game.phase(), Phase::Figure { .. }) && count > 1 { count - 2 } else { 0 };
        game.apply(game.legal_action(pick).unwrap()).unwrap();
    }
    let svg = board_svg(&game, &BoardOptions::default());
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    assert_eq!(svg.matches("class=\"tile\"").count(), game.board().len());
    assert_eq!(svg.matches("class=\"figure ").count(), game.figures().count());
    assert!(game.figures().count() > 3, "the game put figures down");
    assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
    assert_eq!(svg.matches("class=\"player\"").count(), 3);
    for score in game.scores() {
        assert!(svg.contains(&format!(">{score}</text>")));
    }
    assert!(!svg.contains("NaN") && !svg.contains("inf"));

    let (pos, _) = game.board().frontier_cells().first().map(|c| (c.pos, c.key)).unwrap();
    let overlay = Overlay {
        cells: vec![
            ShadedCell { pos, value: 0.9, label: Some(String::from("+12.5")) },
            ShadedCell { pos: Pos::new(pos.x, pos.y + 40), value: f64::NAN, label: None },
        ],
        suggestion: Some(Suggestion { pos, tile: 0, rotation: Rotation::R90, figure: None }),
        played: Some(Suggestion { pos, tile: 0, rotation: Rotation::R0, figure: None }),
    };
    let with = board_svg(&game, &BoardOptions { overlay, ..BoardOptions::default() });
    assert_eq!(with.matches("class=\"shade\"").count(), 2);
    assert!(with.contains(">+12.5</text>"));
    assert_eq!(with.matches("class=\"suggestion\"").count(), 1);
    assert_eq!(with.matches("class=\"played\"").count(), 1);
    assert_eq!(with.matches("class=\"played-outline\"").count(), 1);
    let heat =
        Overlay::heat_map([(pos, 2.0), (pos, 6.0), (Pos::new(pos.x + 9, pos.y), -4.0)], None, None);
    let values: Vec<(f64, Option<&str>)> =
        heat.cells.iter().map(|cell| (cell.value, cell.label.as_deref())).collect();
    assert_eq!(values, [(1.0, Some("+6.0")), (0.0, Some("-4.0"))], "best per cell, spread 0 to 1");
    assert!(!with.contains("NaN"));
    assert_eq!(board_svg(&game, &BoardOptions::default()), svg, "the same game draws the same");
}
