//! `/settings`: what a server's admins make of the bot there — the default variant, days per
//! move and threads of new games, the channels where games and tournaments start, the role
//! that organises, the language of the bot's public messages — and where those choices are
//! used: [`App::run`] reads them for every command run in a server.
//!
//! Discord offers `/settings` only to members with Manage Server (its default member
//! permissions), but a server can let anyone run it: the app checks Manage Server itself
//! before it changes anything ([`Actor::can_manage_guild`]).
//!
//! References to channels, roles and members are written `<#id>`, `<@&id>` and `<@id>`, the
//! way the front ends take them ([`channel_ref`]): Discord shows links there, which notify no
//! one (the bot allows no mention but the ones a reply asks for).

use super::commands::{
    ChannelRef, CommandId, PublicLanguage, RoleRef, SettingName, Settings as SettingsCommand,
    ThreadWanted,
};
use super::i18n::{self, n, s, t, tr, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{Reply, ReplyOutcome};
use super::{storage_failed, Actor, Answer, App, Place};
use crate::fl;
use crate::store::{Changed, ServerSettings, Setting, StoreError};
use std::time::Duration;

/// The most channels a server may name for games and tournaments: a list an admin can read.
pub const MAX_CHANNELS: usize = 25;

/// How the front ends show a reference to a channel (a link on Discord).
pub fn channel_ref(id: u64) -> String {
    format!("<#{id}>")
}

/// How the front ends show a reference to a role.
pub fn role_ref(id: u64) -> String {
    format!("<@&{id}>")
}

/// How the front ends show a reference to a member (by name, never notifying them).
pub fn member_ref(id: u64) -> String {
    format!("<@{id}>")
}

impl PublicLanguage {
    pub fn lang(self) -> Lang {
        match self {
            PublicLanguage::Spanish => Lang::Es,
            PublicLanguage::English => Lang::En,
        }
    }
}

/// Whether a command's answers are mostly seen by the whole channel: those are worded in the
/// server's language when it chose one (`/settings language`). The others answer the member
/// alone, in their own language.
pub(crate) const fn speaks_in_public(id: CommandId) -> bool {
    match id {
        CommandId::Challenge
        | CommandId::Play
        | CommandId::Move
        | CommandId::Board
        | CommandId::Resign
        | CommandId::Draw
        | CommandId::Undo
        | CommandId::Pdn
        | CommandId::Cancel
        | CommandId::Review
        | CommandId::TournamentCreate
        | CommandId::TournamentJoin
        | CommandId::TournamentLeave
        | CommandId::TournamentStart
        | CommandId::TournamentStandings
        | CommandId::TournamentPairings
        | CommandId::TournamentWithdraw
        | CommandId::TournamentCancel
        | CommandId::TournamentPdn
        | CommandId::Accept
        | CommandId::Decline => true,
        CommandId::Explain
        | CommandId::Rules
        | CommandId::Stats
        | CommandId::Leaderboard
        | CommandId::Help
        | CommandId::ForgetMe
        | CommandId::MyData
        | CommandId::Puzzle
        | CommandId::Settings
        | CommandId::Moves
        | CommandId::Quit => false,
    }
}

/// Whether a command starts a game or a tournament: only in the server's game channels.
pub(crate) const fn starts_something(id: CommandId) -> bool {
    matches!(
        id,
        CommandId::Challenge | CommandId::Play | CommandId::TournamentCreate
    )
}

impl App {
    /// Runs a use case (`run`, given who acts) in the server's language when it chose one and
    /// the answer is `public`; in the member's own otherwise. A refusal changes nothing (every
    /// use case checks before it writes) and is shown to the member alone: one worded in the
    /// server's language is asked again in theirs.
    pub(crate) async fn in_server_language<F, Fut>(
        &self,
        actor: &Actor,
        server: &ServerSettings,
        public: bool,
        run: F,
    ) -> Answer
    where
        F: Fn(Actor) -> Fut,
        Fut: std::future::Future<Output = Answer>,
    {
        let own = actor.lang();
        let Some(language) = server.language.value.filter(|&l| public && l != own) else {
            return run(actor.clone()).await;
        };
        let answer = run(Actor {
            locale: language.code().to_string(),
            ..actor.clone()
        })
        .await;
        let refused = !answer.replies.is_empty()
            && answer
                .replies
                .iter()
                .all(|r| r.outcome == ReplyOutcome::Refused);
        if refused {
            return run(actor.clone()).await;
        }
        answer
    }

    /// A click on a button or a choice in a menu: in the server's language when what it
    /// answers is seen by the channel (see [`App::in_server_language`]).
    pub async fn component(
        &self,
        actor: &Actor,
        place: Place,
        custom_id: &str,
        values: &[String],
    ) -> Answer {
        let public = ComponentId::parse(custom_id).is_some_and(|id| match id.action {
            Action::Accept
            | Action::Decline
            | Action::Rematch
            | Action::Resign
            | Action::DrawOffer
            | Action::DrawAccept
            | Action::DrawDecline
            | Action::Undo
            | Action::Move => true,
            // The board page's link is the member's own (a private answer).
            Action::Explain
            | Action::Board
            | Action::Piece
            | Action::ForgetConfirm
            | Action::ForgetCancel
            | Action::PuzzleMove
            | Action::ReviewPage
            | Action::ReviewGif => false,
        });
        let server = match public.then(|| self.server_settings(place.guild_id)) {
            Some(Ok(s)) => s,
            Some(Err(e)) => return storage_failed(actor.lang(), &e).into(),
            None => ServerSettings::default(),
        };
        self.in_server_language(actor, &server, public, |who| async move {
            self.component_as(&who, place, custom_id, values).await
        })
        .await
    }

    /// The settings of the server `guild_id`; the bot's defaults outside a server.
    pub fn server_settings(&self, guild_id: Option<u64>) -> Result<ServerSettings, StoreError> {
        match guild_id {
            Some(g) => self.store.server_settings(g),
            None => Ok(ServerSettings::default()),
        }
    }

    /// Whether `actor` has the organiser role of server `guild_id` (`/settings role`). A
    /// storage error is logged and counts as no: the member may try again.
    pub(crate) fn holds_organiser_role(&self, actor: &Actor, guild_id: Option<u64>) -> bool {
        let Some(guild) = guild_id else {
            return false;
        };
        match self.store.server_settings(guild) {
            Ok(s) => s
                .organiser_role
                .value
                .is_some_and(|role| actor.roles.contains(&role)),
            Err(e) => {
                tracing::warn!("server settings of {guild} unreadable: {e}");
                false
            }
        }
    }

    /// Why nothing may start in `place`, if nothing may: the server named other channels.
    /// A game thread the bot opened in one of them counts as that channel.
    pub(crate) fn start_refused(
        &self,
        lang: Lang,
        place: Place,
        server: &ServerSettings,
    ) -> Option<Reply> {
        let channels = server.channels.value.as_ref().filter(|c| !c.is_empty())?;
        if channels.contains(&place.channel_id) {
            return None;
        }
        if let Ok(Some(thread)) = self.store.game_thread(place.channel_id) {
            if channels.contains(&thread.parent_channel_id) {
                return None;
            }
        }
        let names: Vec<String> = channels.iter().map(|&c| channel_ref(c)).collect();
        Some(Reply::refusal(tr(
            lang,
            fl!("err-start-channel"),
            &[("channels", s(i18n::or_list(lang, &names)))],
        )))
    }

    /// Why `actor` may not create a tournament here, if not: the server named an organiser
    /// role, and they have neither it nor Manage Events.
    pub(crate) fn tournament_create_refused(
        &self,
        lang: Lang,
        actor: &Actor,
        server: &ServerSettings,
    ) -> Option<Reply> {
        let role = server.organiser_role.value?;
        if actor.can_manage_events || actor.roles.contains(&role) {
            return None;
        }
        Some(Reply::refusal(tr(
            lang,
            fl!("err-tournament-create-role"),
            &[("role", s(role_ref(role)))],
        )))
    }

    /// `/settings`: without options, the server's settings; with some, changes them (Manage
    /// Server only) and shows the result. Always privately: it is the admins' business.
    pub async fn settings_command(
        &self,
        actor: &Actor,
        place: Place,
        command: &SettingsCommand,
    ) -> Answer {
        let lang = actor.lang();
        let Some(guild) = place.guild_id else {
            return Reply::refusal(t(lang, fl!("err-settings-server-only"))).into();
        };
        let change = Change::of(command);
        if change.is_empty() {
            return match self.store.server_settings(guild) {
                Ok(settings) => self.settings_reply(lang, &settings, None).into(),
                Err(e) => storage_failed(lang, &e).into(),
            };
        }
        if !actor.can_manage_guild {
            return Reply::refusal(t(lang, fl!("err-settings-permission"))).into();
        }
        if let (Some(add), Some(remove)) = (change.add_channel, change.remove_channel) {
            if add == remove {
                return Reply::refusal(t(lang, fl!("err-settings-channel-both"))).into();
            }
        }
        let before = match self.store.server_settings(guild) {
            Ok(s) => s,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let listed = before.channels.value.as_ref().map_or(0, Vec::len);
        if let Some(ChannelRef(add)) = change.add_channel {
            let already = before.channels.value.iter().flatten().any(|&c| c == add);
            if !already && listed >= MAX_CHANNELS && change.reset != Some(SettingName::Channels) {
                return Reply::refusal(tr(
                    lang,
                    fl!("err-settings-too-many-channels"),
                    &[("limit", n(MAX_CHANNELS as u32))],
                ))
                .into();
            }
        }
        let (by, now) = (actor.user_id, self.now_ms());
        let stored = self
            .store
            .change_server_settings(guild, |s| change.apply(s, by, now))
            .await;
        match stored {
            Ok(settings) => {
                let note = change.role.map(|RoleRef(role)| {
                    tr(
                        lang,
                        fl!("settings-role-note"),
                        &[("role", s(role_ref(role)))],
                    )
                });
                self.settings_reply(lang, &settings, note).into()
            }
            Err(e) => storage_failed(lang, &e).into(),
        }
    }

    /// The settings as one message: a line per setting, with its value and its last change.
    fn settings_reply(&self, lang: Lang, settings: &ServerSettings, note: Option<String>) -> Reply {
        let default = |value: String| tr(lang, fl!("settings-default"), &[("shown", s(value))]);
        let yes_no = |b: bool| {
            t(
                lang,
                if b {
                    fl!("settings-yes")
                } else {
                    fl!("settings-no")
                },
            )
        };
        let mut lines = vec![
            line(
                lang,
                fl!("settings-variant"),
                &settings.variant,
                |&v| i18n::variant_name(lang, v),
                || default(i18n::variant_name(lang, Default::default())),
            ),
            line(
                lang,
                fl!("settings-days"),
                &settings.days_per_move,
                |&d| time_text(lang, Duration::from_secs(u64::from(d) * 86_400)),
                || default(time_text(lang, self.settings.move_time)),
            ),
            line(
                lang,
                fl!("settings-thread"),
                &settings.threads,
                |&b| yes_no(b),
                || default(yes_no(true)),
            ),
            line(
                lang,
                fl!("settings-channels"),
                &settings.channels,
                |list| {
                    let names: Vec<String> = list.iter().map(|&c| channel_ref(c)).collect();
                    i18n::and_list(lang, &names)
                },
                || t(lang, fl!("settings-all-channels")),
            ),
            line(
                lang,
                fl!("settings-role"),
                &settings.organiser_role,
                |&r| role_ref(r),
                || t(lang, fl!("settings-no-role")),
            ),
            line(
                lang,
                fl!("settings-language"),
                &settings.language,
                |&l| t(lang, &format!("choice-language-{}", l.code())),
                || t(lang, fl!("settings-own-language")),
            ),
        ];
        if let Some(note) = note {
            lines.push(String::new());
            lines.push(note);
        }
        Reply::private(lines.join("\n")).with_title(t(lang, fl!("settings-title")))
    }
}

/// "Default variant: Spanish draughts — changed by @ana on 2026-12-05 20:41 UTC".
fn line<T>(
    lang: Lang,
    label: i18n::Msg<'static>,
    setting: &Setting<T>,
    shown: impl Fn(&T) -> String,
    default: impl Fn() -> String,
) -> String {
    let value = setting.value.as_ref().map_or_else(&default, shown);
    let mut text = tr(lang, label, &[("shown", s(value))]);
    if let Some(Changed { by, at_ms }) = setting.changed {
        let when = s(when_text(at_ms));
        let changed = match by {
            Some(id) => tr(
                lang,
                fl!("settings-changed"),
                &[("who", s(member_ref(id))), ("when", when)],
            ),
            None => tr(lang, fl!("settings-changed-forgotten"), &[("when", when)]),
        };
        text.push_str(" — ");
        text.push_str(&changed);
    }
    text
}

/// A moment as every reader reads it alike: `2026-12-05 20:41 UTC`.
fn when_text(at_ms: u64) -> String {
    chrono::DateTime::from_timestamp_millis(at_ms as i64)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| "?".to_string())
}

/// A time per move in the largest unit that divides it ("3 days", "90 seconds").
fn time_text(lang: Lang, time: Duration) -> String {
    let secs = time.as_secs();
    let (count, unit) = [(86_400, "days"), (3_600, "hours"), (60, "minutes")]
        .into_iter()
        .find(|(size, _)| secs >= *size && secs % size == 0)
        .map_or((secs, "seconds"), |(size, unit)| (secs / size, unit));
    tr(
        lang,
        fl!("settings-time"),
        &[("count", n(count as f64)), ("unit", s(unit))],
    )
}

/// What one `/settings` asks to change.
#[derive(Clone, Copy, Debug, Default)]
struct Change {
    variant: Option<crate::engine::Variant>,
    days: Option<u8>,
    thread: Option<bool>,
    add_channel: Option<ChannelRef>,
    remove_channel: Option<ChannelRef>,
    role: Option<RoleRef>,
    language: Option<Lang>,
    reset: Option<SettingName>,
}

impl Change {
    fn of(c: &SettingsCommand) -> Change {
        Change {
            variant: c.variant,
            days: c.days.map(|d| d.get() as u8),
            thread: c.thread.map(|t| t == ThreadWanted::Yes),
            add_channel: c.channel_add,
            remove_channel: c.channel_remove,
            role: c.role,
            language: c.language.map(PublicLanguage::lang),
            reset: c.reset,
        }
    }

    fn is_empty(&self) -> bool {
        self.variant.is_none()
            && self.days.is_none()
            && self.thread.is_none()
            && self.add_channel.is_none()
            && self.remove_channel.is_none()
            && self.role.is_none()
            && self.language.is_none()
            && self.reset.is_none()
    }

    /// The change, made by `by` at `at`: a reset first, so that `reset:all variant:english`
    /// starts afresh with English.
    fn apply(&self, s: &mut ServerSettings, by: u64, at: u64) {
        let resets =
            |name: SettingName| matches!(self.reset, Some(r) if r == name || r == SettingName::All);
        if resets(SettingName::Variant) {
            s.variant.set(None, by, at);
        }
        if resets(SettingName::Days) {
            s.days_per_move.set(None, by, at);
        }
        if resets(SettingName::Thread) {
            s.threads.set(None, by, at);
        }
        if resets(SettingName::Channels) {
            s.channels.set(None, by, at);
        }
        if resets(SettingName::Role) {
            s.organiser_role.set(None, by, at);
        }
        if resets(SettingName::Language) {
            s.language.set(None, by, at);
        }
        if let Some(v) = self.variant {
            s.variant.set(Some(v), by, at);
        }
        if let Some(d) = self.days {
            s.days_per_move.set(Some(d), by, at);
        }
        if let Some(b) = self.thread {
            s.threads.set(Some(b), by, at);
        }
        if self.add_channel.is_some() || self.remove_channel.is_some() {
            let mut list = s.channels.value.clone().unwrap_or_default();
            if let Some(ChannelRef(c)) = self.add_channel {
                if !list.contains(&c) {
                    list.push(c);
                }
            }
            if let Some(ChannelRef(c)) = self.remove_channel {
                list.retain(|&x| x != c);
            }
            // No channel left is every channel: never an empty list.
            s.channels.set((!list.is_empty()).then_some(list), by, at);
        }
        if let Some(RoleRef(r)) = self.role {
            s.organiser_role.set(Some(r), by, at);
        }
        if let Some(l) = self.language {
            s.language.set(Some(l), by, at);
        }
    }
}
