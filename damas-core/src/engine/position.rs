//! A position: where the pieces stand and whose turn it is.

use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::square::Square;
use super::variant::{Color, Variant};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Role {
    Man,
    King,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) white: u32,
    pub(crate) black: u32,
    pub(crate) kings: u32,
    pub(crate) side: Color,
}

/// Squares of the first player's crowning row (29-32) and the second player's (1-4).
const TOP_ROW: u32 = 0xF000_0000;
const BOTTOM_ROW: u32 = 0x0000_000F;

impl Position {
    /// An empty board with `side` to move.
    pub fn empty(variant: Variant, side: Color) -> Position {
        Position {
            variant,
            white: 0,
            black: 0,
            kings: 0,
            side,
        }
    }

    /// The start position of the variant.
    pub fn start(variant: Variant) -> Position {
        // First player on 1-12, second on 21-32.
        let first = 0x0000_0FFF;
        let second = 0xFFF0_0000;
        let (white, black) = if variant.first_player() == Color::White {
            (first, second)
        } else {
            (second, first)
        };
        Position {
            variant,
            white,
            black,
            kings: 0,
            side: variant.first_player(),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn with_side_to_move(mut self, side: Color) -> Position {
        self.side = side;
        self
    }

    pub fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(self.bits(color))
    }

    pub fn men(&self, color: Color) -> Bitboard {
        Bitboard(self.bits(color) & !self.kings)
    }

    pub fn kings(&self, color: Color) -> Bitboard {
        Bitboard(self.bits(color) & self.kings)
    }

    pub fn all_kings(&self) -> Bitboard {
        Bitboard(self.kings)
    }

    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.white | self.black)
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = 1u32 << sq.index();
        let color = if self.white & bit != 0 {
            Color::White
        } else if self.black & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings & bit != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// Puts a piece on a square (or clears it with `None`). For building positions.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let bit = 1u32 << sq.index();
        self.white &= !bit;
        self.black &= !bit;
        self.kings &= !bit;
        if let Some(p) = piece {
            match p.color {
                Color::White => self.white |= bit,
                Color::Black => self.black |= bit,
            }
            if p.role == Role::King {
                self.kings |= bit;
            }
        }
    }

    /// The row on which `color`'s men are crowned.
    pub fn crowning_row(&self, color: Color) -> Bitboard {
        Bitboard(if color == self.variant.first_player() {
            TOP_ROW
        } else {
            BOTTOM_ROW
        })
    }

    #[inline(always)]
    pub(crate) fn bits(&self, color: Color) -> u32 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Every legal move, with the capture laws of the variant applied. The single source of
    /// legality: notation, explanations and the search all read from it.
    ///
    /// ```
    /// use damas_core::engine::{Position, Variant};
    ///
    /// assert_eq!(Position::start(Variant::Spanish).legal_moves().len(), 7);
    /// // Captures are mandatory and, in Spanish, the one taking most pieces must be chosen.
    /// let pos = Position::from_fen(Variant::Spanish, "W:W9:B13,14,22").unwrap();
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 1);
    /// assert_eq!(moves[0].capture_count(), 2);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        super::movegen::legal_moves(self)
    }

    /// How many legal moves there are, faster than listing them when nothing can capture.
    pub fn count_legal_moves(&self) -> usize {
        super::movegen::count_legal_moves(self)
    }

    /// How many plain (non-capturing) moves the side to move would have if it had no
    /// capture: its legal moves when [`Position::has_capture`] is false.
    ///
    /// ```
    /// use damas_core::engine::{Position, Variant};
    /// let start = Position::start(Variant::Spanish);
    /// assert!(!start.has_capture());
    /// assert_eq!(start.count_plain_moves(), start.count_legal_moves());
    /// ```
    pub fn count_plain_moves(&self) -> usize {
        super::movegen::count_plain_moves(self)
    }

    /// Whether the side to move has at least one capture.
    pub fn has_capture(&self) -> bool {
        super::movegen::has_capture(self)
    }

    /// The position after `mv`, which must be one of [`Position::legal_moves`].
    #[inline]
    pub fn apply(&self, mv: &Move) -> Position {
        let mut p = *self;
        let from = 1u32 << mv.from().index();
        let to = 1u32 << mv.to().index();
        let captured = mv.captured().0;
        let was_king = self.kings & from != 0;
        let (mine, theirs) = match self.side {
            Color::White => (&mut p.white, &mut p.black),
            Color::Black => (&mut p.black, &mut p.white),
        };
        *mine = (*mine & !from) | to;
        *theirs &= !captured;
        p.kings &= !(captured | from);
        if was_king || to & self.crowning_row(self.side).0 != 0 {
            p.kings |= to;
        }
        p.side = self.side.opposite();
        p
    }

    /// Whether `mv` moves a man (for the no-progress counts).
    pub fn moves_man(&self, mv: &Move) -> bool {
        self.kings & (1 << mv.from().index()) == 0
    }

    /// Whether `mv` crowns a man.
    pub fn crowns(&self, mv: &Move) -> bool {
        self.moves_man(mv) && self.crowning_row(self.side).contains(mv.to())
    }
}
