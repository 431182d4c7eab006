//! The `damas` binary run as a program, as a person or a script would — on the test's
//! settings only: every child process a test starts is made by [`command`].

use std::ops::{Deref, DerefMut};
use std::process::{Command, Output};

/// The environment variables of the caller a child `damas` never inherits: the operator's
/// settings (`DAMAS_*`, `DISCORD_*`) and the log filter. A test sets what it needs.
fn inherited_setting(name: &str) -> bool {
    name.starts_with("DAMAS_") || name.starts_with("DISCORD_") || name == "RUST_LOG"
}

/// A `damas` command isolated from the machine it runs on: none of the caller's settings
/// (`DAMAS_*`, `DISCORD_*`, `RUST_LOG`), and a data folder of its own (`DAMAS_DATA`, an empty
/// temporary folder deleted with the command), so that no test reads or writes a developer's
/// database or endgame tables. A test sets the variables it needs on it (`.env` after this
/// wins, `DAMAS_DATA` included).
///
/// Keep it as long as the process it starts runs: its data folder goes with it.
pub struct Damas {
    command: Command,
    data: tempfile::TempDir,
}

/// See [`Damas`].
pub fn command() -> Damas {
    let data = tempfile::tempdir().expect("a temporary data folder");
    let mut command = Command::new(env!("CARGO_BIN_EXE_damas"));
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(inherited_setting) {
            command.env_remove(&name);
        }
    }
    command.env("DAMAS_DATA", data.path());
    // A bot or `serve` started here would otherwise spend its test building every endgame
    // table in the background; the test of that build turns it on itself.
    command.env("DAMAS_EGDB_BUILD", "off");
    Damas { command, data }
}

impl Damas {
    /// The command's data folder (`DAMAS_DATA`).
    pub fn data_dir(&self) -> &std::path::Path {
        self.data.path()
    }
}

impl Deref for Damas {
    type Target = Command;

    fn deref(&self) -> &Command {
        &self.command
    }
}

impl DerefMut for Damas {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.command
    }
}

/// Runs `damas` with `args` and waits for it.
pub fn damas(args: &[&str]) -> Output {
    command()
        .args(args)
        .output()
        .expect("the damas binary runs")
}

/// Runs a command that must succeed and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = damas(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs a command that must fail as a user error (exit code 2, no panic) and returns its
/// standard error.
pub fn user_error(args: &[&str]) -> String {
    let out = damas(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}
