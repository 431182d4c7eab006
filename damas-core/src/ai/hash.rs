//! Zobrist keys for positions and Expert's transposition table.

use crate::engine::{Color, Move, Position};

/// Deterministic pseudo-random numbers, the same on every machine and every run, so that
/// searches can be repeated exactly: the keys here and the noise of the weaker levels.
pub const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys per [colour][king?][square index].
const PIECE_KEYS: [[[u64; 32]; 2]; 2] = {
    let mut keys = [[[0u64; 32]; 2]; 2];
    let mut n = 0;
    while n < 128 {
        keys[n / 64][(n / 32) % 2][n % 32] = splitmix(0xDA_AA5 + n as u64 * 7919);
        n += 1;
    }
    keys
};

const BLACK_TO_MOVE: u64 = splitmix(0x51DE);

/// Keys for the Spanish three-kings count (moves made so far, 0..=13).
pub const THREE_KINGS_KEYS: [u64; 16] = {
    let mut keys = [0u64; 16];
    let mut n = 0;
    while n < 16 {
        keys[n] = splitmix(0x3C0_0000 + n as u64);
        n += 1;
    }
    keys
};

/// The key of a whole position.
pub fn position_key(pos: &Position) -> u64 {
    let mut h = 0;
    for colour in [Color::White, Color::Black] {
        let c = colour.index();
        for sq in pos.men(colour) {
            h ^= PIECE_KEYS[c][0][sq.index()];
        }
        for sq in pos.kings(colour) {
            h ^= PIECE_KEYS[c][1][sq.index()];
        }
    }
    if pos.side_to_move() == Color::Black {
        h ^= BLACK_TO_MOVE;
    }
    h
}

/// The key after `mv` is played in `pos`, from the key of `pos`: only the squares the move
/// touches change.
#[inline]
pub fn key_after(key: u64, pos: &Position, mv: &Move) -> u64 {
    let mover = pos.side_to_move();
    let c = mover.index();
    let was_king = pos.kings(mover).contains(mv.from()) as usize;
    let is_king = (was_king == 1 || pos.crowns(mv)) as usize;
    let mut h = key ^ BLACK_TO_MOVE;
    h ^= PIECE_KEYS[c][was_king][mv.from().index()];
    h ^= PIECE_KEYS[c][is_king][mv.to().index()];
    let enemy = 1 - c;
    let kings = mv.captured_kings();
    for sq in mv.captured() {
        h ^= PIECE_KEYS[enemy][kings.contains(sq) as usize][sq.index()];
    }
    h
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Within ±[`crate::ai::MATE`] + 1, which fits.
    score: i16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    /// The best move's from and to square numbers (0 when unknown).
    from: u8,
    to: u8,
    /// The search that stored it ([`Table::new_search`]), so that entries of earlier moves
    /// of a game give way to the current search's.
    generation: u8,
}

/// What a probe found.
pub struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The best move found there, as (from, to) square numbers.
    pub best: Option<(u8, u8)>,
}

/// Entries a key may occupy: four, one 64-byte cache line.
const BUCKET: usize = 4;

/// Buckets of four entries. A new entry takes the place of its own key's, else of the least
/// useful entry of its bucket: the shallowest, counting each search it is old as eight plies
/// less — so deep results of the current search stay, and a table kept from move to move
/// (`damas engine`) lets its old entries go first.
///
/// A table may be owned by one search ([`Table::new`]) or kept by a thread and reused by
/// search after search ([`Table::with_memory`] then [`Table::reset`] before each), so a busy
/// bot does not allocate a table per move.
pub struct Table {
    entries: Vec<Entry>,
    /// Buckets in use, less one.
    mask: usize,
    /// The most entries this table may ever hold: its share of the memory it was given.
    max_entries: usize,
    generation: u8,
}

thread_local! {
    /// Tables allocated by this thread, so tests can tell a reused table from fresh ones.
    static TABLES_ALLOCATED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many transposition tables the calling thread has allocated so far (fresh searches
/// allocate one each; a search pool's worker allocates one for its lifetime).
pub fn tables_allocated_on_this_thread() -> usize {
    TABLES_ALLOCATED.with(|n| n.get())
}

/// Entries in `bits` bits' worth: always a whole number of buckets.
fn entries_for(bits: u32) -> usize {
    1usize << bits.clamp(BUCKET.ilog2(), usize::BITS - 2)
}

impl Table {
    /// A table of about `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let mut table = Table::with_max_entries(entries_for(bits));
        table.reset(bits);
        table
    }

    /// An empty table that may grow to at most `bytes` of entries (a power of two of them,
    /// at least one bucket). Nothing is allocated until [`Table::reset`] asks for entries,
    /// and then only what the search asks for.
    pub fn with_memory(bytes: usize) -> Table {
        let fit = (bytes / std::mem::size_of::<Entry>()).max(BUCKET);
        Table::with_max_entries(1usize << fit.ilog2())
    }

    fn with_max_entries(max_entries: usize) -> Table {
        TABLES_ALLOCATED.with(|n| n.set(n.get() + 1));
        Table {
            entries: Vec::new(),
            mask: 0,
            max_entries,
            generation: 0,
        }
    }

    /// Empties the table for a new search that wants about `2^bits` entries, within the
    /// table's memory. Grows the storage when needed; never shrinks it.
    pub fn reset(&mut self, bits: u32) {
        let used = entries_for(bits).min(self.max_entries);
        let kept = self.entries.len().min(used);
        self.entries[..kept].fill(Entry::default());
        if self.entries.len() < used {
            self.entries.reserve_exact(used - self.entries.len());
            self.entries.resize(used, Entry::default());
        }
        self.mask = used / BUCKET - 1;
        self.generation = 0;
    }

    /// Marks the start of another search in a table that keeps its entries: what earlier
    /// searches stored is still read, but gives way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Whether [`Table::reset`] has given the table entries to use.
    pub fn has_storage(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The bytes the table's entries occupy now.
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET
    }

    /// Asks the processor to bring `key`'s bucket into its cache, so that a probe a little
    /// later does not wait for memory (the table is far larger than the caches: a probe was a
    /// fifth of the search's time).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.entries.as_ptr().wrapping_add(self.bucket(key));
            // SAFETY: a prefetch is only a hint: it reads nothing and never faults, whatever
            // the address (and this one is inside the table).
            unsafe {
                std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && e.bound != 0)
            .map(|e| Hit {
                score: e.score as i32,
                depth: e.depth as i32,
                bound: match e.bound {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                best: (e.from != 0).then_some((e.from, e.to)),
            })
    }

    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Option<&Move>) {
        let b = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = match bucket.iter().position(|e| e.key == key && e.bound != 0) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry| {
                    if e.bound == 0 {
                        return i32::MIN;
                    }
                    let age = generation.wrapping_sub(e.generation) as i32;
                    e.depth as i32 - 8 * age
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            }
        };
        let old = bucket[slot];
        let (from, to) = match best {
            Some(m) => (m.from().number(), m.to().number()),
            // A bound without a move keeps the move an earlier search found here.
            None if old.key == key => (old.from, old.to),
            None => (0, 0),
        };
        bucket[slot] = Entry {
            key,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            from,
            to,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;

    /// The incremental key agrees with the full one along random-ish games in every variant.
    #[test]
    fn incremental_keys_match_full_keys() {
        for v in Variant::ALL {
            let mut pos = Position::start(v);
            let mut key = position_key(&pos);
            for ply in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(ply * 7 + 3) % moves.len()];
                key = key_after(key, &pos, &mv);
                pos = pos.apply(&mv);
                assert_eq!(key, position_key(&pos), "{v} ply {ply}");
            }
        }
    }

    #[test]
    fn table_returns_what_was_stored() {
        let mut t = Table::new(10);
        assert!(t.probe(42).is_none());
        t.store(42, 5, -17, Bound::Lower, None);
        let hit = t.probe(42);
        assert!(matches!(
            hit,
            Some(Hit {
                score: -17,
                depth: 5,
                bound: Bound::Lower,
                best: None
            })
        ));
        // Other keys of the same bucket fill it without evicting the deeper entry.
        let others: Vec<u64> = (1..4).map(|i| 42 + (i << 20)).collect();
        for &k in &others {
            t.store(k, 1, 3, Bound::Exact, None);
        }
        assert!(t.probe(42).is_some());
        assert!(others.iter().all(|&k| t.probe(k).is_some()));
        // A full bucket gives up its shallowest entry.
        t.store(42 + (9 << 20), 3, 0, Bound::Exact, None);
        assert!(t.probe(42).is_some());
        assert_eq!(others.iter().filter(|&&k| t.probe(k).is_some()).count(), 2);
    }

    #[test]
    fn entries_of_earlier_searches_give_way_first() {
        let mut t = Table::new(4);
        let keys: Vec<u64> = (0..4).map(|i| 5 + (i << 20)).collect();
        // A deep entry from an earlier search, shallow ones from the current one.
        t.store(keys[0], 20, 0, Bound::Exact, None);
        t.new_search();
        t.new_search();
        t.new_search();
        for &k in &keys[1..] {
            t.store(k, 2, 0, Bound::Exact, None);
        }
        t.store(99 << 20 | 5, 2, 0, Bound::Exact, None);
        assert!(t.probe(keys[0]).is_none(), "the old deep entry went");
        assert!(keys[1..].iter().all(|&k| t.probe(k).is_some()));
    }

    #[test]
    fn a_reset_table_is_empty_and_keeps_within_its_memory() {
        let mut t = Table::with_memory(1 << 16);
        assert_eq!(t.bytes(), 0, "nothing is allocated before a search asks");
        t.reset(10);
        t.store(42, 5, -17, Bound::Lower, None);
        assert!(t.probe(42).is_some());
        t.reset(10);
        assert!(t.probe(42).is_none(), "a reset forgets the previous search");
        // Asking for more than the table's memory uses the whole of it and no more.
        t.reset(30);
        assert_eq!(t.bytes(), 1 << 16);
        t.store(7, 1, 0, Bound::Exact, None);
        t.reset(30);
        assert!(t.probe(7).is_none());
        assert_eq!(t.bytes(), 1 << 16, "the storage is reused, not reallocated");
    }
}
