//! Tournaments: one record per tournament (`tournaments`: tournament id → [`TournamentRecord`])
//! and a link from each of its games to it (`tournament_games`: game id → tournament id), so
//! that a game that ends finds its pairing.
//!
//! The store keeps what it must know of a tournament itself — where it runs, who organises
//! it, who entered (names that `/forget-me` replaces) and its version — and holds the rest
//! (`state`: format, rounds, results) as the app's own type, which it never looks into:
//! pairing and scoring are the app's. Every change is a compare-and-swap on the version the
//! change was built on ([`Store::update_tournament`]), as games are on their ply and revision:
//! two processes pairing the same round cannot both succeed.

use super::codec::{decode, decode_u64, encode, id_key, Record, FORMAT_VERSION};
use super::kv::{abort, Scan};
use super::records::Seat;
use super::{Store, StoreError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub const TREE_TOURNAMENTS: &str = "tournaments";
pub const TREE_TOURNAMENT_GAMES: &str = "tournament_games";

/// A tournament as stored. `state` is the app's and must be the last field: the store reads
/// and rewrites the fields before it without decoding it ([`Head`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRecord<S> {
    pub id: u64,
    /// How many changes were stored before this one; [`Store::update_tournament`] stores the
    /// next only on top of this one.
    pub version: u64,
    pub guild_id: Option<u64>,
    /// The channel it was created in: its announcements, and its games' threads.
    pub channel_id: u64,
    /// Who created it (0 once they asked to be forgotten).
    pub organiser: u64,
    /// Everyone who entered, in entry order (the app's `Entry(i)` is `entrants[i]`). A
    /// forgotten entrant's seat is [`Seat::Deleted`].
    pub entrants: Vec<Seat>,
    pub state: S,
}

/// The fields of a [`TournamentRecord`] before its state, laid out as postcard lays them out
/// there: decoding a record's body as a `Head` leaves exactly the state's bytes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Head {
    id: u64,
    version: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    organiser: u64,
    entrants: Vec<Seat>,
}

impl<S: DeserializeOwned> Record for TournamentRecord<S> {
    fn decode_old(_version: u8, _body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        None
    }
}

/// A stored tournament's head and the bytes of its state.
fn split_head<'b>(key: &[u8], bytes: &'b [u8]) -> Result<(Head, &'b [u8]), StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        tree: TREE_TOURNAMENTS,
        key: super::codec::key_text(key),
        reason,
    };
    match bytes.split_first() {
        Some((&FORMAT_VERSION, body)) => {
            postcard::take_from_bytes::<Head>(body).map_err(|e| corrupt(e.to_string()))
        }
        Some((&version, _)) => Err(StoreError::UnknownVersion {
            tree: TREE_TOURNAMENTS,
            key: super::codec::key_text(key),
            version,
        }),
        None => Err(corrupt("empty value".to_string())),
    }
}

/// Checks that a stored tournament's head decodes (`damas store copy`'s check: the state is
/// the app's to read).
pub(crate) fn check_head(key: &[u8], bytes: &[u8]) -> Result<(), StoreError> {
    split_head(key, bytes).map(|_| ())
}

impl Store {
    /// Stores a new tournament (`rec.version` 0). Refused with
    /// [`StoreError::TournamentConflict`] when its id is taken. Durable before it returns.
    pub async fn create_tournament<S: Serialize>(
        &self,
        rec: &TournamentRecord<S>,
    ) -> Result<(), StoreError> {
        let key = id_key(rec.id);
        let bytes = encode("tournament", rec)?;
        if !self.swap(TREE_TOURNAMENTS, &key, None, Some(&bytes))? {
            return Err(StoreError::TournamentConflict {
                tournament_id: rec.id,
                expected_version: None,
            });
        }
        self.durable().await
    }

    /// Tournament `id`, if there is one.
    pub fn tournament<S: DeserializeOwned>(
        &self,
        id: u64,
    ) -> Result<Option<TournamentRecord<S>>, StoreError> {
        let key = id_key(id);
        self.read(TREE_TOURNAMENTS, &key)?
            .map(|v| decode(TREE_TOURNAMENTS, &key, &v))
            .transpose()
    }

    /// Every tournament, oldest first (ids grow); one that does not decode is listed as its
    /// error. A server runs a handful at a time, and finished ones are few bytes each.
    pub fn tournaments<S: DeserializeOwned>(
        &self,
    ) -> Result<Vec<Result<TournamentRecord<S>, StoreError>>, StoreError> {
        Ok(self
            .scan(TREE_TOURNAMENTS, Scan::all())?
            .into_iter()
            .map(|(k, v)| decode(TREE_TOURNAMENTS, &k, &v))
            .collect())
    }

    /// Stores `rec` as the next version of its tournament, if the stored one is still the
    /// version `rec` was built on (`rec.version`), and links `new_games` to it — in one
    /// transaction, durable before it returns. Returns the record as stored (its version one
    /// more). Otherwise refused with [`StoreError::TournamentConflict`], nothing written: the
    /// caller reads the tournament again and decides anew.
    pub async fn update_tournament<S: Serialize + Clone>(
        &self,
        rec: &TournamentRecord<S>,
        new_games: &[u64],
    ) -> Result<TournamentRecord<S>, StoreError> {
        let key = id_key(rec.id);
        let next = TournamentRecord {
            version: rec.version + 1,
            ..rec.clone()
        };
        let bytes = encode("tournament", &next)?;
        let link = id_key(rec.id);
        self.transaction(&[TREE_TOURNAMENTS, TREE_TOURNAMENT_GAMES], |tx| {
            let found = match tx.get(TREE_TOURNAMENTS, &key)? {
                Some(old) => match split_head(&key, &old) {
                    Ok((head, _)) => Some(head.version),
                    Err(e) => return abort(e),
                },
                None => None,
            };
            if found != Some(rec.version) {
                return abort(StoreError::TournamentConflict {
                    tournament_id: rec.id,
                    expected_version: Some(rec.version),
                });
            }
            tx.insert(TREE_TOURNAMENTS, &key, &bytes)?;
            for &game in new_games {
                tx.insert(TREE_TOURNAMENT_GAMES, &id_key(game), &link)?;
            }
            Ok(())
        })?;
        self.durable().await?;
        Ok(next)
    }

    /// The tournament game `game_id` was played in, if any.
    pub fn tournament_of_game(&self, game_id: u64) -> Result<Option<u64>, StoreError> {
        let key = id_key(game_id);
        self.read(TREE_TOURNAMENT_GAMES, &key)?
            .map(|v| decode_u64(TREE_TOURNAMENT_GAMES, &key, &v))
            .transpose()
    }

    /// `/forget-me` in tournaments: every entry of `user_id` becomes [`Seat::Deleted`], and
    /// the tournaments they organised lose their organiser (moderators still manage them).
    /// Each record is rewritten by compare-and-swap as its next version, its state untouched. Returns how many
    /// tournaments changed; running it again changes none.
    pub(crate) async fn forget_in_tournaments(&self, user_id: u64) -> Result<usize, StoreError> {
        let mut changed = 0;
        for (key, old) in self.scan(TREE_TOURNAMENTS, Scan::all())? {
            let mut current = old;
            loop {
                let (mut head, state) = split_head(&key, &current)?;
                let mut touched = false;
                for seat in &mut head.entrants {
                    if matches!(seat, Seat::Human { user_id: u, .. } if *u == user_id) {
                        *seat = Seat::Deleted;
                        touched = true;
                    }
                }
                if head.organiser == user_id {
                    head.organiser = 0;
                    touched = true;
                }
                if !touched {
                    break;
                }
                // A version of its own: a change built before it cannot bring a name back.
                head.version += 1;
                let mut bytes = encode("tournament", &head)?;
                bytes.extend_from_slice(state);
                if self.swap(TREE_TOURNAMENTS, &key, Some(&current), Some(&bytes))? {
                    changed += 1;
                    break;
                }
                match self.read(TREE_TOURNAMENTS, &key)? {
                    Some(now) => current = now,
                    None => break,
                }
            }
        }
        if changed > 0 {
            self.durable().await?;
        }
        Ok(changed)
    }
}
