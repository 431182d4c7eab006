//! `/review` and the replay GIF, timed once each (a review takes seconds: criterion's many
//! samples would take minutes). Run with `cargo bench --bench review`.
//!
//! Targets (issue 14): the review of a 100-ply game in under 20 s on 2 cores at the default
//! budget; the GIF of a 120-ply game in under 1 s and under 2 MB.

#[path = "../tests/review_support/mod.rs"]
mod review_support;

use damas::ai::{review, review_in_pool, ReviewOptions, SearchPool};
use damas::engine::{Color, Variant};
use damas::render::{replay_gif, Caption, Renderer};
use review_support::long_game;
use std::time::{Duration, Instant};

fn caption(ply: usize) -> Caption {
    Caption {
        title: "Spanish draughts".into(),
        players: "alice (White) vs bob (Black)".into(),
        status: format!("Move {} · 11-15", ply / 2 + 1),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let options = ReviewOptions::default();

    let game = long_game(Variant::Spanish, 100);
    for threads in [1, 2] {
        let pool = SearchPool::new(threads, 256);
        let started = Instant::now();
        let r = runtime
            .block_on(review_in_pool(&pool, &game, &options, |_, _| {}))
            .expect("a review");
        println!(
            "review of a 100-ply game, pool of {threads}: {:.1} s ({} errors found)",
            started.elapsed().as_secs_f64(),
            r.errors().count()
        );
    }
    let started = Instant::now();
    review(&game, &options, |_, _| {}).expect("a review");
    println!(
        "review of a 100-ply game, calling thread: {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let game = long_game(Variant::Spanish, 120);
    let _ = Renderer::shared().expect("renderer");
    let mut times: Vec<Duration> = Vec::new();
    let mut size = 0;
    for _ in 0..5 {
        let started = Instant::now();
        size = replay_gif(&game, Color::White, caption)
            .expect("a GIF")
            .len();
        times.push(started.elapsed());
    }
    times.sort();
    println!(
        "GIF of a 120-ply game: {:.0} ms (median of 5, best {:.0} ms), {:.0} KB",
        times[2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        size as f64 / 1024.0
    );
}
