//! Which message shows each channel's board: kept apart from the game record, so that
//! recording a posted board never races a move.
//!
//! Writes here are not flushed on their own: losing one in a crash only leaves an old board's
//! buttons in place, and those answer "outdated" anyway. sled's own periodic flush, or the
//! next durable write of any tree, carries them to disk (PostgreSQL commits them at once).

use super::codec::{decode, encode, id_key, Record};
use super::kv::Guard;
use super::records::GameRecord;
use super::{Store, StoreError, TREE_GAMES, TREE_POSTS};
use serde::{Deserialize, Serialize};

/// The message currently showing a channel's board, and what it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPost {
    pub game_id: u64,
    pub message_id: u64,
    /// The ply the board shows.
    pub ply: usize,
}

impl Record for BoardPost {
    fn decode_old(_version: u8, _body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        None
    }
}

/// What [`Store::record_board_post`] made of a posted board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostRecorded {
    /// The post shows the game as it is now and is recorded as the channel's board.
    Current {
        /// The previous board's message, whose controls are now to be stripped (never the
        /// new message itself).
        replaced: Option<u64>,
    },
    /// The game moved on (or another game started) while the board was being posted:
    /// nothing was recorded, and the new message's own controls are to be stripped.
    Outdated,
}

impl Store {
    /// The message showing the channel's board, if one was recorded. Finishing or cancelling
    /// a game leaves it: the next game's first board replaces it.
    pub fn board_post(&self, channel_id: u64) -> Result<Option<BoardPost>, StoreError> {
        let key = id_key(channel_id);
        let Some(bytes) = self.read(TREE_POSTS, &key)? else {
            return Ok(None);
        };
        let post = decode(TREE_POSTS, &key, &bytes)?;
        self.seen.put(TREE_POSTS, channel_id, &bytes);
        Ok(Some(post))
    }

    /// Records `post` as the channel's board if it shows game `post.game_id` as it stands:
    /// the channel's active game is that game at `post.ply` and the post shows it going on
    /// (`over` false), or, with no active game, that game finished at `post.ply` and the
    /// post is its final board (`over` true). Otherwise — the game moved, ended (a
    /// resignation ends it at the same ply: a board of the game going on, shown after the
    /// final one, must not replace it), another game started, the game was cancelled, or a
    /// newer game's board is already recorded — the post is [`PostRecorded::Outdated`] and
    /// nothing is written.
    ///
    /// A recorded board at a higher ply of the same game does not make the post outdated:
    /// after an undo the game stands at a lower ply again, and its new board is current.
    /// Compare-and-swap: the post tree is read before the game, so a board recorded
    /// meanwhile (which saw the game at its newer ply) makes this write retry and see it.
    pub async fn record_board_post(
        &self,
        channel_id: u64,
        post: BoardPost,
        over: bool,
    ) -> Result<PostRecorded, StoreError> {
        let key = id_key(channel_id);
        let new_bytes = encode("board post", &post)?;
        if let Some(recorded) = self.record_known_board_post(channel_id, &post, over, &new_bytes)? {
            return Ok(recorded);
        }
        loop {
            let old_bytes = self.read(TREE_POSTS, &key)?;
            let old: Option<BoardPost> = old_bytes
                .as_ref()
                .map(|b| decode(TREE_POSTS, &key, b))
                .transpose()?;
            if old.is_some_and(|o| o.game_id > post.game_id) {
                return Ok(PostRecorded::Outdated);
            }
            if !self.shows_game_as_it_stands(channel_id, &post, over)? {
                return Ok(PostRecorded::Outdated);
            }
            if self.swap(TREE_POSTS, &key, old_bytes.as_deref(), Some(&new_bytes))? {
                self.seen.put(TREE_POSTS, channel_id, &new_bytes);
                let replaced = old.map(|o| o.message_id).filter(|&m| m != post.message_id);
                return Ok(PostRecorded::Current { replaced });
            }
        }
    }

    /// [`Store::record_board_post`] in one write, when this process last saw the channel's
    /// game as the post shows it (it made that move, or read it): the post is recorded if
    /// the game is stored exactly so and the recorded post is the one last seen, both checked
    /// by the write itself. `None` when either is not known, or not so any more: the careful
    /// way then decides.
    fn record_known_board_post(
        &self,
        channel_id: u64,
        post: &BoardPost,
        over: bool,
        new_bytes: &[u8],
    ) -> Result<Option<PostRecorded>, StoreError> {
        let key = id_key(channel_id);
        let Some(game_bytes) = self.seen.get(TREE_GAMES, channel_id) else {
            return Ok(None);
        };
        match decode::<GameRecord>(TREE_GAMES, &key, &game_bytes) {
            Ok(rec) if shows(&rec, post, over) => {}
            _ => return Ok(None),
        }
        let old_bytes = match self.seen.get(TREE_POSTS, channel_id) {
            Some(bytes) => Some(bytes),
            None => self.read(TREE_POSTS, &key)?,
        };
        let old: Option<BoardPost> = match old_bytes.as_ref().map(|b| decode(TREE_POSTS, &key, b)) {
            Some(Ok(old)) => Some(old),
            Some(Err(_)) => return Ok(None),
            None => None,
        };
        if old.is_some_and(|o| o.game_id > post.game_id) {
            return Ok(None);
        }
        let guard = Guard {
            tree: TREE_GAMES,
            key: &key,
            value: &game_bytes,
        };
        if !self.swap_guarded(TREE_POSTS, &key, old_bytes.as_deref(), new_bytes, guard)? {
            return Ok(None);
        }
        self.seen.put(TREE_POSTS, channel_id, new_bytes);
        let replaced = old.map(|o| o.message_id).filter(|&m| m != post.message_id);
        Ok(Some(PostRecorded::Current { replaced }))
    }

    fn shows_game_as_it_stands(
        &self,
        channel_id: u64,
        post: &BoardPost,
        over: bool,
    ) -> Result<bool, StoreError> {
        Ok(match self.active_game(channel_id)? {
            Some(rec) => shows(&rec, post, over),
            None => self
                .archived_game(post.game_id)?
                .is_some_and(|rec| rec.channel_id == channel_id && shows(&rec, post, over)),
        })
    }
}

/// Whether a board of `post` — final when `over` — shows game `rec` as it stands.
fn shows(rec: &GameRecord, post: &BoardPost, over: bool) -> bool {
    rec.id == post.game_id && rec.ply() == post.ply && rec.outcome.is_some() == over
}
