//! Players' records and the guilds' leaderboards.

use super::codec::{decode, decode_u64, encode, id_key, key_text, Record};
use super::kv::{abort, Scan, Tx, TxResult};
use super::records::{self, GameRecord, LeaderboardEntry, PlayerRecord, Rating, Seat, SeatSummary};
use super::{Store, StoreError, TREE_BOARDS, TREE_BOARD_MEMBERS, TREE_PLAYERS};
use crate::engine::Variant;
use crate::level::Level;
use serde::{Deserialize, Serialize};

/// The board a leaderboard line belongs to: 0 for games between people, 1 + [`Level::index`]
/// for games against the computer.
fn board_kind(level: Option<Level>) -> u8 {
    level.map_or(0, |l| l.index() as u8 + 1)
}

fn board_prefix(guild: u64, variant: Variant, kind: u8) -> Vec<u8> {
    let mut k = Vec::with_capacity(26);
    k.extend_from_slice(&guild.to_be_bytes());
    k.push(records::variant_index(variant) as u8);
    k.push(kind);
    k
}

fn member_key(guild: u64, variant: Variant, kind: u8, user: u64) -> Vec<u8> {
    let mut k = board_prefix(guild, variant, kind);
    k.extend_from_slice(&user.to_be_bytes());
    k
}

/// Higher sort keys first: the key stores the complement.
fn board_key(guild: u64, variant: Variant, kind: u8, sort: u64, user: u64) -> Vec<u8> {
    let mut k = board_prefix(guild, variant, kind);
    k.extend_from_slice(&(!sort).to_be_bytes());
    k.extend_from_slice(&user.to_be_bytes());
    k
}

/// The line a member key points to, once its sort key is read: the member key's board
/// prefix, then the complemented sort key and the user (what [`board_key`] builds).
pub(crate) fn line_key_of_member(member_key: &[u8], sort: u64) -> Option<Vec<u8>> {
    if member_key.len() != MEMBER_KEY_LEN {
        return None;
    }
    let (prefix, user) = member_key.split_at(MEMBER_KEY_LEN - 8);
    let mut k = prefix.to_vec();
    k.extend_from_slice(&(!sort).to_be_bytes());
    k.extend_from_slice(user);
    Some(k)
}

/// guild ++ variant ++ board ++ user.
pub(crate) const MEMBER_KEY_LEN: usize = 8 + 1 + 1 + 8;

/// The data of a leaderboard line as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BoardLine {
    pub(super) name: String,
    pub(super) score: u32,
    pub(super) games: u32,
}

impl Record for BoardLine {}

/// A rating as a sort key: hundredths, never negative.
fn rating_sort(r: &Rating) -> u64 {
    (r.rating.max(0.0) * 100.0).round() as u64
}

impl Store {
    pub fn player(&self, user_id: u64) -> Result<Option<PlayerRecord>, StoreError> {
        let key = id_key(user_id);
        self.read(TREE_PLAYERS, &key)?
            .map(|v| decode(TREE_PLAYERS, &key, &v))
            .transpose()
    }

    /// A guild's leaderboard for `variant`, best first: by Glicko-2 rating between people
    /// (`level: None`; members are those who finished a game against a person in this guild),
    /// or by best ranked score against the computer at `level` in this guild.
    pub fn leaderboard(
        &self,
        guild_id: u64,
        variant: Variant,
        level: Option<Level>,
        limit: usize,
    ) -> Result<Vec<LeaderboardEntry>, StoreError> {
        let prefix = board_prefix(guild_id, variant, board_kind(level));
        let mut out = Vec::new();
        for (k, v) in self.scan(TREE_BOARDS, Scan::prefix(&prefix).limit(limit))? {
            let line: BoardLine = decode(TREE_BOARDS, &k, &v)?;
            let user_id = k
                .get(prefix.len() + 8..)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| StoreError::Corrupt {
                    tree: TREE_BOARDS,
                    key: key_text(&k),
                    reason: "key is not guild, variant, board, score, user".to_string(),
                })?;
            out.push(LeaderboardEntry {
                user_id,
                name: line.name,
                score: line.score,
                games: line.games,
            });
        }
        Ok(out)
    }
}

/// Moves a player's lines on every leaderboard the game changed: their rating line (people)
/// or their line for the computer's level, in every guild where they have one, and adds
/// them to this guild's board when the game earns a place.
pub(crate) fn refresh_boards(
    tx: &Tx<'_>,
    p: &mut PlayerRecord,
    rec: &GameRecord,
    seat: &SeatSummary,
    skipped: &mut Vec<StoreError>,
) -> TxResult<()> {
    let variant = rec.variant;
    let here = rec.guild_id;
    // What the line would say: (kind, games, the score this game earns here if it does).
    let (kind, games, earned) = match (&seat.rating, seat.score) {
        (Some((_, after)), _) => (
            board_kind(None),
            p.variant(variant).people.games(),
            Some((after.rating.max(0.0).round() as u32, rating_sort(after))),
        ),
        (None, Some(points)) => {
            let level = rec
                .human_against_bot()
                .and_then(|h| match rec.seat(h.opposite()) {
                    Seat::Bot { level } => Some(*level),
                    _ => None,
                });
            let Some(level) = level else { return Ok(()) };
            let games = p.bot(variant, level).tally.games();
            (
                board_kind(Some(level)),
                games,
                seat.ranked.then_some((points, u64::from(points))),
            )
        }
        (None, None) => return Ok(()),
    };
    let is_rating = kind == 0;
    let mut guilds = p.guilds.clone();
    if let Some(g) = here {
        if !guilds.contains(&g) {
            guilds.push(g);
        }
    }
    for g in guilds {
        let mkey = member_key(g, variant, kind, p.user_id);
        let current = match tx.get(TREE_BOARD_MEMBERS, &mkey)? {
            None => None,
            Some(v) => match decode_u64(TREE_BOARD_MEMBERS, &mkey, &v) {
                Ok(sort) => {
                    let bkey = board_key(g, variant, kind, sort, p.user_id);
                    match tx.get(TREE_BOARDS, &bkey)? {
                        Some(lv) => match decode::<BoardLine>(TREE_BOARDS, &bkey, &lv) {
                            Ok(line) => Some((sort, bkey, line)),
                            Err(e) => {
                                skipped.push(e);
                                continue;
                            }
                        },
                        // The line is missing: write it again below.
                        None => Some((
                            sort,
                            bkey,
                            BoardLine {
                                name: p.name.clone(),
                                score: 0,
                                games,
                            },
                        )),
                    }
                }
                Err(e) => {
                    skipped.push(e);
                    continue;
                }
            },
        };
        let earned_here = if Some(g) == here { earned } else { None };
        let (score, sort) = match (&current, earned_here) {
            // A rating replaces the old one; a score only beats it.
            (Some((sort, _, line)), Some((s, k))) => {
                if is_rating || k > *sort {
                    (s, k)
                } else {
                    (line.score, *sort)
                }
            }
            (Some((sort, _, line)), None) => {
                if is_rating {
                    // The rating is global: every guild's line shows the new one.
                    earned.unwrap_or((line.score, *sort))
                } else {
                    (line.score, *sort)
                }
            }
            (None, Some(sk)) => sk,
            (None, None) => continue,
        };
        if let Some((_, old_key, _)) = &current {
            tx.remove(TREE_BOARDS, old_key)?;
        }
        let line = BoardLine {
            name: p.name.clone(),
            score,
            games,
        };
        let bytes = match encode("leaderboard line", &line) {
            Ok(b) => b,
            Err(e) => return abort(e),
        };
        tx.insert(
            TREE_BOARDS,
            &board_key(g, variant, kind, sort, p.user_id),
            &bytes,
        )?;
        tx.insert(TREE_BOARD_MEMBERS, &mkey, &sort.to_be_bytes())?;
        if !p.guilds.contains(&g) {
            p.guilds.push(g);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_key_leads_to_its_line() {
        let member = member_key(7, Variant::English, 3, 42);
        assert_eq!(member.len(), MEMBER_KEY_LEN);
        assert_eq!(
            line_key_of_member(&member, 1234),
            Some(board_key(7, Variant::English, 3, 1234, 42))
        );
        assert_eq!(line_key_of_member(&member[1..], 1), None);
    }

    #[test]
    fn leaderboard_keys_put_the_best_first() {
        let low = board_key(1, Variant::Spanish, 0, 150_000, 9);
        let high = board_key(1, Variant::Spanish, 0, 160_000, 9);
        assert!(high < low);
        // Same score: lower user id first; other boards never interleave.
        assert!(board_key(1, Variant::Spanish, 0, 5, 1) < board_key(1, Variant::Spanish, 0, 5, 2));
        assert!(
            !board_key(1, Variant::Spanish, 1, u64::MAX, 1).starts_with(&board_prefix(
                1,
                Variant::Spanish,
                0
            ))
        );
    }
}
