//! Hostile input costs a few times its size in memory, at every entry point that takes text
//! from a stranger: the C API's JSON and TOML functions and the library's `Deserialize`
//! forms. A counting allocator measures the peak of the heap each call reaches, on the
//! calling thread (so tests running beside each other do not disturb it).
//!
//! Each case is one of the inputs that broke this before: an 8 MiB `file` name copied into
//! every diagnostic (847 MB), millions of unknown keys read into an untyped tree (gigabytes),
//! a landscape of 126,976 figures whose scoring was quadratic. Also: JSON from a stranger
//! never reaches the file system.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{CStr, CString};
use std::time::{Duration, Instant};

use carcassonne::{CatalogList, Game, GameSetup, LandscapeDoc, LandscapeOptions};
use carcassonne_capi::*;

/// The system allocator, counting the bytes each thread holds and the most it held.
struct Counting;

thread_local! {
    static HELD: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn held(change: isize) {
    // `try_with`: the thread's locals may be gone while it exits.
    let _ = HELD.try_with(|held| {
        let now = held.get().saturating_add_signed(change);
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the counting touches only
// const-initialised thread locals of plain `Cell<usize>`, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        held(layout.size() as isize);
        // SAFETY: as the caller promises for `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-(layout.size() as isize));
        // SAFETY: as the caller promises for `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        held(new_size as isize - layout.size() as isize);
        // SAFETY: as the caller promises for `GlobalAlloc::realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What `work` costs on this thread: the peak of the heap above where it started, and the
/// time it took. `work` takes the input (so freeing it counts too).
fn measure<R>(work: impl FnOnce() -> R) -> (R, usize, Duration) {
    let base = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(base));
    let start = Instant::now();
    let result = work();
    let elapsed = start.elapsed();
    (result, PEAK.with(Cell::get) - base, elapsed)
}

/// Fails unless `peak` is at most `times` the input's size, plus a fixed allowance for the
/// built-in tile sets and the like; prints the figures either way.
fn assert_within(what: &str, input: usize, peak: usize, elapsed: Duration, times: usize) {
    const FIXED: usize = 4 << 20;
    println!(
        "{what}: {:.1} MiB in, peak {:.1} MiB ({:.2}x), {:.0} ms",
        input as f64 / (1 << 20) as f64,
        peak as f64 / (1 << 20) as f64,
        peak as f64 / input as f64,
        elapsed.as_secs_f64() * 1000.0
    );
    assert!(
        peak <= times * input + FIXED,
        "{what}: a {input}-byte input took {peak} bytes at its peak, over {times} times its size"
    );
}

/// An invalid tile set of 200 bad keys, inline in a saved game whose `file` names it with
/// `name_bytes` bytes.
fn save_with_long_name(name_bytes: usize) -> String {
    let toml: String = (0..200).map(|i| format!("bogus{i} = 1\n")).collect();
    let setup = serde_json::json!({
        "tilesets": [{ "toml": format!("[set]\n{toml}"), "file": "n".repeat(name_bytes) }],
        "players": 2,
    });
    serde_json::json!({ "format": 1, "setup": setup, "actions": [] }).to_string()
}

/// A setup whose one tile set entry has `keys` unknown keys.
fn setup_with_unknown_keys(keys: usize) -> String {
    let entry = vec!["\"a\":0"; keys].join(",");
    format!("{{\"tilesets\":[{{{entry}}}],\"players\":2}}")
}

/// The C API's answer to `json` through `call`: the code and the error's message.
fn c_call(
    json: &CStr,
    call: impl FnOnce(*const std::ffi::c_char, *mut *mut carc_error) -> carc_result,
) -> (carc_result, String) {
    let text = json;
    let mut err: *mut carc_error = std::ptr::null_mut();
    let code = call(text.as_ptr(), &mut err);
    let message = if err.is_null() {
        String::new()
    } else {
        // SAFETY: a failed call made `err` a live error; it is freed once, after reading.
        unsafe {
            let message = CStr::from_ptr(carc_error_message(err)).to_string_lossy().into_owned();
            carc_error_free(err);
            message
        }
    };
    (code, message)
}

fn load_json(json: &CStr) -> (carc_result, String) {
    c_call(json, |text, err| {
        let mut game = std::ptr::null_mut();
        // SAFETY: valid pointers; a game made is freed.
        unsafe {
            let code = carc_game_load_json(text, &mut game, err);
            carc_game_free(game);
            code
        }
    })
}

fn new_json(json: &CStr) -> (carc_result, String) {
    c_call(json, |text, err| {
        let mut game = std::ptr::null_mut();
        // SAFETY: valid pointers; a game made is freed.
        unsafe {
            let code = carc_game_new_json(text, &mut game, err);
            carc_game_free(game);
            code
        }
    })
}

fn landscape_json(json: &CStr, scoring: &carc_landscape_scoring) -> (carc_result, String) {
    c_call(json, |text, err| {
        let mut score = std::ptr::null_mut();
        // SAFETY: valid pointers; a score made is freed.
        unsafe {
            let code = carc_landscape_score_new_scoring(
                text,
                std::ptr::null(),
                0,
                scoring,
                &mut score,
                err,
            );
            carc_landscape_score_free(score);
            code
        }
    })
}

fn published() -> carc_landscape_scoring {
    let mut scoring = std::mem::MaybeUninit::uninit();
    // SAFETY: a writable struct; written on success.
    assert_eq!(unsafe { carc_landscape_scoring_default(scoring.as_mut_ptr()) }, carc_result::Ok);
    // SAFETY: written by the call above.
    unsafe { scoring.assume_init() }
}

/// An 8 MiB `file` name used to be copied into each of the 101 diagnostics: 847 MB. It is
/// cut to a short label that every diagnostic shares.
#[test]
fn a_long_file_name_in_a_save_costs_a_few_times_the_input() {
    let json = save_with_long_name(8 << 20);
    let c_json = CString::new(json.as_str()).unwrap();
    let ((code, message), peak, elapsed) = measure(|| load_json(&c_json));
    assert_eq!(code, carc_result::JsonContent);
    assert!(message.contains("n…:"), "{}", &message[..200.min(message.len())]);
    assert!(message.len() < 100_000, "the message is {} bytes", message.len());
    assert_within("carc_game_load_json, an 8 MiB file name", json.len(), peak, elapsed, 3);

    let (result, peak, elapsed) = measure(|| serde_json::from_str::<Game>(&json));
    let message = result.unwrap_err().to_string();
    assert!(message.len() < 100_000, "the message is {} bytes", message.len());
    assert_within("serde_json::from_str::<Game>, an 8 MiB file name", json.len(), peak, elapsed, 3);
}

/// Millions of unknown keys where a tile set goes were read into an untyped tree first.
#[test]
fn unknown_keys_are_refused_at_the_first() {
    let json = setup_with_unknown_keys(2_000_000);
    let c_json = CString::new(json.as_str()).unwrap();
    let ((code, message), peak, elapsed) = measure(|| new_json(&c_json));
    assert_eq!(code, carc_result::JsonContent);
    assert!(message.contains("unknown field `a`"), "{message}");
    assert_within("carc_game_new_json, 2,000,000 unknown keys", json.len(), peak, elapsed, 2);

    let (result, peak, elapsed) = measure(|| serde_json::from_str::<GameSetup>(&json));
    assert!(result.is_err());
    assert_within("serde_json::from_str::<GameSetup>, unknown keys", json.len(), peak, elapsed, 2);
    let list =
        format!("[{}]", &json["{\"tilesets\":[".len()..json.len() - "],\"players\":2}".len()]);
    let (result, peak, elapsed) = measure(|| serde_json::from_str::<CatalogList>(&list));
    assert!(result.is_err());
    assert_within(
        "serde_json::from_str::<CatalogList>, unknown keys",
        list.len(),
        peak,
        elapsed,
        2,
    );
}

/// An action with millions of keys before its tag: serde's derived reader of a tagged enum
/// buffered them all in an untyped tree (11 times the input) and then ignored them.
#[test]
fn keys_before_an_actions_tag_are_refused_at_the_first() {
    let keys = vec!["\"a\":0"; 2_000_000].join(",");
    let json = format!(
        "{{\"format\":1,\"setup\":{{\"tilesets\":[\"base\"],\"players\":2}},\"actions\":[{{{keys},\"action\":\"draw\"}}]}}"
    );
    let c_json = CString::new(json.as_str()).unwrap();
    let ((code, message), peak, elapsed) = measure(|| load_json(&c_json));
    assert_eq!(code, carc_result::JsonContent, "{message}");
    assert!(message.contains("unknown field `a`"), "{message}");
    assert_within("carc_game_load_json, 2,000,000 keys in an action", json.len(), peak, elapsed, 2);
    let events = format!("[{{{keys},\"event\":\"turn_started\",\"player\":0}}]");
    let (result, peak, elapsed) =
        measure(|| serde_json::from_str::<Vec<carcassonne::Event>>(&events));
    assert!(result.is_err());
    assert_within(
        "serde_json::from_str::<Vec<Event>>, keys before the tag",
        events.len(),
        peak,
        elapsed,
        2,
    );
}

/// An unknown key of 16 MiB is quoted by serde_json whole; the error is cut to a readable
/// length.
#[test]
fn a_huge_unknown_key_is_quoted_short() {
    let json = format!("{{\"tilesets\":[\"base\"],\"players\":2,\"{}\":0}}", "k".repeat(16 << 20));
    let c_json = CString::new(json.as_str()).unwrap();
    let ((code, message), peak, elapsed) = measure(|| new_json(&c_json));
    assert_eq!(code, carc_result::JsonContent);
    assert!(message.len() <= 4 * carcassonne::limits::MAX_ERROR_MESSAGE, "{} bytes", message.len());
    assert_within("carc_game_new_json, a 16 MiB unknown key", json.len(), peak, elapsed, 3);
}

/// A save of a million actions: read into a list of 8-byte actions, replayed until the first
/// refused one.
#[test]
fn a_save_of_a_million_actions_costs_about_its_size() {
    let actions = vec!["{\"action\":\"draw\"}"; 1_000_000].join(",");
    let json = format!(
        "{{\"format\":1,\"setup\":{{\"tilesets\":[\"base\"],\"players\":2}},\"actions\":[{actions}]}}"
    );
    let c_json = CString::new(json.as_str()).unwrap();
    let ((code, _), peak, elapsed) = measure(|| load_json(&c_json));
    assert_eq!(code, carc_result::SaveActionRefused);
    assert_within("carc_game_load_json, 1,000,000 actions", json.len(), peak, elapsed, 2);
}

/// A tile set of 1 MiB, the most a file may be, with a problem on every line: at most 101
/// diagnostics of bounded length come back.
#[test]
fn a_tile_set_full_of_problems_reports_a_bounded_list() {
    let mut toml = String::from("[set]\n");
    while toml.len() < carcassonne::limits::MAX_FILE_BYTES - 512 {
        toml.push_str(&format!("k{}{} = 1\n", toml.len(), "x".repeat(200)));
    }
    let name = CString::new("n".repeat(1 << 20)).unwrap();
    let text = CString::new(toml.as_str()).unwrap();
    let ((code, count), peak, elapsed) = measure(|| {
        let mut catalog = std::ptr::null_mut();
        let mut err = std::ptr::null_mut();
        // SAFETY: valid strings and out pointers; the error made is freed.
        unsafe {
            let code = carc_catalog_from_toml(name.as_ptr(), text.as_ptr(), &mut catalog, &mut err);
            let count = carc_error_count(err);
            carc_error_free(err);
            (code, count)
        }
    });
    assert_eq!(code, carc_result::TilesetInvalid);
    assert_eq!(count, carcassonne::dsl::MAX_DIAGNOSTICS + 1);
    assert_within(
        "carc_catalog_from_toml, 1 MiB of problems",
        toml.len() + (1 << 20),
        peak,
        elapsed,
        4,
    );
}

/// 126,976 figures on 63,488 monasteries took 16 to 28 s to score, every feature asking every
/// figure; now one pass sums them. The bound is generous (the old code took minutes in a debug
/// build): this guards against the quadratic pass coming back, not a speed.
#[test]
fn a_landscape_of_many_figures_scores_in_linear_time() {
    let (width, height) = (248, 256); // x from -124 to 123, y from -128 to 127
    let mut tiles = Vec::with_capacity(width * height);
    let mut figures = Vec::with_capacity(2 * width * height);
    for x in -124i32..124 {
        for y in -128..128 {
            tiles.push(format!("{{\"tile\":\"B\",\"x\":{x},\"y\":{y}}}"));
            let player = (x + y).rem_euclid(4);
            figures.push(format!("{{\"player\":{player},\"x\":{x},\"y\":{y},\"segment\":0}}"));
            figures.push(format!(
                "{{\"player\":{},\"x\":{x},\"y\":{y},\"segment\":1}}",
                (player + 1) % 4
            ));
        }
    }
    let json = format!(
        "{{\"tilesets\":[\"base\"],\"tiles\":[{}],\"figures\":[{}]}}",
        tiles.join(","),
        figures.join(",")
    );
    assert_eq!(figures.len(), 2 * width * height);
    let c_json = CString::new(json.as_str()).unwrap();
    let scoring = published();
    let ((code, _), peak, elapsed) = measure(|| landscape_json(&c_json, &scoring));
    assert_eq!(code, carc_result::Ok);
    assert_within(
        "carc_landscape_score_new_scoring, 126,976 figures",
        json.len(),
        peak,
        elapsed,
        12,
    );
    assert!(elapsed < Duration::from_secs(60), "scoring took {elapsed:?}");

    let doc: LandscapeDoc = serde_json::from_str(&json).unwrap();
    let landscape = doc.into_landscape(Vec::new()).unwrap();
    let (score, _, elapsed) = measure(|| landscape.score(&LandscapeOptions::default()));
    let score = score.unwrap();
    assert_eq!(score.features.len(), width * height + 1, "every monastery and the one field");
    assert!(elapsed < Duration::from_secs(60), "scoring took {elapsed:?}");
}

/// One field bordering 32,768 completed cities with 65,536 farmers in it, scored per city:
/// every city searched a list of the cities before it, and asked every figure whether it
/// stood in one of its fields (6.5 s in a release build; minutes in a test build). Two city
/// caps facing each other close a city; their fields join their neighbours' into one.
#[test]
fn a_field_bordering_thousands_of_cities_scores_in_linear_time() {
    let mut tiles = Vec::new();
    let mut figures = Vec::new();
    for x in -128i32..128 {
        for y in (-128i32..128).step_by(2) {
            tiles.push(format!("{{\"tile\":\"E\",\"x\":{x},\"y\":{y}}}"));
            tiles.push(format!("{{\"tile\":\"E\",\"x\":{x},\"y\":{},\"rotation\":180}}", y + 1));
            for (row, player) in [(y, (x + y).rem_euclid(5)), (y + 1, (x + y + 1).rem_euclid(5))] {
                figures
                    .push(format!("{{\"player\":{player},\"x\":{x},\"y\":{row},\"segment\":1}}"));
            }
        }
    }
    let json = format!("{{\"tiles\":[{}],\"figures\":[{}]}}", tiles.join(","), figures.join(","));
    let c_json = CString::new(json.as_str()).unwrap();
    for farm_scoring in [CARC_FARM_SCORING_PER_CITY_4, CARC_FARM_SCORING_PER_FIELD_ONCE] {
        let mut scoring = published();
        scoring.rules.farm_scoring = farm_scoring;
        let ((code, message), peak, elapsed) = measure(|| landscape_json(&c_json, &scoring));
        assert_eq!(code, carc_result::Ok, "{message}");
        assert_within(
            "carc_landscape_score_new_scoring, one field, 32,768 cities",
            json.len(),
            peak,
            elapsed,
            12,
        );
        assert!(elapsed < Duration::from_secs(60), "scoring took {elapsed:?}");
    }
}

/// JSON from a stranger names tile sets only as built-in names or inline text: a path, even to
/// a valid tile set, a pipe nobody writes to (opening it would wait forever) or a device is an
/// unknown built-in name, and no file is opened or read: the process's count of read calls
/// (Linux's /proc/self/io) does not move beyond what reading that count itself costs.
#[test]
fn json_from_a_stranger_never_reaches_the_file_system() {
    let folder = std::env::temp_dir().join(format!("carc-no-files-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let valid = folder.join("valid.toml");
    let mut set = carcassonne::Catalog::builtin("river").unwrap().to_toml();
    set = set.replace("id = \"river\"", "id = \"mine\"");
    std::fs::write(&valid, set).unwrap();
    let fifo = folder.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo failed");
    let paths = [valid.display().to_string(), fifo.display().to_string(), "/dev/zero".into()];
    let scoring = published();

    let reads = || {
        let io = std::fs::read_to_string("/proc/self/io").ok()?;
        let line = io.lines().find(|line| line.starts_with("syscr:"))?;
        line["syscr:".len()..].trim().parse::<u64>().ok()
    };
    // What reading the count costs, measured the same way as the calls below.
    let (before, after) = (reads(), reads());
    let overhead = before.zip(after).map(|(before, after)| after - before);

    for path in &paths {
        let setup = serde_json::json!({ "tilesets": [path], "players": 2 }).to_string();
        let save = format!("{{\"format\":1,\"setup\":{setup},\"actions\":[]}}");
        let landscape = serde_json::json!({ "tilesets": [path], "tiles": [] }).to_string();
        let named = serde_json::json!({ "tilesets": [{ "file": path }], "players": 2 }).to_string();
        let texts =
            [&setup, &save, &landscape, &named].map(|text| CString::new(text.as_str()).unwrap());
        let start = reads();
        let answers = [
            new_json(&texts[0]),
            load_json(&texts[1]),
            landscape_json(&texts[2], &scoring),
            new_json(&texts[3]),
        ];
        let library = [
            serde_json::from_str::<GameSetup>(&setup).is_err(),
            serde_json::from_str::<Game>(&save).is_err(),
            serde_json::from_str::<LandscapeDoc>(&landscape).is_err(),
        ];
        let end = reads();
        for (code, message) in &answers {
            assert_eq!(*code, carc_result::JsonContent, "{path}: {message}");
        }
        assert!(answers[0].1.contains("no built-in tile set is called"), "{}", answers[0].1);
        assert!(library.iter().all(|refused| *refused), "{path}: the library accepted a path");
        match (start, end, overhead) {
            (Some(start), Some(end), Some(overhead)) => {
                assert_eq!(end - start, overhead, "{path}: the calls read from a file");
            }
            _ => common::skip(
                "json_from_a_stranger_never_reaches_the_file_system",
                "/proc/self/io cannot be read here, so read calls are not counted",
            ),
        }
    }
    std::fs::remove_dir_all(&folder).unwrap();
}
