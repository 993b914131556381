//! What the game's tile sets declare beyond tiles and marks: token kinds (Traders & Builders'
//! goods) and how many of each a player holds, and titles (King & Robber Baron's King and
//! Robber Baron) with where each stands (ABI 1.7).

use std::ffi::c_char;

use carcassonne::{Effect, Taker, TitleId};

use crate::boundary::Failure;
use crate::game::{carc_game, list, query, seated};
use crate::result::carc_result;
use crate::values::{carc_pos, carc_segment_kind, pos_to_c, segment_kind_to_c};

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
            let player = seated(handle.game(), player)?;
            buffer.fill_from(&handle.game().tokens_held(player))
        })
    }
}

/// A title as the game's tile sets declare it, and where it stands now. The strings belong to
/// the game handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_title_info {
    /// The id events name it by, such as `"king"`.
    pub id: *const c_char,
    /// The name shown to people.
    pub name: *const c_char,
    /// The kind of feature that wins it and that it scores: `CITY` or `ROAD`.
    pub feature: carc_segment_kind,
    /// Points at the end per feature of that kind completed in the game.
    pub per_feature: u32,
    /// Points at the end for holding it.
    pub holding: u32,
    /// 1 when a player holds it, else 0.
    pub has_holder: u8,
    /// The holder, when `has_holder`.
    pub holder: u8,
    /// Tiles of the largest feature of its kind completed so far (0 before any).
    pub largest: u32,
    /// Features of its kind completed so far.
    pub completed: u32,
}

/// Writes how many titles the game's tile sets declare to `*out`; they are numbered from 0
/// below it, as the `declared` byte of `TITLE_*` events is.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_title_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().titles().len())) }
}

/// Writes title `title`, with its holder and record now, to `*out`. Its strings belong to
/// `game` and stay valid until it is freed.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a title
/// past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_title_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_title_info(
    game: *const carc_game,
    title: u8,
    out: *mut carc_title_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let titles = handle.game().titles();
            let index = usize::from(title);
            let (Some(info), Some((id, name)), Some(standing)) = (
                titles.get(index),
                handle.strings().titles.get(index),
                handle.game().title_standing(TitleId(title)),
            ) else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!(
                        "the game's tile sets declare {} titles; there is no title {title}",
                        titles.len()
                    ),
                ));
            };
            Ok(carc_title_info {
                id: id.as_ptr(),
                name: name.as_ptr(),
                feature: segment_kind_to_c(info.feature),
                per_feature: info.per_feature,
                holding: info.holding,
                has_holder: u8::from(standing.holder.is_some()),
                holder: standing.holder.map_or(0, |player| player.0),
                largest: standing.largest,
                completed: standing.completed,
            })
        })
    }
}

/// Two occupied, unfinished rivals beside each other under a declared rivalry (The Cult: a
/// shrine with a heretic beside a monastery with a monk): whichever is completed first scores,
/// and the other's figures go home with nothing (ABI 1.8).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct carc_challenge {
    /// The cell of the feature carrying the rivalry's marks (the shrine).
    pub marked: carc_pos,
    /// The cell of the other (the monastery).
    pub plain: carc_pos,
    /// Whose figure stands on the marked one.
    pub marked_player: u8,
    /// Whose figure stands on the other.
    pub plain_player: u8,
    /// The rivalry, by its number among the game's declared rules.
    pub rule: u8,
}

/// Lists the challenges standing now, the feature carrying the rivalry's marks first in each,
/// into `buf` (the list pattern of `carc_game_scores`); none in games without rivalries.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL` (with
/// `*count` set to the length needed).
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_challenge`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_challenges(
    game: *const carc_game,
    buf: *mut carc_challenge,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let challenges: Vec<carc_challenge> = handle
                .game()
                .challenges()
                .iter()
                .map(|challenge| carc_challenge {
                    marked: pos_to_c(challenge.marked),
                    plain: pos_to_c(challenge.plain),
                    marked_player: challenge.marked_player.0,
                    plain_player: challenge.plain_player.0,
                    rule: challenge.rule.0,
                })
                .collect();
            buffer.fill_from(&challenges)
        })
    }
}

/// What a declared rule does: the table a tile set file declares it in.
pub type carc_rule_kind = u32;
/// `[[value]]`: what a city or road is worth by its marks.
pub const CARC_RULE_KIND_VALUE: carc_rule_kind = 0;
/// `[[farm]]`: what a completed city pays its farmers by its marks.
pub const CARC_RULE_KIND_FARM: carc_rule_kind = 1;
/// `[[neighbours]]`: a bonus per marked tile around a monastery or garden.
pub const CARC_RULE_KIND_NEIGHBOURS: carc_rule_kind = 2;
/// `[[tiebreak]]`: who takes a tied majority.
pub const CARC_RULE_KIND_TIEBREAK: carc_rule_kind = 3;
/// `[[rival]]`: monasteries or gardens that challenge their neighbours.
pub const CARC_RULE_KIND_RIVAL: carc_rule_kind = 4;
/// `[[chain]]`: river tiles that continue the river.
pub const CARC_RULE_KIND_CHAIN: carc_rule_kind = 5;
/// `[[occupants]]`: which figures may stand on a kind of segment.
pub const CARC_RULE_KIND_OCCUPANTS: carc_rule_kind = 6;
/// What a pig adds per completed city to its owner's farm (`[[pig]]`) (ABI 1.9).
pub const CARC_RULE_KIND_PIG: carc_rule_kind = 7;
/// A bag of tokens the figures that draw from it keep or are sent home by (`[[bag]]`; Hills &
/// Sheep's flock) (ABI 1.9, `[[flock]]` before 1.11).
pub const CARC_RULE_KIND_FLOCK: carc_rule_kind = 8;
/// A tile carrying a mark hides a tile under it (`[[hide]]`) (ABI 1.9).
pub const CARC_RULE_KIND_HIDE: carc_rule_kind = 9;

/// A rule as the game's tile sets declare it (ABI 1.8). The string belongs to the game
/// handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_rule_info {
    /// The id events and messages name it by, such as `"cathedral"` or `"vineyards"`.
    pub id: *const c_char,
    /// What it does, a `CARC_RULE_KIND_*` constant.
    pub kind: carc_rule_kind,
}

/// A mark as the game's tile sets declare it (ABI 1.8). The strings belong to the game
/// handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_mark_info {
    /// The id tiles name it by, such as `"pennant"` or `"wine"`.
    pub id: *const c_char,
    /// The name shown to people.
    pub name: *const c_char,
    /// 1 for a mark printed on whole tiles (a hill, a vineyard), 0 for one on segments.
    pub on_tiles: u8,
}

/// Writes how many rules the game's tile sets declare to `*out`; they are numbered from 0
/// below it, as the `declared` byte of `FEATURE_SCORED` events (less 1) is (ABI 1.8).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_rule_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().rules().len())) }
}

/// Writes rule `rule` to `*out`. Its string belongs to `game` and stays valid until it is
/// freed (ABI 1.8).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a rule
/// past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_rule_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_rule_info(
    game: *const carc_game,
    rule: u8,
    out: *mut carc_rule_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let rules = handle.game().rules();
            let index = usize::from(rule);
            let (Some(info), Some(id)) = (rules.get(index), handle.strings().rules.get(index))
            else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!(
                        "the game's tile sets declare {} rules; there is no rule {rule}",
                        rules.len()
                    ),
                ));
            };
            let kind = match info.effect {
                Effect::Value(_) => CARC_RULE_KIND_VALUE,
                Effect::Farm(_) => CARC_RULE_KIND_FARM,
                Effect::Neighbours(_) => CARC_RULE_KIND_NEIGHBOURS,
                Effect::TieBreak(_) => CARC_RULE_KIND_TIEBREAK,
                Effect::Rival(_) => CARC_RULE_KIND_RIVAL,
                Effect::Chain(_) => CARC_RULE_KIND_CHAIN,
                Effect::Occupants(_) => CARC_RULE_KIND_OCCUPANTS,
                Effect::Pig(_) => CARC_RULE_KIND_PIG,
                Effect::Bag(_) => CARC_RULE_KIND_FLOCK,
                Effect::Hide(_) => CARC_RULE_KIND_HIDE,
            };
            Ok(carc_rule_info { id: id.as_ptr(), kind })
        })
    }
}

/// Writes how many marks the game's tile sets declare to `*out`; they are numbered from 0
/// below it, as `carc_game_feature_marks` lists their counts (ABI 1.8).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_mark_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game().marks().len())) }
}

/// Writes mark `mark` to `*out`. Its strings belong to `game` and stay valid until it is
/// freed (ABI 1.8).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a mark
/// past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_mark_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_mark_info(
    game: *const carc_game,
    mark: u8,
    out: *mut carc_mark_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let marks = handle.game().marks();
            let index = usize::from(mark);
            let (Some(info), Some((id, name))) =
                (marks.get(index), handle.strings().marks.get(index))
            else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!(
                        "the game's tile sets declare {} marks; there is no mark {mark}",
                        marks.len()
                    ),
                ));
            };
            Ok(carc_mark_info {
                id: id.as_ptr(),
                name: name.as_ptr(),
                on_tiles: u8::from(info.tile),
            })
        })
    }
}

/// Lists the marks the feature that segment `segment` of the tile at `pos` belongs to carries,
/// one `uint32_t` count per declared mark in the numbering of `carc_game_mark_info`, into `buf`
/// (the list pattern of `carc_game_scores`) (ABI 1.8).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL` (with
/// `*count` set to the length needed), `CARC_RESULT_OUT_OF_RANGE` for a cell without a tile or
/// a segment the tile lacks.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `uint32_t`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_feature_marks(
    game: *const carc_game,
    pos: carc_pos,
    segment: u8,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = handle.game();
            let at = carcassonne::Pos::new(pos.x, pos.y);
            if game.board().get(at).is_none() {
                return Err(Failure::new(
                    carc_result::NotAvailable,
                    format!("no tile lies at ({}, {})", pos.x, pos.y),
                ));
            }
            let Some(feature) = game.feature(at, segment) else {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!("the tile at ({}, {}) has no segment {segment}", pos.x, pos.y),
                ));
            };
            let counts: Vec<u32> =
                (0..game.marks().len()).map(|mark| feature.marks.0[mark]).collect();
            buffer.fill_from(&counts)
        })
    }
}
