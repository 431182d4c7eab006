//! Move generation speed: perft leaves per second from the start of each rule set, and in a
//! middle game full of flying kings (where capture chains dominate).
//!
//! `cargo bench --bench movegen`; criterion reports the leaves per second as "elem/s".

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use damas::engine::{perft, Position, Variant};

fn perft_from_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for (variant, depth, leaves) in [
        (Variant::English, 7, 179_740u64),
        (Variant::Spanish, 7, 177_532),
        (Variant::English, 8, 845_931),
        (Variant::Spanish, 8, 828_783),
    ] {
        let start = Position::start(variant);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(
            BenchmarkId::new(variant.id(), depth),
            &depth,
            |b, &depth| {
                b.iter(|| {
                    let n = perft(black_box(&start), depth);
                    assert_eq!(n, leaves);
                    n
                })
            },
        );
    }
    group.finish();
}

fn perft_with_kings(c: &mut Criterion) {
    // Two kings and five men a side, the kings free to move and capture.
    let mut group = c.benchmark_group("perft_kings");
    group.sample_size(10);
    for (variant, fen, depth) in [
        (Variant::Spanish, "W:W5-9,K2,K4:B24-28,K29,K31", 6),
        (
            Variant::English,
            "W:W9-11,14,15,K1,K3:B18,19,22-24,K30,K32",
            6,
        ),
    ] {
        let p = Position::from_fen(variant, fen).expect("a valid position");
        let leaves = perft(&p, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(variant.id(), depth), &depth, |b, &d| {
            b.iter(|| perft(black_box(&p), d))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_from_start, perft_with_kings);
criterion_main!(benches);
