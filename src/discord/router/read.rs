//! Reading an interaction: the command as the app's table reads it, who acts and with what
//! permissions. Discord's shapes in, the app's plain values out.

use super::*;
use crate::app::commands::OptionKind;
use serenity::all::{CommandType, ResolvedTarget};

/// A slash command as the app's command table reads it; `None` for a name the table does
/// not know (a command left registered by an older version).
pub(super) fn invocation(cmd: &CommandInteraction) -> Option<Invocation> {
    if cmd.data.kind == CommandType::User {
        return menu_invocation(cmd);
    }
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
            ResolvedValue::Channel(c) => ArgValue::Channel(c.id.get()),
            ResolvedValue::Role(r) => ArgValue::Role(r.id.get()),
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

/// A command of a member's menu (a USER command, `/challenge` on the member clicked) as the
/// command it stands for: Discord sends the member as `data.target_id`, resolved in
/// `data.resolved.users` (and `members`, in a server).
fn menu_invocation(cmd: &CommandInteraction) -> Option<Invocation> {
    let command = crate::discord::commands::menu_command(&cmd.data.name)?;
    let ResolvedTarget::User(user, member) = cmd.data.target()? else {
        return None;
    };
    let mut invocation = Invocation::new(command);
    let option = command
        .options
        .iter()
        .find(|o| o.kind == OptionKind::User)?;
    invocation.args.push((
        option.name,
        ArgValue::User(UserRef {
            user_id: user.id.get(),
            name: member
                .and_then(|m| m.nick.clone())
                .or_else(|| user.global_name.clone())
                .unwrap_or_else(|| user.name.clone()),
            is_bot: user.bot,
        }),
    ));
    invocation.can_create_threads = can_create_threads(cmd);
    Some(invocation)
}

/// Whether the bot may open a public thread where a command was run: its permissions there
/// (the interaction's `app_permissions`) include Create Public Threads, and the channel is not
/// a thread itself (threads do not nest).
pub(super) fn can_create_threads(cmd: &CommandInteraction) -> bool {
    let in_thread = cmd.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    });
    cmd.guild_id.is_some()
        && !in_thread
        && !reach::answer_only(cmd.context, &cmd.authorizing_integration_owners)
        && cmd
            .app_permissions
            .is_some_and(|p| p.contains(Permissions::CREATE_PUBLIC_THREADS))
}

fn display_name(user: &User, member: Option<&Member>) -> String {
    member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone())
}

pub(super) fn actor(user: &User, member: Option<&Member>, locale: &str) -> Actor {
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
        // The member's permissions in the interaction's channel, as Discord computed them:
        // the server may have let anyone run `/settings`, so the app checks this itself.
        can_manage_guild: member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        roles: member.map_or_else(Vec::new, |m| m.roles.iter().map(|r| r.get()).collect()),
    }
}
