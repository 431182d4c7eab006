//! `damas render`: a position as a PNG file, with the last move or an explanation drawn.
use super::engine_cmds::position_from;
use super::fail;
use crate::app::i18n::{color_name, variant_name, Lang};
use crate::engine::{explain, format_move, Attempt, Color, Move, Position, Variant, Verdict};
use crate::render::{self, BoardView, Caption};
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The position as a PDN FEN; the start position when left out.
    #[arg(long)]
    pub fen: Option<String>,
    /// The PNG file to write.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// white or black; by default the side to move.
    #[arg(long)]
    pub perspective: Option<String>,
    /// Play this move in the position and draw the position after it, the move marked.
    #[arg(long = "last-move")]
    pub last_move: Option<String>,
    /// Draw the explanation of this move (every capture, kept and excluded).
    #[arg(long)]
    pub explain: Option<String>,
}

pub fn render(args: RenderArgs) -> ExitCode {
    let pos = match position_from(args.variant, args.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if args.last_move.is_some() && args.explain.is_some() {
        return fail("use --last-move or --explain, not both");
    }
    // With --last-move, the picture shows the position after the move.
    let (shown, last_move): (Position, Option<Move>) = match args.last_move.as_deref() {
        Some(text) => match pos.parse_move(text) {
            Ok(mv) => (pos.apply(&mv), Some(mv)),
            Err(e) => return fail(format!("--last-move {text:?}: {e}")),
        },
        None => (pos, None),
    };
    let explanation = args
        .explain
        .as_deref()
        .map(|text| explain(&pos, Some(Attempt::Text(text))));
    let perspective = match args
        .perspective
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None => shown.side_to_move(),
        Some("white" | "w") => Color::White,
        Some("black" | "b") => Color::Black,
        Some(other) => return fail(format!("--perspective {other:?}: use white or black")),
    };
    let lang = Lang::En;
    let mut status = format!("{} to move", color_name(lang, shown.side_to_move()));
    if let Some(mv) = &last_move {
        status = format!(
            "Last move {} · {status}",
            format_move(mv, &pos.legal_moves())
        );
    }
    if let Some(exp) = &explanation {
        match &exp.verdict {
            Some(Verdict::Legal { notation, .. }) => {
                status.push_str(&format!(" · {notation} is legal"))
            }
            Some(Verdict::Illegal { .. }) => {
                let asked = args.explain.as_deref().unwrap_or_default();
                status.push_str(&format!(" · {asked} is not legal"));
            }
            None => {}
        }
    }
    let view = BoardView {
        position: &shown,
        perspective,
        last_move,
        highlight_captures: explanation.is_none(),
        reachable_from: None,
        explanation: explanation.as_ref(),
        caption: Caption {
            title: variant_name(lang, shown.variant()),
            players: shown.fen(),
            status,
        },
    };
    let png = match render::render_png(&view) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    if let Err(e) = std::fs::write(&args.out, &png) {
        return fail(format!("cannot write {}: {e}", args.out.display()));
    }
    ExitCode::SUCCESS
}
