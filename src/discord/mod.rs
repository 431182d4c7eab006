//! The Discord adapter (being written).
use std::process::ExitCode;

pub fn run() -> ExitCode {
    crate::cli::fail("the bot is not built yet")
}

pub fn run_default() -> ExitCode {
    run()
}
