//! Every subcommand and every option of `damas` says what it is for (`damas <cmd> --help`),
//! checked on clap's whole command tree.

use clap::CommandFactory;
use damas::cli::args::Cli;

/// `damas`, `damas pdn check`…: each command of the tree with its full name.
fn walk(command: &clap::Command, name: String, out: &mut Vec<(String, clap::Command)>) {
    for sub in command.get_subcommands() {
        walk(sub, format!("{name} {}", sub.get_name()), out);
    }
    out.push((name, command.clone()));
}

#[test]
fn every_command_and_option_has_help_text() {
    let mut root = Cli::command();
    root.build();
    let mut commands = Vec::new();
    walk(&root, "damas".into(), &mut commands);
    assert!(commands.len() > 20, "the whole tree: {}", commands.len());
    let mut missing = Vec::new();
    for (name, command) in &commands {
        // `damas help …` is clap's own.
        if name.starts_with("damas help") || name.contains(" help") {
            continue;
        }
        let said = |s: Option<&clap::builder::StyledStr>| {
            s.is_some_and(|s| !s.to_string().trim().is_empty())
        };
        if name != "damas" && !said(command.get_about()) && !said(command.get_long_about()) {
            missing.push(format!("{name} (the command)"));
        }
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if !said(arg.get_help()) && !said(arg.get_long_help()) {
                missing.push(format!("{name} --{id}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} without help text:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
