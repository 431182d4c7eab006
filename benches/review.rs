//! `/review` and the replay GIF, timed once each (a review takes seconds: criterion's many
//! samples would take minutes). Run with `cargo bench --bench review`.
//!
//! Targets (issue 14): the review of a 100-ply game in under 20 s on 2 cores at the default
//! budget; the GIF of a 120-ply game in under 1 s and under 2 MB.

#[path = "../tests/support/search.rs"]
mod search_support;

use damas::ai::{review, review_in_pool, ReviewOptions, SearchPool};
use damas::engine::{Color, Variant};
use damas::render::{replay_gif, Caption, Renderer};
use search_support::long_game;
use std::time::{Duration, Instant};

fn caption(ply: usize) -> Caption {
    Caption {
        title: "Spanish draughts".into(),
        players: "alice (White) vs bob (Black)".into(),
        status: format!("Move {} · 11-15", ply / 2 + 1),
    }
}

/// This process's CPU time so far (Linux; zero elsewhere): on a shared, loaded machine the
/// wall-clock time says more about the neighbours than about the code.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime, fields 14 and 15 of the whole line, in ticks of 1/100 s.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
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
    let (started, cpu) = (Instant::now(), cpu_time());
    review(&game, &options, |_, _| {}).expect("a review");
    println!(
        "review of a 100-ply game, calling thread: {:.1} s ({:.1} s of CPU)",
        started.elapsed().as_secs_f64(),
        (cpu_time() - cpu).as_secs_f64()
    );

    let game = long_game(Variant::Spanish, 120);
    let _ = Renderer::shared().expect("renderer");
    let mut times: Vec<Duration> = Vec::new();
    let mut size = 0;
    let cpu = cpu_time();
    for _ in 0..5 {
        let started = Instant::now();
        size = replay_gif(&game, Color::White, caption)
            .expect("a GIF")
            .len();
        times.push(started.elapsed());
    }
    let cpu_each = (cpu_time() - cpu) / 5;
    times.sort();
    println!(
        "GIF of a 120-ply game: {:.0} ms (median of 5, best {:.0} ms; {:.0} ms of CPU), {:.0} KB",
        times[2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        cpu_each.as_secs_f64() * 1000.0,
        size as f64 / 1024.0
    );
}
