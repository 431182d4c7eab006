//! Where a position sits in its table: the material it belongs to and its index there.
//!
//! Every position is first seen from the side to move: if that is the second player, the board
//! is turned half a turn (square `n` becomes `33 - n`) and the colours swapped, which the rules
//! do not notice (the tests check it against the move generator). So in a table the side to
//! move is always the first player, whose men move towards squares 29–32: its men stand on
//! 1–28, the other side's men on 5–32.
//!
//! The index counts by combinations, men first: the mover's men among their 28 squares, the
//! other side's men among theirs (a slice of the table holds one placement of all the men),
//! then the mover's kings among the squares the men leave free, and the other side's kings
//! among the squares still free. Placements where the two sides' men would share a square
//! have an index but no position; they are a small part of a table with men of both sides.

use super::material::Material;
use crate::engine::{Color, Piece, Position, Role, Square, Variant};

/// `BINOMIAL[n][k]` = C(n, k) for n, k <= 32.
static BINOMIAL: [[u64; 33]; 33] = binomials();

const fn binomials() -> [[u64; 33]; 33] {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

#[inline(always)]
pub(crate) fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// Squares a man of the side to move may stand on (not its crowning row, 29–32).
pub(crate) const MOVER_MEN_SQUARES: u32 = 0x0FFF_FFFF;
/// Squares a man of the other side may stand on (not its crowning row, 1–4); shifted down by
/// four they are numbered like the mover's.
pub(crate) const OTHER_MEN_SHIFT: u32 = 4;

/// Rank of a set of bits among the sets of its size (colexicographic order: the order in
/// which Gosper's hack lists them, increasing as numbers).
#[inline]
pub(crate) fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += choose(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` bits with rank `r` (the inverse of [`rank`]).
pub(crate) fn unrank(mut r: u64, k: u32) -> u32 {
    let mut set = 0u32;
    let mut top = 32;
    for i in (1..=k).rev() {
        // The largest p < top with C(p, i) <= r.
        let mut p = top - 1;
        while choose(p, i) > r {
            p -= 1;
        }
        r -= choose(p, i);
        set |= 1 << p;
        top = p;
    }
    set
}

/// The next set with as many bits, in increasing order (Gosper's hack); `None` past `limit`
/// bits.
#[inline]
pub(crate) fn next_set(x: u32, bits: u32) -> Option<u32> {
    if x == 0 {
        return None;
    }
    let x = x as u64;
    let c = x & x.wrapping_neg();
    let r = x + c;
    let next = (((r ^ x) >> 2) / c) | r;
    (next < 1u64 << bits).then_some(next as u32)
}

/// The first set of `k` bits.
#[inline]
pub(crate) fn first_set(k: u32) -> u32 {
    if k == 0 {
        0
    } else {
        ((1u64 << k) - 1) as u32
    }
}

/// `set`'s bits renumbered among the bits of `free` (the squares left): bit `i` of the result
/// stands for the `i`-th lowest bit of `free`.
#[inline]
pub(crate) fn squeeze(set: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let b = s.trailing_zeros();
        let below = free & ((1u32 << b) - 1);
        out |= 1 << below.count_ones();
        s &= s - 1;
    }
    out
}

/// The inverse of [`squeeze`]: bit `i` of `rel` placed on the `i`-th lowest bit of `free`.
#[inline]
pub(crate) fn spread(rel: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut f = free;
    let mut i = 0;
    while f != 0 {
        let low = f & f.wrapping_neg();
        if rel & (1 << i) != 0 {
            out |= low;
        }
        f &= f - 1;
        i += 1;
    }
    out
}

/// A position seen from the side to move, as sets of squares (bit `n - 1` is square `n`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub(crate) struct Canonical {
    pub mover_men: u32,
    pub mover_kings: u32,
    pub other_men: u32,
    pub other_kings: u32,
}

impl Canonical {
    /// `pos` from its side to move: turned half a turn when that is the second player.
    #[inline]
    pub fn of(pos: &Position) -> Canonical {
        let side = pos.side_to_move();
        let (mut mover, mut other) = (pos.pieces(side).0, pos.pieces(!side).0);
        let mut kings = pos.all_kings().0;
        if side != pos.variant().first_player() {
            mover = mover.reverse_bits();
            other = other.reverse_bits();
            kings = kings.reverse_bits();
        }
        Canonical {
            mover_men: mover & !kings,
            mover_kings: mover & kings,
            other_men: other & !kings,
            other_kings: other & kings,
        }
    }

    pub fn material(&self) -> Material {
        Material::new(
            self.mover_men.count_ones(),
            self.mover_kings.count_ones(),
            self.other_men.count_ones(),
            self.other_kings.count_ones(),
        )
    }

    /// The position, with the first player to move.
    pub fn position(&self, variant: Variant) -> Position {
        let mover = variant.first_player();
        let mut p = Position::empty(variant, mover);
        let put = |p: &mut Position, set: u32, color: Color, role: Role| {
            let mut s = set;
            while s != 0 {
                let sq = Square::from_index(s.trailing_zeros() as usize);
                p.set_piece(sq, Some(Piece { color, role }));
                s &= s - 1;
            }
        };
        put(&mut p, self.mover_men, mover, Role::Man);
        put(&mut p, self.mover_kings, mover, Role::King);
        put(&mut p, self.other_men, !mover, Role::Man);
        put(&mut p, self.other_kings, !mover, Role::King);
        p
    }

    /// The index in its material's table; `None` for a man on its crowning row.
    #[inline]
    pub fn index(&self) -> Option<u64> {
        if self.mover_men & !MOVER_MEN_SQUARES != 0
            || self.other_men & ((1 << OTHER_MEN_SHIFT) - 1) != 0
        {
            return None;
        }
        let m = self.material();
        let men = self.mover_men | self.other_men;
        let free = !men;
        let free_after_kings = free & !self.mover_kings;
        let slice =
            rank(self.mover_men) * m.other_men_sets() + rank(self.other_men >> OTHER_MEN_SHIFT);
        let kings = rank(squeeze(self.mover_kings, free));
        let others = rank(squeeze(self.other_kings, free_after_kings));
        Some((slice * m.mover_king_sets() + kings) * m.other_king_sets() + others)
    }

    /// The position at `index` of `m`'s table, or `None` where the men would share a square.
    pub fn at(m: Material, index: u64) -> Option<Canonical> {
        if index >= m.positions() {
            return None;
        }
        let others = index % m.other_king_sets();
        let rest = index / m.other_king_sets();
        let kings = rest % m.mover_king_sets();
        let slice = rest / m.mover_king_sets();
        let (mover_men, other_men) = m.slice_men(slice)?;
        let free = !(mover_men | other_men);
        let mover_kings = spread(unrank(kings, m.mover_kings), free);
        let other_kings = spread(unrank(others, m.other_kings), free & !mover_kings);
        Some(Canonical {
            mover_men,
            mover_kings,
            other_men,
            other_kings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_every_set_once_in_order() {
        for k in 0..=4 {
            let mut set = first_set(k);
            let mut expected = 0;
            loop {
                assert_eq!(rank(set), expected, "k {k} set {set:b}");
                assert_eq!(unrank(expected, k), set);
                expected += 1;
                match next_set(set, 12) {
                    Some(n) => set = n,
                    None => break,
                }
            }
            assert_eq!(expected, choose(12, k));
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let free = 0b1011_0110_1001u32;
        let mut rel = 0;
        while rel < 1 << free.count_ones() {
            let set = spread(rel, free);
            assert_eq!(set & !free, 0);
            assert_eq!(squeeze(set, free), rel);
            rel += 1;
        }
    }

    #[test]
    fn every_index_round_trips() {
        for v in [Variant::English, Variant::Spanish] {
            for m in [
                Material::new(1, 0, 1, 0),
                Material::new(0, 2, 1, 0),
                Material::new(1, 1, 0, 2),
                Material::new(2, 0, 0, 1),
            ] {
                let mut holes = 0;
                for i in 0..m.positions() {
                    let Some(c) = Canonical::at(m, i) else {
                        holes += 1;
                        continue;
                    };
                    assert_eq!(c.material(), m);
                    assert_eq!(c.index(), Some(i), "{m:?} {c:?}");
                    let p = c.position(v);
                    assert_eq!(Canonical::of(&p), c);
                    // The same position turned half a turn, the second player to move.
                    let mut q = Position::empty(v, !v.first_player());
                    for sq in Square::all() {
                        if let Some(piece) = p.piece_at(sq) {
                            let n = 33 - sq.number();
                            let to = Square::new(n).unwrap_or(sq);
                            q.set_piece(
                                to,
                                Some(Piece {
                                    color: !piece.color,
                                    role: piece.role,
                                }),
                            );
                        }
                    }
                    assert_eq!(Canonical::of(&q), c);
                }
                // Only placements where both sides have men can collide.
                if m.mover_men == 0 || m.other_men == 0 {
                    assert_eq!(holes, 0);
                }
            }
        }
    }
}
