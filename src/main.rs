//! The `damas` command line.

use clap::Parser;
use damas::cli::args::{Cli, Command, EngineArgs};
use damas::cli::{
    ai_cmds, book_cmds, egdb_cmds, engine_cmds, engine_protocol, match_cmds, openings_cmds,
    pdn_cmds, puzzle_cmds, render_cmds, review_cmds, store_cmds, tune_cmds,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None if damas::discord::token_configured() => bot(),
        None => damas::cli::fail(
            "no DISCORD_TOKEN configured. To try damas without Discord run `damas console`; \
             to run the bot copy .env.example to .env and fill it in. `damas --help` lists every command.",
        ),
        Some(Command::Bot) => bot(),
        Some(Command::Serve(a)) => exit_with(damas::discord::webhook::run(a.listen)),
        Some(Command::Console(a)) => match damas::console::run(damas::console::ConsoleOptions {
            boards: a.boards,
            db: a.db,
            lang: a.lang,
            seed: a.seed,
            text_boards: a.text_boards,
        }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(if e.is_bad_settings() { 2 } else { 1 })
            }
        },
        Some(Command::Moves(a)) => engine_cmds::moves(a),
        Some(Command::Perft(a)) => engine_cmds::perft(a),
        Some(Command::Explain(a)) => engine_cmds::explain(a),
        Some(Command::Replay(a)) => engine_cmds::replay(a),
        Some(Command::Render(a)) => render_cmds::render(a),
        Some(Command::Bestmove(a)) => ai_cmds::bestmove(a),
        Some(Command::Match(a)) => match_cmds::play_match(a),
        Some(Command::Engine(a)) => engine(a),
        Some(Command::Tune(a)) => tune_cmds::tune(a),
        Some(Command::Store(a)) => store_cmds::run(a),
        Some(Command::Book(a)) => book_cmds::book(a),
        Some(Command::Openings(a)) => openings_cmds::openings(a),
        Some(Command::Puzzles(a)) => puzzle_cmds::puzzles(a),
        Some(Command::Egdb(a)) => egdb_cmds::egdb(a),
        Some(Command::Review(a)) => review_cmds::review(a),
        Some(Command::Gif(a)) => review_cmds::gif(a),
        Some(Command::Pdn(a)) => pdn_cmds::run(a),
    }
}

/// `damas engine`: commands on standard input until `quit` or its end.
fn engine(a: EngineArgs) -> ExitCode {
    if !(1..=engine_protocol::MAX_HASH_MB).contains(&a.hash_mb) {
        return damas::cli::fail(format!(
            "--hash-mb must be 1 to {}",
            engine_protocol::MAX_HASH_MB
        ));
    }
    if let Some(path) = &a.weights {
        let chosen = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| damas::ai::EvalWeights::use_instead(&text).map_err(|e| e.to_string()));
        if let Err(e) = chosen {
            return damas::cli::fail(format!("--weights {}: {e}", path.display()));
        }
    }
    if let Some(path) = &a.network {
        let chosen = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| damas::ai::EvalNetwork::use_instead(&text).map_err(|e| e.to_string()));
        if let Err(e) = chosen {
            return damas::cli::fail(format!("--network {}: {e}", path.display()));
        }
    }
    let stdin = std::io::BufReader::new(std::io::stdin());
    match engine_protocol::serve(stdin, &mut std::io::stdout().lock(), a.hash_mb, !a.no_book) {
        Ok(()) => ExitCode::SUCCESS,
        // Standard output closed: the controller has gone.
        Err(_) => ExitCode::from(1),
    }
}

/// `damas bot`: a one-line message and exit code 2 for settings to fix, 1 for other failures.
fn bot() -> ExitCode {
    exit_with(damas::discord::run())
}

/// A front end's result as an exit code, with its error on one line.
fn exit_with(result: Result<(), damas::discord::BotError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
