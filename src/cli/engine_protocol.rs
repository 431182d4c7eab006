//! `damas engine`: the computer opponent behind a small line protocol on standard input and
//! output, so that tools (and `damas match --engine-a/--engine-b`) can play it against other
//! engines or against an older build of itself. The README has the protocol's spec.
//!
//! One command a line; words separated by spaces. Every command but `go`, `stop` and `quit`
//! answers exactly one line, `ok` (or `readyok`, `id ...`) or `error <why>`; `go` answers an
//! `info` line and then `bestmove <move>`. The engine keeps its transposition table from one
//! `go` to the next until `new` starts another game.

use crate::ai::TranspositionTable;
use crate::ai::{best_move_with_table, Level, SearchLimits, SearchOptions, SearchResult};
use crate::engine::{Game, Position, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The table memory of an engine when nothing else is asked (`damas engine --hash-mb`).
pub const DEFAULT_HASH_MB: usize = 64;

/// Largest `--hash-mb` accepted.
pub const MAX_HASH_MB: usize = 4096;

/// Longest `go time` accepted, as on the rest of the command line.
const MAX_TIME_MS: u64 = 10 * 60 * 1000;

/// What a `go` asks for. Every limit given applies; without any, the level's own limits
/// (Expert's 2 s) apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Seeds the order in which equal moves are tried (and the weaker levels' randomness).
    pub seed: u64,
}

impl Go {
    /// Parses the words after `go`: `time MS`, `nodes N`, `depth D`, `seed S`, in any order.
    pub fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut rest = words.iter();
        while let Some(&name) = rest.next() {
            let Some(&value) = rest.next() else {
                return Err(format!("go: {name} needs a value"));
            };
            let number: u64 = value
                .parse()
                .map_err(|_| format!("go: {name} takes a whole number, not {value:?}"))?;
            match name {
                "time" if (1..=MAX_TIME_MS).contains(&number) => {
                    go.time = Some(Duration::from_millis(number))
                }
                "time" => return Err(format!("go: time is 1 to {MAX_TIME_MS} ms")),
                "nodes" if number >= 1 => go.nodes = Some(number),
                "depth" if (1..=64).contains(&number) => go.depth = Some(number as u32),
                "nodes" | "depth" => return Err(format!("go: {name} {number} is out of range")),
                "seed" => go.seed = number,
                _ => {
                    return Err(format!(
                        "go: unknown limit {name:?} (time, nodes, depth, seed)"
                    ))
                }
            }
        }
        Ok(go)
    }

    /// The search options for these limits; `book`: Expert may play a book move.
    fn options(&self, stop: Option<Arc<AtomicBool>>, book: bool) -> SearchOptions {
        let limits = (self.nodes.is_some() || self.depth.is_some()).then_some(SearchLimits {
            time: None,
            nodes: self.nodes,
            depth: self.depth,
        });
        SearchOptions {
            seed: self.seed,
            time: self.time,
            limits,
            stop,
            keep_table: true,
            book,
            ..SearchOptions::default()
        }
    }
}

/// One engine: a level, the game it is asked about, and a transposition table kept from move
/// to move. `damas match` plays its in-process players through this same state, so a level
/// plays alike whether it runs inside the match or behind the protocol.
pub struct EngineState {
    level: Level,
    game: Game,
    table: TranspositionTable,
    /// Expert plays the opening book's moves (`damas engine --no-book` turns it off, so that
    /// a match measures the search alone).
    book: bool,
}

impl EngineState {
    /// Expert, in the Spanish start position, with `hash_mb` MiB of table.
    pub fn new(hash_mb: usize) -> EngineState {
        let mut table = TranspositionTable::with_memory(hash_mb.max(1).saturating_mul(1 << 20));
        // The whole of its memory, now, rather than in the middle of a first timed search.
        table.reset(u32::MAX);
        EngineState {
            level: Level::Expert,
            game: Game::new(Variant::Spanish),
            table,
            book: true,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Whether Expert may play the opening book's moves (on unless turned off).
    pub fn set_book(&mut self, book: bool) {
        self.book = book;
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A new game from `variant`'s start: the table forgets the previous game.
    pub fn new_game(&mut self, variant: Variant) {
        // Flying kings' three against one, when no table file holds it, is built in memory:
        // on another thread now, so that no move of the game waits for it (the first search
        // that needed it would otherwise spend about a second building it, far past a
        // match's clock).
        crate::ai::EndgameTables::global().build_in_memory_in_background_of(&[variant]);
        self.table.reset(u32::MAX);
        self.game = Game::new(variant);
    }

    /// The game to think about next: `start` and the moves played from it (their history
    /// counts for repetitions and the draw rules). Changes nothing on an error.
    pub fn set_position(&mut self, start: Position, moves: &[&str]) -> Result<(), String> {
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            if game.is_over() {
                return Err(format!("move {} {text:?}: the game is already over", i + 1));
            }
            game.play_text(text)
                .map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
        }
        self.game = game;
        Ok(())
    }

    /// Sets the game directly (in-process players).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// The move to play in the current position, or `None` when the side to move has none.
    pub fn go(&mut self, go: &Go, stop: Option<Arc<AtomicBool>>) -> Option<SearchResult> {
        let opts = go.options(stop, self.book);
        best_move_with_table(&self.game, self.level, &opts, &mut self.table)
    }
}

/// `info depth D score S nodes N time MS pv M1 M2 ...` for a search's result.
pub fn info_line(pos: &Position, r: &SearchResult, elapsed: Duration) -> String {
    let mut line = format!(
        "info depth {} score {} nodes {} time {} pv",
        r.depth,
        r.score,
        r.nodes,
        elapsed.as_millis()
    );
    let mut p = *pos;
    for mv in &r.pv {
        line.push(' ');
        line.push_str(&p.move_notation(mv));
        p = p.apply(mv);
    }
    line
}

/// What the caller should do after a command.
enum Next {
    Continue,
    Quit,
}

/// Runs one command and writes its answer.
fn command(
    state: &mut EngineState,
    line: &str,
    stop: &Arc<AtomicBool>,
    out: &mut impl Write,
) -> std::io::Result<Next> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&name, args)) = words.split_first() else {
        return Ok(Next::Continue);
    };
    let answer: Result<String, String> = match name {
        "quit" => return Ok(Next::Quit),
        // A stop reaches a running search through the reader (see `serve`); on its own it
        // has nothing to do.
        "stop" => return Ok(Next::Continue),
        "id" => Ok(format!("id damas {}", env!("CARGO_PKG_VERSION"))),
        "isready" => Ok("readyok".to_string()),
        "new" => match args {
            [variant] => variant
                .parse::<Variant>()
                .map(|v| {
                    state.new_game(v);
                    "ok".to_string()
                })
                .map_err(|e| e.to_string()),
            _ => Err("new takes a variant: spanish, portuguese or english".to_string()),
        },
        "level" => match args {
            [level] => level
                .parse::<Level>()
                .map(|l| {
                    state.set_level(l);
                    "ok".to_string()
                })
                .map_err(|e| e.to_string()),
            _ => Err("level takes one of easy, medium, hard, expert".to_string()),
        },
        "position" => position(state, args).map(|()| "ok".to_string()),
        "go" => {
            let go = match Go::parse(args) {
                Ok(go) => go,
                Err(e) => {
                    writeln!(out, "error {e}")?;
                    out.flush()?;
                    return Ok(Next::Continue);
                }
            };
            let started = Instant::now();
            let pos = *state.game().position();
            match state.go(&go, Some(Arc::clone(stop))) {
                Some(r) if !state.game().is_over() => {
                    writeln!(out, "{}", info_line(&pos, &r, started.elapsed()))?;
                    Ok(format!("bestmove {}", pos.move_notation(&r.mv)))
                }
                _ => Ok("bestmove none".to_string()),
            }
        }
        _ => Err(format!(
            "unknown command {name:?} (id, isready, new, level, position, go, stop, quit)"
        )),
    };
    match answer {
        Ok(text) => writeln!(out, "{text}")?,
        Err(e) => writeln!(out, "error {e}")?,
    }
    out.flush()?;
    Ok(Next::Continue)
}

/// `position start [moves ...]` or `position fen FEN [moves ...]`, in the game's variant.
fn position(state: &mut EngineState, args: &[&str]) -> Result<(), String> {
    let variant = state.game().variant();
    let (start, rest) = match args {
        ["start", rest @ ..] => (Position::start(variant), rest),
        ["fen", fen, rest @ ..] => (
            Position::from_fen(variant, fen).map_err(|e| format!("bad FEN: {e}"))?,
            rest,
        ),
        _ => return Err("position start [moves ...] or position fen FEN [moves ...]".into()),
    };
    let moves = match rest {
        [] => &[][..],
        ["moves", moves @ ..] => moves,
        _ => return Err("after the position comes `moves` and the moves".into()),
    };
    state.set_position(start, moves)
}

/// Reads commands from `input` until `quit` or its end, answering on `out`. A reader thread
/// raises the stop flag the moment `stop` or `quit` arrives, so that a running search ends
/// without waiting for its turn in the queue.
pub fn serve(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    hash_mb: usize,
    book: bool,
) -> std::io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<String>();
    let reader_stop = Arc::clone(&stop);
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            let first = line.split_whitespace().next().unwrap_or("");
            match first {
                "stop" | "quit" => reader_stop.store(true, Ordering::Relaxed),
                // Lowered here, in the order commands arrive, so that a `stop` sent after
                // this `go` is never undone by it.
                "go" => reader_stop.store(false, Ordering::Relaxed),
                _ => {}
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut state = EngineState::new(hash_mb);
    state.set_book(book);
    for line in rx {
        if let Next::Quit = command(&mut state, &line, &stop, out)? {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(state: &mut EngineState, line: &str) -> String {
        let stop = Arc::new(AtomicBool::new(false));
        let mut out = Vec::new();
        let _ = command(state, line, &stop, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn go_limits_parse_and_bad_ones_are_refused() {
        assert_eq!(
            Go::parse(&["time", "300", "seed", "7"]),
            Ok(Go {
                time: Some(Duration::from_millis(300)),
                seed: 7,
                ..Go::default()
            })
        );
        assert_eq!(Go::parse(&[]), Ok(Go::default()));
        for bad in [
            &["time"][..],
            &["time", "0"],
            &["time", "x"],
            &["nodes", "0"],
            &["depth", "65"],
            &["ply", "3"],
        ] {
            assert!(Go::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn position_with_history_is_played_and_a_bad_one_changes_nothing() {
        let mut state = EngineState::new(1);
        assert_eq!(run(&mut state, "new english"), "ok\n");
        assert_eq!(run(&mut state, "position start moves 11-15 23-19"), "ok\n");
        assert_eq!(state.game().ply(), 2);
        let answer = run(&mut state, "position start moves 11-15 11-16");
        assert!(answer.starts_with("error move 2"), "{answer}");
        assert_eq!(
            state.game().ply(),
            2,
            "an error keeps the previous position"
        );
        assert_eq!(
            run(&mut state, "position fen B:W18:B14 moves 14x23"),
            "ok\n",
            "a FEN start with a capture"
        );
        assert!(state.game().is_over());
        assert_eq!(run(&mut state, "go nodes 100"), "bestmove none\n");
        assert!(run(&mut state, "position fen X:W1 moves").starts_with("error bad FEN"));
        assert!(run(&mut state, "new klingon").starts_with("error"));
        assert!(run(&mut state, "fly").starts_with("error unknown command"));
    }

    #[test]
    fn go_answers_info_then_a_legal_best_move() {
        let mut state = EngineState::new(1);
        run(&mut state, "new spanish");
        run(&mut state, "position start moves 11-14 22-19");
        let answer = run(&mut state, "go nodes 5000");
        let lines: Vec<&str> = answer.lines().collect();
        assert_eq!(lines.len(), 2, "{answer}");
        assert!(lines[0].starts_with("info depth "), "{answer}");
        let mv = lines[1].strip_prefix("bestmove ").unwrap_or("");
        assert!(state.game().position().parse_move(mv).is_ok(), "{answer}");
    }
}
