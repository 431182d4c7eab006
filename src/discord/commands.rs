//! The slash commands as Discord registers them, built from the app's command table: English
//! names, Spanish localizations (es-ES and es-419), descriptions and choice labels in both
//! languages from the Fluent files.

use super::reach::{contexts, integration_types};
use crate::app::commands::{
    group_name_id, groups, CommandId, CommandSpec, OptionKind, OptionSpec, Permission, Reach,
    Surface, COMMANDS,
};
use crate::app::i18n::{t, Lang, Msg};
use crate::fl;
use serenity::all::{
    ChannelType, CommandOptionType, CommandType, CreateCommand, CreateCommandOption,
    EntryPointHandlerType, Permissions,
};

/// The Discord locales that get the Spanish texts.
const SPANISH: [&str; 2] = ["es-ES", "es-419"];

/// The Discord permissions a member needs, by default, to see a command: only a default, which
/// each server may change (Server Settings → Integrations), so the app checks again. `None`:
/// every member. A role set with `/settings role` cannot be expressed here: a server that
/// wants its organisers to see `/cancel` allows their role for it.
pub fn default_permissions(permission: Permission) -> Option<Permissions> {
    match permission {
        Permission::Everyone => None,
        Permission::ManageMessagesOrOrganiser => Some(Permissions::MANAGE_MESSAGES),
        Permission::ManageEventsOrOrganiser => Some(Permissions::MANAGE_EVENTS),
        Permission::ManageServer => Some(Permissions::MANAGE_GUILD),
    }
}

fn command(spec: &CommandSpec) -> CreateCommand {
    let description = spec.description_id();
    let mut c = CreateCommand::new(spec.name).description(t(Lang::En, &description));
    if let Some(p) = default_permissions(spec.id.permission()) {
        c = c.default_member_permissions(p);
    }
    for l in SPANISH {
        c = c
            .name_localized(l, spec.localized_name(Lang::Es))
            .description_localized(l, t(Lang::Es, &description));
    }
    for o in spec.options {
        c = c.add_option(option(o));
    }
    with_reach(c, spec.id.reach())
}

/// Installable and usable where `reach` says (Discord reads both only on global commands).
fn with_reach(c: CreateCommand, reach: Reach) -> CreateCommand {
    c.integration_types(integration_types(reach))
        .contexts(contexts(reach))
}

/// The commands of a member's menu (right-click a member, Apps): each stands for a command
/// of the table, the member clicked given as its user option. Registered under its English
/// label, with the Spanish one as its localization.
const MENUS: [(Msg<'static>, CommandId); 1] = [(fl!("menu-challenge"), CommandId::Challenge)];

/// A member's menu command (a USER command, no options, no description).
fn menu(label: Msg<'static>, id: CommandId) -> CreateCommand {
    let mut c = CreateCommand::new(t(Lang::En, label)).kind(CommandType::User);
    for l in SPANISH {
        c = c.name_localized(l, t(Lang::Es, label));
    }
    with_reach(c, id.reach())
}

/// The command a member's menu command called `name` (as registered, or in Spanish) stands
/// for.
pub fn menu_command(name: &str) -> Option<&'static CommandSpec> {
    let (_, id) = MENUS
        .iter()
        .find(|(label, _)| [Lang::En, Lang::Es].iter().any(|&l| t(l, *label) == name))?;
    COMMANDS.iter().find(|c| c.id == *id)
}

/// A group of subcommands (`/tournament`): one command whose options are its members, each
/// a SUB_COMMAND with its own options.
///
/// Discord gives default permissions to a whole command, never to one of its subcommands:
/// a group registers the least restrictive of its members' (`/tournament join` is for
/// everyone, so `/tournament` is too), and the app refuses the others' subcommands to whom
/// they are not for.
fn group(name: &'static str) -> CreateCommand {
    let id = group_name_id(name);
    let description = format!("{id}-desc");
    let mut c = CreateCommand::new(name).description(t(Lang::En, &description));
    for l in SPANISH {
        c = c
            .name_localized(l, t(Lang::Es, &id))
            .description_localized(l, t(Lang::Es, &description));
    }
    let members = || COMMANDS.iter().filter(|s| s.group == Some(name));
    let least: Option<Permissions> = members()
        .map(|s| default_permissions(s.id.permission()))
        .reduce(|a, b| match (a, b) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        })
        .flatten();
    if let Some(p) = least {
        c = c.default_member_permissions(p);
    }
    for spec in members() {
        let description = spec.description_id();
        let mut sub = CreateCommandOption::new(
            CommandOptionType::SubCommand,
            spec.name,
            t(Lang::En, &description),
        );
        for l in SPANISH {
            sub = sub
                .name_localized(l, spec.localized_name(Lang::Es))
                .description_localized(l, t(Lang::Es, &description));
        }
        for o in spec.options {
            sub = sub.add_sub_option(option(o));
        }
        c = c.add_option(sub);
    }
    // Where every member can be used (the strictest member's reach).
    let members = COMMANDS.iter().filter(|s| s.group == Some(name));
    let reach = match members.map(|s| s.id.reach()).any(|r| r == Reach::Server) {
        true => Reach::Server,
        false => Reach::Anywhere,
    };
    with_reach(c, reach)
}

fn option(spec: &OptionSpec) -> CreateCommandOption {
    let kind = match spec.kind {
        OptionKind::User => CommandOptionType::User,
        OptionKind::Text { .. } | OptionKind::Choice(_) => CommandOptionType::String,
        OptionKind::Integer { .. } => CommandOptionType::Integer,
        OptionKind::File => CommandOptionType::Attachment,
        OptionKind::Channel => CommandOptionType::Channel,
        OptionKind::Role => CommandOptionType::Role,
    };
    let mut o = CreateCommandOption::new(kind, spec.name, t(Lang::En, spec.description))
        .required(spec.required);
    for l in SPANISH {
        o = o
            .name_localized(l, spec.localized_name(Lang::Es))
            .description_localized(l, t(Lang::Es, spec.description));
    }
    match spec.kind {
        OptionKind::Text { autocomplete } => o = o.set_autocomplete(autocomplete),
        OptionKind::Choice(choices) => {
            for value in choices.values() {
                let label = choices.label_id(value);
                let es = t(Lang::Es, &label);
                o = o.add_string_choice_localized(
                    t(Lang::En, &label),
                    value,
                    SPANISH.map(|l| (l, es.clone())),
                );
            }
        }
        OptionKind::Integer { min, max } => {
            o = o.min_int_value(min as u64).max_int_value(max as u64)
        }
        // Games are played in text channels (and their threads).
        OptionKind::Channel => o = o.channel_types(vec![ChannelType::Text]),
        OptionKind::User | OptionKind::File | OptionKind::Role => {}
    }
    o
}

/// The name of the App Launcher's entry point (the one Discord creates is called so too).
pub const ENTRY_POINT: &str = "launch";

/// The App Launcher's entry point, which opens the Activity (the board page inside Discord).
/// Global only, one per application. Its handler is the app's own (APP_HANDLER, 1): the
/// bot answers it with LAUNCH_ACTIVITY, or, when this process has no Activity, says so —
/// with Discord's handler (2) Discord would open whatever the URL mapping serves without
/// the bot hearing of it.
pub fn entry_point() -> CreateCommand {
    let description = fl!("activity-launch-desc");
    let mut c = CreateCommand::new(ENTRY_POINT)
        .kind(CommandType::PrimaryEntryPoint)
        .handler(EntryPointHandlerType::AppHandler)
        .description(t(Lang::En, description));
    for l in SPANISH {
        c = c.description_localized(l, t(Lang::Es, description));
    }
    with_reach(c, Reach::Anywhere)
}

/// Every command the bot registers (the console's own, for what buttons do here, are not),
/// the members' menu commands last.
pub fn all() -> Vec<CreateCommand> {
    COMMANDS
        .iter()
        .filter(|c| c.surface == Surface::Everywhere && c.group.is_none())
        .map(command)
        .chain(groups().map(group))
        .chain(MENUS.iter().map(|&(label, id)| menu(label, id)))
        .collect()
}
