//! What an operator's monitoring asks a bot process: `/metrics` (Prometheus' text format),
//! `/healthz` (the process is alive) and `/readyz` (it can serve now).
//!
//! `DAMAS_METRICS_LISTEN=ADDR` opens a listener of its own for the three (unset: none, and
//! no metrics are recorded). `damas serve` also answers `/healthz` and `/readyz` on its
//! interactions listener, within that listener's limits, for a load balancer to route on;
//! `/metrics` stays on the private listener.
//!
//! Ready means: not shutting down (SIGTERM turns `/readyz` to 503 before anything else
//! stops), the gateway shards connected or the HTTP endpoint listening, the slash commands
//! registered (when this process registers them and Discord refused: people could not
//! type them), and the store answering a statement within its timeouts (`DAMAS_DB_*`; sled,
//! in this process, always answers). A 503's body names the failing part (`shutting down`,
//! `gateway`, `commands`, `store`) and nothing more: the details go to the log.

use super::BotError;
use crate::app::App;
use crate::metrics;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{header, Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use metrics_exporter_prometheus::PrometheusHandle;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// The variable naming the metrics listener's address.
pub const METRICS_LISTEN_ENV: &str = "DAMAS_METRICS_LISTEN";
/// Open connections the metrics listener serves at once (a scraper or two, a probe).
const METRICS_CONNECTIONS: usize = 16;
/// A request's head must arrive within this on the metrics listener.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// A readiness answer is reused for this long: a crowd of probes makes one store check.
const CHECK_REUSED_FOR: Duration = Duration::from_secs(1);
/// Histograms are folded this often between scrapes, so their memory stays small.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Reads `DAMAS_METRICS_LISTEN`: an address and port like 127.0.0.1:9464; unset, `None`.
pub fn metrics_listen_from_vars(
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<SocketAddr>, BotError> {
    let Some(raw) = var(METRICS_LISTEN_ENV).filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    raw.trim()
        .parse::<SocketAddr>()
        .map(Some)
        .map_err(|_| BotError::BadSetting {
            variable: METRICS_LISTEN_ENV,
            problem: format!(
                "must be an address and port like 127.0.0.1:9464 or [::1]:9464, not {raw:?}"
            ),
        })
}

/// Why the process is not ready (the body of a 503).
pub type NotReady = &'static str;

/// What `/readyz` reads: the front end's state, the store, and whether the process is
/// stopping.
pub struct Health {
    app: App,
    /// The longest a store check may take: a connection, a pool slot and a statement.
    store_wait: Duration,
    stopping: AtomicBool,
    /// Gateway shards of this process by id, and whether each is connected.
    shards: Mutex<BTreeMap<u32, bool>>,
    /// `damas serve`: its endpoint accepts requests.
    listening: AtomicBool,
    /// The last registration of the slash commands failed (a later one that succeeds clears
    /// it; a process that never registers them never sets it).
    commands_refused: AtomicBool,
    /// The last readiness answer, and when it was made.
    last: tokio::sync::Mutex<Option<(Instant, Result<(), NotReady>)>>,
}

impl Health {
    pub fn new(app: App, store_wait: Duration) -> Health {
        Health {
            app,
            store_wait,
            stopping: AtomicBool::new(false),
            shards: Mutex::default(),
            listening: AtomicBool::new(false),
            commands_refused: AtomicBool::new(false),
            last: tokio::sync::Mutex::new(None),
        }
    }

    fn shard_states(&self) -> std::sync::MutexGuard<'_, BTreeMap<u32, bool>> {
        self.shards.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A gateway shard connected (READY, RESUMED) or lost its connection.
    pub fn shard(&self, id: u32, connected: bool) {
        let mut shards = self.shard_states();
        shards.insert(id, connected);
        metrics::shards_connected(shards.values().filter(|&&c| c).count());
    }

    /// `damas serve`'s endpoint accepts requests.
    pub fn listening(&self) {
        self.listening.store(true, Ordering::SeqCst);
    }

    /// How the last registration of the slash commands went.
    pub fn commands_registered(&self, registered: bool) {
        self.commands_refused.store(!registered, Ordering::SeqCst);
        if !registered {
            metrics::ready(false);
        }
    }

    /// The process is stopping: `/readyz` answers 503 from now on.
    pub fn stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        metrics::ready(false);
    }

    /// Whether the front end can take interactions: the endpoint listens, or every shard
    /// this process runs is connected (and there is one).
    fn front_up(&self) -> bool {
        if self.listening.load(Ordering::SeqCst) {
            return true;
        }
        let shards = self.shard_states();
        !shards.is_empty() && shards.values().all(|&c| c)
    }

    /// Whether the process can serve now; if not, which part cannot.
    pub async fn readiness(&self) -> Result<(), NotReady> {
        if self.stopping.load(Ordering::SeqCst) {
            return Err("shutting down");
        }
        // Known without a check, so never an answer from before it was known.
        if self.commands_refused.load(Ordering::SeqCst) {
            return Err("commands");
        }
        let mut last = self.last.lock().await;
        if let Some((at, answer)) = *last {
            if at.elapsed() < CHECK_REUSED_FOR {
                return answer;
            }
        }
        let answer = self.check().await;
        metrics::ready(answer.is_ok());
        *last = Some((Instant::now(), answer));
        answer
    }

    async fn check(&self) -> Result<(), NotReady> {
        if !self.front_up() {
            return Err("gateway");
        }
        let app = self.app.clone();
        let pinged = tokio::time::timeout(
            self.store_wait,
            tokio::task::spawn_blocking(move || app.ping_store()),
        )
        .await;
        match pinged {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => {
                tracing::warn!("not ready: the store does not answer: {e}");
                Err("store")
            }
            Ok(Err(e)) => {
                tracing::warn!("not ready: the store check failed: {e}");
                Err("store")
            }
            Err(_) => {
                tracing::warn!(
                    "not ready: the store did not answer within {:?}",
                    self.store_wait
                );
                Err("store")
            }
        }
    }

    /// The gauges read from the state of things, set just before a scrape.
    async fn sample(&self) {
        metrics::sample_resident_memory();
        let app = self.app.clone();
        let sampled = tokio::time::timeout(
            self.store_wait,
            tokio::task::spawn_blocking(move || app.sample_metrics()),
        )
        .await;
        if !matches!(sampled, Ok(Ok(Ok(())))) {
            tracing::warn!("the games under way could not be counted for the metrics");
        }
    }
}

type Answer = Response<Full<Bytes>>;

fn text(status: StatusCode, body: impl Into<Bytes>, content_type: &'static str) -> Answer {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(content_type),
    );
    response
}

const PLAIN: &str = "text/plain; charset=utf-8";

/// The answer to `/healthz` or `/readyz` (GET or HEAD); `None` for any other request.
pub async fn probe(health: &Health, method: &Method, path: &str) -> Option<Answer> {
    if !matches!(path, "/healthz" | "/readyz") {
        return None;
    }
    if method != Method::GET && method != Method::HEAD {
        return Some(text(StatusCode::METHOD_NOT_ALLOWED, "GET only\n", PLAIN));
    }
    Some(match path {
        "/healthz" => text(StatusCode::OK, "ok\n", PLAIN),
        _ => match health.readiness().await {
            Ok(()) => text(StatusCode::OK, "ready\n", PLAIN),
            Err(why) => text(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("not ready: {why}\n"),
                PLAIN,
            ),
        },
    })
}

/// One request to the metrics listener.
async fn answer(health: &Health, handle: &PrometheusHandle, request: Request<Incoming>) -> Answer {
    let (method, path) = (request.method(), request.uri().path());
    if let Some(answer) = probe(health, method, path).await {
        return answer;
    }
    if path != "/metrics" {
        return text(StatusCode::NOT_FOUND, "not found\n", PLAIN);
    }
    if method != Method::GET && method != Method::HEAD {
        return text(StatusCode::METHOD_NOT_ALLOWED, "GET only\n", PLAIN);
    }
    // damas_ready follows the same check as /readyz, whether or not anything probes it.
    let _ = health.readiness().await;
    health.sample().await;
    text(
        StatusCode::OK,
        handle.render(),
        "text/plain; version=0.0.4; charset=utf-8",
    )
}

/// Opens the metrics listener on `addr` (installing the process's metrics recorder) and
/// serves it until the runtime ends. Prints `metrics listening on ADDR` on standard output.
pub async fn start_metrics(addr: SocketAddr, health: Arc<Health>) -> Result<SocketAddr, BotError> {
    let Some(handle) = metrics::install() else {
        return Err(BotError::BadSetting {
            variable: METRICS_LISTEN_ENV,
            problem: "is set but the metrics recorder could not be installed".into(),
        });
    };
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| BotError::BadSetting {
            variable: METRICS_LISTEN_ENV,
            problem: format!("cannot listen on {addr}: {e}"),
        })?;
    let bound = listener.local_addr().map_err(BotError::Runtime)?;
    tracing::info!("metrics, /healthz and /readyz on http://{bound}");
    println!("metrics listening on {bound}");
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(UPKEEP_EVERY);
        loop {
            ticks.tick().await;
            upkeep.run_upkeep();
        }
    });
    tokio::spawn(serve_metrics(listener, health, handle));
    Ok(bound)
}

async fn serve_metrics(
    listener: tokio::net::TcpListener,
    health: Arc<Health>,
    handle: PrometheusHandle,
) {
    let slots = Arc::new(tokio::sync::Semaphore::new(METRICS_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!("metrics listener: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Past the cap a connection is closed at once: a scraper tries again.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            continue;
        };
        let (health, handle) = (Arc::clone(&health), handle.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |request| {
                let (health, handle) = (Arc::clone(&health), handle.clone());
                async move { Ok::<_, Infallible>(answer(&health, &handle, request).await) }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            if let Err(e) = served {
                tracing::debug!("a metrics connection ended: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_address_is_an_address_and_port() {
        let read = |raw: Option<&str>| metrics_listen_from_vars(|_| raw.map(String::from));
        assert_eq!(read(None).unwrap(), None);
        assert_eq!(read(Some(" ")).unwrap(), None);
        assert_eq!(
            read(Some("127.0.0.1:9464")).unwrap(),
            Some("127.0.0.1:9464".parse().unwrap())
        );
        for bad in [
            "9464",
            "localhost:9464",
            "127.0.0.1",
            "http://127.0.0.1:9464",
        ] {
            let e = read(Some(bad)).unwrap_err();
            assert!(e.to_string().starts_with("DAMAS_METRICS_LISTEN "), "{e}");
            assert!(!e.to_string().contains('\n'));
            assert_eq!(e.exit_code(), 2);
        }
    }

    async fn readyz(health: &Health) -> (u16, String) {
        let answer = probe(health, &Method::GET, "/readyz")
            .await
            .expect("an answer");
        let status = answer.status().as_u16();
        let body = http_body_util::BodyExt::collect(answer.into_body())
            .await
            .expect("a body")
            .to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// Commands Discord refused to register are commands nobody can type: `/readyz` says so
    /// at once (whatever answer it gave a moment before), until a registration succeeds.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_command_registration_makes_the_process_not_ready() {
        let dir = tempfile::tempdir().unwrap();
        let settings = crate::app::Settings {
            search_threads: 1,
            search_memory_mb: 8,
            ..crate::app::Settings::default()
        };
        let app = crate::app::boot::boot(&dir.path().join("db"), settings).expect("a sled app");
        let health = Health::new(app, Duration::from_secs(5));
        health.listening();
        assert_eq!(readyz(&health).await, (200, "ready\n".into()));
        health.commands_registered(false);
        assert_eq!(readyz(&health).await, (503, "not ready: commands\n".into()));
        health.commands_registered(true);
        assert_eq!(readyz(&health).await.0, 200);
        // Stopping still comes first.
        health.commands_registered(false);
        health.stopping();
        assert_eq!(
            readyz(&health).await,
            (503, "not ready: shutting down\n".into())
        );
    }
}
