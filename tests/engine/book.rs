//! The opening books: the builder counts games exactly, the built-in English book knows the
//! masters' main lines, the Spanish and Portuguese books (grown from self-play) answer the
//! start and spread over several lines, Expert plays from each without searching (and
//! searches when told not to use it), and the review calls a book move no error.

use damas::ai::book::{self, Book, BookBuilder, BookMove, BookPolicy, BuildTally, GameUse};
use damas::ai::{
    assemble_review, best_move, Level, MoveClass, PositionEval, SearchLimits, SearchOptions,
};
use damas::engine::{read_pdn, Game, PdnResult, Position, Variant};

const FIXTURE: &str = include_str!("../fixtures/pdn/book.pdn");

fn built(plies: u32, min_games: u32) -> (Book, BuildTally, Vec<GameUse>) {
    let mut b = BookBuilder::new(Variant::English, plies);
    let uses = read_pdn(FIXTURE, Variant::English)
        .map(|r| match r {
            Ok(r) => b.add(&r.game, r.result.unwrap_or(PdnResult::Unfinished)),
            Err(e) => panic!("the fixture's games are legal: {e}"),
        })
        .collect();
    let tally = b.tally();
    (b.finish(min_games), tally, uses)
}

fn after(moves: &[&str]) -> Position {
    match Game::replay(Position::start(Variant::English), moves) {
        Ok(g) => *g.position(),
        Err((i, e)) => panic!("move {i} of the test line is illegal: {e}"),
    }
}

/// `from-to +wins =draws -losses` of each book move, most played first.
fn listed(book: &Book, moves: &[&str]) -> Vec<String> {
    book.moves(&after(moves))
        .iter()
        .map(|m: &BookMove| format!("{}-{} +{} ={} -{}", m.from, m.to, m.wins, m.draws, m.losses))
        .collect()
}

#[test]
fn the_builder_counts_each_game_once_from_the_movers_side() {
    let (book, tally, uses) = built(24, 1);
    use GameUse::*;
    assert_eq!(
        uses,
        [Counted, Counted, Counted, Duplicate, Counted, NoResult, SetUp, Counted]
    );
    assert_eq!(tally.counted, 5);
    // In English Black moves first and "1-0" is Black's win.
    assert_eq!(listed(&book, &[]), ["11-15 +1 =2 -1", "9-14 +0 =1 -0"]);
    assert_eq!(
        listed(&book, &["11-15"]),
        ["23-19 +0 =2 -1", "22-18 +1 =0 -0"]
    );
    assert_eq!(
        listed(&book, &["11-15", "23-19"]),
        ["8-11 +1 =1 -0", "9-14 +0 =1 -0"]
    );
    assert_eq!(listed(&book, &["11-15", "22-18"]), ["15-22 +0 =0 -1"]);
    assert_eq!(
        listed(&book, &["11-15", "22-18", "15x22"]),
        ["25-18 +1 =0 -0"]
    );
    // A draw counts half, and two drawn games more pull a small sample towards even.
    let first = book.moves(&after(&[]))[0];
    assert_eq!(first.score(), (1.0 + 1.0 + 1.0) / (4.0 + 2.0));
    assert_eq!(book.len(), 8);
}

#[test]
fn plies_and_min_games_bound_the_book() {
    let (book, _, _) = built(24, 2);
    // Games through each position: the start 5, then 4, 3 and 2 along 11-15 23-19 8-11.
    assert_eq!(book.len(), 4);
    assert_eq!(
        listed(&book, &["11-15", "23-19", "8-11"]),
        ["22-17 +0 =1 -1"]
    );
    assert!(listed(&book, &["11-15", "22-18"]).is_empty());
    let (short, _, _) = built(2, 1);
    // The start, after 11-15, after 9-14: the second ply is the last counted.
    assert_eq!(short.len(), 3);
    assert!(listed(&short, &["11-15", "23-19"]).is_empty());
    assert_eq!((short.plies(), short.min_games()), (2, 1));
}

#[test]
fn a_built_book_reads_back_from_its_bytes() {
    let (book, _, _) = built(24, 1);
    assert_eq!(Book::from_bytes(&book.to_bytes()).as_ref(), Ok(&book));
}

#[test]
fn the_embedded_english_book_knows_the_main_lines() {
    let book = Book::embedded(Variant::English).expect("English has a built-in book");
    assert_eq!(
        (book.plies(), book.min_games()),
        (book::ENGLISH_PLIES, book::ENGLISH_MIN_GAMES)
    );
    let start = listed(book, &[]);
    // 11-15 is the masters' first move by far; all seven first moves are played.
    assert!(start[0].starts_with("11-15 "), "{start:?}");
    assert_eq!(start.len(), 7, "{start:?}");
    // The answers to 11-15 include the old main lines 23-19 and 22-18.
    let replies = listed(book, &["11-15"]);
    for main in ["23-19 ", "22-18 "] {
        assert!(replies.iter().any(|r| r.starts_with(main)), "{replies:?}");
    }
    let good = book.good_moves(&after(&[]), &BookPolicy::EXPERT);
    assert!(!good.is_empty());
}

#[test]
fn every_variant_has_a_built_in_book_that_answers_the_start_with_legal_moves() {
    for variant in [Variant::English, Variant::Spanish, Variant::Portuguese] {
        let book = Book::embedded(variant)
            .unwrap_or_else(|| panic!("{variant} has a built-in book that reads back"));
        assert_eq!(book.variant(), variant);
        let start = Position::start(variant);
        let listed = book.moves(&start);
        assert!(!listed.is_empty(), "{variant}: the start is in the book");
        for m in listed {
            assert!(
                m.resolve(&start).is_some(),
                "{variant}: {m} is a legal first move"
            );
        }
        // Expert plays from the book at the start: enough games went through it.
        let good = book.good_moves(&start, &BookPolicy::of(variant));
        assert!(!good.is_empty(), "{variant}: {listed:?}");
        for (mv, _) in &good {
            assert!(start.legal_moves().contains(mv), "{variant}: {mv:?}");
        }
        // A book is of its own variant only.
        let other = Position::start(if variant == Variant::Spanish {
            Variant::Portuguese
        } else {
            Variant::Spanish
        });
        assert!(book.moves(&other).is_empty(), "{variant}");
    }
}

/// The lines Expert plays from the book from the start, with the seeds `0..seeds` (each move
/// drawn with its own seed, as the bot's seed changes with the ply), until the book no longer
/// answers.
fn book_lines(variant: Variant, seeds: u64) -> Vec<Vec<String>> {
    let book = Book::embedded(variant).expect("built in");
    let mut lines: Vec<Vec<String>> = Vec::new();
    for seed in 0..seeds {
        let mut game = Game::new(variant);
        let mut line = Vec::new();
        while let Some(mv) = book.choose(
            game.position(),
            &BookPolicy::of(variant),
            seed ^ (game.ply() as u64) << 8,
        ) {
            line.push(game.position().move_notation(&mv));
            game.play(mv).expect("a book move is legal");
        }
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

#[test]
fn books_grown_from_self_play_do_not_lock_expert_into_one_line() {
    for variant in [Variant::Spanish, Variant::Portuguese] {
        let lines = book_lines(variant, 64);
        // Self-play by an engine that always plays its favourite move would give one line;
        // the games the books were grown from spread over the moves Expert scores alike.
        assert!(lines.len() >= 3, "{variant}: {lines:?}");
        assert!(lines.iter().all(|l| !l.is_empty()), "{variant}: {lines:?}");
    }
}

fn expert_opts(book: bool) -> SearchOptions {
    SearchOptions {
        seed: 7,
        limits: Some(SearchLimits {
            time: None,
            nodes: None,
            depth: Some(6),
        }),
        book,
        ..SearchOptions::default()
    }
}

#[test]
fn expert_plays_a_book_move_without_searching_and_searches_without_the_book() {
    // English after a ballot's first moves; Portuguese from the start, where the bot's games
    // begin.
    for (variant, moves) in [
        (Variant::English, &["11-15", "23-19"][..]),
        (Variant::Portuguese, &[][..]),
    ] {
        let game = Game::replay(Position::start(variant), moves).expect("legal opening");
        let book = Book::embedded(variant).expect("built in");
        let good = book.good_moves(game.position(), &BookPolicy::of(variant));
        let from_book = best_move(&game, Level::Expert, &expert_opts(true)).expect("a move");
        assert_eq!(
            from_book.nodes, 0,
            "{variant}: the book's move needs no search"
        );
        assert!(good.iter().any(|(m, _)| *m == from_book.mv), "{variant}");
        let searched = best_move(&game, Level::Expert, &expert_opts(false)).expect("a move");
        assert!(
            searched.nodes > 0,
            "{variant}: without the book Expert searches"
        );
        // Only Expert opens from the book.
        let hard = best_move(&game, Level::Hard, &expert_opts(true)).expect("a move");
        assert!(hard.nodes > 0, "{variant}");
    }
}

/// Spanish's book is built in, and knows the start, but Expert searches there: it played
/// weaker with the book than without it (`book::played_by_expert`).
#[test]
fn expert_searches_the_spanish_start_its_book_knows() {
    let game = Game::new(Variant::Spanish);
    let book = Book::embedded(Variant::Spanish).expect("built in");
    let policy = BookPolicy::of(Variant::Spanish);
    assert!(!book.good_moves(game.position(), &policy).is_empty());
    let searched = best_move(&game, Level::Expert, &expert_opts(true)).expect("a move");
    assert!(searched.nodes > 0, "Expert searches the Spanish start");
}

#[test]
fn the_review_calls_a_book_move_no_error() {
    // The judge's line prefers another move and, were it right, the move played would lose
    // three men's worth. English plays 11-15, the masters' main move; the others their
    // first move that is (or is not) in the book grown from self-play.
    let judged = |variant: Variant, in_book: bool| {
        let mut game = Game::new(variant);
        let start = Position::start(variant);
        let legal = start.legal_moves();
        let book = Book::embedded(variant).expect("built in");
        let first = if variant == Variant::English {
            game.play_text("11-15").expect("legal")
        } else {
            let first = *legal
                .iter()
                .find(|m| book.is_book_move(&start, m) == in_book)
                .expect("a first move in (out of) the book");
            game.play(first).expect("legal");
            first
        };
        let other = legal
            .into_iter()
            .find(|m| *m != first)
            .expect("another move");
        let evals = vec![
            Some(PositionEval {
                score: 0,
                line: vec![other],
                exact: None,
                nodes: 0,
            }),
            Some(PositionEval {
                score: 300,
                line: vec![],
                exact: None,
                nodes: 0,
            }),
        ];
        assemble_review(&game, evals, &[]).plies[0].clone()
    };
    for variant in [Variant::English, Variant::Spanish, Variant::Portuguese] {
        let from_book = judged(variant, true);
        assert!(from_book.book, "{variant}");
        assert_eq!(from_book.class, MoveClass::Good, "{variant}");
        assert_eq!(from_book.loss, 0.0, "{variant}");
    }
    // The same judgement where the book does not hold the move: a blunder.
    let spanish = judged(Variant::Spanish, false);
    assert!(!spanish.book);
    assert_eq!(spanish.class, MoveClass::Blunder);
}

/// The text of `../shared/pdn/<name>` (a ZIP's one member unpacked); `None`, the test skipped,
/// when it is not there.
fn archive(name: &str) -> Option<String> {
    use std::io::Read;
    let path = crate::support::shared_data(&format!("pdn/{name}"))?;
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = Vec::new();
    if name.ends_with(".zip") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
        let mut member = zip.by_index(0).expect("its one member");
        member.read_to_end(&mut text).expect("the member inflates");
    } else {
        text = bytes;
    }
    Some(String::from_utf8_lossy(&text).into_owned())
}

#[test]
fn the_embedded_book_is_the_archives_rebuilt() {
    let Some(oca) = archive("OCA_2.0.zip") else {
        return;
    };
    let Some(tinsley) = archive("tinsley.pdn") else {
        return;
    };
    let mut b = BookBuilder::new(Variant::English, book::ENGLISH_PLIES);
    for text in [&oca, &tinsley] {
        for r in read_pdn(text, Variant::English).flatten() {
            b.add(&r.game, r.decided_result().unwrap_or(PdnResult::Unfinished));
        }
    }
    let rebuilt = b.finish(book::ENGLISH_MIN_GAMES);
    let embedded = Book::embedded(Variant::English).expect("built in");
    assert!(
        &rebuilt == embedded,
        "data/book-english.bin is not what the archives give ({} positions rebuilt, {} built in): \
         build it again with the command in docs/CLI.md",
        rebuilt.len(),
        embedded.len()
    );
}
