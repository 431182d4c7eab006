//! Active games: one per channel, written by compare-and-swap, ended in one transaction that
//! archives the game and settles the players' records and leaderboards.

use super::codec::{decode, encode, id_key, pair_key};
use super::kv::{abort, Scan, Tx, TxError, TxResult};
use super::leaderboards::refresh_boards;
use super::playing::{game_ended, game_started, TREE_PLAYING};
use super::records::{FinishSummary, GameRecord, PlayerRecord, Seat};
use super::{
    Invalid, Settle, Store, StoreError, TREE_ARCHIVE, TREE_BOARDS, TREE_BOARD_MEMBERS,
    TREE_BY_CHANNEL, TREE_BY_PLAYER, TREE_GAMES, TREE_PAIRS, TREE_PLAYERS,
};
use crate::engine::{ByColour, Game};

/// The trees a game's end writes.
const FINISHING_TREES: [&str; 9] = [
    TREE_GAMES,
    TREE_PLAYING,
    TREE_ARCHIVE,
    TREE_BY_PLAYER,
    TREE_BY_CHANNEL,
    TREE_PAIRS,
    TREE_PLAYERS,
    TREE_BOARDS,
    TREE_BOARD_MEMBERS,
];

/// Refuses records the store will not write: seats of deleted players, and moves that do not
/// replay (so that nothing stored is ever unreadable by the engine).
fn validate(rec: &GameRecord) -> Result<Game, StoreError> {
    if rec.players.iter().any(|seat| *seat == Seat::Deleted) {
        return Err(Invalid::DeletedSeat.into());
    }
    rec.to_game()
}

/// What a write of a channel's game expects to find.
struct Expected<'a> {
    channel_id: u64,
    expected_ply: usize,
    new: &'a GameRecord,
}

impl Expected<'_> {
    /// The checks before update and finish: the record is for this channel, and is over
    /// exactly when `finishing`. Returns the game the record replays to.
    fn check_record(&self, finishing: bool) -> Result<Game, StoreError> {
        if self.new.channel_id != self.channel_id {
            return Err(Invalid::WrongChannel {
                asked: self.channel_id,
                record: self.new.channel_id,
            }
            .into());
        }
        match (finishing, self.new.outcome.is_some()) {
            (false, true) => return Err(Invalid::AlreadyOver.into()),
            (true, false) => return Err(Invalid::NotFinished.into()),
            _ => {}
        }
        validate(self.new)
    }

    fn conflict(&self, found_ply: Option<usize>) -> StoreError {
        StoreError::Conflict {
            channel_id: self.channel_id,
            expected_ply: self.expected_ply,
            found_ply,
        }
    }

    /// The stored game, if it is the one the write was built on: same game, at
    /// `expected_ply`, same revision. Otherwise [`StoreError::Conflict`].
    fn check_stored(&self, stored: Option<&[u8]>) -> Result<GameRecord, StoreError> {
        let Some(bytes) = stored else {
            return Err(self.conflict(None));
        };
        let old: GameRecord = decode(TREE_GAMES, &id_key(self.channel_id), bytes)?;
        if old.id != self.new.id
            || old.ply() != self.expected_ply
            || old.revision != self.new.revision
        {
            return Err(self.conflict(Some(old.ply())));
        }
        Ok(old)
    }
}

impl Store {
    /// The channel's game as this process last read or wrote it ([`super::seen`]), else as
    /// stored; `true` beside it when it came from memory. Only for a use case that writes
    /// the game back: its compare-and-swap refuses a copy something else has changed since,
    /// and the use case then reads the game again with [`Store::active_game`]. On PostgreSQL
    /// a read fewer whenever this process made the channel's last move.
    pub fn active_game_remembered(
        &self,
        channel_id: u64,
    ) -> Result<Option<(GameRecord, bool)>, StoreError> {
        if let Some(bytes) = self.seen.get(TREE_GAMES, channel_id) {
            if let Ok(rec) = decode(TREE_GAMES, &id_key(channel_id), &bytes) {
                return Ok(Some((rec, true)));
            }
        }
        Ok(self.active_game(channel_id)?.map(|rec| (rec, false)))
    }

    pub fn active_game(&self, channel_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let key = id_key(channel_id);
        let Some(bytes) = self.read(TREE_GAMES, &key)? else {
            return Ok(None);
        };
        let rec = decode(TREE_GAMES, &key, &bytes)?;
        // What a move built on this read expects to replace.
        self.seen.put(TREE_GAMES, channel_id, &bytes);
        Ok(Some(rec))
    }

    /// Every active game (to resume the computer's turns after a restart, and for the
    /// sweeper's reminders and time limits: a scan reads a few hundred bytes per game). A
    /// record that does not decode is listed as its error.
    pub fn active_games(&self) -> Result<Vec<Result<GameRecord, StoreError>>, StoreError> {
        Ok(self
            .scan(TREE_GAMES, Scan::all())?
            .into_iter()
            .map(|(k, v)| decode(TREE_GAMES, &k, &v))
            .collect())
    }

    /// Starts `rec` in its channel. Refused with [`StoreError::ChannelBusy`] while the channel
    /// has an active game, however old: games that nobody plays end by their time limit
    /// (the app's sweeper), not here.
    pub async fn create_game(&self, rec: GameRecord) -> Result<(), StoreError> {
        self.create_game_capped(rec, usize::MAX).await
    }

    /// [`Store::create_game`], refused with [`StoreError::TooManyBotGames`] when `rec` is a
    /// game against the bot and its player already has `bot_games_cap` of those under way.
    /// The count and the creation are one transaction: two games asked for at once cannot
    /// both slip under the cap.
    pub async fn create_game_capped(
        &self,
        rec: GameRecord,
        bot_games_cap: usize,
    ) -> Result<(), StoreError> {
        if rec.outcome.is_some() {
            return Err(Invalid::AlreadyOver.into());
        }
        validate(&rec)?;
        let rec = GameRecord { revision: 0, ..rec };
        let new_bytes = encode("game", &rec)?;
        let key = id_key(rec.channel_id);
        // Guarded by keys, not by isolation ([`Kv::transaction_locking`]): the channel's key
        // inserted only if absent is "one game per channel", each person's record locked is
        // the cap on games against the bot. Many games created at once (the start of an
        // evening, a tournament's round) then never fail each other on PostgreSQL.
        self.transaction_locking(&[TREE_GAMES, TREE_ARCHIVE, TREE_PLAYING], |tx| {
            if !tx.insert_new(TREE_GAMES, &key, &new_bytes)? {
                let Some(bytes) = tx.get(TREE_GAMES, &key)? else {
                    // Ended since: try again.
                    return Err(TxError::Retry);
                };
                return abort(match decode(TREE_GAMES, &key, &bytes) {
                    Ok(old) => StoreError::ChannelBusy {
                        game: Box::new(old),
                    },
                    Err(e) => e,
                });
            }
            if tx.get(TREE_ARCHIVE, &id_key(rec.id))?.is_some() {
                return abort(Invalid::DuplicateId(rec.id).into());
            }
            game_started(tx, &rec, bot_games_cap)
        })?;
        self.seen.put(TREE_GAMES, rec.channel_id, &new_bytes);
        self.durable().await
    }

    /// Writes the next state of a channel's game: a move, an undo, a draw offer.
    ///
    /// Compare-and-swap: the stored game must be the same game (`id`), at `expected_ply`,
    /// with the same `revision` as `new` (the revision read); otherwise nothing is written
    /// and the result is [`StoreError::Conflict`]. Returns the new revision. A concurrent
    /// [`Store::mark_reminded`] is no conflict: its mark is kept while the ply stays.
    ///
    /// A game that has ended goes through [`Store::finish_game`] instead.
    pub async fn update_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
        new: &GameRecord,
    ) -> Result<u64, StoreError> {
        let expected = Expected {
            channel_id,
            expected_ply,
            new,
        };
        expected.check_record(false)?;
        let key = id_key(channel_id);
        // The game as this process last saw it, most often the read `new` was built on: tried
        // first, without reading it again. Anything else stored now makes the swap fail.
        let mut seen = self.seen.get(TREE_GAMES, channel_id);
        let revision = loop {
            let remembered = seen.take();
            let from_memory = remembered.is_some();
            let old_bytes = match remembered {
                Some(bytes) => Some(bytes),
                None => self.read(TREE_GAMES, &key)?,
            };
            let old = match expected.check_stored(old_bytes.as_deref()) {
                Ok(old) => old,
                // Only what is stored now can refuse the write.
                Err(_) if from_memory => continue,
                Err(e) => return Err(e),
            };
            let reminded_ply = new
                .reminded_ply
                .or(old.reminded_ply)
                .filter(|&p| p == new.ply());
            let to_write = GameRecord {
                revision: old.revision + 1,
                reminded_ply,
                ..new.clone()
            };
            let new_bytes = encode("game", &to_write)?;
            if self.swap(TREE_GAMES, &key, old_bytes.as_deref(), Some(&new_bytes))? {
                self.seen.put(TREE_GAMES, channel_id, &new_bytes);
                break to_write.revision;
            }
            // Something wrote meanwhile: read again (a reminder mark passes, a move does not).
        };
        self.durable().await?;
        Ok(revision)
    }

    /// Notes that the person to move in game `game_id` was reminded at `ply`, so that the
    /// reminder goes once per turn. Not a revision: a move built on the read before the mark
    /// still goes through. `Ok(false)` when the channel's game is another one or has moved
    /// on (no reminder is due any more).
    pub async fn mark_reminded(
        &self,
        channel_id: u64,
        game_id: u64,
        ply: usize,
    ) -> Result<bool, StoreError> {
        let key = id_key(channel_id);
        loop {
            let Some(bytes) = self.read(TREE_GAMES, &key)? else {
                return Ok(false);
            };
            let mut rec: GameRecord = decode(TREE_GAMES, &key, &bytes)?;
            if rec.id != game_id || rec.ply() != ply {
                return Ok(false);
            }
            rec.reminded_ply = Some(ply);
            let new_bytes = encode("game", &rec)?;
            if self.swap(TREE_GAMES, &key, Some(&bytes), Some(&new_bytes))? {
                self.seen.put(TREE_GAMES, channel_id, &new_bytes);
                break;
            }
        }
        self.durable().await?;
        Ok(true)
    }

    /// Ends a channel's game: removes the active record (compare-and-swap as in
    /// [`Store::update_game`]: same game, `expected_ply` and revision), archives `finished`,
    /// and updates both players' records, ratings and leaderboards — all in one
    /// transaction, durable before it returns.
    ///
    /// `finished.outcome` must be set; moves may extend the stored ones (the move that ended
    /// the game) or equal them (a resignation, a loss on time). Player or leaderboard records
    /// that do not decode are left alone and listed in [`FinishSummary::skipped`]; the game
    /// still ends. The channel's board post stays: its message's controls are still to be
    /// stripped.
    pub async fn finish_game(
        &self,
        channel_id: u64,
        expected_ply: usize,
        finished: &GameRecord,
        policy: &dyn Settle,
    ) -> Result<FinishSummary, StoreError> {
        let expected = Expected {
            channel_id,
            expected_ply,
            new: finished,
        };
        let game = expected.check_record(true)?;
        let key = id_key(channel_id);
        let summary = self.transaction(&FINISHING_TREES, |tx| {
            let old = match expected.check_stored(tx.get(TREE_GAMES, &key)?.as_deref()) {
                Ok(old) => old,
                Err(e) => return abort(e),
            };
            let rec = GameRecord {
                revision: old.revision + 1,
                ..finished.clone()
            };
            finish_in(tx, &rec, &game, policy)
        })?;
        self.seen.forget(TREE_GAMES, channel_id);
        self.durable().await?;
        Ok(summary)
    }
}

/// Inside a transaction: removes the active record, archives `rec`, writes the indexes and
/// settles the players and leaderboards.
fn finish_in(
    tx: &Tx<'_>,
    rec: &GameRecord,
    game: &Game,
    policy: &dyn Settle,
) -> TxResult<FinishSummary> {
    let Some(outcome) = rec.outcome else {
        return abort(Invalid::NotFinished.into());
    };
    let game_key = id_key(rec.id);
    if tx.get(TREE_ARCHIVE, &game_key)?.is_some() {
        return abort(Invalid::DuplicateId(rec.id).into());
    }
    let archived = match encode("game", rec) {
        Ok(b) => b,
        Err(e) => return abort(e),
    };
    tx.remove(TREE_GAMES, &id_key(rec.channel_id))?;
    game_ended(tx, rec)?;
    tx.insert(TREE_ARCHIVE, &game_key, &archived)?;
    tx.insert(TREE_BY_CHANNEL, &pair_key(rec.channel_id, rec.id), &[])?;

    let humans: Vec<u64> = rec.players.iter().filter_map(Seat::user_id).collect();
    for user in &humans {
        tx.insert(TREE_BY_PLAYER, &pair_key(*user, rec.id), &[])?;
    }
    if let [a, b] = humans[..] {
        if a != b {
            tx.insert(TREE_PAIRS, &pair_key(a.min(b), a.max(b)), &id_key(rec.id))?;
        }
    }

    let mut skipped = Vec::new();
    let mut records: ByColour<Option<PlayerRecord>> = ByColour::default();
    for (color, seat) in rec.players.sides() {
        if let Seat::Human { user_id, name } = seat {
            let key = id_key(*user_id);
            records[color] = match tx.get(TREE_PLAYERS, &key)? {
                None => Some(PlayerRecord::new(*user_id, name.clone())),
                Some(bytes) => match decode(TREE_PLAYERS, &key, &bytes) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        skipped.push(e);
                        None
                    }
                },
            };
        }
    }
    // Someone playing both sides has one record, not two.
    let white = rec.players.white.user_id();
    if white.is_some() && white == rec.players.black.user_id() {
        records.black = None;
    }
    let seats = policy.settle(rec, game, outcome, &mut records);
    for (record, seat) in records.iter_mut().zip(&seats) {
        let Some(p) = record else { continue };
        if let Some(seat) = seat {
            refresh_boards(tx, p, rec, seat, &mut skipped)?;
        }
        let bytes = match encode("player", &*p) {
            Ok(b) => b,
            Err(e) => return abort(e),
        };
        tx.insert(TREE_PLAYERS, &id_key(p.user_id), &bytes)?;
    }
    Ok(FinishSummary {
        game_id: rec.id,
        outcome,
        seats,
        skipped,
    })
}
