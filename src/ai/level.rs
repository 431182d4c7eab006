//! The four strengths of the computer opponent and the limits each one thinks within.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How strong the computer plays. Easy, Medium and Hard judge positions with the evaluation
/// described to players in docs/GAME-APP.md; Expert adds its own knowledge and a transposition
/// table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// One move in four at random, the rest from a two-ply search with a very noisy evaluation.
    Easy,
    /// Four plies plus every capture sequence.
    #[default]
    Medium,
    /// A fixed node budget: usually 8 to 12 plies plus captures.
    Hard,
    /// Iterative deepening with a transposition table and a richer evaluation, on a clock.
    Expert,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?}: use easy, medium, hard or expert")]
pub struct UnknownLevel(pub String);

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
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The identifier used on the command line, in storage and in component ids.
    pub const fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

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

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" | "facil" | "fácil" => Ok(Level::Easy),
            "medium" | "medio" => Ok(Level::Medium),
            "hard" | "dificil" | "difícil" => Ok(Level::Hard),
            "expert" | "experto" => Ok(Level::Expert),
            _ => Err(UnknownLevel(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for level in Level::ALL {
            assert_eq!(level.id().parse::<Level>(), Ok(level));
            let json = serde_json::to_string(&level).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", level.id()));
        }
        assert!("grandmaster".parse::<Level>().is_err());
    }
}
