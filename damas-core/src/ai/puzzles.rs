//! Puzzles: shots found in the computer's own games, checked by a deeper search.
//!
//! A puzzle is a position where the side to move wins material by force — at least two men
//! net, a king counting as two men, so capturing a king or crowning and winning a man both
//! count — with exactly one first move that does it. The solution line alternates the
//! solver's moves and the defence's replies and ends on the solver's move that completes the
//! win. Sets are plain text, one puzzle a line, so they can be shipped and reviewed in the
//! repository.

use super::egdb::{EndgameTables, EndgameVerdict};
use super::level::{Level, SearchLimits};
use super::search::{best_move, SearchOptions, MATE_BOUND};
use crate::engine::{Color, Game, Move, Position, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Material for the puzzle criterion, in hundredths of a man: a king counts as two men.
const MAN: i32 = 100;
const KING: i32 = 200;
/// What the solution must win, in the same units.
pub const WINNING_GAIN: i32 = 2 * MAN;
/// A move is winning when the search scores it this much above the position's static
/// evaluation (the evaluation counts a king as 1.6 men, hence less than `WINNING_GAIN`)...
const WIN_MARGIN: i32 = 150;
/// ...and another move only disqualifies the puzzle when it scores above this: the gap
/// between the two keeps borderline positions out.
const OTHER_MARGIN: i32 = 90;
/// Positions already this unbalanced are not puzzles: the game is decided.
const MAX_IMBALANCE: i32 = 2 * MAN;

/// Most moves a puzzle's position may offer: what one select menu lists.
const MAX_MOVES: usize = 25;

/// Plies searched when checking a puzzle. Every shipped puzzle's first move was the only
/// winning one at this depth (the tests check a sample again).
pub const VERIFY_DEPTH: u32 = 9;

/// The depth of the search that judges a solver's move other than the line's where the
/// endgame tables do not hold the position (`/move`): the deepest the shipped sets were
/// checked at.
pub const JUDGE_DEPTH: u32 = VERIFY_DEPTH;

/// How far past [`JUDGE_DEPTH`] a set's check looks for a winning move the judge would refuse
/// at one of the solver's turns ([`refused_winners`]): a puzzle with one tells a solver who
/// found a win that it is wrong, so the check retires it.
pub const DEEPER_DEPTH: u32 = JUDGE_DEPTH + 2;

/// One puzzle of a shipped set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its number in its set, from 1, increasing down the file. Stable: a set is only appended
    /// to, and a puzzle that no longer holds is retired with its number, never reused — a
    /// solver's stored session names its puzzle by it.
    pub id: u32,
    pub position: Position,
    /// The solver's and the defence's moves alternately, starting and ending with the
    /// solver's.
    pub line: Vec<Move>,
    /// 1 (one move) to 5: the number of the solver's moves in the line.
    pub difficulty: u8,
}

impl Puzzle {
    /// The side that solves: the side to move in the puzzle's position.
    pub fn solver(&self) -> Color {
        self.position.side_to_move()
    }

    /// Whether the line wins the game outright (the defence is left without a move), rather
    /// than material.
    pub fn wins_the_game(&self) -> bool {
        let mut pos = self.position;
        for mv in &self.line {
            pos = pos.apply(mv);
        }
        pos.count_legal_moves() == 0
    }

    /// The line in canonical notation, one move per entry.
    pub fn line_notation(&self) -> Vec<String> {
        let mut pos = self.position;
        self.line
            .iter()
            .map(|mv| {
                let text = pos.move_notation(mv);
                pos = pos.apply(mv);
                text
            })
            .collect()
    }

    /// The position after the first `ply` moves of the line (the whole line if it is
    /// shorter).
    pub fn position_at(&self, ply: usize) -> Position {
        self.line[..ply.min(self.line.len())]
            .iter()
            .fold(self.position, |p, m| p.apply(m))
    }

    /// The plies of the line where the solver is to move: 0, 2, 4…
    pub fn solver_plies(&self) -> impl Iterator<Item = usize> {
        (0..self.line.len()).step_by(2)
    }

    /// A starting strength for the puzzle's rating, from its difficulty.
    pub fn rating(&self) -> f64 {
        1200.0 + 150.0 * f64::from(self.difficulty.saturating_sub(1))
    }
}

/// Why a puzzle file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle file line {line}: {reason}")]
pub struct PuzzleFileError {
    pub line: usize,
    pub reason: String,
}

/// Reads a puzzle set: `#` lines are comments; each other line is
/// `id<TAB>FEN<TAB>moves separated by spaces<TAB>difficulty`. Every move must be legal in
/// turn and the line must start and end with the solver's move.
pub fn parse_set(variant: Variant, text: &str) -> Result<Vec<Puzzle>, PuzzleFileError> {
    let mut puzzles = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: String| PuzzleFileError {
            line: i + 1,
            reason,
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, fen, moves, difficulty] = fields[..] else {
            return Err(err(format!(
                "expected 4 tab-separated fields, found {}",
                fields.len()
            )));
        };
        let id: u32 = id.parse().map_err(|_| err(format!("bad id {id:?}")))?;
        // Ids may skip retired puzzles but never repeat: a session finds its puzzle by id.
        if let Some(before) = puzzles.last().map(|p: &Puzzle| p.id) {
            if id <= before {
                return Err(err(format!("id {id} after {before}: ids must increase")));
            }
        }
        let position =
            Position::from_fen(variant, fen).map_err(|e| err(format!("bad FEN {fen:?}: {e}")))?;
        let mut pos = position;
        let mut line_moves = Vec::new();
        for text in moves.split_whitespace() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| err(format!("move {text} is not legal in {}: {e}", pos.fen())))?;
            pos = pos.apply(&mv);
            line_moves.push(mv);
        }
        if line_moves.len() % 2 == 0 {
            return Err(err(
                "the line must end with the solver's move (an odd number of moves)".into(),
            ));
        }
        let difficulty: u8 = difficulty
            .parse()
            .ok()
            .filter(|d| (1..=5).contains(d))
            .ok_or_else(|| err(format!("bad difficulty {difficulty:?}: use 1 to 5")))?;
        puzzles.push(Puzzle {
            id,
            position,
            line: line_moves,
            difficulty,
        });
    }
    Ok(puzzles)
}

/// Writes a set in the format [`parse_set`] reads, after `header` (each of its lines becomes a
/// `#` comment).
pub fn format_set(header: &str, puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(
        out,
        "# fields, tab-separated: id, FEN, the solution (solver and defence alternately), difficulty 1-5"
    );
    for p in puzzles {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}",
            p.id,
            p.position.fen(),
            p.line_notation().join(" "),
            p.difficulty
        );
    }
    out
}

/// Material of `color` minus its opponent's, in the puzzle's units.
fn material(pos: &Position, color: Color) -> i32 {
    let of = |c: Color| MAN * pos.men(c).count() as i32 + KING * pos.kings(c).count() as i32;
    of(color) - of(color.opposite())
}

/// The search's score for the side to move in `pos` at `depth`, with its expected line.
/// Forced replies (a single legal move) are played out first, since the search scores a
/// forced position statically.
fn score_line(
    pos: &Position,
    level: Level,
    depth: u32,
    seed: u64,
    tables: Option<&EndgameTables>,
) -> (i32, Vec<Move>) {
    let mut pos = *pos;
    let mut line = Vec::new();
    let mut sign = 1;
    loop {
        let legal = pos.legal_moves();
        match legal.len() {
            0 => return (-sign * super::MATE, line),
            1 if line.len() < 40 => {
                line.push(legal[0]);
                pos = pos.apply(&legal[0]);
                sign = -sign;
            }
            _ => break,
        }
    }
    let opts = SearchOptions {
        seed,
        limits: Some(SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }),
        weights_only: true,
        without_shallow_cuts: true,
        endgame_tables: tables.cloned(),
        ..SearchOptions::default()
    };
    let game = Game::from_position(pos);
    match best_move(&game, level, &opts) {
        Some(r) => {
            line.extend(r.pv);
            (sign * r.score, line)
        }
        None => (-sign * super::MATE, line),
    }
}

/// Every legal move of `pos` with the search's score for the mover and the line after it.
fn score_moves(pos: &Position, depth: u32, tables: &EndgameTables) -> Vec<(Move, i32, Vec<Move>)> {
    pos.legal_moves()
        .iter()
        .map(|mv| {
            let (score, line) =
                score_line(&pos.apply(mv), Level::Expert, depth - 1, 0, Some(tables));
            (*mv, -score, line)
        })
        .collect()
}

/// Whether `score` (for the mover) wins against `baseline`, the static evaluation.
fn wins(score: i32, baseline: i32) -> bool {
    score > MATE_BOUND || score - baseline >= WIN_MARGIN
}

/// Whether `mv`, the solver's move at `ply` of `puzzle`'s line (the solver to move there),
/// wins as a solution must: where the endgame tables hold the position, by their verdict;
/// elsewhere by the check that found the puzzle — the search at `depth` scoring it
/// [`WIN_MARGIN`] above the puzzle's static evaluation, or a forced win. The line's own move
/// wins by construction; this is for another move a solver finds.
pub fn wins_too(
    puzzle: &Puzzle,
    ply: usize,
    mv: &Move,
    depth: u32,
    tables: &EndgameTables,
) -> bool {
    let pos = puzzle.position_at(ply);
    if pos.side_to_move() != puzzle.solver() || !pos.legal_moves().contains(mv) {
        return false;
    }
    if let Some(rated) = tables.rate_moves(&Game::from_position(pos)) {
        return rated
            .iter()
            .any(|(m, v)| m == mv && matches!(v, EndgameVerdict::Win { .. }));
    }
    let baseline = super::eval::weighted(&puzzle.position);
    let (score, _) = score_line(
        &pos.apply(mv),
        Level::Expert,
        depth.saturating_sub(1).max(1),
        0,
        Some(tables),
    );
    wins(-score, baseline)
}

/// The one move of `pos` that wins at `depth`, with the line after it, or `None` when no move
/// or more than one move wins. Where the endgame tables hold the position they decide,
/// exactly: the one move they call a win, when no other move wins.
fn unique_winner(
    pos: &Position,
    depth: u32,
    baseline: i32,
    tables: &EndgameTables,
) -> Option<(Move, Vec<Move>)> {
    if let Some(exact) = exact_winner(pos, tables) {
        return exact;
    }
    let scored = score_moves(pos, depth, tables);
    let mut winners = scored.iter().filter(|(_, s, _)| wins(*s, baseline));
    let (mv, _, line) = winners.next()?;
    if winners.next().is_some() {
        return None;
    }
    let others_quiet = scored
        .iter()
        .filter(|(m, _, _)| m != mv)
        .all(|(_, s, _)| *s < MATE_BOUND && s - baseline <= OTHER_MARGIN);
    others_quiet.then(|| (*mv, line.clone()))
}

/// Where the endgame tables hold `pos`: `Some` of the one move that wins and the tables'
/// line after it (the defence first), or `Some(None)` when no move or several moves win.
fn exact_winner(pos: &Position, tables: &EndgameTables) -> Option<Option<(Move, Vec<Move>)>> {
    let game = Game::from_position(*pos);
    let rated = tables.rate_moves(&game)?;
    let mut winners = rated
        .iter()
        .filter(|(_, v)| matches!(v, EndgameVerdict::Win { .. }));
    let (Some((mv, _)), None) = (winners.next(), winners.next()) else {
        return Some(None);
    };
    let mut after = game.clone();
    if after.play(*mv).is_err() {
        return Some(None);
    }
    let line = match tables.best_move(&after, |p| -super::eval::weighted(p)) {
        Some((_, _, line)) => line,
        None => Vec::new(),
    };
    Some(Some((*mv, line)))
}

/// Checks `pos` as a puzzle at `depth`: its solution line when the side to move wins at least
/// [`WINNING_GAIN`] with a unique first move and a unique move at each of its later turns in
/// the line; `None` otherwise. Positions the process's endgame tables hold are judged by them.
pub fn solve(pos: &Position, depth: u32) -> Option<Vec<Move>> {
    solve_with(pos, depth, EndgameTables::global())
}

/// [`solve`] with the endgame tables `tables`.
pub fn solve_with(pos: &Position, depth: u32, tables: &EndgameTables) -> Option<Vec<Move>> {
    // More moves than a menu can list would leave the menu without the answer.
    if pos.has_capture() || !(2..=MAX_MOVES).contains(&pos.count_legal_moves()) {
        return None;
    }
    let solver = pos.side_to_move();
    let start_material = material(pos, solver);
    if start_material.abs() > MAX_IMBALANCE {
        return None;
    }
    let baseline = super::eval::weighted(pos);
    let (first, rest) = unique_winner(pos, depth, baseline, tables)?;
    let mut full = vec![first];
    full.extend(rest);
    let line = cut_line(pos, &full, start_material)?;
    // Later turns of the solver must not have a second winning move either.
    let mut at = pos.apply(&line[0]);
    for (i, mv) in line.iter().enumerate().skip(1) {
        if i % 2 == 0 && at.count_legal_moves() > 1 {
            let later_depth = depth.saturating_sub(i as u32).max(5);
            let (unique, _) = unique_winner(&at, later_depth, baseline, tables)?;
            if unique != *mv {
                return None;
            }
        }
        at = at.apply(mv);
    }
    Some(line)
}

/// The depth a set was checked at: the `--verify-depth` of the first generating command in
/// its header (`# generated by: …`), else [`VERIFY_DEPTH`] (the generator's default).
pub fn verified_depth(text: &str) -> u32 {
    text.lines()
        .find(|l| l.starts_with("# generated by:"))
        .and_then(|command| {
            let mut words = command.split_whitespace();
            words.find(|w| *w == "--verify-depth");
            words.next().and_then(|d| d.parse().ok())
        })
        .unwrap_or(VERIFY_DEPTH)
}

/// What a fresh check makes of a shipped puzzle, after the search or its evaluation changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// The check finds the puzzle's own solution line.
    Holds,
    /// The first move is still the only winning one, but the check's line (given) differs.
    NewLine(Vec<Move>),
    /// The first move is no longer the only winning one: no move wins, or several do.
    Gone,
    /// The first move wins alone at the check's depth, but at these turns of the line (the
    /// ply, the move) a deeper search finds another move winning too, and `/move`'s judge
    /// would call it wrong.
    Refused(Vec<(usize, Move)>),
}

/// Checks `puzzle` again at `depth`, as [`solve`] checked it when it was found; then, when
/// its first move still wins alone and `deeper` is given, looks at that depth for a winning
/// move the judge would refuse at any of the solver's turns ([`refused_winners`]). Positions
/// the process's endgame tables hold are judged by them.
pub fn recheck(puzzle: &Puzzle, depth: u32, deeper: Option<u32>) -> Recheck {
    let tables = EndgameTables::global();
    let result = match solve_with(&puzzle.position, depth, tables) {
        Some(line) if line == puzzle.line => Recheck::Holds,
        Some(line) if line.first() == puzzle.line.first() => Recheck::NewLine(line),
        _ => return Recheck::Gone,
    };
    match deeper.map(|d| refused_winners(puzzle, d, tables)) {
        Some(refused) if !refused.is_empty() => Recheck::Refused(refused),
        _ => result,
    }
}

/// The moves of `puzzle` at the solver's turns (the ply of the line, the move), other than
/// the line's, that win at `depth` (by [`wins_too`]'s rule) and that `/move`'s judge — the
/// same rule at [`JUDGE_DEPTH`] — refuses: a solver playing one would be told a winning move
/// is wrong, at the first turn or any later one. Where the endgame tables hold the position
/// both answer with the tables' verdict, so none is refused.
pub fn refused_winners(puzzle: &Puzzle, depth: u32, tables: &EndgameTables) -> Vec<(usize, Move)> {
    let mut refused = Vec::new();
    for ply in puzzle.solver_plies() {
        let line_move = puzzle.line[ply];
        for mv in puzzle.position_at(ply).legal_moves().iter() {
            if *mv != line_move
                && wins_too(puzzle, ply, mv, depth, tables)
                && !wins_too(puzzle, ply, mv, JUDGE_DEPTH, tables)
            {
                refused.push((ply, *mv));
            }
        }
    }
    refused
}

/// The shortest prefix of `full` (the expected line from `pos`) that ends with the solver's
/// move and after which the solver is at least [`WINNING_GAIN`] up for the rest of the line.
fn cut_line(pos: &Position, full: &[Move], start_material: i32) -> Option<Vec<Move>> {
    let solver = pos.side_to_move();
    let mut gains = Vec::with_capacity(full.len());
    let mut at = *pos;
    for mv in full {
        if !at.legal_moves().contains(mv) {
            return None;
        }
        at = at.apply(mv);
        gains.push(material(&at, solver) - start_material);
    }
    let won_for_good = |i: usize| gains[i..].iter().all(|g| *g >= WINNING_GAIN);
    let end = (0..gains.len()).step_by(2).find(|&i| won_for_good(i))?;
    // The defence must have no capture left that would take material back beyond the line.
    Some(full[..=end].to_vec())
}

/// The difficulty of a line: the number of the solver's moves, at most 5.
pub fn difficulty(line: &[Move]) -> u8 {
    (line.len().div_ceil(2)).clamp(1, 5) as u8
}

/// How a generation run goes, for its progress log.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenerationStats {
    pub games: u64,
    pub candidates: u64,
    pub found: usize,
    /// Puzzles dropped for a winning first move the judge would refuse.
    pub refused: u64,
}

/// The budgets of a generation run.
#[derive(Clone, Copy, Debug)]
pub struct GenerationSettings {
    pub variant: Variant,
    pub count: usize,
    pub seed: u64,
    /// Hard's node budget in the self-play games.
    pub play_nodes: u64,
    /// Depth of the quick look that picks candidates.
    pub scan_depth: u32,
    /// Depth of the check that keeps them.
    pub verify_depth: u32,
    /// Depth at which a kept puzzle is searched again for a winning first move `/move`'s
    /// judge would refuse ([`refused_winners`]), which drops it; `None` skips the look.
    pub deeper_depth: Option<u32>,
    /// Random plies at the start of each game, for varied openings: from 2 to this.
    pub opening_plies: u32,
}

impl GenerationSettings {
    pub fn new(variant: Variant, count: usize, seed: u64) -> GenerationSettings {
        GenerationSettings {
            variant,
            count,
            seed,
            play_nodes: 20_000,
            scan_depth: 6,
            verify_depth: VERIFY_DEPTH,
            deeper_depth: Some(DEEPER_DEPTH),
            opening_plies: 8,
        }
    }
}

/// Plays games at Hard from random openings and keeps the puzzles found in them — in each
/// position reached, and in each position one other move away (the shots a slip would
/// allow) — until `count` are found. `found` hears of each new puzzle and the run's figures;
/// returning false stops the run.
pub fn generate(
    settings: &GenerationSettings,
    mut found: impl FnMut(&Puzzle, &GenerationStats) -> bool,
) -> Vec<Puzzle> {
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut seen: HashSet<String> = HashSet::new();
    // Neighbouring positions often hold the same shot: one puzzle per solution line.
    let mut lines: HashSet<Vec<String>> = HashSet::new();
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut stats = GenerationStats::default();
    let play = SearchOptions {
        limits: Some(SearchLimits {
            nodes: Some(settings.play_nodes),
            ..SearchLimits::default()
        }),
        ..SearchOptions::default()
    };
    while puzzles.len() < settings.count {
        stats.games += 1;
        let mut game = Game::new(settings.variant);
        let opening = rng.gen_range(2..=settings.opening_plies.max(2));
        while !game.is_over() && game.ply() < 300 {
            let pos = *game.position();
            let legal = pos.legal_moves();
            let mv = if (game.ply() as u32) < opening {
                *legal.choose(&mut rng).unwrap_or(&legal[0])
            } else {
                let opts = SearchOptions {
                    seed: rng.gen(),
                    ..play.clone()
                };
                match best_move(&game, Level::Hard, &opts) {
                    Some(r) => r.mv,
                    None => break,
                }
            };
            // The position reached and its neighbours through the other moves.
            for other in legal.iter() {
                let candidate = pos.apply(other);
                if !seen.insert(candidate.fen()) {
                    continue;
                }
                if !looks_like_a_shot(&candidate, settings.scan_depth) {
                    continue;
                }
                stats.candidates += 1;
                if let Some(line) = solve(&candidate, settings.verify_depth) {
                    let puzzle = Puzzle {
                        id: puzzles.len() as u32 + 1,
                        position: candidate,
                        difficulty: difficulty(&line),
                        line,
                    };
                    if !lines.insert(puzzle.line_notation()) {
                        continue;
                    }
                    let refused = settings
                        .deeper_depth
                        .map(|d| refused_winners(&puzzle, d, EndgameTables::global()).is_empty());
                    if refused == Some(false) {
                        stats.refused += 1;
                        continue;
                    }
                    puzzles.push(puzzle);
                    stats.found = puzzles.len();
                    if !found(puzzles.last().expect("just pushed"), &stats)
                        || puzzles.len() >= settings.count
                    {
                        return puzzles;
                    }
                }
            }
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    puzzles
}

/// The quick filter: a shallow search already sees the side to move winning.
fn looks_like_a_shot(pos: &Position, depth: u32) -> bool {
    if pos.has_capture() || pos.count_legal_moves() < 2 {
        return false;
    }
    let solver = pos.side_to_move();
    if material(pos, solver).abs() > MAX_IMBALANCE {
        return false;
    }
    let baseline = super::basic_evaluation(pos);
    let (score, _) = score_line(pos, Level::Hard, depth, 0, None);
    wins(score, baseline)
}
