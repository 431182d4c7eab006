//! The rules of draughts: pure, synchronous, with no I/O. Everything else builds on this.
//!
//! The modules are private; this is the whole public API. A game from the start:
//!
//! ```
//! use damas_core::engine::{Game, Variant};
//!
//! let mut game = Game::new(Variant::Spanish);
//! game.play_text("11-15")?;
//! game.play_text("24-20")?;
//! assert!(game.play_text("10-14").is_err()); // captures are mandatory
//! game.play_text("15x24")?;
//! assert_eq!(game.position().fen(), "B:W1-10,12,24:B21-23,25-32");
//! # Ok::<(), damas_core::engine::GameError>(())
//! ```

mod bitboard;
mod by_colour;
mod explain;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod pdn;
mod position;
mod square;
mod variant;

pub use bitboard::{Bitboard, Squares};
pub use by_colour::ByColour;
pub use explain::{explain, Attempt, CaptureOption, Explanation, Law, Verdict};
pub use fen::FenError;
pub use game::{DrawCounters, DrawReason, Game, GameError, Outcome, WinReason, THREE_KINGS_MOVES};
pub use movegen::perft;
pub use moves::{Move, MoveList};
pub use notation::{
    format_move, legal_notations, parse_squares, resolve_squares, IllegalMove, MoveError,
    NotationError,
};
pub use pdn::{
    decode_pdn, export_pdn, pdn_text, read_pdn, read_pdn_by_game_type, variant_of_game_type,
    NotPdn, PdnError, PdnReader, PdnRecord, PdnRefusal, PdnResult, PdnTags,
};
pub use position::{Piece, Position, Role};
pub use square::Square;
pub use variant::{CaptureChoice, Color, NoProgress, UnknownVariant, Variant};

/// The board's geometry, for the computer's evaluation tables (crate-internal).
pub(crate) use square::Geometry;
