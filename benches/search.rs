//! Search speed: a fixed node budget per search, so criterion's throughput figure is the
//! number of nodes per second. Positions: the start and a middle game reached by 16 plies
//! of Hard against Hard (seeds 11..27), per variant. Depth reached in a given time is
//! measured with `damas bestmove --level expert --time-ms 1000` (see the README).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use damas::ai::{best_move, Level, SearchLimits, SearchOptions};
use damas::engine::{Game, Position, Variant};
use std::hint::black_box;

const NODES: u64 = 200_000;

const POSITIONS: [(Variant, &str, &str); 6] = [
    (Variant::Spanish, "start", "W:W1-12:B21-32"),
    (
        Variant::Spanish,
        "middle",
        "W:W1-4,7,9-11,15,17:B18,20-24,29-32",
    ),
    (Variant::Portuguese, "start", "W:W1-12:B21-32"),
    (
        Variant::Portuguese,
        "middle",
        "W:W1-4,7,9-11,15,17:B18,20-24,29-32",
    ),
    (Variant::English, "start", "B:W21-32:B1-12"),
    (
        Variant::English,
        "middle",
        "B:W21,22,24,26,28-32:B1,3-6,11,14,15,20",
    ),
];

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(NODES));
    for (variant, name, fen) in POSITIONS {
        let Ok(pos) = Position::from_fen(variant, fen) else {
            panic!("bad bench FEN {fen}");
        };
        let game = Game::from_position(pos);
        for level in [Level::Hard, Level::Expert] {
            let opts = SearchOptions {
                limits: Some(SearchLimits {
                    time: None,
                    nodes: Some(NODES),
                    depth: None,
                }),
                ..SearchOptions::default()
            };
            let id = BenchmarkId::new(format!("{variant}/{level}"), name);
            group.bench_with_input(id, &game, |b, game| {
                b.iter(|| black_box(best_move(game, level, &opts)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
