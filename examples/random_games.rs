//! Random 2-player base games with farmers, as fast as a self-play loop plays them: each game
//! restarts one `Game` in place and takes uniformly random legal actions by number. Prints
//! the mean time per game, for `benches/against-c-floor.sh`, which alternates this with the
//! C placement floor so that both are measured in the same minutes of a shared machine.
//!
//! `cargo run --release --example random_games -- [GAMES]`

use std::time::Instant;

use carcassonne::{Catalog, Game, GameSetup};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|arg| arg.parse().ok()).unwrap_or(20_000);
    let base = Catalog::builtin("base").expect("the base set is built in");
    let mut game = Game::new(GameSetup::new(vec![base], 2)).expect("a valid setup");
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut below = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        ((u128::from(rng) * n as u128) >> 64) as usize
    };
    let mut events = Vec::new();
    let mut checksum = 0u64;
    let start = Instant::now();
    for seed in 1..=games {
        game.restart(seed);
        while !game.is_over() {
            let action = game.legal_action(below(game.legal_action_count())).expect("in range");
            events.clear();
            game.apply_into(action, &mut events).expect("a legal action");
        }
        checksum += u64::from(game.scores()[0]);
    }
    let per_game = start.elapsed().as_secs_f64() * 1e6 / games as f64;
    println!("engine random_games: {per_game:.2} us/game over {games} games (checksum {checksum})");
}
