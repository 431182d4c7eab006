//! Where everything sits in the picture. Public so that tests can sample pixels.

use crate::engine::{Color, Square, Variant};

/// Geometry of the picture: a caption band on top, then the 8×8 board.
pub struct Layout;

/// A rectangle in pixels: left, top, width, height.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }
}

impl Layout {
    /// Side of one square.
    pub const SQUARE: u32 = 80;
    /// Height of the caption band above the board.
    pub const CAPTION_HEIGHT: u32 = 100;
    /// Top edge of the board.
    pub const BOARD_TOP: u32 = Self::CAPTION_HEIGHT;
    pub const WIDTH: u32 = 8 * Self::SQUARE;
    pub const HEIGHT: u32 = Self::CAPTION_HEIGHT + 8 * Self::SQUARE;
    /// Radius of a piece.
    pub const PIECE_RADIUS: f32 = Self::SQUARE as f32 * 0.40;
    /// Pixel size of the square numbers: large enough to read on a phone, where Discord shows
    /// the picture about 350 px wide.
    pub const NUMBER_SIZE: f32 = 20.0;
    /// Size of the region a square number (with its halo) is drawn in.
    pub const NUMBER_BOX: (u32, u32) = (36, 26);
    /// Inset of a square number from its square's top-left corner.
    pub const NUMBER_INSET: (u32, u32) = (4, 2);

    /// Size of the whole picture.
    pub const fn size() -> (u32, u32) {
        (Self::WIDTH, Self::HEIGHT)
    }

    /// The cell of `sq` on screen: (column from the left, row from the top), both 0..8.
    /// White's point of view is the variant's usual diagram; Black's is turned 180°.
    pub fn cell(variant: Variant, perspective: Color, sq: Square) -> (u32, u32) {
        let (col, row) = variant.white_view_coords(sq);
        let (col, row) = (col as u32, row as u32);
        match perspective {
            Color::White => (col, 7 - row),
            Color::Black => (7 - col, row),
        }
    }

    /// The rectangle of a screen cell (column and row from the top-left, 0..8).
    pub const fn cell_rect(col: u32, row: u32) -> Rect {
        Rect {
            x: col * Self::SQUARE,
            y: Self::BOARD_TOP + row * Self::SQUARE,
            w: Self::SQUARE,
            h: Self::SQUARE,
        }
    }

    pub fn square_rect(variant: Variant, perspective: Color, sq: Square) -> Rect {
        let (col, row) = Self::cell(variant, perspective, sq);
        Self::cell_rect(col, row)
    }

    /// The centre of a square, in pixels.
    pub fn square_center(variant: Variant, perspective: Color, sq: Square) -> (f32, f32) {
        let r = Self::square_rect(variant, perspective, sq);
        (r.x as f32 + r.w as f32 / 2.0, r.y as f32 + r.h as f32 / 2.0)
    }

    /// The region the square's number is drawn in (its top-left corner, halo included).
    pub fn number_rect(variant: Variant, perspective: Color, sq: Square) -> Rect {
        let r = Self::square_rect(variant, perspective, sq);
        Rect {
            x: r.x + Self::NUMBER_INSET.0 - 2,
            y: r.y + Self::NUMBER_INSET.1 - 2,
            w: Self::NUMBER_BOX.0,
            h: Self::NUMBER_BOX.1,
        }
    }

    /// A point of the square that only the square's own fill covers: off the diagonals (where
    /// path lines and arrows run), outside the piece and its ring, away from the number. Tests
    /// read a square's tint here.
    pub fn tint_probe(variant: Variant, perspective: Color, sq: Square) -> (u32, u32) {
        let r = Self::square_rect(variant, perspective, sq);
        (r.x + r.w - 3, r.y + r.h / 2)
    }

    /// The screen cell under a pixel, if the pixel is on the board.
    pub fn cell_at(x: u32, y: u32) -> Option<(u32, u32)> {
        if x >= Self::WIDTH || !(Self::BOARD_TOP..Self::HEIGHT).contains(&y) {
            return None;
        }
        Some((x / Self::SQUARE, (y - Self::BOARD_TOP) / Self::SQUARE))
    }

    /// The square drawn in a screen cell, if it is a playing square.
    pub fn square_at_cell(
        variant: Variant,
        perspective: Color,
        col: u32,
        row: u32,
    ) -> Option<Square> {
        Square::all().find(|&sq| Self::cell(variant, perspective, sq) == (col, row))
    }
}
