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

use super::router::Handler;
use super::work::InFlight;
use super::{stop_signal, BotConfig, BotError, SHUTDOWN_GRACE};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serenity::all::{CreateInteractionResponse, Http, Interaction};
use serenity::interactions_endpoint::Verifier;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// The variable holding the application's public key (Developer Portal, General Information).
pub const PUBLIC_KEY_ENV: &str = "DISCORD_PUBLIC_KEY";
/// Discord gives up on an interaction's first answer after 3 s.
const ANSWER_LIMIT: Duration = Duration::from_secs(3);

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

/// What every request handler shares.
struct Endpoint {
    handler: Arc<Handler>,
    http: Arc<Http>,
    verifier: Verifier,
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, text).into_response()
}

fn json(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// `POST /interactions`.
async fn interaction(
    State(endpoint): State<Arc<Endpoint>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(signature), Some(timestamp)) = (
        header("x-signature-ed25519"),
        header("x-signature-timestamp"),
    ) else {
        return plain(StatusCode::UNAUTHORIZED, "missing request signature");
    };
    if endpoint
        .verifier
        .verify(signature, timestamp, &body)
        .is_err()
    {
        return plain(StatusCode::UNAUTHORIZED, "invalid request signature");
    }
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
    let (answer, answered) = HttpAnswer::new();
    // The work goes on after the answer (edits, follow-ups, the bot's move).
    tokio::spawn(async move {
        endpoint
            .handler
            .handle(&endpoint.http, interaction, Some(&answer))
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

/// `damas serve --listen ADDR`: the bot on the HTTP interactions endpoint, until SIGTERM or
/// Ctrl-C. Prints `listening on ADDR` on standard output once it accepts requests.
pub async fn serve_http(
    config: BotConfig,
    listen: SocketAddr,
    verifier: Verifier,
) -> Result<(), BotError> {
    let (store, app) = super::open_app(&config)?;
    let work = InFlight::new();
    let http = Arc::new(super::checked_http(&config).await?);
    // Follow-ups and edits of answers are addressed by the application's id.
    let application = http.get_current_application_info().await?;
    http.set_application_id(application.id);
    let handler = Arc::new(Handler::new(app.clone(), &config, Arc::clone(&work)));
    handler.register_commands(&http).await;
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
    let endpoint = Arc::new(Endpoint {
        handler,
        http,
        verifier,
    });
    let routes = axum::Router::new()
        .route("/interactions", axum::routing::post(interaction))
        .with_state(endpoint);
    tracing::info!("listening on {bound}");
    println!("listening on {bound}");
    axum::serve(listener, routes)
        .with_graceful_shutdown(stop_signal())
        .await
        .map_err(BotError::Runtime)?;
    tracing::info!("stopping: no new interactions; finishing the work under way");
    // Queued bot moves are left to the next start rather than waited for.
    app.stop_searches();
    if !work.close_and_drain(SHUTDOWN_GRACE).await {
        tracing::warn!(
            "{} pieces of work were still running after {SHUTDOWN_GRACE:?}; a restart takes them up",
            work.active()
        );
    }
    sweeper.abort();
    store.flush().await.map_err(|source| BotError::Store {
        path: config.db_path.clone(),
        source,
    })?;
    tracing::info!("stopped");
    Ok(())
}

/// `damas serve`.
pub fn run(listen: SocketAddr) -> Result<(), BotError> {
    let _ = dotenvy::dotenv();
    super::init_logging();
    let config = BotConfig::from_env()?;
    let verifier = public_key_from_vars(|name| std::env::var(name).ok())?;
    let runtime = tokio::runtime::Runtime::new().map_err(BotError::Runtime)?;
    runtime.block_on(serve_http(config, listen, verifier))
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
    fn an_answer_goes_back_once() {
        let (answer, mut rx) = HttpAnswer::new();
        answer.send(CreateInteractionResponse::Pong).unwrap();
        assert!(answer.send(CreateInteractionResponse::Pong).is_err());
        assert!(matches!(rx.try_recv(), Ok(CreateInteractionResponse::Pong)));
    }
}
