//! Cancelling a stuck game: a moderator's decision, outside the rules.

use super::codec::id_key;
use super::{Store, StoreError};

impl Store {
    /// Removes the channel's active game without a result: it counts for no one (no record,
    /// rating or leaderboard changes) and is not archived. Compare-and-swap on the stored
    /// bytes read at `expected_ply`: a game that moved meanwhile gives
    /// [`StoreError::Conflict`]. Durable before it returns. `Ok(false)` if there was no game.
    pub async fn cancel_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
    ) -> Result<bool, StoreError> {
        let Some(current) = self.active_game(channel_id)? else {
            return Ok(false);
        };
        if current.ply() != expected_ply {
            return Err(StoreError::Conflict {
                channel_id,
                expected_ply,
                found_ply: Some(current.ply()),
            });
        }
        let key = id_key(channel_id);
        let Some(bytes) = self.trees.games.get(key)? else {
            return Ok(false);
        };
        let swapped = self
            .trees
            .games
            .compare_and_swap(key, Some(bytes), None::<&[u8]>)?;
        if swapped.is_err() {
            return Err(StoreError::Conflict {
                channel_id,
                expected_ply,
                found_ply: self.active_game(channel_id)?.map(|g| g.ply()),
            });
        }
        self.durable().await?;
        Ok(true)
    }
}
