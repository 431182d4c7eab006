//! The command line as clap reads it: every subcommand and option, each with its help text.
//! Here rather than in `main.rs` so that a test can walk the whole tree (`Cli::command()`);
//! `main.rs` only parses and dispatches.

use super::{
    ai_cmds, book_cmds, egdb_cmds, engine_cmds, engine_protocol, match_cmds, openings_cmds,
    pdn_cmds, puzzle_cmds, render_cmds, review_cmds, store_cmds, tune_cmds,
};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "damas",
    version,
    about = "Draughts for Discord: Spanish, Portuguese and English"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the Discord bot (needs DISCORD_TOKEN).
    Bot,
    /// Run the bot on Discord's HTTP interactions endpoint instead of the gateway (needs
    /// DISCORD_TOKEN and DISCORD_PUBLIC_KEY).
    Serve(ServeArgs),
    /// Play in the terminal: the bot's commands, read from standard input.
    Console(ConsoleArgs),
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
    /// Opening books: `damas book build --variant V FILES… --out FILE`, `damas book show`.
    Book(book_cmds::BookArgs),
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
pub struct ServeArgs {
    /// The address to take Discord's requests on, like 0.0.0.0:8080 (the endpoint's path is
    /// /interactions).
    #[arg(long, value_name = "ADDR")]
    pub listen: std::net::SocketAddr,
}

#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Transposition table memory in MiB, kept from move to move within a game.
    #[arg(long = "hash-mb", default_value_t = engine_protocol::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    /// Expert judges with the weights in this file (as data/eval-weights.txt; variants it
    /// lacks keep the built-in weights), to measure candidate weights without a build.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Expert corrects its evaluation with exactly the networks in this file (as
    /// data/eval-network.txt; variants it lacks get none, so an empty file turns the network
    /// off), to measure a candidate network without a build.
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Expert never plays from the opening book (one is built in for each variant): every
    /// move is searched, so that a match measures the search.
    #[arg(long = "no-book")]
    pub no_book: bool,
}

#[derive(clap::Args, Debug)]
pub struct ConsoleArgs {
    /// Folder where every board picture is saved.
    #[arg(long, default_value = "boards")]
    pub boards: PathBuf,
    /// The database: a folder (sled) or a postgres:// URL. Without it, DAMAS_DB if set, else a
    /// fresh temporary folder.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Language of the replies: es or en.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Fixed seed for the bot (repeatable sessions).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Also print what each picture shows, in words (the text a screen reader reads).
    #[arg(long)]
    pub text_boards: bool,
}
