//! Squares in the notation's numbering (1..=32) and each variant's board geometry.
//!
//! Every variant numbers its squares row by row from the first player's side, and inside a
//! row from that player's right to left (RULES.md). So in the *first player's frame* the rank
//! of square `n` is always `(n - 1) / 4`; the variants differ only in where a row's squares sit
//! left to right: Spanish and Portuguese have a playing square in each player's lower-right
//! corner, English in the lower-left, which makes one board the mirror image of the other.
//! The move generator works in that frame through the tables built here.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A playing square, numbered 1..=32 as in the notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

impl Square {
    /// The square with this number, if it is one of 1..=32.
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// The square at bit index `index` (0..32) of a [`crate::engine::Bitboard`].
    ///
    /// # Panics
    /// When `index >= 32`; indices only come from bitboards, never from users.
    pub const fn from_index(index: usize) -> Square {
        assert!(index < 32);
        Square(index as u8 + 1)
    }

    /// The notation's number, 1..=32.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Bit index 0..32.
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// Row counted from the first player's side, 0..8.
    pub const fn rank_from_first(self) -> u8 {
        (self.0 - 1) / 4
    }

    /// All 32 squares in order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).map(Square)
    }
}

impl TryFrom<u8> for Square {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Square::new(n).ok_or_else(|| format!("square {n} is not in 1..=32"))
    }
}

impl From<Square> for u8 {
    fn from(s: Square) -> u8 {
        s.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A diagonal direction in the first player's frame ("up" is towards the second player).
/// Numbered so that `3 - d` (`d ^ 3`) is the opposite direction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    const fn delta(self) -> (i8, i8) {
        match self {
            Direction::UpLeft => (-1, 1),
            Direction::UpRight => (1, 1),
            Direction::DownLeft => (-1, -1),
            Direction::DownRight => (1, -1),
        }
    }
}

/// Marks "no square" in the neighbour tables.
pub(crate) const NONE: u8 = 255;

/// Precomputed geometry of one board layout, in the first player's frame.
pub(crate) struct Geometry {
    /// (file, rank) of each square index, file 0 at the first player's left.
    pub coords: [(u8, u8); 32],
    /// Index of the diagonal neighbour in each direction, or [`NONE`].
    pub neighbor: [[u8; 4]; 32],
    /// For bulk steps: squares on even / odd ranks that have a neighbour in a direction,
    /// and the (constant per parity) index difference to it.
    pub step_mask: [[u32; 2]; 4],
    pub step_delta: [[i8; 2]; 4],
    /// The long diagonal: the one joining the two corners that are playing squares.
    pub long_diagonal: u32,
}

impl Geometry {
    /// `mirrored == false`: Spanish layout (square 1 in the first player's lower-right
    /// corner); `true`: English layout (square 1 one file in from that corner).
    const fn build(mirrored: bool) -> Geometry {
        let mut coords = [(0u8, 0u8); 32];
        let mut i = 0;
        while i < 32 {
            let rank = (i / 4) as u8;
            let k = (i % 4) as u8;
            // Spanish: even ranks hold files 7,5,3,1 (right to left), odd ranks 6,4,2,0.
            let right_edge = (rank % 2 == 0) != mirrored;
            let file = if right_edge { 7 - 2 * k } else { 6 - 2 * k };
            coords[i] = (file, rank);
            i += 1;
        }
        let mut neighbor = [[NONE; 4]; 32];
        let mut step_mask = [[0u32; 2]; 4];
        let mut step_delta = [[0i8; 2]; 4];
        let mut s = 0;
        while s < 32 {
            let (f, r) = coords[s];
            let mut d = 0;
            while d < 4 {
                let (df, dr) = Direction::ALL[d].delta();
                let nf = f as i8 + df;
                let nr = r as i8 + dr;
                if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    let mut t = 0;
                    while t < 32 {
                        if coords[t].0 as i8 == nf && coords[t].1 as i8 == nr {
                            neighbor[s][d] = t as u8;
                            let parity = (r % 2) as usize;
                            step_mask[d][parity] |= 1 << s;
                            step_delta[d][parity] = t as i8 - s as i8;
                        }
                        t += 1;
                    }
                }
                d += 1;
            }
            s += 1;
        }
        // The corners of one diagonal are both playing squares or both not.
        let mut corner_is_playing = false;
        let mut long_diagonal = 0u32;
        let mut i = 0;
        while i < 32 {
            corner_is_playing |= coords[i].0 == 0 && coords[i].1 == 0;
            i += 1;
        }
        let mut i = 0;
        while i < 32 {
            let (f, r) = coords[i];
            if (corner_is_playing && f == r) || (!corner_is_playing && f + r == 7) {
                long_diagonal |= 1 << i;
            }
            i += 1;
        }
        Geometry {
            coords,
            neighbor,
            step_mask,
            step_delta,
            long_diagonal,
        }
    }

    /// Every piece of `b` moved one step in direction `d` (pieces that would leave the board
    /// are dropped).
    #[inline(always)]
    pub fn step(&self, b: u32, d: usize) -> u32 {
        const EVEN_RANKS: u32 = 0x0F0F_0F0F;
        let even = b & EVEN_RANKS & self.step_mask[d][0];
        let odd = b & !EVEN_RANKS & self.step_mask[d][1];
        shift(even, self.step_delta[d][0]) | shift(odd, self.step_delta[d][1])
    }
}

#[inline(always)]
fn shift(b: u32, delta: i8) -> u32 {
    if delta >= 0 {
        b << delta
    } else {
        b >> (-delta)
    }
}

pub(crate) static SPANISH_GEOMETRY: Geometry = Geometry::build(false);
pub(crate) static ENGLISH_GEOMETRY: Geometry = Geometry::build(true);

#[cfg(test)]
mod tests {
    use super::*;

    fn n(g: &Geometry, sq: u8, d: Direction) -> Option<u8> {
        let t = g.neighbor[sq as usize - 1][d as usize];
        (t != NONE).then(|| t + 1)
    }

    #[test]
    fn spanish_neighbours_match_the_diagram() {
        let g = &SPANISH_GEOMETRY;
        // Square 1 sits in the corner: its only neighbour is 5.
        assert_eq!(n(g, 1, Direction::UpLeft), Some(5));
        assert_eq!(n(g, 1, Direction::UpRight), None);
        // White's first moves: 9-13 10-13 10-14 11-14 11-15 12-15 12-16.
        // 9 is on the right edge (file 7): its only forward neighbour is up-left.
        assert_eq!(n(g, 9, Direction::UpLeft), Some(13));
        assert_eq!(n(g, 9, Direction::UpRight), None);
        assert_eq!(n(g, 10, Direction::UpRight), Some(13));
        assert_eq!(n(g, 10, Direction::UpLeft), Some(14));
        assert_eq!(n(g, 12, Direction::UpLeft), Some(16));
        // The long diagonal 1-5-10-14-19-23-28-32.
        let mut sq = 1;
        let mut line = vec![1];
        while let Some(t) = n(g, sq, Direction::UpLeft) {
            line.push(t);
            sq = t;
        }
        assert_eq!(line, vec![1, 5, 10, 14, 19, 23, 28, 32]);
        let bits = |squares: &[u8]| squares.iter().fold(0, |b, &n| b | 1u32 << (n - 1));
        assert_eq!(g.long_diagonal, bits(&line));
        // The English board is the mirror image: its long diagonal runs 4-8-...-29.
        let english = bits(&[4, 8, 11, 15, 18, 22, 25, 29]);
        assert_eq!(ENGLISH_GEOMETRY.long_diagonal, english);
    }

    #[test]
    fn english_neighbours_match_the_diagram() {
        let g = &ENGLISH_GEOMETRY;
        // Black's first moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16.
        let fwd = |s| {
            let mut v: Vec<u8> = [Direction::UpLeft, Direction::UpRight]
                .iter()
                .filter_map(|&d| n(g, s, d))
                .collect();
            v.sort();
            v
        };
        assert_eq!(fwd(9), vec![13, 14]);
        assert_eq!(fwd(10), vec![14, 15]);
        assert_eq!(fwd(11), vec![15, 16]);
        assert_eq!(fwd(12), vec![16]);
        assert_eq!(fwd(1), vec![5, 6]);
        assert_eq!(fwd(4), vec![8]);
        // Double corner 1-5 and 28-32 are neighbours.
        assert!(fwd(1).contains(&5));
        assert_eq!(fwd(28), vec![32]);
    }

    #[test]
    fn bulk_steps_agree_with_the_tables() {
        for g in [&SPANISH_GEOMETRY, &ENGLISH_GEOMETRY] {
            for s in 0..32 {
                for d in 0..4 {
                    let expect = match g.neighbor[s][d] {
                        NONE => 0,
                        t => 1u32 << t,
                    };
                    assert_eq!(g.step(1 << s, d), expect, "square {} dir {}", s + 1, d);
                }
            }
        }
    }
}
