//! The bots' costs: MCTS iterations per second with random playouts from a mid-game
//! 2-player base state on one core (goal: 25,000), the evaluator, a greedy turn, a turn of
//! each built-in search level, the arena on one and two threads (goal: a 1.8× speed-up), and
//! the analyzer's rollouts per second with each continuation.

use std::hint::black_box;

use carcassonne::{Catalog, Game, GameSetup, Phase};
use carcassonne_bots::analysis::{AnalysisConfig, Continuation, analyze};
use carcassonne_bots::arena::{self, ArenaConfig};
use carcassonne_bots::{Evaluator, MctsBot, MctsConfig, Playout, Profile};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A base 2-player game with farmers after `turns` turns of figure-rich play, at the
/// placement of the next tile.
fn mid_game(turns: usize) -> Game {
    let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap();
    let mut placed = 0;
    while placed < turns || !matches!(game.phase(), Phase::Place { .. }) {
        let legal = game.legal_actions();
        let action = match game.phase() {
            Phase::Place { .. } if placed < turns => {
                placed += 1;
                legal[(placed * 7) % legal.len()]
            }
            _ => legal[0],
        };
        game.apply(action).unwrap();
    }
    game
}

fn search(c: &mut Criterion) {
    let game = mid_game(30);
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    const ITERATIONS: u32 = 2000;
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    let random = MctsConfig::default()
        .with_iterations(ITERATIONS)
        .with_figure_share(0.0)
        .with_playout(Playout::Random);
    let bot = MctsBot::new("random playouts", 1, random);
    group.bench_function("iterations_random_playouts_mid_game", |b| {
        b.iter(|| black_box(bot.search(&game).unwrap()))
    });
    let truncated = random.with_playout(Playout::Truncated { turns: 2 });
    let bot = MctsBot::new("truncated playouts", 1, truncated);
    group.bench_function("iterations_truncated_playouts_mid_game", |b| {
        b.iter(|| black_box(bot.search(&game).unwrap()))
    });
    group.finish();

    let mut group = c.benchmark_group("turn");
    group.sample_size(10);
    for level in ["medium", "hard", "expert", "anchor"] {
        let profile = Profile::builtin(level).unwrap();
        let bot = profile.bot(3);
        group.bench_function(level, |b| {
            b.iter(|| black_box(bot.choose(&game, game.current_player()).unwrap()))
        });
    }
    group.finish();
}

fn analysis(c: &mut Criterion) {
    let game = mid_game(30);
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    let cancel = std::sync::atomic::AtomicBool::new(false);
    for (name, continuation, rollouts) in [
        ("rollouts_random_mid_game", Continuation::Random { figure_chance: 0.5 }, 4_000),
        ("rollouts_greedy_mid_game", Continuation::Greedy, 100),
    ] {
        group.throughput(Throughput::Elements(rollouts));
        let config = AnalysisConfig::default()
            .with_rollouts(Some(rollouts))
            .with_continuation(continuation)
            .with_continuation_turns(0);
        group.bench_function(name, |b| {
            b.iter(|| black_box(analyze(&game, &config, |_| {}, &cancel).unwrap()))
        });
    }
    group.finish();
}

fn evaluator(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluator");
    let evaluator = Evaluator::default();
    for turns in [10, 30, 60] {
        let game = mid_game(turns);
        group.bench_function(format!("expected_points_after_{turns}_turns"), |b| {
            b.iter(|| black_box(evaluator.expected_points(&game)))
        });
    }
    group.finish();
}

fn arena_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("arena");
    group.sample_size(10);
    let entrants = [Profile::builtin("medium").unwrap(), Profile::builtin("random").unwrap()];
    for threads in [1, 2] {
        let config = ArenaConfig::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2))
            .with_games(64)
            .with_seed(1)
            .with_threads(threads);
        group.throughput(Throughput::Elements(config.games));
        group.bench_function(format!("64_games_{threads}_threads"), |b| {
            b.iter(|| black_box(arena::run(&entrants, &config, &|_| {}).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(bots, search, evaluator, arena_threads, analysis);
criterion_main!(bots);
