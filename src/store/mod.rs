//! Games that survive restarts: every game, challenge, board post and player record lives in
//! sled 0.34 (one machine, the default) or PostgreSQL (`DAMAS_DB=postgres://…`, shared by
//! many processes), behind this repository API. Nothing outside this module touches either.
//!
//! Layers: the record-level code (games, challenges, archive, leaderboards, erasure) is
//! written once against a small storage layer ([`kv`]: named trees of byte keys → byte
//! values with get, compare-and-swap, ordered scans and multi-tree transactions), which has
//! two backends: sled ([`sled_kv`]) and PostgreSQL ([`pg`], one table per tree). A method
//! added above [`kv`] works on both; a new tree needs its name in [`TREES`] and, for
//! PostgreSQL, a migration that creates its table (`src/store/migrations/`).
//!
//! Trees (keys are big-endian ids, so the byte order of keys is the ids' order):
//! - `games`: channel id → [`GameRecord`], the channel's active game.
//! - `posts`: channel id → [`BoardPost`], the message showing that channel's board now.
//! - `challenges`: channel id → [`Challenge`], at most one open challenge per channel.
//! - `archive`: game id → finished [`GameRecord`] (its PDN is produced by the app on read).
//! - `by_player`: user id ++ game id → (), `by_channel`: channel id ++ game id → ().
//! - `pairs`: smaller user id ++ larger user id → last game id between them (raw u64).
//! - `players`: user id → [`PlayerRecord`].
//! - `boards`: guild ++ variant ++ board ++ !sort key ++ user → leaderboard line (name, score,
//!   games), so a prefix scan reads a leaderboard best first; `board_members`: guild ++
//!   variant ++ board ++ user → that user's current sort key, to find and move their line.
//! - `threads`: thread id → [`GameThread`], the threads the bot opened for games ([`threads`]).
//! - `puzzle_players`, `puzzle_members`: puzzle solvers ([`puzzles`]).
//! - `playing`: user id → [`Playing`], the games under way each person sits in ([`playing`]).
//! - `tournaments`: tournament id → [`TournamentRecord`]; `tournament_games`: game id →
//!   tournament id ([`tournaments`]).
//! - `server_settings`: guild id → [`ServerSettings`], each server's `/settings`
//!   ([`server_settings`]).
//!
//! Finished games older than the operator's retention leave the archive with their index
//! entries and pointers ([`retention`]); what one person has stored is gathered by
//! [`subject`] and the readers above (`/my-data`).
//!
//! Values are one format-version byte and postcard ([`FORMAT_VERSION`]; older game records
//! are converted on read). A value that does not decode is reported ([`StoreError::Corrupt`],
//! [`StoreError::UnknownVersion`]) and never written over.
//!
//! A write the app builds on its own read (a move, the board of that move) does not read the
//! key again: the store remembers the bytes it last saw of each channel's game, board post and
//! challenge and swaps from those ([`seen`]); anything stored since makes the swap fail and the write
//! read. On PostgreSQL each read is a statement and a round trip; what each use case costs is
//! in docs/BENCHMARKS.md, kept from growing by a test.
//!
//! Every write but a board post is durable before its `async fn` returns: only then may the
//! caller acknowledge it (sled: flushed and synced; PostgreSQL: committed). A write that may
//! have landed but could not be made durable, or whose commit got no answer, stops the
//! process ([`durability`]).
//!
//! The public API is one repository interface, grouped by concern, the same on both backends:
//! - opening and durability: [`Store::open`], [`Store::open_with`], [`Store::open_configured`],
//!   [`Store::with_fatal_hook`],
//!   [`Store::flush`], [`Store::size_on_disk`], [`Store::new_game_id`], [`Store::backend`];
//! - raw trees, for tools and tests: [`Store::raw_page`], [`Store::raw_get`],
//!   [`Store::raw_count`], [`Store::raw_put`], [`Store::reserve_ids_through`]; copying a whole
//!   database between backends ([`copy`]);
//! - active games ([`games`]): [`Store::active_game`], [`Store::active_games`],
//!   [`Store::create_game`], [`Store::update_game`], [`Store::mark_reminded`],
//!   [`Store::finish_game`], [`Store::cancel_game`], [`Store::cancel_games_in`];
//! - board posts ([`posts`]): [`Store::record_board_post`], [`Store::board_post`];
//! - challenges ([`challenges`]): [`Store::put_challenge`], [`Store::take_challenge`],
//!   [`Store::set_challenge_message`], [`Store::challenge`], [`Store::open_challenges`];
//! - finished games ([`archive`]): [`Store::archived_game`], [`Store::games_of_player`],
//!   [`Store::games_in_channel`], [`Store::last_game_between`];
//! - players and leaderboards ([`leaderboards`]): [`Store::player`], [`Store::leaderboard`];
//! - tournaments ([`tournaments`]): [`Store::create_tournament`], [`Store::tournament`],
//!   [`Store::tournaments`], [`Store::update_tournament`], [`Store::tournament_of_game`];
//! - erasure ([`forget`]): [`Store::forget_user`];
//! - retention ([`retention`]): [`Store::remove_finished_games`];
//! - one person's data ([`subject`]): [`Store::leaderboard_lines_of`],
//!   [`Store::puzzle_servers_of`], [`Store::challenges_of`], [`Store::games_under_way_of`];
//! - servers' settings ([`server_settings`]): [`Store::server_settings`],
//!   [`Store::change_server_settings`], [`Store::server_settings_changed_by`];
//! - interactions already acted on, shared between processes on PostgreSQL ([`sightings`]):
//!   [`Store::first_sighting`], [`Store::forget_sightings`];
//! - the bot's turn, shared between processes on PostgreSQL ([`leases`]):
//!   [`Store::bot_turn_leases`].

pub mod archive;
mod cancel;
pub mod challenges;
mod codec;
pub mod copy;
pub mod durability;
mod error;
pub mod forget;
pub mod games;
mod kv;
pub mod leaderboards;
pub mod leases;
mod pg;
mod pg_tls;
pub mod playing;
pub mod posts;
pub mod puzzles;
pub mod records;
pub mod retention;
mod seen;
pub mod server_settings;
mod settle;
mod sightings;
mod sled_kv;
pub mod subject;
pub mod threads;
pub mod tournaments;

pub use archive::{archived_size, ArchivedSize};
pub use codec::FORMAT_VERSION;
pub use durability::{Durability, FatalHook};
pub use error::{Invalid, StoreError};
pub use forget::ForgetSummary;
pub use leases::{BotTurnLeases, LeaseGuard, BOT_TURN_LEASE_TTL};
pub use playing::{Playing, PlayingIn, TREE_PLAYING};
pub use posts::{BoardPost, PostRecorded};
pub use puzzles::{PuzzlePlayer, PuzzleSession, TREE_PUZZLE_MEMBERS, TREE_PUZZLE_PLAYERS};
pub use records::{
    BotRecord, Challenge, FinishSummary, GameRecord, GameResult, LeaderboardEntry, PlayerRecord,
    Rating, Seat, SeatSummary, StoredMove, Tally, Title, UserRef, VariantRecord,
    DEFAULT_MOVE_TIME_MS,
};
pub use retention::RemovedGames;
pub use server_settings::{Changed, ServerSettings, Setting, TREE_SERVER_SETTINGS};
pub use settle::Settle;
pub use subject::OwnLine;
pub use threads::GameThread;
pub use tournaments::{TournamentRecord, TREE_TOURNAMENTS, TREE_TOURNAMENT_GAMES};

use kv::{Entry, Guard, Kv, Scan, Tx, TxResult};
use pg::PgKv;
use sled_kv::SledKv;
use std::path::Path;
use std::sync::Arc;

pub const TREE_GAMES: &str = "games";
pub const TREE_POSTS: &str = "posts";
pub const TREE_CHALLENGES: &str = "challenges";
pub const TREE_ARCHIVE: &str = "archive";
pub const TREE_BY_PLAYER: &str = "by_player";
pub const TREE_BY_CHANNEL: &str = "by_channel";
pub const TREE_PAIRS: &str = "pairs";
pub const TREE_PLAYERS: &str = "players";
pub const TREE_BOARDS: &str = "boards";
pub const TREE_BOARD_MEMBERS: &str = "board_members";
pub const TREE_THREADS: &str = "threads";

/// Every tree, in no particular order (for tools and tests that look at all the data).
pub const TREES: [&str; 17] = [
    TREE_GAMES,
    TREE_POSTS,
    TREE_CHALLENGES,
    TREE_ARCHIVE,
    TREE_BY_PLAYER,
    TREE_BY_CHANNEL,
    TREE_PAIRS,
    TREE_PLAYERS,
    TREE_BOARDS,
    TREE_BOARD_MEMBERS,
    TREE_THREADS,
    TREE_PUZZLE_PLAYERS,
    TREE_PUZZLE_MEMBERS,
    TREE_PLAYING,
    TREE_TOURNAMENTS,
    TREE_TOURNAMENT_GAMES,
    TREE_SERVER_SETTINGS,
];

/// The environment variable naming the database: a folder (sled), or a PostgreSQL URL
/// (`postgres://user:password@host:port/database`). Unset, the database is `damas.db` in the
/// data folder ([`crate::data_dir::db_path`]).
pub use crate::data_dir::DB_ENV;

pub use pg::{is_postgres_url, DbTimeouts, CLIENT_GRACE, MIGRATIONS};

/// What a database name may be, for messages that refuse one.
pub const DB_KINDS: &str =
    "a folder (sled) or a PostgreSQL URL (postgres://user:password@host:port/database)";

/// Whether `text` starts like a URL, `scheme://` (a scheme: a letter, then letters, digits,
/// `+`, `-` or `.`, as RFC 3986 says).
fn has_url_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once("://") else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Whether `db` names a database damas can open: a PostgreSQL URL, or a folder. Any other
/// `scheme://` URL is refused ([`StoreError::UnsupportedDatabase`]) instead of becoming a
/// folder named after it. Checked by [`Store::open`] and by the front ends as they read
/// `DAMAS_DB`, so that a bad setting is refused before anything starts.
pub fn check_db_name(db: &Path) -> Result<(), StoreError> {
    let text = db.to_string_lossy();
    if has_url_scheme(&text) && !is_postgres_url(&text) {
        return Err(StoreError::UnsupportedDatabase { db: printable(db) });
    }
    Ok(())
}

/// What is wrong with a setting naming a database, from [`check_db_name`]'s error: "must be
/// a folder (sled) or a PostgreSQL URL (…), not mysql://u:***@h/db" (the setting's name goes
/// before it).
pub fn db_name_problem(e: &StoreError) -> String {
    match e {
        StoreError::UnsupportedDatabase { db } => format!("must be {DB_KINDS}, not {db}"),
        other => other.to_string(),
    }
}

/// How a database is named in messages and logs: a folder as it is, a URL without its
/// password (the user part's, or a `password=` parameter's). Every message that names
/// `DAMAS_DB` goes through here.
pub fn printable(db: &Path) -> String {
    let text = db.to_string_lossy();
    if has_url_scheme(&text) {
        redact_url(&text)
    } else {
        text.into_owned()
    }
}

/// `scheme://user:***@hosts/db?…&password=***`; multi-host URLs and odd characters included
/// (no URL parser: the password may hold anything but `@`).
fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let (head, rest) = url.split_at(scheme_end);
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let mut out = head.to_owned();
    match before_query.rfind('@') {
        Some(at) => {
            let (userinfo, hosts) = before_query.split_at(at);
            match userinfo.split_once(':') {
                Some((user, _password)) => {
                    out.push_str(user);
                    out.push_str(":***");
                }
                None => out.push_str(userinfo),
            }
            out.push_str(hosts);
        }
        None => out.push_str(before_query),
    }
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|p| match p.split_once('=') {
                Some(("password", _)) => "password=***".to_owned(),
                _ => p.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

/// A key and its value as stored.
pub type RawEntry = (Vec<u8>, Vec<u8>);

/// The bot's storage. Cheap to clone (two `Arc`s); share one across tasks.
#[derive(Clone)]
pub struct Store {
    kv: Arc<Kv>,
    fatal: FatalHook,
    /// The games, board posts and challenges as this process last saw them ([`seen`]).
    seen: Arc<seen::Seen>,
    /// The servers' settings as this process last read them ([`server_settings`]).
    server_settings_cache: Arc<server_settings::SettingsCache>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Opens the database `db` names: a PostgreSQL URL (`postgres://…` or `postgresql://…`),
    /// connecting and applying missing migrations; anything else is a sled folder, opened
    /// (or created, with missing parent folders) with [`Durability::Fsync`].
    pub fn open(db: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::open_with(db, Durability::default())
    }

    /// As [`Store::open`]; `durability` applies to sled (PostgreSQL commits are durable as
    /// the server is configured: `synchronous_commit`, on by default).
    pub fn open_with(db: impl AsRef<Path>, durability: Durability) -> Result<Store, StoreError> {
        Store::open_configured(db, durability, DbTimeouts::default())
    }

    /// As [`Store::open_with`], waiting on PostgreSQL at most as `timeouts` say.
    pub fn open_configured(
        db: impl AsRef<Path>,
        durability: Durability,
        timeouts: DbTimeouts,
    ) -> Result<Store, StoreError> {
        let db = db.as_ref();
        check_db_name(db)?;
        let kv = match db.to_str().filter(|s| is_postgres_url(s)) {
            Some(url) => Kv::Postgres(PgKv::connect(url, timeouts)?),
            None => Kv::Sled(SledKv::open(db, durability)?),
        };
        let store = Store {
            kv: Arc::new(kv),
            fatal: durability::exit_hook(),
            seen: Arc::default(),
            server_settings_cache: Arc::default(),
        };
        // Games started by a version without the index: a store shared by processes of
        // both versions keeps adding them at every start, harmlessly.
        match store.index_games_under_way() {
            Ok(0) => {}
            Ok(n) => tracing::info!("indexed the players of {n} games under way"),
            Err(e) => tracing::error!("could not index the games under way: {e}"),
        }
        Ok(store)
    }

    /// "sled" or "postgres".
    pub fn backend(&self) -> &'static str {
        self.kv.backend()
    }

    /// Whether the database answers now, within its timeouts (`DAMAS_DB_*`): what a
    /// readiness check asks. sled, in this process, always answers. Blocks.
    pub fn ping(&self) -> Result<(), StoreError> {
        self.timed("ping", || self.kv.ping())
    }

    /// Runs one storage operation, its time recorded as `op` ([`crate::metrics::store_op`]).
    fn timed<T>(&self, op: &'static str, f: impl FnOnce() -> T) -> T {
        let started = std::time::Instant::now();
        let result = f();
        crate::metrics::store_op(self.backend(), op, started.elapsed());
        result
    }

    /// A fresh game id, unique and larger than every id handed out before (also across
    /// restarts, and across processes sharing PostgreSQL), so that game ids sort by creation.
    pub fn new_game_id(&self) -> Result<u64, StoreError> {
        self.kv.generate_id()
    }

    /// Makes every later [`Store::new_game_id`] larger than `id` (after a copy).
    pub fn reserve_ids_through(&self, id: u64) -> Result<(), StoreError> {
        self.checked(self.kv.ids_above(id))
    }

    /// Bytes the database takes on disk: sled's files, or PostgreSQL's database.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        self.kv.size_on_disk()
    }

    // ---- raw access, for tools (`damas store copy`) and tests ----

    /// Up to `limit` entries of `tree` in key order, after key `after` (a page of a copy).
    /// Values are as stored: format byte and postcard.
    pub fn raw_page(
        &self,
        tree: &'static str,
        after: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<RawEntry>, StoreError> {
        self.kv.scan(
            tree,
            Scan {
                after,
                ..Scan::all().limit(limit)
            },
        )
    }

    pub fn raw_get(&self, tree: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.kv.get(tree, key)
    }

    /// Entries in `tree`.
    pub fn raw_count(&self, tree: &'static str) -> Result<u64, StoreError> {
        self.kv.count(tree)
    }

    /// Writes `entries` into `tree` as they are, whatever was there, in one transaction,
    /// durable before it returns. Nothing checks that they decode: tools and tests only.
    pub async fn raw_put(
        &self,
        tree: &'static str,
        entries: &[RawEntry],
    ) -> Result<(), StoreError> {
        self.transaction(&[tree], |tx| {
            for (k, v) in entries {
                tx.insert(tree, k, v)?;
            }
            Ok(())
        })?;
        self.durable().await
    }

    // ---- the storage layer, for the record-level modules ----

    pub(crate) fn read(
        &self,
        tree: &'static str,
        key: &[u8],
    ) -> Result<Option<Vec<u8>>, StoreError> {
        self.timed("read", || self.kv.get(tree, key))
    }

    /// See [`Kv::compare_and_swap`]. Not durable until [`Store::durable`].
    pub(crate) fn swap(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, StoreError> {
        self.checked(self.timed("swap", || self.kv.compare_and_swap(tree, key, old, new)))
    }

    /// See [`Kv::compare_and_swap_guarded`]. Not durable until [`Store::durable`].
    pub(crate) fn swap_guarded(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: &[u8],
        guard: Guard<'_>,
    ) -> Result<bool, StoreError> {
        self.checked(self.timed("swap", || {
            self.kv.compare_and_swap_guarded(tree, key, old, new, guard)
        }))
    }

    pub(crate) fn scan(
        &self,
        tree: &'static str,
        scan: Scan<'_>,
    ) -> Result<Vec<Entry>, StoreError> {
        self.timed("scan", || self.kv.scan(tree, scan))
    }

    /// See [`Kv::transaction`]. Not durable until [`Store::durable`].
    pub(crate) fn transaction<T>(
        &self,
        trees: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        self.checked(self.timed("transaction", || self.kv.transaction(trees, f)))
    }

    /// See [`Kv::transaction_locking`]. Not durable until [`Store::durable`].
    pub(crate) fn transaction_locking<T>(
        &self,
        trees: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        self.checked(self.timed("transaction", || self.kv.transaction_locking(trees, f)))
    }

    /// A write that may or may not have landed stops the process, as a failed sync does.
    fn checked<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(e @ StoreError::OutcomeUnknown { .. }) = &result {
            tracing::error!("a write could not be confirmed: {e}");
            (self.fatal)(e);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_database_never_shows_its_password() {
        for (url, shown) in [
            (
                "postgres://damas:hunter2@db.example:5432/damas",
                "postgres://damas:***@db.example:5432/damas",
            ),
            (
                "postgresql://damas:p%40ss:w/rd@h1:5432,h2:5433/damas?sslmode=require",
                "postgresql://damas:***@h1:5432,h2:5433/damas?sslmode=require",
            ),
            (
                "postgres://damas@h/damas?application_name=a&password=hunter2",
                "postgres://damas@h/damas?application_name=a&password=***",
            ),
            ("postgres://h/damas", "postgres://h/damas"),
        ] {
            assert_eq!(printable(Path::new(url)), shown);
        }
        assert_eq!(printable(Path::new("./data/a:b@c")), "./data/a:b@c");
        // Any URL, even one damas cannot open: it is named in the message refusing it.
        assert_eq!(
            printable(Path::new("mysql://u:secret@h/db")),
            "mysql://u:***@h/db"
        );
    }

    #[test]
    fn urls_of_other_databases_are_refused_not_taken_for_folders() {
        for url in [
            "mysql://u:secret@h/db",
            "sqlite:///var/damas.db",
            "nonsense://x",
            "redis+tls://h",
        ] {
            let e = check_db_name(Path::new(url)).unwrap_err();
            assert!(
                matches!(e, StoreError::UnsupportedDatabase { .. }),
                "{url}: {e}"
            );
            assert!(!e.to_string().contains("secret"), "{e}");
            // Refused before anything is opened (sled would create a folder named so).
            assert!(
                matches!(
                    Store::open(url),
                    Err(StoreError::UnsupportedDatabase { .. })
                ),
                "{url}"
            );
        }
        for fine in [
            "postgres://h/db",
            "postgresql://h/db",
            "./data/damas.db",
            "/srv/damas/db",
            "data/a:b@c",
            "C:\\damas",
            "odd name://with space",
        ] {
            assert!(check_db_name(Path::new(fine)).is_ok(), "{fine}");
        }
    }
}
