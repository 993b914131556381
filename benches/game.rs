//! Whole-rules self-play through the public Game API: random 2-player base games with
//! farmers (the yardstick, target 20,000 games/s), 4-player games with every set and
//! abbots, legal-placement generation and clone mid-game, making, saving, loading and
//! replaying a game, and the cost of one turn as the board grows, on a synthetic catalog of 40
//! copies of every base tile (2,880 tiles).

use std::hint::black_box;

use carcassonne::{Action, Catalog, Event, Game, GameSetup, Phase};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// A small, fast, seeded generator so the benchmark measures the engine, not the RNG.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        // Multiply-shift, not `%`: a 64-bit division per choice would cost the benchmark
        // more than some of the rules it measures.
        ((u128::from(self.0) * n as u128) >> 64) as usize
    }
}

fn new_game(names: &[&str], players: u8, abbots: bool) -> Game {
    let catalogs = names.iter().map(|name| Catalog::builtin(name).unwrap()).collect();
    let mut setup = GameSetup::new(catalogs, players);
    setup.options.abbots = abbots;
    Game::new(setup).unwrap()
}

/// Plays random legal actions until the game is over or `turns_left` placements are made.
fn play(game: &mut Game, rng: &mut XorShift, actions: &mut Vec<Action>, mut placements: usize) {
    let mut events = Vec::new();
    while !game.is_over() && placements > 0 {
        game.legal_actions_into(actions);
        let action = actions[rng.below(actions.len())];
        if matches!(action, Action::Place { .. }) {
            placements -= 1;
        }
        events.clear();
        game.apply_into(action, &mut events).unwrap();
    }
}

/// Plays uniformly random legal actions to the end as a playout does: each turn counts the
/// legal actions and asks for one by its index, listing none.
fn play_sampled(game: &mut Game, rng: &mut XorShift, events: &mut Vec<Event>) {
    while !game.is_over() {
        let action = game.legal_action(rng.below(game.legal_action_count())).unwrap();
        events.clear();
        game.apply_into(action, events).unwrap();
    }
}

/// A random game from a fresh start: each iteration restarts the game in place with a new
/// seed, as a self-play loop does (the catalog tables are shared, not rebuilt, and the
/// game's memory is reused, as the C floor reuses its arrays). `sampled`
/// picks each action by index from the count (the playout path, the yardstick against the C
/// floor); `listed` lists every legal action first and picks from the list. Both play the
/// same games for the same seeds.
fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    let cases = [
        ("base_2p_farmers", new_game(&["base"], 2, false)),
        ("all_sets_4p_abbots", new_game(&["base", "river", "inns_and_cathedrals"], 4, true)),
    ];
    for (name, initial) in cases {
        for sampled in [true, false] {
            let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
            let mut actions = Vec::new();
            let mut events = Vec::new();
            let mut seed = 0u64;
            let id = format!("{name}/{}", if sampled { "sampled" } else { "listed" });
            let mut game = initial.clone();
            group.bench_function(id, |b| {
                b.iter(|| {
                    seed += 1;
                    game.restart(seed);
                    if sampled {
                        play_sampled(&mut game, &mut rng, &mut events);
                    } else {
                        play(&mut game, &mut rng, &mut actions, usize::MAX);
                    }
                    black_box(game.scores()[0])
                })
            });
        }
    }
    group.finish();
}

fn mid_game(c: &mut Criterion) {
    let mut group = c.benchmark_group("mid_game");
    let mut game = new_game(&["base"], 2, false);
    let mut actions = Vec::new();
    play(&mut game, &mut XorShift(11), &mut actions, 36);
    while !matches!(game.phase(), Phase::Draw) {
        game.legal_actions_into(&mut actions);
        game.apply(actions[0]).unwrap();
    }
    game.apply(Action::Draw).unwrap();
    assert!(matches!(game.phase(), Phase::Place { .. }));
    group.bench_function("legal_placements", |b| {
        b.iter(|| {
            game.legal_actions_into(&mut actions);
            black_box(actions.len())
        })
    });
    group.bench_function("clone", |b| b.iter(|| black_box(game.clone())));
    println!(
        "size_of::<Game>() = {} bytes; mid-game heap ≈ {} bytes",
        size_of::<Game>(),
        game.heap_bytes()
    );
    group.finish();
}

/// What a program pays around the games themselves: a new game from its setup (the tables of
/// every set are built), and a mid-game save written as JSON, read back (the sets named, the
/// actions replayed) and replayed from its setup and actions.
fn setup_and_saves(c: &mut Criterion) {
    let mut group = c.benchmark_group("setup_and_saves");
    let names = ["base", "river", "inns_and_cathedrals"];
    let catalogs: Vec<Catalog> = names.iter().map(|name| Catalog::builtin(name).unwrap()).collect();
    let setup = GameSetup::new(catalogs, 4);
    group.bench_function("new_game_all_sets", |b| {
        b.iter(|| black_box(Game::new(setup.clone()).unwrap()))
    });
    let mut game = Game::new(setup).unwrap();
    play(&mut game, &mut XorShift(5), &mut Vec::new(), 40);
    let json = serde_json::to_string(&game).unwrap();
    group.bench_function("save_json_40_tiles", |b| {
        b.iter(|| black_box(serde_json::to_string(&game).unwrap()))
    });
    group.bench_function("load_json_40_tiles", |b| {
        b.iter(|| black_box(serde_json::from_str::<Game>(&json).unwrap()))
    });
    group.bench_function("replay_40_tiles", |b| {
        b.iter(|| black_box(Game::replay(game.setup(), game.actions()).unwrap()))
    });
    group.finish();
}

/// The cost of a turn at several board sizes of a 2,880-tile game. `full`: ten whole turns
/// (draw, list the placements, place at random, list and take a random figure action),
/// which grows with the frontier because the list of legal placements does. `apply`: one
/// turn's rules work once the placement is chosen (place, list figure actions, take one,
/// score): it should not grow with the tiles already down.
fn turn_cost(c: &mut Criterion) {
    let text = Catalog::builtin("base").unwrap().to_toml();
    let big = scale_counts(&text, 40);
    let catalog = Catalog::from_toml("base_x40.toml", &big).unwrap();
    assert_eq!(catalog.tile_count(), 2880);
    let mut group = c.benchmark_group("turn_at_board_size");
    let mut actions = Vec::new();
    for tiles in [100, 1000, 2500] {
        let mut game = Game::new(GameSetup::new(vec![catalog.clone()], 2)).unwrap();
        play(&mut game, &mut XorShift(5), &mut actions, tiles);
        while !matches!(game.phase(), Phase::Draw) {
            game.legal_actions_into(&mut actions);
            game.apply(*actions.last().unwrap()).unwrap();
        }
        println!("{tiles} tiles: frontier of {} cells", game.board().frontier().len());
        let mut rng = XorShift(99);
        group.bench_with_input(BenchmarkId::new("full_10_turns", tiles), &game, |b, game| {
            b.iter_batched_ref(
                || game.clone(),
                |game| play(game, &mut rng, &mut actions, 10),
                criterion::BatchSize::SmallInput,
            )
        });
        let mut rng = XorShift(77);
        let mut figure_actions = Vec::new();
        group.bench_with_input(BenchmarkId::new("apply_1_turn", tiles), &game, |b, game| {
            b.iter_batched_ref(
                || {
                    let mut game = game.clone();
                    while !matches!(game.phase(), Phase::Place { .. }) {
                        game.apply(Action::Draw).unwrap();
                    }
                    game.legal_actions_into(&mut actions);
                    let place = actions[rng.below(actions.len())];
                    (game, place, rng.below(1000))
                },
                |(game, place, pick)| {
                    game.apply(*place).unwrap();
                    game.legal_actions_into(&mut figure_actions);
                    let figure = figure_actions[*pick % figure_actions.len()];
                    black_box(game.apply(figure).unwrap());
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// The base set with every `count = n` multiplied by `factor`.
fn scale_counts(text: &str, factor: u32) -> String {
    text.lines()
        .map(|line| match line.strip_prefix("count = ") {
            Some(count) => format!("count = {}", count.trim().parse::<u32>().unwrap() * factor),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

criterion_group!(game, random_games, mid_game, setup_and_saves, turn_cost);
criterion_main!(game);
