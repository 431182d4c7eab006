//! The board page: HTTP routes over the app, for a browser. A front end like `discord` and
//! `console`: every game fact and every permission check is the app's
//! ([`crate::app::board_page`]); this module reads requests, answers them and streams the
//! changes of a game to the pages following it.
//!
//! Routes, all under `/board/`:
//! - `GET /board/<channel>`: the page (plain HTML; the player's key, if any, is in the
//!   URL's fragment, which the browser never sends);
//! - `GET /board/<channel>/state`: the game as the page shows it, as JSON; the key, if
//!   any, in `Authorization: Bearer <key>`;
//! - `GET /board/<channel>/events`: Server-Sent Events, one `change` each time the game
//!   changes (a move made here, in Discord or by the bot, a draw offer, a resignation, a
//!   loss on time), and a comment every [`events::KEEPALIVE`] that keeps proxies from closing
//!   the stream;
//! - `POST /board/<channel>/move`: a move in notation (the body, plain text), played as the
//!   key's holder through [`App::play_move`]'s checks, and shown in the game's channel as any
//!   move is;
//! - `POST /board/<channel>/resign`, `…/draw` (offer, or accept the offer),
//!   `…/decline-draw`: the game's buttons, played as the key's holder through the same use
//!   cases;
//! - `GET /board/static/…`: the page's own script, style sheet and font (and the
//!   Activity's script, when it was built);
//! - `GET /activity/`: the page as a Discord Activity, and `POST /board/session`: its
//!   sign-in through Discord ([`activity`]); `/activity/board/…` is `/board/…` (what the
//!   Activity's requests become through Discord's proxy).
//!
//! Served by `damas serve`'s listener, and by the listener `damas bot` opens at
//! `DAMAS_WEB_LISTEN`, with the same timeouts and connection cap (`crate::discord::webhook`).
//! Every answer forbids any script but the page's own (Content-Security-Policy). Requests
//! carrying a key are limited per key, the Activity's sign-ins in all and per channel
//! ([`limit`]); refused, they are answered 429 with `Retry-After`. Keys are never logged.

pub mod activity;
pub mod events;
pub mod limit;
pub mod page;

use crate::app::board_page::{lang_of_accept_language, PageAction, PageRefusal};
use crate::app::deliver::Delivery;
use crate::app::i18n::{n, t, tr, Lang};
use crate::app::serve::{Respond, Shown};
use crate::app::{App, Reply};
use crate::fl;
use async_trait::async_trait;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{header, Method, Request, Response, StatusCode};
use std::sync::{Arc, Mutex};

/// The body of every answer: whole, or a stream of events.
pub type Body = http_body_util::combinators::BoxBody<Bytes, std::convert::Infallible>;
/// An answer.
pub type Answer = Response<Body>;

/// The largest move request taken: a move's notation is a few dozen characters.
pub const MOVE_BODY_LIMIT: usize = 256;

/// What every page answer carries: only the page's own script, style sheet and font, no
/// framing by other sites, no guessing of types, no referrer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The board page over an app: what a listener hands its `/board/` requests to.
pub struct Web {
    app: App,
    /// Where a move made on the page is shown (Discord's channels).
    out: Arc<dyn Delivery>,
    limits: limit::PerKey,
    /// The Discord Activity's sign-in, when it is on (`DISCORD_CLIENT_SECRET`).
    activity: Option<activity::Activity>,
}

/// A whole answer: `body` as `content_type`, with the page's security headers.
pub fn whole(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Answer {
    let mut response = Response::new(Full::new(body.into()).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(content_type),
    );
    secure(headers);
    response
}

/// The security headers every answer carries.
pub fn secure(headers: &mut hyper::HeaderMap) {
    use header::HeaderValue;
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

const JSON: &str = "application/json";
const TEXT: &str = "text/plain; charset=utf-8";

/// `{"message": …}` with a status.
fn message(status: StatusCode, ok: bool, text: &str) -> Answer {
    let body = serde_json::json!({ "ok": ok, "message": text });
    let mut answer = whole(status, JSON, body.to_string());
    no_store(&mut answer);
    answer
}

/// Whole seconds to wait, rounded up: at least 1.
fn retry_after_seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// `answer`, saying to try again after `wait` (`Retry-After`).
fn retry_after(mut answer: Answer, wait: std::time::Duration) -> Answer {
    answer
        .headers_mut()
        .insert(header::RETRY_AFTER, retry_after_seconds(wait).into());
    answer
}

fn no_store(answer: &mut Answer) {
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
}

/// The key a request carries (`Authorization: Bearer …`), if any.
fn key_of(request: &Request<Incoming>) -> Option<String> {
    let value = request
        .headers()
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let key = value.strip_prefix("Bearer ")?.trim();
    (!key.is_empty()).then(|| key.to_string())
}

fn lang_of(request: &Request<Incoming>) -> Lang {
    lang_of_accept_language(
        request
            .headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// A route under `/board/`.
#[derive(Debug, PartialEq, Eq)]
enum Route<'a> {
    Page(u64),
    State(u64),
    Events(u64),
    Move(u64),
    /// Resign, offer or accept a draw, decline one: no body.
    Act(u64, PageAction),
    Static(&'a str),
    /// The Activity's sign-in.
    Session,
}

fn route(path: &str) -> Option<Route<'_>> {
    let rest = path.strip_prefix("/board/")?;
    if let Some(file) = rest.strip_prefix("static/") {
        return Some(Route::Static(file));
    }
    if rest == "session" {
        return Some(Route::Session);
    }
    let (channel, what) = match rest.split_once('/') {
        Some((c, w)) => (c, Some(w)),
        None => (rest, None),
    };
    // A channel id is a Discord snowflake: digits only.
    if channel.is_empty() || !channel.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let channel: u64 = channel.parse().ok()?;
    Some(match what {
        None | Some("") => Route::Page(channel),
        Some("state") => Route::State(channel),
        Some("events") => Route::Events(channel),
        Some("move") => Route::Move(channel),
        Some("resign") => Route::Act(channel, PageAction::Resign),
        Some("draw") => Route::Act(channel, PageAction::Draw),
        Some("decline-draw") => Route::Act(channel, PageAction::DeclineDraw),
        Some(_) => return None,
    })
}

impl Web {
    pub fn new(app: App, out: Arc<dyn Delivery>) -> Web {
        Web {
            app,
            out,
            limits: limit::PerKey::default(),
            activity: None,
        }
    }

    /// The same, signing people in as the Discord Activity.
    pub fn with_activity(mut self, activity: activity::Activity) -> Web {
        self.activity = Some(activity);
        self
    }

    /// Whether `path` is the page's to answer.
    pub fn serves(path: &str) -> bool {
        path.starts_with("/board/") || path == "/activity" || path.starts_with("/activity/")
    }

    /// Answers one request under `/board/`.
    pub async fn answer(&self, request: Request<Incoming>) -> Answer {
        let lang = lang_of(&request);
        let not_found = || {
            message(
                StatusCode::NOT_FOUND,
                false,
                &t(lang, fl!("board-not-found")),
            )
        };
        let method = request.method().clone();
        let readable = method == Method::GET || method == Method::HEAD;
        let path = request.uri().path();
        if path == "/activity" || path == "/activity/" {
            return match (&self.activity, readable) {
                (Some(a), true) => {
                    page::activity_html(lang, a.client_id(), page::ACTIVITY_BUNDLE.is_some())
                }
                (None, true) => {
                    message(StatusCode::NOT_FOUND, false, &t(lang, fl!("activity-off")))
                }
                (_, false) => whole(StatusCode::METHOD_NOT_ALLOWED, TEXT, "method not allowed"),
            };
        }
        // Through Discord's proxy, the Activity's `/board/…` arrives under the mapping's
        // `/activity`.
        let path = path.strip_prefix("/activity").unwrap_or(path);
        let Some(route) = route(path) else {
            return not_found();
        };
        match route {
            Route::Static(file) if readable => page::static_file(file).unwrap_or_else(not_found),
            Route::Page(channel) if readable => page::html(lang, channel),
            Route::State(channel) if readable => {
                let key = key_of(&request);
                if let Some(refused) = self.limited(key.as_deref(), lang) {
                    return refused;
                }
                self.state(channel, key.as_deref(), lang)
            }
            Route::Events(channel) if readable => events::stream(&self.app, channel),
            Route::Session if method == Method::POST => self.session(lang, request).await,
            Route::Move(channel) if method == Method::POST => {
                let key = key_of(&request);
                if let Some(refused) = self.limited(key.as_deref(), lang) {
                    return refused;
                }
                let body = match Limited::new(request.into_body(), MOVE_BODY_LIMIT)
                    .collect()
                    .await
                {
                    Ok(body) => body.to_bytes(),
                    Err(_) => return message(StatusCode::PAYLOAD_TOO_LARGE, false, "too large"),
                };
                let Ok(text) = std::str::from_utf8(&body) else {
                    return message(StatusCode::BAD_REQUEST, false, "not text");
                };
                let action = PageAction::Move(text.trim().to_string());
                self.play(channel, key, lang, action).await
            }
            Route::Act(channel, action) if method == Method::POST => {
                let key = key_of(&request);
                if let Some(refused) = self.limited(key.as_deref(), lang) {
                    return refused;
                }
                self.play(channel, key, lang, action).await
            }
            _ => whole(StatusCode::METHOD_NOT_ALLOWED, TEXT, "method not allowed"),
        }
    }

    /// The refusal of a request past its key's rate, if it is.
    fn limited(&self, key: Option<&str>, lang: Lang) -> Option<Answer> {
        let wait = self.limits.allow(key?).err()?;
        let text = t(lang, fl!("board-too-fast"));
        Some(retry_after(
            message(StatusCode::TOO_MANY_REQUESTS, false, &text),
            wait,
        ))
    }

    /// The Activity's sign-in: the code Discord gave the page, exchanged for who signed in;
    /// answered with the access token and their key to the game of the channel. A refused
    /// code changes nothing and gives no key.
    async fn session(&self, lang: Lang, request: Request<Incoming>) -> Answer {
        let Some(activity) = &self.activity else {
            return message(StatusCode::NOT_FOUND, false, &t(lang, fl!("activity-off")));
        };
        let body = match Limited::new(request.into_body(), activity::SESSION_BODY_LIMIT)
            .collect()
            .await
        {
            Ok(body) => body.to_bytes(),
            Err(_) => return message(StatusCode::PAYLOAD_TOO_LARGE, false, "too large"),
        };
        let Ok(asked) = serde_json::from_slice::<activity::SessionRequest>(&body) else {
            return message(StatusCode::BAD_REQUEST, false, "not a sign-in");
        };
        let channel = asked
            .channel
            .parse::<u64>()
            .ok()
            .filter(|_| asked.channel.bytes().all(|b| b.is_ascii_digit()));
        let (Some(channel), false) = (channel, asked.code.trim().is_empty()) else {
            return message(StatusCode::BAD_REQUEST, false, "not a sign-in");
        };
        let signed_in = match activity.sign_in(asked.code.trim(), channel).await {
            Ok(s) => s,
            Err(activity::SignIn::Refused) => {
                return message(
                    StatusCode::UNAUTHORIZED,
                    false,
                    &t(lang, fl!("activity-sign-in-refused")),
                )
            }
            Err(activity::SignIn::Unreachable) => {
                return message(
                    StatusCode::BAD_GATEWAY,
                    false,
                    &t(lang, fl!("activity-discord-unreachable")),
                )
            }
            Err(activity::SignIn::DiscordBusy(wait)) => {
                let text = t(lang, fl!("activity-discord-unreachable"));
                return retry_after(message(StatusCode::SERVICE_UNAVAILABLE, false, &text), wait);
            }
            Err(activity::SignIn::Limited(wait)) => {
                let seconds = retry_after_seconds(wait);
                let text = tr(
                    lang,
                    fl!("activity-sign-in-busy"),
                    &[("seconds", n(seconds as f64))],
                );
                return retry_after(message(StatusCode::TOO_MANY_REQUESTS, false, &text), wait);
            }
        };
        match self.app.activity_key(channel, signed_in.user, lang) {
            Ok(key) => {
                let body = serde_json::json!({
                    "ok": true,
                    "access_token": signed_in.access_token,
                    "user": signed_in.user.to_string(),
                    "key": key,
                });
                let mut answer = whole(StatusCode::OK, JSON, body.to_string());
                no_store(&mut answer);
                answer
            }
            Err(refusal) => refused(lang, refusal),
        }
    }

    fn state(&self, channel: u64, key: Option<&str>, lang: Lang) -> Answer {
        let app = self.app.clone();
        match app.board_state(channel, key, lang) {
            Ok(state) => match serde_json::to_vec(&state) {
                Ok(body) => {
                    let mut answer = whole(StatusCode::OK, JSON, body);
                    no_store(&mut answer);
                    answer
                }
                Err(e) => {
                    tracing::error!("cannot write a board's state: {e}");
                    message(StatusCode::INTERNAL_SERVER_ERROR, false, "")
                }
            },
            Err(refusal) => refused(lang, refusal),
        }
    }

    async fn play(
        &self,
        channel: u64,
        key: Option<String>,
        lang: Lang,
        action: PageAction,
    ) -> Answer {
        let Some(working) = self.app.work().start() else {
            return message(StatusCode::SERVICE_UNAVAILABLE, false, "stopping");
        };
        let (app, out) = (self.app.clone(), Arc::clone(&self.out));
        // The move and the work it leaves (the board posted in the channel, the bot's answer)
        // go on even if this request is given up (its time is up, the browser left), as an
        // interaction's do.
        let played = tokio::spawn(async move {
            let _working = working;
            let moved = app
                .board_act(channel, key.as_deref(), lang, &action)
                .await?;
            let respond = PageRespond {
                channel: moved.place.channel_id,
                out: Arc::clone(&out),
                said: Mutex::default(),
            };
            app.serve(moved.answer, moved.place, moved.lang, &respond, &out)
                .await;
            Ok::<_, PageRefusal>(respond.said.into_inner().unwrap_or_else(|p| p.into_inner()))
        });
        let said = match played.await {
            Ok(Ok(said)) => said,
            Ok(Err(refusal)) => return refused(lang, refusal),
            Err(e) => {
                tracing::error!("a move from the board page failed: {e}");
                return message(StatusCode::INTERNAL_SERVER_ERROR, false, "");
            }
        };
        match said {
            Some((true, text)) => message(StatusCode::OK, true, &text),
            Some((false, text)) => message(StatusCode::CONFLICT, false, &text),
            None => message(StatusCode::OK, true, ""),
        }
    }
}

fn refused(lang: Lang, refusal: PageRefusal) -> Answer {
    match refusal {
        PageRefusal::Off => message(StatusCode::NOT_FOUND, false, &t(lang, fl!("err-board-off"))),
        PageRefusal::NoGame(text) => message(StatusCode::NOT_FOUND, false, &text),
        PageRefusal::NotAllowed(text) => message(StatusCode::FORBIDDEN, false, &text),
        PageRefusal::Failed(text) => message(StatusCode::SERVICE_UNAVAILABLE, false, &text),
    }
}

/// How a move made on the page is shown: its public replies (the new board) are posted in
/// the game's channel, as the app's own posts are; a private one (a refusal: not your turn,
/// an illegal move) is what the page's request answers.
struct PageRespond {
    channel: u64,
    out: Arc<dyn Delivery>,
    /// The first private reply: (done, its words without markup).
    said: Mutex<Option<(bool, String)>>,
}

impl PageRespond {
    async fn show(&self, reply: &Reply) -> Shown {
        if reply.is_private() {
            let mut said = self.said.lock().unwrap_or_else(|p| p.into_inner());
            if said.is_none() {
                let done = reply.outcome == crate::app::ReplyOutcome::Done;
                *said = Some((done, crate::app::reply::plain(&reply.text).into_owned()));
            }
            return Shown::Shown;
        }
        match self.out.post(self.channel, reply).await {
            Ok(message) => Shown::Message(message),
            Err(e) => Shown::Lost(e.to_string()),
        }
    }
}

#[async_trait]
impl Respond for PageRespond {
    async fn answer(&self, reply: &Reply) -> Shown {
        self.show(reply).await
    }

    async fn follow_up(&self, reply: &Reply) -> Shown {
        self.show(reply).await
    }

    async fn acknowledge(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_strictly() {
        assert_eq!(route("/board/123"), Some(Route::Page(123)));
        assert_eq!(route("/board/123/"), Some(Route::Page(123)));
        assert_eq!(route("/board/123/state"), Some(Route::State(123)));
        assert_eq!(route("/board/123/events"), Some(Route::Events(123)));
        assert_eq!(route("/board/123/move"), Some(Route::Move(123)));
        assert_eq!(route("/board/session"), Some(Route::Session));
        assert_eq!(
            route("/board/123/resign"),
            Some(Route::Act(123, PageAction::Resign))
        );
        assert_eq!(
            route("/board/123/draw"),
            Some(Route::Act(123, PageAction::Draw))
        );
        assert_eq!(
            route("/board/123/decline-draw"),
            Some(Route::Act(123, PageAction::DeclineDraw))
        );
        assert_eq!(
            route("/board/static/board.js"),
            Some(Route::Static("board.js"))
        );
        for bad in [
            "/board/",
            "/board/-1",
            "/board/+1",
            "/board/1x",
            "/board/99999999999999999999999",
            "/board/1/other",
            "/boards/1",
            "/",
        ] {
            assert_eq!(route(bad), None, "{bad}");
        }
    }
}
