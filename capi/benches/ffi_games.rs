//! Random self-play through the C ABI against the same games through the Rust API, in one run:
//! the cost of the boundary (handle checks, panic guards, conversions into C structs, caller
//! buffers) on the workload bots and RL loops run.
//!
//! The C ABI side calls the exported `extern "C"` functions, which are not inlined across the
//! crate boundary, exactly as a C program does after linking the library. Both sides play the
//! same games: same seeds, same random choices, so only the route differs.

use std::hint::black_box;
use std::ptr;

use carcassonne::{Action, Catalog, Game, GameSetup};
use carcassonne_capi::{
    carc_action, carc_catalog, carc_catalog_builtin, carc_catalog_free, carc_game, carc_game_apply,
    carc_game_apply_legal, carc_game_free, carc_game_legal_action_count, carc_game_legal_actions,
    carc_game_new, carc_game_restarted, carc_game_scores, carc_result, carc_setup,
    carc_setup_default,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The benchmarks' generator (as in `benches/game.rs` of the core), so both routes make the
/// same choices.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((u128::from(self.0) * n as u128) >> 64) as usize
    }
}

struct Case {
    name: &'static str,
    sets: &'static [&'static str],
    players: u8,
    abbots: bool,
}

const CASES: [Case; 2] = [
    Case { name: "base_2p_farmers", sets: &["base"], players: 2, abbots: false },
    Case {
        name: "all_sets_4p_abbots",
        sets: &["base", "river", "inns_and_cathedrals"],
        players: 4,
        abbots: true,
    },
];

fn rust_game(case: &Case) -> Game {
    let catalogs = case.sets.iter().map(|name| Catalog::builtin(name).unwrap()).collect();
    let mut setup = GameSetup::new(catalogs, case.players);
    setup.options.abbots = case.abbots;
    Game::new(setup).unwrap()
}

/// Plays a whole random game through the Rust API, picking actions by number as the C ABI's
/// fast route does (`legal_action_count`, then `legal_action`), so the two compare like with
/// like.
fn play_rust(game: &mut Game, rng: &mut XorShift, _actions: &mut Vec<Action>) -> usize {
    let mut events = Vec::new();
    let mut steps = 0;
    while !game.is_over() {
        let action = game.legal_action(rng.below(game.legal_action_count())).unwrap();
        events.clear();
        game.apply_into(action, &mut events).unwrap();
        steps += 1;
    }
    steps
}

/// The same game made through the C ABI, as a C program makes it.
fn c_game(case: &Case) -> *mut carc_game {
    let mut catalogs = Vec::new();
    for name in case.sets {
        let name = std::ffi::CString::new(*name).unwrap();
        let mut catalog: *mut carc_catalog = ptr::null_mut();
        // SAFETY: valid string and out pointer; no error object asked for.
        let code = unsafe { carc_catalog_builtin(name.as_ptr(), &mut catalog, ptr::null_mut()) };
        assert_eq!(code, carc_result::Ok);
        catalogs.push(catalog.cast_const());
    }
    // SAFETY: all-zero is a valid `carc_setup` (NULL catalogs, 0 counts); it is overwritten.
    let mut setup: carc_setup = unsafe { std::mem::zeroed() };
    // SAFETY: `setup` is writable.
    assert_eq!(unsafe { carc_setup_default(&mut setup) }, carc_result::Ok);
    setup.catalogs = catalogs.as_ptr();
    setup.catalog_count = catalogs.len();
    setup.players = case.players;
    setup.rules.abbots = case.abbots.into();
    let mut game = ptr::null_mut();
    // SAFETY: the setup points at live catalogs; `game` is writable.
    assert_eq!(unsafe { carc_game_new(&setup, &mut game, ptr::null_mut()) }, carc_result::Ok);
    for catalog in catalogs {
        // SAFETY: each catalog is live and used by nothing else.
        unsafe { carc_catalog_free(catalog.cast_mut()) };
    }
    game
}

/// How a C program plays through the ABI.
#[derive(Clone, Copy)]
enum Route {
    /// What a bot that picks by number does: `carc_game_legal_action_count` once, then
    /// `carc_game_apply_legal` with a number, which answers the next count; one call per
    /// action, and no action structs cross the boundary.
    ByNumber,
    /// What a program that looks at the actions does: `carc_game_legal_actions` into a caller
    /// buffer, then `carc_game_apply` with one of them.
    List,
}

/// Plays a whole random game through the C ABI until no action is legal (the game is over).
fn play_c(
    game: *mut carc_game,
    rng: &mut XorShift,
    route: Route,
    buffer: &mut [carc_action],
) -> usize {
    let mut steps = 0;
    let mut count = 0;
    match route {
        Route::ByNumber => {
            // SAFETY: `game` is live; `count` is writable.
            let code = unsafe { carc_game_legal_action_count(game, &mut count) };
            assert_eq!(code, carc_result::Ok);
            while count > 0 {
                let pick = rng.below(count);
                // SAFETY: `game` is live and used only here; `count` is writable.
                let code =
                    unsafe { carc_game_apply_legal(game, pick, &mut count, ptr::null_mut()) };
                assert_eq!(code, carc_result::Ok);
                steps += 1;
            }
        }
        Route::List => loop {
            // SAFETY: `buffer` holds `buffer.len()` writable actions; `count` is writable.
            let code = unsafe {
                carc_game_legal_actions(game, buffer.as_mut_ptr(), buffer.len(), &mut count)
            };
            assert_eq!(code, carc_result::Ok, "a placement list longer than the buffer");
            if count == 0 {
                break;
            }
            let pick = rng.below(count);
            // SAFETY: `game` is live and used only here; the action is readable.
            let code = unsafe { carc_game_apply(game, &buffer[pick], ptr::null_mut()) };
            assert_eq!(code, carc_result::Ok);
            steps += 1;
        },
    }
    steps
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for case in &CASES {
        let initial = rust_game(case);
        let mut actions = Vec::new();
        let (mut rng, mut seed) = (XorShift(0x9E37_79B9_7F4A_7C15), 0u64);
        group.bench_function(format!("rust_api/{}", case.name), |b| {
            b.iter(|| {
                seed += 1;
                let mut game = initial.restarted(seed);
                black_box(play_rust(&mut game, &mut rng, &mut actions))
            })
        });

        let initial = c_game(case);
        let mut buffer = vec![carc_action::default(); 4096];
        for (route_name, route) in
            [("c_abi_by_number", Route::ByNumber), ("c_abi_list", Route::List)]
        {
            let (mut rng, mut seed) = (XorShift(0x9E37_79B9_7F4A_7C15), 0u64);
            group.bench_function(format!("{route_name}/{}", case.name), |b| {
                b.iter(|| {
                    seed += 1;
                    let mut game = ptr::null_mut();
                    // SAFETY: `initial` is live; `game` is writable.
                    let code = unsafe { carc_game_restarted(initial, seed, &mut game) };
                    assert_eq!(code, carc_result::Ok);
                    let steps = play_c(game, &mut rng, route, &mut buffer);
                    // SAFETY: `game` is live and used by nothing else.
                    unsafe { carc_game_free(game) };
                    black_box(steps)
                })
            });
        }
        // SAFETY: `initial` is live and used by nothing else.
        unsafe { carc_game_free(initial) };
    }
    group.finish();
}

/// Every route plays the same games, to the same scores: the benchmark compares like with like.
fn same_games() {
    for case in &CASES {
        let initial = rust_game(case);
        let c_initial = c_game(case);
        let mut buffer = vec![carc_action::default(); 4096];
        for seed in 1..=20 {
            let mut game = initial.restarted(seed);
            let steps = play_rust(&mut game, &mut XorShift(seed), &mut Vec::new());
            for route in [Route::ByNumber, Route::List] {
                let mut c = ptr::null_mut();
                // SAFETY: `c_initial` is live; `c` is writable.
                unsafe { carc_game_restarted(c_initial, seed, &mut c) };
                let c_steps = play_c(c, &mut XorShift(seed), route, &mut buffer);
                let (mut scores, mut count) = ([0u32; 8], 0);
                // SAFETY: `c` is live; `scores` holds 8 writable numbers.
                unsafe { carc_game_scores(c, scores.as_mut_ptr(), scores.len(), &mut count) };
                // SAFETY: `c` is live and used by nothing else.
                unsafe { carc_game_free(c) };
                assert_eq!(
                    (steps, game.scores()),
                    (c_steps, &scores[..count]),
                    "{} seed {seed}: the routes played different games",
                    case.name
                );
            }
        }
        // SAFETY: `c_initial` is live and used by nothing else.
        unsafe { carc_game_free(c_initial) };
    }
}

fn benches(c: &mut Criterion) {
    same_games();
    random_games(c);
}

criterion_group!(ffi, benches);
criterion_main!(ffi);
