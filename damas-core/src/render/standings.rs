//! The standings of a tournament as a picture: rank, name, points, tie-breaks and each round's
//! result, in the caption's colours and font so it sits beside the boards. Every cell arrives
//! as a plain string, already translated and formatted by the app; names are cut to their
//! column and drawn as text, never read as markup.

use super::palette::{self, Rgb};
use super::{RenderError, Renderer};
use image::RgbImage;
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

const MARGIN: f32 = 14.0;
const TITLE_BAND: u32 = 40;
const HEADER_BAND: u32 = 26;
const ROW_HEIGHT: u32 = 24;
const TITLE_SIZE: f32 = 19.0;
const TEXT_SIZE: f32 = 15.0;
const RANK_WIDTH: f32 = 34.0;
const NAME_WIDTH: f32 = 190.0;
const NUMBER_WIDTH: f32 = 56.0;
const ROUND_WIDTH: f32 = 46.0;
const GAP: f32 = 8.0;

const BACKGROUND: Rgb = palette::CAPTION_BACKGROUND;
const STRIPE: Rgb = [0x30, 0x2D, 0x29];
const RULE: Rgb = [0x4A, 0x45, 0x3F];
const HEADER: Rgb = palette::CAPTION_STATUS;
const TEXT: Rgb = palette::CAPTION_TEXT;
const STRONG: Rgb = palette::CAPTION_TITLE;
const WON: Rgb = palette::REACH_DOT;
const LOST: Rgb = [0x9A, 0x90, 0x82];

/// How a round's cell is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Drawn,
    Lost,
    /// A bye, a round not paired, a game in play.
    Other,
}

/// One round of one player: the text of its cell ("+5w", "=3b", "bye") and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundCell {
    pub text: String,
    pub outcome: Outcome,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsRow {
    /// Empty when shared with the line above.
    pub rank: String,
    pub name: String,
    pub points: String,
    pub tie_breaks: Vec<String>,
    pub rounds: Vec<RoundCell>,
}

/// What to draw: the title, the column headers and the lines, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsTable {
    /// e.g. "Club Swiss · after round 5 of 7".
    pub title: String,
    /// The headers of rank, name and points.
    pub rank_header: String,
    pub name_header: String,
    pub points_header: String,
    /// One a tie-break column, short ("BH", "SB").
    pub tie_break_headers: Vec<String>,
    pub rows: Vec<StandingsRow>,
}

/// (The picture's description, in the reader's words, is the app's:
/// `app::tournament::standings::table_description`.)
impl StandingsTable {
    fn columns(&self) -> Vec<(f32, f32)> {
        let mut x = MARGIN;
        let mut columns = Vec::new();
        let widths = [RANK_WIDTH, NAME_WIDTH, NUMBER_WIDTH]
            .into_iter()
            .chain(self.tie_break_headers.iter().map(|_| NUMBER_WIDTH))
            .chain((0..self.rounds()).map(|_| ROUND_WIDTH));
        for width in widths {
            columns.push((x, width));
            x += width + GAP;
        }
        columns
    }

    fn rounds(&self) -> usize {
        self.rows.iter().map(|r| r.rounds.len()).max().unwrap_or(0)
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        let right = self
            .columns()
            .last()
            .map_or(MARGIN, |&(x, width)| x + width);
        let width = (right + MARGIN).ceil().max(320.0) as u32;
        let height = TITLE_BAND + HEADER_BAND + ROW_HEIGHT * self.rows.len() as u32 + MARGIN as u32;
        (width, height)
    }
}

/// The table as a PNG.
pub fn standings_png(table: &StandingsTable) -> Result<Vec<u8>, RenderError> {
    let img = standings_image(table)?;
    let mut out = Vec::with_capacity(64 * 1024);
    let encoder = image::codecs::png::PngEncoder::new(&mut out);
    img.write_with_encoder(encoder)
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}

/// The table, not encoded.
pub fn standings_image(table: &StandingsTable) -> Result<RgbImage, RenderError> {
    let text = &Renderer::shared()?.text;
    let (width, height) = table.size();
    let mut img = RgbImage::from_pixel(width, height, image::Rgb(BACKGROUND));
    text.draw(
        &mut img,
        &table.title,
        TITLE_SIZE,
        (MARGIN, 28.0),
        width as f32 - 2.0 * MARGIN,
        STRONG,
    );
    let columns = table.columns();
    // A cell: left-aligned for the name, right-aligned for numbers, centred for rounds.
    let cell = |img: &mut RgbImage, column: usize, s: &str, baseline: f32, colour: Rgb| {
        let (x, w) = columns[column];
        let fitted = text.fit(s, TEXT_SIZE, w);
        let drawn = text.width(&fitted, TEXT_SIZE);
        let x = match column {
            1 => x,
            c if c >= 3 + table.tie_break_headers.len() => x + (w - drawn) / 2.0,
            _ => x + w - drawn,
        };
        text.draw(img, &fitted, TEXT_SIZE, (x, baseline), w, colour);
    };
    let header_baseline = (TITLE_BAND + HEADER_BAND) as f32 - 8.0;
    let headers = [&table.rank_header, &table.name_header, &table.points_header]
        .into_iter()
        .cloned()
        .chain(table.tie_break_headers.iter().cloned())
        .chain((1..=table.rounds()).map(|r| r.to_string()));
    for (column, header) in headers.enumerate() {
        cell(&mut img, column, &header, header_baseline, HEADER);
    }
    let rule_y = (TITLE_BAND + HEADER_BAND - 2) as i32;
    draw_filled_rect_mut(
        &mut img,
        Rect::at(MARGIN as i32, rule_y).of_size(width - 2 * MARGIN as u32, 1),
        image::Rgb(RULE),
    );
    for (i, row) in table.rows.iter().enumerate() {
        let top = TITLE_BAND + HEADER_BAND + ROW_HEIGHT * i as u32;
        if i % 2 == 1 {
            draw_filled_rect_mut(
                &mut img,
                Rect::at(0, top as i32).of_size(width, ROW_HEIGHT),
                image::Rgb(STRIPE),
            );
        }
        let baseline = (top + ROW_HEIGHT) as f32 - 7.0;
        cell(&mut img, 0, &row.rank, baseline, TEXT);
        cell(&mut img, 1, &row.name, baseline, STRONG);
        cell(&mut img, 2, &row.points, baseline, STRONG);
        for (k, value) in row.tie_breaks.iter().enumerate() {
            cell(&mut img, 3 + k, value, baseline, TEXT);
        }
        let first_round = 3 + table.tie_break_headers.len();
        for (r, round) in row.rounds.iter().enumerate() {
            let colour = match round.outcome {
                Outcome::Won => WON,
                Outcome::Lost => LOST,
                Outcome::Drawn | Outcome::Other => TEXT,
            };
            cell(&mut img, first_round + r, &round.text, baseline, colour);
        }
    }
    Ok(img)
}
