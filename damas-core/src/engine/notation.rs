//! Move notation: forgiving input resolved against the legal moves, canonical output, and a
//! precise reason whenever the text does not name a legal move.

use super::movegen;
use super::moves::Move;
use super::position::{Position, Role};
use super::square::{Square, NONE};
use super::variant::CaptureChoice;

/// Text that is not a move at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("no move given")]
    Empty,
    #[error("{text:?} is not a move: write squares like 11-15 or 22x15")]
    NotAMove { text: String },
    #[error("square {number} does not exist: squares go from 1 to 32")]
    SquareOutOfRange { number: u64 },
    #[error("a move needs at least two squares, from and to")]
    OneSquare { square: Square },
}

/// Why a move that names real squares is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("a man moves only forward")]
    ManMovesForwardOnly { from: Square, to: Square },
    #[error("a man captures only forward")]
    ManCapturesForwardOnly { from: Square, to: Square },
    #[error("square {to} is occupied")]
    TargetOccupied { to: Square },
    #[error("the piece on {from} cannot reach {to}")]
    NotReachable { from: Square, to: Square },
    #[error("a king moves one square at a time in this variant")]
    ShortKingOneSquare { from: Square, to: Square },
    #[error("capturing is mandatory")]
    CaptureMandatory { captures: Vec<Move> },
    #[error("law of quantity: {best} pieces can be taken, that move takes {yours}")]
    LawOfQuantity {
        best: u8,
        yours: u8,
        keeps: Vec<Move>,
    },
    #[error("law of quality: {best_kings} kings can be taken, that move takes {yours_kings}")]
    LawOfQuality {
        best_kings: u8,
        yours_kings: u8,
        keeps: Vec<Move>,
    },
    #[error("the capture must go on: a capture cannot stop half way")]
    CaptureIncomplete { continuations: Vec<Move> },
    #[error("there is no such capture from {from}")]
    NoSuchCapture { from: Square, to: Square },
}

/// Everything that can go wrong between text and a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("there is no piece on square {square}")]
    NoPiece { square: Square },
    #[error("the piece on square {square} is your opponent's")]
    OpponentPiece { square: Square },
    #[error("that names more than one legal move")]
    Ambiguous { candidates: Vec<Move> },
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// Splits text into square numbers. Accepts `-`, `x`, `X`, `×`, `:` and spaces as separators.
pub fn parse_squares(text: &str) -> Result<Vec<Square>, NotationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotationError::Empty);
    }
    let not_a_move = || NotationError::NotAMove {
        text: trimmed.chars().take(40).collect(),
    };
    let mut squares = Vec::new();
    let mut number: Option<u64> = None;
    let mut separator_seen = true; // no separator needed before the first number
    for c in trimmed.chars() {
        if let Some(d) = c.to_digit(10) {
            if number.is_none() && !separator_seen {
                return Err(not_a_move());
            }
            let n = number
                .unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(d as u64);
            number = Some(n.min(1_000_000));
            separator_seen = false;
        } else if matches!(c, '-' | 'x' | 'X' | '×' | ':' | '–' | '—') || c.is_whitespace() {
            if let Some(n) = number.take() {
                squares.push(square(n)?);
            }
            separator_seen = true;
        } else {
            return Err(not_a_move());
        }
    }
    if let Some(n) = number {
        squares.push(square(n)?);
    }
    match squares.len() {
        0 => Err(not_a_move()),
        1 => Err(NotationError::OneSquare { square: squares[0] }),
        _ => Ok(squares),
    }
}

fn square(n: u64) -> Result<Square, NotationError> {
    if (1..=32).contains(&n) {
        Ok(Square::new(n as u8).unwrap_or_else(|| Square::from_index(0)))
    } else {
        Err(NotationError::SquareOutOfRange { number: n })
    }
}

/// Whether `squares` (from, optional intermediate landings, to) describe `mv`: same ends, and
/// the intermediate squares are landing squares of the move, in order.
fn names(mv: &Move, squares: &[Square]) -> bool {
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    if mv.from() != first || mv.to() != last {
        return false;
    }
    let path = mv.path();
    let landings = &path[..path.len().saturating_sub(1)];
    let mut it = landings.iter();
    squares[1..squares.len() - 1]
        .iter()
        .all(|s| it.any(|l| l == s))
}

/// Resolves squares (from, optional landings, to) to the one legal move they name, or says
/// precisely why they name none. Fewer than two squares name no move: an error, as from
/// [`parse_squares`], since they may come from a damaged record.
pub fn resolve_squares(pos: &Position, squares: &[Square]) -> Result<Move, MoveError> {
    resolve(pos, squares, false)
}

/// Whether text writes a capture: with `x`, `×` or `:` between its squares.
fn written_as_capture(text: &str) -> bool {
    text.contains(['x', 'X', '×', ':'])
}

/// [`resolve_squares`], told whether the squares were written as a capture (`14x24`): a
/// capture that does not exist is then refused as such, not as a plain move.
fn resolve(pos: &Position, squares: &[Square], as_capture: bool) -> Result<Move, MoveError> {
    let from = match squares {
        [] => return Err(NotationError::Empty.into()),
        [only] => return Err(NotationError::OneSquare { square: *only }.into()),
        [from, ..] => *from,
    };
    let legal = pos.legal_moves();
    let mut matching: Vec<Move> = legal
        .iter()
        .filter(|m| names(m, squares))
        .copied()
        .collect();
    if matching.is_empty() && squares.len() > 2 {
        // The landings may follow another route of a legal move than the one it records.
        let routes = movegen::capture_routes(pos);
        matching = legal
            .iter()
            .filter(|m| routes.iter().any(|r| r == *m && names(r, squares)))
            .copied()
            .collect();
    }
    match matching.len() {
        1 => return Ok(matching[0]),
        n if n > 1 => {
            // Squares that spell out one move's whole path name that move, even when they
            // also fit a longer one with the same ends (an English king's 11x2 beside its
            // round trip 11x20x27x18x11x2): otherwise that move could never be entered.
            let mut exact = matching.iter().filter(|m| m.path_with_start() == squares);
            if let (Some(m), None) = (exact.next(), exact.next()) {
                return Ok(*m);
            }
            let mut candidates = matching;
            candidates.sort_by_key(|m| m.full_notation());
            return Err(MoveError::Ambiguous { candidates });
        }
        _ => {}
    }
    let piece = match pos.piece_at(from) {
        None => return Err(MoveError::NoPiece { square: from }),
        Some(p) if p.color != pos.side_to_move() => {
            return Err(MoveError::OpponentPiece { square: from })
        }
        Some(p) => p,
    };
    Err(MoveError::Illegal(why_illegal(
        pos, &legal, squares, piece.role, as_capture,
    )))
}

fn why_illegal(
    pos: &Position,
    legal: &[Move],
    squares: &[Square],
    role: Role,
    as_capture: bool,
) -> IllegalMove {
    let from = squares[0];
    let to = squares[squares.len() - 1];
    let all = movegen::all_captures(pos);
    // Routes, not merged moves: the squares may follow any route of a capture.
    let routes = movegen::capture_routes(pos);
    // A capture the laws exclude.
    if let Some(mv) = routes.iter().find(|m| names(m, squares)) {
        if pos.variant().capture_choice() == CaptureChoice::MostPiecesThenMostKings {
            let best = legal.iter().map(|m| m.capture_count()).max().unwrap_or(0);
            let keeps = sorted(legal.to_vec());
            if mv.capture_count() < best {
                return IllegalMove::LawOfQuantity {
                    best,
                    yours: mv.capture_count(),
                    keeps,
                };
            }
            let best_kings = legal
                .iter()
                .map(|m| m.king_capture_count())
                .max()
                .unwrap_or(0);
            return IllegalMove::LawOfQuality {
                best_kings,
                yours_kings: mv.king_capture_count(),
                keeps,
            };
        }
    }
    // A capture that stops where it must go on (along any of its routes).
    let continuations: Vec<Move> = all
        .iter()
        .filter(|m| {
            routes.iter().any(|r| {
                let path = r.path();
                r == *m
                    && r.from() == from
                    && path[..path.len() - 1].contains(&to)
                    && squares[1..squares.len() - 1]
                        .iter()
                        .all(|s| path.contains(s))
            })
        })
        .copied()
        .collect();
    if !continuations.is_empty() {
        return IllegalMove::CaptureIncomplete {
            continuations: sorted(continuations),
        };
    }
    // A man's capture that jumps backwards somewhere along its way (whatever else the
    // position offers: the move is refused for what it is, not for the captures it skips).
    if role == Role::Man
        && movegen::backward_man_routes(pos)
            .iter()
            .any(|r| names(r, squares))
    {
        return IllegalMove::ManCapturesForwardOnly { from, to };
    }
    // A capture the player wrote that the position does not hold: say so, rather than that
    // capturing is mandatory (they tried to) or that the piece cannot get there.
    if as_capture {
        return IllegalMove::NoSuchCapture { from, to };
    }
    let geometry = pos.variant().geometry();
    let forward_up = pos.side_to_move() == pos.variant().first_player();
    // Walk the diagonal from `from` towards `to`, if they share one.
    let mut line: Option<(usize, Vec<usize>)> = None;
    for d in 0..4 {
        let mut walk = Vec::new();
        let mut s = geometry.neighbor[from.index()][d];
        while s != NONE {
            walk.push(s as usize);
            if s as usize == to.index() {
                line = Some((d, walk.clone()));
                break;
            }
            s = geometry.neighbor[s as usize][d];
        }
    }
    let is_forward = |d: usize| (d < 2) == forward_up;
    let any_capture = !all.is_empty();
    let Some((dir, walk)) = line else {
        if any_capture && squares.len() == 2 {
            return IllegalMove::CaptureMandatory {
                captures: sorted(legal.to_vec()),
            };
        }
        return if squares.len() > 2 || any_capture {
            IllegalMove::NoSuchCapture { from, to }
        } else {
            IllegalMove::NotReachable { from, to }
        };
    };
    let occupied = pos.occupied();
    let target_free = !occupied.contains(to);
    let between_pieces: Vec<usize> = walk[..walk.len() - 1]
        .iter()
        .copied()
        .filter(|&s| occupied.contains(Square::from_index(s)))
        .collect();
    // A jump over one enemy piece that the rules forbid (a man capturing backwards).
    let jump_shape = walk.len() == 2
        && between_pieces.len() == 1
        && pos
            .piece_at(Square::from_index(between_pieces[0]))
            .is_some_and(|p| p.color != pos.side_to_move());
    if role == Role::Man && jump_shape && target_free && !is_forward(dir) {
        return IllegalMove::ManCapturesForwardOnly { from, to };
    }
    let quiet_shape = squares.len() == 2 && between_pieces.is_empty();
    // Backwards is the more basic refusal: a man never goes there, occupied or not.
    if role == Role::Man && walk.len() == 1 && !is_forward(dir) {
        return IllegalMove::ManMovesForwardOnly { from, to };
    }
    if quiet_shape && !target_free {
        return IllegalMove::TargetOccupied { to };
    }
    if any_capture && quiet_shape {
        return IllegalMove::CaptureMandatory {
            captures: sorted(legal.to_vec()),
        };
    }
    if role == Role::King && !pos.variant().flying_kings() && quiet_shape && walk.len() > 1 {
        return IllegalMove::ShortKingOneSquare { from, to };
    }
    if jump_shape || squares.len() > 2 {
        return IllegalMove::NoSuchCapture { from, to };
    }
    IllegalMove::NotReachable { from, to }
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.from(), m.to(), m.full_notation()));
    moves
}

/// The canonical notation of `mv` among `legal`: from and to, with every landing square only
/// when another legal move has the same from and to.
pub fn format_move(mv: &Move, legal: &[Move]) -> String {
    let ambiguous = legal
        .iter()
        .any(|m| m != mv && m.from() == mv.from() && m.to() == mv.to());
    if ambiguous {
        mv.full_notation()
    } else {
        mv.short_notation()
    }
}

/// Canonical notation of every legal move, sorted by square numbers.
pub fn legal_notations(pos: &Position) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    let mut v: Vec<(Move, String)> = legal.iter().map(|m| (*m, format_move(m, &legal))).collect();
    v.sort_by(|a, b| (a.0.from(), a.0.to(), &a.1).cmp(&(b.0.from(), b.0.to(), &b.1)));
    v
}

impl Position {
    /// Resolves a move written in notation (`11-15`, `15x22`, `20x6x13`, separators `-`,
    /// `x`, `:` or spaces) to the one legal move it names, or says precisely why it names
    /// none.
    ///
    /// ```
    /// use damas_core::engine::{IllegalMove, MoveError, Position, Variant};
    ///
    /// let start = Position::start(Variant::Spanish);
    /// let mv = start.parse_move("11-15")?;
    /// assert_eq!((mv.from().number(), mv.to().number()), (11, 15));
    /// assert!(matches!(
    ///     start.parse_move("11-16"),
    ///     Err(MoveError::Illegal(IllegalMove::NotReachable { .. }))
    /// ));
    /// # Ok::<(), MoveError>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        resolve(self, &parse_squares(text)?, written_as_capture(text))
    }

    /// Canonical notation of a legal move in this position.
    pub fn move_notation(&self, mv: &Move) -> String {
        format_move(mv, &self.legal_moves())
    }
}
