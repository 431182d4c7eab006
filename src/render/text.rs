//! Text: the embedded font, glyph masks (cached), and making any string fit a width.
//!
//! Names come from users and can be anything: emoji, right-to-left scripts, control or
//! invisible formatting characters, hundreds of characters, nothing at all. Invisible
//! formatting characters are dropped, characters the font lacks become one box per run, the
//! result is cut with an ellipsis to the width available, and runs of right-to-left letters
//! are turned around for display (a minimal stand-in for the bidi algorithm: Hebrew reads
//! right; Arabic is not shaped, so its letters show in their isolated forms). Nothing here can
//! panic on input.

use super::canvas::Canvas;
use super::palette::Rgb;
use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// DejaVu Sans Bold, embedded so the binary runs from any folder (licence in fonts/).
pub static FONT_BYTES: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");

/// Drawn in place of a run of characters the font does not have.
const MISSING: char = '\u{25A1}'; // □
const ELLIPSIS: char = '\u{2026}'; // …
/// Bound on the glyph cache, which arbitrary names could otherwise grow without limit.
const CACHE_LIMIT: usize = 4096;

/// One rasterised glyph: coverage 0..=255, placed relative to the pen on the baseline.
#[derive(Debug)]
pub struct GlyphMask {
    pub left: i32,
    pub top: i32,
    pub w: u32,
    pub h: u32,
    pub coverage: Vec<u8>,
}

pub struct Text {
    font: FontRef<'static>,
    cache: Mutex<HashMap<(u32, GlyphId), Arc<GlyphMask>>>,
}

/// A line laid out: glyphs with their pen x, and the total advance.
pub struct Line {
    pub glyphs: Vec<(GlyphId, f32)>,
    pub width: f32,
}

impl Text {
    pub fn new() -> Result<Text, ab_glyph::InvalidFont> {
        Ok(Text {
            font: FontRef::try_from_slice(FONT_BYTES)?,
            cache: Mutex::new(HashMap::new()),
        })
    }

    pub fn has_glyph(&self, c: char) -> bool {
        self.font.glyph_id(c).0 != 0
    }

    /// Pixels from the baseline up to the top of capitals and digits.
    pub fn ascent(&self, size: f32) -> f32 {
        self.font.as_scaled(PxScale::from(size)).ascent()
    }

    /// Lays out `s` (already cleaned) at `size`, with kerning.
    pub fn layout(&self, s: &str, size: f32) -> Line {
        let sf = self.font.as_scaled(PxScale::from(size));
        let mut glyphs = Vec::with_capacity(s.len());
        let mut x = 0.0;
        let mut prev: Option<GlyphId> = None;
        for c in s.chars() {
            let id = sf.glyph_id(c);
            if let Some(p) = prev {
                x += sf.kern(p, id);
            }
            glyphs.push((id, x));
            x += sf.h_advance(id);
            prev = Some(id);
        }
        Line { glyphs, width: x }
    }

    /// `s` made drawable and cut to fit `max_width` pixels at `size`, with an ellipsis when cut.
    pub fn fit(&self, s: &str, size: f32, max_width: f32) -> String {
        let clean = self.clean(s);
        if self.layout(&clean, size).width <= max_width {
            return clean;
        }
        let sf = self.font.as_scaled(PxScale::from(size));
        let ellipsis = sf.h_advance(sf.glyph_id(ELLIPSIS));
        let mut out = String::new();
        let mut x = 0.0;
        for c in clean.chars() {
            let adv = sf.h_advance(sf.glyph_id(c));
            if x + adv + ellipsis > max_width {
                break;
            }
            x += adv;
            out.push(c);
        }
        let mut out = out.trim_end().to_string();
        out.push(ELLIPSIS);
        out
    }

    /// Drops control and invisible formatting characters (bidi overrides, zero-width joiners,
    /// variation selectors…), turns whitespace into plain spaces, and replaces each run of
    /// characters missing from the font with one box.
    pub fn clean(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut in_missing_run = false;
        for c in s.chars() {
            if c.is_whitespace() {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
                in_missing_run = false;
                continue;
            }
            if c.is_control() || is_invisible_format(c) {
                continue;
            }
            if self.has_glyph(c) {
                out.push(c);
                in_missing_run = false;
            } else if !in_missing_run {
                out.push(MISSING);
                in_missing_run = true;
            }
        }
        out.trim().to_string()
    }

    /// The mask of one glyph at one size, rasterised once.
    pub fn glyph(&self, id: GlyphId, size: f32) -> Option<Arc<GlyphMask>> {
        let key = ((size * 64.0) as u32, id);
        if let Ok(cache) = self.cache.lock() {
            if let Some(g) = cache.get(&key) {
                return Some(g.clone());
            }
        }
        let glyph = id.with_scale_and_position(PxScale::from(size), ab_glyph::point(0.0, 0.0));
        let outlined = self.font.outline_glyph(glyph)?;
        let b = outlined.px_bounds();
        let (w, h) = (b.width() as u32, b.height() as u32);
        let mut coverage = vec![0u8; (w * h) as usize];
        outlined.draw(|x, y, c| {
            if x < w && y < h {
                coverage[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
            }
        });
        let mask = Arc::new(GlyphMask {
            left: b.min.x as i32,
            top: b.min.y as i32,
            w,
            h,
            coverage,
        });
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, mask.clone());
        }
        Some(mask)
    }

    /// Draws a laid-out line with its pen starting at (x, baseline).
    pub fn draw_line(
        &self,
        canvas: &mut Canvas,
        line: &Line,
        size: f32,
        x: f32,
        baseline: f32,
        color: Rgb,
    ) {
        for &(id, gx) in &line.glyphs {
            if let Some(g) = self.glyph(id, size) {
                let px = (x + gx).round() as i32 + g.left;
                let py = baseline.round() as i32 + g.top;
                canvas.mask(&g.coverage, g.w, px, py, color);
            }
        }
    }

    /// Draws `s` (cleaned, cut to `max_width`, right-to-left runs turned) at (x, baseline).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        canvas: &mut Canvas,
        s: &str,
        size: f32,
        x: f32,
        baseline: f32,
        max_width: f32,
        color: Rgb,
    ) {
        let fitted = visual_order(&self.fit(s, size, max_width));
        let line = self.layout(&fitted, size);
        self.draw_line(canvas, &line, size, x, baseline, color);
    }

    /// A text's coverage as one mask (`w`×`h`, text starting at (pad, pad + ascent)).
    pub fn render_mask(&self, s: &str, size: f32, pad: u32) -> (Vec<u8>, u32, u32) {
        let line = self.layout(s, size);
        let asc = self.ascent(size).ceil() as u32;
        let w = line.width.ceil() as u32 + 2 * pad;
        let h = asc + (size * 0.25).ceil() as u32 + 2 * pad;
        let mut mask = vec![0u8; (w * h) as usize];
        for &(id, gx) in &line.glyphs {
            let Some(g) = self.glyph(id, size) else {
                continue;
            };
            let ox = (pad as f32 + gx).round() as i32 + g.left;
            let oy = (pad + asc) as i32 + g.top;
            for gy in 0..g.h as i32 {
                for gxp in 0..g.w as i32 {
                    let (tx, ty) = (ox + gxp, oy + gy);
                    if tx < 0 || ty < 0 || tx as u32 >= w || ty as u32 >= h {
                        continue;
                    }
                    let c = g.coverage[(gy as u32 * g.w + gxp as u32) as usize];
                    let m = &mut mask[(ty as u32 * w + tx as u32) as usize];
                    *m = (*m).max(c);
                }
            }
        }
        (mask, w, h)
    }
}

/// Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms.
fn is_rtl(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// The order to draw a (logical-order) string left to right in: each run of right-to-left
/// letters (with the spaces between them) reversed, everything else as it is.
pub fn visual_order(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if !is_rtl(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        // The run ends at its last right-to-left letter; trailing spaces stay outside.
        let mut end = i;
        let mut j = i;
        while j < chars.len() && (is_rtl(chars[j]) || chars[j] == ' ') {
            if is_rtl(chars[j]) {
                end = j;
            }
            j += 1;
        }
        out.extend(chars[i..=end].iter().rev());
        i = end + 1;
    }
    out
}

/// Format characters that draw nothing but can disturb layout: zero-width spaces and joiners,
/// bidi marks, embeddings, overrides and isolates, variation selectors, the BOM, tag
/// characters (used in flag emoji).
fn is_invisible_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text() -> Text {
        Text::new().expect("the embedded font loads")
    }

    #[test]
    fn clean_drops_invisible_and_control_characters() {
        let t = text();
        assert_eq!(t.clean("a\u{0}b\u{7}c\u{202E}d\u{200B}e\u{FE0F}"), "abcde");
        assert_eq!(t.clean("  tab\there\nnewline  "), "tab here newline");
        assert_eq!(t.clean(""), "");
        assert_eq!(t.clean("\u{0}\u{1}"), "");
    }

    #[test]
    fn missing_glyphs_become_one_box_per_run() {
        let t = text();
        // Most emoji and CJK are not in DejaVu Sans; Latin, Greek, Cyrillic, Hebrew are.
        assert!(!t.has_glyph('🔥') && !t.has_glyph('中'));
        assert_eq!(t.clean("x🔥🦀👑y中文z"), "x\u{25A1}y\u{25A1}z");
        assert_eq!(t.clean("Ωμέγα Жук שלום"), "Ωμέγα Жук שלום");
        assert!(t.has_glyph(MISSING) && t.has_glyph(ELLIPSIS));
    }

    #[test]
    fn fit_cuts_with_an_ellipsis_to_the_width() {
        let t = text();
        let long = "W".repeat(200);
        for max in [0.0, 10.0, 100.0, 612.0] {
            let f = t.fit(&long, 18.0, max);
            assert!(f.ends_with(ELLIPSIS), "{f}");
            // Only the ellipsis may overflow, when not even it fits.
            let w = t.layout(&f, 18.0).width;
            assert!(
                w <= max.max(t.layout("\u{2026}", 18.0).width) + 0.01,
                "{w} > {max}"
            );
        }
        assert_eq!(t.fit("short", 18.0, 612.0), "short");
    }

    #[test]
    fn right_to_left_runs_are_turned_for_display() {
        assert_eq!(visual_order("שלום"), "םולש");
        assert_eq!(
            visual_order("bob שלום עולם (White)"),
            "bob םלוע םולש (White)"
        );
        assert_eq!(visual_order("abc"), "abc");
        assert_eq!(visual_order(""), "");
    }
}
