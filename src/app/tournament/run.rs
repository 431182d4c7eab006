//! Tournaments run by the bot: the use cases behind `/tournament …` and what happens by itself
//! between them — each round's games started as ordinary games in threads of the tournament's
//! channel, their results recorded as they end, the next round paired once the last game of a
//! round has ended, the final standings posted.
//!
//! Everything moves through [`App::advance_tournament`], which only looks at what is stored:
//! the tournament record and its games (archived when they ended, active while they go on,
//! gone when a moderator cancelled them). Whatever triggers it — a final board shown, a
//! command, the sweeper after a restart — it does the same, and it does each thing once:
//! every change of the record is a compare-and-swap on its version, a round is paired by the
//! one write that appends it, and a game is started only by whoever claimed its slot.

use super::pairing::{pair_round, rounds_in, PairingError};
use super::schedule::{parse_start, start_text, BadStart, START_LIMIT_DAYS};
use super::standings::{
    halves, quarters, standings, table, table_description, tie_breaks, TableWords, TieBreak,
};
use super::{Board, Entry, Field, Format, Player, Round, Score};
use crate::app::ballot::Opening;
use crate::app::challenge::GameStart;
use crate::app::deliver::{Delivery, Why};
use crate::app::i18n::{self, n, s, t, tr, u, Lang};
use crate::app::reply::{is_bidi_control, plain, Picture, Reply, UserText};
use crate::app::{seat_arg, storage_failed, Actor, Answer, App, Place};
use crate::engine::{ByColour, Color, Variant};
use crate::fl;
use crate::store::{Seat, StoreError, TournamentRecord};
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;

/// A claim on a game slot older than this is taken to be from a process that died while
/// starting the game: the slot may be claimed again (after checking the game was not made).
const STALE_CLAIM_MS: u64 = 10 * 60 * 1000;

/// How many times a change is built again when another process changed the tournament first.
const ATTEMPTS: usize = 8;

/// Discord's longest thread name.
const THREAD_NAME_LIMIT: usize = 100;

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Taking entries.
    Open,
    /// Rounds are being played.
    Running,
    /// Every round was played.
    Finished,
    /// Cancelled by its organiser (or its channel was deleted).
    Cancelled,
}

/// One game of a pairing: a single game, or one of a ballot mini-match's two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The game's id, reserved when the round was paired: the game is created with it, so
    /// it is found again whatever happened in between.
    pub game_id: u64,
    pub white: Entry,
    pub black: Entry,
    /// The ballot opening (`11-15 23-19 8-11`) the game starts with, if any.
    pub opening: Option<String>,
    /// The thread the game is played in, once started.
    pub channel: Option<u64>,
    /// When a process claimed the slot to start its game.
    pub claimed_at_ms: Option<u64>,
    /// The game's result for its own white and black, once it ended.
    pub result: Option<Score>,
}

/// What the app keeps of a tournament; the store keeps it as the record's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub name: String,
    pub variant: Variant,
    pub format: Format,
    /// Each game's time per move.
    pub move_time_ms: u64,
    /// Each pairing is two games on one three-move ballot, colours reversed (English).
    pub ballot: bool,
    /// The language of its announcements: its organiser's.
    pub lang: Lang,
    pub stage: Stage,
    pub field: Field,
    pub rounds: Vec<Round>,
    /// For each round, for each board, its games (none for a bye).
    pub games: Vec<Vec<Vec<Slot>>>,
    /// When the sweeper starts it by itself (ms since the epoch), if its organiser set a
    /// time; it can still be started by hand before. Last, and read as `None` from records
    /// written before it existed (see [`absent_at_the_end`]).
    #[serde(default, deserialize_with = "absent_at_the_end")]
    pub starts_at_ms: Option<u64>,
}

/// Reads an optional field added at the end of the stored state. postcard lays a struct out
/// as its fields one after the other, with no names and no length, so a record written
/// before the field existed simply ends where it would start: reading it there fails for
/// lack of bytes, and the field was not set. (serde's `default` alone does not do this:
/// postcard asks for every field of a struct.) A record that goes on after a bad value is
/// still refused, for the bytes left over.
fn absent_at_the_end<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(Option::<u64>::deserialize(d).unwrap_or(None))
}

impl Tournament {
    pub fn games_per_pairing(&self) -> u8 {
        if self.ballot {
            2
        } else {
            1
        }
    }

    /// How many rounds it has, for its field now.
    pub fn total_rounds(&self) -> u8 {
        rounds_in(self.format, self.field.players.len())
    }
}

pub type TournamentRec = TournamentRecord<Tournament>;

/// The options of `/tournament create`.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub name: String,
    pub variant: Variant,
    pub format: Format,
    pub move_time_ms: u64,
    pub ballot: bool,
    /// `start`: when it starts by itself, as typed (see [`super::schedule`]).
    pub start: Option<String>,
}

/// The most rounds a Swiss tournament may have when none is given.
pub const DEFAULT_SWISS_ROUNDS: u8 = 5;

/// The longest name a tournament may have.
pub const NAME_LIMIT: usize = 60;

/// A game's result in half-points for its white and black.
fn game_score(outcome: Option<crate::engine::Outcome>) -> Score {
    let (white, black) = match outcome.and_then(|o| o.winner()) {
        Some(Color::White) => (2, 0),
        Some(Color::Black) => (0, 2),
        None => (1, 1),
    };
    Score {
        white,
        black,
        forfeit: false,
    }
}

/// A board's score from its games' results, once every game has one.
fn board_score(white: Entry, slots: &[Slot]) -> Option<Score> {
    let mut score = Score {
        white: 0,
        black: 0,
        forfeit: true,
    };
    for slot in slots {
        let r = slot.result?;
        let (for_white, for_black) = if slot.white == white {
            (r.white, r.black)
        } else {
            (r.black, r.white)
        };
        score.white += for_white;
        score.black += for_black;
        score.forfeit &= r.forfeit;
    }
    Some(score)
}

/// A forfeit: `winner` scores every half-point of the game, the other none.
fn forfeit_for(slot: &Slot, winner: Option<Entry>) -> Score {
    let (white, black) = match winner {
        Some(w) if w == slot.white => (2, 0),
        Some(_) => (0, 2),
        None => (0, 0),
    };
    Score {
        white,
        black,
        forfeit: true,
    }
}

/// Half-points as people read them: `2½`, `3`, `0` — points, the one scale results are
/// shown in (a win 1, a draw ½).
pub fn points_text(half_points: u32) -> String {
    halves(half_points)
}

/// Whether a number of half-points reads as one point for grammar ("½ point", "1 point").
fn one_point(half_points: u32) -> bool {
    matches!(half_points, 1 | 2)
}

/// A tie-break's value as shown, in points as the picture shows it: Sonneborn–Berger is
/// counted in quarter-points (`12¾`).
fn tie_break_text(tb: TieBreak, value: u32) -> String {
    match tb.units_per_half_point() {
        2 => quarters(value),
        _ => halves(value),
    }
}

/// The id of a tie-break's short name in the Fluent files.
fn tie_break_id(tb: TieBreak) -> i18n::Msg<'static> {
    match tb {
        TieBreak::Buchholz => fl!("tb-buchholz"),
        TieBreak::MedianBuchholz => fl!("tb-median-buchholz"),
        TieBreak::SonnebornBerger => fl!("tb-sonneborn-berger"),
        TieBreak::DirectEncounter => fl!("tb-direct-encounter"),
    }
}

/// An entrant's name as a message's argument.
fn entrant_arg(lang: Lang, rec: &TournamentRec, e: Entry) -> fluent_bundle::FluentValue<'static> {
    match rec.entrants.get(usize::from(e.0)) {
        Some(seat) => seat_arg(lang, seat),
        None => s("?"),
    }
}

fn entrant_user(rec: &TournamentRec, e: Entry) -> Option<u64> {
    match rec.entrants.get(usize::from(e.0)) {
        Some(Seat::Human { user_id, .. }) => Some(*user_id),
        _ => None,
    }
}

/// The standings as lines of text, best first.
pub fn standings_text(rec: &TournamentRec) -> String {
    let st = &rec.state;
    let lang = st.lang;
    let lines = standings(st.format, &st.field, &st.rounds);
    let tbs = tie_breaks(st.format);
    let mut out = Vec::new();
    for line in lines {
        let breaks: Vec<String> = tbs
            .iter()
            .zip(&line.tie_breaks)
            .map(|(&tb, &v)| format!("{} {}", t(lang, tie_break_id(tb)), tie_break_text(tb, v)))
            .collect();
        let name = if line.withdrawn {
            s(tr(
                lang,
                fl!("tournament-name-withdrawn"),
                &[("name", entrant_arg(lang, rec, line.entry))],
            ))
        } else {
            entrant_arg(lang, rec, line.entry)
        };
        out.push(tr(
            lang,
            fl!("tournament-standing-line"),
            &[
                ("rank", n(line.rank)),
                ("name", name),
                ("points", s(points_text(line.points))),
                (
                    "unit",
                    s(if one_point(line.points) {
                        "one"
                    } else {
                        "other"
                    }),
                ),
                ("tiebreaks", s(breaks.join(", "))),
            ],
        ));
    }
    out.join("\n")
}

/// The standings as a picture (the crosstable: rank, name, points, tie-breaks, each round),
/// with its alt text; `None` if it could not be drawn (the text says it all). Names are drawn
/// as typed: a picture has no markup to escape.
pub fn standings_picture(rec: &TournamentRec) -> Option<Picture> {
    let st = &rec.state;
    let lang = st.lang;
    let title = standings_title(lang, rec, s(&st.name));
    let names: Vec<String> = (0..rec.entrants.len())
        .map(|i| match &rec.entrants[i] {
            Seat::Human { name, .. } => name.clone(),
            other => crate::app::seat_name(lang, other),
        })
        .collect();
    let words = TableWords {
        title,
        rank: t(lang, fl!("tournament-col-rank")),
        name: t(lang, fl!("tournament-col-name")),
        points: t(lang, fl!("tournament-col-points")),
        tie_breaks: tie_breaks(st.format)
            .iter()
            .map(|&tb| t(lang, tie_break_short_id(tb)))
            .collect(),
        bye: t(lang, fl!("tournament-col-bye")),
        white: t(lang, fl!("tournament-letter-white")),
        black: t(lang, fl!("tournament-letter-black")),
        withdrawn: t(lang, fl!("tournament-col-withdrawn")),
    };
    let table = table(st.format, &st.field, &st.rounds, &names, &words);
    let description = table_description(lang, &table);
    match crate::render::standings_png(&table) {
        Ok(png) => Some(Picture { png, description }),
        Err(e) => {
            tracing::warn!(error = %e, "the standings picture could not be drawn");
            None
        }
    }
}

/// The standings' title: before round 1, while a round is being played, or after the last
/// round played (`name`: the tournament's name as the title shows it).
fn standings_title(
    lang: Lang,
    rec: &TournamentRec,
    name: fluent_bundle::FluentValue<'static>,
) -> String {
    let rounds = &rec.state.rounds;
    match rounds.last() {
        Some(last) if !last.is_complete() => tr(
            lang,
            fl!("tournament-standings-title-playing"),
            &[("tournament", name), ("round", n(rounds.len() as u32))],
        ),
        _ => tr(
            lang,
            fl!("tournament-standings-title"),
            &[("tournament", name), ("round", n(rounds.len() as u32))],
        ),
    }
}

/// A tie-break's column header in the standings picture.
fn tie_break_short_id(tb: TieBreak) -> i18n::Msg<'static> {
    match tb {
        TieBreak::Buchholz => fl!("tb-buchholz-short"),
        TieBreak::MedianBuchholz => fl!("tb-median-buchholz-short"),
        TieBreak::SonnebornBerger => fl!("tb-sonneborn-berger-short"),
        TieBreak::DirectEncounter => fl!("tb-direct-encounter-short"),
    }
}

/// A round's pairings as lines of text.
fn pairings_text(rec: &TournamentRec, round: usize) -> String {
    let lang = rec.state.lang;
    let Some(r) = rec.state.rounds.get(round) else {
        return String::new();
    };
    let mut out = Vec::new();
    for (i, board) in r.boards.iter().enumerate() {
        let line = match board {
            Board::Game {
                white,
                black,
                score,
            } => {
                let result = match score {
                    Some(sc) => format!("{}–{}", points_text(sc.white), points_text(sc.black)),
                    None => t(lang, fl!("tournament-in-play")),
                };
                tr(
                    lang,
                    fl!("tournament-pairing-line"),
                    &[
                        ("board", n(i as u32 + 1)),
                        ("white", entrant_arg(lang, rec, *white)),
                        ("black", entrant_arg(lang, rec, *black)),
                        ("result", s(result)),
                    ],
                )
            }
            Board::Bye(e) => tr(
                lang,
                fl!("tournament-bye-line"),
                &[
                    ("board", n(i as u32 + 1)),
                    ("name", entrant_arg(lang, rec, *e)),
                ],
            ),
        };
        out.push(line);
    }
    out.join("\n")
}

/// A game's thread name: the tournament, the round and the players, as plain text on one
/// line within Discord's limit.
fn thread_name(rec: &TournamentRec, round: usize, slot: &Slot) -> String {
    let lang = rec.state.lang;
    let title = tr(
        lang,
        fl!("tournament-thread"),
        &[
            ("tournament", u(&rec.state.name)),
            ("round", n(round as u32 + 1)),
            ("white", entrant_arg(lang, rec, slot.white)),
            ("black", entrant_arg(lang, rec, slot.black)),
        ],
    );
    plain(&title)
        .chars()
        .filter(|&c| !is_bidi_control(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(THREAD_NAME_LIMIT)
        .collect()
}

/// Why `/tournament create`'s start time was refused.
fn bad_start(lang: Lang, bad: BadStart, text: &str, now_ms: u64) -> Answer {
    let said = match bad {
        BadStart::Unreadable => tr(
            lang,
            fl!("err-tournament-start-unreadable"),
            &[("text", u(text.trim()))],
        ),
        BadStart::Past => tr(
            lang,
            fl!("err-tournament-start-past"),
            &[("now", s(start_text(now_ms)))],
        ),
        BadStart::TooFar => tr(
            lang,
            fl!("err-tournament-start-far"),
            &[("days", n(START_LIMIT_DAYS as u32))],
        ),
    };
    Reply::refusal(said).into()
}

/// Why a tournament command was refused.
fn refusal(lang: Lang, id: i18n::Msg<'static>) -> Answer {
    Reply::refusal(t(lang, id)).into()
}

impl App {
    // ---- finding the tournament a command is about ----

    /// The channel a command about a tournament speaks of: the channel of the game thread it
    /// was typed in, or the channel itself.
    fn tournament_channel(&self, place: Place) -> u64 {
        match self.store.game_thread(place.channel_id) {
            Ok(Some(thread)) => thread.parent_channel_id,
            _ => place.channel_id,
        }
    }

    /// The tournament `id` names, or else the newest of the channel — the one still open or
    /// running when `live_only`.
    fn find_tournament(
        &self,
        lang: Lang,
        place: Place,
        id: Option<&str>,
        live_only: bool,
    ) -> Result<TournamentRec, Answer> {
        if let Some(text) = id.map(str::trim).filter(|t| !t.is_empty()) {
            let found = text
                .trim_start_matches('#')
                .parse::<u64>()
                .ok()
                .map(|id| self.store.tournament::<Tournament>(id));
            return match found {
                Some(Ok(Some(rec))) if rec.guild_id == place.guild_id => Ok(rec),
                Some(Err(e)) => Err(storage_failed(lang, &e).into()),
                _ => {
                    Err(
                        Reply::refusal(tr(lang, fl!("err-tournament-unknown"), &[("id", u(text))]))
                            .into(),
                    )
                }
            };
        }
        let channel = self.tournament_channel(place);
        let all = self
            .store
            .tournaments::<Tournament>()
            .map_err(|e| Answer::from(storage_failed(lang, &e)))?;
        all.into_iter()
            .filter_map(Result::ok)
            .rfind(|r| {
                r.channel_id == channel
                    && (!live_only || matches!(r.state.stage, Stage::Open | Stage::Running))
            })
            .ok_or_else(|| refusal(lang, fl!("err-no-tournament")))
    }

    /// Whether `actor` may run this tournament: its creator, a member with Manage Events or
    /// Manage Messages, or one with the server's organiser role (`/settings role`).
    fn is_organiser(&self, actor: &Actor, rec: &TournamentRec) -> bool {
        actor.user_id == rec.organiser
            || actor.can_manage_messages
            || actor.can_manage_events
            || self.holds_organiser_role(actor, rec.guild_id)
    }

    /// Applies `change` to the stored tournament and stores it, again from a fresh read when
    /// another process changed it first. `change` refuses with an answer (nothing stored).
    async fn change_tournament(
        &self,
        lang: Lang,
        id: u64,
        change: impl Fn(&mut TournamentRec) -> Result<Vec<u64>, Answer>,
    ) -> Result<TournamentRec, Answer> {
        for _ in 0..ATTEMPTS {
            let mut rec = match self.store.tournament::<Tournament>(id) {
                Ok(Some(rec)) => rec,
                Ok(None) => return Err(refusal(lang, fl!("err-no-tournament"))),
                Err(e) => return Err(storage_failed(lang, &e).into()),
            };
            let links = change(&mut rec)?;
            match self.store.update_tournament(&rec, &links).await {
                Ok(stored) => return Ok(stored),
                Err(StoreError::TournamentConflict { .. }) => continue,
                Err(e) => return Err(storage_failed(lang, &e).into()),
            }
        }
        Err(storage_failed(
            lang,
            &StoreError::KeptChanging {
                what: "the tournament",
            },
        )
        .into())
    }

    // ---- the commands ----

    /// `/tournament create`: a tournament taking entries in this channel, one at a time per
    /// channel.
    pub async fn tournament_create(
        &self,
        actor: &Actor,
        place: Place,
        new: NewTournament,
    ) -> Answer {
        let lang = actor.lang();
        let Some(guild_id) = place.guild_id else {
            return refusal(lang, fl!("err-tournament-server-only"));
        };
        let name = new.name.trim();
        if name.is_empty() || name.chars().count() > NAME_LIMIT {
            return Reply::refusal(tr(
                lang,
                fl!("err-tournament-name"),
                &[("limit", n(NAME_LIMIT as u32))],
            ))
            .into();
        }
        if new.ballot && new.variant != Variant::English {
            return refusal(lang, fl!("err-ballot-english-only"));
        }
        let now = self.now_ms();
        let starts_at_ms = match new.start.as_deref() {
            None => None,
            Some(text) => match parse_start(text, now) {
                Ok(at) => Some(at),
                Err(bad) => return bad_start(lang, bad, text, now),
            },
        };
        let channel = self.tournament_channel(place);
        if let Ok(running) = self.find_tournament(lang, place, None, true) {
            return Reply::refusal(tr(
                lang,
                fl!("err-tournament-channel-busy"),
                &[("name", u(&running.state.name)), ("id", s(running.id))],
            ))
            .into();
        }
        let id = match self.store.new_game_id() {
            Ok(id) => id,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let rec = TournamentRecord {
            id,
            version: 0,
            guild_id: Some(guild_id),
            channel_id: channel,
            organiser: actor.user_id,
            entrants: vec![],
            state: Tournament {
                name: name.to_string(),
                variant: new.variant,
                format: new.format,
                move_time_ms: new.move_time_ms,
                ballot: new.ballot,
                lang,
                stage: Stage::Open,
                field: Field::default(),
                rounds: vec![],
                games: vec![],
                starts_at_ms,
            },
        };
        if let Err(e) = self.store.create_tournament(&rec).await {
            return storage_failed(lang, &e).into();
        }
        tracing::info!("tournament {id} created in channel {channel}");
        let format = match new.format {
            Format::Swiss { rounds } => tr(
                lang,
                fl!("tournament-format-swiss"),
                &[("rounds", n(rounds))],
            ),
            Format::RoundRobin => t(lang, fl!("tournament-format-round-robin")),
        };
        let mut text = tr(
            lang,
            fl!("tournament-created"),
            &[
                ("name", u(name)),
                ("id", s(id)),
                ("organiser", u(&actor.name)),
                ("variant", s(i18n::variant_name(lang, new.variant))),
                ("format", s(format)),
                ("days", n((new.move_time_ms / 86_400_000) as u32)),
            ],
        );
        if let Some(at) = starts_at_ms {
            text.push('\n');
            text.push_str(&tr(
                lang,
                fl!("tournament-starts-at"),
                &[("when", s(start_text(at)))],
            ));
        }
        Reply::public(text).into()
    }

    /// `/tournament join`.
    pub async fn tournament_join(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, None, true) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let rating = self
            .store
            .player(actor.user_id)
            .ok()
            .flatten()
            .map_or(1500, |p| {
                p.variant(rec.state.variant).rating.rating.round() as i32
            });
        let joined = self
            .change_tournament(lang, rec.id, |rec| {
                if rec.state.stage != Stage::Open {
                    return Err(refusal(lang, fl!("err-tournament-started")));
                }
                if rec
                    .entrants
                    .iter()
                    .any(|s| matches!(s, Seat::Human { user_id, .. } if *user_id == actor.user_id))
                {
                    return Err(refusal(lang, fl!("err-tournament-joined-already")));
                }
                let entry = Entry(rec.entrants.len() as u16);
                rec.entrants.push(Seat::Human {
                    user_id: actor.user_id,
                    name: actor.name.clone(),
                });
                rec.state.field.players.push(Player {
                    entry,
                    rating,
                    withdrawn_from: None,
                });
                Ok(vec![])
            })
            .await;
        match joined {
            Ok(rec) => Reply::public(tr(
                lang,
                fl!("tournament-joined"),
                &[
                    ("name", u(&actor.name)),
                    ("tournament", u(&rec.state.name)),
                    ("count", n(rec.entrants.len() as u32)),
                ],
            ))
            .into(),
            Err(a) => a,
        }
    }

    /// `/tournament leave`: before the start, the entry goes; once it runs, the player is
    /// withdrawn (their games still to play are lost, later rounds pair without them).
    pub async fn tournament_leave(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, None, true) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let Some(entry) = rec
            .entrants
            .iter()
            .position(|s| matches!(s, Seat::Human { user_id, .. } if *user_id == actor.user_id))
        else {
            return refusal(lang, fl!("err-tournament-not-entered"));
        };
        if rec.state.stage == Stage::Running {
            return self
                .withdraw(lang, rec.id, Entry(entry as u16), &actor.name)
                .await;
        }
        let left = self
            .change_tournament(lang, rec.id, |rec| {
                if rec.state.stage != Stage::Open {
                    return Err(refusal(lang, fl!("err-tournament-started")));
                }
                let Some(i) = rec.entrants.iter().position(
                    |s| matches!(s, Seat::Human { user_id, .. } if *user_id == actor.user_id),
                ) else {
                    return Err(refusal(lang, fl!("err-tournament-not-entered")));
                };
                rec.entrants.remove(i);
                rec.state.field.players.remove(i);
                // Entries are numbered in entry order, with no gap.
                for (k, p) in rec.state.field.players.iter_mut().enumerate() {
                    p.entry = Entry(k as u16);
                }
                Ok(vec![])
            })
            .await;
        match left {
            Ok(rec) => Reply::public(tr(
                lang,
                fl!("tournament-left"),
                &[("name", u(&actor.name)), ("tournament", u(&rec.state.name))],
            ))
            .into(),
            Err(a) => a,
        }
    }

    /// `/tournament start` (its organiser, or Manage Events / Manage Messages): round 1 is
    /// paired; its games start as the answer is shown.
    pub async fn tournament_start(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, None, true) {
            Ok(r) => r,
            Err(a) => return a,
        };
        if !self.is_organiser(actor, &rec) {
            return refusal(lang, fl!("err-tournament-organiser-only"));
        }
        let ids = match self.reserve_ids(&rec.state, rec.entrants.len()) {
            Ok(ids) => ids,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let started = self
            .change_tournament(lang, rec.id, |rec| {
                if rec.state.stage != Stage::Open {
                    return Err(Reply::refusal(tr(
                        lang,
                        fl!("err-tournament-running-already"),
                        &[("round", n(rec.state.rounds.len() as u32))],
                    ))
                    .into());
                }
                if rec.entrants.len() < 3 {
                    return Err(Reply::refusal(tr(
                        lang,
                        fl!("err-tournament-too-few"),
                        &[("count", n(rec.entrants.len() as u32))],
                    ))
                    .into());
                }
                rec.state.stage = Stage::Running;
                self.pair_next(rec, &ids).map_err(|e| {
                    tracing::error!("tournament {}: round 1 not paired: {e}", rec.id);
                    refusal(lang, fl!("err-tournament-pairing"))
                })
            })
            .await;
        match started {
            Ok(rec) => {
                tracing::info!(
                    "tournament {} started with {} players",
                    rec.id,
                    rec.entrants.len()
                );
                let mut answer = Answer::from(self.round_announcement(&rec, 0));
                answer.tournament = Some(rec.id);
                answer
            }
            Err(a) => a,
        }
    }

    /// `/tournament standings`.
    pub fn tournament_standings(&self, actor: &Actor, place: Place, id: Option<&str>) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, id, false) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let title = standings_title(lang, &rec, u(&rec.state.name));
        let body = if rec.entrants.is_empty() {
            t(lang, fl!("tournament-no-players"))
        } else {
            standings_text(&rec)
        };
        let mut reply = Reply::public(body).with_title(title);
        if !rec.entrants.is_empty() {
            reply.image = standings_picture(&rec);
        }
        reply.into()
    }

    /// `/tournament pairings [round]`: the last round's, or the one asked for.
    pub fn tournament_pairings(
        &self,
        actor: &Actor,
        place: Place,
        round: Option<u8>,
        id: Option<&str>,
    ) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, id, false) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let played = rec.state.rounds.len();
        if played == 0 {
            return refusal(lang, fl!("err-tournament-not-started"));
        }
        let round = match round {
            None => played - 1,
            Some(r) if (1..=played).contains(&usize::from(r)) => usize::from(r) - 1,
            Some(r) => {
                return Reply::refusal(tr(
                    lang,
                    fl!("err-tournament-no-round"),
                    &[("round", n(r)), ("rounds", n(played as u32))],
                ))
                .into()
            }
        };
        let title = tr(
            lang,
            fl!("tournament-round-title"),
            &[
                ("tournament", u(&rec.state.name)),
                ("round", n(round as u32 + 1)),
            ],
        );
        Reply::public(pairings_text(&rec, round))
            .with_title(title)
            .into()
    }

    /// `/tournament withdraw player` (organiser).
    pub async fn tournament_withdraw(
        &self,
        actor: &Actor,
        place: Place,
        player: &crate::store::UserRef,
    ) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, None, true) {
            Ok(r) => r,
            Err(a) => return a,
        };
        if !self.is_organiser(actor, &rec) {
            return refusal(lang, fl!("err-tournament-organiser-only"));
        }
        let Some(entry) = rec
            .entrants
            .iter()
            .position(|s| matches!(s, Seat::Human { user_id, .. } if *user_id == player.user_id))
        else {
            return Reply::refusal(tr(
                lang,
                fl!("err-tournament-player-not-entered"),
                &[("name", u(&player.name))],
            ))
            .into();
        };
        if rec.state.stage == Stage::Open {
            // Before the start, withdrawing is leaving.
            let left = self
                .change_tournament(lang, rec.id, |rec| {
                    if rec.state.stage != Stage::Open || rec.entrants.len() <= entry {
                        return Err(refusal(lang, fl!("err-tournament-started")));
                    }
                    rec.entrants.remove(entry);
                    rec.state.field.players.remove(entry);
                    for (k, p) in rec.state.field.players.iter_mut().enumerate() {
                        p.entry = Entry(k as u16);
                    }
                    Ok(vec![])
                })
                .await;
            return match left {
                Ok(rec) => Reply::public(tr(
                    lang,
                    fl!("tournament-left"),
                    &[
                        ("name", u(&player.name)),
                        ("tournament", u(&rec.state.name)),
                    ],
                ))
                .into(),
                Err(a) => a,
            };
        }
        self.withdraw(lang, rec.id, Entry(entry as u16), &player.name)
            .await
    }

    /// Withdraws `entry` from a running tournament: their games of this round not yet
    /// ended are lost (the games under way cancelled), and they are paired no more.
    async fn withdraw(&self, lang: Lang, id: u64, entry: Entry, name: &str) -> Answer {
        let changed = self
            .change_tournament(lang, id, |rec| {
                if rec.state.stage != Stage::Running {
                    return Err(refusal(lang, fl!("err-tournament-not-running")));
                }
                let round = rec.state.rounds.len() as u8;
                let Some(p) = rec.state.field.players.get_mut(usize::from(entry.0)) else {
                    return Err(refusal(lang, fl!("err-tournament-not-entered")));
                };
                if p.withdrawn_from.is_some() {
                    return Err(refusal(lang, fl!("err-tournament-withdrawn-already")));
                }
                p.withdrawn_from = Some(round + 1);
                let current = rec.state.rounds.len() - 1;
                for (b, board) in rec.state.rounds[current].boards.iter_mut().enumerate() {
                    let Board::Game {
                        white,
                        black,
                        score,
                    } = board
                    else {
                        continue;
                    };
                    if score.is_some() || (*white != entry && *black != entry) {
                        continue;
                    }
                    let opponent = if *white == entry { *black } else { *white };
                    for slot in &mut rec.state.games[current][b] {
                        if slot.result.is_none() {
                            slot.result = Some(forfeit_for(slot, Some(opponent)));
                        }
                    }
                    *score = board_score(*white, &rec.state.games[current][b]);
                }
                Ok(vec![])
            })
            .await;
        let rec = match changed {
            Ok(rec) => rec,
            Err(a) => return a,
        };
        tracing::info!("tournament {id}: entry {} withdrawn", entry.0);
        // Their games under way end without a result: the tournament has scored them.
        let current = rec.state.rounds.len() - 1;
        for slot in rec.state.games[current].iter().flatten() {
            if slot.white != entry && slot.black != entry {
                continue;
            }
            let Some(channel) = slot.channel else {
                continue;
            };
            if let Ok(Some(game)) = self.store.active_game(channel) {
                if game.id == slot.game_id {
                    if let Err(e) = self.store.cancel_game(channel, game.moves.len()).await {
                        tracing::warn!("tournament {id}: game {} not cancelled: {e}", game.id);
                    }
                    self.game_changed(channel);
                }
            }
        }
        let mut answer = Answer::from(Reply::public(tr(
            lang,
            fl!("tournament-withdrawn"),
            &[("name", u(name)), ("tournament", u(&rec.state.name))],
        )));
        answer.tournament = Some(id);
        answer
    }

    /// `/tournament cancel` (organiser): no more rounds; the games under way go on as
    /// ordinary games.
    pub async fn tournament_cancel(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, None, true) {
            Ok(r) => r,
            Err(a) => return a,
        };
        if !self.is_organiser(actor, &rec) {
            return refusal(lang, fl!("err-tournament-organiser-only"));
        }
        let cancelled = self
            .change_tournament(lang, rec.id, |rec| {
                if !matches!(rec.state.stage, Stage::Open | Stage::Running) {
                    return Err(refusal(lang, fl!("err-tournament-not-running")));
                }
                rec.state.stage = Stage::Cancelled;
                Ok(vec![])
            })
            .await;
        match cancelled {
            Ok(rec) => {
                tracing::info!("tournament {} cancelled by {}", rec.id, actor.user_id);
                Reply::public(tr(
                    lang,
                    fl!("tournament-cancelled"),
                    &[("tournament", u(&rec.state.name)), ("name", u(&actor.name))],
                ))
                .into()
            }
            Err(a) => a,
        }
    }

    /// `/tournament pdn`: every game of the tournament so far, ended or in play, in one PDN
    /// file, each with the tournament as its `Event` and its round (`round.board`) as `Round`.
    pub fn tournament_pdn(&self, actor: &Actor, place: Place, id: Option<&str>) -> Answer {
        let lang = actor.lang();
        let rec = match self.find_tournament(lang, place, id, false) {
            Ok(r) => r,
            Err(a) => return a,
        };
        let mut games = Vec::new();
        for (r, boards) in rec.state.games.iter().enumerate() {
            for (b, slots) in boards.iter().enumerate() {
                for slot in slots {
                    let found = match self.store.archived_game(slot.game_id) {
                        Ok(Some(g)) => Some(g),
                        Ok(None) => slot
                            .channel
                            .and_then(|c| self.store.active_game(c).ok().flatten())
                            .filter(|g| g.id == slot.game_id),
                        Err(e) => return storage_failed(lang, &e).into(),
                    };
                    let Some(game_rec) = found else { continue };
                    let game = match crate::app::game_of(lang, &game_rec) {
                        Ok(g) => g,
                        Err(r) => return r.into(),
                    };
                    let mut tags = crate::app::info::pdn_tags(lang, &game_rec);
                    tags.event = Some(rec.state.name.clone());
                    tags.round = Some(format!("{}.{}", r + 1, b + 1));
                    // A resignation or a loss on time is the record's, not the moves'.
                    tags.result = Some(crate::engine::PdnResult::of(game_rec.outcome));
                    games.push(crate::engine::export_pdn(&game, &tags));
                }
            }
        }
        if games.is_empty() {
            return refusal(lang, fl!("err-tournament-no-games"));
        }
        let mut reply = Reply::public(tr(
            lang,
            fl!("tournament-pdn-attached"),
            &[
                ("tournament", u(&rec.state.name)),
                ("count", n(games.len() as u32)),
            ],
        ));
        reply.files.push(crate::app::Attachment {
            filename: format!("tournament-{}.pdn", rec.id),
            bytes: games.join("\n").into_bytes(),
            description: None,
        });
        reply.into()
    }

    // ---- pairing and the games ----

    /// Enough fresh game ids for any round of this field (ids are cheap; unused ones are
    /// simply skipped).
    fn reserve_ids(&self, st: &Tournament, players: usize) -> Result<Vec<u64>, StoreError> {
        let games = players.div_ceil(2) * usize::from(st.games_per_pairing());
        (0..games).map(|_| self.store.new_game_id()).collect()
    }

    /// Pairs the next round of a running tournament into `rec`, its games taking `ids`.
    /// Returns the games to link to the tournament.
    fn pair_next(&self, rec: &mut TournamentRec, ids: &[u64]) -> Result<Vec<u64>, PairingError> {
        let st = &mut rec.state;
        let round = pair_round(st.format, &st.field, &st.rounds)?;
        let mut ids = ids.iter().copied();
        let mut slots = Vec::new();
        let mut links = Vec::new();
        for board in &round.boards {
            let mut games = Vec::new();
            if let Board::Game { white, black, .. } = board {
                let opening = if st.ballot {
                    self.draw_ballot_opening().map(|o| o.to_string())
                } else {
                    None
                };
                for k in 0..st.games_per_pairing() {
                    let (w, b) = if k == 0 {
                        (*white, *black)
                    } else {
                        (*black, *white)
                    };
                    let Some(game_id) = ids.next() else {
                        return Err(PairingError::NoPairingLeft);
                    };
                    links.push(game_id);
                    games.push(Slot {
                        game_id,
                        white: w,
                        black: b,
                        opening: opening.clone(),
                        channel: None,
                        claimed_at_ms: None,
                        result: None,
                    });
                }
            }
            slots.push(games);
        }
        st.rounds.push(round);
        st.games.push(slots);
        Ok(links)
    }

    /// The message announcing round `round`'s pairings.
    fn round_announcement(&self, rec: &TournamentRec, round: usize) -> Reply {
        let lang = rec.state.lang;
        let title = tr(
            lang,
            fl!("tournament-round-title"),
            &[
                ("tournament", u(&rec.state.name)),
                ("round", n(round as u32 + 1)),
            ],
        );
        let mut reply = Reply::public(pairings_text(rec, round)).with_title(title);
        reply.channel = Some(rec.channel_id);
        // Every player of the round, each once (a board names two, a bye one).
        if let Some(r) = rec.state.rounds.get(round) {
            for board in &r.boards {
                let entries = match board {
                    Board::Game { white, black, .. } => vec![*white, *black],
                    Board::Bye(e) => vec![*e],
                };
                for user in entries.into_iter().filter_map(|e| entrant_user(rec, e)) {
                    if !reply.mention.contains(&user) {
                        reply.mention.push(user);
                    }
                }
            }
        }
        reply
    }

    /// A game of tournament `id` ended (its final board was shown, a moderator cancelled
    /// it): the tournament moves on.
    pub async fn tournament_game_ended(&self, game_id: u64, out: &dyn Delivery) {
        match self.store.tournament_of_game(game_id) {
            Ok(Some(id)) => self.advance_tournament(id, out).await,
            Ok(None) => {}
            Err(e) => tracing::warn!("cannot read the tournament of game {game_id}: {e}"),
        }
    }

    /// Every running tournament moves on: the sweeper's catch-up (rounds whose games ended
    /// while the bot was down); and every open one whose start time has come starts.
    pub async fn advance_tournaments(&self, out: &dyn Delivery) {
        let all = match self.store.tournaments::<Tournament>() {
            Ok(all) => all,
            Err(e) => {
                tracing::error!("cannot list the tournaments: {e}");
                return;
            }
        };
        let now = self.now_ms();
        for rec in all.into_iter().filter_map(Result::ok) {
            match rec.state.stage {
                Stage::Running => self.advance_tournament(rec.id, out).await,
                Stage::Open if rec.state.starts_at_ms.is_some_and(|at| at <= now) => {
                    self.start_on_time(rec.id, out).await
                }
                _ => {}
            }
        }
    }

    /// Tournament `id`'s start time has come: it starts by itself — round 1 paired and
    /// announced, its games started — or, with fewer than 3 players, it is cancelled and says
    /// so. Once, whichever process sweeps first: the change from `Open` is a compare-and-swap,
    /// and only the process whose change was stored posts. One started by hand before its time
    /// is no longer `Open`, and is left alone.
    async fn start_on_time(&self, id: u64, out: &dyn Delivery) {
        let now = self.now_ms();
        let mut ids = Vec::new();
        for _ in 0..ATTEMPTS {
            let mut rec = match self.store.tournament::<Tournament>(id) {
                Ok(Some(rec)) => rec,
                Ok(None) => return,
                Err(e) => {
                    tracing::error!("tournament {id}: cannot read it to start it: {e}");
                    return;
                }
            };
            let due = rec.state.starts_at_ms.is_some_and(|at| at <= now);
            if rec.state.stage != Stage::Open || !due {
                return;
            }
            let players = rec.entrants.len();
            let links = if players < 3 {
                rec.state.stage = Stage::Cancelled;
                vec![]
            } else {
                if ids.len() < players {
                    ids = match self.reserve_ids(&rec.state, players) {
                        Ok(ids) => ids,
                        Err(e) => {
                            tracing::error!("tournament {id}: no game ids to start it: {e}");
                            return;
                        }
                    };
                }
                rec.state.stage = Stage::Running;
                match self.pair_next(&mut rec, &ids) {
                    Ok(links) => links,
                    Err(e) => {
                        tracing::error!(
                            "tournament {id}: round 1 not paired at its start time: {e}"
                        );
                        return;
                    }
                }
            };
            match self.store.update_tournament(&rec, &links).await {
                Ok(rec) if rec.state.stage == Stage::Running => {
                    tracing::info!("tournament {id} started at its time with {players} players");
                    let announcement = self.round_announcement(&rec, 0);
                    self.publish(rec.channel_id, &announcement, out).await;
                    self.advance_tournament(id, out).await;
                    return;
                }
                Ok(rec) => {
                    tracing::info!(
                        "tournament {id} cancelled at its start time: {players} players"
                    );
                    let lang = rec.state.lang;
                    let notice = Reply::public(tr(
                        lang,
                        fl!("tournament-scheduled-too-few"),
                        &[
                            ("tournament", u(&rec.state.name)),
                            ("when", s(start_text(rec.state.starts_at_ms.unwrap_or(now)))),
                            ("count", n(players as u32)),
                        ],
                    ));
                    self.publish(rec.channel_id, &notice, out).await;
                    return;
                }
                Err(StoreError::TournamentConflict { .. }) => continue,
                Err(e) => {
                    tracing::error!("tournament {id}: not started at its time: {e}");
                    return;
                }
            }
        }
    }

    /// Brings tournament `id` up to date with its games: results recorded, the next round
    /// paired and announced once a round is complete, its games started, the final standings
    /// posted after the last round. Safe to run any number of times, from any process.
    ///
    /// Boxed: the boards it posts may end games (never in fact: a first board ends none),
    /// and a final board shown moves its tournament on, so the future names itself.
    pub fn advance_tournament<'a>(
        &'a self,
        id: u64,
        out: &'a dyn Delivery,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            for _ in 0..ATTEMPTS * 4 {
                match self.advance_step(id, out).await {
                    Ok(true) => continue,
                    Ok(false) => return,
                    Err(StoreError::TournamentConflict { .. }) => continue,
                    Err(e) => {
                        tracing::error!("tournament {id} could not move on: {e}");
                        return;
                    }
                }
            }
            tracing::warn!("tournament {id} kept changing; the sweeper will take it up");
        })
    }

    /// One step of [`App::advance_tournament`]; `Ok(true)` when there may be more to do.
    async fn advance_step(&self, id: u64, out: &dyn Delivery) -> Result<bool, StoreError> {
        let Some(mut rec) = self.store.tournament::<Tournament>(id)? else {
            return Ok(false);
        };
        if rec.state.stage != Stage::Running || rec.state.rounds.is_empty() {
            return Ok(false);
        }
        let current = rec.state.rounds.len() - 1;
        let now = self.now_ms();

        // 1. Results of the games that ended.
        let mut changed = false;
        let mut active: Option<Vec<(u64, u64)>> = None;
        for b in 0..rec.state.games[current].len() {
            for k in 0..rec.state.games[current][b].len() {
                let slot = &rec.state.games[current][b][k];
                if slot.result.is_some() {
                    continue;
                }
                if let Some(game) = self.store.archived_game(slot.game_id)? {
                    rec.state.games[current][b][k].result = Some(game_score(game.outcome));
                    changed = true;
                    continue;
                }
                let under_way = match active.as_ref() {
                    Some(a) => a,
                    None => active.insert(
                        self.store
                            .active_games()?
                            .into_iter()
                            .filter_map(Result::ok)
                            .map(|g| (g.id, g.channel_id))
                            .collect(),
                    ),
                };
                let found = under_way.iter().find(|(g, _)| *g == slot.game_id);
                let slot = &mut rec.state.games[current][b][k];
                match (found, slot.channel) {
                    (Some(_), Some(_)) => {}
                    (Some(&(_, channel)), None) => {
                        // Started by a process that stopped before recording it.
                        slot.channel = Some(channel);
                        changed = true;
                    }
                    (None, Some(channel)) => {
                        // It may have ended since the archive was read.
                        if let Some(game) = self.store.archived_game(slot.game_id)? {
                            slot.result = Some(game_score(game.outcome));
                            changed = true;
                            continue;
                        }
                        tracing::info!(
                            "tournament {id}: game {} in {channel} was cancelled; scored as lost by both",
                            slot.game_id
                        );
                        slot.result = Some(forfeit_for(slot, None));
                        changed = true;
                    }
                    (None, None) => {}
                }
            }
            if let Board::Game { white, score, .. } = &mut rec.state.rounds[current].boards[b] {
                if score.is_none() {
                    *score = board_score(*white, &rec.state.games[current][b]);
                }
            }
        }
        if changed {
            self.store.update_tournament(&rec, &[]).await?;
            return Ok(true);
        }

        // 2. A complete round: the next one, or the end.
        if rec.state.rounds[current].is_complete() {
            if rec.state.rounds.len() >= usize::from(rec.state.total_rounds()) {
                rec.state.stage = Stage::Finished;
                let rec = self.store.update_tournament(&rec, &[]).await?;
                tracing::info!("tournament {id} finished");
                self.post_final_standings(&rec, out).await;
                return Ok(false);
            }
            let ids = self.reserve_ids(&rec.state, rec.entrants.len())?;
            let links = match self.pair_next(&mut rec, &ids) {
                Ok(links) => links,
                Err(PairingError::NoPairingLeft) => {
                    // Fewer rounds than planned are left to pair (a small field, withdrawals):
                    // the tournament ends here.
                    rec.state.stage = Stage::Finished;
                    let rec = self.store.update_tournament(&rec, &[]).await?;
                    tracing::info!("tournament {id} finished early: no pairing left");
                    self.post_final_standings(&rec, out).await;
                    return Ok(false);
                }
                Err(e) => {
                    tracing::error!("tournament {id}: next round not paired: {e}");
                    return Ok(false);
                }
            };
            let rec = self.store.update_tournament(&rec, &links).await?;
            let announcement = self.round_announcement(&rec, rec.state.rounds.len() - 1);
            self.publish(rec.channel_id, &announcement, out).await;
            return Ok(true);
        }

        // 3. Games of this round not started yet: claim them, then start them.
        let mut claimed = Vec::new();
        for (b, games) in rec.state.games[current].iter_mut().enumerate() {
            for (k, slot) in games.iter_mut().enumerate() {
                let free = slot
                    .claimed_at_ms
                    .map_or(true, |at| now.saturating_sub(at) > STALE_CLAIM_MS);
                if slot.channel.is_none() && slot.result.is_none() && free {
                    slot.claimed_at_ms = Some(now);
                    claimed.push((b, k));
                }
            }
        }
        if claimed.is_empty() {
            return Ok(false);
        }
        let mut rec = self.store.update_tournament(&rec, &[]).await?;
        let mut started = Vec::new();
        for &(b, k) in &claimed {
            let slot = rec.state.games[current][b][k].clone();
            match self.start_tournament_game(&rec, current, &slot, out).await {
                Ok(channel) => started.push((b, k, channel)),
                Err(Why::Gone) => {
                    tracing::error!(
                        "tournament {id}: its channel {} is gone; the tournament is cancelled",
                        rec.channel_id
                    );
                    rec.state.stage = Stage::Cancelled;
                    break;
                }
                Err(_) => {
                    // Left claimed: taken up again once the claim is stale.
                }
            }
        }
        // Record where the games are; another writer may have come in between.
        for _ in 0..ATTEMPTS {
            let Some(mut fresh) = self.store.tournament::<Tournament>(id)? else {
                return Ok(false);
            };
            for &(b, k, channel) in &started {
                fresh.state.games[current][b][k].channel = Some(channel);
            }
            if rec.state.stage == Stage::Cancelled {
                fresh.state.stage = Stage::Cancelled;
            }
            match self.store.update_tournament(&fresh, &[]).await {
                Ok(_) => return Ok(false),
                Err(StoreError::TournamentConflict { .. }) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// Opens a game's thread in the tournament's channel and starts the game there; the
    /// thread's id.
    async fn start_tournament_game(
        &self,
        rec: &TournamentRec,
        round: usize,
        slot: &Slot,
        out: &dyn Delivery,
    ) -> Result<u64, Why> {
        let seat = |e: Entry| {
            rec.entrants
                .get(usize::from(e.0))
                .cloned()
                .unwrap_or(Seat::Deleted)
        };
        let players = ByColour::new(seat(slot.white), seat(slot.black));
        if players.white == Seat::Deleted || players.black == Seat::Deleted {
            tracing::warn!(
                "tournament {}: game {} has a deleted player",
                rec.id,
                slot.game_id
            );
            return Err(Why::Refused);
        }
        let name = thread_name(rec, round, slot);
        let thread = out.open_thread(rec.channel_id, &name).await.map_err(|e| {
            tracing::warn!(
                "tournament {}: no thread for game {}: {e}",
                rec.id,
                slot.game_id
            );
            e.why
        })?;
        let opening = slot.opening.as_deref().and_then(|o| Opening::parse(o).ok());
        let start = GameStart {
            lang: rec.state.lang,
            variant: rec.state.variant,
            opening,
            players,
            bot: None,
            move_time_ms: Some(rec.state.move_time_ms),
            note: None,
            thread_parent: Some(rec.channel_id),
            game_id: Some(slot.game_id),
        };
        let place = Place {
            guild_id: rec.guild_id,
            channel_id: thread,
        };
        let answer = self.start_game(place, start).await;
        for reply in answer.replies.iter().filter(|r| !r.is_private()) {
            self.publish(reply.channel.unwrap_or(thread), reply, out)
                .await;
        }
        Ok(thread)
    }

    /// The final standings, with the winner, in the tournament's channel.
    async fn post_final_standings(&self, rec: &TournamentRec, out: &dyn Delivery) {
        let lang = rec.state.lang;
        let lines = standings(rec.state.format, &rec.state.field, &rec.state.rounds);
        let winners: Vec<String> = lines
            .iter()
            .filter(|l| l.rank == 1)
            .map(|l| match rec.entrants.get(usize::from(l.entry.0)) {
                Some(Seat::Human { name, .. }) => UserText(name).to_string(),
                Some(other) => crate::app::seat_name(lang, other),
                None => String::new(),
            })
            .collect();
        let title = tr(
            lang,
            fl!("tournament-final-title"),
            &[("tournament", u(&rec.state.name))],
        );
        let text = format!(
            "{}\n{}",
            tr(
                lang,
                fl!("tournament-winner"),
                &[
                    ("names", s(winners.join(", "))),
                    ("count", n(winners.len() as u32)),
                ],
            ),
            standings_text(rec)
        );
        let mut reply = Reply::public(text).with_title(title);
        reply.image = standings_picture(rec);
        reply.mention = lines
            .iter()
            .filter(|l| l.rank == 1)
            .filter_map(|l| entrant_user(rec, l.entry))
            .collect();
        self.publish(rec.channel_id, &reply, out).await;
    }

    /// A three-move ballot opening from the deck, if it can be read.
    fn draw_ballot_opening(&self) -> Option<Opening> {
        self.draw_ballot().ok()
    }
}
