//! Routes commands, autocomplete and component clicks into the application layer, and sends
//! its replies back. No game logic lives here.

use super::respond::{followup_message, response_message};
use crate::app::commands::{self, ArgValue, Invocation};
use crate::app::i18n::Lang;
use crate::app::{Actor, Answer, App, Place, Reply, UserRef};
use serenity::all::{
    ChannelId, CommandInteraction, ComponentInteraction, ComponentInteractionDataKind, Context,
    CreateAutocompleteResponse, CreateInteractionResponse, EditMessage, EventHandler, GuildId,
    Interaction, Member, Message, MessageId, Ready, ResolvedValue, User,
};

/// Removes a board message's buttons and menu (it keeps its picture).
async fn strip_controls(ctx: &Context, channel_id: u64, message_id: u64) {
    let strip = EditMessage::new().components(vec![]);
    if let Err(e) = ChannelId::new(channel_id)
        .edit_message(&ctx.http, MessageId::new(message_id), strip)
        .await
    {
        // Harmless: an outdated button answers "outdated" anyway.
        tracing::debug!("could not strip old board {message_id}: {e}");
    }
}

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
enum Target<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

impl Target<'_> {
    async fn respond(&self, ctx: &Context, r: CreateInteractionResponse) -> serenity::Result<()> {
        match self {
            Target::Command(c) => c.create_response(&ctx.http, r).await,
            Target::Component(c) => c.create_response(&ctx.http, r).await,
        }
    }

    async fn original(&self, ctx: &Context) -> serenity::Result<Message> {
        match self {
            Target::Command(c) => c.get_response(&ctx.http).await,
            Target::Component(c) => c.get_response(&ctx.http).await,
        }
    }

    async fn followup(&self, ctx: &Context, reply: &Reply) -> serenity::Result<Message> {
        let m = followup_message(reply);
        match self {
            Target::Command(c) => c.create_followup(&ctx.http, m).await,
            Target::Component(c) => c.create_followup(&ctx.http, m).await,
        }
    }
}

impl Handler {
    /// Sends an answer: the first reply as the interaction's response, the rest as follow-ups;
    /// then, if the bot is to move, thinks and posts its move as another follow-up.
    async fn send(&self, ctx: &Context, target: Target<'_>, answer: Answer, lang: Lang) {
        if answer.replies.is_empty() {
            let ack = match target {
                Target::Component(_) => CreateInteractionResponse::Acknowledge,
                Target::Command(_) => {
                    CreateInteractionResponse::Message(response_message(&Reply::private("✓")))
                }
            };
            if let Err(e) = target.respond(ctx, ack).await {
                tracing::warn!("could not acknowledge an interaction: {e}");
            }
        }
        for (i, reply) in answer.replies.iter().enumerate() {
            let posted = if i == 0 {
                let r = CreateInteractionResponse::Message(response_message(reply));
                match target.respond(ctx, r).await {
                    Ok(()) if reply.board_of.is_some() => target.original(ctx).await.map(Some),
                    Ok(()) => Ok(None),
                    Err(e) => Err(e),
                }
            } else {
                target.followup(ctx, reply).await.map(Some)
            };
            self.after_post(ctx, reply, posted).await;
        }
        if let Some(place) = answer.bot_turn {
            // The answer above went out within Discord's 3 s; the bot's move follows it.
            let bot = self.app.bot_turn(place, lang).await;
            for reply in &bot.replies {
                let posted = target.followup(ctx, reply).await.map(Some);
                self.after_post(ctx, reply, posted).await;
            }
        }
    }

    /// Once a board is posted: strip the old board's controls and remember the new one.
    async fn after_post(
        &self,
        ctx: &Context,
        reply: &Reply,
        posted: serenity::Result<Option<Message>>,
    ) {
        let message = match posted {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("could not post a reply: {e}");
                return;
            }
        };
        if let (Some(old), Some(board)) = (reply.supersedes, reply.board_of) {
            strip_controls(ctx, board.channel_id, old).await;
        }
        if let (Some(board), Some(m)) = (reply.board_of, message) {
            // A board that was outdated before it was even recorded loses its controls now.
            if !self.app.board_posted(board, m.id.get()).await {
                strip_controls(ctx, board.channel_id, m.id.get()).await;
            }
        }
    }

    async fn command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let actor = actor(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let lang = actor.lang();
        let place = Place {
            guild_id: cmd.guild_id.map(GuildId::get),
            channel_id: cmd.channel_id.get(),
        };
        let answer = match invocation(cmd) {
            Some(invocation) => self.app.run_command(&actor, place, &invocation).await,
            None => {
                tracing::warn!("unknown command {:?}", cmd.data.name);
                self.app.help(&actor)
            }
        };
        self.send(ctx, Target::Command(cmd), answer, lang).await;
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
        for c in choices {
            response = response.add_string_choice(c.clone(), c);
        }
        if let Err(e) = cmd
            .create_response(&ctx.http, CreateInteractionResponse::Autocomplete(response))
            .await
        {
            tracing::debug!("autocomplete answer failed: {e}");
        }
    }

    async fn component(&self, ctx: &Context, c: &ComponentInteraction) {
        let actor = actor(&c.user, c.member.as_ref(), &c.locale);
        let lang = actor.lang();
        let place = Place {
            guild_id: c.guild_id.map(GuildId::get),
            channel_id: c.channel_id.get(),
        };
        let values = match &c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => vec![],
        };
        let answer = self
            .app
            .component(&actor, place, &c.data.custom_id, &values)
            .await;
        self.send(ctx, Target::Component(c), answer, lang).await;
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
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(cmd) => self.command(&ctx, &cmd).await,
            Interaction::Autocomplete(cmd) => self.autocomplete(&ctx, &cmd).await,
            Interaction::Component(c) => self.component(&ctx, &c).await,
            _ => {}
        }
    }
}
