//! An animated GIF of a whole game: the start, then a frame per ply with its move marked, the
//! final position held longer.
//!
//! Frames are drawn by the shared [`Renderer`] and indexed with its palette (the same colours
//! as the PNG boards, no quantizing per frame). After the first, each frame holds only the
//! rectangle that changed since the one before, with unchanged pixels transparent: a move
//! changes a few squares and the caption, so a 120-ply game stays well under 2 MB.

use super::{BoardView, Caption, RenderError, Renderer};
use crate::engine::{Color, Game};
use gif::{DisposalMethod, Encoder, Frame, Repeat};

/// How long each position shows, in hundredths of a second.
pub const REPLAY_FRAME_DELAY_CS: u16 = 80;
/// How long the final position shows before the animation starts again.
pub const REPLAY_LAST_FRAME_DELAY_CS: u16 = 300;

/// The game as an animated GIF seen from `perspective`: a frame for the start and one per
/// ply (the move that led to it marked as on the boards), looping. `caption(ply)` gives the
/// text above the board for the position after `ply` moves, already translated.
pub fn replay_gif(
    game: &Game,
    perspective: Color,
    caption: impl Fn(usize) -> Caption,
) -> Result<Vec<u8>, RenderError> {
    let renderer = Renderer::shared()?;
    let colors = renderer.palette().colors();
    let (global, remap, transparent) = gif_palette(colors);
    let err = |e: gif::EncodingError| RenderError::Gif(e.to_string());
    let (w, h) = super::Layout::size();
    let (w16, h16) = (w as u16, h as u16);
    let mut out = Vec::with_capacity(256 * 1024);
    {
        let mut enc = Encoder::new(&mut out, w16, h16, &global).map_err(err)?;
        enc.set_repeat(Repeat::Infinite).map_err(err)?;
        let positions = game.positions();
        let mut previous: Option<Vec<u8>> = None;
        for (ply, pos) in positions.iter().enumerate() {
            let mut view = BoardView::new(pos, perspective);
            view.last_move = ply.checked_sub(1).map(|i| game.moves()[i]);
            view.caption = caption(ply);
            let img = renderer.draw(&view);
            let indices: Vec<u8> = renderer
                .palette()
                .indices(&img)
                .into_iter()
                .map(|i| remap[i as usize])
                .collect();
            let delay = if ply + 1 == positions.len() {
                REPLAY_LAST_FRAME_DELAY_CS
            } else {
                REPLAY_FRAME_DELAY_CS
            };
            let mut frame = match &previous {
                None => Frame::from_indexed_pixels(w16, h16, indices.clone(), None),
                Some(prev) => changed_part(prev, &indices, w as usize, transparent),
            };
            frame.delay = delay;
            // Each frame is drawn over the last: unchanged (transparent) pixels show it.
            frame.dispose = DisposalMethod::Keep;
            enc.write_frame(&frame).map_err(err)?;
            previous = Some(indices);
        }
    }
    Ok(out)
}

/// The GIF's global palette, the remapping of the renderer's palette indices into it, and
/// the index kept free for transparency. With a full palette of 256, the closest two colours
/// are merged to free an index.
fn gif_palette(colors: &[[u8; 3]]) -> (Vec<u8>, [u8; 256], u8) {
    let mut remap = [0u8; 256];
    for (i, r) in remap.iter_mut().enumerate() {
        *r = i as u8;
    }
    let mut table: Vec<[u8; 3]> = colors.to_vec();
    let transparent = if table.len() < 256 {
        table.push([0, 0, 0]);
        (table.len() - 1) as u8
    } else {
        let dist = |a: [u8; 3], b: [u8; 3]| {
            (0..3)
                .map(|k| (a[k] as i32 - b[k] as i32).pow(2))
                .sum::<i32>()
        };
        let mut closest = (i32::MAX, 0usize, 1usize);
        for a in 0..table.len() {
            for b in a + 1..table.len() {
                let d = dist(table[a], table[b]);
                if d < closest.0 {
                    closest = (d, a, b);
                }
            }
        }
        let (_, keep, free) = closest;
        remap[free] = keep as u8;
        free as u8
    };
    (table.concat(), remap, transparent)
}

/// The smallest rectangle holding every pixel that differs from `prev`, as a frame whose
/// unchanged pixels are `transparent`. An identical picture gives a one-pixel frame.
fn changed_part(prev: &[u8], next: &[u8], width: usize, transparent: u8) -> Frame<'static> {
    let height = next.len() / width;
    let (mut x0, mut y0, mut x1, mut y1) = (width, height, 0usize, 0usize);
    for y in 0..height {
        let row = y * width;
        let a = &prev[row..row + width];
        let b = &next[row..row + width];
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 || y0 > y1 {
        (x0, y0, x1, y1) = (0, 0, 0, 0);
    }
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut pixels = Vec::with_capacity(w * h);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let i = y * width + x;
            pixels.push(if prev[i] == next[i] {
                transparent
            } else {
                next[i]
            });
        }
    }
    let mut frame = Frame::from_indexed_pixels(w as u16, h as u16, pixels, Some(transparent));
    frame.left = x0 as u16;
    frame.top = y0 as u16;
    frame
}
