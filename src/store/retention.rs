//! Finished games are kept for a time, not for ever (`DAMAS_KEEP_GAMES_DAYS`, applied by the
//! app's sweeper): a game that ended before a cutoff leaves the archive with every entry that
//! points to it — its index entries (`by_player`, `by_channel`), the `pairs` entry naming it
//! as the last game between its two players, its `tournament_games` link and its channel's
//! board post when that still shows it.
//!
//! What the game already counted for stays as it is: players' records, ratings and best
//! scores, leaderboard lines, and tournament standings (a tournament keeps each game's result
//! in its own record). Games under way are never touched: they are not in the archive.
//! A game thread's record (`threads`) stays too: it names channels and a game id, nobody.
//!
//! When a game ended: its `last_move_at_ms`, which the app sets as it finishes a game (the
//! last move, a resignation, an agreed draw, a loss on time at the sweep that found it). That
//! has always been so, so records of every format carry it: no new field was needed.

use super::codec::{decode, id_key, pair_key};
use super::kv::{Scan, Tx, TxResult};
use super::posts::BoardPost;
use super::records::{GameRecord, Seat};
use super::tournaments::TREE_TOURNAMENT_GAMES;
use super::{
    Store, StoreError, TREE_ARCHIVE, TREE_BY_CHANNEL, TREE_BY_PLAYER, TREE_PAIRS, TREE_POSTS,
};
use std::collections::BTreeSet;

/// Every tree a removal writes.
const RETENTION_TREES: [&str; 6] = [
    TREE_ARCHIVE,
    TREE_BY_CHANNEL,
    TREE_BY_PLAYER,
    TREE_PAIRS,
    TREE_POSTS,
    TREE_TOURNAMENT_GAMES,
];

/// Archived games read at a time while looking for old ones.
const PAGE: usize = 256;

/// Games removed in one transaction.
const BATCH: usize = 64;

/// What [`Store::remove_finished_games`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RemovedGames {
    /// Finished games removed, with their index entries and pointers.
    pub games: usize,
    /// More games were due than the call's limit: the next call goes on.
    pub more_due: bool,
}

impl Store {
    /// Removes up to `limit` finished games that ended before `ended_before_ms` (ms since the
    /// epoch) with everything pointing to them (see the module's documentation), a batch of
    /// them per transaction, durable before it returns. A game of a tournament goes only when
    /// `tournaments_over` lists its tournament (one that finished or was cancelled): a running
    /// tournament still reads its games' results, and `/tournament pdn` its games.
    ///
    /// The archive is read in game id order, which is the order games were created in: a
    /// game created at or after the cutoff cannot have ended before it, and neither can any
    /// game after it, so the read stops there. What it reads before is what is due, the games
    /// of running tournaments, and the few created before the cutoff that ended after it.
    pub async fn remove_finished_games(
        &self,
        ended_before_ms: u64,
        tournaments_over: &BTreeSet<u64>,
        limit: usize,
    ) -> Result<RemovedGames, StoreError> {
        let (due, more_due) = self.games_due(ended_before_ms, tournaments_over, limit)?;
        let mut removed = 0;
        for batch in due.chunks(BATCH) {
            removed += self.transaction(&RETENTION_TREES, |tx| {
                let mut n = 0;
                for &game_id in batch {
                    n += usize::from(remove_game(tx, game_id, ended_before_ms)?);
                }
                Ok(n)
            })?;
        }
        if removed > 0 {
            self.durable().await?;
        }
        Ok(RemovedGames {
            games: removed,
            more_due,
        })
    }

    /// The ids of up to `limit` games due for removal, and whether there are more.
    fn games_due(
        &self,
        ended_before_ms: u64,
        tournaments_over: &BTreeSet<u64>,
        limit: usize,
    ) -> Result<(Vec<u64>, bool), StoreError> {
        let mut due = Vec::new();
        let mut unreadable = 0usize;
        let mut after: Option<Vec<u8>> = None;
        let result = 'pages: loop {
            let page = self.scan(
                TREE_ARCHIVE,
                Scan {
                    after: after.as_deref(),
                    ..Scan::all().limit(PAGE)
                },
            )?;
            let Some((last, _)) = page.last() else {
                break (due, false);
            };
            let last = last.clone();
            for (key, bytes) in &page {
                // Reported where it is read for a player; never removed unread.
                let Ok(rec) = decode::<GameRecord>(TREE_ARCHIVE, key, bytes) else {
                    unreadable += 1;
                    continue;
                };
                if rec.created_at_ms >= ended_before_ms {
                    break 'pages (due, false);
                }
                if rec.last_move_at_ms >= ended_before_ms {
                    continue;
                }
                let kept = match self.tournament_of_game(rec.id) {
                    Ok(None) => false,
                    Ok(Some(t)) => !tournaments_over.contains(&t),
                    Err(_) => true,
                };
                if !kept {
                    if due.len() == limit {
                        break 'pages (due, true);
                    }
                    due.push(rec.id);
                }
            }
            after = Some(last);
        };
        if unreadable > 0 {
            tracing::warn!("{unreadable} archived games could not be read to check their age");
        }
        Ok(result)
    }
}

/// Inside a transaction: removes game `game_id` if it is still archived and ended before the
/// cutoff, with its index entries and the pointers to it. `false` when it was not removed.
fn remove_game(tx: &Tx<'_>, game_id: u64, ended_before_ms: u64) -> TxResult<bool> {
    let key = id_key(game_id);
    let Some(bytes) = tx.get(TREE_ARCHIVE, &key)? else {
        return Ok(false);
    };
    let Ok(rec) = decode::<GameRecord>(TREE_ARCHIVE, &key, &bytes) else {
        return Ok(false);
    };
    if rec.last_move_at_ms >= ended_before_ms {
        return Ok(false);
    }
    tx.remove(TREE_ARCHIVE, &key)?;
    tx.remove(TREE_BY_CHANNEL, &pair_key(rec.channel_id, game_id))?;
    // A forgotten player's seat says "deleted" and their entry is gone already.
    let humans: Vec<u64> = rec.players.iter().filter_map(Seat::user_id).collect();
    for &user in &humans {
        tx.remove(TREE_BY_PLAYER, &pair_key(user, game_id))?;
    }
    if let [a, b] = humans[..] {
        let pair = pair_key(a.min(b), a.max(b));
        // Only while it names this game: a later game between them is theirs to keep.
        if tx.get(TREE_PAIRS, &pair)?.as_deref() == Some(&key[..]) {
            tx.remove(TREE_PAIRS, &pair)?;
        }
    }
    tx.remove(TREE_TOURNAMENT_GAMES, &key)?;
    let channel = id_key(rec.channel_id);
    if let Some(post) = tx.get(TREE_POSTS, &channel)? {
        let shows_it =
            decode::<BoardPost>(TREE_POSTS, &channel, &post).is_ok_and(|p| p.game_id == game_id);
        if shows_it {
            tx.remove(TREE_POSTS, &channel)?;
        }
    }
    Ok(true)
}
