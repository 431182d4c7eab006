//! PDN: a game written out, and a reader for real files of many games written by others.
//!
//! The reader takes text (see [`decode_pdn`] for bytes) and gives each game of it in turn,
//! followed move by move as a record ([`Game::from_record`]), or the reason it was refused —
//! the game's number, its first bad move and the rule — while the games after it still read.
//! What it accepts, as found in real archives:
//!
//! - games separated by their result token or by the next tag section (files without result
//!   tokens exist);
//! - tags with escaped quotes (`\"`, `\\`; any other backslash is kept, as in Windows paths);
//! - comments in `{…}`, `;` to the end of the line, `%` escape lines, and variations (or
//!   remarks) in `(…)`, nested, all skipped;
//! - move numbers `12.` and `12...` (or none), glued to the move or not, NAGs `$3` and the
//!   glyphs `!`, `?`, `!?`…;
//! - the results `1-0 0-1 1/2-1/2 2-0 0-2 1-1 *`, the first player's score first;
//! - `[SetUp "1"]` with `[FEN …]`, and `[GameType …]`, which must name the variant read;
//! - numeric moves (`11-15`, `15x24`, `26x17x10x1`) and algebraic ones (`c3-d4`, `e3xc5`),
//!   read by [`Variant::algebraic_square`].

use super::fen::FenError;
use super::game::{Game, GameError, Outcome};
use super::notation::{parse_squares, resolve_squares, MoveError, NotationError};
use super::position::Position;
use super::square::Square;
use super::variant::{Color, Variant};
use std::borrow::Cow;
use std::fmt::{self, Write};

/// A game's result as a record states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResult {
    Win(Color),
    Draw,
    /// `*`: unfinished, or unknown.
    Unfinished,
}

impl PdnResult {
    /// The result of a game as it stands.
    pub fn of(outcome: Option<Outcome>) -> PdnResult {
        match outcome {
            None => PdnResult::Unfinished,
            Some(Outcome::Draw { .. }) => PdnResult::Draw,
            Some(Outcome::Win { winner, .. }) => PdnResult::Win(winner),
        }
    }

    /// The PDN result token: the first player's score first, English draughts counting a
    /// win as 1 and the others as 2.
    pub fn text(self, variant: Variant) -> &'static str {
        let first = variant.first_player();
        let english = variant == Variant::English;
        match (self, english) {
            (PdnResult::Unfinished, _) => "*",
            (PdnResult::Draw, true) => "1/2-1/2",
            (PdnResult::Draw, false) => "1-1",
            (PdnResult::Win(c), true) if c == first => "1-0",
            (PdnResult::Win(_), true) => "0-1",
            (PdnResult::Win(c), false) if c == first => "2-0",
            (PdnResult::Win(_), false) => "0-2",
        }
    }

    /// A result token, in any variant's scoring.
    fn parse(token: &str, variant: Variant) -> Option<PdnResult> {
        let first = variant.first_player();
        Some(match token {
            "1-0" | "2-0" => PdnResult::Win(first),
            "0-1" | "0-2" => PdnResult::Win(first.opposite()),
            "1/2-1/2" | "½-½" | "1-1" => PdnResult::Draw,
            "*" => PdnResult::Unfinished,
            _ => return None,
        })
    }
}

/// Tag values the caller knows (names, date, event). Unknown ones are written `?`, as PDN
/// asks of its seven-tag roster.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnTags {
    pub event: Option<String>,
    pub site: Option<String>,
    pub date: Option<String>,
    /// The round of a tournament; `-` (not part of one) when not given.
    pub round: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The opening the game was made to start from (a three-move ballot), written as the
    /// `Opening` tag; its moves are in the record like any others.
    pub opening: Option<String>,
    /// The result to write when it is not the game's own outcome: a record's, whose players
    /// may have agreed or resigned where the moves do not show it.
    pub result: Option<PdnResult>,
}

/// A tag value as written between quotes: `\` and `"` escaped, and line breaks and other
/// control characters (which would cut the tag's line) written as spaces.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// "12." before the first player's move, "12..." before the second's when it opens the
/// text; `ply` counts from the game's start, which may have either side to move.
pub(crate) fn move_label(start: &Position, ply: usize) -> String {
    let offset = usize::from(start.side_to_move() != start.variant().first_player());
    let p = ply + offset;
    if p % 2 == 0 {
        format!("{}.", p / 2 + 1)
    } else {
        format!("{}...", p / 2 + 1)
    }
}

/// The game as PDN text: the seven-tag roster (Event, Site, Date, Round, White, Black,
/// Result), the variant's `GameType`, the moves numbered in pairs, and the result.
pub fn export_pdn(game: &Game, tags: &PdnTags) -> String {
    let variant = game.variant();
    let result = tags
        .result
        .unwrap_or(PdnResult::of(game.outcome()))
        .text(variant);
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    };
    tag(&mut s, "Event", tags.event.as_deref().unwrap_or("?"));
    tag(&mut s, "Site", tags.site.as_deref().unwrap_or("?"));
    tag(&mut s, "Date", tags.date.as_deref().unwrap_or("????.??.??"));
    tag(&mut s, "Round", tags.round.as_deref().unwrap_or("-"));
    tag(&mut s, "White", tags.white.as_deref().unwrap_or("?"));
    tag(&mut s, "Black", tags.black.as_deref().unwrap_or("?"));
    tag(&mut s, "Result", result);
    tag(&mut s, "GameType", &variant.pdn_game_type().to_string());
    if let Some(opening) = &tags.opening {
        tag(&mut s, "Opening", opening);
    }
    let start = game.start_position();
    if *start != Position::start(variant) {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &start.fen());
    }
    s.push('\n');
    let mut line = String::new();
    for (ply, n) in game.notations().iter().enumerate() {
        let mut token = String::new();
        let label = move_label(start, ply);
        // Every first player's move is numbered; the second's only when it opens the text.
        if !label.ends_with("...") || ply == 0 {
            token.push_str(&label);
            token.push(' ');
        }
        token.push_str(n);
        if line.len() + token.len() + 1 > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(result);
    s.push_str(&line);
    s.push('\n');
    s
}

/// Text from the bytes of a PDN file: UTF-8 (with or without a byte-order mark), UTF-16 with
/// its mark, or else Latin-1 (read as Windows-1252, its superset that old Windows programs
/// wrote).
pub fn decode_pdn(bytes: &[u8]) -> Cow<'_, str> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        return encoding.decode_without_bom_handling(&bytes[bom..]).0;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
        }
    }
}

/// Why bytes are not a PDN file at all (rather than a file whose games are refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotPdn {
    /// Bytes no text file holds: a NUL or another control character (a picture, an
    /// archive, a program), in UTF-8 or read as Latin-1.
    NotText,
    /// Text, but nothing in it reads as PDN: no tag, and its first word is not a move (or it
    /// is empty).
    NoGame,
}

impl fmt::Display for NotPdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotPdn::NotText => "it is not text (a picture, an archive?)",
            NotPdn::NoGame => "it has no PDN tag and no move",
        })
    }
}

impl std::error::Error for NotPdn {}

/// The text of a PDN file ([`decode_pdn`]), or why the bytes are no PDN file. The rule:
///
/// - text holds no control characters but tabs, line ends, form feeds and the end-of-file
///   mark (Ctrl-Z) old DOS programs wrote; any other — a NUL above all — means bytes that
///   are not text, whether they were read as UTF-8 or as Latin-1 (where the bytes 0x81,
///   0x8D, 0x8F, 0x90 and 0x9D have no letter and read as controls);
/// - some game of it has a tag, or a first word that reads as a move, legal or not (a text
///   that is not PDN fails on its first word); a words-only preamble before the first game,
///   or games refused for their moves, are games of the file refused, not a sign that the
///   file is no PDN.
///
/// ```
/// use damas_core::engine::{pdn_text, NotPdn};
///
/// assert!(pdn_text(b"[Event \"x\"]\n1. 11-15 *").is_ok());
/// assert!(pdn_text(b"1. 11-15 22-18 *").is_ok());
/// assert_eq!(pdn_text(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap_err(), NotPdn::NotText);
/// assert_eq!(pdn_text(b"Dear diary, today I played.").unwrap_err(), NotPdn::NoGame);
/// ```
pub fn pdn_text(bytes: &[u8]) -> Result<Cow<'_, str>, NotPdn> {
    let text = decode_pdn(bytes);
    let stray_control =
        |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a');
    if text.chars().any(stray_control) {
        return Err(NotPdn::NotText);
    }
    // Square numbers are 1 to 32 in every variant: any one reads a first word alike.
    if read_pdn(&text, Variant::default()).any(|game| looks_like_pdn(&game)) {
        Ok(text)
    } else {
        Err(NotPdn::NoGame)
    }
}

/// Whether a game shows its file is PDN: it has a tag, or its first move reads as a move,
/// legal or not.
fn looks_like_pdn(game: &Result<PdnRecord, PdnRefusal>) -> bool {
    match game {
        Ok(_) => true,
        Err(r) => {
            !r.tags.is_empty()
                || !matches!(
                    r.error,
                    PdnError::Move {
                        ply: 1,
                        error: GameError::Move(MoveError::Notation(_)),
                        ..
                    }
                )
        }
    }
}

/// Why one game of a PDN file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// The `GameType` tag names another game than the variant read.
    GameType {
        found: String,
        expected: u8,
        variant: Variant,
    },
    /// The `GameType` tag names a game that is none of ours (read by
    /// [`read_pdn_by_game_type`]).
    UnknownGameType {
        found: String,
    },
    Fen(FenError),
    /// `[SetUp "1"]` without the `FEN` tag it announces.
    SetUpWithoutFen,
    /// A move that is not one, or is not legal where it stands.
    Move {
        /// 1-based count of plies from the record's start.
        ply: usize,
        /// The move number as PDN writes it: `12.` or `12...`.
        label: String,
        text: String,
        error: GameError,
    },
    /// A comment or a variation opened and never closed: the reader went on at the next tag
    /// section.
    Unclosed(&'static str),
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::GameType {
                found,
                expected,
                variant,
            } => write!(
                f,
                "the game has GameType {found}, not {expected} ({variant})"
            ),
            PdnError::UnknownGameType { found } => {
                write!(
                    f,
                    "the game has GameType {found}, a game damas does not play"
                )
            }
            PdnError::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PdnError::SetUpWithoutFen => f.write_str("SetUp \"1\" without a FEN tag"),
            PdnError::Move {
                label,
                text,
                error: GameError::Move(MoveError::Notation(_)),
                ..
            } => write!(f, "move {label} {text:?} is not a move"),
            PdnError::Move {
                label, text, error, ..
            } => write!(f, "move {label} {text} is illegal: {error}"),
            PdnError::Unclosed(what) => write!(f, "a {what} is never closed"),
        }
    }
}

impl std::error::Error for PdnError {}

/// One game of a PDN file, read and followed to its last move.
#[derive(Clone, Debug)]
pub struct PdnRecord {
    /// Its place in the file, from 1.
    pub number: usize,
    /// Its tags, in the order of the file.
    pub tags: Vec<(String, String)>,
    /// The result the record states: its result token, else its `Result` tag.
    pub result: Option<PdnResult>,
    /// The game, followed as a record ([`Game::from_record`]).
    pub game: Game,
}

impl PdnRecord {
    /// A tag's value, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_of(&self.tags, name)
    }

    /// The game's result as its moves decide it where they end it on the board (a player
    /// without a piece or a move), else as the record states it. Programs disagree on which
    /// side an English "1-0" names: the checkers archives (the Open Checkers Archive,
    /// Tinsley's games) count the first player, Black, first, and [`PdnResult`] reads them so;
    /// other programs write White's score first, as the tag's order White–Black suggests.
    /// The board is never ambiguous.
    ///
    /// ```
    /// use damas_core::engine::{read_pdn, Color, PdnResult, Variant};
    ///
    /// // White takes Black's last man; the result is written White first.
    /// let text = "[GameType \"21\"]\n[FEN \"B:W23:B14\"]\n1. 14-18 23x14 1-0\n";
    /// let record = read_pdn(text, Variant::English).next().unwrap().unwrap();
    /// assert_eq!(record.result, Some(PdnResult::Win(Color::Black)));
    /// assert_eq!(record.decided_result(), Some(PdnResult::Win(Color::White)));
    /// ```
    pub fn decided_result(&self) -> Option<PdnResult> {
        match self.game.outcome() {
            Some(Outcome::Win { winner, .. }) => Some(PdnResult::Win(winner)),
            _ => self.result,
        }
    }

    /// The record's tags as [`export_pdn`] writes them.
    pub fn pdn_tags(&self) -> PdnTags {
        let tag = |name: &str| self.tag(name).map(str::to_string);
        PdnTags {
            event: tag("Event"),
            site: tag("Site"),
            date: tag("Date"),
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
            opening: tag("Opening"),
            result: self.result,
        }
    }
}

fn tag_of<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A game of a PDN file that could not be read: its number, its tags, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnRefusal {
    pub number: usize,
    pub tags: Vec<(String, String)>,
    pub error: PdnError,
}

impl PdnRefusal {
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_of(&self.tags, name)
    }
}

impl fmt::Display for PdnRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.number, self.error)
    }
}

impl std::error::Error for PdnRefusal {}

/// Reads the games of PDN text as `variant` (a game whose `GameType` names another is
/// refused), one at a time:
///
/// ```
/// use damas_core::engine::{read_pdn, Variant};
///
/// let text = "[Event \"a\"]\n1. 11-15 24-20 2. 15x24 *\n\n[Event \"b\"]\n1. 11-14 24x16 2-0\n";
/// let games: Vec<_> = read_pdn(text, Variant::Spanish).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].as_ref().map(|g| g.game.ply()).ok(), Some(3));
/// let refused = games[1].as_ref().unwrap_err();
/// assert_eq!(refused.number, 2);
/// assert!(refused.to_string().starts_with("game 2: move 1... 24x16 is illegal"));
/// ```
pub fn read_pdn(text: &str, variant: Variant) -> PdnReader<'_> {
    PdnReader {
        lexer: Lexer { text, at: 0 },
        variant,
        by_game_type: false,
        number: 0,
    }
}

/// Reads the games of PDN text, each as the variant its `GameType` tag names (21, 24 or
/// 28), or as `default` without one; a game of another type is refused.
pub fn read_pdn_by_game_type(text: &str, default: Variant) -> PdnReader<'_> {
    PdnReader {
        by_game_type: true,
        ..read_pdn(text, default)
    }
}

/// The games of a PDN text, in order: see [`read_pdn`].
pub struct PdnReader<'a> {
    lexer: Lexer<'a>,
    variant: Variant,
    /// Each game's `GameType` tag chooses its variant; `variant` is for games without one.
    by_game_type: bool,
    number: usize,
}

impl Iterator for PdnReader<'_> {
    type Item = Result<PdnRecord, PdnRefusal>;

    fn next(&mut self) -> Option<Self::Item> {
        let raw = self.lexer.next_game()?;
        self.number += 1;
        let number = self.number;
        let variant = if self.by_game_type {
            game_type_variant(&raw.tags).unwrap_or(Ok(self.variant))
        } else {
            Ok(self.variant)
        };
        Some(
            variant
                .and_then(|variant| follow(&raw, variant))
                .map(|(game, result)| PdnRecord {
                    number,
                    tags: raw.tags.clone(),
                    result,
                    game,
                })
                .map_err(|error| PdnRefusal {
                    number,
                    tags: raw.tags.clone(),
                    error,
                }),
        )
    }
}

/// The variant a `GameType` tag's value names: `21` English, `24` Spanish, `28`
/// Portuguese, the number first (`24,W,8,8,N1,1`); `None` for a game damas does not play.
pub fn variant_of_game_type(value: &str) -> Option<Variant> {
    let number = value.split(',').next().unwrap_or("").trim();
    Variant::ALL
        .into_iter()
        .find(|v| v.pdn_game_type().to_string() == number)
}

/// The variant a game's `GameType` tag names, if it has one.
fn game_type_variant(tags: &[(String, String)]) -> Option<Result<Variant, PdnError>> {
    let kind = tag_of(tags, "GameType")?;
    Some(
        variant_of_game_type(kind).ok_or_else(|| PdnError::UnknownGameType {
            found: kind.to_string(),
        }),
    )
}

/// Follows one game's moves from its start.
fn follow(raw: &RawGame<'_>, variant: Variant) -> Result<(Game, Option<PdnResult>), PdnError> {
    if let Some(kind) = tag_of(&raw.tags, "GameType") {
        // "24" or "24,W,8,8,N1,1": the number comes first.
        let number = kind.split(',').next().unwrap_or("").trim();
        if number != variant.pdn_game_type().to_string() {
            return Err(PdnError::GameType {
                found: kind.to_string(),
                expected: variant.pdn_game_type(),
                variant,
            });
        }
    }
    let start = match tag_of(&raw.tags, "FEN") {
        Some(fen) => Position::from_fen(variant, fen).map_err(PdnError::Fen)?,
        None if tag_of(&raw.tags, "SetUp").map(str::trim) == Some("1") => {
            return Err(PdnError::SetUpWithoutFen)
        }
        None => Position::start(variant),
    };
    let mut game = Game::from_record(start);
    for (ply, text) in raw.moves.iter().enumerate() {
        let played = squares_of(variant, text)
            .map_err(|e| GameError::Move(MoveError::Notation(e)))
            .and_then(|squares| {
                if game.is_over() {
                    return Err(GameError::Over);
                }
                Ok(resolve_squares(game.position(), &squares)?)
            })
            .and_then(|mv| game.play(mv));
        if let Err(error) = played {
            return Err(PdnError::Move {
                ply: ply + 1,
                label: move_label(&start, ply),
                text: text.to_string(),
                error,
            });
        }
    }
    if let Some(what) = raw.unclosed {
        return Err(PdnError::Unclosed(what));
    }
    let result = raw
        .result
        .or_else(|| tag_of(&raw.tags, "Result"))
        .and_then(|r| PdnResult::parse(r.trim(), variant));
    Ok((game, result))
}

/// The squares a move names: numbers (`11-15`, `26x17x10x1`) or algebraic names (`c3-d4`,
/// `e3xc5`, `c3:e5:c7`).
fn squares_of(variant: Variant, text: &str) -> Result<Vec<Square>, NotationError> {
    let algebraic = text
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b.to_ascii_lowercase(), b'a'..=b'h'));
    if !algebraic {
        return parse_squares(text);
    }
    let not_a_move = || NotationError::NotAMove {
        text: text.chars().take(40).collect(),
    };
    let squares = text
        .split(['-', 'x', 'X', ':', '×'])
        .map(|name| variant.algebraic_square(name).ok_or_else(not_a_move))
        .collect::<Result<Vec<_>, _>>()?;
    match squares[..] {
        [] => Err(not_a_move()),
        [square] => Err(NotationError::OneSquare { square }),
        _ => Ok(squares),
    }
}

/// One game as the lexer found it: tags, move tokens (numbers and glyphs taken off), the
/// result token.
#[derive(Default)]
struct RawGame<'a> {
    tags: Vec<(String, String)>,
    moves: Vec<&'a str>,
    result: Option<&'a str>,
    /// A comment or variation that never closed.
    unclosed: Option<&'static str>,
}

impl RawGame<'_> {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }
}

const RESULTS: [&str; 8] = ["1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "½-½", "*"];

/// Splits PDN text into games.
struct Lexer<'a> {
    text: &'a str,
    /// Byte offset of the next character to read.
    at: usize,
}

fn is_line_end(c: char) -> bool {
    c == '\n' || c == '\r'
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// The byte offset of the end of the current line.
    fn line_end(&self) -> usize {
        self.rest()
            .find(is_line_end)
            .map_or(self.text.len(), |i| self.at + i)
    }

    fn at_line_start(&self) -> bool {
        self.text[..self.at]
            .chars()
            .next_back()
            .map_or(true, is_line_end)
    }

    /// After a comment or variation that never closes: on at the next tag section, so that
    /// the games after it still read.
    fn resync(&mut self) {
        let rest = self.rest();
        self.at = rest
            .match_indices('[')
            .find(|(i, _)| rest[..*i].chars().next_back().is_some_and(is_line_end))
            .map_or(self.text.len(), |(i, _)| self.at + i);
    }

    fn next_game(&mut self) -> Option<RawGame<'a>> {
        loop {
            let game = self.read_game();
            match game {
                None => return None,
                // Comments between games, stray brackets: nothing to count as a game.
                Some(g) if g.is_empty() && g.unclosed.is_none() => continue,
                Some(g) => return Some(g),
            }
        }
    }

    /// Reads up to the end of one game; `None` at the end of the text.
    fn read_game(&mut self) -> Option<RawGame<'a>> {
        if self.at >= self.text.len() {
            return None;
        }
        let mut game = RawGame::default();
        let mut in_movetext = false;
        while let Some(c) = self.rest().chars().next() {
            match c {
                c if c.is_whitespace() => self.at += c.len_utf8(),
                '[' if in_movetext => break,
                '[' => {
                    if let Some(tag) = self.tag() {
                        game.tags.push(tag);
                    }
                }
                '{' => {
                    if !self.skip_comment() {
                        game.unclosed = Some("comment");
                        self.resync();
                        break;
                    }
                }
                '(' => {
                    if !self.skip_variation() {
                        game.unclosed = Some("variation");
                        self.resync();
                        break;
                    }
                }
                ';' => self.at = self.line_end(),
                '%' if self.at_line_start() => self.at = self.line_end(),
                ')' | '}' | ']' => self.at += 1,
                _ => {
                    let token = self.token();
                    let token = clean_token(token);
                    if token.is_empty() {
                        continue;
                    }
                    in_movetext = true;
                    if RESULTS.contains(&token) {
                        game.result = Some(token);
                        break;
                    }
                    game.moves.push(token);
                }
            }
        }
        Some(game)
    }

    /// A word of movetext: up to whitespace or the start of a comment, variation or tag.
    fn token(&mut self) -> &'a str {
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '['))
            .unwrap_or(rest.len())
            .max(1);
        // `max(1)` cannot split a character: the first one is never a delimiter here, and a
        // delimiter found after it starts a character.
        let len = if rest.is_char_boundary(len) {
            len
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        self.at += len;
        &rest[..len]
    }

    /// Skips `{…}`; false (at the end of the text) if it never closes.
    fn skip_comment(&mut self) -> bool {
        match self.rest().find('}') {
            Some(i) => {
                self.at += i + 1;
                true
            }
            None => false,
        }
    }

    /// Skips `(…)`, nested, with the comments inside; false if it never closes.
    fn skip_variation(&mut self) -> bool {
        let mut depth = 0usize;
        while let Some(c) = self.rest().chars().next() {
            match c {
                '(' => {
                    depth += 1;
                    self.at += 1;
                }
                ')' => {
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        return true;
                    }
                }
                '{' => {
                    if !self.skip_comment() {
                        return false;
                    }
                }
                ';' => self.at = self.line_end(),
                c => self.at += c.len_utf8(),
            }
        }
        false
    }

    /// A tag pair `[Name "value"]`, read within its line; `None` for a bracket that holds no
    /// tag.
    fn tag(&mut self) -> Option<(String, String)> {
        let end = self.line_end();
        let line = &self.text[self.at + 1..end];
        let name_len = line
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(line.len());
        let name = &line[..name_len];
        let after_name = line[name_len..].trim_start();
        let value_at = line.len() - after_name.len();
        let (value, used) = match after_name.strip_prefix('"') {
            Some(quoted) => match unescape(quoted) {
                Some((value, len)) => {
                    // Past the closing quote, up to and with the `]`.
                    let tail = &quoted[len..];
                    let close = tail.find(']').map_or(tail.len(), |i| i + 1);
                    (value, value_at + 1 + len + close)
                }
                // No closing quote: the raw text up to the line's last `]`.
                None => {
                    let close = quoted.rfind(']').unwrap_or(quoted.len());
                    let raw = quoted[..close].trim_end().trim_end_matches('"');
                    let used =
                        value_at + 1 + quoted[..close].len() + usize::from(close < quoted.len());
                    (raw.to_string(), used)
                }
            },
            None => {
                let close = after_name.find(']').unwrap_or(after_name.len());
                let used = value_at + close + usize::from(close < after_name.len());
                (after_name[..close].trim().to_string(), used)
            }
        };
        self.at += 1 + used;
        (!name.is_empty()).then(|| (name.to_string(), value))
    }
}

/// A quoted tag value up to its closing quote: `\"` and `\\` are escapes, any other
/// backslash is itself. Returns the value and the bytes read with the closing quote.
fn unescape(quoted: &str) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut chars = quoted.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, i + 1)),
            '\\' => match chars.peek() {
                Some(&(_, e @ ('"' | '\\'))) => {
                    value.push(e);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    None
}

/// A movetext word without its move number (`12.`, `12...`, `12.11-15`) and glyphs (`!`,
/// `?!`); NAGs (`$3`), bare numbers or glyphs and placeholder dashes are nothing.
fn clean_token(token: &str) -> &str {
    // A NAG, or dashes standing for a move not recorded (some archives list games so).
    if token.starts_with('$') || token.bytes().all(|b| b == b'-') {
        return "";
    }
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let after = &token[digits..];
    let token = if digits > 0 && (after.starts_with('.') || after.starts_with('…')) {
        after.trim_start_matches(['.', '…'])
    } else {
        token
    };
    token.trim_end_matches(['!', '?'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Game;

    fn games(text: &str, variant: Variant) -> Vec<Result<PdnRecord, PdnRefusal>> {
        read_pdn(text, variant).collect()
    }

    fn plies(text: &str, variant: Variant) -> Vec<Result<usize, String>> {
        games(text, variant)
            .into_iter()
            .map(|g| g.map(|r| r.game.ply()).map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn an_exported_game_reads_back() {
        let mut game = Game::new(Variant::Spanish);
        for m in ["11-15", "24-20", "15x24"] {
            assert!(game.play_text(m).is_ok());
        }
        for _ in 0..10 {
            let mv = game.position().legal_moves()[0];
            assert!(game.play(mv).is_ok());
        }
        let text = export_pdn(&game, &PdnTags::default());
        let back: Vec<_> = games(&text, Variant::Spanish);
        assert_eq!(back.len(), 1);
        let back = back[0].as_ref().map(|r| r.game.moves().to_vec());
        assert_eq!(back.ok(), Some(game.moves().to_vec()));
    }

    #[test]
    fn comments_variations_glyphs_and_numbers_are_skipped() {
        let text = "[GameType \"21\"]\n1. 11-15 {book} 23-19 (22-18 15x22 {a (note}) 2.8-11! \
                    27-23?; a note\n$4 3... 9-14!? 1/2-1/2";
        assert_eq!(plies(text, Variant::English), vec![Ok(5)]);
    }

    #[test]
    fn games_end_at_their_result_or_at_the_next_tags() {
        // No result tokens and no move numbers, as in the championship file.
        let text = "[Event \"one\"]\n11-15 24-20\n\n[Event \"two\"]\n[Result \"2-0\"]\n\
                    11-15 24-20 15x24\n";
        let read = games(text, Variant::Spanish);
        assert_eq!(read.len(), 2);
        let second = read[1].as_ref().expect("the second game reads");
        assert_eq!((second.number, second.game.ply()), (2, 3));
        assert_eq!(second.tag("Event"), Some("two"));
        assert_eq!(second.result, Some(PdnResult::Win(Color::White)));
        // A result ends the game even without tags after it.
        assert_eq!(
            plies("11-15 24-20 * 10-14 22-18 *", Variant::Spanish),
            vec![Ok(2), Ok(2)]
        );
    }

    #[test]
    fn a_bad_game_is_refused_and_the_rest_still_reads() {
        let text = "[Event \"a\"]\n1. 11-15 22-18 2. 11-14 *\n[Event \"b\"]\n1. 9-13 {never \
                    closed\n[Event \"c\"]\n1. 10-14 *\n[Event \"d\"]\n1. 10-14 hello *";
        let read = plies(text, Variant::Spanish);
        assert_eq!(read.len(), 4, "{read:?}");
        assert_eq!(
            read[0],
            Err("game 1: move 2. 11-14 is illegal: there is no piece on square 11".into())
        );
        assert_eq!(read[1], Err("game 2: a comment is never closed".into()));
        assert_eq!(read[2], Ok(1));
        assert_eq!(
            read[3],
            Err("game 4: move 1... \"hello\" is not a move".into())
        );
    }

    #[test]
    fn tags_with_escapes_and_windows_paths() {
        let text = "[White \"Ana \\\"la\\\" Ruiz\"] [Comment \"C:\\nemesis\\bham.xml\"]\n\
                    [Site \"C:\\games\\\"]\n[Round 3]\r\n1. 11-15 *";
        let read = games(text, Variant::Spanish);
        let r = read[0].as_ref().expect("reads");
        assert_eq!(r.tag("White"), Some("Ana \"la\" Ruiz"));
        assert_eq!(r.tag("Comment"), Some("C:\\nemesis\\bham.xml"));
        assert_eq!(r.tag("Site"), Some("C:\\games\\"));
        assert_eq!(r.tag("Round"), Some("3"));
        assert_eq!(r.game.ply(), 1);
    }

    #[test]
    fn game_type_fen_and_set_up() {
        let wrong = games("[GameType \"21\"] 1. 11-15", Variant::Spanish);
        assert!(matches!(
            wrong[0],
            Err(PdnRefusal {
                error: PdnError::GameType { .. },
                ..
            })
        ));
        let full = games("[GameType \"24,W,8,8,N1,1\"] 1. 11-15 *", Variant::Spanish);
        assert!(full[0].is_ok());
        let set_up = "[SetUp \"1\"]\n[FEN \"B:W9,K30:B24,K3\"]\n1... 24-20 2. 30x16 *";
        assert_eq!(plies(set_up, Variant::Spanish), vec![Ok(2)]);
        let missing = games("[SetUp \"1\"]\n1. 11-15 *", Variant::Spanish);
        assert!(matches!(
            missing[0],
            Err(PdnRefusal {
                error: PdnError::SetUpWithoutFen,
                ..
            })
        ));
    }

    #[test]
    fn algebraic_moves_read_on_either_colour() {
        // Spanish h1 is square 1; a record from an a1 board is read in the mirror.
        let direct = plies("1. e3-f4 *", Variant::Spanish);
        let mirrored = plies("1. d3-c4 *", Variant::Spanish);
        assert_eq!(direct, vec![Ok(1)]);
        assert_eq!(mirrored, vec![Ok(1)]);
        let a = games("1. e3-f4 *", Variant::Spanish);
        let b = games("1. d3-c4 *", Variant::Spanish);
        let (a, b) = (a[0].as_ref().expect("a"), b[0].as_ref().expect("b"));
        assert_eq!(a.game.moves(), b.game.moves());
    }

    #[test]
    fn latin_1_and_utf_8_both_decode() {
        assert_eq!(
            decode_pdn("[White \"Peña\"]".as_bytes()),
            "[White \"Peña\"]"
        );
        assert_eq!(decode_pdn(b"[White \"Pe\xf1a\"]"), "[White \"Peña\"]");
        assert_eq!(decode_pdn(b"\xef\xbb\xbf1. 11-15"), "1. 11-15");
    }

    #[test]
    fn a_record_goes_on_past_the_draws_live_play_declares() {
        // Kings shuffle: the third repetition comes at ply 8; the record then goes on.
        let text = "[SetUp \"1\"]\n[FEN \"W:WK1,10:BK32,23\"]\n1. 1-5 32-28 2. 5-1 28-32 \
                    3. 1-5 32-28 4. 5-1 28-32 5. 10-14 1-1";
        let read = games(text, Variant::Spanish);
        let r = read[0].as_ref().expect("reads");
        assert_eq!(r.game.ply(), 9);
        assert_eq!(r.game.outcome(), None);
        assert_eq!(
            r.game.unclaimed_draw(),
            Some((8, crate::engine::DrawReason::Repetition))
        );
        assert_eq!(r.result, Some(PdnResult::Draw));
    }
}
