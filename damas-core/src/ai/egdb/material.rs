//! A material: how many men and kings each side has, the side to move first. One table per
//! material.

use super::index::{choose, first_set, next_set, unrank, MOVER_MEN_SQUARES, OTHER_MEN_SHIFT};
use std::fmt;

/// Most pieces a table may hold (the index and the file names allow no more).
pub const MAX_PIECES: u32 = 8;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub mover_men: u32,
    pub mover_kings: u32,
    pub other_men: u32,
    pub other_kings: u32,
}

/// Squares a man may stand on (the same count for either side).
const MEN_SQUARES: u32 = MOVER_MEN_SQUARES.count_ones();

impl Material {
    pub const fn new(mover_men: u32, mover_kings: u32, other_men: u32, other_kings: u32) -> Self {
        Material {
            mover_men,
            mover_kings,
            other_men,
            other_kings,
        }
    }

    pub const fn pieces(&self) -> u32 {
        self.mover_men + self.mover_kings + self.other_men + self.other_kings
    }

    pub const fn men(&self) -> u32 {
        self.mover_men + self.other_men
    }

    /// The same pieces with the other side to move.
    pub const fn mirror(&self) -> Material {
        Material::new(
            self.other_men,
            self.other_kings,
            self.mover_men,
            self.mover_kings,
        )
    }

    /// A small number for dense lookups: below [`Material::CODES`].
    pub const fn code(&self) -> usize {
        (((self.mover_men * 9 + self.mover_kings) * 9 + self.other_men) * 9 + self.other_kings)
            as usize
    }
    pub const CODES: usize = 9 * 9 * 9 * 9;

    pub(crate) fn other_men_sets(&self) -> u64 {
        choose(MEN_SQUARES, self.other_men)
    }
    pub(crate) fn mover_men_sets(&self) -> u64 {
        choose(MEN_SQUARES, self.mover_men)
    }
    pub(crate) fn mover_king_sets(&self) -> u64 {
        choose(32 - self.men(), self.mover_kings)
    }
    pub(crate) fn other_king_sets(&self) -> u64 {
        choose(32 - self.men() - self.mover_kings, self.other_kings)
    }

    /// Placements of the men: the table is this many slices.
    pub fn slices(&self) -> u64 {
        self.mover_men_sets() * self.other_men_sets()
    }

    /// Positions in a slice: the placements of the kings.
    pub fn slice_positions(&self) -> u64 {
        self.mover_king_sets() * self.other_king_sets()
    }

    /// Entries of the table (placements where men would share a square included).
    pub fn positions(&self) -> u64 {
        self.slices() * self.slice_positions()
    }

    /// The men of slice `slice` (mover's, other side's), or `None` where they would share a
    /// square.
    pub(crate) fn slice_men(&self, slice: u64) -> Option<(u32, u32)> {
        let mover = unrank(slice / self.other_men_sets(), self.mover_men);
        let other = unrank(slice % self.other_men_sets(), self.other_men) << OTHER_MEN_SHIFT;
        (mover & other == 0).then_some((mover, other))
    }

    /// Every slice's men in index order: `(slice, mover's men, other side's men)`, the ones
    /// where men would share a square left out.
    pub(crate) fn each_slice(self) -> impl Iterator<Item = (u64, u32, u32)> {
        let others = self.other_men_sets();
        sets(self.mover_men, MEN_SQUARES)
            .enumerate()
            .flat_map(move |(i, mover)| {
                sets(self.other_men, MEN_SQUARES)
                    .enumerate()
                    .map(move |(j, other)| {
                        (
                            i as u64 * others + j as u64,
                            mover,
                            other << OTHER_MEN_SHIFT,
                        )
                    })
            })
            .filter(|&(_, mover, other)| mover & other == 0)
    }

    /// The file name's stem: each side's kings and men as letters, the side to move first
    /// (`kkmvk`: two kings and a man against a king).
    pub fn stem(&self) -> String {
        format!(
            "{}v{}",
            letters(self.mover_kings, self.mover_men),
            letters(self.other_kings, self.other_men)
        )
    }

    /// The material of a file stem written by [`Material::stem`].
    pub fn from_stem(stem: &str) -> Option<Material> {
        let (mover, other) = stem.split_once('v')?;
        let side = |s: &str| -> Option<(u32, u32)> {
            let kings = s.bytes().take_while(|&b| b == b'k').count();
            let men = s[kings..].bytes().take_while(|&b| b == b'm').count();
            (kings + men == s.len() && !s.is_empty()).then_some((men as u32, kings as u32))
        };
        let (a, b) = side(mover)?;
        let (c, d) = side(other)?;
        let m = Material::new(a, b, c, d);
        (m.pieces() <= MAX_PIECES).then_some(m)
    }

    /// Every material of 2 to `pieces` pieces (each side at least one), in the order they can
    /// be built: fewer pieces first, then fewer men — a capture leads to fewer pieces and a
    /// man crowned to fewer men, so every table a move leads out to comes earlier.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for total in 2..=pieces.min(MAX_PIECES) {
            for men in 0..=total {
                for a in 0..=men {
                    let c = men - a;
                    for b in 0..=total - men {
                        let d = total - men - b;
                        let m = Material::new(a, b, c, d);
                        if a + b > 0 && c + d > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out
    }
}

/// Every set of `k` of the lowest `bits` bits, in increasing order.
pub(crate) fn sets(k: u32, bits: u32) -> impl Iterator<Item = u32> {
    let first = first_set(k);
    let mut next = (k <= bits).then_some(first);
    std::iter::from_fn(move || {
        let now = next?;
        next = if k == 0 { None } else { next_set(now, bits) };
        Some(now)
    })
}

fn letters(kings: u32, men: u32) -> String {
    "k".repeat(kings as usize) + &"m".repeat(men as usize)
}

impl fmt::Display for Material {
    /// `KKM v K`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |k, m| letters(k, m).to_uppercase();
        write!(
            f,
            "{} v {}",
            side(self.mover_kings, self.mover_men),
            side(self.other_kings, self.other_men)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_round_trip_and_order_puts_dependencies_first() {
        let all = Material::all_up_to(5);
        for m in &all {
            assert_eq!(Material::from_stem(&m.stem()), Some(*m));
            assert!(all.contains(&m.mirror()));
        }
        assert_eq!(Material::new(2, 1, 0, 1).stem(), "kmmvk");
        assert_eq!(
            Material::from_stem("kmmvk"),
            Some(Material::new(2, 1, 0, 1))
        );
        assert_eq!(Material::from_stem("mkvk"), None);
        assert_eq!(Material::from_stem("vk"), None);
        let place = |m: Material| all.iter().position(|x| *x == m);
        // A capture or a crowning leads to an earlier table.
        assert!(place(Material::new(0, 2, 0, 1)) < place(Material::new(1, 1, 0, 1)));
        assert!(place(Material::new(0, 1, 0, 1)) < place(Material::new(0, 2, 0, 1)));
        // Sides of one piece each: KvK, KvM, MvK, MvM.
        assert_eq!(all.iter().filter(|m| m.pieces() == 2).count(), 4);
    }

    #[test]
    fn slices_list_every_placement_of_the_men() {
        let m = Material::new(1, 0, 2, 1);
        let listed: Vec<_> = m.each_slice().collect();
        assert!(listed.windows(2).all(|w| w[0].0 < w[1].0));
        for (slice, mover, other) in &listed {
            assert_eq!(m.slice_men(*slice), Some((*mover, *other)));
        }
        let holes = (0..m.slices())
            .filter(|&s| m.slice_men(s).is_none())
            .count() as u64;
        assert_eq!(listed.len() as u64 + holes, m.slices());
    }
}
