//! Who plays whom: round robin by the Berger tables, Swiss by the FIDE Dutch system's rules
//! that matter at club size. The rules, as implemented, and their sources are in
//! `docs/TOURNAMENTS.md`.

use super::matching::{has_perfect_matching, max_matching_size};
use super::{Board, Entry, Field, Format, Round, Score};

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("a tournament needs at least 3 players; it has {have}")]
    TooFewPlayers { have: usize },
    #[error("every round has been played")]
    AllRoundsPlayed,
    #[error("the last round has games still in play")]
    RoundInPlay,
    #[error("no pairing avoids a repeat game")]
    NoPairingLeft,
}

/// How many rounds the tournament has, for a field of `players`.
pub fn rounds_in(format: Format, players: usize) -> u8 {
    match format {
        Format::RoundRobin => u8::try_from(players + players % 2 - 1).unwrap_or(u8::MAX),
        Format::Swiss { rounds } => rounds,
    }
}

/// Pair the next round (`played.len() + 1`), after every round before it is complete.
pub fn pair_round(format: Format, field: &Field, played: &[Round]) -> Result<Round, PairingError> {
    let have = field.players.len();
    if have < 3 {
        return Err(PairingError::TooFewPlayers { have });
    }
    if played.iter().any(|r| !r.is_complete()) {
        return Err(PairingError::RoundInPlay);
    }
    if played.len() >= usize::from(rounds_in(format, have)) {
        return Err(PairingError::AllRoundsPlayed);
    }
    let round = u8::try_from(played.len() + 1).unwrap_or(u8::MAX);
    match format {
        Format::RoundRobin => Ok(berger_round(field, round)),
        Format::Swiss { .. } => swiss_round(field, played, round),
    }
}

/// The Berger table's pairings of `round` (1-based) for `players` seats (made even with a
/// dummy seat, the last, for an odd field), as 0-based seats (white, black) in board order.
///
/// FIDE Handbook C.05, Annex 1: in round `r` the last seat plays on board 1, with black in odd
/// rounds and white in even ones, against seat `p = (r - 1) * n/2 mod (n - 1)`; board `k`
/// pairs seat `p + k` (white) with `p - k`, counted round the other `n - 1` seats.
pub fn berger_table(players: usize, round: u8) -> Vec<(usize, usize)> {
    let n = players + players % 2;
    if n < 2 || round == 0 {
        return Vec::new();
    }
    let others = n - 1;
    let last = n - 1;
    let r = usize::from(round - 1) % others;
    let first = (r * (n / 2)) % others;
    let mut pairs = Vec::with_capacity(n / 2);
    pairs.push(if r % 2 == 0 {
        (first, last)
    } else {
        (last, first)
    });
    for k in 1..n / 2 {
        pairs.push(((first + k) % others, (first + others - k) % others));
    }
    pairs
}

/// Round `round` (1-based) of the Berger table for the whole field: seats are entry numbers.
/// The dummy seat's opponent has the bye. A withdrawn player's boards are left out from the
/// round they withdrew before: their opponent is unpaired that round (no points, no bye).
fn berger_round(field: &Field, round: u8) -> Round {
    let seats = field.players.len();
    let active = |seat: usize| {
        field
            .players
            .get(seat)
            .is_some_and(|p| p.withdrawn_from.map_or(true, |from| round < from))
    };
    let mut boards = Vec::new();
    let mut bye = None;
    for (w, b) in berger_table(seats, round) {
        let entry = |seat: usize| field.players[seat].entry;
        if w >= seats || b >= seats {
            let alone = w.min(b);
            if active(alone) {
                bye = Some(Board::Bye(entry(alone)));
            }
        } else if active(w) && active(b) {
            boards.push(Board::Game {
                white: entry(w),
                black: entry(b),
                score: None,
            });
        }
    }
    boards.extend(bye);
    Round { boards }
}

/// Points so far, in half-points, per entry.
pub(crate) fn points(field: &Field, played: &[Round]) -> Vec<u32> {
    let worth = bye_worth(played);
    let mut points = vec![0u32; field.players.len()];
    for round in played {
        for board in &round.boards {
            match board {
                Board::Game {
                    white,
                    black,
                    score:
                        Some(Score {
                            white: w, black: b, ..
                        }),
                } => {
                    points[usize::from(white.0)] += w;
                    points[usize::from(black.0)] += b;
                }
                Board::Game { score: None, .. } => {}
                Board::Bye(e) => points[usize::from(e.0)] += worth,
            }
        }
    }
    points
}

/// What one pairing is worth, and so a bye ([`super::pairing_worth`]): the most any board of
/// the rounds so far scored (4 once a two-game mini-match has ended), 2 at least. Every round
/// but a 3-player round robin's has a game, so the worth is known from round 1's results on.
pub(crate) fn bye_worth(played: &[Round]) -> u32 {
    played
        .iter()
        .flat_map(|r| &r.boards)
        .filter_map(|b| match b {
            Board::Game { score: Some(s), .. } => Some(s.white + s.black),
            _ => None,
        })
        .max()
        .unwrap_or(2)
        .max(2)
}

/// A colour, as the colour rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Colour {
    White,
    Black,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How much a player wants a colour (FIDE C.04.3, A.6), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// Colours balanced: the other colour than last game's.
    Mild,
    /// One colour more often than the other.
    Strong,
    /// Two more often, or the same colour twice in a row: the other colour is a must.
    Absolute,
}

/// A player's colour preference from the colours of their played games, in order (a bye or a
/// forfeit is not a game for colours). `None` before their first game.
pub(crate) fn colour_preference(colours: &[Colour]) -> Option<(Colour, Strength)> {
    let &last = colours.last()?;
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i64;
    let difference = 2 * whites - colours.len() as i64;
    let twice = colours.len() >= 2 && colours[colours.len() - 2] == last;
    Some(if difference > 1 {
        (Colour::Black, Strength::Absolute)
    } else if difference < -1 {
        (Colour::White, Strength::Absolute)
    } else if twice {
        (last.other(), Strength::Absolute)
    } else if difference == 1 {
        (Colour::Black, Strength::Strong)
    } else if difference == -1 {
        (Colour::White, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    })
}

/// What the Swiss pairing knows of one active player.
struct Seed {
    entry: Entry,
    points: u32,
    /// 1-based pairing number: the initial ranking by rating, then entry.
    number: usize,
    /// Their colour in each round so far (`None`: no game played that round).
    colours: Vec<Option<Colour>>,
    preference: Option<(Colour, Strength)>,
    had_bye: bool,
}

/// Who floated down in the last round played: paired with someone who had fewer points
/// before it, or not playing it at all (a bye, a forfeit, no pairing), as FIDE C.04.3 A.4
/// counts floats. Indexed by entry.
fn floated_down_last(field: &Field, played: &[Round]) -> Vec<bool> {
    let mut floated = vec![false; field.players.len()];
    let Some((last, before)) = played.split_last() else {
        return floated;
    };
    let points = points(field, before);
    let round = u8::try_from(played.len()).unwrap_or(u8::MAX);
    let mut played_a_game = vec![false; field.players.len()];
    for board in &last.boards {
        if let Board::Game {
            white,
            black,
            score,
        } = board
        {
            let (w, b) = (usize::from(white.0), usize::from(black.0));
            if score.is_some_and(|s| s.forfeit) {
                continue;
            }
            played_a_game[w] = true;
            played_a_game[b] = true;
            if points[w] > points[b] {
                floated[w] = true;
            } else if points[b] > points[w] {
                floated[b] = true;
            }
        }
    }
    for p in field.active_in(round) {
        let i = usize::from(p.entry.0);
        if !played_a_game[i] {
            floated[i] = true;
        }
    }
    floated
}

/// A Swiss round (see `docs/TOURNAMENTS.md`): the bye to the lowest-ranked player without one
/// whose absence leaves the rest pairable; then score group by score group from the top, each
/// paired as fully as it can be (S1 against S2, the first candidate in the Dutch order that
/// leaves everyone below still pairable, with the fewest colour conflicts, then the fewest
/// players floated down twice in a row), those left over floating down to the next group.
fn swiss_round(field: &Field, played: &[Round], round: u8) -> Result<Round, PairingError> {
    let points = points(field, played);
    let mut initial: Vec<usize> = (0..field.players.len()).collect();
    initial.sort_by_key(|&i| {
        (
            std::cmp::Reverse(field.players[i].rating),
            field.players[i].entry,
        )
    });
    let mut number = vec![0; field.players.len()];
    for (rank, &i) in initial.iter().enumerate() {
        number[i] = rank + 1;
    }
    let mut met = vec![vec![false; field.players.len()]; field.players.len()];
    let mut colours = vec![vec![None; played.len()]; field.players.len()];
    let mut had_bye = vec![false; field.players.len()];
    for (r, round) in played.iter().enumerate() {
        for board in &round.boards {
            match board {
                Board::Game {
                    white,
                    black,
                    score,
                } => {
                    let (w, b) = (usize::from(white.0), usize::from(black.0));
                    met[w][b] = true;
                    met[b][w] = true;
                    if !score.is_some_and(|s| s.forfeit) {
                        colours[w][r] = Some(Colour::White);
                        colours[b][r] = Some(Colour::Black);
                    }
                }
                Board::Bye(e) => had_bye[usize::from(e.0)] = true,
            }
        }
    }
    let mut seeds: Vec<Seed> = field
        .active_in(round)
        .map(|p| {
            let i = usize::from(p.entry.0);
            let history: Vec<Colour> = colours[i].iter().flatten().copied().collect();
            Seed {
                entry: p.entry,
                points: points[i],
                number: number[i],
                preference: colour_preference(&history),
                colours: colours[i].clone(),
                had_bye: had_bye[i],
            }
        })
        .collect();
    // The ranking: points, then pairing number.
    seeds.sort_by_key(|s| (std::cmp::Reverse(s.points), s.number));
    let n = seeds.len();
    let compatible: Vec<Vec<bool>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| {
                    a != b
                        && !met[usize::from(seeds[a].entry.0)][usize::from(seeds[b].entry.0)]
                        && !matches!(
                            (seeds[a].preference, seeds[b].preference),
                            (Some((x, Strength::Absolute)), Some((y, Strength::Absolute))) if x == y
                        )
                })
                .collect()
        })
        .collect();
    let pairable =
        |set: &[usize]| has_perfect_matching(set.len(), |a, b| compatible[set[a]][set[b]]);
    let mut left: Vec<usize> = (0..n).collect();
    let mut bye = None;
    if n % 2 == 1 {
        let chosen = (0..n)
            .rev()
            .filter(|&i| !seeds[i].had_bye)
            .find(|&i| {
                let rest: Vec<usize> = (0..n).filter(|&j| j != i).collect();
                pairable(&rest)
            })
            .ok_or(PairingError::NoPairingLeft)?;
        left.retain(|&i| i != chosen);
        bye = Some(chosen);
    } else if !pairable(&left) {
        return Err(PairingError::NoPairingLeft);
    }
    let conflict = |a: usize, b: usize| matches!((seeds[a].preference, seeds[b].preference), (Some((x, _)), Some((y, _))) if x == y);
    let floated_before = floated_down_last(field, played);
    let floated_last: Vec<bool> = seeds
        .iter()
        .map(|s| floated_before[usize::from(s.entry.0)])
        .collect();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    // `left` is in ranking order; the groups are taken from its front.
    let mut floaters: Vec<usize> = Vec::new();
    while !left.is_empty() {
        let score = left.first().map(|&i| seeds[i].points);
        let residents: Vec<usize> = match score {
            Some(s) => left
                .iter()
                .copied()
                .take_while(|&i| seeds[i].points == s)
                .collect(),
            None => Vec::new(),
        };
        left.drain(..residents.len());
        let next_group: Vec<usize> = match left.first() {
            Some(&first) => left
                .iter()
                .copied()
                .take_while(|&i| seeds[i].points == seeds[first].points)
                .collect(),
            None => Vec::new(),
        };
        let bracket = Bracket {
            floaters: std::mem::take(&mut floaters),
            residents,
            below: left.clone(),
            next_group,
            compatible: &compatible,
            conflict: &conflict,
            floated_last: &floated_last,
        };
        let (made, floating) = bracket.pair();
        pairs.extend(made);
        floaters = floating;
    }
    if !floaters.is_empty() {
        // Only when a search was given up in the last group: never seen, but never a wrong round.
        return Err(PairingError::NoPairingLeft);
    }
    let mut games: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| allocate_colours(&seeds[a.min(b)], &seeds[a.max(b)], a.min(b), a.max(b)))
        .collect();
    // Board order: the higher score of the two, then their sum, then the higher-ranked player.
    games.sort_by_key(|&(w, b)| {
        let (hi, lo) = (
            seeds[w].points.max(seeds[b].points),
            seeds[w].points.min(seeds[b].points),
        );
        (std::cmp::Reverse(hi), std::cmp::Reverse(hi + lo), w.min(b))
    });
    let mut boards: Vec<Board> = games
        .into_iter()
        .map(|(w, b)| Board::Game {
            white: seeds[w].entry,
            black: seeds[b].entry,
            score: None,
        })
        .collect();
    boards.extend(bye.map(|i| Board::Bye(seeds[i].entry)));
    Ok(Round { boards })
}

/// Who has white, of `high` (ranked higher) and `low` (FIDE C.04.3, E): both preferences if
/// they differ; else the stronger one; else alternate from the last round in which they had
/// different colours; else the higher-ranked player's; with no preference on either side, the
/// higher-ranked player has white when their pairing number is odd.
fn allocate_colours(high: &Seed, low: &Seed, hi: usize, lo: usize) -> (usize, usize) {
    let high_gets = |c: Colour| {
        if c == Colour::White {
            (hi, lo)
        } else {
            (lo, hi)
        }
    };
    match (high.preference, low.preference) {
        (None, None) => high_gets(if high.number % 2 == 1 {
            Colour::White
        } else {
            Colour::Black
        }),
        (Some((c, _)), None) => high_gets(c),
        (None, Some((c, _))) => high_gets(c.other()),
        (Some((a, sa)), Some((b, sb))) => {
            if a != b || sa > sb {
                high_gets(a)
            } else if sb > sa {
                high_gets(b.other())
            } else {
                let last_different =
                    high.colours
                        .iter()
                        .zip(&low.colours)
                        .rev()
                        .find_map(|(h, l)| match (h, l) {
                            (Some(h), Some(l)) if h != l => Some(*h),
                            _ => None,
                        });
                match last_different {
                    Some(had) => high_gets(had.other()),
                    None => high_gets(a),
                }
            }
        }
    }
}

/// The most tries of one search in one bracket before it is given up as hopeless, so a
/// pathological field costs milliseconds, not minutes; a search given up pairs one fewer pair
/// in the bracket (or accepts one more colour conflict), which stays legal.
const SEARCH_LIMIT: usize = 20_000;

/// One score group, with the players floated down to it, to be paired.
struct Bracket<'a, C: Fn(usize, usize) -> bool> {
    /// Moved down from higher groups, in ranking order.
    floaters: Vec<usize>,
    /// The group's own players, in ranking order.
    residents: Vec<usize>,
    /// Everyone in the groups below.
    below: Vec<usize>,
    /// The next group's own players (the first of `below`).
    next_group: Vec<usize>,
    compatible: &'a [Vec<bool>],
    conflict: &'a C,
    /// Who floated down in the last round: they float again only when every candidate
    /// (with as few colour conflicts) floats as many of them.
    floated_last: &'a [bool],
}

struct Search {
    pairs: Vec<(usize, usize)>,
    floated: Vec<usize>,
    conflicts: usize,
    /// Players floated who floated down in the last round too.
    repeats: usize,
    tries: usize,
    goal: Goal,
}

/// What a search of a bracket is after.
enum Goal {
    /// Look at the first candidates (how many seen so far) and keep the most pairs the next
    /// group could make with each one's floaters.
    Survey { seen: usize, best: Option<usize> },
    /// The first candidate that lets the next group make `next_pairs` pairs.
    First { next_pairs: usize },
}

/// How many candidates a survey looks at.
const SURVEY: usize = 24;

impl Search {
    fn new(goal: Goal) -> Search {
        Search {
            pairs: Vec::new(),
            floated: Vec::new(),
            conflicts: 0,
            repeats: 0,
            tries: 0,
            goal,
        }
    }
}

impl<C: Fn(usize, usize) -> bool> Bracket<'_, C> {
    /// The pairs made in this bracket and the players floated down from it. As many pairs as
    /// can be made while the rest of the field stays pairable; among those, the fewest colour
    /// conflicts; among those, the fewest players floated down twice in a row; among those,
    /// the first in the order of the Dutch system's candidates.
    fn pair(&self) -> (Vec<(usize, usize)>, Vec<usize>) {
        let players: Vec<usize> = self
            .floaters
            .iter()
            .chain(&self.residents)
            .copied()
            .collect();
        let most = max_matching_size(players.len(), |a, b| {
            self.compatible[players[a]][players[b]]
        });
        let most_friendly = max_matching_size(players.len(), |a, b| {
            self.compatible[players[a]][players[b]] && !(self.conflict)(players[a], players[b])
        });
        for wanted in (0..=most).rev() {
            let split = self.split(wanted);
            // First, how well the next group can be paired with those floated down to it: the
            // best of the first candidates, whatever their colours.
            let mut survey = Search::new(Goal::Survey {
                seen: 0,
                best: None,
            });
            self.search(&players, wanted, wanted, usize::MAX, split, &mut survey);
            let Goal::Survey {
                best: Some(next_pairs),
                ..
            } = survey.goal
            else {
                continue;
            };
            // Colours first (C.12), then floats (C.14): the fewest colour conflicts, and among
            // the candidates with that many, the fewest players floated twice in a row.
            let could_repeat = players.iter().filter(|&&p| self.floated_last[p]).count();
            for allowed_conflicts in wanted.saturating_sub(most_friendly)..=wanted {
                for allowed_repeats in 0..=could_repeat {
                    let mut search = Search::new(Goal::First { next_pairs });
                    let (conflicts, repeats) = (allowed_conflicts, allowed_repeats);
                    if self.search(&players, wanted, conflicts, repeats, split, &mut search) {
                        return (search.pairs, search.floated);
                    }
                }
            }
        }
        (Vec::new(), players)
    }

    /// How many pairs the next score group could make with `floated` joining it.
    fn next_pairs(&self, floated: &[usize]) -> usize {
        let next: Vec<usize> = floated.iter().chain(&self.next_group).copied().collect();
        max_matching_size(next.len(), |a, b| self.compatible[next[a]][next[b]])
    }

    /// S1 of the residents when `wanted` pairs are made: the residents left once the floaters
    /// have their opponents are split in two halves; the upper half plays the lower.
    fn split(&self, wanted: usize) -> usize {
        let resident_pairs = wanted.saturating_sub(self.floaters.len());
        let paired_by_floaters = wanted.min(self.floaters.len());
        // S1: the first `resident_pairs` residents after those the floaters take (a floater
        // takes the highest resident it may meet; close enough to count them from the top).
        paired_by_floaters + resident_pairs
    }

    /// The partners `x` tries, in the Dutch order: a floater, the residents from the top; a
    /// resident of S1, S2 from the top, then the other residents from the bottom (an
    /// exchange); a resident of S2, whoever is left, from the top.
    fn partners(&self, x: usize, open: &[usize], split: usize) -> Vec<usize> {
        let is_floater = |p: usize| self.floaters.contains(&p);
        let resident_index = |p: usize| self.residents.iter().position(|&r| r == p);
        let others = open.iter().copied().filter(|&p| p != x);
        if is_floater(x) {
            let (residents, floaters): (Vec<usize>, Vec<usize>) =
                others.partition(|&p| !is_floater(p));
            return residents.into_iter().chain(floaters).collect();
        }
        match resident_index(x) {
            Some(i) if i < split => {
                let (s2, mut s1): (Vec<usize>, Vec<usize>) =
                    others.partition(|&p| resident_index(p).is_some_and(|j| j >= split));
                s1.reverse();
                s2.into_iter().chain(s1).collect()
            }
            _ => others.collect(),
        }
    }

    fn search(
        &self,
        open: &[usize],
        wanted: usize,
        allowed_conflicts: usize,
        allowed_repeats: usize,
        split: usize,
        state: &mut Search,
    ) -> bool {
        state.tries += 1;
        if state.tries > SEARCH_LIMIT {
            return false;
        }
        let still = wanted - state.pairs.len();
        // The lowest group floats nobody: there is no one below to take them.
        let can_float = !self.below.is_empty();
        if still == 0 {
            if !can_float && (!open.is_empty() || !state.floated.is_empty()) {
                return false;
            }
            let repeats = open.iter().filter(|&&p| self.floated_last[p]).count();
            if state.repeats + repeats > allowed_repeats {
                return false;
            }
            // Everyone open floats; the field below must take them.
            let rest: Vec<usize> = open
                .iter()
                .chain(&state.floated)
                .chain(&self.below)
                .copied()
                .collect();
            if !has_perfect_matching(rest.len(), |a, b| self.compatible[rest[a]][rest[b]]) {
                return false;
            }
            let floated: Vec<usize> = state.floated.iter().chain(open).copied().collect();
            let next_pairs = self.next_pairs(&floated);
            return match &mut state.goal {
                Goal::Survey { seen, best } => {
                    *seen += 1;
                    *best = (*best).max(Some(next_pairs));
                    // Stop at the survey's size, or when nobody could do better.
                    *seen >= SURVEY || next_pairs * 2 + 1 >= floated.len() + self.next_group.len()
                }
                Goal::First { next_pairs: wanted } => {
                    if next_pairs < *wanted {
                        return false;
                    }
                    state.floated = floated;
                    true
                }
            };
        }
        // Necessary for any completion: the open players hold `still` pairs (and enough of
        // them conflict-free), and everyone not yet paired can still be paired.
        let inside = max_matching_size(open.len(), |a, b| self.compatible[open[a]][open[b]]);
        if inside < still {
            return false;
        }
        let friendly = max_matching_size(open.len(), |a, b| {
            self.compatible[open[a]][open[b]] && !(self.conflict)(open[a], open[b])
        });
        if state.conflicts + still.saturating_sub(friendly) > allowed_conflicts {
            return false;
        }
        let rest: Vec<usize> = open
            .iter()
            .chain(&state.floated)
            .chain(&self.below)
            .copied()
            .collect();
        if !has_perfect_matching(rest.len(), |a, b| self.compatible[rest[a]][rest[b]]) {
            return false;
        }
        let x = open[0];
        let after: Vec<usize> = open[1..].to_vec();
        for y in self.partners(x, open, split) {
            if !self.compatible[x][y] {
                continue;
            }
            let costs = usize::from((self.conflict)(x, y));
            if state.conflicts + costs > allowed_conflicts {
                continue;
            }
            let remaining: Vec<usize> = after.iter().copied().filter(|&p| p != y).collect();
            state.pairs.push((x, y));
            state.conflicts += costs;
            let floated = state.floated.len();
            if self.search(
                &remaining,
                wanted,
                allowed_conflicts,
                allowed_repeats,
                split,
                state,
            ) {
                return true;
            }
            state.floated.truncate(floated);
            state.conflicts -= costs;
            state.pairs.pop();
        }
        // x floats down, if the bracket can spare them.
        let repeat = usize::from(self.floated_last[x]);
        if can_float && open.len() > 2 * still && state.repeats + repeat <= allowed_repeats {
            state.floated.push(x);
            state.repeats += repeat;
            if self.search(
                &after,
                wanted,
                allowed_conflicts,
                allowed_repeats,
                split,
                state,
            ) {
                return true;
            }
            state.repeats -= repeat;
            state.floated.pop();
        }
        false
    }
}
