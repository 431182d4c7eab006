//! Games that survive restarts: every game, challenge and player record lives in sled 0.34,
//! behind this repository API. Nothing outside this module touches sled.
//!
//! Trees (keys are big-endian ids, so sled's byte order is the ids' order):
//! - `games`: channel id → [`GameRecord`], the channel's active game.
//! - `challenges`: channel id → [`Challenge`], at most one open challenge per channel.
//! - `archive`: game id → finished [`GameRecord`] (its PDN is produced on read).
//! - `by_player`: user id ++ game id → (), `by_channel`: channel id ++ game id → ().
//! - `pairs`: smaller user id ++ larger user id → last game id between them (raw u64).
//! - `players`: user id → [`PlayerRecord`].
//! - `boards`: guild ++ variant ++ board ++ !sort key ++ user → [`LeaderboardEntry`] data,
//!   so a prefix scan reads a leaderboard best first; `board_members`: guild ++ variant ++
//!   board ++ user → that user's current sort key, to find and move their line.
//!
//! Values are one format-version byte and postcard. A value that does not decode is
//! reported ([`StoreError::Corrupt`], [`StoreError::UnknownVersion`]) and never written over.
//!
//! Every write is durable before its `async fn` returns: only then may the caller acknowledge
//! a move. sled's flush writes its log with `sync_file_range` on Linux, which survives
//! a crash of the process but not a power cut (it flushes neither the disk's write cache nor
//! the file's size: spacejam/sled#1452). So by default the store also `fdatasync`s sled's log
//! file after each flush; [`Durability::Flush`] skips that.

mod cancel;
mod codec;
mod error;
pub mod records;
pub mod scoring;

pub use codec::FORMAT_VERSION;
pub use error::{Invalid, StoreError};
pub use records::{
    level_index, BotRecord, Challenge, FinishSummary, GameRecord, GameResult, LeaderboardEntry,
    PlayerRecord, Rating, Seat, SeatSummary, StoredMove, Tally, UserRef, VariantRecord, BOT_LEVELS,
};
pub use scoring::{rate, score};

use crate::engine::{Color, Game, Outcome, Variant, WinReason};
use codec::{decode, decode_u64, encode, id_key, key_text, pair_key, second_id};
use serde::{Deserialize, Serialize};
use sled::transaction::{
    ConflictableTransactionError, ConflictableTransactionResult, TransactionError,
    TransactionalTree,
};
use sled::Transactional;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const TREE_GAMES: &str = "games";
pub const TREE_CHALLENGES: &str = "challenges";
pub const TREE_ARCHIVE: &str = "archive";
pub const TREE_BY_PLAYER: &str = "by_player";
pub const TREE_BY_CHANNEL: &str = "by_channel";
pub const TREE_PAIRS: &str = "pairs";
pub const TREE_PLAYERS: &str = "players";
pub const TREE_BOARDS: &str = "boards";
pub const TREE_BOARD_MEMBERS: &str = "board_members";

/// A game with no move for this long no longer holds its channel.
pub const STALE_AFTER_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// The environment variable naming the database folder.
pub const DB_ENV: &str = "DAMAS_DB";
/// Used when [`DB_ENV`] is not set.
pub const DEFAULT_DB_PATH: &str = "./data/damas.db";

/// The file inside sled's folder that holds its log.
const SLED_LOG_FILE: &str = "db";

/// sled's page cache ceiling; the bot's working set is a few records per active channel.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Where the database lives: `$DAMAS_DB`, or `./data/damas.db`.
pub fn default_path() -> PathBuf {
    std::env::var_os(DB_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(DEFAULT_DB_PATH), PathBuf::from)
}

/// The board a leaderboard line belongs to: 0 for games between people, 1 + level index
/// for games against the computer.
fn board_kind(level: Option<usize>) -> u8 {
    level.map_or(0, |l| l as u8 + 1)
}

fn board_prefix(guild: u64, variant: Variant, kind: u8) -> Vec<u8> {
    let mut k = Vec::with_capacity(26);
    k.extend_from_slice(&guild.to_be_bytes());
    k.push(records::variant_index(variant) as u8);
    k.push(kind);
    k
}

fn member_key(guild: u64, variant: Variant, kind: u8, user: u64) -> Vec<u8> {
    let mut k = board_prefix(guild, variant, kind);
    k.extend_from_slice(&user.to_be_bytes());
    k
}

/// Higher sort keys first: the key stores the complement.
fn board_key(guild: u64, variant: Variant, kind: u8, sort: u64, user: u64) -> Vec<u8> {
    let mut k = board_prefix(guild, variant, kind);
    k.extend_from_slice(&(!sort).to_be_bytes());
    k.extend_from_slice(&user.to_be_bytes());
    k
}

/// The data of a leaderboard line as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct BoardLine {
    name: String,
    score: u32,
    games: u32,
}

/// A rating as a sort key: hundredths, never negative.
fn rating_sort(r: &Rating) -> u64 {
    (r.rating.max(0.0) * 100.0).round() as u64
}

struct Trees {
    db: sled::Db,
    /// sled's log file, to `fdatasync` after a flush ([`Durability::Fsync`]).
    log_file: Option<Arc<std::fs::File>>,
    games: sled::Tree,
    challenges: sled::Tree,
    archive: sled::Tree,
    by_player: sled::Tree,
    by_channel: sled::Tree,
    pairs: sled::Tree,
    players: sled::Tree,
    boards: sled::Tree,
    board_members: sled::Tree,
}

/// How far a write has gone when the store returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// sled's flush: the write survives the process being killed, not a power cut.
    Flush,
    /// sled's flush, then `fdatasync` of its log: the write survives a power cut too.
    #[default]
    Fsync,
}

/// The bot's storage. Cheap to clone (one `Arc`); share one across tasks.
#[derive(Clone)]
pub struct Store {
    trees: Arc<Trees>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").finish_non_exhaustive()
    }
}

/// The transactional views used to end a game, in the order of [`Store::finishing_trees`].
type FinishViews = (
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
    TransactionalTree,
);

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

/// Bytes a finished game takes in the store (sled's own per-entry overhead aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchivedSize {
    /// The archived record: format byte and postcard.
    pub record: usize,
    /// Keys and values of its index entries (archive key, by channel, by player, pair).
    pub index: usize,
}

impl ArchivedSize {
    pub fn total(&self) -> usize {
        self.record + self.index
    }
}

pub fn archived_size(rec: &GameRecord) -> Result<ArchivedSize, StoreError> {
    let record = encode("game", rec)?.len();
    let humans = rec.players.iter().filter_map(Seat::user_id).count();
    let archive_key = 8;
    let by_channel = 16;
    let by_player = 16 * humans;
    let pair = if humans == 2 { 16 + 8 } else { 0 };
    Ok(ArchivedSize {
        record,
        index: archive_key + by_channel + by_player + pair,
    })
}

/// Refuses records the store will not write: unknown computer levels, and moves that do not
/// replay (so that nothing stored is ever unreadable by the engine).
fn validate(rec: &GameRecord) -> Result<Game, StoreError> {
    for seat in &rec.players {
        if let Seat::Bot { level } = seat {
            if level_index(level).is_none() {
                return Err(Invalid::UnknownLevel(level.clone()).into());
            }
        }
    }
    rec.to_game()
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
            challenges: tree(TREE_CHALLENGES)?,
            archive: tree(TREE_ARCHIVE)?,
            by_player: tree(TREE_BY_PLAYER)?,
            by_channel: tree(TREE_BY_CHANNEL)?,
            pairs: tree(TREE_PAIRS)?,
            players: tree(TREE_PLAYERS)?,
            boards: tree(TREE_BOARDS)?,
            board_members: tree(TREE_BOARD_MEMBERS)?,
            log_file: match durability {
                Durability::Flush => None,
                // sled 0.34 keeps its whole log in this one file (values this small never go
                // to its separate blob files).
                Durability::Fsync => Some(Arc::new(
                    std::fs::File::open(path.join(SLED_LOG_FILE))
                        .map_err(|source| StoreError::Sync { source })?,
                )),
            },
            db,
        };
        Ok(Store {
            trees: Arc::new(trees),
        })
    }

    /// A fresh game id, unique and larger than every id handed out before (also across
    /// restarts), so that game ids sort by creation.
    pub fn new_game_id(&self) -> Result<u64, StoreError> {
        Ok(self.trees.db.generate_id()?)
    }

    /// Makes every write so far durable.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.durable().await
    }

    /// Waits until every write so far survives a crash (see [`Durability`]).
    ///
    /// Not sled's `flush_async`: in 0.34 concurrent calls deadlock (spacejam/sled#1308) —
    /// they wait on sled's own thread pool, which must also run the log writes they wait
    /// for. A blocking `flush` on tokio's blocking threads leaves sled's pool free.
    async fn durable(&self) -> Result<(), StoreError> {
        let trees = Arc::clone(&self.trees);
        let work = move || -> Result<(), StoreError> {
            trees.db.flush()?;
            if let Some(log) = &trees.log_file {
                log.sync_data()
                    .map_err(|source| StoreError::Sync { source })?;
            }
            Ok(())
        };
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt.spawn_blocking(work).await.unwrap_or_else(|e| {
                Err(StoreError::Sync {
                    source: std::io::Error::other(format!("flush task failed: {e}")),
                })
            }),
            Err(_) => work(),
        }
    }

    /// Bytes sled's files take on disk.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        Ok(self.trees.db.size_on_disk()?)
    }

    // ---- active games ----

    pub fn active_game(&self, channel_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = id_key(channel_id);
        self.trees
            .games
            .get(key)?
            .map(|v| decode(TREE_GAMES, &key, &v))
            .transpose()
    }

    /// Every active game (to resume the computer's turns after a restart, or to sweep old
    /// games). A record that does not decode is listed as its error.
    pub fn active_games(&self) -> Result<Vec<Result<GameRecord, StoreError>>, StoreError> {
        let mut out = Vec::new();
        for item in self.trees.games.iter() {
            let (k, v) = item?;
            out.push(decode(TREE_GAMES, &k, &v));
        }
        Ok(out)
    }

    /// Starts `rec` in its channel.
    ///
    /// Refused with [`StoreError::ChannelBusy`] while the channel has an active game — unless
    /// that game has had no move for [`STALE_AFTER_MS`] (7 days) at `now_ms`: then it ends as
    /// abandoned, is archived and counted, and `rec` starts. Its summary is returned. Who
    /// abandoned: against the computer, always the human (the computer never walks away, and
    /// a crashed computer turn must not hand out a high-scoring win); between people, the
    /// side to move, whose turn it was for those 7 days.
    pub async fn create_game(
        &self,
        rec: GameRecord,
        now_ms: u64,
    ) -> Result<Option<FinishSummary>, StoreError> {
        if rec.outcome.is_some() {
            return Err(Invalid::AlreadyOver.into());
        }
        validate(&rec)?;
        let rec = GameRecord { revision: 0, ..rec };
        let new_bytes = encode("game", &rec)?;
        let key = id_key(rec.channel_id);
        let summary = self
            .finishing_trees()
            .transaction(|views: &FinishViews| {
                let games = &views.0;
                if views.1.get(id_key(rec.id))?.is_some() {
                    return abort(Invalid::DuplicateId(rec.id).into());
                }
                let stale = match games.get(key)? {
                    None => None,
                    Some(bytes) => {
                        let old: GameRecord = match decode(TREE_GAMES, &key, &bytes) {
                            Ok(old) => old,
                            Err(e) => return abort(e),
                        };
                        if now_ms.saturating_sub(old.last_move_at_ms) < STALE_AFTER_MS {
                            return abort(StoreError::ChannelBusy {
                                game: Box::new(old),
                            });
                        }
                        Some(old)
                    }
                };
                let summary = match stale {
                    None => None,
                    Some(old) => {
                        let (finished, game) = match abandon_stale(old) {
                            Ok(x) => x,
                            Err(e) => return abort(e),
                        };
                        Some(finish_in(views, &finished, &game)?)
                    }
                };
                games.insert(&key[..], new_bytes.clone())?;
                Ok(summary)
            })
            .map_err(tx_error)?;
        self.durable().await?;
        Ok(summary)
    }

    /// Writes the next state of a channel's game: a move, an undo, a draw offer, the board's
    /// message id.
    ///
    /// Compare-and-swap: the stored game must be the same game (`id`), at `expected_ply`,
    /// and at the `revision` `new` was read at; otherwise [`StoreError::Conflict`] ("the
    /// position changed") and nothing is written. Durable before it returns. Returns the new
    /// revision: put it in your copy if you write again from it.
    ///
    /// A game that has ended goes through [`Store::finish_game`] instead.
    pub async fn update_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
        new: &GameRecord,
    ) -> Result<u64, StoreError> {
        if new.channel_id != channel_id {
            return Err(Invalid::WrongChannel {
                asked: channel_id,
                record: new.channel_id,
            }
            .into());
        }
        if new.outcome.is_some() {
            return Err(Invalid::AlreadyOver.into());
        }
        validate(new)?;
        let key = id_key(channel_id);
        let conflict = |found_ply| StoreError::Conflict {
            channel_id,
            expected_ply,
            found_ply,
        };
        let Some(old_bytes) = self.trees.games.get(key)? else {
            return Err(conflict(None));
        };
        let old: GameRecord = decode(TREE_GAMES, &key, &old_bytes)?;
        if old.id != new.id || old.ply() != expected_ply || old.revision != new.revision {
            return Err(conflict(Some(old.ply())));
        }
        let revision = old.revision + 1;
        let to_write = GameRecord {
            revision,
            ..new.clone()
        };
        let new_bytes = encode("game", &to_write)?;
        if let Err(e) = self
            .trees
            .games
            .compare_and_swap(key, Some(old_bytes), Some(new_bytes))?
        {
            let found = match e.current {
                Some(b) => decode::<GameRecord>(TREE_GAMES, &key, &b)
                    .ok()
                    .map(|g| g.ply()),
                None => None,
            };
            return Err(conflict(found));
        }
        self.durable().await?;
        Ok(revision)
    }

    /// Ends a channel's game: removes the active record (compare-and-swap as in
    /// [`Store::update_game`]: same game, `expected_ply` and revision), archives `finished`,
    /// and updates both players' records, ratings and leaderboards — all in one sled
    /// transaction, durable before it returns.
    ///
    /// `finished.outcome` must be set; moves may extend the stored ones (the move that ended
    /// the game). Player or leaderboard records that do not decode are left alone and listed
    /// in [`FinishSummary::skipped`]; the game still ends.
    pub async fn finish_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
        finished: &GameRecord,
    ) -> Result<FinishSummary, StoreError> {
        if finished.channel_id != channel_id {
            return Err(Invalid::WrongChannel {
                asked: channel_id,
                record: finished.channel_id,
            }
            .into());
        }
        if finished.outcome.is_none() {
            return Err(Invalid::NotFinished.into());
        }
        let game = validate(finished)?;
        let key = id_key(channel_id);
        let summary = self
            .finishing_trees()
            .transaction(|views: &FinishViews| {
                let conflict = |found_ply| StoreError::Conflict {
                    channel_id,
                    expected_ply,
                    found_ply,
                };
                let Some(bytes) = views.0.get(key)? else {
                    return abort(conflict(None));
                };
                let old: GameRecord = match decode(TREE_GAMES, &key, &bytes) {
                    Ok(old) => old,
                    Err(e) => return abort(e),
                };
                if old.id != finished.id
                    || old.ply() != expected_ply
                    || old.revision != finished.revision
                {
                    return abort(conflict(Some(old.ply())));
                }
                let rec = GameRecord {
                    revision: old.revision + 1,
                    ..finished.clone()
                };
                finish_in(views, &rec, &game)
            })
            .map_err(tx_error)?;
        self.durable().await?;
        Ok(summary)
    }

    /// The trees a game's end writes, in the order of [`FinishViews`].
    fn finishing_trees(
        &self,
    ) -> (
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
        &sled::Tree,
    ) {
        let t = &self.trees;
        (
            &t.games,
            &t.archive,
            &t.by_player,
            &t.by_channel,
            &t.pairs,
            &t.players,
            &t.boards,
            &t.board_members,
        )
    }

    // ---- finished games ----

    pub fn archived_game(&self, game_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = id_key(game_id);
        self.trees
            .archive
            .get(key)?
            .map(|v| decode(TREE_ARCHIVE, &key, &v))
            .transpose()
    }

    /// The PDN of an archived game, with the players' names as tags.
    pub fn archived_pdn(&self, game_id: u64) -> Result<Option<String>, StoreError> {
        let Some(rec) = self.archived_game(game_id)? else {
            return Ok(None);
        };
        let game = rec.to_game()?;
        let name = |c: Color| match rec.seat(c) {
            Seat::Human { name, .. } => name.clone(),
            Seat::Bot { level } => format!("damas ({level})"),
        };
        let tags = crate::engine::PdnTags {
            site: Some("Discord".to_string()),
            date: Some(pdn_date(rec.created_at_ms)),
            white: Some(name(Color::White)),
            black: Some(name(Color::Black)),
            ..Default::default()
        };
        Ok(Some(crate::engine::export_pdn(&game, &tags)))
    }

    /// A user's finished games, newest first.
    pub fn games_of_player(
        &self,
        user_id: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.indexed_games(&self.trees.by_player, TREE_BY_PLAYER, user_id, limit)
    }

    /// A channel's finished games, newest first.
    pub fn games_in_channel(
        &self,
        channel_id: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.indexed_games(&self.trees.by_channel, TREE_BY_CHANNEL, channel_id, limit)
    }

    fn indexed_games(
        &self,
        index: &sled::Tree,
        index_name: &'static str,
        owner: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::new();
        for item in index.scan_prefix(id_key(owner)).rev().take(limit) {
            let (k, _) = item?;
            let game_id = second_id(&k).ok_or_else(|| StoreError::Corrupt {
                tree: index_name,
                key: key_text(&k),
                reason: "index key is not two ids".to_string(),
            })?;
            if let Some(rec) = self.archived_game(game_id)? {
                out.push(rec);
            }
        }
        Ok(out)
    }

    /// The last finished game between two people (for a rematch's colours).
    pub fn last_game_between(&self, a: u64, b: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = pair_key(a.min(b), a.max(b));
        match self.trees.pairs.get(key)? {
            None => Ok(None),
            Some(v) => self.archived_game(decode_u64(TREE_PAIRS, &key, &v)?),
        }
    }

    // ---- players and leaderboards ----

    pub fn player(&self, user_id: u64) -> Result<Option<PlayerRecord>, StoreError> {
        let key = id_key(user_id);
        self.trees
            .players
            .get(key)?
            .map(|v| decode(TREE_PLAYERS, &key, &v))
            .transpose()
    }

    /// A guild's leaderboard for `variant`, best first: by Glicko-2 rating between people
    /// (`level: None`; members are those who finished a game against a person in this guild),
    /// or by best ranked score against the computer at `level` in this guild.
    pub fn leaderboard(
        &self,
        guild_id: u64,
        variant: Variant,
        level: Option<&str>,
        limit: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let level = match level {
            None => None,
            Some(l) => Some(level_index(l).ok_or_else(|| Invalid::UnknownLevel(l.to_string()))?),
        };
        let prefix = board_prefix(guild_id, variant, board_kind(level));
        let mut out = Vec::new();
        for item in self.trees.boards.scan_prefix(&prefix).take(limit) {
            let (k, v) = item?;
            let line: BoardLine = decode(TREE_BOARDS, &k, &v)?;
            let user_id = k
                .get(prefix.len() + 8..)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| StoreError::Corrupt {
                    tree: TREE_BOARDS,
                    key: key_text(&k),
                    reason: "key is not guild, variant, board, score, user".to_string(),
                })?;
            out.push(LeaderboardEntry {
                user_id,
                name: line.name,
                score: line.score,
                games: line.games,
            });
        }
        Ok(out)
    }

    // ---- challenges ----

    /// Opens a challenge in a channel. One open challenge per channel, keyed by the channel
    /// alone: a channel shows one board and one challenge message at a time. A newer
    /// challenge replaces one that has expired (at `c.created_at_ms`) or that the same
    /// challenger made; otherwise [`StoreError::ChallengeExists`].
    pub async fn put_challenge(&self, channel_id: u64, c: &Challenge) -> Result<(), StoreError> {
        let key = id_key(channel_id);
        let new_bytes = encode("challenge", c)?;
        loop {
            let old = self.trees.challenges.get(key)?;
            if let Some(bytes) = &old {
                let existing: Challenge = decode(TREE_CHALLENGES, &key, bytes)?;
                if !existing.is_expired(c.created_at_ms)
                    && existing.challenger.user_id != c.challenger.user_id
                {
                    return Err(StoreError::ChallengeExists {
                        challenge: Box::new(existing),
                    });
                }
            }
            let swapped =
                self.trees
                    .challenges
                    .compare_and_swap(key, old, Some(new_bytes.clone()))?;
            if swapped.is_ok() {
                break;
            }
        }
        self.durable().await?;
        Ok(())
    }

    /// Removes the channel's challenge if `take` accepts it, and returns it. Atomic: of two
    /// concurrent calls (two Accept clicks) at most one gets the challenge. `take` sees the
    /// challenge as stored now: check there who may accept or cancel it and whether it
    /// has expired.
    pub async fn take_challenge(
        &self,
        channel_id: u64,
        take: impl Fn(&Challenge) -> bool,
    ) -> Result<Option<Challenge>, StoreError> {
        let key = id_key(channel_id);
        let taken = loop {
            let Some(bytes) = self.trees.challenges.get(key)? else {
                return Ok(None);
            };
            let c: Challenge = decode(TREE_CHALLENGES, &key, &bytes)?;
            if !take(&c) {
                return Ok(None);
            }
            let swapped = self.trees.challenges.compare_and_swap(
                key,
                Some(bytes),
                None as Option<sled::IVec>,
            )?;
            if swapped.is_ok() {
                break c;
            }
        };
        self.durable().await?;
        Ok(Some(taken))
    }

    pub fn challenge(&self, channel_id: u64) -> Result<Option<Challenge>, StoreError> {
        let key = id_key(channel_id);
        self.trees
            .challenges
            .get(key)?
            .map(|v| decode(TREE_CHALLENGES, &key, &v))
            .transpose()
    }

    /// Every open challenge with its channel (to expire old ones).
    pub fn open_challenges(&self) -> Result<Vec<(u64, Challenge)>, StoreError> {
        let mut out = Vec::new();
        for item in self.trees.challenges.iter() {
            let (k, v) = item?;
            let channel = decode_u64(TREE_CHALLENGES, &k, &k)?;
            out.push((channel, decode(TREE_CHALLENGES, &k, &v)?));
        }
        Ok(out)
    }
}

/// A PDN date (`YYYY.MM.DD`, UTC) from milliseconds since the Unix epoch.
fn pdn_date(ms: u64) -> String {
    // Days to a civil date: Howard Hinnant's algorithm (proleptic Gregorian calendar).
    let days = (ms / 86_400_000) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Ends a stale game as abandoned (see [`Store::create_game`] for who loses).
fn abandon_stale(mut old: GameRecord) -> Result<(GameRecord, Game), StoreError> {
    let mut game = old.to_game()?;
    if game.outcome().is_none() {
        let loser = scoring::human_against_bot(&old).unwrap_or_else(|| game.side_to_move());
        old.outcome = Some(Outcome::Win {
            winner: loser.opposite(),
            reason: WinReason::Abandoned,
        });
        game.set_outcome(old.outcome);
    }
    old.revision += 1;
    Ok((old, game))
}

/// Inside a transaction: removes the active record, archives `rec`, writes the indexes and
/// settles the players and leaderboards.
fn finish_in(views: &FinishViews, rec: &GameRecord, game: &Game) -> TxResult<FinishSummary> {
    let (games, archive, by_player, by_channel, pairs, players, boards, members) = views;
    let Some(outcome) = rec.outcome else {
        return abort(Invalid::NotFinished.into());
    };
    let game_key = id_key(rec.id);
    if archive.get(game_key)?.is_some() {
        return abort(Invalid::DuplicateId(rec.id).into());
    }
    let archived = match encode("game", rec) {
        Ok(b) => b,
        Err(e) => return abort(e),
    };
    games.remove(&id_key(rec.channel_id)[..])?;
    archive.insert(&game_key[..], archived)?;
    by_channel.insert(&pair_key(rec.channel_id, rec.id)[..], &[][..])?;

    let humans: Vec<u64> = rec.players.iter().filter_map(Seat::user_id).collect();
    for user in &humans {
        by_player.insert(&pair_key(*user, rec.id)[..], &[][..])?;
    }
    if let [a, b] = humans[..] {
        if a != b {
            pairs.insert(&pair_key(a.min(b), a.max(b))[..], &id_key(rec.id)[..])?;
        }
    }

    let mut skipped = Vec::new();
    let mut records: [Option<PlayerRecord>; 2] = [None, None];
    for (i, seat) in rec.players.iter().enumerate() {
        if let Seat::Human { user_id, name } = seat {
            let key = id_key(*user_id);
            records[i] = match players.get(key)? {
                None => Some(PlayerRecord::new(*user_id, name.clone())),
                Some(bytes) => match decode(TREE_PLAYERS, &key, &bytes) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        skipped.push(e);
                        None
                    }
                },
            };
        }
    }
    // Someone playing both sides has one record, not two.
    if rec.players[0].user_id().is_some() && rec.players[0].user_id() == rec.players[1].user_id() {
        records[1] = None;
    }
    let seats = scoring::settle(rec, game, outcome, &mut records);
    for (record, seat) in records.iter_mut().zip(&seats) {
        let Some(p) = record else { continue };
        if let Some(seat) = seat {
            refresh_boards(boards, members, p, rec, seat, &mut skipped)?;
        }
        let bytes = match encode("player", &*p) {
            Ok(b) => b,
            Err(e) => return abort(e),
        };
        players.insert(&id_key(p.user_id)[..], bytes)?;
    }
    Ok(FinishSummary {
        game_id: rec.id,
        outcome,
        seats,
        skipped,
    })
}

/// Moves a player's lines on every leaderboard the game changed: their rating line (people)
/// or their line for the computer's level, in every guild where they have one, and adds
/// them to this guild's board when the game earns a place.
fn refresh_boards(
    boards: &TransactionalTree,
    members: &TransactionalTree,
    p: &mut PlayerRecord,
    rec: &GameRecord,
    seat: &SeatSummary,
    skipped: &mut Vec<StoreError>,
) -> TxResult<()> {
    let variant = rec.variant;
    let here = rec.guild_id;
    // What the line would say: (kind, games, the score this game earns here if it does).
    let (kind, games, earned) = match (&seat.rating, seat.score) {
        (Some((_, after)), _) => (
            board_kind(None),
            p.variant(variant).people.games(),
            Some((after.rating.max(0.0).round() as u32, rating_sort(after))),
        ),
        (None, Some(points)) => {
            let level =
                scoring::human_against_bot(rec).and_then(|h| match rec.seat(h.opposite()) {
                    Seat::Bot { level } => level_index(level),
                    Seat::Human { .. } => None,
                });
            let Some(level) = level else { return Ok(()) };
            let games = p.variant(variant).bots[level].tally.games();
            (
                board_kind(Some(level)),
                games,
                seat.ranked.then_some((points, u64::from(points))),
            )
        }
        (None, None) => return Ok(()),
    };
    let is_rating = kind == 0;
    let mut guilds = p.guilds.clone();
    if let Some(g) = here {
        if !guilds.contains(&g) {
            guilds.push(g);
        }
    }
    for g in guilds {
        let mkey = member_key(g, variant, kind, p.user_id);
        let current = match members.get(&mkey)? {
            None => None,
            Some(v) => match decode_u64(TREE_BOARD_MEMBERS, &mkey, &v) {
                Ok(sort) => {
                    let bkey = board_key(g, variant, kind, sort, p.user_id);
                    match boards.get(&bkey)? {
                        Some(lv) => match decode::<BoardLine>(TREE_BOARDS, &bkey, &lv) {
                            Ok(line) => Some((sort, bkey, line)),
                            Err(e) => {
                                skipped.push(e);
                                continue;
                            }
                        },
                        // The line is missing: write it again below.
                        None => Some((
                            sort,
                            bkey,
                            BoardLine {
                                name: p.name.clone(),
                                score: 0,
                                games,
                            },
                        )),
                    }
                }
                Err(e) => {
                    skipped.push(e);
                    continue;
                }
            },
        };
        let earned_here = if Some(g) == here { earned } else { None };
        let (score, sort) = match (&current, earned_here) {
            // A rating replaces the old one; a score only beats it.
            (Some((sort, _, line)), Some((s, k))) => {
                if is_rating || k > *sort {
                    (s, k)
                } else {
                    (line.score, *sort)
                }
            }
            (Some((sort, _, line)), None) => {
                if is_rating {
                    // The rating is global: every guild's line shows the new one.
                    earned.unwrap_or((line.score, *sort))
                } else {
                    (line.score, *sort)
                }
            }
            (None, Some(sk)) => sk,
            (None, None) => continue,
        };
        if let Some((_, old_key, _)) = &current {
            boards.remove(&old_key[..])?;
        }
        let line = BoardLine {
            name: p.name.clone(),
            score,
            games,
        };
        let bytes = match encode("leaderboard line", &line) {
            Ok(b) => b,
            Err(e) => return abort(e),
        };
        boards.insert(board_key(g, variant, kind, sort, p.user_id), bytes)?;
        members.insert(mkey, &sort.to_be_bytes()[..])?;
        if !p.guilds.contains(&g) {
            p.guilds.push(g);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_dates_are_utc_calendar_days() {
        assert_eq!(pdn_date(0), "1970.01.01");
        // 2024-02-29T23:59:59.999Z and the next millisecond.
        assert_eq!(pdn_date(1_709_251_199_999), "2024.02.29");
        assert_eq!(pdn_date(1_709_251_200_000), "2024.03.01");
        assert_eq!(pdn_date(1_767_225_600_000), "2026.01.01");
    }

    #[test]
    fn leaderboard_keys_put_the_best_first() {
        let low = board_key(1, Variant::Spanish, 0, 150_000, 9);
        let high = board_key(1, Variant::Spanish, 0, 160_000, 9);
        assert!(high < low);
        // Same score: lower user id first; other boards never interleave.
        assert!(board_key(1, Variant::Spanish, 0, 5, 1) < board_key(1, Variant::Spanish, 0, 5, 2));
        assert!(
            !board_key(1, Variant::Spanish, 1, u64::MAX, 1).starts_with(&board_prefix(
                1,
                Variant::Spanish,
                0
            ))
        );
    }
}
