//! The operator's tools for the bot's database (`damas store …`). The command line reads the
//! arguments and prints the outcome; opening and copying the databases happen here, so that no
//! front end opens the store itself.

use crate::store::copy::{copy, CopyError};
use crate::store::{check_db_name, is_postgres_url, printable, Store, StoreError};
use std::path::Path;

/// Why `store copy` did not copy.
#[derive(Debug, thiserror::Error)]
pub enum CopyFailure {
    #[error("--from and --to name the same database")]
    SameDatabase,
    /// `flag` (`--from`, `--to`) names no kind of database damas opens (`nonsense://x`).
    #[error("{flag}: {source}")]
    BadName {
        flag: &'static str,
        source: StoreError,
    },
    #[error("no database at {0}")]
    NoSource(String),
    #[error("{db}: {source}")]
    Open { db: String, source: StoreError },
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    #[error(transparent)]
    Copy(#[from] CopyError),
}

impl CopyFailure {
    /// The operator asked for something that cannot be done (exit 2), rather than the copy
    /// failing on the way (exit 1).
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            CopyFailure::SameDatabase
                | CopyFailure::BadName { .. }
                | CopyFailure::NoSource(_)
                | CopyFailure::Copy(CopyError::TargetNotEmpty { .. })
        )
    }
}

/// A copy made and verified.
#[derive(Debug)]
pub struct Copied {
    /// Entries per tree (games, players…), in the order copied.
    pub trees: Vec<(&'static str, u64)>,
    pub total: u64,
    /// Each database as it may be printed (a URL without its password) and its kind.
    pub from: (String, &'static str),
    pub to: (String, &'static str),
}

/// Copies every record of the database `from` into the empty database `to` (each a sled folder
/// or a `postgres://` URL), then verifies the copy entry by entry.
pub fn copy_database(from: &Path, to: &Path) -> Result<Copied, CopyFailure> {
    if from == to {
        return Err(CopyFailure::SameDatabase);
    }
    for (flag, db) in [("--from", from), ("--to", to)] {
        check_db_name(db).map_err(|source| CopyFailure::BadName { flag, source })?;
    }
    if !is_postgres_url(&from.to_string_lossy()) && !from.exists() {
        return Err(CopyFailure::NoSource(from.display().to_string()));
    }
    let open = |db: &Path| {
        Store::open(db).map_err(|source| CopyFailure::Open {
            db: printable(db),
            source,
        })
    };
    let (source, target) = (open(from)?, open(to)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CopyFailure::Runtime)?;
    let summary = runtime.block_on(copy(&source, &target))?;
    Ok(Copied {
        total: summary.total(),
        trees: summary.trees,
        from: (printable(from), source.backend()),
        to: (printable(to), target.backend()),
    })
}
