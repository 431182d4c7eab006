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
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Makes writes durable, one flush for every write made before it started (group commit):
/// under load, writers that arrive while a flush runs share the next one instead of each
/// waiting for a flush of its own.
pub(crate) struct Syncer {
    method: SyncMethod,
    /// Writes that asked to be made durable, counted after the write was made.
    written: AtomicU64,
    /// Every write counted up to this number is durable.
    synced: AtomicU64,
    /// One flush at a time; waiters queue here in order.
    turn: tokio::sync::Mutex<()>,
}

/// What follows sled's flush.
enum SyncMethod {
    Nothing,
    /// sled 0.34 keeps its whole log in this one file (values this small never go to its
    /// separate blob files).
    LogFile(std::fs::File),
    /// Every sync fails (tests of the fatal path).
    #[cfg(test)]
    Failing,
    /// Runs a test's probe instead of syncing.
    #[cfg(test)]
    Probe(Box<dyn Fn() -> std::io::Result<()> + Send + Sync>),
}

impl Syncer {
    pub(crate) fn open(db_path: &Path, durability: Durability) -> Result<Syncer, StoreError> {
        Ok(Syncer::with(match durability {
            Durability::Flush => SyncMethod::Nothing,
            Durability::Fsync => SyncMethod::LogFile(
                std::fs::File::open(db_path.join(SLED_LOG_FILE))
                    .map_err(|source| StoreError::Sync { source })?,
            ),
        }))
    }

    fn with(method: SyncMethod) -> Syncer {
        Syncer {
            method,
            written: AtomicU64::new(0),
            synced: AtomicU64::new(0),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    #[cfg(test)]
    fn failing() -> Syncer {
        Syncer::with(SyncMethod::Failing)
    }

    pub(crate) fn sync(&self) -> std::io::Result<()> {
        match &self.method {
            SyncMethod::Nothing => Ok(()),
            SyncMethod::LogFile(f) => f.sync_data(),
            #[cfg(test)]
            SyncMethod::Failing => Err(std::io::Error::other("injected sync failure")),
            #[cfg(test)]
            SyncMethod::Probe(probe) => probe(),
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
    ///
    /// The caller's write is already made; a flush that starts after this point covers it,
    /// and so does any flush started after a later write was counted ([`Syncer`]).
    pub(crate) async fn durable(&self) -> Result<(), StoreError> {
        let Kv::Sled(sled) = &*self.kv else {
            // Committed already: PostgreSQL answers a COMMIT once it is durable.
            return Ok(());
        };
        let sync = &sled.sync;
        let mine = sync.written.fetch_add(1, Ordering::SeqCst) + 1;
        let _turn = sync.turn.lock().await;
        if sync.synced.load(Ordering::SeqCst) >= mine {
            // A flush that started after this write was counted has finished.
            return Ok(());
        }
        // Every write counted by now was made before this flush starts.
        let covered = sync.written.load(Ordering::SeqCst);
        let kv = Arc::clone(&self.kv);
        let work = move || -> Result<(), StoreError> {
            match &*kv {
                Kv::Sled(s) => s.flush_and_sync(),
                Kv::Postgres(_) => Ok(()),
            }
        };
        let started = std::time::Instant::now();
        let done = match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt.spawn_blocking(work).await.unwrap_or_else(|e| {
                Err(StoreError::Sync {
                    source: std::io::Error::other(format!("flush task failed: {e}")),
                })
            }),
            Err(_) => work(),
        };
        crate::metrics::store_op(self.backend(), "flush", started.elapsed());
        match &done {
            Ok(()) => {
                sync.synced.fetch_max(covered, Ordering::SeqCst);
            }
            Err(e) => {
                tracing::error!("a write could not be made durable: {e}");
                (self.fatal)(e);
            }
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
            Kv::Sled(s) => s.sync = Syncer::failing(),
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
            ]
            .into(),
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

    /// A write made while a flush runs is acknowledged only after the next flush, and the
    /// writes that wait together share that one flush. Driven step by step: each flush
    /// blocks until the test releases it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_made_during_a_flush_waits_for_the_next_one_and_shares_it() {
        use std::collections::HashSet;
        use std::sync::mpsc;
        use std::time::Duration;
        const PATIENCE: Duration = Duration::from_secs(30);
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open_with(dir.path().join("db"), Durability::Flush).unwrap();
        let made = Arc::new(Mutex::new(HashSet::new()));
        let synced = Arc::new(Mutex::new(HashSet::new()));
        let (started_tx, started) = mpsc::channel::<HashSet<u32>>();
        let (release, release_rx) = mpsc::channel::<()>();
        let probe = {
            let (made, synced) = (made.clone(), synced.clone());
            let (started_tx, release_rx) = (Mutex::new(started_tx), Mutex::new(release_rx));
            move || {
                // What this flush covers: the writes made before it started.
                let covered: HashSet<u32> = made.lock().unwrap().clone();
                let _ = started_tx.lock().unwrap().send(covered.clone());
                let _ = release_rx.lock().unwrap().recv_timeout(PATIENCE);
                synced.lock().unwrap().extend(covered);
                Ok(())
            }
        };
        match Arc::get_mut(&mut store.kv).unwrap() {
            Kv::Sled(s) => s.sync = Syncer::with(SyncMethod::Probe(Box::new(probe))),
            Kv::Postgres(_) => unreachable!("opened as sled"),
        }
        // A write, then its acknowledgement: true if a flush covered it by then.
        let write = |i: u32| {
            made.lock().unwrap().insert(i);
            let (store, synced) = (store.clone(), synced.clone());
            tokio::spawn(async move {
                store.durable().await.unwrap();
                let covered = synced.lock().unwrap().contains(&i);
                covered
            })
        };
        let acked = |task: tokio::task::JoinHandle<bool>| async move {
            match tokio::time::timeout(PATIENCE, task).await {
                Ok(Ok(covered)) => covered,
                Ok(Err(e)) => panic!("writer failed: {e}"),
                Err(_) => panic!("a write waited for a flush nobody shared"),
            }
        };
        let flush_started = || {
            tokio::task::block_in_place(|| started.recv_timeout(PATIENCE))
                .expect("a flush should start")
        };

        let first = write(0);
        assert_eq!(flush_started(), HashSet::from([0]));
        // Two writes land while the first flush runs.
        let (second, third) = (write(1), write(2));
        let written = || match &*store.kv {
            Kv::Sled(s) => s.sync.written.load(Ordering::SeqCst),
            Kv::Postgres(_) => unreachable!("opened as sled"),
        };
        while written() < 3 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        release.send(()).unwrap();
        assert!(acked(first).await);
        assert_eq!(flush_started(), HashSet::from([0, 1, 2]));
        release.send(()).unwrap();
        assert!(
            acked(second).await,
            "acknowledged before a flush covered it"
        );
        assert!(acked(third).await, "acknowledged before a flush covered it");
        assert!(
            started.try_recv().is_err(),
            "the two waiting writes shared one flush"
        );
    }
}
