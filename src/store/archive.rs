//! Finished games: read by id, by player, by channel, and the last one between two people.

use super::codec::{decode, decode_u64, encode, id_key, key_text, pair_key, second_id};
use super::kv::Scan;
use super::records::{GameRecord, Seat};
use super::{Store, StoreError, TREE_ARCHIVE, TREE_BY_CHANNEL, TREE_BY_PLAYER, TREE_PAIRS};

/// Bytes a finished game takes in the store (the backend's own per-entry overhead aside).
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

impl Store {
    pub fn archived_game(&self, game_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = id_key(game_id);
        self.read(TREE_ARCHIVE, &key)?
            .map(|v| decode(TREE_ARCHIVE, &key, &v))
            .transpose()
    }

    /// A user's finished games, newest first.
    pub fn games_of_player(
        &self,
        user_id: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.indexed_games(TREE_BY_PLAYER, user_id, limit)
    }

    /// A channel's finished games, newest first.
    pub fn games_in_channel(
        &self,
        channel_id: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.indexed_games(TREE_BY_CHANNEL, channel_id, limit)
    }

    /// The ids of an owner's finished games, newest first, from an index keyed owner ++ game.
    pub(crate) fn indexed_ids(
        &self,
        index_name: &'static str,
        owner: u64,
        limit: usize,
    ) -> Result<Vec<u64>, StoreError> {
        let mut out = Vec::new();
        let owner = id_key(owner);
        for (k, _) in self.scan(index_name, Scan::prefix(&owner).reversed().limit(limit))? {
            out.push(second_id(&k).ok_or_else(|| StoreError::Corrupt {
                tree: index_name,
                key: key_text(&k),
                reason: "index key is not two ids".to_string(),
            })?);
        }
        Ok(out)
    }

    fn indexed_games(
        &self,
        index_name: &'static str,
        owner: u64,
        limit: usize,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::new();
        for game_id in self.indexed_ids(index_name, owner, limit)? {
            if let Some(rec) = self.archived_game(game_id)? {
                out.push(rec);
            }
        }
        Ok(out)
    }

    /// The last finished game between two people (for a rematch's colours).
    pub fn last_game_between(&self, a: u64, b: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = pair_key(a.min(b), a.max(b));
        match self.read(TREE_PAIRS, &key)? {
            None => Ok(None),
            Some(v) => self.archived_game(decode_u64(TREE_PAIRS, &key, &v)?),
        }
    }
}
