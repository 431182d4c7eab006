//! What can go wrong in the store, with the data a message needs.

use super::records::{Challenge, GameRecord};
use crate::engine::Outcome;

/// An error and its causes, `outer: inner: innermost` (tokio-postgres says only "db error" or
/// "error performing TLS handshake" itself; what went wrong is in its source).
pub(crate) fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sled::Error),

    #[error("PostgreSQL error: {}", with_causes(.0))]
    Postgres(#[from] tokio_postgres::Error),

    /// No connection to PostgreSQL could be had (or the driver stopped): nothing was written.
    #[error("could not reach PostgreSQL: {0}")]
    Pool(String),

    /// PostgreSQL did not answer in time (a read, or a statement of a transaction before its
    /// `COMMIT`): nothing was written, and the connection was closed.
    #[error("PostgreSQL did not answer {what} within {after:?}; nothing was written")]
    Timeout {
        what: &'static str,
        after: std::time::Duration,
    },

    /// A URL of a kind damas has no driver for (`mysql://…`, `sqlite://…`): refused rather
    /// than taken for the name of a folder. `db` is as [`super::printable`] writes it.
    #[error("{db} is not a database damas can open: {}", super::DB_KINDS)]
    UnsupportedDatabase { db: String },

    #[error("DAMAS_DB is not a usable PostgreSQL URL (postgres://user:password@host:port/database): {reason}")]
    BadDatabaseUrl { reason: String },

    #[error("could not start the database driver's threads: {source}")]
    Runtime { source: std::io::Error },

    #[error("the database has schema version {applied}, newer than this bot's {known}: run a newer damas")]
    SchemaTooNew { applied: i32, known: i32 },

    /// A tree named in the code has no table: its migration is missing.
    #[error("the database has no table for tree {0}: add a migration that creates it")]
    MissingTable(&'static str),

    /// A transaction touched a tree it did not name (a bug in the store).
    #[error("tree {0} is not part of this transaction")]
    TreeNotInTransaction(&'static str),

    /// The connection broke while PostgreSQL was committing a write: it may or may not have
    /// landed. The store's fatal hook has run (by default it ends the process), as after a
    /// failed sync.
    #[error(
        "the database connection failed during a write, which may or may not have landed: {reason}"
    )]
    OutcomeUnknown { reason: String },

    #[error("could not create the database folder {path}: {source}")]
    CreateDir {
        path: std::path::PathBuf,
        source: std::io::Error,
    },

    /// A flush or sync failed after a write: the write may or may not have landed. The
    /// store's fatal hook has run (by default it ends the process).
    #[error("could not sync the database to disk: {source}")]
    Sync { source: std::io::Error },

    #[error("could not encode a {what} record: {reason}")]
    Encode { what: &'static str, reason: String },

    /// A stored value that does not decode. It is left as it is, and writes over it are
    /// refused, so that nothing that might be recovered is lost.
    #[error("corrupt record in {tree} at key {key}: {reason}")]
    Corrupt {
        tree: &'static str,
        key: String,
        reason: String,
    },

    /// A value written by a newer (or unknown) version of the bot; left as it is.
    #[error("record in {tree} at key {key} has unknown format version {version}")]
    UnknownVersion {
        tree: &'static str,
        key: String,
        version: u8,
    },

    /// The channel already has a game going.
    #[error("channel already has an active game ({})", game.id)]
    ChannelBusy { game: Box<GameRecord> },

    /// The game changed since it was read: the write was refused and nothing was written.
    #[error("the position changed: expected ply {expected_ply}, found {found_ply:?}")]
    Conflict {
        channel_id: u64,
        expected_ply: usize,
        /// The ply stored now; `None` when the channel has no game any more.
        found_ply: Option<usize>,
    },

    /// The tournament changed since it was read (or, creating one, its id was taken): the
    /// write was refused and nothing was written.
    #[error("tournament {tournament_id} changed: expected version {expected_version:?}")]
    TournamentConflict {
        tournament_id: u64,
        /// The version the write was built on; `None` for a creation.
        expected_version: Option<u64>,
    },

    /// A person asked for one more game against the bot than the cap allows.
    #[error("user {user_id} already has {limit} games against the bot under way")]
    TooManyBotGames { user_id: u64, limit: usize },

    /// `/forget-me` while the person plays a game: nothing was erased.
    #[error("user {user_id} is playing a game")]
    PlayingNow { user_id: u64 },

    /// The records a multi-step operation plans from kept changing while it ran: it gave up
    /// with nothing written.
    #[error("{what} kept changing; nothing was written")]
    KeptChanging { what: &'static str },

    #[error("the channel already has an open challenge")]
    ChallengeExists { challenge: Box<Challenge> },

    #[error("game {game_id}: move {ply} ({stored}) does not replay: {reason}")]
    Replay {
        game_id: u64,
        ply: usize,
        stored: String,
        reason: String,
    },

    #[error("game {game_id}: bad start position {fen:?}: {reason}")]
    BadStart {
        game_id: u64,
        fen: String,
        reason: String,
    },

    #[error("game {game_id}: stored outcome {stored:?} but the moves give {played:?}")]
    OutcomeMismatch {
        game_id: u64,
        stored: Option<Outcome>,
        played: Option<Outcome>,
    },

    /// A record the caller handed in that the store will not write.
    #[error("invalid record: {0}")]
    Invalid(#[from] Invalid),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("the record is for channel {record}, not {asked}")]
    WrongChannel { asked: u64, record: u64 },
    #[error("a finished game must have an outcome")]
    NotFinished,
    #[error("the game is over: end it with finish_game")]
    AlreadyOver,
    #[error("a deleted player cannot sit in a game being played")]
    DeletedSeat,
    #[error("game id {0} is already archived")]
    DuplicateId(u64),
}
