//! The store: durability across reopen, compare-and-swap under concurrency, corruption,
//! players, scores, ratings, leaderboards, busy channels, losses on time, board posts,
//! challenges, erasure and old formats — each on sled and on PostgreSQL (a server of this
//! test binary's own: see `support/store/postgres.rs`). One module a concern:
//! `cargo test --test store copy::` runs one.

#[path = "../support/mod.rs"]
mod support;

mod channels;
mod copy;
mod durability;
mod forget;
mod game_creation;
mod leases;
mod postgres_deployment;
mod retention;
mod scores;
mod server_settings;
mod tournaments;
mod two_processes;
mod versions;

use crate::support::store::*;
use damas::app::scoring::{score, Scoring};
use damas::engine::{ByColour, Color, DrawReason, Outcome, Position, Variant, WinReason};
use damas::lang::Lang;
use damas::store::{
    BoardPost, Challenge, ForgetSummary, GameResult, Invalid, PostRecorded, Store, StoreError,
    StoredMove, UserRef, DEFAULT_MOVE_TIME_MS, FORMAT_VERSION, TREES, TREE_ARCHIVE,
    TREE_CHALLENGES, TREE_GAMES, TREE_PLAYERS, TREE_PLAYING,
};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The store closed and opened again. sled lets go of its folder's lock when its own I/O
/// threads are done with it, which may be a moment after the last handle is dropped: the
/// open is tried again while the lock is still held (for at most ten seconds).
fn reopen(db: &TestDb, store: Store) -> Store {
    drop(store);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match Store::open(&db.spec) {
            Ok(store) => return store,
            Err(e)
                if e.to_string().contains("could not acquire lock")
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => panic!("reopen {:?}: {e}", db.backend),
        }
    }
}

fn key(id: u64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

/// Black (first in English) takes White's last man with 18x25: a win in one move with two
/// pieces left, worth 2 * 100 + 59 * 10 = 790 for a human against the computer.
const ONE_MOVE_WIN: &str = "B:W22:B14,18";
const ONE_MOVE_WIN_SCORE: u32 = 790;

fn one_move_win_game(
    id: u64,
    guild: u64,
    channel: u64,
    black: u64,
    level: Level,
) -> damas::store::GameRecord {
    let mut rec = new_game(
        id,
        Some(guild),
        channel,
        Variant::English,
        [bot(level), human(black)],
    );
    rec.start_fen = Some(ONE_MOVE_WIN.to_string());
    rec
}

/// Plays the winning 18x25 and finishes the game.
async fn win_it(store: &Store, mut rec: damas::store::GameRecord) -> damas::store::FinishSummary {
    let pos = Position::from_fen(Variant::English, ONE_MOVE_WIN).unwrap();
    let mv = pos.parse_move("18x25").unwrap();
    push_move(&mut rec, mv, 2_000);
    assert!(rec.outcome.is_some());
    store
        .finish_game(rec.channel_id, 0, &rec, &Scoring)
        .await
        .expect("finish")
}

/// A Spanish game between users 1 (White) and 2, started at `now_ms`.
fn people_game(id: u64, channel: u64, now_ms: u64) -> damas::store::GameRecord {
    let mut g = new_game(id, Some(1), channel, Variant::Spanish, [human(1), human(2)]);
    g.created_at_ms = now_ms;
    g.last_move_at_ms = now_ms;
    g
}

/// Game 1 between people in channel 30, created at `t0` with `move_time_ms` to move, after
/// White's 11-15 at `t0 + 1`: as stored.
async fn people_game_after_a_move(
    store: &Store,
    t0: u64,
    move_time_ms: u64,
) -> damas::store::GameRecord {
    let mut g = people_game(1, 30, t0);
    g.move_time_ms = move_time_ms;
    store.create_game(g.clone()).await.unwrap();
    play_notation(&mut g, "11-15", t0 + 1);
    store.update_game(30, 0, &g).await.unwrap();
    store.active_game(30).unwrap().unwrap()
}

fn challenge(from: u64, to: u64, now_ms: u64) -> Challenge {
    Challenge {
        challenger: UserRef {
            user_id: from,
            name: format!("player {from}"),
            is_bot: false,
        },
        challenged: UserRef {
            user_id: to,
            name: format!("player {to}"),
            is_bot: false,
        },
        variant: Variant::Spanish,
        challenger_color: None,
        created_at_ms: now_ms,
        expires_at_ms: now_ms + 60_000,
        message_id: Some(1),
        lang: Lang::Es,
        move_time_ms: Some(86_400_000),
        opening: None,
    }
}

/// `from` challenges `to` in `channel`, at 1 s after the epoch: stored.
async fn put_open_challenge(store: &Store, channel: u64, from: u64, to: u64) {
    let c = challenge(from, to, 1_000);
    store.put_challenge(channel, &c).await.expect("stored");
}

/// Every key and value in every tree of the database.
fn all_bytes(store: &Store) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for tree in TREES {
        for (k, v) in store.raw_page(tree, None, usize::MAX).unwrap() {
            out.push((tree.to_string(), k, v));
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
