//! Who plays where: for each person, the games under way they sit in.
//!
//! One record per person (`playing`: user id → [`Playing`]), written in the same transaction
//! that starts or ends a game. A transaction can read a key but not scan a tree, so this is
//! what lets one transaction ask "does this person play a game now?" (`/forget-me` erases only
//! when not, with no window for a game to start in between) and "how many games against the
//! bot do they have?" (the cap on them, checked as the game is created). Every entry is checked
//! against the channel's active game inside the transaction that reads it, so an entry the
//! index kept by mistake (a tool writing raw trees) never locks anyone out; entries missing
//! for games started before the index existed are added when the store opens.

use super::codec::{decode, encode, id_key, Record};
use super::kv::{abort, Scan, Tx, TxError, TxResult};
use super::records::{GameRecord, Seat};
use super::{Store, StoreError, TREE_GAMES};
use serde::{Deserialize, Serialize};

pub const TREE_PLAYING: &str = "playing";

/// One game under way a person sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayingIn {
    pub channel_id: u64,
    pub game_id: u64,
    /// The other seat is the bot's.
    pub vs_bot: bool,
}

/// A person's games under way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playing {
    pub games: Vec<PlayingIn>,
    /// Counts every change to `games` (a game started or ended): a plan made from scans
    /// outside a transaction (`/forget-me`'s) sees that nothing started or ended since.
    pub changes: u64,
}

impl Record for Playing {}

/// The people seated in a game, each once, in the order their records are locked in (by
/// id: two transactions locking the same two records never wait for each other in a circle).
fn people(rec: &GameRecord) -> Vec<u64> {
    let mut ids: Vec<u64> = rec.players.iter().filter_map(Seat::user_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn entry_of(rec: &GameRecord) -> PlayingIn {
    PlayingIn {
        channel_id: rec.channel_id,
        game_id: rec.id,
        vs_bot: rec.players.iter().any(|s| matches!(s, Seat::Bot { .. })),
    }
}

/// Inside a transaction: a person's record as stored, `None` when they have none; locked
/// until the transaction ends ([`Tx::get_locked`]: a game's creation runs `READ COMMITTED`
/// on PostgreSQL, and two transactions changing one person's record must not both build on
/// the same read).
fn stored_playing(tx: &Tx<'_>, user_id: u64) -> TxResult<Option<Playing>> {
    let key = id_key(user_id);
    match tx.get_locked(TREE_PLAYING, &key)? {
        None => Ok(None),
        Some(bytes) => match decode(TREE_PLAYING, &key, &bytes) {
            Ok(p) => Ok(Some(p)),
            Err(e) => abort(e),
        },
    }
}

/// Inside a transaction: a person's record as stored (locked, as [`stored_playing`]).
pub(crate) fn read_playing(tx: &Tx<'_>, user_id: u64) -> TxResult<Playing> {
    Ok(stored_playing(tx, user_id)?.unwrap_or_default())
}

fn write_playing(tx: &Tx<'_>, user_id: u64, p: &Playing) -> TxResult<()> {
    let key = id_key(user_id);
    if p.games.is_empty() && p.changes == 0 {
        tx.remove(TREE_PLAYING, &key)?;
        return Ok(());
    }
    match encode("playing", p) {
        Ok(bytes) => tx.insert(TREE_PLAYING, &key, &bytes),
        Err(e) => abort(e),
    }
}

/// Inside a transaction that also has [`TREE_GAMES`]: the person's games that are really
/// under way now (their channel's active game is that game).
pub(crate) fn games_under_way(tx: &Tx<'_>, user_id: u64) -> TxResult<Vec<PlayingIn>> {
    live_games(tx, read_playing(tx, user_id)?.games)
}

/// Of `games`, those whose channel's active game is that game.
fn live_games(tx: &Tx<'_>, games: Vec<PlayingIn>) -> TxResult<Vec<PlayingIn>> {
    let mut live = Vec::new();
    for g in games {
        let key = id_key(g.channel_id);
        let Some(bytes) = tx.get(TREE_GAMES, &key)? else {
            continue;
        };
        match decode::<GameRecord>(TREE_GAMES, &key, &bytes) {
            Ok(rec) if rec.id == g.game_id => live.push(g),
            Ok(_) => {}
            // Unreadable: count it as under way rather than erase around it.
            Err(_) => live.push(g),
        }
    }
    Ok(live)
}

/// Inside a transaction that also has [`TREE_GAMES`]: notes that `rec` started, for each
/// person in it; refused with [`StoreError::TooManyBotGames`] when `rec` is a game against
/// the bot and one of them already has `bot_games_cap` of those under way. Each person's
/// record is read once, locked, for both.
pub(crate) fn game_started(tx: &Tx<'_>, rec: &GameRecord, bot_games_cap: usize) -> TxResult<()> {
    let entry = entry_of(rec);
    for user in people(rec) {
        let stored = stored_playing(tx, user)?;
        let mut p = stored.clone().unwrap_or_default();
        if entry.vs_bot {
            let vs_bot = p.games.iter().filter(|g| g.vs_bot).copied().collect();
            if live_games(tx, vs_bot)?.len() >= bot_games_cap {
                return abort(StoreError::TooManyBotGames {
                    user_id: user,
                    limit: bot_games_cap,
                });
            }
        }
        p.games.retain(|g| g.channel_id != entry.channel_id);
        p.games.push(entry);
        p.changes += 1;
        if stored.is_some() {
            write_playing(tx, user, &p)?;
            continue;
        }
        // Nothing to lock: another transaction may be writing their first record too.
        let bytes = match encode("playing", &p) {
            Ok(bytes) => bytes,
            Err(e) => return abort(e),
        };
        if !tx.insert_new(TREE_PLAYING, &id_key(user), &bytes)? {
            return Err(TxError::Retry);
        }
    }
    Ok(())
}

/// Inside a transaction: notes that `rec` ended (finished or cancelled).
pub(crate) fn game_ended(tx: &Tx<'_>, rec: &GameRecord) -> TxResult<()> {
    for user in people(rec) {
        let mut p = read_playing(tx, user)?;
        p.games.retain(|g| g.game_id != rec.id);
        p.changes += 1;
        write_playing(tx, user, &p)?;
    }
    Ok(())
}

impl Store {
    /// A person's games under way, as the index has them (for tests and tools; the app asks
    /// through the transactions that need the answer).
    pub fn playing(&self, user_id: u64) -> Result<Playing, StoreError> {
        let key = id_key(user_id);
        self.read(TREE_PLAYING, &key)?
            .map(|v| decode(TREE_PLAYING, &key, &v))
            .transpose()
            .map(Option::unwrap_or_default)
    }

    /// Adds to the index the games under way it does not list (games started by a version
    /// of the bot without it). Each is added in a transaction that checks the game is still
    /// the channel's, so processes doing this at once, or games ending meanwhile, are safe.
    /// Reads two trees when nothing is missing.
    pub(crate) fn index_games_under_way(&self) -> Result<usize, StoreError> {
        let mut added = 0;
        for (key, bytes) in self.scan(TREE_GAMES, Scan::all())? {
            let Ok(rec) = decode::<GameRecord>(TREE_GAMES, &key, &bytes) else {
                continue;
            };
            let listed = |user: u64| -> Result<bool, StoreError> {
                Ok(self
                    .playing(user)?
                    .games
                    .iter()
                    .any(|g| g.game_id == rec.id))
            };
            let mut missing = false;
            for user in people(&rec) {
                missing |= !listed(user)?;
            }
            if !missing {
                continue;
            }
            let done = self.transaction(&[TREE_GAMES, TREE_PLAYING], |tx| {
                match tx.get(TREE_GAMES, &key)? {
                    Some(now) if now == bytes => {}
                    _ => return Ok(false),
                }
                let entry = entry_of(&rec);
                for user in people(&rec) {
                    let mut p = read_playing(tx, user)?;
                    if !p.games.contains(&entry) {
                        p.games.retain(|g| g.channel_id != entry.channel_id);
                        p.games.push(entry);
                        p.changes += 1;
                        write_playing(tx, user, &p)?;
                    }
                }
                Ok(true)
            })?;
            added += usize::from(done);
        }
        Ok(added)
    }
}
