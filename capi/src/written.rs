//! Outputs: every byte the library writes into the caller's memory has a value, padding
//! included.
//!
//! Writing a whole `#[repr(C)]` struct in Rust copies its fields and leaves its padding
//! bytes undefined: a caller that hashes or `memcmp`s the struct sees library garbage, and
//! valgrind reports jumps on uninitialised values. So every struct is zeroed first and then
//! written one field at a time, which leaves the padding at zero. Each implementation
//! destructures its struct without `..`, so a field added later and forgotten here does not
//! compile.

use std::ffi::c_char;

use crate::analysis::{carc_analysis_config, carc_analysis_summary, carc_move_stats};
use crate::board::{
    carc_feature_info, carc_placed_figure, carc_placement, carc_segment_ref, carc_segment_state,
};
use crate::catalog::{carc_segment_info, carc_tile_info, carc_tileset_info};
use crate::declared::{
    carc_challenge, carc_mark_info, carc_rule_info, carc_title_info, carc_token_info,
};
use crate::error::carc_diagnostic_info;
use crate::figures::carc_figure_info;
use crate::flock::{carc_flock, carc_sheep_bag, carc_special_supply};
use crate::game::carc_setup;
use crate::landscape::carc_landscape_scoring;
use crate::picture::carc_point;
use crate::values::{
    carc_action, carc_event, carc_feature_score, carc_pos, carc_rules, carc_supply,
};

/// A value the library writes to the caller's memory, every byte of it defined.
pub(crate) trait Written: Sized {
    /// Writes `self` to `dst`, padding bytes as 0.
    ///
    /// # Safety
    /// `dst` is valid for writing a `Self` and suitably aligned.
    unsafe fn write_to(self, dst: *mut Self);
}

/// Scalars and pointers have no padding: a plain write defines every byte.
macro_rules! written_as_is {
    ($($type:ty),* $(,)?) => {$(
        impl Written for $type {
            #[inline]
            unsafe fn write_to(self, dst: *mut Self) {
                // SAFETY: the caller promises `dst` is valid and aligned for a `Self`.
                unsafe { dst.write(self) }
            }
        }
    )*};
}

written_as_is!(u8, i8, u16, i16, u32, u64, usize, f64);

impl<T> Written for *const T {
    #[inline]
    unsafe fn write_to(self, dst: *mut Self) {
        // SAFETY: the caller promises `dst` is valid and aligned for a pointer.
        unsafe { dst.write(self) }
    }
}

impl<T> Written for *mut T {
    #[inline]
    unsafe fn write_to(self, dst: *mut Self) {
        // SAFETY: the caller promises `dst` is valid and aligned for a pointer.
        unsafe { dst.write(self) }
    }
}

impl<T: Written, const N: usize> Written for [T; N] {
    #[inline]
    unsafe fn write_to(self, dst: *mut Self) {
        for (index, item) in self.into_iter().enumerate() {
            // SAFETY: `dst` is valid for `N` items of `T` (the caller's promise), `index < N`.
            unsafe { item.write_to(dst.cast::<T>().add(index)) };
        }
    }
}

/// Zeroes the struct, then writes each field where it lies.
macro_rules! written_struct {
    ($($name:ident { $($field:ident),* $(,)? })*) => {$(
        impl Written for $name {
            #[inline]
            unsafe fn write_to(self, dst: *mut Self) {
                let $name { $($field),* } = self;
                // SAFETY: the caller promises `dst` is valid and aligned for a `Self`, so for
                // its bytes and for each of its fields at their offsets.
                unsafe {
                    dst.cast::<u8>().write_bytes(0, size_of::<Self>());
                    $(Written::write_to($field, &raw mut (*dst).$field);)*
                }
            }
        }
    )*};
}

written_struct! {
    carc_pos { x, y }
    carc_action { kind, figure, pos, tile, rotation, segment }
    carc_rules { farmers, farm_scoring, tiny_city, inn_cathedral_unfinished, abbots }
    carc_feature_score {
        kind, pos, segment, complete, farmers, scorers, reason, modifier, tiles, pennants,
        cities, points,
    }
    carc_event { kind, player, winners, tile, pos, rotation, segment, declared, figure, score }
    carc_supply { followers, big_followers, abbots }
    carc_special_supply { builders, pigs, shepherds }
    carc_sheep_bag { sheep, wolves }
    carc_flock { pos, player, segment, sheep, tokens }
    carc_token_info { id, name, taken_by, majority }
    carc_figure_info { id, figure, follower, strength, per_player, recall }
    carc_challenge { marked, plain, marked_player, plain_player, rule }
    carc_rule_info { id, kind }
    carc_mark_info { id, name, on_tiles }
    carc_title_info {
        id, name, feature, per_feature, holding, has_holder, holder, largest, completed,
    }
    carc_setup { catalogs, catalog_count, players, seed, rules }
    carc_tileset_info {
        id, name, edition, followers, big_followers, has_start_tile, start_tile, stage,
        colours, tile_types, tile_count,
    }
    carc_tile_info { id, name, count, segment_count, edges }
    carc_segment_info { kind, edges, half_edges, marks, cities }
    carc_placement { pos, tile, rotation, order, edges }
    carc_segment_state { kind, feature, has_figure, player, figure }
    carc_feature_info {
        id, kind, complete, inn, cathedral, leaders, tiles, open_edges, pennants, figures,
        figures_by_player, strength_by_player,
    }
    carc_segment_ref { pos, segment }
    carc_placed_figure { player, figure, pos, segment }
    carc_diagnostic_info { file, line, column, code, code_number, message }
    carc_landscape_scoring { rules, claim_all, pennant_value, unfinished_pennant_value }
    carc_point { x, y }
    carc_analysis_config { rollouts, seconds, seed, threads, continuation, keep, report_every_ms }
    carc_move_stats { place, figure, has_place, rollouts, margin, margin_se, win, win_se, score }
    carc_analysis_summary { rollouts, seconds, moves, stop, tile, player }
}

const _: () = assert!(size_of::<c_char>() == 1);

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of `value` as written over memory that held 0xAA everywhere.
    fn written_over_garbage<T: Written>(value: T) -> Vec<u8> {
        let mut place = std::mem::MaybeUninit::<T>::uninit();
        // SAFETY: `place` is valid and aligned for a `T`; every byte is set before it is read.
        unsafe {
            place.as_mut_ptr().cast::<u8>().write_bytes(0xAA, size_of::<T>());
            value.write_to(place.as_mut_ptr());
            std::slice::from_raw_parts(place.as_ptr().cast::<u8>(), size_of::<T>()).to_vec()
        }
    }

    #[test]
    fn padding_is_written_as_zero() {
        // carc_action: 17 bytes of fields in 20. carc_event's byte after `segment` was
        // padding until ABI 1.7 made it `declared`: the struct kept its size and offsets.
        let action = carc_action {
            kind: 1,
            figure: 2,
            pos: carc_pos { x: -1, y: 3 },
            tile: 4,
            rotation: 90,
            segment: 5,
        };
        let bytes = written_over_garbage(action);
        assert_eq!(&bytes[17..], [0, 0, 0]);
        let event = carc_event { segment: 7, ..carc_event::default() };
        let bytes = written_over_garbage(event);
        assert_eq!(std::mem::offset_of!(carc_event, declared), 15);
        assert_eq!(std::mem::offset_of!(carc_event, figure), 16);
        assert_eq!(bytes[std::mem::offset_of!(carc_event, declared)], 0);
        assert!(!bytes.contains(&0xAA), "{bytes:?}");
        let figure =
            carc_placed_figure { player: 1, figure: 2, pos: carc_pos { x: 1, y: 1 }, segment: 3 };
        assert!(!written_over_garbage(figure).contains(&0xAA));
        // carc_move_stats: padding after `has_place` and inside its actions; the summary's
        // tail after `player`.
        let stats =
            carc_move_stats { place: action, figure: action, has_place: 1, ..Default::default() };
        assert!(!written_over_garbage(stats).contains(&0xAA));
        let summary = carc_analysis_summary { player: 1, tile: 2, ..Default::default() };
        assert!(!written_over_garbage(summary).contains(&0xAA));
    }
}
