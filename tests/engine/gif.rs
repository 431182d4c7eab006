//! The animated replay: a frame for the start and one per ply, the right delays, small enough
//! for Discord.

use crate::support::search::long_game;
use damas::engine::{Color, Variant};
use damas::render::{
    render_image, replay_gif, BoardView, Caption, REPLAY_FRAME_DELAY_CS, REPLAY_LAST_FRAME_DELAY_CS,
};

/// The most a 120-ply game's GIF may weigh.
const SIZE_TARGET: usize = 2 * 1024 * 1024;

fn caption(ply: usize) -> Caption {
    Caption {
        title: "Spanish draughts".into(),
        players: "alice (White) vs bob (Black)".into(),
        status: format!("ply {ply}"),
    }
}

#[test]
fn a_long_game_decodes_with_a_frame_per_ply_plus_the_start_under_the_size_target() {
    let game = long_game(Variant::Spanish, 120);
    let bytes = match replay_gif(&game, Color::White, caption) {
        Ok(b) => b,
        Err(e) => panic!("no GIF: {e}"),
    };
    assert!(bytes.len() < SIZE_TARGET, "{} bytes", bytes.len());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = match options.read_info(bytes.as_slice()) {
        Ok(d) => d,
        Err(e) => panic!("the GIF does not decode: {e}"),
    };
    assert_eq!((decoder.width(), decoder.height()), (640, 740));
    let (w, h) = (640usize, 740usize);
    // Frames are drawn over each other: paste each one's opaque pixels where it goes.
    let mut canvas = vec![0u8; w * h * 4];
    let mut after_first = None;
    let mut delays = Vec::new();
    loop {
        match decoder.read_next_frame() {
            Ok(Some(frame)) => {
                let (left, top) = (frame.left as usize, frame.top as usize);
                let fw = frame.width as usize;
                for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
                    if px[3] == 0 {
                        continue;
                    }
                    let (x, y) = (left + i % fw, top + i / fw);
                    canvas[(y * w + x) * 4..(y * w + x) * 4 + 4].copy_from_slice(px);
                }
                if after_first.is_none() {
                    after_first = Some(canvas.clone());
                }
                delays.push(frame.delay);
            }
            Ok(None) => break,
            Err(e) => panic!("frame {} does not decode: {e}", delays.len()),
        }
    }
    assert_eq!(delays.len(), game.ply() + 1);
    assert!(delays[..game.ply()]
        .iter()
        .all(|&d| d == REPLAY_FRAME_DELAY_CS));
    assert_eq!(delays.last(), Some(&REPLAY_LAST_FRAME_DELAY_CS));
    // The first frame shows the start; all frames together show the end, last move marked,
    // as the board pictures draw them (palette colours are within a few steps of the drawn).
    let n = game.ply();
    let mut end_view = BoardView::new(game.position(), Color::White);
    end_view.last_move = game.moves().last().copied();
    end_view.caption = caption(n);
    let mut start_view = BoardView::new(&game.positions()[0], Color::White);
    start_view.caption = caption(0);
    for (shown, view) in [
        (after_first.unwrap_or_default(), start_view),
        (canvas, end_view),
    ] {
        let drawn = match render_image(&view) {
            Ok(img) => img,
            Err(e) => panic!("{e}"),
        };
        let close = shown
            .chunks_exact(4)
            .zip(drawn.as_raw().chunks_exact(3))
            .filter(|(g, d)| (0..3).all(|k| (g[k] as i32 - d[k] as i32).abs() <= 24))
            .count();
        assert!(close * 100 >= w * h * 99, "only {close} pixels as drawn");
    }
}
