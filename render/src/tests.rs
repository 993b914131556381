//! The sheet and the tile layout.

use carcassonne::{BUILTIN_NAMES, Catalog, HalfEdge, Mark, SegmentKind};

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
        let with_pennant =
            catalog.tiles().iter().filter(|tile| tile.count_marks(Mark::Pennant) > 0).count();
        let sheet = render_sheet(&catalog);
        assert_eq!(sheet.matches("class=\"pennant\"").count(), with_pennant, "{name}");
    }
    assert_eq!(render_sheet(&builtin("base")).matches("class=\"pennant\"").count(), 6);
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
        for tile in builtin(name).tiles() {
            let cities = layout(tile).cities;
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
        for tile in builtin(name).tiles() {
            let layout = layout(tile);
            let city_marks = tile
                .segments()
                .iter()
                .filter(|s| s.kind() == SegmentKind::City)
                .zip(&layout.cities)
                .flat_map(|(segment, city)| {
                    segment.marks().iter().filter(|m| *m != Mark::Inn).map(move |m| (m, city))
                });
            let drawn = layout.marks.iter().filter(|(mark, _)| *mark != Mark::Inn);
            for ((mark, city), (drawn, spot)) in city_marks.zip(drawn) {
                assert_eq!(mark, *drawn);
                assert!(contains(&city.polygon, *spot), "{mark} outside on {}", tile.id());
            }
        }
    }
}

#[test]
fn start_tile_has_two_fields_of_different_green() {
    let base = builtin("base");
    let (_, start) = base.tile_by_id("D").unwrap_or_else(|| panic!("no tile D"));
    let layout = layout(start);
    let fields: Vec<usize> = layout.sectors.iter().flatten().copied().collect();
    assert_eq!(fields.len(), 8);
    let north = layout.sectors[HalfEdge::E_n.index()].unwrap_or(usize::MAX);
    let south = layout.sectors[HalfEdge::E_s.index()].unwrap_or(usize::MAX);
    assert_ne!(north, south);
    assert_ne!(layout.greens[north], layout.greens[south]);
}
