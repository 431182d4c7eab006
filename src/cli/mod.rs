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

/// A user error on the command line: message on stderr, exit code 2.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}
