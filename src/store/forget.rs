//! Erasing a user (`/forget-me`): their name and id leave every record but their active game.

use super::codec::{decode, decode_u64, encode, id_key, pair_key};
use super::kv::{abort, Scan};
use super::leaderboards::{line_key_of_member, MEMBER_KEY_LEN};
use super::records::{Challenge, GameRecord, Seat};
use super::{
    Store, StoreError, TREE_ARCHIVE, TREE_BOARDS, TREE_BOARD_MEMBERS, TREE_BY_PLAYER,
    TREE_CHALLENGES, TREE_PAIRS, TREE_PLAYERS,
};

/// What [`Store::forget_user`] erased.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForgetSummary {
    /// Finished games whose seat now says "deleted player".
    pub games: usize,
    /// Leaderboard lines removed (one per guild, variant and board).
    pub leaderboard_lines: usize,
    /// Open challenges made by or to them, removed.
    pub challenges: usize,
    /// Whether they had a player record (results, ratings, best scores).
    pub player_record: bool,
}

impl Store {
    /// Erases a user: in every finished game of theirs their seat becomes [`Seat::Deleted`]
    /// (the game stays in their opponents' histories), and their player record, their index
    /// entries (`by_player`, `pairs`), their leaderboard lines in every guild and the open
    /// challenges they made or received are removed — in one transaction, durable before it
    /// returns. Running it again finds nothing more to erase.
    ///
    /// A game they are playing now is left alone: the app refuses `/forget-me` while they
    /// play, so that no running game loses a player.
    pub async fn forget_user(&self, user_id: u64) -> Result<ForgetSummary, StoreError> {
        let game_ids = self.indexed_ids(TREE_BY_PLAYER, user_id, usize::MAX)?;
        let mut member_keys = Vec::new();
        for (key, _) in self.scan(TREE_BOARD_MEMBERS, Scan::all())? {
            if key.len() == MEMBER_KEY_LEN && key[MEMBER_KEY_LEN - 8..] == id_key(user_id) {
                member_keys.push(key);
            }
        }
        // Lines whose member entry was lost go too.
        let mut line_keys = Vec::new();
        for (key, _) in self.scan(TREE_BOARDS, Scan::all())? {
            if key.len() == MEMBER_KEY_LEN + 8 && key[MEMBER_KEY_LEN..] == id_key(user_id) {
                line_keys.push(key);
            }
        }
        let mut challenge_keys = Vec::new();
        for (key, bytes) in self.scan(TREE_CHALLENGES, Scan::all())? {
            let c: Challenge = decode(TREE_CHALLENGES, &key, &bytes)?;
            if involves(&c, user_id) {
                challenge_keys.push(key);
            }
        }
        let trees = [
            TREE_ARCHIVE,
            TREE_BY_PLAYER,
            TREE_PAIRS,
            TREE_PLAYERS,
            TREE_BOARDS,
            TREE_BOARD_MEMBERS,
            TREE_CHALLENGES,
        ];
        let summary = self.transaction(&trees, |tx| {
            let mut summary = ForgetSummary::default();
            for &game_id in &game_ids {
                tx.remove(TREE_BY_PLAYER, &pair_key(user_id, game_id))?;
                let key = id_key(game_id);
                let Some(bytes) = tx.get(TREE_ARCHIVE, &key)? else {
                    continue;
                };
                let mut rec: GameRecord = match decode(TREE_ARCHIVE, &key, &bytes) {
                    Ok(rec) => rec,
                    Err(e) => return abort(e),
                };
                let other = rec
                    .players
                    .iter()
                    .filter_map(Seat::user_id)
                    .find(|&u| u != user_id);
                if let Some(other) = other {
                    tx.remove(
                        TREE_PAIRS,
                        &pair_key(user_id.min(other), user_id.max(other)),
                    )?;
                }
                for seat in &mut rec.players {
                    if seat.user_id() == Some(user_id) {
                        *seat = Seat::Deleted;
                    }
                }
                match encode("game", &rec) {
                    Ok(b) => tx.insert(TREE_ARCHIVE, &key, &b)?,
                    Err(e) => return abort(e),
                };
                summary.games += 1;
            }
            summary.player_record = tx.remove(TREE_PLAYERS, &id_key(user_id))?.is_some();
            for mkey in &member_keys {
                let Some(sort) = tx.remove(TREE_BOARD_MEMBERS, mkey)? else {
                    continue;
                };
                let sort = match decode_u64(TREE_BOARD_MEMBERS, mkey, &sort) {
                    Ok(s) => s,
                    Err(e) => return abort(e),
                };
                if let Some(line) = line_key_of_member(mkey, sort) {
                    tx.remove(TREE_BOARDS, &line)?;
                }
                summary.leaderboard_lines += 1;
            }
            for key in &line_keys {
                tx.remove(TREE_BOARDS, key)?;
            }
            for ckey in &challenge_keys {
                let Some(bytes) = tx.get(TREE_CHALLENGES, ckey)? else {
                    continue;
                };
                // Replaced since the scan by someone else's challenge: not theirs.
                match decode::<Challenge>(TREE_CHALLENGES, ckey, &bytes) {
                    Ok(c) if involves(&c, user_id) => {
                        tx.remove(TREE_CHALLENGES, ckey)?;
                        summary.challenges += 1;
                    }
                    _ => {}
                }
            }
            Ok(summary)
        })?;
        self.forget_puzzle_player(user_id)?;
        self.durable().await?;
        Ok(summary)
    }
}

fn involves(c: &Challenge, user_id: u64) -> bool {
    c.challenger.user_id == user_id || c.challenged.user_id == user_id
}
