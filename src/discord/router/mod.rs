//! Discord's interactions into the application layer. No game logic lives here, and each
//! file only Discord's side of one concern:
//!
//! - `mod.rs` (this file): the [`Handler`], which takes an interaction once, routes a
//!   command, an autocomplete or a click to its use case, and registers the commands;
//! - [`read`]: what an interaction says, as the app's plain values (the command as its table
//!   reads it, who acts, with what permissions);
//! - [`answer`]: answering within Discord's rules (deferral, response, follow-ups, retries,
//!   the metrics of each interaction), as the app's `Respond` port: the app shows the
//!   answer and does the rest itself ([`App::serve`]);
//! - [`events`]: the gateway's events (connections, deleted channels and servers).
//!
//! Delivery rules (see docs/OPERATIONS.md, "When things go wrong"):
//! - an interaction is answered within Discord's 3 s: work that has not finished after
//!   [`DEFER_AFTER`] is deferred first and completed by editing the original (commands) or by
//!   follow-ups (components);
//! - every call that shows a game is retried on Discord's transient failures
//!   ([`super::deliver`]); the move itself was stored once, before;
//! - when the interaction can no longer be answered, a public reply is posted in the channel;
//! - the bot's own moves are posted in the channel, whatever started them.

mod answer;
mod events;
mod read;

use answer::{respond_once, FirstAnswer, Source, Target};
use read::{actor, invocation};

use super::attachments::Fetcher;
use super::channels::DiscordChannels;
use super::deliver::{self, with_retries, ALREADY_ACKNOWLEDGED, UNKNOWN_MESSAGE};
use super::health::Health;
use super::reach::{self, AnswerOnlyChannels};
use super::replay::{Admission, ReplayGuard};
use super::respond::{self, Rendered};
use super::shards::shard_of;
use super::webhook::HttpAnswer;
use super::BotConfig;
use crate::app::commands::{self, ArgValue, Command, Invocation, Upload, UploadError};
use crate::app::deliver::Delivery;
use crate::app::i18n::{self, Lang};
use crate::app::serve::{Respond, Shown};
use crate::app::{Actor, Answer, App, Place, Reply, ReplyOutcome, UserRef};
use crate::fl;
use crate::metrics::{self, Outcome};
use serenity::all::{
    AuthorizingIntegrationOwners, ChannelId, ChannelType, CommandInteraction, CommandType,
    ComponentInteraction, ComponentInteractionDataKind, Context, CreateAutocompleteResponse,
    CreateInteractionResponse, CreateInteractionResponseMessage, EventHandler, Guild, GuildChannel,
    GuildId, Http, Interaction, InteractionContext, Member, Message, PartialGuildChannel,
    Permissions, Ready, ResolvedValue, ResumedEvent, UnavailableGuild, User,
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
    /// The channels where the bot can only answer interactions, learned from them.
    pub answer_only: Arc<AnswerOnlyChannels>,
    /// The board page is also a Discord Activity (`DISCORD_CLIENT_SECRET`): the App
    /// Launcher's entry point and the "Open the board" button launch it.
    pub activity: bool,
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
/// Where an interaction came from.
fn place_of(guild_id: Option<GuildId>, channel_id: ChannelId) -> Place {
    Place {
        guild_id: guild_id.map(GuildId::get),
        channel_id: channel_id.get(),
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
            answer_only: Arc::default(),
            activity: config.activity.is_some(),
        }
    }

    /// `place`, after learning from the interaction whether the bot can only answer
    /// interactions in its channel.
    fn learn_place(
        &self,
        place: Place,
        context: Option<InteractionContext>,
        owners: &AuthorizingIntegrationOwners,
    ) -> Place {
        self.answer_only
            .learn(place.channel_id, reach::answer_only(context, owners));
        place
    }

    /// Answers an interaction by launching the Activity (LAUNCH_ACTIVITY): whether Discord
    /// took the answer. Not taken (over the gateway), the interaction is still unanswered.
    async fn launch_activity(
        &self,
        http: &Arc<Http>,
        source: Source<'_>,
        http_answer: Option<&HttpAnswer>,
    ) -> bool {
        let sent = respond_once(
            http,
            source,
            http_answer,
            "activity",
            Instant::now(),
            CreateInteractionResponse::LaunchActivity,
        )
        .await;
        if let Err(e) = &sent {
            tracing::warn!("Discord did not launch the Activity: {e}");
        }
        sent.is_ok()
    }

    async fn command(
        &self,
        http: &Arc<Http>,
        cmd: &CommandInteraction,
        http_answer: Option<&HttpAnswer>,
        act: bool,
    ) {
        let actor = actor(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let place = self.learn_place(
            place_of(cmd.guild_id, cmd.channel_id),
            cmd.context,
            &cmd.authorizing_integration_owners,
        );
        // The App Launcher's entry point: the Activity, or why there is none.
        if cmd.data.kind == CommandType::PrimaryEntryPoint {
            if act
                && self.activity
                && self
                    .launch_activity(http, Source::Command(cmd), http_answer)
                    .await
            {
                return;
            }
            let off: Answer = if act {
                Reply::refusal(i18n::t(actor.lang(), fl!("activity-off"))).into()
            } else {
                unsure_answer(&actor)
            };
            let out = DiscordChannels::port(http, &self.answer_only);
            let answered = FirstAnswer::default();
            let target = Target {
                source: Source::Command(cmd),
                http_answer,
                deferred: None,
                answered: &answered,
            };
            self.interact(http, target, &out, &actor, place, async { off })
                .await;
            return;
        }
        let (deferred_tx, deferred_rx) = tokio::sync::watch::channel(false);
        let out = DiscordChannels::port(http, &self.answer_only);
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
        let place = place_of(cmd.guild_id, cmd.channel_id);
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
        let sent = respond_once(
            http,
            Source::Command(cmd),
            http_answer,
            "autocomplete",
            received,
            CreateInteractionResponse::Autocomplete(response),
        )
        .await;
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
        let place = self.learn_place(
            place_of(c.guild_id, c.channel_id),
            c.context,
            &c.authorizing_integration_owners,
        );
        let values = match &c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => vec![],
        };
        // "Open the board" opens the Activity when there is one; if Discord does not take
        // that, the person gets their link as without it.
        let custom_id = respond::app_component_id(&c.data.custom_id);
        let opens_board = crate::app::ids::ComponentId::parse(custom_id)
            .is_some_and(|id| id.action == crate::app::ids::Action::Board);
        if act
            && opens_board
            && self.activity
            && self
                .launch_activity(http, Source::Component(c), http_answer)
                .await
        {
            return;
        }
        let out = DiscordChannels::port(http, &self.answer_only);
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
        self.app.catch_up(
            &DiscordChannels::port(http, &self.answer_only),
            only,
            boards_too,
        );
    }

    /// Registers the slash commands, in the configured server or globally.
    pub async fn register_commands(&self, http: &Http) {
        let mut commands = super::commands::all();
        let entry_point = self.activity.then(super::commands::entry_point);
        let result = match self.guild_id {
            Some(g) => {
                let set = GuildId::new(g).set_commands(http, commands).await;
                // An entry point is global only: it is created (or updated) alone, which
                // keeps the other global commands.
                match (set, entry_point) {
                    (Ok(set), Some(entry)) => {
                        serenity::all::Command::create_global_command(http, entry)
                            .await
                            .map(|_| set)
                    }
                    (set, _) => set,
                }
            }
            None => {
                // Once an entry point exists, Discord refuses a bulk overwrite without it.
                commands.extend(entry_point);
                serenity::all::Command::set_global_commands(http, commands).await
            }
        };
        // `/readyz` says so while they are not registered (see `health`).
        self.health.commands_registered(result.is_ok());
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

/// The answer to an interaction that may have been taken by another process: nothing was
/// done; try again.
fn unsure_answer(actor: &Actor) -> Answer {
    Reply::failure(i18n::t(actor.lang(), fl!("err-storage"))).into()
}
