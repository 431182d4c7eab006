//! The three-move restriction of English tournaments (docs/GAME-APP.md): a game starts from three
//! plies drawn from a deck of openings instead of from a free choice.
//!
//! The deck is the project's own: every distinct opening of three plies from the English
//! start, less those our search judges lost for one side by a man or more. The verdicts are
//! generated offline (`damas openings generate`, see [`generate`]) into
//! `data/english_ballots.txt`, which the bot reads at build time; tests re-judge a sample so
//! the file cannot drift from what the generator makes.

use crate::ai::{best_move, Level, SearchLimits, SearchOptions};
use crate::engine::{Game, Move, Position, Variant};
use crate::store::{GameRecord, StoredMove};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

/// The generated deck, with its header.
const DECK_FILE: &str = include_str!("../../data/english_ballots.txt");

/// Where the generated deck lives in the repository (the generator's default output).
pub const DECK_PATH: &str = "data/english_ballots.txt";

/// Plies in a ballot opening: Black's move, White's answer, Black's second move.
pub const PLIES: usize = 3;

/// The only variant that plays the three-move restriction.
pub const VARIANT: Variant = Variant::English;

/// An opening judged lost for one side by this much or more (in the search's units,
/// hundredths of a man) leaves the deck: about one man down on a full board as Expert's tuned
/// evaluation counts it. Its fitted `lead` weight takes back much of a man's 100 while most
/// pieces are on (a man fewer at the start scores 43 to 107 by square, a front man least).
/// At depth 12 the ACF's played openings all score within 45 of even; docs/BENCHMARKS.md
/// says what this threshold drops.
pub const DEFAULT_THRESHOLD: i32 = 50;

/// The level whose search judges the openings: the strongest evaluation, at a fixed depth
/// instead of on its clock, so the verdicts do not depend on the machine.
pub const JUDGE: Level = Level::Expert;

/// How a challenge in English starts (the `opening` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpeningChoice {
    /// From the start position, as in casual play.
    #[default]
    Free,
    /// From three plies drawn from the deck, as in tournaments.
    Ballot,
}

impl OpeningChoice {
    pub const ALL: [OpeningChoice; 2] = [OpeningChoice::Free, OpeningChoice::Ballot];

    /// The value in commands and choices.
    pub const fn id(self) -> &'static str {
        match self {
            OpeningChoice::Free => "free",
            OpeningChoice::Ballot => "ballot",
        }
    }
}

/// Why a text is not a ballot opening.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("an opening has {PLIES} moves separated by spaces, found {0}")]
    Length(usize),
    #[error("move {ply} “{text}” is not legal there: {reason}")]
    Illegal {
        ply: usize,
        text: String,
        reason: String,
    },
}

/// Three legal plies from the English start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    moves: [Move; PLIES],
    /// The canonical notation of each ply.
    notations: [String; PLIES],
}

impl Opening {
    /// Three moves separated by spaces, as in `9-13 22-18 11-15`; each must be legal where it
    /// is played. The stored form is canonical whatever separators the text used.
    pub fn parse(text: &str) -> Result<Opening, OpeningError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != PLIES {
            return Err(OpeningError::Length(words.len()));
        }
        let mut game = Game::new(VARIANT);
        let mut moves = Vec::with_capacity(PLIES);
        for (i, word) in words.iter().enumerate() {
            let mv = game.play_text(word).map_err(|e| OpeningError::Illegal {
                ply: i + 1,
                text: word.to_string(),
                reason: e.to_string(),
            })?;
            moves.push(mv);
        }
        Ok(Opening::from_game(&game))
    }

    /// The opening a game's first three plies make (the game must have them).
    fn from_game(game: &Game) -> Opening {
        let notations = game.notations();
        Opening {
            moves: std::array::from_fn(|i| game.moves()[i]),
            notations: std::array::from_fn(|i| notations[i].clone()),
        }
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn notations(&self) -> &[String] {
        &self.notations
    }

    /// The game once the three plies are played (White to move).
    pub fn game(&self) -> Game {
        let mut game = Game::new(VARIANT);
        for mv in self.moves {
            // Checked when the opening was made: every ply is legal in turn.
            let _ = game.play(mv);
        }
        game
    }

    /// The position the opening leads to.
    pub fn position(&self) -> Position {
        *self.game().position()
    }

    /// The plies as a game record stores them.
    pub fn stored_moves(&self) -> Vec<StoredMove> {
        self.moves.iter().map(StoredMove::from_move).collect()
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notations.join(" "))
    }
}

/// Every distinct opening of three plies from the English start: one per position reached,
/// named by the first sequence reaching it when each ply's moves are taken in numeric order
/// of their squares (so `9-13 21-17 10-14` stands for `10-14 21-17 9-13` as well).
pub fn all_openings() -> Vec<Opening> {
    fn sorted(pos: &Position) -> Vec<Move> {
        let mut moves = pos.legal_moves().to_vec();
        moves.sort_by_key(|m| {
            (
                m.from().number(),
                m.path().iter().map(|s| s.number()).collect::<Vec<_>>(),
            )
        });
        moves
    }
    fn walk(game: &mut Game, seen: &mut HashSet<Position>, out: &mut Vec<Opening>) {
        if game.ply() == PLIES {
            if seen.insert(*game.position()) {
                out.push(Opening::from_game(game));
            }
            return;
        }
        for mv in sorted(game.position()) {
            if game.play(mv).is_ok() {
                walk(game, seen, out);
                let _ = game.undo();
            }
        }
    }
    let mut out = Vec::new();
    walk(&mut Game::new(VARIANT), &mut HashSet::new(), &mut out);
    out
}

/// The search's verdict on an opening: the score for Black, who moved first, in hundredths
/// of a man (positive: Black is better), from a search of `depth` plies (plus captures) in
/// the position the opening leaves, White to move.
pub fn judge(opening: &Opening, depth: u32) -> i32 {
    let opts = SearchOptions {
        seed: 0,
        time: None,
        limits: Some(SearchLimits {
            time: None,
            nodes: None,
            depth: Some(depth),
        }),
        ..SearchOptions::default()
    };
    match best_move(&opening.game(), JUDGE, &opts) {
        Some(found) => -found.score,
        // White cannot move: lost for White. No three plies from the start do this.
        None => crate::ai::MATE,
    }
}

/// Whether an opening with this score stays in the deck.
pub fn keeps(score: i32, threshold: i32) -> bool {
    score.abs() < threshold
}

/// One opening and what the search made of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub opening: Opening,
    /// For Black, in hundredths of a man; see [`judge`].
    pub score: i32,
    pub kept: bool,
}

/// The deck file: how it was judged and every opening's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// The depth of [`judge`]'s search.
    pub depth: u32,
    /// Openings scored this far from even (either way) were dropped.
    pub threshold: i32,
    /// Every distinct opening, in [`all_openings`]'s order.
    pub verdicts: Vec<Verdict>,
}

/// Why a deck file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    #[error("{DECK_PATH} line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("{DECK_PATH} has no “{0} N” line before its openings")]
    MissingSetting(&'static str),
    #[error("{DECK_PATH} keeps no opening")]
    Empty,
}

impl Deck {
    /// Reads a deck file: `#` comments, the settings `depth N` and `threshold N`, then a line
    /// per opening: the three moves, a tab, the score (signed), a tab, `kept` or `dropped`.
    /// Every opening must be legal and distinct, and every verdict must follow from its
    /// score and the threshold.
    pub fn parse(text: &str) -> Result<Deck, DeckError> {
        let mut depth = None;
        let mut threshold = None;
        let mut verdicts: Vec<Verdict> = Vec::new();
        let mut lines_of: HashMap<Position, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let bad = |reason: String| DeckError::Line { line, reason };
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if let Some(value) = content.strip_prefix("depth ") {
                let d: u32 = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("depth “{value}” is not a whole number")))?;
                if d == 0 {
                    return Err(bad("depth must be at least 1".into()));
                }
                depth = Some(d);
                continue;
            }
            if let Some(value) = content.strip_prefix("threshold ") {
                let t: i32 = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("threshold “{value}” is not a whole number")))?;
                if t <= 0 {
                    return Err(bad("threshold must be positive".into()));
                }
                threshold = Some(t);
                continue;
            }
            let (Some(_), Some(threshold)) = (depth, threshold) else {
                return Err(if depth.is_none() {
                    DeckError::MissingSetting("depth")
                } else {
                    DeckError::MissingSetting("threshold")
                });
            };
            let fields: Vec<&str> = content.split('\t').collect();
            let [moves, score, verdict] = fields[..] else {
                return Err(bad(format!(
                    "expected three tab-separated fields (moves, score, kept|dropped), found {}",
                    fields.len()
                )));
            };
            let opening = Opening::parse(moves).map_err(|e| bad(e.to_string()))?;
            let score: i32 = score
                .trim()
                .parse()
                .map_err(|_| bad(format!("score “{score}” is not a whole number")))?;
            let kept = match verdict.trim() {
                "kept" => true,
                "dropped" => false,
                other => return Err(bad(format!("verdict “{other}” is not kept or dropped"))),
            };
            if kept != keeps(score, threshold) {
                return Err(bad(format!(
                    "score {score} with threshold {threshold} means {}, not {}",
                    if keeps(score, threshold) {
                        "kept"
                    } else {
                        "dropped"
                    },
                    verdict.trim()
                )));
            }
            if let Some(first) = lines_of.insert(opening.position(), line) {
                return Err(bad(format!(
                    "{opening} reaches the same position as line {first}"
                )));
            }
            verdicts.push(Verdict {
                opening,
                score,
                kept,
            });
        }
        let depth = depth.ok_or(DeckError::MissingSetting("depth"))?;
        let threshold = threshold.ok_or(DeckError::MissingSetting("threshold"))?;
        if !verdicts.iter().any(|v| v.kept) {
            return Err(DeckError::Empty);
        }
        Ok(Deck {
            depth,
            threshold,
            verdicts,
        })
    }

    /// The openings played.
    pub fn kept(&self) -> impl Iterator<Item = &Opening> {
        self.verdicts.iter().filter(|v| v.kept).map(|v| &v.opening)
    }

    /// One kept opening, drawn uniformly; `None` when the deck keeps none (which
    /// [`Deck::parse`] refuses).
    pub fn draw(&self, rng: &mut impl Rng) -> Option<&Opening> {
        let kept: Vec<&Opening> = self.kept().collect();
        kept.choose(rng).copied()
    }

    /// The file's text: a header saying what it is and the command that made it, the
    /// settings, and one line per verdict.
    pub fn to_text(&self, command: &str, took: &str) -> String {
        let kept = self.verdicts.iter().filter(|v| v.kept).count();
        let mut s = String::new();
        s.push_str(
            "# damas: the three-move ballot deck for English draughts. Generated data: do not edit.\n",
        );
        s.push_str(&format!("# Made by: {command}\n"));
        s.push_str(&format!(
            "# Every distinct opening of {PLIES} plies from the start ({} positions), judged by the\n\
             # {JUDGE} level's search at depth {} (plus captures) in the position it leaves, White to\n\
             # move. Score: for Black, in hundredths of a man. An opening scored {} or more away from\n\
             # even (either way) is dropped; {kept} are kept. Generation took {took}.\n",
            self.verdicts.len(),
            self.depth,
            self.threshold,
        ));
        s.push_str(&format!("depth {}\n", self.depth));
        s.push_str(&format!("threshold {}\n", self.threshold));
        s.push_str("# moves\tscore\tverdict\n");
        for v in &self.verdicts {
            s.push_str(&format!(
                "{}\t{:+}\t{}\n",
                v.opening,
                v.score,
                if v.kept { "kept" } else { "dropped" }
            ));
        }
        s
    }
}

/// Judges every opening at `depth`, calling `progress` after each (index, verdict).
pub fn generate(depth: u32, threshold: i32, mut progress: impl FnMut(usize, &Verdict)) -> Deck {
    let mut verdicts = Vec::new();
    for (i, opening) in all_openings().into_iter().enumerate() {
        let score = judge(&opening, depth);
        let verdict = Verdict {
            opening,
            score,
            kept: keeps(score, threshold),
        };
        progress(i, &verdict);
        verdicts.push(verdict);
    }
    Deck {
        depth,
        threshold,
        verdicts,
    }
}

/// The deck the bot plays, read from the committed file once.
pub fn deck() -> Result<&'static Deck, &'static DeckError> {
    static DECK: OnceLock<Result<Deck, DeckError>> = OnceLock::new();
    DECK.get_or_init(|| Deck::parse(DECK_FILE)).as_ref()
}

/// The opening a game was played from, if it was a ballot game: what a rematch keeps (with
/// colours swapped). `None` for a free start, or a stored opening that no longer reads
/// (logged).
pub fn opening_of(rec: &GameRecord) -> Option<Opening> {
    let text = rec.opening.as_deref()?;
    match Opening::parse(text) {
        Ok(o) => Some(o),
        Err(e) => {
            tracing::error!("game {}: stored opening “{text}” unreadable: {e}", rec.id);
            None
        }
    }
}

/// The value of the PDN `Opening` tag for a ballot game's stored opening.
pub fn pdn_opening_tag(opening: &str) -> String {
    format!("Three-move ballot: {opening}")
}
