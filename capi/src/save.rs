//! JSON forms: a setup as JSON, and games saved and loaded as the library's saved-game form.

use std::ffi::c_char;

use carcassonne::limits::{MAX_ERROR_MESSAGE, MAX_JSON_BYTES, shortened_display};
use carcassonne::{Action, Game, GameSetup, ReplayError, SAVE_FORMAT};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::boundary::{Buffer, ErrSlot, Failure, Out, arg_str, boundary, plain_boundary};
use crate::error::carc_error;
use crate::game::{GameObject, carc_game, game_arg, give, setup_failure};
use crate::result::carc_result;

/// The failure of reading JSON, with the line and column serde_json reports.
pub(crate) fn json_failure(error: &serde_json::Error) -> Failure {
    let code = match error.classify() {
        serde_json::error::Category::Data => carc_result::JsonContent,
        _ => carc_result::JsonSyntax,
    };
    let mut failure = Failure::new(code, shortened_display(error, MAX_ERROR_MESSAGE));
    failure.line = u32::try_from(error.line()).unwrap_or(u32::MAX);
    failure.column = u32::try_from(error.column()).unwrap_or(u32::MAX);
    failure
}

/// Reads JSON text of at most [`MAX_JSON_BYTES`] into a `T`; longer text is refused unread.
pub(crate) fn from_json<T: DeserializeOwned>(json: &str) -> Result<T, Failure> {
    if json.len() > MAX_JSON_BYTES {
        return Err(Failure::new(
            carc_result::JsonTooLarge,
            format!("the JSON is {} bytes; the library reads at most {MAX_JSON_BYTES}", json.len()),
        ));
    }
    serde_json::from_str(json).map_err(|error| json_failure(&error))
}

/// The saved-game form, read here rather than through `Game`'s own `Deserialize` so that a
/// refused setup or action comes back as a typed error, not as text. The core writes the
/// same three keys (`carcassonne::SAVE_FORMAT` names the version); the tests check that both
/// readings agree.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedGame {
    format: u32,
    setup: GameSetup,
    actions: Vec<Action>,
}

/// Makes a new game at `*out` from a setup in JSON, the form saved games use:
/// `{"tilesets": [...], "players": N, "seed": S, "options": {...}}`. A tile set is a built-in
/// name (`"base"`) or `{"toml": "...", "file": "name.toml"}` with a whole tile set's text;
/// `seed` (default 0) and `options` (every key optional: `farmers`, `farm_scoring`,
/// `tiny_city`, `inn_cathedral_unfinished`, `abbots`) may be left out. Free the game with
/// `carc_game_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_JSON_TOO_LARGE`
/// over 64 MiB, `CARC_RESULT_JSON_SYNTAX` or `CARC_RESULT_JSON_CONTENT` with the line and
/// column in `*err` (an invalid tile set's diagnostics are in the message), and the 3xx code
/// of a setup the rules cannot make a game of.
///
/// # Safety
/// `json` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_game *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_new_json(
    json: *const c_char,
    out: *mut *mut carc_game,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        game_from_json(json, out, err, |json| {
            let setup: GameSetup = from_json(json)?;
            Game::new(setup).map_err(|error| setup_failure(&error))
        })
    }
}

/// Reads a JSON argument, makes a game of it with `make` and hands it out: the body of both
/// functions that make a game from JSON.
///
/// # Safety
/// `json` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_game *`; `err` is NULL or points to a writable `carc_error *`.
unsafe fn game_from_json(
    json: *const c_char,
    out: *mut *mut carc_game,
    err: *mut *mut carc_error,
    make: impl FnOnce(&str) -> Result<Game, Failure>,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let json = unsafe { arg_str(json, "json") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        give(out, GameObject::new(make(json)?))
    })
}

/// Writes the setup of `game` as JSON (the form `carc_game_new_json` reads, seed included) to
/// `buf`, NUL-terminated. `*size` receives the bytes written, the NUL included, or the bytes
/// needed with `CARC_RESULT_BUFFER_TOO_SMALL` (then `buf` is left alone); `buf` may be NULL
/// when `cap` is 0, to ask for the size.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` bytes; `size` is
/// NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_setup_json(
    game: *const carc_game,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let game = game_arg(game)?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        buffer.fill_json(&game.game().setup())
    })
}

/// Writes `game` in the saved-game form, JSON with its format version, setup and actions
/// (`{"format": 1, "setup": {...}, "actions": [...]}`), to `buf`, NUL-terminated.
/// `carc_game_load_json` reads it back into an equal game. `*size` receives the bytes
/// written, the NUL included, or the bytes needed with `CARC_RESULT_BUFFER_TOO_SMALL` (then
/// `buf` is left alone); `buf` may be NULL when `cap` is 0, to ask for the size.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_POISONED`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `game` is any handle value; `buf` is NULL or valid for writing `cap` bytes; `size` is
/// NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_save_json(
    game: *const carc_game,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let held = game_arg(game)?;
        let game = held.game();
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        buffer.fill_json(game)
    })
}

/// Loads a saved game (the form `carc_game_save_json` writes, and the server's
/// `GET /games/{id}`) into a new game at `*out`, by replaying its actions: every action is
/// checked again, so a file cannot build a game the rules could not reach. The CLI's
/// `play --json` adds its report (`players`, `events`, `scores`, `winners`), which this
/// refuses as unknown keys: keep its `format`, `setup` and `actions`. The new game has
/// no last events. Free it with `carc_game_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_JSON_TOO_LARGE`
/// over 64 MiB, `CARC_RESULT_JSON_SYNTAX` or `CARC_RESULT_JSON_CONTENT` with the line and
/// column in `*err`, `CARC_RESULT_SAVE_FORMAT` for another format version, the 3xx code of a
/// setup the rules refuse, and `CARC_RESULT_SAVE_ACTION_REFUSED` naming the first refused
/// action by index and reason.
///
/// # Safety
/// `json` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_game *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_game_load_json(
    json: *const c_char,
    out: *mut *mut carc_game,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: passed on from the caller.
    unsafe {
        game_from_json(json, out, err, |json| {
            let saved: SavedGame = from_json(json)?;
            if saved.format != SAVE_FORMAT {
                return Err(Failure::new(
                    carc_result::SaveFormat,
                    format!(
                        "saved-game format {} is not supported; this version reads format {SAVE_FORMAT}",
                        saved.format
                    ),
                ));
            }
            Game::replay(saved.setup, &saved.actions).map_err(|error| match &error {
                ReplayError::Setup(setup) => setup_failure(setup),
                ReplayError::Action { .. } => {
                    Failure::new(carc_result::SaveActionRefused, error.to_string())
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_json(json: &std::ffi::CStr) -> carc_result {
        let mut game = std::ptr::null_mut();
        // SAFETY: a NUL-terminated string and a writable out pointer.
        let code = unsafe { carc_game_new_json(json.as_ptr(), &mut game, std::ptr::null_mut()) };
        // SAFETY: NULL or a game this test owns.
        unsafe { crate::game::carc_game_free(game) };
        code
    }

    #[test]
    fn json_over_the_limit_is_refused_unread() {
        let mut text = br#"{"tilesets": ["base"], "players": 2}"#.to_vec();
        assert_eq!(new_json(&std::ffi::CString::new(text.clone()).unwrap()), carc_result::Ok);
        text.resize(MAX_JSON_BYTES + 1, b' ');
        let json = std::ffi::CString::new(text).unwrap();
        assert_eq!(new_json(&json), carc_result::JsonTooLarge);
    }

    #[test]
    fn a_setup_of_more_tiles_than_a_board_holds_is_refused() {
        let base = include_str!("../../tilesets/base.toml");
        let big = |n: usize| {
            let text: String = base
                .replace("id = \"base\"", &format!("id = \"big{n}\""))
                .replace("id = \"", &format!("id = \"{n}"))
                .replace("start = \"", &format!("start = \"{n}"))
                // The declarations keep their ids: tiles name the pennant by it.
                .replace(&format!("id = \"{n}pennant\""), "id = \"pennant\"")
                .replace(&format!("id = \"{n}tiny_city\""), "id = \"tiny_city\"")
                .replace(&format!("id = \"{n}follower\""), "id = \"follower\"")
                .replace(&format!("id = \"{n}abbot\""), "id = \"abbot\"")
                .lines()
                .map(|line| {
                    if line.starts_with("count = ") {
                        "count = 400\n".into()
                    } else {
                        format!("{line}\n")
                    }
                })
                .collect();
            serde_json::json!({ "toml": text })
        };
        let sets: Vec<_> = (0..7).map(big).collect();
        let json = serde_json::json!({ "tilesets": sets, "players": 2 }).to_string();
        let json = std::ffi::CString::new(json).unwrap();
        assert_eq!(new_json(&json), carc_result::TooManyTiles);
    }
}
