//! Anti-aliased drawing on an RGB frame: the few shapes the board needs, each computed from a
//! distance to the shape so edges are smooth without supersampling, and each touching only the
//! pixels near the shape so a frame stays cheap.

use super::palette::Rgb;

/// A premultiplied-alpha RGBA image drawn once and composited many times.
#[derive(Clone, Debug)]
pub struct Sprite {
    pub w: u32,
    pub h: u32,
    /// Premultiplied RGBA, row by row.
    pub data: Vec<[u8; 4]>,
}

impl Sprite {
    pub fn new(w: u32, h: u32) -> Sprite {
        Sprite {
            w,
            h,
            data: vec![[0; 4]; (w * h) as usize],
        }
    }
}

/// An RGB frame being drawn on.
pub struct Canvas<'a> {
    pub w: u32,
    pub h: u32,
    pub buf: &'a mut [u8],
}

#[inline(always)]
fn mix(dst: u8, src: u8, a: f32) -> u8 {
    (dst as f32 + (src as f32 - dst as f32) * a + 0.5) as u8
}

#[inline(always)]
fn clamp01(v: f32) -> f32 {
    v.clamp(0.0, 1.0)
}

impl<'a> Canvas<'a> {
    pub fn new(w: u32, h: u32, buf: &'a mut [u8]) -> Canvas<'a> {
        debug_assert_eq!(buf.len(), (w * h * 3) as usize);
        Canvas { w, h, buf }
    }

    /// Blends `color` over one pixel with opacity `a` (0..=1). Pixels off the canvas are ignored.
    #[inline(always)]
    pub fn blend(&mut self, x: i32, y: i32, color: Rgb, a: f32) {
        if a <= 0.0 || x < 0 || y < 0 || x as u32 >= self.w || y as u32 >= self.h {
            return;
        }
        let i = ((y as u32 * self.w + x as u32) * 3) as usize;
        let p = &mut self.buf[i..i + 3];
        if a >= 1.0 {
            p.copy_from_slice(&color);
        } else {
            p[0] = mix(p[0], color[0], a);
            p[1] = mix(p[1], color[1], a);
            p[2] = mix(p[2], color[2], a);
        }
    }

    pub fn fill_rect(&mut self, x: u32, y: u32, w: u32, h: u32, color: Rgb) {
        let x1 = (x + w).min(self.w);
        let y1 = (y + h).min(self.h);
        for yy in y.min(self.h)..y1 {
            let row = ((yy * self.w) * 3) as usize;
            for xx in x.min(self.w)..x1 {
                let i = row + (xx * 3) as usize;
                self.buf[i..i + 3].copy_from_slice(&color);
            }
        }
    }

    /// Composites a sprite with its top-left corner at (x, y), at opacity `opacity`.
    pub fn blit(&mut self, s: &Sprite, x: i32, y: i32, opacity: f32) {
        let op = (opacity.clamp(0.0, 1.0) * 256.0) as u32;
        for sy in 0..s.h as i32 {
            let ty = y + sy;
            if ty < 0 || ty as u32 >= self.h {
                continue;
            }
            for sx in 0..s.w as i32 {
                let tx = x + sx;
                if tx < 0 || tx as u32 >= self.w {
                    continue;
                }
                let [r, g, b, a] = s.data[(sy as u32 * s.w + sx as u32) as usize];
                if a == 0 {
                    continue;
                }
                let i = ((ty as u32 * self.w + tx as u32) * 3) as usize;
                let p = &mut self.buf[i..i + 3];
                if a == 255 && op >= 256 {
                    p.copy_from_slice(&[r, g, b]);
                    continue;
                }
                // Premultiplied over: dst = src * op + dst * (1 - a * op).
                let a = a as u32 * op / 256;
                let keep = 255 - a;
                for (d, sc) in p.iter_mut().zip([r, g, b]) {
                    *d = ((sc as u32 * op / 256) + (*d as u32 * keep + 127) / 255).min(255) as u8;
                }
            }
        }
    }

    /// Draws a coverage mask (0..=255 per pixel, `w` wide) in one colour at (x, y).
    pub fn mask(&mut self, mask: &[u8], w: u32, x: i32, y: i32, color: Rgb) {
        if w == 0 {
            return;
        }
        for (i, &c) in mask.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let mx = (i as u32 % w) as i32;
            let my = (i as u32 / w) as i32;
            self.blend(x + mx, y + my, color, c as f32 / 255.0);
        }
    }

    /// A filled disk.
    pub fn disk(&mut self, cx: f32, cy: f32, r: f32, color: Rgb, alpha: f32) {
        self.shape(
            cx - r - 1.0,
            cy - r - 1.0,
            cx + r + 1.0,
            cy + r + 1.0,
            color,
            alpha,
            |x, y| {
                let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
                clamp01(r + 0.5 - d)
            },
        );
    }

    /// A ring of radius `r` (centre of the stroke) and width `2 * half`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, half: f32, color: Rgb, alpha: f32) {
        let o = r + half + 1.0;
        self.shape(cx - o, cy - o, cx + o, cy + o, color, alpha, |x, y| {
            let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
            clamp01(half + 0.5 - (d - r).abs())
        });
    }

    /// A thick line from `a` to `b` with round ends; `dash` = (on, off, phase) makes it dashed
    /// with square dash ends, the phase continuing a dash pattern from a previous segment.
    pub fn segment(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        half: f32,
        color: Rgb,
        alpha: f32,
        dash: Option<(f32, f32, f32)>,
    ) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            if dash.is_none() {
                self.disk(a.0, a.1, half, color, alpha);
            }
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let reach = half + 1.0;
        let x0 = a.0.min(b.0) - reach;
        let x1 = a.0.max(b.0) + reach;
        let y0 = a.1.min(b.1) - reach;
        let y1 = a.1.max(b.1) + reach;
        // For lines that are not flat, each row only needs the few pixels around the line.
        let steep = uy.abs() > 0.2;
        let yi0 = y0.floor().max(0.0) as i32;
        let yi1 = (y1.ceil() as i32).min(self.h as i32 - 1);
        for y in yi0..=yi1 {
            let py = y as f32 + 0.5;
            let (mut xa, mut xb) = (x0, x1);
            if steep {
                let xc = a.0 + (py - a.1) * ux / uy;
                let span = reach / uy.abs() + 1.0;
                xa = xa.max(xc - span);
                xb = xb.min(xc + span);
            }
            let xi0 = xa.floor().max(0.0) as i32;
            let xi1 = (xb.ceil() as i32).min(self.w as i32 - 1);
            for x in xi0..=xi1 {
                let px = x as f32 + 0.5;
                let (rx, ry) = (px - a.0, py - a.1);
                let t = rx * ux + ry * uy;
                let cov = match dash {
                    None => {
                        let tc = t.clamp(0.0, len);
                        let d = ((rx - tc * ux).powi(2) + (ry - tc * uy).powi(2)).sqrt();
                        clamp01(half + 0.5 - d)
                    }
                    Some((on, off, phase)) => {
                        if t < -0.5 || t > len + 0.5 {
                            0.0
                        } else {
                            let d = (rx * uy - ry * ux).abs();
                            let across = clamp01(half + 0.5 - d);
                            let p = (t + phase).rem_euclid(on + off);
                            let along =
                                clamp01(p.min(on - p) + 0.5).max(clamp01(p - on - off + 0.5));
                            let ends = clamp01(t + 0.5).min(clamp01(len - t + 0.5));
                            across * along * ends
                        }
                    }
                };
                self.blend(x, y, color, cov * alpha);
            }
        }
    }

    /// A filled convex polygon (points in either winding order).
    pub fn convex_polygon(&mut self, pts: &[(f32, f32)], color: Rgb, alpha: f32) {
        if pts.len() < 3 {
            return;
        }
        // Orientation, so that "inside" is the positive side of every edge.
        let area: f32 = (0..pts.len())
            .map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        let sign = if area >= 0.0 { 1.0 } else { -1.0 };
        let edges: Vec<(f32, f32, f32, f32)> = (0..pts.len())
            .filter_map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let l = (dx * dx + dy * dy).sqrt();
                (l > 1e-4).then(|| (a.0, a.1, dx / l, dy / l))
            })
            .collect();
        let x0 = pts.iter().map(|p| p.0).fold(f32::MAX, f32::min) - 1.0;
        let x1 = pts.iter().map(|p| p.0).fold(f32::MIN, f32::max) + 1.0;
        let y0 = pts.iter().map(|p| p.1).fold(f32::MAX, f32::min) - 1.0;
        let y1 = pts.iter().map(|p| p.1).fold(f32::MIN, f32::max) + 1.0;
        self.shape(x0, y0, x1, y1, color, alpha, |x, y| {
            let inside = edges
                .iter()
                .map(|&(ax, ay, ux, uy)| sign * (ux * (y - ay) - uy * (x - ax)))
                .fold(f32::MAX, f32::min);
            clamp01(inside + 0.5)
        });
    }

    /// Runs a coverage function over the pixels of a box (pixel centres at +0.5).
    #[allow(clippy::too_many_arguments)]
    fn shape(
        &mut self,
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        color: Rgb,
        alpha: f32,
        coverage: impl Fn(f32, f32) -> f32,
    ) {
        let xi0 = x0.floor().max(0.0) as i32;
        let yi0 = y0.floor().max(0.0) as i32;
        let xi1 = (x1.ceil() as i32).min(self.w as i32 - 1);
        let yi1 = (y1.ceil() as i32).min(self.h as i32 - 1);
        for y in yi0..=yi1 {
            for x in xi0..=xi1 {
                let c = coverage(x as f32 + 0.5, y as f32 + 0.5);
                if c > 0.0 {
                    self.blend(x, y, color, c * alpha);
                }
            }
        }
    }
}
