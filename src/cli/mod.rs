//! The command line: one file per family of subcommands. `main.rs` only parses and dispatches.

pub mod ai_cmds;
pub mod egdb_cmds;
pub mod elo;
pub mod engine_cmds;
pub mod engine_protocol;
pub mod match_cmds;
pub mod openings_cmds;
pub mod pdn_cmds;
pub mod puzzle_cmds;
pub mod render_cmds;
pub mod review_cmds;
pub mod store_cmds;
pub mod tune_cmds;

use std::process::ExitCode;

/// Threads (or games at once) a command line job may use: 1 to 64. Checked by clap, so a bad
/// number is refused with the option's name and exit code 2 before anything starts.
pub fn threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=64)
}

/// A user error on the command line: message on stderr, exit code 2.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}
