//! Interactions already acted on, shared by the processes of one PostgreSQL database: a
//! Discord interaction replayed to another process than the one that took it (several
//! `damas serve` behind one address) is refused there too. A row of `seen_interactions`
//! (migration 5) per interaction, deleted once older than the replay window.
//!
//! sled is opened by one process only: there [`Store::first_sighting`] is `None` and the
//! caller's memory of what it took suffices.

use super::{Kv, Store, StoreError};
use std::time::Duration;

impl Store {
    /// Records interaction `id` as being acted on. `Some(true)` the first time any process of
    /// this database records it, `Some(false)` after; `None` on sled. An error means it is not
    /// known whether another process took it: refuse it.
    pub fn first_sighting(&self, id: u64) -> Result<Option<bool>, StoreError> {
        match &*self.kv {
            Kv::Sled(_) => Ok(None),
            Kv::Postgres(pg) => pg.first_sighting(id).map(Some),
        }
    }

    /// Forgets the interactions recorded more than `age` ago (no replay can be that old).
    pub fn forget_sightings(&self, age: Duration) -> Result<(), StoreError> {
        match &*self.kv {
            Kv::Sled(_) => Ok(()),
            Kv::Postgres(pg) => pg.forget_sightings(age).map(|_| ()),
        }
    }
}
