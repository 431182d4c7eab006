//! RULES.md's "End of the game": wins, resignation, and every row of the draw table, for
//! both colours (see `common::check`) and each variant a rule applies to.

mod common;

use common::{check, play_quiet, Mover, View, ALL, SPANISH_RULES};
use damas::engine::{Color, DrawReason, Game, GameError, Outcome, Variant, WinReason};
use Mover::{King, Man};

const ENGLISH: [Variant; 1] = [Variant::English];

fn win(t: &View, winner: Color, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: t.color(winner),
        reason,
    })
}

fn draw(reason: DrawReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

fn play_all(t: &View, g: &mut Game, moves: &[&str]) {
    for m in moves {
        assert_eq!(g.outcome(), None, "the game ended before {m}");
        t.play(g, m);
    }
}

// ---------------------------------------------------------------------------------------
// Wins and resignation
// ---------------------------------------------------------------------------------------

#[test]
fn taking_the_last_piece_wins() {
    check(&SPANISH_RULES, "W:W9:B13", |t| {
        let mut g = t.game();
        t.play(&mut g, "9x18");
        assert_eq!(g.outcome(), win(t, Color::White, WinReason::NoPieces));
        assert_eq!(
            g.outcome().and_then(|o| o.winner()),
            Some(t.color(Color::White))
        );
    });
    check(&ENGLISH, "B:W14:B9", |t| {
        let mut g = t.game();
        t.play(&mut g, "9x18");
        assert_eq!(g.outcome(), win(t, Color::Black, WinReason::NoPieces));
    });
    // A position whose side to move has no piece is already lost.
    check(&ALL, "W:W:B13", |t| {
        assert_eq!(
            t.game().outcome(),
            win(t, Color::Black, WinReason::NoPieces)
        );
    });
}

#[test]
fn a_side_with_pieces_but_no_move_loses() {
    // Black men on 7, 8 and 12 against White's 3 and 4: nothing can move or capture.
    check(&SPANISH_RULES, "B:W3,4:B7,8,12", |t| {
        assert_eq!(t.game().outcome(), win(t, Color::White, WinReason::NoMoves));
    });
    check(&ENGLISH, "B:W31,32:B24,27,28", |t| {
        assert_eq!(t.game().outcome(), win(t, Color::White, WinReason::NoMoves));
    });
    // An English king in the single corner 4, shut in by men on 8 and 11.
    check(&ENGLISH, "B:W8,11:BK4", |t| {
        assert!(t.pos.legal_moves().is_empty());
        assert_eq!(t.game().outcome(), win(t, Color::White, WinReason::NoMoves));
    });
}

#[test]
fn a_player_may_resign() {
    for variant in ALL {
        for loser in [Color::White, Color::Black] {
            let mut g = Game::new(variant);
            g.resign(loser).expect("a running game can be resigned");
            assert_eq!(
                g.outcome(),
                Some(Outcome::Win {
                    winner: loser.opposite(),
                    reason: WinReason::Resignation
                })
            );
            assert_eq!(g.play_text("11-15"), Err(GameError::Over));
            assert_eq!(g.resign(loser.opposite()), Err(GameError::Over));
            assert_eq!(g.undo(), Err(GameError::Over));
        }
    }
}

#[test]
fn a_draw_may_be_agreed() {
    for variant in ALL {
        let mut g = Game::new(variant);
        g.play_text("11-15").expect("a first move");
        g.agree_draw().expect("a running game can be drawn");
        assert_eq!(g.outcome(), draw(DrawReason::Agreement));
        assert_eq!(g.play_text("22-18"), Err(GameError::Over));
        assert_eq!(g.agree_draw(), Err(GameError::Over));
    }
}

// ---------------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------------

#[test]
fn the_same_position_with_the_same_side_to_move_a_third_time_is_a_draw() {
    let shuffle = |moves: [&'static str; 4]| {
        move |t: &View| {
            let mut g = t.game();
            play_all(t, &mut g, &moves);
            assert_eq!(g.repetitions(), 2);
            play_all(t, &mut g, &moves[..3]);
            assert_eq!(g.outcome(), None);
            t.play(&mut g, moves[3]);
            assert_eq!(g.repetitions(), 3);
            assert_eq!(g.outcome(), draw(DrawReason::Repetition));
        }
    };
    check(
        &SPANISH_RULES,
        "W:WK1:BK29",
        shuffle(["1-5", "29-25", "5-1", "25-29"]),
    );
    check(
        &ENGLISH,
        "B:WK32:BK1",
        shuffle(["1-5", "32-28", "5-1", "28-32"]),
    );
}

#[test]
fn the_same_squares_with_the_other_side_to_move_are_not_a_repetition() {
    // The white king goes round the triangle 1-5-10-1 while the black king swings
    // 29-25-29: the starting squares come back every three moves, with the other side to
    // move every other time. (Kings that step one square change the parity of their row at
    // every move, so in English the same squares never come back with the other side to
    // move.)
    check(&SPANISH_RULES, "W:WK1:BK29", |t| {
        let cycle = [
            "1-5", "29-25", "5-10", "25-29", "10-1", "29-25", "1-5", "25-29", "5-10", "29-25",
            "10-1", "25-29",
        ];
        let mut g = t.game();
        play_all(t, &mut g, &cycle);
        let start = *g.start_position();
        let same_squares = g
            .positions()
            .iter()
            .filter(|p| p.with_side_to_move(start.side_to_move()) == start)
            .count();
        assert_eq!(same_squares, 3);
        assert_eq!(g.repetitions(), 2);
        assert_eq!(g.outcome(), None);
        // The next cycle brings the start, White to move, for the third time.
        play_all(t, &mut g, &cycle[..11]);
        assert_eq!(g.outcome(), None);
        t.play(&mut g, cycle[11]);
        assert_eq!(g.outcome(), draw(DrawReason::Repetition));
    });
}

// ---------------------------------------------------------------------------------------
// The no-progress counts
// ---------------------------------------------------------------------------------------

/// Kings and men of both sides with room to wander.
const SPANISH_ROOMY: &str = "W:W9,K30:B24,K3";
const ENGLISH_ROOMY: &str = "B:W24,K19:B9,K14";

/// (no-progress plies, moves left, outcome) after each ply of the game, the start first.
fn history(g: &Game) -> Vec<(u16, u16, Option<Outcome>)> {
    let mut replay = Game::from_position(*g.start_position());
    let mut out = vec![(0, replay.no_progress_moves_left(), replay.outcome())];
    for m in g.moves() {
        replay.play(*m).expect("the game's own moves replay");
        out.push((
            replay.no_progress_plies(),
            replay.no_progress_moves_left(),
            replay.outcome(),
        ));
    }
    out
}

#[test]
fn spanish_draw_after_40_plies_of_king_moves_only() {
    check(&[Variant::Spanish], SPANISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(40, King)]);
        let h = history(&g);
        assert_eq!(h[0], (0, 20, None));
        assert_eq!(h[1], (1, 20, None));
        assert_eq!(h[2], (2, 19, None));
        assert_eq!(h[25], (25, 8, None));
        assert_eq!(h[39], (39, 1, None));
        assert_eq!(h[40].2, draw(DrawReason::NoProgress));
    });
}

#[test]
fn spanish_a_man_move_restarts_the_count() {
    check(&[Variant::Spanish], SPANISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(30, King), (1, Man), (40, King)]);
        let h = history(&g);
        assert_eq!(h[30].0, 30);
        assert_eq!(h[31], (0, 20, None));
        assert_eq!(h[70], (39, 1, None));
        assert_eq!(h[71].2, draw(DrawReason::NoProgress));
    });
}

#[test]
fn portuguese_a_man_move_does_not_restart_the_count() {
    check(&[Variant::Portuguese], SPANISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(20, King), (1, Man), (18, King), (1, Man)]);
        let h = history(&g);
        assert_eq!(h[21].0, 21);
        assert_eq!(h[39], (39, 1, None));
        assert_eq!(h[40].2, draw(DrawReason::NoProgress));
    });
}

/// The search reads how far back a position may repeat from the same counters the game
/// keeps: a man move cuts the history even where it does not restart the no-progress count.
#[test]
fn a_man_move_cuts_the_history_a_position_can_repeat_in_every_variant() {
    for (variant, roomy) in [
        (Variant::Spanish, SPANISH_ROOMY),
        (Variant::Portuguese, SPANISH_ROOMY),
        (Variant::English, ENGLISH_ROOMY),
    ] {
        check(&[variant], roomy, |t| {
            let mut g = t.game();
            play_quiet(&mut g, &[(6, King), (1, Man), (3, King)]);
            let mut replay = Game::from_position(*g.start_position());
            let mut counters = vec![replay.draw_counters()];
            for m in g.moves() {
                replay.play(*m).expect("the game's own moves replay");
                counters.push(replay.draw_counters());
            }
            assert_eq!(counters[6].reversible_plies(), 6);
            assert_eq!(counters[6].no_progress_plies(), 6);
            assert_eq!(counters[7].reversible_plies(), 0);
            let restarts = variant != Variant::Portuguese;
            assert_eq!(
                counters[7].no_progress_plies(),
                if restarts { 0 } else { 7 }
            );
            assert_eq!(counters[7].draw(variant), None);
            assert_eq!(counters[10].reversible_plies(), 3);
        });
    }
}

#[test]
fn english_draw_after_80_plies_without_capture_or_man_move() {
    check(&ENGLISH, ENGLISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(80, King)]);
        let h = history(&g);
        assert_eq!(h[0], (0, 40, None));
        assert_eq!(h[50], (50, 15, None));
        assert_eq!(h[79], (79, 1, None));
        assert_eq!(h[80].2, draw(DrawReason::NoProgress));
    });
}

#[test]
fn english_a_man_move_restarts_the_count() {
    check(&ENGLISH, ENGLISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(60, King), (1, Man), (80, King)]);
        let h = history(&g);
        assert_eq!(h[60].0, 60);
        assert_eq!(h[61], (0, 40, None));
        assert_eq!(h[140], (79, 1, None));
        assert_eq!(h[141].2, draw(DrawReason::NoProgress));
    });
}

#[test]
fn a_capture_restarts_the_count_in_every_variant() {
    // White's king steps to 5; Black's king on 29 blunders onto the long diagonal at 19;
    // the white king takes it. Black keeps a king on 31 and a man on 24.
    check(&SPANISH_RULES, "W:W9,K1:B24,K29,K31", |t| {
        let mut g = t.game();
        play_all(t, &mut g, &["1-5", "29-19"]);
        assert_eq!(g.no_progress_plies(), 2);
        t.play(&mut g, "5x23");
        assert_eq!(g.no_progress_plies(), 0);
        let limit = g.variant().no_progress_limit() as usize;
        play_quiet(&mut g, &[(limit, King)]);
        let h = history(&g);
        assert_eq!(h[3 + limit - 1].2, None);
        assert_eq!(h[3 + limit].2, draw(DrawReason::NoProgress));
    });
    // English: Black's king walks 1-6-10 next to the white man on 14, which takes it.
    check(&ENGLISH, "B:W14,K32:B12,K1,K30", |t| {
        let mut g = t.game();
        play_all(t, &mut g, &["1-6", "32-28", "6-10"]);
        assert_eq!(g.no_progress_plies(), 3);
        t.play(&mut g, "14x7");
        assert_eq!(g.no_progress_plies(), 0);
        play_quiet(&mut g, &[(80, King)]);
        let h = history(&g);
        assert_eq!(h[4 + 79], (79, 1, None));
        assert_eq!(h[4 + 80].2, draw(DrawReason::NoProgress));
    });
}

#[test]
fn undo_restores_the_counts() {
    check(&[Variant::Spanish], SPANISH_ROOMY, |t| {
        let mut g = t.game();
        play_quiet(&mut g, &[(40, King)]);
        assert_eq!(g.outcome(), draw(DrawReason::NoProgress));
        g.undo().expect("a no-progress draw can be taken back");
        assert_eq!((g.no_progress_plies(), g.outcome()), (39, None));
    });
}

// ---------------------------------------------------------------------------------------
// Spanish: three kings against one
// ---------------------------------------------------------------------------------------

/// White kings on 10 (on the long diagonal), 18 and 21; the black king on 25 swings to 29
/// and back. White's king from 10 tours squares the black king cannot take it on, without
/// ever repeating a position, and comes to 8 on its twelfth move.
const THREE_KINGS: &str = "W:WK10,K18,K21:BK25";
const TWELVE_MOVES: [&str; 24] = [
    "10-32", "25-29", "32-28", "29-25", "28-31", "25-29", "31-27", "29-25", "27-30", "25-29",
    "30-23", "29-25", "23-20", "25-29", "20-24", "29-25", "24-11", "25-29", "11-14", "29-25",
    "14-4", "25-29", "4-8", "29-25",
];

#[test]
fn spanish_three_kings_against_one_draw_after_13_moves() {
    check(&[Variant::Spanish], THREE_KINGS, |t| {
        let mut g = t.game();
        assert_eq!(
            g.three_kings_moves_left(),
            Some((t.color(Color::White), 13))
        );
        play_all(t, &mut g, &TWELVE_MOVES[..2]);
        assert_eq!(
            g.three_kings_moves_left(),
            Some((t.color(Color::White), 12))
        );
        play_all(t, &mut g, &TWELVE_MOVES[2..]);
        assert_eq!(g.three_kings_moves_left(), Some((t.color(Color::White), 1)));
        assert_eq!(g.outcome(), None);
        t.play(&mut g, "8-12");
        assert_eq!(g.outcome(), draw(DrawReason::ThreeKings));
    });
}

#[test]
fn spanish_three_kings_win_on_the_thirteenth_move_counts() {
    // 8-29 shuts the black king on 25 in (29 taken, 21 guarded by 18): a win, not a draw.
    check(&[Variant::Spanish], THREE_KINGS, |t| {
        let mut g = t.game();
        play_all(t, &mut g, &TWELVE_MOVES);
        t.play(&mut g, "8-29");
        assert_eq!(g.outcome(), win(t, Color::White, WinReason::NoMoves));
    });
}

#[test]
fn spanish_three_kings_count_starts_on_the_long_diagonal() {
    // No king on 1-5-10-14-19-23-28-32: no count yet. 2-5 steps onto it: 13 moves from now.
    check(&[Variant::Spanish], "W:WK2,K3,K4:BK29", |t| {
        let mut g = t.game();
        assert_eq!(g.three_kings_moves_left(), None);
        t.play(&mut g, "2-5");
        assert_eq!(
            g.three_kings_moves_left(),
            Some((t.color(Color::White), 13))
        );
    });
    // Three kings and a man against one king is not the special ending.
    check(&[Variant::Spanish], "W:W9,K1,K2,K3:BK29", |t| {
        assert_eq!(t.game().three_kings_moves_left(), None);
    });
    // Nor is three kings against a king and a man.
    check(&[Variant::Spanish], "W:WK1,K2,K3:B24,K29", |t| {
        assert_eq!(t.game().three_kings_moves_left(), None);
    });
}

#[test]
fn portuguese_and_english_have_no_three_kings_rule() {
    check(&[Variant::Portuguese], THREE_KINGS, |t| {
        let mut g = t.game();
        assert_eq!(g.three_kings_moves_left(), None);
        play_all(t, &mut g, &TWELVE_MOVES);
        t.play(&mut g, "8-12");
        assert_eq!(g.outcome(), None);
    });
    check(&ENGLISH, "B:WK29:BK1,K2,K3", |t| {
        let mut g = t.game();
        assert_eq!(g.three_kings_moves_left(), None);
        play_quiet(&mut g, &[(40, King)]);
        assert_eq!(g.outcome(), None);
        assert_eq!(g.three_kings_moves_left(), None);
    });
}
