//! Tokens: the kinds the game's tile sets declare (Traders & Builders' goods) and how many of
//! each a player holds (ABI 1.7).

use std::ffi::c_char;

use carcassonne::{PlayerId, Taker};

use crate::boundary::Failure;
use crate::game::{carc_game, list, query};
use crate::result::carc_result;

/// Who takes the tokens of a completed feature.
pub type carc_token_taker = u32;
/// The player who placed the tile that completed it, whoever holds it.
pub const CARC_TOKEN_TAKER_COMPLETER: carc_token_taker = 0;
/// Each player who scores it.
pub const CARC_TOKEN_TAKER_SCORERS: carc_token_taker = 1;

/// A token kind as the game's tile sets declare it. The strings belong to the game handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_token_info {
    /// The id events name it by, such as `"wine"`.
    pub id: *const c_char,
    /// The name shown to people.
    pub name: *const c_char,
    /// Who takes them, a `CARC_TOKEN_TAKER_*` constant.
    pub taken_by: carc_token_taker,
    /// Points at the end of the game to each player holding the most of this kind (nobody
    /// scores a kind nobody holds).
    pub majority: u32,
}

/// Writes how many token kinds the game's tile sets declare to `*out`; they are numbered
/// from 0 below it, as the `token` of `TOKENS_*` events is.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_token_kind_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().tokens().len())) }
}

/// Writes token kind `token` to `*out`. Its strings belong to `game` and stay valid until it
/// is freed.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a kind
/// past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_token_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_token_info(
    game: *const carc_game,
    token: u8,
    out: *mut carc_token_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let tokens = handle.game().tokens();
            let index = usize::from(token);
            let (Some(info), Some((id, name))) =
                (tokens.get(index), handle.strings().tokens.get(index))
            else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!(
                        "the game's tile sets declare {} token kinds; there is no kind {token}",
                        tokens.len()
                    ),
                ));
            };
            Ok(carc_token_info {
                id: id.as_ptr(),
                name: name.as_ptr(),
                taken_by: match info.taker {
                    Taker::Completer => CARC_TOKEN_TAKER_COMPLETER,
                    Taker::Scorers => CARC_TOKEN_TAKER_SCORERS,
                },
                majority: info.majority,
            })
        })
    }
}

/// Lists how many tokens of each kind player `player` holds, one `uint32_t` per kind in the
/// numbering of `carc_game_token_info`, into `buf` (the list pattern of `carc_game_scores`).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL` (with
/// `*count` set to the length needed), `CARC_RESULT_OUT_OF_RANGE` for a player not at the
/// table.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `uint32_t`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tokens_held(
    game: *const carc_game,
    player: u8,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let players = handle.game().players();
            if player >= players {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!("there are {players} players; there is no player {player}"),
                ));
            }
            buffer.fill_from(&handle.game().tokens_held(PlayerId(player)))
        })
    }
}
