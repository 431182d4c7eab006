//! Erasing a user (`/forget-me`): their name and id leave every record, in one transaction
//! that first checks they play no game.

use super::codec::{decode, decode_u64, encode, id_key, pair_key, second_id};
use super::kv::{abort, Scan, Tx, TxResult};
use super::leaderboards::{line_key_of_member, MEMBER_KEY_LEN};
use super::playing::{games_under_way, read_playing, TREE_PLAYING};
use super::records::{Challenge, GameRecord, Seat};
use super::{
    Store, StoreError, TREE_ARCHIVE, TREE_BOARDS, TREE_BOARD_MEMBERS, TREE_BY_PLAYER,
    TREE_CHALLENGES, TREE_GAMES, TREE_PAIRS, TREE_PLAYERS, TREE_PUZZLE_MEMBERS,
    TREE_PUZZLE_PLAYERS,
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
    /// Whether they had a puzzle record (puzzle rating, streaks, the puzzle under way).
    pub puzzle_record: bool,
    /// Tournaments whose entry (or organiser) was theirs, now a deleted player.
    pub tournaments: usize,
    /// Servers whose settings they last changed: the settings stay, their id goes.
    pub server_settings: usize,
}

/// Every tree `/forget-me`'s transaction reads or writes.
const FORGET_TREES: [&str; 11] = [
    TREE_GAMES,
    TREE_PLAYING,
    TREE_ARCHIVE,
    TREE_BY_PLAYER,
    TREE_PAIRS,
    TREE_PLAYERS,
    TREE_BOARDS,
    TREE_BOARD_MEMBERS,
    TREE_CHALLENGES,
    TREE_PUZZLE_PLAYERS,
    TREE_PUZZLE_MEMBERS,
];

/// How many times an erasure is planned again when the person's games or puzzles changed
/// between the plan and its transaction.
const PLAN_ATTEMPTS: usize = 5;

/// What one erasure will touch, found by scans outside its transaction (a transaction reads
/// keys, it cannot scan), with what makes the scans still true inside it.
struct Plan {
    game_ids: Vec<u64>,
    member_keys: Vec<Vec<u8>>,
    line_keys: Vec<Vec<u8>>,
    challenge_keys: Vec<Vec<u8>>,
    puzzle_member_keys: Vec<Vec<u8>>,
    /// [`Playing::changes`] when the scans began: finished games, leaderboard lines and index
    /// entries only appear when a game starts or ends, which changes it.
    playing_changes: u64,
    /// The puzzle record as it was: a puzzle server membership only appears with a write of it.
    puzzle_record: Option<Vec<u8>>,
}

impl Store {
    /// Erases a user: in every finished game of theirs their seat becomes [`Seat::Deleted`]
    /// (the game stays in their opponents' histories), and their player record, their index
    /// entries (`by_player`, `pairs`, `playing`), their leaderboard lines in every guild, the
    /// open challenges they made or received, their puzzle record and their places on the
    /// puzzle boards are removed — in one transaction, durable before it returns. Running it
    /// again finds nothing more to erase.
    ///
    /// Refused with [`StoreError::PlayingNow`], erasing nothing, while they play a game: a
    /// game under way would bring their name back when it ends. The check is part of the
    /// same transaction, so no game can start between the check and the erasure.
    pub async fn forget_user(&self, user_id: u64) -> Result<ForgetSummary, StoreError> {
        for _ in 0..PLAN_ATTEMPTS {
            let plan = self.forget_plan(user_id)?;
            let erased = self.transaction(&FORGET_TREES, |tx| forget_in(tx, user_id, &plan))?;
            if let Some(mut summary) = erased {
                self.durable().await?;
                // Nothing of theirs stays in this process's memory either.
                self.seen.forget(TREE_PUZZLE_PLAYERS, user_id);
                // After the games: a tournament entry names nobody once its games say
                // "deleted player". A crash in between leaves names that the next
                // `/forget-me` erases.
                summary.tournaments = self.forget_in_tournaments(user_id).await?;
                summary.server_settings = self.forget_in_server_settings(user_id).await?;
                return Ok(summary);
            }
            // A game started or ended, or a puzzle was played, since the plan: plan again.
        }
        Err(StoreError::KeptChanging {
            what: "the records /forget-me erases",
        })
    }

    fn forget_plan(&self, user_id: u64) -> Result<Plan, StoreError> {
        // Read first: whatever the scans then find is at least as new.
        let playing_changes = self.playing(user_id)?.changes;
        let puzzle_record = self.read(TREE_PUZZLE_PLAYERS, &id_key(user_id))?;
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
        let puzzle_member_keys = self
            .scan(TREE_PUZZLE_MEMBERS, Scan::all())?
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| second_id(k) == Some(user_id))
            .collect();
        Ok(Plan {
            game_ids,
            member_keys,
            line_keys,
            challenge_keys,
            puzzle_member_keys,
            playing_changes,
            puzzle_record,
        })
    }
}

/// The erasure, inside its transaction; `None` when the plan is out of date.
fn forget_in(tx: &Tx<'_>, user_id: u64, plan: &Plan) -> TxResult<Option<ForgetSummary>> {
    if !games_under_way(tx, user_id)?.is_empty() {
        return abort(StoreError::PlayingNow { user_id });
    }
    let user_key = id_key(user_id);
    if read_playing(tx, user_id)?.changes != plan.playing_changes
        || tx.get(TREE_PUZZLE_PLAYERS, &user_key)? != plan.puzzle_record
    {
        return Ok(None);
    }
    let mut summary = ForgetSummary::default();
    for &game_id in &plan.game_ids {
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
    summary.player_record = tx.remove(TREE_PLAYERS, &user_key)?.is_some();
    for mkey in &plan.member_keys {
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
    for key in &plan.line_keys {
        tx.remove(TREE_BOARDS, key)?;
    }
    for ckey in &plan.challenge_keys {
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
    summary.puzzle_record = tx.remove(TREE_PUZZLE_PLAYERS, &user_key)?.is_some();
    for key in &plan.puzzle_member_keys {
        tx.remove(TREE_PUZZLE_MEMBERS, key)?;
    }
    tx.remove(TREE_PLAYING, &user_key)?;
    Ok(Some(summary))
}

fn involves(c: &Challenge, user_id: u64) -> bool {
    c.challenger.user_id == user_id || c.challenged.user_id == user_id
}
