//! Landscape scoring: any snapshot of tiles and figures, scored as at the end of a game.

use std::ffi::c_char;

use carcassonne::{LandscapeDoc, LandscapeOptions, LandscapeScore};

use crate::boundary::{
    Buffer, ErrSlot, Failure, Out, arg, arg_str, boundary, plain_boundary, value_boundary,
};
use crate::catalog::{carc_catalog, catalogs_arg};
use crate::error::carc_error;
use crate::handle::{self, Kind, Object};
use crate::result::{carc_result, landscape_code};
use crate::save::from_json;
use crate::values::{
    carc_feature_score, carc_rules, flag_from_c, rules_from_c, rules_to_c, score_to_c,
};

/// The scores of a landscape: points per player and every feature that scored. Made by
/// `carc_landscape_score_new`, freed by `carc_landscape_score_free`.
pub struct carc_landscape_score {
    _opaque: [u8; 0],
}

/// What a `carc_landscape_score` handle stands for.
struct ScoreObject {
    score: LandscapeScore,
}

impl Object for ScoreObject {
    const KIND: Kind = Kind::LandscapeScore;
    type Opaque = carc_landscape_score;
}

/// How a landscape is scored: the game's rules plus two overrides for puzzles. The
/// fuller `carc_landscape_scoring` (ABI 1.2) also sets the pennants of unfinished cities.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_landscape_options {
    /// The rule options (`carc_rules_default` for the published rules).
    pub rules: carc_rules,
    /// 1: every feature counts for player 0, whatever stands on it (solo puzzles); 0: the
    /// figures decide.
    pub claim_all: u8,
    /// 1 if `pennant_value` replaces the 2 points per pennant of a completed city without a
    /// cathedral, else 0.
    pub has_pennant_value: u8,
    /// Points per pennant, when `has_pennant_value`.
    pub pennant_value: u32,
}

/// How a landscape is scored, in full (ABI 1.2): the game's rules, who claims the features,
/// and what a pennant is worth. `carc_landscape_scoring_default` gives the published
/// end-of-game scoring, `carc_landscape_scoring_solo_puzzle` the published solo puzzles'.
/// Fields score only when `rules.farmers` is 1, claimed or not.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_landscape_scoring {
    /// The rule options (`carc_rules_default` for the published rules).
    pub rules: carc_rules,
    /// 1: every feature counts for player 0, whatever stands on it (solo puzzles); 0: the
    /// figures decide.
    pub claim_all: u8,
    /// Points per pennant in a completed city without a cathedral (published: 2).
    pub pennant_value: u32,
    /// Points per pennant in an unfinished city without a cathedral (published: 1).
    pub unfinished_pennant_value: u32,
}

/// The scoring `options` give.
fn options_from_c(options: &carc_landscape_options) -> Result<LandscapeOptions, Failure> {
    let pennant_value = flag_from_c(options.has_pennant_value, "options->has_pennant_value")?
        .then_some(options.pennant_value);
    Ok(LandscapeOptions::default()
        .with_rules(rules_from_c(&options.rules)?)
        .with_claim_all(flag_from_c(options.claim_all, "options->claim_all")?)
        .with_pennant_value(pennant_value)
        .with_unfinished_pennant_value(None))
}

/// The scoring `scoring` gives.
fn scoring_from_c(scoring: &carc_landscape_scoring) -> Result<LandscapeOptions, Failure> {
    Ok(LandscapeOptions::default()
        .with_rules(rules_from_c(&scoring.rules)?)
        .with_claim_all(flag_from_c(scoring.claim_all, "scoring->claim_all")?)
        .with_pennant_value(Some(scoring.pennant_value))
        .with_unfinished_pennant_value(Some(scoring.unfinished_pennant_value)))
}

fn scoring_to_c(options: &LandscapeOptions) -> carc_landscape_scoring {
    carc_landscape_scoring {
        rules: rules_to_c(&options.rules),
        claim_all: options.claim_all.into(),
        pennant_value: options.pennant_value.unwrap_or(2),
        unfinished_pennant_value: options.unfinished_pennant_value.unwrap_or(1),
    }
}

/// Writes the published end-of-game scoring to `*out`: the published rules, figures decide,
/// 2 points per pennant in a completed city and 1 in an unfinished one.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` when `out` is NULL.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_landscape_scoring`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_scoring_default(
    out: *mut carc_landscape_scoring,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { write_scoring(out, &LandscapeOptions::default()) }
}

/// Writes the scoring of the published solo puzzles to `*out`: player 0 owns every feature;
/// a city scores 2 per tile complete and 1 per tile unfinished, with no pennant bonus either
/// way; a road 1 per tile; a monastery 9 complete, else 1 plus its neighbours; fields
/// nothing (farmers off).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` when `out` is NULL.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_landscape_scoring`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_scoring_solo_puzzle(
    out: *mut carc_landscape_scoring,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { write_scoring(out, &LandscapeOptions::solo_puzzle()) }
}

/// Writes `options` to `*out`, as the two functions above do.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_landscape_scoring`.
unsafe fn write_scoring(
    out: *mut carc_landscape_scoring,
    options: &LandscapeOptions,
) -> carc_result {
    plain_boundary(|| {
        // SAFETY: the caller promises NULL or a writable `carc_landscape_scoring`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(scoring_to_c(options));
        Ok(())
    })
}

/// Scores a landscape described in JSON, as the command-line tool's `score` reads it, and
/// makes a new result at `*out`, to be freed with `carc_landscape_score_free`:
///
/// `{"tilesets": ["base"], "tiles": [{"tile": "E", "x": 0, "y": 0, "rotation": 90}, ...],
/// "figures": [{"player": 0, "figure": "follower", "x": 0, "y": 0, "segment": 0}, ...]}`
///
/// Rotations are degrees clockwise, y grows north; `figure` is `follower` (the default),
/// `big_follower` or `abbot`, on a segment numbered as in the tile type. `tilesets` (default
/// `["base"]`) is written as in a setup (`carc_game_new_json`): built-in names, or
/// `{"toml": "...", "file": "name.toml"}` with a whole tile set's text. No file is ever read,
/// so JSON from a stranger cannot reach the file system; to score with a set from a file,
/// load it with `carc_catalog_from_path` and pass `catalog_count` catalog handles in
/// `catalogs`, and leave `tilesets` out of the JSON. Every feature with a figure on it (every
/// feature, under `claim_all`) scores, complete or not; fields only when
/// `options->rules.farmers` is 1 (since ABI 1.2 also under `claim_all`, which scored fields
/// whatever `farmers` said before). `carc_landscape_score_new_scoring` takes the fuller
/// `carc_landscape_scoring`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_INVALID_ENUM` for a
/// rule constant out of range, `CARC_RESULT_INVALID_ARGUMENT` for both catalogs and
/// `tilesets`, `CARC_RESULT_JSON_TOO_LARGE` over 64 MiB, `CARC_RESULT_JSON_SYNTAX` or
/// `CARC_RESULT_JSON_CONTENT` with the line and column in `*err` (bad rotations, unknown
/// built-in names and invalid tile set text too), the 3xx code of tile sets that cannot be
/// combined, and `CARC_RESULT_LANDSCAPE_*` naming the first bad tile or figure by its place in
/// the list.
///
/// # Safety
/// `json` is NULL or a NUL-terminated string; `catalogs` is NULL or points to `catalog_count`
/// pointers, each any handle value; `options` is NULL or points to a
/// `carc_landscape_options`; `out` is NULL or points to a writable `carc_landscape_score *`;
/// `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_new(
    json: *const c_char,
    catalogs: *const *const carc_catalog,
    catalog_count: usize,
    options: *const carc_landscape_options,
    out: *mut *mut carc_landscape_score,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a readable `carc_landscape_options`.
        let options = options_from_c(unsafe { arg(options, "options") }?)?;
        // SAFETY: passed on from the caller.
        unsafe { score_json(json, catalogs, catalog_count, &options, out) }
    })
}

/// As `carc_landscape_score_new`, with the scoring in full (ABI 1.2): `scoring` also sets
/// the points of a pennant in an unfinished city, so the published solo puzzles
/// (`carc_landscape_scoring_solo_puzzle`) can be scored.
///
/// # Errors
/// As `carc_landscape_score_new`.
///
/// # Safety
/// As `carc_landscape_score_new`, with `scoring` NULL or pointing to a
/// `carc_landscape_scoring`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_new_scoring(
    json: *const c_char,
    catalogs: *const *const carc_catalog,
    catalog_count: usize,
    scoring: *const carc_landscape_scoring,
    out: *mut *mut carc_landscape_score,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a readable `carc_landscape_scoring`.
        let options = scoring_from_c(unsafe { arg(scoring, "scoring") }?)?;
        // SAFETY: passed on from the caller.
        unsafe { score_json(json, catalogs, catalog_count, &options, out) }
    })
}

/// The body both landscape entry points share.
///
/// # Safety
/// As `carc_landscape_score_new` says of `json`, `catalogs`, `catalog_count` and `out`.
unsafe fn score_json(
    json: *const c_char,
    catalogs: *const *const carc_catalog,
    catalog_count: usize,
    options: &LandscapeOptions,
    out: *mut *mut carc_landscape_score,
) -> Result<(), Failure> {
    // SAFETY: the caller promises NULL or a NUL-terminated string.
    let json = unsafe { arg_str(json, "json") }?;
    // SAFETY: the caller promises NULL or a writable pointer.
    let out = unsafe { Out::new(out, "out") }?;
    // SAFETY: the caller promises `catalog_count` readable handle values.
    let given = unsafe { catalogs_arg(catalogs, catalog_count, "catalogs") }?;
    let doc: LandscapeDoc = from_json(json)?;
    let landscape = doc
        .into_landscape(given)
        .map_err(|error| Failure::new(landscape_code(&error), error.to_string()))?;
    let score = landscape
        .score(options)
        .map_err(|error| Failure::new(landscape_code(&error), error.to_string()))?;
    out.write(handle::hand_out(ScoreObject { score })?);
    Ok(())
}

/// Frees a landscape score; NULL does nothing.
///
/// # Safety
/// `score` is any handle value; it is invalid afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_free(score: *mut carc_landscape_score) {
    value_boundary((), || drop(handle::take::<ScoreObject>(score)));
}

/// Writes the points of each player, from player 0 up to the highest player with a figure
/// (one entry under `claim_all`), to `buf`. `*count` receives the number written, or the
/// number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `score` is any handle value; `buf` is NULL or valid for writing `cap`
/// `uint32_t`s; `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_totals(
    score: *const carc_landscape_score,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let score = handle::borrow::<ScoreObject>(score, "score")?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` items, `count` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, count, ("buf", "count")) }?;
        buffer.fill_from(&score.score.total)
    })
}

/// Writes every feature that scored, in end-of-game order (roads, cities, monasteries and
/// gardens, fields), to `buf`. `*count` receives the number written, or the number needed
/// with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `score` is any handle value; `buf` is NULL or valid for writing `cap`
/// `carc_feature_score`s; `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_features(
    score: *const carc_landscape_score,
    buf: *mut carc_feature_score,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let score = handle::borrow::<ScoreObject>(score, "score")?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` items, `count` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, count, ("buf", "count")) }?;
        let (features, book) = (&score.score.features, &score.score.rulebook);
        buffer.fill_map(features, |score| score_to_c(&score, book.marks(), book.rules()))
    })
}

/// Writes the scores as JSON, `{"total": [...], "features": [...]}` with the fields of the
/// command-line tool's `score`, to `buf`, NUL-terminated. `*size` receives the bytes written,
/// the NUL included, or the bytes needed with `CARC_RESULT_BUFFER_TOO_SMALL` (then `buf` is
/// left alone); `buf` may be NULL when `cap` is 0, to ask for the size.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `score` is any handle value; `buf` is NULL or valid for writing `cap` bytes;
/// `size` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_landscape_score_json(
    score: *const carc_landscape_score,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let score = handle::borrow::<ScoreObject>(score, "score")?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        buffer.fill_json(&score.score)
    })
}
