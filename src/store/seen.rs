//! What this process last read or wrote of each channel's game, board post and challenge, and
//! of each person's puzzle record, as stored: the old value the next compare-and-swap of that
//! key expects, so that a write built on a read the app just made (a move, the board of that
//! move, an acceptance) does not read the key again — on PostgreSQL, a statement and a round
//! trip fewer each time. An empty value: the key was absent (puzzle records only).
//!
//! A value another process (or another path of this one) has changed since only makes the
//! swap fail, and the write then reads the key and goes on as it would have without this
//! memory. Taken for the value itself only by use cases that try again on the stored value
//! whatever they refuse on the remembered one ([`super::Store::active_game_remembered`],
//! [`super::Store::puzzle_player_remembered`]): nothing is refused on an outdated copy, and a
//! write on one fails its swap. So nothing here needs to be forgotten for correctness;
//! finished games are forgotten to keep it small, and it is emptied once it holds
//! [`CAPACITY`] keys.

use std::collections::HashMap;
use std::sync::Mutex;

/// Keys remembered before the memory is emptied: far more channels than play at once, a few
/// hundred bytes each.
const CAPACITY: usize = 16_384;

#[derive(Default)]
pub(crate) struct Seen {
    values: Mutex<HashMap<(&'static str, u64), Vec<u8>>>,
}

impl Seen {
    fn values(&self) -> std::sync::MutexGuard<'_, HashMap<(&'static str, u64), Vec<u8>>> {
        self.values.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The bytes of `tree`'s key `id` as this process last saw them, if it remembers.
    pub fn get(&self, tree: &'static str, id: u64) -> Option<Vec<u8>> {
        self.values().get(&(tree, id)).cloned()
    }

    /// `tree`'s key `id` holds `bytes` now (just read or written).
    pub fn put(&self, tree: &'static str, id: u64, bytes: &[u8]) {
        let mut values = self.values();
        if values.len() >= CAPACITY && !values.contains_key(&(tree, id)) {
            values.clear();
        }
        values.insert((tree, id), bytes.to_vec());
    }

    pub fn forget(&self, tree: &'static str, id: u64) {
        self.values().remove(&(tree, id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_per_tree_and_forgotten_when_asked() {
        let seen = Seen::default();
        seen.put("games", 1, b"game");
        seen.put("posts", 1, b"post");
        assert_eq!(seen.get("games", 1).as_deref(), Some(&b"game"[..]));
        assert_eq!(seen.get("posts", 1).as_deref(), Some(&b"post"[..]));
        seen.forget("games", 1);
        assert_eq!(seen.get("games", 1), None);
        assert_eq!(seen.get("posts", 1).as_deref(), Some(&b"post"[..]));
    }

    #[test]
    fn a_full_memory_starts_again_rather_than_growing() {
        let seen = Seen::default();
        for id in 0..CAPACITY as u64 {
            seen.put("games", id, b"x");
        }
        seen.put("games", 0, b"again");
        assert_eq!(seen.values().len(), CAPACITY, "a key it has is replaced");
        seen.put("games", CAPACITY as u64, b"new");
        assert_eq!(seen.values().len(), 1);
        assert_eq!(
            seen.get("games", CAPACITY as u64).as_deref(),
            Some(&b"new"[..])
        );
    }
}
