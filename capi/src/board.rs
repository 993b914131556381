//! Board queries: the tiles placed, the segments of each with the feature and figure on it,
//! features, figures and the frontier; enough to draw the board.

use carcassonne::engine::NodeId;
use carcassonne::{Dir, Game, Pos};

use crate::boundary::Failure;
use crate::game::{carc_game, list, query};
use crate::result::carc_result;
use crate::values::{
    CARC_MAX_PLAYERS, carc_edge_kind, carc_figure, carc_pos, carc_segment_kind, edge_kind_to_c,
    figure_to_c, players_to_c, pos_from_c, pos_to_c, segment_kind_to_c,
};

/// A tile on the board.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_placement {
    /// Its cell.
    pub pos: carc_pos,
    /// Its tile type.
    pub tile: u16,
    /// How it is turned: degrees clockwise, 0, 90, 180 or 270.
    pub rotation: u16,
    /// When it was placed: 0 for the start tile, then 1, 2, ...
    pub order: u32,
    /// Its edge kinds as it lies (turned), `CARC_EDGE_KIND_*` constants in the order N, E, S, W.
    pub edges: [carc_edge_kind; 4],
}

/// A segment of a placed tile: its kind, the feature it belongs to and the figure on it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_segment_state {
    /// A `CARC_SEGMENT_KIND_*` constant.
    pub kind: carc_segment_kind,
    /// The feature it belongs to: two segments with the same number are in the same feature.
    /// Numbers hold until the next tile is placed, which may join features.
    pub feature: u32,
    /// 1 if a figure stands on this very segment (`player` and `figure` say whose and which),
    /// else 0.
    pub has_figure: u8,
    /// The figure's owner, when `has_figure`.
    pub player: u8,
    /// The figure, a `CARC_FIGURE_*` constant, when `has_figure`.
    pub figure: carc_figure,
}

/// A whole feature: a city, road, river, field, monastery or garden, as it stands now.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_feature_info {
    /// The feature's number, as in `carc_segment_state`.
    pub id: u32,
    /// A `CARC_SEGMENT_KIND_*` constant.
    pub kind: carc_segment_kind,
    /// 1 for a closed city, road or river, or a monastery or garden with all eight
    /// neighbours, else 0.
    pub complete: u8,
    /// 1 if an inn is on it, else 0.
    pub inn: u8,
    /// 1 if a cathedral is in it, else 0.
    pub cathedral: u8,
    /// Who would take it now: the players with most strength on it, bit `p` for player `p`
    /// (a declared tie-break, such as a follower on a hill, may leave only some of them).
    pub leaders: u8,
    /// Distinct tiles it covers (for a monastery or garden, itself and its neighbours).
    pub tiles: u32,
    /// City, road or river edges that still face an empty cell.
    pub open_edges: u32,
    /// Pennants on its segments.
    pub pennants: u32,
    /// Figures standing on it, special figures (builders, pigs, shepherds) included.
    pub figures: u32,
    /// Figures standing on it per player (a big follower counts once here).
    pub figures_by_player: [u32; CARC_MAX_PLAYERS],
    /// Strength on it per player, what majorities are decided by: a big follower counts 2,
    /// a builder, pig or shepherd 0. `leaders` are the players with the most, when it is not
    /// 0 (a field holding only a shepherd has figures and no leader).
    pub strength_by_player: [u32; CARC_MAX_PLAYERS],
}

/// A segment of a placed tile, named by its cell and number.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_segment_ref {
    /// The tile's cell.
    pub pos: carc_pos,
    /// The segment's number in the tile type.
    pub segment: u8,
}

/// A figure on the board.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_placed_figure {
    /// Whose figure.
    pub player: u8,
    /// Which figure, a `CARC_FIGURE_*` constant.
    pub figure: carc_figure,
    /// The cell of the tile it stands on.
    pub pos: carc_pos,
    /// The segment of that tile it stands on.
    pub segment: u8,
}

fn placement(game: &Game, pos: Pos) -> Option<carc_placement> {
    let placed = game.board().get(pos)?;
    Some(carc_placement {
        pos: pos_to_c(pos),
        tile: placed.tile,
        rotation: placed.rotation.degrees(),
        order: u32::from(placed.order),
        edges: Dir::ALL.map(|dir| edge_kind_to_c(placed.edges[dir])),
    })
}

fn no_tile_at(pos: Pos) -> Failure {
    Failure::new(carc_result::NotAvailable, format!("no tile lies at {pos}"))
}

/// The node of segment `segment` of the tile at `pos`, or why there is none.
fn node(game: &Game, pos: Pos, segment: u8) -> Result<NodeId, Failure> {
    let placed = game.board().get(pos).ok_or_else(|| no_tile_at(pos))?;
    game.features().node(placed.order, segment).ok_or_else(|| {
        let segments = game.tile(placed.tile).map_or(0, |tile| tile.segments().len());
        Failure::new(
            carc_result::OutOfRange,
            format!("the tile at {pos} has {segments} segments; there is no segment {segment}"),
        )
    })
}

/// The root of the feature of a segment that certainly exists (a figure's).
fn root_of(game: &Game, pos: Pos, segment: u8) -> Option<NodeId> {
    let placed = game.board().get(pos)?;
    Some(game.features().root(game.features().node(placed.order, segment)?))
}

/// Writes every tile on the board, in the order they were placed (the start tile first), to
/// `buf`. `*count` receives the number written, or the number needed with
/// `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_placement`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_placements(
    game: *const carc_game,
    buf: *mut carc_placement,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = handle.game();
            let placed = game.placements();
            buffer.fill_map(placed, |(pos, _)| placement(game, pos).unwrap_or_default())
        })
    }
}

/// Writes the tile at `pos` to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` when the
/// cell is empty.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_placement`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_at(
    game: *const carc_game,
    pos: carc_pos,
    out: *mut carc_placement,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = handle.game();
            let pos = pos_from_c(pos);
            placement(game, pos).ok_or_else(|| no_tile_at(pos))
        })
    }
}

/// Writes segment `segment` of the tile at `pos` to `*out`: its kind, its feature and the
/// figure on it.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` when the
/// cell is empty, `CARC_RESULT_OUT_OF_RANGE` when the tile has no such segment.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_segment_state`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_segment(
    game: *const carc_game,
    pos: carc_pos,
    segment: u8,
    out: *mut carc_segment_state,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = handle.game();
            let pos = pos_from_c(pos);
            let node = node(game, pos, segment)?;
            let figure =
                game.figures().find(|figure| figure.pos == pos && figure.segment == segment);
            Ok(carc_segment_state {
                kind: segment_kind_to_c(game.features().data(node).kind),
                feature: game.features().root(node),
                has_figure: figure.is_some().into(),
                player: figure.map_or(0, |figure| figure.player.0),
                figure: figure.map_or(0, |figure| figure_to_c(figure.figure, game)),
            })
        })
    }
}

/// Writes the feature that segment `segment` of the tile at `pos` belongs to, to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` when the
/// cell is empty, `CARC_RESULT_OUT_OF_RANGE` when the tile has no such segment.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_feature_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_feature(
    game: *const carc_game,
    pos: carc_pos,
    segment: u8,
    out: *mut carc_feature_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = handle.game();
            let pos = pos_from_c(pos);
            let root = game.features().root(node(game, pos, segment)?);
            let view = game.feature(pos, segment).ok_or_else(|| no_tile_at(pos))?;
            let (mut by_player, mut strength) = ([0; CARC_MAX_PLAYERS], [0; CARC_MAX_PLAYERS]);
            for figure in game.figures() {
                if root_of(game, figure.pos, figure.segment) == Some(root) {
                    by_player[figure.player.index()] += 1;
                    strength[figure.player.index()] += u32::from(
                        game.figure_rule(figure.figure).map_or(0, |rule| rule.strength()),
                    );
                }
            }
            Ok(carc_feature_info {
                id: root,
                kind: segment_kind_to_c(view.kind),
                complete: view.complete.into(),
                inn: u8::from(view.marks.count_of(game.marks(), "inn") > 0),
                cathedral: u8::from(view.marks.count_of(game.marks(), "cathedral") > 0),
                leaders: players_to_c(view.leaders),
                tiles: view.tiles,
                open_edges: view.open_edges,
                pennants: view.marks.count_of(game.marks(), "pennant"),
                figures: by_player.iter().sum(),
                figures_by_player: by_player,
                strength_by_player: strength,
            })
        })
    }
}

/// Writes every segment of the feature that segment `segment` of the tile at `pos` belongs to
/// (that one included) to `buf`: what to highlight to show a whole city or field. `*count`
/// receives the number written, or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` when the
/// cell is empty, `CARC_RESULT_OUT_OF_RANGE` when the tile has no such segment,
/// `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap`
/// `carc_segment_ref`s; `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_feature_segments(
    game: *const carc_game,
    pos: carc_pos,
    segment: u8,
    buf: *mut carc_segment_ref,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = handle.game();
            let node = node(game, pos_from_c(pos), segment)?;
            let placed = game.placements();
            let members: Vec<carc_segment_ref> = game
                .features()
                .members(node)
                .map(|(order, segment)| carc_segment_ref {
                    pos: placed
                        .get(usize::from(order))
                        .map_or_else(Default::default, |p| pos_to_c(p.0)),
                    segment,
                })
                .collect();
            buffer.fill_from(&members)
        })
    }
}

/// Writes every figure on the board, in the order they were placed, to `buf`. `*count`
/// receives the number written, or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap`
/// `carc_placed_figure`s; `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_figures(
    game: *const carc_game,
    buf: *mut carc_placed_figure,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = handle.game();
            let figures: Vec<carc_placed_figure> = game
                .figures()
                .map(|figure| carc_placed_figure {
                    player: figure.player.0,
                    figure: figure_to_c(figure.figure, game),
                    pos: pos_to_c(figure.pos),
                    segment: figure.segment,
                })
                .collect();
            buffer.fill_from(&figures)
        })
    }
}

/// Writes the frontier, every empty cell next to a tile (where a tile could go if its edges
/// match), to `buf`. `*count` receives the number written, or the number needed with
/// `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_pos`; `count`
/// is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_frontier(
    game: *const carc_game,
    buf: *mut carc_pos,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = handle.game();
            let cells: Vec<carc_pos> = game.board().frontier().map(pos_to_c).collect();
            buffer.fill_from(&cells)
        })
    }
}
