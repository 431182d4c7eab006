//! The storage layer under the record-level code: named trees of byte keys → byte values, with
//! get, compare-and-swap, ordered scans and multi-tree transactions, on sled or PostgreSQL.
//!
//! Everything above this module (games, challenges, archive, leaderboards, erasure) is written
//! once against these operations, so a store method added there works on both backends. Keys
//! sort bytewise on both: sled orders keys so, and PostgreSQL's `bytea` compares bytewise.
//!
//! Each operation is synchronous, as sled's are. The PostgreSQL backend runs its async driver
//! on a runtime of its own and waits for it (see [`super::pg`]), so the record-level code and
//! its callers do not change with the backend.

use super::pg::{PgKv, PgTx};
use super::sled_kv::SledKv;
use super::StoreError;

/// An ordered read of one tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scan<'a> {
    /// Only keys starting with these bytes.
    pub prefix: &'a [u8],
    /// Only keys after this one (forward scans only: pages through a tree).
    pub after: Option<&'a [u8]>,
    /// Largest key first.
    pub reverse: bool,
    /// At most this many entries.
    pub limit: usize,
}

impl<'a> Scan<'a> {
    /// Every key starting with `prefix`, smallest first.
    pub fn prefix(prefix: &'a [u8]) -> Scan<'a> {
        Scan {
            prefix,
            after: None,
            reverse: false,
            limit: usize::MAX,
        }
    }

    pub fn all() -> Scan<'static> {
        Scan::prefix(&[])
    }

    pub fn reversed(self) -> Scan<'a> {
        Scan {
            reverse: true,
            ..self
        }
    }

    pub fn limit(self, limit: usize) -> Scan<'a> {
        Scan { limit, ..self }
    }
}

/// The smallest key larger than every key starting with `prefix`; `None` when there is none
/// (an empty prefix, or one of 0xff bytes only).
pub(crate) fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

pub(crate) type Entry = (Vec<u8>, Vec<u8>);

/// A key that must hold exactly `value` for a write elsewhere to happen
/// ([`Kv::compare_and_swap_guarded`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard<'a> {
    pub tree: &'static str,
    pub key: &'a [u8],
    pub value: &'a [u8],
}

/// Why a transaction's closure stopped.
#[derive(Debug)]
pub(crate) enum TxError {
    /// The closure refused: the transaction is rolled back and this is its result.
    Abort(StoreError),
    /// sled saw a conflict or failed: sled retries or reports it.
    Sled(sled::transaction::UnabortableTransactionError),
    /// PostgreSQL failed; a serialization failure retries the closure.
    Pg(tokio_postgres::Error),
    /// The PostgreSQL backend could not run the statement (pool or runtime).
    Backend(StoreError),
    /// A key the closure found absent was inserted meanwhile by another transaction
    /// ([`Tx::insert_new`]): the closure runs again and finds it.
    Retry,
}

pub(crate) type TxResult<T> = Result<T, TxError>;

impl TxError {
    /// The store's error for a transaction that ended with this.
    pub fn into_store(self) -> StoreError {
        use sled::transaction::UnabortableTransactionError as Sled;
        match self {
            TxError::Abort(e) | TxError::Backend(e) => e,
            TxError::Pg(e) => StoreError::Postgres(e),
            TxError::Sled(Sled::Storage(e)) => StoreError::Db(e),
            TxError::Sled(Sled::Conflict) => {
                StoreError::Pool("a sled conflict outside a sled transaction".to_string())
            }
            TxError::Retry => StoreError::Pool("a retry outside a transaction".to_string()),
        }
    }
}

/// Ends a transaction with `e` as its result.
pub(crate) fn abort<T>(e: StoreError) -> TxResult<T> {
    Err(TxError::Abort(e))
}

impl From<sled::transaction::UnabortableTransactionError> for TxError {
    fn from(e: sled::transaction::UnabortableTransactionError) -> TxError {
        TxError::Sled(e)
    }
}

/// The reads and writes of one transaction. Reads see the transaction's own writes.
pub(crate) enum Tx<'a> {
    Sled {
        trees: &'a [&'static str],
        views: &'a [sled::transaction::TransactionalTree],
    },
    Pg(&'a PgTx<'a>),
}

impl Tx<'_> {
    fn sled_view<'v>(
        trees: &[&'static str],
        views: &'v [sled::transaction::TransactionalTree],
        tree: &'static str,
    ) -> TxResult<&'v sled::transaction::TransactionalTree> {
        trees
            .iter()
            .position(|&t| t == tree)
            .map(|i| &views[i])
            .ok_or(TxError::Abort(StoreError::TreeNotInTransaction(tree)))
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        match self {
            Tx::Sled { trees, views } => Ok(Self::sled_view(trees, views, tree)?
                .get(key)?
                .map(|v| v.to_vec())),
            Tx::Pg(tx) => tx.get(tree, key),
        }
    }

    /// [`Tx::get`], and the key's row locked until the transaction ends: another
    /// transaction's write of it waits (or, if it is `SERIALIZABLE` and read it before,
    /// fails and runs again). What a [`Kv::transaction_locking`] reads to write it back is
    /// read so. sled's transactions are serializable: a plain read.
    pub fn get_locked(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        match self {
            Tx::Sled { .. } => self.get(tree, key),
            Tx::Pg(tx) => tx.get_locked(tree, key),
        }
    }

    /// Writes a key the transaction found absent: `Ok(false)`, and nothing written, when it
    /// holds a value now. On PostgreSQL one statement (`INSERT … ON CONFLICT DO NOTHING`), whose
    /// primary key makes it the guard of "absent" however the transaction is isolated.
    pub fn insert_new(&self, tree: &'static str, key: &[u8], value: &[u8]) -> TxResult<bool> {
        match self {
            Tx::Sled { .. } => {
                if self.get(tree, key)?.is_some() {
                    return Ok(false);
                }
                self.insert(tree, key, value)?;
                Ok(true)
            }
            Tx::Pg(tx) => tx.insert_new(tree, key, value),
        }
    }

    pub fn insert(&self, tree: &'static str, key: &[u8], value: &[u8]) -> TxResult<()> {
        match self {
            Tx::Sled { trees, views } => {
                Self::sled_view(trees, views, tree)?.insert(key, value)?;
                Ok(())
            }
            Tx::Pg(tx) => tx.insert(tree, key, value),
        }
    }

    /// Removes the key; returns the value it had.
    pub fn remove(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        match self {
            Tx::Sled { trees, views } => Ok(Self::sled_view(trees, views, tree)?
                .remove(key)?
                .map(|v| v.to_vec())),
            Tx::Pg(tx) => tx.remove(tree, key),
        }
    }
}

/// How a PostgreSQL transaction is isolated ([`Kv::transaction`], [`Kv::transaction_locking`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isolation {
    Serializable,
    ReadCommitted,
}

/// Where the store keeps its trees.
pub(crate) enum Kv {
    Sled(SledKv),
    Postgres(PgKv),
}

impl Kv {
    pub fn get(&self, tree: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Kv::Sled(s) => s.get(tree, key),
            Kv::Postgres(p) => p.get(tree, key),
        }
    }

    /// Writes `new` (or removes the key for `None`) if the key holds `old` (`None`: absent)
    /// now. `false`, and nothing written, when it holds something else.
    pub fn compare_and_swap(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, StoreError> {
        match self {
            Kv::Sled(s) => s.compare_and_swap(tree, key, old, new),
            Kv::Postgres(p) => p.compare_and_swap(tree, key, old, new),
        }
    }

    /// [`Kv::compare_and_swap`] of `key` from `old` to `new`, made only if `guard`'s key
    /// holds `guard.value` too, both checked at once: one statement on PostgreSQL, a
    /// transaction on sled. `false`, and nothing written, when either holds something else.
    pub fn compare_and_swap_guarded(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: &[u8],
        guard: Guard<'_>,
    ) -> Result<bool, StoreError> {
        match self {
            Kv::Sled(_) => self.transaction(&[tree, guard.tree], |tx| {
                if tx.get(guard.tree, guard.key)?.as_deref() != Some(guard.value)
                    || tx.get(tree, key)?.as_deref() != old
                {
                    return Ok(false);
                }
                tx.insert(tree, key, new)?;
                Ok(true)
            }),
            Kv::Postgres(p) => p.compare_and_swap_guarded(tree, key, old, new, guard),
        }
    }

    pub fn scan(&self, tree: &'static str, scan: Scan<'_>) -> Result<Vec<Entry>, StoreError> {
        match self {
            Kv::Sled(s) => s.scan(tree, scan),
            Kv::Postgres(p) => p.scan(tree, scan),
        }
    }

    pub fn count(&self, tree: &'static str) -> Result<u64, StoreError> {
        match self {
            Kv::Sled(s) => s.count(tree),
            Kv::Postgres(p) => p.count(tree),
        }
    }

    /// Runs `f` in one transaction over `trees`: all its writes land or none do. `f` may run
    /// more than once (after a conflict), so it must not have effects of its own.
    pub fn transaction<T>(
        &self,
        trees: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        self.isolated(Isolation::Serializable, trees, f)
    }

    fn isolated<T>(
        &self,
        isolation: Isolation,
        trees: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        // Each run after the first is a retry after a conflict (sled and PostgreSQL alike).
        // sled's transactions are serializable whatever is asked.
        let runs = std::sync::atomic::AtomicU32::new(0);
        let backend = self.backend();
        let counted = |tx: &Tx<'_>| {
            if runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 0 {
                crate::metrics::store_conflict_retried(backend);
            }
            f(tx)
        };
        match self {
            Kv::Sled(s) => s.transaction(trees, counted),
            Kv::Postgres(p) => p.transaction(isolation, counted),
        }
    }

    /// [`Kv::transaction`] for a closure that guards what it relies on itself: every key it
    /// reads to write back is read with [`Tx::get_locked`], every key it found absent is
    /// written with [`Tx::insert_new`]. On PostgreSQL it runs `READ COMMITTED`: two such
    /// transactions on different keys never fail each other, where `SERIALIZABLE`'s
    /// predicate locks on index pages make many that start together (a burst of new games)
    /// fail and run again. On sled, the same serializable transaction as ever.
    pub fn transaction_locking<T>(
        &self,
        trees: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        self.isolated(Isolation::ReadCommitted, trees, f)
    }

    /// "sled" or "postgres".
    pub fn backend(&self) -> &'static str {
        match self {
            Kv::Sled(_) => "sled",
            Kv::Postgres(_) => "postgres",
        }
    }

    /// Whether the store answers now (sled, in this process, always does).
    pub fn ping(&self) -> Result<(), StoreError> {
        match self {
            Kv::Sled(_) => Ok(()),
            Kv::Postgres(p) => p.ping(),
        }
    }

    pub fn generate_id(&self) -> Result<u64, StoreError> {
        match self {
            Kv::Sled(s) => s.generate_id(),
            Kv::Postgres(p) => p.generate_id(),
        }
    }

    /// Makes later [`Kv::generate_id`]s larger than `id`.
    pub fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        match self {
            Kv::Sled(s) => s.ids_above(id),
            Kv::Postgres(p) => p.ids_above(id),
        }
    }

    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        match self {
            Kv::Sled(s) => s.size_on_disk(),
            Kv::Postgres(p) => p.size_on_disk(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_ends_after_its_last_key() {
        assert_eq!(prefix_end(&[1, 2]), Some(vec![1, 3]));
        assert_eq!(prefix_end(&[1, 0xff]), Some(vec![2]));
        assert_eq!(prefix_end(&[0xff, 0xff]), None);
        assert_eq!(prefix_end(&[]), None);
    }
}
