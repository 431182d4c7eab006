//! Reading a board picture back: which piece stands on a square. For tests, including the
//! Discord end-to-end test that checks the posted PNG shows the expected position.

use super::layout::Layout;
use super::palette::{self, Rgb};
use super::sprites::{self, CROWN_ZONE};
use crate::engine::{Color, Piece, Role, Square, Variant};
use image::RgbaImage;

/// How close (RGB distance) a pixel must be to a palette colour to count as that colour.
const TOLERANCE: f32 = 40.0;
/// Share of the body samples that must have a piece's body colour for a piece to be seen
/// (arrows drawn over a piece cover part of it).
const MIN_BODY_SHARE: f32 = 0.30;
/// Share of the crown-zone samples that must have the crown colour for a king to be seen.
const MIN_CROWN_SHARE: f32 = 0.12;

/// Which piece the picture shows on `sq`, or `None` for an empty square (a faded ghost of a
/// captured piece counts as empty). The picture may be scaled: coordinates follow its size.
pub fn read_square(
    img: &RgbaImage,
    variant: Variant,
    perspective: Color,
    sq: Square,
) -> Option<Piece> {
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 {
        return None;
    }
    let fx = w as f32 / Layout::WIDTH as f32;
    let fy = h as f32 / Layout::HEIGHT as f32;
    let (cx, cy) = Layout::square_center(variant, perspective, sq);
    let r = Layout::PIECE_RADIUS;
    // Sample a grid over the piece, in picture units, mapped to the image.
    let sample = |dx: f32, dy: f32| -> Option<Rgb> {
        let x = ((cx + dx) * fx) as i64;
        let y = ((cy + dy) * fy) as i64;
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            return None;
        }
        let p = img.get_pixel(x as u32, y as u32).0;
        Some([p[0], p[1], p[2]])
    };
    let body_inner = CROWN_ZONE * r;
    let body_outer = r - sprites::OUTLINE_WIDTH - 1.5;
    let (mut body_n, mut white_n, mut black_n) = (0u32, 0u32, 0u32);
    let mut zone: Vec<Rgb> = Vec::new();
    let step = 2.0;
    let mut dy = -body_outer;
    while dy <= body_outer {
        let mut dx = -body_outer;
        while dx <= body_outer {
            let d = (dx * dx + dy * dy).sqrt();
            if let Some(px) = sample(dx, dy) {
                if d <= body_inner {
                    zone.push(px);
                } else if d <= body_outer {
                    body_n += 1;
                    if palette::distance(px, palette::WHITE_BODY) < TOLERANCE {
                        white_n += 1;
                    } else if palette::distance(px, palette::BLACK_BODY) < TOLERANCE {
                        black_n += 1;
                    }
                }
            }
            dx += step;
        }
        dy += step;
    }
    if body_n == 0 {
        return None;
    }
    let color = if white_n >= black_n {
        Color::White
    } else {
        Color::Black
    };
    if (white_n.max(black_n) as f32) < MIN_BODY_SHARE * body_n as f32 {
        return None;
    }
    let crown = sprites::piece_colors(color).crown;
    let crown_n = zone
        .iter()
        .filter(|&&px| palette::distance(px, crown) < TOLERANCE)
        .count();
    let role = if !zone.is_empty() && crown_n as f32 >= MIN_CROWN_SHARE * zone.len() as f32 {
        Role::King
    } else {
        Role::Man
    };
    Some(Piece { color, role })
}
