//! `/my-data`: everything the bot keeps about the person who asks, as a JSON file sent to
//! them alone (docs/PRIVACY.md says what each part is).
//!
//! Only their own data: their record, ratings and leaderboard lines; their games, under way
//! and finished, each with its PDN; their puzzle record; the tournaments they entered or
//! organised, with their own results; their open challenges; the server settings they
//! changed. Other people appear only where they are part of the person's own data, as the
//! store keeps them there and as every member of the channel saw them: an opponent's id and
//! name in a game or a challenge of theirs, a tournament opponent's in their pairings.
//! Nobody else's record, rating, other games or standing is included.
//!
//! Ids are strings: Discord's ids are larger than a JSON number read as a double keeps
//! exactly. Times are UTC, RFC 3339.

use super::i18n::{n, t, tr, Lang};
use super::info::pdn_tags;
use super::reply::{Attachment, Reply};
use super::tournament::run::{Stage, Tournament, TournamentRec};
use super::tournament::standings::{standings, RoundResult};
use super::tournament::{Entry, Format};
use super::{storage_failed, Actor, Answer, App};
use crate::ai::Level;
use crate::engine::{export_pdn, Color, DrawReason, Outcome, PdnResult, Variant, WinReason};
use crate::fl;
use crate::store::{
    Challenge, GameRecord, OwnLine, PlayerRecord, PuzzlePlayer, Seat, StoreError, Tally,
};
use serde_json::{json, Map, Value};

/// The largest file sent: under Discord's 10 MiB for a bot's attachments. A longer history
/// leaves out its oldest finished games, and says how many.
pub const MY_DATA_LIMIT: usize = 8 * 1024 * 1024;

/// The version of the file's layout, in its `format` field.
pub const MY_DATA_FORMAT: u32 = 1;

impl App {
    /// `/my-data`: the file, privately.
    pub fn my_data(&self, actor: &Actor) -> Answer {
        let lang = actor.lang();
        let (data, games, left_out) = match self.my_data_within(lang, actor.user_id, MY_DATA_LIMIT)
        {
            Ok(d) => d,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let mut text = tr(lang, fl!("my-data-attached"), &[("games", n(games as f64))]);
        if left_out > 0 {
            text.push('\n');
            text.push_str(&tr(
                lang,
                fl!("my-data-left-out"),
                &[("count", n(left_out as f64))],
            ));
        }
        let mut reply = Reply::private(text).with_title(t(lang, fl!("my-data-title")));
        reply.files.push(Attachment {
            filename: format!("damas-my-data-{}.json", actor.user_id),
            bytes: data,
            description: None,
        });
        reply.into()
    }

    /// `/my-data`'s file of `user_id` in at most `limit` bytes (as long as their data but their
    /// finished games fits): its bytes, how many games it holds, and how many of the oldest
    /// finished games it leaves out to fit. Pretty-printed when that fits.
    pub fn my_data_within(
        &self,
        lang: Lang,
        user_id: u64,
        limit: usize,
    ) -> Result<(Vec<u8>, usize, usize), StoreError> {
        let store = &self.store;
        let under_way: Vec<Value> = store
            .games_under_way_of(user_id)?
            .iter()
            .map(|rec| self.game_json(lang, rec, user_id))
            .collect();
        let finished: Vec<Value> = store
            .games_of_player(user_id, usize::MAX)?
            .iter()
            .map(|rec| self.game_json(lang, rec, user_id))
            .collect();
        let tournaments: Vec<Value> = store
            .tournaments::<Tournament>()?
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|rec| tournament_json(&rec, user_id))
            .collect();
        let mut doc = json!({
            "format": MY_DATA_FORMAT,
            "made_at": time(self.now_ms()),
            "user_id": user_id.to_string(),
            "record": store.player(user_id)?.map(|p| record_json(&p)),
            "leaderboards": store
                .leaderboard_lines_of(user_id)?
                .iter()
                .map(line_json)
                .collect::<Vec<_>>(),
            "games_under_way": under_way,
            "finished_games": [],
            "puzzles": store.puzzle_player(user_id)?.map(|p| puzzle_json(&p)),
            "puzzle_leaderboards": store
                .puzzle_servers_of(user_id)?
                .iter()
                .map(|g| json!({ "server": g.to_string() }))
                .collect::<Vec<_>>(),
            "tournaments": tournaments,
            "open_challenges": store
                .challenges_of(user_id)?
                .iter()
                .map(|(channel, c)| challenge_json(*channel, c, user_id))
                .collect::<Vec<_>>(),
            "server_settings_changed": self.settings_changed_by(user_id)?,
        });
        let games = under_way_count(&doc) + finished.len();
        doc["finished_games"] = Value::Array(finished);
        let pretty = serde_json::to_vec_pretty(&doc).unwrap_or_default();
        if pretty.len() <= limit {
            return Ok((pretty, games, 0));
        }
        // Too big: compact, whose size is the sum of its parts, and without the oldest
        // finished games (the list is newest first) until it fits.
        let Value::Array(finished) = doc["finished_games"].take() else {
            return Ok((pretty, games, 0));
        };
        // Room for `"finished_games_left_out":N,`.
        let mut size = compact(&doc).len() + 64;
        let mut kept = 0;
        for game in &finished {
            let more = compact(game).len() + 1;
            if size + more > limit {
                break;
            }
            size += more;
            kept += 1;
        }
        let left_out = finished.len() - kept;
        doc["finished_games"] = Value::Array(finished.into_iter().take(kept).collect());
        doc["finished_games_left_out"] = json!(left_out);
        Ok((compact(&doc), games - left_out, left_out))
    }

    /// The server settings whose current value `user_id` set, one object each (server,
    /// setting, value, when): `/settings` keeps who last changed each (`/forget-me` drops it).
    fn settings_changed_by(&self, user_id: u64) -> Result<Vec<Value>, StoreError> {
        let mut out = Vec::new();
        for (guild, s) in self.store.server_settings_changed_by(user_id)? {
            let ids = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>();
            for (name, value, changed) in [
                (
                    "variant",
                    json!(s.variant.value.map(Variant::id)),
                    s.variant.changed,
                ),
                (
                    "days",
                    json!(s.days_per_move.value),
                    s.days_per_move.changed,
                ),
                ("thread", json!(s.threads.value), s.threads.changed),
                (
                    "channels",
                    json!(s.channels.value.as_deref().map(ids)),
                    s.channels.changed,
                ),
                (
                    "role",
                    json!(s.organiser_role.value.map(|r| r.to_string())),
                    s.organiser_role.changed,
                ),
                (
                    "language",
                    json!(s.language.value.map(Lang::code)),
                    s.language.changed,
                ),
            ] {
                if let Some(c) = changed.filter(|c| c.by == Some(user_id)) {
                    out.push(json!({
                        "server": guild.to_string(),
                        "setting": name,
                        "value": value,
                        "changed_at": time(c.at_ms),
                    }));
                }
            }
        }
        Ok(out)
    }

    /// One of the person's games: where, when, who, how it ended, and its PDN.
    fn game_json(&self, lang: Lang, rec: &GameRecord, user_id: u64) -> Value {
        let mine = |c: Color| rec.seat(c).user_id() == Some(user_id);
        let colour = match (mine(Color::White), mine(Color::Black)) {
            (true, true) => "both",
            (true, false) => "white",
            _ => "black",
        };
        let mut game = Map::new();
        game.insert("id".into(), json!(rec.id.to_string()));
        game.insert("server".into(), json!(rec.guild_id.map(|g| g.to_string())));
        game.insert("channel".into(), json!(rec.channel_id.to_string()));
        game.insert("variant".into(), json!(rec.variant.id()));
        game.insert("started".into(), json!(time(rec.created_at_ms)));
        let last = if rec.outcome.is_some() {
            "ended"
        } else {
            "last_move"
        };
        game.insert(last.into(), json!(time(rec.last_move_at_ms)));
        game.insert("your_colour".into(), json!(colour));
        game.insert("white".into(), seat_json(rec.seat(Color::White)));
        game.insert("black".into(), seat_json(rec.seat(Color::Black)));
        game.insert("result".into(), outcome_json(rec.outcome, rec, user_id));
        game.insert(
            "pdn_result".into(),
            json!(PdnResult::of(rec.outcome).text(rec.variant)),
        );
        game.insert("undo_used".into(), json!(rec.undo_used));
        game.insert("seconds_per_move".into(), json!(rec.move_time_ms / 1000));
        game.insert("opening".into(), json!(rec.opening));
        if let Ok(Some(id)) = self.store.tournament_of_game(rec.id) {
            game.insert("tournament".into(), json!(id.to_string()));
        }
        match rec.to_game() {
            Ok(g) => {
                let mut tags = pdn_tags(lang, rec);
                tags.result = Some(PdnResult::of(rec.outcome));
                game.insert("pdn".into(), json!(export_pdn(&g, &tags)));
            }
            // Kept as stored, so that nothing of it is missing from the file.
            Err(_) => {
                let moves: Vec<String> = rec.moves.iter().map(|m| m.to_string()).collect();
                game.insert("moves_as_stored".into(), json!(moves));
            }
        }
        Value::Object(game)
    }
}

fn compact(v: &Value) -> Vec<u8> {
    // A `Value` always serializes.
    serde_json::to_vec(v).unwrap_or_default()
}

fn under_way_count(doc: &Value) -> usize {
    doc["games_under_way"].as_array().map_or(0, Vec::len)
}

/// RFC 3339, UTC, to the second.
fn time(ms: u64) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(i64::try_from(ms).ok()?)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

fn seat_json(seat: &Seat) -> Value {
    match seat {
        Seat::Human { user_id, name } => {
            json!({ "kind": "person", "user_id": user_id.to_string(), "name": name })
        }
        Seat::Bot { level } => json!({ "kind": "computer", "level": level.id() }),
        Seat::Deleted => json!({ "kind": "deleted player" }),
    }
}

/// The game's end for the person: `null` while it goes on.
fn outcome_json(outcome: Option<Outcome>, rec: &GameRecord, user_id: u64) -> Value {
    let Some(outcome) = outcome else {
        return Value::Null;
    };
    match outcome {
        Outcome::Win { winner, reason } => {
            let won = rec.seat(winner).user_id() == Some(user_id);
            let how = match reason {
                WinReason::NoPieces => "no pieces left",
                WinReason::NoMoves => "no moves left",
                WinReason::Resignation => "resignation",
                WinReason::Abandoned => "abandoned",
                WinReason::Time => "time",
            };
            json!({
                "for_you": if won { "win" } else { "loss" },
                "winner": colour_id(winner),
                "how": how,
            })
        }
        Outcome::Draw { reason } => {
            let how = match reason {
                DrawReason::Agreement => "agreement",
                DrawReason::Repetition => "repetition",
                DrawReason::NoProgress => "no progress",
                DrawReason::ThreeKings => "three kings",
            };
            json!({ "for_you": "draw", "how": how })
        }
    }
}

fn colour_id(c: Color) -> &'static str {
    super::commands::colour_id(c)
}

fn tally_json(t: &Tally) -> Value {
    json!({ "wins": t.wins, "losses": t.losses, "draws": t.draws })
}

/// The player record: results, ratings and best scores per variant, and the servers whose
/// leaderboards list them.
fn record_json(p: &PlayerRecord) -> Value {
    let mut variants = Map::new();
    for v in Variant::ALL {
        let vr = p.variant(v);
        let mut computer = Map::new();
        for level in Level::ALL {
            let b = p.bot(v, level);
            if b.tally.games() == 0 && b.unranked_wins == 0 && b.best_score.is_none() {
                continue;
            }
            computer.insert(
                level.id().into(),
                json!({
                    "results": tally_json(&b.tally),
                    "best_score": b.best_score,
                    "wins_after_an_undo": b.unranked_wins,
                }),
            );
        }
        variants.insert(
            v.id().into(),
            json!({
                "against_people": tally_json(&vr.people),
                "rating": {
                    "rating": vr.rating.rating,
                    "deviation": vr.rating.deviation,
                    "volatility": vr.rating.volatility,
                },
                "against_the_computer": computer,
            }),
        );
    }
    json!({
        "name": p.name,
        "variants": variants,
        "leaderboard_servers": p.guilds.iter().map(|g| g.to_string()).collect::<Vec<_>>(),
    })
}

fn line_json(l: &OwnLine) -> Value {
    json!({
        "server": l.guild_id.to_string(),
        "variant": l.variant.id(),
        "board": l.level.map_or("people", Level::id),
        "name": l.name,
        "score": l.score,
        "games": l.games,
    })
}

fn puzzle_json(p: &PuzzlePlayer) -> Value {
    json!({
        "name": p.name,
        "rating": {
            "rating": p.rating.rating,
            "deviation": p.rating.deviation,
            "volatility": p.rating.volatility,
        },
        "solved": p.solved,
        "failed": p.failed,
        "streak": p.streak,
        "best_streak": p.best_streak,
        "puzzle_under_way": p.session.as_ref().map(|s| json!({
            "variant": s.variant.id(),
            "puzzle": s.puzzle_id,
            "moves_played": s.ply,
            "missed": s.missed,
            "server": (s.guild_id != 0).then(|| s.guild_id.to_string()),
        })),
    })
}

fn challenge_json(channel: u64, c: &Challenge, user_id: u64) -> Value {
    let (role, other) = if c.challenger.user_id == user_id {
        ("made", &c.challenged)
    } else {
        ("received", &c.challenger)
    };
    json!({
        "channel": channel.to_string(),
        "you": role,
        "other_player": { "user_id": other.user_id.to_string(), "name": other.name },
        "variant": c.variant.id(),
        "made_at": time(c.created_at_ms),
        "expires_at": time(c.expires_at_ms),
    })
}

/// A tournament the person entered or organised: what it is, their place and their own
/// rounds; `None` for any other.
fn tournament_json(rec: &TournamentRec, user_id: u64) -> Option<Value> {
    let entry = rec
        .entrants
        .iter()
        .position(|s| s.user_id() == Some(user_id));
    let organised = rec.organiser == user_id;
    if entry.is_none() && !organised {
        return None;
    }
    let st = &rec.state;
    let mut out = Map::new();
    out.insert("id".into(), json!(rec.id.to_string()));
    out.insert("name".into(), json!(st.name));
    out.insert("server".into(), json!(rec.guild_id.map(|g| g.to_string())));
    out.insert("channel".into(), json!(rec.channel_id.to_string()));
    out.insert("variant".into(), json!(st.variant.id()));
    out.insert(
        "format".into(),
        json!(match st.format {
            Format::Swiss { .. } => "swiss",
            Format::RoundRobin => "round-robin",
        }),
    );
    out.insert(
        "stage".into(),
        json!(match st.stage {
            Stage::Open => "open",
            Stage::Running => "running",
            Stage::Finished => "finished",
            Stage::Cancelled => "cancelled",
        }),
    );
    out.insert("you_organised_it".into(), json!(organised));
    if let Some(i) = entry {
        let me = Entry(i as u16);
        if let Some(Seat::Human { name, .. }) = rec.entrants.get(i) {
            out.insert("entered_as".into(), json!(name));
        }
        if let Some(line) = standings(st.format, &st.field, &st.rounds)
            .into_iter()
            .find(|l| l.entry == me)
        {
            out.insert("rank".into(), json!(line.rank));
            out.insert("points".into(), json!(f64::from(line.points) / 2.0));
            out.insert("withdrawn".into(), json!(line.withdrawn));
            let rounds: Vec<Value> = line
                .rounds
                .iter()
                .enumerate()
                .map(|(r, result)| round_json(rec, r + 1, result))
                .collect();
            out.insert("rounds".into(), Value::Array(rounds));
        }
        let games: Vec<String> = st
            .games
            .iter()
            .flatten()
            .flatten()
            .filter(|slot| slot.white == me || slot.black == me)
            .map(|slot| slot.game_id.to_string())
            .collect();
        out.insert("games".into(), json!(games));
    }
    Some(Value::Object(out))
}

fn round_json(rec: &TournamentRec, round: usize, result: &RoundResult) -> Value {
    match result {
        RoundResult::Played {
            opponent,
            white,
            scored,
            forfeit,
        } => json!({
            "round": round,
            "colour": if *white { "white" } else { "black" },
            "opponent": rec
                .entrants
                .get(usize::from(opponent.0))
                .map_or(Value::Null, seat_json),
            "points": scored.map(|s| f64::from(s) / 2.0),
            "forfeit": forfeit,
        }),
        RoundResult::Bye => json!({ "round": round, "bye": true }),
        RoundResult::Unpaired => json!({ "round": round, "unpaired": true }),
    }
}
