//! The pictures drawn once: the four pieces and the 32 square numbers.

use super::canvas::Sprite;
use super::layout::Layout;
use super::palette::{self, Rgb};
use super::text::Text;
use crate::engine::{Color, Piece, Role};

/// Sub-samples per pixel side when drawing sprites (4×4 = 16 per pixel): smooth edges, once.
const SUPERSAMPLE: u32 = 4;

/// The crown, in units of the piece radius, y pointing down, centred on the piece.
const CROWN: [(f32, f32); 7] = [
    (-0.50, 0.26),
    (0.50, 0.26),
    (0.64, -0.30),
    (0.27, -0.02),
    (0.0, -0.44),
    (-0.27, -0.02),
    (-0.64, -0.30),
];
const CROWN_BALLS: [(f32, f32); 3] = [(-0.64, -0.36), (0.0, -0.50), (0.64, -0.36)];
const CROWN_BALL_RADIUS: f32 = 0.11;
/// The band under the crown: x from -0.50 to 0.50, y from 0.34 to 0.48.
const CROWN_BAND: (f32, f32, f32, f32) = (-0.50, 0.34, 0.50, 0.48);

/// Radius (in piece radii) inside which a king's crown lies; [`super::read_square`] looks for
/// the crown here.
pub const CROWN_ZONE: f32 = 0.56;
/// Where the decorative groove of a piece runs (in piece radii).
const GROOVE: f32 = 0.76;
/// Width of a piece's outline (dark for light pieces, light for dark ones), in pixels.
pub const OUTLINE_WIDTH: f32 = 2.8;

pub struct PieceColors {
    pub outline: Rgb,
    pub body: Rgb,
    pub groove: Rgb,
    pub crown: Rgb,
}

pub fn piece_colors(color: Color) -> PieceColors {
    match color {
        Color::White => PieceColors {
            outline: palette::WHITE_OUTLINE,
            body: palette::WHITE_BODY,
            groove: palette::WHITE_GROOVE,
            crown: palette::WHITE_CROWN,
        },
        Color::Black => PieceColors {
            outline: palette::BLACK_OUTLINE,
            body: palette::BLACK_BODY,
            groove: palette::BLACK_GROOVE,
            crown: palette::BLACK_CROWN,
        },
    }
}

/// Whether a point (in piece radii, centred) is on the crown.
fn in_crown(x: f32, y: f32) -> bool {
    let (bx0, by0, bx1, by1) = CROWN_BAND;
    if x >= bx0 && x <= bx1 && y >= by0 && y <= by1 {
        return true;
    }
    if CROWN_BALLS
        .iter()
        .any(|&(cx, cy)| (x - cx).powi(2) + (y - cy).powi(2) <= CROWN_BALL_RADIUS.powi(2))
    {
        return true;
    }
    // Even-odd rule: the polygon is not convex.
    let mut inside = false;
    let n = CROWN.len();
    for i in 0..n {
        let (xi, yi) = CROWN[i];
        let (xj, yj) = CROWN[(i + n - 1) % n];
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            inside = !inside;
        }
    }
    inside
}

/// Paints a sprite from a function giving the (straight) colour and opacity at a point,
/// averaging SUPERSAMPLE² samples per pixel.
fn paint(w: u32, h: u32, at: impl Fn(f32, f32) -> Option<(Rgb, f32)>) -> Sprite {
    let mut s = Sprite::new(w, h);
    let n = (SUPERSAMPLE * SUPERSAMPLE) as f32;
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0f32; 4];
            for sy in 0..SUPERSAMPLE {
                for sx in 0..SUPERSAMPLE {
                    let px = x as f32 + (sx as f32 + 0.5) / SUPERSAMPLE as f32;
                    let py = y as f32 + (sy as f32 + 0.5) / SUPERSAMPLE as f32;
                    if let Some((c, a)) = at(px, py) {
                        acc[0] += c[0] as f32 * a;
                        acc[1] += c[1] as f32 * a;
                        acc[2] += c[2] as f32 * a;
                        acc[3] += a;
                    }
                }
            }
            s.data[(y * w + x) as usize] = [
                (acc[0] / n + 0.5) as u8,
                (acc[1] / n + 0.5) as u8,
                (acc[2] / n + 0.5) as u8,
                (acc[3] / n * 255.0 + 0.5) as u8,
            ];
        }
    }
    s
}

/// A piece, one square wide, centred.
pub fn piece(p: Piece) -> Sprite {
    let size = Layout::SQUARE;
    let c = size as f32 / 2.0;
    let r = Layout::PIECE_RADIUS;
    let colors = piece_colors(p.color);
    let king = p.role == Role::King;
    paint(size, size, |x, y| {
        let (dx, dy) = (x - c, y - c);
        let d = (dx * dx + dy * dy).sqrt();
        if d > r {
            // A soft shadow below and to the right lifts the piece off the board.
            let ds = ((dx - 1.5).powi(2) + (dy - 2.5).powi(2)).sqrt();
            let a = ((r + 2.5 - ds) / 4.0).clamp(0.0, 1.0) * 0.45;
            return (a > 0.0).then_some(([0, 0, 0], a));
        }
        if d > r - OUTLINE_WIDTH {
            return Some((colors.outline, 1.0));
        }
        if king && in_crown(dx / r, dy / r) {
            return Some((colors.crown, 1.0));
        }
        if (d - GROOVE * r).abs() <= 1.0 {
            return Some((colors.groove, 1.0));
        }
        Some((colors.body, 1.0))
    })
}

/// A square's number with a dark halo, to be drawn over anything.
pub fn number(text: &Text, n: u8) -> Sprite {
    const HALO: i32 = 2;
    let (mask, w, h) = text.render_mask(&n.to_string(), Layout::NUMBER_SIZE, HALO as u32);
    let at = |x: i32, y: i32| -> f32 {
        if x < 0 || y < 0 || x as u32 >= w || y as u32 >= h {
            0.0
        } else {
            mask[(y as u32 * w + x as u32) as usize] as f32 / 255.0
        }
    };
    let mut s = Sprite::new(w, h);
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            // Halo: the text grown by about 1.8 px, from the coverage of the neighbours.
            let mut halo: f32 = 0.0;
            for oy in -HALO..=HALO {
                for ox in -HALO..=HALO {
                    let dist = ((ox * ox + oy * oy) as f32).sqrt();
                    let weight = (1.8 + 0.5 - dist).clamp(0.0, 1.0);
                    halo = halo.max(at(x + ox, y + oy) * weight);
                }
            }
            let halo = halo * 0.9;
            let t = at(x, y);
            // Text over halo, premultiplied.
            let a = t + halo * (1.0 - t);
            let ch = |i: usize| {
                palette::NUMBER_TEXT[i] as f32 * t
                    + palette::NUMBER_HALO[i] as f32 * halo * (1.0 - t)
            };
            s.data[(y as u32 * w + x as u32) as usize] = [
                (ch(0) + 0.5) as u8,
                (ch(1) + 0.5) as u8,
                (ch(2) + 0.5) as u8,
                (a * 255.0 + 0.5) as u8,
            ];
        }
    }
    s
}
