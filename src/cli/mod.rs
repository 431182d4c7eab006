//! The command line: one file per family of subcommands. `main.rs` only parses and dispatches.
//!
//! Everything a command prints goes through [`print_line`] (the `outln!` macro) and
//! [`fail`]: the app's words are printed as plain text, and a reader that goes away (`damas
//! pdn check … | head`) ends the command quietly.

/// `println!` for a command's output: the line goes through [`print_line`].
macro_rules! outln {
    () => {
        $crate::cli::print_line("")
    };
    ($($arg:tt)*) => {
        $crate::cli::print_line(&format!($($arg)*))
    };
}

pub mod ai_cmds;
pub mod args;
pub mod book_cmds;
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

use crate::app::reply::plain;
use std::io::Write;
use std::process::ExitCode;

/// Threads (or games at once) a command line job may use: 1 to 64. Checked by clap, so a bad
/// number is refused with the option's name and exit code 2 before anything starts.
pub fn threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=64)
}

/// Prints one line of a command's output on standard output, as plain text: what people
/// wrote is marked inside the app's words ([`crate::app::reply::UserText`]), and a terminal
/// or a file shows it as written, without the marks.
///
/// When the reader has closed its end (`damas pdn check … | head`), the command has nothing
/// more to do: the process ends at once, quietly, with exit code 0, as `ripgrep` and other
/// tools do (Rust ignores SIGPIPE, so the write fails instead of killing the process, and
/// `println!` would panic). Any other failure to write is a failure of the machine: a message
/// and exit code 1.
pub fn print_line(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{}", plain(text)) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// A user error on the command line: message on stderr (as plain text, see [`print_line`]),
/// exit code 2.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {}", plain(&msg.to_string()));
    ExitCode::from(2)
}
