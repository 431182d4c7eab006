//! What the store holds about one person, gathered for `/my-data` from the trees that do not
//! index it by person: their leaderboard lines, the servers whose puzzle board they are on,
//! the open challenges they made or received, their games under way. (Their player and puzzle
//! records, finished games and tournaments have readers of their own.) Each scan reads one
//! whole tree, as `/forget-me`'s plan does: both are rare, one person's own request.

use super::codec::{decode, decode_u64, id_key, second_id};
use super::kv::Scan;
use super::leaderboards::{line_key_of_member, BoardLine, MEMBER_KEY_LEN};
use super::records::{variant_index, Challenge, GameRecord};
use super::{Store, StoreError, TREE_BOARDS, TREE_BOARD_MEMBERS, TREE_PUZZLE_MEMBERS};
use crate::engine::Variant;
use crate::level::Level;

/// One of a person's lines on a server's leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnLine {
    pub guild_id: u64,
    pub variant: Variant,
    /// The computer's level for its boards; `None` on the board of games between people.
    pub level: Option<Level>,
    /// The name the line shows.
    pub name: String,
    /// The rounded rating (people) or the best score in this server (computer).
    pub score: u32,
    pub games: u32,
}

impl Store {
    /// Every leaderboard line of `user_id`, in key order (server, variant, board).
    pub fn leaderboard_lines_of(&self, user_id: u64) -> Result<Vec<OwnLine>, StoreError> {
        let mut out = Vec::new();
        for (member, sort) in self.scan(TREE_BOARD_MEMBERS, Scan::all())? {
            if member.len() != MEMBER_KEY_LEN || member[MEMBER_KEY_LEN - 8..] != id_key(user_id) {
                continue;
            }
            let sort = decode_u64(TREE_BOARD_MEMBERS, &member, &sort)?;
            let Some(line_key) = line_key_of_member(&member, sort) else {
                continue;
            };
            let Some(bytes) = self.read(TREE_BOARDS, &line_key)? else {
                continue;
            };
            let line: BoardLine = decode(TREE_BOARDS, &line_key, &bytes)?;
            let mut guild = [0u8; 8];
            guild.copy_from_slice(&member[..8]);
            let Some(&variant) = Variant::ALL
                .iter()
                .find(|&&v| variant_index(v) == usize::from(member[8]))
            else {
                continue;
            };
            let level = match member[9] {
                0 => None,
                kind => match Level::ALL.get(usize::from(kind) - 1) {
                    Some(&l) => Some(l),
                    None => continue,
                },
            };
            out.push(OwnLine {
                guild_id: u64::from_be_bytes(guild),
                variant,
                level,
                name: line.name,
                score: line.score,
                games: line.games,
            });
        }
        Ok(out)
    }

    /// The servers whose puzzle leaderboard lists `user_id`.
    pub fn puzzle_servers_of(&self, user_id: u64) -> Result<Vec<u64>, StoreError> {
        Ok(self
            .scan(TREE_PUZZLE_MEMBERS, Scan::all())?
            .into_iter()
            .filter(|(k, _)| second_id(k) == Some(user_id))
            .filter_map(|(k, _)| k.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()))
            .map(u64::from_be_bytes)
            .collect())
    }

    /// The open challenges `user_id` made or received, with their channels.
    pub fn challenges_of(&self, user_id: u64) -> Result<Vec<(u64, Challenge)>, StoreError> {
        Ok(self
            .open_challenges()?
            .into_iter()
            .filter(|(_, c)| c.challenger.user_id == user_id || c.challenged.user_id == user_id)
            .collect())
    }

    /// The games under way `user_id` sits in, as stored now.
    pub fn games_under_way_of(&self, user_id: u64) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::new();
        for g in self.playing(user_id)?.games {
            if let Some(rec) = self.active_game(g.channel_id)? {
                if rec.id == g.game_id {
                    out.push(rec);
                }
            }
        }
        Ok(out)
    }
}
