//! `damas bestmove`: the computer opponent on the command line, for tools and benchmarks
//! (`damas match` and `damas engine` measure it against other players).

use super::engine_cmds::position_from;
use super::fail;
use crate::ai::{
    best_move, EvalNetwork, Level, SearchLimits, SearchOptions, SearchPool, SearchResult,
};
use crate::engine::{Game, Position, Variant};
use clap::Args;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BestMoveArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The position as a PDN FEN; the start position when left out.
    #[arg(long)]
    pub fen: Option<String>,
    /// The computer's level: easy, medium, hard or expert.
    #[arg(long, default_value_t = Level::default())]
    pub level: Level,
    /// Thinking time in milliseconds instead of the level's own.
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    /// Fixed seed for the level's choices among moves (repeatable answers).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop after this many positions instead of the level's own limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search to this depth instead of the level's own limit.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Expert corrects its evaluation with exactly the networks in this file (as
    /// data/eval-network.txt; an empty file: none), to measure the network's cost.
    #[arg(long)]
    pub network: Option<std::path::PathBuf>,
    /// Search through a search pool of the default size (for measuring the pool's cost).
    #[arg(long, hide = true)]
    pub pool: bool,
}

/// Longest thinking time accepted on the command line.
const MAX_TIME_MS: u64 = 10 * 60 * 1000;

fn time_from(ms: Option<u64>) -> Result<Option<Duration>, String> {
    match ms {
        None => Ok(None),
        Some(0) => Err("--time-ms must be at least 1".to_string()),
        Some(ms) if ms > MAX_TIME_MS => Err(format!("--time-ms must be at most {MAX_TIME_MS}")),
        Some(ms) => Ok(Some(Duration::from_millis(ms))),
    }
}

pub fn bestmove(args: BestMoveArgs) -> ExitCode {
    let pos = match position_from(args.variant, args.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let level = args.level;
    let time = match time_from(args.time_ms) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if args.depth == Some(0) || args.nodes == Some(0) {
        return fail("--depth and --nodes must be at least 1");
    }
    let limits = (args.nodes.is_some() || args.depth.is_some()).then_some(SearchLimits {
        time: None,
        nodes: args.nodes,
        depth: args.depth,
    });
    let opts = SearchOptions {
        seed: args.seed.unwrap_or(0),
        time,
        limits,
        ..SearchOptions::default()
    };
    if let Some(path) = &args.network {
        let chosen = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| EvalNetwork::use_instead(&text).map_err(|e| e.to_string()));
        if let Err(e) = chosen {
            return fail(format!("--network {}: {e}", path.display()));
        }
    }
    let game = Game::from_position(pos);
    let pool = args
        .pool
        .then(|| SearchPool::new(SearchPool::default_threads(), POOL_MEMORY_MB));
    let started = Instant::now();
    let found = match &pool {
        Some(pool) => match pool.submit_best_move(game, level, opts).wait() {
            Ok(found) => found,
            Err(e) => return fail(e),
        },
        None => best_move(&game, level, &opts),
    };
    let Some(result) = found else {
        return fail("the side to move has no legal move: the game is over");
    };
    let elapsed = started.elapsed();
    outln!("{}", pos.move_notation(&result.mv));
    outln!("{}", describe(&pos, &result, elapsed));
    ExitCode::SUCCESS
}

/// The bot's default table memory (`DAMAS_SEARCH_MEMORY_MB`), for `bestmove --pool`.
const POOL_MEMORY_MB: usize = 256;

/// `score 12 depth 9 nodes 123456 time 512 ms nps 241125 pv 11-15 22-18 ...`
fn describe(pos: &Position, r: &SearchResult, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (r.nodes as f64 / secs) as u64
    } else {
        0
    };
    let mut line = format!(
        "score {} depth {} nodes {} time {} ms nps {} pv",
        r.score,
        r.depth,
        r.nodes,
        elapsed.as_millis(),
        nps
    );
    let mut p = *pos;
    for mv in &r.pv {
        line.push(' ');
        line.push_str(&p.move_notation(mv));
        p = p.apply(mv);
    }
    line
}
