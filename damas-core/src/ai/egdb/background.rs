//! The missing tables built while the bot runs: `damas bot` and `damas serve` start this on
//! their first start without tables, so that a newcomer's bot gets them without running
//! `damas egdb generate` by hand (which stays, for building ahead).
//!
//! One thread at the lowest CPU priority (Linux: nice 19, so answering people and searching
//! moves always come first) builds each set in turn, with the same code as `damas egdb
//! generate`: each file is written under a temporary name and renamed when whole, a table
//! already on disk is read and kept, so a folder two processes build at once is never
//! corrupted. After each table is written the process's [`EndgameTables`] look in their
//! folder again ([`EndgameTables::rescan_variant`]), so the search uses a table from the
//! move after it appears.

use super::{default_pieces, generate, EndgameTables, GenerateOptions, Material, TableBuilt};
use crate::engine::Variant;
use std::time::{Duration, Instant};

/// A variant's tables up to a number of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSet {
    pub variant: Variant,
    pub pieces: u32,
}

impl TableSet {
    /// The sets `damas egdb generate` builds by default ([`default_pieces`]), the main game's
    /// first and the biggest (English) last.
    pub fn defaults() -> Vec<TableSet> {
        Variant::ALL
            .iter()
            .map(|&variant| TableSet {
                variant,
                pieces: default_pieces(variant),
            })
            .collect()
    }

    /// Whether `tables` hold every table of the set.
    pub fn is_complete(&self, tables: &EndgameTables) -> bool {
        Material::all_up_to(self.pieces)
            .into_iter()
            .all(|m| tables.has(self.variant, m))
    }
}

impl std::fmt::Display for TableSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} up to {} pieces", self.variant, self.pieces)
    }
}

/// A set that is complete in the folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetReady {
    pub set: TableSet,
    /// Its tables.
    pub tables: usize,
    /// Of those, the ones built now (0: the set was already there).
    pub built: usize,
    /// How long building it took (zero when nothing was built).
    pub took: Duration,
}

/// Builds, on a thread of its own at the lowest priority, the sets of `sets` that `tables`'
/// folder lacks, one after another; `ready` hears of each set once it is complete — at once,
/// on this thread, for a set already there. Returns the thread, or `None` when there is
/// nothing to build (every set is there, or `tables` have no folder). A set that cannot be
/// built (a folder that cannot be written) is logged and skipped.
pub fn build_missing(
    tables: &EndgameTables,
    sets: Vec<TableSet>,
    ready: impl Fn(&SetReady) + Send + 'static,
) -> std::io::Result<Option<std::thread::JoinHandle<()>>> {
    let Some(dir) = tables.dir().map(ToOwned::to_owned) else {
        return Ok(None);
    };
    let mut missing = Vec::new();
    for set in sets {
        if set.is_complete(tables) {
            ready(&SetReady {
                set,
                tables: Material::all_up_to(set.pieces).len(),
                built: 0,
                took: Duration::ZERO,
            });
        } else {
            missing.push(set);
        }
    }
    if missing.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = missing.iter().map(ToString::to_string).collect();
    tracing::info!(
        "endgame tables: building {} in {} in the background (at low priority; `damas egdb \
         generate` builds them ahead)",
        names.join(", "),
        dir.display()
    );
    let tables = tables.clone();
    std::thread::Builder::new()
        .name("egdb-builder".into())
        .spawn(move || {
            crate::ai::pool::lower_this_threads_priority(BUILDER_NICENESS, "endgame table builder");
            for set in missing {
                build_set(&tables, &dir, set, &ready);
            }
        })
        .map(Some)
}

/// Builds one set into `dir` and tells `tables` of each table written.
fn build_set(
    tables: &EndgameTables,
    dir: &std::path::Path,
    set: TableSet,
    ready: &impl Fn(&SetReady),
) {
    let opts = GenerateOptions {
        variant: set.variant,
        pieces: set.pieces,
        dir: dir.to_path_buf(),
        // One table at a time: the bot's own work keeps the other cores.
        threads: 1,
        force: false,
        only: None,
    };
    let started = Instant::now();
    let written = |t: &TableBuilt| {
        if t.time.is_some() {
            tables.rescan_variant(set.variant);
        }
    };
    match generate(&opts, written) {
        Ok(built) => {
            // Tables another process wrote meanwhile, read rather than built, are found too.
            tables.rescan_variant(set.variant);
            let report = SetReady {
                set,
                tables: built.len(),
                built: built.iter().filter(|t| t.time.is_some()).count(),
                took: started.elapsed(),
            };
            tracing::info!(
                "endgame tables: {set} ready in {} ({} tables, {} built in {:.1} s)",
                dir.display(),
                report.tables,
                report.built,
                report.took.as_secs_f64()
            );
            ready(&report);
        }
        Err(e) => {
            tracing::error!(
                "endgame tables: cannot build {set} in {}: {e}; Expert plays those endings \
                 with its search alone",
                dir.display()
            );
        }
    }
}

/// The lowest priority there is (Linux niceness, 0–19): below the search threads' 10, so the
/// builder yields the CPU to everything else in the process and on the machine.
const BUILDER_NICENESS: i32 = 19;
