//! Property tests: no input text panics the notation or FEN readers, FEN and move notation
//! read back what they wrote, every move keeps the board sound, and the engine's legal moves
//! agree with a naive second generator (`crate::support::rules::reference`) on random positions.

use crate::support::rules::reference;
use damas::engine::{
    decode_pdn, explain, export_pdn, parse_squares, read_pdn, Color, Game, Move, MoveError,
    PdnTags, Piece, Position, Role, Square, Variant,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// The positions of a random game of up to `max_plies` plies, the start first.
fn playout(variant: Variant, seed: u64, max_plies: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut p = Position::start(variant);
    let mut out = vec![p];
    for _ in 0..max_plies {
        let moves = p.legal_moves();
        let Some(m) = moves.choose(&mut rng) else {
            break;
        };
        p = p.apply(m);
        out.push(p);
    }
    out
}

/// Any legal arrangement: up to 12 pieces a side, no man on its own crowning row.
fn placed_position() -> impl Strategy<Value = Position> {
    (
        variant(),
        any::<bool>(),
        prop::collection::vec((1u8..=32, 0u8..4), 0..24),
    )
        .prop_map(|(variant, white_to_move, pieces)| {
            let side = if white_to_move {
                Color::White
            } else {
                Color::Black
            };
            let mut p = Position::empty(variant, side);
            for (n, kind) in pieces {
                let sq = Square::new(n).expect("1..=32");
                let color = if kind % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let role = if kind < 2 { Role::Man } else { Role::King };
                if p.pieces(color).count() >= 12
                    || (role == Role::Man && p.crowning_row(color).contains(sq))
                {
                    continue;
                }
                p.set_piece(sq, Some(Piece { color, role }));
            }
            p
        })
}

/// Positions reached by play, or placed at random (which finds more kings).
fn position() -> impl Strategy<Value = Position> {
    prop_oneof![
        (variant(), any::<u64>(), 0usize..160).prop_map(|(v, seed, plies)| {
            *playout(v, seed, plies).last().expect("the start at least")
        }),
        placed_position(),
    ]
}

fn assert_sound(p: &Position) {
    for color in [Color::White, Color::Black] {
        assert!(p.pieces(color).count() <= 12, "{}", p.fen());
        assert!(
            (p.men(color) & p.crowning_row(color)).is_empty(),
            "a man of {color:?} on its crowning row: {}",
            p.fen()
        );
    }
    assert!(
        (p.pieces(Color::White) & p.pieces(Color::Black)).is_empty(),
        "a square with two pieces: {}",
        p.fen()
    );
    assert_eq!(
        p.all_kings() & !p.occupied(),
        damas::engine::Bitboard::EMPTY,
        "a king on an empty square"
    );
}

fn engine_keys(p: &Position) -> Vec<(u8, u8, Vec<u8>)> {
    let mut keys: Vec<_> = p
        .legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().number(),
                m.to().number(),
                m.captured().squares().map(|s| s.number()).collect(),
            )
        })
        .collect();
    keys.sort();
    keys
}

/// Move text characters, so that random strings often look like moves.
const MOVE_CHARS: &str = "[0-9xX×:\\- –—]{0,24}";
const FEN_CHARS: &str = "[WBwbKk0-9,:\\- .\\[\\]\"]{0,48}";

proptest! {
    // A case takes microseconds (a random game of ~50 plies is ~13k positions per 256
    // cases, checked in tens of milliseconds): four times the default costs little.
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn parse_squares_never_panics(text in prop_oneof![any::<String>(), MOVE_CHARS]) {
        if let Ok(squares) = parse_squares(&text) {
            prop_assert!(squares.len() >= 2);
        }
    }

    #[test]
    fn parse_move_never_panics_and_accepts_only_legal_moves(
        p in position(),
        text in prop_oneof![any::<String>(), MOVE_CHARS],
    ) {
        match p.parse_move(&text) {
            Ok(m) => prop_assert!(p.legal_moves().contains(&m)),
            Err(MoveError::Ambiguous { candidates }) => {
                prop_assert!(candidates.len() >= 2);
                prop_assert!(candidates.iter().all(|c| p.legal_moves().contains(c)));
            }
            Err(_) => {}
        }
    }

    #[test]
    fn fen_reader_never_panics(
        v in variant(),
        text in prop_oneof![any::<String>(), FEN_CHARS],
    ) {
        if let Ok(p) = Position::from_fen(v, &text) {
            assert_sound(&p);
            prop_assert_eq!(Position::from_fen(v, &p.fen()), Ok(p));
        }
    }

    #[test]
    fn fen_reads_back_what_it_writes(p in position()) {
        prop_assert_eq!(Position::from_fen(p.variant(), &p.fen()), Ok(p));
    }

    #[test]
    fn every_legal_move_reads_back_from_its_notation(p in position()) {
        let legal = p.legal_moves();
        for m in &legal {
            prop_assert_eq!(p.parse_move(&p.move_notation(m)), Ok(*m));
            prop_assert_eq!(p.parse_move(&m.full_notation()), Ok(*m));
            match p.parse_move(&m.short_notation()) {
                Ok(found) if found == *m => {}
                Ok(found) => {
                    // The short form spells out another move's whole path, so it names
                    // that one; this move needs its path.
                    prop_assert_eq!(found.full_notation(), m.short_notation());
                    prop_assert_eq!(p.move_notation(m), m.full_notation());
                }
                Err(MoveError::Ambiguous { candidates }) => {
                    prop_assert!(candidates.contains(m));
                    // The canonical form is the full one exactly when the short is ambiguous.
                    prop_assert_eq!(p.move_notation(m), m.full_notation());
                }
                Err(e) => prop_assert!(false, "{} refused: {e:?}", m.short_notation()),
            }
        }
    }

    #[test]
    fn playing_keeps_the_board_sound(v in variant(), seed in any::<u64>()) {
        let game = playout(v, seed, 200);
        for pair in game.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            assert_sound(&after);
            prop_assert_eq!(after.side_to_move(), before.side_to_move().opposite());
        }
        for p in &game {
            for m in p.legal_moves() {
                check_move(p, &m)?;
            }
        }
    }

    #[test]
    fn moves_agree_with_the_naive_generator_on_played_positions(
        v in variant(),
        seed in any::<u64>(),
    ) {
        for p in playout(v, seed, 160) {
            prop_assert_eq!(engine_keys(&p), reference::legal_keys(&p), "{}", p.fen());
        }
    }

    #[test]
    fn moves_agree_with_the_naive_generator_on_placed_positions(p in placed_position()) {
        prop_assert_eq!(engine_keys(&p), reference::legal_keys(&p), "{}", p.fen());
        // Every recorded path is a real route of its capture.
        let routes = reference::capture_routes(&p);
        for m in p.legal_moves().iter().filter(|m| m.is_capture()) {
            let path: Vec<u8> = m.path().iter().map(|s| s.number()).collect();
            prop_assert!(
                routes.iter().any(|r| r.from == m.from().number() && r.path == path),
                "{} is no route in {}", m.full_notation(), p.fen()
            );
        }
        // The counts, the capture test and the explanation read the same moves.
        prop_assert_eq!(p.count_legal_moves(), p.legal_moves().len());
        prop_assert_eq!(p.has_capture(), !routes.is_empty());
        // The search's quiet leaves count the plain moves alone: exactly the legal moves
        // when nothing can capture.
        if !p.has_capture() {
            prop_assert_eq!(p.count_plain_moves(), p.legal_moves().len());
        }
        let e = explain(&p, None);
        let allowed: Vec<Move> = e.allowed.iter().map(|(m, _)| *m).collect();
        prop_assert_eq!(allowed.len(), p.legal_moves().len());
        for c in &e.captures {
            prop_assert_eq!(c.allowed, p.legal_moves().contains(&c.mv));
        }
    }
}

/// PDN text made of PDN's own pieces in any order (tags, brackets, quotes, escapes, comments,
/// variations, move numbers, glyphs, results, moves numeric and algebraic, line ends), with
/// random text between: what a broken or hostile file holds.
fn pdn_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(vec![
            "[Event \"x\"]",
            "[FEN \"W:W1-12:B21-32\"]",
            "[SetUp \"1\"]",
            "[GameType \"24\"]",
            "[GameType \"21\"]",
            "[FEN \"",
            "[",
            "]",
            "\"",
            "\\\"",
            "\\",
            "{",
            "}",
            "(",
            ")",
            ";",
            "%",
            "1.",
            "12...",
            "1…",
            "11-15",
            "24-20",
            "15x24",
            "22x15x6",
            "9-13",
            "c3-d4",
            "e3xc5",
            "h2:g3",
            "$3",
            "!?",
            "?",
            "*",
            "1-0",
            "0-2",
            "1/2-1/2",
            "1-1",
            "-",
            "\n",
            "\r\n",
            "\r",
            " ",
            "\t",
            "é",
            "½-½",
        ])
        .prop_map(str::to_string),
        "[0-9a-hxK\\-:. ]{0,8}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|v| v.concat())
}

/// A random game of `variant`, from the start or from a set-up position, with random tags.
fn exported_game() -> impl Strategy<Value = (Game, PdnTags)> {
    let text = prop::option::of(any::<String>());
    (
        position(),
        any::<u64>(),
        0usize..120,
        (text.clone(), text.clone(), text.clone(), text.clone()),
        (text.clone(), text.clone(), text),
    )
        .prop_map(
            |(start, seed, plies, (event, site, date, round), (white, black, opening))| {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut game = Game::from_position(start);
                while game.ply() < plies && !game.is_over() {
                    let moves = game.position().legal_moves();
                    let Some(m) = moves.choose(&mut rng) else {
                        break;
                    };
                    game.play(*m).expect("a legal move");
                }
                let tags = PdnTags {
                    event,
                    site,
                    date,
                    round,
                    white,
                    black,
                    opening,
                    result: None,
                };
                (game, tags)
            },
        )
}

proptest! {
    #[test]
    fn the_pdn_reader_never_panics(
        v in variant(),
        soup in pdn_soup(),
        bytes in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        for text in [soup, decode_pdn(&bytes).into_owned()] {
            for game in read_pdn(&text, v) {
                match game {
                    Ok(r) => prop_assert!(r.number >= 1),
                    Err(r) => prop_assert!(!r.to_string().is_empty()),
                }
            }
        }
    }

    #[test]
    fn every_game_damas_exports_reads_back_identically((game, tags) in exported_game()) {
        let text = export_pdn(&game, &tags);
        let read: Vec<_> = read_pdn(&text, game.variant()).collect();
        prop_assert_eq!(read.len(), 1, "{}", text);
        let back = read[0].as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.game.moves(), game.moves());
        prop_assert_eq!(back.game.start_position(), game.start_position());
        // Tags, result, moves, position: written again, the same text.
        prop_assert_eq!(export_pdn(&back.game, &back.pdn_tags()), text);
    }
}

/// What applying a legal move must do: the piece moves, exactly the captured pieces go,
/// crowning happens on the last row only, and the turn passes.
fn check_move(p: &Position, m: &Move) -> Result<(), TestCaseError> {
    let side = p.side_to_move();
    let after = p.apply(m);
    assert_sound(&after);
    let moved = p
        .piece_at(m.from())
        .expect("a legal move starts on a piece");
    prop_assert_eq!(moved.color, side);
    let landed = after.piece_at(m.to()).expect("the piece lands");
    prop_assert_eq!(landed.color, side);
    let crowned = moved.role == Role::Man && p.crowning_row(side).contains(m.to());
    prop_assert_eq!(landed.role, if crowned { Role::King } else { moved.role });
    prop_assert_eq!(p.crowns(m), crowned);
    prop_assert_eq!(p.moves_man(m), moved.role == Role::Man);
    let enemy = side.opposite();
    prop_assert_eq!(
        after.pieces(enemy).count() + u32::from(m.capture_count()),
        p.pieces(enemy).count()
    );
    prop_assert_eq!(after.pieces(side).count(), p.pieces(side).count());
    prop_assert_eq!(
        after.kings(enemy).count() + u32::from(m.king_capture_count()),
        p.kings(enemy).count()
    );
    for sq in m.captured().squares() {
        prop_assert_eq!(p.piece_at(sq).map(|x| x.color), Some(enemy));
        prop_assert_eq!(after.piece_at(sq), None);
    }
    prop_assert_eq!(after.side_to_move(), enemy);
    Ok(())
}
