//! The pictures drawn once: the four pieces, the 32 square numbers, the marks laid over pieces
//! (capture cross, must-capture ring, reach dot) and the round joints of lines. Each is drawn
//! with imageproc on a canvas four times larger and averaged down, so edges are smooth.

use super::canvas::{self, premultiplied, supersampled, Sprite, SUPERSAMPLE};
use super::layout::Layout;
use super::palette::{self, Rgb};
use super::text::Text;
use crate::engine::{Color, Piece, Role};
use image::{GrayImage, Luma, Rgba, RgbaImage};
use imageproc::contrast::{threshold, ThresholdType};
use imageproc::distance_transform::Norm;
use imageproc::drawing::{
    draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut, draw_text_mut,
};
use imageproc::filter::gaussian_blur_f32;
use imageproc::morphology::dilate;
use imageproc::pixelops::interpolate;
use imageproc::rect::Rect;

/// The crown, in units of the piece radius, y pointing down, centred on the piece.
pub(super) const CROWN: [(f32, f32); 7] = [
    (-0.50, 0.26),
    (0.50, 0.26),
    (0.64, -0.30),
    (0.27, -0.02),
    (0.0, -0.44),
    (-0.27, -0.02),
    (-0.64, -0.30),
];
pub(super) const CROWN_BALLS: [(f32, f32); 3] = [(-0.64, -0.36), (0.0, -0.50), (0.64, -0.36)];
pub(super) const CROWN_BALL_RADIUS: f32 = 0.11;
/// The band under the crown: x from -0.50 to 0.50, y from 0.34 to 0.48.
pub(super) const CROWN_BAND: (f32, f32, f32, f32) = (-0.50, 0.34, 0.50, 0.48);

/// Radius (in piece radii) inside which a king's crown lies; [`super::read_square`] looks for
/// the crown here.
pub const CROWN_ZONE: f32 = 0.56;
/// Where the decorative groove of a piece runs (in piece radii).
pub(super) const GROOVE: f32 = 0.76;
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

/// The centre of a sprite `side` pixels wide, on its supersampled canvas.
fn centre(side: u32) -> (i32, i32) {
    let c = (side * SUPERSAMPLE / 2) as i32;
    (c, c)
}

/// Length in pixels of the supersampled canvas.
fn big(v: f32) -> f32 {
    v * SUPERSAMPLE as f32
}

/// A disk on a supersampled canvas, its radius in sprite pixels.
fn disk(img: &mut RgbaImage, c: (i32, i32), radius: f32, color: Rgba<u8>) {
    draw_filled_circle_mut(img, c, big(radius).round() as i32, color);
}

/// A thick line with round ends on a supersampled canvas, `a` and `b` in sprite pixels from
/// the canvas point `c`.
pub fn rounded_line(
    img: &mut RgbaImage,
    c: (i32, i32),
    a: (f32, f32),
    b: (f32, f32),
    half: f32,
    color: Rgba<u8>,
) {
    let at = |p: (f32, f32)| (c.0 as f32 + big(p.0), c.1 as f32 + big(p.1));
    if let Some(quad) = canvas::quad(at(a), at(b), big(half)).and_then(|q| canvas::outline(&q)) {
        draw_polygon_mut(img, &quad, color);
    }
    for end in [a, b] {
        let (x, y) = at(end);
        disk(img, (x.round() as i32, y.round() as i32), half, color);
    }
}

/// A piece, one square wide, centred.
pub fn piece(p: Piece) -> Sprite {
    let size = Layout::SQUARE;
    let r = Layout::PIECE_RADIUS;
    let colors = piece_colors(p.color);
    let opaque = |c: Rgb| premultiplied(c, 1.0);
    supersampled(size, size, |img| {
        let c = centre(size);
        // A soft shadow below and to the right lifts the piece off the board.
        let (dx, dy) = SHADOW_OFFSET;
        let shadow = (c.0 + big(dx) as i32, c.1 + big(dy) as i32);
        disk(
            img,
            shadow,
            r + 0.5,
            premultiplied([0, 0, 0], SHADOW_OPACITY),
        );
        *img = gaussian_blur_f32(img, big(SHADOW_BLUR));
        disk(img, c, r, opaque(colors.outline));
        disk(img, c, r - OUTLINE_WIDTH, opaque(colors.body));
        disk(img, c, GROOVE * r + 1.0, opaque(colors.groove));
        disk(img, c, GROOVE * r - 1.0, opaque(colors.body));
        if p.role == Role::King {
            let crown = opaque(colors.crown);
            let at = |(x, y): (f32, f32)| (c.0 as f32 + big(x * r), c.1 as f32 + big(y * r));
            let outline: Vec<(f32, f32)> = CROWN.iter().map(|&p| at(p)).collect();
            if let Some(pts) = canvas::outline(&outline) {
                draw_polygon_mut(img, &pts, crown);
            }
            for ball in CROWN_BALLS {
                let (x, y) = at(ball);
                disk(
                    img,
                    (x.round() as i32, y.round() as i32),
                    CROWN_BALL_RADIUS * r,
                    crown,
                );
            }
            let (x0, y0, x1, y1) = CROWN_BAND;
            let (left, top) = at((x0, y0));
            let band = Rect::at(left.round() as i32, top.round() as i32)
                .of_size(big((x1 - x0) * r) as u32, big((y1 - y0) * r) as u32);
            draw_filled_rect_mut(img, band, crown);
        }
    })
}

/// A piece's shadow: offset (right, down), opacity and blur, in pixels.
pub(super) const SHADOW_OFFSET: (f32, f32) = (1.5, 2.5);
pub(super) const SHADOW_OPACITY: f32 = 0.45;
pub(super) const SHADOW_BLUR: f32 = 1.25;

/// Half the length of a capture cross's arm along each axis, in squares.
pub(super) const CROSS_REACH: f32 = 0.22;
/// A capture cross's strokes, halo first: (half width, colour).
pub(super) const CROSS_STROKES: [(f32, Rgb); 2] =
    [(5.0, palette::HALO), (3.5, palette::CAPTURED_CROSS)];
/// How transparent a piece taken by the last move is drawn under its cross.
pub const GHOST_OPACITY: f32 = 0.45;

/// The cross over a piece taken by the last move, centred on its square.
pub fn capture_cross() -> Sprite {
    let size = Layout::SQUARE;
    let k = size as f32 * CROSS_REACH;
    supersampled(size, size, |img| {
        let c = centre(size);
        for (half, color) in CROSS_STROKES {
            let color = premultiplied(color, 1.0);
            rounded_line(img, c, (-k, -k), (k, k), half, color);
            rounded_line(img, c, (-k, k), (k, -k), half, color);
        }
    })
}

/// Concentric disks, outermost first, each (radius, colour) painted over the previous ones:
/// rings and dots with their halos. A transparent colour cuts a hole.
pub fn rings(layers: &[(f32, Rgba<u8>)]) -> Sprite {
    let outer = layers.iter().map(|l| l.0).fold(0.0, f32::max);
    let side = 2 * (outer.ceil() as u32 + 1);
    supersampled(side, side, |img| {
        for &(radius, color) in layers {
            disk(img, centre(side), radius, color);
        }
    })
}

/// The must-capture ring's radius (its middle), and the half widths of the ring and of its
/// halo, in pixels.
pub(super) const RING_RADIUS: f32 = Layout::PIECE_RADIUS + 4.0;
pub(super) const RING_HALF: f32 = 2.4;
pub(super) const RING_HALO_HALF: f32 = 3.5;
pub(super) const RING_HALO_OPACITY: f32 = 0.8;

/// The ring around a piece that must capture, on a dark halo.
pub fn must_capture_ring() -> Sprite {
    let r = RING_RADIUS;
    let halo = premultiplied(palette::HALO, RING_HALO_OPACITY);
    rings(&[
        (r + RING_HALO_HALF, halo),
        (
            r + RING_HALF,
            premultiplied(palette::MUST_CAPTURE_RING, 1.0),
        ),
        (r - RING_HALF, halo),
        (r - RING_HALO_HALF, Rgba([0, 0, 0, 0])),
    ])
}

/// The reach dot's radius (in squares) and the width of its halo (pixels).
pub(super) const DOT_RADIUS: f32 = 0.15;
pub(super) const DOT_HALO: f32 = 2.0;
pub(super) const DOT_HALO_OPACITY: f32 = 0.9;

/// The dot on a square the chosen piece can reach, on a dark halo.
pub fn reach_dot() -> Sprite {
    let r = Layout::SQUARE as f32 * DOT_RADIUS;
    rings(&[
        (r + DOT_HALO, premultiplied(palette::HALO, DOT_HALO_OPACITY)),
        (r, premultiplied(palette::REACH_DOT, 1.0)),
    ])
}

/// A square's number with a dark halo, to be drawn over anything. Each digit is drawn on a
/// whole pixel, so a digit looks the same in every number.
pub fn number(text: &Text, n: u8) -> Sprite {
    /// Room around the digits for the halo, in pixels.
    const PAD: u32 = 2;
    /// How far the halo reaches beyond the digits' strokes, in supersampled pixels (1.75 px).
    const HALO: u8 = 7;
    let size = Layout::NUMBER_SIZE;
    let digits = n.to_string();
    let mut pens = Vec::with_capacity(digits.len());
    let mut pen = PAD as f32;
    for c in digits.chars() {
        pens.push((c, pen.round()));
        pen += text.advance(c, size);
    }
    let w = pen.ceil() as u32 + PAD;
    let h = text.ascent(size).ceil() as u32 + (size * 0.25).ceil() as u32 + 2 * PAD;
    supersampled(w, h, |img| {
        let mut ink = GrayImage::new(img.width(), img.height());
        let top = big(PAD as f32) as i32;
        for &(c, x) in &pens {
            let mut buf = [0u8; 4];
            let glyph: &str = c.encode_utf8(&mut buf);
            draw_text_mut(
                &mut ink,
                Luma([255]),
                big(x) as i32,
                top,
                big(size),
                text.font(),
                glyph,
            );
        }
        let halo = dilate(&threshold(&ink, 127, ThresholdType::Binary), Norm::L2, HALO);
        let halo_color = premultiplied(palette::NUMBER_HALO, 0.9);
        for (x, y, p) in halo.enumerate_pixels() {
            if p.0[0] > 0 {
                img.put_pixel(x, y, halo_color);
            }
        }
        // The digits over the halo: opaque, so blending by coverage is premultiplied "over".
        let text_color = premultiplied(palette::NUMBER_TEXT, 1.0);
        for (x, y, p) in ink.enumerate_pixels() {
            let t = p.0[0] as f32 / 255.0;
            if t > 0.0 {
                let under = *img.get_pixel(x, y);
                img.put_pixel(x, y, interpolate(text_color, under, t));
            }
        }
    })
}
