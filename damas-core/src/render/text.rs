//! Text: the embedded font, making any string drawable and fit a width, and drawing it with
//! imageproc.
//!
//! Names come from users and can be anything: emoji, right-to-left scripts, control or
//! invisible formatting characters, hundreds of characters, nothing at all. Invisible
//! formatting characters are dropped, and so are characters the font lacks (emoji, CJK…:
//! a name decorated with emoji reads better without them than with a box for each); the
//! result is cut with an ellipsis to the width available, and runs of right-to-left letters
//! are turned around for display (a minimal stand-in for the bidi algorithm: Hebrew reads
//! right; Arabic is not shaped, so its letters show in their isolated forms). Nothing here can
//! panic on input.

use super::palette::Rgb;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::RgbImage;
use imageproc::drawing::draw_text_mut;

/// DejaVu Sans Bold, embedded so the binary runs from any folder (licence in fonts/).
pub static FONT_BYTES: &[u8] = include_bytes!("../../../fonts/DejaVuSans-Bold.ttf");

const ELLIPSIS: char = '\u{2026}'; // …

pub struct Text {
    font: FontRef<'static>,
}

impl Text {
    pub fn new() -> Result<Text, ab_glyph::InvalidFont> {
        Ok(Text {
            font: FontRef::try_from_slice(FONT_BYTES)?,
        })
    }

    /// The font, for imageproc's text functions.
    pub fn font(&self) -> &FontRef<'static> {
        &self.font
    }

    pub fn has_glyph(&self, c: char) -> bool {
        self.font.glyph_id(c).0 != 0
    }

    /// Pixels from the baseline up to the top of the font's tallest letters.
    pub fn ascent(&self, size: f32) -> f32 {
        self.font.as_scaled(PxScale::from(size)).ascent()
    }

    /// How far the pen moves over one character.
    pub fn advance(&self, c: char, size: f32) -> f32 {
        let sf = self.font.as_scaled(PxScale::from(size));
        sf.h_advance(sf.glyph_id(c))
    }

    /// The width of `s` at `size`: advances and kerning, from the font's metrics alone. (Cheap:
    /// imageproc's `text_size` outlines every glyph, too slow to call for each cut of a long
    /// name.)
    pub fn width(&self, s: &str, size: f32) -> f32 {
        let sf = self.font.as_scaled(PxScale::from(size));
        let mut prev = None;
        let mut x = 0.0;
        for c in s.chars() {
            let id = sf.glyph_id(c);
            if let Some(p) = prev {
                x += sf.kern(p, id);
            }
            x += sf.h_advance(id);
            prev = Some(id);
        }
        x
    }

    /// `s` made drawable and cut to fit `max_width` pixels at `size`, with an ellipsis when cut:
    /// between words when a whole word fits (a word cut in two reads as another word), inside
    /// the only word otherwise (a long name).
    pub fn fit(&self, s: &str, size: f32, max_width: f32) -> String {
        let clean = self.clean(s);
        if self.width(&clean, size) <= max_width {
            return clean;
        }
        let ellipsis = self.advance(ELLIPSIS, size);
        let mut out = String::new();
        let mut x = 0.0;
        let mut cut_inside_word = false;
        for c in clean.chars() {
            let adv = self.advance(c, size);
            if x + adv + ellipsis > max_width {
                cut_inside_word = c != ' ' && !out.ends_with(' ');
                break;
            }
            x += adv;
            out.push(c);
        }
        if cut_inside_word {
            if let Some(space) = out.rfind(' ') {
                out.truncate(space);
            }
        }
        let mut out = out
            .trim_end()
            .trim_end_matches([',', ';', ':', '·', '(', '—'])
            .trim_end()
            .to_string();
        out.push(ELLIPSIS);
        out
    }

    /// Drops control and invisible formatting characters (bidi overrides, zero-width joiners,
    /// variation selectors…) and the characters the font lacks, and turns whitespace into
    /// single plain spaces.
    pub fn clean(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if c.is_whitespace() {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            } else if !c.is_control() && !is_invisible_format(c) && self.has_glyph(c) {
                out.push(c);
            }
        }
        out.trim().to_string()
    }

    /// Draws `s` cleaned, cut to `max_width` and with right-to-left runs turned, its baseline at
    /// `baseline` and its pen starting at `x`.
    pub fn draw(
        &self,
        frame: &mut RgbImage,
        s: &str,
        size: f32,
        at: (f32, f32),
        max_width: f32,
        color: Rgb,
    ) {
        let fitted = visual_order(&self.fit(s, size, max_width));
        // imageproc puts the top of the line (baseline minus ascent) at the given y.
        let (x, baseline) = at;
        let top = (baseline - self.ascent(size)).round() as i32;
        let (x, scale) = (x.round() as i32, PxScale::from(size));
        draw_text_mut(frame, image::Rgb(color), x, top, scale, &self.font, &fitted);
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
    fn characters_the_font_lacks_are_skipped() {
        let t = text();
        // Most emoji and CJK are not in DejaVu Sans; Latin, Greek, Cyrillic, Hebrew are.
        assert!(!t.has_glyph('🔥') && !t.has_glyph('中'));
        assert_eq!(t.clean("x🔥🦀👑y中文z"), "xyz");
        assert_eq!(t.clean("👑🔥 alice 👩‍👩‍👧 🇪🇸 (White)"), "alice (White)");
        assert_eq!(t.clean("Ωμέγα Жук שלום"), "Ωμέγα Жук שלום");
        assert!(t.has_glyph(ELLIPSIS) && t.has_glyph('\u{265B}'));
    }

    #[test]
    fn fit_cuts_with_an_ellipsis_to_the_width() {
        let t = text();
        let long = "W".repeat(200);
        for max in [0.0, 10.0, 100.0, 612.0] {
            let f = t.fit(&long, 18.0, max);
            assert!(f.ends_with(ELLIPSIS), "{f}");
            // Only the ellipsis may overflow, when not even it fits.
            let w = t.width(&f, 18.0);
            assert!(
                w <= max.max(t.width("\u{2026}", 18.0)) + 0.01,
                "{w} > {max}"
            );
        }
        assert_eq!(t.fit("short", 18.0, 612.0), "short");
    }

    #[test]
    fn fit_cuts_between_words() {
        let t = text();
        let caption = "Última jugada 18x2 (ana) · Ganan las blancas por abandono del rival.";
        let full = t.width(caption, 18.0);
        for max in [full * 0.5, full * 0.7, full * 0.9] {
            let f = t.fit(caption, 18.0, max);
            let kept = f.trim_end_matches(ELLIPSIS);
            // Every word kept is whole: the text goes on after it with a space.
            assert!(
                caption.starts_with(kept) && caption[kept.len()..].starts_with(' '),
                "{f}"
            );
        }
        // A single long word is still cut inside.
        let word = "W".repeat(60);
        assert!(t.fit(&word, 18.0, 100.0).starts_with("WW"));
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
