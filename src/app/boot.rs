//! One way to start the application for every front end (the gateway, the HTTP endpoint,
//! the console): the store opened with the settings' timeouts, the app configured from the
//! settings, and — where several processes share PostgreSQL — the claims on the bot's turns.
//! Front ends never open the store themselves.

use super::{App, Config};
use crate::app::settings::Settings;
use crate::store::{Durability, Store, StoreError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The store could not be opened or flushed.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot open the database at {}: {source}",
    crate::store::printable(path)
)]
pub struct BootError {
    pub path: PathBuf,
    #[source]
    pub source: StoreError,
}

/// The expert level's thinking time a move (no setting changes it).
pub const EXPERT_TIME: std::time::Duration = std::time::Duration::from_secs(2);

impl From<&Settings> for Config {
    /// The settings an operator sets (`DAMAS_*`), as the app reads them; what no variable sets
    /// (Expert's time, the bot's seed) keeps its default.
    fn from(settings: &Settings) -> Config {
        Config {
            challenge_ttl: settings.challenge_ttl,
            move_time: settings.move_time,
            search_threads: settings.search_threads,
            search_memory_mb: settings.search_memory_mb,
            max_bot_games: settings.max_bot_games,
            max_challenges: settings.max_challenges,
            max_reviews: settings.max_reviews,
            search_queue: settings.search_queue,
            expert_time: EXPERT_TIME,
            bot_seed: None,
        }
    }
}

/// Where the database lives: `DAMAS_DB` (a folder, or a PostgreSQL URL), or `./data/damas.db`.
pub fn db_from_vars(var: impl Fn(&str) -> Option<String>) -> PathBuf {
    var(crate::store::DB_ENV)
        .filter(|v| !v.trim().is_empty())
        .map_or_else(
            || PathBuf::from(crate::store::DEFAULT_DB_PATH),
            PathBuf::from,
        )
}

/// Opens the database at `db` (a sled folder or a PostgreSQL URL) with the settings' timeouts
/// and builds the app over it with `config`.
pub fn boot(db: &Path, settings: &Settings, config: Config) -> Result<App, BootError> {
    let store = Store::open_configured(db, Durability::default(), settings.db_timeouts).map_err(
        |source| BootError {
            path: db.to_path_buf(),
            source,
        },
    )?;
    let app = App::new(store.clone(), config);
    // Processes sharing PostgreSQL claim the bot's turns there; sled's one process, here.
    Ok(
        match store.bot_turn_leases(
            &crate::store::leases::this_process(),
            crate::store::BOT_TURN_LEASE_TTL,
        ) {
            Some(leases) => {
                tracing::info!("the bot's turns are claimed as {}", leases.holder());
                app.with_bot_turn_claims(Arc::new(leases))
            }
            None => app,
        },
    )
}

impl App {
    /// Writes what the store still holds in memory to disk (the last step of a shutdown).
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.store.flush().await
    }

    /// Whether the store answers a statement now (readiness probes). Blocks: call it off the
    /// async workers.
    pub fn ping_store(&self) -> Result<(), StoreError> {
        self.store.ping()
    }

    /// Records that the interaction `id` arrived: `Some(true)` the first time any process of
    /// this store saw it, `Some(false)` when one already had (a replay), `None` where the
    /// store keeps no shared record (sled: one process).
    pub fn first_sighting(&self, id: u64) -> Result<Option<bool>, StoreError> {
        self.store.first_sighting(id)
    }

    /// Forgets the sightings older than `age`: no replay can match them any more.
    pub fn forget_sightings(&self, age: std::time::Duration) -> Result<(), StoreError> {
        self.store.forget_sightings(age)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_setting_reaches_the_app() {
        let settings = Settings {
            move_time: Duration::from_secs(7),
            challenge_ttl: Duration::from_secs(11),
            search_threads: 5,
            search_memory_mb: 13,
            max_bot_games: 17,
            max_challenges: 19,
            max_reviews: 23,
            search_queue: 29,
            ..Settings::default()
        };
        let config = Config::from(&settings);
        assert_eq!(config.move_time, settings.move_time);
        assert_eq!(config.challenge_ttl, settings.challenge_ttl);
        assert_eq!(config.search_threads, 5);
        assert_eq!(config.search_memory_mb, 13);
        assert_eq!(config.max_bot_games, 17);
        assert_eq!(config.max_challenges, 19);
        assert_eq!(config.max_reviews, 23);
        assert_eq!(config.search_queue, 29);
        assert_eq!(config.expert_time, Config::default().expert_time);
    }

    #[test]
    fn the_database_path_comes_from_damas_db() {
        assert_eq!(
            db_from_vars(|_| None),
            PathBuf::from(crate::store::DEFAULT_DB_PATH)
        );
        assert_eq!(
            db_from_vars(|_| Some("  ".into())),
            PathBuf::from(crate::store::DEFAULT_DB_PATH)
        );
        let set = |name: &str| (name == crate::store::DB_ENV).then(|| "/srv/damas".to_string());
        assert_eq!(db_from_vars(set), PathBuf::from("/srv/damas"));
    }

    #[tokio::test]
    async fn a_database_that_cannot_open_is_named_in_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-folder");
        std::fs::write(&file, b"x").unwrap();
        let settings = Settings::default();
        let e = boot(&file, &settings, Config::from(&settings))
            .err()
            .expect("a file is not a database");
        assert_eq!(e.path, file);
        assert!(e.to_string().contains("not-a-folder"), "{e}");

        let app = boot(&dir.path().join("db"), &settings, Config::from(&settings))
            .expect("a fresh folder");
        app.flush().await.expect("flushed");
    }
}
