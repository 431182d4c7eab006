//! The evaluation chart of a reviewed game: White's expected score after every ply, as an
//! area over and under the even line (light when White is better, dark when Black is), with
//! the costly moves marked. The two halves are labelled with whose advantage they show, so
//! the chart says its own sign convention.

use super::canvas;
use super::palette::{self, Rgb};
use super::{RenderError, Renderer};
use image::RgbImage;
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

pub const CHART_WIDTH: u32 = 640;
pub const CHART_HEIGHT: u32 = 240;
const TITLE_BAND: u32 = 34;
const LEGEND_SIZE: f32 = 14.0;
const MARGIN: f32 = 12.0;

const BACKGROUND: Rgb = palette::CAPTION_BACKGROUND;
const PLOT_BACKGROUND: Rgb = [0x3A, 0x36, 0x31];
const FIRST_AREA: Rgb = [0xE8, 0xDF, 0xCC];
const SECOND_AREA: Rgb = [0x5A, 0x52, 0x48];
const EVEN_LINE: Rgb = [0x9A, 0x90, 0x82];
const CURVE: Rgb = palette::CAPTION_STATUS;
const INACCURACY_MARK: Rgb = [0x56, 0xB4, 0xE9];
const MISTAKE_MARK: Rgb = [0xE6, 0x9F, 0x00];
const BLUNDER_MARK: Rgb = palette::EXCLUDED_ARROW;

/// A ply marked on the chart, by how costly it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartMark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The words on the chart, already translated.
#[derive(Clone, Debug, Default)]
pub struct ChartLabels {
    /// e.g. "alice (White) vs bob (Black)".
    pub title: String,
    /// Written in the upper half: whose advantage it shows ("White better").
    pub upper: String,
    /// Written in the lower half ("Black better").
    pub lower: String,
}

/// The chart as a PNG. `expected[i]` is White's expected score (0–1) after `i` plies
/// (`expected[0]` at the start); `marks` are (ply index into `expected`, kind).
pub fn eval_chart_png(
    expected: &[f64],
    marks: &[(usize, ChartMark)],
    labels: &ChartLabels,
) -> Result<Vec<u8>, RenderError> {
    let img = eval_chart(expected, marks, labels)?;
    let mut out = Vec::with_capacity(32 * 1024);
    let encoder = image::codecs::png::PngEncoder::new(&mut out);
    img.write_with_encoder(encoder)
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}

/// The chart, not encoded.
pub fn eval_chart(
    expected: &[f64],
    marks: &[(usize, ChartMark)],
    labels: &ChartLabels,
) -> Result<RgbImage, RenderError> {
    let renderer = Renderer::shared()?;
    let mut img = RgbImage::from_pixel(CHART_WIDTH, CHART_HEIGHT, image::Rgb(BACKGROUND));
    renderer.text.draw(
        &mut img,
        &labels.title,
        18.0,
        (MARGIN, 24.0),
        CHART_WIDTH as f32 - 2.0 * MARGIN,
        palette::CAPTION_TEXT,
    );
    let top = TITLE_BAND as f32;
    let bottom = CHART_HEIGHT as f32 - MARGIN;
    let (left, right) = (MARGIN, CHART_WIDTH as f32 - MARGIN);
    let mid = (top + bottom) / 2.0;
    let y_of = |e: f64| bottom - (e.clamp(0.0, 1.0) as f32) * (bottom - top);
    let steps = expected.len().saturating_sub(1).max(1) as f32;
    let x_of = |i: usize| left + (right - left) * i as f32 / steps;

    let plot =
        Rect::at(left as i32, top as i32).of_size((right - left) as u32, (bottom - top) as u32);
    draw_filled_rect_mut(&mut img, plot, image::Rgb(PLOT_BACKGROUND));
    // One column per pixel: the area between the even line and the curve.
    let value_at = |x: f32| -> f64 {
        if expected.is_empty() {
            return 0.5;
        }
        let t = ((x - left) / (right - left) * steps).clamp(0.0, steps);
        let i = (t.floor() as usize).min(expected.len() - 1);
        let j = (i + 1).min(expected.len() - 1);
        let f = (t - i as f32) as f64;
        expected[i] * (1.0 - f) + expected[j] * f
    };
    for px in left as u32..right as u32 {
        let y = y_of(value_at(px as f32 + 0.5));
        let (from, to, color) = if y < mid {
            (y, mid, FIRST_AREA)
        } else {
            (mid, y, SECOND_AREA)
        };
        let h = (to - from).round() as u32;
        if h > 0 {
            let r = Rect::at(px as i32, from.round() as i32).of_size(1, h);
            draw_filled_rect_mut(&mut img, r, image::Rgb(color));
        }
    }
    canvas::stroke(&mut img, (left, mid), (right, mid), 0.6, EVEN_LINE);
    // Whose advantage each half shows, in its left corner, on a plate of the background so
    // that it reads over either area.
    let ascent = renderer.text.ascent(LEGEND_SIZE);
    for (label, baseline) in [
        (&labels.upper, top + 4.0 + ascent),
        (&labels.lower, bottom - 6.0),
    ] {
        let text = renderer.text.fit(label, LEGEND_SIZE, (right - left) / 2.0);
        if text.is_empty() {
            continue;
        }
        let width = renderer.text.width(&text, LEGEND_SIZE);
        let plate = Rect::at(left as i32 + 2, (baseline - ascent - 3.0) as i32)
            .of_size(width as u32 + 8, (ascent + 8.0) as u32);
        draw_filled_rect_mut(&mut img, plate, image::Rgb(BACKGROUND));
        renderer.text.draw(
            &mut img,
            &text,
            LEGEND_SIZE,
            (left + 6.0, baseline),
            (right - left) / 2.0,
            palette::CAPTION_TEXT,
        );
    }
    let points: Vec<(f32, f32)> = expected
        .iter()
        .enumerate()
        .map(|(i, &e)| (x_of(i), y_of(e)))
        .collect();
    for w in points.windows(2) {
        canvas::stroke(&mut img, w[0], w[1], 1.2, CURVE);
    }
    for &(i, mark) in marks {
        let Some(&(x, y)) = points.get(i) else {
            continue;
        };
        let color = match mark {
            ChartMark::Inaccuracy => INACCURACY_MARK,
            ChartMark::Mistake => MISTAKE_MARK,
            ChartMark::Blunder => BLUNDER_MARK,
        };
        let r = 4.5;
        let diamond = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)];
        canvas::polygon(&mut img, &diamond, color);
    }
    Ok(img)
}
