//! The slash commands as Discord registers them, built from the app's command table: English
//! names, Spanish localizations (es-ES and es-419), descriptions and choice labels in both
//! languages from the Fluent files.

use crate::app::commands::{
    group_name_id, groups, CommandSpec, OptionKind, OptionSpec, Permission, Surface, COMMANDS,
};
use crate::app::i18n::{t, Lang};
use serenity::all::{
    ChannelType, CommandOptionType, CreateCommand, CreateCommandOption, Permissions,
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
    c
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
    c
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

/// Every command the bot registers (the console's own, for what buttons do here, are not).
pub fn all() -> Vec<CreateCommand> {
    COMMANDS
        .iter()
        .filter(|c| c.surface == Surface::Everywhere && c.group.is_none())
        .map(command)
        .chain(groups().map(group))
        .collect()
}
