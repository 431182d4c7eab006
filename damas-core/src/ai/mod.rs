//! The computer opponent: an alpha-beta search over the engine at four strengths.
//!
//! Plain synchronous code: the caller runs [`best_move`] off the async runtime — on a
//! [`SearchPool`], which keeps a transposition table per thread and puts short searches
//! first — and may stop it early through [`SearchOptions::stop`]. Depends on `engine` only
//! (and on tokio's one-shot channel, so async code can await a pool's [`Ticket`]).

mod board;
pub mod book;
pub mod egdb;
mod eval;
mod hash;
mod level;
pub mod network;
mod pool;
pub mod puzzles;
mod review;
mod search;
pub mod tune;

pub use book::{Book, BookMove, BookPolicy};
pub use egdb::{EndgameTables, EndgameVerdict};
pub use eval::{
    basic as basic_evaluation, expert as expert_evaluation, Weights as EvalWeights,
    WEIGHTS_PATH as EVAL_WEIGHTS_PATH,
};
pub use hash::{tables_allocated_on_this_thread, Table as TranspositionTable};
pub use level::{Level, SearchLimits, UnknownLevel, HARD_NODES};
pub use network::{Network as EvalNetwork, NETWORK_PATH as EVAL_NETWORK_PATH};
pub use pool::{
    expert_time_under_load, shallow_best_move, JobClass, JobContext, PoolError, SearchPool, Ticket,
    EXPERT_FLOOR_UNDER_LOAD,
};
pub use review::{
    assemble as assemble_review, deep_candidates, evaluate_position, expected_score, format_men,
    line_notation, move_accuracy, read_eval, review, review_in_pool, verify_candidates,
    EvalReading, MoveClass, PlayerSummary, PlyReview, PositionEval, Review, ReviewError,
    ReviewOptions, BLUNDER, DEEP_NODES, DEEP_POSITIONS, EVEN_WITHIN, EXPECTED_SCORE_SCALE,
    INACCURACY, MISTAKE, SWING, VERIFY_NODES, VERIFY_SEARCHES,
};
pub use search::{
    best_move, best_move_with_table, Hurry, SearchOptions, SearchResult, MATE, MATE_BOUND,
    TABLE_BOUND,
};
