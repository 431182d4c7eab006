//! Small helpers over image and imageproc for what they do not offer as such: sprites drawn
//! supersampled, compositing a sprite onto the RGB frame, a thick segment or a dashed path as
//! polygons, and polygons that are safe to hand to imageproc whatever their corners.

use super::palette::Rgb;
use image::{imageops, RgbImage, Rgba, RgbaImage};
use imageproc::drawing::draw_antialiased_polygon_mut;
use imageproc::pixelops::interpolate;
use imageproc::point::Point;

/// Sprites are drawn this many times larger on each side, then averaged down, so that
/// imageproc's aliased circles and polygons come out with smooth edges (16 samples a pixel).
pub const SUPERSAMPLE: u32 = 4;

/// A picture drawn once and composited many times: RGBA with premultiplied alpha, which is what
/// averaging a supersampled drawing gives and what compositing wants.
pub type Sprite = RgbaImage;

/// `color` at opacity `alpha` (0..=1), premultiplied, to draw on a sprite.
pub fn premultiplied(color: Rgb, alpha: f32) -> Rgba<u8> {
    let a = alpha.clamp(0.0, 1.0);
    let c = |v: u8| (v as f32 * a + 0.5) as u8;
    Rgba([
        c(color[0]),
        c(color[1]),
        c(color[2]),
        (255.0 * a + 0.5) as u8,
    ])
}

/// A `w`×`h` sprite: `draw` paints on a canvas [`SUPERSAMPLE`] times larger (in its pixels,
/// with premultiplied colours over a transparent start), which image's thumbnail then averages
/// down, each small pixel the mean of its 4×4 block.
pub fn supersampled(w: u32, h: u32, draw: impl FnOnce(&mut RgbaImage)) -> Sprite {
    let mut big = RgbaImage::new(w * SUPERSAMPLE, h * SUPERSAMPLE);
    draw(&mut big);
    imageops::thumbnail(&big, w, h)
}

/// Composites a sprite over the frame with its top-left corner at (x, y), at `opacity`.
///
/// image's `overlay` needs one pixel type on both sides and straight alpha, while the frame is
/// RGB (what the palette encoder reads) and sprites are premultiplied (see [`Sprite`]); this is
/// the premultiplied "over" in integers, and it skips the transparent pixels, most of a sprite.
pub fn blit(frame: &mut RgbImage, sprite: &Sprite, x: i32, y: i32, opacity: f32) {
    let op = (opacity.clamp(0.0, 1.0) * 256.0) as u32;
    let (fw, fh) = (frame.width() as i32, frame.height() as i32);
    let (sw, sh) = (sprite.width() as i32, sprite.height() as i32);
    let src = sprite.as_raw();
    let dst: &mut [u8] = frame;
    for sy in 0.max(-y)..sh.min(fh - y) {
        for sx in 0.max(-x)..sw.min(fw - x) {
            let s = ((sy * sw + sx) * 4) as usize;
            let [r, g, b, a] = [src[s], src[s + 1], src[s + 2], src[s + 3]];
            if a == 0 {
                continue;
            }
            let d = (((y + sy) * fw + x + sx) * 3) as usize;
            let px = &mut dst[d..d + 3];
            if a == 255 && op >= 256 {
                px.copy_from_slice(&[r, g, b]);
                continue;
            }
            // dst = src · op + dst · (1 − a · op)
            let keep = 255 - a as u32 * op / 256;
            for (d, sc) in px.iter_mut().zip([r, g, b]) {
                *d = ((sc as u32 * op / 256) + (*d as u32 * keep + 127) / 255).min(255) as u8;
            }
        }
    }
}

/// Composites a sprite centred on `c` (sprites have even sides, their centre on a pixel corner).
pub fn blit_centered(frame: &mut RgbImage, sprite: &Sprite, c: (f32, f32), opacity: f32) {
    let x = (c.0 - sprite.width() as f32 / 2.0).round() as i32;
    let y = (c.1 - sprite.height() as f32 / 2.0).round() as i32;
    blit(frame, sprite, x, y, opacity);
}

/// Corners as imageproc wants them: rounded to whole pixels (its polygons take integer
/// points), repeated corners merged, and not closed on itself (it rejects an outline whose last
/// point is its first). `None` for fewer than three distinct corners or a corner that is not a
/// number.
pub fn outline(corners: &[(f32, f32)]) -> Option<Vec<Point<i32>>> {
    let mut pts: Vec<Point<i32>> = Vec::with_capacity(corners.len());
    for &(x, y) in corners {
        if !(x.is_finite() && y.is_finite()) {
            return None;
        }
        let p = Point::new(x.round() as i32, y.round() as i32);
        if pts.last() != Some(&p) {
            pts.push(p);
        }
    }
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    (pts.len() >= 3).then_some(pts)
}

/// A filled polygon with anti-aliased edges, drawn at the frame's own size: imageproc fills it
/// (aliased) and runs Wu lines along its outline, which blend the edge pixels with what lies
/// under them. This is for shapes drawn per picture, where a supersampled patch the size of an
/// arrow would cost milliseconds. Degenerate polygons draw nothing (see [`outline`]).
pub fn polygon(frame: &mut RgbImage, corners: &[(f32, f32)], color: Rgb) {
    if let Some(pts) = outline(corners) {
        draw_antialiased_polygon_mut(frame, &pts, image::Rgb(color), interpolate);
    }
}

/// The unit direction from `a` to `b` and the distance, or `None` if they (nearly) coincide.
pub fn direction(a: (f32, f32), b: (f32, f32)) -> Option<(f32, f32, f32)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    (len >= 1e-3).then(|| (dx / len, dy / len, len))
}

/// The four corners of a straight line `2 * half` wide from `a` to `b`, with square ends.
pub fn quad(a: (f32, f32), b: (f32, f32), half: f32) -> Option<[(f32, f32); 4]> {
    let (ux, uy, _) = direction(a, b)?;
    let (nx, ny) = (-uy * half, ux * half);
    Some([
        (a.0 + nx, a.1 + ny),
        (b.0 + nx, b.1 + ny),
        (b.0 - nx, b.1 - ny),
        (a.0 - nx, a.1 - ny),
    ])
}

/// A straight line `2 * half` wide from `a` to `b`, with square ends, anti-aliased.
pub fn stroke(frame: &mut RgbImage, a: (f32, f32), b: (f32, f32), half: f32, color: Rgb) {
    if let Some(corners) = quad(a, b, half) {
        polygon(frame, &corners, color);
    }
}

/// A dashed line along a path: dashes `on` long every `on + off`, the first starting `start`
/// along the path (negative: part of it falls before the path and is cut). The pattern runs on
/// across the path's corners; each dash is a [`stroke`], cut at corners.
pub fn dashed(
    frame: &mut RgbImage,
    path: &[(f32, f32)],
    half: f32,
    (on, off): (f32, f32),
    start: f32,
    color: Rgb,
) {
    let period = on + off;
    if on <= 0.0 || period <= 0.0 {
        return;
    }
    let mut travelled = 0.0;
    for w in path.windows(2) {
        let Some((ux, uy, len)) = direction(w[0], w[1]) else {
            continue;
        };
        let at = |t: f32| (w[0].0 + ux * t, w[0].1 + uy * t);
        // Where, along this segment, the dash covering or preceding its start begins.
        let mut t = -(travelled - start).rem_euclid(period);
        while t < len {
            let (t0, t1) = (t.max(0.0), (t + on).min(len));
            if t1 > t0 {
                stroke(frame, at(t0), at(t1), half, color);
            }
            t += period;
        }
        travelled += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INK: Rgb = [255, 0, 0];

    fn frame() -> RgbImage {
        RgbImage::new(40, 40)
    }

    fn inked(f: &RgbImage) -> usize {
        f.pixels().filter(|p| p.0 != [0, 0, 0]).count()
    }

    #[test]
    fn degenerate_polygons_draw_nothing_and_do_not_panic() {
        let mut f = frame();
        polygon(&mut f, &[], INK);
        polygon(&mut f, &[(5.0, 5.0)], INK);
        polygon(&mut f, &[(5.0, 5.0), (5.2, 4.9), (5.0, 5.0)], INK);
        polygon(&mut f, &[(5.0, 5.0), (9.0, 5.0), (5.0, 5.0)], INK);
        polygon(&mut f, &[(1.0, 1.0), (f32::NAN, 3.0), (9.0, 9.0)], INK);
        stroke(&mut f, (3.0, 3.0), (3.0, 3.0), 4.0, INK);
        assert_eq!(inked(&f), 0);
        // Off the frame, partly or wholly: clipped.
        polygon(&mut f, &[(-50.0, -50.0), (90.0, -40.0), (20.0, 90.0)], INK);
        polygon(
            &mut f,
            &[(-50.0, -50.0), (-40.0, -50.0), (-45.0, -30.0)],
            INK,
        );
        assert!(inked(&f) > 0);
    }

    #[test]
    fn a_stroke_covers_its_width_with_soft_edges() {
        let mut f = frame();
        stroke(&mut f, (4.0, 20.0), (36.0, 8.0), 3.0, INK);
        // Solid along the middle, nothing far off it, some partly covered pixels at the edge.
        assert_eq!(f.get_pixel(20, 14).0, INK);
        assert_eq!(f.get_pixel(20, 30).0, [0, 0, 0]);
        assert!(f.pixels().any(|p| p.0[0] > 0 && p.0[0] < 255));
    }

    #[test]
    fn dashes_leave_gaps_and_continue_across_corners() {
        let mut f = frame();
        let path = [(2.0, 10.0), (22.0, 10.0), (22.0, 38.0)];
        dashed(&mut f, &path, 1.0, (6.0, 4.0), 0.0, INK);
        // Runs of ink along the first segment (imageproc's fill includes its right edge, so a
        // dash may take one pixel more and its gap one less).
        let mut runs: Vec<(bool, usize)> = vec![];
        for x in 2..20 {
            let on = f.get_pixel(x, 10).0 == INK;
            match runs.last_mut() {
                Some((was, n)) if *was == on => *n += 1,
                _ => runs.push((on, 1)),
            }
        }
        assert_eq!(runs.len(), 4, "{runs:?}");
        for (i, &(on, n)) in runs.iter().take(3).enumerate() {
            assert_eq!(on, i % 2 == 0, "{runs:?}");
            let expected = if on { 6 } else { 4 };
            assert!(n.abs_diff(expected) <= 1, "{runs:?}");
        }
        // The pattern carries on after the corner: 20 travelled, so a dash starts right there.
        assert_eq!(f.get_pixel(22, 12).0, INK);
        assert_eq!(f.get_pixel(22, 18).0, [0, 0, 0]);
    }

    #[test]
    fn blit_composites_premultiplied_with_opacity_and_clips() {
        let mut f = RgbImage::from_pixel(4, 4, image::Rgb([100, 100, 100]));
        let mut s = Sprite::new(2, 2);
        s.put_pixel(0, 0, premultiplied([200, 0, 0], 1.0));
        s.put_pixel(1, 0, premultiplied([200, 0, 0], 0.5));
        blit(&mut f, &s, 0, 0, 1.0);
        assert_eq!(f.get_pixel(0, 0).0, [200, 0, 0]);
        assert_eq!(f.get_pixel(1, 0).0, [150, 50, 50]);
        assert_eq!(f.get_pixel(0, 1).0, [100, 100, 100]);
        blit(&mut f, &s, 3, 3, 0.5);
        assert_eq!(f.get_pixel(3, 3).0, [150, 50, 50]);
        blit(&mut f, &s, -5, 9, 1.0);
    }
}
