//! Board tables the evaluation reads, built once per variant from the engine's geometry
//! (`Variant::white_view_coords`, the long diagonal, whole-board steps), so no rule of the
//! board is written twice.
//!
//! Everything here is in White's view: row 0 is White's back row, White's men move up
//! (row + 1) and Black's men move down, in every variant.

use crate::engine::{Color, Geometry, Square, Variant};
use std::sync::OnceLock;

/// Directions in White's view.
pub const UP_LEFT: usize = 0;
pub const UP_RIGHT: usize = 1;
pub const DOWN_LEFT: usize = 2;
pub const DOWN_RIGHT: usize = 3;

pub struct Tables {
    /// (column, row) of each square index, White at the bottom.
    pub coords: [(u8, u8); 32],
    /// Bits of each row 0..8.
    pub row: [u32; 8],
    /// The engine's board, in the first player's frame.
    geometry: &'static Geometry,
    /// XOR turning a direction in White's view into the engine's: 0 when White moves first,
    /// 3 when Black does (its frame is White's turned round, and `3 - d` is the opposite).
    to_engine_direction: usize,
    /// The eight central squares (columns 2-5, rows 2-5).
    pub center: u32,
    /// The long diagonal (a playing square in both corners), which flying kings fight for.
    pub long_diagonal: u32,
    /// The two corners where two playing squares touch (English: 1-5 and 28-32).
    pub double_corners: u32,
    /// Diagonal (king-step) distance between two squares.
    pub distance: [[u8; 32]; 32],
    /// For a man of each colour (0 = White, 1 = Black) on a square: the squares ahead of it
    /// from which an enemy piece could stop it on its way to the crowning row.
    pub cone: [[u32; 32]; 2],
}

impl Tables {
    fn build(variant: Variant) -> Tables {
        let mut coords = [(0u8, 0u8); 32];
        for sq in Square::all() {
            coords[sq.index()] = variant.white_view_coords(sq);
        }
        let index_at = |c: i8, r: i8| -> Option<usize> {
            if !(0..8).contains(&c) || !(0..8).contains(&r) {
                return None;
            }
            coords
                .iter()
                .position(|&(x, y)| x as i8 == c && y as i8 == r)
        };
        let mut row = [0u32; 8];
        let mut center = 0u32;
        for (i, &(c, r)) in coords.iter().enumerate() {
            row[r as usize] |= 1 << i;
            if (2..=5).contains(&c) && (2..=5).contains(&r) {
                center |= 1 << i;
            }
        }
        // The double corners are the pairs of touching playing squares in the two corners off
        // the long diagonal.
        let main_is_playing = index_at(0, 0).is_some();
        let mut double_corners = 0u32;
        for (i, &(c, r)) in coords.iter().enumerate() {
            let near_corner = |cc: u8, rr: u8| c.abs_diff(cc) + r.abs_diff(rr) <= 1;
            let corners: [(u8, u8); 2] = if main_is_playing {
                [(7, 0), (0, 7)]
            } else {
                [(0, 0), (7, 7)]
            };
            if corners.iter().any(|&(cc, rr)| near_corner(cc, rr)) {
                double_corners |= 1 << i;
            }
        }
        let mut distance = [[0u8; 32]; 32];
        for a in 0..32 {
            for b in 0..32 {
                let (ca, ra) = coords[a];
                let (cb, rb) = coords[b];
                distance[a][b] = ca.abs_diff(cb).max(ra.abs_diff(rb));
            }
        }
        let mut cone = [[0u32; 32]; 2];
        for (i, &(c, r)) in coords.iter().enumerate() {
            for (j, &(cj, rj)) in coords.iter().enumerate() {
                // White goes up, Black down. A stopper must stand ahead within the widening
                // triangle (one extra column each row, as it can also step towards the man).
                for (colour, ahead) in [(0, rj as i8 - r as i8), (1, r as i8 - rj as i8)] {
                    if ahead >= 1 && (cj as i8 - c as i8).abs() <= ahead + 1 {
                        cone[colour][i] |= 1 << j;
                    }
                }
            }
        }
        Tables {
            coords,
            row,
            geometry: variant.geometry(),
            to_engine_direction: if variant.first_player() == Color::White {
                0
            } else {
                3
            },
            center,
            long_diagonal: variant.long_diagonal().0,
            double_corners,
            distance,
            cone,
        }
    }

    /// The tables of `variant` (Spanish and Portuguese share a board).
    pub fn get(variant: Variant) -> &'static Tables {
        static SPANISH: OnceLock<Tables> = OnceLock::new();
        static ENGLISH: OnceLock<Tables> = OnceLock::new();
        match variant {
            Variant::Spanish | Variant::Portuguese => {
                SPANISH.get_or_init(|| Tables::build(Variant::Spanish))
            }
            Variant::English => ENGLISH.get_or_init(|| Tables::build(Variant::English)),
        }
    }

    /// Every piece of `b` moved one step in direction `d` (in White's view); pieces that
    /// would leave the board are dropped.
    #[inline(always)]
    pub fn step(&self, b: u32, d: usize) -> u32 {
        self.geometry.step(b, d ^ self.to_engine_direction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(squares: &[u8]) -> u32 {
        squares.iter().fold(0, |b, &n| b | 1 << (n - 1))
    }

    #[test]
    fn special_squares_match_the_rules() {
        let es = Tables::get(Variant::Spanish);
        assert_eq!(es.long_diagonal, bits(&[1, 5, 10, 14, 19, 23, 28, 32]));
        assert_eq!(es.center, bits(&[10, 11, 14, 15, 18, 19, 22, 23]));
        let en = Tables::get(Variant::English);
        assert_eq!(en.long_diagonal, bits(&[4, 8, 11, 15, 18, 22, 25, 29]));
        assert_eq!(en.double_corners, bits(&[1, 5, 28, 32]));
        assert_eq!(en.center, bits(&[10, 11, 14, 15, 18, 19, 22, 23]));
        // White's back row is row 0 in both layouts.
        assert_eq!(es.row[0], bits(&[1, 2, 3, 4]));
        assert_eq!(en.row[0], bits(&[29, 30, 31, 32]));
    }

    #[test]
    fn half_a_turn_maps_square_i_to_31_less_i() {
        // Expert's evaluation counts Black's pieces on squares turned round this way.
        for v in [Variant::Spanish, Variant::English] {
            let t = Tables::get(v);
            for i in 0..32 {
                let (c, r) = t.coords[i];
                assert_eq!(t.coords[31 - i], (7 - c, 7 - r), "{v} square {}", i + 1);
            }
        }
    }

    #[test]
    fn steps_agree_with_neighbours() {
        for v in [Variant::Spanish, Variant::English] {
            let t = Tables::get(v);
            for i in 0..32 {
                let (c, r) = t.coords[i];
                let deltas: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];
                for (d, (dc, dr)) in deltas.into_iter().enumerate() {
                    let target = (c as i8 + dc, r as i8 + dr);
                    let want = (0..32)
                        .find(|&j| {
                            let (cj, rj) = t.coords[j];
                            (cj as i8, rj as i8) == target
                        })
                        .map_or(0, |j| 1u32 << j);
                    assert_eq!(t.step(1 << i, d), want, "{v} square {} dir {d}", i + 1);
                }
            }
            // White's men move up: from White's back row, UP leads to row 1.
            let up = t.step(t.row[0], UP_LEFT) | t.step(t.row[0], UP_RIGHT);
            assert_eq!(up & !t.row[1], 0);
            assert_eq!(t.step(t.row[7], DOWN_LEFT) & !t.row[6], 0);
            assert_eq!(t.step(t.row[0], DOWN_RIGHT), 0);
        }
    }
}
