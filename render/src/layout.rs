//! Where everything on a tile goes, worked out from its segments.

use carcassonne::{ByDir, Dir, DirSet, EdgeKind, HalfEdge, MarkInfo, SegmentKind, TileType};

use crate::glyph::{self, Drawn};

use crate::geom::*;
use crate::style::*;

/// The shape of a city segment joining `edges`, on a tile whose edges are `tile_edges`.
///
/// One edge is a cap hugging it; two opposite edges a band through the middle; two adjacent
/// edges a corner reaching past the centre; three edges everything but a field on the open
/// side; four the whole tile. Each is drawn for one orientation and turned into place.
pub(crate) fn city_shape(edges: DirSet, tile_edges: ByDir<EdgeKind>) -> Shape {
    let dirs: Vec<Dir> = edges.iter().collect();
    match dirs.as_slice() {
        [dir] => {
            let inset = |other: Dir| {
                if tile_edges[other] == EdgeKind::City { CAP_INSET_BY_CITY } else { CAP_INSET }
            };
            // Drawn on the north edge: the left end is at the corner shared with the edge
            // before `dir` clockwise, the right end at the corner shared with the next one.
            let left = inset(Dir::from_index(dir.index() + 3));
            let right = inset(Dir::from_index(dir.index() + 1));
            Shape::closed(vec![
                Step::Move(pt(left, 0.0)),
                Step::Line(pt(1.0 - right, 0.0)),
                Step::Quad(pt((left + 1.0 - right) / 2.0, 2.0 * CAP_DEPTH), pt(left, 0.0)),
            ])
            .turned(dir.index())
        }
        [a, b] if a.opposite() == *b => {
            // A side facing another city's edge curves in further, leaving room for it.
            let side = |dir: Dir| {
                2.0 * if tile_edges[dir] == EdgeKind::City {
                    BAND_SIDE_DEPTH_BESIDE_CITY
                } else {
                    BAND_SIDE_DEPTH
                }
            };
            let (right, left) =
                (side(Dir::from_index(a.index() + 1)), side(Dir::from_index(a.index() + 3)));
            Shape::closed(vec![
                Step::Move(pt(0.0, 0.0)),
                Step::Line(pt(1.0, 0.0)),
                Step::Quad(pt(1.0 - right, 0.5), pt(1.0, 1.0)),
                Step::Line(pt(0.0, 1.0)),
                Step::Quad(pt(left, 0.5), pt(0.0, 0.0)),
            ])
            // Drawn joining north and south; `a` is north or east, the first in the set.
            .turned(a.index())
        }
        [a, b] => {
            // Drawn over the north-west corner, joining west and north; `later` is the edge
            // that comes clockwise after the other, north in the drawing.
            let later = if Dir::from_index(a.index() + 1) == *b { *b } else { *a };
            let others = Dir::ALL
                .into_iter()
                .filter(|dir| !edges.contains(*dir) && tile_edges[*dir] == EdgeKind::City)
                .count();
            let control = match others {
                0 => CORNER_CONTROL,
                1 => CORNER_CONTROL_BESIDE_CITY,
                _ => CORNER_CONTROL_FACING_CITY,
            };
            // The wall keeps off a corner shared with another city's edge, as a cap does.
            let inset = |dir: Dir| {
                if tile_edges[dir] == EdgeKind::City { CAP_INSET_BY_CITY } else { 0.0 }
            };
            let east = inset(Dir::from_index(later.index() + 1));
            let south = inset(Dir::from_index(later.index() + 2));
            Shape::closed(vec![
                Step::Move(pt(0.0, 0.0)),
                Step::Line(pt(1.0 - east, 0.0)),
                Step::Quad(pt(control, control), pt(0.0, 1.0 - south)),
            ])
            .turned(later.index())
        }
        [_, _, _] => {
            let open = Dir::ALL.into_iter().find(|dir| !edges.contains(*dir)).unwrap_or(Dir::S);
            Shape::closed(vec![
                Step::Move(pt(0.0, 0.0)),
                Step::Line(pt(1.0, 0.0)),
                Step::Line(pt(1.0, 1.0)),
                Step::Quad(pt(0.5, 1.0 - 2.0 * THREE_SIDED_OPENING), pt(0.0, 1.0)),
            ])
            // Drawn open to the south.
            .turned(open.index() + 2)
        }
        _ => Shape::closed(vec![
            Step::Move(pt(0.0, 0.0)),
            Step::Line(pt(1.0, 0.0)),
            Step::Line(pt(1.0, 1.0)),
            Step::Line(pt(0.0, 1.0)),
        ]),
    }
}

/// Whether a city joining `edges` (two opposite ones) crosses another city of `tile` that
/// joins the other two: the two cannot be drawn apart, only one over the other.
pub(crate) fn crosses_another_city(tile: &TileType, edges: DirSet) -> bool {
    let dirs: Vec<Dir> = edges.iter().collect();
    let [a, b] = dirs.as_slice() else { return false };
    if a.opposite() != *b {
        return false;
    }
    let across = Dir::from_index(a.index() + 1);
    tile.segments().iter().any(|other| {
        other.kind() == SegmentKind::City
            && other.edges().contains(across)
            && other.edges().contains(across.opposite())
            && other.edges().len() == 2
    })
}

/// A city segment as drawn.
pub(crate) struct City {
    pub(crate) shape: Shape,
    pub(crate) polygon: Vec<Pt>,
}

/// One line of a road or river as drawn; a segment joining three or four edges has one per
/// edge.
pub(crate) struct Stroke {
    pub(crate) segment: usize,
    pub(crate) river: bool,
    pub(crate) shape: Shape,
    pub(crate) chain: Vec<Pt>,
}

impl Stroke {
    pub(crate) fn new(segment: usize, river: bool, shape: Shape) -> Stroke {
        let chain = shape.points();
        Stroke { segment, river, shape, chain }
    }

    /// Half the drawn width, which icons keep clear of.
    pub(crate) fn half_width(&self) -> f64 {
        if self.river { RIVER_OUTER / 2.0 } else { ROAD_OUTER / 2.0 }
    }
}

/// A round icon already placed, which later icons keep clear of.
#[derive(Clone, Copy)]
pub(crate) struct Disc {
    pub(crate) centre: Pt,
    pub(crate) radius: f64,
}

/// Everything drawn on one tile, worked out from its segments before any of it is written.
pub(crate) struct Layout {
    /// The field segment that owns each half-edge's sector, by clockwise half-edge index.
    pub(crate) sectors: [Option<usize>; 8],
    /// The shade of each segment, by segment index; used for fields only.
    pub(crate) greens: Vec<usize>,
    /// Where a road or river bends round a corner, the sliver between its curve and the
    /// sector lines belongs to the field outside the bend.
    pub(crate) bend_patches: Vec<(usize, Shape)>,
    /// Fields touching no edge that the sectors do not show, with where they are drawn.
    pub(crate) meadows: Vec<(usize, Pt)>,
    pub(crate) cities: Vec<City>,
    pub(crate) strokes: Vec<Stroke>,
    pub(crate) lakes: Vec<Pt>,
    pub(crate) junctions: Vec<Pt>,
    pub(crate) monasteries: Vec<Pt>,
    pub(crate) gardens: Vec<Pt>,
    /// Every mark printed on the tile, as its declaration says to draw it.
    pub(crate) marks: Vec<Drawn>,
}

/// Where an icon of `radius` fits nearest to `prefer`: inside `within` if given, else outside
/// every city; clear of every stroke and disc and of the tile's border. Falls back to
/// `prefer` when nothing fits, so a crowded tile still shows every icon.
pub(crate) fn free_spot(
    prefer: Pt,
    radius: f64,
    within: Option<&[Pt]>,
    cities: &[City],
    strokes: &[Stroke],
    discs: &[Disc],
) -> Pt {
    let room = match within {
        Some(polygon) => Room::Inside(polygon),
        None => Room::OutsideCities,
    };
    free_spot_in(prefer, radius, room, cities, strokes, discs, GRID).unwrap_or(prefer)
}

/// Where a spot may be.
#[derive(Clone, Copy)]
pub(crate) enum Room<'a> {
    /// Inside a polygon, `radius` from its boundary: a city.
    Inside(&'a [Pt]),
    /// Outside every city.
    OutsideCities,
    /// Inside a polygon (a field's sectors, whose sides are not drawn) and outside every city.
    InsideAndOutsideCities(&'a [Pt]),
}

/// [`free_spot`] in `room`, trying `grid` + 1 points a side, or `None` when nothing fits.
pub(crate) fn free_spot_in(
    prefer: Pt,
    radius: f64,
    room: Room<'_>,
    cities: &[City],
    strokes: &[Stroke],
    discs: &[Disc],
    grid: u32,
) -> Option<Pt> {
    let outside_cities = |q: Pt| {
        cities.iter().all(|city| {
            !contains(&city.polygon, q) && boundary_distance(&city.polygon, q) >= radius
        })
    };
    let mut best: Option<(f64, Pt)> = None;
    for j in 0..=grid {
        for i in 0..=grid {
            let q = pt(f64::from(i) / f64::from(grid), f64::from(j) / f64::from(grid));
            let inside_tile = [q.x, q.y].iter().all(|v| (radius..=1.0 - radius).contains(v));
            let fits = inside_tile
                && match room {
                    Room::Inside(polygon) => {
                        contains(polygon, q) && boundary_distance(polygon, q) >= radius
                    }
                    Room::OutsideCities => outside_cities(q),
                    Room::InsideAndOutsideCities(polygon) => {
                        contains(polygon, q) && outside_cities(q)
                    }
                }
                && strokes
                    .iter()
                    .all(|stroke| chain_distance(&stroke.chain, q) >= radius + stroke.half_width())
                && discs.iter().all(|disc| q.dist(disc.centre) >= radius + disc.radius);
            let score = q.dist(prefer);
            // Strictly better only, so ties go to the first candidate north-west first.
            if fits && best.is_none_or(|(best_score, _)| score < best_score - 1e-9) {
                best = Some((score, q));
            }
        }
    }
    best.map(|(_, q)| q)
}

/// Which field owns each half-edge's sector of the tile.
///
/// A city edge has no field halves; the land behind its wall is given to the field met first
/// walking round the border away from that edge's middle, which is the field the picture
/// shows beside the city. With no such field it goes to a field touching no edge at all.
pub(crate) fn sectors(tile: &TileType) -> [Option<usize>; 8] {
    let owner = |half: HalfEdge| tile.field_at(half).map(usize::from);
    let enclosed = tile.segments().iter().position(|segment| {
        segment.kind() == SegmentKind::Field && segment.half_edges().is_empty()
    });
    HalfEdge::ALL.map(|half| {
        owner(half)
            .or_else(|| {
                // The first half of an edge lies towards the previous edge: walk backwards.
                let step = if half.index() % 2 == 0 { 7 } else { 1 };
                (1..8).map(|k| HalfEdge::from_index(half.index() + k * step)).find_map(owner)
            })
            .or(enclosed)
    })
}

/// A shade for every field such that fields with neighbouring sectors differ.
pub(crate) fn greens(tile: &TileType, sectors: &[Option<usize>; 8]) -> Vec<usize> {
    let segments = tile.segments();
    let mut shade: Vec<Option<usize>> = vec![None; segments.len()];
    let fields = (0..segments.len()).filter(|&i| segments[i].kind() == SegmentKind::Field);
    for (order, field) in fields.enumerate() {
        let mut taken = [false; GREENS.len()];
        for i in 0..8 {
            let (here, next) = (sectors[i], sectors[(i + 1) % 8]);
            let neighbour = match (here, next) {
                (Some(a), Some(b)) if a == field && b != field => Some(b),
                (Some(a), Some(b)) if b == field && a != field => Some(a),
                _ => None,
            };
            if let Some(used) = neighbour.and_then(|n| shade[n]) {
                taken[used] = true;
            }
        }
        let free = (0..GREENS.len()).find(|&g| !taken[g]);
        shade[field] = Some(free.unwrap_or(order % GREENS.len()));
    }
    shade.into_iter().map(|g| g.unwrap_or(0)).collect()
}

/// The first point on the way from `from` to `to` that lies inside a city, if any: where a
/// road running that way reaches a city gate.
pub(crate) fn first_city_hit(from: Pt, to: Pt, cities: &[City]) -> Option<Pt> {
    (2..=100)
        .map(|i| from.lerp(to, f64::from(i) / 100.0))
        .find(|p| cities.iter().any(|city| contains(&city.polygon, *p)))
}

/// The point halfway along a chain, with the unit normal of the chain there.
pub(crate) fn chain_middle(chain: &[Pt]) -> Option<(Pt, Pt)> {
    let total: f64 = chain.windows(2).map(|w| w[0].dist(w[1])).sum();
    let mut left = total / 2.0;
    for w in chain.windows(2) {
        let length = w[0].dist(w[1]);
        if length > 0.0 && left <= length {
            let normal = pt(-(w[1].y - w[0].y) / length, (w[1].x - w[0].x) / length);
            return Some((w[0].lerp(w[1], left / length), normal));
        }
        left -= length;
    }
    None
}

/// Where everything on `tile` goes: shapes first, then icons in the room they leave.
pub(crate) fn layout(tile: &TileType, marks: &[MarkInfo]) -> Layout {
    let segments = tile.segments();
    let sectors = sectors(tile);
    let greens = greens(tile, &sectors);

    let cities: Vec<City> = segments
        .iter()
        .filter(|segment| segment.kind() == SegmentKind::City)
        .map(|segment| {
            let shape = if crosses_another_city(tile, segment.edges()) {
                // Two cities crossing (King & Robber Baron's KR05): each a straight street of
                // houses, the later drawn over the other, walls and all, like a bridge, and the
                // corners left to the meadows between them.
                let first = segment.edges().iter().next().unwrap_or(Dir::N);
                let (near, far) = (0.5 - CROSSING_HALF_WIDTH, 0.5 + CROSSING_HALF_WIDTH);
                Shape::closed(vec![
                    Step::Move(pt(near, 0.0)),
                    Step::Line(pt(far, 0.0)),
                    Step::Line(pt(far, 1.0)),
                    Step::Line(pt(near, 1.0)),
                ])
                .turned(first.index())
            } else {
                city_shape(segment.edges(), tile.edges())
            };
            let polygon = shape.points();
            City { shape, polygon }
        })
        .collect();
    let city_of = |segment: usize| {
        let nth = segments[..segment].iter().filter(|s| s.kind() == SegmentKind::City).count();
        cities.get(nth)
    };

    // Roads and rivers that cross the tile come first: where they run fixes where the
    // monastery and the ends of the other roads can go.
    let mut strokes = Vec::new();
    let mut bend_patches = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        let river = match segment.kind() {
            SegmentKind::Road => false,
            SegmentKind::River => true,
            _ => continue,
        };
        let dirs: Vec<Dir> = segment.edges().iter().collect();
        match dirs.as_slice() {
            [_] => {}
            [a, b] if a.opposite() == *b => {
                let line = vec![Step::Move(edge_middle(*a)), Step::Line(edge_middle(*b))];
                strokes.push(Stroke::new(index, river, Shape::open(line)));
            }
            [a, b] => {
                // `first` is the edge whose next edge clockwise is the other; the bend goes
                // round the corner between them.
                let (first, second) =
                    if Dir::from_index(a.index() + 1) == *b { (*a, *b) } else { (*b, *a) };
                let (from, to) = (edge_middle(first), edge_middle(second));
                let control = CENTRE.lerp(corner_after(first), BEND);
                let curve = vec![Step::Move(from), Step::Quad(control, to)];
                strokes.push(Stroke::new(index, river, Shape::open(curve)));
                let outside = HalfEdge::halves(first)[0];
                if let Some(field) = tile.field_at(outside) {
                    let patch = vec![
                        Step::Move(from),
                        Step::Line(CENTRE),
                        Step::Line(to),
                        Step::Quad(control, from),
                    ];
                    bend_patches.push((usize::from(field), Shape::closed(patch)));
                }
            }
            _ => {
                for dir in &dirs {
                    let arm = vec![Step::Move(edge_middle(*dir)), Step::Line(CENTRE)];
                    strokes.push(Stroke::new(index, river, Shape::open(arm)));
                }
            }
        }
    }

    let mut discs: Vec<Disc> = Vec::new();
    let place = |prefer: Pt,
                 radius: f64,
                 within: Option<&[Pt]>,
                 strokes: &[Stroke],
                 discs: &mut Vec<Disc>| {
        let centre = free_spot(prefer, radius, within, &cities, strokes, discs);
        discs.push(Disc { centre, radius });
        centre
    };

    let mut monasteries = Vec::new();
    for segment in segments {
        if segment.kind() == SegmentKind::Monastery {
            monasteries.push(place(CENTRE, MONASTERY_RADIUS, None, &strokes, &mut discs));
        }
    }

    // A river with one edge rises in or flows into a lake; a road with one edge ends at the
    // monastery, at the gate of a city, or at a junction in the middle.
    let mut lakes = Vec::new();
    let mut junctions = Vec::new();
    let road_ends =
        segments.iter().filter(|s| s.kind() == SegmentKind::Road && s.edges().len() == 1).count();
    let mut ends = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        let Some(dir) = segment.edges().iter().next() else { continue };
        if segment.edges().len() != 1 {
            continue;
        }
        let from = edge_middle(dir);
        let end = match segment.kind() {
            SegmentKind::River => {
                let lake = place(CENTRE, LAKE_RADIUS, None, &strokes, &mut discs);
                lakes.push(lake);
                lake
            }
            SegmentKind::Road => {
                let nearest_monastery = monasteries
                    .iter()
                    .copied()
                    .min_by(|a, b| from.dist(*a).total_cmp(&from.dist(*b)));
                // A lone road end on a tile with a city leads to the city, as printed; more
                // road ends meet at a junction unless a city is in the way.
                let lone_gate = (road_ends == 1)
                    .then(|| first_city_hit(from, edge_middle(dir.opposite()), &cities))
                    .flatten();
                if let Some(monastery) = nearest_monastery {
                    monastery
                } else if let Some(gate) =
                    lone_gate.or_else(|| first_city_hit(from, CENTRE, &cities))
                {
                    gate
                } else {
                    if junctions.is_empty() {
                        junctions.push(CENTRE);
                    }
                    CENTRE
                }
            }
            _ => continue,
        };
        let river = segment.kind() == SegmentKind::River;
        ends.push(Stroke::new(index, river, Shape::open(vec![Step::Move(from), Step::Line(end)])));
    }
    strokes.extend(ends);
    for junction in &junctions {
        discs.push(Disc { centre: *junction, radius: JUNCTION_RADIUS });
    }

    let mut meadows = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        let enclosed = segment.kind() == SegmentKind::Field && segment.half_edges().is_empty();
        if enclosed && !sectors.contains(&Some(index)) {
            // It lies between the cities it borders: from the centre towards the edges they
            // hold more of (a band's two edges cancel out, a cap beside it pulls the mark
            // into the gap between them).
            let (mut dx, mut dy) = (0.0, 0.0);
            for city in segment.cities().iter() {
                for dir in segments[usize::from(city)].edges().iter() {
                    let middle = edge_middle(dir);
                    dx += middle.x - CENTRE.x;
                    dy += middle.y - CENTRE.y;
                }
            }
            let prefer = pt(CENTRE.x + MEADOW_PULL * dx, CENTRE.y + MEADOW_PULL * dy);
            meadows.push((index, place(prefer, MEADOW_RADIUS, None, &strokes, &mut discs)));
        }
    }

    let mut gardens = Vec::new();
    for segment in segments {
        if segment.kind() == SegmentKind::Garden {
            gardens.push(place(CENTRE, GARDEN_RADIUS, None, &strokes, &mut discs));
        }
    }

    let mut drawn = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        for mark in segment.marks().iter() {
            let Some(info) = marks.get(mark.index()) else { continue };
            let radius = glyph::radius(info.glyph);
            let spot = match segment.kind() {
                SegmentKind::City => {
                    let Some(city) = city_of(index) else { continue };
                    let prefer = if glyph::stands_in_the_middle(info.glyph) {
                        CENTRE
                    } else {
                        // Near the wall of the city's first edge, where a cap has room.
                        let first = segment.edges().iter().next().unwrap_or(Dir::N);
                        edge_middle(first).lerp(CENTRE, 0.3)
                    };
                    place(prefer, radius, Some(&city.polygon), &strokes, &mut discs)
                }
                SegmentKind::Road | SegmentKind::River => {
                    let middle = strokes
                        .iter()
                        .find(|stroke| stroke.segment == index)
                        .and_then(|stroke| chain_middle(&stroke.chain));
                    let Some((middle, normal)) = middle else { continue };
                    // Beside the road on whichever side has room, left side first.
                    let sides = [1.0, -1.0].map(|sign| {
                        let prefer = pt(
                            middle.x + sign * INN_OFFSET * normal.x,
                            middle.y + sign * INN_OFFSET * normal.y,
                        );
                        let spot = free_spot(prefer, radius, None, &cities, &strokes, &discs);
                        (spot.dist(prefer), spot)
                    });
                    let spot = if sides[1].0 < sides[0].0 - 1e-9 { sides[1].1 } else { sides[0].1 };
                    discs.push(Disc { centre: spot, radius });
                    spot
                }
                SegmentKind::Field | SegmentKind::Monastery | SegmentKind::Garden => {
                    place(CENTRE, radius, None, &strokes, &mut discs)
                }
            };
            drawn.push(Drawn { glyph: info.glyph, colour: info.colour, spot });
        }
    }
    // Marks of the whole tile (a hill, a vineyard) sit in a corner, clear of the rest, the
    // first in the south-west, the next clockwise from it.
    for (nth, mark) in tile.marks().iter().enumerate() {
        let Some(info) = marks.get(mark.index()) else { continue };
        let radius = glyph::radius(info.glyph);
        let prefer = TILE_MARK_CORNERS[nth % TILE_MARK_CORNERS.len()];
        let spot = place(prefer, radius, None, &strokes, &mut discs);
        drawn.push(Drawn { glyph: info.glyph, colour: info.colour, spot });
    }

    Layout {
        sectors,
        greens,
        bend_patches,
        meadows,
        cities,
        strokes,
        lakes,
        junctions,
        monasteries,
        gardens,
        marks: drawn,
    }
}

/// Runs of neighbouring sectors owned by the same field, each as one polygon from the centre,
/// so that a field is one shape with no seams inside it.
pub(crate) fn sector_runs(sectors: &[Option<usize>; 8]) -> Vec<(usize, Shape)> {
    if let Some(field) = sectors[0].filter(|_| sectors.iter().all(|s| *s == sectors[0])) {
        let square = (0..4).map(|k| border(2 * k));
        let steps =
            square.enumerate().map(|(i, p)| if i == 0 { Step::Move(p) } else { Step::Line(p) });
        return vec![(field, Shape::closed(steps.collect()))];
    }
    // Start where the owner changes, so that no run wraps past the end of the list.
    let start = (0..8).find(|&i| sectors[i] != sectors[(i + 7) % 8]).unwrap_or(0);
    let mut runs = Vec::new();
    let mut i = 0;
    while i < 8 {
        let owner = sectors[(start + i) % 8];
        let mut length = 1;
        while i + length < 8 && sectors[(start + i + length) % 8] == owner {
            length += 1;
        }
        if let Some(field) = owner {
            let mut steps = vec![Step::Move(CENTRE)];
            steps.extend((start + i..=start + i + length).map(|k| Step::Line(border(k))));
            runs.push((field, Shape::closed(steps)));
        }
        i += length;
    }
    runs
}

impl Layout {
    /// The same layout on the tile turned clockwise by `quarter_turns`: every shape and
    /// point turned round the centre, each sector moved to the half-edge it turns to. Icons
    /// keep their places on the tile but are drawn upright.
    pub(crate) fn turned(&self, quarter_turns: usize) -> Layout {
        let q = quarter_turns % 4;
        let points = |points: &[Pt]| points.iter().map(|p| p.turned(q)).collect::<Vec<Pt>>();
        Layout {
            // The half-edge at index i of the turned tile was at index i - 2q before.
            sectors: core::array::from_fn(|i| self.sectors[(i + 8 - 2 * q) % 8]),
            greens: self.greens.clone(),
            bend_patches: self.bend_patches.iter().map(|(f, s)| (*f, s.turned(q))).collect(),
            meadows: self.meadows.iter().map(|(f, p)| (*f, p.turned(q))).collect(),
            cities: self
                .cities
                .iter()
                .map(|city| City { shape: city.shape.turned(q), polygon: points(&city.polygon) })
                .collect(),
            strokes: self
                .strokes
                .iter()
                .map(|stroke| Stroke {
                    segment: stroke.segment,
                    river: stroke.river,
                    shape: stroke.shape.turned(q),
                    chain: points(&stroke.chain),
                })
                .collect(),
            lakes: points(&self.lakes),
            junctions: points(&self.junctions),
            monasteries: points(&self.monasteries),
            gardens: points(&self.gardens),
            marks: self.marks.iter().map(|d| Drawn { spot: d.spot.turned(q), ..*d }).collect(),
        }
    }

    /// The round icons drawn on the tile, which a figure keeps clear of.
    pub(crate) fn discs(&self) -> Vec<Disc> {
        let disc = |radius: f64| move |centre: &Pt| Disc { centre: *centre, radius };
        let mut discs: Vec<Disc> = Vec::new();
        discs.extend(self.monasteries.iter().map(disc(MONASTERY_RADIUS)));
        discs.extend(self.gardens.iter().map(disc(GARDEN_RADIUS)));
        discs.extend(self.lakes.iter().map(disc(LAKE_RADIUS)));
        discs.extend(self.junctions.iter().map(disc(JUNCTION_RADIUS)));
        discs.extend(self.meadows.iter().map(|(_, centre)| disc(MEADOW_RADIUS)(centre)));
        discs.extend(
            self.marks.iter().map(|d| Disc { centre: d.spot, radius: glyph::radius(d.glyph) }),
        );
        discs
    }
}
