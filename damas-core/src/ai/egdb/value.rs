//! What a table says about a position, and what that means under the draw counts.
//!
//! An entry is the result for the side to move when the no-progress count starts afresh,
//! with the distance in plies to the *conversion*: the next move that restarts the count (a
//! capture, or in Spanish and English also a man's move) after which the result still stands.
//! Both sides play it out: the winner takes the shortest way, the loser the longest. A win
//! counts only if the count leaves time for it, so an entry `Win(d)` means: with `c` plies
//! already counted, the side to move wins if and only if `c + d` is at most the variant's
//! limit, and otherwise the game is drawn. Positions that would win only without the count
//! are draws in the tables, as they are in the game.

use crate::engine::{Color, DrawCounters, Position, THREE_KINGS_MOVES};

/// One entry, as stored (one byte).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stored {
    Draw,
    /// The side to move wins, converting in this many plies.
    Win(u8),
    /// The side to move loses, the opponent converting in this many plies (0: it has no move).
    Loss(u8),
}

const LOSS_BASE: u8 = 128;

impl Stored {
    #[inline]
    pub fn decode(byte: u8) -> Stored {
        match byte {
            0 => Stored::Draw,
            1..LOSS_BASE => Stored::Win(byte),
            _ => Stored::Loss(byte - LOSS_BASE),
        }
    }

    #[inline]
    pub fn encode(self) -> u8 {
        match self {
            Stored::Draw => 0,
            Stored::Win(d) => d,
            Stored::Loss(d) => LOSS_BASE + d,
        }
    }
}

/// The exact result of a position for the side to move, from the tables, under the draw
/// counts as they stand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum EndgameVerdict {
    /// The side to move wins; `plies` is the distance to the conversion (see the module).
    Win {
        plies: u32,
    },
    Draw,
    /// The side to move loses; the opponent converts in `plies`.
    Loss {
        plies: u32,
    },
}

impl EndgameVerdict {
    /// The same result for the opponent.
    pub fn flipped(self) -> EndgameVerdict {
        match self {
            EndgameVerdict::Win { plies } => EndgameVerdict::Loss { plies },
            EndgameVerdict::Loss { plies } => EndgameVerdict::Win { plies },
            EndgameVerdict::Draw => EndgameVerdict::Draw,
        }
    }

    /// `won`, `drawn` or `lost` (for the side to move).
    pub const fn id(self) -> &'static str {
        match self {
            EndgameVerdict::Win { .. } => "won",
            EndgameVerdict::Draw => "drawn",
            EndgameVerdict::Loss { .. } => "lost",
        }
    }
}

/// What the entry `stored` of `pos` means with the counts `counters`; `None` when the tables
/// cannot tell (only in Spanish, three kings against one, see below).
///
/// Spanish three kings against one: the entry's line converts in `d` plies, of which the
/// stronger side plays `d / 2` (rounded up when it is to move). The count of its moves stands
/// at `made` (none yet, if no strong king has stood on the long diagonal). The line fits when
/// `made` plus those moves stays at most 12: the position after the 13th would be drawn unless
/// the 13th move itself takes the lone king. When the count runs and the line needs more than
/// 13, the loser can make it last that long, so it is a draw. In between (exactly 13, or more
/// before the count has started, when the strong side might start it late) the tables cannot
/// tell and the caller searches on.
pub(crate) fn under_counts(
    pos: &Position,
    stored: Stored,
    counters: &DrawCounters,
) -> Option<EndgameVerdict> {
    let (d, win) = match stored {
        Stored::Draw => return Some(EndgameVerdict::Draw),
        Stored::Win(d) => (d as u32, true),
        Stored::Loss(d) => (d as u32, false),
    };
    let limit = pos.variant().no_progress_limit() as u32;
    if counters.no_progress_plies() as u32 + d > limit {
        return Some(EndgameVerdict::Draw);
    }
    if let Some(strong) = three_kings_against_one(pos) {
        let strong_moves = if pos.side_to_move() == strong {
            d.div_ceil(2)
        } else {
            d / 2
        };
        let made = counters.three_kings().map(|(_, n)| n as u32);
        let needed = made.unwrap_or(0) + strong_moves;
        let last = THREE_KINGS_MOVES as u32;
        if needed >= last && !(made.is_some() && needed > last) {
            return None;
        }
        if needed > last {
            return Some(EndgameVerdict::Draw);
        }
    }
    Some(if win {
        EndgameVerdict::Win { plies: d }
    } else {
        EndgameVerdict::Loss { plies: d }
    })
}

/// In Spanish, with three kings against a lone king and no men: the side with the three.
pub(crate) fn three_kings_against_one(pos: &Position) -> Option<Color> {
    if !pos.variant().three_kings_rule() || pos.all_kings() != pos.occupied() {
        return None;
    }
    [Color::White, Color::Black]
        .into_iter()
        .find(|&c| pos.kings(c).count() == 3 && pos.kings(!c).count() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Variant};

    #[test]
    fn bytes_round_trip() {
        for s in [
            Stored::Draw,
            Stored::Win(1),
            Stored::Win(80),
            Stored::Loss(0),
            Stored::Loss(79),
        ] {
            assert_eq!(Stored::decode(s.encode()), s);
        }
    }

    fn game(variant: Variant, fen: &str) -> Game {
        match Position::from_fen(variant, fen) {
            Ok(p) => Game::from_position(p),
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    #[test]
    fn the_no_progress_count_turns_late_wins_into_draws() {
        let g = game(Variant::English, "W:WK18,K22:BK1");
        let fresh = g.draw_counters();
        assert_eq!(
            under_counts(g.position(), Stored::Win(80), &fresh),
            Some(EndgameVerdict::Win { plies: 80 })
        );
        assert_eq!(
            under_counts(g.position(), Stored::Loss(81), &fresh),
            Some(EndgameVerdict::Draw)
        );
    }

    #[test]
    fn three_kings_wins_must_fit_the_thirteen_moves() {
        // A strong king on the long diagonal: the count runs from the start, at 0.
        let g = game(Variant::Spanish, "W:WK1,K10,K20:BK26");
        let c = g.draw_counters();
        assert_eq!(c.three_kings(), Some((Color::White, 0)));
        let pos = g.position();
        // White to move: 23 plies are 12 of White's moves, 24 are 12, 25 are 13.
        assert_eq!(
            under_counts(pos, Stored::Win(24), &c),
            Some(EndgameVerdict::Win { plies: 24 })
        );
        assert_eq!(under_counts(pos, Stored::Win(25), &c), None);
        assert_eq!(
            under_counts(pos, Stored::Win(27), &c),
            Some(EndgameVerdict::Draw)
        );
        // Not started: no strong king on the long diagonal, so a long line cannot be judged.
        let g = game(Variant::Spanish, "W:WK2,K11,K20:BK26");
        assert_eq!(g.draw_counters().three_kings(), None);
        assert_eq!(
            under_counts(g.position(), Stored::Win(30), &g.draw_counters()),
            None
        );
        assert_eq!(
            under_counts(g.position(), Stored::Win(9), &g.draw_counters()),
            Some(EndgameVerdict::Win { plies: 9 })
        );
        // Portuguese has no such rule.
        let g = game(Variant::Portuguese, "W:WK1,K10,K20:BK26");
        assert_eq!(
            under_counts(g.position(), Stored::Win(30), &g.draw_counters()),
            Some(EndgameVerdict::Win { plies: 30 })
        );
    }
}
