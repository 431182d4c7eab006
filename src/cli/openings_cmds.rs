//! `damas openings generate`: judges every three-ply opening of English draughts with the
//! search and writes the ballot deck the bot plays (`data/english_ballots.txt`). Offline:
//! minutes of search, run by hand when the search or the threshold changes, never in CI.

use super::fail;
use crate::app::ballot::{self, Deck};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(subcommand)]
    pub command: OpeningsCommand,
}

#[derive(Subcommand, Debug)]
pub enum OpeningsCommand {
    /// Judge every distinct three-ply opening and write the deck file.
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Depth of the search that judges each opening (plies, plus captures).
    #[arg(long)]
    pub depth: u32,
    /// Drop openings scored this far from even, in hundredths of a man.
    #[arg(long, default_value_t = ballot::DEFAULT_THRESHOLD)]
    pub threshold: i32,
    /// Where to write the deck.
    #[arg(long, default_value = ballot::DECK_PATH)]
    pub out: PathBuf,
}

/// Deepest search accepted: beyond this one opening takes hours.
const MAX_DEPTH: u32 = 30;

pub fn openings(args: OpeningsArgs) -> ExitCode {
    match args.command {
        OpeningsCommand::Generate(a) => generate(a),
    }
}

fn generate(args: GenerateArgs) -> ExitCode {
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return fail(format!("--depth must be from 1 to {MAX_DEPTH}"));
    }
    if args.threshold <= 0 {
        return fail("--threshold must be positive");
    }
    let started = Instant::now();
    let deck = ballot::generate(args.depth, args.threshold, |i, v| {
        eprintln!(
            "{:>3} {}\t{:+}\t{}\t{:.1} s",
            i + 1,
            v.opening,
            v.score,
            if v.kept { "kept" } else { "dropped" },
            started.elapsed().as_secs_f64()
        );
    });
    let took = started.elapsed();
    // The scores do not depend on the build; the time does.
    let profile = if cfg!(debug_assertions) {
        "--profile test"
    } else {
        "--release"
    };
    let command = format!(
        "cargo run {profile} -- openings generate --depth {} --threshold {} --out {}",
        args.depth,
        args.threshold,
        args.out.display()
    );
    let build = if cfg!(debug_assertions) {
        "an optimized build with debug assertions (cargo's test profile)"
    } else {
        "a release build"
    };
    let took_text = format!(
        "{:.0} s on one thread of {build}",
        took.as_secs_f64().ceil()
    );
    let text = deck.to_text(&command, &took_text);
    // What is written must read back: the bot parses the same text at startup.
    if let Err(e) = Deck::parse(&text) {
        return fail(format!("the generated deck does not read back: {e}"));
    }
    if let Err(e) = std::fs::write(&args.out, text) {
        return fail(format!("cannot write {}: {e}", args.out.display()));
    }
    let kept = deck.kept().count();
    outln!(
        "{} openings judged at depth {}, {kept} kept, {} dropped (threshold {}); {:.1} s; written to {}",
        deck.verdicts.len(),
        args.depth,
        deck.verdicts.len() - kept,
        args.threshold,
        took.as_secs_f64(),
        args.out.display()
    );
    ExitCode::SUCCESS
}
