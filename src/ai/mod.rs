//! The computer opponent: an alpha-beta search over the engine at four strengths.
//!
//! Plain synchronous code: the caller runs [`best_move`] off the async runtime
//! (`spawn_blocking`) and may stop it early through [`SearchOptions::stop`]. Depends on
//! `engine` only.

mod board;
mod endgame;
mod eval;
mod hash;
mod level;
mod search;

pub use eval::{basic as basic_evaluation, rich as expert_evaluation};
pub use level::{Level, SearchLimits, UnknownLevel, HARD_NODES};
pub use search::{best_move, SearchOptions, SearchResult, MATE, MATE_BOUND};
