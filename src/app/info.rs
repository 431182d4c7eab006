//! The commands that show things: `/board`, `/rules`, `/stats`, `/leaderboard`, `/pdn`,
//! `/help`, and `/cancel` for moderators.

use super::board::game_description;
use super::commands::{Surface, COMMANDS};
use super::i18n::{self, n, s, t, tr, u, Lang};
use super::reply::{Attachment, Reply};
use super::{game_of, seat_name, storage_failed, titles, Actor, Answer, App, Place, UserRef};
use crate::ai::Level;
use crate::app::scoring;
use crate::engine::{export_pdn, legal_notations, PdnTags, Variant, THREE_KINGS_MOVES};
use crate::fl;

impl App {
    /// `/board`: posts the current board again (the old one's controls go away).
    pub async fn board(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (rec, game) = match self.load(lang, place).await {
            Ok(l) => (l.rec, l.game),
            Err(r) => return r.into(),
        };
        Answer::one(self.board_reply(lang, &rec, &game, None))
    }

    /// `/board text:yes`: the board in words, privately (what a screen reader would read from
    /// the picture), with the legal moves while the game goes on.
    pub async fn board_text(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (rec, game) = match self.load(lang, place).await {
            Ok(l) => (l.rec, l.game),
            Err(r) => return r.into(),
        };
        let mut text = game_description(lang, &rec, &game, None);
        if !game.is_over() {
            let moves: Vec<String> = legal_notations(game.position())
                .into_iter()
                .map(|(_, m)| m)
                .collect();
            text.push('\n');
            text.push_str(&tr(
                lang,
                fl!("legal-moves"),
                &[("moves", s(moves.join(", ")))],
            ));
        }
        // No title: the words begin with the variant already, and a screen reader would read
        // it twice.
        Reply::private(text).into()
    }

    /// `/rules [variant]`.
    pub fn rules(&self, actor: &Actor, variant: Option<Variant>) -> Answer {
        let lang = actor.lang();
        let v = variant.unwrap_or_default();
        Reply::private(rules_text(lang, v))
            .with_title(i18n::variant_title(lang, v))
            .into()
    }

    /// `/help`: one line per command, from the command table.
    pub fn help(&self, actor: &Actor) -> Answer {
        self.help_with(actor, &[])
    }

    /// `/help` where the commands of `more` surfaces work too (the console's): theirs follow
    /// the others, and the footer comes last.
    pub fn help_with(&self, actor: &Actor, more: &[Surface]) -> Answer {
        let lang = actor.lang();
        let privacy = self.settings.privacy_url.as_deref();
        Reply::private(help_text_with(lang, more, privacy))
            .with_title(t(lang, fl!("help-title")))
            .into()
    }

    /// `/stats [user]`.
    pub fn stats(&self, actor: &Actor, user: Option<&UserRef>) -> Answer {
        let lang = actor.lang();
        let (id, name) = match user {
            Some(u) => (u.user_id, u.name.clone()),
            None => (actor.user_id, actor.name.clone()),
        };
        let record = match self.store.player(id) {
            Ok(r) => r,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let Some(record) = record else {
            return Reply::private(tr(lang, fl!("stats-none"), &[("name", u(&name))])).into();
        };
        let mut lines = vec![tr(lang, fl!("stats-title"), &[("name", u(&name))])];
        for v in Variant::ALL {
            let vr = record.variant(v);
            let people = vr.people;
            if people.games() > 0 {
                lines.push(tr(
                    lang,
                    fl!("stats-people"),
                    &[
                        ("variant", s(i18n::variant_title(lang, v))),
                        ("wins", n(people.wins)),
                        ("losses", n(people.losses)),
                        ("draws", n(people.draws)),
                        ("rating", n(vr.rating.rating.round())),
                    ],
                ));
            }
            for level in Level::ALL {
                let b = record.bot(v, level);
                if b.tally.games() > 0 {
                    lines.push(tr(
                        lang,
                        fl!("stats-bot"),
                        &[
                            ("variant", s(i18n::variant_title(lang, v))),
                            ("level", s(t(lang, &format!("level-{}", level.id())))),
                            ("wins", n(b.tally.wins)),
                            ("losses", n(b.tally.losses)),
                            ("draws", n(b.tally.draws)),
                            ("best", n(b.best_score.unwrap_or(0))),
                        ],
                    ));
                }
            }
            if let Some(title) = scoring::title(&record, v) {
                let best = record.bot(v, scoring::TITLE_LEVEL).best_score.unwrap_or(0);
                lines.push(titles::stats_line(lang, v, title, best));
            }
        }
        Reply::private(lines.join("\n")).into()
    }

    /// `/leaderboard [variant] [level]`: ratings between people, or best scores against a
    /// bot level, in this server.
    pub fn leaderboard(
        &self,
        actor: &Actor,
        place: Place,
        variant: Option<Variant>,
        level: Option<Level>,
    ) -> Answer {
        let lang = actor.lang();
        let Some(guild) = place.guild_id else {
            return Reply::refusal(t(lang, fl!("err-guild-only"))).into();
        };
        let v = variant.unwrap_or_default();
        let entries = match self.store.leaderboard(guild, v, level, 10) {
            Ok(e) => e,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let title = match level {
            Some(l) => tr(
                lang,
                fl!("leaderboard-bot-title"),
                &[
                    ("variant", s(i18n::variant_name(lang, v))),
                    ("level", s(t(lang, &format!("level-{}", l.id())))),
                ],
            ),
            None => tr(
                lang,
                fl!("leaderboard-title"),
                &[("variant", s(i18n::variant_name(lang, v)))],
            ),
        };
        if entries.is_empty() {
            return Reply::public(t(lang, fl!("leaderboard-empty")))
                .with_title(title)
                .into();
        }
        let mut lines = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            // Titles come from the player's record, not from this board's line: one source.
            let player_title = match self.store.player(e.user_id) {
                Ok(p) => p.and_then(|p| scoring::title(&p, v)),
                Err(e) => return storage_failed(lang, &e).into(),
            };
            lines.push(tr(
                lang,
                fl!("leaderboard-line"),
                &[
                    ("rank", n((i + 1) as f64)),
                    ("name", s(titles::titled_name(lang, &e.name, player_title))),
                    ("score", n(e.score)),
                    ("games", n(e.games as f64)),
                ],
            ));
        }
        Reply::public(lines.join("\n")).with_title(title).into()
    }

    /// `/pdn`: the channel's game (or its last finished one) as a `.pdn` file.
    pub async fn pdn(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let rec = match self.store.active_game(place.channel_id) {
            Ok(Some(r)) => Some(r),
            Ok(None) => match self.store.games_in_channel(place.channel_id, 1) {
                Ok(mut v) => v.pop(),
                Err(e) => return storage_failed(lang, &e).into(),
            },
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let Some(rec) = rec else {
            return Reply::refusal(t(lang, fl!("err-no-game"))).into();
        };
        let game = match game_of(lang, &rec) {
            Ok(g) => g,
            Err(r) => return r.into(),
        };
        let text = export_pdn(&game, &pdn_tags(lang, &rec));
        let mut reply = Reply::public(t(lang, fl!("pdn-attached")));
        reply.files.push(Attachment {
            filename: format!("damas-{}.pdn", rec.id),
            bytes: text.into_bytes(),
            description: None,
        });
        let subject = super::review::Subject::of_game(&rec, &game);
        if let Some(gif) = self.replay_gif(lang, &subject, &game).await {
            reply.text = t(lang, fl!("pdn-replay-attached"));
            reply.files.push(Attachment {
                filename: format!("damas-{}.gif", rec.id),
                bytes: gif,
                description: Some(super::board::replay_description(lang, &rec, &game)),
            });
        }
        Answer::one(reply)
    }

    /// `/cancel`: a member with Manage Messages (or the server's organiser role) ends a stuck
    /// game; it counts for no one.
    pub async fn cancel(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        if !actor.can_manage_messages && !self.holds_organiser_role(actor, place.guild_id) {
            return Reply::refusal(t(lang, fl!("err-cancel-permission"))).into();
        }
        let rec = match self.store.active_game(place.channel_id) {
            Ok(Some(r)) => r,
            Ok(None) => return Reply::refusal(t(lang, fl!("err-no-game"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let ply = rec.moves.len();
        let cancelled = self.store.cancel_game(place.channel_id, ply).await;
        self.game_changed(place.channel_id);
        match cancelled {
            Ok(true) => Answer {
                replies: vec![Reply::public(tr(
                    lang,
                    fl!("cancelled"),
                    &[("name", u(&actor.name))],
                ))],
                close_thread: self.thread_game_cancelled(&rec),
                tournament: self.store.tournament_of_game(rec.id).ok().flatten(),
                strip_board: match self.store.board_post(place.channel_id) {
                    Ok(Some(post)) if post.game_id == rec.id => {
                        Some((place.channel_id, post.message_id))
                    }
                    // Unknown: its buttons answer "that game is over" anyway.
                    _ => None,
                },
                ..Answer::default()
            },
            Ok(false) => Reply::refusal(t(lang, fl!("err-no-game"))).into(),
            Err(e) => storage_failed(lang, &e).into(),
        }
    }
}

/// The rules of a variant. The numbers (who starts, the draw limits) come from the engine's
/// values, so the text cannot drift from what the engine enforces.
pub fn rules_text(lang: Lang, v: Variant) -> String {
    tr(
        lang,
        &format!("rules-{}", v.id()),
        &[
            ("first", s(i18n::color_name(lang, v.first_player()))),
            ("moves", n(v.no_progress_limit() / 2)),
            ("three_kings", n(THREE_KINGS_MOVES)),
        ],
    )
}

/// Every command with its options and what it does, in the words of the command table.
pub fn help_text(lang: Lang) -> String {
    help_text_with(lang, &[], None)
}

/// [`help_text`] with the lines of the commands of `more` surfaces, then what the bot keeps
/// about people (linking the operator's privacy statement at `privacy_url`, when set), before
/// the footer.
pub fn help_text_with(lang: Lang, more: &[Surface], privacy_url: Option<&str>) -> String {
    let mut lines = help_lines(lang, Surface::Everywhere);
    for &surface in more.iter().filter(|&&s| s != Surface::Everywhere) {
        lines.extend(help_lines(lang, surface));
    }
    lines.push(match privacy_url {
        Some(url) => tr(lang, fl!("help-privacy-link"), &[("url", s(url))]),
        None => t(lang, fl!("help-privacy")),
    });
    lines.push(t(lang, fl!("help-footer")));
    lines.join("\n")
}

/// A line per command used on `surface`: its usage and what it does.
pub fn help_lines(lang: Lang, surface: Surface) -> Vec<String> {
    COMMANDS
        .iter()
        .filter(|c| c.surface == surface)
        .map(|c| {
            let what = t(lang, &c.description_id());
            format!("{} — {}", c.usage(lang), i18n::decapitalized(&what))
        })
        .collect()
}

/// A stored game's PDN tags: played here, on its day, by its players, from its opening.
/// A tournament's games change the event and add their round.
pub(crate) fn pdn_tags(lang: Lang, rec: &crate::store::GameRecord) -> PdnTags {
    PdnTags {
        event: Some("damas (Discord)".into()),
        site: None,
        date: Some(pdn_date(rec.created_at_ms)),
        white: Some(seat_name(lang, rec.seat(crate::engine::Color::White))),
        black: Some(seat_name(lang, rec.seat(crate::engine::Color::Black))),
        opening: rec
            .opening
            .as_ref()
            .map(|o| super::ballot::pdn_opening_tag(o)),
        ..PdnTags::default()
    }
}

/// `YYYY.MM.DD` (UTC) from a Unix time in milliseconds, as PDN's Date tag wants it.
pub fn pdn_date(ms: u64) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .map(|d| d.format("%Y.%m.%d").to_string())
        .unwrap_or_else(|| "????.??.??".to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn pdn_dates_are_civil_dates() {
        assert_eq!(super::pdn_date(0), "1970.01.01");
        // 2026-11-29 00:00 UTC
        assert_eq!(super::pdn_date(1_795_910_400_000), "2026.11.29");
        assert_eq!(super::pdn_date(951_782_400_000), "2000.02.29");
    }
}
