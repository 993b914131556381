//! Games: setup, copies, the state of the turn, legal actions, `apply` with the reason for a
//! refusal, the events of the last action, scores and supplies.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::sync::{Arc, OnceLock};

use carcassonne::{Action, Event, Figure, Game, GameSetup, Phase, PlayerId, SetupError};

use crate::boundary::{
    Buffer, ErrSlot, Failure, Out, arg, arg_str, boundary, c_string, plain_boundary, value_boundary,
};
use crate::catalog::{
    CatalogObject, TileStrings, carc_catalog, carc_segment_info, carc_tile_info, catalogs_arg,
    no_tile_id, segment_info, tile_info,
};
use crate::error::carc_error;
use crate::handle::{self, Held, Kind, Object};
use crate::result::{action_code, carc_result, setup_code};
use crate::values::{
    action_from_c, action_to_c, carc_action, carc_event, carc_phase, carc_pos, carc_rules,
    carc_supply, event_to_c, listed_action_to_c, phase_to_c, players_to_c, pos_to_c, rules_from_c,
    rules_to_c,
};
use crate::written::Written;

/// A game in progress, or over. Made by `carc_game_new`, `carc_game_new_json`,
/// `carc_game_load_json`, `carc_game_clone` or `carc_game_restarted`; changed only by
/// `carc_game_apply`; freed by `carc_game_free`. It keeps the events of the last action it
/// accepted.
pub struct carc_game {
    _opaque: [u8; 0],
}

/// What a `carc_game` handle stands for.
pub(crate) struct GameObject {
    game: Game,
    /// Tile and token ids and names, NUL-terminated on first use, shared by copies and
    /// restarts.
    strings: Arc<OnceLock<GameStrings>>,
    /// The events of the last accepted action.
    events: Vec<Event>,
    /// Where `apply` writes, so a refused action leaves `events` as they were.
    scratch: Vec<Event>,
    /// Set while `apply` changes the game: still set afterwards only if it panicked midway.
    poisoned: bool,
    /// The legal actions of the game as it stood when last listed.
    legal: RefCell<LegalCache>,
}

/// Events of a typical action (a placement that completes features and returns figures).
const TURN_EVENTS: usize = 16;
/// Legal actions of a typical placement phase mid-game.
const LISTED_ACTIONS: usize = 256;

impl Object for GameObject {
    const KIND: Kind = Kind::Game;
    type Opaque = carc_game;
}

impl GameObject {
    pub(crate) fn new(game: Game) -> GameObject {
        GameObject::sharing(game, Arc::default())
    }

    fn sharing(game: Game, strings: Arc<OnceLock<GameStrings>>) -> GameObject {
        // Room for a turn's events and a placement phase's actions from the start: a new game
        // (one per self-play game) would otherwise grow each list several times.
        let legal = LegalCache { ply: None, actions: Vec::with_capacity(LISTED_ACTIONS) };
        GameObject {
            game,
            strings,
            events: Vec::with_capacity(TURN_EVENTS),
            scratch: Vec::with_capacity(TURN_EVENTS),
            poisoned: false,
            legal: RefCell::new(legal),
        }
    }

    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Applies `action`, keeping its events; a refusal leaves the game and the last events
    /// as they were.
    fn apply(&mut self, action: Action) -> Result<(), Failure> {
        self.poisoned = true;
        self.scratch.clear();
        let applied = self.game.apply_into(action, &mut self.scratch);
        self.poisoned = false;
        applied.map_err(|error| refused(&error))?;
        std::mem::swap(&mut self.events, &mut self.scratch);
        Ok(())
    }

    pub(crate) fn strings(&self) -> &GameStrings {
        self.strings.get_or_init(|| GameStrings {
            tiles: TileStrings::new(self.game.tiles()),
            tokens: self
                .game
                .tokens()
                .iter()
                .map(|token| (c_string(&token.id), c_string(&token.name)))
                .collect(),
            titles: self
                .game
                .titles()
                .iter()
                .map(|title| (c_string(&title.id), c_string(&title.name)))
                .collect(),
            marks: self
                .game
                .marks()
                .iter()
                .map(|mark| (c_string(&mark.id), c_string(&mark.name)))
                .collect(),
            rules: self.game.rules().iter().map(|rule| c_string(&rule.id)).collect(),
            figures: self.game.figure_kinds().map(|figure| c_string(figure.id())).collect(),
        })
    }
}

/// The game's text a handle lends out, NUL-terminated once.
pub(crate) struct GameStrings {
    tiles: TileStrings,
    /// Each token kind's id and name.
    pub(crate) tokens: Vec<(CString, CString)>,
    /// Each title's id and name.
    pub(crate) titles: Vec<(CString, CString)>,
    /// Each declared mark's id and name.
    pub(crate) marks: Vec<(CString, CString)>,
    /// Each declared rule's id.
    pub(crate) rules: Vec<CString>,
    /// Each figure's id, in the game's order.
    pub(crate) figures: Vec<CString>,
}

/// The game behind `game`, held for the call (to read or to change: calls on a handle take
/// turns), unless it is NULL, no live game or poisoned.
pub(crate) fn game_arg(game: *const carc_game) -> Result<Held<GameObject>, Failure> {
    let handle = handle::borrow::<GameObject>(game, "game")?;
    if handle.poisoned {
        return Err(poisoned());
    }
    Ok(handle)
}

/// Player `player` of `game`, or the refusal of a seat the game does not have.
pub(crate) fn seated(game: &Game, player: u8) -> Result<PlayerId, Failure> {
    let players = game.players();
    if player >= players {
        return Err(Failure::new(
            carc_result::OutOfRange,
            format!("there are {players} players; there is no player {player}"),
        ));
    }
    Ok(PlayerId(player))
}

fn poisoned() -> Failure {
    Failure::new(
        carc_result::Poisoned,
        "an earlier call on this game panicked while changing it; only carc_game_free is left",
    )
}

/// Hands a new game handle to the caller.
pub(crate) fn give(out: Out<*mut carc_game>, game: GameObject) -> Result<(), Failure> {
    out.write(handle::hand_out(game)?);
    Ok(())
}

pub(crate) fn setup_failure(error: &SetupError) -> Failure {
    Failure::new(setup_code(error), error.to_string())
}

/// Everything that decides a game before its first action, as plain C values.
/// `carc_setup_default` fills in 2 players, seed 0 and the published rules.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_setup {
    /// The tile sets in play: an array of `catalog_count` catalog handles, none NULL (in C, an
    /// array of `const carc_catalog *`). Their tile types are numbered in this order, one set
    /// after another. The game copies them; the catalogs may be freed once it is made.
    pub catalogs: *const *const carc_catalog,
    /// How many catalogs `catalogs` points to; `catalogs` may be NULL when this is 0.
    pub catalog_count: usize,
    /// How many players, 2 up to the colours the sets bring (5 with the base game, 6 with
    /// Inns & Cathedrals).
    pub players: u8,
    /// The seed of the tile bag: the same seed and actions give the same game.
    pub seed: u64,
    /// The rule options.
    pub rules: carc_rules,
}

/// Fills `*out` with no tile sets, 2 players, seed 0 and the published rules.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_setup`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_setup_default(out: *mut carc_setup) -> carc_result {
    plain_boundary(|| {
        // SAFETY: the caller promises NULL or a writable `carc_setup`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(carc_setup {
            catalogs: std::ptr::null(),
            catalog_count: 0,
            players: 2,
            seed: 0,
            rules: rules_to_c(&Default::default()),
        });
        Ok(())
    })
}

/// Checks `*setup` and makes a new game at `*out`, the start tile laid and the first player
/// about to draw; free it with `carc_game_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` (`setup`, `out`, or a NULL catalog in the list),
/// `CARC_RESULT_INVALID_ENUM` for a rule constant out of range, and the 3xx code of a setup the
/// rules cannot make a game of (`CARC_RESULT_NO_TILE_SET`, `CARC_RESULT_TOO_MANY_PLAYERS`...).
///
/// # Safety
/// `setup` is NULL or points to a `carc_setup` whose `catalogs` points to `catalog_count`
/// pointers, each any handle value; `out` is NULL or points to a writable
/// `carc_game *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_new(
    setup: *const carc_setup,
    out: *mut *mut carc_game,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a valid `carc_setup`.
        let setup = unsafe { arg(setup, "setup") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        // SAFETY: the caller promises `catalog_count` readable handle values.
        let catalogs =
            unsafe { catalogs_arg(setup.catalogs, setup.catalog_count, "setup->catalogs") }?;
        let mut game_setup = GameSetup::new(catalogs, setup.players);
        game_setup.seed = setup.seed;
        game_setup.options = rules_from_c(&setup.rules)?;
        let game = Game::new(game_setup).map_err(|error| setup_failure(&error))?;
        give(out, GameObject::new(game))
    })
}

/// Copies `game` into a new game at `*out`, events of the last action included; free it with
/// `carc_game_free`. The copy plays on independently (a search, a rollout).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_game *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_clone(
    game: *const carc_game,
    out: *mut *mut carc_game,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        let mut copy = GameObject::sharing(handle.game.clone(), Arc::clone(&handle.strings));
        copy.events.clone_from(&handle.events);
        give(out, copy)
    })
}

/// Makes a new game at `*out` with the same setup as `game` but seed `seed`, from the start:
/// what a self-play loop wants between games (the tile tables are shared, not rebuilt). Free
/// it with `carc_game_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_game *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_restarted(
    game: *const carc_game,
    seed: u64,
    out: *mut *mut carc_game,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        give(out, GameObject::sharing(handle.game.restarted(seed), Arc::clone(&handle.strings)))
    })
}

/// Frees a game; NULL does nothing. Poisoned games are freed too.
///
/// # Safety
/// `game` is any handle value; it is invalid afterwards, and so is every string borrowed
/// from it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_free(game: *mut carc_game) {
    value_boundary((), || drop(handle::take::<GameObject>(game)));
}

/// Runs a query: checks `game` and the output, then writes what `query` returns.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `T`.
pub(crate) unsafe fn query<T: Written>(
    game: *const carc_game,
    out: *mut T,
    query: impl FnOnce(&GameObject) -> Result<T, Failure>,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: passed on from the caller.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(query(&handle)?);
        Ok(())
    })
}

/// Runs a list query: checks `game` and the buffer, then fills it with what `fill` writes.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` items; `count` is
/// NULL or points to a writable `size_t`.
pub(crate) unsafe fn list<T: Written>(
    game: *const carc_game,
    buf: *mut T,
    cap: usize,
    count: *mut usize,
    fill: impl FnOnce(&GameObject, Buffer<T>) -> Result<(), Failure>,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: passed on from the caller.
        let buffer = unsafe { Buffer::new(buf, cap, count, ("buf", "count")) }?;
        fill(&handle, buffer)
    })
}

fn not_available(what: &str) -> Failure {
    Failure::new(carc_result::NotAvailable, what)
}

/// Writes where the turn cycle stands, a `CARC_PHASE_*` constant, to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_phase`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_phase(
    game: *const carc_game,
    out: *mut carc_phase,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(phase_to_c(handle.game.phase()))) }
}

/// Writes the tile type drawn and waiting to be placed to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` outside the
/// place phase.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint16_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_drawn_tile(
    game: *const carc_game,
    out: *mut u16,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            handle.game.drawn_tile().ok_or_else(|| not_available("no tile is waiting to be placed"))
        })
    }
}

/// Writes the cell of the tile placed this turn to `*out`, in the figure phase.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_NOT_AVAILABLE` outside the
/// figure phase.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_pos`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_placed_pos(
    game: *const carc_game,
    out: *mut carc_pos,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| match handle.game.phase() {
            Phase::Figure { pos } => Ok(pos_to_c(pos)),
            _ => Err(not_available("no tile was placed this turn")),
        })
    }
}

/// Writes how many players sit at the table to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_players(game: *const carc_game, out: *mut u8) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.players())) }
}

/// Writes whose turn it is to `*out` (once the game is over, who would have been next).
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_current_player(
    game: *const carc_game,
    out: *mut u8,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.current_player().0)) }
}

/// Writes 1 to `*out` if the game is over, else 0.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_is_over(game: *const carc_game, out: *mut u8) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.is_over().into())) }
}

/// Writes the seed of the tile bag to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_seed(game: *const carc_game, out: *mut u64) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.seed())) }
}

/// Writes the rule options in force to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_rules`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_rules(
    game: *const carc_game,
    out: *mut carc_rules,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(rules_to_c(handle.game.options()))) }
}

/// Writes how many tile types the game's tile sets have together to `*out`; tile types are
/// numbered from 0 below this, one set after another in setup order.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_type_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.tiles().len())) }
}

/// Writes tile type `tile` to `*out`, unrotated. Its strings belong to `game` and stay valid
/// until it is freed.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_tile_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_info(
    game: *const carc_game,
    tile: u16,
    out: *mut carc_tile_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| tile_info(handle.game.tiles(), &handle.strings().tiles, tile))
    }
}

/// Writes segment `segment` of tile type `tile` to `*out`, unrotated.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a tile or
/// segment number past the end.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_segment_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_segment(
    game: *const carc_game,
    tile: u16,
    segment: u8,
    out: *mut carc_segment_info,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            segment_info(handle.game.tiles(), handle.game.marks(), tile, segment)
        })
    }
}

/// Writes how many tile sets the game uses to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_catalog_count(
    game: *const carc_game,
    out: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.catalogs().len())) }
}

/// Copies tile set `index` of the game (from 0, in setup order) into a new catalog at `*out`,
/// to be freed with `carc_catalog_free`: its name, figures and tile types. Its tile type `t`
/// is the game's tile type `t` plus the `tile_types` of the sets before it.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` when `index`
/// is not below `carc_game_catalog_count`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_catalog *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_catalog(
    game: *const carc_game,
    index: usize,
    out: *mut *mut carc_catalog,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        let catalogs = handle.game.catalogs();
        let catalog = catalogs.get(index).ok_or_else(|| {
            Failure::new(
                carc_result::OutOfRange,
                format!("the game uses {} tile sets; there is no set {index}", catalogs.len()),
            )
        })?;
        out.write(handle::hand_out(CatalogObject::new(catalog.clone()))?);
        Ok(())
    })
}

/// Writes the number of the tile type with id `id` to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_POISONED`,
/// `CARC_RESULT_NOT_AVAILABLE` when no tile type has that id.
///
/// # Safety
/// `game` is any handle value; `id` is NULL or a NUL-terminated string; `out` is NULL or
/// points to a writable `uint16_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tile_by_id(
    game: *const carc_game,
    id: *const c_char,
    out: *mut u16,
) -> carc_result {
    plain_boundary(|| {
        let handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let id = unsafe { arg_str(id, "id") }?;
        // SAFETY: the caller promises NULL or a writable `uint16_t`.
        let out = unsafe { Out::new(out, "out") }?;
        let (tile, _) = handle.game.tile_by_id(id).ok_or_else(|| no_tile_id(id))?;
        out.write(tile);
        Ok(())
    })
}

/// Writes the copies of each tile type left in the bag, by tile number, to `buf`: what a
/// player may know of the bag (its order is never revealed). `*count` receives the number of
/// tile types, or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `uint16_t`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_remaining_copies(
    game: *const carc_game,
    buf: *mut u16,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| buffer.fill_from(handle.game.remaining()))
    }
}

/// Writes how many tiles are left in the bag to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_tiles_left(
    game: *const carc_game,
    out: *mut u32,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.tiles_left())) }
}

/// Writes how many drawn tiles fit nowhere and left the game to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_discarded(game: *const carc_game, out: *mut u32) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(handle.game.discarded())) }
}

/// Writes 1 to `*out` if the bag could give tile type `tile` now, that is if a `DRAW_TILE`
/// action naming it would be accepted in the draw phase, else 0.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_drawable(
    game: *const carc_game,
    tile: u16,
    out: *mut u8,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let types = handle.game.tiles().len();
            if usize::from(tile) >= types {
                return Err(Failure::new(
                    carc_result::OutOfRange,
                    format!("there are {types} tile types; there is no tile number {tile}"),
                ));
            }
            Ok(handle.game.drawable(tile).into())
        })
    }
}

/// Writes the scores, one per player in turn order, to `buf`; `*count` receives the number of
/// players, or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `uint32_t`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_scores(
    game: *const carc_game,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { list(game, buf, cap, count, |handle, buffer| buffer.fill_from(handle.game.scores())) }
}

/// Writes the players with the highest score, bit `p` for player `p`, to `*out`: the winners
/// once the game is over.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `uint8_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_leaders(game: *const carc_game, out: *mut u8) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, out, |handle| Ok(players_to_c(handle.game.leaders()))) }
}

/// Writes the figures player `player` has in hand to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` for a player
/// not at the table.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_supply`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_supply(
    game: *const carc_game,
    player: u8,
    out: *mut carc_supply,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let supply = handle.game.supply(seated(&handle.game, player)?);
            Ok(carc_supply {
                followers: supply.count(Figure::FOLLOWER),
                big_followers: supply.count(Figure::BIG_FOLLOWER),
                abbots: supply.count(Figure::ABBOT),
            })
        })
    }
}

/// The legal actions of one state of one game, listed once and then shared by every call that
/// needs them: the count, the list, one action, and applying one by its number. A self-play
/// loop asks for the count and applies a number, so the list is made once per step and never
/// converted to C structs.
///
/// It lives in the game's object: calls on a handle take turns, so no two threads read or
/// fill it at once (it was per thread before they did, which cost a thread-local lookup a
/// step). The key is the number of actions the game has accepted, which grows by one with
/// each change.
#[derive(Default)]
struct LegalCache {
    /// The state the list is of; `None` before the first listing, and while one is made.
    ply: Option<usize>,
    actions: Vec<Action>,
}

impl LegalCache {
    /// Makes the cache hold the legal actions of `game` as it stands.
    #[inline]
    fn refresh(&mut self, game: &Game) -> &[Action] {
        let ply = game.actions().len();
        if self.ply != Some(ply) {
            // Clear the key first: if listing panics, the cache must not claim this state.
            self.ply = None;
            game.legal_actions_into(&mut self.actions);
            self.ply = Some(ply);
        }
        &self.actions
    }
}

/// Runs `with` on the legal actions of `handle`, listing them only when the cache holds
/// another state.
fn with_legal<R>(handle: &GameObject, with: impl FnOnce(&[Action]) -> R) -> R {
    with(handle.legal.borrow_mut().refresh(&handle.game))
}

/// Writes every legal action now to `buf`: the draw; the placements of the drawn tile (cell
/// by cell, rotations in increasing order); or the figure actions on the placed tile, then
/// abbot recalls, then skip. None once the game is over. `DRAW_TILE` is legal for every tile
/// type `carc_game_drawable` accepts but is not listed.
///
/// `*count` receives the number written, or the number needed with
/// `CARC_RESULT_BUFFER_TOO_SMALL` (then `buf` is left alone); `buf` may be NULL when `cap` is
/// 0, to ask for the count. A placement phase rarely has more than a few hundred actions.
/// Bots that pick by number need no list: see `carc_game_legal_action_count` and
/// `carc_game_apply_legal`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_action`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_legal_actions(
    game: *const carc_game,
    buf: *mut carc_action,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = &handle.game;
            with_legal(handle, |actions| {
                buffer.fill_map(actions, |action| listed_action_to_c(action, game))
            })
        })
    }
}

/// Writes how many legal actions there are now to `*count` (0 once the game is over): the
/// length of the list `carc_game_legal_actions` writes, without writing it.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`.
///
/// # Safety
/// `game` is any handle value; `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_legal_action_count(
    game: *const carc_game,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe { query(game, count, |handle| Ok(handle.game.legal_action_count())) }
}

/// Writes legal action number `index` (from 0, in the order of `carc_game_legal_actions`) to
/// `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_OUT_OF_RANGE` when `index`
/// is not below `carc_game_legal_action_count`.
///
/// # Safety
/// `game` is any handle value; `out` is NULL or points to a writable `carc_action`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_legal_action(
    game: *const carc_game,
    index: usize,
    out: *mut carc_action,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        query(game, out, |handle| {
            let game = &handle.game;
            game.legal_action(index)
                .map(|action| action_to_c(action, game))
                .ok_or_else(|| no_action(index, game.legal_action_count()))
        })
    }
}

fn no_action(index: usize, count: usize) -> Failure {
    Failure::new(
        carc_result::OutOfRange,
        format!("there are {count} legal actions now; there is no action {index}"),
    )
}

fn refused(error: &carcassonne::ActionError) -> Failure {
    Failure::new(action_code(error), error.to_string())
}

/// Checks whether `*action` would be accepted now, without changing the game.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_INVALID_ENUM` or
/// `CARC_RESULT_INVALID_ARGUMENT` for a malformed action, and the 4xx code of the reason
/// `carc_game_apply` would refuse it, with a message in `*err`.
///
/// # Safety
/// `game` is any handle value; `action` is NULL or points to a `carc_action`; `err` is NULL
/// or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_check(
    game: *const carc_game,
    action: *const carc_action,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        let handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a readable `carc_action`.
        let action = action_from_c(unsafe { arg(action, "action") }?, &handle.game)?;
        handle.game.check(action).map_err(|error| refused(&error))
    })
}

/// Applies `*action`, the only way a game changes, and keeps what happened for
/// `carc_game_last_events`. A refused action leaves the game, and the events of the last
/// accepted action, exactly as they were.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_INVALID_ENUM` or
/// `CARC_RESULT_INVALID_ARGUMENT` for a malformed action, and the 4xx code of the reason the
/// rules refuse it (`CARC_RESULT_EDGE_MISMATCH`, `CARC_RESULT_FEATURE_OCCUPIED`...), with a
/// message in `*err`.
///
/// # Safety
/// `game` is any handle value; `action` is NULL or
/// points to a `carc_action`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_apply(
    game: *mut carc_game,
    action: *const carc_action,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        let mut handle = game_arg(game)?;
        // SAFETY: the caller promises NULL or a readable `carc_action`.
        let action = action_from_c(unsafe { arg(action, "action") }?, &handle.game)?;
        handle.apply(action)
    })
}

/// Applies legal action number `index` (from 0, in the order of `carc_game_legal_actions`),
/// as `carc_game_apply` would apply that action, and then, when `legal_count` is not NULL,
/// writes the number of legal actions of the new state to `*legal_count` (0 once the game is
/// over). This is the step of a bot or a learning agent that picks actions by number: with
/// it, a random player makes one call per action and needs neither a buffer nor action
/// structs.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_GAME_OVER` once the game
/// is over, `CARC_RESULT_OUT_OF_RANGE` when `index` is not below
/// `carc_game_legal_action_count`; the game is then unchanged and `*legal_count` untouched.
///
/// # Safety
/// `game` is any handle value; `legal_count` is NULL or
/// points to a writable `size_t`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_apply_legal(
    game: *mut carc_game,
    index: usize,
    legal_count: *mut usize,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        let mut held = game_arg(game)?;
        let handle = &mut *held;
        // No listing: the action is found by its number, and the next state's actions are
        // counted.
        let action = match handle.game.legal_action(index) {
            Some(action) => action,
            None if handle.game.is_over() => {
                return Err(refused(&carcassonne::ActionError::GameOver));
            }
            None => return Err(no_action(index, handle.game.legal_action_count())),
        };
        handle.apply(action)?;
        if !legal_count.is_null() {
            let next = handle.game.legal_action_count();
            // SAFETY: not NULL, and the caller promises a writable `size_t`.
            unsafe { legal_count.write(next) };
        }
        Ok(())
    })
}

/// Writes the events of the last action `game` accepted, in order, to `buf`; none for a game
/// that has accepted no action yet (a new, loaded or restarted game). `*count` receives the
/// number written, or the number needed with `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_event`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_last_events(
    game: *const carc_game,
    buf: *mut carc_event,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let (events, game) = (&handle.events, &handle.game);
            buffer.fill_map(events, |event| event_to_c(&event, game))
        })
    }
}

/// Writes every action applied since the start, in order, to `buf`: with the setup, the whole
/// game. `*count` receives the number written, or the number needed with
/// `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` `carc_action`s;
/// `count` is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_actions(
    game: *const carc_game,
    buf: *mut carc_action,
    cap: usize,
    count: *mut usize,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        list(game, buf, cap, count, |handle, buffer| {
            let game = &handle.game;
            buffer.fill_map(game.actions(), |action| action_to_c(action, game))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game() -> *mut carc_game {
        let mut catalog = std::ptr::null_mut();
        // SAFETY: valid name and out pointer.
        let code = unsafe {
            crate::catalog::carc_catalog_builtin(
                c"base".as_ptr(),
                &mut catalog,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(code, carc_result::Ok);
        let mut setup = std::mem::MaybeUninit::<carc_setup>::uninit();
        // SAFETY: `setup` is writable; it is initialized by the call.
        assert_eq!(unsafe { carc_setup_default(setup.as_mut_ptr()) }, carc_result::Ok);
        // SAFETY: initialized just above.
        let mut setup = unsafe { setup.assume_init() };
        let catalogs = [catalog.cast_const()];
        setup.catalogs = catalogs.as_ptr();
        setup.catalog_count = 1;
        let mut game = std::ptr::null_mut();
        // SAFETY: the setup points at a live catalog; `game` is writable.
        let code = unsafe { carc_game_new(&setup, &mut game, std::ptr::null_mut()) };
        assert_eq!(code, carc_result::Ok);
        // SAFETY: live, and used by nothing else.
        unsafe { crate::catalog::carc_catalog_free(catalog) };
        game
    }

    /// No input reaches a panic (the abuse test found three and each was fixed), so the state a
    /// panic inside `carc_game_apply` leaves is set by hand here.
    #[test]
    fn a_poisoned_game_refuses_everything_but_free() {
        let game = new_game();
        handle::borrow::<GameObject>(game, "game").unwrap().poisoned = true;
        let mut count = 7;
        let mut copy = std::ptr::null_mut();
        let draw = carc_action::default();
        // SAFETY: every pointer is valid; the game is live.
        unsafe {
            assert_eq!(carc_game_legal_action_count(game, &mut count), carc_result::Poisoned);
            assert_eq!(
                carc_game_apply_legal(game, 0, &mut count, std::ptr::null_mut()),
                carc_result::Poisoned
            );
            assert_eq!(carc_game_apply(game, &draw, std::ptr::null_mut()), carc_result::Poisoned);
            assert_eq!(carc_game_clone(game, &mut copy), carc_result::Poisoned);
        }
        assert_eq!((count, copy), (7, std::ptr::null_mut()), "outputs are untouched");
        // SAFETY: live; freed once, then the stale handle is refused.
        unsafe {
            carc_game_free(game);
            assert_eq!(carc_game_legal_action_count(game, &mut count), carc_result::InvalidHandle);
        }
    }
}
