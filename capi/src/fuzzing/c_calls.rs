//! Any sequence of C API calls, with NULLs, stale and made-up handles and garbage values.

use std::ffi::c_void;
use std::fmt::Debug;
use std::ptr;

use arbitrary::{Arbitrary, Unstructured};

use crate::board::{
    carc_game_feature, carc_game_feature_segments, carc_game_figures, carc_game_frontier,
    carc_game_placements, carc_game_segment, carc_game_tile_at, carc_placed_figure, carc_placement,
};
use crate::catalog::{
    carc_catalog, carc_catalog_builtin, carc_catalog_clone, carc_catalog_free,
    carc_catalog_from_toml, carc_catalog_tile_info,
};
use crate::figures::{carc_game_figure_count, carc_game_figure_info, carc_game_in_hand};
use crate::flock::{
    carc_game_flocks, carc_game_hidden_tiles, carc_game_is_second_turn, carc_game_sheep_bag,
    carc_game_special_supply,
};
use crate::fuzzing::{c_string, no_error, settle};
use crate::game::{
    carc_game, carc_game_actions, carc_game_apply, carc_game_apply_legal, carc_game_check,
    carc_game_clone, carc_game_drawable, carc_game_drawn_tile, carc_game_free,
    carc_game_last_events, carc_game_legal_action, carc_game_legal_action_count,
    carc_game_legal_actions, carc_game_new, carc_game_phase, carc_game_remaining_copies,
    carc_game_restarted, carc_game_scores, carc_game_tile_info, carc_setup,
};
use crate::handle::carc_live_handles;
use crate::landscape::{
    carc_landscape_options, carc_landscape_score, carc_landscape_score_free,
    carc_landscape_score_new, carc_landscape_score_new_scoring, carc_landscape_score_totals,
    carc_landscape_scoring_solo_puzzle,
};
use crate::result::carc_result;
use crate::save::{carc_game_load_json, carc_game_new_json, carc_game_save_json};
use crate::values::{carc_action, carc_pos, carc_rules};

/// A landscape of two city caps facing each other with a follower in the city.
const EXAMPLE_LANDSCAPE: &[u8] = br#"{"tiles": [{"tile": "E", "x": 0, "y": 0, "rotation": 0},
    {"tile": "E", "x": 0, "y": 1, "rotation": 180}],
    "figures": [{"player": 1, "figure": "follower", "x": 0, "y": 0, "segment": 0}]}"#;

/// The calls to make, in order, after a prologue that makes a base catalog, a base game and a
/// landscape score.
#[derive(Clone, Debug, Arbitrary)]
pub struct Script {
    /// The calls.
    pub calls: Vec<Call>,
}

/// Text for a call, mostly short. `arbitrary` would let a `Vec<u8>` take a random share of
/// the remaining input, so a script with a text in it would hold few calls after it: one byte
/// gives the length, under 224 as it is, otherwise in steps of 128 up to 4,096.
#[derive(Clone, Debug)]
pub struct Text(pub Vec<u8>);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let len = match u8::arbitrary(u)? {
            short @ 0..224 => usize::from(short),
            long => usize::from(long - 223) * 128,
        };
        let bytes = u.bytes(len.min(u.len()))?;
        Ok(Text(bytes.to_vec()))
    }
}

impl std::ops::Deref for Text {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// Up to eight items, the count from one byte, for the same reason as [`Text`].
#[derive(Clone, Debug)]
pub struct Few<T>(pub Vec<T>);

impl<'a, T: Arbitrary<'a>> Arbitrary<'a> for Few<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let count = u8::arbitrary(u)? % 9;
        (0..count).map(|_| T::arbitrary(u)).collect::<arbitrary::Result<_>>().map(Few)
    }
}

impl<T> std::ops::Deref for Few<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

/// A handle argument: NULL, any number at all, or a handle an earlier call made (live or
/// freed, of whatever kind), by its place in the list of handles made, modulo its length.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub enum HandleArg {
    /// NULL.
    Null,
    /// A made-up value.
    Garbage(usize),
    /// A handle made earlier.
    Made(u8),
}

/// The rule options as a C caller fills them, out-of-range values included.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct RawRules {
    /// `farmers`.
    pub farmers: u8,
    /// `farm_scoring`.
    pub farm_scoring: u32,
    /// `tiny_city`.
    pub tiny_city: u8,
    /// `inn_cathedral_unfinished`.
    pub unfinished: u32,
    /// `abbots`.
    pub abbots: u8,
}

/// A `carc_action` as a C caller fills it: each field half the time among the values that
/// can be right, otherwise any value.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub struct RawAction {
    /// `kind`.
    pub kind: u32,
    /// `figure`.
    pub figure: u32,
    /// `pos.x`.
    pub x: i16,
    /// `pos.y`.
    pub y: i16,
    /// `tile`.
    pub tile: u16,
    /// `rotation`.
    pub rotation: u16,
    /// `segment`.
    pub segment: u8,
}

impl RawAction {
    /// The action, each field half the time among the values that can be right (rotations of
    /// 0, 90, 180 or 270 degrees, cells within 3 of the start tile, small tile and segment
    /// numbers) and otherwise as drawn: uniform numbers would almost never name a place a
    /// tile could go, and the refusals deep in the rules would go untested.
    fn to_c(self) -> carc_action {
        let near = |value: i16| if value.unsigned_abs() < 0x4000 { value % 4 } else { value };
        carc_action {
            // Every kind and figure there is, and one past the last.
            kind: self.kind % 11,
            figure: self.figure % 7,
            pos: carc_pos { x: near(self.x), y: near(self.y) },
            tile: if self.tile < 0x8000 { self.tile % 128 } else { self.tile },
            rotation: if self.rotation < 0x8000 { self.rotation % 4 * 90 } else { self.rotation },
            segment: if self.segment < 0x80 { self.segment % 12 } else { self.segment },
        }
    }
}

/// A read-only question about a game, with the buffer capacity or arguments it takes.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub enum Query {
    /// `carc_game_phase`.
    Phase,
    /// `carc_game_drawn_tile`.
    DrawnTile,
    /// `carc_game_tile_info`.
    TileInfo(u16),
    /// `carc_game_drawable`.
    Drawable(u16),
    /// `carc_game_remaining_copies`.
    RemainingCopies(u8),
    /// `carc_game_scores`.
    Scores(u8),
    /// `carc_game_legal_actions`.
    LegalActions(u8),
    /// `carc_game_legal_action`.
    LegalAction(usize),
    /// `carc_game_last_events`.
    LastEvents(u8),
    /// `carc_game_actions`.
    Actions(u8),
    /// `carc_game_placements`.
    Placements(u8),
    /// `carc_game_tile_at`.
    TileAt(i16, i16),
    /// `carc_game_segment`.
    Segment(i16, i16, u8),
    /// `carc_game_feature`.
    Feature(i16, i16, u8),
    /// `carc_game_feature_segments`.
    FeatureSegments(i16, i16, u8, u8),
    /// `carc_game_figures`.
    Figures(u8),
    /// `carc_game_frontier`.
    Frontier(u8),
    /// `carc_game_special_supply` (ABI 1.9).
    SpecialSupply(u8),
    /// `carc_game_sheep_bag`.
    SheepBag,
    /// `carc_game_flocks`.
    Flocks(u8),
    /// `carc_game_hidden_tiles`.
    HiddenTiles,
    /// `carc_game_is_second_turn`.
    IsSecondTurn,
    /// `carc_game_figure_count` (ABI 1.10).
    FigureCount,
    /// `carc_game_figure_info`.
    FigureInfo(u8),
    /// `carc_game_in_hand`, of any player and any figure number.
    InHand(u8, u32),
}

/// One call.
#[derive(Clone, Debug, Arbitrary)]
pub enum Call {
    /// `carc_catalog_builtin` with a known name or another.
    CatalogBuiltin(u8),
    /// `carc_catalog_from_toml` with any text.
    CatalogFromToml(Text),
    /// `carc_catalog_clone`.
    CatalogClone(HandleArg),
    /// `carc_catalog_free`.
    CatalogFree(HandleArg),
    /// `carc_catalog_tile_info`.
    CatalogTileInfo(HandleArg, u16),
    /// `carc_game_new` with these catalogs (NULL for the list when empty and `count` > 0).
    GameNew {
        /// The catalog handles.
        catalogs: Few<HandleArg>,
        /// `catalog_count` when the list is empty.
        count: u8,
        /// `players`.
        players: u8,
        /// `seed`.
        seed: u64,
        /// `rules`.
        rules: RawRules,
    },
    /// `carc_game_new_json` with any text.
    GameNewJson(Text),
    /// `carc_game_new_json` with a well-formed setup of built-in sets.
    GameNewBuiltin {
        /// Which combination of sets, bit per set.
        sets: u8,
        /// `players`.
        players: u8,
        /// `seed`.
        seed: u64,
    },
    /// `carc_game_clone`.
    GameClone(HandleArg),
    /// `carc_game_restarted`.
    GameRestarted(HandleArg, u64),
    /// `carc_game_free`.
    GameFree(HandleArg),
    /// A query.
    Query(HandleArg, Query),
    /// `carc_game_apply_legal` with an index modulo the count plus 2, so some are too large.
    ApplyLegal(HandleArg, u16),
    /// `carc_game_check` then `carc_game_apply` of the same action.
    Apply(HandleArg, RawAction),
    /// A step a caller takes often: the first legal action, then any action, as `ApplyLegal`
    /// and `Apply`. Random calls seldom land on the same game twice in a row, so without it
    /// the actions tried after a draw or a placement, where refusals are subtle, were rare.
    StepThenApply(HandleArg, RawAction),
    /// `carc_game_save_json` into a buffer of this size (or the size asked for, when 0), then
    /// `carc_game_load_json` of what it wrote.
    SaveAndLoad(HandleArg, u16),
    /// `carc_game_load_json` with any text.
    LoadJson(Text),
    /// `carc_landscape_score_new` with any text and these catalogs; for a text of odd length,
    /// `carc_landscape_score_new_scoring` with the solo puzzles' scoring.
    Landscape(Text, Few<HandleArg>),
    /// `carc_landscape_score_totals`.
    ScoreTotals(HandleArg, u8),
    /// `carc_landscape_score_free`.
    ScoreFree(HandleArg),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Catalog,
    Game,
    Score,
}

/// A handle an earlier call made, and whether it is still live.
#[derive(Clone, Copy, Debug)]
struct Made {
    kind: Kind,
    address: *mut c_void,
    live: bool,
}

struct Run {
    made: Vec<Made>,
}

/// After the prologue, every call returns a result code, never a panic from inside the library; an output is
/// written only on success; an error object comes exactly with a failure and carries its
/// code; NULL, freed, wrong-kind and made-up handles are refused as such and a live handle of
/// the right kind never is; a buffer too small is reported with the size needed and left
/// alone; `check` and `apply` agree, a refused action (or a legal-action number out of range)
/// leaves the game's saved form unchanged, an accepted one changes it; a game's save loads
/// into a game with the same save; and once everything made is freed, no handle is live.
///
/// # Panics
/// When the library breaks one of these promises.
pub fn are_safe(script: &Script) {
    let live_before = carc_live_handles();
    let mut run = Run { made: Vec::new() };
    // A catalog and a game to start with, so that even a short script has live handles of
    // every kind to call with (a handle made first is `Made(0)`, and so on).
    let prologue = [
        Call::CatalogBuiltin(0),
        Call::GameNewBuiltin { sets: 1, players: 2, seed: 0 },
        Call::Landscape(Text(EXAMPLE_LANDSCAPE.to_vec()), Few(Vec::new())),
    ];
    for call in &prologue {
        run.call(call);
    }
    assert_eq!(run.made.len(), prologue.len(), "the prologue failed");
    for call in &script.calls {
        run.call(call);
    }
    for made in run.made.iter().filter(|made| made.live) {
        // SAFETY: a live handle of this kind, freed once.
        unsafe {
            match made.kind {
                Kind::Catalog => carc_catalog_free(made.address.cast()),
                Kind::Game => carc_game_free(made.address.cast()),
                Kind::Score => carc_landscape_score_free(made.address.cast()),
            }
        }
    }
    assert_eq!(carc_live_handles(), live_before, "handles leaked or freed twice");
}

/// What a call on a handle must answer, given the handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A live handle of the right kind: anything but a handle refusal.
    Accepted,
    /// NULL: `NULL_ARGUMENT` or `INVALID_HANDLE`.
    Null,
    /// Freed, made up, or of another kind: `INVALID_HANDLE`.
    Invalid,
}

impl Run {
    fn handle(&self, arg: HandleArg, kind: Kind) -> (*mut c_void, Expect) {
        let address = match arg {
            HandleArg::Null => return (ptr::null_mut(), Expect::Null),
            HandleArg::Garbage(value) => value as *mut c_void,
            HandleArg::Made(_) if self.made.is_empty() => return (ptr::null_mut(), Expect::Null),
            HandleArg::Made(index) => self.made[usize::from(index) % self.made.len()].address,
        };
        if address.is_null() {
            return (address, Expect::Null);
        }
        // A made-up value may equal a handle made earlier; the registry cannot tell them apart.
        let live =
            self.made.iter().any(|made| made.live && made.kind == kind && made.address == address);
        (address, if live { Expect::Accepted } else { Expect::Invalid })
    }

    fn give(&mut self, kind: Kind, address: *mut c_void) {
        assert!(!address.is_null(), "a {kind:?} was made but the pointer is NULL");
        assert!(
            !self.made.iter().any(|made| made.live && made.address == address),
            "a new {kind:?} has the value of a live handle"
        );
        self.made.push(Made { kind, address, live: true });
    }

    fn free(&mut self, address: *mut c_void, kind: Kind) {
        for made in &mut self.made {
            if made.live && made.kind == kind && made.address == address {
                made.live = false;
            }
        }
    }

    fn call(&mut self, call: &Call) {
        match call {
            Call::CatalogBuiltin(name) => {
                let names: [&[u8]; 6] =
                    [b"base", b"river", b"inns_and_cathedrals", b"base_c2", b"basse", b""];
                let name = c_string(names[usize::from(*name) % names.len()]);
                let mut out = ptr::null_mut();
                let mut err = no_error();
                // SAFETY: a NUL-terminated string and writable out pointers.
                let code = unsafe { carc_catalog_builtin(name.as_ptr(), &mut out, &mut err) };
                self.made_or_not(
                    "carc_catalog_builtin",
                    settle("carc_catalog_builtin", code, err),
                    Kind::Catalog,
                    out,
                );
            }
            Call::CatalogFromToml(text) => {
                let text = c_string(text);
                let mut out = ptr::null_mut();
                let mut err = no_error();
                // SAFETY: NUL-terminated strings and writable out pointers.
                let code = unsafe {
                    carc_catalog_from_toml(c"fuzz.toml".as_ptr(), text.as_ptr(), &mut out, &mut err)
                };
                self.made_or_not(
                    "carc_catalog_from_toml",
                    settle("carc_catalog_from_toml", code, err),
                    Kind::Catalog,
                    out,
                );
            }
            Call::CatalogClone(arg) => {
                let (catalog, expect) = self.handle(*arg, Kind::Catalog);
                let mut out: *mut carc_catalog = ptr::null_mut();
                // SAFETY: any handle value; a writable out pointer.
                let code = unsafe { carc_catalog_clone(catalog.cast(), &mut out) };
                let code = answered("carc_catalog_clone", code, expect);
                self.made_or_not("carc_catalog_clone", code, Kind::Catalog, out);
            }
            Call::CatalogFree(arg) => {
                let (catalog, _) = self.handle(*arg, Kind::Catalog);
                // SAFETY: any handle value: a stale or made-up one is ignored.
                unsafe { carc_catalog_free(catalog.cast()) };
                self.free(catalog, Kind::Catalog);
            }
            Call::CatalogTileInfo(arg, tile) => {
                let (catalog, expect) = self.handle(*arg, Kind::Catalog);
                single("carc_catalog_tile_info", expect, |out| {
                    // SAFETY: any handle value; a writable out pointer.
                    unsafe { carc_catalog_tile_info(catalog.cast(), *tile, out) }
                });
            }
            Call::GameNew { catalogs, count, players, seed, rules } => {
                let mut expect = Expect::Accepted;
                let handles: Vec<*const carc_catalog> = catalogs
                    .iter()
                    .take(8)
                    .map(|arg| {
                        let (catalog, answer) = self.handle(*arg, Kind::Catalog);
                        if answer != Expect::Accepted {
                            expect = Expect::Invalid;
                        }
                        catalog.cast_const().cast()
                    })
                    .collect();
                let setup = carc_setup {
                    catalogs: if handles.is_empty() { ptr::null() } else { handles.as_ptr() },
                    catalog_count: if handles.is_empty() {
                        usize::from(*count)
                    } else {
                        handles.len()
                    },
                    players: *players,
                    seed: *seed,
                    rules: carc_rules {
                        farmers: rules.farmers,
                        farm_scoring: rules.farm_scoring,
                        tiny_city: rules.tiny_city,
                        inn_cathedral_unfinished: rules.unfinished,
                        abbots: rules.abbots,
                    },
                };
                let mut out = ptr::null_mut();
                let mut err = no_error();
                // SAFETY: the setup's list holds `catalog_count` values (or is NULL); out
                // pointers are writable.
                let code = unsafe { carc_game_new(&setup, &mut out, &mut err) };
                let code = settle("carc_game_new", code, err);
                if expect == Expect::Invalid {
                    assert!(
                        matches!(code, carc_result::InvalidHandle | carc_result::NullArgument),
                        "carc_game_new took a bad catalog handle: {code:?}"
                    );
                }
                self.made_or_not("carc_game_new", code, Kind::Game, out);
            }
            Call::GameNewJson(text) => {
                self.game_from_json(text, false);
            }
            Call::GameNewBuiltin { sets, players, seed } => {
                let names = [
                    "base",
                    "river",
                    "inns_and_cathedrals",
                    "base_c2",
                    "traders_and_builders",
                    "hills_and_sheep",
                ];
                let chosen: Vec<&str> = names
                    .iter()
                    .enumerate()
                    .filter(|(bit, _)| sets & (1 << bit) != 0)
                    .map(|(_, name)| *name)
                    .collect();
                let json =
                    serde_json::json!({ "tilesets": chosen, "players": players % 8, "seed": seed });
                self.game_from_json(json.to_string().as_bytes(), false);
            }
            Call::GameClone(arg) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                let mut out: *mut carc_game = ptr::null_mut();
                // SAFETY: any handle value; a writable out pointer.
                let code = answered(
                    "carc_game_clone",
                    unsafe { carc_game_clone(game.cast(), &mut out) },
                    expect,
                );
                if code == carc_result::Ok {
                    assert_eq!(saved(game.cast()), saved(out), "a clone saves differently");
                }
                self.made_or_not("carc_game_clone", code, Kind::Game, out);
            }
            Call::GameRestarted(arg, seed) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                let mut out: *mut carc_game = ptr::null_mut();
                // SAFETY: any handle value; a writable out pointer.
                let code = unsafe { carc_game_restarted(game.cast(), *seed, &mut out) };
                let code = answered("carc_game_restarted", code, expect);
                self.made_or_not("carc_game_restarted", code, Kind::Game, out);
            }
            Call::GameFree(arg) => {
                let (game, _) = self.handle(*arg, Kind::Game);
                // SAFETY: any handle value: a stale or made-up one is ignored.
                unsafe { carc_game_free(game.cast()) };
                self.free(game, Kind::Game);
            }
            Call::Query(arg, query) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                query_game(game.cast(), expect, *query);
            }
            Call::ApplyLegal(arg, index) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                let game: *mut carc_game = game.cast();
                let mut count = usize::MAX;
                // SAFETY: any handle value; a writable count.
                let code = unsafe { carc_game_legal_action_count(game, &mut count) };
                if answered("carc_game_legal_action_count", code, expect) != carc_result::Ok {
                    return;
                }
                let index = usize::from(*index) % (count + 2);
                let before = seen(game);
                let mut next = usize::MAX;
                let mut err = no_error();
                // SAFETY: a live game; writable out pointers.
                let code = unsafe { carc_game_apply_legal(game, index, &mut next, &mut err) };
                let code = settle("carc_game_apply_legal", code, err);
                if index < count {
                    assert_eq!(code, carc_result::Ok, "legal action {index} of {count} refused");
                    assert_ne!(saved(game), before.save, "an applied action changed nothing");
                    let mut again = usize::MAX;
                    // SAFETY: a live game; a writable count.
                    let code = unsafe { carc_game_legal_action_count(game, &mut again) };
                    assert_eq!((code, next), (carc_result::Ok, again), "apply_legal's next count");
                } else {
                    assert_ne!(code, carc_result::Ok, "action {index} of {count} was applied");
                    assert_eq!(next, usize::MAX, "a refused apply_legal wrote the count");
                    assert_eq!(seen(game), before, "a refused apply_legal changed the game");
                }
            }
            Call::StepThenApply(arg, raw) => {
                self.call(&Call::ApplyLegal(*arg, 0));
                self.call(&Call::Apply(*arg, *raw));
            }
            Call::Apply(arg, raw) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                let game: *mut carc_game = game.cast();
                let action = raw.to_c();
                let mut err = no_error();
                // SAFETY: any handle value; a readable action; a writable error slot.
                let checked = unsafe { carc_game_check(game, &action, &mut err) };
                let checked =
                    answered("carc_game_check", settle("carc_game_check", checked, err), expect);
                if expect != Expect::Accepted {
                    return;
                }
                let before = seen(game);
                let mut err = no_error();
                // SAFETY: a live game; a readable action; a writable error slot.
                let applied = settle(
                    "carc_game_apply",
                    unsafe { carc_game_apply(game, &action, &mut err) },
                    err,
                );
                assert_eq!(applied, checked, "check and apply disagree on {action:?}");
                if applied == carc_result::Ok {
                    assert_ne!(saved(game), before.save, "an applied action changed nothing");
                } else {
                    assert_eq!(seen(game), before, "the refused {action:?} changed the game");
                }
            }
            Call::SaveAndLoad(arg, cap) => {
                let (game, expect) = self.handle(*arg, Kind::Game);
                let game: *const carc_game = game.cast();
                let mut needed = usize::MAX;
                // SAFETY: any handle value; no buffer with capacity 0; a writable size.
                let code = unsafe { carc_game_save_json(game, ptr::null_mut(), 0, &mut needed) };
                if answered("carc_game_save_json", code, expect) != carc_result::BufferTooSmall {
                    assert_ne!(code, carc_result::Ok, "a save fitted in 0 bytes");
                    return;
                }
                let cap = if *cap == 0 { needed } else { usize::from(*cap) };
                let mut text = vec![0x55u8; cap];
                let mut size = usize::MAX;
                // SAFETY: a live game; a buffer of `cap` bytes; a writable size.
                let code =
                    unsafe { carc_game_save_json(game, text.as_mut_ptr().cast(), cap, &mut size) };
                assert_eq!(size, needed, "the size asked for and the size written differ");
                if cap < needed {
                    assert_eq!(code, carc_result::BufferTooSmall);
                    assert!(text.iter().all(|byte| *byte == 0x55), "a short buffer was written");
                    return;
                }
                assert_eq!(code, carc_result::Ok);
                assert_eq!(text[needed - 1], 0, "the save is not NUL-terminated");
                let loaded = self.game_from_json(&text[..needed - 1], true);
                assert_eq!(
                    saved(loaded.cast()),
                    text[..needed - 1],
                    "a loaded game saves differently"
                );
            }
            Call::LoadJson(text) => {
                self.game_from_json(text, true);
            }
            Call::Landscape(text, catalogs) => {
                let handles: Vec<*const carc_catalog> = catalogs
                    .iter()
                    .take(4)
                    .map(|arg| self.handle(*arg, Kind::Catalog).0.cast_const().cast())
                    .collect();
                let json = c_string(text);
                let options = carc_landscape_options {
                    rules: crate::values::rules_to_c(&carcassonne::RuleOptions::default()),
                    claim_all: 0,
                    has_pennant_value: 0,
                    pennant_value: 0,
                };
                let mut out: *mut carc_landscape_score = ptr::null_mut();
                let mut err = no_error();
                // Texts of odd length go through the full scoring (ABI 1.2) as the solo
                // puzzles score, even ones through the first: one variant, so the seeds
                // written before decode as they did.
                let (name, code) = if text.0.len() % 2 == 1 {
                    let mut solo = std::mem::MaybeUninit::uninit();
                    // SAFETY: a writable struct, written on success (checked).
                    let made = unsafe { carc_landscape_scoring_solo_puzzle(solo.as_mut_ptr()) };
                    assert_eq!(made, carc_result::Ok);
                    // SAFETY: written by the call above.
                    let solo = unsafe { solo.assume_init() };
                    // SAFETY: a NUL-terminated string; `handles.len()` handle values; a
                    // readable scoring; writable out pointers.
                    let code = unsafe {
                        carc_landscape_score_new_scoring(
                            json.as_ptr(),
                            handles.as_ptr(),
                            handles.len(),
                            &solo,
                            &mut out,
                            &mut err,
                        )
                    };
                    ("carc_landscape_score_new_scoring", code)
                } else {
                    // SAFETY: a NUL-terminated string; `handles.len()` handle values;
                    // readable options; writable out pointers.
                    let code = unsafe {
                        carc_landscape_score_new(
                            json.as_ptr(),
                            handles.as_ptr(),
                            handles.len(),
                            &options,
                            &mut out,
                            &mut err,
                        )
                    };
                    ("carc_landscape_score_new", code)
                };
                let code = settle(name, code, err);
                self.made_or_not(name, code, Kind::Score, out);
            }
            Call::ScoreTotals(arg, cap) => {
                let (score, expect) = self.handle(*arg, Kind::Score);
                listed("carc_landscape_score_totals", expect, *cap, |buf, cap, count| {
                    // SAFETY: any handle value; a buffer of `cap`; a writable count.
                    unsafe { carc_landscape_score_totals(score.cast(), buf, cap, count) }
                });
            }
            Call::ScoreFree(arg) => {
                let (score, _) = self.handle(*arg, Kind::Score);
                // SAFETY: any handle value: a stale or made-up one is ignored.
                unsafe { carc_landscape_score_free(score.cast()) };
                self.free(score, Kind::Score);
            }
        }
    }

    /// Records what a making call made, or checks it made nothing.
    fn made_or_not<T>(&mut self, call: &str, code: carc_result, kind: Kind, out: *mut T) {
        if code == carc_result::Ok {
            self.give(kind, out.cast());
        } else {
            assert!(out.is_null(), "{call} failed with {code:?} but wrote a handle");
        }
    }

    /// `carc_game_new_json` or `carc_game_load_json` of `text`; the game made, or NULL.
    fn game_from_json(&mut self, text: &[u8], load: bool) -> *mut carc_game {
        let json = c_string(text);
        let mut out = ptr::null_mut();
        let mut err = no_error();
        // SAFETY: a NUL-terminated string and writable out pointers.
        let code = unsafe {
            if load {
                carc_game_load_json(json.as_ptr(), &mut out, &mut err)
            } else {
                carc_game_new_json(json.as_ptr(), &mut out, &mut err)
            }
        };
        let call = if load { "carc_game_load_json" } else { "carc_game_new_json" };
        self.made_or_not(call, settle(call, code, err), Kind::Game, out);
        out
    }
}

/// Checks the answer of a call on a handle against what the handle deserves.
fn answered(call: &str, code: carc_result, expect: Expect) -> carc_result {
    assert!(
        !matches!(code, carc_result::Panic | carc_result::Poisoned),
        "{call} panicked inside the library"
    );
    match expect {
        Expect::Accepted => {
            assert_ne!(code, carc_result::InvalidHandle, "{call} refused a live handle")
        }
        Expect::Null => assert!(
            matches!(code, carc_result::NullArgument | carc_result::InvalidHandle),
            "{call} took NULL: {code:?}"
        ),
        Expect::Invalid => assert_eq!(code, carc_result::InvalidHandle, "{call} took a bad handle"),
    }
    code
}

/// A call that writes one value: written on success only.
fn single<T>(call: &str, expect: Expect, f: impl FnOnce(*mut T) -> carc_result) {
    const MARK: u8 = 0xA5;
    let mut out = std::mem::MaybeUninit::<T>::uninit();
    // SAFETY: `out` has room for a `T`, every byte of which is written here.
    unsafe { ptr::write_bytes(out.as_mut_ptr(), MARK, 1) };
    let code = answered(call, f(out.as_mut_ptr()), expect);
    if code != carc_result::Ok {
        // SAFETY: nothing wrote `out` (what is checked), so its bytes are still the marks
        // written above, and bytes may be read as `u8`.
        let bytes = unsafe {
            std::slice::from_raw_parts(out.as_ptr().cast::<u8>(), std::mem::size_of::<T>())
        };
        assert!(
            bytes.iter().all(|byte| *byte == MARK),
            "{call} failed with {code:?} but wrote its output"
        );
    }
}

/// A call that fills a caller's buffer: the count needed and the buffer untouched when it is
/// too small, at most `cap` written when it is not, nothing at all on another failure.
fn listed<T: Copy + Default + PartialEq + Debug>(
    call: &str,
    expect: Expect,
    cap: u8,
    f: impl FnOnce(*mut T, usize, *mut usize) -> carc_result,
) {
    let cap = usize::from(cap % 64);
    let mut buf = vec![T::default(); cap];
    let mut count = usize::MAX;
    let pointer = if cap == 0 { ptr::null_mut() } else { buf.as_mut_ptr() };
    let code = answered(call, f(pointer, cap, &mut count), expect);
    match code {
        carc_result::Ok => assert!(count <= cap, "{call} wrote {count} into {cap}"),
        carc_result::BufferTooSmall => {
            assert!(count > cap && count != usize::MAX, "{call}: {count} needed, {cap} given");
            assert!(buf.iter().all(|item| *item == T::default()), "{call} wrote a short buffer");
        }
        _ => {
            assert_eq!(count, usize::MAX, "{call} failed with {code:?} but wrote the count");
            assert!(buf.iter().all(|item| *item == T::default()), "{call} failed but wrote");
        }
    }
}

/// What a C caller can see of a game: its save (setup and actions), and what the queries
/// answer besides, each read from the game itself rather than rebuilt from the save.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    save: Vec<u8>,
    placements: Vec<carc_placement>,
    figures: Vec<carc_placed_figure>,
    scores: Vec<u32>,
    legal_actions: usize,
}

fn seen(game: *const carc_game) -> Seen {
    let mut legal_actions = usize::MAX;
    // SAFETY: any handle value; a writable count.
    let _ = unsafe { carc_game_legal_action_count(game, &mut legal_actions) };
    let placements = read_all(|buf, cap, count| {
        // SAFETY: any handle value; `buf` holds `cap` items; `count` is writable.
        unsafe { carc_game_placements(game, buf, cap, count) }
    });
    let figures = read_all(|buf, cap, count| {
        // SAFETY: any handle value; `buf` holds `cap` items; `count` is writable.
        unsafe { carc_game_figures(game, buf, cap, count) }
    });
    let scores = read_all(|buf, cap, count| {
        // SAFETY: any handle value; `buf` holds `cap` items; `count` is writable.
        unsafe { carc_game_scores(game, buf, cap, count) }
    });
    Seen { save: saved(game), placements, figures, scores, legal_actions }
}

/// A whole list, asked for its length first; empty when the call fails.
fn read_all<T: Default + Clone>(call: impl Fn(*mut T, usize, &mut usize) -> carc_result) -> Vec<T> {
    let mut count = 0;
    if call(ptr::null_mut(), 0, &mut count) != carc_result::BufferTooSmall {
        return Vec::new();
    }
    let mut items = vec![T::default(); count];
    let code = call(items.as_mut_ptr(), count, &mut count);
    assert_eq!(code, carc_result::Ok, "a list did not fit the length it asked for");
    items.truncate(count);
    items
}

/// The game's save without its NUL, or empty for a handle that is not a live game.
fn saved(game: *const carc_game) -> Vec<u8> {
    let mut text = read_all(|buf: *mut u8, cap, size| {
        // SAFETY: any handle value; `buf` holds `cap` bytes; `size` is writable.
        unsafe { carc_game_save_json(game, buf.cast(), cap, size) }
    });
    text.pop();
    text
}

fn query_game(game: *const carc_game, expect: Expect, query: Query) {
    let pos = |x, y| carc_pos { x, y };
    match query {
        Query::Phase => single("carc_game_phase", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_phase(game, out) }
        }),
        Query::DrawnTile => single("carc_game_drawn_tile", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_drawn_tile(game, out) }
        }),
        Query::TileInfo(tile) => single("carc_game_tile_info", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_tile_info(game, tile, out) }
        }),
        Query::Drawable(tile) => single("carc_game_drawable", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_drawable(game, tile, out) }
        }),
        Query::RemainingCopies(cap) => {
            listed("carc_game_remaining_copies", expect, cap, |buf, cap, count| {
                // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
                // writable.
                unsafe { carc_game_remaining_copies(game, buf, cap, count) }
            })
        }
        Query::Scores(cap) => listed("carc_game_scores", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_scores(game, buf, cap, count) }
        }),
        Query::LegalActions(cap) => {
            listed("carc_game_legal_actions", expect, cap, |buf, cap, count| {
                // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
                // writable.
                unsafe { carc_game_legal_actions(game, buf, cap, count) }
            })
        }
        Query::LegalAction(index) => single("carc_game_legal_action", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_legal_action(game, index, out) }
        }),
        Query::LastEvents(cap) => {
            listed("carc_game_last_events", expect, cap, |buf, cap, count| {
                // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
                // writable.
                unsafe { carc_game_last_events(game, buf, cap, count) }
            })
        }
        Query::Actions(cap) => listed("carc_game_actions", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_actions(game, buf, cap, count) }
        }),
        Query::Placements(cap) => listed("carc_game_placements", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_placements(game, buf, cap, count) }
        }),
        Query::TileAt(x, y) => single("carc_game_tile_at", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_tile_at(game, pos(x, y), out) }
        }),
        Query::Segment(x, y, segment) => single("carc_game_segment", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_segment(game, pos(x, y), segment, out) }
        }),
        Query::Feature(x, y, segment) => single("carc_game_feature", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_feature(game, pos(x, y), segment, out) }
        }),
        Query::FeatureSegments(x, y, segment, cap) => {
            listed("carc_game_feature_segments", expect, cap, |buf, cap, count| {
                // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
                // writable.
                unsafe { carc_game_feature_segments(game, pos(x, y), segment, buf, cap, count) }
            })
        }
        Query::Figures(cap) => listed("carc_game_figures", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_figures(game, buf, cap, count) }
        }),
        Query::Frontier(cap) => listed("carc_game_frontier", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_frontier(game, buf, cap, count) }
        }),
        Query::SpecialSupply(player) => single("carc_game_special_supply", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_special_supply(game, player % 8, out) }
        }),
        Query::FigureCount => single("carc_game_figure_count", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_figure_count(game, out) }
        }),
        Query::FigureInfo(index) => single("carc_game_figure_info", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_figure_info(game, index, out) }
        }),
        Query::InHand(player, figure) => single("carc_game_in_hand", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_in_hand(game, player, figure, out) }
        }),
        Query::SheepBag => single("carc_game_sheep_bag", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_sheep_bag(game, out) }
        }),
        Query::Flocks(cap) => listed("carc_game_flocks", expect, cap, |buf, cap, count| {
            // SAFETY: `game` is any handle value; `buf` holds `cap` items; `count` is
            // writable.
            unsafe { carc_game_flocks(game, buf, cap, count) }
        }),
        Query::HiddenTiles => single("carc_game_hidden_tiles", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_hidden_tiles(game, out) }
        }),
        Query::IsSecondTurn => single("carc_game_is_second_turn", expect, |out| {
            // SAFETY: `game` is any handle value; `out` is writable.
            unsafe { carc_game_is_second_turn(game, out) }
        }),
    }
}
