//! One way to start the application for every front end (the gateway, the HTTP endpoint,
//! the console): the store opened with the settings' timeouts, the app built with the
//! settings, and — where several processes share PostgreSQL — the claims on the bot's turns;
//! and one way to stop it ([`App::shut_down`]). Front ends never open the store themselves.

use super::App;
use crate::ai::egdb::background::{self, TableSet};
use crate::ai::EndgameTables;
use crate::app::settings::{BadSetting, Settings};
use crate::store::{Durability, Store, StoreError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The environment variable saying whether `bot` and `serve` build the endgame tables missing
/// from their folder, in the background at start: `on` (the default) or `off` (tables built
/// ahead with `damas egdb generate`, or none wanted).
pub const EGDB_BUILD_ENV: &str = "DAMAS_EGDB_BUILD";

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

/// Where the database lives: `DAMAS_DB` (a folder, or a PostgreSQL URL), or `damas.db` in
/// the data folder ([`crate::data_dir`]).
pub fn db_from_vars(var: impl Fn(&str) -> Option<String>) -> PathBuf {
    crate::data_dir::db_path_from(|name| var(name).map(std::ffi::OsString::from))
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
    log_start(db);
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

/// Says once, at start, where the data is — the data folder, the database, the endgame tables
/// found — and builds the small tables the tables make for themselves (flying kings, three
/// against one) on another thread now, so that no move waits for them.
fn log_start(db: &Path) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let tables = EndgameTables::global();
        tables.build_in_memory_in_background();
        tracing::info!(
            "data folder {}; database {}; {}",
            crate::data_dir::data_dir().display(),
            crate::store::printable(db),
            tables.summary()
        );
    });
}

/// Whether `bot` and `serve` build the missing endgame tables ([`EGDB_BUILD_ENV`]).
pub fn table_building_from_vars(var: impl Fn(&str) -> Option<String>) -> Result<bool, BadSetting> {
    let Some(value) = var(EGDB_BUILD_ENV).filter(|v| !v.trim().is_empty()) else {
        return Ok(true);
    };
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(BadSetting {
            variable: EGDB_BUILD_ENV,
            problem: format!("must be on or off, not {value:?}"),
        }),
    }
}

/// `bot` and `serve` at start: the default sets of endgame tables (what `damas egdb
/// generate` builds) that the process's tables' folder lacks are built there in the
/// background, at the lowest priority, and the search uses each table from the move after
/// it is written. A log line and the metric `damas_egdb_sets_ready` when each set is ready;
/// readiness (`/readyz`) does not wait for them.
pub fn build_missing_tables() {
    let tables = EndgameTables::global();
    let sets = TableSet::defaults();
    for set in &sets {
        crate::metrics::egdb_set_ready(set.variant.id(), false);
    }
    let ready = |r: &background::SetReady| crate::metrics::egdb_set_ready(r.set.variant.id(), true);
    if let Err(e) = background::build_missing(tables, sets, ready) {
        tracing::error!("endgame tables: cannot start building them: {e}");
    }
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
    fn the_database_path_comes_from_damas_db_else_the_data_folder() {
        let data = |name: &str| (name == "DAMAS_DATA").then(|| "/srv/data".to_string());
        assert_eq!(db_from_vars(data), PathBuf::from("/srv/data/damas.db"));
        let blank = |name: &str| match name {
            "DAMAS_DATA" => Some("/srv/data".to_string()),
            _ => Some("  ".to_string()),
        };
        assert_eq!(db_from_vars(blank), PathBuf::from("/srv/data/damas.db"));
        let set = |name: &str| (name == crate::store::DB_ENV).then(|| "/srv/damas".to_string());
        assert_eq!(db_from_vars(set), PathBuf::from("/srv/damas"));
    }

    #[test]
    fn table_building_is_on_unless_turned_off() {
        let with = |value: &'static str| {
            move |name: &str| (name == EGDB_BUILD_ENV).then(|| value.to_string())
        };
        assert_eq!(table_building_from_vars(|_| None), Ok(true));
        assert_eq!(table_building_from_vars(with(" ")), Ok(true));
        assert_eq!(table_building_from_vars(with("on")), Ok(true));
        assert_eq!(table_building_from_vars(with("OFF")), Ok(false));
        assert_eq!(table_building_from_vars(with("0")), Ok(false));
        let e = table_building_from_vars(with("later")).unwrap_err();
        assert_eq!(e.variable, EGDB_BUILD_ENV);
        assert!(e.to_string().contains("later"), "{e}");
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
