//! The special figures' state for C (ABI 1.9): builders, pigs and shepherds in hand, the
//! shepherds' flocks and bag, the tiles hidden under hills, and the builder's second turn.

use carcassonne::Figure;

use crate::game::{carc_game, list, query, seated};
use crate::result::carc_result;
use crate::values::{carc_pos, pos_to_c};

/// The special figures a player has in hand (Traders & Builders' builder and pig, Hills &
/// Sheep's shepherd); all 0 in games without them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_special_supply {
    /// Builders.
    pub builders: u8,
    /// Pigs.
    pub pigs: u8,
    /// Shepherds.
    pub shepherds: u8,
}

/// What the flock's bag holds: counts are public, the order is not.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_sheep_bag {
    /// `sheep[n]` tokens showing `n + 1` sheep.
    pub sheep: [u8; 8],
    /// Wolves.
    pub wolves: u8,
}

/// A shepherd on the board and its flock.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_flock {
    /// The shepherd's cell.
    pub pos: carc_pos,
    /// Whose shepherd.
    pub player: u8,
    /// The shepherd's segment.
    pub segment: u8,
    /// The sheep its tokens show together.
    pub sheep: u32,
    /// Its tokens: `tokens[n]` showing `n + 1` sheep.
    pub tokens: [u8; 8],
}

/// Writes the special figures player `player` has in hand to `*out` (ABI 1.9).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a player
/// not at the table.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_special_supply`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_special_supply(
    game: *const carc_game,
    player: u8,
    out: *mut carc_special_supply,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let supply = handle.game().supply(seated(handle.game(), player)?);
            Ok(carc_special_supply {
                builders: supply.count(Figure::BUILDER),
                pigs: supply.count(Figure::PIG),
                shepherds: supply.count(Figure::SHEPHERD),
            })
        })
    }
}

/// Writes what the flock's bag holds to `*out`; all 0 in games without a flock (ABI 1.9).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_sheep_bag`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_sheep_bag(
    game: *const carc_game,
    out: *mut carc_sheep_bag,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let bag = handle.game().sheep_bag();
            Ok(carc_sheep_bag { sheep: bag.sheep, wolves: bag.wolves })
        })
    }
}

/// Lists the shepherds on the board with their flocks, in the order they were deployed, into
/// `buf` (ABI 1.9). With `buf` NULL and `cap` 0, only `*count` is written.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL` (with
/// `*count` the size needed).
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_flock`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_flocks(
    game: *const carc_game,
    buf: *mut carc_flock,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            buffer.fill_map(handle.game().flocks(), |flock| carc_flock {
                pos: pos_to_c(flock.pos),
                player: flock.player.0,
                segment: flock.segment,
                sheep: flock.sheep(),
                tokens: flock.tokens,
            })
        })
    }
}

/// Writes how many tiles lie hidden under hills, out of the game and unseen, to `*out`
/// (ABI 1.9). They are among the counts `carc_game_remaining` gives and are never drawn.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_hidden_tiles(
    game: *const carc_game,
    out: *mut u32,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().hidden_tiles())) }
}

/// Writes 1 to `*out` when the current turn is a builder's second turn, which gives no third,
/// else 0 (ABI 1.9).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_is_second_turn(
    game: *const carc_game,
    out: *mut u8,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(u8::from(handle.game().is_second_turn()))) }
}
