//! Routes commands, autocomplete and component clicks into the application layer, and
//! delivers its replies. No game logic lives here.
//!
//! Delivery rules (see the README's "Running the bot on Discord"):
//! - an interaction is answered within Discord's 3 s: work that has not finished after
//!   [`DEFER_AFTER`] is deferred first and completed by editing the original (commands) or by
//!   follow-ups (components);
//! - every call that shows a game is retried on Discord's transient failures
//!   ([`super::deliver`]); the move itself was stored once, before;
//! - when the interaction can no longer be answered, a public reply is posted in the channel;
//! - the bot's own moves are posted in the channel, whatever started them.

use super::attachments::Fetcher;
use super::channels::DiscordChannels;
use super::deliver::{self, with_retries, ALREADY_ACKNOWLEDGED, UNKNOWN_MESSAGE};
use super::health::Health;
use super::replay::{Admission, ReplayGuard};
use super::respond::{self, Rendered};
use super::shards::shard_of;
use super::webhook::HttpAnswer;
use super::BotConfig;
use crate::app::commands::{self, ArgValue, Command, Invocation, Upload, UploadError};
use crate::app::deliver::Delivery;
use crate::app::i18n::{self, Lang};
use crate::app::owed::BotTrigger;
use crate::app::{Actor, Answer, App, Place, Reply, ReplyOutcome, UserRef};
use crate::fl;
use crate::metrics::{self, Outcome};
use serenity::all::{
    ChannelId, ChannelType, CommandInteraction, ComponentInteraction, ComponentInteractionDataKind,
    Context, CreateAutocompleteResponse, CreateInteractionResponse,
    CreateInteractionResponseMessage, EventHandler, Guild, GuildChannel, GuildId, Http,
    Interaction, Member, Message, PartialGuildChannel, Permissions, Ready, ResolvedValue,
    ResumedEvent, UnavailableGuild, User,
};
use serenity::futures::FutureExt;
use serenity::gateway::{ConnectionStage, ShardStageUpdateEvent};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Work still running after this long is deferred, leaving ample time for the defer itself
/// (and its retries) inside Discord's 3 s.
pub const DEFER_AFTER: Duration = Duration::from_millis(800);
/// Discord refuses an interaction's first answer after this.
pub(crate) const DISCORD_DEADLINE: Duration = Duration::from_secs(3);
/// Discord refuses an interaction's first answer after 3 s; stop trying a little before.
const ANSWER_WINDOW: Duration = Duration::from_millis(2800);
/// How often, and how far apart, the message of an answer sent by HTTP is looked for again.
const HTTP_READ_BACK_TRIES: u32 = 10;
const HTTP_READ_BACK_WAIT: Duration = Duration::from_millis(200);

/// A slash command as the app's command table reads it; `None` for a name the table does
/// not know (a command left registered by an older version).
fn invocation(cmd: &CommandInteraction) -> Option<Invocation> {
    let options = cmd.data.options();
    let (spec, options) = match commands::find(&cmd.data.name) {
        Some(spec) => (spec, options),
        // A group's member: its one option is the subcommand, with the options inside.
        None => {
            let group = commands::find_group(&cmd.data.name)?;
            let sub = options.into_iter().next()?;
            let ResolvedValue::SubCommand(inner) = sub.value else {
                return None;
            };
            (commands::find_in_group(group, sub.name)?, inner)
        }
    };
    let mut invocation = Invocation::new(spec);
    for o in options {
        // Discord sends the registered (English) option names.
        let Some(option) = spec.option(o.name) else {
            continue;
        };
        let value = match o.value {
            ResolvedValue::String(s) => ArgValue::Text(s.to_string()),
            ResolvedValue::Integer(i) => ArgValue::Integer(i),
            // Fetched by [`Handler::fetch_files`] before the app sees it.
            ResolvedValue::Attachment(a) => ArgValue::File(Upload {
                filename: a.filename.clone(),
                content: Err(UploadError::Failed),
            }),
            ResolvedValue::User(u, m) => ArgValue::User(UserRef {
                user_id: u.id.get(),
                name: m
                    .and_then(|m| m.nick.clone())
                    .or_else(|| u.global_name.clone())
                    .unwrap_or_else(|| u.name.clone()),
                is_bot: u.bot,
            }),
            _ => continue,
        };
        invocation.args.push((option.name, value));
    }
    invocation.can_create_threads = can_create_threads(cmd);
    Some(invocation)
}

/// Whether the bot may open a public thread where a command was run: its permissions there
/// (the interaction's `app_permissions`) include Create Public Threads, and the channel is not
/// a thread itself (threads do not nest).
fn can_create_threads(cmd: &CommandInteraction) -> bool {
    let in_thread = cmd.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    });
    cmd.guild_id.is_some()
        && !in_thread
        && cmd
            .app_permissions
            .is_some_and(|p| p.contains(Permissions::CREATE_PUBLIC_THREADS))
}

pub struct Handler {
    pub app: App,
    /// Register the commands in this server only (instant updates while developing).
    pub guild_id: Option<u64>,
    /// See [`DEFER_AFTER`].
    pub defer_after: Duration,
    /// Fetches the files attached to commands.
    files: Fetcher,
    /// How many shards the bot runs in all, as the last READY said (for RESUMED, which does
    /// not say).
    shard_count: AtomicU32,
    /// The interactions already taken: none is acted on twice.
    pub replays: ReplayGuard,
    /// What `/readyz` reads (shards connected, the store, stopping).
    pub health: Arc<Health>,
}

fn display_name(user: &User, member: Option<&Member>) -> String {
    member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone())
}

fn actor(user: &User, member: Option<&Member>, locale: &str) -> Actor {
    Actor {
        user_id: user.id.get(),
        name: display_name(user, member),
        locale: locale.to_string(),
        can_manage_messages: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_messages()),
        can_manage_events: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_events()),
    }
}

/// The kind of interaction an answer goes back to.
#[derive(Clone, Copy)]
enum Source<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

/// The interaction an answer goes back to, and where its first answer goes: Discord's
/// callback endpoint (gateway), or the body of Discord's HTTP request (`damas serve`).
#[derive(Clone, Copy)]
struct Target<'a> {
    source: Source<'a>,
    http_answer: Option<&'a HttpAnswer>,
    /// Told once the answer is deferred, for work that edits the deferred answer meanwhile.
    deferred: Option<&'a tokio::sync::watch::Sender<bool>>,
    /// Set when the first answer reached Discord.
    answered: &'a FirstAnswer,
}

/// When an interaction's first answer (a message, a deferral, an acknowledgement) reached
/// Discord, if it has.
#[derive(Default)]
struct FirstAnswer(std::sync::OnceLock<Instant>);

impl FirstAnswer {
    fn at(&self) -> Option<Instant> {
        self.0.get().copied()
    }
}

impl Target<'_> {
    fn token(&self) -> &str {
        match self.source {
            Source::Command(c) => &c.token,
            Source::Component(c) => &c.token,
        }
    }

    fn channel_id(&self) -> ChannelId {
        match self.source {
            Source::Command(c) => c.channel_id,
            Source::Component(c) => c.channel_id,
        }
    }

    async fn respond(&self, http: &Http, r: CreateInteractionResponse) -> serenity::Result<()> {
        let sent = match (self.http_answer, self.source) {
            (Some(answer), _) => answer.send(r),
            (None, Source::Command(c)) => c.create_response(http, r).await,
            (None, Source::Component(c)) => c.create_response(http, r).await,
        };
        if sent.is_ok() {
            let _ = self.answered.0.set(Instant::now());
        }
        sent
    }

    /// The interaction's kind as metrics and logs name it: the command's name (from the
    /// app's table, so a bounded set), `component`, or `unknown`.
    fn kind(&self) -> &'static str {
        match self.source {
            Source::Command(c) => invocation(c).map_or("unknown", |inv| inv.command.key),
            Source::Component(_) => "component",
        }
    }
}

/// How often a review's progress may be shown: Discord allows a few edits a second per
/// interaction; once a second reads as live and leaves room for everything else.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Edits a review's deferred answer with its progress, at most once every
/// [`PROGRESS_EVERY`], from the moment the answer is deferred (there is nothing to edit
/// before: Discord answers "unknown message"), until the review ends (its sender is
/// dropped) or this task is aborted.
async fn show_review_progress(
    http: Arc<Http>,
    cmd: CommandInteraction,
    mut deferred: tokio::sync::watch::Receiver<bool>,
    mut progress: tokio::sync::watch::Receiver<(usize, usize)>,
    lang: Lang,
) {
    if deferred.wait_for(|d| *d).await.is_err() {
        return;
    }
    loop {
        tokio::time::sleep(PROGRESS_EVERY).await;
        if progress.changed().await.is_err() {
            return;
        }
        let (done, total) = *progress.borrow_and_update();
        let text = crate::app::review::progress_text(lang, done, total);
        let edit = serenity::all::EditInteractionResponse::new().content(text);
        if let Err(e) = cmd.edit_response(&http, edit).await {
            // Progress is a courtesy: the answer itself is delivered with retries.
            tracing::debug!("review progress not shown: {e}");
        }
    }
}

impl Handler {
    pub fn new(app: App, config: &BotConfig) -> Handler {
        Handler {
            health: Arc::new(Health::new(app.clone(), config.settings.store_check_time())),
            replays: ReplayGuard::new(app.clone()),
            app,
            guild_id: config.guild_id,
            defer_after: config.defer_after,
            files: Fetcher::new(config.api_proxy.as_deref(), config.settings.file_fetch_time),
            shard_count: AtomicU32::new(1),
        }
    }

    /// Runs a use case for an interaction and delivers its answer: deferred first if it takes
    /// long, retried while Discord fails, in the channel if the interaction is gone.
    async fn interact(
        &self,
        http: &Arc<Http>,
        target: Target<'_>,
        out: &Arc<dyn Delivery>,
        actor: &Actor,
        place: Place,
        work: impl std::future::Future<Output = Answer>,
    ) {
        let received = Instant::now();
        let lang = actor.lang();
        let mut work = std::pin::pin!(AssertUnwindSafe(work).catch_unwind());
        let mut deferred = false;
        let outcome = if self.defer_after.is_zero() {
            deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
            work.await
        } else {
            tokio::select! {
                done = &mut work => done,
                () = tokio::time::sleep(self.defer_after) => {
                    deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
                    work.await
                }
            }
        };
        let answer = match outcome {
            Ok(answer) => answer.for_actor(actor.user_id),
            Err(_) => {
                tracing::error!("a use case panicked in channel {}", place.channel_id);
                Reply::failure(i18n::t(lang, fl!("err-bot-failed"))).into()
            }
        };
        let counted = CountOnDrop {
            target,
            received,
            answer: &answer,
            shard: (target.http_answer.is_none())
                .then(|| shard_of(place.guild_id, self.shard_count.load(Ordering::Relaxed))),
        };
        // The body of Discord's HTTP request carries no files: a board (a picture) answered
        // by HTTP is deferred, then shown like any deferred answer.
        let has_files = |r: &Reply| r.image.is_some() || !r.files.is_empty();
        if target.http_answer.is_some()
            && !deferred
            && answer.replies.first().is_some_and(has_files)
        {
            deferred = self.defer(http, target, received + ANSWER_WINDOW).await;
        }
        self.deliver(http, out, target, &answer, deferred, received)
            .await;
        if let Some(board) = answer.strip_board {
            self.app.strip_board(board, &**out).await;
        }
        if let Some(end) = answer.close_thread.clone() {
            self.app.close_thread(end, &**out).await;
        }
        // Whatever happened, a game waiting for the bot gets its move (in the game's own
        // thread when one was just opened).
        let (trigger, bot_place) = match answer.bot_turn {
            Some(owed) => (BotTrigger::Owed, owed),
            None => (BotTrigger::Nudge, place),
        };
        drop(counted);
        self.app.start_bot_turn(out, bot_place, lang, trigger);
    }

    /// Tells Discord the answer is coming. Returns whether it took.
    async fn defer(&self, http: &Arc<Http>, target: Target<'_>, deadline: Instant) -> bool {
        let defer = || match target.source {
            // "The bot is thinking…", public: most answers are boards for everyone.
            Source::Command(_) => {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
            }
            Source::Component(_) => CreateInteractionResponse::Acknowledge,
        };
        let took =
            match with_retries("defer", Some(deadline), || target.respond(http, defer())).await {
                Ok(()) => true,
                Err(e) if deliver::json_code(&e) == Some(ALREADY_ACKNOWLEDGED) => true,
                Err(e) => {
                    tracing::warn!("could not defer an interaction: {e}");
                    false
                }
            };
        if let (true, Some(deferred)) = (took, target.deferred) {
            deferred.send_replace(true);
        }
        took
    }

    /// Shows an answer: the first reply as the interaction's response (or the completion of
    /// the deferred one), the rest as follow-ups; public replies go to the channel when the
    /// interaction cannot carry them.
    async fn deliver(
        &self,
        http: &Arc<Http>,
        out: &Arc<dyn Delivery>,
        target: Target<'_>,
        answer: &Answer,
        deferred: bool,
        received: Instant,
    ) {
        // Replies for another channel (a new game thread, a thread's parent) are posted there.
        let here = target.channel_id().get();
        let (local, elsewhere): (Vec<&Reply>, Vec<&Reply>) = answer
            .replies
            .iter()
            .partition(|r| r.channel.map_or(true, |c| c == here));
        self.deliver_here(http, &**out, target, &local, deferred, received)
            .await;
        for reply in elsewhere.into_iter().filter(|r| !r.is_private()) {
            let channel = reply.channel.unwrap_or(here);
            self.app.publish(channel, reply, &**out).await;
        }
    }

    /// [`Self::deliver`] for the replies shown where the interaction happened.
    async fn deliver_here(
        &self,
        http: &Arc<Http>,
        out: &dyn Delivery,
        target: Target<'_>,
        replies: &[&Reply],
        deferred: bool,
        received: Instant,
    ) {
        let mut replies = replies.iter().copied();
        let Some(first) = replies.next() else {
            self.acknowledge(http, target, deferred, received).await;
            return;
        };
        let shown = match (deferred, target.source) {
            (false, _) => self.respond_with(http, target, first, received).await,
            (true, Source::Command(c)) if !first.is_private() => {
                with_retries("complete a deferred answer", None, || {
                    c.edit_response(http, Rendered::new(first).edit_original())
                })
                .await
                .map(Some)
            }
            (true, Source::Command(c)) => {
                // A deferred answer is public; a private one goes out as an ephemeral
                // follow-up and the placeholder is removed.
                let sent = self.followup(http, target, first).await;
                if let Err(e) =
                    with_retries("remove a placeholder", None, || c.delete_response(http)).await
                {
                    tracing::debug!("could not remove a deferred placeholder: {e}");
                }
                sent.map(Some)
            }
            (true, Source::Component(_)) => self.followup(http, target, first).await.map(Some),
        };
        self.shown(out, target, first, shown).await;
        for reply in replies {
            let shown = self.followup(http, target, reply).await.map(Some);
            self.shown(out, target, reply, shown).await;
        }
    }

    /// The first reply as the interaction's own answer, then its message (for a board).
    async fn respond_with(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
        received: Instant,
    ) -> serenity::Result<Option<Message>> {
        let answered = with_retries(
            "answer an interaction",
            Some(received + ANSWER_WINDOW),
            || {
                let r = CreateInteractionResponse::Message(Rendered::new(reply).response());
                target.respond(http, r)
            },
        )
        .await;
        match answered {
            Ok(()) => {}
            // A retry after a lost answer: the first one had arrived.
            Err(e) if deliver::json_code(&e) == Some(ALREADY_ACKNOWLEDGED) => {}
            Err(e) => return Err(e),
        }
        // Boards, challenges and thread lines are remembered by their message (to strip,
        // close or complete later).
        if reply.board_of.is_none() && reply.challenge_of.is_none() && reply.line_of.is_none() {
            return Ok(None);
        }
        let read_back = || {
            with_retries("read an answer back", None, || {
                http.get_original_interaction_response(target.token())
            })
        };
        let mut message = read_back().await;
        // An answer in the body of Discord's HTTP request becomes a message only once Discord
        // has read that body, which may be a moment after this process wrote it.
        if target.http_answer.is_some() {
            for _ in 0..HTTP_READ_BACK_TRIES {
                match &message {
                    Err(e) if deliver::json_code(e) == Some(UNKNOWN_MESSAGE) => {
                        tokio::time::sleep(HTTP_READ_BACK_WAIT).await;
                        message = read_back().await;
                    }
                    _ => break,
                }
            }
        }
        message.map(Some)
    }

    async fn followup(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
    ) -> serenity::Result<Message> {
        with_retries("send a follow-up", None, || async {
            let m = Rendered::new(reply).followup();
            match target.source {
                Source::Command(c) => c.create_followup(http, m).await,
                Source::Component(c) => c.create_followup(http, m).await,
            }
        })
        .await
    }

    /// After a reply was (or was not) shown: a public reply the interaction could not carry
    /// goes to the channel; what was shown is recorded ([`App::shown`]).
    async fn shown(
        &self,
        out: &dyn Delivery,
        target: Target<'_>,
        reply: &Reply,
        shown: serenity::Result<Option<Message>>,
    ) {
        match shown {
            Ok(Some(m)) => self.app.shown(reply, m.id.get(), out).await,
            Ok(None) => {}
            Err(e) if reply.is_private() => tracing::warn!("a private reply was lost: {e}"),
            Err(e) => {
                tracing::warn!(
                    "the interaction could not show a reply ({e}); posting it in the channel"
                );
                self.app
                    .publish(target.channel_id().get(), reply, out)
                    .await;
            }
        }
    }

    /// An answer with nothing to say still answers the interaction.
    async fn acknowledge(
        &self,
        http: &Arc<Http>,
        target: Target<'_>,
        deferred: bool,
        received: Instant,
    ) {
        let result = match (deferred, target.source) {
            (true, Source::Component(_)) => Ok(()),
            (true, Source::Command(c)) => c.delete_response(http).await,
            (false, _) => {
                with_retries("acknowledge", Some(received + ANSWER_WINDOW), || {
                    let ack = match target.source {
                        Source::Component(_) => CreateInteractionResponse::Acknowledge,
                        Source::Command(_) => CreateInteractionResponse::Message(
                            Rendered::new(&Reply::private("✓")).response(),
                        ),
                    };
                    target.respond(http, ack)
                })
                .await
            }
        };
        if let Err(e) = result {
            tracing::warn!("could not acknowledge an interaction: {e}");
        }
    }

    async fn command(
        &self,
        http: &Arc<Http>,
        cmd: &CommandInteraction,
        http_answer: Option<&HttpAnswer>,
        act: bool,
    ) {
        let actor = actor(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let place = Place {
            guild_id: cmd.guild_id.map(GuildId::get),
            channel_id: cmd.channel_id.get(),
        };
        let (deferred_tx, deferred_rx) = tokio::sync::watch::channel(false);
        let out = DiscordChannels::port(http);
        let work = async {
            if !act {
                return unsure_answer(&actor);
            }
            let answer = self
                .dispatch_command(http, cmd, &actor, place, deferred_rx)
                .await;
            self.app.open_requested_thread(answer, &*out).await
        };
        let answered = FirstAnswer::default();
        let target = Target {
            source: Source::Command(cmd),
            http_answer,
            deferred: Some(&deferred_tx),
            answered: &answered,
        };
        self.interact(http, target, &out, &actor, place, work).await;
    }

    /// The use case a command names.
    async fn dispatch_command(
        &self,
        http: &Arc<Http>,
        cmd: &CommandInteraction,
        actor: &Actor,
        place: Place,
        deferred: tokio::sync::watch::Receiver<bool>,
    ) -> Answer {
        let mut inv = invocation(cmd);
        if let Some(inv) = &mut inv {
            self.fetch_files(cmd, inv).await;
        }
        let Some(inv) = inv else {
            tracing::warn!("unknown command {:?}", cmd.data.name);
            return self.app.help(actor);
        };
        match Command::read(&inv) {
            Some(Command::Review(review)) => {
                // A review takes seconds: its deferred answer shows the progress meanwhile.
                let (tx, rx) = tokio::sync::watch::channel((0, 0));
                let progress = move |done: usize, total: usize| {
                    let _ = tx.send((done, total));
                };
                let editor = tokio::spawn(show_review_progress(
                    http.clone(),
                    cmd.clone(),
                    deferred,
                    rx,
                    actor.lang(),
                ));
                let answer = self
                    .app
                    .review_requested(actor, place, review.request(), &progress)
                    .await;
                editor.abort();
                let _ = editor.await;
                answer
            }
            Some(command) => {
                self.app
                    .run(actor, place, command, inv.can_create_threads)
                    .await
            }
            None => self.app.run_command(actor, place, &inv).await,
        }
    }

    /// Fetches every file attached to a command, in place of the placeholders
    /// [`invocation`] left.
    async fn fetch_files(&self, cmd: &CommandInteraction, inv: &mut Invocation) {
        for o in cmd.data.options() {
            let ResolvedValue::Attachment(a) = o.value else {
                continue;
            };
            let Some(option) = inv.command.option(o.name) else {
                continue;
            };
            let upload = self
                .files
                .fetch(&a.filename, &a.url, u64::from(a.size))
                .await;
            for (name, value) in &mut inv.args {
                if *name == option.name {
                    *value = ArgValue::File(upload.clone());
                }
            }
        }
    }

    async fn autocomplete(
        &self,
        http: &Arc<Http>,
        cmd: &CommandInteraction,
        http_answer: Option<&HttpAnswer>,
    ) {
        let received = Instant::now();
        let place = Place {
            guild_id: cmd.guild_id.map(GuildId::get),
            channel_id: cmd.channel_id.get(),
        };
        let typed = cmd
            .data
            .autocomplete()
            .map(|a| a.value.to_string())
            .unwrap_or_default();
        let choices = self.app.autocomplete_move(place, &typed).await;
        let mut response = CreateAutocompleteResponse::new();
        for c in choices.into_iter().take(respond::MENU_OPTIONS_LIMIT) {
            response = response.add_string_choice(c.clone(), c);
        }
        let answered = FirstAnswer::default();
        let target = Target {
            source: Source::Command(cmd),
            http_answer,
            deferred: None,
            answered: &answered,
        };
        let sent = target
            .respond(http, CreateInteractionResponse::Autocomplete(response))
            .await;
        let outcome = match answered.at() {
            Some(at) => {
                metrics::answer_latency("autocomplete", at.duration_since(received));
                Outcome::Answered
            }
            None => Outcome::Late,
        };
        metrics::interaction("autocomplete", outcome);
        if let Err(e) = sent {
            // Autocomplete is a convenience: the next keystroke asks again.
            tracing::debug!("autocomplete answer failed: {e}");
        }
    }

    async fn component(
        &self,
        http: &Arc<Http>,
        c: &ComponentInteraction,
        http_answer: Option<&HttpAnswer>,
        act: bool,
    ) {
        let actor = actor(&c.user, c.member.as_ref(), &c.locale);
        let place = Place {
            guild_id: c.guild_id.map(GuildId::get),
            channel_id: c.channel_id.get(),
        };
        let values = match &c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => vec![],
        };
        let out = DiscordChannels::port(http);
        let work = async {
            if !act {
                return unsure_answer(&actor);
            }
            let answer = self
                .app
                .component(
                    &actor,
                    place,
                    respond::app_component_id(&c.data.custom_id),
                    &values,
                )
                .await;
            self.app.open_requested_thread(answer, &*out).await
        };
        let answered = FirstAnswer::default();
        let target = Target {
            source: Source::Component(c),
            http_answer,
            deferred: None,
            answered: &answered,
        };
        self.interact(http, target, &out, &actor, place, work).await;
    }

    /// After a (re)connection: the app makes every move the bot owes, and posts the boards
    /// that were stored but never shown (the process stopped in between). With `shard` (id,
    /// count), only in the games whose events arrive on that shard: each shard's READY
    /// catches up on its own servers, so N shards (in one process or many) never start a
    /// move N times.
    pub fn catch_up(&self, http: &Arc<Http>, shard: Option<(u32, u32)>, boards_too: bool) {
        let only = |guild| shard.map_or(true, |(id, count)| shard_of(guild, count) == id);
        self.app
            .catch_up(&DiscordChannels::port(http), only, boards_too);
    }

    /// Registers the slash commands, in the configured server or globally.
    pub async fn register_commands(&self, http: &Http) {
        let commands = super::commands::all();
        let result = match self.guild_id {
            Some(g) => GuildId::new(g).set_commands(http, commands).await,
            None => serenity::all::Command::set_global_commands(http, commands).await,
        };
        match result {
            Ok(c) => tracing::info!("registered {} commands", c.len()),
            Err(e) => tracing::error!("could not register the commands: {e}"),
        }
    }

    /// Whether `interaction` is to be acted on (see [`ReplayGuard`]); it counts as taken from
    /// now on. `over_http`: it came to the HTTP endpoint, not over the gateway.
    pub fn admit(&self, interaction: &Interaction, over_http: bool) -> Admission {
        self.replays.admit(interaction, over_http)
    }

    /// Answers one interaction that came over the gateway: once, however often it comes.
    pub async fn handle(&self, http: &Arc<Http>, interaction: Interaction) {
        match self.admit(&interaction, false) {
            Admission::Repeat => {
                tracing::info!("an interaction delivered again was not acted on twice");
            }
            admission => {
                self.handle_admitted(http, interaction, None, admission)
                    .await
            }
        }
    }

    /// Answers one interaction [`Self::admit`] let through, from the gateway or from the HTTP
    /// endpoint; `http_answer` is where the first answer goes in the latter case. When it is
    /// not known whether another process took it ([`Admission::Unsure`]), nothing is done and
    /// the person is told to try again.
    pub async fn handle_admitted(
        &self,
        http: &Arc<Http>,
        interaction: Interaction,
        http_answer: Option<&HttpAnswer>,
        admission: Admission,
    ) {
        let Some(_working) = self.app.work().start() else {
            // Shutting down: Discord will tell the user; the next process answers anew.
            tracing::warn!("stopping: an interaction came too late to be answered");
            return;
        };
        let act = match admission {
            Admission::First => true,
            Admission::Repeat => return,
            Admission::Unsure(e) => {
                tracing::error!("cannot tell whether an interaction was already taken: {e}");
                false
            }
        };
        match interaction {
            Interaction::Command(cmd) => self.command(http, &cmd, http_answer, act).await,
            Interaction::Autocomplete(cmd) => self.autocomplete(http, &cmd, http_answer).await,
            Interaction::Component(c) => self.component(http, &c, http_answer, act).await,
            _ => {}
        }
    }
}

/// Counts an interaction when its delivery ends (also if the task is cut short): its outcome
/// and first answer's latency in the metrics, and one log event (no user text, no token).
struct CountOnDrop<'a> {
    target: Target<'a>,
    received: Instant,
    answer: &'a Answer,
    /// The gateway shard it came on (`None` over HTTP).
    shard: Option<u32>,
}

impl Drop for CountOnDrop<'_> {
    fn drop(&mut self) {
        let first = self
            .target
            .answered
            .at()
            .map(|at| at.duration_since(self.received));
        let said = |o: ReplyOutcome| self.answer.replies.iter().any(|r| r.outcome == o);
        let outcome = match first {
            None => Outcome::Late,
            Some(latency) if latency > DISCORD_DEADLINE => Outcome::Late,
            Some(_) if said(ReplyOutcome::Failed) => Outcome::Failed,
            Some(_) if said(ReplyOutcome::Refused) => Outcome::Refused,
            Some(_) => Outcome::Answered,
        };
        let kind = self.target.kind();
        if let Some(latency) = first {
            metrics::answer_latency(kind, latency);
        }
        metrics::interaction(kind, outcome);
        tracing::info!(
            target: "damas::interaction",
            kind,
            outcome = outcome.label(),
            latency_ms = first.map(|l| l.as_millis() as u64),
            shard = self.shard,
            "interaction"
        );
    }
}

/// The answer to an interaction that may have been taken by another process: nothing was
/// done; try again.
fn unsure_answer(actor: &Actor) -> Answer {
    Reply::failure(i18n::t(actor.lang(), fl!("err-storage"))).into()
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let (id, count) = ready.shard.map_or((0, 1), |s| (s.id.0, s.total));
        tracing::info!("connected as {}, shard {id} of {count}", ready.user.name);
        self.health.shard(id, true);
        self.shard_count.store(count, Ordering::Relaxed);
        // Once per bot: the process that runs shard 0 registers the commands.
        if id == 0 {
            self.register_commands(&ctx.http).await;
        }
        // A new session: this process may have just started, so catch up on everything of
        // this shard.
        self.catch_up(&ctx.http, Some((id, count)), true);
    }

    async fn resume(&self, ctx: Context, _: ResumedEvent) {
        // The same process: its deliveries are still under way, only moves may be owed.
        let count = self.shard_count.load(Ordering::Relaxed);
        self.health.shard(ctx.shard_id.0, true);
        self.catch_up(&ctx.http, Some((ctx.shard_id.0, count)), false);
    }

    async fn shard_stage_update(&self, _: Context, update: ShardStageUpdateEvent) {
        let connected = update.new == ConnectionStage::Connected;
        self.health.shard(update.shard_id.0, connected);
    }

    async fn channel_delete(&self, _: Context, channel: GuildChannel, _: Option<Vec<Message>>) {
        self.app.channel_gone(channel.id.get()).await;
    }

    async fn thread_delete(
        &self,
        _: Context,
        thread: PartialGuildChannel,
        _: Option<GuildChannel>,
    ) {
        self.app.channel_gone(thread.id.get()).await;
    }

    async fn guild_delete(&self, _: Context, incomplete: UnavailableGuild, _: Option<Guild>) {
        // An outage makes a server unavailable for a while; only a removal ends its games.
        if !incomplete.unavailable {
            self.app.guild_gone(incomplete.id.get()).await;
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        self.handle(&ctx.http, interaction).await;
    }
}
