//! The colours of the picture. Public so that tests (and [`super::read_square`]) can look for
//! them in a decoded PNG.
//!
//! Chosen so that nothing relies on hue alone: light pieces are cream with a dark outline, dark
//! pieces near-black with a light ring; highlights differ from the squares by brightness and by
//! shape (framed square, ring, dot, solid or dashed arrow), and square numbers keep a WCAG AA
//! contrast (4.5:1) on every square fill even without their halo. The highlight hues come from the
//! Okabe–Ito palette, which stays distinct under the common forms of colour blindness.

/// An opaque colour.
pub type Rgb = [u8; 3];

/// Squares that are not used (no number, never a piece).
pub const LIGHT_SQUARE: Rgb = [0xEC, 0xD9, 0xB4];
/// Playing squares.
pub const DARK_SQUARE: Rgb = [0x86, 0x5B, 0x3B];
/// The frame around the last move's squares (from and to): a square outline, much lighter
/// than [`DARK_SQUARE`], so it differs from the must-capture ring by shape and from the square
/// by brightness, whatever colours one sees. The square inside keeps its colour, so that its
/// number keeps its contrast.
pub const LAST_MOVE_FRAME: Rgb = [0xEC, 0xC2, 0x45];
/// The square of the piece whose reachable squares are shown (dark enough for its number).
pub const REACH_ORIGIN_SQUARE: Rgb = [0x2F, 0x66, 0x8C];

/// Every colour a numbered (playing) square is filled with: its number must read on each.
pub const NUMBERED_SQUARE_FILLS: [Rgb; 2] = [DARK_SQUARE, REACH_ORIGIN_SQUARE];

/// Square numbers, drawn with a dark halo so they stay legible over pieces and tints.
pub const NUMBER_TEXT: Rgb = [0xFA, 0xF3, 0xE3];
pub const NUMBER_HALO: Rgb = [0x24, 0x18, 0x10];

/// Light ("white") pieces.
pub const WHITE_BODY: Rgb = [0xF4, 0xEC, 0xD8];
pub const WHITE_OUTLINE: Rgb = [0x1C, 0x17, 0x12];
pub const WHITE_GROOVE: Rgb = [0xC8, 0xB8, 0x98];
pub const WHITE_CROWN: Rgb = [0x3A, 0x26, 0x12];
/// Dark ("black") pieces.
pub const BLACK_BODY: Rgb = [0x26, 0x24, 0x22];
pub const BLACK_OUTLINE: Rgb = [0xE8, 0xE4, 0xDC];
pub const BLACK_GROOVE: Rgb = [0x55, 0x50, 0x4A];
pub const BLACK_CROWN: Rgb = [0xF2, 0xC6, 0x3A];

/// The path of the last capture (a line through the landing squares, under the pieces).
pub const LAST_PATH: Rgb = [0xF0, 0xD2, 0x5A];
/// The rim around that path: [`HALO`] at 55 % over [`DARK_SQUARE`], where most of it runs.
/// (Opaque, so the polygons of a path's segments and joints can overlap without darkening.)
pub const PATH_HALO: Rgb = [0x47, 0x32, 0x21];
/// The cross over a piece taken by the last move.
pub const CAPTURED_CROSS: Rgb = [0xD5, 0x5E, 0x00];
/// Ring around each piece that must capture now.
pub const MUST_CAPTURE_RING: Rgb = [0x56, 0xB4, 0xE9];
/// Dot on each square the chosen piece can reach.
pub const REACH_DOT: Rgb = [0x00, 0x9E, 0x73];
/// Explanation arrows: captures the law allows (solid, wide) and excludes (dashed, narrow).
pub const ALLOWED_ARROW: Rgb = [0x00, 0x9E, 0x73];
pub const EXCLUDED_ARROW: Rgb = [0xD5, 0x5E, 0x00];
/// The board page's keyboard cursor (a square frame, drawn only on the page): as bright as
/// the last move's frame, in the reach dots' hue, so the two never read as one.
pub const KEYBOARD_CURSOR: Rgb = [0x4F, 0xD1, 0xA8];
/// Outline around highlights drawn over pieces.
pub const HALO: Rgb = [0x14, 0x10, 0x0C];
pub const LABEL_TEXT: Rgb = [0xFF, 0xFF, 0xFF];

/// The caption band.
pub const CAPTION_BACKGROUND: Rgb = [0x26, 0x24, 0x21];
pub const CAPTION_TITLE: Rgb = [0xFF, 0xFF, 0xFF];
pub const CAPTION_TEXT: Rgb = [0xD9, 0xD4, 0xCB];
pub const CAPTION_STATUS: Rgb = [0xF2, 0xC6, 0x3A];

/// Euclidean distance between two colours, for tolerant pixel matching.
pub fn distance(a: Rgb, b: Rgb) -> f32 {
    let d = |i: usize| a[i] as f32 - b[i] as f32;
    (d(0) * d(0) + d(1) * d(1) + d(2) * d(2)).sqrt()
}

/// Relative luminance (sRGB, WCAG), 0..=1.
pub fn luminance(c: Rgb) -> f32 {
    let lin = |v: u8| {
        let v = v as f32 / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

/// WCAG contrast ratio, 1..=21.
pub fn contrast(a: Rgb, b: Rgb) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}
