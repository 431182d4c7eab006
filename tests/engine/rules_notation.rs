//! RULES.md's "Notation and positions": forgiving move input, canonical output, every
//! refusal `MoveError` can give, FEN reading and writing, and PDN export.

use crate::support::rules::{check, pos, View, ALL, SPANISH_RULES};
use damas::engine::{
    explain, export_pdn, parse_squares, resolve_squares, Attempt, Color, FenError, Game,
    IllegalMove, MoveError, NotationError, PdnTags, Position, Square, Variant, Verdict,
};

const ENGLISH: [Variant; 1] = [Variant::English];

fn sq(n: u8) -> Square {
    Square::new(n).expect("test squares are 1..=32")
}

// ---------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------

#[test]
fn every_separator_and_the_short_or_full_form_name_the_same_capture() {
    //  .  1  .  2  .  3  .  4
    //  5  .  6  .  7  .  8  .
    //  . 9  . 10b . 11  . 12
    // 13  . 14  . 15  . 16  .
    //  . 17  . 18b . 19  . 20
    // 21  . 22w . 23  . 24  .
    // The textbook double jump 22x15x6 (White's man over 18 and 10).
    check(&ENGLISH, "W:W22:B10,18", |t| {
        let mv = t.mv("22x15x6");
        for text in [
            "22x6",
            "22X6",
            "22×6",
            "22:6",
            "22 6",
            "22-6",
            "22–6",
            "22—6",
            "22x15x6",
            "22-15-6",
            "22 15 6",
            "22×15×6",
            "22:15:6",
            " 22 x 15 x 6 ",
            "22 x 6",
            "22xx6",
        ] {
            assert_eq!(t.pos.parse_move(&t.text(text)), Ok(mv), "{text:?}");
        }
        assert_eq!(t.pos.move_notation(&mv), t.text("22x6"));
        assert_eq!(mv.full_notation(), t.text("22x15x6"));
        assert_eq!(mv.short_notation(), t.text("22x6"));
    });
}

#[test]
fn the_separator_does_not_make_a_plain_move_illegal() {
    check(&SPANISH_RULES, "W:W1-12:B21-32", |t| {
        let mv = t.mv("11-15");
        for text in ["11x15", "11X15", "11 15", "11:15", "11×15", "  11-15  "] {
            assert_eq!(t.pos.parse_move(&t.text(text)), Ok(mv), "{text:?}");
        }
        assert_eq!(t.pos.move_notation(&mv), t.text("11-15"));
    });
    check(&ENGLISH, "B:W21-32:B1-12", |t| {
        let mv = t.mv("11-15");
        assert_eq!(t.pos.parse_move(&t.text("11x15")), Ok(mv));
        assert_eq!(t.pos.move_notation(&mv), t.text("11-15"));
    });
}

#[test]
fn a_capture_may_be_written_along_any_of_its_routes() {
    // King on 8, black men on 15 and 26: 8x19x29 and 8x22x29 are one move; both spellings,
    // and the short one, name it.
    check(&SPANISH_RULES, "W:WK8:B15,26", |t| {
        let mv = t.mv("8x29");
        for text in ["8x19x29", "8x22x29", "8x29"] {
            assert_eq!(t.pos.parse_move(&t.text(text)), Ok(mv), "{text:?}");
        }
        assert_eq!(t.pos.move_notation(&mv), t.text("8x29"));
        // Stopping on either landing square leaves the capture unfinished.
        for stop in ["8x19", "8x22"] {
            assert_eq!(
                t.err(stop),
                MoveError::Illegal(IllegalMove::CaptureIncomplete {
                    continuations: t.moves(&["8x29"])
                }),
                "{stop}"
            );
        }
    });
    // The English king's round trip, written either way round.
    check(&ENGLISH, "B:W17,18,25,26:BK14", |t| {
        let mv = t.mv("14x14");
        for text in ["14x23x30x21x14", "14x21x30x23x14", "14x30x14"] {
            assert_eq!(t.pos.parse_move(&t.text(text)), Ok(mv), "{text:?}");
        }
    });
}

#[test]
fn squares_that_fit_several_moves_list_them_in_full() {
    // Spanish and English boards alike: the man on 10 takes 13 and 21 via 17, or 14 and
    // 22 via 19, ending on 26 both times.
    let ambiguous = |t: &View| {
        assert_eq!(
            t.err("10x26"),
            MoveError::Ambiguous {
                candidates: t.moves_by_path(&["10x17x26", "10x19x26"])
            }
        );
        // Canonical notation shows the path exactly because it is needed here.
        t.assert_legal(&["10x17x26", "10x19x26"]);
        assert_ne!(t.mv("10x17x26"), t.mv("10x19x26"));
        assert_eq!(t.mv("10 19 26"), t.mv("10x19x26"));
    };
    check(&SPANISH_RULES, "W:W10:B13,14,21,22", ambiguous);
    check(&ENGLISH, "B:W14,15,22,23:B10", ambiguous);
}

#[test]
fn a_whole_path_names_its_move_even_inside_a_longer_one() {
    //  .  1  .  2  .  3  .  4
    //  5  .  6  .  7b .  8  .
    //  .  9  . 10  . 11W . 12
    // 13  . 14  . 15b . 16b .
    //  . 17  . 18  . 19  . 20
    // 21  . 22  . 23b . 24b .
    // The white king takes 7 landing on 2, or goes round 16, 24, 23 and 15 back through
    // 11 and then takes 7: both end on 2. "11x2" spells out the short capture's whole
    // path, so it names that one (or it could never be played); the round trip needs one
    // of its own landing squares.
    check(&ENGLISH, "W:WK11:B7,15,16,23,24", |t| {
        let legal = t.pos.legal_moves();
        assert_eq!(legal.len(), 2);
        let short = t.mv("11x2");
        assert_eq!(short.capture_count(), 1);
        let round = t.mv("11x20x2");
        assert_eq!(round.capture_count(), 5);
        assert_eq!(t.pos.move_notation(&short), t.text("11x2"));
        assert_eq!(t.pos.parse_move(&t.pos.move_notation(&round)), Ok(round));
        assert_eq!(t.mv("11 27 2"), round);
    });
}

// ---------------------------------------------------------------------------------------
// Every refusal
// ---------------------------------------------------------------------------------------

/// Names each kind of refusal; the exhaustive match makes a new kind fail to compile here
/// until it has a case below.
fn kind(e: &MoveError) -> &'static str {
    match e {
        MoveError::Notation(n) => match n {
            NotationError::Empty => "empty",
            NotationError::NotAMove { .. } => "not-a-move",
            NotationError::SquareOutOfRange { .. } => "square-out-of-range",
            NotationError::OneSquare { .. } => "one-square",
        },
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

const KINDS: usize = 17;

/// Squares read back from storage skip the text parser, so a damaged record may hold fewer
/// than the two a move needs: that is the parser's error, not a panic.
#[test]
fn fewer_than_two_squares_name_no_move() {
    let pos = Position::start(Variant::Spanish);
    assert_eq!(resolve_squares(&pos, &[]), Err(NotationError::Empty.into()));
    assert_eq!(
        resolve_squares(&pos, &[sq(11)]),
        Err(NotationError::OneSquare { square: sq(11) }.into())
    );
    assert_eq!(
        resolve_squares(&pos, &[sq(11), sq(15)]),
        pos.parse_move("11-15")
    );
}

#[test]
fn every_move_error_is_reachable() {
    let spanish_start = Variant::Spanish.start_fen();
    // (variant, position, text, the refusal written for that position)
    type Expect = fn(&View) -> MoveError;
    let cases: Vec<(Variant, &str, &str, Expect)> = vec![
        (Variant::Spanish, spanish_start, "", |_| {
            NotationError::Empty.into()
        }),
        (Variant::Spanish, spanish_start, "   ", |_| {
            NotationError::Empty.into()
        }),
        (Variant::Spanish, spanish_start, "hello", |_| {
            NotationError::NotAMove {
                text: "hello".into(),
            }
            .into()
        }),
        (Variant::Spanish, spanish_start, "11-15a", |t| {
            NotationError::NotAMove {
                text: t.text("11-15a"),
            }
            .into()
        }),
        (Variant::Spanish, spanish_start, "x", |_| {
            NotationError::NotAMove { text: "x".into() }.into()
        }),
        (Variant::Spanish, spanish_start, "11.15", |t| {
            NotationError::NotAMove {
                text: t.text("11.15"),
            }
            .into()
        }),
        (Variant::Spanish, spanish_start, "11-33", |_| {
            NotationError::SquareOutOfRange { number: 33 }.into()
        }),
        (Variant::Spanish, spanish_start, "0-4", |_| {
            NotationError::SquareOutOfRange { number: 0 }.into()
        }),
        (
            Variant::Spanish,
            spanish_start,
            "99999999999999999999999x1",
            |_| NotationError::SquareOutOfRange { number: 1_000_000 }.into(),
        ),
        (Variant::Spanish, spanish_start, "11", |t| {
            NotationError::OneSquare { square: t.sq(11) }.into()
        }),
        (Variant::Spanish, spanish_start, "11-", |t| {
            NotationError::OneSquare { square: t.sq(11) }.into()
        }),
        (Variant::Spanish, spanish_start, "13-17", |t| {
            MoveError::NoPiece { square: t.sq(13) }
        }),
        (Variant::Spanish, spanish_start, "21-17", |t| {
            MoveError::OpponentPiece { square: t.sq(21) }
        }),
        (Variant::Spanish, "W:W10:B13,14,21,22", "10x26", |t| {
            MoveError::Ambiguous {
                candidates: t.moves_by_path(&["10x17x26", "10x19x26"]),
            }
        }),
        (Variant::Spanish, "W:W14:B30", "14-10", |t| {
            IllegalMove::ManMovesForwardOnly {
                from: t.sq(14),
                to: t.sq(10),
            }
            .into()
        }),
        (Variant::Spanish, "W:W14:B10,18", "14x5", |t| {
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(14),
                to: t.sq(5),
            }
            .into()
        }),
        (Variant::Spanish, "W:W9,13:B30", "9-13", |t| {
            IllegalMove::TargetOccupied { to: t.sq(13) }.into()
        }),
        (Variant::Spanish, spanish_start, "9-14", |t| {
            IllegalMove::NotReachable {
                from: t.sq(9),
                to: t.sq(14),
            }
            .into()
        }),
        (Variant::English, "B:W32:BK14", "14-23", |t| {
            IllegalMove::ShortKingOneSquare {
                from: t.sq(14),
                to: t.sq(23),
            }
            .into()
        }),
        (Variant::Spanish, "W:W9,12:B15", "9-13", |t| {
            IllegalMove::CaptureMandatory {
                captures: t.moves(&["12x19"]),
            }
            .into()
        }),
        (Variant::Spanish, "W:W9,12:B13,15,23", "9x18", |t| {
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["12x28"]),
            }
            .into()
        }),
        (Variant::Portuguese, "W:W9,12:B13,K15", "9x18", |t| {
            IllegalMove::LawOfQuality {
                best_kings: 1,
                yours_kings: 0,
                keeps: t.moves(&["12x19"]),
            }
            .into()
        }),
        (Variant::English, "B:W14,22:B9", "9x18", |t| {
            IllegalMove::CaptureIncomplete {
                continuations: t.moves(&["9x25"]),
            }
            .into()
        }),
        (Variant::English, "W:W22:B10,18", "22x15x7", |t| {
            IllegalMove::NoSuchCapture {
                from: t.sq(22),
                to: t.sq(7),
            }
            .into()
        }),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (variant, fen, text, expect) in cases {
        check(&[variant], fen, |t| {
            let error = t.err(text);
            assert_eq!(error, expect(t), "{text:?} in {}", t.pos.fen());
            // The explanation gives the same verdict as reading the move.
            let verdict = explain(&t.pos, Some(Attempt::Text(&t.text(text)))).verdict;
            assert_eq!(
                verdict,
                Some(Verdict::Illegal {
                    error: error.clone()
                })
            );
            // And a game refuses it without changing.
            let mut g = t.game();
            assert!(g.play_text(&t.text(text)).is_err());
            assert_eq!(g.ply(), 0);
            seen.insert(kind(&error));
        });
    }
    assert_eq!(seen.len(), KINDS, "kinds reached: {seen:?}");
}

#[test]
fn explain_judges_a_legal_move_with_its_canonical_notation() {
    check(&ENGLISH, "W:W22:B10,18", |t| {
        let e = explain(&t.pos, Some(Attempt::Text(&t.text("22:15:6"))));
        assert_eq!(
            e.verdict,
            Some(Verdict::Legal {
                mv: t.mv("22x6"),
                notation: t.text("22x6")
            })
        );
    });
}

#[test]
fn parse_squares_splits_on_every_separator() {
    let n = |v: &[u8]| v.iter().map(|&x| sq(x)).collect::<Vec<_>>();
    assert_eq!(parse_squares("22x15x6"), Ok(n(&[22, 15, 6])));
    assert_eq!(parse_squares(" 22 - 15 : 6 "), Ok(n(&[22, 15, 6])));
    assert_eq!(parse_squares("22×15X6"), Ok(n(&[22, 15, 6])));
    assert_eq!(parse_squares("9\t13"), Ok(n(&[9, 13])));
    assert_eq!(parse_squares(""), Err(NotationError::Empty));
    assert_eq!(
        parse_squares("32-33"),
        Err(NotationError::SquareOutOfRange { number: 33 })
    );
    assert_eq!(
        parse_squares("5"),
        Err(NotationError::OneSquare { square: sq(5) })
    );
}

// ---------------------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------------------

#[test]
fn fen_errors_say_what_is_wrong() {
    let cases: Vec<(Variant, &str, FenError)> = vec![
        (Variant::Spanish, "", FenError::Empty),
        (Variant::Spanish, "  ", FenError::Empty),
        (
            Variant::Spanish,
            "X:W1:B30",
            FenError::BadSideToMove { found: "X".into() },
        ),
        (
            Variant::Spanish,
            "hello",
            FenError::BadSideToMove {
                found: "hello".into(),
            },
        ),
        (
            Variant::Spanish,
            "W:W33:B30",
            FenError::SquareOutOfRange { number: 33 },
        ),
        (
            Variant::Spanish,
            "W:W0:B30",
            FenError::SquareOutOfRange { number: 0 },
        ),
        (
            Variant::Spanish,
            "W:W30-35:B1",
            FenError::SquareOutOfRange { number: 35 },
        ),
        (
            Variant::Spanish,
            "W:W5,5:B30",
            FenError::SquareTwice { square: sq(5) },
        ),
        (
            Variant::Spanish,
            "W:W5:BK5",
            FenError::SquareTwice { square: sq(5) },
        ),
        (
            Variant::Spanish,
            "W:W1-5:B3",
            FenError::SquareTwice { square: sq(3) },
        ),
        (
            Variant::Spanish,
            "W:W29:B5",
            FenError::ManOnCrowningRow {
                square: sq(29),
                color: Color::White,
            },
        ),
        (
            Variant::Portuguese,
            "W:W5:B1",
            FenError::ManOnCrowningRow {
                square: sq(1),
                color: Color::Black,
            },
        ),
        (
            Variant::English,
            "B:W1:B5",
            FenError::ManOnCrowningRow {
                square: sq(1),
                color: Color::White,
            },
        ),
        (
            Variant::English,
            "B:W20:B30",
            FenError::ManOnCrowningRow {
                square: sq(30),
                color: Color::Black,
            },
        ),
        (
            Variant::Spanish,
            "W:W1-13:B30",
            FenError::TooManyPieces {
                color: Color::White,
                count: 13,
            },
        ),
        (
            Variant::Spanish,
            "W:W5:B20-28,K29,K30,K31,K32",
            FenError::TooManyPieces {
                color: Color::Black,
                count: 13,
            },
        ),
        (
            Variant::Spanish,
            "W:W1:W2",
            FenError::ColorTwice {
                color: Color::White,
            },
        ),
    ];
    for (variant, fen, error) in cases {
        assert_eq!(
            Position::from_fen(variant, fen),
            Err(error),
            "{variant} {fen:?}"
        );
    }
    for (fen, part) in [
        ("W:X1:B2", "X1"),
        ("W:Wab:B2", "ab"),
        ("W:W5-3:B30", "5-3"),
        ("W:WK:B30", "K"),
        ("W:W5,,x:B30", "x"),
        ("W", "W"),
    ] {
        match Position::from_fen(Variant::Spanish, fen) {
            Err(FenError::Malformed { part: p, .. }) => assert_eq!(p, part, "{fen:?}"),
            other => panic!("{fen:?} gave {other:?}"),
        }
    }
}

#[test]
fn fen_reading_is_forgiving_and_writing_is_canonical() {
    let start = Position::start(Variant::Spanish);
    for text in [
        "W:W1-12:B21-32",
        "[FEN \"W:W1-12:B21-32\"]",
        "w:w1-12:b21-32",
        "W:W1-12:B21-32.",
        " W : W1-12 : B21-32 ",
        "W:B21-32:W1-12",
        "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21-32",
    ] {
        assert_eq!(pos(Variant::Spanish, text), start, "{text:?}");
    }
    // Men as ranges when three or more follow each other, then kings.
    for text in [
        "W:W9,10,K14:B21-24,K30",
        "B:W1-3,5,K32:BK11,K12",
        "W:W:B13",
        "B:W18:B",
    ] {
        assert_eq!(pos(Variant::Spanish, text).fen(), text);
    }
    assert_eq!(
        pos(Variant::Spanish, "W:W12,10,11,K14:B").fen(),
        "W:W10-12,K14:B"
    );
}

// ---------------------------------------------------------------------------------------
// PDN
// ---------------------------------------------------------------------------------------

fn tag(pdn: &str, name: &str) -> Option<String> {
    let prefix = format!("[{name} \"");
    pdn.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .map(str::to_string)
}

fn movetext(pdn: &str) -> String {
    pdn.split("\n\n")
        .nth(1)
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn pdn_export_has_the_game_type_the_result_and_numbered_moves() {
    for (variant, game_type, moves, text) in [
        (
            Variant::Spanish,
            "24",
            ["11-15", "24-20", "15x24"],
            "1. 11-15 24-20 2. 15x24",
        ),
        (
            Variant::Portuguese,
            "28",
            ["11-15", "24-20", "15x24"],
            "1. 11-15 24-20 2. 15x24",
        ),
        (
            Variant::English,
            "21",
            ["11-15", "23-19", "9-14"],
            "1. 11-15 23-19 2. 9-14",
        ),
    ] {
        let mut g = Game::new(variant);
        for m in moves {
            g.play_text(m).expect("legal opening moves");
        }
        let pdn = export_pdn(&g, &PdnTags::default());
        assert_eq!(
            tag(&pdn, "GameType").as_deref(),
            Some(game_type),
            "{variant}"
        );
        assert_eq!(tag(&pdn, "Result").as_deref(), Some("*"));
        assert_eq!(tag(&pdn, "FEN"), None);
        assert_eq!(movetext(&pdn), format!("{text} *"));
    }
}

#[test]
fn pdn_results_name_the_first_player_first() {
    let result = |variant: Variant, end: fn(&mut Game)| {
        let mut g = Game::new(variant);
        end(&mut g);
        let pdn = export_pdn(&g, &PdnTags::default());
        let r = tag(&pdn, "Result").expect("a Result tag");
        assert!(movetext(&pdn).ends_with(&r), "{pdn}");
        r
    };
    let white_resigns: fn(&mut Game) = |g| g.resign(Color::White).expect("resign");
    let black_resigns: fn(&mut Game) = |g| g.resign(Color::Black).expect("resign");
    let agree: fn(&mut Game) = |g| g.agree_draw().expect("agree");
    for variant in [Variant::Spanish, Variant::Portuguese] {
        assert_eq!(result(variant, black_resigns), "2-0");
        assert_eq!(result(variant, white_resigns), "0-2");
        assert_eq!(result(variant, agree), "1-1");
    }
    // English: Black moves first.
    assert_eq!(result(Variant::English, white_resigns), "1-0");
    assert_eq!(result(Variant::English, black_resigns), "0-1");
    assert_eq!(result(Variant::English, agree), "1/2-1/2");
}

#[test]
fn pdn_export_of_a_set_up_position_carries_its_fen() {
    // The second player to move first: numbering starts with "1...".
    let start = pos(Variant::Spanish, "B:W9,K30:B24,K3");
    let mut g = Game::from_position(start);
    g.play_text("24-20").expect("legal");
    g.play_text("30x16").expect("legal");
    let pdn = export_pdn(&g, &PdnTags::default());
    assert_eq!(tag(&pdn, "SetUp").as_deref(), Some("1"));
    assert_eq!(tag(&pdn, "FEN").as_deref(), Some("B:W9,K30:B24,K3"));
    assert_eq!(movetext(&pdn), "1... 24-20 2. 30x16 *");
}

#[test]
fn every_variant_exports_a_whole_game_that_replays() {
    // A whole game of first legal moves: the PDN's moves, read back, give the same game.
    for variant in ALL {
        let mut g = Game::new(variant);
        while !g.is_over() && g.ply() < 300 {
            let (mv, _) = damas::engine::legal_notations(g.position())[0];
            g.play(mv).expect("a legal move");
        }
        let pdn = export_pdn(&g, &PdnTags::default());
        let moves: Vec<String> = movetext(&pdn)
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .map(str::to_string)
            .collect();
        let (result, moves) = moves.split_last().expect("a result");
        assert_eq!(
            Some(result.as_str()),
            tag(&pdn, "Result").as_deref(),
            "{variant}"
        );
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let replayed = Game::replay(Position::start(variant), &texts).expect("the PDN replays");
        assert_eq!(replayed.moves(), g.moves());
        assert_eq!(replayed.outcome(), g.outcome());
    }
}
