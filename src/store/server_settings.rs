//! Each server's own settings (`/settings`): its default variant, days per move and threads,
//! the channels where games and tournaments may start, the role that organises, the language
//! of the bot's public messages — each with who last changed it and when.
//!
//! A tree of its own (`server_settings`: guild id → [`ServerSettings`]), read at every command
//! in a server (its defaults, its channels, its language). A server that never changed
//! anything has no record: it reads as [`ServerSettings::default`], the bot's own defaults.
//!
//! The store keeps what it read for [`FRESH_FOR`]: on PostgreSQL a read is a round trip, and
//! every `/move` would pay one for settings that change a few times in a server's life. A
//! change made through this store is seen at once; one made by another process sharing the
//! database, within [`FRESH_FOR`].

use super::codec::{decode, encode, id_key, Record};
use super::kv::Scan;
use super::{Store, StoreError};
use crate::engine::Variant;
use crate::lang::Lang;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const TREE_SERVER_SETTINGS: &str = "server_settings";

/// How long the settings read of a server are used without reading them again.
pub const FRESH_FOR: Duration = Duration::from_secs(30);

/// Servers whose settings are kept at most; past it the oldest reads are dropped.
const CACHED_SERVERS: usize = 10_000;

/// The servers' settings as this process last read or wrote them, with when.
#[derive(Default)]
pub(super) struct SettingsCache(Mutex<HashMap<u64, (Instant, ServerSettings)>>);

impl SettingsCache {
    fn get(&self, guild_id: u64) -> Option<ServerSettings> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&guild_id)
            .filter(|(at, _)| at.elapsed() < FRESH_FOR)
            .map(|(_, s)| s.clone())
    }

    fn put(&self, guild_id: u64, settings: &ServerSettings) {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= CACHED_SERVERS && !map.contains_key(&guild_id) {
            map.retain(|_, (at, _)| at.elapsed() < FRESH_FOR);
            if map.len() >= CACHED_SERVERS {
                map.clear();
            }
        }
        map.insert(guild_id, (Instant::now(), settings.clone()));
    }

    fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

/// Who last changed a setting, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed {
    /// The member who changed it; `None` once they erased themselves (`/forget-me`): the
    /// setting is the server's and stays, the person's id does not.
    pub by: Option<u64>,
    /// Unix time in milliseconds.
    pub at_ms: u64,
}

/// One setting: its value (`None`: the bot's default) and its last change, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting<T> {
    pub value: Option<T>,
    pub changed: Option<Changed>,
}

impl<T> Default for Setting<T> {
    fn default() -> Setting<T> {
        Setting {
            value: None,
            changed: None,
        }
    }
}

impl<T> Setting<T> {
    /// Sets (or, with `None`, resets) the value, recording who did and when.
    pub fn set(&mut self, value: Option<T>, by: u64, at_ms: u64) {
        self.value = value;
        self.changed = Some(Changed {
            by: Some(by),
            at_ms,
        });
    }
}

/// A server's settings. Every field is the server's choice or, when `None`, the bot's default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSettings {
    /// The variant of `/play`, `/challenge` and `/tournament create` when none is named.
    pub variant: Setting<Variant>,
    /// The days per move of `/challenge` and `/tournament create` when none is given.
    pub days_per_move: Setting<u8>,
    /// Whether new games open in a thread of their own when the command does not say.
    pub threads: Setting<bool>,
    /// The channels where games and tournaments may start; `None` (never an empty list):
    /// every channel.
    pub channels: Setting<Vec<u64>>,
    /// A role whose members may organise tournaments and cancel games.
    pub organiser_role: Setting<u64>,
    /// The language of the bot's public messages in the server.
    pub language: Setting<Lang>,
}

impl ServerSettings {
    /// Every change's author id is dropped where it is `user_id`; whether any was.
    fn forget(&mut self, user_id: u64) -> bool {
        let mut changed = false;
        for c in [
            &mut self.variant.changed,
            &mut self.days_per_move.changed,
            &mut self.threads.changed,
            &mut self.channels.changed,
            &mut self.organiser_role.changed,
            &mut self.language.changed,
        ]
        .into_iter()
        .flatten()
        {
            if c.by == Some(user_id) {
                c.by = None;
                changed = true;
            }
        }
        changed
    }

    /// Whether `user_id` made the last change of any setting.
    pub fn changed_by(&self, user_id: u64) -> bool {
        [
            self.variant.changed,
            self.days_per_move.changed,
            self.threads.changed,
            self.channels.changed,
            self.organiser_role.changed,
            self.language.changed,
        ]
        .into_iter()
        .flatten()
        .any(|c| c.by == Some(user_id))
    }
}

/// First written in format version 3. Listed here so that a later format version reads these
/// records still (with their layout unchanged, as long as nothing is added to them).
impl Record for ServerSettings {
    fn decode_old(version: u8, body: &[u8]) -> Option<postcard::Result<(Self, &[u8])>> {
        (version == 3).then(|| postcard::take_from_bytes(body))
    }
}

/// How many times a change is tried again when another process changed the same server's
/// settings in between.
const ATTEMPTS: usize = 10;

impl Store {
    /// The settings of `guild_id`: the bot's defaults where it never changed any.
    /// (As this process read them in the last [`FRESH_FOR`].)
    pub fn server_settings(&self, guild_id: u64) -> Result<ServerSettings, StoreError> {
        if let Some(settings) = self.server_settings_cache.get(guild_id) {
            return Ok(settings);
        }
        let key = id_key(guild_id);
        let settings = self
            .read(TREE_SERVER_SETTINGS, &key)?
            .map(|v| decode(TREE_SERVER_SETTINGS, &key, &v))
            .transpose()?
            .unwrap_or_default();
        self.server_settings_cache.put(guild_id, &settings);
        Ok(settings)
    }

    /// Applies `change` to the settings of `guild_id` and stores them (again from a fresh
    /// read when another process changed them first); durable before it returns. Returns the
    /// settings as stored.
    pub async fn change_server_settings(
        &self,
        guild_id: u64,
        change: impl Fn(&mut ServerSettings),
    ) -> Result<ServerSettings, StoreError> {
        let key = id_key(guild_id);
        for _ in 0..ATTEMPTS {
            let old = self.read(TREE_SERVER_SETTINGS, &key)?;
            let mut settings: ServerSettings = old
                .as_deref()
                .map(|v| decode(TREE_SERVER_SETTINGS, &key, v))
                .transpose()?
                .unwrap_or_default();
            change(&mut settings);
            let bytes = encode("server settings", &settings)?;
            if self.swap(TREE_SERVER_SETTINGS, &key, old.as_deref(), Some(&bytes))? {
                self.durable().await?;
                self.server_settings_cache.put(guild_id, &settings);
                return Ok(settings);
            }
        }
        Err(StoreError::KeptChanging {
            what: "the server's settings",
        })
    }

    /// Every server's settings that `user_id` last changed (for what the bot keeps about them).
    pub fn server_settings_changed_by(
        &self,
        user_id: u64,
    ) -> Result<Vec<(u64, ServerSettings)>, StoreError> {
        let mut found = Vec::new();
        for (key, bytes) in self.scan(TREE_SERVER_SETTINGS, Scan::all())? {
            let settings: ServerSettings = decode(TREE_SERVER_SETTINGS, &key, &bytes)?;
            if settings.changed_by(user_id) {
                let guild = super::codec::decode_u64(TREE_SERVER_SETTINGS, &key, &key)?;
                found.push((guild, settings));
            }
        }
        Ok(found)
    }

    /// `/forget-me`: the settings stay (they are the server's), but no longer say that
    /// `user_id` changed them. Returns how many servers' settings named them.
    pub(crate) async fn forget_in_server_settings(
        &self,
        user_id: u64,
    ) -> Result<usize, StoreError> {
        let mut changed = 0;
        for (key, first) in self.scan(TREE_SERVER_SETTINGS, Scan::all())? {
            let mut current = first;
            for _ in 0..ATTEMPTS {
                let mut settings: ServerSettings = decode(TREE_SERVER_SETTINGS, &key, &current)?;
                if !settings.forget(user_id) {
                    break;
                }
                let bytes = encode("server settings", &settings)?;
                if self.swap(TREE_SERVER_SETTINGS, &key, Some(&current), Some(&bytes))? {
                    changed += 1;
                    break;
                }
                match self.read(TREE_SERVER_SETTINGS, &key)? {
                    Some(now) => current = now,
                    None => break,
                }
            }
        }
        if changed > 0 {
            self.server_settings_cache.clear();
            self.durable().await?;
        }
        Ok(changed)
    }
}
