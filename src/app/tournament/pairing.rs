//! Who plays whom: round robin by Berger tables, Swiss by score groups.

use super::{Board, Entry, Field, Format, Player, Round, Score};
use std::collections::HashSet;

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

/// Round `round` (1-based) of the Berger table for the whole field (a withdrawn player's
/// boards are left out; their opponent has no game that round).
fn berger_round(field: &Field, round: u8) -> Round {
    let n = field.players.len() + field.players.len() % 2;
    let last = n - 1;
    let r = usize::from(round - 1);
    let mut pairs = Vec::new();
    // The circle method: the last seat is fixed, the others turn one place a round.
    let seat = |k: usize| (r + k) % last;
    let first = if r % 2 == 0 {
        (seat(0), last)
    } else {
        (last, seat(0))
    };
    pairs.push(first);
    for k in 1..n / 2 {
        let (a, b) = (seat(k), seat(last - k));
        pairs.push(if k % 2 == 0 { (a, b) } else { (b, a) });
    }
    let active: HashSet<Entry> = field.active_in(round).map(|p| p.entry).collect();
    let real = |i: usize| {
        (i < field.players.len())
            .then(|| field.players[i].entry)
            .filter(|e| active.contains(e))
    };
    let mut boards = Vec::new();
    for (w, b) in pairs {
        match (real(w), real(b)) {
            (Some(white), Some(black)) => boards.push(Board::Game {
                white,
                black,
                score: None,
            }),
            (Some(alone), None) | (None, Some(alone))
                if w >= field.players.len() || b >= field.players.len() =>
            {
                boards.push(Board::Bye(alone))
            }
            _ => {}
        }
    }
    Round { boards }
}

/// Points so far, in half-points, per entry.
pub(crate) fn points(field: &Field, played: &[Round]) -> Vec<u32> {
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
                Board::Bye(e) => points[usize::from(e.0)] += bye_worth(played),
            }
        }
    }
    points
}

/// A bye is worth a won pairing: the most any board of the rounds so far scored, 2 at least.
fn bye_worth(played: &[Round]) -> u32 {
    played
        .iter()
        .flat_map(|r| &r.boards)
        .filter_map(|b| match b {
            Board::Game { score: Some(s), .. } => Some(s.white + s.black),
            _ => None,
        })
        .max()
        .unwrap_or(2)
}

/// A Swiss round: ranked by points, then rating, then entry; the bye to the lowest-ranked
/// player who has not had one; each player paired with the highest-ranked opponent not met
/// before, backtracking when that leaves someone without one.
fn swiss_round(field: &Field, played: &[Round], round: u8) -> Result<Round, PairingError> {
    let points = points(field, played);
    let mut ranked: Vec<&Player> = field.active_in(round).collect();
    ranked.sort_by_key(|p| {
        (
            std::cmp::Reverse(points[usize::from(p.entry.0)]),
            std::cmp::Reverse(p.rating),
            p.entry,
        )
    });
    let mut met: HashSet<(Entry, Entry)> = HashSet::new();
    let mut had_bye: HashSet<Entry> = HashSet::new();
    let mut whites = vec![0i32; field.players.len()];
    for board in played.iter().flat_map(|r| &r.boards) {
        match board {
            Board::Game { white, black, .. } => {
                met.insert((*white, *black));
                met.insert((*black, *white));
                whites[usize::from(white.0)] += 1;
                whites[usize::from(black.0)] -= 1;
            }
            Board::Bye(e) => {
                had_bye.insert(*e);
            }
        }
    }
    let mut boards = Vec::new();
    let mut order: Vec<Entry> = ranked.iter().map(|p| p.entry).collect();
    if order.len() % 2 == 1 {
        let at = order
            .iter()
            .rposition(|e| !had_bye.contains(e))
            .unwrap_or(order.len() - 1);
        boards.push(Board::Bye(order.remove(at)));
    }
    let mut pairs = Vec::new();
    if !pair_greedily(&order, &met, &mut pairs) {
        return Err(PairingError::NoPairingLeft);
    }
    let mut games: Vec<Board> = pairs
        .into_iter()
        .map(|(high, low)| {
            let (white, black) = if whites[usize::from(high.0)] <= whites[usize::from(low.0)] {
                (high, low)
            } else {
                (low, high)
            };
            Board::Game {
                white,
                black,
                score: None,
            }
        })
        .collect();
    games.append(&mut boards);
    Ok(Round { boards: games })
}

fn pair_greedily(
    left: &[Entry],
    met: &HashSet<(Entry, Entry)>,
    pairs: &mut Vec<(Entry, Entry)>,
) -> bool {
    let Some((&first, rest)) = left.split_first() else {
        return true;
    };
    for (i, &other) in rest.iter().enumerate() {
        if met.contains(&(first, other)) {
            continue;
        }
        let remaining: Vec<Entry> = rest
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &e)| e)
            .collect();
        pairs.push((first, other));
        if pair_greedily(&remaining, met, pairs) {
            return true;
        }
        pairs.pop();
    }
    false
}
