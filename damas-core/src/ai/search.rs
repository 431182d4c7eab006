//! The alpha-beta search behind every level.
//!
//! One searcher, configured per level by a [`Style`]: negamax with principal-variation
//! search, iterative deepening, late move reductions, shallow cuts (a null-window node that a
//! search at two fifths of its depth already wins by a margin is cut), and a capture search
//! at the horizon — captures are mandatory, so a position where one is pending is never
//! judged statically. The game's history comes in with the [`Game`], so the search knows
//! which positions would repeat and how far the no-progress and three-kings counts have run:
//! a draw scores 0, which the side ahead avoids and the side behind seeks.

use super::book::{self, Book, BookPolicy};
use super::egdb::{EndgameTables, EndgameVerdict};
use super::eval;
use super::hash::{self, Bound, Table};
use super::level::{Level, SearchLimits};
use super::network::{PathAccumulators, QuantizedNetwork, PATH_PLIES};
use crate::engine::{Color, DrawCounters, Game, Move, MoveList, Position, Square, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a win now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses found by the search, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Scores beyond this, up to [`MATE_BOUND`], are wins and losses the endgame tables prove: a
/// win converting in `n` plies from the root scores `MATE_BOUND - n` (the game may last
/// longer, so it ranks below any win the search sees to the end).
pub const TABLE_BOUND: i32 = MATE_BOUND - 1_000;
const INFINITY: i32 = MATE + 1;
/// Deepest path the search follows, captures and extensions included: as deep as the
/// network's path goes.
const MAX_PLY: usize = PATH_PLIES;
/// Deepest nominal iteration.
const MAX_DEPTH: u32 = 64;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;

/// What the caller may change about a level's search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// Seeds the random choices (Easy's random moves and noise, the order in which equal
    /// moves are tried): the same seed and the same limits give the same move.
    pub seed: u64,
    /// Replaces the level's time limit (Expert's 2 s), or adds one to a level without.
    pub time: Option<Duration>,
    /// Replaces all of the level's limits (tests and benchmarks use nodes or depth, which
    /// do not depend on the machine). `time` still applies on top when set.
    pub limits: Option<SearchLimits>,
    /// Set to true from another thread to stop the search; the best move found so far is
    /// returned.
    pub stop: Option<Arc<AtomicBool>>,
    /// Lets the caller cut the clock short while the search runs (the search pool does when
    /// a quick or short job waits for this search's thread).
    pub hurry: Option<Hurry>,
    /// The endgame tables the levels that use them probe; `None` for the process's own
    /// ([`EndgameTables::global`]).
    pub endgame_tables: Option<EndgameTables>,
    /// With a table of the caller's ([`best_move_with_table`]): keep what earlier searches
    /// stored instead of emptying it first. An engine playing one game keeps its table from
    /// move to move (`damas engine`); the stored scores belong to positions, not to the
    /// root, so they stay valid as the game goes on.
    pub keep_table: bool,
    /// Expert judges with its weights alone, without the network's correction — for the
    /// puzzles, whose margins (a win is 1.5 men over the static score) count material.
    pub weights_only: bool,
    /// Expert searches without its shallow cuts (every node at its full depth, as before
    /// they came) — for the puzzles, whose sets were verified at a depth that must keep
    /// meaning the same tree: a cut made on a shallower look can miss a shot's refutation.
    pub without_shallow_cuts: bool,
    /// Expert plays a move of the variant's built-in opening book, without searching, when
    /// the book knows the position well ([`BookPolicy::of`] the variant; drawn with `seed`)
    /// and the variant's book is one Expert plays ([`book::played_by_expert`]).
    /// Only for the moves Expert plays: a judge of positions (the review, the puzzles, the
    /// ballot's verdicts) wants the search's score.
    pub book: bool,
}

/// A clock that can be shortened from another thread while the search runs, which then
/// returns its deepest completed iteration as usual (at once if the new limit has passed):
/// once `flag` is raised it thinks no longer than `within` in all; with `waiting`, its clock
/// shrinks as that count grows, by [`time_under_load`] with `within` as the floor.
#[derive(Clone, Debug)]
pub struct Hurry {
    pub flag: Arc<AtomicBool>,
    pub within: Duration,
    /// How many jobs wait for the search threads now (the search pool's queue).
    pub waiting: Option<Arc<AtomicUsize>>,
}

/// A clock of `base` shared out among `waiting` more searches: `base / (1 + waiting)`, never
/// less than `floor` nor more than `base`. If each waiting search also thinks about that long,
/// the whole queue drains in about one `base`.
pub fn time_under_load(base: Duration, waiting: usize, floor: Duration) -> Duration {
    let shrunk = base / u32::try_from(waiting.saturating_add(1)).unwrap_or(u32::MAX);
    shrunk.max(floor).min(base)
}

/// The chosen move and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub mv: Move,
    /// For the side to move, in hundredths of a man; beyond ±[`MATE_BOUND`] a forced win
    /// or loss.
    pub score: i32,
    /// The deepest completed iteration (0 when the move was forced or random).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with `mv`.
    pub pv: Vec<Move>,
}

/// The best move for the side to move in `game`'s current position, or `None` when it has no
/// legal move. Runs on the calling thread until a limit is reached or `stop` is set.
pub fn best_move(game: &Game, level: Level, opts: &SearchOptions) -> Option<SearchResult> {
    search_with(game, level, opts, None)
}

/// [`best_move`] using `table` (emptied first, unless [`SearchOptions::keep_table`])
/// instead of allocating one, for callers that keep a table per thread. The same game, level
/// and options give the same move as [`best_move`] as long as the table's memory holds what
/// the search asks for and the table is emptied.
pub fn best_move_with_table(
    game: &Game,
    level: Level,
    opts: &SearchOptions,
    table: &mut Table,
) -> Option<SearchResult> {
    search_with(game, level, opts, Some(table))
}

fn search_with(
    game: &Game,
    level: Level,
    opts: &SearchOptions,
    external: Option<&mut Table>,
) -> Option<SearchResult> {
    // The clock starts now: emptying or allocating the table is part of the move's time.
    search_on(game, level, opts, external, Clock::Wall(Instant::now()))
}

fn search_on(
    game: &Game,
    level: Level,
    opts: &SearchOptions,
    external: Option<&mut Table>,
    clock: Clock,
) -> Option<SearchResult> {
    let pos = *game.position();
    let legal = pos.legal_moves();
    let first = *legal.first()?;
    let mut style = Style::of(level);
    if opts.weights_only && style.eval == EvalKind::Rich {
        style.eval = EvalKind::Weights;
    }
    if opts.without_shallow_cuts {
        style.shallow_cuts = false;
    }
    let static_score = |p: &Position| style.eval.score(p);
    // A move chosen without a search (the only one, the book's, a random one): judged by the
    // evaluation alone.
    let unsearched = |mv: Move| SearchResult {
        mv,
        score: static_score(&pos),
        depth: 0,
        nodes: 0,
        pv: vec![mv],
    };
    let mut limits = opts.limits.unwrap_or(level.limits());
    if opts.time.is_some() {
        limits.time = opts.time;
    }
    let tables = style.endgame_table.then(|| {
        opts.endgame_tables
            .clone()
            .unwrap_or_else(|| EndgameTables::global().clone())
    });
    if let Some(tables) = &tables {
        if limits.time.is_some() || opts.hurry.is_some() {
            // A search on a clock never builds tables in its own time (the kings against one
            // the tables make for themselves take half a second): they are built on another
            // thread, and until they are ready the search goes without them.
            tables.build_in_memory_in_background_of(&[pos.variant()]);
        }
        // A position the tables hold is not searched: their move, their line.
        if let Some((mv, verdict, pv)) = tables.best_move(game, |p| -static_score(p)) {
            return Some(SearchResult {
                mv,
                score: table_score(verdict, 0),
                depth: 0,
                nodes: 0,
                pv,
            });
        }
    }
    if legal.len() == 1 {
        return Some(unsearched(first));
    }
    if opts.book && level == Level::Expert && book::played_by_expert(pos.variant()) {
        let book = Book::embedded(pos.variant());
        let policy = BookPolicy::of(pos.variant());
        if let Some(mv) = book.and_then(|b| b.choose(&pos, &policy, opts.seed)) {
            return Some(unsearched(mv));
        }
    }
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    if style.random_one_in > 0 && rng.gen_ratio(1, style.random_one_in) {
        let mv = *legal.choose(&mut rng).unwrap_or(&first);
        return Some(unsearched(mv));
    }
    // The table is sized for the clock as it stands now (shrunk by a queue, if any): a
    // search cut to 0.1 s has no use for, and should not clear, a table sized for 2 s.
    let bits = table_bits(&SearchLimits {
        time: Searcher::clock(limits.time, opts.hurry.as_ref()),
        ..limits
    });
    let mut own_table;
    let table = match (style.transposition_table, external) {
        (false, _) => None,
        (true, Some(t)) => {
            if !opts.keep_table || !t.has_storage() {
                t.reset(bits);
            } else {
                t.new_search();
            }
            Some(t)
        }
        (true, None) => {
            own_table = Table::new(bits);
            Some(&mut own_table)
        }
    };
    let mut searcher = Searcher::new(game, style, limits, opts, rng.gen(), table, clock);
    searcher.tables = tables;
    let mut root: Vec<Move> = legal.to_vec();
    root.shuffle(&mut rng);
    Some(searcher.iterate(root))
}

/// The size of transposition table a search within `limits` wants, in bits of entries:
/// enough for the nodes it can visit, up to 2^20 entries (16 MiB).
fn table_bits(limits: &SearchLimits) -> u32 {
    let expected = match (limits.nodes, limits.time) {
        (Some(n), _) => n,
        (None, Some(t)) => t.as_millis() as u64 * 2_000,
        (None, None) => 1 << 20,
    };
    (64 - expected.max(1).leading_zeros()).clamp(12, 20)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum EvalKind {
    Basic,
    Rich,
    /// Rich without the network.
    Weights,
}

impl EvalKind {
    #[inline(always)]
    fn score(self, pos: &Position) -> i32 {
        match self {
            EvalKind::Basic => eval::basic(pos),
            EvalKind::Rich => eval::expert(pos),
            EvalKind::Weights => eval::weighted(pos),
        }
    }
}

/// What distinguishes the levels besides their limits.
#[derive(Clone, Copy, Debug)]
struct Style {
    eval: EvalKind,
    /// Uniform noise of ± this much on every evaluation.
    noise: i32,
    /// Play a random move once in this many moves (0: never).
    random_one_in: u32,
    /// Follow capture sequences past the horizon.
    captures_at_horizon: bool,
    transposition_table: bool,
    /// Killer moves and the history heuristic for ordering quiet moves.
    quiet_ordering: bool,
    /// Search a forced move (the only legal one) without using up depth.
    extend_forced: bool,
    /// Late move reductions: later quiet moves first get a shallower look.
    reductions: bool,
    /// Cut a node early when a much shallower search already beats its beta by a margin.
    shallow_cuts: bool,
    /// Probe the endgame tables, at the root and in the tree.
    endgame_table: bool,
}

impl Style {
    fn of(level: Level) -> Style {
        let base = Style {
            eval: EvalKind::Basic,
            noise: 0,
            random_one_in: 0,
            captures_at_horizon: true,
            transposition_table: false,
            quiet_ordering: false,
            extend_forced: false,
            reductions: false,
            shallow_cuts: false,
            endgame_table: false,
        };
        match level {
            Level::Easy => Style {
                noise: 150,
                random_one_in: 4,
                captures_at_horizon: false,
                ..base
            },
            Level::Medium => base,
            Level::Hard => Style {
                quiet_ordering: true,
                extend_forced: true,
                ..base
            },
            Level::Expert => Style {
                eval: EvalKind::Rich,
                transposition_table: true,
                quiet_ordering: true,
                extend_forced: true,
                reductions: true,
                shallow_cuts: true,
                endgame_table: true,
                ..base
            },
        }
    }
}

/// A node's position and the counts of the draw rules, stepped as the game steps them.
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    key: u64,
    counters: DrawCounters,
}

struct Searcher<'a> {
    variant: Variant,
    style: Style,
    limits: SearchLimits,
    max_nodes: u64,
    clock: Clock,
    stop: Option<&'a AtomicBool>,
    hurry: Option<&'a Hurry>,
    aborted: bool,
    /// Inside a shallow cut's own search, which cuts nothing itself.
    in_shallow_cut: bool,
    nodes: u64,
    noise_seed: u64,
    table: Option<&'a mut Table>,
    /// Keys of the game's positions, then of the positions on the current search path.
    keys: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: [[i32; 32]; 32],
    /// Triangular principal-variation table: row `ply` holds the line from that ply.
    pv: Vec<Move>,
    pv_len: [usize; MAX_PLY],
    root: Node,
    tables: Option<EndgameTables>,
    /// The variant's weights and network, looked up once per search, not at every leaf.
    weights: &'static eval::Weights,
    /// The network's first layer along the current path, only when the level judges with a
    /// network and the variant has one: each move made records its position
    /// ([`Searcher::enter_child`]) and an evaluation steps the sums it reads; a node's children
    /// overwrite one ply in turn, so leaving a child needs no undoing.
    network: Option<PathAccumulators<'static>>,
}

impl<'a> Searcher<'a> {
    fn new(
        game: &Game,
        style: Style,
        limits: SearchLimits,
        opts: &'a SearchOptions,
        noise_seed: u64,
        table: Option<&'a mut Table>,
        clock: Clock,
    ) -> Searcher<'a> {
        let pos = *game.position();
        let keys: Vec<u64> = game.positions().iter().map(hash::position_key).collect();
        let root = Node {
            pos,
            key: hash::position_key(&pos),
            counters: game.draw_counters(),
        };
        let dummy = Move::step(Square::from_index(0), Square::from_index(0));
        let network = match style.eval {
            EvalKind::Rich => QuantizedNetwork::of(pos.variant()),
            EvalKind::Basic | EvalKind::Weights => None,
        }
        .map(|net| PathAccumulators::new(net, &pos));
        Searcher {
            variant: pos.variant(),
            style,
            limits,
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            clock,
            stop: opts.stop.as_deref(),
            hurry: opts.hurry.as_ref(),
            aborted: false,
            in_shallow_cut: false,
            nodes: 0,
            noise_seed,
            table,
            keys,
            killers: [[None; 2]; MAX_PLY],
            history: [[0; 32]; 32],
            pv: vec![dummy; MAX_PLY * MAX_PLY],
            pv_len: [0; MAX_PLY],
            root,
            tables: None,
            weights: eval::Weights::of(pos.variant()),
            network,
        }
    }

    /// Iterative deepening over the root moves, best first.
    fn iterate(&mut self, mut root_moves: Vec<Move>) -> SearchResult {
        // Captures first, by size; the shuffle before keeps equal moves in a seeded order.
        root_moves.sort_by_key(|m| std::cmp::Reverse(capture_rank(m)));
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root = self.root;
        let mut best = SearchResult {
            mv: root_moves[0],
            score: self.evaluate(&root.pos, root.key, 0),
            depth: 0,
            nodes: 0,
            pv: vec![root_moves[0]],
        };
        // The time the last two completed iterations took, the latest last.
        let mut took: [Option<Duration>; 2] = [None, None];
        for depth in 1..=max_depth {
            let iteration_started = self.elapsed();
            let (leader, leader_score) = (root_moves[0], best.score);
            let (score, index, complete) = self.search_root(&mut root_moves, depth as i32);
            if let Some(i) = index {
                // An unfinished iteration still counts when its best move was fully searched
                // and beat the first move, the previous iteration's best.
                if complete || i != 0 {
                    best.mv = root_moves[i];
                    best.score = score;
                    best.pv = self.pv[..self.pv_len[0]].to_vec();
                    if complete {
                        best.depth = depth;
                    }
                    // The best move leads the next iteration.
                    root_moves[..=i].rotate_right(1);
                }
            }
            if !complete || self.aborted {
                break;
            }
            if score.abs() > MATE_BOUND && depth >= 4 {
                // A forced result: a shorter win would have shown at a smaller depth.
                break;
            }
            if let Some(hard) = self.time_limit() {
                let elapsed = self.elapsed();
                took = [took[1], Some(elapsed.saturating_sub(iteration_started))];
                let unsettled = Unsettled {
                    best_move_changed: depth > 1 && root_moves[0] != leader,
                    score_dropped: depth > 1 && leader_score - score >= SCORE_DROP_MARGIN,
                };
                let predicted = predicted_iteration(took);
                if !start_next_iteration(elapsed, hard, predicted, unsettled) {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        if best.pv.first() != Some(&best.mv) {
            best.pv = vec![best.mv];
        }
        best
    }

    /// One iteration at the root: (best score, index of the best move, whether every move
    /// was searched).
    fn search_root(&mut self, moves: &mut [Move], depth: i32) -> (i32, Option<usize>, bool) {
        let root = self.root;
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best: Option<usize> = None;
        self.pv_len[0] = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = self.child(&root, &mv);
            self.enter_child(1, &child.pos);
            self.keys.push(child.key);
            let score = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.aborted {
                    -self.search(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.aborted {
                return (alpha, best, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(i);
                self.update_pv(0, &mv);
            }
        }
        if let (Some(t), Some(i)) = (self.table.as_mut(), best) {
            t.store(
                tt_key(&root),
                depth,
                to_table(alpha, 0),
                Bound::Exact,
                Some(&moves[i]),
            );
        }
        (alpha, best, true)
    }

    /// Negamax with alpha-beta. `depth <= 0` is the capture search.
    fn search(&mut self, node: &Node, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        // Captures are compulsory: with one on the board every legal move captures. Most nodes
        // are quiet leaves, which need only know that a move exists, not list them.
        let capturing = node.pos.has_capture();
        if !capturing && node.pos.count_plain_moves() == 0 {
            return -(MATE - ply as i32);
        }
        if self.is_draw(node) {
            return 0;
        }
        if let Some(tables) = &self.tables {
            if let Some(verdict) = tables.probe(&node.pos, &node.counters) {
                return table_score(verdict, ply);
            }
        }
        if ply + 1 >= MAX_PLY {
            return self.evaluate(&node.pos, node.key, ply);
        }
        if depth <= 0 && (!capturing || !self.style.captures_at_horizon) {
            return self.evaluate_leaf(&node.pos, node.key, ply, alpha, beta);
        }
        let moves = node.pos.legal_moves();
        let quiescent = depth <= 0;
        let pv_node = beta - alpha > 1;

        let mut hint = None;
        if !quiescent {
            if let Some(table) = &self.table {
                if let Some(hit) = table.probe(tt_key(node)) {
                    hint = hit.best;
                    if hit.depth >= depth && !pv_node {
                        let score = from_table(hit.score, ply);
                        let usable = match hit.bound {
                            Bound::Exact => true,
                            Bound::Lower => score >= beta,
                            Bound::Upper => score <= alpha,
                        };
                        if usable {
                            return score;
                        }
                    }
                }
            }
        }

        // A null-window node whose search at two fifths of the depth beats beta by a margin
        // that grows with the depth is taken to fail high at full depth too (the pruning of
        // draughts engines, where a null move would meet zugzwang). Never inside such a
        // search, nor for scores of won or lost games.
        if self.style.shallow_cuts
            && !self.in_shallow_cut
            && !pv_node
            && depth >= 3
            && beta.abs() < TABLE_BOUND - SHALLOW_CUT_MARGIN * depth
        {
            let raised = beta + SHALLOW_CUT_MARGIN * depth;
            self.in_shallow_cut = true;
            let score = self.search(node, depth * 2 / 5, raised - 1, raised, ply);
            self.in_shallow_cut = false;
            if self.aborted {
                return 0;
            }
            if score >= raised {
                return score - SHALLOW_CUT_MARGIN * depth;
            }
        }

        let child_depth = if quiescent {
            0
        } else if moves.len() == 1 && self.style.extend_forced && ply < 2 * MAX_DEPTH as usize {
            depth
        } else {
            depth - 1
        };
        let mut order = self.order(&moves, hint, ply, &node.pos);
        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        for n in 0..moves.len() {
            let i = pick_next(&mut order, n);
            let mv = moves[i];
            let child = self.child(node, &mv);
            self.enter_child(ply + 1, &child.pos);
            if child_depth > 0 {
                if let Some(table) = &self.table {
                    table.prefetch(tt_key(&child));
                }
            }
            self.keys.push(child.key);
            let score = if n == 0 {
                -self.search(&child, child_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves, after the hash move, the killers and crowning moves, rarely
                // matter: look at them shallower first (`reduction`), and fully only if they
                // surprise.
                let reduce = self.style.reductions
                    && !quiescent
                    && !capturing
                    && !pv_node
                    && depth >= 3
                    && n >= 3
                    && order[n].0 < CROWN;
                let r = if reduce { reduction(depth, n) } else { 0 };
                let mut s = -self.search(&child, child_depth - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.search(&child, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.search(&child, child_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, &mv);
                    if alpha >= beta {
                        if !capturing && self.style.quiet_ordering {
                            self.reward_quiet(&mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        if !quiescent {
            if let Some(table) = self.table.as_mut() {
                let bound = if best >= beta {
                    Bound::Lower
                } else if best > alpha_in {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                table.store(
                    tt_key(node),
                    depth,
                    to_table(best, ply),
                    bound,
                    best_move.as_ref(),
                );
            }
        }
        best
    }

    /// Ordering keys for `moves`, highest first: the table's move, captures by size, killers,
    /// crowning moves, then the history of cut-offs.
    fn order(
        &self,
        moves: &MoveList,
        hint: Option<(u8, u8)>,
        ply: usize,
        pos: &Position,
    ) -> SmallVec<[(i32, usize); 32]> {
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let key = if hint == Some((m.from().number(), m.to().number())) {
                    HASH_MOVE
                } else if m.is_capture() {
                    CAPTURE + capture_rank(m)
                } else if !self.style.quiet_ordering {
                    if pos.crowns(m) {
                        CROWN
                    } else {
                        0
                    }
                } else if self.killers[ply][0] == Some(*m) {
                    KILLER_1
                } else if self.killers[ply][1] == Some(*m) {
                    KILLER_2
                } else if pos.crowns(m) {
                    CROWN
                } else {
                    self.history[m.from().index()][m.to().index()].min(CROWN - 1)
                };
                (key, i)
            })
            .collect()
    }

    fn reward_quiet(&mut self, mv: &Move, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(*mv) {
            killers[1] = killers[0];
            killers[0] = Some(*mv);
        }
        let h = &mut self.history[mv.from().index()][mv.to().index()];
        *h = (*h + depth * depth).min(CROWN - 1);
    }

    fn update_pv(&mut self, ply: usize, mv: &Move) {
        let row = ply * MAX_PLY;
        let next = (ply + 1) * MAX_PLY;
        self.pv[row + ply] = *mv;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for p in ply + 1..end {
            self.pv[row + p] = self.pv[next + p];
        }
        self.pv_len[ply] = end;
    }

    /// The position after `mv` with the draw counters moved on.
    fn child(&self, node: &Node, mv: &Move) -> Node {
        let pos = node.pos.apply(mv);
        Node {
            pos,
            key: hash::key_after(node.key, &node.pos, mv),
            counters: node.counters.after(&node.pos, mv, &pos),
        }
    }

    /// The draws the game would declare here: repetition (a position seen before on the game
    /// or the search path counts, so that neither side has to go round twice to see it),
    /// the no-progress count, and the three-kings count.
    fn is_draw(&self, node: &Node) -> bool {
        if node.counters.draw(self.variant).is_some() {
            return true;
        }
        // `keys` ends with this node's key; earlier positions with the same side to move sit
        // two, four... places back, as far as the last capture or man move.
        let here = self.keys.len() - 1;
        let reversible_from = here - node.counters.reversible_plies() as usize;
        let mut i = here;
        while i >= reversible_from + 2 {
            i -= 2;
            if self.keys[i] == node.key {
                return true;
            }
        }
        false
    }

    /// The path now reaches `child` at `ply`: the network's sums there are stepped only if
    /// an evaluation asks for them.
    #[inline(always)]
    fn enter_child(&mut self, ply: usize, child: &Position) {
        if let Some(path) = &mut self.network {
            path.enter(ply, child);
        }
    }

    /// The static score of `pos`, the position at `ply` on the current path: the level's
    /// evaluation, the network's part from the path's sums (the same number as
    /// [`eval::expert`] counts from scratch), with the level's noise.
    fn evaluate(&mut self, pos: &Position, key: u64, ply: usize) -> i32 {
        self.evaluate_leaf(pos, key, ply, -INFINITY, INFINITY)
    }

    /// [`Searcher::evaluate`] for a quiet leaf searched with the window `alpha`..`beta`: where
    /// the weights alone put the score so far outside it that the network's correction would
    /// not bring it back ([`beyond_the_network`]), the bound they give, without the network.
    fn evaluate_leaf(
        &mut self,
        pos: &Position,
        key: u64,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let score = match self.style.eval {
            EvalKind::Basic => eval::basic(pos),
            EvalKind::Weights => eval::expert_with(pos, self.weights),
            EvalKind::Rich => {
                let weighted = eval::expert_with(pos, self.weights);
                let Some(path) = self.network.as_mut() else {
                    return self.with_noise(weighted, key);
                };
                // Kings-only endings get no correction: their score is exact without it.
                if (pos.men(Color::White).0 | pos.men(Color::Black).0) == 0 {
                    return self.with_noise(weighted, key);
                }
                if let Some(bound) = beyond_the_network(weighted, alpha, beta, path.reach()) {
                    return self.with_noise(bound, key);
                }
                let correction = path.correction(ply);
                #[cfg(test)]
                if tests::CHECK_ACCUMULATORS.get() {
                    assert_eq!(correction, super::network::correction(pos));
                    if let Some(path) = &mut self.network {
                        assert!(path.matches_counted(ply, pos), "{}", pos.fen());
                    }
                }
                weighted + correction
            }
        };
        self.with_noise(score, key)
    }

    /// `score` with the level's noise, the same for the same position within a search.
    #[inline(always)]
    fn with_noise(&self, score: i32, key: u64) -> i32 {
        if self.style.noise == 0 {
            return score;
        }
        // The same position always gets the same noise within a search, so the tree stays
        // consistent; the seed changes it from one move to the next.
        let r = hash::splitmix(key ^ self.noise_seed);
        let span = 2 * self.style.noise as u64 + 1;
        score + (r % span) as i32 - self.style.noise
    }

    fn out_of_budget(&self) -> bool {
        if self.nodes >= self.max_nodes {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 && self.nodes > 0 {
            if let Some(stop) = self.stop {
                if stop.load(Ordering::Relaxed) {
                    return true;
                }
            }
            if let Some(t) = self.time_limit() {
                if self.elapsed() >= t {
                    return true;
                }
            }
        }
        false
    }

    /// Time since the search started.
    fn elapsed(&self) -> Duration {
        match self.clock {
            Clock::Wall(started) => started.elapsed(),
            #[cfg(test)]
            Clock::PerNode(each) => {
                each.saturating_mul(u32::try_from(self.nodes).unwrap_or(u32::MAX))
            }
        }
    }

    /// The clock now: the limits' time, shrunk by the queue behind this search, cut to the
    /// hurry's once it is raised.
    fn time_limit(&self) -> Option<Duration> {
        Searcher::clock(self.limits.time, self.hurry)
    }

    /// [`Searcher::time_limit`] for a clock of `time` under `hurry`.
    fn clock(time: Option<Duration>, hurry: Option<&Hurry>) -> Option<Duration> {
        let Some(hurry) = hurry else {
            return time;
        };
        let time = match (time, &hurry.waiting) {
            (Some(base), Some(waiting)) => Some(time_under_load(
                base,
                waiting.load(Ordering::Relaxed),
                hurry.within,
            )),
            (time, _) => time,
        };
        if hurry.flag.load(Ordering::Relaxed) {
            return Some(time.map_or(hurry.within, |t| t.min(hurry.within)));
        }
        time
    }
}

/// The bound a quiet leaf gets without the network when its weighted score `weighted` is
/// beyond the window `alpha`..`beta` by the network's `reach` ([`Network::reach`]): what the
/// score is at least (a fail-high) or at most (a fail-low) whatever the correction, as long as
/// the correction is within the reach; `None` when the network must judge. Larger corrections
/// exist (the Spanish network's reach 11 men), but seldom where the weights alone are that
/// far outside the window (docs/BENCHMARKS.md, with the matches that show no loss).
///
/// [`Network::reach`]: super::network::Network::reach
#[inline(always)]
fn beyond_the_network(weighted: i32, alpha: i32, beta: i32, reach: i32) -> Option<i32> {
    if weighted - reach >= beta {
        Some(weighted - reach)
    } else if weighted + reach <= alpha {
        Some(weighted + reach)
    } else {
        None
    }
}

/// What the search's time is measured with.
#[derive(Clone, Copy, Debug)]
enum Clock {
    /// The wall clock, from this instant.
    Wall(Instant),
    /// Tests: every node visited takes this long, so a search on a clock replays exactly.
    #[cfg(test)]
    PerNode(Duration),
}

// Time management. A search on a clock has a hard limit, the clock's time (shrunk by a queue
// or cut by a hurry as it runs), that it never passes by more than CHECK_EVERY nodes. Within
// it, each completed iteration decides whether the next one starts: only when its predicted
// end, from how the last iterations grew, falls within a soft target. The time is per move
// (nothing saved is spent later), and an iteration cut by the hard limit still counts once
// its first move, the previous best, is searched and another beats it (see `iterate`); so the
// settled target lies beyond the hard limit, where an iteration whose first half — about what
// its first move takes — fits is started. An unsettled search, whose best move is more likely
// to be overturned, starts even when less of the iteration fits. Measured at 100 ms a move
// in English: an "only when it is expected to finish" target (the hard limit itself) spent
// 58 ms a searched move against the old rule's 86 ms (20 games, even score); see the README.

/// Growth from one iteration to the next assumed when only one iteration has been timed.
const DEFAULT_GROWTH: f64 = 3.0;
/// Bounds on the growth measured from the last two iterations. Iterations a table filled by
/// earlier moves makes nearly free grow by less than the next one will; one the table did not
/// help, after those, grows by more.
const MIN_GROWTH: f64 = 2.0;
const MAX_GROWTH: f64 = 6.0;
/// A score this much lower than the previous iteration's (hundredths of a man) means the
/// deeper search found trouble the shallower one missed: more time to look for a way out.
const SCORE_DROP_MARGIN: i32 = 30;
/// The soft target as a multiple of the hard limit when the search is settled: the next
/// iteration starts when its first half is predicted to end within the hard limit.
const SETTLED_SHARE: f64 = 2.0;
/// The target grows this much when the best move just changed, and again when the score
/// dropped.
const UNSETTLED_GROWTH: f64 = 1.5;

/// Signs in the last iteration that the search has not made up its mind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Unsettled {
    best_move_changed: bool,
    score_dropped: bool,
}

/// The latest time, from the search's start, at which the next iteration may be predicted to
/// end if it is to start.
fn soft_target(hard: Duration, unsettled: Unsettled) -> Duration {
    let mut target = hard.mul_f64(SETTLED_SHARE);
    if unsettled.best_move_changed {
        target = target.mul_f64(UNSETTLED_GROWTH);
    }
    if unsettled.score_dropped {
        target = target.mul_f64(UNSETTLED_GROWTH);
    }
    target
}

/// How long the next iteration should take, from the last two completed ones (`took`, the
/// latest last): the last one's time times the growth between them.
fn predicted_iteration(took: [Option<Duration>; 2]) -> Duration {
    let Some(last) = took[1] else {
        return Duration::ZERO;
    };
    let growth = match took[0] {
        Some(before) if !before.is_zero() => {
            (last.as_secs_f64() / before.as_secs_f64()).clamp(MIN_GROWTH, MAX_GROWTH)
        }
        _ => DEFAULT_GROWTH,
    };
    last.mul_f64(growth)
}

/// Whether to start another iteration `elapsed` into a search whose hard limit is `hard`.
fn start_next_iteration(
    elapsed: Duration,
    hard: Duration,
    predicted: Duration,
    unsettled: Unsettled,
) -> bool {
    elapsed < hard && elapsed.saturating_add(predicted) <= soft_target(hard, unsettled)
}

/// How many plies a late quiet move's first look is shortened by: more the deeper the node
/// and the later the move (the usual logarithmic rule), at least one, never to below the
/// capture search.
fn reduction(depth: i32, n: usize) -> i32 {
    let r = 0.5 + (depth as f64).ln() * (n as f64).ln() / 2.25;
    (r as i32).clamp(1, depth - 2)
}

/// A shallow cut's margin a ply of the depth it stands for, in hundredths of a man.
const SHALLOW_CUT_MARGIN: i32 = 5;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 26;
const KILLER_1: i32 = 1 << 25;
const KILLER_2: i32 = 1 << 24;
const CROWN: i32 = 1 << 23;

/// Bigger captures first, kings counting extra.
fn capture_rank(m: &Move) -> i32 {
    m.capture_count() as i32 * 16 + m.king_capture_count() as i32
}

/// Moves the best remaining entry to position `n` and returns its move index.
fn pick_next(order: &mut [(i32, usize)], n: usize) -> usize {
    let mut best = n;
    for j in n + 1..order.len() {
        if order[j].0 > order[best].0 {
            best = j;
        }
    }
    order.swap(n, best);
    order[n].1
}

fn tt_key(node: &Node) -> u64 {
    match node.counters.three_kings() {
        Some((_, n)) => node.key ^ hash::THREE_KINGS_KEYS[(n as usize).min(15)],
        None => node.key,
    }
}

/// The score of an endgame table's verdict at `ply` from the root.
pub(crate) fn table_score(verdict: EndgameVerdict, ply: usize) -> i32 {
    match verdict {
        EndgameVerdict::Win { plies } => MATE_BOUND - (ply as i32 + plies as i32),
        EndgameVerdict::Loss { plies } => -(MATE_BOUND - (ply as i32 + plies as i32)),
        EndgameVerdict::Draw => 0,
    }
}

/// Wins and losses (the search's and the tables') are stored relative to the node, so they
/// stay right when the same position is met at another distance from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > TABLE_BOUND {
        score + ply as i32
    } else if score < -TABLE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > TABLE_BOUND {
        score - ply as i32
    } else if score < -TABLE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    const MS: Duration = Duration::from_millis(1);

    thread_local! {
        /// Makes every evaluation of Expert's searches on this thread check that the path's
        /// accumulator is the position's, counted from scratch.
        pub(super) static CHECK_ACCUMULATORS: Cell<bool> = const { Cell::new(false) };
    }

    /// Spanish positions whose searches make every kind of move: quiet ones, captures of men
    /// and kings, crownings, kings' moves, and captures into kings-only endings (which the
    /// network leaves alone, its accumulator still stepped).
    const NETWORK_POSITIONS: [&str; 6] = [
        "W:W1-12:B21-32",
        "W:W1-3,5,6,8,11,12:B18,22,24,25,27,28,31,32",
        "B:W1-4,7,9-11,15,17:B18,20-24,29-32",
        "W:W22,23,K9,3:B14,18,K30,26,27",
        "W:W25,26,K4:B6,10,K29",
        "W:WK3,9:BK30,24",
    ];

    #[test]
    fn the_search_steps_the_networks_first_layer_to_the_positions_own() {
        assert!(QuantizedNetwork::of(Variant::Spanish).is_some());
        CHECK_ACCUMULATORS.set(true);
        for fen in NETWORK_POSITIONS {
            let pos = Position::from_fen(Variant::Spanish, fen).expect("a FEN");
            let opts = SearchOptions {
                seed: 3,
                limits: Some(SearchLimits {
                    time: None,
                    nodes: Some(20_000),
                    depth: None,
                }),
                endgame_tables: Some(EndgameTables::none()),
                ..SearchOptions::default()
            };
            let r = best_move(&Game::from_position(pos), Level::Expert, &opts);
            assert!(r.is_some_and(|r| r.nodes > 1_000), "{fen}");
        }
        CHECK_ACCUMULATORS.set(false);
    }

    /// A quiet leaf's score is the corrected one inside the window and near it; far outside,
    /// the weights' bound on the side the network cannot change, whatever its correction within
    /// the margin; and kings-only leaves, which the network does not judge, keep their exact
    /// score at any window.
    #[test]
    fn a_leaf_far_outside_the_window_is_judged_without_the_network() {
        let opts = SearchOptions::default();
        let leaf = |fen: &str, window: (i32, i32)| {
            let pos = Position::from_fen(Variant::Spanish, fen).expect("a FEN");
            let game = Game::from_position(pos);
            let limits = SearchLimits {
                time: None,
                nodes: Some(1),
                depth: None,
            };
            let clock = Clock::PerNode(MS);
            let mut searcher = Searcher::new(
                &game,
                Style::of(Level::Expert),
                limits,
                &opts,
                1,
                None,
                clock,
            );
            let key = hash::position_key(&pos);
            let score = searcher.evaluate_leaf(&pos, key, 0, window.0, window.1);
            (score, eval::weighted(&pos), eval::expert(&pos))
        };
        let kings_only = "W:WK3,K9:BK30,K24";
        let mut bounded = 0;
        for fen in NETWORK_POSITIONS.into_iter().chain([kings_only]) {
            let (score, weighted, exact) = leaf(fen, (-INFINITY, INFINITY));
            assert_eq!(score, exact, "{fen}");
            // Windows next to the weights' score: the network judges.
            for (alpha, beta) in [(weighted - 1, weighted), (weighted, weighted + 1)] {
                let (score, ..) = leaf(fen, (alpha, beta));
                assert_eq!(score, exact, "{fen} in {alpha}..{beta}");
            }
            let reach = QuantizedNetwork::of(Variant::Spanish)
                .expect("a network")
                .reach();
            let below = weighted - reach;
            let (high, ..) = leaf(fen, (below - 1, below));
            let above = weighted + reach;
            let (low, ..) = leaf(fen, (above, above + 1));
            if fen == kings_only {
                assert_eq!((high, low), (exact, exact), "{fen}: no men, no network");
                continue;
            }
            assert_eq!((high, low), (below, above), "{fen}");
            // A fail-high at most the corrected score, a fail-low at least it, where the
            // correction is within the margin.
            if (exact - weighted).abs() <= reach {
                assert!(high <= exact && low >= exact, "{fen}");
                bounded += 1;
            }
        }
        assert!(
            bounded >= 3,
            "{bounded} positions corrected within the margin"
        );
    }

    /// A search stopped by `nodes` or `depth` alone, without endgame tables.
    fn limited(nodes: Option<u64>, depth: Option<u32>) -> SearchOptions {
        SearchOptions {
            limits: Some(SearchLimits {
                time: None,
                nodes,
                depth,
            }),
            endgame_tables: Some(EndgameTables::none()),
            ..SearchOptions::default()
        }
    }

    /// Expert on `game` with a clock of `hard`, every node taking `each`, at most `depth`.
    fn on_virtual_clock(game: &Game, hard: Duration, each: Duration, depth: u32) -> SearchResult {
        let opts = SearchOptions {
            seed: 7,
            time: Some(hard),
            ..limited(None, Some(depth))
        };
        search_on(game, Level::Expert, &opts, None, Clock::PerNode(each))
            .expect("the position has moves")
    }

    fn positions() -> Vec<Game> {
        let mut games = Vec::new();
        for variant in Variant::ALL {
            let mut game = Game::new(variant);
            games.push(game.clone());
            // A few plies in, by the first legal move each time.
            for _ in 0..6 {
                let Some(mv) = game.position().legal_moves().first().copied() else {
                    break;
                };
                if game.play(mv).is_err() {
                    break;
                }
            }
            games.push(game);
        }
        games
    }

    /// Expert, network and all, finds the start balanced, with the last ply the side to
    /// move's and the other's: the verdict a player meets (a network's static word on the
    /// start is an extrapolation, see `eval::tests::start_is_balanced_for_both_evaluations`).
    #[test]
    fn expert_finds_the_start_balanced_at_odd_and_even_depths() {
        for variant in Variant::ALL {
            for depth in [4, 5] {
                let opts = limited(None, Some(depth));
                let game = Game::new(variant);
                let score = best_move(&game, Level::Expert, &opts).expect("moves").score;
                assert!(score.abs() <= 30, "{variant} at depth {depth}: {score}");
            }
        }
    }

    /// The shallow cuts are what let Expert see further on the same nodes: on every test
    /// position at least as deep, and deeper on the whole by more than a ply a position.
    #[test]
    fn shallow_cuts_search_deeper_on_the_same_nodes() {
        let depth = |game: &Game, without: bool| {
            let opts = SearchOptions {
                without_shallow_cuts: without,
                seed: 5,
                ..limited(Some(100_000), None)
            };
            best_move(game, Level::Expert, &opts).expect("moves").depth
        };
        let games = positions();
        let (mut with, mut without) = (0, 0);
        for game in &games {
            let (a, b) = (depth(game, false), depth(game, true));
            assert!(
                a >= b,
                "{}: {a} with the cuts, {b} without",
                game.position().fen()
            );
            with += a;
            without += b;
        }
        assert!(
            with > without + games.len() as u32,
            "{with} plies with the cuts, {without} without, over {} positions",
            games.len()
        );
    }

    #[test]
    fn late_moves_are_reduced_more_the_deeper_and_later_and_never_into_the_capture_search() {
        for depth in 3..=64 {
            for n in 3..=64 {
                let r = reduction(depth, n);
                assert!((1..=depth - 2).contains(&r), "depth {depth}, move {n}: {r}");
                assert!(reduction(depth + 1, n) >= r, "depth {depth}, move {n}");
                assert!(reduction(depth, n + 1) >= r, "depth {depth}, move {n}");
            }
        }
        assert_eq!(reduction(3, 3), 1);
        // Deep in the tree the late moves of a wide Spanish position lose more than the two
        // plies the fixed rule took.
        assert!(reduction(12, 20) > 2);
    }

    #[test]
    fn a_search_on_a_clock_never_passes_its_hard_limit_by_more_than_the_check_interval() {
        let each = Duration::from_micros(1);
        for game in positions() {
            for hard_ms in [1, 3, 10, 30] {
                let hard = MS * hard_ms;
                let r = on_virtual_clock(&game, hard, each, 16);
                let allowed = hard.as_micros() as u64 + CHECK_EVERY;
                assert!(
                    r.nodes <= allowed,
                    "{} at {hard_ms} ms: {} nodes, at most {allowed}",
                    game.position().fen(),
                    r.nodes
                );
                assert!(r.depth >= 1, "at least one iteration completes");
            }
        }
    }

    #[test]
    fn a_search_on_a_clock_keeps_its_time_while_the_tables_it_lacks_are_built_elsewhere() {
        // A folder without table files: Spanish three kings against one is one of the endings
        // the tables build in memory (half a second of a core), and nothing has built it yet.
        let empty = tempfile::tempdir().expect("temp dir");
        let tables = EndgameTables::open(empty.path());
        assert!(tables.builds_in_memory(Variant::Spanish));
        let pos = Position::from_fen(Variant::Spanish, "W:WK1,K10,K20:BK26").expect("a FEN");
        let game = Game::from_position(pos);
        let hard = MS * 5;
        let opts = SearchOptions {
            seed: 7,
            time: Some(hard),
            limits: Some(SearchLimits {
                time: None,
                nodes: None,
                depth: Some(64),
            }),
            endgame_tables: Some(tables.clone()),
            ..SearchOptions::default()
        };
        let built_here = crate::ai::egdb::built_in_builds_on_this_thread();
        // Every node takes a microsecond of the clock the test holds: the search must stop at
        // its limit whatever the tables are doing.
        let each = Duration::from_micros(1);
        let r = search_on(&game, Level::Expert, &opts, None, Clock::PerNode(each))
            .expect("the position has moves");
        assert_eq!(
            crate::ai::egdb::built_in_builds_on_this_thread(),
            built_here,
            "the search built the tables on its own thread, inside its time"
        );
        let allowed = hard.as_micros() as u64 + CHECK_EVERY;
        assert!(r.nodes <= allowed, "{} nodes, at most {allowed}", r.nodes);
        // It searched (unless the tables, built meanwhile on another thread, answered at the
        // root: their move at once).
        assert!(
            r.depth >= 1 || (r.depth, r.nodes) == (0, 0),
            "{} nodes at depth {}",
            r.nodes,
            r.depth
        );
        // Without a clock (a puzzle's check at a fixed depth) the answer does not depend on
        // when the tables are ready: this thread waits for them.
        let fixed = SearchOptions {
            time: None,
            limits: Some(SearchLimits {
                time: None,
                nodes: None,
                depth: Some(3),
            }),
            endgame_tables: Some(EndgameTables::open(empty.path())),
            ..opts
        };
        let r = search_on(&game, Level::Expert, &fixed, None, Clock::PerNode(each))
            .expect("the position has moves");
        assert_eq!((r.depth, r.nodes), (0, 0), "the tables' move, not searched");
    }

    #[test]
    fn one_legal_move_is_answered_at_once_on_a_clock() {
        // Spanish: White's man on 14 must take 19, the only capture.
        let pos = Position::from_fen(Variant::Spanish, "W:W14,1:B19,30").expect("a FEN");
        let game = Game::from_position(pos);
        assert_eq!(game.position().legal_moves().len(), 1);
        let r = on_virtual_clock(&game, Duration::from_secs(3600), MS, 16);
        assert_eq!((r.nodes, r.depth), (0, 0));
    }

    #[test]
    fn the_soft_target_grows_when_the_best_move_changes_or_the_score_drops() {
        let hard = MS * 300;
        let settled = soft_target(hard, Unsettled::default());
        let changed = soft_target(
            hard,
            Unsettled {
                best_move_changed: true,
                score_dropped: false,
            },
        );
        let dropped = soft_target(
            hard,
            Unsettled {
                best_move_changed: false,
                score_dropped: true,
            },
        );
        let both = soft_target(
            hard,
            Unsettled {
                best_move_changed: true,
                score_dropped: true,
            },
        );
        assert!(
            settled >= hard,
            "a settled search aims at its whole limit at least"
        );
        assert!(changed > settled && dropped > settled);
        assert!(both > changed && both > dropped);
    }

    #[test]
    fn an_iteration_starts_only_when_predicted_to_end_within_the_target() {
        let hard = MS * 100;
        let settled = Unsettled::default();
        let changed = Unsettled {
            best_move_changed: true,
            score_dropped: false,
        };
        // Predicted to end at 90 ms: starts, whether settled or not.
        assert!(start_next_iteration(MS * 30, hard, MS * 60, settled));
        assert!(start_next_iteration(MS * 30, hard, MS * 60, changed));
        // Predicted to end at 190 ms: its first half fits, so it starts.
        assert!(start_next_iteration(MS * 30, hard, MS * 160, settled));
        // Predicted to end at 250 ms, less than half of it within the limit: only an
        // unsettled search tries.
        assert!(!start_next_iteration(MS * 50, hard, MS * 200, settled));
        assert!(start_next_iteration(MS * 50, hard, MS * 200, changed));
        // Nothing starts once the hard limit has passed, however unsettled.
        let all = Unsettled {
            best_move_changed: true,
            score_dropped: true,
        };
        assert!(!start_next_iteration(hard, hard, Duration::ZERO, all));
        assert!(!start_next_iteration(hard + MS, hard, Duration::ZERO, all));
    }

    #[test]
    fn the_next_iteration_is_predicted_from_the_growth_of_the_last_two() {
        assert_eq!(predicted_iteration([None, None]), Duration::ZERO);
        assert_eq!(predicted_iteration([None, Some(MS * 10)]), MS * 30);
        // Grew by 4: the next one grows by 4 again.
        assert_eq!(predicted_iteration([Some(MS * 5), Some(MS * 20)]), MS * 80);
        // Growth is kept within bounds: a nearly free iteration from the table says little.
        assert_eq!(
            predicted_iteration([Some(Duration::from_micros(1)), Some(MS * 10)]),
            MS * 60
        );
        assert_eq!(predicted_iteration([Some(MS * 10), Some(MS * 10)]), MS * 20);
        assert_eq!(
            predicted_iteration([Some(Duration::ZERO), Some(MS)]),
            MS * 3
        );
    }
}
