//! Games that survive restarts: every game, challenge, board post and player record lives in
//! sled 0.34, behind this repository API. Nothing outside this module touches sled.
//!
//! Trees (keys are big-endian ids, so sled's byte order is the ids' order):
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
//! - `puzzle_players`, `puzzle_members`: puzzle solvers ([`puzzles`]).
//!
//! Values are one format-version byte and postcard ([`FORMAT_VERSION`]; older game records
//! are converted on read). A value that does not decode is reported ([`StoreError::Corrupt`],
//! [`StoreError::UnknownVersion`]) and never written over.
//!
//! Every write but a board post is durable before its `async fn` returns: only then may the
//! caller acknowledge it. A write that may have landed but could not be made durable stops the
//! process ([`durability`]).
//!
//! The public API is one repository interface, grouped by concern (a PostgreSQL
//! implementation is to offer the same):
//! - opening and durability: [`Store::open`], [`Store::open_with`], [`Store::with_fatal_hook`],
//!   [`Store::flush`], [`Store::size_on_disk`], [`Store::new_game_id`];
//! - active games ([`games`]): [`Store::active_game`], [`Store::active_games`],
//!   [`Store::create_game`], [`Store::update_game`], [`Store::mark_reminded`],
//!   [`Store::finish_game`], [`Store::cancel_game`], [`Store::cancel_games_in`];
//! - board posts ([`posts`]): [`Store::record_board_post`], [`Store::board_post`];
//! - challenges ([`challenges`]): [`Store::put_challenge`], [`Store::take_challenge`],
//!   [`Store::set_challenge_message`], [`Store::challenge`], [`Store::open_challenges`];
//! - finished games ([`archive`]): [`Store::archived_game`], [`Store::games_of_player`],
//!   [`Store::games_in_channel`], [`Store::last_game_between`];
//! - players and leaderboards ([`leaderboards`]): [`Store::player`], [`Store::leaderboard`];
//! - erasure ([`forget`]): [`Store::forget_user`].

pub mod archive;
mod cancel;
pub mod challenges;
mod codec;
pub mod durability;
mod error;
pub mod forget;
pub mod games;
pub mod leaderboards;
pub mod posts;
pub mod puzzles;
pub mod records;
pub mod scoring;

pub use archive::{archived_size, ArchivedSize};
pub use codec::FORMAT_VERSION;
pub use durability::{Durability, FatalHook};
pub use error::{Invalid, StoreError};
pub use forget::ForgetSummary;
pub use posts::{BoardPost, PostRecorded};
pub use puzzles::{PuzzlePlayer, PuzzleSession, TREE_PUZZLE_MEMBERS, TREE_PUZZLE_PLAYERS};
pub use records::{
    level_index, BotRecord, Challenge, FinishSummary, GameRecord, GameResult, LeaderboardEntry,
    PlayerRecord, Rating, Seat, SeatSummary, StoredMove, Tally, UserRef, VariantRecord, BOT_LEVELS,
    DEFAULT_MOVE_TIME_MS,
};
pub use scoring::{rate, score};

use sled::transaction::{
    ConflictableTransactionError, ConflictableTransactionResult, TransactionError,
};
use std::path::{Path, PathBuf};
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

/// Every tree, in no particular order (for tools and tests that look at all the data).
pub const TREES: [&str; 12] = [
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
    TREE_PUZZLE_PLAYERS,
    TREE_PUZZLE_MEMBERS,
];

/// The environment variable naming the database folder.
pub const DB_ENV: &str = "DAMAS_DB";
/// Used when [`DB_ENV`] is not set.
pub const DEFAULT_DB_PATH: &str = "./data/damas.db";

/// sled's page cache ceiling; the bot's working set is a few records per active channel.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Where the database lives: `$DAMAS_DB`, or `./data/damas.db`.
pub fn default_path() -> PathBuf {
    std::env::var_os(DB_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(DEFAULT_DB_PATH), PathBuf::from)
}

struct Trees {
    db: sled::Db,
    sync: durability::Syncer,
    games: sled::Tree,
    posts: sled::Tree,
    challenges: sled::Tree,
    archive: sled::Tree,
    by_player: sled::Tree,
    by_channel: sled::Tree,
    pairs: sled::Tree,
    players: sled::Tree,
    boards: sled::Tree,
    board_members: sled::Tree,
    puzzle_players: sled::Tree,
    puzzle_members: sled::Tree,
}

/// The bot's storage. Cheap to clone (two `Arc`s); share one across tasks.
#[derive(Clone)]
pub struct Store {
    trees: Arc<Trees>,
    fatal: FatalHook,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").finish_non_exhaustive()
    }
}

type TxResult<T> = ConflictableTransactionResult<T, StoreError>;

fn abort<T>(e: StoreError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(e))
}

fn tx_error(e: TransactionError<StoreError>) -> StoreError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Db(e),
    }
}

impl Store {
    /// Opens (or creates) the database at `path`, creating missing parent folders, with
    /// [`Durability::Fsync`].
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::open_with(path, Durability::default())
    }

    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<Store, StoreError> {
        let path = path.as_ref();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::CreateDir {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let db = sled::Config::new()
            .path(path)
            .cache_capacity(CACHE_BYTES)
            .open()?;
        let tree = |name: &str| db.open_tree(name);
        let trees = Trees {
            games: tree(TREE_GAMES)?,
            posts: tree(TREE_POSTS)?,
            challenges: tree(TREE_CHALLENGES)?,
            archive: tree(TREE_ARCHIVE)?,
            by_player: tree(TREE_BY_PLAYER)?,
            by_channel: tree(TREE_BY_CHANNEL)?,
            pairs: tree(TREE_PAIRS)?,
            players: tree(TREE_PLAYERS)?,
            boards: tree(TREE_BOARDS)?,
            board_members: tree(TREE_BOARD_MEMBERS)?,
            puzzle_players: tree(TREE_PUZZLE_PLAYERS)?,
            puzzle_members: tree(TREE_PUZZLE_MEMBERS)?,
            sync: durability::Syncer::open(path, durability)?,
            db,
        };
        Ok(Store {
            trees: Arc::new(trees),
            fatal: durability::exit_hook(),
        })
    }

    /// A fresh game id, unique and larger than every id handed out before (also across
    /// restarts), so that game ids sort by creation.
    pub fn new_game_id(&self) -> Result<u64, StoreError> {
        Ok(self.trees.db.generate_id()?)
    }

    /// Bytes sled's files take on disk.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        Ok(self.trees.db.size_on_disk()?)
    }
}
