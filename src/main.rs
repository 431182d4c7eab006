//! The `damas` command line.

use clap::{Parser, Subcommand};
use damas::cli::{
    ai_cmds, egdb_cmds, engine_cmds, engine_protocol, match_cmds, openings_cmds, pdn_cmds,
    puzzle_cmds, render_cmds, review_cmds, store_cmds, tune_cmds,
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
    /// Play two levels or engines against each other, with Elo and an SPRT.
    Match(match_cmds::MatchArgs),
    /// The computer opponent behind a line protocol on standard input and output.
    Engine(EngineArgs),
    /// Fit Expert's evaluation to game results (self-play games, master games).
    Tune(tune_cmds::TuneArgs),
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

#[derive(clap::Args, Debug)]
struct EngineArgs {
    /// Transposition table memory in MiB, kept from move to move within a game.
    #[arg(long = "hash-mb", default_value_t = engine_protocol::DEFAULT_HASH_MB)]
    hash_mb: usize,
    /// Expert judges with the weights in this file (as data/eval-weights.txt; variants it
    /// lacks keep the built-in weights), to measure candidate weights without a build.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// Expert corrects its evaluation with exactly the networks in this file (as
    /// data/eval-network.txt; variants it lacks get none, so an empty file turns the network
    /// off), to measure a candidate network without a build.
    #[arg(long)]
    network: Option<std::path::PathBuf>,
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
        Some(Command::Match(a)) => match_cmds::play_match(a),
        Some(Command::Engine(a)) => engine(a),
        Some(Command::Tune(a)) => tune_cmds::tune(a),
        Some(Command::Store(a)) => store_cmds::run(a),
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
    match engine_protocol::serve(stdin, &mut std::io::stdout().lock(), a.hash_mb) {
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
