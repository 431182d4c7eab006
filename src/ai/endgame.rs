//! Flying kings against a lone king: which positions win, and in how many plies.
//!
//! With flying kings (Spanish, Portuguese) three kings beat one only with the right
//! technique (the long diagonal first, then a sacrifice the lone king must take), and in
//! Spanish only within 13 moves; two kings win only in a few positions. No search of a few
//! plies finds that technique, so Expert looks the answer up in tables built by retrograde
//! analysis the first time it meets these endings (one, two and three kings against one:
//! about 330,000 positions, a fraction of a second).
//!
//! Kings move alike in every direction, so colours do not matter: a position is the strong
//! side's squares, the lone king's square and who is to move. The lone king's captures lead
//! to the table with fewer kings, so the tables are exact under the rules of the engine
//! (the law of quantity included).

use super::board::{Tables, DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::engine::{Bitboard, Color, Position, Variant};
use std::sync::OnceLock;

/// Not a win for the strong side (or not computed).
const NO_WIN: u8 = u8::MAX;
const STRONG_TO_MOVE: usize = 0;
const WEAK_TO_MOVE: usize = 1;
const DIRECTIONS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

/// `C(n, k)` for n < 32, k <= 3.
const fn choose(n: usize, k: usize) -> usize {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        3 => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
        _ => 0,
    }
}

/// Rank of a set of at most three squares among the sets of its size (combinatorial
/// number system).
fn rank(set: u32) -> usize {
    let mut r = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        r += choose(rest.trailing_zeros() as usize, i);
        rest &= rest - 1;
        i += 1;
    }
    r
}

fn index(strong: u32, weak: usize, side: usize) -> usize {
    (rank(strong) * 32 + weak) * 2 + side
}

/// Every set of `k` squares, in increasing order (Gosper's hack).
fn sets_of(k: u32) -> impl Iterator<Item = u32> {
    let first: u64 = (1 << k) - 1;
    std::iter::successors(Some(first), |&x| {
        let c = x & x.wrapping_neg();
        let r = x + c;
        let next = (((r ^ x) >> 2) / c) | r;
        (next < 1 << 32).then_some(next)
    })
    .map(|x| x as u32)
}

/// Plies to the capture of the lone king with best play, for one, two and three kings
/// against it (`plies[k]`, indexed by [`index`]).
struct Tables3 {
    plies: [Vec<u8>; 4],
}

fn tables() -> &'static Tables3 {
    static TABLES: OnceLock<Tables3> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut plies: [Vec<u8>; 4] = Default::default();
        for k in 1..=3 {
            plies[k] = build(k as u32, &plies);
        }
        Tables3 { plies }
    })
}

/// A kings-only position: White the strong side.
fn position(strong: u32, weak: usize, side: usize) -> Position {
    let mut p = Position::empty(
        Variant::Spanish,
        if side == STRONG_TO_MOVE {
            Color::White
        } else {
            Color::Black
        },
    );
    let king = |color| {
        Some(crate::engine::Piece {
            color,
            role: crate::engine::Role::King,
        })
    };
    for sq in Bitboard(strong) {
        p.set_piece(sq, king(Color::White));
    }
    p.set_piece(crate::engine::Square::from_index(weak), king(Color::Black));
    p
}

/// Squares a flying king on `from` reaches by plain moves over `empty` squares.
fn flights(t: &Tables, from: u32, empty: u32) -> u32 {
    let mut reach = 0;
    for d in DIRECTIONS {
        let mut front = t.step(from, d) & empty;
        while front != 0 {
            reach |= front;
            front = t.step(front, d) & empty;
        }
    }
    reach
}

/// Retrograde analysis of `k` kings against one; `lower[j]` holds the finished tables for
/// fewer kings, where the lone king's captures lead.
fn build(k: u32, lower: &[Vec<u8>; 4]) -> Vec<u8> {
    let t = Tables::get(Variant::Spanish);
    let size = choose(32, k as usize) * 32 * 2;
    let mut plies = vec![NO_WIN; size];
    // Lone-king-to-move positions: how many of its moves are not yet known to lose.
    let mut open = vec![0u8; size];
    let mut levels: Vec<Vec<(u32, usize, usize)>> = vec![Vec::new(); 2];
    for strong in sets_of(k) {
        for weak in (0..32).filter(|w| strong & (1 << w) == 0) {
            // Strong to move: any capture takes the lone king.
            if position(strong, weak, STRONG_TO_MOVE).has_capture() {
                plies[index(strong, weak, STRONG_TO_MOVE)] = 1;
                push(&mut levels, 1, (strong, weak, STRONG_TO_MOVE));
            }
            let pos = position(strong, weak, WEAK_TO_MOVE);
            let moves = pos.legal_moves();
            let i = index(strong, weak, WEAK_TO_MOVE);
            if moves.is_empty() {
                plies[i] = 0;
                push(&mut levels, 0, (strong, weak, WEAK_TO_MOVE));
            } else if moves[0].is_capture() {
                // Captures lead to fewer kings, already solved: lost if every one is.
                let mut longest = 0;
                let lost = moves.iter().all(|m| {
                    let after = pos.apply(m);
                    let left = after.pieces(Color::White).0;
                    let w = after.pieces(Color::Black).0.trailing_zeros() as usize;
                    let p = match left.count_ones() {
                        0 => NO_WIN,
                        j => lower[j as usize][index(left, w, STRONG_TO_MOVE)],
                    };
                    longest = longest.max(p as usize);
                    p != NO_WIN
                });
                if lost {
                    plies[i] = (longest + 1) as u8;
                    push(&mut levels, longest + 1, (strong, weak, WEAK_TO_MOVE));
                }
            } else {
                open[i] = moves.len() as u8;
            }
        }
    }
    let mut depth = 0;
    while depth < levels.len() {
        let level = std::mem::take(&mut levels[depth]);
        let next = depth + 1;
        for (strong, weak, side) in level {
            let occupied = strong | (1 << weak);
            if side == WEAK_TO_MOVE {
                // The strong side just moved into this lost position: every square one of
                // its kings came from is a win, if that move was legal (no capture pending).
                for from in Bitboard(strong) {
                    let bit = 1u32 << from.index();
                    for origin in Bitboard(flights(t, bit, !occupied)) {
                        let before = (strong & !bit) | (1 << origin.index());
                        let i = index(before, weak, STRONG_TO_MOVE);
                        if plies[i] == NO_WIN
                            && !position(before, weak, STRONG_TO_MOVE).has_capture()
                        {
                            plies[i] = next as u8;
                            push(&mut levels, next, (before, weak, STRONG_TO_MOVE));
                        }
                    }
                }
            } else {
                // The lone king just moved into this won position: one fewer escape for the
                // position it came from; with none left, that one is lost too.
                for origin in Bitboard(flights(t, 1 << weak, !occupied)) {
                    let w = origin.index();
                    let i = index(strong, w, WEAK_TO_MOVE);
                    if open[i] > 0 {
                        open[i] -= 1;
                        if open[i] == 0 {
                            plies[i] = next as u8;
                            push(&mut levels, next, (strong, w, WEAK_TO_MOVE));
                        }
                    }
                }
            }
        }
        depth += 1;
    }
    plies
}

fn push(levels: &mut Vec<Vec<(u32, usize, usize)>>, depth: usize, item: (u32, usize, usize)) {
    if levels.len() <= depth {
        levels.resize(depth + 1, Vec::new());
    }
    levels[depth].push(item);
}

/// For two or three flying kings against one (and nothing else on the board):
/// `Some(Some(n))` when the side with more kings wins, taking the lone king in `n` plies
/// against the best defence; `Some(None)` when it does not; `None` for any other position.
pub fn kings_against_one(pos: &Position) -> Option<Option<u32>> {
    if !pos.variant().flying_kings() {
        return None;
    }
    let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    if pos.all_kings() != (w | b) {
        return None;
    }
    let (strong_colour, strong, weak) = match (w.count(), b.count()) {
        (2 | 3, 1) => (Color::White, w, b),
        (1, 2 | 3) => (Color::Black, b, w),
        _ => return None,
    };
    let side = if pos.side_to_move() == strong_colour {
        STRONG_TO_MOVE
    } else {
        WEAK_TO_MOVE
    };
    let weak_square = weak.0.trailing_zeros() as usize;
    let plies = tables().plies[strong.count() as usize][index(strong.0, weak_square, side)];
    Some((plies != NO_WIN).then_some(plies as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        match Position::from_fen(Variant::Spanish, fen) {
            Ok(p) => p,
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    /// The table's entry for any position of White's kings against Black's lone king,
    /// one king against one included.
    fn value(p: &Position) -> Option<u32> {
        let strong = p.pieces(Color::White).0;
        let weak = p.pieces(Color::Black).0.trailing_zeros() as usize;
        if strong == 0 || weak >= 32 {
            return None;
        }
        let side = if p.side_to_move() == Color::White {
            STRONG_TO_MOVE
        } else {
            WEAK_TO_MOVE
        };
        let plies = tables().plies[strong.count_ones() as usize][index(strong, weak, side)];
        (plies != NO_WIN).then_some(plies as u32)
    }

    #[test]
    fn ranks_are_a_bijection() {
        let mut seen = vec![false; choose(32, 3)];
        for a in 0..32 {
            for b in a + 1..32 {
                for c in b + 1..32 {
                    let r = rank((1 << a) | (1 << b) | (1 << c));
                    assert!(!seen[r]);
                    seen[r] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn the_table_agrees_with_the_rules() {
        // Black's king on 19 can be taken by White's king on 1 at once.
        assert_eq!(kings_against_one(&pos("W:WK1,K3,K4:BK19")), Some(Some(1)));
        assert_eq!(kings_against_one(&pos("W:WK1,K3:BK19")), Some(Some(1)));
        assert_eq!(kings_against_one(&pos("B:WK1,K3:BK19")), Some(None));
        // Other material is not covered.
        assert_eq!(kings_against_one(&pos("W:WK1:BK19")), None);
        assert_eq!(kings_against_one(&pos("W:WK1,K3,4:BK19")), None);
        // Every won position with the strong side to move has a move to a position won one
        // ply sooner; every lost one with the lone king to move only moves to positions won
        // sooner. Checked on a sample against the engine's move generator.
        let wins = tables().plies[3].iter().filter(|&&p| p != NO_WIN).count();
        let two = tables().plies[2].iter().filter(|&&p| p != NO_WIN).count();
        assert!(two > 1_000, "{two} wins with two kings");
        assert!(wins > 10_000, "{wins} wins");
        let mut checked = 0;
        let mut n_th = 0u32;
        for a in 0..32 {
            for b in a + 1..32 {
                for c in b + 1..32 {
                    let strong = (1u32 << a) | (1 << b) | (1 << c);
                    for weak in (0..32).filter(|w| strong & (1 << w) == 0) {
                        n_th += 1;
                        if n_th % 89 != 0 {
                            continue;
                        }
                        for side in [STRONG_TO_MOVE, WEAK_TO_MOVE] {
                            let p = position(strong, weak, side);
                            let Some(Some(n)) = kings_against_one(&p) else {
                                continue;
                            };
                            checked += 1;
                            let children: Vec<_> =
                                p.legal_moves().iter().map(|m| value(&p.apply(m))).collect();
                            if side == STRONG_TO_MOVE && n > 1 {
                                assert!(children.contains(&Some(n - 1)), "{}", p.fen());
                            }
                            if side == WEAK_TO_MOVE && n > 2 {
                                assert!(
                                    children.iter().all(|c| matches!(c, Some(k) if *k < n)),
                                    "{}",
                                    p.fen()
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "{checked} positions checked");
    }

    /// What the Spanish 13-move rule presumes: three kings holding the long diagonal beat a
    /// lone king off it, always, and within 13 moves.
    #[test]
    fn three_kings_on_the_long_diagonal_win_within_thirteen_moves() {
        let diagonal = Tables::get(Variant::Spanish).long_diagonal;
        let mut quiet = 0;
        for strong in sets_of(3).filter(|s| s & diagonal != 0) {
            for weak in (0..32).filter(|w| (strong | diagonal) & (1 << w) == 0) {
                let p = position(strong, weak, STRONG_TO_MOVE);
                if p.has_capture() || position(strong, weak, WEAK_TO_MOVE).has_capture() {
                    continue;
                }
                quiet += 1;
                match kings_against_one(&p) {
                    Some(Some(plies)) => assert!(plies.div_ceil(2) <= 13, "{}", p.fen()),
                    other => panic!("{}: {other:?}", p.fen()),
                }
            }
        }
        assert!(quiet > 30_000);
    }
}
