//! The store's figures, on sled and on PostgreSQL: acknowledged (durable) moves per second
//! and their latency, one channel at a time and many at once, and the bytes a finished game
//! takes.
//!
//! `cargo bench --bench store` prints the figures, then runs criterion's measurement of one
//! acknowledged move on each backend. Targets: p99 under 10 ms per acknowledged move, under
//! 1 KB for a finished game of 60 moves each (120 plies).
//!
//! PostgreSQL runs as a throwaway local server (the tests' fixture, `initdb` + `pg_ctl`,
//! default settings: `fsync` and `synchronous_commit` on), reached over TCP on 127.0.0.1: a
//! lower bound for a server across a network, where each move adds round trips.

#[path = "../tests/support/store/mod.rs"]
mod store_common;

use criterion::Criterion;
use damas::app::scoring::Scoring;
use damas::engine::{DrawReason, Outcome, Variant};
use damas::store::{archived_size, Durability, GameRecord, Store};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};
use store_common::*;

/// Moves per sequential latency run.
const MOVES: usize = 2_000;
/// Channels playing at once in the concurrent run, and moves in each.
const CHANNELS: u64 = 16;
const MOVES_PER_CHANNEL: usize = 200;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// Plays one acknowledged move in `channel` (a new game when there is none, or when it
/// ended) and returns how long the store took to acknowledge it, or `None` when this call
/// only started or finished a game.
async fn one_move(store: &Store, channel: u64, rng: &mut SmallRng) -> Option<Duration> {
    let Some(rec) = store.active_game(channel).expect("read") else {
        let id = store.new_game_id().expect("id");
        let rec = new_game(id, Some(1), channel, Variant::Spanish, [human(1), human(2)]);
        store.create_game(rec).await.expect("create");
        return None;
    };
    let ply = rec.ply();
    let mut next = rec.clone();
    let mv = random_move(&rec, rng)?;
    push_move(&mut next, mv, 2_000);
    // A replay-length cap keeps games at realistic lengths.
    if next.outcome.is_none() && next.ply() >= 150 {
        next.outcome = Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        });
    }
    if next.outcome.is_some() {
        store
            .finish_game(channel, ply, &next, &Scoring)
            .await
            .expect("finish");
        return None;
    }
    let started = Instant::now();
    store
        .update_game(channel, ply, &next)
        .await
        .expect("update");
    Some(started.elapsed())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1_000.0
}

fn report(label: &str, mut latencies: Vec<Duration>, wall: Duration) {
    latencies.sort();
    println!(
        "{label}: {} acknowledged moves, {:.0} moves/s, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        latencies.len(),
        latencies.len() as f64 / wall.as_secs_f64(),
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().unwrap_or(&Duration::ZERO)),
    );
}

/// A fresh database of `backend`; `durability` applies to sled.
fn open(backend: Backend, durability: Durability) -> (TestDb, Store, String) {
    let db = TestDb::new(backend);
    let store = db.open_with(durability);
    let label = match backend {
        Backend::Sled => format!("sled {durability:?}"),
        Backend::Postgres => "postgres".to_string(),
    };
    (db, store, label)
}

fn sequential(rt: &tokio::runtime::Runtime, backend: Backend, durability: Durability) {
    let (_db, store, label) = open(backend, durability);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut latencies = Vec::with_capacity(MOVES);
    let started = Instant::now();
    rt.block_on(async {
        while latencies.len() < MOVES {
            if let Some(d) = one_move(&store, 1, &mut rng).await {
                latencies.push(d);
            }
        }
    });
    report(
        &format!("{label}, one channel"),
        latencies,
        started.elapsed(),
    );
}

fn concurrent(rt: &tokio::runtime::Runtime, backend: Backend, durability: Durability) {
    let (_db, store, label) = open(backend, durability);
    let started = Instant::now();
    let latencies = rt.block_on(async {
        let mut tasks = Vec::new();
        for channel in 0..CHANNELS {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut rng = SmallRng::seed_from_u64(channel);
                let mut mine = Vec::with_capacity(MOVES_PER_CHANNEL);
                while mine.len() < MOVES_PER_CHANNEL {
                    if let Some(d) = one_move(&store, channel, &mut rng).await {
                        mine.push(d);
                    }
                }
                mine
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("task"));
        }
        all
    });
    report(
        &format!("{label}, {CHANNELS} channels at once"),
        latencies,
        started.elapsed(),
    );
}

/// A game of exactly 60 moves each, ended by agreement.
fn sixty_move_game() -> GameRecord {
    let mut rng = SmallRng::seed_from_u64(60);
    loop {
        let mut rec = new_game(
            u64::MAX / 3,
            Some(1_234_567_890_123_456_789),
            1_234_567_890_123_456_789,
            Variant::Spanish,
            [
                damas::store::Seat::Human {
                    user_id: 987_654_321_098_765_432,
                    name: "Carmen".to_string(),
                },
                damas::store::Seat::Human {
                    user_id: 876_543_210_987_654_321,
                    name: "Alejandro".to_string(),
                },
            ],
        );
        rec.created_at_ms = 1_760_000_000_000;
        while rec.ply() < 120 {
            let Some(mv) = random_move(&rec, &mut rng) else {
                break;
            };
            let now = 1_760_000_000_000 + 30_000 * rec.ply() as u64;
            push_move(&mut rec, mv, now);
        }
        if rec.ply() == 120 && rec.outcome.is_none() {
            rec.outcome = Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            });
            rec.reminded_ply = Some(119);
            return rec;
        }
    }
}

fn bytes_per_game(rt: &tokio::runtime::Runtime, backend: Backend) {
    let rec = sixty_move_game();
    let size = archived_size(&rec).expect("encode");
    let pdn = damas::engine::export_pdn(&rec.to_game().expect("replay"), &Default::default());
    println!(
        "finished game of 120 plies (60 moves each, Discord-sized ids, two people): {} bytes \
         stored ({} the record, {} its index entries); its PDN would be {} bytes",
        size.total(),
        size.record,
        size.index,
        pdn.len()
    );
    // What the database grows by, its own overhead included.
    let (_db, store, label) = open(backend, Durability::Flush);
    let games = 200u64;
    rt.block_on(async {
        store.flush().await.expect("flush");
        let before = store.size_on_disk().expect("size");
        for i in 0..games {
            let mut live = GameRecord {
                id: i + 1,
                channel_id: i + 1,
                moves: Vec::new(),
                outcome: None,
                ..rec.clone()
            };
            store.create_game(live.clone()).await.expect("create");
            live.moves.clone_from(&rec.moves);
            live.outcome = rec.outcome;
            store
                .finish_game(i + 1, 0, &live, &Scoring)
                .await
                .expect("finish");
        }
        store.flush().await.expect("flush");
        let after = store.size_on_disk().expect("size");
        println!(
            "{label} size_on_disk grew {} bytes per finished game over {games} games \
             (sled is log-structured: superseded pages count until it reclaims them; \
             PostgreSQL counts whole 8 KB pages and dead row versions until vacuum)",
            after.saturating_sub(before) / games
        );
    });
}

fn criterion_ack(c: &mut Criterion, rt: &tokio::runtime::Runtime, backend: Backend) {
    let (_db, store, _) = open(backend, Durability::Fsync);
    let mut rng = SmallRng::seed_from_u64(2);
    let mut group = c.benchmark_group("store");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    let name = match backend {
        Backend::Sled => "acknowledged_move_fsync",
        Backend::Postgres => "acknowledged_move_postgres",
    };
    group.bench_function(name, |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                let mut done = 0;
                while done < iters {
                    if let Some(d) = one_move(&store, 1, &mut rng).await {
                        total += d;
                        done += 1;
                    }
                }
                total
            })
        })
    });
    group.finish();
}

fn main() {
    let rt = runtime();
    println!("-- store figures --");
    for durability in [Durability::Fsync, Durability::Flush] {
        sequential(&rt, Backend::Sled, durability);
        concurrent(&rt, Backend::Sled, durability);
    }
    sequential(&rt, Backend::Postgres, Durability::Fsync);
    concurrent(&rt, Backend::Postgres, Durability::Fsync);
    bytes_per_game(&rt, Backend::Sled);
    bytes_per_game(&rt, Backend::Postgres);
    let mut c = Criterion::default().configure_from_args();
    criterion_ack(&mut c, &rt, Backend::Sled);
    criterion_ack(&mut c, &rt, Backend::Postgres);
    c.final_summary();
}
