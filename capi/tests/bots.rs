//! Bots through the C ABI: a whole game of two bots, every answer legal; the same seed, the
//! same answer; profiles from text; and every refusal with its code.

use std::ffi::{CStr, CString};
use std::ptr;

use carcassonne_capi::{
    carc_action, carc_bot, carc_bot_choose, carc_bot_free, carc_bot_from_profile, carc_bot_name,
    carc_bot_new, carc_catalog, carc_catalog_builtin, carc_catalog_free, carc_error,
    carc_error_free, carc_error_message, carc_game, carc_game_apply, carc_game_check,
    carc_game_free, carc_game_is_over, carc_game_new, carc_game_scores, carc_result, carc_setup,
    carc_setup_default,
};

/// The code and message of a call that filled `err`.
fn failure(code: carc_result, err: *mut carc_error) -> (carc_result, String) {
    // SAFETY: a failed call with an error slot fills it with a live error, freed once here.
    let message = unsafe { CStr::from_ptr(carc_error_message(err)) }.to_string_lossy().into_owned();
    // SAFETY: as above.
    unsafe { carc_error_free(err) };
    (code, message)
}

fn bot(name: &str, seed: u64) -> Result<*mut carc_bot, (carc_result, String)> {
    let name = CString::new(name).unwrap();
    let (mut bot, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: every pointer is valid for what the function reads or writes.
    let code = unsafe { carc_bot_new(name.as_ptr(), seed, &mut bot, &mut err) };
    if code == carc_result::Ok { Ok(bot) } else { Err(failure(code, err)) }
}

fn profile_bot(text: &str, name: &str) -> Result<*mut carc_bot, (carc_result, String)> {
    let (file, text, name) = (
        CString::new("mine.toml").unwrap(),
        CString::new(text).unwrap(),
        CString::new(name).unwrap(),
    );
    let (mut bot, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: every pointer is valid for what the function reads or writes.
    let code = unsafe {
        carc_bot_from_profile(file.as_ptr(), text.as_ptr(), name.as_ptr(), 1, &mut bot, &mut err)
    };
    if code == carc_result::Ok { Ok(bot) } else { Err(failure(code, err)) }
}

fn base_game(seed: u64) -> *mut carc_game {
    let mut catalog: *mut carc_catalog = ptr::null_mut();
    // SAFETY: a static name and writable outputs.
    let code = unsafe { carc_catalog_builtin(c"base".as_ptr(), &mut catalog, ptr::null_mut()) };
    assert_eq!(code, carc_result::Ok);
    // SAFETY: all-zero is a valid `carc_setup`; the default fills it.
    let mut setup: carc_setup = unsafe { std::mem::zeroed() };
    // SAFETY: `setup` is writable.
    assert_eq!(unsafe { carc_setup_default(&mut setup) }, carc_result::Ok);
    let catalogs = [catalog.cast_const()];
    setup.catalogs = catalogs.as_ptr();
    setup.catalog_count = 1;
    setup.players = 2;
    setup.seed = seed;
    let mut game = ptr::null_mut();
    // SAFETY: `setup` points to one live catalog handle; the outputs are writable.
    assert_eq!(unsafe { carc_game_new(&setup, &mut game, ptr::null_mut()) }, carc_result::Ok);
    // SAFETY: the catalog is live and freed once; the game keeps what it needs.
    unsafe { carc_catalog_free(catalog) };
    game
}

fn choose(
    bot: *const carc_bot,
    game: *const carc_game,
) -> Result<carc_action, (carc_result, String)> {
    // SAFETY: all-zero is a valid `carc_action` to be overwritten.
    let mut action: carc_action = unsafe { std::mem::zeroed() };
    let mut err = ptr::null_mut();
    // SAFETY: the handles are any values; the outputs are writable.
    let code = unsafe { carc_bot_choose(bot, game, &mut action, &mut err) };
    if code == carc_result::Ok { Ok(action) } else { Err(failure(code, err)) }
}

fn is_over(game: *const carc_game) -> bool {
    let mut over = 0u8;
    // SAFETY: a live game and a writable flag.
    assert_eq!(unsafe { carc_game_is_over(game, &mut over) }, carc_result::Ok);
    over == 1
}

#[test]
fn two_bots_play_a_whole_game_with_legal_actions() {
    let game = base_game(11);
    let (medium, easy) = (bot("medium", 1).unwrap(), bot("easy", 2).unwrap());
    // SAFETY: a live bot; its name lives as long as it.
    assert_eq!(unsafe { CStr::from_ptr(carc_bot_name(medium)) }, c"medium");
    let mut player = 0;
    while !is_over(game) {
        let seat = if player % 2 == 0 { medium } else { easy };
        let action = choose(seat, game).unwrap();
        // SAFETY: a live game and a readable action.
        assert_eq!(unsafe { carc_game_check(game, &action, ptr::null_mut()) }, carc_result::Ok);
        // SAFETY: as above.
        assert_eq!(unsafe { carc_game_apply(game, &action, ptr::null_mut()) }, carc_result::Ok);
        if action.kind == carcassonne_capi::CARC_ACTION_KIND_SKIP
            || action.kind == carcassonne_capi::CARC_ACTION_KIND_DEPLOY
            || action.kind == carcassonne_capi::CARC_ACTION_KIND_RECALL_ABBOT
        {
            player += 1;
        }
    }
    let (mut scores, mut count) = ([0u32; 8], 0usize);
    // SAFETY: a live game; `scores` holds 8 writable numbers.
    assert_eq!(
        unsafe { carc_game_scores(game, scores.as_mut_ptr(), 8, &mut count) },
        carc_result::Ok
    );
    assert!(scores[0] > scores[1], "medium beats easy on seed 11: {scores:?}");
    let (code, message) = choose(medium, game).unwrap_err();
    assert_eq!(code, carc_result::GameOver, "{message}");
    // SAFETY: each handle is live and freed once.
    unsafe {
        carc_bot_free(medium);
        carc_bot_free(easy);
        carc_game_free(game);
    }
}

#[test]
fn the_same_seed_gives_the_same_action() {
    let game = base_game(4);
    let draw = choose(bot("hard", 1).unwrap(), game).unwrap();
    assert_eq!(draw.kind, carcassonne_capi::CARC_ACTION_KIND_DRAW);
    // SAFETY: a live game and a readable action.
    assert_eq!(unsafe { carc_game_apply(game, &draw, ptr::null_mut()) }, carc_result::Ok);
    let text = "[[profile]]\nname = \"quick\"\nkind = \"mcts\"\nmcts = { iterations = 300 }\n";
    let (a, b) = (profile_bot(text, "quick").unwrap(), profile_bot(text, "quick").unwrap());
    let (first, second) = (choose(a, game).unwrap(), choose(b, game).unwrap());
    assert_eq!(
        (first.kind, first.pos.x, first.pos.y, first.rotation),
        (second.kind, second.pos.x, second.pos.y, second.rotation)
    );
    // SAFETY: each handle is live and freed once.
    unsafe {
        carc_bot_free(a);
        carc_bot_free(b);
        carc_game_free(game);
    }
}

#[test]
fn refusals_have_their_codes() {
    let (code, message) = bot("grandmaster", 1).unwrap_err();
    assert_eq!(code, carc_result::UnknownProfile);
    assert!(message.contains("hard") && message.contains("grandmaster"), "{message}");
    let (code, message) = profile_bot("[[profile]]\nname = 3", "x").unwrap_err();
    assert_eq!(code, carc_result::ProfileInvalid);
    assert!(message.contains("mine.toml"), "{message}");
    let (code, message) =
        profile_bot("[[profile]]\nname = \"x\"\nkind = \"mcts\"\nmcts = { trees = 0 }\n", "x")
            .unwrap_err();
    assert_eq!(code, carc_result::ProfileInvalid);
    assert!(message.contains("trees"), "{message}");
    assert_eq!(profile_bot("", "nobody").unwrap_err().0, carc_result::UnknownProfile);

    let game = base_game(1);
    let medium = bot("medium", 1).unwrap();
    assert_eq!(choose(ptr::null(), game).unwrap_err().0, carc_result::NullArgument);
    assert_eq!(choose(medium, ptr::null()).unwrap_err().0, carc_result::NullArgument);
    // A game handle where a bot belongs, and a bot where a game belongs.
    assert_eq!(choose(game.cast(), game).unwrap_err().0, carc_result::InvalidHandle);
    assert_eq!(choose(medium, medium.cast()).unwrap_err().0, carc_result::InvalidHandle);
    let mut err = ptr::null_mut();
    // SAFETY: a NULL output is refused before anything is written.
    let code = unsafe { carc_bot_choose(medium, game, ptr::null_mut(), &mut err) };
    assert_eq!(failure(code, err).0, carc_result::NullArgument);
    // SAFETY: NULL name; the bot is live and freed once, then freeing it again does nothing.
    unsafe {
        assert!(carc_bot_name(ptr::null()).is_null());
        carc_bot_free(medium);
        carc_bot_free(medium);
        carc_bot_free(ptr::null_mut());
        carc_game_free(game);
    }
    assert_eq!(choose(medium, base_game(2)).unwrap_err().0, carc_result::InvalidHandle);
}
