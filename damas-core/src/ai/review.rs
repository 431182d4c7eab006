//! Game review: every move of a game judged by a search of the position it was played in.
//!
//! Each position of the game is searched at a fixed budget (Hard's by default). A move's
//! worth is the drop in *expected score* it causes: the best move's score and the played
//! move's score are each turned into an expected score (0 = loss, 1 = win) through a logistic
//! curve ([`expected_score`]), and the difference classes the move as lidraughts does
//! (inaccuracy ≥ 0.075, mistake ≥ 0.15, blunder ≥ 0.3). A forced move (the only legal one) is
//! an "only move" and is never a mistake. A mistake that let a winning combination go by is a
//! *missed shot*; a move that let the opponent have one carries the opponent's line as its
//! refutation.
//!
//! The searches are independent, so [`review_in_pool`] runs them as separate jobs on the
//! [`SearchPool`] (a few at a time, so a review never holds the pool for long), and
//! [`review`] runs them on the calling thread; both assemble the same [`Review`].

use super::book::Book;
use super::egdb::{EndgameTables, EndgameVerdict};
use super::level::{Level, SearchLimits, HARD_NODES};
use super::pool::{JobClass, PoolError, SearchPool};
use super::search::{
    best_move, table_score, SearchOptions, SearchResult, MATE, MATE_BOUND, TABLE_BOUND,
};
use crate::engine::{Color, DrawReason, Game, Move, Outcome, Position};
use std::collections::VecDeque;

/// The logistic curve's scale, in hundredths of a man: an advantage of `s` gives the side
/// to move an expected score of `1 / (1 + e^(-s / EXPECTED_SCORE_SCALE))`.
///
/// Chosen so that one man up (100) gives 0.75 and two men up 0.90: in Spanish and English
/// draughts a clean extra man wins most games between club players but is still often drawn,
/// two men rarely are. With it, lidraughts' thresholds mean: from a level position, an
/// inaccuracy gives away about a quarter of a man, a mistake about half a man, a blunder
/// about 1.2 men (a man and the initiative). `100 / ln 3`.
pub const EXPECTED_SCORE_SCALE: f64 = 91.0;

/// Drops in expected score from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.075;
pub const MISTAKE: f64 = 0.15;
pub const BLUNDER: f64 = 0.3;

/// Material a line must win, net, to be a shot: two men, or a king (the same bar as the
/// puzzles'), counted in pieces.
const SHOT_PIECES: i32 = 2;

/// The expected score of the side to move for a search score (hundredths of a man; forced
/// wins and losses, the search's or the endgame tables', beyond [`TABLE_BOUND`] give 1 and 0).
pub fn expected_score(score: i32) -> f64 {
    if score > TABLE_BOUND {
        return 1.0;
    }
    if score < -TABLE_BOUND {
        return 0.0;
    }
    1.0 / (1.0 + (-(score as f64) / EXPECTED_SCORE_SCALE).exp())
}

/// A move's accuracy in percent from the expected score it gave away: lichess' curve
/// (`103.17 · e^(-4.354 · loss) - 3.17`, clamped to 0–100), so 100 for the best move, about
/// 70 for an inaccuracy and 20 for a blunder.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveClass {
    /// The only legal move: never judged.
    OnlyMove,
    /// The move the search chose, or one as good.
    Best,
    /// Lost less than an inaccuracy's worth.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl MoveClass {
    /// The class of a move that gave away `loss` of expected score.
    pub fn of_loss(loss: f64) -> MoveClass {
        if loss >= BLUNDER {
            MoveClass::Blunder
        } else if loss >= MISTAKE {
            MoveClass::Mistake
        } else if loss >= INACCURACY {
            MoveClass::Inaccuracy
        } else if loss > 0.0 {
            MoveClass::Good
        } else {
            MoveClass::Best
        }
    }

    /// Stable identifier (JSON, Fluent ids: `review-class-<id>`).
    pub const fn id(self) -> &'static str {
        match self {
            MoveClass::OnlyMove => "only-move",
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// An inaccuracy, a mistake or a blunder: a move worth showing with the better one.
    pub const fn is_error(self) -> bool {
        matches!(
            self,
            MoveClass::Inaccuracy | MoveClass::Mistake | MoveClass::Blunder
        )
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// 0 for the game's first move.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    /// Canonical notation of the played move.
    pub played_text: String,
    /// The search's move in the position (the played move when it was forced).
    pub best: Move,
    pub best_text: String,
    /// The position's score before the move (with the best move), from White's side (see
    /// [`read_eval`]), in hundredths of a man.
    pub eval_before: i32,
    /// The score after the played move, from White's side.
    pub eval_after: i32,
    /// Expected score the mover gave away (0 for the best move and forced ones).
    pub loss: f64,
    pub class: MoveClass,
    /// The exact results before and after the move, from White's side, where the endgame
    /// tables hold the positions.
    pub exact_before: Option<EndgameVerdict>,
    pub exact_after: Option<EndgameVerdict>,
    /// The best line from the position, starting with `best`.
    pub best_line: Vec<Move>,
    /// The opponent's best line after the played move.
    pub refutation: Vec<Move>,
    /// The best line was a shot (wins two men or a king by force) and the move let it go.
    pub missed_shot: bool,
    /// The refutation is a shot for the opponent: the move walked into a combination.
    pub allowed_shot: bool,
    /// The move is in the variant's opening book ([`Book::is_book_move`]): never judged
    /// worse than good, whatever a short search says of it.
    pub book: bool,
    /// Judged by the deeper pass: the positions before and after the move were searched at
    /// [`ReviewOptions::deep`] (or are exact, from the tables or the game's end).
    pub deep: bool,
    /// Judged by the verifying pass: the position after every legal move was searched at
    /// [`ReviewOptions::verify`], the played move's and the best other's compared.
    pub verified: bool,
}

/// One player's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    /// Mean [`move_accuracy`] of the player's moves that had a choice; 100 with none.
    pub accuracy: f64,
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub missed_shots: usize,
    /// The ply of the player's costliest move, if any move cost anything.
    pub biggest_swing: Option<usize>,
}

/// A whole game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub start: Position,
    pub plies: Vec<PlyReview>,
    /// The score from White's side at every position, `plies.len() + 1` of them (for the
    /// chart).
    pub evals: Vec<i32>,
    /// Indexed by [`Color::index`].
    pub players: [PlayerSummary; 2],
    /// The nodes all its searches visited.
    pub nodes: u64,
    /// How many positions the deeper pass searched.
    pub deep_positions: usize,
    /// How many of the loser's positions the verifying pass searched every move of.
    pub verified_positions: usize,
}

impl Review {
    pub fn player(&self, c: Color) -> &PlayerSummary {
        &self.players[c.index()]
    }

    /// The plies worth showing (inaccuracies, mistakes, blunders), in game order.
    pub fn errors(&self) -> impl Iterator<Item = &PlyReview> {
        self.plies.iter().filter(|p| p.class.is_error())
    }
}

/// How hard to look at each position: a quick search of every one, then a deeper search of
/// the positions that matter ([`deep_candidates`]).
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// Whose searcher judges (its evaluation, network, pruning, tables).
    pub level: Level,
    /// The first pass: every position with a choice.
    pub quick: SearchLimits,
    /// The second pass: the positions the first pass flags, and those around them while
    /// the deeper search still sees a swing coming from earlier.
    pub deep: SearchLimits,
    /// At most this many positions searched at `deep` (0: no second pass).
    pub deep_positions: usize,
    /// The verifying pass, in a decided game whose loser the passes before name no mistake:
    /// the budget of the searches after the played move and after the best one in one of the
    /// loser's positions.
    pub verify: SearchLimits,
    /// The verifying pass's searches at most (0: no verifying pass), two a position.
    pub verify_searches: usize,
    /// The endgame tables whose positions get exact verdicts instead of searches; `None` for
    /// the process's own ([`EndgameTables::global`]).
    pub endgame_tables: Option<EndgameTables>,
}

/// The deeper pass's budget a position: eight times Hard's, about half a second of one core
/// of this project's machine — about twice what Expert thinks a move at 300 ms, so that the
/// review sees further than the player it judges.
pub const DEEP_NODES: u64 = 8 * HARD_NODES;

/// How many positions a review searches deeply at most: with [`DEEP_NODES`], about ten
/// seconds of one core, and the quick pass's few seconds on top.
pub const DEEP_POSITIONS: usize = 20;

/// The verifying pass's budget for the position after each move of a verified position.
pub const VERIFY_NODES: u64 = DEEP_NODES;

/// The verifying pass's searches at most by default: none. Searching the played and the best
/// move of the loser's positions again at [`VERIFY_NODES`] each, back from where the lost
/// games of `../shared/strength` slid out of reach, found slips of 0.09–0.13 of expected score
/// (inaccuracies, as the quick pass had) and no mistake, for about 20 s more of one core a
/// lost game (docs/BENCHMARKS.md): `damas review --verify-searches 30` turns it on.
pub const VERIFY_SEARCHES: usize = 0;

/// How many plies after the loser's game last stood within [`DECISIVE`] the verifying pass
/// starts looking back from.
const VERIFY_AFTER: usize = 2;

impl Default for ReviewOptions {
    /// Expert's searcher (its evaluation, network and tables) held to node budgets, not
    /// clocks: a fixed amount of work per position, so the same game gets the same review on
    /// any machine.
    fn default() -> ReviewOptions {
        let nodes = |n| SearchLimits {
            time: None,
            nodes: Some(n),
            depth: None,
        };
        ReviewOptions {
            level: Level::Expert,
            quick: nodes(HARD_NODES),
            deep: nodes(DEEP_NODES),
            deep_positions: DEEP_POSITIONS,
            verify: nodes(VERIFY_NODES),
            verify_searches: VERIFY_SEARCHES,
            endgame_tables: None,
        }
    }
}

impl ReviewOptions {
    /// The most nodes a review of a game with `positions` positions to search can visit:
    /// what a caller can count on, whatever the game.
    pub fn node_budget(&self, positions: usize) -> Option<u64> {
        let deep = self.deep_positions.min(positions) as u64;
        Some(
            self.quick.nodes?.saturating_mul(positions as u64)
                + self.deep.nodes?.saturating_mul(deep)
                + self
                    .verify
                    .nodes?
                    .saturating_mul(self.verify_searches as u64),
        )
    }
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the game has no moves to review")]
    NoMoves,
    #[error(transparent)]
    Pool(#[from] PoolError),
}

/// What is known of one position of the game after its search.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// For the side to move, hundredths of a man.
    pub score: i32,
    /// The best line (empty at the end of the game, or for a forced move judged through its
    /// successor).
    pub line: Vec<Move>,
    /// The exact result for the side to move, where the endgame tables hold the position.
    pub exact: Option<EndgameVerdict>,
    /// The nodes its search visited (0 when none was needed).
    pub nodes: u64,
}

/// The game up to ply `ply` (its history included, for repetitions and draw counts).
fn prefix(game: &Game, ply: usize) -> Game {
    let mut g = Game::from_position(*game.start_position());
    for mv in &game.moves()[..ply] {
        // Replaying the game's own moves cannot fail; stop quietly if it ever did.
        if g.play(*mv).is_err() {
            break;
        }
    }
    g
}

/// Whether position `ply` of `game` needs a search: positions with a choice do, and the
/// final position when the game can go on from it. A forced move is judged through the
/// position after it.
fn needs_search(game: &Game, ply: usize) -> bool {
    let pos = &game.positions()[ply];
    let moves = pos.count_legal_moves();
    if ply == game.ply() {
        moves > 0 && !drawn_by_rule(game.outcome())
    } else {
        moves > 1
    }
}

fn drawn_by_rule(outcome: Option<Outcome>) -> bool {
    matches!(
        outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Repetition | DrawReason::NoProgress | DrawReason::ThreeKings
        })
    )
}

/// Searches one position of a game (given with its history), following forced moves to the
/// first position with a choice so that the score is never a bare static evaluation. A
/// position the endgame tables hold is not searched: its result is exact.
pub fn evaluate_position(
    game: &Game,
    options: &ReviewOptions,
    limits: SearchLimits,
    search: &mut dyn FnMut(&Game, Level, &SearchOptions) -> Option<SearchResult>,
) -> PositionEval {
    let tables = options
        .endgame_tables
        .clone()
        .unwrap_or_else(|| EndgameTables::global().clone());
    if let Some((_, verdict, line)) = tables.best_move(game, |p| -super::expert_evaluation(p)) {
        return PositionEval {
            score: table_score(verdict, 0),
            line,
            exact: Some(verdict),
            nodes: 0,
        };
    }
    let mut g = game.clone();
    let mut forced: Vec<Move> = Vec::new();
    loop {
        let legal = g.position().legal_moves();
        if legal.len() != 1 || g.is_over() || forced.len() >= 32 {
            break;
        }
        forced.push(legal[0]);
        if g.play(legal[0]).is_err() {
            break;
        }
    }
    let sign = if forced.len() % 2 == 0 { 1 } else { -1 };
    if let Some(outcome) = g.outcome() {
        let score = match outcome {
            Outcome::Win { winner, .. } if winner == g.side_to_move() => MATE,
            Outcome::Win { .. } => -MATE,
            Outcome::Draw { .. } => 0,
        };
        return PositionEval {
            score: sign * score,
            line: forced,
            exact: None,
            nodes: 0,
        };
    }
    let opts = SearchOptions {
        limits: Some(limits),
        endgame_tables: Some(tables),
        ..SearchOptions::default()
    };
    match search(&g, options.level, &opts) {
        Some(r) => {
            forced.extend(r.pv);
            PositionEval {
                score: sign * r.score,
                line: forced,
                exact: None,
                nodes: r.nodes,
            }
        }
        None => PositionEval {
            score: sign * -MATE,
            line: forced,
            exact: None,
            nodes: 0,
        },
    }
}

/// One search of a review: a position of the game (with its history), or the position after
/// one of the moves of a position of the game (the move played or another).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    Position(usize),
    After(usize, Move),
}

impl Job {
    /// The game the search starts from.
    fn game(self, game: &Game) -> Game {
        match self {
            Job::Position(ply) => prefix(game, ply),
            Job::After(ply, mv) => {
                let mut g = prefix(game, ply);
                // Only legal moves of the position are ever asked for.
                let _ = g.play(mv);
                g
            }
        }
    }
}

/// Which pass a round of searches belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// No round handed out yet.
    Start,
    Quick,
    Deep,
    Verify,
    Done,
}

/// The searches of one review as they come in: which positions need one, what each gave,
/// which were searched at the deeper budget, which of the loser's positions had every move
/// searched. Both [`review`] and [`review_in_pool`] drive it: the quick pass first, then
/// rounds of deeper searches ([`deep_candidates`]) until none is wanted or the budget of deep
/// positions is spent, then, in a decided game, the verifying pass ([`verify_candidates`]).
struct Passes<'g> {
    game: &'g Game,
    evals: Vec<Option<PositionEval>>,
    searchable: Vec<bool>,
    deep: Vec<bool>,
    deep_searched: usize,
    /// The moves of each verified position with the search of the position after each.
    verified: Vec<Option<Vec<(Move, PositionEval)>>>,
    /// The loser's positions the verifying pass will look at, next first.
    verify_queue: VecDeque<usize>,
    verify_searches: usize,
    nodes: u64,
    /// The pass of the round handed out last.
    pass: Pass,
    /// Searches recorded, and the most there can be, for the progress.
    done: usize,
    total: usize,
}

impl<'g> Passes<'g> {
    fn new(game: &'g Game, options: &ReviewOptions) -> Result<Passes<'g>, ReviewError> {
        if game.ply() == 0 {
            return Err(ReviewError::NoMoves);
        }
        let searchable: Vec<bool> = (0..=game.ply()).map(|i| needs_search(game, i)).collect();
        let mut passes = Passes {
            game,
            evals: vec![None; game.ply() + 1],
            deep: vec![false; game.ply() + 1],
            verified: vec![None; game.ply() + 1],
            verify_queue: VecDeque::new(),
            verify_searches: 0,
            searchable,
            deep_searched: 0,
            nodes: 0,
            pass: Pass::Start,
            done: 0,
            total: 0,
        };
        passes.total = passes.most_searches(options);
        Ok(passes)
    }

    /// The next round's searches and the budget each is made with: the quick pass, then
    /// deeper rounds, then the verifying pass's positions one at a time; `None` once there
    /// is nothing more to search (the review is done).
    fn next_round(&mut self, options: &ReviewOptions) -> Option<(Vec<Job>, SearchLimits)> {
        loop {
            let (next, round, limits) = match self.pass {
                Pass::Start => (Pass::Quick, self.quick_round(), options.quick),
                Pass::Quick | Pass::Deep => (Pass::Deep, self.deep_round(options), options.deep),
                Pass::Verify => (Pass::Verify, self.verify_round(options), options.verify),
                Pass::Done => return None,
            };
            if !round.is_empty() {
                self.pass = next;
                return Some((round, limits));
            }
            self.pass = match next {
                // An empty quick pass (every move forced): on to the deeper one.
                Pass::Start | Pass::Quick => Pass::Quick,
                Pass::Deep => {
                    self.verify_queue =
                        verify_candidates(self.game, &self.evals, &self.deep, options).into();
                    Pass::Verify
                }
                Pass::Verify | Pass::Done => Pass::Done,
            };
        }
    }

    /// The quick pass: every position that needs a search.
    fn quick_round(&self) -> Vec<Job> {
        (0..self.searchable.len())
            .filter(|&i| self.searchable[i])
            .map(Job::Position)
            .collect()
    }

    /// How many searches the review will make at most, for its progress.
    fn most_searches(&self, options: &ReviewOptions) -> usize {
        let quick = self.quick_round().len();
        let verify = if self.game.outcome().and_then(|o| o.winner()).is_some() {
            options.verify_searches
        } else {
            0
        };
        quick + options.deep_positions.min(quick) + verify
    }

    /// The next round of deeper searches (empty: the deep pass is done).
    fn deep_round(&self, options: &ReviewOptions) -> Vec<Job> {
        let room = options.deep_positions.saturating_sub(self.deep_searched);
        deep_candidates(self.game, &self.evals, &self.searchable, &self.deep, room)
            .into_iter()
            .map(Job::Position)
            .collect()
    }

    /// The next of the loser's positions to verify, its played move and the move the passes
    /// before found best, each followed by a search at the verifying budget (empty: the
    /// verifying pass is done — an error of the loser's was proven, or no position is left,
    /// or the budget of searches is spent). Positions whose best move was the one played are
    /// passed over: no search so far doubts them.
    fn verify_round(&mut self, options: &ReviewOptions) -> Vec<Job> {
        if self.verified_error().is_some()
            || options.verify_searches.saturating_sub(self.verify_searches) < 2
        {
            return Vec::new();
        }
        while let Some(ply) = self.verify_queue.pop_front() {
            let played = self.game.moves()[ply];
            let Some(eval) = self.evals[ply].as_ref() else {
                continue;
            };
            let best = eval.line.first().copied().unwrap_or(played);
            if best == played || eval.exact.is_some() {
                continue;
            }
            self.verified[ply] = Some(Vec::with_capacity(2));
            return vec![Job::After(ply, played), Job::After(ply, best)];
        }
        Vec::new()
    }

    /// The first verified position whose played move the verifying searches show lost a
    /// mistake's worth or more.
    fn verified_error(&self) -> Option<usize> {
        (0..self.verified.len()).find(|&ply| {
            self.verified[ply]
                .as_ref()
                .and_then(|moves| verdict(self.game, ply, moves))
                .is_some_and(|v| v.loss >= MISTAKE)
        })
    }

    /// Records a search of the current round, and reports the progress.
    fn record(&mut self, job: Job, eval: PositionEval, progress: &mut impl FnMut(usize, usize)) {
        self.nodes += eval.nodes;
        match (job, self.pass) {
            (Job::Position(ply), pass) => {
                if pass == Pass::Deep {
                    self.deep[ply] = true;
                    self.deep_searched += 1;
                }
                self.evals[ply] = Some(eval);
            }
            (Job::After(ply, mv), _) => {
                self.verify_searches += 1;
                if let Some(moves) = self.verified[ply].as_mut() {
                    moves.push((mv, eval));
                }
            }
        }
        self.done += 1;
        progress(self.done, self.total);
    }

    /// The review, its last progress report saying it is complete.
    fn finish(self, progress: &mut impl FnMut(usize, usize)) -> Review {
        if self.done < self.total {
            progress(self.done, self.done);
        }
        let mut r = assemble(self.game, self.evals, &self.deep);
        let mut verified_positions = 0;
        for (ply, moves) in self.verified.iter().enumerate() {
            if let Some(v) = moves
                .as_ref()
                .and_then(|moves| verdict(self.game, ply, moves))
            {
                verified_positions += 1;
                apply_verdict(self.game, &mut r.plies[ply], &v);
            }
        }
        r.players = [Color::White, Color::Black].map(|c| summarize(&r.plies, c));
        r.nodes = self.nodes;
        r.deep_positions = self.deep_searched;
        r.verified_positions = verified_positions;
        r
    }
}

/// Reviews `game` on the calling thread. `progress(done, total)` is called after each
/// position searched; `total` is the most the review can search (the deeper passes stop
/// sooner when nothing more is worth a look: the last report then has `done == total`).
pub fn review(
    game: &Game,
    options: &ReviewOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let mut passes = Passes::new(game, options)?;
    while let Some((round, limits)) = passes.next_round(options) {
        for job in round {
            let g = job.game(game);
            let eval = evaluate_position(&g, options, limits, &mut |g, l, o| best_move(g, l, o));
            passes.record(job, eval, &mut progress);
        }
    }
    Ok(passes.finish(&mut progress))
}

/// How many times a deeper search cut short by a bot's move is started again before its
/// shallower result is taken: once, so a busy bot delays a review without ever holding it
/// for good.
const HURRIED_RETRIES: u32 = 1;

/// Reviews `game` with its searches as jobs of their own class ([`JobClass::Review`]) on
/// `pool`, at most as many at once as the pool has threads: every bot move starts before
/// them, and one that finds every thread busy hurries a review's search rather than wait for
/// it (that position is then searched again, once). `progress(done, total)` as in
/// [`review`].
pub async fn review_in_pool(
    pool: &SearchPool,
    game: &Game,
    options: &ReviewOptions,
    mut progress: impl FnMut(usize, usize) + Send,
) -> Result<Review, ReviewError> {
    let mut passes = Passes::new(game, options)?;
    while let Some((round, limits)) = passes.next_round(options) {
        let submit = |job: Job, tries: u32| {
            let g = job.game(game);
            let options = options.clone();
            let ticket = pool.submit(JobClass::Review, move |ctx| {
                let hurry = ctx.hurry();
                let eval =
                    evaluate_position(&g, &options, limits, &mut |g, l, o| ctx.best_move(g, l, o));
                (eval, hurry.load(std::sync::atomic::Ordering::Relaxed))
            });
            (job, tries, ticket)
        };
        let mut waiting = round.into_iter();
        let mut in_flight = VecDeque::new();
        for job in waiting.by_ref().take(pool.threads()) {
            in_flight.push_back(submit(job, 0));
        }
        while let Some((job, tries, ticket)) = in_flight.pop_front() {
            let (eval, hurried) = ticket.await?;
            if hurried && tries < HURRIED_RETRIES {
                in_flight.push_back(submit(job, tries + 1));
                continue;
            }
            passes.record(job, eval, &mut progress);
            if let Some(next) = waiting.next() {
                in_flight.push_back(submit(next, 0));
            }
        }
    }
    Ok(passes.finish(&mut progress))
}

/// What the verifying searches of one position say of the move played there: the best of
/// the other moves and the scores, for the mover, after each.
#[derive(Clone, Debug, PartialEq)]
struct Verdict {
    best: Move,
    /// The best other move's score, or the played one's where no other move is better.
    before: i32,
    after: i32,
    loss: f64,
    /// The line after the best other move (starting with it) and after the played one.
    best_line: Vec<Move>,
    refutation: Vec<Move>,
    exact_before: Option<EndgameVerdict>,
    exact_after: Option<EndgameVerdict>,
}

/// The verdict of a verified position from the searches after each of its moves (`None`
/// when the played move or every other is missing).
fn verdict(game: &Game, ply: usize, moves: &[(Move, PositionEval)]) -> Option<Verdict> {
    let played = *game.moves().get(ply)?;
    // For the mover: the search after a move is the opponent's.
    let (_, after) = moves.iter().find(|(mv, _)| *mv == played)?;
    let (alt, best) = moves
        .iter()
        .filter(|(mv, _)| *mv != played)
        .max_by_key(|(_, e)| -e.score)?;
    let mover_exact = |e: &PositionEval| e.exact.map(EndgameVerdict::flipped);
    let better = -best.score > -after.score;
    let (best_move, before, best_eval) = if better {
        (*alt, -best.score, best)
    } else {
        (played, -after.score, after)
    };
    let loss = if better {
        (expected_score(-best.score) - expected_score(-after.score)).max(0.0)
    } else {
        0.0
    };
    let mut best_line = vec![best_move];
    best_line.extend(&best_eval.line);
    let all_exact = moves.iter().all(|(_, e)| e.exact.is_some());
    Some(Verdict {
        best: best_move,
        before,
        after: -after.score,
        loss,
        best_line,
        refutation: after.line.clone(),
        exact_before: if all_exact {
            mover_exact(best_eval)
        } else {
            None
        },
        exact_after: mover_exact(after),
    })
}

/// Rewrites a ply's judgment with its verdict: the verifying searches looked at every move
/// at a budget of their own, so they overrule the passes before.
fn apply_verdict(game: &Game, p: &mut PlyReview, v: &Verdict) {
    let pos = &game.positions()[p.ply];
    let white = |score: i32| {
        if p.mover == Color::White {
            score
        } else {
            -score
        }
    };
    let white_exact = |e: Option<EndgameVerdict>| {
        e.map(|v| {
            if p.mover == Color::White {
                v
            } else {
                v.flipped()
            }
        })
    };
    p.best = v.best;
    p.best_text = pos.move_notation(&v.best);
    p.eval_before = white(v.before);
    p.eval_after = white(v.after);
    p.exact_before = white_exact(v.exact_before).or(p.exact_before);
    p.exact_after = white_exact(v.exact_after).or(p.exact_after);
    p.loss = v.loss;
    p.class = MoveClass::of_loss(v.loss);
    p.best_line = v.best_line.clone();
    p.refutation = v.refutation.clone();
    let serious = matches!(p.class, MoveClass::Mistake | MoveClass::Blunder);
    p.missed_shot = serious && is_shot(pos, &p.best_line);
    p.allowed_shot = serious && is_shot(&pos.apply(&p.played), &p.refutation);
    p.deep = true;
    p.verified = true;
}

/// A drop in expected score between two positions a move apart, for the mover, from which
/// the quick pass's judgment is looked at again more deeply: below an inaccuracy, so that a
/// move near the threshold gets its second look too.
pub const SWING: f64 = 0.05;

/// A score (hundredths of a man) from which the game is decided for the deeper pass: the
/// decisive phase is where the evaluation last stood within it.
const DECISIVE: i32 = 150;

/// Positions searched deeply before the decisive phase's last even position.
const DECISIVE_WINDOW: usize = 8;

/// The positions the next round of deeper searches should look at, most telling first, at
/// most `room` of them, among those that need a search and have not had a deep one (nor are
/// held by the endgame tables): the decisive phase of a decided game (the positions before
/// the evaluation last stood within ±[`DECISIVE`]), then both ends of every move whose
/// expected score drops by [`SWING`] or more, biggest first. Called again after each round,
/// the rule follows a swing back: a deep search that sees a loss the quick one missed shows
/// a swing at its edge, between a quick position and a deep one.
pub fn deep_candidates(
    game: &Game,
    evals: &[Option<PositionEval>],
    searchable: &[bool],
    deep: &[bool],
    room: usize,
) -> Vec<usize> {
    if room == 0 {
        return Vec::new();
    }
    let n = game.ply();
    let positions = game.positions();
    let filled = filled(game, evals.to_vec());
    let settled = |i: usize| deep[i] || filled[i].exact.is_some();
    let wants = |i: usize| searchable[i] && !settled(i);
    let chart = |i: usize| {
        if positions[i].side_to_move() == Color::White {
            filled[i].score
        } else {
            -filled[i].score
        }
    };
    let mut wanted: Vec<usize> = Vec::new();
    let want = |i: usize, wanted: &mut Vec<usize>| {
        if wants(i) && !wanted.contains(&i) {
            wanted.push(i);
        }
    };
    let end = chart(n);
    if end.abs() >= DECISIVE {
        if let Some(last_even) = (0..=n).rev().find(|&i| chart(i) * end.signum() < DECISIVE) {
            let mut near: Vec<usize> =
                (last_even.saturating_sub(DECISIVE_WINDOW)..=(last_even + 2).min(n)).collect();
            near.sort_by_key(|&i| i.abs_diff(last_even));
            for i in near {
                want(i, &mut wanted);
            }
        }
    }
    let mut swings: Vec<(f64, usize, Option<usize>)> = (0..n)
        .filter(|&i| searchable[i])
        .filter_map(|i| {
            let drop = expected_score(filled[i].score) - expected_score(-filled[i + 1].score);
            let next = (i + 1..=n).find(|&j| searchable[j]);
            let both_settled = settled(i) && next.map_or(true, settled);
            (drop >= SWING && !both_settled).then_some((drop, i, next))
        })
        .collect();
    swings.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, i, next) in swings {
        want(i, &mut wanted);
        if let Some(j) = next {
            want(j, &mut wanted);
        }
    }
    wanted.truncate(room);
    wanted
}

/// The loser's positions the verifying pass looks at, next first: none unless the game has a
/// winner whose opponent the searches so far (`evals`, `deep` as in [`assemble`]) name no
/// mistake or blunder. The game went from holdable to lost somewhere: the pass starts just
/// after the loser's evaluation last stood within [`DECISIVE`] (where it stood best, if it
/// never did) and works back towards the start, over positions with a choice whose move is
/// not a book move.
pub fn verify_candidates(
    game: &Game,
    evals: &[Option<PositionEval>],
    deep: &[bool],
    options: &ReviewOptions,
) -> Vec<usize> {
    let Some(winner) = game.outcome().and_then(|o| o.winner()) else {
        return Vec::new();
    };
    if options.verify_searches == 0 {
        return Vec::new();
    }
    let loser = !winner;
    let so_far = assemble(game, evals.to_vec(), deep);
    let named = so_far.player(loser);
    if named.mistakes + named.blunders > 0 {
        return Vec::new();
    }
    let n = game.ply();
    let positions = game.positions();
    let filled = filled(game, evals.to_vec());
    let for_loser = |i: usize| {
        if positions[i].side_to_move() == loser {
            filled[i].score
        } else {
            -filled[i].score
        }
    };
    let turning = (0..n)
        .rev()
        .find(|&i| for_loser(i) > -DECISIVE)
        .or_else(|| (0..n).rev().max_by_key(|&i| for_loser(i)))
        .unwrap_or(0);
    (0..=(turning + VERIFY_AFTER).min(n - 1))
        .rev()
        .filter(|&i| {
            positions[i].side_to_move() == loser
                && positions[i].count_legal_moves() > 1
                && !so_far.plies[i].book
        })
        .collect()
}

/// Pieces of `c` minus the opponent's, a king counting as two men would be too much for a
/// shot's bar: pieces count one each, and crowning counts as gaining a king (see
/// [`SHOT_PIECES`]).
fn material(pos: &Position, c: Color) -> (i32, i32) {
    let pieces = pos.pieces(c).count() as i32 - pos.pieces(!c).count() as i32;
    let kings = pos.kings(c).count() as i32 - pos.kings(!c).count() as i32;
    (pieces, kings)
}

/// Whether the side to move can crown a man at once: such a man is as good as a king, even
/// where the search's line, which only has to keep the score, crowns it later or not at all.
fn can_crown(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|mv| pos.crowns(mv))
}

/// Whether `line`, played from `pos`, wins the side to move two men net or a king (a man won
/// and another about to crown counts as one): the material after the line (or after its
/// first reply, whichever is best for the side to move at a point where the opponent has
/// answered) against the material now.
fn is_shot(pos: &Position, line: &[Move]) -> bool {
    let me = pos.side_to_move();
    let (p0, k0) = material(pos, me);
    let mut p = *pos;
    let mut best = false;
    for (i, mv) in line.iter().enumerate() {
        if !p.legal_moves().contains(mv) {
            break;
        }
        p = p.apply(mv);
        // Count only after the opponent's answer (or at the line's end): a capture that is
        // about to be recaptured wins nothing.
        if i % 2 == 1 || i + 1 == line.len() {
            let (pn, kn) = material(&p, me);
            let crowning = pn > p0 && p.side_to_move() == me && can_crown(&p);
            if pn - p0 >= SHOT_PIECES || (kn - k0 >= 1 && pn >= p0) || crowning {
                best = true;
            }
        }
    }
    best
}

/// Every position's evaluation from the searches made: the end of the game from its outcome
/// when it was not searched, a forced move from the position after it. `evals[i]` is the
/// search of position `i` (`None` where none was made).
fn filled(game: &Game, mut evals: Vec<Option<PositionEval>>) -> Vec<PositionEval> {
    let n = game.ply();
    let positions = game.positions();
    // The end of the game: decided by its outcome when it was not searched.
    if evals[n].is_none() {
        // Either the side to move has no move (it lost) or a draw rule ended the game.
        let score = if positions[n].count_legal_moves() == 0 {
            -MATE
        } else {
            0
        };
        evals[n] = Some(PositionEval {
            score,
            line: vec![],
            exact: None,
            nodes: 0,
        });
    }
    // Forced moves, from the end back: the score is that of the position after them.
    for i in (0..n).rev() {
        if evals[i].is_none() {
            let next = evals[i + 1].as_ref().map_or(0, |e| e.score);
            let mut line = vec![game.moves()[i]];
            line.extend(evals[i + 1].iter().flat_map(|e| e.line.iter().copied()));
            // A forced move keeps the exact result of the position it leads to.
            let exact = evals[i + 1]
                .as_ref()
                .and_then(|e| e.exact)
                .map(|v| match v {
                    EndgameVerdict::Win { plies } => EndgameVerdict::Loss { plies: plies + 1 },
                    EndgameVerdict::Loss { plies } => EndgameVerdict::Win { plies: plies + 1 },
                    EndgameVerdict::Draw => EndgameVerdict::Draw,
                });
            evals[i] = Some(PositionEval {
                score: -next,
                line,
                exact,
                nodes: 0,
            });
        }
    }
    evals.into_iter().flatten().collect()
}

/// Turns the positions' searches into the review. `evals[i]` is the search of position `i`
/// (`None` where none was needed: forced moves, the end of the game); `deep[i]` says it was
/// searched at the deeper budget.
pub fn assemble(game: &Game, evals: Vec<Option<PositionEval>>, deep: &[bool]) -> Review {
    let n = game.ply();
    let positions = game.positions();
    let evals = filled(game, evals);
    // A position judged deeply, or exactly, or through the next one for a forced move.
    let mut deeply = vec![false; n + 1];
    for i in (0..=n).rev() {
        let forced_through = i < n && positions[i].count_legal_moves() == 1 && deeply[i + 1];
        deeply[i] = deep.get(i).copied().unwrap_or(false)
            || evals[i].exact.is_some()
            || forced_through
            || (i == n && !needs_search(game, n));
    }
    // Scores are searched for the side to move and reported from White's side, in every
    // variant: + is good for White even where Black moves first.
    let for_white = |i: usize, score: i32| {
        if positions[i].side_to_move() == Color::White {
            score
        } else {
            -score
        }
    };
    let exact_for_white = |i: usize| {
        let v = evals[i].exact?;
        Some(if positions[i].side_to_move() == Color::White {
            v
        } else {
            v.flipped()
        })
    };
    let mut plies = Vec::with_capacity(n);
    for i in 0..n {
        let pos = &positions[i];
        let mover = pos.side_to_move();
        let played = game.moves()[i];
        let legal = pos.legal_moves();
        let forced = legal.len() == 1;
        let best_line = evals[i].line.clone();
        let best = best_line.first().copied().unwrap_or(played);
        let before = evals[i].score;
        let after = -evals[i + 1].score;
        let loss = if forced || best == played {
            0.0
        } else {
            // A search of the next position can see further than the one before it did:
            // a move never gains expected score against the best move.
            (expected_score(before) - expected_score(after)).max(0.0)
        };
        let book =
            !forced && Book::embedded(pos.variant()).is_some_and(|b| b.is_book_move(pos, &played));
        // A draw gives away no more than a proven win: an edge the search only estimates is no
        // win to play on for, and judging by it the moves that repeat a position, or that the
        // search scores as drawn (it counts a position's return as a draw), named errors in
        // drawn endings the evaluation misreads (several a game in the fortresses of the
        // strength games' draws, docs/BENCHMARKS.md). A draw the tables prove is judged.
        let drawn_by_search = after == 0 && evals[i + 1].exact.is_none();
        let repeats = positions[..=i].contains(&positions[i + 1]);
        let unproven_repetition = (repeats || drawn_by_search) && before.abs() <= TABLE_BOUND;
        // The masters' games know an opening better than a review's short search: a book
        // move gives nothing away.
        let excused = book || unproven_repetition;
        let loss = if excused { 0.0 } else { loss };
        let class = if forced {
            MoveClass::OnlyMove
        } else if excused && best != played {
            MoveClass::Good
        } else {
            MoveClass::of_loss(loss)
        };
        let refutation = evals[i + 1].line.clone();
        let after_pos = pos.apply(&played);
        plies.push(PlyReview {
            ply: i,
            mover,
            played,
            played_text: pos.move_notation(&played),
            best,
            best_text: pos.move_notation(&best),
            eval_before: for_white(i, before),
            eval_after: for_white(i + 1, evals[i + 1].score),
            exact_before: exact_for_white(i),
            exact_after: exact_for_white(i + 1),
            loss,
            class,
            deep: deeply[i] && deeply[i + 1],
            missed_shot: matches!(class, MoveClass::Mistake | MoveClass::Blunder)
                && is_shot(pos, &best_line),
            allowed_shot: matches!(class, MoveClass::Mistake | MoveClass::Blunder)
                && is_shot(&after_pos, &refutation),
            best_line,
            refutation,
            book,
            verified: false,
        });
    }
    let chart = (0..=n).map(|i| for_white(i, evals[i].score)).collect();
    let players = [Color::White, Color::Black].map(|c| summarize(&plies, c));
    Review {
        start: *game.start_position(),
        plies,
        evals: chart,
        players,
        nodes: 0,
        deep_positions: 0,
        verified_positions: 0,
    }
}

fn summarize(plies: &[PlyReview], c: Color) -> PlayerSummary {
    let mine: Vec<&PlyReview> = plies.iter().filter(|p| p.mover == c).collect();
    let judged: Vec<&&PlyReview> = mine
        .iter()
        .filter(|p| p.class != MoveClass::OnlyMove)
        .collect();
    let count = |k: MoveClass| mine.iter().filter(|p| p.class == k).count();
    let accuracy = if judged.is_empty() {
        100.0
    } else {
        judged.iter().map(|p| move_accuracy(p.loss)).sum::<f64>() / judged.len() as f64
    };
    let biggest_swing = mine
        .iter()
        .filter(|p| p.loss > 0.0)
        .max_by(|a, b| a.loss.total_cmp(&b.loss))
        .map(|p| p.ply);
    PlayerSummary {
        accuracy,
        moves: mine.len(),
        inaccuracies: count(MoveClass::Inaccuracy),
        mistakes: count(MoveClass::Mistake),
        blunders: count(MoveClass::Blunder),
        missed_shots: mine.iter().filter(|p| p.missed_shot).count(),
        biggest_swing,
    }
}

/// A line in notation, each move written in the position it is played in; stops at the
/// first move that is not legal there.
pub fn line_notation(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        if !p.legal_moves().contains(mv) {
            break;
        }
        out.push(p.move_notation(mv));
        p = p.apply(mv);
    }
    out
}

/// Scores within this many hundredths of a man of 0 read as even.
pub const EVEN_WITHIN: i32 = 20;

/// What a score from White's side says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EvalReading {
    /// A forced win: `winner` wins in `moves` moves of its own (0 when the game is won).
    Win { winner: Color, moves: u32 },
    /// A win the endgame tables prove, its length to the end unknown (scores beyond
    /// [`TABLE_BOUND`] and within [`MATE_BOUND`]).
    ProvenWin { winner: Color },
    /// Neither side is better by more than [`EVEN_WITHIN`].
    Even { men: f64 },
    /// `side` is better by `men` (positive).
    Better { side: Color, men: f64 },
}

/// Reads a score from White's side (hundredths of a man; beyond [`MATE_BOUND`], a forced
/// win in `MATE - |score|` plies): who is better, or who wins and in how many of the
/// winner's moves.
pub fn read_eval(score: i32) -> EvalReading {
    if score.abs() > MATE_BOUND {
        let plies = (MATE - score.abs()).max(0) as u32;
        let winner = if score > 0 {
            Color::White
        } else {
            Color::Black
        };
        // The winner moves on every other ply, the first of them or the second.
        return EvalReading::Win {
            winner,
            moves: plies.div_ceil(2),
        };
    }
    if score.abs() > TABLE_BOUND {
        let winner = if score > 0 {
            Color::White
        } else {
            Color::Black
        };
        return EvalReading::ProvenWin { winner };
    }
    let men = f64::from(score) / 100.0;
    if score.abs() <= EVEN_WITHIN {
        EvalReading::Even { men }
    } else {
        let side = if score > 0 {
            Color::White
        } else {
            Color::Black
        };
        EvalReading::Better {
            side,
            men: men.abs(),
        }
    }
}

/// A score from White's side in men, with its sign: `+1.25`, `-0.40`, `+0.00`.
pub fn format_men(score: i32) -> String {
    format!("{:+.2}", f64::from(score) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_even_and_saturates() {
        assert!((expected_score(0) - 0.5).abs() < 1e-9);
        assert!((expected_score(100) - 0.75).abs() < 0.005);
        assert!((expected_score(100) + expected_score(-100) - 1.0).abs() < 1e-9);
        assert_eq!(expected_score(MATE - 5), 1.0);
        assert_eq!(expected_score(-MATE + 5), 0.0);
    }

    /// The first legal move, `plies` times, from the start: a game whose positions all
    /// have a choice (none of its first moves captures).
    fn opening(plies: usize) -> Game {
        let mut g = Game::new(crate::engine::Variant::Spanish);
        for _ in 0..plies {
            let mv = g.position().legal_moves()[0];
            assert!(g.play(mv).is_ok());
        }
        g
    }

    fn scored(scores: &[i32]) -> Vec<Option<PositionEval>> {
        scores
            .iter()
            .map(|&score| {
                Some(PositionEval {
                    score,
                    line: vec![],
                    exact: None,
                    nodes: 1,
                })
            })
            .collect()
    }

    #[test]
    fn the_deeper_pass_looks_at_both_ends_of_a_swing_and_follows_it_back() {
        let game = opening(6);
        let searchable: Vec<bool> = (0..=6).map(|i| needs_search(&game, i)).collect();
        assert!(searchable.iter().all(|&s| s));
        // Level until the mover of ply 3 gives away a man; the game stays within it.
        let evals = scored(&[0, 0, 0, 0, 100, -100, 100]);
        let none = vec![false; 7];
        assert_eq!(
            deep_candidates(&game, &evals, &searchable, &none, 10),
            [3, 4]
        );
        assert_eq!(deep_candidates(&game, &evals, &searchable, &none, 1), [3]);
        assert!(deep_candidates(&game, &evals, &searchable, &none, 0).is_empty());
        // Both ends searched deeply: nothing more to look at.
        let mut deep = none.clone();
        deep[3] = true;
        deep[4] = true;
        assert!(deep_candidates(&game, &evals, &searchable, &deep, 10).is_empty());
        // Only the position after it: the swing between a quick and a deep search is
        // followed back.
        deep[3] = false;
        assert_eq!(deep_candidates(&game, &evals, &searchable, &deep, 10), [3]);
        // No swing at all, no decided end: no second look.
        let level = scored(&[0, 10, -10, 0, 5, -5, 0]);
        assert!(deep_candidates(&game, &level, &searchable, &none, 10).is_empty());
    }

    #[test]
    fn a_decided_game_is_looked_at_where_it_was_lost() {
        let game = opening(6);
        let searchable: Vec<bool> = (0..=6).map(|i| needs_search(&game, i)).collect();
        // From White's side 0, 0, 0, 40, 200, 200, 200 (Black moves at odd plies): Black's
        // game is lost by the end, and last stood within the decisive margin at position 3.
        // The positions around it come first, nearest first, then the swings.
        let evals = scored(&[0, 0, 0, -40, 200, -200, 200]);
        let none = vec![false; 7];
        let wanted = deep_candidates(&game, &evals, &searchable, &none, 10);
        assert_eq!(wanted.first(), Some(&3), "{wanted:?}");
        for i in [0, 1, 2, 4, 5] {
            assert!(wanted.contains(&i), "{i} in {wanted:?}");
        }
    }

    fn eval(score: i32, line: Vec<Move>) -> PositionEval {
        PositionEval {
            score,
            line,
            exact: None,
            nodes: 1,
        }
    }

    #[test]
    fn a_verdict_weighs_the_played_move_against_the_best_at_the_same_budget() {
        let game = opening(2);
        let played = game.moves()[0];
        let other = game.positions()[0]
            .legal_moves()
            .into_iter()
            .find(|m| *m != played)
            .expect("the opening has a choice");
        // Scores after each move are the opponent's: the played move leaves the mover a man
        // down, the other level.
        let worse = [(played, eval(100, vec![])), (other, eval(0, vec![]))];
        let v = verdict(&game, 0, &worse).expect("both moves searched");
        assert_eq!(v.best, other);
        assert_eq!((v.before, v.after), (0, -100));
        assert!((v.loss - (expected_score(0) - expected_score(-100))).abs() < 1e-9);
        assert_eq!(MoveClass::of_loss(v.loss), MoveClass::Mistake);
        assert_eq!(v.best_line.first(), Some(&other));
        // The played move as good as the other: nothing lost, and it stays the best.
        let level = [(played, eval(0, vec![])), (other, eval(30, vec![]))];
        let v = verdict(&game, 0, &level).expect("both moves searched");
        assert_eq!((v.best, v.loss), (played, 0.0));
        // Without the played move's search there is no verdict.
        assert!(verdict(&game, 0, &worse[1..]).is_none());
    }

    #[test]
    fn the_verifying_pass_looks_back_from_where_the_loser_last_stood_within_reach() {
        let mut game = opening(8);
        let searchable: Vec<bool> = (0..=8).map(|i| needs_search(&game, i)).collect();
        assert!(searchable.iter().all(|&s| s));
        let options = ReviewOptions {
            verify_searches: 10,
            ..ReviewOptions::default()
        };
        let none = vec![false; 9];
        // From White's side: level, then a slow slide of White's from position 4 on.
        let chart = [0, 0, -40, -40, -60, -200, -200, -260, -300];
        let for_mover = |chart: &[i32]| {
            let scores: Vec<i32> = chart
                .iter()
                .enumerate()
                .map(|(i, &c)| if i % 2 == 0 { c } else { -c })
                .collect();
            scored(&scores)
        };
        let evals = for_mover(&chart);
        // Not decided: no verifying pass.
        assert!(verify_candidates(&game, &evals, &none, &options).is_empty());
        assert!(game.resign(Color::White).is_ok());
        let wanted = verify_candidates(&game, &evals, &none, &options);
        // White's positions (even plies) from just after position 4, the last within reach,
        // back to the start, book moves left out.
        let book = assemble(&game, evals.clone(), &none);
        let expected: Vec<usize> = [6, 4, 2, 0]
            .into_iter()
            .filter(|&i| !book.plies[i].book)
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(wanted, expected);
        // None when the passes already name a mistake of the loser's: White's move at ply 4
        // gives away three men.
        let mut blunder = chart;
        blunder[5] = -400;
        let mut named = for_mover(&blunder);
        let other = game.positions()[4]
            .legal_moves()
            .into_iter()
            .find(|m| *m != game.moves()[4])
            .expect("position 4 has a choice");
        if let Some(e) = named[4].as_mut() {
            e.line = vec![other];
        }
        let so_far = assemble(&game, named.clone(), &none);
        assert_eq!(so_far.plies[4].class, MoveClass::Blunder);
        assert!(verify_candidates(&game, &named, &none, &options).is_empty());
        // None without a budget.
        let off = ReviewOptions {
            verify_searches: 0,
            ..options
        };
        assert!(verify_candidates(&game, &evals, &none, &off).is_empty());
    }

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(MoveClass::of_loss(0.0), MoveClass::Best);
        assert_eq!(MoveClass::of_loss(0.05), MoveClass::Good);
        assert_eq!(MoveClass::of_loss(0.075), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of_loss(0.2), MoveClass::Mistake);
        assert_eq!(MoveClass::of_loss(0.3), MoveClass::Blunder);
    }

    #[test]
    fn accuracy_is_full_for_the_best_move_and_falls_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.1) > move_accuracy(0.3));
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    #[test]
    fn scores_read_from_whites_side_in_men_and_wins_in_the_winners_moves() {
        assert_eq!(format_men(125), "+1.25");
        assert_eq!(format_men(-40), "-0.40");
        assert_eq!(
            read_eval(125),
            EvalReading::Better {
                side: Color::White,
                men: 1.25
            }
        );
        assert_eq!(
            read_eval(-40),
            EvalReading::Better {
                side: Color::Black,
                men: 0.40
            }
        );
        assert_eq!(read_eval(EVEN_WITHIN), EvalReading::Even { men: 0.2 });
        // Black to win in 18 plies (the sign says who): 9 of Black's moves, whoever is to move.
        assert_eq!(
            read_eval(-(MATE - 18)),
            EvalReading::Win {
                winner: Color::Black,
                moves: 9
            }
        );
        assert_eq!(
            read_eval(MATE - 7),
            EvalReading::Win {
                winner: Color::White,
                moves: 4
            }
        );
        assert_eq!(
            read_eval(-MATE),
            EvalReading::Win {
                winner: Color::Black,
                moves: 0
            }
        );
        // The endgame tables' wins have no length: a proven win, not a huge advantage.
        assert_eq!(
            read_eval(MATE_BOUND - 20),
            EvalReading::ProvenWin {
                winner: Color::White
            }
        );
        assert_eq!(
            read_eval(-(TABLE_BOUND + 1)),
            EvalReading::ProvenWin {
                winner: Color::Black
            }
        );
        assert!(matches!(
            read_eval(TABLE_BOUND),
            EvalReading::Better {
                side: Color::White,
                ..
            }
        ));
    }
}
