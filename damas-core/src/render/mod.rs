//! Board pictures: the PNG the bot posts after every turn.
//!
//! Built like lichess' lila-gif: whatever never changes (the board of each variant seen from
//! each side, with its square numbers; the piece sprites) is drawn once into a [`Renderer`]
//! kept for the life of the process; a picture then copies a background, composites pieces,
//! highlights and caption, and encodes. Depends on `engine` only: the caption arrives as plain
//! strings, already translated.
//!
//! Shapes and text are drawn with imageproc: sprites (pieces, crowns, rings, numbers) on a
//! canvas four times larger, averaged down with image's thumbnail; lines, dashes and arrows
//! drawn per picture as polygons with anti-aliased edges at the picture's size (see `canvas`).

mod board;
mod canvas;
mod chart;
pub mod encode;
mod layout;
pub mod palette;
mod read;
mod replay;
mod sprites;
mod standings;
pub mod svg;
mod text;

pub use board::{capture_label, MoveArrow, Renderer, LAST_MOVE_FRAME_WIDTH};
pub use chart::{eval_chart, eval_chart_png, ChartLabels, ChartMark};
pub use layout::{Layout, Rect};
pub use read::read_square;
pub use replay::{replay_gif, REPLAY_FRAME_DELAY_CS, REPLAY_LAST_FRAME_DELAY_CS};
pub use sprites::GHOST_OPACITY;
pub use standings::{
    standings_image, standings_png, Outcome, RoundCell, StandingsRow, StandingsTable,
};
pub use svg::board_svg;
pub use text::FONT_BYTES;

use crate::engine::{Color, Explanation, Move, Piece, Position, Role, Square};
use image::RgbImage;
use std::sync::OnceLock;

/// What to draw.
#[derive(Clone, Debug)]
pub struct BoardView<'a> {
    pub position: &'a Position,
    /// The side seen at the bottom.
    pub perspective: Color,
    /// The move that led to `position`: its from and to squares are tinted; for a capture, the
    /// path is drawn and the taken pieces are shown faded under a cross.
    pub last_move: Option<Move>,
    /// Circle the pieces that must capture now.
    pub highlight_captures: bool,
    /// Mark the squares this piece can move to.
    pub reachable_from: Option<Square>,
    /// Draw every available capture as an arrow, allowed ones apart from excluded ones.
    pub explanation: Option<&'a Explanation>,
    pub caption: Caption,
}

impl<'a> BoardView<'a> {
    /// The pieces the last move took, each with its square, as both pictures (PNG and SVG)
    /// show them faded under a cross; a square a piece stands on again is left out.
    pub(crate) fn taken_pieces(&self) -> Vec<(Square, Piece)> {
        let Some(mv) = &self.last_move else {
            return Vec::new();
        };
        let pos = self.position;
        mv.captured()
            .into_iter()
            .filter(|&sq| pos.piece_at(sq).is_none())
            .map(|sq| {
                let role = if mv.captured_kings().contains(sq) {
                    Role::King
                } else {
                    Role::Man
                };
                let color = pos.side_to_move();
                (sq, Piece { color, role })
            })
            .collect()
    }

    /// The plain picture of a position, from `perspective`, with an empty caption.
    pub fn new(position: &'a Position, perspective: Color) -> BoardView<'a> {
        BoardView {
            position,
            perspective,
            last_move: None,
            highlight_captures: false,
            reachable_from: None,
            explanation: None,
            caption: Caption::default(),
        }
    }
}

/// The text above the board, given by the caller in the reader's language. Any string is
/// accepted: what does not fit is cut with an ellipsis, what the font lacks is left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    /// The variant's name.
    pub title: String,
    /// e.g. "alice (White) vs bob (Black)".
    pub players: String,
    /// Whose turn, move number, no-progress count, result.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("the embedded font could not be read")]
    Font,
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    #[error("GIF encoding failed: {0}")]
    Gif(String),
}

static SHARED: OnceLock<Result<Renderer, RenderError>> = OnceLock::new();

impl Renderer {
    /// The renderer of the process, built on first use.
    pub fn shared() -> Result<&'static Renderer, RenderError> {
        SHARED
            .get_or_init(Renderer::new)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Draws and encodes a view.
    pub fn render_png(&self, view: &BoardView) -> Result<Vec<u8>, RenderError> {
        self.palette.encode(&self.draw(view))
    }

    /// The palette pictures are encoded with.
    pub fn palette(&self) -> &encode::Palette {
        &self.palette
    }
}

/// The picture of a view, as PNG bytes.
pub fn render_png(view: &BoardView) -> Result<Vec<u8>, RenderError> {
    Renderer::shared()?.render_png(view)
}

/// The picture of a view, not encoded.
pub fn render_image(view: &BoardView) -> Result<RgbImage, RenderError> {
    Ok(Renderer::shared()?.draw(view))
}

/// Encodes a picture as a palette PNG (see [`encode`] for why and how).
pub fn encode_png(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    Renderer::shared()?.palette.encode(img)
}
