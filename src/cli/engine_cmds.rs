//! `damas moves | perft | explain | replay`: the engine on the command line, a stable
//! interface for tests and tools.

use super::fail;
use crate::app::i18n::{self, Lang};
use crate::engine::{
    explain as explain_position, legal_notations, Attempt, Color, Explanation, Game, IllegalMove,
    Law, Move, MoveError, NotationError, Position, Variant, Verdict,
};
use clap::Args;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The position as a PDN FEN, like W:W21-32:B1-12; the start position when left out.
    #[arg(long)]
    pub fen: Option<String>,
    /// A JSON array (notation, squares, path, captures of each move) instead of lines.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// Count to this many plies (0 to 20), printing a line `depth nodes milliseconds` for
    /// each depth from 1 (depth 0: the one position itself).
    #[arg(long)]
    pub depth: u32,
    /// The position as a PDN FEN; the start position when left out.
    #[arg(long)]
    pub fen: Option<String>,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The position as a PDN FEN; the start position when left out.
    #[arg(long)]
    pub fen: Option<String>,
    /// The move to judge; without it, the position's capture situation is explained. A move
    /// that is not legal is explained too, and exits with 2.
    #[arg(long = "move")]
    pub mv: Option<String>,
    /// The language of the explanation: es or en.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// One JSON document (the laws, the captures, the verdict) instead of words.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game: spanish (the default for --moves), portuguese or english. With --pdn, the
    /// game is read as this variant; without it, as its GameType tag says (Spanish without
    /// one).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Moves separated by spaces, e.g. "11-15 22-18".
    #[arg(long, required_unless_present = "pdn", conflicts_with = "pdn")]
    pub moves: Option<String>,
    /// The position the --moves start from, as a PDN FEN; the start position when left out.
    #[arg(long, conflicts_with = "pdn")]
    pub fen: Option<String>,
    /// A game of a PDN file instead of --moves, followed as the record says.
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Which game of the --pdn file, from 1.
    #[arg(long, default_value_t = 1, requires = "pdn")]
    pub game: usize,
}

/// Parses the variant and the position, or says what is wrong.
pub fn position_from(variant: Variant, fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::start(variant)),
        Some(f) => Position::from_fen(variant, f).map_err(|e| format!("bad FEN: {e}")),
    }
}

pub fn move_json(mv: &Move, notation: &str) -> serde_json::Value {
    json!({
        "notation": notation,
        "from": mv.from().number(),
        "to": mv.to().number(),
        "path": mv.path().iter().map(|s| s.number()).collect::<Vec<_>>(),
        "captures": mv.captured().squares().map(|s| s.number()).collect::<Vec<_>>(),
        "captured_kings": mv.captured_kings().squares().map(|s| s.number()).collect::<Vec<_>>(),
    })
}

pub fn moves(a: MovesArgs) -> ExitCode {
    let pos = match position_from(a.variant, a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let list = legal_notations(&pos);
    if a.json {
        let v: Vec<_> = list.iter().map(|(m, n)| move_json(m, n)).collect();
        outln!("{}", serde_json::Value::Array(v));
    } else {
        for (_, n) in list {
            outln!("{n}");
        }
    }
    ExitCode::SUCCESS
}

pub fn perft(a: PerftArgs) -> ExitCode {
    let pos = match position_from(a.variant, a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if a.depth > 20 {
        return fail("depth must be at most 20");
    }
    // Depth 0 counts the one position (perft's convention); any other depth prints a line
    // from depth 1 up.
    for d in a.depth.min(1)..=a.depth {
        let t = Instant::now();
        let n = crate::engine::perft(&pos, d);
        outln!("{d} {n} {}", t.elapsed().as_millis());
    }
    ExitCode::SUCCESS
}

pub fn explain(a: ExplainArgs) -> ExitCode {
    let pos = match position_from(a.variant, a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let lang = match Lang::from_code(&a.lang) {
        Some(l) => l,
        None => return fail(format!("unknown language {:?}: use es or en", a.lang)),
    };
    let exp = explain_position(&pos, a.mv.as_deref().map(Attempt::Text));
    if a.json {
        outln!("{}", explanation_json(&exp));
    } else {
        // The position given is the one on the board: the present tense.
        outln!(
            "{}",
            i18n::explanation_text(lang, &exp, i18n::Tense::Present)
        );
    }
    // A move that cannot be played is bad input (exit 2), explained all the same.
    if matches!(exp.verdict, Some(Verdict::Illegal { .. })) {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn replay(a: ReplayArgs) -> ExitCode {
    if let Some(path) = &a.pdn {
        return replay_record(a.variant, path, a.game);
    }
    let start = match position_from(a.variant.unwrap_or_default(), a.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let mut game = Game::from_position(start);
    // Move numbers such as "1." may be mixed in, as in PDN; they are not moves to count.
    let moves = a
        .moves
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .filter(|t| !t.ends_with('.'));
    for (i, text) in moves.enumerate() {
        if let Err(e) = game.play_text(text) {
            let reason = match &e {
                crate::engine::GameError::Move(m) => i18n::move_error_text(Lang::En, m),
                other => other.to_string(),
            };
            return fail(format!("move {} ({text}) is illegal: {reason}", i + 1));
        }
    }
    outln!("{}", game.position().fen());
    outln!("{}", i18n::result_text(Lang::En, game.outcome()));
    ExitCode::SUCCESS
}

/// `replay --pdn`: a game of a file followed to its end; which game and variant it was read
/// as, the final position, how the game stands by the rules or else the result the record
/// states, and where live play would have declared a draw the players did not take.
fn replay_record(variant: Option<Variant>, path: &std::path::Path, number: usize) -> ExitCode {
    let record = match super::pdn_cmds::record_from_file(variant, path, number) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let game = &record.game;
    outln!(
        "{}",
        super::pdn_cmds::record_heading(path, &record, variant)
    );
    outln!("{}", game.position().fen());
    match game.outcome() {
        Some(o) => outln!("{}", i18n::result_text(Lang::En, Some(o))),
        None => outln!("{}", i18n::record_result_text(Lang::En, record.result)),
    }
    // Where the players went on past a draw live play declares (a record that ends there
    // ended as live play would have).
    if let Some((ply, reason)) = game.unclaimed_draw().filter(|(ply, _)| *ply < game.ply()) {
        let (number, mv) = match ply.checked_sub(1) {
            Some(i) => (game.move_label(i), game.notations()[i].clone()),
            None => ("0.".to_string(), String::new()),
        };
        outln!(
            "{}",
            i18n::unclaimed_draw_text(Lang::En, reason, &number, &mv)
        );
    }
    ExitCode::SUCCESS
}

/// The explanation as JSON, for tools.
pub fn explanation_json(exp: &Explanation) -> serde_json::Value {
    let law = match exp.law {
        Law::NoCapture => "none",
        Law::Mandatory => "mandatory",
        Law::Quantity => "quantity",
        Law::Quality => "quality",
        Law::FreeChoice => "free-choice",
    };
    let captures: Vec<_> = exp
        .captures
        .iter()
        .map(|c| {
            let mut v = move_json(&c.mv, &c.notation);
            v["pieces"] = json!(c.pieces);
            v["kings"] = json!(c.kings);
            v["allowed"] = json!(c.allowed);
            v["excluded_by"] = json!(c.excluded_by.map(|l| match l {
                Law::Quality => "quality",
                _ => "quantity",
            }));
            v
        })
        .collect();
    let verdict = exp.verdict.as_ref().map(|v| match v {
        Verdict::Legal { notation, .. } => json!({"legal": true, "move": notation}),
        Verdict::Illegal { error } => json!({
            "legal": false,
            "reason": error_code(error),
            "message": i18n::move_error_text(Lang::En, error),
        }),
    });
    json!({
        "variant": exp.variant.id(),
        "side": match exp.side { Color::White => "white", Color::Black => "black" },
        "capture_available": exp.capture_available(),
        "law": law,
        "max_pieces": exp.max_pieces,
        "max_kings": exp.max_kings,
        "captures": captures,
        "allowed": exp.allowed.iter().map(|(_, n)| n.clone()).collect::<Vec<_>>(),
        "verdict": verdict,
    })
}

/// A stable code for each kind of refusal (JSON output, tests).
pub fn error_code(e: &MoveError) -> &'static str {
    match e {
        MoveError::Notation(NotationError::Empty) => "empty",
        MoveError::Notation(NotationError::NotAMove { .. }) => "not-a-move",
        MoveError::Notation(NotationError::SquareOutOfRange { .. }) => "square-out-of-range",
        MoveError::Notation(NotationError::OneSquare { .. }) => "one-square",
        MoveError::NoPiece { .. } => "no-piece",
        MoveError::OpponentPiece { .. } => "opponent-piece",
        MoveError::Ambiguous { .. } => "ambiguous",
        MoveError::Illegal(i) => match i {
            IllegalMove::ManMovesForwardOnly { .. } => "man-moves-forward-only",
            IllegalMove::ManCapturesForwardOnly { .. } => "man-captures-forward-only",
            IllegalMove::TargetOccupied { .. } => "target-occupied",
            IllegalMove::NotReachable { .. } => "not-reachable",
            IllegalMove::ShortKingOneSquare { .. } => "short-king-one-square",
            IllegalMove::CaptureMandatory { .. } => "capture-mandatory",
            IllegalMove::LawOfQuantity { .. } => "law-of-quantity",
            IllegalMove::LawOfQuality { .. } => "law-of-quality",
            IllegalMove::CaptureIncomplete { .. } => "capture-incomplete",
            IllegalMove::NoSuchCapture { .. } => "no-such-capture",
        },
    }
}
