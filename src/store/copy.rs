//! Moving a database between backends (`damas store copy --from DB --to DB`): every entry of
//! every tree, byte for byte, then a check that counts match, that every target entry equals
//! its source and that every target record decodes (and every game replays).
//!
//! The target must be empty: a copy never merges into, nor overwrites, another database. Stop
//! the bot while copying: writes made during a copy may be missed.

use super::codec::{decode, decode_u64, key_text, second_id};
use super::leaderboards::BoardLine;
use super::posts::BoardPost;
use super::records::{Challenge, GameRecord, PlayerRecord};
use super::{
    Store, StoreError, TREES, TREE_ARCHIVE, TREE_BOARDS, TREE_BOARD_MEMBERS, TREE_BY_CHANNEL,
    TREE_BY_PLAYER, TREE_CHALLENGES, TREE_GAMES, TREE_PAIRS, TREE_PLAYERS, TREE_POSTS,
    TREE_PUZZLE_MEMBERS, TREE_PUZZLE_PLAYERS, TREE_THREADS,
};

/// Entries read and written at a time (one transaction each on the target).
const PAGE: usize = 500;

/// What a copy moved: entries per tree, in [`TREES`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopySummary {
    pub trees: Vec<(&'static str, u64)>,
}

impl CopySummary {
    pub fn total(&self) -> u64 {
        self.trees.iter().map(|t| t.1).sum()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the target already holds {count} entries in {tree}: copy into an empty database")]
    TargetNotEmpty { tree: &'static str, count: u64 },
    #[error("{tree}: {source_count} entries in the source but {target_count} in the target")]
    CountMismatch {
        tree: &'static str,
        source_count: u64,
        target_count: u64,
    },
    #[error("{tree}: the target's entry at key {key} differs from the source's")]
    Differs { tree: &'static str, key: String },
    #[error("the target does not decode: {0}")]
    Undecodable(StoreError),
}

/// Copies every tree of `from` into the empty `to` and verifies the result.
pub async fn copy(from: &Store, to: &Store) -> Result<CopySummary, CopyError> {
    for tree in TREES {
        let count = to.raw_count(tree)?;
        if count > 0 {
            return Err(CopyError::TargetNotEmpty { tree, count });
        }
    }
    let mut highest_id = from.new_game_id()?;
    for tree in TREES {
        let mut after: Option<Vec<u8>> = None;
        loop {
            let page = from.raw_page(tree, after.as_deref(), PAGE)?;
            let Some((last, _)) = page.last() else { break };
            after = Some(last.clone());
            if tree == TREE_ARCHIVE {
                if let Some(id) = page.last().and_then(|(k, _)| decode_u64(tree, k, k).ok()) {
                    highest_id = highest_id.max(id);
                }
            }
            to.raw_put(tree, &page).await?;
        }
    }
    to.reserve_ids_through(highest_id)?;
    verify(from, to)
}

/// Counts, entries and decoding of `to` against `from`.
pub fn verify(from: &Store, to: &Store) -> Result<CopySummary, CopyError> {
    let mut trees = Vec::new();
    for tree in TREES {
        let (source_count, target_count) = (from.raw_count(tree)?, to.raw_count(tree)?);
        if source_count != target_count {
            return Err(CopyError::CountMismatch {
                tree,
                source_count,
                target_count,
            });
        }
        let mut after: Option<Vec<u8>> = None;
        let mut seen = 0;
        loop {
            let source = from.raw_page(tree, after.as_deref(), PAGE)?;
            let target = to.raw_page(tree, after.as_deref(), PAGE)?;
            for (i, (key, value)) in target.iter().enumerate() {
                if source.get(i) != Some(&(key.clone(), value.clone())) {
                    return Err(CopyError::Differs {
                        tree,
                        key: key_text(key),
                    });
                }
                check_decodes(tree, key, value).map_err(CopyError::Undecodable)?;
            }
            if source.len() != target.len() {
                let key = source
                    .get(target.len())
                    .map_or_else(String::new, |e| key_text(&e.0));
                return Err(CopyError::Differs { tree, key });
            }
            seen += target.len() as u64;
            match target.last() {
                Some((last, _)) => after = Some(last.clone()),
                None => break,
            }
        }
        if seen != target_count {
            return Err(CopyError::CountMismatch {
                tree,
                source_count,
                target_count: seen,
            });
        }
        trees.push((tree, seen));
    }
    Ok(CopySummary { trees })
}

/// Decodes one entry as its tree's record type (games also replay).
pub(crate) fn check_decodes(
    tree: &'static str,
    key: &[u8],
    value: &[u8],
) -> Result<(), StoreError> {
    let bad = |reason: &str| StoreError::Corrupt {
        tree,
        key: key_text(key),
        reason: reason.to_string(),
    };
    match tree {
        TREE_GAMES | TREE_ARCHIVE => {
            decode::<GameRecord>(tree, key, value)?.to_game()?;
        }
        TREE_POSTS => {
            decode::<BoardPost>(tree, key, value)?;
        }
        TREE_CHALLENGES => {
            decode::<Challenge>(tree, key, value)?;
        }
        TREE_PLAYERS => {
            decode::<PlayerRecord>(tree, key, value)?;
        }
        TREE_BOARDS => {
            decode::<BoardLine>(tree, key, value)?;
        }
        TREE_PUZZLE_PLAYERS => {
            decode::<super::PuzzlePlayer>(tree, key, value)?;
        }
        TREE_PUZZLE_MEMBERS => {
            if key.len() != 16 || second_id(key).is_none() || !value.is_empty() {
                return Err(bad("puzzle board entry is not two ids and no value"));
            }
        }
        TREE_THREADS => {
            decode::<super::GameThread>(tree, key, value)?;
        }
        super::TREE_TOURNAMENTS => {
            super::tournaments::check_head(key, value)?;
        }
        super::TREE_SERVER_SETTINGS => {
            decode::<super::ServerSettings>(tree, key, value)?;
        }
        super::TREE_TOURNAMENT_GAMES => {
            decode_u64(tree, key, value)?;
        }
        super::TREE_PLAYING => {
            decode::<super::Playing>(tree, key, value)?;
        }
        TREE_PAIRS | TREE_BOARD_MEMBERS => {
            decode_u64(tree, key, value)?;
        }
        TREE_BY_PLAYER | TREE_BY_CHANNEL => {
            if key.len() != 16 || second_id(key).is_none() || !value.is_empty() {
                return Err(bad("index entry is not two ids and no value"));
            }
        }
        _ => return Err(bad("no decoder for this tree: add one in store/copy.rs")),
    }
    Ok(())
}
