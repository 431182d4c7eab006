//! The terminal front end (being written).
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ConsoleArgs {
    /// Folder where every board picture is saved.
    #[arg(long, default_value = "boards")]
    pub boards: std::path::PathBuf,
}

pub fn run(_args: ConsoleArgs) -> ExitCode {
    crate::cli::fail("the console is not built yet")
}
