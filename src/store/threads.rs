//! Games played in threads of their own: for each such thread, the channel it was opened in
//! and the line there that links to it, so that the line can show the result and the thread
//! can be archived when the game ends.
//!
//! A new tree (`threads`: thread id → [`GameThread`]) rather than a field of the game record:
//! a game does not know where it is announced, and old records need no conversion.

use super::codec::{decode, encode, id_key, Record};
use super::{Store, StoreError, TREE_THREADS};
use serde::{Deserialize, Serialize};

/// A thread the bot opened for games, and the game it holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameThread {
    /// The channel the thread was opened in, where the line linking to it is.
    pub parent_channel_id: u64,
    /// The game the thread holds now (a rematch in the same thread replaces it).
    pub game_id: u64,
    /// The message in the parent channel announcing that game, once it was posted.
    pub line_message_id: Option<u64>,
}

impl Record for GameThread {
    fn decode_old(_version: u8, _body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        None
    }
}

impl Store {
    /// Records that `thread_id` holds game `t.game_id` (a new thread, or a rematch in an old
    /// one). Durable before it returns.
    pub async fn put_game_thread(&self, thread_id: u64, t: &GameThread) -> Result<(), StoreError> {
        let (key, value) = (id_key(thread_id), encode("game thread", t)?);
        self.transaction(&[TREE_THREADS], |tx| tx.insert(TREE_THREADS, &key, &value))?;
        self.durable().await
    }

    /// The game thread `thread_id`, if the bot opened it for a game.
    pub fn game_thread(&self, thread_id: u64) -> Result<Option<GameThread>, StoreError> {
        let key = id_key(thread_id);
        self.read(TREE_THREADS, &key)?
            .map(|v| decode(TREE_THREADS, &key, &v))
            .transpose()
    }

    /// Records the parent channel's line announcing game `game_id` of the thread. `Ok(false)`
    /// when the thread holds another game by now (nothing is written). Not flushed on its
    /// own: a line lost in a crash is only not edited at the end.
    pub fn set_thread_line(
        &self,
        thread_id: u64,
        game_id: u64,
        message_id: u64,
    ) -> Result<bool, StoreError> {
        let key = id_key(thread_id);
        loop {
            let old = self.read(TREE_THREADS, &key)?;
            let Some(current) = old
                .as_ref()
                .map(|b| decode::<GameThread>(TREE_THREADS, &key, b))
                .transpose()?
                .filter(|t| t.game_id == game_id)
            else {
                return Ok(false);
            };
            let new = GameThread {
                line_message_id: Some(message_id),
                ..current
            };
            let bytes = encode("game thread", &new)?;
            if self.swap(TREE_THREADS, &key, old.as_deref(), Some(&bytes))? {
                return Ok(true);
            }
        }
    }
}
