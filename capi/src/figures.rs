//! The figures a game's tile sets declare, for C (ABI 1.10): each with its id, its number in C
//! and its rules, and how many of any figure a player has in hand. The published figures keep
//! their `CARC_FIGURE_*` numbers; an author's own are numbered from `CARC_FIGURE_DECLARED`.

use std::ffi::c_char;

use crate::boundary::Failure;
use crate::game::{carc_game, query, seated};
use crate::result::carc_result;
use crate::values::{carc_figure, figure_from_c, figure_to_c};

/// A figure as the game's tile sets declare it. The id belongs to the game handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_figure_info {
    /// The id files, JSON and events name it by, such as `"follower"` or an author's
    /// `"giant"`.
    pub id: *const c_char,
    /// Its number in `carc_action`, `carc_event` and the figure lists: a `CARC_FIGURE_*`
    /// constant, or `CARC_FIGURE_DECLARED` and up for a figure no built-in set brings.
    pub figure: carc_figure,
    /// 1 for a follower (it occupies its feature and counts `strength` in its majority), 0
    /// for a companion (it stands beside followers).
    pub follower: u8,
    /// What it weighs in a majority: 1 to 10 for a follower, 0 for a companion.
    pub strength: u8,
    /// How many each player starts with.
    pub per_player: u8,
    /// 1 when its owner may take it back early, as the abbot (`CARC_ACTION_KIND_RECALL_ABBOT`).
    pub recall: u8,
}

/// Writes how many figures the game's players have to `*out`; they are listed from 0 below
/// it by `carc_game_figure_info`, the followers first, then the companions, the published
/// figures before any other (ABI 1.10).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_figure_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().figure_kinds().len())) }
}

/// Writes the game's figure number `index` (in the order of `carc_game_figure_count`) to
/// `*out`. Its id belongs to `game` and stays valid until it is freed (ABI 1.10).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for an index
/// past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_figure_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_figure_info(
    game: *const carc_game,
    index: u8,
    out: *mut carc_figure_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = handle.game();
            let kinds = game.figure_kinds().len();
            let (Some(figure), Some(id)) = (
                game.figure_kinds().nth(usize::from(index)),
                handle.strings().figures.get(usize::from(index)),
            ) else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!("the game's players have {kinds} figures; there is no figure {index}"),
                ));
            };
            let rule = game.figure_rule(figure).ok_or_else(|| {
                Failure::new(carc_result::Panic, format!("the {figure} has no declaration"))
            })?;
            Ok(carc_figure_info {
                id: id.as_ptr(),
                figure: figure_to_c(figure, game),
                follower: u8::from(rule.is_follower()),
                strength: rule.strength(),
                per_player: rule.per_player,
                recall: u8::from(rule.recalls()),
            })
        })
    }
}

/// Writes how many of `figure` (a `CARC_FIGURE_*` number, or one from `carc_figure_info`)
/// player `player` has in hand to `*out`: 0 for a published figure the game does not have
/// (ABI 1.10).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a player
/// not at the table, `CARC_RESULT_INVALID_ENUM` for a number that names no figure of the game.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_in_hand(
    game: *const carc_game,
    player: u8,
    figure: carc_figure,
    out: *mut u8,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = handle.game();
            Ok(game.in_hand(seated(game, player)?, figure_from_c(figure, game)?))
        })
    }
}
