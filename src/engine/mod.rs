//! The rules of draughts: pure, synchronous, with no I/O. Everything else builds on this.

pub mod bitboard;
pub mod explain;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod position;
pub mod square;
pub mod variant;

pub use bitboard::Bitboard;
pub use explain::{explain, Attempt, CaptureOption, Explanation, Law, Verdict};
pub use fen::FenError;
pub use game::{DrawReason, Game, GameError, Outcome, WinReason};
pub use movegen::perft;
pub use moves::{Move, MoveList};
pub use notation::{IllegalMove, MoveError, NotationError};
pub use position::{Piece, Position, Role};
pub use square::Square;
pub use variant::{CaptureChoice, Color, NoProgress, UnknownVariant, Variant};
