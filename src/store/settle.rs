//! What the store asks of the game's policy when a game finishes. Scores, titles and ratings
//! are the app's (`app::scoring`); the store reads the players' records, hands them to the
//! policy and writes back what it changed, all inside the finish-game transaction, so that a
//! game is archived and counted at once or not at all.

use super::records::{GameRecord, PlayerRecord, SeatSummary};
use crate::engine::{ByColour, Game, Outcome};

/// How a finished game changes the players' records.
pub trait Settle: Send + Sync {
    /// Applies the finished `game` (described by `rec`, ended by `outcome`) to the players'
    /// records, indexed by colour, and says what changed for each human seat. A `None` record
    /// is a seat the store could not read (or the computer): it is left alone. Called inside a
    /// transaction that may be retried: it must depend on its arguments alone.
    fn settle(
        &self,
        rec: &GameRecord,
        game: &Game,
        outcome: Outcome,
        players: &mut ByColour<Option<PlayerRecord>>,
    ) -> ByColour<Option<SeatSummary>>;
}
