//! The three rule sets and the values each implies. One generator reads these values; no
//! variant has a code path of its own.

use super::square::{Geometry, ENGLISH_GEOMETRY, SPANISH_GEOMETRY};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    #[default]
    Spanish,
    Portuguese,
    English,
}

/// The two colours. In Spanish and Portuguese White moves first; in English, Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the index of this side in anything kept per side.
    ///
    /// ```
    /// use damas_core::engine::Color;
    /// assert_eq!([Color::White.index(), Color::Black.index()], [0, 1]);
    /// ```
    pub const fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

/// Which captures a player may choose among.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CaptureChoice {
    /// Law of quantity, then law of quality, then free choice.
    MostPiecesThenMostKings,
    /// Any capture sequence (it must still be completed).
    Free,
}

/// What the no-progress draw count counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoProgress {
    /// Plies in which only kings moved and nothing was captured (Spanish).
    KingMovesWithoutCapture,
    /// Plies without a capture (Portuguese).
    WithoutCapture,
    /// Plies without a capture or a man move (English).
    WithoutCaptureOrManMove,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: use spanish, portuguese or english")]
pub struct UnknownVariant(pub String);

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Spanish, Variant::Portuguese, Variant::English];

    /// The identifier used on the command line, in storage and in component ids.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Spanish => "spanish",
            Variant::Portuguese => "portuguese",
            Variant::English => "english",
        }
    }

    pub const fn first_player(self) -> Color {
        match self {
            Variant::Spanish | Variant::Portuguese => Color::White,
            Variant::English => Color::Black,
        }
    }

    pub const fn flying_kings(self) -> bool {
        !matches!(self, Variant::English)
    }

    pub const fn capture_choice(self) -> CaptureChoice {
        match self {
            Variant::Spanish | Variant::Portuguese => CaptureChoice::MostPiecesThenMostKings,
            Variant::English => CaptureChoice::Free,
        }
    }

    pub const fn no_progress(self) -> NoProgress {
        match self {
            Variant::Spanish => NoProgress::KingMovesWithoutCapture,
            Variant::Portuguese => NoProgress::WithoutCapture,
            Variant::English => NoProgress::WithoutCaptureOrManMove,
        }
    }

    /// Plies of no progress after which the game is drawn.
    pub const fn no_progress_limit(self) -> u16 {
        match self {
            Variant::Spanish | Variant::Portuguese => 40,
            Variant::English => 80,
        }
    }

    /// The Spanish rule: three kings against one must win within 13 moves.
    pub const fn three_kings_rule(self) -> bool {
        matches!(self, Variant::Spanish)
    }

    /// PDN `GameType` tag value.
    pub const fn pdn_game_type(self) -> u8 {
        match self {
            Variant::Spanish => 24,
            Variant::Portuguese => 28,
            Variant::English => 21,
        }
    }

    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Spanish | Variant::Portuguese => "W:W1-12:B21-32",
            Variant::English => "B:W21-32:B1-12",
        }
    }

    pub(crate) fn geometry(self) -> &'static Geometry {
        match self {
            Variant::Spanish | Variant::Portuguese => &SPANISH_GEOMETRY,
            Variant::English => &ENGLISH_GEOMETRY,
        }
    }

    /// The long diagonal ("gran diagonal"): corner to corner through playing squares, the
    /// line flying kings fight for (1-5-10-14-19-23-28-32 on the Spanish board).
    pub fn long_diagonal(self) -> super::Bitboard {
        super::Bitboard(self.geometry().long_diagonal)
    }

    /// Where a square is drawn: (column 0..8 from the left, row 0..8 from the bottom) as seen
    /// by White sitting at the bottom — the usual diagram of each variant.
    pub fn white_view_coords(self, sq: super::Square) -> (u8, u8) {
        let (file, rank) = self.geometry().coords[sq.index()];
        if self.first_player() == Color::White {
            (file, rank)
        } else {
            // The first player (Black) sits at the top of White's diagram.
            (7 - file, 7 - rank)
        }
    }

    /// The square an algebraic name (`c3`: file a–h from White's left, rank 1–8 from White's
    /// side) names on this variant's board. A name on the other colour is read in the mirror
    /// (files a↔h): records from boards whose corner square a1 is a playing square (Russian,
    /// Brazilian, pool draughts) land on the Spanish board that way, with their a1 on square 1.
    /// `None` for anything that is not a file letter and a rank digit.
    pub fn algebraic_square(self, name: &str) -> Option<super::Square> {
        let &[file, rank] = name.as_bytes() else {
            return None;
        };
        let column = file.to_ascii_lowercase().checked_sub(b'a')?;
        let row = rank.checked_sub(b'1')?;
        if column > 7 || row > 7 {
            return None;
        }
        let at = |column: u8| {
            super::Square::all().find(|&sq| self.white_view_coords(sq) == (column, row))
        };
        at(column).or_else(|| at(7 - column))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "spanish" | "es" | "espanolas" | "españolas" | "espanol" | "español" => {
                Ok(Variant::Spanish)
            }
            "portuguese" | "pt" | "portuguesas" | "portugues" | "portugués" => {
                Ok(Variant::Portuguese)
            }
            "english" | "en" | "checkers" | "inglesas" | "ingles" | "inglés" => {
                Ok(Variant::English)
            }
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}
