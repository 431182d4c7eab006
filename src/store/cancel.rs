//! Cancelling a game without a result: a moderator's decision, or a channel that is gone.

use super::codec::{decode, id_key};
use super::kv::{abort, Scan};
use super::playing::{game_ended, TREE_PLAYING};
use super::records::GameRecord;
use super::{Store, StoreError, TREE_GAMES};

impl Store {
    /// Removes the channel's active game without a result: it counts for no one (no record,
    /// rating or leaderboard changes) and is not archived. One transaction that checks the
    /// stored game is still at `expected_ply`: a game that moved meanwhile gives
    /// [`StoreError::Conflict`]. Durable before it returns. `Ok(false)` if there was no game.
    /// The channel's board post stays (see [`Store::board_post`]).
    pub async fn cancel_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
    ) -> Result<bool, StoreError> {
        let key = id_key(channel_id);
        let conflict = |found_ply| StoreError::Conflict {
            channel_id,
            expected_ply,
            found_ply,
        };
        let cancelled = self.transaction(&[TREE_GAMES, TREE_PLAYING], |tx| {
            let Some(bytes) = tx.get(TREE_GAMES, &key)? else {
                return Ok(false);
            };
            let current: GameRecord = match decode(TREE_GAMES, &key, &bytes) {
                Ok(rec) => rec,
                Err(e) => return abort(e),
            };
            if current.ply() != expected_ply {
                return abort(conflict(Some(current.ply())));
            }
            tx.remove(TREE_GAMES, &key)?;
            game_ended(tx, &current)?;
            Ok(true)
        })?;
        if cancelled {
            self.durable().await?;
        }
        Ok(cancelled)
    }

    /// Cancels, as [`Store::cancel_game`] does, every active game whose channel `gone`
    /// names (channels deleted, a server the bot left), whatever their ply. Returns the
    /// cancelled games. A record that does not decode is left alone.
    pub async fn cancel_games_in(
        &self,
        gone: impl Fn(u64) -> bool,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let mut cancelled = Vec::new();
        for (key, bytes) in self.scan(TREE_GAMES, Scan::all())? {
            let Ok(rec) = decode::<GameRecord>(TREE_GAMES, &key, &bytes) else {
                continue;
            };
            if !gone(rec.channel_id) {
                continue;
            }
            // A game that moved since the scan is still in a channel that is gone: retry it.
            loop {
                match self
                    .cancel_game(rec.channel_id, self.ply_of(rec.channel_id)?)
                    .await
                {
                    Ok(true) => {
                        cancelled.push(rec);
                        break;
                    }
                    Ok(false) => break,
                    Err(StoreError::Conflict { .. }) => continue,
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(cancelled)
    }

    fn ply_of(&self, channel_id: u64) -> Result<usize, StoreError> {
        Ok(self.active_game(channel_id)?.map_or(0, |g| g.ply()))
    }
}
