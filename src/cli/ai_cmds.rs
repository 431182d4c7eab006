//! `damas bestmove` and `damas match`: the computer opponent on the command line, for
//! tools, benchmarks and for measuring the levels against each other.

use super::engine_cmds::position_from;
use super::fail;
use crate::ai::{best_move, Level, SearchLimits, SearchOptions, SearchPool, SearchResult};
use crate::engine::{Color, Game, Outcome, Position, Variant};
use clap::Args;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BestMoveArgs {
    #[arg(long, default_value = "spanish")]
    pub variant: String,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long, default_value = "medium")]
    pub level: String,
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop after this many positions instead of the level's own limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search to this depth instead of the level's own limit.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search through a search pool of the default size (for measuring the pool's cost).
    #[arg(long, hide = true)]
    pub pool: bool,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, default_value = "spanish")]
    pub variant: String,
    #[arg(long)]
    pub a: String,
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    /// Thinking time of the levels that play on a clock (Expert); the others keep their
    /// depth or node limits, so their play does not depend on the machine.
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    /// A node budget for the levels that play on a clock, instead of time: the match then
    /// gives the same result on any machine, however loaded.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seeds the openings and the players' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game still going is scored as a draw (a safety net: the draw
    /// rules end every game long before).
    #[arg(long = "max-plies", default_value_t = 600)]
    pub max_plies: u32,
    /// Print every game's moves, with A's score after each of its moves.
    #[arg(long = "show-moves")]
    pub show_moves: bool,
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
    let pos = match position_from(&args.variant, args.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let level: Level = match args.level.parse() {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
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
    println!("{}", pos.move_notation(&result.mv));
    println!("{}", describe(&pos, &result, elapsed));
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

/// Per-player totals over a match.
#[derive(Default)]
struct Totals {
    moves: u64,
    searched: u64,
    nodes: u64,
    depth: u64,
    time: Duration,
}

impl Totals {
    fn add(&mut self, r: &SearchResult, t: Duration) {
        self.moves += 1;
        self.time += t;
        if r.nodes > 0 {
            self.searched += 1;
            self.nodes += r.nodes;
            self.depth += r.depth as u64;
        }
    }

    fn summary(&self) -> String {
        let searched = self.searched.max(1);
        let secs = self.time.as_secs_f64();
        format!(
            "{} moves ({} searched, the others forced or random), {:.1} ms/move, mean depth {:.1}, \
             mean nodes {}, {} nodes/s",
            self.moves,
            self.searched,
            secs * 1000.0 / self.moves.max(1) as f64,
            self.depth as f64 / searched as f64,
            self.nodes / searched,
            if secs > 0.0 {
                (self.nodes as f64 / secs) as u64
            } else {
                0
            }
        )
    }
}

pub fn play_match(args: MatchArgs) -> ExitCode {
    let variant: Variant = match args.variant.parse() {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let (a, b): (Level, Level) = match (args.a.parse(), args.b.parse()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let time = match time_from(args.time_ms) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if args.games == 0 {
        return fail("--games must be at least 1");
    }
    if args.nodes == Some(0) {
        return fail("--nodes must be at least 1");
    }
    if args.nodes.is_some() && time.is_some() {
        return fail("give --time-ms or --nodes, not both");
    }
    let clock_budget = args.nodes.map(|n| SearchLimits {
        time: None,
        nodes: Some(n),
        depth: None,
    });
    if args.max_plies == 0 {
        return fail("--max-plies must be at least 1");
    }
    let openings = openings(variant, args.games.div_ceil(2) as usize, args.seed);
    println!(
        "{} (A) against {} (B), {variant}, {} games, {} openings of 3 plies, clock levels: {}",
        a,
        b,
        args.games,
        openings.len(),
        match (time, args.nodes) {
            (Some(t), _) => format!("{} ms", t.as_millis()),
            (None, Some(n)) => format!("{n} nodes"),
            (None, None) => "level default".to_string(),
        }
    );
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut totals = [Totals::default(), Totals::default()];
    for g in 0..args.games as usize {
        let opening = &openings[(g / 2) % openings.len()];
        // Each opening twice, A taking the first player's side, then the second's.
        let a_colour = if g % 2 == 0 {
            variant.first_player()
        } else {
            variant.first_player().opposite()
        };
        let mut game = opening.clone();
        let mut plies = 0;
        let mut record: Vec<String> = Vec::new();
        while !game.is_over() && plies < args.max_plies {
            let (level, who) = if game.side_to_move() == a_colour {
                (a, 0)
            } else {
                (b, 1)
            };
            let opts = SearchOptions {
                seed: args
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add(g as u64 * 1_000 + plies as u64),
                // Only the levels on a clock take the time or node budget; the others keep
                // their machine-independent limits.
                time: if level.default_time().is_some() {
                    time
                } else {
                    None
                },
                limits: if level.default_time().is_some() {
                    clock_budget
                } else {
                    None
                },
                ..SearchOptions::default()
            };
            let started = Instant::now();
            let Some(r) = best_move(&game, level, &opts) else {
                break; // cannot happen: a side without moves has lost and the game is over
            };
            totals[who].add(&r, started.elapsed());
            if args.show_moves {
                let text = game.position().move_notation(&r.mv);
                record.push(if who == 0 && r.nodes > 0 {
                    format!("{text}{{{}}}", r.score)
                } else {
                    text
                });
            }
            if let Err(e) = game.play(r.mv) {
                return fail(format!("the search chose an illegal move: {e}"));
            }
            plies += 1;
        }
        let (result, text) = match game.outcome() {
            Some(Outcome::Win { winner, reason }) if winner == a_colour => {
                wins += 1;
                ("A wins", format!("{reason:?}"))
            }
            Some(Outcome::Win { reason, .. }) => {
                losses += 1;
                ("B wins", format!("{reason:?}"))
            }
            Some(Outcome::Draw { reason }) => {
                draws += 1;
                ("draw", format!("{reason:?}"))
            }
            None => {
                draws += 1;
                ("draw", format!("ply cap {}", args.max_plies))
            }
        };
        let opening_text = opening.notations().join(" ");
        let colour = if a_colour == Color::White {
            "White"
        } else {
            "Black"
        };
        println!(
            "game {:>3}: [{opening_text}] A {colour}: {result} ({text}, {} plies)  running: +{wins} ={draws} -{losses}",
            g + 1,
            game.ply()
        );
        if args.show_moves {
            println!("    {}", record.join(" "));
        }
    }
    let played = wins + draws + losses;
    let score = wins as f64 + draws as f64 / 2.0;
    println!(
        "A {a} against B {b}: {wins} wins, {draws} draws, {losses} losses; score of A {score:.1}/{played} ({:.1}%)",
        100.0 * score / played.max(1) as f64
    );
    println!("A {a}: {}", totals[0].summary());
    println!("B {b}: {}", totals[1].summary());
    ExitCode::SUCCESS
}

/// Distinct 3-ply openings (the "three-move ballot" of English tournaments, random but
/// seeded), kept only if a depth-10 search finds them roughly even, so that neither side
/// starts a pair of games already lost.
fn openings(variant: Variant, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found: Vec<Game> = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries < count * 50 {
        tries += 1;
        let mut game = Game::new(variant);
        for _ in 0..3 {
            let moves = game.position().legal_moves();
            let Some(mv) = moves.choose(&mut rng) else {
                break;
            };
            if game.play(*mv).is_err() {
                break;
            }
        }
        if game.is_over() || found.iter().any(|g| g.position() == game.position()) {
            continue;
        }
        let probe = SearchOptions {
            seed: 0,
            time: None,
            limits: Some(SearchLimits {
                time: None,
                nodes: None,
                depth: Some(10),
            }),
            ..SearchOptions::default()
        };
        let balanced = best_move(&game, Level::Hard, &probe).is_some_and(|r| r.score.abs() <= 40);
        if balanced {
            found.push(game);
        }
    }
    if found.is_empty() {
        found.push(Game::new(variant));
    }
    found
}
