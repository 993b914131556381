//! The special figures' state for C (ABI 1.9): builders, pigs and shepherds in hand, the
//! shepherds' flocks and bag, the tiles hidden under hills, and the builder's second turn.

use carcassonne::{BagToken, Drawn, Figure, Game, Phase};

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
            let game = handle.game();
            let (sheep, wolves) = game.bag().by_worth(game.bag_kinds());
            Ok(carc_sheep_bag { sheep, wolves })
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
            let game = handle.game();
            buffer.fill_map(game.hoards(), |hoard| {
                let kept = hoard.contents(game.bag_kinds());
                carc_flock {
                    pos: pos_to_c(hoard.pos),
                    player: hoard.player.0,
                    segment: hoard.segment,
                    sheep: hoard.worth(game.bag_kinds()),
                    tokens: kept.by_worth(game.bag_kinds()).0,
                }
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

/// The kind of token of the bag being drawn from that has this shape: kept with this worth,
/// or sending home for `None`; `None` outside a draw or where the bag has no such kind.
fn tended_of_shape(game: &Game, worth: Option<u8>) -> Option<BagToken> {
    game.tended_bag().iter().map(|(token, _)| token).find(|token| {
        game.bag_kind(*token).is_some_and(|kind| match worth {
            Some(worth) => kind.rule.then == Drawn::Keep && kind.rule.worth == worth,
            None => kind.rule.then == Drawn::SendHome,
        })
    })
}

/// [`tended_of_shape`], or a token no bag has, which the game refuses for the phase or the
/// bag.
pub(crate) fn token_of_shape(game: &Game, worth: Option<u8>) -> BagToken {
    tended_of_shape(game, worth)
        .or(BagToken::from_id("no_such_token"))
        .unwrap_or_else(|| unreachable!("a valid token id"))
}

/// Whether the game is drawing from a bag that has no token sending home: what
/// `CARC_ACTION_KIND_DRAW_WOLF` is refused for there.
pub(crate) fn drawing_without_wolf(game: &Game) -> bool {
    matches!(game.phase(), Phase::Sheep { .. }) && tended_of_shape(game, None).is_none()
}

/// The shape of `token` among the game's kinds: its worth if kept, `None` if it sends home.
pub(crate) fn shape_of(game: &Game, token: BagToken) -> Option<u8> {
    game.bag_kind(token).and_then(|kind| (kind.rule.then == Drawn::Keep).then_some(kind.rule.worth))
}
