//! The built-in catalogs against the totals published for each set.

use carcassonne::{BUILTIN_NAMES, Catalog, Dir, EdgeKind, Mark, SegmentKind};

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
    assert_eq!(base.count_tiles_with(Mark::Pennant), 10);
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
