//! Puzzle solvers: each person's puzzle rating, streak and the puzzle they are solving now.
//! How an attempt changes them is the app's (`app::scoring::record_puzzle_attempt`); the
//! store keeps the records and changes them in one transaction.
//!
//! Kept per user in trees of their own, apart from the channels' games, so a private puzzle
//! never touches the game going on in the channel where it was asked for:
//! - `puzzle_players`: user id → [`PuzzlePlayer`];
//! - `puzzle_members`: guild ++ user id → (), who has solved puzzles in a server, for its
//!   puzzle leaderboard.

use super::codec::{decode, encode, id_key, pair_key, second_id, Record};
use super::kv::{abort, Scan, TxResult};
use super::records::Rating;
use super::{Store, StoreError};
use crate::engine::Variant;
use serde::{Deserialize, Serialize};

pub const TREE_PUZZLE_PLAYERS: &str = "puzzle_players";
pub const TREE_PUZZLE_MEMBERS: &str = "puzzle_members";

/// The puzzle someone is solving.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleSession {
    pub variant: Variant,
    /// The puzzle's id in its variant's set.
    pub puzzle_id: u32,
    /// Moves of the solution line played so far (the solver's and the defence's).
    pub ply: u32,
    /// A wrong move was tried: the attempt already counted as a failure.
    pub missed: bool,
    /// The server it was asked for in (0 in direct messages).
    pub guild_id: u64,
}

/// A person's puzzle record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzlePlayer {
    pub name: String,
    pub rating: Rating,
    /// Puzzles solved in a row without a wrong move.
    pub streak: u32,
    pub best_streak: u32,
    pub solved: u32,
    pub failed: u32,
    pub session: Option<PuzzleSession>,
}

impl Record for PuzzlePlayer {}

impl PuzzlePlayer {
    pub fn new(name: &str) -> PuzzlePlayer {
        PuzzlePlayer {
            name: name.to_string(),
            rating: Rating::default(),
            streak: 0,
            best_streak: 0,
            solved: 0,
            failed: 0,
            session: None,
        }
    }
}

/// A puzzle record as changed, with what the change returns beside it, and the bytes stored.
type Changed<T> = ((PuzzlePlayer, T), Vec<u8>);

impl Store {
    pub fn puzzle_player(&self, user_id: u64) -> Result<Option<PuzzlePlayer>, StoreError> {
        let key = id_key(user_id);
        let read = self.read(TREE_PUZZLE_PLAYERS, &key)?;
        // An empty value remembers that there is no record.
        self.seen.put(
            TREE_PUZZLE_PLAYERS,
            user_id,
            read.as_deref().unwrap_or_default(),
        );
        read.map(|v| decode(TREE_PUZZLE_PLAYERS, &key, &v))
            .transpose()
    }

    /// A person's puzzle record as this process last read or wrote it, without a read of the
    /// store when it remembers one; `true` beside it when it came from memory.
    ///
    /// Another process may have changed the record since: only for a use case that tries
    /// again with [`Store::puzzle_player`] whatever it refuses on this copy (`/move`, which
    /// asks whether its player is solving a puzzle). On PostgreSQL a read fewer for every
    /// `/move` of a person this process has seen.
    pub fn puzzle_player_remembered(
        &self,
        user_id: u64,
    ) -> Result<(Option<PuzzlePlayer>, bool), StoreError> {
        if let Some(bytes) = self.seen.get(TREE_PUZZLE_PLAYERS, user_id) {
            if bytes.is_empty() {
                return Ok((None, true));
            }
            if let Ok(player) = decode(TREE_PUZZLE_PLAYERS, &id_key(user_id), &bytes) {
                return Ok((Some(player), true));
            }
        }
        Ok((self.puzzle_player(user_id)?, false))
    }

    /// Changes a person's puzzle record atomically: `change` gets the record as stored now (a
    /// fresh one named `name` if there is none) and returns what to store, or an error that
    /// changes nothing, with anything else to return. Records the person as a solver in
    /// `guild_id` (unless 0). Durable on return; returns the stored record and the extra.
    pub async fn update_puzzle_player<T, E>(
        &self,
        user_id: u64,
        name: &str,
        guild_id: u64,
        change: impl Fn(PuzzlePlayer) -> Result<(PuzzlePlayer, T), E>,
    ) -> Result<Result<(PuzzlePlayer, T), E>, StoreError> {
        let key = id_key(user_id);
        let member = (guild_id != 0).then(|| pair_key(guild_id, user_id));
        let result = self.transaction(
            &[TREE_PUZZLE_PLAYERS, TREE_PUZZLE_MEMBERS],
            |tx| -> TxResult<Result<Changed<T>, E>> {
                let current = match tx.get(TREE_PUZZLE_PLAYERS, &key)? {
                    Some(v) => match decode(TREE_PUZZLE_PLAYERS, &key, &v) {
                        Ok(p) => p,
                        Err(e) => return abort(e),
                    },
                    None => PuzzlePlayer::new(name),
                };
                match change(current) {
                    Ok((mut next, extra)) => {
                        next.name = name.to_string();
                        let bytes = match encode("puzzle player", &next) {
                            Ok(b) => b,
                            Err(e) => return abort(e),
                        };
                        tx.insert(TREE_PUZZLE_PLAYERS, &key, &bytes)?;
                        if let Some(member) = &member {
                            tx.insert(TREE_PUZZLE_MEMBERS, member, &[])?;
                        }
                        Ok(Ok(((next, extra), bytes)))
                    }
                    Err(e) => Ok(Err(e)),
                }
            },
        )?;
        self.durable().await?;
        Ok(result.map(|(changed, bytes)| {
            self.seen.put(TREE_PUZZLE_PLAYERS, user_id, &bytes);
            changed
        }))
    }

    /// A server's puzzle solvers, best rating first, at most `limit`; people who never
    /// finished a puzzle are left out.
    pub fn puzzle_leaderboard(
        &self,
        guild_id: u64,
        limit: usize,
    ) -> Result<Vec<(u64, PuzzlePlayer)>, StoreError> {
        let mut lines = Vec::new();
        let prefix = guild_id.to_be_bytes();
        for (key, _) in self.scan(TREE_PUZZLE_MEMBERS, Scan::prefix(&prefix))? {
            let Some(user) = second_id(&key) else {
                continue;
            };
            if let Some(p) = self.puzzle_player(user)? {
                if p.solved + p.failed > 0 {
                    lines.push((user, p));
                }
            }
        }
        lines.sort_by(|a, b| b.1.rating.rating.total_cmp(&a.1.rating.rating));
        lines.truncate(limit);
        Ok(lines)
    }
}
