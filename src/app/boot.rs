//! One way to start the application for every front end (the gateway, the HTTP endpoint,
//! the console): the store opened with the settings' timeouts, the app built with the
//! settings, and — where several processes share PostgreSQL — the claims on the bot's turns;
//! and one way to stop it ([`App::shut_down`]). Front ends never open the store themselves.

use super::App;
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

/// How long a shutdown waits for the work under way (every front end).
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

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
/// and builds the app over it with the same settings.
pub fn boot(db: &Path, settings: Settings) -> Result<App, BootError> {
    let store = Store::open_configured(db, Durability::default(), settings.db_timeouts).map_err(
        |source| BootError {
            path: db.to_path_buf(),
            source,
        },
    )?;
    let app = App::new(store.clone(), settings);
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

    /// The one shutdown sequence of every front end, once it takes no new request (the
    /// gateway closed, the endpoint no longer accepting, the console's input ended): the
    /// searches stop and the work under way gets at most `grace` ([`App::wind_down`]), the
    /// front end's sweeper (if it runs one) is stopped — it starts no new pass once the work
    /// is closed, and a pass cut off is done again at the next start — and the store is
    /// flushed. Returns whether the work under way finished in time.
    pub async fn shut_down(
        &self,
        grace: std::time::Duration,
        sweeper: Option<tokio::task::JoinHandle<()>>,
    ) -> Result<bool, StoreError> {
        let drained = self.wind_down(grace).await;
        if let Some(sweeper) = sweeper {
            sweeper.abort();
        }
        self.flush().await?;
        Ok(drained)
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
    fn the_settings_reach_the_app_and_its_search_pool() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            move_time: Duration::from_secs(7),
            expert_time: Duration::from_millis(300),
            search_threads: 3,
            bot_seed: Some(11),
            ..Settings::default()
        };
        let app = boot(&dir.path().join("db"), settings.clone()).expect("a fresh folder");
        assert_eq!(app.settings, settings);
        assert_eq!(app.search_pool().threads(), 3);
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
        let e = boot(&file, settings.clone())
            .err()
            .expect("a file is not a database");
        assert_eq!(e.path, file);
        assert!(e.to_string().contains("not-a-folder"), "{e}");

        let app = boot(&dir.path().join("db"), settings).expect("a fresh folder");
        assert_eq!(
            app.shut_down(Duration::from_secs(1), None).await.ok(),
            Some(true)
        );
    }
}
