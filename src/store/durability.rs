//! When a write counts: every write is made durable before the store returns, and a write that
//! cannot be made durable stops the process.
//!
//! sled's flush writes its log with `sync_file_range` on Linux, which survives a crash of the
//! process but not a power cut (it flushes neither the disk's write cache nor the file's size:
//! spacejam/sled#1452). So by default the store also `fdatasync`s sled's log file after each
//! flush; [`Durability::Flush`] skips that.
//!
//! A flush or sync that fails comes after the write reached sled's memory: the change may or
//! may not be on disk, and sled's state after a failed log write is not to be trusted. Like a
//! database after a failed fsync, the store then logs the error and calls its fatal hook,
//! which by default exits the process (code [`EXIT_STORAGE_FAULT`]) so that a supervisor
//! restarts it on what is durable. No player is ever told "nothing changed" about such a
//! write.
//!
//! On PostgreSQL a write is durable once committed, before the storage layer returns; the
//! same fatal path covers a commit that got no answer ([`StoreError::OutcomeUnknown`]).

use super::kv::Kv;
use super::{Store, StoreError};
use std::path::Path;
use std::sync::Arc;

/// The exit code after a storage fault (`EX_TEMPFAIL`: try again after a restart).
pub const EXIT_STORAGE_FAULT: i32 = 75;

/// The file inside sled's folder that holds its log.
const SLED_LOG_FILE: &str = "db";

/// How far a write has gone when the store returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// sled's flush: the write survives the process being killed, not a power cut.
    Flush,
    /// sled's flush, then `fdatasync` of its log: the write survives a power cut too.
    #[default]
    Fsync,
}

/// Called with the error when a write could not be made durable. The default exits the
/// process; tests replace it ([`Store::with_fatal_hook`]).
pub type FatalHook = Arc<dyn Fn(&StoreError) + Send + Sync>;

pub(crate) fn exit_hook() -> FatalHook {
    Arc::new(|e: &StoreError| {
        tracing::error!("storage fault, stopping so that a restart resumes from disk: {e}");
        std::process::exit(EXIT_STORAGE_FAULT);
    })
}

/// What follows sled's flush.
pub(crate) enum Syncer {
    Nothing,
    /// sled 0.34 keeps its whole log in this one file (values this small never go to its
    /// separate blob files).
    LogFile(std::fs::File),
    /// Every sync fails (tests of the fatal path).
    #[cfg(test)]
    Failing,
}

impl Syncer {
    pub(crate) fn open(db_path: &Path, durability: Durability) -> Result<Syncer, StoreError> {
        Ok(match durability {
            Durability::Flush => Syncer::Nothing,
            Durability::Fsync => Syncer::LogFile(
                std::fs::File::open(db_path.join(SLED_LOG_FILE))
                    .map_err(|source| StoreError::Sync { source })?,
            ),
        })
    }

    pub(crate) fn sync(&self) -> std::io::Result<()> {
        match self {
            Syncer::Nothing => Ok(()),
            Syncer::LogFile(f) => f.sync_data(),
            #[cfg(test)]
            Syncer::Failing => Err(std::io::Error::other("injected sync failure")),
        }
    }
}

impl Store {
    /// Replaces what happens when a write cannot be made durable (by default: log and exit
    /// with [`EXIT_STORAGE_FAULT`]). The hook runs before the write's error is returned.
    pub fn with_fatal_hook(mut self, hook: FatalHook) -> Store {
        self.fatal = hook;
        self
    }

    /// Makes every write so far durable (at shutdown, say).
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.durable().await
    }

    /// Waits until every write so far survives a crash (see [`Durability`]); on failure logs,
    /// calls the fatal hook and returns the error.
    ///
    /// Not sled's `flush_async`: in 0.34 concurrent calls deadlock (spacejam/sled#1308) —
    /// they wait on sled's own thread pool, which must also run the log writes they wait
    /// for. A blocking `flush` on tokio's blocking threads leaves sled's pool free. The bot's
    /// searches run on a pool of their own, so flushes never queue behind them here.
    pub(crate) async fn durable(&self) -> Result<(), StoreError> {
        if !matches!(*self.kv, Kv::Sled(_)) {
            // Committed already: PostgreSQL answers a COMMIT once it is durable.
            return Ok(());
        }
        let kv = Arc::clone(&self.kv);
        let work = move || -> Result<(), StoreError> {
            match &*kv {
                Kv::Sled(s) => s.flush_and_sync(),
                Kv::Postgres(_) => Ok(()),
            }
        };
        let done = match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt.spawn_blocking(work).await.unwrap_or_else(|e| {
                Err(StoreError::Sync {
                    source: std::io::Error::other(format!("flush task failed: {e}")),
                })
            }),
            Err(_) => work(),
        };
        if let Err(e) = &done {
            tracing::error!("a write could not be made durable: {e}");
            (self.fatal)(e);
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;
    use crate::store::{GameRecord, Seat};
    use std::sync::Mutex;

    fn failing_store(dir: &Path) -> (Store, Arc<Mutex<Vec<String>>>) {
        let mut store = Store::open_with(dir.join("db"), Durability::Flush).unwrap();
        match Arc::get_mut(&mut store.kv).unwrap() {
            Kv::Sled(s) => s.sync = Syncer::Failing,
            Kv::Postgres(_) => unreachable!("opened as sled"),
        }
        let calls = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&calls);
        let store = store.with_fatal_hook(Arc::new(move |e: &StoreError| {
            seen.lock().unwrap().push(e.to_string());
        }));
        (store, calls)
    }

    #[tokio::test]
    async fn a_failing_sync_calls_the_fatal_hook_and_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let (store, calls) = failing_store(dir.path());
        let rec = GameRecord::new(
            1,
            None,
            2,
            Variant::Spanish,
            [
                Seat::Human {
                    user_id: 3,
                    name: "a".into(),
                },
                Seat::Human {
                    user_id: 4,
                    name: "b".into(),
                },
            ],
            0,
        );
        assert!(calls.lock().unwrap().is_empty(), "reads never sync");
        let err = store.create_game(rec).await.unwrap_err();
        assert!(matches!(err, StoreError::Sync { .. }), "{err}");
        let seen = calls.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].contains("injected sync failure"), "{seen:?}");
        // Why the process must stop rather than say "nothing changed": the write landed.
        assert_eq!(store.active_game(2).unwrap().map(|g| g.id), Some(1));
    }
}
