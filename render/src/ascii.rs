//! The board as text: a block of 5 × 3 characters per tile, drawn from its segments, with
//! each declared mark by its glyph's character, and figures shown by their player's number and
//! kind.

use std::collections::BTreeMap;

use carcassonne::{
    Dir, EdgeKind, Figure, Game, HalfEdge, MarkInfo, PlacedFigure, Pos, Rotation, Segment,
    SegmentIndex, SegmentKind, TileType,
};

/// Characters per tile, west to east.
const WIDTH: usize = 5;
/// Lines per tile, north to south.
const HEIGHT: usize = 3;

/// The centre of a block.
const CENTRE: (usize, usize) = (1, 2);

/// Where a figure goes on its tile: the first cell of its segment in this order, so that it
/// sits in the middle of a monastery, on a road or city near its edge, and in a field away
/// from the road that splits it.
const FIGURE_CELLS: [(usize, usize); WIDTH * HEIGHT] = [
    CENTRE,
    (0, 2),
    (1, 4),
    (2, 2),
    (1, 0),
    (1, 1),
    (1, 3),
    (0, 1),
    (0, 3),
    (2, 1),
    (2, 3),
    (0, 0),
    (0, 4),
    (2, 4),
    (2, 0),
];

/// What the board of a game with these declared marks shows, for the reader.
///
/// ```
/// use carcassonne::Catalog;
/// let base = Catalog::builtin("base")?;
/// assert!(carcassonne_render::ascii::legend(base.marks()).contains("* pennant"));
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[must_use]
pub fn legend(marks: &[MarkInfo]) -> String {
    let mut out = String::from(
        "legend: # city   = | road (+ where roads meet)   ~ river   . field   M monastery   G garden\n",
    );
    if !marks.is_empty() {
        let named: Vec<String> = marks
            .iter()
            .map(|mark| {
                format!("{} {}", crate::glyph::letter(mark.glyph), mark.name.to_lowercase())
            })
            .collect();
        out.push_str(&format!("        {}\n", named.join("   ")));
    }
    out.push_str(
        "        0-5 a follower (a farmer in a field), A-F a big follower, a-f an abbot, of player 0-5",
    );
    out
}

/// A tile as it lies on the board.
pub struct Laid<'a> {
    /// Its cell.
    pub pos: Pos,
    /// Its type.
    pub tile: &'a TileType,
    /// The declared marks its segments' mark numbers index.
    pub marks: &'a [MarkInfo],
    /// How it is turned.
    pub rotation: Rotation,
}

/// `tile` turned by each rotation, side by side with its angle above, for a player choosing
/// how to lay it.
pub fn rotations(tile: &TileType, marks: &[MarkInfo]) -> String {
    let blocks: Vec<[[char; WIDTH]; HEIGHT]> =
        Rotation::ALL.into_iter().map(|rotation| block(tile, marks, rotation, &[])).collect();
    let mut out = String::new();
    for rotation in Rotation::ALL {
        out.push_str(&format!("{:<width$}", rotation.to_string(), width = WIDTH + 3));
    }
    push_line(&mut out);
    for row in 0..HEIGHT {
        for block in &blocks {
            out.extend(block[row].iter());
            out.push_str("   ");
        }
        push_line(&mut out);
    }
    out
}

/// What one character of a block shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spot {
    /// Part of this segment of the tile.
    Segment(SegmentIndex),
    /// The middle of a tile where three or more roads (or rivers) end.
    Crossing,
    /// Nothing the tile data places here (only a tile without fields leaves a gap).
    Blank,
}

/// The board of `game` as text: every tile and figure, coordinates in the margins; the
/// command-line tool's board and the Python environments' `ansi` rendering.
pub fn board(game: &Game) -> String {
    let laid: Vec<Laid<'_>> = game
        .placements()
        .iter()
        .filter_map(|(pos, _)| {
            let placed = game.board().get(*pos)?;
            Some(Laid {
                pos: *pos,
                tile: game.tile(placed.tile)?,
                marks: game.marks(),
                rotation: placed.rotation,
            })
        })
        .collect();
    let figures: Vec<PlacedFigure> = game.figures().collect();
    render(&laid, &figures)
}

/// Draws the tiles with x growing east (left to right) and y growing north (bottom to top),
/// with the coordinates of each column and row of tiles in the margins. Empty text for no
/// tiles.
pub fn render(tiles: &[Laid<'_>], figures: &[PlacedFigure]) -> String {
    let Some(first) = tiles.first() else { return String::new() };
    let (mut min, mut max) = (first.pos, first.pos);
    for laid in tiles {
        min = Pos::new(min.x.min(laid.pos.x), min.y.min(laid.pos.y));
        max = Pos::new(max.x.max(laid.pos.x), max.y.max(laid.pos.y));
    }
    let columns = usize::try_from(i32::from(max.x) - i32::from(min.x) + 1).unwrap_or(0);
    let blocks: BTreeMap<Pos, [[char; WIDTH]; HEIGHT]> = tiles
        .iter()
        .map(|laid| {
            let here: Vec<&PlacedFigure> =
                figures.iter().filter(|figure| figure.pos == laid.pos).collect();
            (laid.pos, block(laid.tile, laid.marks, laid.rotation, &here))
        })
        .collect();

    let margin =
        (i32::from(min.y)..=i32::from(max.y)).map(|y| y.to_string().len()).max().unwrap_or(1) + 1;
    let mut out = String::new();
    out.push_str(&" ".repeat(margin));
    for x in i32::from(min.x)..=i32::from(max.x) {
        out.push_str(&format!("{x:^WIDTH$}"));
    }
    push_line(&mut out);
    for y in (i32::from(min.y)..=i32::from(max.y)).rev() {
        for row in 0..HEIGHT {
            let label = if row == HEIGHT / 2 { y.to_string() } else { String::new() };
            out.push_str(&format!("{label:>width$} ", width = margin - 1));
            for column in 0..columns {
                let pos = Pos::new(min.x + column as i16, y as i16);
                match blocks.get(&pos) {
                    Some(block) => out.extend(block[row]),
                    None => out.push_str(&" ".repeat(WIDTH)),
                }
            }
            push_line(&mut out);
        }
    }
    out
}

/// Ends a line without trailing blanks.
fn push_line(out: &mut String) {
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
    out.push('\n');
}

/// The characters of one tile with its figures.
fn block(
    tile: &TileType,
    marks: &[MarkInfo],
    rotation: Rotation,
    figures: &[&PlacedFigure],
) -> [[char; WIDTH]; HEIGHT] {
    let segments: Vec<Segment> =
        tile.segments().iter().map(|segment| segment.rotated(rotation)).collect();
    let spots = spots(tile, rotation, &segments);
    let mut chars = [[' '; WIDTH]; HEIGHT];
    for (row, line) in spots.iter().enumerate() {
        for (column, spot) in line.iter().enumerate() {
            chars[row][column] = glyph(*spot, &segments, row, column);
        }
    }
    // Figures, then marks, each on the first free character of its segment in FIGURE_CELLS
    // order; a figure with none left takes any free character, a mark is left out.
    let mut taken = Vec::new();
    let free_on = |segment: SegmentIndex, taken: &[(usize, usize)]| {
        FIGURE_CELLS
            .iter()
            .copied()
            .find(|cell| spots[cell.0][cell.1] == Spot::Segment(segment) && !taken.contains(cell))
    };
    for figure in figures {
        let cell = free_on(figure.segment, &taken)
            .or_else(|| FIGURE_CELLS.into_iter().find(|c| !taken.contains(c)));
        let Some(cell) = cell else { continue };
        taken.push(cell);
        chars[cell.0][cell.1] = figure_char(figure);
    }
    for (index, segment) in segments.iter().enumerate() {
        let Ok(index) = SegmentIndex::try_from(index) else { continue };
        for mark in segment.marks().iter() {
            let Some(info) = marks.get(mark.index()) else { continue };
            let glyph = crate::glyph::letter(info.glyph);
            if let Some(cell) = free_on(index, &taken) {
                taken.push(cell);
                chars[cell.0][cell.1] = glyph;
            }
        }
    }
    chars
}

/// A follower (or farmer) as its player's digit, a big follower as a capital (A for player
/// 0), an abbot as a small letter; the special figures, which a cell has little room for, by
/// kind alone: a builder `#`, a pig `%`, a shepherd `&`, any figure of an author's set `?` (every
/// other sign is a mark's glyph or a figure's).
fn figure_char(figure: &PlacedFigure) -> char {
    let player = figure.player.0;
    let from = |first: u8| char::from(first.saturating_add(player));
    match figure.figure {
        Figure::FOLLOWER => char::from_digit(u32::from(player), 10).unwrap_or('?'),
        Figure::BIG_FOLLOWER => from(b'A'),
        Figure::ABBOT => from(b'a'),
        Figure::BUILDER => '#',
        Figure::PIG => '%',
        Figure::SHEPHERD => '&',
        // A letter would read as an abbot or a big follower.
        _ => '?',
    }
}

/// The segment under each character of a tile turned by `rotation`, whose segments,
/// already turned, are `segments`.
fn spots(tile: &TileType, rotation: Rotation, segments: &[Segment]) -> [[Spot; WIDTH]; HEIGHT] {
    let index = |position: Option<usize>| {
        position.and_then(|i| SegmentIndex::try_from(i).ok()).map_or(Spot::Blank, Spot::Segment)
    };
    let kind = |dir: Dir| tile.edge(dir, rotation);
    let at_edge = |dir: Dir| index(segments.iter().position(|s| s.edges().contains(dir)));
    let field = |half: HalfEdge| {
        index(
            segments
                .iter()
                .position(|s| s.kind() == SegmentKind::Field && s.half_edges().contains(half)),
        )
    };
    // The field nobody can point to by an edge: between two city edges of different cities.
    let inner_field = index(
        segments
            .iter()
            .position(|s| s.kind() == SegmentKind::Field && s.half_edges().is_empty())
            .or_else(|| segments.iter().position(|s| s.kind() == SegmentKind::Field)),
    );
    let edge = |dir: Dir| match kind(dir) {
        EdgeKind::Field => field(HalfEdge::halves(dir)[0]),
        _ => at_edge(dir),
    };
    let half = |half: HalfEdge| match kind(half.dir()) {
        EdgeKind::City => at_edge(half.dir()),
        _ => field(half),
    };
    let corner = |a: HalfEdge, b: HalfEdge| {
        let fields =
            [a, b].map(|h| if kind(h.dir()) == EdgeKind::City { Spot::Blank } else { field(h) });
        match fields {
            [Spot::Blank, Spot::Blank] if at_edge(a.dir()) == at_edge(b.dir()) => at_edge(a.dir()),
            [Spot::Blank, Spot::Blank] => inner_field,
            [Spot::Blank, b] => b,
            [a, _] => a,
        }
    };
    // Between the corners of a side: what lies above and below it when both agree (a city
    // running north to south), else what the side shows.
    let inner = |dir: Dir, up: HalfEdge, down: HalfEdge| {
        let (up, down) = (half(up), half(down));
        if kind(dir) == EdgeKind::Field && up == down { up } else { edge(dir) }
    };
    [
        [
            corner(HalfEdge::N_w, HalfEdge::W_n),
            half(HalfEdge::N_w),
            edge(Dir::N),
            half(HalfEdge::N_e),
            corner(HalfEdge::N_e, HalfEdge::E_n),
        ],
        [
            edge(Dir::W),
            inner(Dir::W, HalfEdge::N_w, HalfEdge::S_w),
            centre(segments),
            inner(Dir::E, HalfEdge::N_e, HalfEdge::S_e),
            edge(Dir::E),
        ],
        [
            corner(HalfEdge::S_w, HalfEdge::W_s),
            half(HalfEdge::S_w),
            edge(Dir::S),
            half(HalfEdge::S_e),
            corner(HalfEdge::S_e, HalfEdge::E_s),
        ],
    ]
}

/// What the middle of a tile shows: a monastery or garden; else a road or river passing
/// through; else roads meeting; else a city spanning edges; else a road ending; else the
/// largest field.
fn centre(segments: &[Segment]) -> Spot {
    let find = |matches: &dyn Fn(&Segment) -> bool| {
        segments.iter().position(matches).and_then(|i| SegmentIndex::try_from(i).ok())
    };
    let linear = |s: &Segment| matches!(s.kind(), SegmentKind::Road | SegmentKind::River);
    let ends = segments.iter().filter(|s| linear(s) && s.edges().len() == 1).count();
    let largest_field = segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind() == SegmentKind::Field)
        .max_by_key(|(i, s)| (s.half_edges().len(), std::cmp::Reverse(*i)))
        .and_then(|(i, _)| SegmentIndex::try_from(i).ok());
    if let Some(cloister) =
        find(&|s| matches!(s.kind(), SegmentKind::Monastery | SegmentKind::Garden))
    {
        return Spot::Segment(cloister);
    }
    if let Some(through) = find(&|s| linear(s) && s.edges().len() >= 2) {
        return Spot::Segment(through);
    }
    if ends >= 3 {
        return Spot::Crossing;
    }
    find(&|s| s.kind() == SegmentKind::City && s.edges().len() >= 2)
        .or_else(|| find(&|s| linear(s)))
        .or(largest_field)
        .or_else(|| find(&|_| true))
        .map_or(Spot::Blank, Spot::Segment)
}

/// The character for a spot at a row and column of a block.
fn glyph(spot: Spot, segments: &[Segment], row: usize, column: usize) -> char {
    let segment = match spot {
        Spot::Segment(index) => &segments[usize::from(index)],
        Spot::Crossing => return '+',
        Spot::Blank => return ' ',
    };
    match segment.kind() {
        SegmentKind::City => '#',
        SegmentKind::Field => '.',
        SegmentKind::River => '~',
        SegmentKind::Monastery => 'M',
        SegmentKind::Garden => 'G',
        SegmentKind::Road if (row, column) == CENTRE => {
            let edges = segment.edges();
            if edges.iter().all(|dir| matches!(dir, Dir::N | Dir::S)) {
                '|'
            } else if edges.iter().all(|dir| matches!(dir, Dir::E | Dir::W)) {
                '='
            } else {
                '+'
            }
        }
        SegmentKind::Road if row == 1 => '=',
        SegmentKind::Road => '|',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Catalog, PlayerId};

    fn draw(id: &str, rotation: Rotation, figures: &[PlacedFigure]) -> Vec<String> {
        let base = Catalog::builtin("base").unwrap();
        let tile = base.tile_by_id(id).unwrap().1;
        let text =
            render(&[Laid { pos: Pos::ORIGIN, tile, marks: base.marks(), rotation }], figures);
        text.lines().skip(1).map(|line| line[2..].to_string()).collect()
    }

    /// The start tile must read as what it is, a city cap over a road, or players cannot
    /// follow a printed game.
    #[test]
    fn the_start_tile_shows_its_city_road_and_fields() {
        assert_eq!(draw("D", Rotation::R0, &[]), [".###.", "=====", "....."]);
        assert_eq!(draw("D", Rotation::R90, &[]), ["..|..", "..|##", "..|.."]);
    }

    /// Turned tiles are drawn turned: a curve from south to west becomes one from west to
    /// north a quarter turn later, and a city through the middle stays one piece.
    #[test]
    fn rotations_turn_the_drawing() {
        assert_eq!(draw("V", Rotation::R0, &[]), [".....", "==+..", "..|.."]);
        assert_eq!(draw("V", Rotation::R90, &[]), ["..|..", "==+..", "....."]);
        assert_eq!(draw("G", Rotation::R0, &[]), [".###.", ".###.", ".###."]);
        assert_eq!(draw("X", Rotation::R0, &[]), ["..|..", "==+==", "..|.."]);
        assert_eq!(draw("B", Rotation::R0, &[]), [".....", "..M..", "....."]);
    }

    /// A figure shows on the segment it stands on, so a farmer is not mistaken for a thief.
    #[test]
    fn figures_stand_on_their_segment() {
        let on = |player, segment| PlacedFigure {
            player: PlayerId(player),
            figure: carcassonne::Figure::FOLLOWER,
            pos: Pos::ORIGIN,
            segment,
        };
        assert_eq!(draw("D", Rotation::R0, &[on(1, 1)]), [".###.", "==1==", "....."]);
        assert_eq!(draw("D", Rotation::R0, &[on(0, 0)]), [".#0#.", "=====", "....."]);
        assert_eq!(draw("D", Rotation::R0, &[on(2, 3)]), [".###.", "=====", "..2.."]);
    }
}
