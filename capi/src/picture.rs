//! Pictures: a game's board and a tile type as SVG text, and where figures stand on each
//! segment of a tile, for clients that draw their own.

use std::ffi::c_char;

use carcassonne_render::{BoardOptions, anchors, board_svg, tile_svg};

use crate::boundary::{Buffer, Failure, plain_boundary};
use crate::catalog::no_tile;
use crate::game::{carc_game, game_arg, list};
use crate::result::carc_result;
use crate::values::rotation_from_c;

/// `carc_game_board_svg` flag: a panel beside the board with each player's score and figures
/// in supply, the tiles left and whose turn it is.
pub const CARC_PICTURE_SCORE_PANEL: u32 = 1;
/// `carc_game_board_svg` flag: an outline round the tile placed last.
pub const CARC_PICTURE_LAST_MOVE: u32 = 2;

/// A point on a tile, in tile sides from its north-west corner as it lies on the board: `x`
/// grows east, `y` grows south (as in SVG), both from 0 to 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct carc_point {
    /// From the west edge, in tile sides.
    pub x: f64,
    /// From the north edge, in tile sides.
    pub y: f64,
}

/// Writes the board of `game` as a standalone SVG document to `buf`, NUL-terminated: every
/// tile as it lies, the figures in their players' colours, and what `flags` asks for
/// (`CARC_PICTURE_*` constants or-ed together; 0 for the board alone). The same game always
/// gives the same bytes. `*size` receives the bytes written, the NUL included, or the bytes
/// needed with `CARC_RESULT_BUFFER_TOO_SMALL` (then `buf` is left alone); `buf` may be NULL
/// when `cap` is 0, to ask for the size.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_INVALID_ARGUMENT` for an
/// unknown flag, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` bytes; `size` is
/// NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_board_svg(
    game: *const carc_game,
    flags: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let known = CARC_PICTURE_SCORE_PANEL | CARC_PICTURE_LAST_MOVE;
        if flags & !known != 0 {
            return Err(Failure::new(
                carc_result::InvalidArgument,
                format!("unknown picture flags {:#x}", flags & !known),
            ));
        }
        let held = game_arg(game)?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        let options = BoardOptions::default()
            .with_score_panel(flags & CARC_PICTURE_SCORE_PANEL != 0)
            .with_last_move(flags & CARC_PICTURE_LAST_MOVE != 0);
        buffer.fill_text(&board_svg(held.game(), &options))
    })
}

/// Writes tile type `tile` of `game` turned `rotation` degrees clockwise as a standalone SVG
/// document, 120 units square, to `buf`, NUL-terminated, drawn as the board draws it. `*size`
/// as for `carc_game_board_svg`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a tile
/// number past the end, `CARC_RESULT_INVALID_ARGUMENT` for a rotation other than 0, 90, 180
/// or 270, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` bytes; `size` is
/// NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_svg(
    game: *const carc_game,
    tile: u16,
    rotation: u16,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let rotation = rotation_from_c(rotation)?;
        let held = game_arg(game)?;
        let tile_type =
            held.game().tile(tile).ok_or_else(|| no_tile(tile, held.game().tiles().len()))?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        buffer.fill_text(&tile_svg(tile_type, held.game().marks(), rotation))
    })
}

/// Writes where a figure stands on each segment of tile type `tile` turned `rotation`
/// degrees clockwise, one `carc_point` per segment in segment order, to `buf`: the points the
/// board picture draws figures at (in a city clear of its pennants, halfway along a road, in
/// a field clear of roads and cities, on a monastery). `*count` receives the points written,
/// or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL` (then `buf` is left alone).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE`,
/// `CARC_RESULT_INVALID_ARGUMENT` for a bad rotation, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_point`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_anchors(
    game: *const carc_game,
    tile: u16,
    rotation: u16,
    buf: *mut carc_point,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let rotation = rotation_from_c(rotation)?;
            let tile_type = handle
                .game()
                .tile(tile)
                .ok_or_else(|| no_tile(tile, handle.game().tiles().len()))?;
            let points: Vec<carc_point> = anchors(tile_type, handle.game().marks(), rotation)
                .into_iter()
                .map(|anchor| carc_point { x: anchor.x, y: anchor.y })
                .collect();
            buffer.fill_from(&points)
        })
    }
}
