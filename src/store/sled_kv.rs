//! The storage layer on sled 0.34: one sled tree per tree name, in one database folder.

use super::durability::{Durability, Syncer};
use super::kv::{prefix_end, Entry, Scan, Tx, TxError, TxResult};
use super::{StoreError, TREES};
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;
use std::collections::HashMap;
use std::ops::Bound;
use std::path::Path;

/// sled's page cache ceiling; the bot's working set is a few records per active channel.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

pub(crate) struct SledKv {
    pub(crate) db: sled::Db,
    pub(crate) sync: Syncer,
    trees: HashMap<&'static str, sled::Tree>,
}

impl SledKv {
    pub fn open(path: &Path, durability: Durability) -> Result<SledKv, StoreError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::CreateDir {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let db = sled::Config::new()
            .path(path)
            .cache_capacity(CACHE_BYTES)
            .open()?;
        let mut trees = HashMap::new();
        for name in TREES {
            trees.insert(name, db.open_tree(name)?);
        }
        Ok(SledKv {
            sync: Syncer::open(path, durability)?,
            db,
            trees,
        })
    }

    /// A tree by name; one not listed in [`TREES`] is opened (and created) on first use.
    fn tree(&self, name: &'static str) -> Result<sled::Tree, StoreError> {
        match self.trees.get(name) {
            Some(t) => Ok(t.clone()),
            None => Ok(self.db.open_tree(name)?),
        }
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree)?.get(key)?.map(|v| v.to_vec()))
    }

    pub fn compare_and_swap(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, StoreError> {
        Ok(self
            .tree(tree)?
            .compare_and_swap(key, old, new.map(sled::IVec::from))?
            .is_ok())
    }

    pub fn scan(&self, tree: &'static str, scan: Scan<'_>) -> Result<Vec<Entry>, StoreError> {
        let tree = self.tree(tree)?;
        let lower = match scan.after {
            Some(after) if after >= scan.prefix => Bound::Excluded(after.to_vec()),
            _ => Bound::Included(scan.prefix.to_vec()),
        };
        let upper = prefix_end(scan.prefix).map_or(Bound::Unbounded, Bound::Excluded);
        let range = tree.range::<Vec<u8>, _>((lower, upper));
        let items: Box<dyn Iterator<Item = sled::Result<(sled::IVec, sled::IVec)>>> =
            if scan.reverse {
                Box::new(range.rev())
            } else {
                Box::new(range)
            };
        let mut out = Vec::new();
        for item in items.take(scan.limit) {
            let (k, v) = item?;
            out.push((k.to_vec(), v.to_vec()));
        }
        Ok(out)
    }

    pub fn count(&self, tree: &'static str) -> Result<u64, StoreError> {
        Ok(self.tree(tree)?.len() as u64)
    }

    pub fn transaction<T>(
        &self,
        names: &[&'static str],
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        let trees = names
            .iter()
            .map(|&n| self.tree(n))
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&sled::Tree> = trees.iter().collect();
        refs[..]
            .transaction(|views: &Vec<TransactionalTree>| {
                f(&Tx::Sled {
                    trees: names,
                    views,
                })
                .map_err(|e| match e {
                    TxError::Abort(e) | TxError::Backend(e) => {
                        ConflictableTransactionError::Abort(e)
                    }
                    TxError::Sled(e) => e.into(),
                    TxError::Pg(e) => ConflictableTransactionError::Abort(e.into()),
                    TxError::Retry => ConflictableTransactionError::Conflict,
                })
            })
            .map_err(|e| match e {
                TransactionError::Abort(e) => e,
                TransactionError::Storage(e) => StoreError::Db(e),
            })
    }

    /// sled counts from 0; ids start at 1, as PostgreSQL's sequence does, since people see
    /// them ("tournament number 1") and type them. Still larger than every id handed out by
    /// an older version, which gave sled's count as it was.
    pub fn generate_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()? + 1)
    }

    /// sled's ids cannot be set: takes ids until they pass `id` (an in-memory counter, so
    /// even millions take well under a second).
    pub fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        while self.generate_id()? <= id {}
        Ok(())
    }

    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        Ok(self.db.size_on_disk()?)
    }

    /// sled's flush, then the sync [`Durability`] asks for.
    pub fn flush_and_sync(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        self.sync
            .sync()
            .map_err(|source| StoreError::Sync { source })
    }
}
