//! `damas match`: two players — levels of this build, or engine commands speaking
//! `damas engine`'s protocol — play a series of games from balanced openings, each opening
//! twice with colours reversed, several games at a time. Reports wins, draws and losses, the
//! Elo difference with its 95% interval, and an SPRT that ends the match once the result is
//! clear; writes every game as PDN.

use super::elo::{Sprt, SprtVerdict, Tally};
use super::engine_protocol::{EngineState, Go, DEFAULT_HASH_MB, MAX_HASH_MB};
use super::fail;
use crate::ai::{best_move, Level, SearchLimits, SearchOptions};
use crate::app::ballot;
use crate::engine::{
    export_pdn, Color, DrawReason, Game, Move, Outcome, PdnResult, PdnTags, Variant, WinReason,
};
use clap::Args;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// Player A: a level of this build (unless --engine-a is given).
    #[arg(
        long,
        required_unless_present = "engine_a",
        conflicts_with = "engine_a"
    )]
    pub a: Option<String>,
    /// Player B: a level of this build (unless --engine-b is given).
    #[arg(
        long,
        required_unless_present = "engine_b",
        conflicts_with = "engine_b"
    )]
    pub b: Option<String>,
    /// Player A as an engine command speaking `damas engine`'s protocol, words separated by
    /// spaces, e.g. "/path/to/damas engine".
    #[arg(long = "engine-a")]
    pub engine_a: Option<String>,
    /// Player B as an engine command, like --engine-a.
    #[arg(long = "engine-b")]
    pub engine_b: Option<String>,
    /// Games to play at most (an SPRT may end the match sooner); each opening is played
    /// twice, colours reversed.
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    /// Games played at the same time, each on its own thread.
    #[arg(long, default_value_t = 1)]
    pub concurrency: u32,
    /// Thinking time a move of the players on a clock (Expert and engine commands); the other
    /// levels keep their depth or node limits, so their play does not depend on the machine.
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    /// A node budget a move for the players on a clock, instead of time: the match then gives
    /// the same result on any machine, however loaded.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seeds the openings' order and the players' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies of each opening (Spanish and Portuguese; English plays the ballot deck).
    /// Three give a few hundred balanced openings; more give openings no earlier match played;
    /// 0 starts every game from the start position, as the bot's games do (to measure an
    /// opening book as the bot uses it).
    #[arg(long = "opening-plies", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub opening_plies: u32,
    /// Plies after which a game still going is scored as a draw (a safety net: the draw
    /// rules end every game long before).
    #[arg(long = "max-plies", default_value_t = 600)]
    pub max_plies: u32,
    /// Stop as soon as an SPRT between these two Elo differences of A over B decides, e.g.
    /// "0,10" (H0: A is no stronger; H1: A is 10 Elo stronger).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Write every game here as PDN, as it ends.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Transposition table of each in-process player, in MiB (engine commands choose their
    /// own; `damas engine` defaults to the same).
    #[arg(long = "hash-mb", default_value_t = DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    /// The in-process players never play from the opening book: every move is searched, so
    /// that the match measures the search (engine commands take `damas engine --no-book`).
    #[arg(long = "no-book")]
    pub no_book: bool,
    /// Print every game's moves, with the mover's score after each searched move.
    #[arg(long = "show-moves")]
    pub show_moves: bool,
}

/// Who plays one side.
#[derive(Clone, Debug)]
enum PlayerSpec {
    Level(Level),
    Command(String),
}

impl PlayerSpec {
    fn name(&self) -> String {
        match self {
            PlayerSpec::Level(l) => l.to_string(),
            PlayerSpec::Command(c) => c.clone(),
        }
    }

    /// Players on a clock take the match's time or node budget.
    fn on_clock(&self) -> bool {
        match self {
            PlayerSpec::Level(l) => l.default_time().is_some(),
            PlayerSpec::Command(_) => true,
        }
    }

    fn start(&self, hash_mb: usize, book: bool) -> Result<Box<dyn Player>, String> {
        Ok(match self {
            PlayerSpec::Level(level) => {
                let mut state = EngineState::new(hash_mb);
                state.set_level(*level);
                state.set_book(book);
                Box::new(Local(state))
            }
            PlayerSpec::Command(c) => Box::new(External::spawn(c)?),
        })
    }
}

/// A player's move and what its search said.
struct Thought {
    mv: Move,
    score: Option<i32>,
    depth: u32,
    nodes: u64,
}

trait Player: Send {
    fn new_game(&mut self, variant: Variant) -> Result<(), String>;
    fn think(&mut self, game: &Game, go: &Go) -> Result<Thought, String>;
}

/// A level of this build, played through the same state `damas engine` keeps.
struct Local(EngineState);

impl Player for Local {
    fn new_game(&mut self, variant: Variant) -> Result<(), String> {
        self.0.new_game(variant);
        Ok(())
    }

    fn think(&mut self, game: &Game, go: &Go) -> Result<Thought, String> {
        self.0.set_game(game.clone());
        let r = self
            .0
            .go(go, None)
            .ok_or("asked to move in a finished game")?;
        Ok(Thought {
            mv: r.mv,
            score: (r.nodes > 0).then_some(r.score),
            depth: r.depth,
            nodes: r.nodes,
        })
    }
}

/// An engine command, spoken to over its standard input and output.
struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn spawn(command: &str) -> Result<External, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an engine command is empty")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start engine {command:?}: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("engine {command:?}: no pipes"));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            command: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("engine {:?}: cannot write: {e}", self.command))
    }

    fn receive(&mut self, within: Duration) -> Result<String, String> {
        match self.lines.recv_timeout(within) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "engine {:?}: no answer within {} s",
                self.command,
                within.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                Err(format!("engine {:?}: ended unexpectedly", self.command))
            }
        }
    }

    /// Sends a command that answers `ok`.
    fn command(&mut self, line: &str) -> Result<(), String> {
        self.send(line)?;
        match self.receive(Duration::from_secs(30))?.as_str() {
            "ok" => Ok(()),
            other => Err(format!("engine {:?}: {line:?} → {other:?}", self.command)),
        }
    }
}

impl Player for External {
    fn new_game(&mut self, variant: Variant) -> Result<(), String> {
        self.command(&format!("new {variant}"))
    }

    fn think(&mut self, game: &Game, go: &Go) -> Result<Thought, String> {
        let mut position = "position start".to_string();
        if game.ply() > 0 {
            position.push_str(" moves ");
            position.push_str(&game.notations().join(" "));
        }
        self.command(&position)?;
        let mut line = "go".to_string();
        for (name, value) in [
            ("time", go.time.map(|t| t.as_millis() as u64)),
            ("nodes", go.nodes),
            ("depth", go.depth.map(u64::from)),
            ("seed", Some(go.seed)),
        ] {
            if let Some(v) = value {
                line.push_str(&format!(" {name} {v}"));
            }
        }
        self.send(&line)?;
        // The engine keeps its own clock; this only catches one that hangs.
        let patience = go.time.map_or(Duration::from_secs(600), |t| {
            (t * 5).max(t + Duration::from_secs(20))
        });
        let (mut score, mut depth, mut nodes) = (None, 0, 0);
        loop {
            let answer = self.receive(patience)?;
            let words: Vec<&str> = answer.split_whitespace().collect();
            match words.as_slice() {
                ["info", rest @ ..] => {
                    for pair in rest.chunks(2) {
                        match pair {
                            ["score", v] => score = v.parse().ok(),
                            ["depth", v] => depth = v.parse().unwrap_or(0),
                            ["nodes", v] => nodes = v.parse().unwrap_or(0),
                            _ => {}
                        }
                    }
                }
                ["bestmove", mv] => {
                    let mv = game
                        .position()
                        .parse_move(mv)
                        .map_err(|e| format!("engine {:?} played {mv:?}: {e}", self.command))?;
                    return Ok(Thought {
                        mv,
                        score,
                        depth,
                        nodes,
                    });
                }
                _ => return Err(format!("engine {:?}: unexpected {answer:?}", self.command)),
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Per-player totals over a match.
#[derive(Clone, Copy, Default)]
struct Totals {
    moves: u64,
    searched: u64,
    nodes: u64,
    depth: u64,
    /// Wall-clock time of every move, as the match saw it (an engine command's includes
    /// the pipe's round trip).
    time: Duration,
    /// The same, of the searched moves only: how much of its clock a player spends.
    searched_time: Duration,
    /// The longest move: whether a player keeps to its clock.
    longest: Duration,
}

impl Totals {
    fn add(&mut self, t: &Thought, elapsed: Duration) {
        self.moves += 1;
        self.time += elapsed;
        self.longest = self.longest.max(elapsed);
        if t.nodes > 0 {
            self.searched += 1;
            self.nodes += t.nodes;
            self.depth += t.depth as u64;
            self.searched_time += elapsed;
        }
    }

    fn merge(&mut self, o: &Totals) {
        self.moves += o.moves;
        self.searched += o.searched;
        self.nodes += o.nodes;
        self.depth += o.depth;
        self.time += o.time;
        self.searched_time += o.searched_time;
        self.longest = self.longest.max(o.longest);
    }

    fn summary(&self) -> String {
        let searched = self.searched.max(1);
        let secs = self.time.as_secs_f64();
        format!(
            "{} moves ({} searched, the others forced or random), {:.1} ms/move, \
             {:.1} ms/searched move, longest {} ms, mean depth {:.1}, mean nodes {}, {} nodes/s",
            self.moves,
            self.searched,
            secs * 1000.0 / self.moves.max(1) as f64,
            self.searched_time.as_secs_f64() * 1000.0 / searched as f64,
            self.longest.as_millis(),
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

/// A finished game, from A's side.
struct Finished {
    index: usize,
    game: Game,
    a_colour: Color,
    opening: String,
    /// 1 for A's win, ½ for a draw, 0 for a loss, in half points.
    a_half_points: u8,
    reason: String,
    totals: [Totals; 2],
    record: Vec<String>,
}

/// Everything a game needs to know, shared by the match's threads.
struct Plan {
    variant: Variant,
    openings: Vec<(Game, String)>,
    players: [PlayerSpec; 2],
    time: Option<Duration>,
    nodes: Option<u64>,
    seed: u64,
    max_plies: u32,
    show_moves: bool,
}

impl Plan {
    /// The limits of `who`'s move at `ply` of game `g`.
    fn go(&self, who: usize, g: usize, ply: u32) -> Go {
        let seed = self
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(g as u64 * 1_000 + ply as u64);
        if !self.players[who].on_clock() {
            return Go {
                seed,
                ..Go::default()
            };
        }
        Go {
            time: self.time,
            nodes: self.nodes,
            depth: None,
            seed,
        }
    }

    fn play(&self, g: usize, players: &mut [Box<dyn Player>]) -> Result<Finished, String> {
        let (opening_game, opening) = &self.openings[(g / 2) % self.openings.len()];
        // Each opening twice, A taking the first player's side, then the second's.
        let first = self.variant.first_player();
        let a_colour = if g % 2 == 0 { first } else { first.opposite() };
        for p in players.iter_mut() {
            p.new_game(self.variant)?;
        }
        let mut game = opening_game.clone();
        let mut totals = [Totals::default(); 2];
        let mut record = Vec::new();
        let mut plies = 0;
        while !game.is_over() && plies < self.max_plies {
            let who = usize::from(game.side_to_move() != a_colour);
            let go = self.go(who, g, plies);
            let started = Instant::now();
            let thought = players[who].think(&game, &go)?;
            totals[who].add(&thought, started.elapsed());
            if self.show_moves {
                let text = game.position().move_notation(&thought.mv);
                record.push(match thought.score {
                    Some(s) => format!("{text}{{{s}}}"),
                    None => text,
                });
            }
            game.play(thought.mv)
                .map_err(|e| format!("an illegal move was played: {e}"))?;
            plies += 1;
        }
        let (a_half_points, reason) = match game.outcome() {
            Some(o @ Outcome::Win { winner, .. }) => {
                (if winner == a_colour { 2 } else { 0 }, how_it_ended(o))
            }
            Some(o @ Outcome::Draw { .. }) => (1, how_it_ended(o)),
            None => (1, format!("ply cap {}", self.max_plies)),
        };
        Ok(Finished {
            index: g,
            game,
            a_colour,
            opening: opening.clone(),
            a_half_points,
            reason,
            totals,
            record,
        })
    }
}

/// How a game of the match ended, in words for its line: "no pieces left", "repetition".
fn how_it_ended(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::NoPieces => "no pieces left",
            WinReason::NoMoves => "no move left",
            WinReason::Resignation => "resignation",
            WinReason::Abandoned => "abandoned",
            WinReason::Time => "out of time",
        },
        Outcome::Draw { reason } => match reason {
            DrawReason::Agreement => "agreed draw",
            DrawReason::Repetition => "repetition",
            DrawReason::NoProgress => "no-progress rule",
            DrawReason::ThreeKings => "three kings v one",
        },
    }
    .to_string()
}

/// Longest thinking time accepted on the command line.
const MAX_TIME_MS: u64 = 10 * 60 * 1000;

fn parse_player(level: Option<&str>, command: Option<&str>) -> Result<PlayerSpec, String> {
    match (level, command) {
        (_, Some(c)) if c.split_whitespace().next().is_none() => {
            Err("an engine command is empty".to_string())
        }
        (_, Some(c)) => Ok(PlayerSpec::Command(c.to_string())),
        (Some(l), None) => l.parse().map(PlayerSpec::Level).map_err(|e| e.to_string()),
        (None, None) => Err("each side needs a level or an engine command".to_string()),
    }
}

fn parse_sprt(args: &MatchArgs) -> Result<Option<Sprt>, String> {
    let Some(text) = &args.sprt else {
        return Ok(None);
    };
    let bounds: Vec<f64> = text
        .split(',')
        .map(|w| w.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--sprt takes two Elo values like 0,10, not {text:?}"))?;
    let [elo0, elo1] = bounds[..] else {
        return Err(format!(
            "--sprt takes two Elo values like 0,10, not {text:?}"
        ));
    };
    Sprt::new(elo0, elo1, args.alpha, args.beta).map(Some)
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The totals line printed at the end (and by tests' readers): Elo and its interval.
fn elo_line(t: &Tally) -> String {
    let (lo, hi) = t.elo_interval();
    let half = (hi - lo) / 2.0;
    format!(
        "Elo {} ± {} (95% interval {} to {})",
        signed(t.elo()),
        if half.is_finite() {
            format!("{half:.1}")
        } else {
            "inf".to_string()
        },
        signed(lo),
        signed(hi)
    )
}

pub fn play_match(args: MatchArgs) -> ExitCode {
    match run(args) {
        Ok(code) => code,
        Err(e) => fail(e),
    }
}

fn run(args: MatchArgs) -> Result<ExitCode, String> {
    let variant = args.variant;
    let a = parse_player(args.a.as_deref(), args.engine_a.as_deref())?;
    let b = parse_player(args.b.as_deref(), args.engine_b.as_deref())?;
    let time = match args.time_ms {
        None => None,
        Some(ms) if (1..=MAX_TIME_MS).contains(&ms) => Some(Duration::from_millis(ms)),
        Some(_) => return Err(format!("--time-ms must be 1 to {MAX_TIME_MS}")),
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(1..=64).contains(&args.concurrency) {
        return Err("--concurrency must be 1 to 64".into());
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    if args.nodes.is_some() && time.is_some() {
        return Err("give --time-ms or --nodes, not both".into());
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1".into());
    }
    if !(1..=MAX_HASH_MB).contains(&args.hash_mb) {
        return Err(format!("--hash-mb must be 1 to {MAX_HASH_MB}"));
    }
    let sprt = parse_sprt(&args)?;
    let mut pdn = match &args.pdn {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let openings = openings(
        variant,
        args.games.div_ceil(2) as usize,
        args.seed,
        args.opening_plies as usize,
    )?;
    let plan = Plan {
        variant,
        openings,
        players: [a, b],
        time,
        nodes: args.nodes,
        seed: args.seed,
        max_plies: args.max_plies,
        show_moves: args.show_moves,
    };
    let names = [plan.players[0].name(), plan.players[1].name()];
    outln!(
        "{} (A) against {} (B), {variant}, up to {} games from {} openings ({}), {} at a time, \
         players on a clock: {}",
        names[0],
        names[1],
        args.games,
        plan.openings.len(),
        if variant == Variant::English {
            "the ballot deck".to_string()
        } else {
            format!("{} plies, balanced", args.opening_plies)
        },
        args.concurrency,
        match (time, args.nodes) {
            (Some(t), _) => format!("{} ms a move", t.as_millis()),
            (None, Some(n)) => format!("{n} nodes a move"),
            (None, None) => "their default".to_string(),
        }
    );
    // What the players probe: in-process levels these tables, and engine commands started from
    // here read the same folder unless told otherwise. A Spanish match once ran without them
    // unnoticed (README, #24), so every match says.
    outln!("{}", crate::ai::EndgameTables::global().summary());
    if let Some(s) = &sprt {
        let (lo, hi) = s.bounds();
        outln!(
            "SPRT: elo0 {} elo1 {} alpha {} beta {} (LLR bounds {lo:.2}, {hi:.2})",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta
        );
    }

    let next = AtomicUsize::new(0);
    let enough = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut totals = [Totals::default(); 2];
    let mut verdict = SprtVerdict::Continue;
    let mut failure: Option<String> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Result<Finished, String>>();
        for _ in 0..args.concurrency {
            let tx = tx.clone();
            let (plan, next, enough) = (&plan, &next, &enough);
            let hash_mb = args.hash_mb;
            let book = !args.no_book;
            let games = args.games as usize;
            scope.spawn(move || {
                let players: Result<Vec<Box<dyn Player>>, String> = plan
                    .players
                    .iter()
                    .map(|p| p.start(hash_mb, book))
                    .collect();
                let mut players = match players {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                while !enough.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let result = plan.play(g, &mut players);
                    let failed = result.is_err();
                    if tx.send(result).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            let done = match result {
                Ok(done) => done,
                Err(e) => {
                    enough.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            match done.a_half_points {
                2 => tally.wins += 1,
                1 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            for (sum, t) in totals.iter_mut().zip(&done.totals) {
                sum.merge(t);
            }
            report_game(&done, &tally, &plan, &names, pdn.as_mut(), &mut failure);
            if let Some(s) = &sprt {
                if verdict == SprtVerdict::Continue {
                    verdict = s.verdict(&tally);
                    if verdict != SprtVerdict::Continue {
                        // Games under way finish and count.
                        enough.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    if let Some(e) = failure {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(1));
    }
    outln!(
        "A {} against B {}: {} wins, {} draws, {} losses; score of A {:.1}/{} ({:.1}%)",
        names[0],
        names[1],
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.score()
    );
    outln!("{}", elo_line(&tally));
    if let Some(s) = &sprt {
        let (lo, hi) = s.bounds();
        outln!(
            "SPRT elo0 {} elo1 {}: LLR {:.2} (bounds {lo:.2}, {hi:.2}): {}",
            s.elo0,
            s.elo1,
            tally.llr(s.elo0, s.elo1),
            match verdict {
                SprtVerdict::Continue => "undecided".to_string(),
                SprtVerdict::H0 => format!("H0 accepted (A is not {} Elo stronger)", s.elo1),
                SprtVerdict::H1 => format!("H1 accepted (A is {} Elo or more stronger)", s.elo1),
            }
        );
    }
    outln!("A {}: {}", names[0], totals[0].summary());
    outln!("B {}: {}", names[1], totals[1].summary());
    Ok(ExitCode::SUCCESS)
}

/// Prints a finished game's line and appends it to the PDN file.
fn report_game(
    done: &Finished,
    tally: &Tally,
    plan: &Plan,
    names: &[String; 2],
    pdn: Option<&mut std::fs::File>,
    failure: &mut Option<String>,
) {
    let result = match done.a_half_points {
        2 => "A wins",
        1 => "draw",
        _ => "B wins",
    };
    let colour = if done.a_colour == Color::White {
        "White"
    } else {
        "Black"
    };
    outln!(
        "game {:>3}: [{}] A {colour}: {result} ({}, {} plies)  running: +{} ={} -{} {}",
        done.index + 1,
        done.opening,
        done.reason,
        done.game.ply(),
        tally.wins,
        tally.draws,
        tally.losses,
        signed(tally.elo()),
    );
    if plan.show_moves {
        outln!("    {}", done.record.join(" "));
    }
    if let Some(file) = pdn {
        let (white, black) = if done.a_colour == Color::White {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        // A game stopped at the ply limit is scored by the match: its record says how.
        let result = match done.a_half_points {
            2 => PdnResult::Win(done.a_colour),
            0 => PdnResult::Win(done.a_colour.opposite()),
            _ => PdnResult::Draw,
        };
        let tags = PdnTags {
            event: Some("damas match".to_string()),
            site: None,
            date: Some(chrono::Utc::now().format("%Y.%m.%d").to_string()),
            round: Some((done.index + 1).to_string()),
            white: Some(white.clone()),
            black: Some(black.clone()),
            opening: Some(done.opening.clone()),
            result: Some(result),
        };
        let text = export_pdn(&done.game, &tags);
        if let Err(e) = writeln!(file, "{text}") {
            failure.get_or_insert(format!("cannot write the PDN file: {e}"));
        }
    }
}

/// The openings of a match, each with its moves as text. English: the ballot deck's kept
/// openings, in an order the seed shuffles. The flying-king games: distinct openings of
/// `plies` random plies, kept only if a depth-10 search finds them roughly even, so that
/// neither side starts a pair of games already lost; with none, the start position alone.
fn openings(
    variant: Variant,
    count: usize,
    seed: u64,
    plies: usize,
) -> Result<Vec<(Game, String)>, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    if variant == Variant::English {
        let deck = ballot::deck().map_err(|e| format!("the ballot deck: {e}"))?;
        let mut kept: Vec<(Game, String)> =
            deck.kept().map(|o| (o.game(), o.to_string())).collect();
        kept.shuffle(&mut rng);
        kept.truncate(count.max(1));
        return Ok(kept);
    }
    if plies == 0 {
        return Ok(vec![(Game::new(variant), String::new())]);
    }
    let mut found: Vec<(Game, String)> = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries < count * 50 {
        tries += 1;
        let mut game = Game::new(variant);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            let Some(mv) = moves.choose(&mut rng) else {
                break;
            };
            if game.play(*mv).is_err() {
                break;
            }
        }
        if game.is_over() || found.iter().any(|(g, _)| g.position() == game.position()) {
            continue;
        }
        let probe = SearchOptions {
            limits: Some(SearchLimits {
                time: None,
                nodes: None,
                depth: Some(10),
            }),
            ..SearchOptions::default()
        };
        let balanced = best_move(&game, Level::Hard, &probe).is_some_and(|r| r.score.abs() <= 40);
        if balanced {
            let text = game.notations().join(" ");
            found.push((game, text));
        }
    }
    if found.is_empty() {
        found.push((Game::new(variant), String::new()));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_openings_come_from_the_ballot_deck_in_a_seeded_order() {
        let a = openings(Variant::English, 5, 1, 3).unwrap_or_default();
        let b = openings(Variant::English, 5, 1, 3).unwrap_or_default();
        let c = openings(Variant::English, 5, 2, 3).unwrap_or_default();
        let texts = |v: &[(Game, String)]| v.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&a).len(), 5);
        assert_eq!(texts(&a), texts(&b));
        assert_ne!(texts(&a), texts(&c));
        let deck = ballot::deck().expect("the deck reads");
        let kept: Vec<String> = deck.kept().map(|o| o.to_string()).collect();
        for (game, text) in &a {
            assert!(kept.contains(text), "{text} is in the deck");
            assert_eq!(game.ply(), 3);
        }
    }

    #[test]
    fn flying_king_openings_have_the_plies_asked_for() {
        for plies in [3, 6] {
            let found = openings(Variant::Spanish, 4, 1, plies).unwrap_or_default();
            assert_eq!(found.len(), 4);
            for (game, text) in &found {
                assert_eq!(game.ply(), plies, "{text}");
                assert_eq!(text.split(' ').count(), plies, "{text}");
            }
        }
        // None: every game from the start position.
        let start = openings(Variant::Portuguese, 4, 1, 0).unwrap_or_default();
        assert_eq!(start.len(), 1);
        assert_eq!(
            start[0].0.position(),
            &crate::engine::Position::start(Variant::Portuguese)
        );
    }

    #[test]
    fn players_are_checked() {
        assert!(parse_player(Some("expert"), None).is_ok());
        assert!(parse_player(Some("grandmaster"), None).is_err());
        assert!(parse_player(None, Some("  ")).is_err());
        assert!(matches!(
            parse_player(None, Some("damas engine")),
            Ok(PlayerSpec::Command(_))
        ));
    }
}
