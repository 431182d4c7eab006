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

use super::deliver::{self, with_retries, ALREADY_ACKNOWLEDGED};
use super::respond::{self, Rendered};
use super::work::InFlight;
use crate::app::commands::{self, ArgValue, Invocation};
use crate::app::i18n::{self, Lang};
use crate::app::{Actor, Answer, App, BoardPosted, Owed, Place, Reply, Swept, UserRef};
use serenity::all::{
    ChannelId, CommandInteraction, ComponentInteraction, ComponentInteractionDataKind, Context,
    CreateAutocompleteResponse, CreateInteractionResponse, CreateInteractionResponseMessage,
    EditMessage, EventHandler, Guild, GuildChannel, GuildId, Http, Interaction, Member, Message,
    MessageId, PartialGuildChannel, Ready, ResolvedValue, ResumedEvent, UnavailableGuild, User,
};
use serenity::futures::FutureExt;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Work still running after this long is deferred, leaving ample time for the defer itself
/// (and its retries) inside Discord's 3 s.
pub const DEFER_AFTER: Duration = Duration::from_millis(800);
/// Discord refuses an interaction's first answer after 3 s; stop trying a little before.
const ANSWER_WINDOW: Duration = Duration::from_millis(2800);

/// A slash command as the app's command table reads it; `None` for a name the table does
/// not know (a command left registered by an older version).
fn invocation(cmd: &CommandInteraction) -> Option<Invocation> {
    let spec = commands::find(&cmd.data.name)?;
    let mut invocation = Invocation::new(spec);
    for o in cmd.data.options() {
        // Discord sends the registered (English) option names.
        let Some(option) = spec.option(o.name) else {
            continue;
        };
        let value = match o.value {
            ResolvedValue::String(s) => ArgValue::Text(s.to_string()),
            ResolvedValue::Integer(i) => ArgValue::Integer(i),
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
    Some(invocation)
}

pub struct Handler {
    pub app: App,
    /// Register the commands in this server only (instant updates while developing).
    pub guild_id: Option<u64>,
    /// Interactions and bot moves under way, for a clean shutdown.
    pub work: Arc<InFlight>,
    /// See [`DEFER_AFTER`].
    pub defer_after: Duration,
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
    }
}

/// The interaction an answer goes back to.
#[derive(Clone, Copy)]
enum Target<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

impl Target<'_> {
    fn token(&self) -> &str {
        match self {
            Target::Command(c) => &c.token,
            Target::Component(c) => &c.token,
        }
    }

    fn channel_id(&self) -> ChannelId {
        match self {
            Target::Command(c) => c.channel_id,
            Target::Component(c) => c.channel_id,
        }
    }

    async fn respond(&self, http: &Http, r: CreateInteractionResponse) -> serenity::Result<()> {
        match self {
            Target::Command(c) => c.create_response(http, r).await,
            Target::Component(c) => c.create_response(http, r).await,
        }
    }
}

/// Removes a board message's buttons and menu (it keeps its picture).
async fn strip_controls(http: &Http, channel_id: u64, message_id: u64) {
    let stripped = with_retries("strip an old board", None, || {
        ChannelId::new(channel_id).edit_message(
            http,
            MessageId::new(message_id),
            EditMessage::new().components(vec![]),
        )
    })
    .await;
    if let Err(e) = stripped {
        // Harmless: an outdated button answers "outdated" anyway.
        tracing::debug!("could not strip old board {message_id}: {e}");
    }
}

/// Posts a public reply as a plain channel message.
async fn post_in_channel(http: &Http, channel: ChannelId, reply: &Reply) -> Option<Message> {
    match with_retries("post in the channel", None, || {
        channel.send_message(http, Rendered::new(reply).channel_message())
    })
    .await
    {
        Ok(m) => Some(m),
        Err(e) => {
            tracing::error!("could not post in channel {channel}: {e}");
            None
        }
    }
}

/// Once a board is posted: record it, and strip the board it replaces — or this one, if the
/// game moved on while it was being posted.
async fn after_post(http: &Http, app: &App, reply: &Reply, message: Option<&Message>) {
    if let (Some(challenge), Some(m)) = (reply.challenge_of, message) {
        app.challenge_posted(challenge, m.id.get()).await;
    }
    let (Some(board), Some(m)) = (reply.board_of, message) else {
        return;
    };
    match app.board_posted(board, m.id.get()).await {
        BoardPosted::Current { strip: Some(old) } => {
            strip_controls(http, board.channel_id, old).await
        }
        BoardPosted::Current { strip: None } => {}
        BoardPosted::Outdated => strip_controls(http, board.channel_id, m.id.get()).await,
    }
}

/// Why a bot turn is started.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BotTrigger {
    /// A use case said the bot is to move now, or a (re)connection found the move owed.
    Owed,
    /// Some other interaction in the channel: the move starts only if the board of the move
    /// it answers has been shown, so that the bot never answers before that board appears
    /// (the interaction that made that move starts the bot itself, once it is shown).
    Nudge,
}

/// Makes the bot's move in a channel if it owes one, and posts it there. Runs as a task of its
/// own: the interaction that triggered it is answered meanwhile. Concurrent triggers are
/// harmless: [`App::bot_turn`] makes one move per turn.
fn start_bot_turn(
    http: Arc<Http>,
    app: App,
    work: &Arc<InFlight>,
    place: Place,
    lang: Lang,
    trigger: BotTrigger,
) {
    let Some(working) = work.start() else { return };
    tokio::spawn(async move {
        let _working = working;
        if trigger == BotTrigger::Nudge && !app.bot_move_due_after_its_board(place) {
            return;
        }
        let answer = app.bot_turn(place, lang).await;
        for reply in answer.replies.iter().filter(|r| !r.is_private()) {
            let posted = post_in_channel(&http, ChannelId::new(place.channel_id), reply).await;
            after_post(&http, &app, reply, posted.as_ref()).await;
        }
    });
}

/// Posts the current board of a channel whose last board was never shown.
fn start_board_repost(http: Arc<Http>, app: App, work: &Arc<InFlight>, place: Place, lang: Lang) {
    let Some(working) = work.start() else { return };
    tokio::spawn(async move {
        let _working = working;
        let answer = app.current_board(place, lang).await;
        for reply in answer.replies.iter().filter(|r| !r.is_private()) {
            let posted = post_in_channel(&http, ChannelId::new(place.channel_id), reply).await;
            after_post(&http, &app, reply, posted.as_ref()).await;
        }
    });
}

/// Shows what the sweeper found: reminders and games lost on time in their channels, and
/// expired challenges edited to say so, without their buttons.
pub async fn deliver_swept(http: &Http, app: &App, swept: Vec<Swept>) {
    for s in swept {
        match s {
            Swept::Post { place, reply } => {
                let posted = post_in_channel(http, ChannelId::new(place.channel_id), &reply).await;
                after_post(http, app, &reply, posted.as_ref()).await;
            }
            Swept::ChallengeExpired {
                channel_id,
                message_id: Some(message_id),
                reply,
            } => {
                let edited = with_retries("close an expired challenge", None, || {
                    ChannelId::new(channel_id).edit_message(
                        http,
                        MessageId::new(message_id),
                        Rendered::new(&reply).edit_message(),
                    )
                })
                .await;
                if let Err(e) = edited {
                    tracing::warn!("could not close the expired challenge {message_id}: {e}");
                }
            }
            // Its message was never recorded: say it in the channel instead.
            Swept::ChallengeExpired {
                channel_id, reply, ..
            } => {
                post_in_channel(http, ChannelId::new(channel_id), &reply).await;
            }
        }
    }
}

impl Handler {
    /// Runs a use case for an interaction and delivers its answer: deferred first if it takes
    /// long, retried while Discord fails, in the channel if the interaction is gone.
    async fn interact(
        &self,
        ctx: &Context,
        target: Target<'_>,
        actor: &Actor,
        place: Place,
        work: impl std::future::Future<Output = Answer>,
    ) {
        let received = Instant::now();
        let lang = actor.lang();
        let mut work = std::pin::pin!(AssertUnwindSafe(work).catch_unwind());
        let mut deferred = false;
        let outcome = if self.defer_after.is_zero() {
            deferred = self.defer(ctx, target, received + ANSWER_WINDOW).await;
            work.await
        } else {
            tokio::select! {
                done = &mut work => done,
                () = tokio::time::sleep(self.defer_after) => {
                    deferred = self.defer(ctx, target, received + ANSWER_WINDOW).await;
                    work.await
                }
            }
        };
        let answer = match outcome {
            Ok(answer) => answer.for_actor(actor.user_id),
            Err(_) => {
                tracing::error!("a use case panicked in channel {}", place.channel_id);
                Reply::private(i18n::t(lang, "err-bot-failed")).into()
            }
        };
        self.deliver(ctx, target, &answer, deferred, received).await;
        // Whatever happened, a game waiting for the bot gets its move.
        let trigger = match answer.bot_turn {
            Some(_) => BotTrigger::Owed,
            None => BotTrigger::Nudge,
        };
        start_bot_turn(
            ctx.http.clone(),
            self.app.clone(),
            &self.work,
            place,
            lang,
            trigger,
        );
    }

    /// Tells Discord the answer is coming. Returns whether it took.
    async fn defer(&self, ctx: &Context, target: Target<'_>, deadline: Instant) -> bool {
        let defer = || match target {
            // "The bot is thinking…", public: most answers are boards for everyone.
            Target::Command(_) => {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
            }
            Target::Component(_) => CreateInteractionResponse::Acknowledge,
        };
        match with_retries("defer", Some(deadline), || {
            target.respond(&ctx.http, defer())
        })
        .await
        {
            Ok(()) => true,
            Err(e) if deliver::json_code(&e) == Some(ALREADY_ACKNOWLEDGED) => true,
            Err(e) => {
                tracing::warn!("could not defer an interaction: {e}");
                false
            }
        }
    }

    /// Shows an answer: the first reply as the interaction's response (or the completion of
    /// the deferred one), the rest as follow-ups; public replies go to the channel when the
    /// interaction cannot carry them.
    async fn deliver(
        &self,
        ctx: &Context,
        target: Target<'_>,
        answer: &Answer,
        deferred: bool,
        received: Instant,
    ) {
        let http = &ctx.http;
        let mut replies = answer.replies.iter();
        let Some(first) = replies.next() else {
            self.acknowledge(ctx, target, deferred, received).await;
            return;
        };
        let shown = match (deferred, target) {
            (false, _) => self.respond_with(http, target, first, received).await,
            (true, Target::Command(c)) if !first.is_private() => {
                with_retries("complete a deferred answer", None, || {
                    c.edit_response(http, Rendered::new(first).edit_original())
                })
                .await
                .map(Some)
            }
            (true, Target::Command(c)) => {
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
            (true, Target::Component(_)) => self.followup(http, target, first).await.map(Some),
        };
        self.shown(http, target, first, shown).await;
        for reply in replies {
            let shown = self.followup(http, target, reply).await.map(Some);
            self.shown(http, target, reply, shown).await;
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
        // Boards and challenges are remembered by their message (to strip or close later).
        if reply.board_of.is_none() && reply.challenge_of.is_none() {
            return Ok(None);
        }
        with_retries("read an answer back", None, || {
            http.get_original_interaction_response(target.token())
        })
        .await
        .map(Some)
    }

    async fn followup(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
    ) -> serenity::Result<Message> {
        with_retries("send a follow-up", None, || async {
            let m = Rendered::new(reply).followup();
            match target {
                Target::Command(c) => c.create_followup(http, m).await,
                Target::Component(c) => c.create_followup(http, m).await,
            }
        })
        .await
    }

    /// After a reply was (or was not) shown: a public reply the interaction could not carry
    /// goes to the channel; a board is recorded.
    async fn shown(
        &self,
        http: &Http,
        target: Target<'_>,
        reply: &Reply,
        shown: serenity::Result<Option<Message>>,
    ) {
        let message = match shown {
            Ok(m) => m,
            Err(e) if reply.is_private() => {
                tracing::warn!("a private reply was lost: {e}");
                return;
            }
            Err(e) => {
                tracing::warn!(
                    "the interaction could not show a reply ({e}); posting it in the channel"
                );
                post_in_channel(http, target.channel_id(), reply).await
            }
        };
        after_post(http, &self.app, reply, message.as_ref()).await;
    }

    /// An answer with nothing to say still answers the interaction.
    async fn acknowledge(
        &self,
        ctx: &Context,
        target: Target<'_>,
        deferred: bool,
        received: Instant,
    ) {
        let result = match (deferred, target) {
            (true, Target::Component(_)) => Ok(()),
            (true, Target::Command(c)) => c.delete_response(&ctx.http).await,
            (false, _) => {
                with_retries("acknowledge", Some(received + ANSWER_WINDOW), || {
                    let ack = match target {
                        Target::Component(_) => CreateInteractionResponse::Acknowledge,
                        Target::Command(_) => CreateInteractionResponse::Message(
                            Rendered::new(&Reply::private("✓")).response(),
                        ),
                    };
                    target.respond(&ctx.http, ack)
                })
                .await
            }
        };
        if let Err(e) = result {
            tracing::warn!("could not acknowledge an interaction: {e}");
        }
    }

    async fn command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let actor = actor(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let place = Place {
            guild_id: cmd.guild_id.map(GuildId::get),
            channel_id: cmd.channel_id.get(),
        };
        let work = self.dispatch_command(cmd, &actor, place);
        self.interact(ctx, Target::Command(cmd), &actor, place, work)
            .await;
    }

    /// The use case a command names.
    async fn dispatch_command(
        &self,
        cmd: &CommandInteraction,
        actor: &Actor,
        place: Place,
    ) -> Answer {
        match invocation(cmd) {
            Some(invocation) => self.app.run_command(actor, place, &invocation).await,
            None => {
                tracing::warn!("unknown command {:?}", cmd.data.name);
                self.app.help(actor)
            }
        }
    }

    async fn autocomplete(&self, ctx: &Context, cmd: &CommandInteraction) {
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
        if let Err(e) = cmd
            .create_response(&ctx.http, CreateInteractionResponse::Autocomplete(response))
            .await
        {
            // Autocomplete is a convenience: the next keystroke asks again.
            tracing::debug!("autocomplete answer failed: {e}");
        }
    }

    async fn component(&self, ctx: &Context, c: &ComponentInteraction) {
        let actor = actor(&c.user, c.member.as_ref(), &c.locale);
        let place = Place {
            guild_id: c.guild_id.map(GuildId::get),
            channel_id: c.channel_id.get(),
        };
        let values = match &c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => vec![],
        };
        let work = self.app.component(
            &actor,
            place,
            respond::app_component_id(&c.data.custom_id),
            &values,
        );
        self.interact(ctx, Target::Component(c), &actor, place, work)
            .await;
    }

    /// After a (re)connection: make every move the bot owes, and post the boards that were
    /// stored but never shown (the process stopped in between).
    fn catch_up(&self, ctx: &Context, boards_too: bool) {
        for (owed, lang) in self.app.owed_work() {
            let (http, app) = (ctx.http.clone(), self.app.clone());
            match owed {
                Owed::BotMove(place) => {
                    start_bot_turn(http, app, &self.work, place, lang, BotTrigger::Owed)
                }
                Owed::Board(place) if boards_too => {
                    start_board_repost(http, app, &self.work, place, lang)
                }
                Owed::Board(_) => {}
            }
        }
    }
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!("connected as {}", ready.user.name);
        let commands = super::commands::all();
        let result = match self.guild_id {
            Some(g) => GuildId::new(g).set_commands(&ctx.http, commands).await,
            None => serenity::all::Command::set_global_commands(&ctx.http, commands).await,
        };
        match result {
            Ok(c) => tracing::info!("registered {} commands", c.len()),
            Err(e) => tracing::error!("could not register the commands: {e}"),
        }
        // A new session: this process may have just started, so catch up on everything.
        self.catch_up(&ctx, true);
    }

    async fn resume(&self, ctx: Context, _: ResumedEvent) {
        // The same process: its deliveries are still under way, only moves may be owed.
        self.catch_up(&ctx, false);
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
        let Some(_working) = self.work.start() else {
            // Shutting down: Discord will tell the user; the next process answers anew.
            return;
        };
        match interaction {
            Interaction::Command(cmd) => self.command(&ctx, &cmd).await,
            Interaction::Autocomplete(cmd) => self.autocomplete(&ctx, &cmd).await,
            Interaction::Component(c) => self.component(&ctx, &c).await,
            _ => {}
        }
    }
}
