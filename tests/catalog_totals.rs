//! The built-in catalogs against the totals published for each set.

use carcassonne::{BUILTIN_NAMES, Catalog, Dir, EdgeKind, Figure, SegmentKind};

fn edges_of(catalog: &Catalog, kind: EdgeKind) -> usize {
    catalog
        .tiles()
        .iter()
        .map(|tile| {
            Dir::ALL.iter().filter(|dir| tile.edges()[**dir] == kind).count()
                * usize::from(tile.count())
        })
        .sum()
}

#[test]
fn every_builtin_set_loads() {
    for name in BUILTIN_NAMES {
        let catalog = Catalog::builtin(name).unwrap();
        assert_eq!(catalog.info().id, name);
    }
}

#[test]
fn base_matches_the_published_totals() {
    let base = Catalog::builtin("base").unwrap();
    assert_eq!(base.tile_count(), 72);
    assert_eq!(base.tiles().len(), 24);
    let ids: Vec<&str> = base.tiles().iter().map(|tile| tile.id()).collect();
    assert_eq!(ids.concat(), "ABCDEFGHIJKLMNOPQRSTUVWX");
    assert_eq!(edges_of(&base, EdgeKind::City), 79);
    assert_eq!(edges_of(&base, EdgeKind::Road), 94);
    assert_eq!(edges_of(&base, EdgeKind::Field), 115);
    assert_eq!(edges_of(&base, EdgeKind::River), 0);
    assert_eq!(base.count_tiles_with(base.mark_by_id("pennant").unwrap()), 10);
    assert_eq!(base.count_segments(SegmentKind::Monastery), 6);
    let monasteries_with_road = base
        .tiles()
        .iter()
        .filter(|tile| {
            tile.count_segments(SegmentKind::Monastery) > 0
                && tile.count_segments(SegmentKind::Road) > 0
        })
        .map(|tile| usize::from(tile.count()))
        .sum::<usize>();
    assert_eq!(monasteries_with_road, 2);
    assert_eq!(base.count_segments(SegmentKind::City), 49);
    assert_eq!(base.count_segments(SegmentKind::Road), 62);
    assert_eq!(base.count_segments(SegmentKind::Field), 126);
    assert_eq!(base.count_segments(SegmentKind::Garden), 0);
}

#[test]
fn river_matches_the_published_totals() {
    let river = Catalog::builtin("river").unwrap();
    assert_eq!(river.tile_count(), 12);
    assert_eq!(river.count_segments(SegmentKind::Monastery), 1);
    assert_eq!(river.start_tile().unwrap().id(), "river_spring");
    assert_eq!(river.deck().stage, -1);
    let last: Vec<&str> =
        river.deck().last.iter().map(|index| river.tile(*index).unwrap().id()).collect();
    assert_eq!(last, ["river_lake"]);
    // Every river tile carries the river, and the spring and the lake end it.
    for tile in river.tiles() {
        let river_edges = Dir::ALL.iter().filter(|dir| tile.edges()[**dir] == EdgeKind::River);
        let expected = if ["river_spring", "river_lake"].contains(&tile.id()) { 1 } else { 2 };
        assert_eq!(river_edges.count(), expected, "tile {}", tile.id());
    }
    assert!(river.figures().colours.is_empty());
}

#[test]
fn spring_and_lake_fields_go_round_the_river_end() {
    let river = Catalog::builtin("river").unwrap();
    for id in ["river_spring", "river_lake"] {
        let (_, tile) = river.tile_by_id(id).unwrap();
        assert_eq!(tile.count_segments(SegmentKind::Field), 1, "{id}");
        let field = tile.segments().iter().find(|s| s.kind() == SegmentKind::Field).unwrap();
        assert_eq!(field.half_edges().len(), 8, "{id}");
    }
}

#[test]
fn inns_and_cathedrals_match_the_published_totals() {
    let ic = Catalog::builtin("inns_and_cathedrals").unwrap();
    assert_eq!(ic.tile_count(), 18);
    assert_eq!(ic.tiles().len(), 17);
    assert_eq!(ic.count_tiles_with(ic.mark_by_id("inn").unwrap()), 6);
    assert_eq!(ic.count_tiles_with(ic.mark_by_id("cathedral").unwrap()), 2);
    assert_eq!(ic.count_tiles_with(ic.mark_by_id("pennant").unwrap()), 3);
    for tile in ic.tiles().iter().filter(|tile| tile.count_marks(ic.mark_by_id("inn").unwrap()) > 0)
    {
        assert_eq!(
            tile.count_marks(ic.mark_by_id("inn").unwrap()),
            1,
            "tile {} has one inn road",
            tile.id()
        );
    }
    let cathedral = ic
        .tiles()
        .iter()
        .find(|tile| tile.count_marks(ic.mark_by_id("cathedral").unwrap()) > 0)
        .unwrap();
    assert_eq!(cathedral.count(), 2);
    let city = &cathedral.segments()[0];
    assert_eq!(city.edges().len(), 4);
    // The tile with four separate city caps has a meadow that touches no edge.
    let caps = ic.tiles().iter().find(|tile| tile.count_segments(SegmentKind::City) == 4).unwrap();
    let meadow = caps.segments().iter().find(|s| s.kind() == SegmentKind::Field).unwrap();
    assert!(meadow.half_edges().is_empty());
    assert_eq!(meadow.cities().len(), 4);
    assert_eq!(ic.figures().count(Figure::BIG_FOLLOWER), 1);
    assert_eq!(ic.figures().colours, ["grey"]);
}

/// `base_c2` is `base` with a garden on one copy each of E, H, I, M, N, R, U and V.
#[test]
fn base_c2_is_base_with_eight_gardens() {
    let base = Catalog::builtin("base").unwrap();
    let c2 = Catalog::builtin("base_c2").unwrap();
    assert_eq!(c2.tile_count(), 72);
    assert_eq!(c2.info().edition, 2);
    assert_eq!(c2.count_segments(SegmentKind::Garden), 8);
    for tile in base.tiles() {
        let (_, plain) = c2.tile_by_id(tile.id()).unwrap();
        assert_eq!(plain.segments(), tile.segments(), "tile {}", tile.id());
        assert_eq!(plain.edges(), tile.edges());
        let garden_id = format!("{}_garden", tile.id());
        match c2.tile_by_id(&garden_id) {
            Some((_, garden)) => {
                assert!("EHIMNRUV".contains(tile.id()), "unexpected {garden_id}");
                assert_eq!(plain.count() + garden.count(), tile.count());
                assert_eq!(garden.count(), 1);
                assert_eq!(garden.edges(), tile.edges());
                let (gardens, rest): (Vec<_>, Vec<_>) =
                    garden.segments().iter().partition(|s| s.kind() == SegmentKind::Garden);
                assert_eq!(gardens.len(), 1);
                assert_eq!(rest.into_iter().copied().collect::<Vec<_>>(), tile.segments());
            }
            None => {
                assert!(!"EHIMNRUV".contains(tile.id()), "{garden_id} is missing");
                assert_eq!(plain.count(), tile.count());
            }
        }
    }
}

/// The Cathars: four tiles, one of each published layout (city cap, cap with road, corner
/// city, corner city with road bend), every city besieged, no start tile or figures of its
/// own (docs/sources/cathars.md).
#[test]
fn cathars_match_the_published_totals() {
    let cathars = Catalog::builtin("cathars").unwrap();
    assert_eq!(cathars.tile_count(), 4);
    assert!(cathars.start_tile().is_none());
    assert_eq!(
        (cathars.figures().count(Figure::FOLLOWER), cathars.figures().colours.len()),
        (0, 0)
    );
    let besieged = cathars.mark_by_id("besieged").unwrap();
    assert_eq!(cathars.count_tiles_with(besieged), 4);
    assert_eq!(cathars.count_segments(SegmentKind::City), 4);
    assert_eq!(cathars.count_segments(SegmentKind::Road), 2);
    // The rules it declares are shared with the base set and Inns & Cathedrals: one game of all three.
    let sets =
        ["base", "inns_and_cathedrals", "cathars"].map(|name| Catalog::builtin(name).unwrap());
    let game = carcassonne::Game::new(carcassonne::GameSetup::new(sets.to_vec(), 2)).unwrap();
    let ids: Vec<&str> = game.marks().iter().map(|mark| mark.id.as_str()).collect();
    assert_eq!(ids, ["pennant", "inn", "cathedral", "besieged"]);
}
