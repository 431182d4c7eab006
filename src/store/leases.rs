//! Leases on the bot's turn in a channel, for processes sharing one PostgreSQL database: the
//! process holding a channel's lease is the one that searches and stores the bot's move
//! there, so N processes triggered at once (an interaction, another's catch-up) make one
//! search, not N. The moves themselves stay safe without it (every move is a
//! compare-and-swap); the lease saves the duplicate work and the answers that would lose the
//! race.
//!
//! A lease is a row of `bot_turn_leases` (migration 4): taken in one statement
//! ([`super::pg`]), kept alive every `ttl / 3` while its holder works, deleted when the
//! [`LeaseGuard`] is dropped. A process that dies leaves its row behind; it expires `ttl`
//! after its last renewal and is then taken over.
//!
//! A move searched in a few milliseconds (easy, medium) takes no row: two processes searching
//! it at once waste less than the row's claim and release would cost every move
//! ([`BotTurnLeases::claim_here`]).
//!
//! sled is opened by one process only: there [`Store::bot_turn_leases`] is `None` and the
//! caller keeps its in-process claims.

use super::{Kv, Store, StoreError};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a lease outlives its holder's last renewal: the longest a crashed process can
/// keep a game waiting for the bot.
pub const BOT_TURN_LEASE_TTL: Duration = Duration::from_secs(30);

/// A name for this process as a lease holder, unique among the processes sharing the
/// database: host, process id and start time (the id alone repeats across machines and
/// restarts). Readable, so that `SELECT * FROM bot_turn_leases` says who is thinking.
pub fn this_process() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown-host".to_owned());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("{host}/{}/{started}", std::process::id())
}

/// The bot-turn leases of one process on a shared database. Cheap to clone.
#[derive(Clone)]
pub struct BotTurnLeases {
    store: Store,
    holder: Arc<str>,
    ttl: Duration,
    /// Numbers this process's claims, so that a guard deletes its own row and never the row
    /// of a later claim of the same channel.
    claims: Arc<AtomicU64>,
    /// Channels whose guard is alive in this process.
    held: Arc<Mutex<HashSet<u64>>>,
}

impl std::fmt::Debug for BotTurnLeases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotTurnLeases")
            .field("holder", &self.holder)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Leases on the bot's turn for the process named `holder` (see [`this_process`]),
    /// lasting `ttl` past their last renewal. `None` on sled, which one process owns: its
    /// in-process claims suffice.
    pub fn bot_turn_leases(&self, holder: &str, ttl: Duration) -> Option<BotTurnLeases> {
        match *self.kv {
            Kv::Sled(_) => None,
            Kv::Postgres(_) => Some(BotTurnLeases {
                store: self.clone(),
                holder: holder.into(),
                ttl,
                claims: Arc::default(),
                held: Arc::default(),
            }),
        }
    }
}

impl BotTurnLeases {
    /// Claims the bot's turn in `channel`: `None` if another process, or another task of this
    /// one, holds it. Released when the guard is dropped.
    pub fn claim(&self, channel: u64) -> Result<Option<LeaseGuard>, StoreError> {
        if !self.held_set().insert(channel) {
            return Ok(None);
        }
        let holder = format!(
            "{} #{}",
            self.holder,
            self.claims.fetch_add(1, Ordering::Relaxed)
        );
        let taken = match &*self.store.kv {
            Kv::Postgres(pg) => pg.claim_lease(channel, &holder, self.ttl),
            Kv::Sled(_) => Ok(true),
        };
        match taken {
            Ok(true) => {
                let renewal = match &*self.store.kv {
                    Kv::Postgres(pg) => Some(pg.keep_lease(channel, &holder, self.ttl)),
                    Kv::Sled(_) => None,
                };
                crate::metrics::lease_taken();
                Ok(Some(LeaseGuard {
                    leases: self.clone(),
                    channel,
                    holder,
                    row: true,
                    renewal,
                }))
            }
            Ok(false) | Err(_) => {
                self.held_set().remove(&channel);
                taken.map(|_| None)
            }
        }
    }

    /// Claims the bot's turn in `channel` in this process only, with no row: for a move so
    /// quick that another process searching it too costs less than the row's two statements
    /// on every move (the game's compare-and-swap lets one of them make it). `None` if a task
    /// of this process holds the turn. Released when the guard is dropped.
    pub fn claim_here(&self, channel: u64) -> Option<LeaseGuard> {
        self.held_set().insert(channel).then(|| LeaseGuard {
            leases: self.clone(),
            channel,
            holder: format!("{} (this process only)", self.holder),
            row: false,
            renewal: None,
        })
    }

    /// Whether a guard of this process holds `channel`'s lease now.
    pub fn held_here(&self, channel: u64) -> bool {
        self.held_set().contains(&channel)
    }

    /// The name this process's claims carry (each adds ` #n`).
    pub fn holder(&self) -> &str {
        &self.holder
    }

    fn held_set(&self) -> std::sync::MutexGuard<'_, HashSet<u64>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The bot's turn in one channel, held until dropped (also on panic): dropping it stops the
/// renewals and deletes the row, so that the next claim, in any process, succeeds at once.
pub struct LeaseGuard {
    leases: BotTurnLeases,
    channel: u64,
    /// This claim's holder text (the process's name and the claim's number).
    holder: String,
    /// Whether the claim has a row in `bot_turn_leases` ([`BotTurnLeases::claim`]) or lives
    /// in this process only ([`BotTurnLeases::claim_here`]).
    row: bool,
    renewal: Option<tokio::task::AbortHandle>,
}

impl LeaseGuard {
    pub fn channel(&self) -> u64 {
        self.channel
    }

    /// The holder text of this claim, as in the lease row.
    pub fn holder(&self) -> &str {
        &self.holder
    }
}

impl std::fmt::Debug for LeaseGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeaseGuard")
            .field("channel", &self.channel)
            .field("holder", &self.holder)
            .finish_non_exhaustive()
    }
}

impl Drop for LeaseGuard {
    fn drop(&mut self) {
        if self.row {
            crate::metrics::lease_released();
        }
        if let Some(renewal) = self.renewal.take() {
            renewal.abort();
        }
        if let (true, Kv::Postgres(pg)) = (self.row, &*self.leases.store.kv) {
            // A release that fails leaves the row to expire: the game waits at most the ttl.
            if let Err(e) = pg.release_lease(self.channel, &self.holder) {
                tracing::warn!(
                    "cannot release the bot's turn in channel {}: {e}",
                    self.channel
                );
            }
        }
        self.leases.held_set().remove(&self.channel);
    }
}
