//! Tournaments: the pure part — who plays whom in each round ([`pairing`]) and who stands where
//! ([`standings`]). No store, no Discord, no clock: a tournament's state is plain data
//! ([`Field`], [`Round`]) that the use cases load, pass through these functions and store
//! back with a compare-and-swap.
//!
//! Scores are counted in half-points (`u32`), so a draw is 1 and a win 2, and nothing here
//! touches floating point: ranks must not depend on rounding.

mod matching;
pub mod pairing;
pub mod run;
pub mod schedule;
pub mod standings;

use serde::{Deserialize, Serialize};

/// A player's number in one tournament: the order in which they joined (0-based). Stable for
/// the life of the tournament, and the key of every pairing and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry(pub u16);

/// How the rounds are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every player meets every other once (Berger tables); the number of rounds follows from
    /// the field.
    RoundRobin,
    /// The FIDE Dutch system's rules at club size, for a fixed number of rounds.
    Swiss { rounds: u8 },
}

/// One player as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub entry: Entry,
    /// The rating when the tournament started: the Swiss system's initial ranking, and the
    /// last tie-break of the order (then the entry number).
    pub rating: i32,
    /// The first round this player is no longer paired in (withdrawn before it); `None` while
    /// they play on.
    pub withdrawn_from: Option<u8>,
}

/// Everyone who entered, in entry order (`players[i].entry == Entry(i)`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub players: Vec<Player>,
}

impl Field {
    /// The players still paired in `round` (1-based).
    pub fn active_in(&self, round: u8) -> impl Iterator<Item = &Player> {
        self.players
            .iter()
            .filter(move |p| p.withdrawn_from.map_or(true, |from| round < from))
    }
}

/// The result of one pairing, in half-points for white and for black. A single game scores
/// 2 in all (2–0, 1–1, 0–2); an English ballot mini-match of two games scores 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub white: u32,
    pub black: u32,
    /// Decided without play (a withdrawal, a game cancelled by a moderator counted as lost):
    /// counted in points, but not as a game played for colours or for tie-breaks that need one.
    pub forfeit: bool,
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Board {
    /// Two players meet; `white` has the first game's white pieces (in a two-game mini-match
    /// the colours are reversed in the second).
    Game {
        white: Entry,
        black: Entry,
        /// `None` until every game of the pairing has ended.
        score: Option<Score>,
    },
    /// The odd player out, scored as a win.
    Bye(Entry),
}

/// One round: its boards, in board order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
}

impl Round {
    /// Every pairing of the round has its result.
    pub fn is_complete(&self) -> bool {
        self.boards.iter().all(|b| match b {
            Board::Game { score, .. } => score.is_some(),
            Board::Bye(_) => true,
        })
    }
}

/// How many half-points one pairing is worth: 2 for a single game, 4 for a two-game mini-match.
/// A bye scores all of them.
pub fn pairing_worth(games_per_pairing: u8) -> u32 {
    2 * u32::from(games_per_pairing)
}
