//! Bots: opponents for a game, from a built-in level or a profile file's text.

use std::ffi::{CString, c_char};

use carcassonne_bots::{Bot, BotError, Profiles};

use crate::boundary::{
    ErrSlot, Failure, Out, arg_str, boundary, c_string, file_label, value_boundary,
};
use crate::error::carc_error;
use crate::game::{carc_game, game_arg};
use crate::handle::{self, Held, Kind, Object};
use crate::result::carc_result;
use crate::values::{action_to_c, carc_action};

/// A bot: a player that chooses actions. It sees only what a player sees (the tiles left,
/// never their order) and its choices depend only on its seed and the game. One bot may play
/// any number of games and seats, one call at a time per bot handle.
pub struct carc_bot {
    _opaque: [u8; 0],
}

/// What a `carc_bot` handle stands for.
pub(crate) struct BotObject {
    bot: Box<dyn Bot>,
    name: CString,
}

impl Object for BotObject {
    const KIND: Kind = Kind::Bot;
    type Opaque = carc_bot;
}

fn bot_arg(bot: *const carc_bot) -> Result<Held<BotObject>, Failure> {
    handle::borrow(bot, "bot")
}

fn give(out: Out<*mut carc_bot>, bot: Box<dyn Bot>) -> Result<(), Failure> {
    let name = c_string(bot.name());
    out.write(handle::hand_out(BotObject { bot, name })?);
    Ok(())
}

/// Makes a bot of the built-in profile `name` with `seed` at `*out`; free it with
/// `carc_bot_free`. The built-in profiles are the levels `"easy"`, `"medium"` and `"hard"`
/// (at most 1 s a turn on one core), `"random"`, `"greedy"` and `"anchor"`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_UNKNOWN_PROFILE`
/// (the message lists the names there are).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_bot *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_bot_new(
    name: *const c_char,
    seed: u64,
    out: *mut *mut carc_bot,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let name = unsafe { arg_str(name, "name") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        let profile = Profiles::builtin().find(name).map_err(unknown_profile)?;
        give(out, profile.bot(seed))
    })
}

/// Makes a bot of profile `name` with `seed` at `*out`, where `text` is a bot profile file
/// (TOML, as `bots/profiles/builtin.toml`) whose profiles join the built-in ones; `file` names
/// the text in messages (NULL: `<string>`). Free the bot with `carc_bot_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_PROFILE_INVALID`
/// (with the line and column, or the setting at fault, in the message),
/// `CARC_RESULT_UNKNOWN_PROFILE`.
///
/// # Safety
/// `file` and `text` and `name` are NULL or NUL-terminated strings; `out` is NULL or points to
/// a writable `carc_bot *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_bot_from_profile(
    file: *const c_char,
    text: *const c_char,
    name: *const c_char,
    seed: u64,
    out: *mut *mut carc_bot,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let file = unsafe { file_label(file) }?;
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let text = unsafe { arg_str(text, "text") }?;
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let name = unsafe { arg_str(name, "name") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        if text.len() > carcassonne::limits::MAX_FILE_BYTES {
            return Err(Failure::new(
                carc_result::ProfileInvalid,
                format!(
                    "a profile file may be at most {} bytes",
                    carcassonne::limits::MAX_FILE_BYTES
                ),
            ));
        }
        let mine = Profiles::from_toml(file, text)
            .map_err(|error| Failure::new(carc_result::ProfileInvalid, error.to_string()))?;
        let profiles = Profiles::builtin().with(&mine);
        let profile = profiles.find(name).map_err(unknown_profile)?;
        give(out, profile.bot(seed))
    })
}

/// Writes to `*out` the action the player to move in `game` should take: `CARC_ACTION_KIND_DRAW`
/// in the draw phase, else a placement or a figure action that `carc_game_apply` accepts.
/// The bot thinks on a copy of the game, so other calls on `game` need not wait for it; calls
/// on the same bot take turns.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_HANDLE`, `CARC_RESULT_POISONED`,
/// `CARC_RESULT_GAME_OVER`.
///
/// # Safety
/// `bot` and `game` are any handle values; `out` is NULL or points to a writable
/// `carc_action`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_bot_choose(
    bot: *const carc_bot,
    game: *const carc_game,
    out: *mut carc_action,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a writable `carc_action`.
        let out = unsafe { Out::new(out, "out") }?;
        // One handle held at a time (see handle.rs): copy the game and give its turn back
        // before the bot's is taken.
        let copy = game_arg(game)?.game().clone();
        let bot = bot_arg(bot)?;
        let action = bot.bot.choose(&copy, copy.current_player()).map_err(|error| match error {
            BotError::GameOver => {
                Failure::new(carc_result::GameOver, "the game is over; there is nothing to choose")
            }
            other => Failure::new(carc_result::Panic, other.to_string()),
        })?;
        out.write(action_to_c(action, &copy));
        Ok(())
    })
}

/// The bot's profile name, such as `"hard"`; the string belongs to the bot handle. NULL for
/// anything but a live bot handle.
///
/// # Safety
/// `bot` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_bot_name(bot: *const carc_bot) -> *const c_char {
    value_boundary(std::ptr::null(), || match bot_arg(bot) {
        // The name lives as long as the handle, which the caller keeps.
        Ok(held) => held.name.as_ptr(),
        Err(_) => std::ptr::null(),
    })
}

/// Frees a bot; NULL does nothing.
///
/// # Safety
/// `bot` is any handle value; it is invalid afterwards, and so is its name.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_bot_free(bot: *mut carc_bot) {
    value_boundary((), || drop(handle::take::<BotObject>(bot)));
}

fn unknown_profile(error: carcassonne_bots::ProfileError) -> Failure {
    Failure::new(carc_result::UnknownProfile, error.to_string())
}
