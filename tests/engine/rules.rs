//! Every statement of RULES.md's "Board" and "Moves" sections, each with its own position,
//! run for both colours (see `crate::support::rules::check`) and every variant it applies to.
//!
//! Diagrams of the positions (Spanish boards as in RULES.md, White at the bottom; English
//! with Black at the top) are drawn in the comments; `w`/`b` are men, `W`/`B` kings.

use crate::support::rules::{check, on_each_board, pos, View, ALL, SPANISH_RULES};
use damas::engine::{
    explain, Bitboard, Color, IllegalMove, Law, MoveError, Position, Role, Square, Variant,
};

const ENGLISH: [Variant; 1] = [Variant::English];

fn illegal(e: IllegalMove) -> MoveError {
    MoveError::Illegal(e)
}

/// `text` is refused for the reason `why`, with its data.
fn assert_refused(t: &View, text: &str, why: IllegalMove) {
    assert_eq!(t.err(text), illegal(why), "{text}");
}

/// The capture options of the explanation as (notation, pieces, kings, allowed, excluded
/// by), notation in the written orientation's numbers, sorted.
type Option5 = (String, u8, u8, bool, Option<Law>);

fn explained(t: &View) -> (Law, Vec<Option5>) {
    let e = explain(&t.pos, None);
    let mut v: Vec<Option5> = e
        .captures
        .iter()
        .map(|c| {
            (
                c.notation.clone(),
                c.pieces,
                c.kings,
                c.allowed,
                c.excluded_by,
            )
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    (e.law, v)
}

fn options(t: &View, list: &[(&str, u8, u8, bool, Option<Law>)]) -> Vec<Option5> {
    let mut v: Vec<Option5> = list
        .iter()
        .map(|(n, p, k, a, l)| (t.text(n), *p, *k, *a, *l))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// The explanation of the position names `law` and lists the captures of `list`.
fn assert_explained(t: &View, law: Law, list: &[(&str, u8, u8, bool, Option<Law>)]) {
    let (named, opts) = explained(t);
    assert_eq!(named, law);
    assert_eq!(opts, options(t, list));
}

fn captured(t: &View, text: &str) -> Vec<u8> {
    let mut v: Vec<u8> = t
        .mv(text)
        .captured()
        .squares()
        .map(|s| s.number())
        .collect();
    v.sort();
    v
}

fn squares(t: &View, list: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = list.iter().map(|&n| t.n(n)).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------
// Board, numbering, orientation
// ---------------------------------------------------------------------------------------

/// RULES.md's two diagrams, as drawn there: White at the bottom in both.
const SPANISH_DIAGRAM: &str = "
 32  .  31  .  30  .  29  .
  .  28  .  27  .  26  .  25
 24  .  23  .  22  .  21  .
  .  20  .  19  .  18  .  17
 16  .  15  .  14  .  13  .
  .  12  .  11  .  10  .   9
  8  .   7  .   6  .   5  .
  .   4  .   3  .   2  .   1";

const ENGLISH_DIAGRAM: &str = "
  .   1  .   2  .   3  .   4
  5  .   6  .   7  .   8  .
  .   9  .  10  .  11  .  12
 13  .  14  .  15  .  16  .
  .  17  .  18  .  19  .  20
 21  .  22  .  23  .  24  .
  .  25  .  26  .  27  .  28
 29  .  30  .  31  .  32  .";

fn diagram_coords(diagram: &str) -> Vec<(u8, (u8, u8))> {
    let rows: Vec<&str> = diagram.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 8);
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.len(), 8, "row {row:?}");
        for (col, cell) in cells.iter().enumerate() {
            if let Ok(n) = cell.parse::<u8>() {
                out.push((n, (col as u8, 7 - i as u8)));
            }
        }
    }
    assert_eq!(out.len(), 32);
    out
}

#[test]
fn squares_sit_where_the_diagrams_of_rules_md_draw_them() {
    for (variant, diagram) in on_each_board(SPANISH_DIAGRAM, ENGLISH_DIAGRAM) {
        for (n, at) in diagram_coords(diagram) {
            let sq = Square::new(n).expect("diagram squares are 1..=32");
            assert_eq!(variant.white_view_coords(sq), at, "{variant} square {n}");
        }
    }
}

#[test]
fn start_positions_put_the_first_player_on_1_to_12() {
    for variant in ALL {
        let start = Position::start(variant);
        let first = variant.first_player();
        assert_eq!(start.side_to_move(), first, "{variant}");
        assert_eq!(start.men(first), Bitboard(0x0000_0FFF), "{variant}");
        assert_eq!(
            start.men(first.opposite()),
            Bitboard(0xFFF0_0000),
            "{variant}"
        );
        assert!(start.all_kings().is_empty());
        assert_eq!(start.fen(), variant.start_fen());
        assert_eq!(pos(variant, variant.start_fen()), start);
    }
    assert_eq!(Variant::Spanish.first_player(), Color::White);
    assert_eq!(Variant::Portuguese.first_player(), Color::White);
    assert_eq!(Variant::English.first_player(), Color::Black);
    assert_eq!(Variant::Spanish.start_fen(), "W:W1-12:B21-32");
    assert_eq!(Variant::English.start_fen(), "B:W21-32:B1-12");
    assert_eq!(Variant::default(), Variant::Spanish);
}

#[test]
fn the_seven_first_moves_are_those_of_rules_md() {
    check(&SPANISH_RULES, "W:W1-12:B21-32", |t| {
        t.assert_legal(&["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]);
    });
    check(&ENGLISH, "B:W21-32:B1-12", |t| {
        t.assert_legal(&["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
    });
}

#[test]
fn the_long_diagonal_runs_1_5_10_14_19_23_28_32() {
    // A lone king on 1 sees the whole gran diagonal and nothing else (1 is a corner).
    check(&SPANISH_RULES, "W:WK1:B29", |t| {
        t.assert_legal(&["1-5", "1-10", "1-14", "1-19", "1-23", "1-28", "1-32"]);
    });
}

#[test]
fn english_corners_are_single_at_4_and_29_and_double_at_1_5_and_28_32() {
    // Kings in each corner; the white man on 18 is out of their reach.
    check(&ENGLISH, "B:W18:BK4", |t| t.assert_legal(&["4-8"]));
    check(&ENGLISH, "B:W18:BK29", |t| t.assert_legal(&["29-25"]));
    check(&ENGLISH, "B:W18:BK1", |t| t.assert_legal(&["1-5", "1-6"]));
    check(&ENGLISH, "B:W18:BK5", |t| t.assert_legal(&["5-1", "5-9"]));
    check(&ENGLISH, "B:W18:BK32", |t| {
        t.assert_legal(&["32-27", "32-28"])
    });
    check(&ENGLISH, "B:W18:BK28", |t| {
        t.assert_legal(&["28-24", "28-32"])
    });
}

// ---------------------------------------------------------------------------------------
// Men
// ---------------------------------------------------------------------------------------

#[test]
fn men_move_one_square_forward_only() {
    //  Spanish: the white man on 14 goes to 18 or 19, never back to 10 or 11.
    check(&SPANISH_RULES, "W:W14:B30", |t| {
        t.assert_legal(&["14-18", "14-19"]);
        for back in ["14-10", "14-11"] {
            let to = back[3..].parse().expect("square");
            assert_refused(
                t,
                back,
                IllegalMove::ManMovesForwardOnly {
                    from: t.sq(14),
                    to: t.sq(to),
                },
            );
        }
        // Two squares along its diagonal is not a man's move either.
        assert_refused(
            t,
            "14-23",
            IllegalMove::NotReachable {
                from: t.sq(14),
                to: t.sq(23),
            },
        );
    });
    // English: Black moves first, from 1-12 towards 29-32.
    check(&ENGLISH, "B:W30:B14", |t| {
        t.assert_legal(&["14-17", "14-18"]);
        assert_refused(
            t,
            "14-9",
            IllegalMove::ManMovesForwardOnly {
                from: t.sq(14),
                to: t.sq(9),
            },
        );
        assert_refused(
            t,
            "14-10",
            IllegalMove::ManMovesForwardOnly {
                from: t.sq(14),
                to: t.sq(10),
            },
        );
    });
}

#[test]
fn men_capture_forward_only_in_every_variant() {
    // Black men on 18 (in front of the white man on 14) and 10 (behind it, with 5 empty):
    // only the forward capture exists.
    check(&SPANISH_RULES, "W:W14:B10,18", |t| {
        t.assert_legal(&["14x21"]);
        assert_refused(
            t,
            "14x5",
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(14),
                to: t.sq(5),
            },
        );
    });
    check(&ENGLISH, "B:W9,17:B14", |t| {
        t.assert_legal(&["14x21"]);
        assert_refused(
            t,
            "14x5",
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(14),
                to: t.sq(5),
            },
        );
    });
    // Nor does a chain turn backwards: after 14x21 the man could jump 17 backwards to 13.
    check(&SPANISH_RULES, "W:W14:B17,18", |t| {
        t.assert_legal(&["14x21"]);
        assert_eq!(captured(t, "14x21"), squares(t, &[18]));
    });
    // A chain written with a backward jump (15x22, then over 18 back to 13, as Russian
    // rules allow) is refused for that rule, not as a capture left undone.
    check(&SPANISH_RULES, "W:W15:B18,19", |t| {
        t.assert_legal(&["15x22"]);
        for written in ["15x13", "15x22x13"] {
            assert_eq!(
                t.err(written),
                illegal(IllegalMove::ManCapturesForwardOnly {
                    from: t.sq(15),
                    to: t.sq(13)
                }),
                "{written}"
            );
        }
    });
    // Two jumps backwards along a diagonal.
    check(&SPANISH_RULES, "W:W23:B10,19", |t| {
        assert_refused(
            t,
            "23x5",
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(23),
                to: t.sq(5),
            },
        );
    });
}

// ---------------------------------------------------------------------------------------
// Kings
// ---------------------------------------------------------------------------------------

#[test]
fn flying_kings_move_any_distance_over_empty_squares() {
    //  32b .  31  .  30  .  29  .
    //   .  28  .  27  .  26  .  25
    //  24  .  23  .  22  .  21  .
    //   .  20  .  19  .  18  .  17
    //  16  .  15  .  14W .  13  .
    //   .  12  .  11  .  10  .   9
    //   8  .   7w .   6  .   5  .
    //   .   4  .   3  .   2  .   1
    // Forwards and backwards along all four diagonals, stopping before its own man on 7
    // and before the black man on 32 (which it cannot take: nothing is behind it).
    check(&SPANISH_RULES, "W:W7,K14:B32", |t| {
        t.assert_legal(&[
            "14-1", "14-5", "14-10", "14-11", "14-18", "14-19", "14-21", "14-23", "14-25", "14-28",
            "7-11", "7-12",
        ]);
        assert_refused(t, "14-32", IllegalMove::TargetOccupied { to: t.sq(32) });
        assert_refused(
            t,
            "14-4",
            IllegalMove::NotReachable {
                from: t.sq(14),
                to: t.sq(4),
            },
        );
    });
}

#[test]
fn english_kings_move_one_square_in_all_four_directions() {
    check(&ENGLISH, "B:W32:BK14", |t| {
        t.assert_legal(&["14-9", "14-10", "14-17", "14-18"]);
        for (text, to) in [("14-23", 23), ("14-5", 5)] {
            assert_refused(
                t,
                text,
                IllegalMove::ShortKingOneSquare {
                    from: t.sq(14),
                    to: t.sq(to),
                },
            );
        }
    });
}

#[test]
fn flying_kings_capture_at_distance_and_land_on_any_square_behind() {
    // King on 1, black man on 14 down the long diagonal: it may land on 19, 23, 28 or 32.
    check(&SPANISH_RULES, "W:WK1:B14", |t| {
        t.assert_legal(&["1x19", "1x23", "1x28", "1x32"]);
        for m in ["1x19", "1x23", "1x28", "1x32"] {
            assert_eq!(captured(t, m), squares(t, &[14]), "{m}");
        }
        assert_refused(
            t,
            "1-10",
            IllegalMove::CaptureMandatory {
                captures: t.moves(&["1x19", "1x23", "1x28", "1x32"]),
            },
        );
        assert_explained(
            t,
            Law::Mandatory,
            &[
                ("1x19", 1, 0, true, None),
                ("1x23", 1, 0, true, None),
                ("1x28", 1, 0, true, None),
                ("1x32", 1, 0, true, None),
            ],
        );
    });
    // Landing squares end at the next piece (its own man on 28).
    check(&SPANISH_RULES, "W:WK1,28:B14", |t| {
        t.assert_legal(&["1x19", "1x23"]);
    });
    // Exactly one piece: two black men in a row (14, 19) cannot be taken.
    check(&SPANISH_RULES, "W:WK1:B14,19", |t| {
        t.assert_legal(&["1-5", "1-10"]);
    });
}

#[test]
fn a_flying_king_must_choose_the_landing_square_from_which_the_capture_goes_on() {
    //   .  28  .  27  .  26  .  25
    //  24  .  23  .  22  .  21  .
    //   .  20b .  19  .  18  .  17
    //  16  .  15  .  14b .  13  .
    //  ...                     1W
    // Over 14 it may land on 19, 23, 28 or 32, but only from 23 can it take 20 as well
    // (landing on 16): the law of quantity leaves 1x16 alone.
    check(&SPANISH_RULES, "W:WK1:B14,20", |t| {
        t.assert_legal(&["1x16"]);
        assert_eq!(t.mv("1x23x16"), t.mv("1x16"));
        assert_refused(
            t,
            "1x23",
            IllegalMove::CaptureIncomplete {
                continuations: t.moves(&["1x16"]),
            },
        );
        assert_refused(
            t,
            "1x32",
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["1x16"]),
            },
        );
        assert_explained(
            t,
            Law::Quantity,
            &[
                ("1x16", 2, 0, true, None),
                ("1x19", 1, 0, false, Some(Law::Quantity)),
                ("1x28", 1, 0, false, Some(Law::Quantity)),
                ("1x32", 1, 0, false, Some(Law::Quantity)),
            ],
        );
    });
}

#[test]
fn english_kings_capture_one_step_in_all_four_directions() {
    // Black king on 14 with white men on its four neighbours and empty squares behind.
    check(&ENGLISH, "B:W9,10,17,18:BK14", |t| {
        t.assert_legal(&["14x5", "14x7", "14x21", "14x23"]);
        let (law, _) = explained(t);
        assert_eq!(law, Law::FreeChoice);
    });
    // Backwards too, but never at distance: the white man on 23 is two squares away (written
    // as a capture, there is no such capture).
    check(&ENGLISH, "B:W10,23:BK14", |t| {
        t.assert_legal(&["14x7"]);
        assert_refused(
            t,
            "14x27",
            IllegalMove::NoSuchCapture {
                from: t.sq(14),
                to: t.sq(27),
            },
        );
    });
}

// ---------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------

#[test]
fn capturing_is_mandatory() {
    // White men on 9 and 12; 12 can take 15, so 9-13 and 12-16 are illegal.
    check(&SPANISH_RULES, "W:W9,12:B15", |t| {
        t.assert_legal(&["12x19"]);
        for quiet in ["9-13", "12-16"] {
            assert_eq!(
                t.err(quiet),
                illegal(IllegalMove::CaptureMandatory {
                    captures: t.moves(&["12x19"])
                }),
                "{quiet}"
            );
        }
        let e = explain(&t.pos, None);
        assert_eq!(e.law, Law::Mandatory);
        assert!(e.forced());
        assert_eq!(explained(t).1, options(t, &[("12x19", 1, 0, true, None)]));
    });
    check(&ENGLISH, "B:W18:B9,14", |t| {
        t.assert_legal(&["14x23"]);
        assert_refused(
            t,
            "9-13",
            IllegalMove::CaptureMandatory {
                captures: t.moves(&["14x23"]),
            },
        );
        assert_eq!(explained(t).0, Law::FreeChoice);
    });
}

#[test]
fn a_capture_chain_goes_on_to_its_end_and_cannot_stop_half_way() {
    // 10 takes 14 landing on 19, then must take 22 landing on 26.
    check(&SPANISH_RULES, "W:W10:B14,22", |t| {
        t.assert_legal(&["10x26"]);
        assert_eq!(t.mv("10x19x26"), t.mv("10x26"));
        assert_eq!(captured(t, "10x26"), squares(t, &[14, 22]));
        assert_refused(
            t,
            "10x19",
            IllegalMove::CaptureIncomplete {
                continuations: t.moves(&["10x26"]),
            },
        );
        // The explanation lists whole chains only, never the first jump alone.
        assert_eq!(explained(t).1, options(t, &[("10x26", 2, 0, true, None)]));
    });
    check(&ENGLISH, "B:W14,22:B9", |t| {
        t.assert_legal(&["9x25"]);
        assert_refused(
            t,
            "9x18",
            IllegalMove::CaptureIncomplete {
                continuations: t.moves(&["9x25"]),
            },
        );
    });
}

#[test]
fn captured_pieces_stay_until_the_end_and_block_a_flying_king() {
    // A Turkish strike refused. King on 14, black men on 11 and 21 on the same diagonal
    // 4-7-11-14-18-21-25. After taking 11 (landing on 7 or 4) the king would come back up
    // through 11 and 14 to take 21 if 11 were already gone; it is not, so each capture
    // takes one man.
    check(&SPANISH_RULES, "W:WK14:B11,21", |t| {
        t.assert_legal(&["14x4", "14x7", "14x25"]);
        assert_eq!(captured(t, "14x7"), squares(t, &[11]));
        assert_refused(
            t,
            "14x7x25",
            IllegalMove::NoSuchCapture {
                from: t.sq(14),
                to: t.sq(25),
            },
        );
    });
    // On the long diagonal: king on 21 takes 18 landing on 14, on the gran diagonal.
    // From there it takes 10 going down (to 5 or 1) or 19 going up (to 23, 28 or 32),
    // never both: coming back along the diagonal it meets the man it has just taken.
    check(&SPANISH_RULES, "W:WK21:B10,18,19", |t| {
        t.assert_legal(&["21x1", "21x5", "21x23", "21x28", "21x32"]);
        assert_eq!(captured(t, "21x5"), squares(t, &[10, 18]));
        assert_eq!(captured(t, "21x23"), squares(t, &[18, 19]));
        assert_eq!(explain(&t.pos, None).max_pieces, 2);
    });
}

#[test]
fn a_piece_is_never_jumped_twice() {
    // The king on 1 lands behind 14 and could fly back over it: 14 is not taken again.
    check(&SPANISH_RULES, "W:WK1:B14", |t| {
        for m in t.pos.legal_moves() {
            assert_eq!(m.capture_count(), 1, "{m:?}");
        }
    });
    // The English king on 14 jumps 18 to 23; jumping 18 back to its empty start square
    // would take it twice.
    check(&ENGLISH, "B:W18:BK14", |t| {
        t.assert_legal(&["14x23"]);
        assert_eq!(captured(t, "14x23"), squares(t, &[18]));
    });
}

#[test]
fn empty_squares_may_be_crossed_more_than_once() {
    // King on 26 around the square of black men 10, 11, 18, 19: 26 over 19 to 15, over 11
    // to 6, over 10 to 13, over 18 to 22, 27 or 31 — crossing 22 a second time.
    check(&SPANISH_RULES, "W:WK26:B10,11,18,19", |t| {
        t.assert_legal(&["26x22", "26x27", "26x31"]);
        for m in ["26x22", "26x27", "26x31"] {
            assert_eq!(captured(t, m), squares(t, &[10, 11, 18, 19]), "{m}");
        }
    });
    // King on 10: 10 over 13 to 17, over 21 to 30, over 27 to 23, then back down the long
    // diagonal through its own start square 10, over 5, to 1.
    check(&SPANISH_RULES, "W:WK10:B5,13,21,27", |t| {
        t.assert_legal(&["10x1"]);
        assert_eq!(captured(t, "10x1"), squares(t, &[5, 13, 21, 27]));
    });
    // An English king round a diamond of four men comes back to its own square.
    check(&ENGLISH, "B:W17,18,25,26:BK14", |t| {
        t.assert_legal(&["14x14"]);
        assert_eq!(captured(t, "14x14"), squares(t, &[17, 18, 25, 26]));
        let after = t.pos.apply(&t.mv("14x14"));
        assert_eq!(t.role_at(&after, 14), Some((Color::Black, Role::King)));
        assert!(after.pieces(t.color(Color::White)).is_empty());
    });
}

#[test]
fn a_man_crowned_during_a_capture_stops_there() {
    // 23 takes 27 and lands on 30, White's last row. As a king it could go on down
    // 30-26-21 and take 21, but the move ends on 30.
    check(&SPANISH_RULES, "W:W23:B21,27", |t| {
        t.assert_legal(&["23x30"]);
        assert_refused(
            t,
            "23x30x17",
            IllegalMove::NoSuchCapture {
                from: t.sq(23),
                to: t.sq(17),
            },
        );
        let m = t.mv("23x30");
        assert!(t.pos.crowns(&m));
        let after = t.pos.apply(&m);
        assert_eq!(t.role_at(&after, 30), Some((Color::White, Role::King)));
        assert_eq!(t.role_at(&after, 27), None);
        assert_eq!(t.role_at(&after, 21), Some((Color::Black, Role::Man)));
        assert_eq!(after.side_to_move(), t.color(Color::Black));
    });
    // English: 22 takes 26 landing on 31; the new king could take 27 next, but not now.
    check(&ENGLISH, "B:W26,27:B22", |t| {
        t.assert_legal(&["22x31"]);
        let after = t.pos.apply(&t.mv("22x31"));
        assert_eq!(t.role_at(&after, 31), Some((Color::Black, Role::King)));
        assert_eq!(t.role_at(&after, 27), Some((Color::White, Role::Man)));
    });
}

#[test]
fn a_man_ending_any_move_on_the_last_row_is_crowned() {
    check(&SPANISH_RULES, "W:W25:B13", |t| {
        t.assert_legal(&["25-29"]);
        let m = t.mv("25-29");
        assert!(t.pos.crowns(&m));
        let after = t.pos.apply(&m);
        assert_eq!(t.role_at(&after, 29), Some((Color::White, Role::King)));
    });
    check(&ENGLISH, "B:W12:B27", |t| {
        t.assert_legal(&["27-31", "27-32"]);
        for m in ["27-31", "27-32"] {
            let after = t.pos.apply(&t.mv(m));
            let to = m[3..].parse().expect("square");
            assert_eq!(t.role_at(&after, to), Some((Color::Black, Role::King)));
        }
    });
    // A man that does not reach the row stays a man.
    check(&ALL, "W:W18:B13", |t| {
        let m = t.pos.legal_moves()[0];
        assert!(!t.pos.crowns(&m));
        assert_eq!(
            t.pos.apply(&m).piece_at(m.to()).map(|p| p.role),
            Some(Role::Man)
        );
    });
}

#[test]
fn a_newly_crowned_king_moves_on_its_owners_next_turn() {
    // 25-29 crowns; the turn passes; next time the king flies down 29-26-22-19-15-12-8.
    check(&SPANISH_RULES, "W:W25:B13", |t| {
        let mut g = t.game();
        t.play(&mut g, "25-29");
        assert_eq!(g.side_to_move(), t.color(Color::Black));
        t.play(&mut g, "13-9");
        let legal = View {
            pos: *g.position(),
            flipped: t.flipped,
        }
        .legal();
        for m in ["29-25", "29-26", "29-8"] {
            assert!(legal.contains(&t.text(m)), "{m} in {legal:?}");
        }
    });
    // English: the new king on 31 may step backwards next turn.
    check(&ENGLISH, "B:W12:B27", |t| {
        let mut g = t.game();
        t.play(&mut g, "27-31");
        t.play(&mut g, "12-8");
        let legal = View {
            pos: *g.position(),
            flipped: t.flipped,
        }
        .legal();
        assert!(legal.contains(&t.text("31-26")), "{legal:?}");
        assert!(legal.contains(&t.text("31-27")), "{legal:?}");
    });
}

// ---------------------------------------------------------------------------------------
// The capture laws
// ---------------------------------------------------------------------------------------

#[test]
fn law_of_quantity_keeps_the_captures_taking_most_pieces() {
    // 9 can take 13 (one man); 12 can take 15 and 23 (two men).
    check(&SPANISH_RULES, "W:W9,12:B13,15,23", |t| {
        t.assert_legal(&["12x28"]);
        assert_refused(
            t,
            "9x18",
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["12x28"]),
            },
        );
        assert_explained(
            t,
            Law::Quantity,
            &[
                ("12x28", 2, 0, true, None),
                ("9x18", 1, 0, false, Some(Law::Quantity)),
            ],
        );
    });
}

#[test]
fn english_has_no_law_of_quantity_or_quality() {
    // The same shape on the English board: 9x18 takes one man, 12x28 two; both allowed.
    check(&ENGLISH, "B:W14,16,24:B9,12", |t| {
        t.assert_legal(&["9x18", "12x28"]);
        assert_explained(
            t,
            Law::FreeChoice,
            &[("12x28", 2, 0, true, None), ("9x18", 1, 0, true, None)],
        );
    });
    // One man or one king: both allowed.
    check(&ENGLISH, "B:W14,K16:B9,12", |t| {
        t.assert_legal(&["9x18", "12x19"]);
    });
}

#[test]
fn english_free_choice_but_the_chosen_capture_is_completed() {
    check(&ENGLISH, "B:W14,16,24:B9,12", |t| {
        assert_refused(
            t,
            "12x19",
            IllegalMove::CaptureIncomplete {
                continuations: t.moves(&["12x28"]),
            },
        );
        assert_eq!(t.mv("9x18").capture_count(), 1);
    });
}

#[test]
fn law_of_quality_keeps_the_captures_taking_most_kings() {
    // 9 takes the man on 13, 12 takes the king on 15: one piece each, the king goes.
    check(&SPANISH_RULES, "W:W9,12:B13,K15", |t| {
        t.assert_legal(&["12x19"]);
        assert_refused(
            t,
            "9x18",
            IllegalMove::LawOfQuality {
                best_kings: 1,
                yours_kings: 0,
                keeps: t.moves(&["12x19"]),
            },
        );
        assert_explained(
            t,
            Law::Quality,
            &[
                ("12x19", 1, 1, true, None),
                ("9x18", 1, 0, false, Some(Law::Quality)),
            ],
        );
    });
}

#[test]
fn law_of_quality_counts_the_kings() {
    // Three captures of two pieces: 9x25 takes kings 13 and 21; 9x27 takes king 13 and man
    // 22; 12x26 takes king 15 and man 22. Two kings beat one.
    check(&SPANISH_RULES, "W:W9,12:B22,K13,K15,K21", |t| {
        t.assert_legal(&["9x25"]);
        for (text, yours) in [("9x27", 1), ("12x26", 1)] {
            assert_eq!(
                t.err(text),
                illegal(IllegalMove::LawOfQuality {
                    best_kings: 2,
                    yours_kings: yours,
                    keeps: t.moves(&["9x25"])
                }),
                "{text}"
            );
        }
        let e = explain(&t.pos, None);
        assert_eq!((e.law, e.max_pieces, e.max_kings), (Law::Quality, 2, 2));
    });
}

#[test]
fn law_of_quality_applies_only_after_quantity() {
    // 12x19 takes a king, 9x25 two men: two pieces beat one king.
    check(&SPANISH_RULES, "W:W9,12:B13,21,K15", |t| {
        t.assert_legal(&["9x25"]);
        assert_refused(
            t,
            "12x19",
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["9x25"]),
            },
        );
        assert_explained(
            t,
            Law::Quantity,
            &[
                ("9x25", 2, 0, true, None),
                ("12x19", 1, 1, false, Some(Law::Quantity)),
            ],
        );
    });
    // Both laws at once: 24x31 (one king) falls to quantity, 9x27 (two men) to quality,
    // 12x26 (king and man) remains.
    check(&SPANISH_RULES, "W:W9,12,24:B13,22,K15,K28", |t| {
        t.assert_legal(&["12x26"]);
        assert_refused(
            t,
            "24x31",
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["12x26"]),
            },
        );
        assert_refused(
            t,
            "9x27",
            IllegalMove::LawOfQuality {
                best_kings: 1,
                yours_kings: 0,
                keeps: t.moves(&["12x26"]),
            },
        );
        let e = explain(&t.pos, None);
        assert_eq!((e.law, e.max_pieces, e.max_kings), (Law::Quality, 2, 1));
        assert_eq!(
            explained(t).1,
            options(
                t,
                &[
                    ("12x26", 2, 1, true, None),
                    ("9x27", 2, 0, false, Some(Law::Quality)),
                    ("24x31", 1, 1, false, Some(Law::Quantity)),
                ]
            )
        );
    });
}

#[test]
fn among_what_the_laws_leave_the_choice_is_free() {
    // Two men, one capture each.
    check(&SPANISH_RULES, "W:W9,12:B13,15", |t| {
        t.assert_legal(&["9x18", "12x19"]);
        assert_eq!(explained(t).0, Law::Mandatory);
    });
    // A man or a king: which piece captures does not matter.
    check(&SPANISH_RULES, "W:W14,K18:B13,19", |t| {
        t.assert_legal(&["14x23", "18x9"]);
    });
    // One man, two chains of two.
    check(&SPANISH_RULES, "W:W10:B14,22,23", |t| {
        t.assert_legal(&["10x26", "10x28"]);
    });
}

#[test]
fn sequences_with_the_same_start_end_and_captures_are_one_move() {
    // King on 8, black men on 15 and 26 on its diagonal 8-12-15-19-22-26-29: it can land
    // on 19 or 22 between them, and both routes end on 29 having taken the same two men.
    check(&SPANISH_RULES, "W:WK8:B15,26", |t| {
        t.assert_legal(&["8x29"]);
        assert_eq!(t.pos.legal_moves().len(), 1);
        assert_eq!(damas::engine::perft(&t.pos, 1), 1);
        assert_eq!(captured(t, "8x29"), squares(t, &[15, 26]));
    });
    // An English king round a diamond, clockwise or not: one move.
    check(&ENGLISH, "B:W17,18,25,26:BK14", |t| {
        assert_eq!(t.pos.legal_moves().len(), 1);
        assert_eq!(damas::engine::perft(&t.pos, 1), 1);
    });
    // Different captured pieces are different moves, even from and to the same squares.
    check(&SPANISH_RULES, "W:W10:B13,14,21,22", |t| {
        t.assert_legal(&["10x17x26", "10x19x26"]);
    });
    check(&ENGLISH, "B:W14,15,22,23:B10", |t| {
        t.assert_legal(&["10x17x26", "10x19x26"]);
    });
}

// ---------------------------------------------------------------------------------------
// The common mistakes of docs/RULES.md
// ---------------------------------------------------------------------------------------

#[test]
fn common_mistake_capturing_backwards_with_a_man() {
    // "Querer comer para atrás con un peón. No se puede. Solo la dama come en las cuatro
    // direcciones." The white man on 14 has a black man behind it (10, with 5 empty).
    check(&SPANISH_RULES, "W:W14:B10", |t| {
        t.assert_legal(&["14-18", "14-19"]);
        assert_refused(
            t,
            "14x5",
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(14),
                to: t.sq(5),
            },
        );
        assert_eq!(explained(t).0, Law::NoCapture);
    });
    // A king on the same square does capture backwards (and must).
    check(&SPANISH_RULES, "W:WK14:B10", |t| {
        t.assert_legal(&["14x1", "14x5"]);
    });
    check(&ENGLISH, "B:W9:B14", |t| {
        t.assert_legal(&["14-17", "14-18"]);
        assert_refused(
            t,
            "14x5",
            IllegalMove::ManCapturesForwardOnly {
                from: t.sq(14),
                to: t.sq(5),
            },
        );
    });
    check(&ENGLISH, "B:W9:BK14", |t| t.assert_legal(&["14x5"]));
}

#[test]
fn common_mistake_choosing_the_small_capture() {
    // "Elegir la captura chica. Si hay una que se lleva más, es obligatoria, aunque la otra
    // te convenga." 22x29 would crown, but 9x25 takes two men.
    check(&SPANISH_RULES, "W:W9,22:B13,21,26", |t| {
        t.assert_legal(&["9x25"]);
        assert_refused(
            t,
            "22x29",
            IllegalMove::LawOfQuantity {
                best: 2,
                yours: 1,
                keeps: t.moves(&["9x25"]),
            },
        );
    });
}

#[test]
fn common_mistake_believing_that_keeping_pieces_is_enough() {
    // "Creer que quedarse con piezas alcanza. El que no puede mover pierde." Black has
    // three men to White's two, all blocked: Black, to move, has lost.
    use damas::engine::{Outcome, WinReason};
    let blocked_win = |t: &View| {
        assert!(t.pos.legal_moves().is_empty());
        assert_eq!(
            t.game().outcome(),
            Some(Outcome::Win {
                winner: t.color(Color::White),
                reason: WinReason::NoMoves
            })
        );
    };
    check(&SPANISH_RULES, "B:W3,4:B7,8,12", blocked_win);
    check(&ENGLISH, "B:W31,32:B24,27,28", blocked_win);
    // Reached by a move: the king's 11-7 shuts in the black men on 8 and 12.
    check(&SPANISH_RULES, "W:W3,4,K11:B8,12", |t| {
        let mut g = t.game();
        t.play(&mut g, "11-7");
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win {
                winner: t.color(Color::White),
                reason: WinReason::NoMoves
            })
        );
    });
}
