//! The board: which tile lies where, turned how, and which empty cells touch a tile.
//!
//! Cells live in a dense grid that covers the placed tiles plus a margin and grows when a
//! tile lands near its border, so a lookup is one bounds check and one index, and cloning a
//! board copies only the area in play. The frontier (empty cells next to a tile) is kept up
//! to date on every placement, so finding legal placements never scans the whole grid.

use alloc::vec;
use alloc::vec::Vec;

use crate::edge::EdgeKind;
use crate::geom::{ByDir, Dir, Rotation};
use crate::pos::Pos;
use crate::tile::TileIndex;

/// The largest distance from the origin, in either coordinate, at which a tile may lie.
///
/// Real games stay within a few dozen cells; the bound keeps a hostile game (a staircase of
/// thousands of tiles) from growing the grid past a few megabytes.
pub const MAX_COORDINATE: i16 = 1023;

/// Whether `pos` is within [`MAX_COORDINATE`] of the origin.
fn in_bounds(pos: Pos) -> bool {
    // `unsigned_abs`: `i16::MIN.abs()` overflows.
    pos.x.unsigned_abs() <= MAX_COORDINATE.unsigned_abs()
        && pos.y.unsigned_abs() <= MAX_COORDINATE.unsigned_abs()
}

/// The fewest cells added on a side when the grid grows; it also grows by a quarter of its
/// size, so a sprawling board is copied a logarithmic number of times, not once per tile.
const GROWTH_MARGIN: i32 = 4;

/// The place value of each side's digit in an [`EdgeConstraint::key`].
const POWERS_OF_FIVE: [u16; 4] = [1, 5, 25, 125];

/// A tile lying on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedTile {
    /// The tile type, numbered as the caller numbers its tiles.
    pub tile: TileIndex,
    /// How the tile is turned.
    pub rotation: Rotation,
    /// The kinds of its edges as they lie, after rotation.
    pub edges: ByDir<EdgeKind>,
    /// How many tiles lay on the board before this one (the start tile is 0).
    pub order: u16,
}

/// The edges a tile placed in an empty cell must match: per side, the kind of the
/// neighbour's facing edge, or `None` where that neighbour cell is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeConstraint(pub ByDir<Option<EdgeKind>>);

impl EdgeConstraint {
    /// How many distinct constraints there are: five possibilities on each of four sides.
    pub const COUNT: usize = 625;

    /// A dense number for the constraint, below [`EdgeConstraint::COUNT`], for table lookups.
    #[must_use]
    pub fn key(self) -> usize {
        self.0.0.iter().rev().fold(0, |key, side| key * 5 + side.map_or(4, |kind| kind as usize))
    }

    /// Whether a tile with `edges` (as it would lie) matches every occupied side.
    #[must_use]
    pub fn admits(self, edges: ByDir<EdgeKind>) -> bool {
        Dir::ALL.iter().all(|dir| self.0[*dir].is_none_or(|kind| kind == edges[*dir]))
    }

    /// Whether any side has a neighbour.
    #[must_use]
    pub fn has_neighbour(self) -> bool {
        self.0.0.iter().any(Option::is_some)
    }
}

/// An empty cell next to a tile, with the key of the constraint a tile placed there must meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrontierCell {
    /// The cell.
    pub pos: Pos,
    /// Its [`EdgeConstraint::key`], kept up to date as neighbours arrive.
    pub key: u16,
}

/// Why a tile cannot lie in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum PlacementError {
    /// A tile already lies there.
    #[error("a tile already lies at {pos}")]
    Occupied {
        /// The cell.
        pos: Pos,
    },
    /// No tile lies next to the cell (corners do not count).
    #[error("no tile lies next to {pos}; a tile must touch another along an edge")]
    NoNeighbour {
        /// The cell.
        pos: Pos,
    },
    /// An edge does not match the neighbour's facing edge.
    #[error("the {dir} edge at {pos} is {found} but the neighbouring tile shows {expected}")]
    EdgeMismatch {
        /// The cell.
        pos: Pos,
        /// The side of the placed tile that does not match.
        dir: Dir,
        /// The kind the neighbour's facing edge shows.
        expected: EdgeKind,
        /// The kind the placed tile would show there.
        found: EdgeKind,
    },
    /// 65,536 tiles already lie on the board, as many as it numbers.
    #[error("the board holds 65,536 tiles, the most it can number")]
    BoardFull,
    /// The cell is farther from the origin than [`MAX_COORDINATE`].
    #[error("{pos} is outside the board, which reaches {MAX_COORDINATE} cells from the start")]
    OutOfBounds {
        /// The cell.
        pos: Pos,
    },
}

/// One grid cell, six bytes: the tile, its placement order, and the rotation and edges packed
/// in one byte each. An empty frontier cell has no tile or order, and keeps its index in the
/// frontier list in those two fields instead, so filling it leaves the list in O(1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cell {
    /// The tile; for a frontier cell, the low half of its frontier index.
    tile: TileIndex,
    /// The placement order; for a frontier cell, the high half of its frontier index.
    order: u16,
    /// Edge kinds N, E, S, W, two bits each, as the tile lies.
    edges: u8,
    /// Bits 0–1: rotation; bit 2: a tile lies here; bit 3: the cell is on the frontier.
    flags: u8,
}

const OCCUPIED: u8 = 1 << 2;
const FRONTIER: u8 = 1 << 3;

impl Cell {
    const EMPTY: Cell = Cell { tile: 0, order: 0, edges: 0, flags: 0 };

    fn is_occupied(self) -> bool {
        self.flags & OCCUPIED != 0
    }

    fn edge(self, dir: Dir) -> EdgeKind {
        EdgeKind::ALL[usize::from(self.edges >> (2 * dir.index()) & 0b11)]
    }

    fn slot(self) -> usize {
        usize::from(self.tile) | usize::from(self.order) << 16
    }

    fn set_slot(&mut self, slot: usize) {
        self.tile = slot as u16;
        self.order = (slot >> 16) as u16;
    }

    fn placed(self) -> Option<PlacedTile> {
        self.is_occupied().then(|| PlacedTile {
            tile: self.tile,
            rotation: Rotation::from_quarter_turns(usize::from(self.flags & 0b11)),
            edges: ByDir::from_fn(|dir| self.edge(dir)),
            order: self.order,
        })
    }
}

/// The tiles on the table.
///
/// ```
/// use carcassonne::{Board, ByDir, Dir, EdgeKind, Pos, Rotation};
/// use EdgeKind::{City, Field, Road};
///
/// let mut board = Board::new();
/// let start = ByDir([City, Road, Field, Road]);
/// board.place(Pos::ORIGIN, 3, Rotation::R0, start)?;
/// assert_eq!(board.frontier().len(), 4);
///
/// // A straight road continues the start tile's road to the east.
/// let road = ByDir([Field, Road, Field, Road]);
/// assert!(board.check(Pos::new(1, 0), road).is_ok());
/// assert!(board.check(Pos::new(0, 1), road).is_err());
/// # Ok::<(), carcassonne::PlacementError>(())
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: Vec<Cell>,
    /// The grid's south-west cell.
    min_x: i32,
    min_y: i32,
    width: i32,
    height: i32,
    frontier: Vec<FrontierCell>,
    tiles: usize,
}

/// A clone keeps the frontier's capacity, so a copy grows as cheaply as the original.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            cells: self.cells.clone(),
            min_x: self.min_x,
            min_y: self.min_y,
            width: self.width,
            height: self.height,
            frontier: crate::features::roomy_clone(&self.frontier),
            tiles: self.tiles,
        }
    }

    fn clone_from(&mut self, source: &Board) {
        self.cells.clone_from(&source.cells);
        (self.min_x, self.min_y, self.width, self.height) =
            (source.min_x, source.min_y, source.width, source.height);
        crate::features::roomy_clone_from(&mut self.frontier, &source.frontier);
        self.tiles = source.tiles;
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn new() -> Board {
        Board::with_reach(GROWTH_MARGIN as i16)
    }

    /// An empty board whose grid already reaches `reach` cells from the origin each way, so
    /// a game that expects to spread that far does not copy its grid as it grows.
    #[must_use]
    pub fn with_reach(reach: i16) -> Board {
        let mut board = Board::with_reach_unallocated(reach);
        board.cells = vec![Cell::EMPTY; (board.width * board.height) as usize];
        board
    }

    /// [`Board::with_reach`]'s grid dimensions, without its cells.
    fn with_reach_unallocated(reach: i16) -> Board {
        let reach = i32::from(reach.clamp(1, MAX_COORDINATE + 1));
        let side = 2 * reach + 1;
        Board {
            cells: Vec::new(),
            min_x: -reach,
            min_y: -reach,
            width: side,
            height: side,
            frontier: Vec::new(),
            tiles: 0,
        }
    }

    /// Makes this board [`Board::with_reach`]'s, keeping its memory when its grid has that
    /// size.
    pub(crate) fn clear_with_reach(&mut self, reach: i16) {
        let empty = Board::with_reach_unallocated(reach);
        if (self.min_x, self.min_y, self.width, self.height)
            != (empty.min_x, empty.min_y, empty.width, empty.height)
        {
            *self = Board::with_reach(reach);
            return;
        }
        self.cells.fill(Cell::EMPTY);
        self.frontier.clear();
        self.tiles = 0;
    }

    /// How many tiles lie on the board.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tiles
    }

    /// Whether no tile lies on the board.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// The tile at `pos`, if any.
    #[must_use]
    pub fn get(&self, pos: Pos) -> Option<PlacedTile> {
        self.cell(pos).and_then(Cell::placed)
    }

    /// The key of the constraint at `pos` if it is a frontier cell: with a
    /// [`FitTable`](crate::engine::FitTable), whether a tile fits there is then one lookup.
    #[must_use]
    pub fn frontier_key(&self, pos: Pos) -> Option<u16> {
        let cell = self.cell(pos)?;
        (cell.flags & FRONTIER != 0).then(|| self.frontier[cell.slot()].key)
    }

    /// The empty cells within [`MAX_COORDINATE`] that touch a tile along an edge, in the
    /// order they became so (a cell that is filled leaves the list; the last cell takes its
    /// place).
    pub fn frontier(&self) -> impl ExactSizeIterator<Item = Pos> + '_ {
        self.frontier.iter().map(|cell| cell.pos)
    }

    /// The frontier with each cell's constraint key: with a [`FitTable`](crate::engine::FitTable), the
    /// rotations of a tile that fit a cell are one lookup, without reading the neighbours.
    #[must_use]
    pub fn frontier_cells(&self) -> &[FrontierCell] {
        &self.frontier
    }

    /// The tiles on the board with their cells, in grid order.
    pub fn tiles(&self) -> impl Iterator<Item = (Pos, PlacedTile)> + '_ {
        self.cells.iter().enumerate().filter_map(|(index, cell)| {
            let placed = cell.placed()?;
            let index = i32::try_from(index).ok()?;
            let pos = self.pos_of(index)?;
            Some((pos, placed))
        })
    }

    /// What a tile placed at `pos` would have to match.
    #[must_use]
    pub fn constraint(&self, pos: Pos) -> EdgeConstraint {
        EdgeConstraint(ByDir::from_fn(|dir| {
            let neighbour = self.cell(pos.neighbour(dir)?)?;
            neighbour.is_occupied().then(|| neighbour.edge(dir.opposite()))
        }))
    }

    /// How many of the eight cells around `pos` hold a tile.
    #[must_use]
    pub fn surrounding_tiles(&self, pos: Pos) -> usize {
        pos.surrounding().filter(|around| self.cell(*around).is_some_and(Cell::is_occupied)).count()
    }

    /// [`Board::peek`] at each neighbour of `pos`, finding the cell once.
    pub(crate) fn peek_neighbours(&self, pos: Pos) -> ByDir<Option<(TileIndex, u16, Rotation)>> {
        let x = i32::from(pos.x) - self.min_x;
        let y = i32::from(pos.y) - self.min_y;
        if x < 1 || y < 1 || x >= self.width - 1 || y >= self.height - 1 {
            return ByDir::from_fn(|dir| pos.neighbour(dir).and_then(|next| self.peek(next)));
        }
        let centre = (y * self.width + x) as usize;
        let width = self.width as usize;
        let at = |index: usize| {
            let cell = self.cells[index];
            cell.is_occupied().then(|| {
                let rotation = Rotation::from_quarter_turns(usize::from(cell.flags & 0b11));
                (cell.tile, cell.order, rotation)
            })
        };
        ByDir([at(centre + width), at(centre + 1), at(centre - width), at(centre - 1)])
    }

    /// The tile type, placement order and rotation at `pos`: [`Board::get`] without decoding
    /// the edges, for hot paths.
    pub(crate) fn peek(&self, pos: Pos) -> Option<(TileIndex, u16, Rotation)> {
        let cell = self.cell(pos)?;
        cell.is_occupied().then(|| {
            (cell.tile, cell.order, Rotation::from_quarter_turns(usize::from(cell.flags & 0b11)))
        })
    }

    /// Whether a tile whose edges lie as `edges` may be placed at `pos`. The first tile may
    /// lie anywhere in bounds; every later tile needs a neighbour and matching edges.
    ///
    /// # Errors
    /// The first rule the placement breaks, checking in the order: bounds, occupied,
    /// neighbour, then edges clockwise from north.
    pub fn check(&self, pos: Pos, edges: ByDir<EdgeKind>) -> Result<(), PlacementError> {
        self.check_with(pos, edges, true)
    }

    fn check_with(
        &self,
        pos: Pos,
        edges: ByDir<EdgeKind>,
        needs_neighbour: bool,
    ) -> Result<(), PlacementError> {
        if !in_bounds(pos) {
            return Err(PlacementError::OutOfBounds { pos });
        }
        if self.cell(pos).is_some_and(Cell::is_occupied) {
            return Err(PlacementError::Occupied { pos });
        }
        if self.is_full() {
            return Err(PlacementError::BoardFull);
        }
        if self.is_empty() {
            return Ok(());
        }
        let constraint = self.constraint(pos);
        if needs_neighbour && !constraint.has_neighbour() {
            return Err(PlacementError::NoNeighbour { pos });
        }
        for dir in Dir::ALL {
            if let Some(expected) = constraint.0[dir]
                && expected != edges[dir]
            {
                return Err(PlacementError::EdgeMismatch { pos, dir, expected, found: edges[dir] });
            }
        }
        Ok(())
    }

    /// Places tile `tile`, turned by `rotation` so that its edges lie as `edges`, at `pos`.
    ///
    /// # Errors
    /// As [`Board::check`]; the board is unchanged on error.
    pub fn place(
        &mut self,
        pos: Pos,
        tile: TileIndex,
        rotation: Rotation,
        edges: ByDir<EdgeKind>,
    ) -> Result<(), PlacementError> {
        self.check(pos, edges)?;
        self.put(pos, tile, rotation, edges)
    }

    /// As [`Board::place`], but the tile need not touch another: for boards no game could
    /// produce, such as a landscape to score with islands of tiles. Edges that touch must
    /// still match.
    ///
    /// # Errors
    /// As [`Board::check`], except [`PlacementError::NoNeighbour`].
    pub(crate) fn place_anywhere(
        &mut self,
        pos: Pos,
        tile: TileIndex,
        rotation: Rotation,
        edges: ByDir<EdgeKind>,
    ) -> Result<(), PlacementError> {
        self.check_with(pos, edges, false)?;
        self.put(pos, tile, rotation, edges)
    }

    /// Whether the board holds 65,536 tiles, as many as it numbers: no tile fits any more.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.tiles > usize::from(u16::MAX)
    }

    /// Places a tile already checked by [`Board::check`].
    pub(crate) fn put(
        &mut self,
        pos: Pos,
        tile: TileIndex,
        rotation: Rotation,
        edges: ByDir<EdgeKind>,
    ) -> Result<(), PlacementError> {
        let order = u16::try_from(self.tiles).map_err(|_| PlacementError::BoardFull)?;
        self.cover(pos);
        let packed =
            edges.iter().fold(0u8, |bits, (dir, kind)| bits | ((*kind as u8) << (2 * dir.index())));
        let index = self.index(pos).ok_or(PlacementError::OutOfBounds { pos })?;
        let before = self.cells[index];
        if before.flags & FRONTIER != 0 {
            self.leave_frontier(before.slot());
        }
        self.cells[index] =
            Cell { tile, order, edges: packed, flags: OCCUPIED | rotation.quarter_turns() as u8 };
        // `cover` left two cells of grid around `pos`, so its neighbours and theirs are found
        // by stepping through the grid, without turning positions into indices.
        let steps = self.steps();
        for dir in Dir::ALL {
            let at = index.wrapping_add_signed(steps[dir.index()]);
            let Some(cell) = self.cells.get(at).copied() else { continue };
            let Some(neighbour) = pos.neighbour(dir) else { continue };
            if cell.is_occupied() || !in_bounds(neighbour) {
                continue;
            }
            if cell.flags & FRONTIER == 0 {
                let key = self.key_at(at, steps);
                self.cells[at].flags |= FRONTIER;
                self.cells[at].set_slot(self.frontier.len());
                self.frontier.push(FrontierCell { pos: neighbour, key });
            } else {
                // The neighbour's side facing this tile was open (digit 4) and now shows
                // this tile's edge.
                let place = POWERS_OF_FIVE[dir.opposite().index()];
                let entry = &mut self.frontier[cell.slot()];
                entry.key = entry.key - 4 * place + edges[dir] as u16 * place;
            }
        }
        self.tiles += 1;
        Ok(())
    }

    /// The grid index offsets of the four neighbours, in [`Dir::ALL`] order.
    fn steps(&self) -> [isize; 4] {
        let width = self.width as isize;
        [width, 1, -width, -1]
    }

    /// The [`EdgeConstraint::key`] of the cell at grid index `at`, whose four neighbours lie
    /// in the grid.
    fn key_at(&self, at: usize, steps: [isize; 4]) -> u16 {
        let mut key = 0;
        for dir in Dir::ALL {
            // A select, not a branch: whether a neighbour is there is a coin toss.
            let cell = self.cells.get(at.wrapping_add_signed(steps[dir.index()]));
            let cell = cell.copied().unwrap_or(Cell::EMPTY);
            let edge = u16::from(cell.edges >> (2 * dir.opposite().index()) & 0b11);
            let digit = if cell.is_occupied() { edge } else { 4 };
            key += digit * POWERS_OF_FIVE[dir.index()];
        }
        key
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.cells.capacity() * size_of::<Cell>()
            + self.frontier.capacity() * size_of::<FrontierCell>()
    }

    /// Removes frontier entry `slot`; the last entry takes its place.
    fn leave_frontier(&mut self, slot: usize) {
        self.frontier.swap_remove(slot);
        if let Some(moved) = self.frontier.get(slot) {
            let index = self.index(moved.pos).expect("frontier cells lie in the grid");
            self.cells[index].set_slot(slot);
        }
    }

    fn cell(&self, pos: Pos) -> Option<Cell> {
        self.index(pos).map(|index| self.cells[index])
    }

    fn index(&self, pos: Pos) -> Option<usize> {
        let x = i32::from(pos.x) - self.min_x;
        let y = i32::from(pos.y) - self.min_y;
        if (0..self.width).contains(&x) && (0..self.height).contains(&y) {
            usize::try_from(y * self.width + x).ok()
        } else {
            None
        }
    }

    fn pos_of(&self, index: i32) -> Option<Pos> {
        let x = i16::try_from(index % self.width + self.min_x).ok()?;
        let y = i16::try_from(index / self.width + self.min_y).ok()?;
        Some(Pos { x, y })
    }

    /// Grows the grid so that every cell within two steps of `pos` has a cell: its
    /// neighbours, and their neighbours, which a new frontier cell's constraint reads.
    fn cover(&mut self, pos: Pos) {
        let (x, y) = (i32::from(pos.x), i32::from(pos.y));
        let inside = x > self.min_x + 1
            && y > self.min_y + 1
            && x < self.min_x + self.width - 2
            && y < self.min_y + self.height - 2;
        if inside {
            return;
        }
        let margin_x = GROWTH_MARGIN.max(self.width / 4);
        let margin_y = GROWTH_MARGIN.max(self.height / 4);
        let min_x = self.min_x.min(x - 2 - margin_x);
        let min_y = self.min_y.min(y - 2 - margin_y);
        let max_x = (self.min_x + self.width - 1).max(x + 2 + margin_x);
        let max_y = (self.min_y + self.height - 1).max(y + 2 + margin_y);
        let (width, height) = (max_x - min_x + 1, max_y - min_y + 1);
        let mut cells = vec![Cell::EMPTY; (width * height) as usize];
        for row in 0..self.height {
            let from = (row * self.width) as usize;
            let to = ((row + self.min_y - min_y) * width + (self.min_x - min_x)) as usize;
            cells[to..to + self.width as usize]
                .copy_from_slice(&self.cells[from..from + self.width as usize]);
        }
        self.cells = cells;
        (self.min_x, self.min_y, self.width, self.height) = (min_x, min_y, width, height);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use EdgeKind::{City, Field, Road};

    const START: ByDir<EdgeKind> = ByDir([City, Road, Field, Road]);
    const STRAIGHT: ByDir<EdgeKind> = ByDir([Field, Road, Field, Road]);

    fn started() -> Board {
        let mut board = Board::new();
        board.place(Pos::ORIGIN, 3, Rotation::R0, START).unwrap();
        board
    }

    #[test]
    fn cells_are_six_bytes() {
        assert_eq!(core::mem::size_of::<Cell>(), 6);
    }

    #[test]
    fn every_rule_is_checked_and_a_rejection_changes_nothing() {
        let mut board = started();
        let before = board.clone();
        let mismatch = board.place(Pos::new(0, 1), 0, Rotation::R0, STRAIGHT);
        assert_eq!(
            mismatch,
            Err(PlacementError::EdgeMismatch {
                pos: Pos::new(0, 1),
                dir: Dir::S,
                expected: City,
                found: Field
            })
        );
        assert_eq!(
            board.place(Pos::ORIGIN, 0, Rotation::R0, START),
            Err(PlacementError::Occupied { pos: Pos::ORIGIN })
        );
        assert_eq!(
            board.place(Pos::new(1, 1), 0, Rotation::R0, STRAIGHT),
            Err(PlacementError::NoNeighbour { pos: Pos::new(1, 1) }),
            "a corner is not a connection"
        );
        assert_eq!(
            board.check(Pos::new(2000, 0), STRAIGHT),
            Err(PlacementError::OutOfBounds { pos: Pos::new(2000, 0) })
        );
        for far in [Pos::new(i16::MIN, 0), Pos::new(0, i16::MIN), Pos::new(i16::MAX, i16::MIN)] {
            assert_eq!(board.check(far, STRAIGHT), Err(PlacementError::OutOfBounds { pos: far }));
        }
        assert_eq!(board, before);
    }

    /// 65,536 tiles is as many as the board numbers; then every placement is refused, by
    /// `check` as by `place`, though the frontier is not empty.
    #[test]
    #[cfg_attr(miri, ignore = "65,536 placements take hours under Miri")]
    fn a_full_board_refuses_every_tile() {
        const FIELD: ByDir<EdgeKind> = ByDir([Field; 4]);
        let mut board = Board::new();
        for y in 0..256 {
            for x in 0..256 {
                board.place(Pos::new(x - 128, y - 128), 0, Rotation::R0, FIELD).unwrap();
            }
        }
        assert!(board.is_full());
        assert_eq!(board.len(), 65_536);
        let next = Pos::new(128, 0);
        assert!(board.frontier().any(|pos| pos == next));
        assert_eq!(board.check(next, FIELD), Err(PlacementError::BoardFull));
        assert_eq!(board.place(next, 0, Rotation::R0, FIELD), Err(PlacementError::BoardFull));
    }

    #[test]
    fn placed_tiles_read_back_with_rotation_and_edges() {
        let mut board = started();
        let turned = STRAIGHT.rotated(Rotation::R180);
        board.place(Pos::new(0, -1), 20, Rotation::R180, turned).unwrap();
        let placed = board.get(Pos::new(0, -1)).unwrap();
        assert_eq!(
            placed,
            PlacedTile { tile: 20, rotation: Rotation::R180, edges: turned, order: 1 }
        );
        assert_eq!(board.len(), 2);
        let tiles: Vec<Pos> = board.tiles().map(|(pos, _)| pos).collect();
        assert_eq!(tiles, [Pos::new(0, -1), Pos::ORIGIN]);
    }

    #[test]
    fn the_frontier_is_exactly_the_empty_cells_next_to_tiles() {
        let mut board = started();
        let mut x = 0;
        // A long road east forces the grid to grow several times.
        for _ in 0..40 {
            x += 1;
            board.place(Pos::new(x, 0), 20, Rotation::R0, STRAIGHT).unwrap();
        }
        let mut frontier: Vec<Pos> = board.frontier().collect();
        frontier.sort();
        for cell in board.frontier_cells() {
            assert_eq!(usize::from(cell.key), board.constraint(cell.pos).key(), "{cell:?}");
        }
        let mut expected = Vec::new();
        for (pos, _) in board.tiles() {
            for dir in Dir::ALL {
                let next = pos.neighbour(dir).unwrap();
                if board.get(next).is_none() && !expected.contains(&next) {
                    expected.push(next);
                }
            }
        }
        expected.sort();
        assert_eq!(frontier, expected);
        assert_eq!(board.get(Pos::new(40, 0)).unwrap().edges, STRAIGHT);
        assert_eq!(board.get(Pos::ORIGIN).unwrap().edges, START, "growth keeps old cells");
    }

    #[test]
    fn constraint_keys_are_dense_and_distinct() {
        let sides = [None, Some(City), Some(Road), Some(EdgeKind::Field), Some(EdgeKind::River)];
        let mut seen = vec![false; EdgeConstraint::COUNT];
        for n in sides {
            for e in sides {
                for s in sides {
                    for w in sides {
                        let key = EdgeConstraint(ByDir([n, e, s, w])).key();
                        assert!(!seen[key]);
                        seen[key] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn surrounding_counts_diagonals() {
        let mut board = started();
        board.place(Pos::new(1, 0), 20, Rotation::R0, STRAIGHT).unwrap();
        board.place(Pos::new(-1, 0), 20, Rotation::R0, STRAIGHT).unwrap();
        assert_eq!(board.surrounding_tiles(Pos::new(0, -1)), 3);
        assert_eq!(board.surrounding_tiles(Pos::ORIGIN), 2);
    }
}
