//! Where a figure stands on each segment of a tile.

use carcassonne::{MarkInfo, Rotation, SegmentKind, TileType};

use crate::geom::{CENTRE, Pt, pt};
use crate::layout::{Layout, Room, chain_middle, free_spot_in, layout, sector_runs};
use crate::style::FIGURE_RADIUS;

/// A point on a tile, in tile sides from its north-west corner as it lies on the board:
/// `x` grows east, `y` grows south (as in SVG), both from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// From the west edge, in tile sides.
    pub x: f64,
    /// From the north edge, in tile sides.
    pub y: f64,
}

/// Candidate points a tile side when looking for room for a figure in a field: coarser than
/// for icons, since a figure is drawn over everything else and a board has dozens of types.
const ANCHOR_GRID: u32 = 25;

/// Where a figure stands on each segment of `tile` turned by `rotation`, in segment order: in
/// its city clear of the pennants and the cathedral, halfway along its road or river, in its
/// field clear of roads, cities and icons, on its monastery or garden.
///
/// Computed from the tile data the same way every time, so a client can draw figures where
/// the board picture does.
///
/// ```
/// use carcassonne::{Catalog, Rotation};
/// let base = Catalog::builtin("base")?;
/// let (_, start) = base.tile_by_id("D").unwrap();
/// let anchors = carcassonne_render::anchors(start, base.marks(), Rotation::R0);
/// assert_eq!(anchors.len(), start.segments().len());
/// // The start tile's city is its first segment, along the north edge.
/// assert!(anchors[0].y < 0.35);
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[must_use]
pub fn anchors(tile: &TileType, marks: &[MarkInfo], rotation: Rotation) -> Vec<Anchor> {
    let layout = layout(tile, marks);
    let turns = rotation.quarter_turns();
    anchor_points(tile, &layout)
        .into_iter()
        .map(|point| {
            let turned = point.turned(turns);
            Anchor { x: turned.x, y: turned.y }
        })
        .collect()
}

/// The anchors of the unturned tile laid out as `layout`, as points.
pub(crate) fn anchor_points(tile: &TileType, layout: &Layout) -> Vec<Pt> {
    let segments = tile.segments();
    let discs = layout.discs();
    let runs = sector_runs(&layout.sectors);
    let (mut cities, mut monasteries, mut gardens) = (0, 0, 0);
    segments
        .iter()
        .enumerate()
        .map(|(index, segment)| match segment.kind() {
            SegmentKind::City => {
                let city = layout.cities.get(cities);
                cities += 1;
                let Some(city) = city else { return CENTRE };
                let (sum, count) = city.polygon.iter().fold((pt(0.0, 0.0), 0.0), |(sum, n), p| {
                    (pt(sum.x + p.x, sum.y + p.y), n + 1.0)
                });
                let middle = pt(sum.x / count, sum.y / count);
                free_spot_in(
                    middle,
                    FIGURE_RADIUS,
                    Room::Inside(&city.polygon),
                    &layout.cities,
                    &layout.strokes,
                    &discs,
                    ANCHOR_GRID,
                )
                .unwrap_or(middle)
            }
            SegmentKind::Road | SegmentKind::River => layout
                .strokes
                .iter()
                .find(|stroke| stroke.segment == index)
                .and_then(|stroke| chain_middle(&stroke.chain))
                .map_or(CENTRE, |(middle, _)| middle),
            SegmentKind::Field => {
                if let Some((_, centre)) = layout.meadows.iter().find(|(field, _)| *field == index)
                {
                    return *centre;
                }
                // In one of the field's runs of sectors, out of the cities, nearest the
                // middle of the run: the largest run first, a smaller one if it has no room,
                // and with less room round the figure if none has.
                let mut own: Vec<Vec<Pt>> = runs
                    .iter()
                    .filter(|(field, _)| *field == index)
                    .map(|(_, shape)| shape.points())
                    .collect();
                own.sort_by(|a, b| area(b).total_cmp(&area(a)));
                let spot = [FIGURE_RADIUS, FIGURE_RADIUS / 2.0, 0.0].iter().find_map(|radius| {
                    own.iter().find_map(|polygon| {
                        free_spot_in(
                            polygon_middle(polygon),
                            *radius,
                            Room::InsideAndOutsideCities(polygon),
                            &layout.cities,
                            &layout.strokes,
                            &discs,
                            ANCHOR_GRID,
                        )
                    })
                });
                spot.unwrap_or(CENTRE)
            }
            SegmentKind::Monastery => {
                let at = layout.monasteries.get(monasteries).copied().unwrap_or(CENTRE);
                monasteries += 1;
                at
            }
            SegmentKind::Garden => {
                let at = layout.gardens.get(gardens).copied().unwrap_or(CENTRE);
                gardens += 1;
                at
            }
        })
        .collect()
}

/// The area of a polygon (shoelace formula).
fn area(polygon: &[Pt]) -> f64 {
    let mut twice = 0.0;
    for (i, a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        twice += a.x * b.y - b.x * a.y;
    }
    twice.abs() / 2.0
}

/// The average of a polygon's corners: where a figure is first tried in a field.
fn polygon_middle(polygon: &[Pt]) -> Pt {
    let n = polygon.len().max(1) as f64;
    let sum = polygon.iter().fold(pt(0.0, 0.0), |sum, p| pt(sum.x + p.x, sum.y + p.y));
    pt(sum.x / n, sum.y / n)
}
