//! Who stands where: points, then the format's tie-breaks, then rating and entry. How byes,
//! forfeits and unplayed rounds count is in `docs/TOURNAMENTS.md`.

use super::pairing::{bye_worth, points};
use super::{Board, Entry, Field, Format, Round};
use crate::app::i18n::{n, s, t, tr, Lang};
use crate::fl;

/// A tie-break, in the order the format applies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The sum of the opponents' points (half-points), a virtual opponent standing in for
    /// each unplayed round.
    Buchholz,
    /// Buchholz without the best and the worst opponent.
    MedianBuchholz,
    /// The opponents' points weighted by the score against each: half-points scored times the
    /// opponent's half-points (quarter-points; divide by 4 to show).
    SonnebornBerger,
    /// Points scored in the games among the players tied on points and on every tie-break
    /// before this one (half-points).
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

impl TieBreak {
    /// How many of a value's units make one half-point as points are shown (Sonneborn–Berger
    /// multiplies two scores in half-points, so it counts quarter-points).
    pub fn units_per_half_point(self) -> u32 {
        match self {
            TieBreak::SonnebornBerger => 2,
            _ => 1,
        }
    }
}

/// One round of one player, for the crosstable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundResult {
    /// Against `opponent`, with white or not, scoring `scored` half-points (`None` while in
    /// play); `forfeit` when decided without play.
    Played {
        opponent: Entry,
        white: bool,
        scored: Option<u32>,
        forfeit: bool,
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
    /// Withdrawn from the tournament: still ranked by points, but after the players level
    /// on points who play on.
    pub withdrawn: bool,
    /// The values of [`tie_breaks`]' tie-breaks, in their order.
    pub tie_breaks: Vec<u32>,
    pub rounds: Vec<RoundResult>,
}

impl Standing {
    /// What decides a place, best first once reversed: points, then playing on, then the
    /// tie-breaks. Players equal in all of it share a rank.
    fn order_key(&self) -> (u32, bool, &[u32]) {
        (self.points, !self.withdrawn, &self.tie_breaks)
    }
}

/// Every player's round-by-round results, in entry order.
pub fn crosstable(field: &Field, played: &[Round]) -> Vec<Vec<RoundResult>> {
    let n = field.players.len();
    let mut rounds: Vec<Vec<RoundResult>> = vec![Vec::with_capacity(played.len()); n];
    for round in played {
        for line in rounds.iter_mut() {
            line.push(RoundResult::Unpaired);
        }
        for board in &round.boards {
            match board {
                Board::Game {
                    white,
                    black,
                    score,
                } => {
                    let forfeit = score.is_some_and(|s| s.forfeit);
                    let (w, b) = (usize::from(white.0), usize::from(black.0));
                    if let Some(slot) = rounds.get_mut(w).and_then(|l| l.last_mut()) {
                        *slot = RoundResult::Played {
                            opponent: *black,
                            white: true,
                            scored: score.map(|s| s.white),
                            forfeit,
                        };
                    }
                    if let Some(slot) = rounds.get_mut(b).and_then(|l| l.last_mut()) {
                        *slot = RoundResult::Played {
                            opponent: *white,
                            white: false,
                            scored: score.map(|s| s.black),
                            forfeit,
                        };
                    }
                }
                Board::Bye(e) => {
                    if let Some(slot) = rounds.get_mut(usize::from(e.0)).and_then(|l| l.last_mut())
                    {
                        *slot = RoundResult::Bye;
                    }
                }
            }
        }
    }
    rounds
}

/// The standings after `played`, best first.
pub fn standings(format: Format, field: &Field, played: &[Round]) -> Vec<Standing> {
    let points = points(field, played);
    let worth = bye_worth(played);
    let rounds = crosstable(field, played);
    let n = field.players.len();
    let ended = played.len() as u32;
    // What a round's result was for the player, and whether it was played over the board.
    let scored = |r: &RoundResult| match *r {
        RoundResult::Played {
            scored, forfeit, ..
        } => (scored, !forfeit),
        RoundResult::Bye => (Some(worth), false),
        RoundResult::Unpaired => (Some(0), false),
    };
    // An opponent's points as others' tie-breaks count them: each of their unplayed rounds
    // (a bye, a forfeit either way, a round unpaired) counts as a draw.
    let adjusted: Vec<u32> = rounds
        .iter()
        .map(|line| {
            line.iter()
                .map(|r| match scored(r) {
                    (Some(s), true) => s,
                    (Some(_), false) => worth / 2,
                    (None, _) => 0,
                })
                .sum()
        })
        .collect();
    // Each player's opponents' points and their own score against each, round by round: a
    // virtual opponent for an unplayed round, who had the player's points before it, scored
    // the rest of that round's pairing and drew every round after it.
    let opposition: Vec<Vec<(u32, u32)>> = (0..n)
        .map(|i| {
            let mut before = 0;
            let mut line = Vec::new();
            for (r, result) in rounds[i].iter().enumerate() {
                let (s, over_the_board) = scored(result);
                let Some(s) = s else { continue };
                let opponent = match result {
                    RoundResult::Played { opponent, .. } if over_the_board => {
                        adjusted[usize::from(opponent.0)]
                    }
                    _ => before + (worth - s.min(worth)) + worth / 2 * (ended - 1 - r as u32),
                };
                line.push((opponent, s));
                before += s;
            }
            line
        })
        .collect();
    let mut lines: Vec<Standing> = (0..n)
        .map(|i| Standing {
            entry: field.players[i].entry,
            rank: 0,
            points: points[i],
            withdrawn: field.players[i].withdrawn_from.is_some(),
            tie_breaks: Vec::new(),
            rounds: rounds[i].clone(),
        })
        .collect();
    for tie_break in tie_breaks(format) {
        let values: Vec<u32> = match tie_break {
            TieBreak::Buchholz => opposition
                .iter()
                .map(|o| o.iter().map(|x| x.0).sum())
                .collect(),
            TieBreak::MedianBuchholz => opposition
                .iter()
                .map(|o| {
                    let mut p: Vec<u32> = o.iter().map(|x| x.0).collect();
                    p.sort_unstable();
                    if p.len() > 2 {
                        p[1..p.len() - 1].iter().sum()
                    } else {
                        0
                    }
                })
                .collect(),
            TieBreak::SonnebornBerger => opposition
                .iter()
                .map(|o| o.iter().map(|&(opp, s)| opp * s).sum())
                .collect(),
            TieBreak::DirectEncounter => (0..n)
                .map(|i| {
                    let tied = |j: usize| {
                        lines[j].points == lines[i].points
                            && lines[j].tie_breaks == lines[i].tie_breaks
                    };
                    rounds[i]
                        .iter()
                        .filter_map(|r| match *r {
                            RoundResult::Played {
                                opponent,
                                scored: Some(s),
                                forfeit: false,
                                ..
                            } if tied(usize::from(opponent.0)) => Some(s),
                            _ => None,
                        })
                        .sum()
                })
                .collect(),
        };
        for (line, value) in lines.iter_mut().zip(values) {
            line.tie_breaks.push(value);
        }
    }
    let rating = |e: Entry| field.players[usize::from(e.0)].rating;
    lines.sort_by(|a, b| {
        b.order_key()
            .cmp(&a.order_key())
            .then(rating(b.entry).cmp(&rating(a.entry)))
            .then(a.entry.cmp(&b.entry))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && lines[i].order_key() == lines[i - 1].order_key() {
            lines[i - 1].rank
        } else {
            u16::try_from(i + 1).unwrap_or(u16::MAX)
        };
    }
    lines
}

/// The words of the standings picture, in the reader's language.
#[derive(Clone, Debug, Default)]
pub struct TableWords {
    /// The picture's title, e.g. "Club Swiss · after round 5 of 7".
    pub title: String,
    pub rank: String,
    pub name: String,
    pub points: String,
    /// One short header a tie-break of the format, in [`tie_breaks`]' order ("BH", "SB").
    pub tie_breaks: Vec<String>,
    /// A round's cell for a bye.
    pub bye: String,
    /// The letters of a round's cell for the colour played: "w" and "b" in English, "b"
    /// (blancas) and "n" (negras) in Spanish.
    pub white: String,
    pub black: String,
    /// The mark after a withdrawn player's name.
    pub withdrawn: String,
}

/// The standings as the picture's plain rows: `names[i]` is entry `i`'s display name. A round
/// reads "+5w" (won, against the player ranked 5th, with white; the colour's letter is
/// `words.white` or `words.black`), "=3b", "-2w"; a forfeit
/// "+5F" / "-5F"; a game in play "·5w"; a bye `words.bye`; a round not paired "–".
pub fn table(
    format: Format,
    field: &Field,
    played: &[Round],
    names: &[String],
    words: &TableWords,
) -> crate::render::StandingsTable {
    use crate::render::{Outcome, RoundCell, StandingsRow, StandingsTable};
    let lines = standings(format, field, played);
    let worth = bye_worth(played);
    let mut place = vec![0usize; field.players.len()];
    for (i, line) in lines.iter().enumerate() {
        place[usize::from(line.entry.0)] = i + 1;
    }
    let rows = lines
        .iter()
        .enumerate()
        .map(|(i, line)| StandingsRow {
            rank: if i > 0 && lines[i - 1].rank == line.rank {
                String::new()
            } else {
                line.rank.to_string()
            },
            name: {
                let name = names
                    .get(usize::from(line.entry.0))
                    .cloned()
                    .unwrap_or_default();
                if line.withdrawn {
                    format!("{name} {}", words.withdrawn)
                } else {
                    name
                }
            },
            points: halves(line.points),
            tie_breaks: tie_breaks(format)
                .iter()
                .zip(&line.tie_breaks)
                .map(|(tb, &v)| match tb.units_per_half_point() {
                    2 => quarters(v),
                    _ => halves(v),
                })
                .collect(),
            rounds: line
                .rounds
                .iter()
                .map(|r| match *r {
                    RoundResult::Played {
                        opponent,
                        white,
                        scored,
                        forfeit,
                    } => {
                        let at = place[usize::from(opponent.0)];
                        let (sign, outcome) = match scored {
                            None => ("·", Outcome::Other),
                            Some(s) if 2 * s > worth => ("+", Outcome::Won),
                            Some(s) if 2 * s == worth => ("=", Outcome::Drawn),
                            Some(_) => ("-", Outcome::Lost),
                        };
                        let colour = match (forfeit, white) {
                            (true, _) => "F",
                            (false, true) => words.white.as_str(),
                            (false, false) => words.black.as_str(),
                        };
                        RoundCell {
                            text: format!("{sign}{at}{colour}"),
                            outcome,
                        }
                    }
                    RoundResult::Bye => RoundCell {
                        text: words.bye.clone(),
                        outcome: Outcome::Won,
                    },
                    RoundResult::Unpaired => RoundCell {
                        text: "–".into(),
                        outcome: Outcome::Other,
                    },
                })
                .collect(),
        })
        .collect();
    StandingsTable {
        title: words.title.clone(),
        rank_header: words.rank.clone(),
        name_header: words.name.clone(),
        points_header: words.points.clone(),
        tie_break_headers: words.tie_breaks.clone(),
        rows,
    }
}

/// The standings picture in words, for whoever cannot see it: the title, then every player
/// (none left out) with their place and points, and, as room allows, their tie-breaks and
/// each round's cell with a legend. Within Discord's limit for a description: the rounds go
/// first, then the tie-breaks, then the names are cut shorter, all of them alike.
pub fn table_description(lang: Lang, table: &crate::render::StandingsTable) -> String {
    use crate::app::PICTURE_DESCRIPTION_LIMIT as LIMIT;
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let title = one_line(&table.title);
    // `compact`: "3. ana 4½" instead of "3. ana, 4½ points", for the largest fields.
    let describe = |tie_breaks: bool, rounds: bool, name_room: usize, compact: bool| {
        let mut rank = String::new();
        let players: Vec<String> = table
            .rows
            .iter()
            .map(|row| {
                if !row.rank.is_empty() {
                    rank.clone_from(&row.rank);
                }
                let mut name = one_line(&row.name);
                if name.chars().count() > name_room {
                    name = name.chars().take(name_room.saturating_sub(1)).collect();
                    name = format!("{}…", name.trim_end());
                }
                let points = match row.points.parse::<f64>() {
                    Ok(whole) => n(whole),
                    Err(_) => s(&row.points),
                };
                let mut line = if compact {
                    format!("{rank}. {name} {}", row.points)
                } else {
                    tr(
                        lang,
                        fl!("alt-standings-line"),
                        &[("rank", s(&rank)), ("name", s(name)), ("points", points)],
                    )
                };
                if tie_breaks {
                    for (header, value) in table.tie_break_headers.iter().zip(&row.tie_breaks) {
                        line.push_str(&format!(", {header} {value}"));
                    }
                }
                if rounds && !row.rounds.is_empty() {
                    let cells: Vec<String> = row
                        .rounds
                        .iter()
                        .map(|c| c.text.replace('-', "\u{2212}"))
                        .collect();
                    line.push_str(", ");
                    line.push_str(&tr(
                        lang,
                        fl!("alt-standings-rounds"),
                        &[("rounds", s(cells.join(" ")))],
                    ));
                }
                line
            })
            .collect();
        let mut text = tr(
            lang,
            fl!("alt-standings"),
            &[
                ("title", s(&title)),
                ("count", n(table.rows.len() as f64)),
                ("players", s(players.join("; "))),
            ],
        );
        if rounds && table.rows.iter().any(|r| !r.rounds.is_empty()) {
            text.push(' ');
            text.push_str(&t(lang, fl!("alt-standings-legend")));
        }
        text
    };
    let fits = |text: &String| text.chars().count() <= LIMIT;
    let longest = table
        .rows
        .iter()
        .map(|r| one_line(&r.name).chars().count())
        .max()
        .unwrap_or(0);
    [(true, true), (false, true), (true, false), (false, false)]
        .into_iter()
        .map(|(tie_breaks, rounds)| describe(tie_breaks, rounds, longest, false))
        .find(fits)
        .or_else(|| {
            [false, true].into_iter().find_map(|compact| {
                (4..longest)
                    .rev()
                    .map(|room| describe(false, false, room, compact))
                    .find(fits)
            })
        })
        .unwrap_or_else(|| crate::app::board::clipped(&describe(false, false, 4, true), LIMIT))
}

/// Half-points as points are written: "4½", "½", "0".
pub fn halves(v: u32) -> String {
    match (v / 2, v % 2) {
        (0, 1) => "½".into(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Quarter-points as Sonneborn–Berger is written: "12¾".
pub fn quarters(v: u32) -> String {
    let fraction = ["", "¼", "½", "¾"][(v % 4) as usize];
    match v / 4 {
        0 if !fraction.is_empty() => fraction.into(),
        whole => format!("{whole}{fraction}"),
    }
}
