//! PDN export and import of a game.

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

/// Why PDN text could not be read as a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdnError {
    #[error("the PDN is for GameType {found}, not {expected} ({variant})")]
    GameType {
        found: String,
        expected: u8,
        variant: &'static str,
    },
    #[error("bad FEN tag: {0}")]
    Fen(#[from] super::fen::FenError),
    #[error("move {number} ({text}) is illegal: {error}")]
    Move {
        /// 1-based count of moves (plies) read.
        number: usize,
        text: String,
        error: super::game::GameError,
    },
    #[error("a {0} is never closed")]
    Unclosed(&'static str),
}

/// Reads the first game of PDN text: its `FEN` tag (if any) and its moves. Move numbers,
/// comments (`{…}`, `;` to the end of the line), variations (`(…)`), NAGs (`$3`), move
/// marks (`!`, `?`) and the result are skipped. A `GameType` tag, when present, must be
/// the variant's.
pub fn import_pdn(variant: Variant, text: &str) -> Result<super::game::Game, PdnError> {
    use super::game::Game;
    use super::position::Position;
    let mut start = Position::start(variant);
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>| {
        if !word.is_empty() {
            tokens.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 => {
                flush(&mut word, &mut tokens);
                let mut tag = String::new();
                let mut in_quotes = false;
                loop {
                    match chars.next() {
                        None => return Err(PdnError::Unclosed("tag")),
                        Some('\\') if in_quotes => {
                            if let Some(e) = chars.next() {
                                tag.push(e);
                            }
                        }
                        Some('"') => in_quotes = !in_quotes,
                        Some(']') if !in_quotes => break,
                        Some(ch) => tag.push(ch),
                    }
                }
                let (key, value) = tag
                    .trim()
                    .split_once(char::is_whitespace)
                    .unwrap_or((&tag, ""));
                let value = value.trim();
                match key {
                    "FEN" => start = Position::from_fen(variant, value)?,
                    "GameType" => {
                        // "24" or "24,W,8,8,A0,0": the number comes first.
                        let kind = value.split(',').next().unwrap_or("").trim();
                        if kind != variant.pdn_game_type().to_string() {
                            return Err(PdnError::GameType {
                                found: value.to_string(),
                                expected: variant.pdn_game_type(),
                                variant: variant.id(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            '{' => {
                flush(&mut word, &mut tokens);
                loop {
                    match chars.next() {
                        None => return Err(PdnError::Unclosed("comment")),
                        Some('}') => break,
                        Some(_) => {}
                    }
                }
            }
            ';' => {
                flush(&mut word, &mut tokens);
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut tokens);
                depth += 1;
            }
            ')' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_whitespace() => flush(&mut word, &mut tokens),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens);
    if depth > 0 {
        return Err(PdnError::Unclosed("variation"));
    }
    let mut game = Game::from_position(start);
    for token in tokens {
        // "12." and "12..." are move numbers; "12.11-15" has the move after the dots.
        let mv = token.rsplit('.').next().unwrap_or("");
        let mv = mv.trim_end_matches(['!', '?']);
        let is_result = matches!(mv, "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2");
        if mv.is_empty() || mv.starts_with('$') || is_result {
            continue;
        }
        if let Err(error) = game.play_text(mv) {
            return Err(PdnError::Move {
                number: game.ply() + 1,
                text: mv.to_string(),
                error,
            });
        }
    }
    Ok(game)
}

#[cfg(test)]
mod import_tests {
    use super::*;
    use crate::engine::Game;

    #[test]
    fn an_exported_game_reads_back() {
        let mut game = Game::new(Variant::Spanish);
        for m in ["11-15", "24-20", "15x24"] {
            assert!(game.play_text(m).is_ok());
        }
        for _ in 0..10 {
            let mv = game.position().legal_moves()[0];
            assert!(game.play(mv).is_ok());
        }
        let text = export_pdn(&game, &PdnTags::default());
        let back = import_pdn(Variant::Spanish, &text).map(|g| g.moves().to_vec());
        assert_eq!(back, Ok(game.moves().to_vec()));
    }

    #[test]
    fn comments_variations_and_marks_are_skipped() {
        let text = "[GameType \"21\"]\n1. 11-15 {book} 23-19 (22-18 15x22) 2. 8-11! 27-23?; a note\n 1/2-1/2";
        let game = import_pdn(Variant::English, text).map(|g| g.ply());
        assert_eq!(game, Ok(4));
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        assert!(matches!(
            import_pdn(Variant::Spanish, "[GameType \"21\"] 1. 11-15"),
            Err(PdnError::GameType { .. })
        ));
        assert!(matches!(
            import_pdn(Variant::Spanish, "1. 11-15 22-18 2. 11-14"),
            Err(PdnError::Move { number: 3, .. })
        ));
        assert!(matches!(
            import_pdn(Variant::Spanish, "1. 11-15 {open"),
            Err(PdnError::Unclosed("comment"))
        ));
    }
}
