//! Drawing a finished 4-player board with every set and abbots, and a tile set's sheet.

use std::hint::black_box;

use carcassonne::{Catalog, Game, GameSetup};
use carcassonne_render::{BoardOptions, board_svg, catalog_sheet};
use criterion::{Criterion, criterion_group, criterion_main};

fn pictures(c: &mut Criterion) {
    let sets = ["base", "river", "inns_and_cathedrals"].map(|name| Catalog::builtin(name).unwrap());
    let mut setup = GameSetup::new(sets.to_vec(), 4);
    setup.options.abbots = true;
    let mut game = Game::new(setup).unwrap();
    // Deploy whenever the rules allow (the last figure action before `Skip`), so the board
    // carries figures to draw.
    let mut pick = 0usize;
    while !game.is_over() {
        let count = game.legal_action_count();
        pick = pick.wrapping_mul(31).wrapping_add(7);
        let index = if count > 1 && game.drawn_tile().is_none() { count - 2 } else { pick % count };
        game.apply(game.legal_action(index).unwrap()).unwrap();
    }
    println!(
        "{} tiles, {} figures, {} KB of SVG",
        game.board().len(),
        game.figures().count(),
        board_svg(&game, &BoardOptions::default()).len() / 1024
    );
    let mut group = c.benchmark_group("pictures");
    group.bench_function("finished_4p_board_all_sets", |b| {
        b.iter(|| black_box(board_svg(&game, &BoardOptions::default())))
    });
    group.bench_function("base_sheet", |b| b.iter(|| black_box(catalog_sheet(&sets[0]))));
    group.finish();
}

criterion_group!(benches, pictures);
criterion_main!(benches);
