//! Who stands where: points, then the format's tie-breaks, then rating and entry.

use super::pairing::points;
use super::{Board, Entry, Field, Format, Round};

/// A tie-break, in the order the format applies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The sum of the opponents' points (half-points).
    Buchholz,
    /// Buchholz without the best and the worst opponent.
    MedianBuchholz,
    /// The opponents' points weighted by the score against each: half-points scored times the
    /// opponent's half-points (quarter-points; divide by 4 to show).
    SonnebornBerger,
    /// Points scored in the games among the players tied on points.
    DirectEncounter,
}

/// The tie-breaks of a format, in order.
pub fn tie_breaks(format: Format) -> &'static [TieBreak] {
    match format {
        Format::Swiss { .. } => &[
            TieBreak::Buchholz,
            TieBreak::MedianBuchholz,
            TieBreak::SonnebornBerger,
        ],
        Format::RoundRobin => &[TieBreak::SonnebornBerger, TieBreak::DirectEncounter],
    }
}

/// One round of one player, for the crosstable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundResult {
    /// Against `opponent`, with white or not, scoring `scored` half-points (`None` while in play).
    Played {
        opponent: Entry,
        white: bool,
        scored: Option<u32>,
    },
    Bye,
    /// Not paired that round (withdrawn, or a round robin opponent withdrawn).
    Unpaired,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub entry: Entry,
    /// 1-based; players level on points and every tie-break share a rank.
    pub rank: u16,
    pub points: u32,
    /// The values of [`tie_breaks`]' tie-breaks, in their order.
    pub tie_breaks: Vec<u32>,
    pub rounds: Vec<RoundResult>,
}

/// The standings after `played`, best first.
pub fn standings(format: Format, field: &Field, played: &[Round]) -> Vec<Standing> {
    let points = points(field, played);
    let n = field.players.len();
    let mut rounds: Vec<Vec<RoundResult>> = vec![Vec::new(); n];
    for round in played {
        let mut seen = vec![false; n];
        for board in &round.boards {
            match board {
                Board::Game {
                    white,
                    black,
                    score,
                } => {
                    let (w, b) = (usize::from(white.0), usize::from(black.0));
                    seen[w] = true;
                    seen[b] = true;
                    rounds[w].push(RoundResult::Played {
                        opponent: *black,
                        white: true,
                        scored: score.map(|s| s.white),
                    });
                    rounds[b].push(RoundResult::Played {
                        opponent: *white,
                        white: false,
                        scored: score.map(|s| s.black),
                    });
                }
                Board::Bye(e) => {
                    seen[usize::from(e.0)] = true;
                    rounds[usize::from(e.0)].push(RoundResult::Bye);
                }
            }
        }
        for (i, s) in seen.into_iter().enumerate() {
            if !s {
                rounds[i].push(RoundResult::Unpaired);
            }
        }
    }
    let opponents = |i: usize| {
        rounds[i].iter().filter_map(|r| match r {
            RoundResult::Played {
                opponent,
                scored: Some(s),
                ..
            } => Some((usize::from(opponent.0), *s)),
            _ => None,
        })
    };
    let mut lines: Vec<Standing> = (0..n)
        .map(|i| {
            let values = tie_breaks(format)
                .iter()
                .map(|tb| match tb {
                    TieBreak::Buchholz => opponents(i).map(|(o, _)| points[o]).sum(),
                    TieBreak::MedianBuchholz => {
                        let mut p: Vec<u32> = opponents(i).map(|(o, _)| points[o]).collect();
                        p.sort_unstable();
                        if p.len() > 2 {
                            p[1..p.len() - 1].iter().sum()
                        } else {
                            0
                        }
                    }
                    TieBreak::SonnebornBerger => opponents(i).map(|(o, s)| s * points[o]).sum(),
                    TieBreak::DirectEncounter => opponents(i)
                        .filter(|&(o, _)| points[o] == points[i])
                        .map(|(_, s)| s)
                        .sum(),
                })
                .collect();
            Standing {
                entry: field.players[i].entry,
                rank: 0,
                points: points[i],
                tie_breaks: values,
                rounds: rounds[i].clone(),
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        (b.points, &b.tie_breaks)
            .cmp(&(a.points, &a.tie_breaks))
            .then(
                field.players[usize::from(b.entry.0)]
                    .rating
                    .cmp(&field.players[usize::from(a.entry.0)].rating),
            )
            .then(a.entry.cmp(&b.entry))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0
            && (lines[i].points, &lines[i].tie_breaks)
                == (lines[i - 1].points, &lines[i - 1].tie_breaks)
        {
            lines[i - 1].rank
        } else {
            u16::try_from(i + 1).unwrap_or(u16::MAX)
        };
    }
    lines
}
