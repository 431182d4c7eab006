//! Opening books: the moves strong players chose in the positions they reached often, with
//! the results of their games, so that Expert plays a well-trodden opening move without
//! searching and the review can name a move as "book".
//!
//! A book is built from game records ([`BookBuilder`], `damas book build`) and stored in a
//! compact binary file ([`Book::to_bytes`], [`Book::from_bytes`]); the built books in `data/`
//! are part of the binary ([`Book::embedded`]).
//!
//! A position is keyed by a 64-bit mix of its three bitboards and its side to move
//! ([`position_key`]), fixed here rather than borrowed from the search's Zobrist keys, so
//! that a book file stays valid whatever the search's tables become. A move is named by its
//! first and last squares; the builder leaves out the rare move those two squares do not
//! name alone (two captures between the same squares).
//!
//! The binary format, every number little-endian, counts as unsigned LEB128 varints:
//!
//! ```text
//! "DAMASBK1"                           magic, 8 bytes
//! variant id                           one length byte, then ASCII ("english")
//! plies, min_games, positions          varints: the builder's options, the entry count
//! per position, in increasing key order:
//!   key                                u64
//!   moves                              varint
//!   per move: from, to                 one byte each (square numbers 1-32)
//!             wins, draws, losses      varints, from the mover's side
//! ```

use crate::engine::{Color, Game, Move, PdnResult, Position, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"DAMASBK1";

/// The built English book: master games of the Open Checkers Archive and Marion Tinsley's
/// games (docs/CLI.md has the command that made it).
const ENGLISH: &[u8] = include_bytes!("../../../data/book-english.bin");

/// The built Spanish and Portuguese books: no master collection exists for them, so they are
/// grown from Expert's own deep self-play (`damas tune selfplay --book-plies`; docs/TUNING.md
/// has the commands that made them).
const SPANISH: &[u8] = include_bytes!("../../../data/book-spanish.bin");
const PORTUGUESE: &[u8] = include_bytes!("../../../data/book-portuguese.bin");

/// Where the English book lives in the repository (the builder's usual output).
pub const ENGLISH_PATH: &str = "data/book-english.bin";

/// Where `variant`'s built-in book lives in the repository.
pub fn embedded_path(variant: Variant) -> &'static str {
    match variant {
        Variant::English => ENGLISH_PATH,
        Variant::Spanish => "data/book-spanish.bin",
        Variant::Portuguese => "data/book-portuguese.bin",
    }
}

/// The plies the English book was built to, and the fewest games a position needed to be
/// kept: the options `damas book build` records in the file, repeated here for the test that
/// rebuilds the book from the archive.
pub const ENGLISH_PLIES: u32 = 40;
pub const ENGLISH_MIN_GAMES: u32 = 4;

/// A 64-bit key of a position: where each side's pieces stand, which are kings, and who is
/// to move (the variant is the book's). Two splitmix64 rounds; stable across builds.
pub fn position_key(pos: &Position) -> u64 {
    let side = match pos.side {
        Color::White => 0u64,
        Color::Black => 1u64,
    };
    let a = splitmix64(u64::from(pos.white) | (u64::from(pos.black) << 32));
    splitmix64(a ^ (u64::from(pos.kings) | (side << 32)))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A move of the book in one position, with the results of the games that played it, from
/// the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// Square numbers (1-32) the move starts and ends on.
    pub from: u8,
    pub to: u8,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl BookMove {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mover's score in these games, a draw counting half, shrunk towards an even score
    /// as if two more games had been drawn: a move played twice and won twice is not
    /// thereby a sure win.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws) + 1.0) / (f64::from(self.games()) + 2.0)
    }

    /// The legal move of `pos` this book move names, if exactly one.
    pub fn resolve(&self, pos: &Position) -> Option<Move> {
        let mut found = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from().number() == self.from && m.to().number() == self.to);
        let mv = found.next()?;
        found.next().is_none().then_some(mv)
    }
}

/// Whether Expert plays from `variant`'s built-in book. Spanish's is built in — the review
/// names its moves, `damas book show` shows it — but Expert searches instead: against itself
/// without the book it lost, −23 Elo (−46 to −0.3) over 150 games at 100,000 nodes a move
/// (docs/BENCHMARKS.md), where Portuguese's gained +20. A longer match at Expert's own budget
/// may bring it back.
pub fn played_by_expert(variant: Variant) -> bool {
    match variant {
        Variant::English | Variant::Portuguese => true,
        Variant::Spanish => false,
    }
}

/// Which book moves Expert plays, and when it searches instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookPolicy {
    /// The fewest games through the position (all its moves together) for the book to speak.
    pub min_position_games: u32,
    /// The fewest games of a move for it to be chosen.
    pub min_move_games: u32,
    /// A move is good when its score is within this of the best chosen one's ...
    pub margin: f64,
    /// ... and at least this (from the mover's side): a position the masters lost from more
    /// often than not is left to the search.
    pub floor: f64,
}

impl BookPolicy {
    /// Expert's: a dozen games in the position, four of the move, within 5% of the best
    /// score, and no worse than 40%.
    pub const EXPERT: BookPolicy = BookPolicy {
        min_position_games: 12,
        min_move_games: 4,
        margin: 0.05,
        floor: 0.40,
    };

    /// Expert's in a book grown from its own self-play (Spanish, Portuguese): every move
    /// there already passed a deep search (within a few hundredths of a man of the best), and
    /// the few dozen games behind most moves measure a score only to about ±10%, so the
    /// results drop a move only when it did clearly worse: within 10% of the best.
    pub const GROWN: BookPolicy = BookPolicy {
        margin: 0.10,
        ..BookPolicy::EXPERT
    };

    /// The policy Expert plays `variant`'s built-in book with: the masters' English book
    /// [`BookPolicy::EXPERT`], the books grown from self-play [`BookPolicy::GROWN`].
    pub fn of(variant: Variant) -> BookPolicy {
        match variant {
            Variant::English => BookPolicy::EXPERT,
            Variant::Spanish | Variant::Portuguese => BookPolicy::GROWN,
        }
    }
}

/// An opening book of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    plies: u32,
    min_games: u32,
    entries: HashMap<u64, Vec<BookMove>>,
}

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error(
        "not an opening book (it does not start with {:?})",
        String::from_utf8_lossy(MAGIC)
    )]
    Magic,
    #[error("the book ends in the middle of {0}")]
    Truncated(&'static str),
    #[error("the book names an unknown variant {0:?}")]
    Variant(String),
    #[error("the book's position {0:016x} is listed twice")]
    Duplicate(u64),
    #[error("the book names square {0}, which is not 1 to 32")]
    Square(u8),
    #[error("{0} bytes follow the book's last position")]
    Trailing(usize),
}

impl Book {
    /// The book built into the binary for `variant` (every variant has one; `None` only if
    /// the built-in bytes were damaged, which a test rules out).
    pub fn embedded(variant: Variant) -> Option<&'static Book> {
        static ENGLISH_BOOK: OnceLock<Option<Book>> = OnceLock::new();
        static SPANISH_BOOK: OnceLock<Option<Book>> = OnceLock::new();
        static PORTUGUESE_BOOK: OnceLock<Option<Book>> = OnceLock::new();
        let (cell, bytes) = match variant {
            Variant::English => (&ENGLISH_BOOK, ENGLISH),
            Variant::Spanish => (&SPANISH_BOOK, SPANISH),
            Variant::Portuguese => (&PORTUGUESE_BOOK, PORTUGUESE),
        };
        cell.get_or_init(|| match Book::from_bytes(bytes) {
            Ok(b) if b.variant == variant => Some(b),
            // A test reads the embedded books back, so this is only a safety net: a bot
            // without a book still plays.
            _ => None,
        })
        .as_ref()
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The plies from the start the builder followed each game for.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The fewest games through a position for the builder to keep it.
    pub fn min_games(&self) -> u32 {
        self.min_games
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's moves in `pos`, most played first (empty when the position is not in the
    /// book or is of another variant).
    pub fn moves(&self, pos: &Position) -> &[BookMove] {
        if pos.variant() != self.variant {
            return &[];
        }
        self.entries
            .get(&position_key(pos))
            .map_or(&[], |m| m.as_slice())
    }

    /// Whether `mv` is a book move in `pos`, as the review names it: played there in at least
    /// [`BookPolicy::EXPERT`]'s `min_move_games` games (one master's odd choice is not).
    pub fn is_book_move(&self, pos: &Position, mv: &Move) -> bool {
        self.moves(pos).iter().any(|b| {
            b.from == mv.from().number()
                && b.to == mv.to().number()
                && b.games() >= BookPolicy::EXPERT.min_move_games
        })
    }

    /// The moves `policy` calls good in `pos`, each with its games: empty when the book does
    /// not know the position well enough.
    pub fn good_moves(&self, pos: &Position, policy: &BookPolicy) -> Vec<(Move, BookMove)> {
        let moves = self.moves(pos);
        let total: u32 = moves.iter().map(BookMove::games).sum();
        if total < policy.min_position_games {
            return Vec::new();
        }
        let candidates: Vec<(Move, BookMove)> = moves
            .iter()
            .filter(|b| b.games() >= policy.min_move_games)
            .filter_map(|b| b.resolve(pos).map(|m| (m, *b)))
            .collect();
        let Some(best) = candidates
            .iter()
            .map(|(_, b)| b.score())
            .max_by(f64::total_cmp)
        else {
            return Vec::new();
        };
        candidates
            .into_iter()
            .filter(|(_, b)| b.score() >= best - policy.margin && b.score() >= policy.floor)
            .collect()
    }

    /// A good move of `pos`, drawn at random weighted by how often it was played (the same
    /// seed draws the same move), or `None` when the search should decide.
    pub fn choose(&self, pos: &Position, policy: &BookPolicy, seed: u64) -> Option<Move> {
        let good = self.good_moves(pos, policy);
        let total: u64 = good.iter().map(|(_, b)| u64::from(b.games())).sum();
        if total == 0 {
            return None;
        }
        let mut pick = SmallRng::seed_from_u64(seed).gen_range(0..total);
        for (mv, b) in &good {
            let games = u64::from(b.games());
            if pick < games {
                return Some(*mv);
            }
            pick -= games;
        }
        None
    }

    /// The book as bytes (see the module's documentation): the same book gives the same
    /// bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let id = self.variant.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        put_varint(&mut out, u64::from(self.plies));
        put_varint(&mut out, u64::from(self.min_games));
        put_varint(&mut out, self.entries.len() as u64);
        let sorted: BTreeMap<u64, &Vec<BookMove>> =
            self.entries.iter().map(|(k, v)| (*k, v)).collect();
        for (key, moves) in sorted {
            out.extend_from_slice(&key.to_le_bytes());
            put_varint(&mut out, moves.len() as u64);
            for m in moves {
                out.push(m.from);
                out.push(m.to);
                put_varint(&mut out, u64::from(m.wins));
                put_varint(&mut out, u64::from(m.draws));
                put_varint(&mut out, u64::from(m.losses));
            }
        }
        out
    }

    /// Reads a book written by [`Book::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len(), "the header")
            .map_err(|_| BookError::Magic)?
            != MAGIC
        {
            return Err(BookError::Magic);
        }
        let id_len = r.take(1, "the header")?[0] as usize;
        let id = String::from_utf8_lossy(r.take(id_len, "the header")?).into_owned();
        let variant = id
            .parse::<Variant>()
            .map_err(|_| BookError::Variant(id.clone()))?;
        let plies = r.varint_u32("the header")?;
        let min_games = r.varint_u32("the header")?;
        let count = r.varint("the header")?;
        let mut entries = HashMap::new();
        for _ in 0..count {
            let key = u64::from_le_bytes(
                r.take(8, "a position")?
                    .try_into()
                    .map_err(|_| BookError::Truncated("a position"))?,
            );
            let n = r.varint("a position")?;
            let mut moves = Vec::new();
            for _ in 0..n {
                let sq = r.take(2, "a move")?;
                let (from, to) = (sq[0], sq[1]);
                for s in [from, to] {
                    if !(1..=32).contains(&s) {
                        return Err(BookError::Square(s));
                    }
                }
                moves.push(BookMove {
                    from,
                    to,
                    wins: r.varint_u32("a move")?,
                    draws: r.varint_u32("a move")?,
                    losses: r.varint_u32("a move")?,
                });
            }
            if entries.insert(key, moves).is_some() {
                return Err(BookError::Duplicate(key));
            }
        }
        if r.at != bytes.len() {
            return Err(BookError::Trailing(bytes.len() - r.at));
        }
        Ok(Book {
            variant,
            plies,
            min_games,
            entries,
        })
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], BookError> {
        let end = self.at.checked_add(n).ok_or(BookError::Truncated(what))?;
        let out = self
            .bytes
            .get(self.at..end)
            .ok_or(BookError::Truncated(what))?;
        self.at = end;
        Ok(out)
    }

    fn varint(&mut self, what: &'static str) -> Result<u64, BookError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1, what)?[0];
            v |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(BookError::Truncated(what))
    }

    fn varint_u32(&mut self, what: &'static str) -> Result<u32, BookError> {
        u32::try_from(self.varint(what)?).map_err(|_| BookError::Truncated(what))
    }
}

/// What became of a game offered to the builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameUse {
    /// Its first plies were counted.
    Counted,
    /// The same moves as a game already counted (collections overlap): left out.
    Duplicate,
    /// No result (`*`): left out.
    NoResult,
    /// Starts from a set-up position, not the variant's start: left out.
    SetUp,
    /// A game of another variant: left out.
    OtherVariant,
}

/// How many games the builder counted and left out, and why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildTally {
    pub counted: usize,
    pub duplicates: usize,
    pub no_result: usize,
    pub set_up: usize,
    pub other_variant: usize,
    /// Moves left out because their first and last squares name two legal moves.
    pub ambiguous_moves: usize,
}

/// Counts the first plies of games, then keeps the positions reached often enough.
pub struct BookBuilder {
    variant: Variant,
    plies: u32,
    skip: u32,
    counts: HashMap<u64, BTreeMap<(u8, u8), [u32; 3]>>,
    seen: HashSet<Vec<(u8, u8, u32)>>,
    tally: BuildTally,
}

impl BookBuilder {
    /// A builder following each game for its first `plies` plies.
    pub fn new(variant: Variant, plies: u32) -> BookBuilder {
        BookBuilder {
            variant,
            plies,
            skip: 0,
            counts: HashMap::new(),
            seen: HashSet::new(),
            tally: BuildTally::default(),
        }
    }

    /// Leaves the first `skip` plies of every game uncounted (self-play games open with
    /// random plies, which are no one's choice).
    pub fn skipping(mut self, skip: u32) -> BookBuilder {
        self.skip = skip;
        self
    }

    /// Counts one game: every position of its first plies, the move played there, and the
    /// game's result from that mover's side.
    pub fn add(&mut self, game: &Game, result: PdnResult) -> GameUse {
        let used = self.judge(game, result);
        match used {
            GameUse::Counted => self.tally.counted += 1,
            GameUse::Duplicate => self.tally.duplicates += 1,
            GameUse::NoResult => self.tally.no_result += 1,
            GameUse::SetUp => self.tally.set_up += 1,
            GameUse::OtherVariant => self.tally.other_variant += 1,
        }
        used
    }

    fn judge(&mut self, game: &Game, result: PdnResult) -> GameUse {
        if game.variant() != self.variant {
            return GameUse::OtherVariant;
        }
        if *game.start_position() != Position::start(self.variant) {
            return GameUse::SetUp;
        }
        let winner = match result {
            PdnResult::Unfinished => return GameUse::NoResult,
            PdnResult::Draw => None,
            PdnResult::Win(c) => Some(c),
        };
        let plies = (self.plies as usize).min(game.moves().len());
        let opening: Vec<(u8, u8, u32)> = game.moves()[..plies]
            .iter()
            .map(|m| (m.from().number(), m.to().number(), m.captured().0))
            .collect();
        // The whole game identifies it: two games sharing an opening are both counted.
        let mut whole = opening.clone();
        whole.extend(
            game.moves()[plies..]
                .iter()
                .map(|m| (m.from().number(), m.to().number(), m.captured().0)),
        );
        whole.push((0, 0, result_code(result)));
        if !self.seen.insert(whole) {
            return GameUse::Duplicate;
        }
        let counted = game.positions().iter().zip(game.moves());
        for (pos, mv) in counted.take(plies).skip(self.skip as usize) {
            let ambiguous = pos
                .legal_moves()
                .iter()
                .filter(|m| m.from() == mv.from() && m.to() == mv.to())
                .count()
                > 1;
            if ambiguous {
                self.tally.ambiguous_moves += 1;
                continue;
            }
            let slot = match winner {
                None => 1,
                Some(c) if c == pos.side_to_move() => 0,
                Some(_) => 2,
            };
            self.counts
                .entry(position_key(pos))
                .or_default()
                .entry((mv.from().number(), mv.to().number()))
                .or_default()[slot] += 1;
        }
        GameUse::Counted
    }

    pub fn tally(&self) -> BuildTally {
        self.tally
    }

    /// The book: every position whose moves were played in `min_games` games or more, with
    /// all of its moves, most played first.
    pub fn finish(self, min_games: u32) -> Book {
        let entries = self
            .counts
            .into_iter()
            .filter_map(|(key, moves)| {
                let mut moves: Vec<BookMove> = moves
                    .into_iter()
                    .map(|((from, to), [wins, draws, losses])| BookMove {
                        from,
                        to,
                        wins,
                        draws,
                        losses,
                    })
                    .collect();
                let total: u32 = moves.iter().map(BookMove::games).sum();
                if total < min_games.max(1) {
                    return None;
                }
                moves.sort_by(|a, b| {
                    b.games()
                        .cmp(&a.games())
                        .then((a.from, a.to).cmp(&(b.from, b.to)))
                });
                Some((key, moves))
            })
            .collect();
        Book {
            variant: self.variant,
            plies: self.plies,
            min_games,
            entries,
        }
    }
}

fn result_code(result: PdnResult) -> u32 {
    match result {
        PdnResult::Unfinished => 0,
        PdnResult::Draw => 1,
        PdnResult::Win(Color::White) => 2,
        PdnResult::Win(Color::Black) => 3,
    }
}

impl fmt::Display for BookMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.games();
        write!(
            f,
            "{}-{}: {games} game{}, +{} ={} -{}",
            self.from,
            self.to,
            if games == 1 { "" } else { "s" },
            self.wins,
            self.draws,
            self.losses
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        Game::replay(Position::start(Variant::English), moves).expect("legal moves")
    }

    #[test]
    fn bytes_read_back_to_the_same_book() {
        let mut b = BookBuilder::new(Variant::English, 4);
        b.add(&game(&["11-15", "23-19", "8-11"]), PdnResult::Draw);
        b.add(&game(&["11-15", "22-17"]), PdnResult::Win(Color::Black));
        b.add(&game(&["9-13", "22-18"]), PdnResult::Win(Color::White));
        let book = b.finish(1);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
        assert_eq!(book.to_bytes(), bytes, "the same book, the same bytes");
    }

    #[test]
    fn damaged_bytes_are_refused_by_name() {
        let mut b = BookBuilder::new(Variant::English, 2);
        b.add(&game(&["11-15", "23-19"]), PdnResult::Draw);
        let bytes = b.finish(1).to_bytes();
        assert_eq!(Book::from_bytes(b"not a book"), Err(BookError::Magic));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 1]),
            Err(BookError::Truncated(_))
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Book::from_bytes(&longer), Err(BookError::Trailing(1)));
        let mut bad_square = bytes.clone();
        // The first move's `from` square: after the header and the first key and count.
        let header = MAGIC.len() + 1 + "english".len() + 3;
        bad_square[header + 8 + 1] = 33;
        assert_eq!(Book::from_bytes(&bad_square), Err(BookError::Square(33)));
    }

    #[test]
    fn keys_tell_apart_side_kings_and_squares() {
        let start = Position::start(Variant::English);
        let other_side = start.with_side_to_move(start.side_to_move().opposite());
        assert_ne!(position_key(&start), position_key(&other_side));
        let moved = start.apply(&start.legal_moves()[0]);
        assert_ne!(position_key(&start), position_key(&moved));
        let mut kinged = start;
        kinged.kings = 1;
        assert_ne!(position_key(&start), position_key(&kinged));
    }

    /// `n` different games opening with `first`: the builder counts each (none repeats
    /// another's moves).
    fn games_after(first: &str, n: usize) -> Vec<Game> {
        let mut out = Vec::new();
        let one = game(&[first]);
        for reply in one.position().legal_moves() {
            let mut two = one.clone();
            two.play(reply).unwrap();
            for answer in two.position().legal_moves() {
                let mut three = two.clone();
                three.play(answer).unwrap();
                out.push(three);
            }
        }
        out.truncate(n);
        assert_eq!(out.len(), n);
        out
    }

    #[test]
    fn policy_keeps_the_good_moves_and_draws_them_by_games() {
        let start = Position::start(Variant::English);
        let mut b = BookBuilder::new(Variant::English, 1);
        // 11-15: 10 games, the mover scores 60%; 9-13: 6 games, 58%; 12-16: 6 games, 25%.
        let results = |wins: usize, draws: usize, losses: usize| {
            [PdnResult::Win(Color::Black)]
                .repeat(wins)
                .into_iter()
                .chain([PdnResult::Draw].repeat(draws))
                .chain([PdnResult::Win(Color::White)].repeat(losses))
                .collect::<Vec<_>>()
        };
        for (first, r) in [
            ("11-15", results(2, 8, 0)),
            ("9-13", results(1, 5, 0)),
            ("12-16", results(0, 3, 3)),
        ] {
            for (g, r) in games_after(first, r.len()).iter().zip(r) {
                assert_eq!(b.add(g, r), GameUse::Counted);
            }
        }
        let book = b.finish(1);
        let good: Vec<String> = book
            .good_moves(&start, &BookPolicy::EXPERT)
            .iter()
            .map(|(m, _)| m.short_notation())
            .collect();
        assert_eq!(good, vec!["11-15", "9-13"]);
        let mut drawn = HashSet::new();
        for seed in 0..50 {
            let mv = book.choose(&start, &BookPolicy::EXPERT, seed).unwrap();
            drawn.insert(mv.short_notation());
        }
        assert_eq!(drawn.len(), 2, "both good moves come up: {drawn:?}");
        let strict = BookPolicy {
            min_position_games: 100,
            ..BookPolicy::EXPERT
        };
        assert_eq!(book.choose(&start, &strict, 0), None);
    }
}
