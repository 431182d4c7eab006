//! The storage layer on PostgreSQL (`DAMAS_DB=postgres://…`): one table per tree, each
//! `(key bytea PRIMARY KEY, value bytea NOT NULL)`, so many bot processes share one database.
//!
//! The driver is tokio-postgres with a deadpool pool. The store's operations are synchronous
//! (as sled's are), so the driver runs on a small runtime of the store's own and each
//! operation waits for its result; on a multi-threaded tokio runtime the wait moves the
//! caller's other tasks to other workers first (`block_in_place`). This works from any
//! caller: async tasks of either runtime flavour, blocking threads, plain threads.
//!
//! Guarantees, as on sled:
//! - a compare-and-swap is one statement whose `WHERE` names the value read
//!   (`UPDATE … WHERE key = $1 AND value = $2`): of two writers built on one read, one wins;
//! - a transaction runs `SERIALIZABLE` and is retried, closure and all, on a serialization
//!   failure or deadlock, as sled retries a conflicting transaction;
//! - a write returns once committed (`synchronous_commit` is the server's, `on` by default);
//!   a write whose commit may or may not have landed (the connection broke) is
//!   [`StoreError::OutcomeUnknown`], which stops the process like a failed sync on sled.
//!
//! Migrations are embedded ([`MIGRATIONS`]) and applied at open, under an advisory lock so
//! that processes starting together apply each once.
//!
//! Besides the trees, the table `bot_turn_leases` says which process is making the bot's
//! move in a channel ([`super::leases`]).

use super::kv::{prefix_end, Entry, Scan, Tx, TxError, TxResult};
use super::{StoreError, TREES};
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::error::SqlState;
use tokio_postgres::NoTls;

/// The schema, in order; each runs once, in one transaction. Never edit one that shipped:
/// add the next (a new tree is a new `CREATE TABLE`).
pub const MIGRATIONS: &[(i32, &str, &str)] = &[
    (1, "trees", include_str!("migrations/0001_trees.sql")),
    (2, "threads", include_str!("migrations/0002_threads.sql")),
    (3, "puzzles", include_str!("migrations/0003_puzzles.sql")),
    (
        4,
        "bot_turn_leases",
        include_str!("migrations/0004_bot_turn_leases.sql"),
    ),
    (5, "playing", include_str!("migrations/0005_playing.sql")),
];

/// Connections per process. A transaction holds one for its length.
const POOL_SIZE: usize = 16;
/// Threads of the driver's runtime: they only shuttle bytes.
const DRIVER_THREADS: usize = 2;
/// `pg_advisory_xact_lock` key for migrations ("damas" in ASCII).
const MIGRATION_LOCK: i64 = 0x0064_616d_6173;

/// A statement's answer, being awaited on the driver's runtime.
type Reply<T> = std::pin::Pin<Box<dyn Future<Output = Result<T, tokio_postgres::Error>> + Send>>;

/// Whether a database setting names PostgreSQL rather than a sled folder.
pub fn is_postgres_url(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

pub(crate) struct PgKv {
    pool: Pool,
    handle: tokio::runtime::Handle,
    /// Shut down without blocking when the store is dropped (possibly inside a runtime).
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for PgKv {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

fn retryable(e: &tokio_postgres::Error) -> bool {
    matches!(
        e.code(),
        Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    )
}

/// An error from a statement that writes on its own (autocommit): without an SQL state the
/// connection broke, and the write may or may not have been committed.
fn write_error(e: tokio_postgres::Error) -> StoreError {
    if e.code().is_none() {
        StoreError::OutcomeUnknown {
            reason: e.to_string(),
        }
    } else {
        StoreError::Postgres(e)
    }
}

/// Waits for `f`, letting a multi-threaded runtime move its other tasks off this thread.
fn wait<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

impl PgKv {
    /// Connects to `url`, applies missing migrations and checks every tree has its table.
    pub fn connect(url: &str) -> Result<PgKv, StoreError> {
        let config: tokio_postgres::Config =
            url.parse()
                .map_err(|e: tokio_postgres::Error| StoreError::BadDatabaseUrl {
                    reason: e.to_string(),
                })?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(DRIVER_THREADS)
            .thread_name("damas-postgres")
            .enable_all()
            .build()
            .map_err(|source| StoreError::Runtime { source })?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Pool(e.to_string()))?;
        let kv = PgKv {
            pool,
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
        };
        kv.migrate()?;
        Ok(kv)
    }

    /// Runs `fut` on the driver's runtime and waits for it.
    fn run<T: Send + 'static>(
        &self,
        fut: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        wait(move || rx.recv()).unwrap_or_else(|_| {
            Err(StoreError::Pool(
                "the database driver's runtime stopped".to_string(),
            ))
        })
    }

    /// Runs one statement on a pooled connection, prepared once per connection.
    fn one<T: Send + 'static>(
        &self,
        sql: String,
        f: impl FnOnce(Object, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
        on_error: fn(tokio_postgres::Error) -> StoreError,
    ) -> Result<T, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let client = pool.get().await.map_err(pool_error)?;
            let statement = client
                .prepare_cached(&sql)
                .await
                .map_err(StoreError::Postgres)?;
            f(client, statement).await.map_err(on_error)
        })
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS damas_migrations (
                     version integer PRIMARY KEY,
                     name text NOT NULL,
                     applied_at timestamptz NOT NULL DEFAULT now())",
            )
            .await?;
            let applied: i32 = tx
                .query_one(
                    "SELECT coalesce(max(version), 0) FROM damas_migrations",
                    &[],
                )
                .await?
                .get(0);
            let known = MIGRATIONS.last().map_or(0, |m| m.0);
            if applied > known {
                return Err(StoreError::SchemaTooNew { applied, known });
            }
            for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > applied) {
                tx.batch_execute(sql).await?;
                tx.execute(
                    "INSERT INTO damas_migrations (version, name) VALUES ($1, $2)",
                    &[version, name],
                )
                .await?;
                tracing::info!("applied database migration {version} ({name})");
            }
            for tree in TREES {
                let found: Option<String> = tx
                    .query_one("SELECT to_regclass($1)::text", &[&format!("\"{tree}\"")])
                    .await?
                    .get(0);
                if found.is_none() {
                    return Err(StoreError::MissingTable(tree));
                }
            }
            tx.commit().await?;
            Ok(())
        })
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let key = key.to_vec();
        self.one(
            format!("SELECT value FROM \"{tree}\" WHERE key = $1"),
            move |c, s| {
                Box::pin(async move { Ok(c.query_opt(&s, &[&key]).await?.map(|r| r.get(0))) })
            },
            StoreError::Postgres,
        )
    }

    pub fn compare_and_swap(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, StoreError> {
        let key = key.to_vec();
        let (old, new) = (old.map(<[u8]>::to_vec), new.map(<[u8]>::to_vec));
        let sql = match (&old, &new) {
            (None, None) => format!("SELECT 1 FROM \"{tree}\" WHERE key = $1"),
            (None, Some(_)) => format!(
                "INSERT INTO \"{tree}\" (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING"
            ),
            (Some(_), Some(_)) => {
                format!("UPDATE \"{tree}\" SET value = $3 WHERE key = $1 AND value = $2")
            }
            (Some(_), None) => format!("DELETE FROM \"{tree}\" WHERE key = $1 AND value = $2"),
        };
        self.one(
            sql,
            move |c, s| {
                Box::pin(async move {
                    Ok(match (old, new) {
                        (None, None) => c.query_opt(&s, &[&key]).await?.is_none(),
                        (None, Some(new)) => c.execute(&s, &[&key, &new]).await? == 1,
                        (Some(old), Some(new)) => c.execute(&s, &[&key, &old, &new]).await? == 1,
                        (Some(old), None) => c.execute(&s, &[&key, &old]).await? == 1,
                    })
                })
            },
            write_error,
        )
    }

    pub fn scan(&self, tree: &'static str, scan: Scan<'_>) -> Result<Vec<Entry>, StoreError> {
        let end = prefix_end(scan.prefix);
        let after = scan.after.filter(|a| *a >= scan.prefix).map(<[u8]>::to_vec);
        let mut sql = format!("SELECT key, value FROM \"{tree}\" WHERE key >= $1");
        let mut n = 1;
        if after.is_some() {
            n += 1;
            sql += &format!(" AND key > ${n}");
        }
        if end.is_some() {
            n += 1;
            sql += &format!(" AND key < ${n}");
        }
        sql += if scan.reverse {
            " ORDER BY key DESC"
        } else {
            " ORDER BY key"
        };
        sql += &format!(" LIMIT ${}", n + 1);
        let prefix = scan.prefix.to_vec();
        let limit = i64::try_from(scan.limit).unwrap_or(i64::MAX);
        self.one(
            sql,
            move |c, s| {
                Box::pin(async move {
                    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&prefix];
                    if let Some(a) = &after {
                        params.push(a);
                    }
                    if let Some(e) = &end {
                        params.push(e);
                    }
                    params.push(&limit);
                    let rows = c.query(&s, &params).await?;
                    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
                })
            },
            StoreError::Postgres,
        )
    }

    pub fn count(&self, tree: &'static str) -> Result<u64, StoreError> {
        self.one(
            format!("SELECT count(*) FROM \"{tree}\""),
            |c, s| {
                Box::pin(async move {
                    let n: i64 = c.query_one(&s, &[]).await?.get(0);
                    Ok(n as u64)
                })
            },
            StoreError::Postgres,
        )
    }

    pub fn generate_id(&self) -> Result<u64, StoreError> {
        self.one(
            "SELECT nextval('game_ids')".to_string(),
            |c, s| {
                Box::pin(async move {
                    let id: i64 = c.query_one(&s, &[]).await?.get(0);
                    Ok(id as u64)
                })
            },
            StoreError::Postgres,
        )
    }

    pub fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        let id = i64::try_from(id)
            .map_err(|_| StoreError::Pool(format!("game id {id} is past PostgreSQL's bigint")))?;
        self.one(
            "SELECT setval('game_ids', greatest($1, (SELECT last_value FROM game_ids)))"
                .to_string(),
            move |c, s| {
                Box::pin(async move {
                    c.query_one(&s, &[&id]).await?;
                    Ok(())
                })
            },
            write_error,
        )
    }

    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        self.one(
            "SELECT pg_database_size(current_database())".to_string(),
            |c, s| {
                Box::pin(async move {
                    let n: i64 = c.query_one(&s, &[]).await?.get(0);
                    Ok(n as u64)
                })
            },
            StoreError::Postgres,
        )
    }

    pub fn transaction<T>(&self, f: impl Fn(&Tx<'_>) -> TxResult<T>) -> Result<T, StoreError> {
        loop {
            let pool = self.pool.clone();
            let client = Arc::new(self.run(async move { pool.get().await.map_err(pool_error) })?);
            let tx = PgTx {
                kv: self,
                client: Arc::clone(&client),
            };
            tx.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                .map_err(TxError::into_store)?;
            let result = f(&Tx::Pg(&tx));
            match result {
                Ok(value) => match tx.execute("COMMIT") {
                    Ok(()) => return Ok(value),
                    // A failed COMMIT ends the transaction: nothing was written.
                    Err(TxError::Pg(e)) if retryable(&e) => continue,
                    Err(TxError::Pg(e)) if e.code().is_some() => {
                        return Err(StoreError::Postgres(e))
                    }
                    // No answer to the COMMIT: it may or may not have landed.
                    Err(e) => {
                        return Err(StoreError::OutcomeUnknown {
                            reason: e.into_store().to_string(),
                        })
                    }
                },
                Err(e) => {
                    // Nothing was committed; a connection left in a broken transaction is
                    // closed rather than given back to the pool.
                    if tx.execute("ROLLBACK").is_err() {
                        drop(tx);
                        if let Ok(client) = Arc::try_unwrap(client) {
                            let _ = Object::take(client);
                        }
                    }
                    match e {
                        TxError::Pg(e) if retryable(&e) => continue,
                        e => return Err(e.into_store()),
                    }
                }
            }
        }
    }
}

// ---- leases on the bot's turn (see `super::leases`) ----

/// A channel id as the lease table's `bigint` key: the same 64 bits (snowflakes fit in 63).
fn lease_key(channel: u64) -> i64 {
    channel as i64
}

/// `ttl` as the milliseconds the lease statements add to `now()`.
fn lease_millis(ttl: Duration) -> f64 {
    ttl.as_secs_f64() * 1000.0
}

const LEASE_UNTIL: &str = "now() + $3::float8 * interval '1 millisecond'";

impl PgKv {
    /// Takes `channel`'s lease for `holder` until `ttl` from now, in one transaction: a row
    /// nobody holds is inserted; a row past its expiry (its holder died) is taken over; a live
    /// row, or one another claimer has locked right now (`SKIP LOCKED`: never wait behind
    /// it), means someone else has it. `true` when `holder` has it now.
    pub fn claim_lease(
        &self,
        channel: u64,
        holder: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let pool = self.pool.clone();
        let (key, holder, ttl) = (lease_key(channel), holder.to_owned(), lease_millis(ttl));
        self.run(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await?;
            let current = tx
                .query_opt(
                    "SELECT expires_at <= now() FROM bot_turn_leases \
                     WHERE channel = $1 FOR UPDATE SKIP LOCKED",
                    &[&key],
                )
                .await?;
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&key, &holder, &ttl];
            let taken = match current.map(|row| row.get::<_, bool>(0)) {
                // Held, and its holder is alive.
                Some(false) => false,
                Some(true) => {
                    let sql = format!(
                        "UPDATE bot_turn_leases SET holder = $2, expires_at = {LEASE_UNTIL} \
                         WHERE channel = $1"
                    );
                    tx.execute(&sql, &params).await? == 1
                }
                // No row, or one being claimed by someone else this instant.
                None => {
                    let sql = format!(
                        "INSERT INTO bot_turn_leases (channel, holder, expires_at) \
                         VALUES ($1, $2, {LEASE_UNTIL}) ON CONFLICT (channel) DO NOTHING"
                    );
                    tx.execute(&sql, &params).await? == 1
                }
            };
            tx.commit().await?;
            Ok(taken)
        })
    }

    /// Gives `channel`'s lease up, if `holder` still has it.
    pub fn release_lease(&self, channel: u64, holder: &str) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        let (key, holder) = (lease_key(channel), holder.to_owned());
        self.run(async move {
            let client = pool.get().await.map_err(pool_error)?;
            client
                .execute(
                    "DELETE FROM bot_turn_leases WHERE channel = $1 AND holder = $2",
                    &[&key, &holder],
                )
                .await?;
            Ok(())
        })
    }

    /// Pushes the expiry of `holder`'s lease on `channel` to `ttl` from now, every `ttl / 3`,
    /// until aborted: a holder that lives keeps its lease however long its work takes. Stops
    /// (and says so) if the lease was lost.
    pub fn keep_lease(
        &self,
        channel: u64,
        holder: &str,
        ttl: Duration,
    ) -> tokio::task::AbortHandle {
        let pool = self.pool.clone();
        let (key, holder_text, millis) = (lease_key(channel), holder.to_owned(), lease_millis(ttl));
        let every = (ttl / 3).max(Duration::from_millis(100));
        let renewal = async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let renewed = async {
                    let client = pool.get().await.map_err(pool_error)?;
                    let sql = format!(
                        "UPDATE bot_turn_leases SET expires_at = {LEASE_UNTIL} \
                         WHERE channel = $1 AND holder = $2"
                    );
                    Ok::<_, StoreError>(
                        client.execute(&sql, &[&key, &holder_text, &millis]).await? == 1,
                    )
                };
                match renewed.await {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::warn!(
                            "the bot's turn in channel {channel} was lost by {holder_text}"
                        );
                        return;
                    }
                    // The database may be back at the next tick, before the lease expires.
                    Err(e) => {
                        tracing::warn!("cannot renew the bot's turn in channel {channel}: {e}")
                    }
                }
            }
        };
        self.handle.spawn(renewal).abort_handle()
    }
}

fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => StoreError::Postgres(e),
        e => StoreError::Pool(e.to_string()),
    }
}

fn upsert_sql(tree: &str) -> String {
    format!(
        "INSERT INTO \"{tree}\" (key, value) VALUES ($1, $2) \
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    )
}

/// One transaction's connection.
pub(crate) struct PgTx<'a> {
    kv: &'a PgKv,
    client: Arc<Object>,
}

impl PgTx<'_> {
    fn statement<T: Send + 'static>(
        &self,
        sql: String,
        f: impl FnOnce(Arc<Object>, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
    ) -> TxResult<T> {
        let client = Arc::clone(&self.client);
        let outcome = self.kv.run(async move {
            let statement = match client.prepare_cached(&sql).await {
                Ok(s) => s,
                Err(e) => return Ok(Err(e)),
            };
            Ok(f(client, statement).await)
        });
        match outcome {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(TxError::Pg(e)),
            Err(e) => Err(TxError::Backend(e)),
        }
    }

    fn execute(&self, sql: &'static str) -> TxResult<()> {
        let client = Arc::clone(&self.client);
        match self
            .kv
            .run(async move { Ok(client.batch_execute(sql).await) })
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(TxError::Pg(e)),
            Err(e) => Err(TxError::Backend(e)),
        }
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        let key = key.to_vec();
        self.statement(
            format!("SELECT value FROM \"{tree}\" WHERE key = $1"),
            move |c, s| {
                Box::pin(async move { Ok(c.query_opt(&s, &[&key]).await?.map(|r| r.get(0))) })
            },
        )
    }

    pub fn insert(&self, tree: &'static str, key: &[u8], value: &[u8]) -> TxResult<()> {
        let (key, value) = (key.to_vec(), value.to_vec());
        self.statement(upsert_sql(tree), move |c, s| {
            Box::pin(async move {
                c.execute(&s, &[&key, &value]).await?;
                Ok(())
            })
        })
    }

    pub fn remove(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        let key = key.to_vec();
        self.statement(
            format!("DELETE FROM \"{tree}\" WHERE key = $1 RETURNING value"),
            move |c, s| {
                Box::pin(async move { Ok(c.query_opt(&s, &[&key]).await?.map(|r| r.get(0))) })
            },
        )
    }
}
