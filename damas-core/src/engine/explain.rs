//! Why a move is or is not legal, in terms of the rules: structured data that the bot turns
//! into words and pictures.

use super::movegen;
use super::moves::Move;
use super::notation::{self, MoveError};
use super::position::Position;
use super::variant::{CaptureChoice, Color, Variant};

/// The rule that decided which moves were allowed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Law {
    /// No capture was available: every plain move was allowed.
    NoCapture,
    /// Captures were available and all of them were allowed (they took the same number of
    /// pieces and kings, or there was only one): capturing is mandatory.
    Mandatory,
    /// Law of quantity: only the captures taking the most pieces were allowed.
    Quantity,
    /// Law of quality: among those, only the ones taking the most kings.
    Quality,
    /// English: capturing is mandatory but the player chooses any capture.
    FreeChoice,
}

/// One capture sequence that was available.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureOption {
    pub mv: Move,
    /// Canonical notation among all available captures.
    pub notation: String,
    pub pieces: u8,
    pub kings: u8,
    /// Whether the law allowed it.
    pub allowed: bool,
    /// The law that excluded it, when not allowed.
    pub excluded_by: Option<Law>,
}

/// The verdict on one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Legal { mv: Move, notation: String },
    Illegal { error: MoveError },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub variant: Variant,
    pub side: Color,
    /// Every capture sequence available, allowed or not (empty when none).
    pub captures: Vec<CaptureOption>,
    /// The law that decided (the strongest one that excluded something).
    pub law: Law,
    /// Most pieces and most kings any capture could take.
    pub max_pieces: u8,
    pub max_kings: u8,
    /// The legal moves, in canonical notation.
    pub allowed: Vec<(Move, String)>,
    /// The verdict on the move asked about, if any.
    pub verdict: Option<Verdict>,
    /// The move asked about as the words name it: as typed (trimmed), or in notation when
    /// it was played.
    pub asked: Option<String>,
}

impl Explanation {
    pub fn capture_available(&self) -> bool {
        !self.captures.is_empty()
    }

    /// Whether the move was forced: a capture was mandatory and only one move was allowed.
    pub fn forced(&self) -> bool {
        self.capture_available() && self.allowed.len() == 1
    }
}

/// Explains `pos`, and `attempt` (text or a move) if given.
pub fn explain(pos: &Position, attempt: Option<Attempt<'_>>) -> Explanation {
    let all = movegen::all_captures(pos);
    let legal = pos.legal_moves();
    let max_pieces = all.iter().map(|m| m.capture_count()).max().unwrap_or(0);
    let max_kings_overall = all
        .iter()
        .filter(|m| m.capture_count() == max_pieces)
        .map(|m| m.king_capture_count())
        .max()
        .unwrap_or(0);
    let most_laws = pos.variant().capture_choice() == CaptureChoice::MostPiecesThenMostKings;
    let mut captures: Vec<CaptureOption> = all
        .iter()
        .map(|m| {
            let allowed = legal.contains(m);
            let excluded_by = if allowed {
                None
            } else if m.capture_count() < max_pieces {
                Some(Law::Quantity)
            } else {
                Some(Law::Quality)
            };
            CaptureOption {
                mv: *m,
                notation: notation::format_move(m, &all),
                pieces: m.capture_count(),
                kings: m.king_capture_count(),
                allowed,
                excluded_by,
            }
        })
        .collect();
    captures.sort_by(|a, b| {
        (b.allowed, b.pieces, b.kings, a.mv.from(), a.mv.to()).cmp(&(
            a.allowed,
            a.pieces,
            a.kings,
            b.mv.from(),
            b.mv.to(),
        ))
    });
    let law = if all.is_empty() {
        Law::NoCapture
    } else if !most_laws {
        Law::FreeChoice
    } else if captures.iter().any(|c| c.excluded_by == Some(Law::Quality)) {
        Law::Quality
    } else if captures
        .iter()
        .any(|c| c.excluded_by == Some(Law::Quantity))
    {
        Law::Quantity
    } else {
        Law::Mandatory
    };
    let asked = attempt.map(|a| match a {
        Attempt::Text(t) => t.trim().chars().take(40).collect(),
        Attempt::Move(m) if legal.contains(&m) => notation::format_move(&m, &legal),
        Attempt::Move(m) => m.full_notation(),
    });
    let verdict = attempt.map(|a| {
        let result = match a {
            Attempt::Text(t) => pos.parse_move(t),
            Attempt::Move(m) => {
                if legal.contains(&m) {
                    Ok(m)
                } else {
                    notation::resolve_squares(pos, &m.path_with_start())
                }
            }
        };
        match result {
            Ok(mv) => Verdict::Legal {
                notation: notation::format_move(&mv, &legal),
                mv,
            },
            Err(error) => Verdict::Illegal { error },
        }
    });
    Explanation {
        variant: pos.variant(),
        side: pos.side_to_move(),
        captures,
        law,
        max_pieces,
        max_kings: max_kings_overall,
        allowed: notation::legal_notations(pos),
        verdict,
        asked,
    }
}

/// A move asked about: as typed, or as played.
#[derive(Clone, Copy, Debug)]
pub enum Attempt<'a> {
    Text(&'a str),
    Move(Move),
}

impl Move {
    /// from, then every landing square.
    pub fn path_with_start(&self) -> Vec<super::Square> {
        let mut v = vec![self.from()];
        v.extend(self.path());
        v
    }
}
