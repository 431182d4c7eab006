//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

#[path = "../optional.rs"]
pub mod optional;
pub mod postgres;

use damas::engine::{Color, Game, Move, Outcome, Variant, WinReason};
pub use damas::level::Level;
use damas::store::{Durability, GameRecord, Seat, Store, StoredMove};
use rand::rngs::SmallRng;
use rand::Rng;
use std::path::PathBuf;

/// The store's two implementations; every store test runs on both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sled,
    Postgres,
}

/// A database of one test: a sled folder in a temporary directory, or a fresh database on
/// this test binary's PostgreSQL server ([`postgres::server`]).
pub struct TestDb {
    pub backend: Backend,
    /// What [`Store::open`] takes: the folder or the URL.
    pub spec: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sled => {
                let dir = tempfile::tempdir().expect("temp dir");
                TestDb {
                    backend,
                    spec: dir.path().join("db"),
                    _dir: Some(dir),
                }
            }
            Backend::Postgres => TestDb {
                backend,
                spec: PathBuf::from(postgres::server().fresh_database()),
                _dir: None,
            },
        }
    }

    /// A database of `backend`, or `None` when the test is skipped for want of PostgreSQL
    /// ([`postgres::optional_server`]).
    pub fn optional(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sled => Some(TestDb::new(backend)),
            Backend::Postgres => Some(TestDb {
                backend,
                spec: PathBuf::from(postgres::optional_server()?.fresh_database()),
                _dir: None,
            }),
        }
    }

    pub fn open(&self) -> Store {
        Store::open(&self.spec).unwrap_or_else(|e| panic!("open {:?}: {e}", self.backend))
    }

    pub fn open_with(&self, durability: Durability) -> Store {
        Store::open_with(&self.spec, durability)
            .unwrap_or_else(|e| panic!("open {:?}: {e}", self.backend))
    }
}

/// Runs an async test body once per backend: `on_both_backends! { async fn name(db) { … } }`
/// makes `name::sled` and `name::postgres`, each with `db` a fresh [`TestDb`] (`postgres` is
/// skipped where PostgreSQL is not installed: [`TestDb::optional`]). Attributes (a
/// multi-threaded flavour, say) go before `async fn`.
#[macro_export]
macro_rules! on_both_backends {
    ($(#[$attr:meta])* async fn $name:ident($db:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            $(#[$attr])*
            async fn sled() {
                let $db = TestDb::new(Backend::Sled);
                $body
            }

            $(#[$attr])*
            async fn postgres() {
                let Some($db) = TestDb::optional(Backend::Postgres) else {
                    return;
                };
                $body
            }
        }
    };
}

pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

pub fn human(user_id: u64) -> Seat {
    Seat::Human {
        user_id,
        name: format!("player {user_id}"),
    }
}

pub fn bot(level: Level) -> Seat {
    Seat::Bot { level }
}

pub fn new_game(
    id: u64,
    guild: Option<u64>,
    channel: u64,
    variant: Variant,
    players: [Seat; 2],
) -> GameRecord {
    GameRecord::new(id, guild, channel, variant, players.into(), 1_000)
}

/// Plays `mv` on the record the way the application does: replay, play, store the move and
/// whatever the rules decided.
pub fn push_move(rec: &mut GameRecord, mv: Move, now_ms: u64) -> Game {
    let mut game = rec.to_game().expect("record replays");
    game.play(mv).expect("legal move");
    rec.moves.push(StoredMove::from_move(&mv));
    rec.outcome = game.outcome();
    rec.last_move_at_ms = now_ms;
    rec.draw_offer = None;
    game
}

/// Plays the move written `notation` (e.g. `"11-15"`) in the record's position, as
/// [`push_move`] does.
pub fn play_notation(rec: &mut GameRecord, notation: &str, now_ms: u64) -> Game {
    let game = rec.to_game().expect("record replays");
    let mv = game
        .position()
        .parse_move(notation)
        .unwrap_or_else(|e| panic!("{notation}: {e:?}"));
    push_move(rec, mv, now_ms)
}

/// `user_id` (named `name`) solves a puzzle rated `rating` in `guild_id`: a record and a
/// place on that server's puzzle board.
pub async fn puzzle_solved(store: &Store, user_id: u64, name: &str, guild_id: u64, rating: f64) {
    store
        .update_puzzle_player(user_id, name, guild_id, |mut p| {
            damas::app::scoring::record_puzzle_attempt(&mut p, rating, true);
            Ok::<_, ()>((p, ()))
        })
        .await
        .expect("the store writes")
        .expect("the update is applied");
}

/// `winner` wins for `reason`.
pub fn win(winner: Color, reason: WinReason) -> Outcome {
    Outcome::Win { winner, reason }
}

/// A random legal move of the record's position, or `None` when the game is over.
pub fn random_move(rec: &GameRecord, rng: &mut SmallRng) -> Option<Move> {
    let game = rec.to_game().expect("record replays");
    if game.is_over() {
        return None;
    }
    let legal = game.position().legal_moves();
    Some(legal[rng.gen_range(0..legal.len())])
}

pub fn side_to_move(rec: &GameRecord) -> Color {
    rec.to_game().expect("record replays").side_to_move()
}
