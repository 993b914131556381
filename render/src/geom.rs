//! Points and shapes on a tile, in tile sides, and the geometry that places icons.

use carcassonne::Dir;

use crate::style::{CURVE_STEPS, TILE};
use crate::svg::{num, push};

/// A point on a tile, in tile sides: (0, 0) is the north-west corner and y grows south, as
/// in SVG.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pt {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

pub(crate) const fn pt(x: f64, y: f64) -> Pt {
    Pt { x, y }
}

pub(crate) const CENTRE: Pt = pt(0.5, 0.5);

impl Pt {
    pub(crate) fn lerp(self, to: Pt, t: f64) -> Pt {
        pt(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }

    pub(crate) fn dist(self, other: Pt) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// This point on the tile turned clockwise by `quarter_turns` round its centre.
    pub(crate) fn turned(self, quarter_turns: usize) -> Pt {
        (0..quarter_turns % 4).fold(self, |p, _| pt(1.0 - p.y, p.x))
    }

    /// The point as an SVG coordinate pair, in pixels within the tile.
    pub(crate) fn px(self) -> String {
        format!("{},{}", num(self.x * TILE), num(self.y * TILE))
    }
}

/// The middle of edge `dir`, where a road or river crosses it.
pub(crate) fn edge_middle(dir: Dir) -> Pt {
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
pub(crate) fn border(eighths: usize) -> Pt {
    const CORNERS: [Pt; 4] = [pt(0.0, 0.0), pt(1.0, 0.0), pt(1.0, 1.0), pt(0.0, 1.0)];
    let k = eighths % 8;
    if k.is_multiple_of(2) { CORNERS[k / 2] } else { edge_middle(Dir::from_index(k / 2)) }
}

/// The corner between `dir` and the next edge clockwise.
pub(crate) fn corner_after(dir: Dir) -> Pt {
    border(dir.index() * 2 + 2)
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    Move(Pt),
    Line(Pt),
    Quad(Pt, Pt),
}

/// A shape made of straight lines and quadratic curves, kept both for drawing and for the
/// geometry that places icons clear of it.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub(crate) steps: Vec<Step>,
    pub(crate) closed: bool,
}

impl Shape {
    pub(crate) fn open(steps: Vec<Step>) -> Shape {
        Shape { steps, closed: false }
    }

    pub(crate) fn closed(steps: Vec<Step>) -> Shape {
        Shape { steps, closed: true }
    }

    pub(crate) fn turned(&self, quarter_turns: usize) -> Shape {
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
    pub(crate) fn d(&self) -> String {
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
    pub(crate) fn points(&self) -> Vec<Pt> {
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
pub(crate) fn contains(polygon: &[Pt], p: Pt) -> bool {
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

pub(crate) fn segment_distance(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    if length_squared == 0.0 {
        return p.dist(a);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length_squared).clamp(0.0, 1.0);
    p.dist(a.lerp(b, t))
}

/// Distance from `p` to the nearest point of a chain of points.
pub(crate) fn chain_distance(chain: &[Pt], p: Pt) -> f64 {
    match chain {
        [] => f64::INFINITY,
        [only] => p.dist(*only),
        _ => {
            chain.windows(2).map(|w| segment_distance(p, w[0], w[1])).fold(f64::INFINITY, f64::min)
        }
    }
}

/// Distance from `p` to the boundary of a polygon.
pub(crate) fn boundary_distance(polygon: &[Pt], p: Pt) -> f64 {
    let closing = match (polygon.first(), polygon.last()) {
        (Some(first), Some(last)) => segment_distance(p, *last, *first),
        _ => f64::INFINITY,
    };
    chain_distance(polygon, p).min(closing)
}
