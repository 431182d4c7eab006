//! The `damas` command line.

use clap::{Parser, Subcommand};
use damas::cli::{
    ai_cmds, egdb_cmds, engine_cmds, openings_cmds, pdn_cmds, puzzle_cmds, render_cmds,
    review_cmds, store_cmds,
};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "damas",
    version,
    about = "Draughts for Discord: Spanish, Portuguese and English"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the Discord bot (needs DISCORD_TOKEN).
    Bot,
    /// Run the bot on Discord's HTTP interactions endpoint instead of the gateway (needs
    /// DISCORD_TOKEN and DISCORD_PUBLIC_KEY).
    Serve(ServeArgs),
    /// Play in the terminal: the bot's commands, read from standard input.
    Console(damas::console::ConsoleArgs),
    /// List the legal moves of a position.
    Moves(engine_cmds::MovesArgs),
    /// Count the move tree (perft).
    Perft(engine_cmds::PerftArgs),
    /// Explain the capture laws in a position, or why a move is (not) legal.
    Explain(engine_cmds::ExplainArgs),
    /// Play moves from the start and print the final position and result.
    Replay(engine_cmds::ReplayArgs),
    /// Draw a position as a PNG.
    Render(render_cmds::RenderArgs),
    /// The computer's move in a position.
    Bestmove(ai_cmds::BestMoveArgs),
    /// Play two levels against each other.
    Match(ai_cmds::MatchArgs),
    /// Database tools: `damas store copy --from DB --to DB`.
    Store(store_cmds::StoreArgs),
    /// The three-move ballot deck of English draughts (offline generation).
    Openings(openings_cmds::OpeningsArgs),
    /// Puzzle sets: generate one from the computer's games.
    Puzzles(puzzle_cmds::PuzzlesArgs),
    /// Endgame tables: `damas egdb generate | verify | probe`.
    Egdb(egdb_cmds::EgdbArgs),
    /// Judge every move of a game from a PDN file.
    Review(review_cmds::ReviewArgs),
    /// Draw a game from a PDN file as an animated GIF.
    Gif(review_cmds::GifArgs),
    /// PDN files: `damas pdn check FILE` reads every game of a file.
    Pdn(pdn_cmds::PdnArgs),
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The address to take Discord's requests on, like 0.0.0.0:8080 (the endpoint's path is
    /// /interactions).
    #[arg(long, value_name = "ADDR")]
    listen: std::net::SocketAddr,
}

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
        Some(Command::Console(a)) => match damas::console::run(a) {
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
        Some(Command::Match(a)) => ai_cmds::play_match(a),
        Some(Command::Store(a)) => store_cmds::run(a),
        Some(Command::Openings(a)) => openings_cmds::openings(a),
        Some(Command::Puzzles(a)) => puzzle_cmds::puzzles(a),
        Some(Command::Egdb(a)) => egdb_cmds::egdb(a),
        Some(Command::Review(a)) => review_cmds::review(a),
        Some(Command::Gif(a)) => review_cmds::gif(a),
        Some(Command::Pdn(a)) => pdn_cmds::run(a),
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
