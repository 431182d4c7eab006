//! `damas store …`: tools for the bot's database.

use crate::store::copy::{copy, CopyError};
use crate::store::{printable, Store};
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
    if from == to {
        return super::fail("--from and --to name the same database");
    }
    if !crate::store::is_postgres_url(&from.to_string_lossy()) && !from.exists() {
        return super::fail(format!("no database at {}", from.display()));
    }
    let open = |db: &Path| Store::open(db).map_err(|e| format!("{}: {e}", printable(db)));
    let (source, target) = match (open(from), open(to)) {
        (Ok(s), Ok(t)) => (s, t),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(copy(&source, &target)) {
        Ok(summary) => {
            for (tree, n) in &summary.trees {
                println!("{tree}: {n}");
            }
            println!(
                "copied and verified {} entries from {} ({}) to {} ({})",
                summary.total(),
                printable(from),
                source.backend(),
                printable(to),
                target.backend()
            );
            ExitCode::SUCCESS
        }
        Err(e @ CopyError::TargetNotEmpty { .. }) => super::fail(e),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
