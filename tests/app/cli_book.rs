//! `damas book build` and `damas book show` run as a program, and `damas review` naming book
//! moves; bad input is a message with exit code 2 and writes nothing.

use crate::support::cli::{ok, user_error};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pdn/book.pdn");

/// `damas book build`'s arguments for the English fixture, writing `out`, then `more`.
fn build_english<'a>(out: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let args = [
        "book",
        "build",
        "--variant",
        "english",
        FIXTURE,
        "--out",
        out,
    ];
    [&args[..], more].concat()
}

#[test]
fn book_build_counts_the_games_and_show_lists_the_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("book.bin");
    let out_text = out.to_str().expect("a UTF-8 path");
    let said = ok(&build_english(out_text, &["--min-games", "2"]));
    assert!(
        said.starts_with("5 games counted (1 repeated another, 1 without a result, 1 from a set-up position, 0 unreadable); 4 positions of 2+ games within 40 plies;"),
        "{said}"
    );
    let shown = ok(&["book", "show", "--book", out_text, "11-15", "23-19"]);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines,
        [
            "8-11: 2 games, +1 =1 -0  score 62%",
            "9-14: 1 game, +0 =1 -0  score 50%"
        ],
        "{shown}"
    );
    assert_eq!(
        ok(&["book", "show", "--book", out_text, "9-14"]).trim(),
        "not in the book"
    );
}

#[test]
fn book_commands_refuse_bad_input_with_a_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("book.bin");
    let out_text = out.to_str().expect("a UTF-8 path");
    let err = user_error(&build_english(
        out_text,
        &["--plies", "2", "--skip-plies", "2"],
    ));
    assert!(
        err.contains("--skip-plies 2 leaves nothing of --plies 2"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
    let err = user_error(&["book", "show", "--book", FIXTURE]);
    assert!(err.contains("not an opening book"), "{err}");
    let err = user_error(&["book", "show", "11-16", "11-15"]);
    assert!(err.contains("move 2 \"11-15\""), "{err}");
}

#[test]
fn review_names_the_book_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = dir.path().join("game.pdn");
    std::fs::write(
        &pdn,
        "[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n",
    )
    .expect("temp file written");
    let pdn = pdn.to_str().expect("a UTF-8 path");
    let out = ok(&["review", "--pdn", pdn]);
    let first = out.lines().nth(1).expect("a line for the first ply");
    assert!(first.contains("; book"), "{out}");
    let json: Value = serde_json::from_str(&ok(&["review", "--pdn", pdn, "--json"])).expect("JSON");
    assert_eq!(json["plies"][0]["book"], true, "{json}");
    assert!(
        !["inaccuracy", "mistake", "blunder"]
            .contains(&json["plies"][0]["class"].as_str().unwrap_or("")),
        "{json}"
    );
}

/// `damas tune selfplay --book-plies`: games for a book, whose deep plies `damas book build`
/// counts; a zero budget is refused and writes nothing.
#[test]
fn self_play_grows_games_a_book_is_built_from() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("sp.pdn");
    let games_text = games.to_str().expect("a UTF-8 path");
    let selfplay = |book_nodes: &'static str| {
        vec![
            "tune",
            "selfplay",
            "--variant",
            "portuguese",
            "--games",
            "3",
            "--random-plies",
            "0",
            "--book-plies",
            "2",
            "--book-nodes",
            book_nodes,
            "--nodes",
            "200",
            "--out",
            games_text,
        ]
    };
    let err = user_error(&selfplay("0"));
    assert!(err.contains("--book-nodes"), "{err}");
    assert!(!games.exists(), "nothing is written");
    ok(&selfplay("1000"));
    let text = std::fs::read_to_string(&games).expect("the games are written");
    assert_eq!(
        text.matches("--book-plies 2 --book-nodes 1000 --book-margin 10")
            .count(),
        3,
        "each game's Event says how it was played: {text}"
    );
    let out = dir.path().join("book.bin");
    let out_text = out.to_str().expect("a UTF-8 path");
    let said = ok(&[
        "book",
        "build",
        "--variant",
        "portuguese",
        games_text,
        "--out",
        out_text,
        "--plies",
        "2",
        "--min-games",
        "1",
    ]);
    assert!(said.contains("0 unreadable"), "{said}");
    let shown = ok(&[
        "book",
        "show",
        "--variant",
        "portuguese",
        "--book",
        out_text,
    ]);
    let counted: u32 = shown
        .lines()
        .map(|l| {
            l.split(": ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or_else(|| panic!("a move's games: {l}"))
        })
        .sum();
    // Games that repeat another (a small budget may replay one) count once.
    let games_counted: u32 = said
        .split(" games counted")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the count of games: {said}"));
    assert!(games_counted >= 1, "{said}");
    assert_eq!(
        counted, games_counted,
        "each game's first move once: {said}\n{shown}"
    );
}
