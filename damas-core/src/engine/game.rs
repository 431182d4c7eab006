//! A game: the moves played, undo, and how it ends — wins, resignation, and every draw rule.

use super::moves::Move;
use super::notation::MoveError;
use super::position::Position;
use super::variant::{Color, NoProgress, Variant};
use serde::{Deserialize, Serialize};

/// Moves the stronger side has to win three kings against one (Spanish).
pub const THREE_KINGS_MOVES: u8 = 13;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum WinReason {
    /// The loser had no piece left on their turn.
    NoPieces,
    /// The loser could not move on their turn.
    NoMoves,
    Resignation,
    /// The loser left the game.
    Abandoned,
    /// The loser let their time per move run out.
    Time,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum DrawReason {
    Agreement,
    /// The same position with the same side to move for the third time.
    Repetition,
    /// The variant's no-progress count ran out.
    NoProgress,
    /// Spanish: three kings did not beat one within 13 moves.
    ThreeKings,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw { reason: DrawReason },
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over")]
    Over,
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("there is no move to take back")]
    NothingToUndo,
}

/// The counts behind the draw rules that a position alone does not show: plies without
/// progress, the Spanish three-kings count, and how far back a position can repeat.
///
/// The single place where these rules are stepped: [`Game`] keeps one per ply and the
/// computer's search carries one per node, so it is small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawCounters {
    no_progress: u16,
    /// Moves the stronger side has made since three kings against one began (Spanish).
    three_kings: Option<(Color, u8)>,
    /// Plies since the last capture or man move: earlier positions can never come back.
    reversible: u16,
}

impl DrawCounters {
    /// The counts at a game's first position: nothing has run yet, except that three kings
    /// against one with the long diagonal held starts the three-kings count at once.
    pub fn start(pos: &Position) -> DrawCounters {
        DrawCounters {
            three_kings: three_kings_after(pos, None),
            ..DrawCounters::default()
        }
    }

    /// The counts after `mv` took `before` to `after` (`before.apply(mv)`, passed in because
    /// every caller has it already).
    #[inline]
    pub fn after(&self, before: &Position, mv: &Move, after: &Position) -> DrawCounters {
        let irreversible = mv.is_capture() || before.moves_man(mv);
        let resets = match before.variant().no_progress() {
            NoProgress::KingMovesWithoutCapture | NoProgress::WithoutCaptureOrManMove => {
                irreversible
            }
            NoProgress::WithoutCapture => mv.is_capture(),
        };
        // Saturating: a record is followed past the draws live play declares (see
        // [`Game::from_record`]), so the counts may run on for as long as the record does.
        DrawCounters {
            no_progress: if resets {
                0
            } else {
                self.no_progress.saturating_add(1)
            },
            three_kings: three_kings_after(after, Some((before.side_to_move(), self.three_kings))),
            reversible: if irreversible {
                0
            } else {
                self.reversible.saturating_add(1)
            },
        }
    }

    /// The draw these counts declare in `variant` (repetition aside, which needs the
    /// positions themselves).
    #[inline]
    pub fn draw(&self, variant: Variant) -> Option<DrawReason> {
        if self.no_progress >= variant.no_progress_limit() {
            return Some(DrawReason::NoProgress);
        }
        match self.three_kings {
            Some((_, n)) if n >= THREE_KINGS_MOVES => Some(DrawReason::ThreeKings),
            _ => None,
        }
    }

    /// Plies counted towards the no-progress draw.
    pub fn no_progress_plies(&self) -> u16 {
        self.no_progress
    }

    /// For three kings against one (Spanish): the stronger side and the moves it has made.
    pub fn three_kings(&self) -> Option<(Color, u8)> {
        self.three_kings
    }

    /// Plies since the last capture or man move: only the positions of these plies can
    /// repeat the current one.
    pub fn reversible_plies(&self) -> u16 {
        self.reversible
    }
}

/// The three-kings count on reaching `pos`; `mover` is who just moved and the count before
/// the move. It starts when three kings face one with a strong king on the long diagonal,
/// and counts the strong side's moves.
#[inline]
fn three_kings_after(
    pos: &Position,
    mover: Option<(Color, Option<(Color, u8)>)>,
) -> Option<(Color, u8)> {
    if !pos.variant().three_kings_rule() {
        return None;
    }
    let strong = [Color::White, Color::Black].into_iter().find(|&c| {
        pos.kings(c).count() == 3
            && pos.men(c).is_empty()
            && pos.kings(c.opposite()).count() == 1
            && pos.men(c.opposite()).is_empty()
    })?;
    match mover {
        // The count runs: one more move if the stronger side just moved.
        Some((who, Some((s, n)))) if s == strong => Some((
            strong,
            if who == strong {
                n.saturating_add(1)
            } else {
                n
            },
        )),
        _ => {
            let on_diagonal = !(pos.kings(strong) & pos.variant().long_diagonal()).is_empty();
            on_diagonal.then_some((strong, 0))
        }
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    /// positions[0] is the start; positions[i + 1] follows moves[i].
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// counters[i] belongs to positions[i].
    counters: Vec<DrawCounters>,
    outcome: Option<Outcome>,
    /// Live play: the draw rules end the game as soon as they apply. Off for a record of a
    /// game played elsewhere ([`Game::from_record`]), which is followed as it was played.
    automatic_draws: bool,
    /// For a record: the first ply after which live play would have declared a draw, and why.
    unclaimed_draw: Option<(usize, DrawReason)>,
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    pub fn from_position(start: Position) -> Game {
        Game::starting(start, true)
    }

    /// A game to follow a record of a game played elsewhere, which is authoritative: its moves
    /// are played through the positions where live play declares a draw (a third repetition,
    /// the no-progress count, three kings against one). Under the federations' rules those
    /// draws are claimed, not imposed, and the players of the record went on. Where live play
    /// would have stopped is kept: [`Game::unclaimed_draw`]. A game still ends when a player
    /// has no piece or no move left.
    pub fn from_record(start: Position) -> Game {
        Game::starting(start, false)
    }

    fn starting(start: Position, automatic_draws: bool) -> Game {
        let mut g = Game {
            variant: start.variant(),
            positions: vec![start],
            moves: Vec::new(),
            counters: vec![DrawCounters::start(&start)],
            outcome: None,
            automatic_draws,
            unclaimed_draw: None,
        };
        g.settle();
        g
    }

    /// Whether the draw rules end this game when they apply (live play), or only note where
    /// they would have (a record).
    pub fn automatic_draws(&self) -> bool {
        self.automatic_draws
    }

    /// For a record ([`Game::from_record`]): the first ply after which live play would have
    /// declared a draw (0 for the start position), and the rule. `None` for live play, where
    /// that draw is the outcome.
    pub fn unclaimed_draw(&self) -> Option<(usize, DrawReason)> {
        self.unclaimed_draw
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Full-move number of the next move (1 for the first pair of moves).
    pub fn move_number(&self) -> usize {
        self.moves.len() / 2 + 1
    }

    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The draw rules' counts at the current position.
    pub fn draw_counters(&self) -> DrawCounters {
        self.counters.last().copied().unwrap_or_default()
    }

    /// Plies counted towards the no-progress draw so far.
    pub fn no_progress_plies(&self) -> u16 {
        self.draw_counters().no_progress_plies()
    }

    /// Moves (of each side) left before the no-progress draw.
    pub fn no_progress_moves_left(&self) -> u16 {
        let left = self
            .variant
            .no_progress_limit()
            .saturating_sub(self.no_progress_plies());
        left.div_ceil(2)
    }

    /// For three kings against one (Spanish): the stronger side and its moves left.
    pub fn three_kings_moves_left(&self) -> Option<(Color, u8)> {
        self.draw_counters()
            .three_kings()
            .map(|(c, n)| (c, THREE_KINGS_MOVES.saturating_sub(n)))
    }

    /// How many times the current position (with the same side to move) has stood.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        self.positions.iter().filter(|p| *p == now).count()
    }

    /// Plays a move written in notation (see [`Position::parse_move`]). A move that is not
    /// legal, or any move once the game is over, is refused and changes nothing.
    ///
    /// ```
    /// use damas_core::engine::{Game, GameError, MoveError, Variant};
    ///
    /// let mut game = Game::new(Variant::English);
    /// let mv = game.play_text("11-15")?; // Black moves first in English draughts
    /// assert_eq!(mv.to().number(), 15);
    /// assert_eq!(game.ply(), 1);
    ///
    /// let refused = game.play_text("11-15"); // 11 is empty now
    /// assert!(matches!(refused, Err(GameError::Move(MoveError::NoPiece { .. }))));
    /// assert_eq!(game.ply(), 1);
    /// # Ok::<(), GameError>(())
    /// ```
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move, which must be legal.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let pos = *self.position();
        let legal = pos.legal_moves();
        let Some(mv) = legal.iter().find(|m| **m == mv).copied() else {
            return Err(GameError::Move(
                super::notation::resolve_squares(&pos, &[mv.from(), mv.to()])
                    .err()
                    .unwrap_or(MoveError::Ambiguous {
                        candidates: legal.to_vec(),
                    }),
            ));
        };
        let next = pos.apply(&mv);
        let counters = self.draw_counters().after(&pos, &mv, &next);
        self.moves.push(mv);
        self.positions.push(next);
        self.counters.push(counters);
        self.settle();
        Ok(())
    }

    /// Decides the outcome after the last ply; for a record, notes the first draw live play
    /// would have declared instead.
    fn settle(&mut self) {
        self.outcome = self.decide();
        if !self.automatic_draws && self.outcome.is_none() && self.unclaimed_draw.is_none() {
            self.unclaimed_draw = self.draw_by_rule().map(|reason| (self.ply(), reason));
        }
    }

    /// The draw the rules declare at the current position, if any.
    fn draw_by_rule(&self) -> Option<DrawReason> {
        if self.repetitions() >= 3 {
            return Some(DrawReason::Repetition);
        }
        self.draw_counters().draw(self.variant)
    }

    /// The result after the last ply, from the position and the counters.
    fn decide(&self) -> Option<Outcome> {
        let pos = self.position();
        let side = pos.side_to_move();
        if pos.pieces(side).is_empty() {
            return Some(Outcome::Win {
                winner: side.opposite(),
                reason: WinReason::NoPieces,
            });
        }
        if pos.count_legal_moves() == 0 {
            return Some(Outcome::Win {
                winner: side.opposite(),
                reason: WinReason::NoMoves,
            });
        }
        if !self.automatic_draws {
            return None;
        }
        self.draw_by_rule().map(|reason| Outcome::Draw { reason })
    }

    /// Takes back the last ply (and reopens the game if that ply ended it).
    pub fn undo(&mut self) -> Result<Move, GameError> {
        if matches!(
            self.outcome,
            Some(Outcome::Win {
                reason: WinReason::Resignation | WinReason::Abandoned | WinReason::Time,
                ..
            }) | Some(Outcome::Draw {
                reason: DrawReason::Agreement
            })
        ) {
            return Err(GameError::Over);
        }
        let mv = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        self.counters.pop();
        if self.unclaimed_draw.is_some_and(|(ply, _)| ply > self.ply()) {
            self.unclaimed_draw = None;
        }
        self.settle();
        Ok(mv)
    }

    pub fn resign(&mut self, loser: Color) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: loser.opposite(),
            reason: WinReason::Resignation,
        })
    }

    pub fn abandon(&mut self, loser: Color) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: loser.opposite(),
            reason: WinReason::Abandoned,
        })
    }

    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }

    fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Sets an outcome decided outside the rules (restored from storage).
    pub fn set_outcome(&mut self, outcome: Option<Outcome>) {
        self.outcome = outcome;
    }

    /// The squares the last move touched: from, path, captured.
    pub fn last_move(&self) -> Option<(&Position, &Move)> {
        let n = self.moves.len();
        (n > 0).then(|| (&self.positions[n - 1], &self.moves[n - 1]))
    }

    /// The number PDN writes before ply `ply` (from 0): `12.` for the first player's move,
    /// `12...` for the second's, counted from this game's start.
    pub fn move_label(&self, ply: usize) -> String {
        super::pdn::move_label(self.start_position(), ply)
    }

    /// Canonical notation of every move played.
    pub fn notations(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(m, p)| p.move_notation(m))
            .collect()
    }

    /// Rebuilds a game from its start and its moves in notation; stops at the first bad one.
    pub fn replay(start: Position, moves: &[&str]) -> Result<Game, (usize, GameError)> {
        let mut g = Game::from_position(start);
        for (i, m) in moves.iter().enumerate() {
            g.play_text(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }
}
