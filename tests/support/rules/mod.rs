//! Helpers shared by the rules tests: positions from FEN, the colour mirror, and assertions
//! on legal moves and refusals that read the same for both colours.
//!
//! The mirror turns the board half a turn: square `n` becomes `33 - n`, every piece changes
//! colour and the other side moves. A half turn maps each variant's board onto itself (the
//! first player's men still move towards 29-32, the second player's towards 1-4), so every
//! rule must give the mirrored answer. Each test states its position once, for the colour
//! drawn in RULES.md, and [`check`] runs it for the other colour too.

// Each test binary uses its own part of these helpers.
#![allow(dead_code)]

pub mod reference;

use damas::engine::{Color, Game, Move, MoveError, Piece, Position, Role, Square, Variant};

pub const SPANISH_RULES: [Variant; 2] = [Variant::Spanish, Variant::Portuguese];
pub const ALL: [Variant; 3] = Variant::ALL;

/// Each variant with what it is checked on: Portuguese draughts share the Spanish board, so
/// they take `spanish` too.
pub fn on_each_board<T: Copy>(spanish: T, english: T) -> [(Variant, T); 3] {
    [
        (Variant::Spanish, spanish),
        (Variant::Portuguese, spanish),
        (Variant::English, english),
    ]
}

/// A position from FEN; the tests' FENs are written by hand and must be valid.
pub fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen)
        .unwrap_or_else(|e| panic!("test FEN {fen:?} for {variant} is invalid: {e}"))
}

/// The same position turned half a turn: squares `n ↔ 33 - n`, colours and turn swapped.
pub fn mirror(p: &Position) -> Position {
    let mut m = Position::empty(p.variant(), p.side_to_move().opposite());
    for sq in Square::all() {
        if let Some(piece) = p.piece_at(sq) {
            let target = Square::new(33 - sq.number()).expect("33 - n is a square");
            m.set_piece(
                target,
                Some(Piece {
                    color: piece.color.opposite(),
                    role: piece.role,
                }),
            );
        }
    }
    m
}

/// Every square number in `text` replaced by its mirror image (`22x15x6` → `11x18x27`).
pub fn mirror_text(text: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    // Numbers that are not squares (tests of bad input) stay as they are.
    let flush = |digits: &mut String, out: &mut String| {
        match digits.parse::<u8>() {
            Ok(n) if (1..=32).contains(&n) => out.push_str(&(33 - n).to_string()),
            _ => out.push_str(digits),
        }
        digits.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

/// A position seen from one of the two colours: `flipped` is false for the position as
/// written in the test, true for its mirror image. Square numbers, move texts and colours
/// given to its methods are the written ones; they are mirrored when `flipped`.
pub struct View {
    pub pos: Position,
    pub flipped: bool,
}

impl View {
    pub fn n(&self, n: u8) -> u8 {
        if self.flipped {
            33 - n
        } else {
            n
        }
    }

    pub fn sq(&self, n: u8) -> Square {
        Square::new(self.n(n)).expect("test squares are 1..=32")
    }

    pub fn text(&self, text: &str) -> String {
        if self.flipped {
            mirror_text(text)
        } else {
            text.to_string()
        }
    }

    pub fn color(&self, c: Color) -> Color {
        if self.flipped {
            c.opposite()
        } else {
            c
        }
    }

    /// The canonical notation of every legal move, sorted as strings.
    pub fn legal(&self) -> Vec<String> {
        let mut v: Vec<String> = damas::engine::legal_notations(&self.pos)
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        v.sort();
        v
    }

    /// Written move texts, mirrored when needed and sorted as strings.
    pub fn texts(&self, moves: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = moves.iter().map(|m| self.text(m)).collect();
        v.sort();
        v
    }

    /// Asserts the exact set of legal moves (canonical notation).
    pub fn assert_legal(&self, expected: &[&str]) {
        assert_eq!(
            self.legal(),
            self.texts(expected),
            "legal moves of {} ({})",
            self.pos.fen(),
            self.pos.variant()
        );
    }

    /// The legal move a written text names.
    pub fn mv(&self, text: &str) -> Move {
        let t = self.text(text);
        self.pos
            .parse_move(&t)
            .unwrap_or_else(|e| panic!("{t} should be legal in {}: {e:?}", self.pos.fen()))
    }

    /// Legal moves in the order the engine lists them in errors: by from, to, full path.
    pub fn moves(&self, texts: &[&str]) -> Vec<Move> {
        let mut v: Vec<Move> = texts.iter().map(|t| self.mv(t)).collect();
        v.sort_by_key(|m| (m.from(), m.to(), m.full_notation()));
        v
    }

    /// Legal moves sorted by their full notation (the order of ambiguous candidates).
    pub fn moves_by_path(&self, texts: &[&str]) -> Vec<Move> {
        let mut v: Vec<Move> = texts.iter().map(|t| self.mv(t)).collect();
        v.sort_by_key(|m| m.full_notation());
        v
    }

    /// The refusal for a written text, which must not name a legal move.
    pub fn err(&self, text: &str) -> MoveError {
        let t = self.text(text);
        match self.pos.parse_move(&t) {
            Ok(m) => panic!(
                "{t} should be refused in {} but resolved to {m:?}",
                self.pos.fen()
            ),
            Err(e) => e,
        }
    }

    pub fn game(&self) -> Game {
        Game::from_position(self.pos)
    }

    /// Plays a written move in a game, which must accept it.
    pub fn play(&self, game: &mut Game, text: &str) -> Move {
        let t = self.text(text);
        game.play_text(&t)
            .unwrap_or_else(|e| panic!("{t} refused in {}: {e:?}", game.position().fen()))
    }

    pub fn role_at(&self, p: &Position, n: u8) -> Option<(Color, Role)> {
        p.piece_at(self.sq(n))
            .map(|piece| (self.color(piece.color), piece.role))
    }
}

/// Runs `f` on the position for each variant, as written and mirrored.
pub fn check(variants: &[Variant], fen: &str, mut f: impl FnMut(&View)) {
    for &variant in variants {
        let written = pos(variant, fen);
        for flipped in [false, true] {
            let p = if flipped { mirror(&written) } else { written };
            // Shown only when the test fails: which of the runs it was.
            eprintln!(
                "checking {variant} {fen} (mirrored: {flipped}) = {}",
                p.fen()
            );
            f(&View { pos: p, flipped });
        }
    }
}

/// Which pieces [`play_quiet`] may move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mover {
    King,
    Man,
}

/// Plays plies without a capture, as many and of the kinds `plan` says (`(30, King)`:
/// thirty plies, each moving a king), through positions not seen before in the game (so no
/// repetition can end it) in which neither side could capture (so every next ply can be
/// quiet too). The line is found by a depth-first search in canonical move order, so it is
/// the same on every run. Panics when there is none: the test's position is too cramped.
pub fn play_quiet(game: &mut Game, plan: &[(usize, Mover)]) {
    let kinds: Vec<Mover> = plan
        .iter()
        .flat_map(|&(n, m)| std::iter::repeat(m).take(n))
        .collect();
    let mut budget = 200_000u32;
    let start = game.position().fen();
    assert!(
        quiet_line(game, &kinds, &mut budget),
        "no quiet line {plan:?} from {start}"
    );
}

fn quiet_line(game: &mut Game, kinds: &[Mover], budget: &mut u32) -> bool {
    let Some((&mover, rest)) = kinds.split_first() else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let pos = *game.position();
    let candidates: Vec<Move> = damas::engine::legal_notations(&pos)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| {
            if m.is_capture() || pos.moves_man(m) != (mover == Mover::Man) {
                return false;
            }
            let next = pos.apply(m);
            !next.has_capture()
                && !next.with_side_to_move(pos.side_to_move()).has_capture()
                && next.count_legal_moves() > 0
                && !game.positions().contains(&next)
        })
        .collect();
    for mv in candidates {
        game.play(mv)
            .unwrap_or_else(|e| panic!("{mv:?} refused in {}: {e:?}", pos.fen()));
        if quiet_line(game, rest, budget) {
            return true;
        }
        game.undo().expect("a quiet ply can be taken back");
    }
    false
}
