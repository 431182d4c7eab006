//! PDN export of a game.

use super::game::{Game, Outcome};
use super::variant::Variant;
use std::fmt::Write;

/// Tag values the caller knows (names, date, event).
#[derive(Clone, Debug, Default)]
pub struct PdnTags {
    pub event: Option<String>,
    pub site: Option<String>,
    pub date: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The opening the game was made to start from (a three-move ballot), written as the
    /// `Opening` tag; its moves are in the record like any others.
    pub opening: Option<String>,
}

/// The PDN result string, first player's score first.
pub fn result_text(variant: Variant, outcome: Option<Outcome>) -> &'static str {
    let first = variant.first_player();
    match outcome {
        None => "*",
        Some(Outcome::Draw { .. }) => {
            if variant == Variant::English {
                "1/2-1/2"
            } else {
                "1-1"
            }
        }
        Some(Outcome::Win { winner, .. }) => match (winner == first, variant == Variant::English) {
            (true, true) => "1-0",
            (false, true) => "0-1",
            (true, false) => "2-0",
            (false, false) => "0-2",
        },
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PDN text: tags, the moves numbered in pairs, and the result.
pub fn export_pdn(game: &Game, tags: &PdnTags) -> String {
    let variant = game.variant();
    let result = result_text(variant, game.outcome());
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    };
    tag(&mut s, "Event", tags.event.as_deref().unwrap_or("damas"));
    tag(&mut s, "Site", tags.site.as_deref().unwrap_or("?"));
    tag(&mut s, "Date", tags.date.as_deref().unwrap_or("????.??.??"));
    tag(&mut s, "White", tags.white.as_deref().unwrap_or("?"));
    tag(&mut s, "Black", tags.black.as_deref().unwrap_or("?"));
    tag(&mut s, "Result", result);
    tag(&mut s, "GameType", &variant.pdn_game_type().to_string());
    if let Some(opening) = &tags.opening {
        tag(&mut s, "Opening", opening);
    }
    let start = game.start_position();
    if *start != crate::engine::Position::start(variant) {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &start.fen());
    }
    s.push('\n');
    let mut line = String::new();
    let notations = game.notations();
    // Move numbers count pairs from the first player's move; a game starting with the second
    // player to move begins with "1...".
    let first = variant.first_player();
    let offset = usize::from(start.side_to_move() != first);
    for (i, n) in notations.iter().enumerate() {
        let ply = i + offset;
        let mut token = String::new();
        if ply % 2 == 0 {
            let _ = write!(token, "{}. ", ply / 2 + 1);
        } else if i == 0 {
            let _ = write!(token, "{}... ", ply / 2 + 1);
        }
        token.push_str(n);
        if line.len() + token.len() + 1 > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(result);
    s.push_str(&line);
    s.push('\n');
    s
}
