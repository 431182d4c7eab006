//! PDN FEN: `W:W9,10,K14:B21-24,K30` — side to move, then each colour's squares, `K` for
//! kings, ranges allowed.

use super::position::{Piece, Position, Role};
use super::square::Square;
use super::variant::{Color, Variant};
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty position")]
    Empty,
    #[error("the side to move must be W or B, not {found:?}")]
    BadSideToMove { found: String },
    #[error("square {number} is outside 1-32")]
    SquareOutOfRange { number: u32 },
    #[error("square {square} is given twice")]
    SquareTwice { square: Square },
    #[error("a man of {color:?} stands on square {square}, on its own crowning row")]
    ManOnCrowningRow { square: Square, color: Color },
    #[error("{color:?} has {count} pieces; at most 12 are allowed")]
    TooManyPieces { color: Color, count: u32 },
    #[error("{color:?}'s pieces are listed twice")]
    ColorTwice { color: Color },
    #[error("cannot read {part:?}: {why}")]
    Malformed { part: String, why: &'static str },
}

/// Reads a position of `variant`.
pub fn parse(variant: Variant, text: &str) -> Result<Position, FenError> {
    let text = text.trim().trim_end_matches('.').trim();
    let text = text.strip_prefix("[FEN \"").unwrap_or(text);
    let text = text.strip_suffix("\"]").unwrap_or(text).trim();
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut parts = text.split(':');
    let side_text = parts.next().unwrap_or("").trim();
    let side = match side_text.to_ascii_uppercase().as_str() {
        "W" => Color::White,
        "B" => Color::Black,
        _ => {
            return Err(FenError::BadSideToMove {
                found: side_text.to_string(),
            })
        }
    };
    let mut pos = Position::empty(variant, side);
    let mut seen = [false; 2];
    let mut any = false;
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        any = true;
        let mut chars = part.chars();
        let color = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('W') => Color::White,
            Some('B') => Color::Black,
            _ => {
                return Err(FenError::Malformed {
                    part: part.to_string(),
                    why: "a colour's list starts with W or B",
                })
            }
        };
        let ci = color as usize;
        if seen[ci] {
            return Err(FenError::ColorTwice { color });
        }
        seen[ci] = true;
        let list = chars.as_str();
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (role, nums) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (Role::King, rest),
                None => (Role::Man, item),
            };
            let (lo, hi) = match nums.split_once('-') {
                Some((a, b)) => (number(a, item)?, number(b, item)?),
                None => {
                    let n = number(nums, item)?;
                    (n, n)
                }
            };
            if lo > hi {
                return Err(FenError::Malformed {
                    part: item.to_string(),
                    why: "a range must go upwards",
                });
            }
            for n in lo..=hi {
                let sq = Square::new(n as u8)
                    .filter(|_| n <= 32)
                    .ok_or(FenError::SquareOutOfRange { number: n })?;
                if pos.piece_at(sq).is_some() {
                    return Err(FenError::SquareTwice { square: sq });
                }
                if role == Role::Man && pos.crowning_row(color).contains(sq) {
                    return Err(FenError::ManOnCrowningRow { square: sq, color });
                }
                pos.set_piece(sq, Some(Piece { color, role }));
            }
        }
    }
    if !any {
        return Err(FenError::Malformed {
            part: text.to_string(),
            why: "no list of pieces",
        });
    }
    for color in [Color::White, Color::Black] {
        let count = pos.pieces(color).count();
        if count > 12 {
            return Err(FenError::TooManyPieces { color, count });
        }
    }
    Ok(pos)
}

fn number(s: &str, item: &str) -> Result<u32, FenError> {
    let s = s.trim();
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::Malformed {
            part: item.to_string(),
            why: "expected a square number",
        });
    }
    let n: u32 = s.parse().map_err(|_| FenError::Malformed {
        part: item.to_string(),
        why: "expected a square number",
    })?;
    if !(1..=32).contains(&n) {
        return Err(FenError::SquareOutOfRange { number: n });
    }
    Ok(n)
}

/// Writes a position; runs of three or more men become ranges (`W1-12`).
pub fn format(pos: &Position) -> String {
    let mut s = String::new();
    s.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(color.letter());
        let mut items: Vec<String> = Vec::new();
        let men: Vec<u8> = pos.men(color).squares().map(|q| q.number()).collect();
        let mut i = 0;
        while i < men.len() {
            let mut j = i;
            while j + 1 < men.len() && men[j + 1] == men[j] + 1 {
                j += 1;
            }
            if j >= i + 2 {
                items.push(format!("{}-{}", men[i], men[j]));
            } else {
                for m in &men[i..=j] {
                    items.push(m.to_string());
                }
            }
            i = j + 1;
        }
        for k in pos.kings(color).squares() {
            items.push(format!("K{}", k.number()));
        }
        let _ = write!(s, "{}", items.join(","));
    }
    s
}

impl Position {
    /// Parses a PDN FEN for `variant`: side to move, then each colour's squares, `K` for
    /// kings, ranges allowed. Bad text gets an error saying what is wrong.
    ///
    /// ```
    /// use damas_core::engine::{Color, FenError, Position, Variant};
    ///
    /// let pos = Position::from_fen(Variant::Spanish, "B:W9,10,K14:B21-24")?;
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(pos.kings(Color::White).count(), 1);
    /// assert_eq!(pos.pieces(Color::Black).count(), 4);
    /// assert_eq!(pos.fen(), "B:W9,10,K14:B21-24");
    ///
    /// let bad = Position::from_fen(Variant::Spanish, "W:W9:B40");
    /// assert_eq!(bad, Err(FenError::SquareOutOfRange { number: 40 }));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        parse(variant, fen)
    }

    /// This position as PDN FEN.
    pub fn fen(&self) -> String {
        format(self)
    }
}
