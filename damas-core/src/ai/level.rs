//! The limits each of the computer's four levels thinks within. The levels themselves (their
//! ids, names and order) are [`crate::level`], which the store uses too; they are re-exported
//! here because the search's functions take them.

pub use crate::level::{Level, UnknownLevel};
use std::time::Duration;

/// When a search stops. Every limit that is set applies; the first one reached ends the
/// search (the deepest completed iteration gives the move).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SearchLimits {
    /// Wall-clock time. Makes the result depend on the machine: tests use `nodes` or `depth`.
    pub time: Option<Duration>,
    /// Positions visited (every node of the main search and of the capture search).
    pub nodes: Option<u64>,
    /// Nominal depth in plies, not counting capture sequences and forced-move extensions.
    pub depth: Option<u32>,
}

/// Hard's budget. About 0.1-0.3 s on this project's 2-core box; gives 8 to 12 plies in the
/// middle game and deeper in endings.
pub const HARD_NODES: u64 = 250_000;

impl Level {
    /// The thinking time of the levels that play on a clock (only Expert); the others are
    /// bounded by depth or nodes and finish well within a second.
    pub const fn default_time(self) -> Option<Duration> {
        match self {
            Level::Expert => Some(Duration::from_secs(2)),
            _ => None,
        }
    }

    /// The limits the level thinks within when nothing overrides them.
    pub const fn limits(self) -> SearchLimits {
        match self {
            Level::Easy => SearchLimits {
                time: None,
                nodes: None,
                depth: Some(2),
            },
            Level::Medium => SearchLimits {
                time: None,
                nodes: None,
                depth: Some(4),
            },
            Level::Hard => SearchLimits {
                time: None,
                nodes: Some(HARD_NODES),
                depth: None,
            },
            Level::Expert => SearchLimits {
                time: self.default_time(),
                nodes: None,
                depth: None,
            },
        }
    }
}
