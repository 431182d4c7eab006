//! RULES.md's "End of the game": wins, resignation, and every row of the draw table, for
//! both colours (see `crate::support::rules::check`) and each variant a rule applies to.

use crate::support::rules::{check, on_each_board, play_quiet, Mover, View, ALL, SPANISH_RULES};
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
    for (variant, roomy) in on_each_board(SPANISH_ROOMY, ENGLISH_ROOMY) {
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

// ---------------------------------------------------------------------------------------
// A record of a game played elsewhere is followed as it was played.

#[test]
fn a_record_goes_on_where_live_play_declares_a_draw() {
    // Kings shuffling: live play draws at the third repetition; a record of the same moves
    // goes on, and says where live play would have stopped.
    let start = crate::support::rules::pos(Variant::Spanish, "W:WK1,10:BK32,23");
    let moves = [
        "1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1", "28-32", "10-14",
    ];
    let mut live = Game::from_position(start);
    let mut record = Game::from_record(start);
    for (i, m) in moves.iter().enumerate() {
        let live_result = live.play_text(m);
        if i < 8 {
            assert!(live_result.is_ok(), "{m}");
        } else {
            assert_eq!(live_result, Err(GameError::Over));
        }
        record.play_text(m).expect("a record goes on");
    }
    assert_eq!(live.outcome(), draw(DrawReason::Repetition));
    assert_eq!(live.unclaimed_draw(), None);
    assert_eq!(record.outcome(), None);
    assert_eq!(record.ply(), 9);
    assert_eq!(record.unclaimed_draw(), Some((8, DrawReason::Repetition)));
    // Taking back past that ply forgets it.
    for _ in 0..2 {
        record.undo().expect("undo");
    }
    assert_eq!(record.unclaimed_draw(), None);
    // The no-progress count runs past its limit in a record, and a win still ends it.
    let mut kings = Game::from_record(crate::support::rules::pos(
        Variant::Spanish,
        "W:WK1,10:BK32,23",
    ));
    for i in 0..60 {
        let m = if i % 4 < 2 {
            ["1-5", "32-28"]
        } else {
            ["5-1", "28-32"]
        }[i % 2];
        kings.play_text(m).expect("kings shuffle on");
    }
    assert_eq!(kings.outcome(), None);
    assert_eq!(kings.unclaimed_draw(), Some((8, DrawReason::Repetition)));
    assert_eq!(kings.no_progress_plies(), 60);
}

/// The real game records of `../shared/pdn` (its SOURCES.md says where each comes from), read
/// in place and never copied into the repository: each test runs where the archive is there
/// (`support::shared_data`). The reader's own tests on files of the repository are in
/// `pdn_files.rs`.
mod archives {
    use crate::support::rules::reference;
    use damas::engine::{
        decode_pdn, export_pdn, read_pdn, DrawReason, GameError, IllegalMove, MoveError, PdnError,
        PdnRecord, PdnRefusal, PdnResult, Position, Square, Variant,
    };
    use std::io::Read;

    /// The text of `../shared/pdn/<name>`, unpacked and decoded; `None` (the test skipped)
    /// when it is not there.
    fn archive(name: &str) -> Option<String> {
        let path = crate::support::shared_data(&format!("pdn/{name}"))?;
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut text = Vec::new();
        if name.ends_with(".zip") {
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
            let mut member = zip.by_index(0).expect("its one member");
            member.read_to_end(&mut text).expect("the member inflates");
        } else if name.ends_with(".bz2") {
            bzip2::read::BzDecoder::new(&bytes[..])
                .read_to_end(&mut text)
                .expect("the file decompresses");
        } else {
            text = bytes;
        }
        Some(decode_pdn(&text).into_owned())
    }

    fn split(
        games: impl Iterator<Item = Result<PdnRecord, PdnRefusal>>,
    ) -> (Vec<PdnRecord>, Vec<PdnRefusal>) {
        let (mut read, mut refused) = (Vec::new(), Vec::new());
        for g in games {
            match g {
                Ok(r) => read.push(r),
                Err(e) => refused.push(e),
            }
        }
        (read, refused)
    }

    #[test]
    fn every_open_checkers_archive_game_reads_to_its_end_and_round_trips() {
        let Some(text) = archive("OCA_2.0.zip") else {
            return;
        };
        let (read, refused) = split(read_pdn(&text, Variant::English));
        assert!(refused.is_empty(), "{:?}", refused.first());
        assert_eq!(read.len(), 22_621);
        for r in &read {
            // Games that end on the board end as their record says.
            if let Some(winner) = r.game.outcome().and_then(|o| o.winner()) {
                assert_eq!(r.result, Some(PdnResult::Win(winner)), "game {}", r.number);
            }
        }
        // Games followed past a third repetition (a claim, not an automatic end, under the
        // federations' rules): the ply noted is the first third occurrence of a position,
        // counted here from the positions themselves.
        let mut went_on = 0;
        for r in &read {
            let positions = r.game.positions();
            let third = (0..positions.len()).find(|&i| {
                positions[..=i]
                    .iter()
                    .filter(|p| **p == positions[i])
                    .count()
                    >= 3
            });
            match r.game.unclaimed_draw() {
                Some((ply, DrawReason::Repetition)) => assert_eq!(Some(ply), third),
                Some((ply, _)) => assert!(third.map_or(true, |t| t >= ply)),
                None => assert_eq!(third, None, "game {}", r.number),
            }
            went_on += usize::from(third.is_some_and(|t| t < r.game.ply()));
        }
        // As the issue that asked for this counted them with another program.
        assert_eq!(went_on, 38);
        // Round trip: what damas writes, all of it in one file, reads back as the same games.
        let exported: String = read
            .iter()
            .map(|r| export_pdn(&r.game, &r.pdn_tags()) + "\n")
            .collect();
        let (back, refused) = split(read_pdn(&exported, Variant::English));
        assert!(refused.is_empty(), "{:?}", refused.first());
        assert_eq!(back.len(), read.len());
        for (a, b) in read.iter().zip(&back) {
            assert_eq!(a.game.moves(), b.game.moves(), "game {}", a.number);
            assert_eq!(a.game.start_position(), b.game.start_position());
            assert_eq!(a.result, b.result, "game {}", a.number);
            // Tags (a missing Round is written "-"), result, moves: written again, the same.
            assert_eq!(
                export_pdn(&b.game, &b.pdn_tags()),
                export_pdn(&a.game, &a.pdn_tags()),
                "game {}",
                a.number
            );
            assert_eq!(a.tag("White"), b.tag("White"));
            assert_eq!(a.tag("Event"), b.tag("Event"));
        }
    }

    #[test]
    fn tinsleys_games_read_but_for_three_whose_text_is_broken() {
        let Some(text) = archive("tinsley.pdn") else {
            return;
        };
        let (read, refused) = split(read_pdn(&text, Variant::English));
        assert_eq!(read.len() + refused.len(), 724);
        let named: Vec<(usize, String, String)> = refused
            .iter()
            .map(|r| match &r.error {
                PdnError::Move {
                    label, text, error, ..
                } => (r.number, format!("{label} {text}"), format!("{error:?}")),
                other => (r.number, String::new(), format!("{other:?}")),
            })
            .collect();
        // Game 541 (Tinsley v Long, Petal 1981, game 18): move 62 moves a king from 32 that
        // stands on 28 since move 60. Games 623 and 693: a note glued to the last move
        // without braces ("8-11Redoversteppedthetimecontrolonthismove.").
        assert_eq!(named.len(), 3, "{named:?}");
        assert_eq!((named[0].0, named[0].1.as_str()), (541, "62. 32-28"));
        assert!(named[0].2.contains("NoPiece"), "{named:?}");
        assert_eq!(named[1].0, 623);
        assert!(named[1].1.starts_with("16. 8-11Red"), "{named:?}");
        assert_eq!(named[2].0, 693);
        assert!(named[2].1.starts_with("17... 26-22White"), "{named:?}");
        for n in &named[1..] {
            assert!(n.2.contains("NotAMove"), "{named:?}");
        }
    }

    #[test]
    fn the_championship_without_move_numbers_or_results_reads() {
        let Some(text) = archive("British_Computer_Championship_2002.pdn.bz2") else {
            return;
        };
        let (read, refused) = split(read_pdn(&text, Variant::English));
        assert!(refused.is_empty(), "{:?}", refused.first());
        assert_eq!(read.len(), 16);
        for r in &read {
            assert!(r.game.ply() > 20, "game {}", r.number);
            // No result tokens: the Result tag gives it.
            assert_eq!(r.result.map(|x| x.text(Variant::English)), r.tag("Result"));
            assert_eq!(r.tag("Event"), Some("British Computer Championship"));
        }
    }

    /// A square of a Russian record (a1 a playing square, files a–h) on the Spanish board,
    /// mirrored files a↔h, found through the reference's own coordinates.
    fn russian_square(name: &str) -> u8 {
        let b = name.as_bytes();
        let (file, rank) = ((b[0] - b'a') as i8, (b[1] - b'1') as i8);
        (1..=32u8)
            .find(|&n| reference::coords(Variant::Spanish, n) == (7 - file, rank))
            .unwrap_or_else(|| panic!("{name} is not a playing square"))
    }

    /// How the Spanish rules see a record's move, judged by the reference generator.
    #[derive(Debug, PartialEq)]
    enum Verdict {
        /// A man's capture that jumps backwards (legal in Russian draughts).
        ManCapturesBackwards,
        /// A capture the laws of quantity or quality exclude.
        ExcludedCapture,
        /// None of these: the move is not there at all.
        Other,
    }

    fn route_fits(from: u8, path: &[u8], written: &[u8]) -> bool {
        let ends = from == written[0] && path.last() == written.last();
        let mut landings = path.iter();
        ends && written[1..written.len() - 1]
            .iter()
            .all(|w| landings.any(|l| l == w))
    }

    /// Follows a Russian game with the reference generator: the ply at which Spanish rules
    /// first forbid its move, and why; `None` if every move is legal.
    fn reference_stop(moves: &[Vec<u8>]) -> Option<(usize, Verdict)> {
        let mut pos = Position::start(Variant::Spanish);
        for (ply, written) in moves.iter().enumerate() {
            let keys = reference::legal_keys(&pos);
            let routes = reference::capture_routes(&pos);
            let fits: Vec<_> = keys
                .iter()
                .filter(|(from, to, captured)| {
                    if captured.is_empty() {
                        *from == written[0] && *to == *written.last().unwrap() && written.len() == 2
                    } else {
                        routes.iter().any(|r| {
                            r.key() == (*from, *to, captured.clone())
                                && route_fits(r.from, &r.path, written)
                        })
                    }
                })
                .collect();
            if fits.len() != 1 {
                let backwards = reference::capture_routes_men_both_ways(&pos)
                    .iter()
                    .any(|r| {
                        route_fits(r.from, &r.path, written)
                            && !routes.iter().any(|f| f.from == r.from && f.path == r.path)
                    });
                let excluded = routes.iter().any(|r| route_fits(r.from, &r.path, written));
                let verdict = if backwards {
                    Verdict::ManCapturesBackwards
                } else if excluded {
                    Verdict::ExcludedCapture
                } else {
                    Verdict::Other
                };
                return Some((ply, verdict));
            }
            let (from, to, captured) = fits[0];
            let mv = pos
                .legal_moves()
                .into_iter()
                .find(|m| {
                    let mut taken: Vec<u8> = m.captured().squares().map(Square::number).collect();
                    taken.sort();
                    (m.from().number(), m.to().number(), taken) == (*from, *to, captured.clone())
                })
                .expect("the engine has the reference's legal move");
            pos = pos.apply(&mv);
        }
        None
    }

    /// The moves of each game of the Russian file, as square numbers, read without the
    /// engine's reader.
    fn russian_moves(text: &str) -> Vec<Vec<Vec<u8>>> {
        text.split("[Event")
            .skip(1)
            .map(|game| {
                // The first line is the rest of the Event tag.
                let movetext = game
                    .lines()
                    .skip(1)
                    .filter(|l| !l.starts_with('['))
                    .collect::<Vec<_>>();
                movetext
                    .join(" ")
                    .split_whitespace()
                    .filter(|w| !w.ends_with('.') && w.contains(['-', 'x']) && !w.contains('/'))
                    .filter(|w| w.as_bytes()[0].is_ascii_lowercase())
                    .map(|w| w.split(['-', 'x', ':']).map(russian_square).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn russian_games_stop_exactly_where_spanish_rules_forbid_their_move() {
        let Some(text) = archive("abatsiev.pdn.bz2") else {
            return;
        };
        let games: Vec<_> = read_pdn(&text, Variant::Spanish).collect();
        let expected = russian_moves(&text);
        assert_eq!(games.len(), 198);
        assert_eq!(expected.len(), 198);
        let (mut backwards, mut excluded) = (0, 0);
        for (game, moves) in games.iter().zip(&expected) {
            match (game, reference_stop(moves)) {
                (Ok(r), None) => assert_eq!(r.game.ply(), moves.len(), "game {}", r.number),
                (Err(refusal), Some((ply, verdict))) => {
                    let PdnError::Move { ply: at, error, .. } = &refusal.error else {
                        panic!("{refusal}");
                    };
                    assert_eq!(*at, ply + 1, "{refusal}");
                    let illegal = match error {
                        GameError::Move(MoveError::Illegal(i)) => Some(i),
                        _ => None,
                    };
                    match verdict {
                        Verdict::ManCapturesBackwards => {
                            backwards += 1;
                            assert!(
                                matches!(illegal, Some(IllegalMove::ManCapturesForwardOnly { .. })),
                                "{refusal}"
                            );
                        }
                        Verdict::ExcludedCapture => {
                            excluded += 1;
                            assert!(
                                matches!(
                                    illegal,
                                    Some(
                                        IllegalMove::LawOfQuantity { .. }
                                            | IllegalMove::LawOfQuality { .. }
                                    )
                                ),
                                "{refusal}"
                            );
                        }
                        Verdict::Other => {}
                    }
                }
                (game, stop) => panic!("the engine says {game:?}, the reference {stop:?}"),
            }
        }
        // Both Russian habits Spanish forbids come up, each named by its rule.
        assert!(backwards > 100 && excluded > 0, "{backwards} {excluded}");
    }
}
