//! The records the store keeps: active games, challenges, players. Plain serde data; the
//! engine is only called to turn a game record back into a [`Game`].

use super::error::StoreError;
use crate::engine::{
    ByColour, Color, DrawReason, Game, GameError, Move, Outcome, Position, Variant, WinReason,
};
use crate::lang::Lang;
use crate::level::Level;
use serde::{Deserialize, Serialize};

pub(crate) fn variant_index(variant: Variant) -> usize {
    match variant {
        Variant::Spanish => 0,
        Variant::Portuguese => 1,
        Variant::English => 2,
    }
}

/// The time a player has for each move unless the game says otherwise: 3 days.
pub const DEFAULT_MOVE_TIME_MS: u64 = 3 * 24 * 60 * 60 * 1000;

/// Who sits on one side of the board. Stored by variant position: new kinds go at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Human {
        user_id: u64,
        name: String,
    },
    /// The computer, at one of its levels (stored as the level's id, as when it was a
    /// string: see [`Level`]'s `Deserialize`).
    Bot {
        level: Level,
    },
    /// A person who had themselves forgotten ([`super::Store::forget_user`]); only in
    /// finished games.
    Deleted,
}

impl Seat {
    pub fn user_id(&self) -> Option<u64> {
        match self {
            Seat::Human { user_id, .. } => Some(*user_id),
            Seat::Bot { .. } | Seat::Deleted => None,
        }
    }

    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot { .. })
    }
}

/// One ply as stored: the starting square and every landing square. That names exactly one
/// legal move, because a capture step between two landings runs along one diagonal over one
/// piece, so the landings fix the captured pieces too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    pub from: u8,
    pub landings: Vec<u8>,
}

impl StoredMove {
    pub fn from_move(mv: &Move) -> StoredMove {
        StoredMove {
            from: mv.from().number(),
            landings: mv.path().iter().map(|s| s.number()).collect(),
        }
    }

    /// The legal move of `pos` this stored move names.
    pub fn resolve(&self, pos: &Position) -> Option<Move> {
        let legal = pos.legal_moves();
        let same_path = |m: &&Move| {
            m.from().number() == self.from
                && m.path()
                    .iter()
                    .map(|s| s.number())
                    .eq(self.landings.iter().copied())
        };
        if let Some(m) = legal.iter().find(same_path) {
            return Some(*m);
        }
        // Two capture routes with the same start, end and captured pieces are one move and
        // the generator keeps one of them; should it ever keep the other one, from and to
        // still name the move when they name only one.
        let to = *self.landings.last()?;
        let mut same_ends = legal
            .iter()
            .filter(|m| m.from().number() == self.from && m.to().number() == to);
        match (same_ends.next(), same_ends.next()) {
            (Some(m), None) => Some(*m),
            _ => None,
        }
    }
}

impl std::fmt::Display for StoredMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.from)?;
        for l in &self.landings {
            write!(f, "/{l}")?;
        }
        Ok(())
    }
}

/// The game being played in a channel (a thread is a channel too).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Unique; [`super::Store::new_game_id`] hands out increasing ones.
    pub id: u64,
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    pub variant: Variant,
    /// PDN FEN of the start; `None` is the variant's standard start.
    pub start_fen: Option<String>,
    /// Stored as `[white, black]` was (see [`ByColour`]); see [`GameRecord::seat`].
    pub players: ByColour<Seat>,
    pub moves: Vec<StoredMove>,
    pub draw_offer: Option<Color>,
    /// A move was taken back: a win still counts, but is not ranked (docs/GAME-APP.md).
    pub undo_used: bool,
    pub created_at_ms: u64,
    /// When the game last changed hands or state (a move, an undo, a draw offer); the time
    /// per move runs from here.
    pub last_move_at_ms: u64,
    /// The time the person to move has for each move; see [`GameRecord::deadline_ms`].
    pub move_time_ms: u64,
    /// The ply at which the person to move was reminded of their turn (once per turn; see
    /// [`super::Store::mark_reminded`]).
    pub reminded_ply: Option<usize>,
    /// The language the bot uses when it speaks in this game on its own (its moves after a
    /// restart, reminders, a loss on time): that of whoever started it. Stored as its code
    /// (`en`, `es`), as when it was a string (see [`Lang`]'s `Deserialize`).
    pub lang: Lang,
    pub outcome: Option<Outcome>,
    /// How many times the store has written this record. The store checks it on every write
    /// and increases it, so that a change built on an outdated read is refused even when the
    /// ply happens to match (after an undo, say). Leave it as read.
    pub revision: u64,
    /// The three-move ballot opening the game was drawn (English only), in notation
    /// (`9-13 22-18 11-15`); its plies are the first three of `moves`. `None`: a free start.
    pub opening: Option<String>,
}

impl GameRecord {
    /// The human's colour when exactly one seat is the computer.
    pub fn human_against_bot(&self) -> Option<Color> {
        match (&self.players.white, &self.players.black) {
            (Seat::Human { .. }, Seat::Bot { .. }) => Some(Color::White),
            (Seat::Bot { .. }, Seat::Human { .. }) => Some(Color::Black),
            _ => None,
        }
    }

    /// A game at its start, with nothing played and [`DEFAULT_MOVE_TIME_MS`] per move.
    pub fn new(
        id: u64,
        guild_id: Option<u64>,
        channel_id: u64,
        variant: Variant,
        players: ByColour<Seat>,
        now_ms: u64,
    ) -> GameRecord {
        GameRecord {
            id,
            guild_id,
            channel_id,
            variant,
            start_fen: None,
            players,
            moves: Vec::new(),
            draw_offer: None,
            undo_used: false,
            created_at_ms: now_ms,
            last_move_at_ms: now_ms,
            move_time_ms: DEFAULT_MOVE_TIME_MS,
            reminded_ply: None,
            lang: Lang::default(),
            outcome: None,
            revision: 0,
            opening: None,
        }
    }

    pub fn seat(&self, color: Color) -> &Seat {
        &self.players[color]
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// When the person to move loses on time.
    pub fn deadline_ms(&self) -> u64 {
        self.last_move_at_ms.saturating_add(self.move_time_ms)
    }

    /// When the person to move is reminded: half their time.
    pub fn reminder_due_ms(&self) -> u64 {
        self.last_move_at_ms.saturating_add(self.move_time_ms / 2)
    }

    /// Whether the person to move was already reminded this turn.
    pub fn reminded(&self) -> bool {
        self.reminded_ply == Some(self.ply())
    }

    pub fn start_position(&self) -> Result<Position, StoreError> {
        match &self.start_fen {
            None => Ok(Position::start(self.variant)),
            Some(fen) => Position::from_fen(self.variant, fen).map_err(|e| StoreError::BadStart {
                game_id: self.id,
                fen: fen.clone(),
                reason: e.to_string(),
            }),
        }
    }

    /// Replays the moves with the engine and restores an ending the rules cannot see
    /// (resignation, agreement, abandon).
    pub fn to_game(&self) -> Result<Game, StoreError> {
        let mut game = Game::from_position(self.start_position()?);
        for (ply, stored) in self.moves.iter().enumerate() {
            let replay_error = |reason: String| StoreError::Replay {
                game_id: self.id,
                ply,
                stored: stored.to_string(),
                reason,
            };
            if game.is_over() {
                return Err(replay_error(GameError::Over.to_string()));
            }
            let pos = *game.position();
            let Some(mv) = stored.resolve(&pos) else {
                // Name the engine's reason when it has one.
                let squares: Vec<_> = std::iter::once(stored.from)
                    .chain(stored.landings.iter().copied())
                    .filter_map(crate::engine::Square::new)
                    .collect();
                let reason = match crate::engine::resolve_squares(&pos, &squares) {
                    Err(e) => e.to_string(),
                    Ok(_) => "the squares name no single legal move".to_string(),
                };
                return Err(replay_error(reason));
            };
            game.play(mv).map_err(|e| replay_error(e.to_string()))?;
        }
        match (self.outcome, game.outcome()) {
            (stored, played) if stored == played => {}
            (Some(stored), None) if !is_rule_outcome(stored) => game.set_outcome(Some(stored)),
            (stored, played) => {
                return Err(StoreError::OutcomeMismatch {
                    game_id: self.id,
                    stored,
                    played,
                })
            }
        }
        Ok(game)
    }
}

/// A game record as format version 1 laid it out (before the board's message id moved to
/// the posts tree and games got a time per move). Read only, converted on decode.
#[derive(Deserialize)]
pub(crate) struct GameRecordV1 {
    id: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    variant: Variant,
    start_fen: Option<String>,
    players: ByColour<Seat>,
    moves: Vec<StoredMove>,
    draw_offer: Option<Color>,
    undo_used: bool,
    created_at_ms: u64,
    last_move_at_ms: u64,
    /// Now in the posts tree; an old record's pointer is dropped (its board's buttons answer
    /// "outdated" like any other old board's).
    _board_message_id: Option<u64>,
    outcome: Option<Outcome>,
    /// Never set by version 1.
    _rematch_of: Option<u64>,
    revision: u64,
}

impl From<GameRecordV1> for GameRecord {
    fn from(v1: GameRecordV1) -> GameRecord {
        GameRecord {
            id: v1.id,
            guild_id: v1.guild_id,
            channel_id: v1.channel_id,
            variant: v1.variant,
            start_fen: v1.start_fen,
            players: v1.players,
            moves: v1.moves,
            draw_offer: v1.draw_offer,
            undo_used: v1.undo_used,
            created_at_ms: v1.created_at_ms,
            last_move_at_ms: v1.last_move_at_ms,
            move_time_ms: DEFAULT_MOVE_TIME_MS,
            reminded_ply: None,
            lang: Lang::default(),
            outcome: v1.outcome,
            revision: v1.revision,
            opening: None,
        }
    }
}

/// A game record as format version 2 laid it out (before games carried their ballot
/// opening). Read only, converted on decode.
#[derive(Deserialize)]
pub(crate) struct GameRecordV2 {
    id: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    variant: Variant,
    start_fen: Option<String>,
    players: ByColour<Seat>,
    moves: Vec<StoredMove>,
    draw_offer: Option<Color>,
    undo_used: bool,
    created_at_ms: u64,
    last_move_at_ms: u64,
    move_time_ms: u64,
    reminded_ply: Option<usize>,
    lang: Lang,
    outcome: Option<Outcome>,
    revision: u64,
}

impl From<GameRecordV2> for GameRecord {
    fn from(v2: GameRecordV2) -> GameRecord {
        GameRecord {
            id: v2.id,
            guild_id: v2.guild_id,
            channel_id: v2.channel_id,
            variant: v2.variant,
            start_fen: v2.start_fen,
            players: v2.players,
            moves: v2.moves,
            draw_offer: v2.draw_offer,
            undo_used: v2.undo_used,
            created_at_ms: v2.created_at_ms,
            last_move_at_ms: v2.last_move_at_ms,
            move_time_ms: v2.move_time_ms,
            reminded_ply: v2.reminded_ply,
            lang: v2.lang,
            outcome: v2.outcome,
            revision: v2.revision,
            opening: None,
        }
    }
}

/// Whether the rules decide this outcome from the position (so replaying finds it again).
pub fn is_rule_outcome(outcome: Outcome) -> bool {
    match outcome {
        Outcome::Win { reason, .. } => matches!(reason, WinReason::NoPieces | WinReason::NoMoves),
        Outcome::Draw { reason } => !matches!(reason, DrawReason::Agreement),
    }
}

/// A user: on one side of a challenge, or named in a command (an opponent, a `/stats`
/// subject).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRef {
    pub user_id: u64,
    pub name: String,
    /// A bot account (Discord says so when a command names it). Only bots are refused as
    /// opponents, and no bot account ever gets into a record: never stored.
    #[serde(skip)]
    pub is_bot: bool,
}

/// An open challenge. One per channel: see [`super::Store::put_challenge`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub challenger: UserRef,
    pub challenged: UserRef,
    pub variant: Variant,
    /// The challenger's colour; `None` draws it at random when the game starts.
    pub challenger_color: Option<Color>,
    pub created_at_ms: u64,
    pub expires_at_ms: u64,
    pub message_id: Option<u64>,
    /// The challenger's language, for the notice when it expires (stored as its code).
    pub lang: Lang,
    /// The time per move of the game it starts; `None` is the bot's default.
    pub move_time_ms: Option<u64>,
    /// The three-move ballot opening the game will start from (English only), in notation;
    /// drawn when the challenge is made, so both players see it. `None`: a free start.
    pub opening: Option<String>,
}

/// A challenge as format version 1 laid it out (before it carried a language and a time per
/// move). Read only, converted on decode.
#[derive(Deserialize)]
pub(crate) struct ChallengeV1 {
    challenger: UserRef,
    challenged: UserRef,
    variant: Variant,
    challenger_color: Option<Color>,
    created_at_ms: u64,
    expires_at_ms: u64,
    message_id: Option<u64>,
}

impl From<ChallengeV1> for Challenge {
    fn from(v1: ChallengeV1) -> Challenge {
        Challenge {
            challenger: v1.challenger,
            challenged: v1.challenged,
            variant: v1.variant,
            challenger_color: v1.challenger_color,
            created_at_ms: v1.created_at_ms,
            expires_at_ms: v1.expires_at_ms,
            message_id: v1.message_id,
            lang: Lang::default(),
            move_time_ms: None,
            opening: None,
        }
    }
}

/// A challenge as format version 2 laid it out (before it carried a ballot opening). Read
/// only, converted on decode.
#[derive(Deserialize)]
pub(crate) struct ChallengeV2 {
    challenger: UserRef,
    challenged: UserRef,
    variant: Variant,
    challenger_color: Option<Color>,
    created_at_ms: u64,
    expires_at_ms: u64,
    message_id: Option<u64>,
    lang: Lang,
    move_time_ms: Option<u64>,
}

impl From<ChallengeV2> for Challenge {
    fn from(v2: ChallengeV2) -> Challenge {
        Challenge {
            challenger: v2.challenger,
            challenged: v2.challenged,
            variant: v2.variant,
            challenger_color: v2.challenger_color,
            created_at_ms: v2.created_at_ms,
            expires_at_ms: v2.expires_at_ms,
            message_id: v2.message_id,
            lang: v2.lang,
            move_time_ms: v2.move_time_ms,
            opening: None,
        }
    }
}

impl Challenge {
    pub fn is_expired(&self, now_ms: u64) -> bool {
        now_ms >= self.expires_at_ms
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

/// A Glicko-2 rating (skillratings' scale: 1500 ± 350 to start).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = skillratings::glicko2::Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// Games against one level of the computer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub tally: Tally,
    /// Best score of a ranked win (docs/GAME-APP.md); `None` before the first one.
    pub best_score: Option<u32>,
    /// Wins with an undo: not in `tally` (a game with an undo does not count), never ranked.
    pub unranked_wins: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VariantRecord {
    /// Games against people.
    pub people: Tally,
    /// Rating from games against people.
    pub rating: Rating,
    /// Indexed by [`Level::index`].
    pub bots: [BotRecord; Level::ALL.len()],
}

/// What the bot knows about a user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub user_id: u64,
    /// The name of their latest finished game.
    pub name: String,
    /// Indexed Spanish, Portuguese, English; see [`PlayerRecord::variant`].
    pub variants: [VariantRecord; 3],
    /// Guilds where they stand on a leaderboard, so that a change of rating or game count
    /// reaches every board they are on.
    pub guilds: Vec<u64>,
}

impl PlayerRecord {
    pub fn new(user_id: u64, name: String) -> PlayerRecord {
        PlayerRecord {
            user_id,
            name,
            variants: Default::default(),
            guilds: Vec::new(),
        }
    }

    pub fn variant(&self, variant: Variant) -> &VariantRecord {
        &self.variants[variant_index(variant)]
    }

    pub(crate) fn variant_mut(&mut self, variant: Variant) -> &mut VariantRecord {
        &mut self.variants[variant_index(variant)]
    }

    /// Games against the computer at `level`.
    pub fn bot(&self, variant: Variant, level: Level) -> &BotRecord {
        &self.variant(variant).bots[level.index()]
    }
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardEntry {
    pub user_id: u64,
    pub name: String,
    /// The Glicko-2 rating, rounded (people), or the best score in this guild (computer).
    pub score: u32,
    /// Games behind the figure: rated games in the variant (people), or games against the
    /// level (computer); counted over all guilds.
    pub games: u32,
}

/// A player's result in a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}

/// What finishing a game changed for one human seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatSummary {
    pub user_id: u64,
    pub result: GameResult,
    /// Against the computer: the game app's score of the game (0 unless a win).
    pub score: Option<u32>,
    /// Whether the score entered the best scores and leaderboards (a win without undo).
    pub ranked: bool,
    /// The score beat the player's previous best at this level.
    pub new_best: bool,
    /// Against a person: rating before and after.
    pub rating: Option<(Rating, Rating)>,
    /// The title this game earned: its score lifted the best score at the titles' level
    /// over a threshold for the first time (the app's policy: `app::scoring`).
    pub title_earned: Option<Title>,
}

/// A title earned against the computer, higher titles ordered after lower ones. Only the
/// value: which scores earn it is the app's policy (`app::scoring`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Title {
    Expert,
    Pro,
}

impl Title {
    /// A stable name (`expert`, `pro`), e.g. to pick the message that names it.
    pub fn id(self) -> &'static str {
        match self {
            Title::Expert => "expert",
            Title::Pro => "pro",
        }
    }
}

/// What [`super::Store::finish_game`] did.
#[derive(Debug)]
pub struct FinishSummary {
    pub game_id: u64,
    pub outcome: Outcome,
    /// `None` for the computer.
    pub seats: ByColour<Option<SeatSummary>>,
    /// Player or leaderboard records that could not be read: reported here and left as they
    /// are (the game itself was archived).
    pub skipped: Vec<StoreError>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Every legal move, in positions from random games of every variant, is named by its
    /// stored form and by nothing else.
    #[test]
    fn stored_moves_name_exactly_their_move() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut captures = 0;
        for variant in Variant::ALL {
            for _ in 0..30 {
                let mut game = Game::new(variant);
                while !game.is_over() {
                    let pos = *game.position();
                    let legal = pos.legal_moves();
                    for mv in &legal {
                        let stored = StoredMove::from_move(mv);
                        let back = stored.resolve(&pos).expect("resolves");
                        assert_eq!(back, *mv, "{variant} {} {stored}", pos.fen());
                        assert_eq!(back.path(), mv.path());
                        captures += usize::from(mv.capture_count() > 1);
                    }
                    game.play(legal[rng.gen_range(0..legal.len())]).unwrap();
                }
            }
        }
        assert!(captures > 0, "the games had multiple captures to check");
    }

    #[test]
    fn to_game_restores_outcomes_the_rules_cannot_see() {
        let mut rec = GameRecord::new(
            1,
            None,
            2,
            Variant::Spanish,
            ByColour::new(
                Seat::Human {
                    user_id: 1,
                    name: "a".into(),
                },
                Seat::Bot { level: Level::Easy },
            ),
            0,
        );
        let mut game = Game::new(Variant::Spanish);
        let mv = game.play_text("11-15").unwrap();
        rec.moves.push(StoredMove::from_move(&mv));
        rec.outcome = Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation,
        });
        let back = rec.to_game().unwrap();
        assert_eq!(back.outcome(), rec.outcome);
        assert_eq!(back.position(), game.position());

        rec.outcome = Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoMoves,
        });
        assert!(matches!(
            rec.to_game(),
            Err(StoreError::OutcomeMismatch { .. })
        ));
        rec.outcome = None;
        rec.moves.push(StoredMove {
            from: 12,
            landings: vec![16],
        });
        assert!(matches!(
            rec.to_game(),
            Err(StoreError::Replay { ply: 1, .. })
        ));
        rec.moves.pop();
        rec.start_fen = Some("not a fen".into());
        assert!(matches!(rec.to_game(), Err(StoreError::BadStart { .. })));
    }
}
