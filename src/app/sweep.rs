//! Time limits: nothing waits for ever. The front end calls [`App::sweep`] every
//! `DAMAS_SWEEP_EVERY`; it reminds a person to move once, at half their time, ends the game
//! as a loss on time at the limit (the bot never loses on time: its turns are owed work),
//! and closes challenges nobody answered. Channels, threads and servers that disappear take
//! their games with them, without a result. Finished games older than
//! `DAMAS_KEEP_GAMES_DAYS` leave the store ([`crate::store::retention`]).

use super::i18n::{n, s, t, tr, u};
use super::reply::{ChallengeRef, Reply};
use super::tournament::run::{Stage, Tournament};
use super::{seat_name, App, Place};
use crate::engine::{Outcome, WinReason};
use crate::fl;
use crate::metrics::SweepAction;
use crate::store::{GameRecord, Seat, StoreError};
use std::collections::BTreeSet;

/// Finished games removed in one pass at most: when retention is first turned on over a
/// large archive, the passes catch up a few hundred games at a time.
const OLD_GAMES_PER_SWEEP: usize = 500;

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// Something the sweeper found to show.
#[derive(Clone, Debug)]
pub enum Swept {
    /// A message for the channel: a reminder, or the final board of a game lost on time.
    Post { place: Place, reply: Reply },
    /// A challenge expired: its message (if it was recorded) says so and loses its buttons.
    ChallengeExpired {
        channel_id: u64,
        message_id: Option<u64>,
        reply: Reply,
    },
}

impl App {
    /// One pass over the active games and the open challenges, at the clock's `now`.
    pub async fn sweep(&self) -> Vec<Swept> {
        crate::metrics::sweep_run();
        let now = self.now_ms();
        let mut out = Vec::new();
        match self.store.active_games() {
            Ok(games) => {
                for rec in games.into_iter().filter_map(Result::ok) {
                    if let Some(swept) = self.sweep_game(rec, now).await {
                        out.push(swept);
                    }
                }
            }
            Err(e) => tracing::error!("sweep: cannot list the games: {e}"),
        }
        match self.store.open_challenges() {
            Ok(challenges) => {
                for (channel_id, c) in challenges {
                    if !c.is_expired(now) {
                        continue;
                    }
                    let taken = self
                        .store
                        .take_challenge(channel_id, |x| x.created_at_ms == c.created_at_ms)
                        .await;
                    match taken {
                        Ok(Some(c)) => {
                            let lang = c.lang;
                            let text = tr(
                                lang,
                                fl!("challenge-expired-notice"),
                                &[
                                    ("challenger", u(&c.challenger.name)),
                                    ("opponent", u(&c.challenged.name)),
                                ],
                            );
                            crate::metrics::sweep_action(SweepAction::ChallengeExpired);
                            out.push(Swept::ChallengeExpired {
                                channel_id,
                                message_id: c.message_id,
                                reply: Reply::public(text)
                                    .with_title(t(lang, fl!("challenge-title"))),
                            });
                        }
                        Ok(None) => {}
                        Err(e) => tracing::error!("sweep: challenge in {channel_id}: {e}"),
                    }
                }
            }
            Err(e) => tracing::error!("sweep: cannot list the challenges: {e}"),
        }
        if let Some(days) = self.settings.keep_games_days {
            self.remove_old_games(now, days).await;
        }
        out
    }

    /// Removes the finished games that ended more than `days` days before `now`; the games
    /// of a tournament only once it is over (finished or cancelled): a running one still
    /// reads its games.
    async fn remove_old_games(&self, now: u64, days: u32) {
        let ended_before = now.saturating_sub(u64::from(days) * DAY_MS);
        let over: BTreeSet<u64> = match self.store.tournaments::<Tournament>() {
            Ok(all) => all
                .into_iter()
                .filter_map(Result::ok)
                .filter(|t| matches!(t.state.stage, Stage::Finished | Stage::Cancelled))
                .map(|t| t.id)
                .collect(),
            Err(e) => {
                tracing::error!("sweep: cannot list the tournaments: {e}");
                return;
            }
        };
        match self
            .store
            .remove_finished_games(ended_before, &over, OLD_GAMES_PER_SWEEP)
            .await
        {
            Ok(removed) if removed.games > 0 => {
                crate::metrics::sweep_actions(SweepAction::OldGameRemoved, removed.games as u64);
                tracing::info!(
                    "removed {} finished games older than {days} days{}",
                    removed.games,
                    if removed.more_due {
                        "; more next time"
                    } else {
                        ""
                    }
                );
            }
            Ok(_) => {}
            Err(e) => tracing::error!("sweep: old games not removed: {e}"),
        }
    }

    /// A reminder or a loss on time for one game, if due.
    async fn sweep_game(&self, rec: GameRecord, now: u64) -> Option<Swept> {
        let mut game = rec.to_game().ok()?;
        if game.is_over() {
            return None;
        }
        let side = game.side_to_move();
        let Seat::Human { user_id, .. } = rec.seat(side).clone() else {
            return None;
        };
        let place = Place {
            guild_id: rec.guild_id,
            channel_id: rec.channel_id,
        };
        let lang = self.lang_of(&rec);
        let ply = game.ply();
        if now >= rec.deadline_ms() {
            let name = seat_name(lang, rec.seat(side));
            game.set_outcome(Some(Outcome::Win {
                winner: side.opposite(),
                reason: WinReason::Time,
            }));
            let last_move_at = rec.last_move_at_ms;
            let saved = self.save(rec, &game, ply).await;
            return match saved {
                Ok(mut rec) => {
                    // The game ended at its deadline, not at the sweep.
                    rec.last_move_at_ms = last_move_at;
                    crate::metrics::sweep_action(SweepAction::LossOnTime);
                    let headline = tr(lang, fl!("lost-on-time"), &[("name", u(name))]);
                    Some(Swept::Post {
                        place,
                        reply: self.board_reply(lang, &rec, &game, Some(headline)),
                    })
                }
                Err(StoreError::Conflict { .. }) => None,
                Err(e) => {
                    tracing::error!("sweep: game in {}: {e}", place.channel_id);
                    None
                }
            };
        }
        if now >= rec.reminder_due_ms() && rec.reminded_ply != Some(ply) {
            let (unit, count) = time_left(rec.deadline_ms().saturating_sub(now));
            match self.store.mark_reminded(rec.channel_id, rec.id, ply).await {
                Ok(true) => {
                    let mut reply = Reply::public(tr(
                        lang,
                        fl!("reminder"),
                        &[("unit", s(unit)), ("count", n(count as f64))],
                    ));
                    reply.mention = vec![user_id];
                    crate::metrics::sweep_action(SweepAction::Reminder);
                    return Some(Swept::Post { place, reply });
                }
                Ok(false) => return None,
                Err(e) => {
                    tracing::error!("sweep: reminder in {}: {e}", place.channel_id);
                    return None;
                }
            }
        }
        None
    }

    /// A channel or thread was deleted: its game ends without a result (nobody could play
    /// it) and its challenge goes.
    pub async fn channel_gone(&self, channel_id: u64) {
        if let Err(e) = self.store.cancel_games_in(|c| c == channel_id).await {
            tracing::error!("cannot cancel the game of deleted channel {channel_id}: {e}");
        }
        self.game_changed(channel_id);
        if let Err(e) = self.store.take_challenge(channel_id, |_| true).await {
            tracing::error!("cannot drop the challenge of deleted channel {channel_id}: {e}");
        }
    }

    /// The bot left (or was removed from) a server: every game there ends without a result.
    pub async fn guild_gone(&self, guild_id: u64) {
        let channels: Vec<u64> = match self.store.active_games() {
            Ok(games) => games
                .into_iter()
                .filter_map(Result::ok)
                .filter(|g| g.guild_id == Some(guild_id))
                .map(|g| g.channel_id)
                .collect(),
            Err(e) => {
                tracing::error!("cannot list the games of server {guild_id}: {e}");
                return;
            }
        };
        if let Err(e) = self.store.cancel_games_in(|c| channels.contains(&c)).await {
            tracing::error!("cannot cancel the games of server {guild_id}: {e}");
        }
        for channel in channels {
            self.game_changed(channel);
        }
    }

    /// The front end posted a challenge: remember its message, to edit it when it expires.
    pub async fn challenge_posted(&self, challenge: ChallengeRef, message_id: u64) {
        if let Err(e) = self
            .store
            .set_challenge_message(challenge.channel_id, challenge.created_at_ms, message_id)
            .await
        {
            tracing::warn!("challenge message not recorded: {e}");
        }
    }
}

/// The time left as the largest whole unit: ("hours", 5), ("minutes", 12)…
pub(crate) fn time_left(ms: u64) -> (&'static str, u64) {
    let minutes = ms / 60_000;
    if minutes >= 48 * 60 {
        ("days", minutes / (24 * 60))
    } else if minutes >= 120 {
        ("hours", minutes / 60)
    } else if minutes >= 1 {
        ("minutes", minutes)
    } else {
        ("seconds", (ms / 1000).max(1))
    }
}
