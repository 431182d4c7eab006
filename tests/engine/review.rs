//! Game review: a move that walks into a known shot is a blunder refuted by the shot, a forced
//! move is never judged, the pool's review is the same as the one on the calling thread, the
//! budgets are kept (counted in nodes).

use crate::support::search::long_game;
use damas::ai::{
    review, review_in_pool, MoveClass, ReviewError, ReviewOptions, SearchLimits, SearchPool,
    HARD_NODES,
};
use damas::engine::{Color, Game, Position, Variant};

/// Spanish, White to move, level material. After 4-7?? Black sacrifices one man to take two:
/// 19-14, 10x19 (forced), 22x8 — the classic two-for-one shot.
const BEFORE_SHOT: &str = "W:W1-5,9-12:B18,19,22,25,26,29-32";

fn game_from(fen: &str, moves: &[&str]) -> Game {
    let start = match Position::from_fen(Variant::Spanish, fen) {
        Ok(p) => p,
        Err(e) => panic!("bad test FEN {fen}: {e}"),
    };
    match Game::replay(start, moves) {
        Ok(g) => g,
        Err((i, e)) => panic!("move {i} of the test game is illegal: {e}"),
    }
}

fn nodes(n: u64) -> SearchLimits {
    SearchLimits {
        time: None,
        nodes: Some(n),
        depth: None,
    }
}

/// Budgets small enough for a test's CPU, the deeper one ten times the quick one.
fn small() -> ReviewOptions {
    ReviewOptions {
        quick: nodes(20_000),
        deep: nodes(200_000),
        deep_positions: 6,
        ..ReviewOptions::default()
    }
}

fn reviewed(game: &Game) -> damas::ai::Review {
    match review(game, &small(), |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("review failed: {e}"),
    }
}

#[test]
fn a_move_that_allows_a_shot_is_a_blunder_refuted_by_the_shot() {
    let game = game_from(BEFORE_SHOT, &["4-7", "19-14", "10x19", "22x8"]);
    let r = reviewed(&game);
    let blunder = &r.plies[0];
    assert_eq!(blunder.mover, Color::White);
    assert_eq!(blunder.played_text, "4-7");
    assert_eq!(blunder.class, MoveClass::Blunder, "{blunder:?}");
    assert!(blunder.deep, "judged by the deeper pass: {blunder:?}");
    assert!(
        blunder.allowed_shot,
        "the refutation is a shot: {blunder:?}"
    );
    assert_ne!(blunder.best, blunder.played);
    let start = game.positions()[1];
    assert_eq!(
        blunder.refutation.first().map(|m| start.move_notation(m)),
        Some("19-14".to_string()),
        "the refutation starts with the sacrifice"
    );
    // Before the move the game was level; after it Black is winning.
    assert!(blunder.eval_before.abs() < 100, "{}", blunder.eval_before);
    assert!(blunder.eval_after < -150, "{}", blunder.eval_after);
    // Black's shot was the best move: no error charged to Black for it.
    assert!(matches!(
        r.plies[1].class,
        MoveClass::Best | MoveClass::Good
    ));
    let white = r.player(Color::White);
    assert_eq!(white.blunders, 1);
    assert_eq!(white.biggest_swing, Some(0));
    assert!(white.accuracy < 50.0, "{}", white.accuracy);
    assert_eq!(r.evals.len(), game.ply() + 1);
}

#[test]
fn the_only_legal_move_is_never_a_mistake() {
    let game = game_from(BEFORE_SHOT, &["4-7", "19-14", "10x19", "22x8"]);
    // 10x19 is White's only legal move, and it loses: still an "only move".
    assert_eq!(game.positions()[2].count_legal_moves(), 1);
    let r = reviewed(&game);
    let forced = &r.plies[2];
    assert_eq!(forced.class, MoveClass::OnlyMove);
    assert_eq!(forced.loss, 0.0);
    assert!(!forced.missed_shot && !forced.allowed_shot);
    // Its evaluation is the searched one of the position after it, not a static guess.
    assert_eq!(forced.eval_before, forced.eval_after);
    assert!(forced.eval_after < -150);
    let white = r.player(Color::White);
    assert_eq!(white.mistakes + white.inaccuracies, 0);
}

#[test]
fn a_missed_shot_is_named() {
    // Black to move can play the shot 19-14; 30-27 instead lets it go.
    let game = game_from(BEFORE_SHOT, &["4-7", "30-27"]);
    let r = reviewed(&game);
    let missed = &r.plies[1];
    assert!(
        matches!(missed.class, MoveClass::Mistake | MoveClass::Blunder),
        "{missed:?}"
    );
    assert!(missed.missed_shot, "{missed:?}");
    assert_eq!(missed.best_text, "19-14");
    assert_eq!(r.player(Color::Black).missed_shots, 1);
}

#[test]
fn a_game_without_moves_is_refused() {
    let game = Game::new(Variant::Spanish);
    assert_eq!(
        review(&game, &ReviewOptions::default(), |_, _| {}),
        Err(ReviewError::NoMoves)
    );
}

#[test]
fn the_pool_gives_the_same_review_and_reports_progress() {
    let game = game_from(BEFORE_SHOT, &["4-7", "19-14", "10x19", "22x8", "5-10"]);
    assert_eq!(ReviewOptions::default().quick.nodes, Some(HARD_NODES));
    let options = small();
    let here = reviewed(&game);
    let deep_searched = here.deep_positions;
    let pool = SearchPool::new(2, 32);
    let mut seen = Vec::new();
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(r) => r,
        Err(e) => panic!("no runtime: {e}"),
    };
    let pooled = runtime
        .block_on(review_in_pool(&pool, &game, &options, |done, total| {
            seen.push((done, total))
        }))
        .map_err(|e| e.to_string());
    assert_eq!(pooled, Ok(here));
    // One report per search, in order: every position with a choice (the forced 10x19 is
    // not searched) once quickly, then the deeper pass's; the total is the most there can
    // be, and the last report says the review is done.
    let positions = game.positions();
    let quick = (0..positions.len())
        .filter(|&i| {
            let moves = positions[i].count_legal_moves();
            moves > 1 || (i == game.ply() && moves > 0)
        })
        .count();
    assert!(quick < positions.len());
    let searches = quick + deep_searched;
    assert!(deep_searched > 0, "the blunder is looked at again");
    let most = quick + options.deep_positions.min(quick);
    let mut expected: Vec<(usize, usize)> = (1..=searches).map(|d| (d, most)).collect();
    if searches < most {
        expected.push((searches, searches));
    }
    assert_eq!(seen, expected);
}

/// The budgets are counts of nodes, never of time: a review visits at most the quick budget
/// for each position with a choice and the deep one for at most `deep_positions` of them.
#[test]
fn the_review_keeps_to_its_node_budgets() {
    let game = long_game(Variant::Spanish, 60);
    let options = ReviewOptions {
        quick: nodes(5_000),
        deep: nodes(40_000),
        deep_positions: 4,
        ..ReviewOptions::default()
    };
    let r = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    let positions = game.positions();
    let searched = (0..positions.len())
        .filter(|&i| {
            let moves = positions[i].count_legal_moves();
            moves > 1 || (i == game.ply() && moves > 0)
        })
        .count();
    assert!(r.deep_positions <= 4, "{} deep searches", r.deep_positions);
    let budget = options.node_budget(searched).unwrap_or(0);
    assert!(
        r.nodes > 0 && r.nodes <= budget,
        "{} nodes of {budget}",
        r.nodes
    );
    // The quick pass alone keeps to the quick budget.
    let quick_only = ReviewOptions {
        deep_positions: 0,
        ..options
    };
    let q = match review(&game, &quick_only, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(q.deep_positions, 0);
    assert!(q.nodes <= 5_000 * searched as u64, "{} nodes", q.nodes);
}

/// English, two kings against one, with endgame tables built for it: the review is exact.
#[test]
fn a_win_thrown_away_in_a_tables_ending_is_a_blunder_and_exactly_so() {
    use damas::ai::egdb::{generate, GenerateOptions, Material};
    use damas::ai::{EndgameTables, EndgameVerdict};
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let built = generate(
        &GenerateOptions {
            variant: Variant::English,
            pieces: 3,
            dir: dir.path().to_path_buf(),
            threads: 1,
            force: false,
            only: Some(vec![Material::new(0, 2, 0, 1)]),
        },
        |_| {},
    );
    if let Err(e) = built {
        panic!("{e}");
    }
    let tables = EndgameTables::open(dir.path());
    // White (the second player in English) wins, but 18-14 lets the lone king take a king: a
    // draw. Black answers with the capture, White plays on.
    let start = match Position::from_fen(Variant::English, "W:WK18,K26:BK10") {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let game = match Game::replay(start, &["18-14", "10x17", "26-23"]) {
        Ok(g) => g,
        Err((i, e)) => panic!("move {i}: {e}"),
    };
    let options = ReviewOptions {
        endgame_tables: Some(tables),
        ..ReviewOptions::default()
    };
    let r = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    // Verdicts are from White's side, as every score: won, then drawn after White's slip.
    let slip = &r.plies[0];
    assert!(
        matches!(slip.exact_before, Some(EndgameVerdict::Win { .. })),
        "{slip:?}"
    );
    assert_eq!(slip.exact_after, Some(EndgameVerdict::Draw), "{slip:?}");
    assert_eq!(slip.class, MoveClass::Blunder, "{slip:?}");
    assert!(
        slip.eval_before > damas::ai::TABLE_BOUND,
        "{}",
        slip.eval_before
    );
    assert_eq!(slip.eval_after, 0);
    assert_eq!(r.plies[2].exact_before, Some(EndgameVerdict::Draw));
    // The command line's review says it in words.
    let lines = damas::cli::review_cmds::review_lines(&game, &r);
    assert!(
        lines[0].contains("White wins (endgame tables)") && lines[0].contains("→ drawn"),
        "{}",
        lines[0]
    );
}

/// Scores are from White's side in every variant, and read in words: in English draughts,
/// where Black moves first, Black's win is a negative score and "Black has won", never a
/// "+W" that reads as White's.
#[test]
fn scores_are_from_whites_side_even_where_black_moves_first() {
    use damas::ai::{read_eval, EvalReading};
    use damas::app::i18n::{eval_text, Lang};
    let start = match Position::from_fen(Variant::English, "B:W22:B14,18") {
        Ok(p) => p,
        Err(e) => panic!("bad test FEN: {e}"),
    };
    let game = match Game::replay(start, &["18x25"]) {
        Ok(g) => g,
        Err((i, e)) => panic!("move {i} is illegal: {e}"),
    };
    let r = reviewed(&game);
    assert_eq!(r.plies[0].mover, Color::Black);
    assert!(r.evals.iter().all(|&e| e < 0), "{:?}", r.evals);
    assert_eq!(
        read_eval(r.plies[0].eval_after),
        EvalReading::Win {
            winner: Color::Black,
            moves: 0
        }
    );
    assert_eq!(eval_text(Lang::En, r.plies[0].eval_after), "Black has won");
    assert_eq!(
        eval_text(Lang::Es, r.plies[0].eval_after),
        "han ganado las negras"
    );
}

/// English endgame tables for two kings against two (and what they lead to), built in the
/// test's temporary folder.
fn kings_tables(dir: &std::path::Path) -> damas::ai::EndgameTables {
    use damas::ai::egdb::{generate, GenerateOptions, Material};
    let built = generate(
        &GenerateOptions {
            variant: Variant::English,
            pieces: 4,
            dir: dir.to_path_buf(),
            threads: 1,
            force: false,
            only: Some(vec![Material::new(0, 2, 0, 2)]),
        },
        |_| {},
    );
    if let Err(e) = built {
        panic!("{e}");
    }
    damas::ai::EndgameTables::open(dir)
}

/// The first of a few two-kings-against-two positions, White to move, where the tables
/// hold a drawing move and a losing one, with both moves.
fn draw_and_loss(
    tables: &damas::ai::EndgameTables,
) -> (Game, damas::engine::Move, damas::engine::Move) {
    use damas::ai::EndgameVerdict;
    for (w1, w2, b1, b2) in [(14, 15, 22, 23), (18, 19, 10, 11), (17, 21, 9, 10)] {
        let fen = format!("W:WK{w1},K{w2}:BK{b1},K{b2}");
        let Ok(start) = Position::from_fen(Variant::English, &fen) else {
            continue;
        };
        let game = Game::from_position(start);
        let Some(rated) = tables.rate_moves(&game) else {
            continue;
        };
        let draw = rated.iter().find(|(_, v)| *v == EndgameVerdict::Draw);
        let loss = rated
            .iter()
            .find(|(_, v)| matches!(v, EndgameVerdict::Loss { .. }));
        if let (Some((d, _)), Some((l, _))) = (draw, loss) {
            return (game, *d, *l);
        }
    }
    panic!("none of the test's positions has both a drawing and a losing move");
}

/// A game whose loser threw the draw away in a position the endgame tables hold, played to
/// its end by the tables' moves: the losing move is a blunder, proven so.
#[test]
fn a_lost_games_losing_move_the_tables_prove_is_a_blunder() {
    use damas::ai::EndgameVerdict;
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let tables = kings_tables(dir.path());
    let (mut game, _, losing) = draw_and_loss(&tables);
    assert!(game.play(losing).is_ok());
    while !game.is_over() && game.ply() < 200 {
        let Some((mv, _, _)) = tables.best_move(&game, |_| 0) else {
            panic!("the tables do not hold ply {} of the test game", game.ply());
        };
        assert!(game.play(mv).is_ok());
    }
    assert_eq!(
        game.outcome().and_then(|o| o.winner()),
        Some(Color::Black),
        "the tables win the ending for Black"
    );
    let options = ReviewOptions {
        endgame_tables: Some(tables),
        ..small()
    };
    let r = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    let slip = &r.plies[0];
    assert_eq!(slip.mover, Color::White);
    assert_eq!(slip.class, MoveClass::Blunder, "{slip:?}");
    assert_eq!(slip.exact_before, Some(EndgameVerdict::Draw), "{slip:?}");
    assert!(
        matches!(slip.exact_after, Some(EndgameVerdict::Loss { .. })),
        "{slip:?}"
    );
    assert_ne!(slip.best, slip.played);
    // The rest of the game is the tables' best play: no other error, on either side.
    assert_eq!(
        r.errors().count(),
        1,
        "{:?}",
        r.errors().collect::<Vec<_>>()
    );
}

/// English, a king and a man against a king, without endgame tables: both sides shuffle until
/// the position has stood three times. Where the search scores White better without proving
/// the win, a move it then scores as drawn (a position's return) gives nothing away; only
/// where it proved the win is letting the draw happen an error.
#[test]
fn a_draw_is_charged_only_against_a_proven_win() {
    let start = match Position::from_fen(Variant::English, "W:WK29,32:BK3") {
        Ok(p) => p,
        Err(e) => panic!("bad test FEN: {e}"),
    };
    let game = match Game::replay(
        start,
        &[
            "29-25", "3-7", "25-29", "7-3", "29-25", "3-7", "25-29", "7-3",
        ],
    ) {
        Ok(g) => g,
        Err((i, e)) => panic!("move {i} of the test game is illegal: {e}"),
    };
    assert!(
        matches!(
            game.outcome(),
            Some(damas::engine::Outcome::Draw {
                reason: damas::engine::DrawReason::Repetition
            })
        ),
        "{:?}",
        game.outcome()
    );
    // Searches too small to prove the win (at 20,000 nodes and more Expert proves it from the
    // second position on, and then every draw is rightly an error).
    let options = ReviewOptions {
        quick: nodes(2_000),
        deep_positions: 0,
        endgame_tables: Some(damas::ai::EndgameTables::none()),
        ..small()
    };
    let r = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    let proven = |p: &damas::ai::PlyReview| {
        p.eval_before.abs() > damas::ai::TABLE_BOUND || p.exact_before.is_some()
    };
    for p in r.errors() {
        assert!(proven(p), "an error without a proven win: {p:?}");
    }
    // White's moves the search scored as drawn from an edge it had not proven: not errors.
    let unproven_draws: Vec<_> = r
        .plies
        .iter()
        .filter(|p| p.mover == Color::White && p.eval_after == 0)
        .filter(|p| p.eval_before > 50 && !proven(p))
        .collect();
    assert!(!unproven_draws.is_empty(), "{:?}", r.plies);
    for p in unproven_draws {
        assert!(!p.class.is_error(), "{p:?}");
    }
}

/// In a decided game whose loser the quick and deep passes name nothing against, the
/// verifying pass searches the played and the best move of the loser's positions at a budget
/// of its own, within its count of searches; a game without a winner gets no such pass.
#[test]
fn the_verifying_pass_looks_only_at_a_decided_games_loser_within_its_budget() {
    let mut game = long_game(Variant::Spanish, 40);
    let options = ReviewOptions {
        quick: nodes(5_000),
        deep: nodes(20_000),
        deep_positions: 2,
        verify: nodes(30_000),
        verify_searches: 6,
        ..ReviewOptions::default()
    };
    let unfinished = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(unfinished.verified_positions, 0);
    assert!(unfinished.plies.iter().all(|p| !p.verified));
    // A side the passes name no mistake against resigns (if there is one: else the side to
    // move, and the verifying pass has nothing to add).
    let errors = |c: Color| unfinished.player(c).mistakes + unfinished.player(c).blunders;
    let loser = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| errors(c) == 0)
        .unwrap_or(game.position().side_to_move());
    assert!(game.resign(loser).is_ok());
    let decided = match review(&game, &options, |_, _| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    let named = decided.player(loser).mistakes + decided.player(loser).blunders;
    let before = unfinished.player(loser).mistakes + unfinished.player(loser).blunders;
    if before == 0 {
        assert!(decided.verified_positions > 0, "nothing verified");
    }
    assert!(
        decided.verified_positions <= 3,
        "two searches a position, 6 at most"
    );
    for p in decided.plies.iter().filter(|p| p.verified) {
        assert_eq!(p.mover, loser, "{p:?}");
        assert!(p.deep);
    }
    assert!(named >= before);
    let positions = game.positions();
    let searched = (0..positions.len())
        .filter(|&i| {
            let moves = positions[i].count_legal_moves();
            moves > 1 || (i == game.ply() && moves > 0)
        })
        .count();
    let budget = options.node_budget(searched).unwrap_or(0);
    assert!(
        decided.nodes <= budget,
        "{} nodes of {budget}",
        decided.nodes
    );
}
