//! `damas serve`: interactions arrive as Discord's HTTP webhook (the application's
//! "Interactions Endpoint URL") instead of over the gateway.
//!
//! Every request is checked against `DISCORD_PUBLIC_KEY` (Ed25519 over timestamp + body, with
//! serenity's `interactions_endpoint` verifier); one that fails gets 401 and nothing else
//! happens. A PING is answered with a PONG. Any other interaction goes through the same
//! [`Handler`] as the gateway's: its first answer becomes the body of the HTTP response
//! (callback type 4, 5, 6 or 8), everything after it (edits, follow-ups, the bot's moves in the
//! channel) goes over REST. With no gateway, nothing announces a (re)connection: owed moves
//! are started by interactions and by a periodic catch-up.
//!
//! The endpoint faces the internet, so nobody can hold it without Discord's key:
//! - a request's head must arrive within [`HEADER_READ_TIMEOUT`] (which also closes a kept-
//!   alive connection left idle that long), and its body and answer within
//!   [`REQUEST_TIMEOUT`] after that;
//! - the signature headers, and a timestamp within
//!   [`REPLAY_WINDOW`](super::replay::REPLAY_WINDOW) of this clock, are
//!   required before the body is read; a body is at most [`BODY_LIMIT`] bytes (an interaction
//!   is a few KiB);
//! - at most `DAMAS_HTTP_MAX_CONNECTIONS` connections are open ([`DEFAULT_MAX_CONNECTIONS`]).
//!   A new one past the cap closes the oldest connection that is not answering a signed
//!   request (idle, or still sending an unchecked one): a crowd of slow or idle clients
//!   cannot keep Discord out. Only when every connection is answering Discord is the new one
//!   refused;
//! - a replayed interaction is refused ([`super::replay`]);
//! - SIGTERM ends the process within [`SHUTDOWN_GRACE`]: no new connection, the requests
//!   under way get until [`ANSWER_LIMIT`] (and a second) to be answered, every other
//!   connection is closed, then the work under way gets what is left and the store is
//!   flushed.

use super::health;
use super::replay::{timestamp_is_fresh, Admission};
use super::router::Handler;
use super::{stop_signal, BotConfig, BotError, SHUTDOWN_GRACE};
use crate::web::Web;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{header, Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serenity::all::{CreateInteractionResponse, Http, Interaction};
use serenity::interactions_endpoint::Verifier;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::sync::{oneshot, watch};
use tokio::task::{AbortHandle, JoinSet};

/// The variable holding the application's public key (Developer Portal, General Information).
pub const PUBLIC_KEY_ENV: &str = "DISCORD_PUBLIC_KEY";
/// The variable capping the open connections.
pub const MAX_CONNECTIONS_ENV: &str = "DAMAS_HTTP_MAX_CONNECTIONS";
/// Open connections when [`MAX_CONNECTIONS_ENV`] is not set: room for Discord's traffic and a
/// reverse proxy's pool, well under the usual 1,024 open files of a process.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// A request's head (request line and headers) must arrive within this.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// After its head, a request's body must arrive and its answer leave within this.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest body taken: Discord's interactions are a few KiB (a click carries its whole
/// message, embeds and menus included, still well under this).
pub const BODY_LIMIT: usize = 64 * 1024;
/// The most a connection buffers of a request's head (hyper's least is 8 KiB).
const HEAD_LIMIT: usize = 16 * 1024;
/// Discord gives up on an interaction's first answer after 3 s.
const ANSWER_LIMIT: Duration = super::router::DISCORD_DEADLINE;
/// Kept for the store's flush at the end of a shutdown.
const FLUSH_MARGIN: Duration = Duration::from_secs(1);

/// Where the first answer to an interaction that came by HTTP goes: back to the request that
/// brought it, once.
pub struct HttpAnswer(Mutex<Option<oneshot::Sender<CreateInteractionResponse>>>);

impl HttpAnswer {
    pub fn new() -> (HttpAnswer, oneshot::Receiver<CreateInteractionResponse>) {
        let (tx, rx) = oneshot::channel();
        (HttpAnswer(Mutex::new(Some(tx))), rx)
    }

    /// Hands the answer to the waiting request. Fails for good (never retried) if it was
    /// answered already or the request is gone.
    pub(crate) fn send(&self, response: CreateInteractionResponse) -> serenity::Result<()> {
        let sender = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        match sender {
            None => Err(serenity::Error::Other(
                "the HTTP interaction was already answered",
            )),
            Some(tx) => tx
                .send(response)
                .map_err(|_| serenity::Error::Other("Discord's HTTP request is gone")),
        }
    }
}

/// Reads `DISCORD_PUBLIC_KEY`: 64 hex digits making a valid Ed25519 key.
pub fn public_key_from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Verifier, BotError> {
    let bad = |problem: String| BotError::BadSetting {
        variable: PUBLIC_KEY_ENV,
        problem,
    };
    let raw = var(PUBLIC_KEY_ENV)
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| {
            bad("is not set: `damas serve` needs the application's public key (Developer Portal, General Information)".into())
        })?;
    let hex = raw.trim();
    let mut key = [0u8; 32];
    let digits_ok = hex.len() == 64
        && hex.is_ascii()
        && key.iter_mut().enumerate().all(|(i, byte)| {
            u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                .map(|b| *byte = b)
                .is_ok()
        });
    if !digits_ok {
        return Err(bad(format!("must be 64 hexadecimal digits, not {raw:?}")));
    }
    Verifier::try_new(key).map_err(|e| bad(format!("is not a usable Ed25519 key ({e})")))
}

/// What every request handler shares: Discord's interactions (`damas serve`), the board
/// page (when set up), or both.
pub(super) struct Endpoint {
    interactions: Option<Interactions>,
    web: Option<Arc<Web>>,
}

/// Discord's side of the endpoint.
struct Interactions {
    handler: Arc<Handler>,
    http: Arc<Http>,
    verifier: Verifier,
}

impl Endpoint {
    /// A listener for the board page alone (`damas bot`'s `DAMAS_WEB_LISTEN`).
    pub(super) fn board_page(web: Arc<Web>) -> Endpoint {
        Endpoint {
            interactions: None,
            web: Some(web),
        }
    }
}

type Answer = crate::web::Answer;

fn plain(status: StatusCode, text: &'static str) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

fn json(body: Vec<u8>) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// Marks a connection as answering a signed request while alive (see [`Connections`]).
struct Answering<'a>(&'a AtomicUsize);

impl<'a> Answering<'a> {
    fn start(count: &'a AtomicUsize) -> Answering<'a> {
        count.fetch_add(1, Ordering::SeqCst);
        Answering(count)
    }
}

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Endpoint {
    /// One request, its body and answer bounded by [`REQUEST_TIMEOUT`]; `answering` counts
    /// the signed requests of its connection under way.
    async fn answer(&self, request: Request<Incoming>, answering: &AtomicUsize) -> Answer {
        // The board page's requests (an event stream's answer is its head: the stream
        // itself goes on after it).
        if let Some(web) = self
            .web
            .as_ref()
            .filter(|_| Web::serves(request.uri().path()))
        {
            return match tokio::time::timeout(REQUEST_TIMEOUT, web.answer(request)).await {
                Ok(answer) => answer,
                Err(_) => plain(StatusCode::REQUEST_TIMEOUT, "request timed out"),
            };
        }
        let Some(interactions) = &self.interactions else {
            return plain(StatusCode::NOT_FOUND, "not found");
        };
        match tokio::time::timeout(
            REQUEST_TIMEOUT,
            interactions.interaction(request, answering),
        )
        .await
        {
            Ok(answer) => answer,
            Err(_) => plain(StatusCode::REQUEST_TIMEOUT, "request timed out"),
        }
    }
}

impl Interactions {
    /// `POST /interactions` (and the probes `/healthz`, `/readyz`, which read no body and
    /// never count as answering Discord).
    async fn interaction(&self, request: Request<Incoming>, answering: &AtomicUsize) -> Answer {
        let health = &self.handler.health;
        if let Some(answer) = health::probe(health, request.method(), request.uri().path()).await {
            return answer.map(BodyExt::boxed);
        }
        if request.uri().path() != "/interactions" {
            return plain(StatusCode::NOT_FOUND, "not found");
        }
        if request.method() != Method::POST {
            return plain(StatusCode::METHOD_NOT_ALLOWED, "POST only");
        }
        // Everything that needs no body is checked before a byte of it is read.
        let headers = request.headers();
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let (Some(signature), Some(timestamp)) = (
            header("x-signature-ed25519"),
            header("x-signature-timestamp"),
        ) else {
            return plain(StatusCode::UNAUTHORIZED, "missing request signature");
        };
        if !timestamp_is_fresh(&timestamp, SystemTime::now()) {
            return plain(
                StatusCode::UNAUTHORIZED,
                "the request's timestamp is not within 5 minutes of now",
            );
        }
        let declared = header("content-length").and_then(|n| n.parse::<u64>().ok());
        if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
            return plain(StatusCode::PAYLOAD_TOO_LARGE, "the body is too large");
        }
        let body = match Limited::new(request.into_body(), BODY_LIMIT)
            .collect()
            .await
        {
            Ok(body) => body.to_bytes(),
            Err(e) if e.is::<LengthLimitError>() => {
                return plain(StatusCode::PAYLOAD_TOO_LARGE, "the body is too large")
            }
            Err(_) => return plain(StatusCode::BAD_REQUEST, "the body could not be read"),
        };
        if self.verifier.verify(&signature, &timestamp, &body).is_err() {
            return plain(StatusCode::UNAUTHORIZED, "invalid request signature");
        }
        // Discord's own request: its connection is not closed to make room for another.
        let _answering = Answering::start(answering);
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&body) else {
            return plain(StatusCode::BAD_REQUEST, "the body is not JSON");
        };
        if value["type"] == 1 {
            return json(br#"{"type":1}"#.to_vec());
        }
        let interaction = match serde_json::from_value::<Interaction>(value) {
            Ok(i) => i,
            Err(e) => {
                tracing::warn!("an interaction that cannot be read: {e}");
                return plain(StatusCode::BAD_REQUEST, "not an interaction this bot reads");
            }
        };
        let admission = self.handler.admit(&interaction, true);
        if let Admission::Repeat = admission {
            tracing::info!("a replayed (or too old) interaction was refused");
            return plain(StatusCode::CONFLICT, "this interaction was already taken");
        }
        let (answer, answered) = HttpAnswer::new();
        // The work goes on after the answer (edits, follow-ups, the bot's move).
        let (handler, http) = (Arc::clone(&self.handler), Arc::clone(&self.http));
        tokio::spawn(async move {
            handler
                .handle_admitted(&http, interaction, Some(&answer), admission)
                .await;
        });
        match tokio::time::timeout(ANSWER_LIMIT, answered).await {
            Ok(Ok(response)) => match serde_json::to_vec(&response) {
                Ok(body) => json(body),
                Err(e) => {
                    tracing::error!("cannot write an interaction answer: {e}");
                    plain(StatusCode::INTERNAL_SERVER_ERROR, "no answer")
                }
            },
            // Shutting down, an interaction kind the bot ignores, or too slow: no answer.
            _ => plain(StatusCode::SERVICE_UNAVAILABLE, "no answer"),
        }
    }
}

/// One open connection: how many signed requests it is answering, and how to close it.
struct OpenConnection {
    answering: Arc<AtomicUsize>,
    task: AbortHandle,
}

/// The open connections, oldest first, and their cap.
struct Connections {
    cap: usize,
    open: Mutex<BTreeMap<u64, OpenConnection>>,
}

impl Connections {
    fn open(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, OpenConnection>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Removes a connection from [`Connections`] when its task ends, however it ends.
struct Registered {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.connections.open().remove(&self.id);
    }
}

/// Serves one connection until it closes, or until `stopping`: then it finishes the request
/// under way, if any, and closes.
async fn serve_connection(
    stream: tokio::net::TcpStream,
    endpoint: Arc<Endpoint>,
    answering: Arc<AtomicUsize>,
    mut stopping: watch::Receiver<bool>,
    registered: Registered,
) {
    let _registered = registered;
    let service = hyper::service::service_fn(move |request| {
        let (endpoint, answering) = (Arc::clone(&endpoint), Arc::clone(&answering));
        async move { Ok::<_, Infallible>(endpoint.answer(request, &answering).await) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_buf_size(HEAD_LIMIT)
        .keep_alive(true);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        served = connection.as_mut() => {
            if let Err(e) = served {
                tracing::debug!("a connection ended: {e}");
            }
        }
        () = async { let _ = stopping.wait_for(|stop| *stop).await; } => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// Reads `DAMAS_HTTP_MAX_CONNECTIONS`: a whole number from 1 to 65,536.
pub fn max_connections_from_vars(var: impl Fn(&str) -> Option<String>) -> Result<usize, BotError> {
    let Some(raw) = var(MAX_CONNECTIONS_ENV).filter(|v| !v.trim().is_empty()) else {
        return Ok(DEFAULT_MAX_CONNECTIONS);
    };
    raw.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=65_536).contains(n))
        .ok_or_else(|| BotError::BadSetting {
            variable: MAX_CONNECTIONS_ENV,
            problem: format!("must be a whole number from 1 to 65536, not {raw:?}"),
        })
}

/// Accepts connections until `stop` resolves, then closes them: those answering a request
/// get [`ANSWER_LIMIT`] and a second, idle ones are closed at once.
pub(super) async fn accept_until(
    listener: tokio::net::TcpListener,
    endpoint: Arc<Endpoint>,
    cap: usize,
    stop: impl std::future::Future<Output = ()>,
) {
    let connections = Arc::new(Connections {
        cap,
        open: Mutex::default(),
    });
    let (stopping, stop_seen) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut next_id = 0u64;
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            () = &mut stop => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: the pending connection waits.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let mut open = connections.open();
        if open.len() >= connections.cap {
            let idle = open
                .iter()
                .find(|(_, c)| c.answering.load(Ordering::SeqCst) == 0)
                .map(|(id, _)| *id);
            match idle.and_then(|id| open.remove(&id)) {
                Some(oldest) => oldest.task.abort(),
                None => {
                    tracing::warn!(
                        "{} connections are all answering Discord: a new one is refused",
                        connections.cap
                    );
                    continue;
                }
            }
        }
        next_id += 1;
        let answering = Arc::new(AtomicUsize::new(0));
        let registered = Registered {
            connections: Arc::clone(&connections),
            id: next_id,
        };
        let task = tasks.spawn(serve_connection(
            stream,
            Arc::clone(&endpoint),
            Arc::clone(&answering),
            stop_seen.clone(),
            registered,
        ));
        open.insert(next_id, OpenConnection { answering, task });
    }
    drop(listener);
    let _ = stopping.send(true);
    let finished = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(ANSWER_LIMIT + FLUSH_MARGIN, finished)
        .await
        .is_err()
    {
        tracing::info!(
            "closing {} connections still open at shutdown",
            connections.open().len()
        );
        tasks.shutdown().await;
    }
}

/// `damas serve --listen ADDR`: the bot on the HTTP interactions endpoint, until SIGTERM or
/// Ctrl-C. Prints `listening on ADDR` on standard output once it accepts requests.
pub async fn serve_http(
    config: BotConfig,
    listen: SocketAddr,
    verifier: Verifier,
    max_connections: usize,
) -> Result<(), BotError> {
    let build_tables = super::table_building()?;
    if config.metrics_listen.is_some() {
        // Before the store opens: its first operations are counted too.
        crate::metrics::install();
    }
    let app = super::open_app(&config)?;
    if build_tables {
        crate::app::boot::build_missing_tables();
    }
    let http = Arc::new(super::checked_http(&config).await?);
    // Follow-ups and edits of answers are addressed by the application's id.
    let application = http.get_current_application_info().await?;
    http.set_application_id(application.id);
    let handler = Arc::new(Handler::new(app.clone(), &config));
    handler.register_commands(&http).await;
    if let Some(addr) = config.metrics_listen {
        health::start_metrics(addr, Arc::clone(&handler.health)).await?;
    }
    let listener =
        tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| BotError::BadSetting {
                variable: "--listen",
                problem: format!("cannot listen on {listen}: {e}"),
            })?;
    let bound = listener.local_addr().map_err(BotError::Runtime)?;
    // This process may have just started: what the last one left undone is done now.
    handler.catch_up(&http, None, true);
    let sweeper = tokio::spawn(super::sweep_every(
        Arc::clone(&http),
        Arc::clone(&handler),
        config.settings.sweep_every,
    ));
    handler.health.listening();
    let health = Arc::clone(&handler.health);
    let web = handler
        .app
        .board_links()
        .is_some()
        .then(|| Arc::new(super::board_page(&config, &handler, &http)));
    let endpoint = Arc::new(Endpoint {
        interactions: Some(Interactions {
            handler,
            http,
            verifier,
        }),
        web,
    });
    tracing::info!("listening on {bound} (at most {max_connections} connections)");
    println!("listening on {bound}");
    let (stopped_tx, stopped) = oneshot::channel();
    let stop = async move {
        stop_signal().await;
        // First of all: a load balancer stops sending work here.
        health.stopping();
        let _ = stopped_tx.send(tokio::time::Instant::now());
    };
    accept_until(listener, endpoint, max_connections, stop).await;
    let stopping_since = stopped
        .await
        .unwrap_or_else(|_| tokio::time::Instant::now());
    tracing::info!("stopping: no new interactions; finishing the work under way");
    let deadline = stopping_since + SHUTDOWN_GRACE - FLUSH_MARGIN;
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    app.shut_down(left, Some(sweeper))
        .await
        .map_err(|source| crate::app::boot::BootError {
            path: config.db_path.clone(),
            source,
        })?;
    tracing::info!("stopped");
    Ok(())
}

/// `damas serve`.
pub fn run(listen: SocketAddr) -> Result<(), BotError> {
    let _ = dotenvy::dotenv();
    super::init_logging()?;
    let config = BotConfig::from_env()?;
    super::logs::hide(&config.token.0);
    let verifier = public_key_from_vars(|name| std::env::var(name).ok())?;
    let max_connections = max_connections_from_vars(|name| std::env::var(name).ok())?;
    let runtime = tokio::runtime::Runtime::new().map_err(BotError::Runtime)?;
    let served = runtime.block_on(serve_http(config, listen, verifier, max_connections));
    // A task that ignores the end (a picture being drawn) does not hold the exit.
    runtime.shutdown_timeout(FLUSH_MARGIN);
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(raw: Option<&str>) -> Result<Verifier, BotError> {
        public_key_from_vars(|_| raw.map(String::from))
    }

    #[test]
    fn a_bad_public_key_names_its_variable() {
        for raw in [
            None,
            Some(""),
            Some("abc"),
            Some(&"zz".repeat(32)),
            Some(&"0".repeat(63)),
            Some(&"é".repeat(32)),
        ] {
            match key(raw) {
                Err(e @ BotError::BadSetting { .. }) => {
                    assert!(e.to_string().starts_with("DISCORD_PUBLIC_KEY "), "{e}");
                    assert_eq!(e.exit_code(), 2);
                }
                Err(e) => panic!("{raw:?}: {e}"),
                Ok(_) => panic!("{raw:?} was taken"),
            }
        }
        // The example key of serenity's documentation.
        assert!(key(Some(
            "67c6bd767ca099e79efac9fcce4d2022a63bf7dea780e7f3d813f694c1597089"
        ))
        .is_ok());
    }

    #[test]
    fn the_connection_cap_is_a_whole_number() {
        let cap = |raw: Option<&str>| max_connections_from_vars(|_| raw.map(String::from));
        assert_eq!(cap(None).unwrap(), DEFAULT_MAX_CONNECTIONS);
        assert_eq!(cap(Some(" 64 ")).unwrap(), 64);
        for bad in ["0", "-1", "lots", "65537", "1.5"] {
            let e = cap(Some(bad)).unwrap_err();
            assert!(
                e.to_string().starts_with("DAMAS_HTTP_MAX_CONNECTIONS "),
                "{e}"
            );
            assert_eq!(e.exit_code(), 2);
        }
    }

    #[test]
    fn an_answer_goes_back_once() {
        let (answer, mut rx) = HttpAnswer::new();
        answer.send(CreateInteractionResponse::Pong).unwrap();
        assert!(answer.send(CreateInteractionResponse::Pong).is_err());
        assert!(matches!(rx.try_recv(), Ok(CreateInteractionResponse::Pong)));
    }
}
