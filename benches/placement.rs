//! Tile placement alone: random base-game decks laid out by the fit table over the
//! frontier, the floor under whole-rules self-play (the bare C loop does ~45,000
//! games/s). Also the clone of a mid-game board.

use std::hint::black_box;

use carcassonne::engine::{Features, FitTable};
use carcassonne::{Board, Catalog, Pos, Rotation, TileIndex};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A small, fast, seeded generator so the benchmark measures the board, not the RNG.
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

struct Setup {
    catalog: Catalog,
    table: FitTable,
    deck: Vec<TileIndex>,
}

fn setup() -> Setup {
    let catalog = Catalog::builtin("base").unwrap();
    let table = FitTable::new(catalog.tiles().iter().map(|tile| tile.edges()));
    let mut deck = Vec::new();
    for (index, tile) in catalog.tiles().iter().enumerate() {
        deck.extend(std::iter::repeat_n(index as TileIndex, usize::from(tile.count())));
    }
    Setup { catalog, table, deck }
}

/// One tile-only game, tracking features when `features` is given; returns the board.
fn lay_out(
    setup: &Setup,
    rng: &mut XorShift,
    options: &mut Vec<(Pos, Rotation)>,
    mut features: Option<&mut Features>,
) -> Board {
    let mut deck = setup.deck.clone();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    let mut board = Board::new();
    let first = deck.pop().unwrap();
    let edges =
        |tile: TileIndex, rotation| setup.catalog.tiles()[tile as usize].edges().rotated(rotation);
    board.place(Pos::ORIGIN, first, Rotation::R0, edges(first, Rotation::R0)).unwrap();
    if let Some(features) = features.as_deref_mut() {
        features.add_tile(&board, setup.catalog.tiles(), Pos::ORIGIN);
    }
    for tile in deck {
        options.clear();
        for cell in board.frontier_cells() {
            for rotation in setup.table.rotations_by_key(tile, cell.key).iter() {
                options.push((cell.pos, rotation));
            }
        }
        if options.is_empty() {
            continue;
        }
        let (pos, rotation) = options[rng.below(options.len())];
        board.place(pos, tile, rotation, edges(tile, rotation)).unwrap();
        if let Some(features) = features.as_deref_mut() {
            black_box(features.add_tile(&board, setup.catalog.tiles(), pos));
        }
    }
    board
}

fn benches(c: &mut Criterion) {
    let setup = setup();
    let mut group = c.benchmark_group("placement");
    group.throughput(Throughput::Elements(1));
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut options = Vec::new();
    group.bench_function("base_tile_only_game", |b| {
        b.iter(|| black_box(lay_out(&setup, &mut rng, &mut options, None)))
    });
    group.bench_function("base_tile_game_with_features", |b| {
        b.iter(|| {
            let mut features = Features::new();
            black_box(lay_out(&setup, &mut rng, &mut options, Some(&mut features)));
            black_box(features)
        })
    });
    let mut features = Features::new();
    let board = lay_out(&setup, &mut XorShift(7), &mut options, Some(&mut features));
    group.bench_function("clone_full_board", |b| b.iter(|| black_box(board.clone())));
    group.bench_function("clone_full_features", |b| b.iter(|| black_box(features.clone())));
    group.finish();
}

criterion_group!(placement, benches);
criterion_main!(placement);
