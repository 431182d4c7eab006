//! Open challenges: one per channel, taken at most once.

use super::codec::{decode, decode_u64, encode, id_key};
use super::kv::Scan;
use super::records::Challenge;
use super::{Store, StoreError, TREE_CHALLENGES};

impl Store {
    /// Opens a challenge in a channel. One open challenge per channel, keyed by the channel
    /// alone: a channel shows one board and one challenge message at a time. A newer
    /// challenge replaces one that has expired (at `c.created_at_ms`) or that the same
    /// challenger made; otherwise [`StoreError::ChallengeExists`].
    pub async fn put_challenge(&self, channel_id: u64, c: &Challenge) -> Result<(), StoreError> {
        let new_bytes = encode("challenge", c)?;
        self.swap_challenge(channel_id, |existing| match existing {
            Some(existing)
                if !existing.is_expired(c.created_at_ms)
                    && existing.challenger.user_id != c.challenger.user_id =>
            {
                Err(StoreError::ChallengeExists {
                    challenge: Box::new(existing.clone()),
                })
            }
            _ => Ok(Some(Some(new_bytes.clone()))),
        })
        .await?;
        Ok(())
    }

    /// Records the message that shows the channel's challenge made at `created_at_ms`, so
    /// that it can be edited when the challenge expires. `Ok(false)` when that challenge is
    /// no longer open (taken, replaced).
    pub async fn set_challenge_message(
        &self,
        channel_id: u64,
        created_at_ms: u64,
        message_id: u64,
    ) -> Result<bool, StoreError> {
        self.swap_challenge(channel_id, |existing| match existing {
            Some(c) if c.created_at_ms == created_at_ms => {
                let c = Challenge {
                    message_id: Some(message_id),
                    ..c.clone()
                };
                encode("challenge", &c).map(|b| Some(Some(b)))
            }
            _ => Ok(None),
        })
        .await
        .map(|swapped| swapped.is_some())
    }

    /// Removes the channel's challenge if `take` accepts it, and returns it. Atomic: of two
    /// concurrent calls (two Accept clicks) at most one gets the challenge. `take` sees the
    /// challenge as stored now: check there who may accept or cancel it and whether it
    /// has expired.
    pub async fn take_challenge(
        &self,
        channel_id: u64,
        take: impl Fn(&Challenge) -> bool,
    ) -> Result<Option<Challenge>, StoreError> {
        let swapped = self
            .swap_challenge(channel_id, |existing| {
                Ok(existing.filter(|c| take(c)).map(|_| None))
            })
            .await?;
        Ok(swapped.flatten())
    }

    pub fn challenge(&self, channel_id: u64) -> Result<Option<Challenge>, StoreError> {
        let key = id_key(channel_id);
        let Some(bytes) = self.read(TREE_CHALLENGES, &key)? else {
            return Ok(None);
        };
        let c = decode(TREE_CHALLENGES, &key, &bytes)?;
        // What an acceptance built on this read expects to take.
        self.seen.put(TREE_CHALLENGES, channel_id, &bytes);
        Ok(Some(c))
    }

    /// Every open challenge with its channel (the sweeper expires the old ones).
    pub fn open_challenges(&self) -> Result<Vec<(u64, Challenge)>, StoreError> {
        let mut out = Vec::new();
        for (k, v) in self.scan(TREE_CHALLENGES, Scan::all())? {
            let channel = decode_u64(TREE_CHALLENGES, &k, &k)?;
            out.push((channel, decode(TREE_CHALLENGES, &k, &v)?));
        }
        Ok(out)
    }

    /// Compare-and-swap loop on a channel's challenge. `change` sees the stored challenge and
    /// says what to write: `None` nothing (then nothing is flushed either), `Some(None)`
    /// remove it, `Some(Some(bytes))` write those. Returns the challenge that was replaced
    /// (`Some(old)`) when something was written.
    ///
    /// The challenge as this process last read or wrote it ([`super::seen`]) is tried first,
    /// without reading it again (on PostgreSQL a round trip fewer for the acceptance, which
    /// has just read it, and for the challenge's message, written just before): anything
    /// stored since makes the swap fail, and only what is stored now can refuse the change.
    async fn swap_challenge(
        &self,
        channel_id: u64,
        change: impl Fn(Option<&Challenge>) -> Result<Option<Option<Vec<u8>>>, StoreError>,
    ) -> Result<Option<Option<Challenge>>, StoreError> {
        let key = id_key(channel_id);
        let mut remembered = self.seen.get(TREE_CHALLENGES, channel_id);
        let replaced = loop {
            let from_memory = remembered.is_some();
            let old = match remembered.take() {
                Some(bytes) => Some(bytes),
                None => self.read(TREE_CHALLENGES, &key)?,
            };
            let existing: Option<Challenge> = match old
                .as_ref()
                .map(|b| decode(TREE_CHALLENGES, &key, b))
                .transpose()
            {
                Ok(existing) => existing,
                Err(_) if from_memory => continue,
                Err(e) => return Err(e),
            };
            let new = match change(existing.as_ref()) {
                Ok(Some(new)) => new,
                Ok(None) | Err(_) if from_memory => continue,
                Ok(None) => return Ok(None),
                Err(e) => return Err(e),
            };
            if self.swap(TREE_CHALLENGES, &key, old.as_deref(), new.as_deref())? {
                match &new {
                    Some(bytes) => self.seen.put(TREE_CHALLENGES, channel_id, bytes),
                    None => self.seen.forget(TREE_CHALLENGES, channel_id),
                }
                break existing;
            }
            // Something else is stored now (or the memory was stale): read it.
        };
        self.durable().await?;
        Ok(Some(replaced))
    }
}
