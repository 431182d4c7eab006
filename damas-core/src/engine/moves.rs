//! A move: a step or a whole capture chain.

use super::bitboard::Bitboard;
use super::square::Square;
use smallvec::SmallVec;
use std::fmt;
use std::hash::{Hash, Hasher};

/// At most 12 pieces can be captured, so a chain has at most 12 landings.
pub const MAX_LANDINGS: usize = 12;

/// One legal move. For a capture, `path` holds every landing square in order (the last is
/// `to`); for a plain step it holds `to` alone.
///
/// Two moves are equal when they start and end on the same squares and capture the same
/// pieces: capture orders that differ only in the route are one move (RULES.md).
#[derive(Clone, Copy)]
pub struct Move {
    from: Square,
    to: Square,
    landings: [u8; MAX_LANDINGS],
    len: u8,
    captured: Bitboard,
    captured_kings: Bitboard,
}

pub type MoveList = SmallVec<[Move; 32]>;

impl Move {
    /// A non-capturing step.
    pub fn step(from: Square, to: Square) -> Move {
        let mut landings = [0; MAX_LANDINGS];
        landings[0] = to.number();
        Move {
            from,
            to,
            landings,
            len: 1,
            captured: Bitboard::EMPTY,
            captured_kings: Bitboard::EMPTY,
        }
    }

    /// A capture with its landing squares (the last one is where the piece stops).
    pub(crate) fn capture(
        from: Square,
        landings: &[u8],
        captured: Bitboard,
        captured_kings: Bitboard,
    ) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() <= MAX_LANDINGS);
        let mut l = [0; MAX_LANDINGS];
        l[..landings.len()].copy_from_slice(landings);
        let to = Square::new(landings[landings.len() - 1]).unwrap_or(from);
        Move {
            from,
            to,
            landings: l,
            len: landings.len() as u8,
            captured,
            captured_kings,
        }
    }

    pub fn from(&self) -> Square {
        self.from
    }

    pub fn to(&self) -> Square {
        self.to
    }

    /// Every landing square, in order; the last is [`Move::to`].
    pub fn path(&self) -> SmallVec<[Square; MAX_LANDINGS]> {
        self.landings[..self.len as usize]
            .iter()
            .filter_map(|&n| Square::new(n))
            .collect()
    }

    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    pub fn captured_kings(&self) -> Bitboard {
        self.captured_kings
    }

    /// Number of pieces taken.
    pub fn capture_count(&self) -> u8 {
        self.captured.count() as u8
    }

    /// Number of kings taken.
    pub fn king_capture_count(&self) -> u8 {
        self.captured_kings.count() as u8
    }

    /// Full notation with every landing square (`22x15x6`), regardless of ambiguity.
    pub fn full_notation(&self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        let mut s = self.from.to_string();
        for sq in self.path() {
            s.push(sep);
            s.push_str(&sq.to_string());
        }
        s
    }

    /// Short notation, from and to only (`22x6`).
    pub fn short_notation(&self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        format!("{}{}{}", self.from, sep, self.to)
    }
}

impl PartialEq for Move {
    fn eq(&self, o: &Move) -> bool {
        self.from == o.from && self.to == o.to && self.captured == o.captured
    }
}
impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.from.hash(h);
        self.to.hash(h);
        self.captured.hash(h);
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.full_notation())
    }
}

impl fmt::Display for Move {
    /// The short form; use [`crate::engine::notation::format_move`] for the canonical form
    /// that adds the path only when two legal moves need telling apart.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short_notation())
    }
}
