//! Tournaments: time to pair each round of a 64-player, 5-round Swiss played with random
//! results, and to make its standings picture (the standings, the table and the PNG).
//! `cargo bench --bench tournament`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use damas::app::tournament::pairing::pair_round;
use damas::app::tournament::standings::{table, tie_breaks, TableWords};
use damas::app::tournament::{Board, Entry, Field, Format, Player, Round, Score};
use damas::render::{standings_png, Renderer};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const PLAYERS: usize = 64;
const ROUNDS: u8 = 5;

fn bench(c: &mut Criterion) {
    let _ = Renderer::shared().expect("renderer");
    let mut rng = SmallRng::seed_from_u64(64);
    let field = Field {
        players: (0..PLAYERS)
            .map(|i| Player {
                entry: Entry(i as u16),
                rating: rng.gen_range(1000..2000),
                withdrawn_from: None,
            })
            .collect(),
    };
    let format = Format::Swiss { rounds: ROUNDS };
    let mut played: Vec<Round> = Vec::new();
    for round in 1..=ROUNDS {
        let history = played.clone();
        c.bench_function(&format!("swiss 64 players/pair round {round}"), |b| {
            b.iter(|| pair_round(format, black_box(&field), black_box(&history)).expect("paired"))
        });
        let mut next = pair_round(format, &field, &played).expect("paired");
        for board in &mut next.boards {
            if let Board::Game { score, .. } = board {
                let white = rng.gen_range(0..=2);
                *score = Some(Score {
                    white,
                    black: 2 - white,
                    forfeit: false,
                });
            }
        }
        played.push(next);
    }
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("player{i}")).collect();
    let words = TableWords {
        title: "Club Swiss · after round 5 of 5".into(),
        rank: "#".into(),
        name: "Player".into(),
        points: "Pts".into(),
        tie_breaks: tie_breaks(format)
            .iter()
            .map(|tb| format!("{tb:?}"))
            .collect(),
        bye: "bye".into(),
        white: "w".into(),
        black: "b".into(),
        withdrawn: "(withdrawn)".into(),
    };
    let png = standings_png(&table(format, &field, &played, &names, &words)).expect("png");
    println!("standings picture, 64 players: {} KB", png.len() / 1024);
    c.bench_function("swiss 64 players/standings picture", |b| {
        b.iter(|| {
            standings_png(&table(format, &field, black_box(&played), &names, &words)).expect("png")
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
