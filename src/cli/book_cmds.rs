//! `damas book build`: an opening book from game records (`damas_core::ai::book`), and
//! `damas book show`: what a book holds in a position.

use super::fail;
use crate::ai::book::{self, Book, BookBuilder, BookPolicy};
use crate::engine::{read_pdn, Game, Position, Variant};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build an opening book from games in PDN files (or ZIP archives of PDN, read in place).
    Build(BuildArgs),
    /// List a book's moves after some moves from the start, with their games and results.
    Show(ShowArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The game the records are of: spanish, portuguese or english (a record of another
    /// variant, by its GameType tag or its moves, is left out).
    #[arg(long)]
    pub variant: Variant,
    /// Game files: PDN, or ZIP archives of PDN. Games that repeat another's moves and result
    /// (collections overlap) count once; games without a result or from a set-up position are
    /// left out.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Where to write the book (a binary file; data/book-english.bin, data/book-spanish.bin
    /// and data/book-portuguese.bin are the built-in books).
    #[arg(long)]
    pub out: PathBuf,
    /// How many plies from the start of each game are counted.
    #[arg(long, default_value_t = book::ENGLISH_PLIES, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub plies: u32,
    /// Keep a position only if at least this many games went through it.
    #[arg(long = "min-games", default_value_t = book::ENGLISH_MIN_GAMES, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Plies at the start of each game that are not counted (self-play games open with
    /// random plies, which are no one's choice).
    #[arg(long = "skip-plies", default_value_t = 0)]
    pub skip_plies: u32,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "english")]
    pub variant: Variant,
    /// A book file to read instead of the built-in book.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// The moves from the start, as `11-15 23-19`.
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
}

pub fn book(args: BookArgs) -> ExitCode {
    let result = match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

fn build(a: BuildArgs) -> Result<(), String> {
    if a.skip_plies >= a.plies {
        return Err(format!(
            "--skip-plies {} leaves nothing of --plies {}",
            a.skip_plies, a.plies
        ));
    }
    let mut builder = BookBuilder::new(a.variant, a.plies).skipping(a.skip_plies);
    let mut refused = 0usize;
    for path in &a.files {
        let text = super::tune_cmds::read_games_file(path)?;
        for record in read_pdn(&text, a.variant) {
            match record {
                Ok(r) => {
                    builder.add(
                        &r.game,
                        r.decided_result()
                            .unwrap_or(crate::engine::PdnResult::Unfinished),
                    );
                }
                Err(_) => refused += 1,
            }
        }
    }
    let tally = builder.tally();
    let book = builder.finish(a.min_games);
    let bytes = book.to_bytes();
    // What is written must read back: the binary parses the same bytes.
    if Book::from_bytes(&bytes).as_ref() != Ok(&book) {
        return Err("the built book does not read back".into());
    }
    std::fs::write(&a.out, &bytes).map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    outln!(
        "{} games counted ({} repeated another, {} without a result, {} from a set-up position, {} unreadable); {} positions of {}+ games within {} plies; {} bytes written to {}",
        tally.counted,
        tally.duplicates,
        tally.no_result,
        tally.set_up,
        refused,
        book.len(),
        a.min_games,
        a.plies,
        bytes.len(),
        a.out.display()
    );
    if tally.ambiguous_moves > 0 {
        outln!(
            "{} moves left out: their first and last squares name two captures",
            tally.ambiguous_moves
        );
    }
    Ok(())
}

fn show(a: ShowArgs) -> Result<(), String> {
    let owned;
    let book = match &a.book {
        Some(path) => {
            owned = read_book(path)?;
            &owned
        }
        None => Book::embedded(a.variant)
            .ok_or_else(|| format!("no book is built in for {}", a.variant.id()))?,
    };
    if book.variant() != a.variant {
        return Err(format!(
            "the book is of {}, not {}",
            book.variant().id(),
            a.variant.id()
        ));
    }
    let moves: Vec<&str> = a.moves.iter().map(String::as_str).collect();
    let game = Game::replay(Position::start(a.variant), &moves)
        .map_err(|(i, e)| format!("move {} {:?}: {e}", i + 1, moves[i]))?;
    let pos = game.position();
    let good: Vec<_> = book
        .good_moves(pos, &BookPolicy::of(a.variant))
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    let listed = book.moves(pos);
    if listed.is_empty() {
        outln!("not in the book");
    }
    for m in listed {
        let mark = if good.contains(m) {
            "  (Expert plays it)"
        } else {
            ""
        };
        outln!("{m}  score {:.0}%{mark}", m.score() * 100.0);
    }
    Ok(())
}

fn read_book(path: &Path) -> Result<Book, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
