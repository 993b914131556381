//! Rendering a catalog as an SVG sheet, so a tile set author sees a mistake at a glance.

use std::fmt::{self, Write as _};

use carcassonne::{ByDir, Catalog, Dir, DirSet, EdgeKind, HalfEdge, Mark, SegmentKind, TileType};

/// Side of one tile on the sheet, in pixels; tile geometry is computed in units of this.
const TILE: f64 = 120.0;
/// Space between two tiles, in pixels.
const GAP: f64 = 24.0;
/// Tiles per row.
const COLUMNS: usize = 8;
/// Space round the whole sheet, in pixels.
const MARGIN: f64 = 20.0;
/// Height of the title line, in pixels.
const TITLE_HEIGHT: f64 = 36.0;
/// Height of the two caption lines under a tile, in pixels.
const CAPTION_HEIGHT: f64 = 34.0;
/// Longest tile name shown in full under a tile; the caption's tooltip has the whole name.
const NAME_CHARS: usize = 24;

/// The neutral ground under a tile, seen only where no segment is drawn.
const GROUND: &str = "#d9d3c3";
/// Field shades, distinct enough that two neighbouring fields never look like one.
const GREENS: [&str; 4] = ["#9ccf5e", "#4f9a45", "#c9e69c", "#2f7d5c"];
const CITY_FILL: &str = "#d4a865";
const CITY_WALL: &str = "#6b4523";
const ROAD_EDGE: &str = "#4a4a4a";
const ROAD_FILL: &str = "#f4f2ec";
const RIVER_EDGE: &str = "#1d4f8a";
const RIVER_FILL: &str = "#4f95d6";

/// Depth of a one-edge city cap, as a fraction of the tile side.
const CAP_DEPTH: f64 = 0.3;
/// How far a cap keeps from a corner it shares with another edge: more when that edge is
/// another city's, so that two separate caps never seem to touch.
const CAP_INSET: f64 = 0.04;
const CAP_INSET_BY_CITY: f64 = 0.12;
/// Depth of the field left between the two walls of a city running across the tile.
const BAND_SIDE_DEPTH: f64 = 0.3;
/// Depth of the field left on the open side of a three-edge city.
const THREE_SIDED_OPENING: f64 = 0.35;
/// Where the wall of a city over two adjacent edges bends: the control point of its curve.
const CORNER_CONTROL: f64 = 0.68;
/// The same with another city on one of the other edges: a flatter wall leaves room for it.
const CORNER_CONTROL_BESIDE_CITY: f64 = 0.52;
/// How far the control point of a bending road is pulled from the centre towards the corner
/// it bends round, leaving room between the road and a city over the opposite corner.
const BEND: f64 = 0.25;

/// Stroke widths of roads and rivers, as fractions of the tile side.
const ROAD_OUTER: f64 = 0.09;
const ROAD_INNER: f64 = 0.055;
const RIVER_OUTER: f64 = 0.11;
const RIVER_INNER: f64 = 0.075;

/// Radii, as fractions of the tile side, that icons keep clear around their centres.
const MONASTERY_RADIUS: f64 = 0.15;
const GARDEN_RADIUS: f64 = 0.1;
const LAKE_RADIUS: f64 = 0.1;
const JUNCTION_RADIUS: f64 = 0.06;
const PENNANT_RADIUS: f64 = 0.08;
const CATHEDRAL_RADIUS: f64 = 0.13;
const INN_RADIUS: f64 = 0.1;
const MEADOW_RADIUS: f64 = 0.08;
/// How far an inn stands from the middle of its road.
const INN_OFFSET: f64 = 0.17;

/// Candidate icon positions per tile side when looking for free room.
const GRID: u32 = 50;
/// Straight pieces a quadratic curve is cut into for geometry tests.
const CURVE_STEPS: u32 = 16;

/// Draws every tile type of `catalog` unrotated, eight to a row, each with its id, name and
/// count underneath and a title line naming the set.
///
/// Everything is drawn from the segments, so the picture shows what the engine read: which
/// edges a city joins, where roads run and end, which half-edges each field touches (one
/// shade of green per field), and where the pennants, cathedrals, inns, monasteries and
/// gardens are. The document is standalone and the same catalog always gives the same bytes.
#[must_use]
pub fn render_sheet(catalog: &Catalog) -> String {
    let tiles = catalog.tiles();
    let info = catalog.info();
    let title = format!(
        "{} \u{2014} set \u{201c}{}\u{201d}, edition {} \u{2014} {} tiles of {} types",
        info.name,
        info.id,
        info.edition,
        catalog.tile_count(),
        tiles.len()
    );
    let columns = tiles.len().clamp(1, COLUMNS);
    let rows = tiles.len().div_ceil(COLUMNS).max(1);
    let cell_width = TILE + GAP;
    let cell_height = TILE + CAPTION_HEIGHT + GAP;
    // A rough width of the title at 16 px keeps a long set name on the sheet.
    let title_width = title.chars().count() as f64 * 8.5;
    let width = (2.0 * MARGIN + columns as f64 * cell_width - GAP).max(2.0 * MARGIN + title_width);
    let height = 2.0 * MARGIN + TITLE_HEIGHT + rows as f64 * cell_height - GAP;

    let mut out = String::new();
    push(
        &mut out,
        format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n",
            w = num(width),
            h = num(height)
        ),
    );
    push(&mut out, format_args!("<title>{}</title>\n", escape(&title)));
    push(
        &mut out,
        format_args!(
            "<defs><clipPath id=\"tile-clip\"><rect width=\"{t}\" height=\"{t}\"/></clipPath></defs>\n",
            t = num(TILE)
        ),
    );
    push(&mut out, format_args!("<rect width=\"100%\" height=\"100%\" fill=\"#f7f5ef\"/>\n"));
    push(
        &mut out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" fill=\"#222\">{}</text>\n",
            num(MARGIN),
            num(MARGIN + 16.0),
            escape(&title)
        ),
    );
    for (index, tile) in tiles.iter().enumerate() {
        let x = MARGIN + (index % COLUMNS) as f64 * cell_width;
        let y = MARGIN + TITLE_HEIGHT + (index / COLUMNS) as f64 * cell_height;
        render_tile(&mut out, tile, x, y);
    }
    out.push_str("</svg>\n");
    out
}

/// Appends formatted text to the document.
fn push(out: &mut String, args: fmt::Arguments<'_>) {
    // Formatting into a `String` never fails; the `Result` exists only for other writers.
    let _ = out.write_fmt(args);
}

/// A coordinate for the document: one decimal is finer than a pixel, and fewer digits keep
/// the sheet small and byte-for-byte stable.
fn num(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    // Rounding can give -0, which would print as "-0".
    if rounded == 0.0 { String::from("0") } else { format!("{rounded}") }
}

/// `text` with the characters that XML gives a meaning replaced by entities.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// `name`, cut to at most `max` characters with an ellipsis when it is longer.
fn truncate(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return String::from(name);
    }
    let mut short: String = name.chars().take(max.saturating_sub(1)).collect();
    short.truncate(short.trim_end().len());
    short.push('\u{2026}');
    short
}

/// A point on a tile, in tile sides: (0, 0) is the north-west corner and y grows south, as
/// in SVG.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pt {
    x: f64,
    y: f64,
}

const fn pt(x: f64, y: f64) -> Pt {
    Pt { x, y }
}

const CENTRE: Pt = pt(0.5, 0.5);

impl Pt {
    fn lerp(self, to: Pt, t: f64) -> Pt {
        pt(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }

    fn dist(self, other: Pt) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// This point on the tile turned clockwise by `quarter_turns` round its centre.
    fn turned(self, quarter_turns: usize) -> Pt {
        (0..quarter_turns % 4).fold(self, |p, _| pt(1.0 - p.y, p.x))
    }

    /// The point as an SVG coordinate pair, in pixels within the tile.
    fn px(self) -> String {
        format!("{},{}", num(self.x * TILE), num(self.y * TILE))
    }
}

/// The middle of edge `dir`, where a road or river crosses it.
fn edge_middle(dir: Dir) -> Pt {
    match dir {
        Dir::N => pt(0.5, 0.0),
        Dir::E => pt(1.0, 0.5),
        Dir::S => pt(0.5, 1.0),
        Dir::W => pt(0.0, 0.5),
    }
}

/// The point `eighths` eighths of the way round the border clockwise from the north-west
/// corner: even values are corners, odd ones edge middles, so half-edge `i` runs from `i` to
/// `i + 1`.
fn border(eighths: usize) -> Pt {
    const CORNERS: [Pt; 4] = [pt(0.0, 0.0), pt(1.0, 0.0), pt(1.0, 1.0), pt(0.0, 1.0)];
    let k = eighths % 8;
    if k.is_multiple_of(2) { CORNERS[k / 2] } else { edge_middle(Dir::from_index(k / 2)) }
}

/// The corner between `dir` and the next edge clockwise.
fn corner_after(dir: Dir) -> Pt {
    border(dir.index() * 2 + 2)
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Move(Pt),
    Line(Pt),
    Quad(Pt, Pt),
}

/// A shape made of straight lines and quadratic curves, kept both for drawing and for the
/// geometry that places icons clear of it.
#[derive(Clone, Debug)]
struct Shape {
    steps: Vec<Step>,
    closed: bool,
}

impl Shape {
    fn open(steps: Vec<Step>) -> Shape {
        Shape { steps, closed: false }
    }

    fn closed(steps: Vec<Step>) -> Shape {
        Shape { steps, closed: true }
    }

    fn turned(&self, quarter_turns: usize) -> Shape {
        let steps = self
            .steps
            .iter()
            .map(|step| match *step {
                Step::Move(p) => Step::Move(p.turned(quarter_turns)),
                Step::Line(p) => Step::Line(p.turned(quarter_turns)),
                Step::Quad(c, p) => Step::Quad(c.turned(quarter_turns), p.turned(quarter_turns)),
            })
            .collect();
        Shape { steps, closed: self.closed }
    }

    /// The SVG path data, in pixels within the tile.
    fn d(&self) -> String {
        let mut d = String::new();
        for step in &self.steps {
            match *step {
                Step::Move(p) => push(&mut d, format_args!("M{}", p.px())),
                Step::Line(p) => push(&mut d, format_args!("L{}", p.px())),
                Step::Quad(c, p) => push(&mut d, format_args!("Q{} {}", c.px(), p.px())),
            }
        }
        if self.closed {
            d.push('Z');
        }
        d
    }

    /// The shape as a chain of points, curves cut into short straight pieces.
    fn points(&self) -> Vec<Pt> {
        let mut points: Vec<Pt> = Vec::new();
        for step in &self.steps {
            match *step {
                Step::Move(p) | Step::Line(p) => points.push(p),
                Step::Quad(c, p) => {
                    let start = points.last().copied().unwrap_or(p);
                    for i in 1..=CURVE_STEPS {
                        let t = f64::from(i) / f64::from(CURVE_STEPS);
                        points.push(start.lerp(c, t).lerp(c.lerp(p, t), t));
                    }
                }
            }
        }
        points
    }
}

/// Whether `p` lies inside the polygon (even-odd rule).
fn contains(polygon: &[Pt], p: Pt) -> bool {
    let mut inside = false;
    let mut previous = match polygon.last() {
        Some(last) => *last,
        None => return false,
    };
    for &current in polygon {
        if (current.y > p.y) != (previous.y > p.y) {
            let x =
                current.x + (p.y - current.y) * (previous.x - current.x) / (previous.y - current.y);
            if p.x < x {
                inside = !inside;
            }
        }
        previous = current;
    }
    inside
}

fn segment_distance(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    if length_squared == 0.0 {
        return p.dist(a);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length_squared).clamp(0.0, 1.0);
    p.dist(a.lerp(b, t))
}

/// Distance from `p` to the nearest point of a chain of points.
fn chain_distance(chain: &[Pt], p: Pt) -> f64 {
    match chain {
        [] => f64::INFINITY,
        [only] => p.dist(*only),
        _ => {
            chain.windows(2).map(|w| segment_distance(p, w[0], w[1])).fold(f64::INFINITY, f64::min)
        }
    }
}

/// Distance from `p` to the boundary of a polygon.
fn boundary_distance(polygon: &[Pt], p: Pt) -> f64 {
    let closing = match (polygon.first(), polygon.last()) {
        (Some(first), Some(last)) => segment_distance(p, *last, *first),
        _ => f64::INFINITY,
    };
    chain_distance(polygon, p).min(closing)
}

/// The shape of a city segment joining `edges`, on a tile whose edges are `tile_edges`.
///
/// One edge is a cap hugging it; two opposite edges a band through the middle; two adjacent
/// edges a corner reaching past the centre; three edges everything but a field on the open
/// side; four the whole tile. Each is drawn for one orientation and turned into place.
fn city_shape(edges: DirSet, tile_edges: ByDir<EdgeKind>) -> Shape {
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
            let side = 2.0 * BAND_SIDE_DEPTH;
            Shape::closed(vec![
                Step::Move(pt(0.0, 0.0)),
                Step::Line(pt(1.0, 0.0)),
                Step::Quad(pt(1.0 - side, 0.5), pt(1.0, 1.0)),
                Step::Line(pt(0.0, 1.0)),
                Step::Quad(pt(side, 0.5), pt(0.0, 0.0)),
            ])
            // Drawn joining north and south; `a` is north or east, the first in the set.
            .turned(a.index())
        }
        [a, b] => {
            // Drawn over the north-west corner, joining west and north; `later` is the edge
            // that comes clockwise after the other, north in the drawing.
            let later = if Dir::from_index(a.index() + 1) == *b { *b } else { *a };
            let crowded = Dir::ALL
                .into_iter()
                .any(|dir| !edges.contains(dir) && tile_edges[dir] == EdgeKind::City);
            let control = if crowded { CORNER_CONTROL_BESIDE_CITY } else { CORNER_CONTROL };
            Shape::closed(vec![
                Step::Move(pt(0.0, 0.0)),
                Step::Line(pt(1.0, 0.0)),
                Step::Quad(pt(control, control), pt(0.0, 1.0)),
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

/// A city segment as drawn.
struct City {
    shape: Shape,
    polygon: Vec<Pt>,
}

/// One line of a road or river as drawn; a segment joining three or four edges has one per
/// edge.
struct Stroke {
    segment: usize,
    river: bool,
    shape: Shape,
    chain: Vec<Pt>,
}

impl Stroke {
    fn new(segment: usize, river: bool, shape: Shape) -> Stroke {
        let chain = shape.points();
        Stroke { segment, river, shape, chain }
    }

    /// Half the drawn width, which icons keep clear of.
    fn half_width(&self) -> f64 {
        if self.river { RIVER_OUTER / 2.0 } else { ROAD_OUTER / 2.0 }
    }
}

/// A round icon already placed, which later icons keep clear of.
#[derive(Clone, Copy)]
struct Disc {
    centre: Pt,
    radius: f64,
}

/// Everything drawn on one tile, worked out from its segments before any of it is written.
struct Layout {
    /// The field segment that owns each half-edge's sector, by clockwise half-edge index.
    sectors: [Option<usize>; 8],
    /// The shade of each segment, by segment index; used for fields only.
    greens: Vec<usize>,
    /// Where a road or river bends round a corner, the sliver between its curve and the
    /// sector lines belongs to the field outside the bend.
    bend_patches: Vec<(usize, Shape)>,
    /// Fields touching no edge that the sectors do not show, with where they are drawn.
    meadows: Vec<(usize, Pt)>,
    cities: Vec<City>,
    strokes: Vec<Stroke>,
    lakes: Vec<Pt>,
    junctions: Vec<Pt>,
    monasteries: Vec<Pt>,
    gardens: Vec<Pt>,
    marks: Vec<(Mark, Pt)>,
}

/// Where an icon of `radius` fits nearest to `prefer`: inside `within` if given, else outside
/// every city; clear of every stroke and disc and of the tile's border. Falls back to
/// `prefer` when nothing fits, so a crowded tile still shows every icon.
fn free_spot(
    prefer: Pt,
    radius: f64,
    within: Option<&[Pt]>,
    cities: &[City],
    strokes: &[Stroke],
    discs: &[Disc],
) -> Pt {
    let mut best: Option<(f64, Pt)> = None;
    for j in 0..=GRID {
        for i in 0..=GRID {
            let q = pt(f64::from(i) / f64::from(GRID), f64::from(j) / f64::from(GRID));
            let inside_tile = [q.x, q.y].iter().all(|v| (radius..=1.0 - radius).contains(v));
            let fits = inside_tile
                && match within {
                    Some(polygon) => {
                        contains(polygon, q) && boundary_distance(polygon, q) >= radius
                    }
                    None => cities.iter().all(|city| {
                        !contains(&city.polygon, q) && boundary_distance(&city.polygon, q) >= radius
                    }),
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
    best.map_or(prefer, |(_, q)| q)
}

/// Which field owns each half-edge's sector of the tile.
///
/// A city edge has no field halves; the land behind its wall is given to the field met first
/// walking round the border away from that edge's middle, which is the field the picture
/// shows beside the city. With no such field it goes to a field touching no edge at all.
fn sectors(tile: &TileType) -> [Option<usize>; 8] {
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
fn greens(tile: &TileType, sectors: &[Option<usize>; 8]) -> Vec<usize> {
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
fn first_city_hit(from: Pt, to: Pt, cities: &[City]) -> Option<Pt> {
    (2..=100)
        .map(|i| from.lerp(to, f64::from(i) / 100.0))
        .find(|p| cities.iter().any(|city| contains(&city.polygon, *p)))
}

/// The point halfway along a chain, with the unit normal of the chain there.
fn chain_middle(chain: &[Pt]) -> Option<(Pt, Pt)> {
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
fn layout(tile: &TileType) -> Layout {
    let segments = tile.segments();
    let sectors = sectors(tile);
    let greens = greens(tile, &sectors);

    let cities: Vec<City> = segments
        .iter()
        .filter(|segment| segment.kind() == SegmentKind::City)
        .map(|segment| {
            let shape = city_shape(segment.edges(), tile.edges());
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
            meadows.push((index, place(CENTRE, MEADOW_RADIUS, None, &strokes, &mut discs)));
        }
    }

    let mut gardens = Vec::new();
    for segment in segments {
        if segment.kind() == SegmentKind::Garden {
            gardens.push(place(CENTRE, GARDEN_RADIUS, None, &strokes, &mut discs));
        }
    }

    let mut marks = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        for mark in segment.marks().iter() {
            let spot = match mark {
                Mark::Pennant | Mark::Cathedral => {
                    let Some(city) = city_of(index) else { continue };
                    let (prefer, radius) = if mark == Mark::Pennant {
                        // Near the wall of the city's first edge, where a cap has room.
                        let first = segment.edges().iter().next().unwrap_or(Dir::N);
                        (edge_middle(first).lerp(CENTRE, 0.3), PENNANT_RADIUS)
                    } else {
                        (CENTRE, CATHEDRAL_RADIUS)
                    };
                    place(prefer, radius, Some(&city.polygon), &strokes, &mut discs)
                }
                Mark::Inn => {
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
                        let spot = free_spot(prefer, INN_RADIUS, None, &cities, &strokes, &discs);
                        (spot.dist(prefer), spot)
                    });
                    let spot = if sides[1].0 < sides[0].0 - 1e-9 { sides[1].1 } else { sides[0].1 };
                    discs.push(Disc { centre: spot, radius: INN_RADIUS });
                    spot
                }
            };
            marks.push((mark, spot));
        }
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
        marks,
    }
}

/// Runs of neighbouring sectors owned by the same field, each as one polygon from the centre,
/// so that a field is one shape with no seams inside it.
fn sector_runs(sectors: &[Option<usize>; 8]) -> Vec<(usize, Shape)> {
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

fn render_tile(out: &mut String, tile: &TileType, x: f64, y: f64) {
    let layout = layout(tile);
    push(out, format_args!("<g transform=\"translate({},{})\">\n", num(x), num(y)));
    push(
        out,
        format_args!(
            "<title>{}: {} \u{d7}{}</title>\n",
            escape(tile.id()),
            escape(tile.name()),
            tile.count()
        ),
    );
    out.push_str("<g clip-path=\"url(#tile-clip)\">\n");
    push(
        out,
        format_args!("<rect width=\"{t}\" height=\"{t}\" fill=\"{GROUND}\"/>\n", t = num(TILE)),
    );

    // Fields first; a same-colour stroke hides the seams between pieces of a field. A bend
    // patch gets a wide one: beyond its straight sides lies the same field, beyond its curve
    // the road or river that covers it, and a thin one let the field under it show through.
    let green = |field: usize| GREENS[layout.greens.get(field).copied().unwrap_or(0)];
    let runs = sector_runs(&layout.sectors);
    let pieces =
        runs.iter().map(|run| (run, 1.2)).chain(layout.bend_patches.iter().map(|p| (p, 3.0)));
    for ((field, shape), width) in pieces {
        let g = green(*field);
        push(
            out,
            format_args!(
                "<path d=\"{}\" fill=\"{g}\" stroke=\"{g}\" stroke-width=\"{width}\" \
                 stroke-linejoin=\"round\"/>\n",
                shape.d()
            ),
        );
    }
    for (field, centre) in &layout.meadows {
        push(
            out,
            format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#2e6b25\"/>\n",
                num(centre.x * TILE),
                num(centre.y * TILE),
                num(MEADOW_RADIUS * TILE),
                green(*field)
            ),
        );
    }

    for city in &layout.cities {
        push(
            out,
            format_args!(
                "<path d=\"{}\" fill=\"{CITY_FILL}\" stroke=\"{CITY_WALL}\" stroke-width=\"1.6\" \
                 stroke-linejoin=\"round\"/>\n",
                city.shape.d()
            ),
        );
    }

    // Rivers under roads, so a road crossing a river reads as a bridge; each kind's dark
    // edges under all of its light middles, so joined arms look like one road.
    for river in [true, false] {
        let (edge, fill, outer, inner) = if river {
            (RIVER_EDGE, RIVER_FILL, RIVER_OUTER, RIVER_INNER)
        } else {
            (ROAD_EDGE, ROAD_FILL, ROAD_OUTER, ROAD_INNER)
        };
        let strokes: Vec<&Stroke> = layout.strokes.iter().filter(|s| s.river == river).collect();
        for (colour, width) in [(edge, outer), (fill, inner)] {
            for stroke in &strokes {
                push(
                    out,
                    format_args!(
                        "<path d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" \
                         stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
                        stroke.shape.d(),
                        num(width * TILE)
                    ),
                );
            }
        }
        if river {
            for lake in &layout.lakes {
                push(
                    out,
                    format_args!(
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{RIVER_FILL}\" \
                         stroke=\"{RIVER_EDGE}\" stroke-width=\"2\"/>\n",
                        num(lake.x * TILE),
                        num(lake.y * TILE),
                        num(LAKE_RADIUS * TILE * 0.9)
                    ),
                );
            }
        }
    }
    for junction in &layout.junctions {
        let side = JUNCTION_RADIUS * TILE * 1.4;
        push(
            out,
            format_args!(
                "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"#333\"/>\n",
                num(junction.x * TILE - side / 2.0),
                num(junction.y * TILE - side / 2.0),
                s = num(side)
            ),
        );
    }

    for monastery in &layout.monasteries {
        draw_monastery(out, *monastery);
    }
    for garden in &layout.gardens {
        draw_garden(out, *garden);
    }
    for (mark, spot) in &layout.marks {
        match mark {
            Mark::Pennant => draw_pennant(out, *spot),
            Mark::Cathedral => draw_cathedral(out, *spot),
            Mark::Inn => draw_inn(out, *spot),
        }
    }
    out.push_str("</g>\n");

    // Ids are never cut, since they are what a tile is looked up by; a long one gets a smaller
    // font (a bold character is about 0.6 of its size wide) so it stays under its tile.
    let caption = format!("{} \u{d7}{}", tile.id(), tile.count());
    let caption_size = (TILE / (0.6 * caption.chars().count() as f64)).clamp(7.0, 12.0);
    push(
        out,
        format_args!(
            "<rect width=\"{t}\" height=\"{t}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>\n",
            t = num(TILE)
        ),
    );
    push(
        out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#222\">\
             <tspan font-weight=\"bold\">{}</tspan> \u{d7}{}</text>\n",
            num(TILE / 2.0),
            num(TILE + 14.0),
            num(caption_size),
            escape(tile.id()),
            tile.count()
        ),
    );
    push(
        out,
        format_args!(
            "<text x=\"{}\" y=\"{}\" font-size=\"9.5\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
            num(TILE / 2.0),
            num(TILE + 27.0),
            escape(&truncate(tile.name(), NAME_CHARS))
        ),
    );
    out.push_str("</g>\n");
}

/// Opens a group drawn in pixels round the icon centre `spot`.
fn open_icon(out: &mut String, spot: Pt, class: &str) {
    push(
        out,
        format_args!(
            "<g class=\"{class}\" transform=\"translate({},{})\">",
            num(spot.x * TILE),
            num(spot.y * TILE)
        ),
    );
}

fn draw_monastery(out: &mut String, spot: Pt) {
    open_icon(out, spot, "monastery");
    out.push_str(
        "<rect x=\"-11\" y=\"-3\" width=\"22\" height=\"15\" fill=\"#f1e6cc\" stroke=\"#5a4630\"/>\
         <path d=\"M-14,-3L0,-15L14,-3Z\" fill=\"#c0392b\" stroke=\"#7a1f16\" stroke-linejoin=\"round\"/>\
         <rect x=\"-3\" y=\"4\" width=\"6\" height=\"8\" fill=\"#5a4630\"/>\
         <path d=\"M0,-22V-15M-3,-19.5H3\" stroke=\"#5a4630\" stroke-width=\"1.5\"/></g>\n",
    );
}

fn draw_garden(out: &mut String, spot: Pt) {
    open_icon(out, spot, "garden");
    out.push_str(
        "<rect x=\"-11\" y=\"-9\" width=\"22\" height=\"18\" rx=\"7\" fill=\"#6fbf4a\" \
         stroke=\"#2e6b25\" stroke-width=\"1.2\"/>\
         <circle cx=\"-5\" cy=\"-3\" r=\"2\" fill=\"#e84f8a\"/>\
         <circle cx=\"4\" cy=\"-4\" r=\"2\" fill=\"#f5d33b\"/>\
         <circle cx=\"0\" cy=\"4\" r=\"3\" fill=\"#2e6b25\"/>\
         <circle cx=\"6\" cy=\"3\" r=\"1.8\" fill=\"#e84f8a\"/></g>\n",
    );
}

fn draw_pennant(out: &mut String, spot: Pt) {
    open_icon(out, spot, "pennant");
    out.push_str(
        "<path d=\"M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z\" fill=\"#fff\"/>\
         <path d=\"M-7,-8H0V9Q-7,6 -7,0Z\" fill=\"#1f5fbf\"/>\
         <path d=\"M-7,-8H7V0Q7,6 0,9Q-7,6 -7,0Z\" fill=\"none\" stroke=\"#123a75\" \
         stroke-width=\"1.3\" stroke-linejoin=\"round\"/></g>\n",
    );
}

fn draw_cathedral(out: &mut String, spot: Pt) {
    open_icon(out, spot, "cathedral");
    out.push_str(
        "<rect x=\"-10\" y=\"-3\" width=\"20\" height=\"14\" fill=\"#b9b9b9\" stroke=\"#444\"/>\
         <path d=\"M-12,-3L0,-12L12,-3Z\" fill=\"#7d7d7d\" stroke=\"#444\" stroke-linejoin=\"round\"/>\
         <path d=\"M0,-20V-12M-3.5,-17H3.5\" stroke=\"#222\" stroke-width=\"1.8\"/>\
         <path d=\"M-3,11V5Q0,2 3,5V11Z\" fill=\"#444\"/></g>\n",
    );
}

fn draw_inn(out: &mut String, spot: Pt) {
    open_icon(out, spot, "inn");
    out.push_str(
        "<rect x=\"-8\" y=\"-2\" width=\"16\" height=\"10\" fill=\"#f4e3c1\" stroke=\"#6b4523\"/>\
         <path d=\"M-10,-2L0,-10L10,-2Z\" fill=\"#e07b1f\" stroke=\"#8a4a10\" stroke-linejoin=\"round\"/>\
         <rect x=\"-5\" y=\"1\" width=\"4\" height=\"4\" fill=\"#6b4523\"/>\
         <rect x=\"2\" y=\"2\" width=\"3.5\" height=\"6\" fill=\"#6b4523\"/></g>\n",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::BUILTIN_NAMES;

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
        let catalog =
            Catalog::from_toml("odd.toml", text).unwrap_or_else(|error| panic!("{error}"));
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
}
