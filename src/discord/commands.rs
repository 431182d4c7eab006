//! The slash commands as Discord registers them, built from the app's command table: English
//! names, Spanish localizations (es-ES and es-419), descriptions and choice labels in both
//! languages from the Fluent files.

use crate::app::commands::{
    group_name_id, groups, CommandSpec, OptionKind, OptionSpec, Surface, COMMANDS,
};
use crate::app::i18n::{t, Lang};
use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption};

/// The Discord locales that get the Spanish texts.
const SPANISH: [&str; 2] = ["es-ES", "es-419"];

fn command(spec: &CommandSpec) -> CreateCommand {
    let description = spec.description_id();
    let mut c = CreateCommand::new(spec.name).description(t(Lang::En, &description));
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
fn group(name: &'static str) -> CreateCommand {
    let id = group_name_id(name);
    let description = format!("{id}-desc");
    let mut c = CreateCommand::new(name).description(t(Lang::En, &description));
    for l in SPANISH {
        c = c
            .name_localized(l, t(Lang::Es, &id))
            .description_localized(l, t(Lang::Es, &description));
    }
    for spec in COMMANDS.iter().filter(|s| s.group == Some(name)) {
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
        OptionKind::User | OptionKind::File => {}
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
