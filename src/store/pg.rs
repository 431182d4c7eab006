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
//!   failure or deadlock, as sled retries a conflicting transaction; one whose closure locks
//!   what it reads to write back and inserts absent keys only if still absent
//!   ([`super::kv::Kv::transaction_locking`]: a game's creation) runs `READ COMMITTED`, and
//!   runs again when such an insert finds the key taken;
//! - a write returns once committed (`synchronous_commit` is the server's, `on` by default);
//!   a write whose commit may or may not have landed (the connection broke) is
//!   [`StoreError::OutcomeUnknown`], which stops the process like a failed sync on sled.
//!
//! Nothing waits for ever ([`DbTimeouts`]): a new connection (TCP, TLS, authentication) has
//! `connect`; a free connection of the pool, `pool_wait`; a statement, `statement` on the
//! server (`statement_timeout`, which cancels it cleanly) and a second more here, for a server
//! or network that stopped answering. A statement given up on here closes its connection; a
//! read or a statement before `COMMIT` then fails with [`StoreError::Timeout`] (nothing was
//! written: the player is told to try again), while a write that committed on its own, or a
//! `COMMIT`, without an answer is [`StoreError::OutcomeUnknown`], as when the connection breaks.
//!
//! TLS follows the URL's `sslmode` ([`super::pg_tls`]).
//!
//! Migrations are embedded ([`MIGRATIONS`]) and applied at open, under an advisory lock so
//! that processes starting together apply each once.
//!
//! Besides the trees, the table `bot_turn_leases` says which process is making the bot's
//! move in a channel ([`super::leases`]), and `seen_interactions` which Discord interactions
//! some process already acted on ([`PgKv::first_sighting`]).

use super::kv::{prefix_end, Entry, Guard, Isolation, Scan, Tx, TxError, TxResult};
use super::pg_tls;
use super::{StoreError, TREES};
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Timeouts};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::error::SqlState;

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
    (
        5,
        "seen_interactions",
        include_str!("migrations/0005_seen_interactions.sql"),
    ),
    (6, "playing", include_str!("migrations/0006_playing.sql")),
    (
        7,
        "tournaments",
        include_str!("migrations/0007_tournaments.sql"),
    ),
    (
        8,
        "server_settings",
        include_str!("migrations/0008_server_settings.sql"),
    ),
];

/// How long the store waits on PostgreSQL (`DAMAS_DB_CONNECT_TIMEOUT`,
/// `DAMAS_DB_STATEMENT_TIMEOUT`, `DAMAS_DB_POOL_WAIT`; see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DbTimeouts {
    /// A new connection: TCP, TLS and authentication.
    pub connect: Duration,
    /// One statement, on the server; this side gives up [`CLIENT_GRACE`] later.
    pub statement: Duration,
    /// A free connection when all of the pool's are busy.
    pub pool_wait: Duration,
}

impl Default for DbTimeouts {
    fn default() -> DbTimeouts {
        DbTimeouts {
            connect: Duration::from_secs(5),
            statement: Duration::from_secs(5),
            pool_wait: Duration::from_secs(5),
        }
    }
}

/// How much longer than the server's `statement_timeout` this side waits for an answer: the
/// server's own cancellation (a clean error, nothing written) comes first when it is alive.
pub const CLIENT_GRACE: Duration = Duration::from_secs(1);

/// Whether a statement can have written on its own (autocommit): then, without an answer,
/// its outcome is unknown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Reads,
    Writes,
}

/// Connections per process. A transaction holds one for its length.
const POOL_SIZE: usize = 16;
/// Connections per process for the statements committed without waiting for the disk
/// ([`PgKv::relaxed`]): one statement each, never a transaction.
const RELAXED_POOL_SIZE: usize = 8;
/// The trees whose writes need not survive a crash of the server on their own, as on sled
/// (`super::posts`: a board post lost only leaves an old board's buttons, which answer
/// "outdated"): their statements run on [`PgKv::relaxed`].
const RELAXED_TREES: [&str; 1] = [super::TREE_POSTS];
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
    /// Connections with `synchronous_commit` off, for writes that need not survive a crash
    /// of the server on their own: board posts ([`RELAXED_TREES`]), interactions' sightings
    /// and the bot's turn leases. A game, a move, a record is always committed on
    /// [`PgKv::pool`]: an acknowledged move is on disk.
    relaxed: Pool,
    handle: tokio::runtime::Handle,
    /// How long this side waits for a statement's answer ([`DbTimeouts::statement`] and
    /// [`CLIENT_GRACE`]).
    answer_within: Duration,
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
    pub fn connect(url: &str, timeouts: DbTimeouts) -> Result<PgKv, StoreError> {
        let (url, tls) = pg_tls::split_url(url)?;
        let mut config: tokio_postgres::Config =
            url.parse()
                .map_err(|e: tokio_postgres::Error| StoreError::BadDatabaseUrl {
                    reason: super::error::with_causes(&e),
                })?;
        config.ssl_mode(tls.mode.for_driver());
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(timeouts.connect);
        }
        // The server cancels a statement that runs too long: a clean error, nothing written.
        // An operator's own statement_timeout in the URL's options wins.
        let options = config.get_options().unwrap_or_default().to_owned();
        if !options.contains("statement_timeout") {
            let ours = format!("-c statement_timeout={}", timeouts.statement.as_millis());
            config.options(if options.is_empty() {
                ours
            } else {
                format!("{options} {ours}")
            });
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(DRIVER_THREADS)
            .thread_name("damas-postgres")
            .enable_all()
            .build()
            .map_err(|source| StoreError::Runtime { source })?;
        let pool_of = |config: tokio_postgres::Config, size: usize| {
            let manager = Manager::from_config(
                config,
                tls.connector()?,
                ManagerConfig {
                    recycling_method: RecyclingMethod::Fast,
                },
            );
            Pool::builder(manager)
                .max_size(size)
                .timeouts(Timeouts {
                    wait: Some(timeouts.pool_wait),
                    create: Some(timeouts.connect),
                    recycle: Some(timeouts.connect),
                })
                .runtime(deadpool_postgres::Runtime::Tokio1)
                .build()
                .map_err(|e| StoreError::Pool(e.to_string()))
        };
        // The same connections, but a commit returns without waiting for the disk (it is
        // visible to every other session at once all the same; a later durable commit
        // flushes it too).
        let mut relaxed_config = config.clone();
        let options = config.get_options().unwrap_or_default();
        relaxed_config.options(format!("{options} -c synchronous_commit=off"));
        let relaxed = pool_of(relaxed_config, RELAXED_POOL_SIZE)?;
        let pool = pool_of(config, POOL_SIZE)?;
        let kv = PgKv {
            pool,
            relaxed,
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            answer_within: timeouts.statement + CLIENT_GRACE,
        };
        kv.migrate()?;
        Ok(kv)
    }

    /// Runs `fut` with the driver's runtime and waits for it: on the calling thread where
    /// it may block (a plain thread, or a worker of a multi-threaded runtime, which hands its
    /// other tasks on first), the connections' I/O done by the driver's threads; else (a
    /// single-threaded runtime, which cannot block) as a task of the driver's runtime. On
    /// the calling thread a statement wakes two threads fewer, which on a busy machine is
    /// most of a read's time.
    fn run<T: Send + 'static>(
        &self,
        fut: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        match tokio::runtime::Handle::try_current() {
            Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                // Not the driver's `Handle::block_on`: it parks on the same per-thread token as
                // the runtime's own `block_on`, so called under one (a `main`, a test, the
                // console) it swallows the wake-up meant for the caller's other futures —
                // those `join!`ed or `select!`ed beside the statement — which then wait for
                // ever. futures' executor parks on a token of its own.
                return tokio::task::block_in_place(|| {
                    let _driver = self.handle.enter();
                    futures_executor::block_on(fut)
                });
            }
            Err(_) => return self.handle.block_on(fut),
            Ok(_) => {}
        }
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

    /// Runs one statement on a pooled connection, prepared once per connection, waiting at
    /// most [`PgKv::answer_within`] for it.
    fn one<T: Send + 'static>(
        &self,
        sql: String,
        f: impl FnOnce(Arc<Object>, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
        effect: Effect,
    ) -> Result<T, StoreError> {
        self.one_on(self.pool.clone(), sql, f, effect)
    }

    /// [`PgKv::one`] on a connection of [`PgKv::relaxed`]: committed without waiting for the
    /// disk.
    fn one_relaxed<T: Send + 'static>(
        &self,
        sql: String,
        f: impl FnOnce(Arc<Object>, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
        effect: Effect,
    ) -> Result<T, StoreError> {
        self.one_on(self.relaxed.clone(), sql, f, effect)
    }

    /// The pool for a write of `tree` ([`RELAXED_TREES`]).
    fn pool_for(&self, tree: &str) -> Pool {
        if RELAXED_TREES.contains(&tree) {
            self.relaxed.clone()
        } else {
            self.pool.clone()
        }
    }

    fn one_on<T: Send + 'static>(
        &self,
        pool: Pool,
        sql: String,
        f: impl FnOnce(Arc<Object>, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
        effect: Effect,
    ) -> Result<T, StoreError> {
        let limit = self.answer_within;
        self.run(async move {
            let client = Arc::new(pool.get().await.map_err(pool_error)?);
            let work = {
                let client = Arc::clone(&client);
                async move {
                    let statement = client
                        .prepare_cached(&sql)
                        .await
                        .map_err(StoreError::Postgres)?;
                    f(client, statement).await.map_err(|e| match effect {
                        Effect::Writes => write_error(e),
                        Effect::Reads => StoreError::Postgres(e),
                    })
                }
            };
            within(limit, client, work, effect).await
        })
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        // A handful of statements, and the wait for another process's migrations.
        let limit = self.answer_within * 4;
        self.run(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let migrated = tokio::time::timeout(limit, Self::migrate_on(&mut client)).await;
            match migrated {
                Ok(result) => result,
                Err(_) => {
                    // Nothing is committed until the end; the connection is not reused.
                    drop(Object::take(client));
                    Err(StoreError::Timeout {
                        what: "applying the migrations",
                        after: limit,
                    })
                }
            }
        })
    }

    async fn migrate_on(client: &mut Object) -> Result<(), StoreError> {
        {
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
        }
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let key = key.to_vec();
        self.one(
            format!("SELECT value FROM \"{tree}\" WHERE key = $1"),
            move |c, s| {
                Box::pin(async move { Ok(c.query_opt(&s, &[&key]).await?.map(|r| r.get(0))) })
            },
            Effect::Reads,
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
        self.one_on(
            self.pool_for(tree),
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
            Effect::Writes,
        )
    }

    /// One statement: the write happens only if `guard`'s row holds its value when it runs
    /// (the subquery sees the statement's snapshot; the row written is locked and checked
    /// again against `old` if another writer got to it first).
    pub fn compare_and_swap_guarded(
        &self,
        tree: &'static str,
        key: &[u8],
        old: Option<&[u8]>,
        new: &[u8],
        guard: Guard<'_>,
    ) -> Result<bool, StoreError> {
        let (key, old, new) = (key.to_vec(), old.map(<[u8]>::to_vec), new.to_vec());
        let (guard_key, guard_value) = (guard.key.to_vec(), guard.value.to_vec());
        let guarded = format!(
            "EXISTS (SELECT 1 FROM \"{}\" WHERE key = $3 AND value = $4)",
            guard.tree
        );
        let sql = match old {
            Some(_) => format!(
                "UPDATE \"{tree}\" SET value = $2 WHERE {guarded} AND key = $1 AND value = $5"
            ),
            None => format!(
                "INSERT INTO \"{tree}\" (key, value) SELECT $1::bytea, $2::bytea WHERE {guarded} \
                 ON CONFLICT (key) DO NOTHING"
            ),
        };
        self.one_on(
            self.pool_for(tree),
            sql,
            move |c, s| {
                Box::pin(async move {
                    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
                        vec![&key, &new, &guard_key, &guard_value];
                    if let Some(old) = &old {
                        params.push(old);
                    }
                    Ok(c.execute(&s, &params).await? == 1)
                })
            },
            Effect::Writes,
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
            Effect::Reads,
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
            Effect::Reads,
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
            Effect::Reads,
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
            Effect::Writes,
        )
    }

    /// Whether the database answers a statement now, within the configured waits.
    pub fn ping(&self) -> Result<(), StoreError> {
        self.one(
            "SELECT 1".to_string(),
            |c, s| {
                Box::pin(async move {
                    c.query_one(&s, &[]).await?;
                    Ok(())
                })
            },
            Effect::Reads,
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
            Effect::Reads,
        )
    }

    pub fn transaction<T>(
        &self,
        isolation: Isolation,
        f: impl Fn(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        let begin = match isolation {
            Isolation::Serializable => "BEGIN ISOLATION LEVEL SERIALIZABLE",
            Isolation::ReadCommitted => "BEGIN ISOLATION LEVEL READ COMMITTED",
        };
        loop {
            let pool = self.pool.clone();
            let client = Arc::new(self.run(async move { pool.get().await.map_err(pool_error) })?);
            let tx = PgTx {
                kv: self,
                client: Arc::clone(&client),
            };
            if let Err(e) = tx.execute(begin) {
                drop(tx);
                discard(client);
                return Err(e.into_store());
            }
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
                        drop(tx);
                        discard(client);
                        return Err(StoreError::OutcomeUnknown {
                            reason: e.into_store().to_string(),
                        });
                    }
                },
                Err(e) => {
                    // Nothing was committed; a connection that stopped answering, or is left
                    // in a broken transaction, is closed rather than given back to the pool.
                    let silent = matches!(e, TxError::Backend(StoreError::Timeout { .. }));
                    if silent || tx.execute("ROLLBACK").is_err() {
                        drop(tx);
                        discard(client);
                    }
                    match e {
                        TxError::Pg(e) if retryable(&e) => continue,
                        TxError::Retry => continue,
                        e => return Err(e.into_store()),
                    }
                }
            }
        }
    }
}

/// Runs `work`, which uses `client`, for at most `limit`. A connection that did not answer in
/// time is closed rather than given back to the pool; the error says whether something may
/// have been written (`effect`).
async fn within<T>(
    limit: Duration,
    client: Arc<Object>,
    work: impl Future<Output = Result<T, StoreError>>,
    effect: Effect,
) -> Result<T, StoreError> {
    let answered = tokio::time::timeout(limit, work).await;
    match answered {
        Ok(result) => result,
        Err(_) => {
            discard(client);
            Err(no_answer(limit, effect))
        }
    }
}

/// The error for a statement that got no answer within `limit`.
fn no_answer(limit: Duration, effect: Effect) -> StoreError {
    match effect {
        Effect::Reads => StoreError::Timeout {
            what: "a statement",
            after: limit,
        },
        Effect::Writes => StoreError::OutcomeUnknown {
            reason: format!("PostgreSQL did not answer a write within {limit:?}"),
        },
    }
}

/// Closes a pooled connection instead of giving it back (when this is its last user).
fn discard(client: Arc<Object>) {
    if let Ok(client) = Arc::try_unwrap(client) {
        drop(Object::take(client));
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
    /// Takes `channel`'s lease for `holder` until `ttl` from now, in one statement: a row
    /// nobody holds is inserted; a row past its expiry (its holder died) is taken over; a live
    /// row means someone else has it (a claim of the same row at the same instant commits
    /// first, and this one then sees it live). `true` when `holder` has it now.
    pub fn claim_lease(
        &self,
        channel: u64,
        holder: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let (key, holder, ttl) = (lease_key(channel), holder.to_owned(), lease_millis(ttl));
        // A lease lost in a crash of the server: another process may search the same move,
        // and the game's compare-and-swap lets one of them make it.
        self.one_relaxed(
            format!(
                "INSERT INTO bot_turn_leases (channel, holder, expires_at) \
                 VALUES ($1, $2, {LEASE_UNTIL}) ON CONFLICT (channel) DO UPDATE \
                 SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at \
                 WHERE bot_turn_leases.expires_at <= now()"
            ),
            move |c, s| {
                Box::pin(async move { Ok(c.execute(&s, &[&key, &holder, &ttl]).await? == 1) })
            },
            // A lease taken without an answer expires by itself after its ttl.
            Effect::Reads,
        )
    }

    /// Gives `channel`'s lease up, if `holder` still has it.
    pub fn release_lease(&self, channel: u64, holder: &str) -> Result<(), StoreError> {
        let (key, holder) = (lease_key(channel), holder.to_owned());
        self.one_relaxed(
            "DELETE FROM bot_turn_leases WHERE channel = $1 AND holder = $2".to_string(),
            move |c, s| {
                Box::pin(async move {
                    c.execute(&s, &[&key, &holder]).await?;
                    Ok(())
                })
            },
            // A lease left behind expires by itself.
            Effect::Reads,
        )
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
        let pool = self.relaxed.clone();
        let (key, holder_text, millis) = (lease_key(channel), holder.to_owned(), lease_millis(ttl));
        let every = (ttl / 3).max(Duration::from_millis(100));
        let limit = self.answer_within;
        let renewal = async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let renewed = async {
                    let client = Arc::new(pool.get().await.map_err(pool_error)?);
                    let sql = format!(
                        "UPDATE bot_turn_leases SET expires_at = {LEASE_UNTIL} \
                         WHERE channel = $1 AND holder = $2"
                    );
                    let renew = {
                        let (client, key, holder) = (Arc::clone(&client), key, &holder_text);
                        async move {
                            let statement = client.prepare_cached(&sql).await?;
                            Ok(client.execute(&statement, &[&key, holder, &millis]).await? == 1)
                        }
                    };
                    within(limit, client, renew, Effect::Reads).await
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

// ---- interactions already acted on (see `super::sightings`) ----

impl PgKv {
    /// Records interaction `id` as acted on: `true` when no process of this database had.
    /// Not a write anyone is told about: without an answer it is an error, never fatal.
    pub fn first_sighting(&self, id: u64) -> Result<bool, StoreError> {
        let id = id as i64;
        // Discord never hands an interaction out again after a crash: a sighting lost in one
        // changes nothing.
        self.one_relaxed(
            "INSERT INTO seen_interactions (id) VALUES ($1) ON CONFLICT (id) DO NOTHING"
                .to_string(),
            move |c, s| Box::pin(async move { Ok(c.execute(&s, &[&id]).await? == 1) }),
            Effect::Reads,
        )
    }

    /// Deletes the sightings older than `age`.
    pub fn forget_sightings(&self, age: Duration) -> Result<u64, StoreError> {
        let millis = age.as_secs_f64() * 1000.0;
        self.one_relaxed(
            "DELETE FROM seen_interactions \
             WHERE seen_at < now() - $1::float8 * interval '1 millisecond'"
                .to_string(),
            move |c, s| Box::pin(async move { c.execute(&s, &[&millis]).await }),
            Effect::Reads,
        )
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
    /// Runs a statement of the transaction, waiting at most [`PgKv::answer_within`]; one
    /// without an answer is [`StoreError::Timeout`] (as [`TxError::Backend`]): nothing of the
    /// transaction is committed.
    fn statement<T: Send + 'static>(
        &self,
        sql: String,
        f: impl FnOnce(Arc<Object>, tokio_postgres::Statement) -> Reply<T> + Send + 'static,
    ) -> TxResult<T> {
        let client = Arc::clone(&self.client);
        let limit = self.kv.answer_within;
        let outcome = self.kv.run(async move {
            let work = async move {
                let statement = match client.prepare_cached(&sql).await {
                    Ok(s) => s,
                    Err(e) => return Err(e),
                };
                f(client, statement).await
            };
            tokio::time::timeout(limit, work)
                .await
                .map_err(|_| no_answer(limit, Effect::Reads))
        });
        match outcome {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(TxError::Pg(e)),
            Err(e) => Err(TxError::Backend(e)),
        }
    }

    fn execute(&self, sql: &'static str) -> TxResult<()> {
        let client = Arc::clone(&self.client);
        let limit = self.kv.answer_within;
        let outcome = self.kv.run(async move {
            tokio::time::timeout(limit, client.batch_execute(sql))
                .await
                .map_err(|_| no_answer(limit, Effect::Reads))
        });
        match outcome {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(TxError::Pg(e)),
            Err(e) => Err(TxError::Backend(e)),
        }
    }

    /// Runs `sql`, which takes a key (`$1`) and answers at most one value.
    fn value_of(&self, sql: String, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        let key = key.to_vec();
        self.statement(sql, move |c, s| {
            Box::pin(async move { Ok(c.query_opt(&s, &[&key]).await?.map(|r| r.get(0))) })
        })
    }

    pub fn get(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        self.value_of(format!("SELECT value FROM \"{tree}\" WHERE key = $1"), key)
    }

    pub fn get_locked(&self, tree: &'static str, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        self.value_of(
            format!("SELECT value FROM \"{tree}\" WHERE key = $1 FOR UPDATE"),
            key,
        )
    }

    /// See [`Tx::insert_new`].
    pub fn insert_new(&self, tree: &'static str, key: &[u8], value: &[u8]) -> TxResult<bool> {
        let (key, value) = (key.to_vec(), value.to_vec());
        self.statement(
            format!(
                "INSERT INTO \"{tree}\" (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING"
            ),
            move |c, s| Box::pin(async move { Ok(c.execute(&s, &[&key, &value]).await? == 1) }),
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
        self.value_of(
            format!("DELETE FROM \"{tree}\" WHERE key = $1 RETURNING value"),
            key,
        )
    }
}
