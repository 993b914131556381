//! Sizes, colours and proportions of the drawings.

/// Side of one tile on the sheet, in pixels; tile geometry is computed in units of this.
pub(crate) const TILE: f64 = 120.0;
/// Space between two tiles, in pixels.
pub(crate) const GAP: f64 = 24.0;
/// Tiles per row.
pub(crate) const COLUMNS: usize = 8;
/// Space round the whole sheet, in pixels.
pub(crate) const MARGIN: f64 = 20.0;
/// Height of the title line, in pixels.
pub(crate) const TITLE_HEIGHT: f64 = 36.0;
/// Height of the two caption lines under a tile, in pixels.
pub(crate) const CAPTION_HEIGHT: f64 = 34.0;
/// Longest tile name shown in full under a tile; the caption's tooltip has the whole name.
pub(crate) const NAME_CHARS: usize = 24;

/// The neutral ground under a tile, seen only where no segment is drawn.
pub(crate) const GROUND: &str = "#d9d3c3";
/// Field shades, distinct enough that two neighbouring fields never look like one.
pub(crate) const GREENS: [&str; 4] = ["#9ccf5e", "#4f9a45", "#c9e69c", "#2f7d5c"];
pub(crate) const CITY_FILL: &str = "#d4a865";
pub(crate) const CITY_WALL: &str = "#6b4523";
pub(crate) const ROAD_EDGE: &str = "#4a4a4a";
pub(crate) const ROAD_FILL: &str = "#f4f2ec";
pub(crate) const RIVER_EDGE: &str = "#1d4f8a";
pub(crate) const RIVER_FILL: &str = "#4f95d6";

/// Depth of a one-edge city cap, as a fraction of the tile side.
pub(crate) const CAP_DEPTH: f64 = 0.3;
/// How far a cap keeps from a corner it shares with another edge: more when that edge is
/// another city's, so that two separate caps never seem to touch.
pub(crate) const CAP_INSET: f64 = 0.04;
pub(crate) const CAP_INSET_BY_CITY: f64 = 0.12;
/// Depth of the field left between the two walls of a city running across the tile.
pub(crate) const BAND_SIDE_DEPTH: f64 = 0.3;
/// The same on a side whose edge is another city's (a cap): deeper, so the two keep apart.
pub(crate) const BAND_SIDE_DEPTH_BESIDE_CITY: f64 = 0.5;
/// Where the marks printed on a whole tile prefer to sit: its corners, south-west first and
/// on clockwise (y grows to the south).
pub(crate) const TILE_MARK_CORNERS: [crate::geom::Pt; 4] = [
    crate::geom::Pt { x: 0.16, y: 0.84 },
    crate::geom::Pt { x: 0.16, y: 0.16 },
    crate::geom::Pt { x: 0.84, y: 0.16 },
    crate::geom::Pt { x: 0.84, y: 0.84 },
];
/// How far the mark of a meadow touching no edge moves from the centre towards the cities it
/// borders, per half tile of their edges' pull.
pub(crate) const MEADOW_PULL: f64 = 0.24;
/// Half the width of each of two cities crossing the tile (King & Robber Baron's KR05).
pub(crate) const CROSSING_HALF_WIDTH: f64 = 0.2;
/// Depth of the field left on the open side of a three-edge city.
pub(crate) const THREE_SIDED_OPENING: f64 = 0.35;
/// Where the wall of a city over two adjacent edges bends: the control point of its curve.
pub(crate) const CORNER_CONTROL: f64 = 0.68;
/// The same with another city on one of the other edges: a flatter wall leaves room for it.
pub(crate) const CORNER_CONTROL_BESIDE_CITY: f64 = 0.52;
/// The same with another city over the opposite corner: flatter still, leaving a meadow
/// between the two.
pub(crate) const CORNER_CONTROL_FACING_CITY: f64 = 0.34;
/// How far the control point of a bending road is pulled from the centre towards the corner
/// it bends round, leaving room between the road and a city over the opposite corner.
pub(crate) const BEND: f64 = 0.25;

/// Stroke widths of roads and rivers, as fractions of the tile side.
pub(crate) const ROAD_OUTER: f64 = 0.09;
pub(crate) const ROAD_INNER: f64 = 0.055;
pub(crate) const RIVER_OUTER: f64 = 0.11;
pub(crate) const RIVER_INNER: f64 = 0.075;

/// Radii, as fractions of the tile side, that icons keep clear around their centres.
pub(crate) const MONASTERY_RADIUS: f64 = 0.15;
pub(crate) const GARDEN_RADIUS: f64 = 0.1;
pub(crate) const LAKE_RADIUS: f64 = 0.1;
pub(crate) const JUNCTION_RADIUS: f64 = 0.06;
pub(crate) const PENNANT_RADIUS: f64 = 0.08;
pub(crate) const CATHEDRAL_RADIUS: f64 = 0.13;
pub(crate) const INN_RADIUS: f64 = 0.1;
pub(crate) const MEADOW_RADIUS: f64 = 0.08;
/// How far an inn stands from the middle of its road.
pub(crate) const INN_OFFSET: f64 = 0.17;

/// Candidate icon positions per tile side when looking for free room.
pub(crate) const GRID: u32 = 50;
/// Straight pieces a quadratic curve is cut into for geometry tests.
pub(crate) const CURVE_STEPS: u32 = 16;

/// The radius, as a fraction of the tile side, that a standing figure keeps clear.
pub(crate) const FIGURE_RADIUS: f64 = 0.08;
