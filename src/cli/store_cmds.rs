//! `damas store …`: tools for the bot's database.

use crate::app::maintenance::copy_database;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Subcommand, Debug)]
pub enum StoreCommand {
    /// Copy every record from one database to another (sled folder or postgres:// URL) and
    /// verify the copy. The target must be empty; stop the bot first.
    Copy {
        /// The database to read: a sled folder or a postgres:// URL.
        #[arg(long)]
        from: PathBuf,
        /// The empty database to write: a sled folder or a postgres:// URL.
        #[arg(long)]
        to: PathBuf,
    },
}

pub fn run(args: StoreArgs) -> ExitCode {
    match args.command {
        StoreCommand::Copy { from, to } => copy_command(&from, &to),
    }
}

fn copy_command(from: &Path, to: &Path) -> ExitCode {
    match copy_database(from, to) {
        Ok(copied) => {
            for (tree, n) in &copied.trees {
                outln!("{tree}: {n}");
            }
            outln!(
                "copied and verified {} entries from {} ({}) to {} ({})",
                copied.total,
                copied.from.0,
                copied.from.1,
                copied.to.0,
                copied.to.1
            );
            ExitCode::SUCCESS
        }
        Err(e) if e.is_bad_request() => super::fail(e),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
