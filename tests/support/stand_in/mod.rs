//! A stand-in for Discord on 127.0.0.1, for end-to-end tests of the bot.
//!
//! It speaks Discord's real protocol: serenity's own client connects to it as it would to
//! Discord (REST under `/api/v10`, the gateway websocket), so tests drive the real bot code.
//!
//! ```ignore
//! use crate::support::stand_in::*;
//!
//! let standin = StandIn::start().await;
//! let mut client = standin.client_builder(GatewayIntents::empty()).event_handler(MyBot).await?;
//! // run the client in a task, then:
//! standin.wait_connected().await;
//! let alice = TestUser::random("alice").with_locale("es-ES");
//! let place = Place::random_guild();
//! let sent = standin.send_interaction(standin.slash_command(&alice, place, "play", vec![])).await;
//! let answer = standin.callback(&sent).await;          // POST .../callback, parsed
//! assert_eq!(answer.callback_type(), Some(4));
//! let board = standin.original_message(&sent);         // the message as Discord now holds it
//! let click = standin.button_click(&alice, &board, "move:1:12-16");
//! ```
//!
//! What it does beyond echoing: it checks what the bot sends against Discord's limits (400 with
//! Discord's "Invalid Form Body" shape), refuses a second answer to an interaction (40060) or
//! an answer of the wrong type, keeps the messages the bot created so later edits, clicks and
//! follow-ups act on them, enforces the bot token (REST 401, gateway close 4004), refuses
//! privileged intents (close 4014), and resumes sessions with replay of missed events.
//! Every request and gateway frame from the bot lands in a log that tests await.
#![allow(dead_code)]

mod commands;
mod faults;
mod gateway;
pub mod http_mode;
mod interactions;
pub mod oauth;
pub mod payloads;
mod rest;
pub mod validate;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use commands::Slash;
use faults::Fault;
pub use faults::{FaultAction, FaultRoute, Ping};
pub use payloads::*;
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch};

/// The bot token the stand-in expects unless [`Config::token`] says otherwise.
pub const DEFAULT_TOKEN: &str = "c3RhbmQtaW4.test.token";

/// What an app installed by a person (not the server) may do in a conversation it is no
/// member of, as `app_permissions` says there: send, embed, attach and use external emoji —
/// in answers to interactions only. No View Channel, no threads.
pub const USER_INSTALL_APP_PERMISSIONS: u64 = (1 << 11) | (1 << 14) | (1 << 15) | (1 << 18);

/// Permission bits (Discord's numbering) the stand-in checks.
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
pub const MANAGE_THREADS: u64 = 1 << 34;
/// The bot's permissions in a channel unless [`StandIn::set_app_permissions`] says otherwise:
/// what the README's invite link grants (View Channels, Send Messages, Send Messages in
/// Threads, Embed Links, Attach Files, Read Message History). No Create Public Threads.
pub const DEFAULT_APP_PERMISSIONS: u64 = 274_878_024_704;

/// A thread the bot opened, as the stand-in holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadInfo {
    pub id: u64,
    /// The channel it was opened in.
    pub parent: u64,
    pub guild: u64,
    pub name: String,
    /// 11 public, 12 private.
    pub kind: u64,
    /// Who opened it (the bot).
    pub owner: u64,
    /// The message it was opened from, if any.
    pub starter_message: Option<u64>,
    pub auto_archive_duration: u64,
    pub archived: bool,
    pub locked: bool,
    /// How many times it was archived (by the bot) so far.
    pub times_archived: u32,
}

impl ThreadInfo {
    /// Where messages in the thread are (interactions in it use this place).
    pub fn place(&self) -> Place {
        Place::guild(self.guild, self.id)
    }

    /// The channel object Discord answers for a thread (serenity's `GuildChannel`).
    pub(crate) fn json(&self, permissions: u64) -> Value {
        json!({
            "id": self.id.to_string(),
            "type": self.kind,
            "guild_id": self.guild.to_string(),
            "parent_id": self.parent.to_string(),
            "owner_id": self.owner.to_string(),
            "name": self.name,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "permissions": permissions.to_string(),
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": timestamp_now(),
                "locked": self.locked,
                "create_timestamp": timestamp_now(),
            },
        })
    }
}

/// How the stand-in behaves; [`Config::default`] suits most tests.
#[derive(Clone, Debug)]
pub struct Config {
    /// The token the bot must present (`Authorization: Bot <token>`, IDENTIFY's `token`).
    pub token: String,
    /// HELLO's `heartbeat_interval` (Discord: 41.25 s). Short values exercise heartbeats.
    pub heartbeat_interval: Duration,
    /// Whether IDENTIFY may ask for privileged intents (members, presences, message content).
    /// Off, as for a bot whose portal switches are off: Discord closes with 4014.
    pub allow_privileged_intents: bool,
    /// If set, an interaction answered later than this is refused with 404 Unknown interaction,
    /// as Discord does after 3 s. Off by default so slow CI machines do not fail tests; every
    /// callback's [`Recorded::elapsed`] is recorded either way.
    pub interaction_deadline: Option<Duration>,
    /// How long the waiting helpers wait before panicking with the log.
    pub wait: Duration,
    /// If set, every request (and gateway frame) is also sent here as it is recorded: how a
    /// load benchmark follows thousands of requests without scanning the log.
    pub tap: Option<mpsc::UnboundedSender<Recorded>>,
    /// Whether the bytes of uploaded files are kept (in the log and for the CDN). Off for the
    /// load benchmark, where thousands of board pictures would only fill memory.
    pub keep_uploads: bool,
    /// How many shards `GET /gateway/bot` recommends.
    pub recommended_shards: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            token: DEFAULT_TOKEN.to_owned(),
            heartbeat_interval: Duration::from_millis(41_250),
            allow_privileged_intents: false,
            interaction_deadline: None,
            wait: Duration::from_secs(10),
            tap: None,
            keep_uploads: true,
            recommended_shards: 1,
        }
    }
}

/// What a recorded request was, decoded from its method-independent path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `GET /gateway`
    Gateway,
    /// `GET /gateway/bot`
    GatewayBot,
    /// `GET /users/@me`
    CurrentUser,
    /// `GET /oauth2/applications/@me`
    CurrentApplication,
    /// `POST /oauth2/token`: an Activity's code exchanged (see [`oauth`])
    OAuthToken,
    /// `/applications/{app}/commands` (guild: None) or `/applications/{app}/guilds/{g}/commands`
    Commands { guild: Option<u64> },
    /// `POST /interactions/{id}/{token}/callback`
    Callback { interaction: u64, token: String },
    /// `/webhooks/{app}/{token}/messages/@original`
    Original { token: String },
    /// `POST /webhooks/{app}/{token}`: a follow-up message
    Followup { token: String },
    /// `/webhooks/{app}/{token}/messages/{id}`
    FollowupMessage { token: String, message: u64 },
    /// `POST /channels/{ch}/messages`
    ChannelMessages { channel: u64 },
    /// `/channels/{ch}/messages/{id}`
    ChannelMessage { channel: u64, message: u64 },
    /// `POST /channels/{ch}/threads`: a thread without a starter message
    Threads { channel: u64 },
    /// `POST /channels/{ch}/messages/{id}/threads`: a thread from a message
    MessageThreads { channel: u64, message: u64 },
    /// `/channels/{ch}`: a channel itself (GET, PATCH — the stand-in models threads only)
    Channel { channel: u64 },
    /// `GET /attachments/...`: the stand-in's CDN for uploaded files
    Attachment { id: u64 },
    /// Gateway op 2 (method "GATEWAY")
    Identify,
    /// Gateway op 6 (method "GATEWAY")
    Resume,
    /// The bot closed the websocket with this code (method "GATEWAY")
    GatewayClose { code: Option<u16> },
    /// Any other gateway op from the bot (presence update, member request…)
    GatewayOp { op: u64 },
    /// A request the stand-in does not know: answered 404
    Unknown,
}

/// How the CDN serves a file a test attached ([`StandIn::attach_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct AttachmentServing {
    /// The size the attachment object declares, if not the file's own.
    pub declared_size: Option<u64>,
    /// How long the CDN waits before answering.
    pub delay: Option<Duration>,
}

/// A file uploaded in a multipart request (`files[n]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadedFile {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// One request (or gateway frame) from the bot, with the stand-in's answer.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// Position in the log.
    pub index: usize,
    /// HTTP method, or "GATEWAY" for websocket frames.
    pub method: String,
    /// Request path (`/api/v10/...`), or the gateway event name.
    pub path: String,
    pub query: String,
    pub route: Route,
    /// The JSON body, `payload_json` of a multipart body, or a gateway frame's `d`.
    pub json: Option<Value>,
    pub files: Vec<UploadedFile>,
    /// HTTP status answered; for gateway frames 0 if accepted, else the close code sent.
    pub status: u16,
    /// The JSON answered (message, commands, error body), if any.
    pub response: Option<Value>,
    /// Why the stand-in refused or frowned (empty when all was well).
    pub problems: Vec<String>,
    /// For callbacks: time between sending the interaction and its answer.
    pub elapsed: Option<Duration>,
    pub at: Instant,
    /// The answer was a fault the test asked for ([`StandIn::inject`]), not a refusal.
    pub injected: bool,
}

impl Recorded {
    /// A request just received, not yet answered or placed in the log.
    pub fn received(method: String, path: String, query: String, route: Route) -> Recorded {
        Recorded {
            index: 0,
            method,
            path,
            query,
            route,
            json: None,
            files: Vec::new(),
            status: 0,
            response: None,
            problems: Vec::new(),
            elapsed: None,
            at: Instant::now(),
            injected: false,
        }
    }

    /// The JSON body, or `null`.
    pub fn body(&self) -> &Value {
        self.json.as_ref().unwrap_or(&Value::Null)
    }

    /// The message part of the body: `data` for interaction callbacks, else the body itself.
    pub fn message_body(&self) -> &Value {
        match self.route {
            Route::Callback { .. } => &self.body()["data"],
            _ => self.body(),
        }
    }

    /// An interaction callback's `type` (4 message, 5 deferred, 6 deferred update, 7 update,
    /// 8 autocomplete result, 9 modal).
    pub fn callback_type(&self) -> Option<u64> {
        match self.route {
            Route::Callback { .. } => self.body()["type"].as_u64(),
            _ => None,
        }
    }

    /// Message flags of the body (64 = ephemeral).
    pub fn flags(&self) -> u64 {
        self.message_body()["flags"].as_u64().unwrap_or(0)
    }

    pub fn is_ephemeral(&self) -> bool {
        self.flags() & 64 != 0
    }

    /// The `content` of the message body, or "".
    pub fn content(&self) -> &str {
        self.message_body()["content"].as_str().unwrap_or("")
    }

    /// The `custom_id`s of the components in the message body.
    pub fn custom_ids(&self) -> Vec<String> {
        custom_ids(self.message_body())
    }

    /// The uploaded file with this name (the multipart part's filename).
    pub fn file(&self, filename: &str) -> Option<&UploadedFile> {
        self.files.iter().find(|f| f.filename == filename)
    }

    /// Autocomplete choices answered (callback type 8).
    pub fn choices(&self) -> Vec<Value> {
        self.body()["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The id of the message the stand-in answered with, if it answered with one.
    pub fn message_id(&self) -> Option<u64> {
        self.response.as_ref()?["id"].as_str()?.parse().ok()
    }

    /// One line (two with problems) for logs.
    pub fn summary(&self) -> String {
        let mut body = self.json.as_ref().map(Value::to_string).unwrap_or_default();
        if body.len() > 600 {
            let mut cut = 600;
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            body.truncate(cut);
            body.push('…');
        }
        let files: Vec<String> = self
            .files
            .iter()
            .map(|f| format!("{}={} ({} B)", f.field, f.filename, f.bytes.len()))
            .collect();
        let query = if self.query.is_empty() {
            String::new()
        } else {
            format!("?{}", self.query)
        };
        let mut line = format!(
            "#{} {} {}{} -> {}",
            self.index, self.method, self.path, query, self.status
        );
        if !body.is_empty() {
            let _ = write!(line, " {body}");
        }
        if !files.is_empty() {
            let _ = write!(line, " files: {}", files.join(", "));
        }
        if !self.problems.is_empty() {
            let _ = write!(line, "\n      problems: {}", self.problems.join("; "));
        }
        line
    }
}

/// An interaction the stand-in dispatched, to match the bot's answers with.
#[derive(Clone, Debug)]
pub struct SentInteraction {
    pub id: u64,
    pub token: String,
    /// Interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit.
    pub kind: u64,
    /// The gateway sequence number it was sent with.
    pub seq: u64,
    pub payload: Value,
    /// The shard (id, count) of the session it was sent on; (0, 1) when posted by HTTP.
    pub shard: (u64, u64),
    /// When posted by HTTP: the request exactly as signed and sent (to replay it).
    pub http_request: Option<http_mode::SignedRequest>,
}

// ---- shared state ------------------------------------------------------------------------------

pub(crate) enum Outgoing {
    Frame(Value),
    Close(u16, String),
    Drop,
}

pub(crate) struct Conn {
    pub(crate) tx: mpsc::UnboundedSender<Outgoing>,
    pub(crate) session: Option<String>,
}

pub(crate) struct Session {
    pub(crate) seq: u64,
    pub(crate) events: Vec<Value>,
    pub(crate) conn: Option<u64>,
    pub(crate) resumable: bool,
    /// READY or RESUMED was sent on the current connection.
    pub(crate) live: bool,
    pub(crate) created: u64,
    /// The shard (id, count) it identified as.
    pub(crate) shard: (u64, u64),
}

impl Session {
    /// Whether Discord sends this guild's events (None: direct messages) on this session's
    /// shard: `(guild_id >> 22) % count`, direct messages on shard 0.
    pub(crate) fn carries(&self, guild: Option<u64>) -> bool {
        let (id, count) = self.shard;
        match guild {
            Some(g) if count > 1 => (g >> 22) % count == id,
            _ => id == 0,
        }
    }
}

pub(crate) struct InteractionState {
    pub(crate) token: String,
    pub(crate) kind: u64,
    pub(crate) place: Place,
    /// For components: the message the component is on.
    pub(crate) message: Option<u64>,
    pub(crate) sent_at: Instant,
    /// The callback type it was answered with.
    pub(crate) ack: Option<u64>,
    /// The message `@original` refers to.
    pub(crate) original: Option<u64>,
    pub(crate) followups: Vec<u64>,
    /// Who caused it.
    pub(crate) user: u64,
}

#[derive(Default)]
pub(crate) struct State {
    pub(crate) log: Vec<Recorded>,
    pub(crate) taken: Vec<bool>,
    pub(crate) conns: HashMap<u64, Conn>,
    pub(crate) next_conn: u64,
    pub(crate) sessions: HashMap<String, Session>,
    pub(crate) interactions: HashMap<u64, InteractionState>,
    pub(crate) tokens: HashMap<String, u64>,
    pub(crate) messages: HashMap<u64, Value>,
    pub(crate) files: HashMap<u64, UploadedFile>,
    pub(crate) channel_guilds: HashMap<u64, u64>,
    pub(crate) global_commands: Vec<Value>,
    pub(crate) guild_commands: HashMap<u64, Vec<Value>>,
    pub(crate) heartbeats: u64,
    pub(crate) faults: Vec<Fault>,
    pub(crate) pings: Vec<Ping>,
    /// Threads by id.
    pub(crate) threads: HashMap<u64, ThreadInfo>,
    /// The bot's permissions per channel, where a test set them (threads inherit their
    /// parent's); [`DEFAULT_APP_PERMISSIONS`] elsewhere.
    pub(crate) app_permissions: HashMap<u64, u64>,
    /// Tokens of interactions posted by HTTP whose answer (the response body) is not read yet.
    pub(crate) pending_http: std::collections::HashSet<String>,
    /// Files the CDN holds back this long before serving them ([`StandIn::attach_with`]).
    pub(crate) file_delays: HashMap<u64, Duration>,
    /// How many times the CDN was asked for each file.
    pub(crate) cdn_fetches: HashMap<u64, u32>,
    /// Conversations between people (DMs and group DMs) by channel, with their channel type
    /// (1 DM, 3 group DM): the bot is no member of any ([`StandIn::group_dm`]).
    pub(crate) private_channels: HashMap<u64, u64>,
    /// The people who installed the app for themselves ([`StandIn::install_for`]).
    pub(crate) user_installs: std::collections::HashSet<u64>,
    /// OAuth2's codes and access tokens ([`oauth`]).
    pub(crate) oauth: oauth::OAuth,
    /// The person whose interaction each message answers: a component on it is authorized
    /// by that person's installation.
    pub(crate) answered_for: HashMap<u64, u64>,
}

impl State {
    /// The bot's permissions in a channel (a thread has its parent's).
    pub(crate) fn app_permissions_in(&self, channel: u64) -> u64 {
        let channel = self.threads.get(&channel).map_or(channel, |t| t.parent);
        self.app_permissions
            .get(&channel)
            .copied()
            .unwrap_or(DEFAULT_APP_PERMISSIONS)
    }

    /// The session to send events to: the newest one whose connection is up and ready.
    pub(crate) fn live_session(&self) -> Option<String> {
        self.sessions
            .iter()
            .filter(|(_, s)| s.live && s.conn.is_some())
            .max_by_key(|(_, s)| s.created)
            .map(|(id, _)| id.clone())
    }

    /// The newest live session of the shard that carries this guild's events.
    pub(crate) fn live_session_for(&self, guild: Option<u64>) -> Option<String> {
        self.sessions
            .iter()
            .filter(|(_, s)| s.live && s.conn.is_some() && s.carries(guild))
            .max_by_key(|(_, s)| s.created)
            .map(|(id, _)| id.clone())
    }

    /// The newest session that could still be resumed, connected or not.
    pub(crate) fn resumable_session(&self) -> Option<String> {
        self.resumable_session_for(None)
    }

    /// The same, of the shard that carries this guild's events.
    pub(crate) fn resumable_session_for(&self, guild: Option<u64>) -> Option<String> {
        self.sessions
            .iter()
            .filter(|(_, s)| s.resumable && s.carries(guild))
            .max_by_key(|(_, s)| s.created)
            .map(|(id, _)| id.clone())
    }

    /// Sends a dispatch (op 0) on a session, numbering it; kept for replay on RESUME.
    pub(crate) fn dispatch(&mut self, session: &str, t: &str, d: Value) -> u64 {
        let s = self
            .sessions
            .get_mut(session)
            .expect("dispatch on a known session");
        s.seq += 1;
        let frame = json!({"op": 0, "s": s.seq, "t": t, "d": d});
        s.events.push(frame.clone());
        if let Some(conn) = s.conn.and_then(|c| self.conns.get(&c)) {
            let _ = conn.tx.send(Outgoing::Frame(frame));
        }
        s.seq
    }
}

pub(crate) struct Inner {
    pub(crate) cfg: Config,
    pub(crate) addr: SocketAddr,
    pub(crate) app_id: u64,
    pub(crate) bot: TestUser,
    pub(crate) state: Mutex<State>,
    pub(crate) changed: watch::Sender<u64>,
    /// Signs the interactions posted by HTTP (`damas serve`); its public key is the
    /// application's `verify_key`.
    pub(crate) signing_key: ed25519_dalek::SigningKey,
}

impl Inner {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub(crate) fn gateway_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Wakes every waiter.
    pub(crate) fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// Appends to the log and wakes waiters.
    pub(crate) fn record(&self, st: &mut State, mut rec: Recorded) -> usize {
        rec.index = st.log.len();
        if !self.cfg.keep_uploads {
            for file in &mut rec.files {
                file.bytes = Vec::new();
            }
        }
        if let Some(tap) = &self.cfg.tap {
            let _ = tap.send(rec.clone());
        }
        st.log.push(rec);
        st.taken.push(false);
        st.log.len() - 1
    }

    /// The bot's user object as Discord sends it to the bot itself (`CurrentUser`).
    pub(crate) fn bot_json(&self) -> Value {
        let mut user = self.bot.json();
        user["verified"] = json!(true);
        user["mfa_enabled"] = json!(false);
        user["flags"] = json!(0);
        user["email"] = Value::Null;
        user["locale"] = json!("en-US");
        user
    }
}

// ---- the stand-in ------------------------------------------------------------------------------

/// A fake Discord serving REST and the gateway on 127.0.0.1. Dropping it stops the server and
/// drops the websocket connections.
pub struct StandIn {
    inner: Arc<Inner>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        for conn in self.inner.state().conns.values() {
            let _ = conn.tx.send(Outgoing::Drop);
        }
        self.server.abort();
    }
}

impl StandIn {
    /// Starts a stand-in with [`Config::default`] on a free port.
    pub async fn start() -> Self {
        Self::start_with(Config::default()).await
    }

    pub async fn start_with(cfg: Config) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let app_id = snowflake();
        let bot = TestUser::new(app_id, "damas").into_bot();
        let (changed, _) = watch::channel(0);
        let inner = Arc::new(Inner {
            cfg,
            addr,
            app_id,
            bot,
            state: Mutex::default(),
            changed,
            signing_key: ed25519_dalek::SigningKey::from_bytes(&[7; 32]),
        });
        let app = axum::Router::new()
            .route("/ws", axum::routing::get(gateway::upgrade))
            .fallback(rest::handle)
            .layer(axum::extract::DefaultBodyLimit::max(64 * 1024 * 1024))
            .with_state(Arc::clone(&inner));
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("stand-in server");
        });
        Self { inner, server }
    }

    /// `http://127.0.0.1:PORT`: give it to `HttpBuilder::proxy`.
    pub fn base_url(&self) -> String {
        self.inner.base_url()
    }

    /// `ws://127.0.0.1:PORT/ws`, what `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        self.inner.gateway_url()
    }

    /// The token the stand-in accepts.
    pub fn token(&self) -> &str {
        &self.inner.cfg.token
    }

    /// The application id READY announces (also the bot's user id, as on Discord).
    pub fn application_id(&self) -> u64 {
        self.inner.app_id
    }

    /// The bot's own user.
    pub fn bot_user(&self) -> TestUser {
        self.inner.bot.clone()
    }

    /// serenity's HTTP client pointed here: `HttpBuilder::new(token).proxy(base_url)
    /// .ratelimiter_disabled(true)` (the proxy is ignored while the rate limiter is on).
    pub fn http(&self) -> serenity::http::Http {
        self.http_with_token(self.token())
    }

    /// Same as [`Self::http`] with another token (to check that a wrong one is refused).
    pub fn http_with_token(&self, token: &str) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(token)
            .proxy(self.base_url())
            .ratelimiter_disabled(true)
            .build()
    }

    /// A serenity client builder connected to the stand-in.
    pub fn client_builder(
        &self,
        intents: serenity::model::gateway::GatewayIntents,
    ) -> serenity::client::ClientBuilder {
        serenity::client::ClientBuilder::new_with_http(self.http(), intents)
    }

    // ---- the log ---------------------------------------------------------------------------

    /// Everything recorded so far.
    pub fn log(&self) -> Vec<Recorded> {
        self.inner.state().log.clone()
    }

    /// The log, one summary per line.
    pub fn log_text(&self) -> String {
        let st = self.inner.state();
        let mut text = String::new();
        for rec in &st.log {
            let _ = writeln!(text, "  {}", rec.summary());
        }
        if st.log.is_empty() {
            text.push_str("  (nothing recorded)\n");
        }
        text
    }

    /// Requests the stand-in refused (status >= 400, gateway closes) or did not know.
    pub fn refusals(&self) -> Vec<Recorded> {
        self.inner
            .state()
            .log
            .iter()
            .filter(|r| !r.injected && (r.status >= 400 || !r.problems.is_empty()))
            .cloned()
            .collect()
    }

    /// Panics, with the log, if any request was refused or unknown.
    pub fn assert_no_refusals(&self) {
        let refused = self.refusals();
        assert!(
            refused.is_empty(),
            "the stand-in refused {} request(s):\n{}\nfull log:\n{}",
            refused.len(),
            refused
                .iter()
                .map(Recorded::summary)
                .collect::<Vec<_>>()
                .join("\n"),
            self.log_text()
        );
    }

    /// How many heartbeats the bot has sent.
    pub fn heartbeats(&self) -> u64 {
        self.inner.state().heartbeats
    }

    /// Waits (up to [`Config::wait`]) until `check` finds something in the state.
    async fn wait_state<T>(
        &self,
        what: &str,
        within: Duration,
        mut check: impl FnMut(&mut State) -> Option<T>,
    ) -> T {
        let mut rx = self.inner.changed.subscribe();
        let deadline = tokio::time::Instant::now() + within;
        loop {
            rx.borrow_and_update();
            let found = check(&mut self.inner.state());
            if let Some(found) = found {
                return found;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                panic!(
                    "stand-in: waited {within:?} for {what}, in vain. Log:\n{}",
                    self.log_text()
                );
            }
        }
    }

    /// The earliest request not yet returned by a `next_*` call that matches `pred`; waits for
    /// it up to [`Config::wait`], then panics with the whole log.
    pub async fn next_request(&self, pred: impl Fn(&Recorded) -> bool) -> Recorded {
        self.next_request_within(self.inner.cfg.wait, "a matching request", pred)
            .await
    }

    pub async fn next_request_within(
        &self,
        within: Duration,
        what: &str,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        self.wait_state(what, within, |st| {
            let i = (0..st.log.len()).find(|&i| !st.taken[i] && pred(&st.log[i]))?;
            st.taken[i] = true;
            Some(st.log[i].clone())
        })
        .await
    }

    /// Sleeps `dur`, then panics if a request not yet taken matches `pred`.
    pub async fn assert_no_request_within(&self, dur: Duration, pred: impl Fn(&Recorded) -> bool) {
        tokio::time::sleep(dur).await;
        let st = self.inner.state();
        let found: Vec<String> = (0..st.log.len())
            .filter(|&i| !st.taken[i] && pred(&st.log[i]))
            .map(|i| st.log[i].summary())
            .collect();
        assert!(
            found.is_empty(),
            "unexpected request(s):\n{}",
            found.join("\n")
        );
    }

    /// Makes the next `times` requests matching `route` fail (or wait) as `action` says.
    /// Returns the fault's id for [`StandIn::fault_hits`].
    pub fn inject(&self, route: FaultRoute, action: FaultAction, times: u32) -> usize {
        let mut st = self.inner.state();
        let id = st.faults.len();
        st.faults.push(Fault {
            id,
            route,
            action,
            remaining: times,
            hits: 0,
        });
        id
    }

    /// How many requests a fault has applied to so far.
    pub fn fault_hits(&self, fault: usize) -> u32 {
        self.inner.state().faults[fault].hits
    }

    /// Waits until a fault has applied to a request.
    pub async fn wait_fault_hit(&self, fault: usize) {
        self.wait_state(
            &format!("fault {fault} to apply"),
            self.inner.cfg.wait,
            |st| (st.faults[fault].hits > 0).then_some(()),
        )
        .await
    }

    /// Every notification the bot's messages made, oldest first.
    pub fn pings(&self) -> Vec<Ping> {
        self.inner.state().pings.clone()
    }

    /// The bot's answer (`POST /interactions/{id}/{token}/callback`) to this interaction.
    pub async fn callback(&self, sent: &SentInteraction) -> Recorded {
        let id = sent.id;
        self.next_request_within(
            self.inner.cfg.wait,
            &format!("the callback of interaction {id}"),
            |r| matches!(&r.route, Route::Callback { interaction, .. } if *interaction == id),
        )
        .await
    }

    /// The bot's next `PATCH /webhooks/{app}/{token}/messages/@original` for this interaction.
    pub async fn original_edit(&self, sent: &SentInteraction) -> Recorded {
        self.next_webhook_request(sent, false).await
    }

    /// The bot's next follow-up (`POST /webhooks/{app}/{token}`) for this interaction.
    pub async fn followup(&self, sent: &SentInteraction) -> Recorded {
        self.next_webhook_request(sent, true).await
    }

    /// The bot's next follow-up of the interaction (`followup`), or next edit of its original
    /// answer.
    async fn next_webhook_request(&self, sent: &SentInteraction, followup: bool) -> Recorded {
        let token = sent.token.as_str();
        let (method, what) = if followup {
            ("POST", format!("a follow-up of {}", sent.id))
        } else {
            ("PATCH", format!("an edit of @original of {}", sent.id))
        };
        self.next_request_within(self.inner.cfg.wait, &what, |r| {
            r.method == method
                && match &r.route {
                    Route::Original { token: t } => !followup && t == token,
                    Route::Followup { token: t } => followup && t == token,
                    _ => false,
                }
        })
        .await
    }

    /// The bot's next message posted in a channel (`POST /channels/{ch}/messages`).
    pub async fn channel_post(&self, channel: u64) -> Recorded {
        self.next_request_within(
            self.inner.cfg.wait,
            &format!("a message posted in channel {channel}"),
            |r| {
                r.method == "POST"
                    && r.status < 300
                    && matches!(r.route, Route::ChannelMessages { channel: c } if c == channel)
            },
        )
        .await
    }

    /// The next command registration (`PUT .../commands`, global or guild).
    pub async fn commands_put(&self) -> Recorded {
        self.next_request_within(self.inner.cfg.wait, "a PUT of application commands", |r| {
            r.method == "PUT" && matches!(r.route, Route::Commands { .. })
        })
        .await
    }

    /// The next IDENTIFY (op 2) from a bot.
    pub async fn identify(&self) -> Recorded {
        self.next_request_within(self.inner.cfg.wait, "an IDENTIFY", |r| {
            r.route == Route::Identify
        })
        .await
    }

    /// Waits until a bot has a ready session (after READY or RESUMED).
    pub async fn wait_connected(&self) {
        self.wait_state(
            "a connected bot (READY or RESUMED sent)",
            self.inner.cfg.wait,
            |st| st.live_session(),
        )
        .await;
    }

    /// Whether a bot is connected and ready now.
    pub fn is_connected(&self) -> bool {
        self.inner.state().live_session().is_some()
    }

    /// Waits until `n` shards are connected and ready; returns their (id, count), sorted.
    pub async fn wait_shards_connected(&self, n: usize) -> Vec<(u64, u64)> {
        let what = format!("{n} connected shards");
        self.wait_state(&what, self.inner.cfg.wait, |st| {
            let mut shards: Vec<(u64, u64)> = st
                .sessions
                .values()
                .filter(|s| s.live && s.conn.is_some())
                .map(|s| s.shard)
                .collect();
            shards.sort_unstable();
            (shards.len() >= n).then_some(shards)
        })
        .await
    }

    /// The shards (id, count) the bot identified as, in order, refused ones included.
    pub fn identified_shards(&self) -> Vec<(u64, u64)> {
        self.inner
            .state()
            .log
            .iter()
            .filter(|r| r.route == Route::Identify)
            .map(|r| {
                let shard = &r.body()["shard"];
                (
                    shard[0].as_u64().unwrap_or(0),
                    shard[1].as_u64().unwrap_or(1),
                )
            })
            .collect()
    }

    /// Waits until no bot is connected (e.g. after `shard_manager.shutdown_all()`).
    pub async fn wait_disconnected(&self) {
        self.wait_state("every bot connection to close", self.inner.cfg.wait, |st| {
            st.conns.is_empty().then_some(())
        })
        .await;
    }

    // ---- what Discord holds ----------------------------------------------------------------

    /// A message as the stand-in holds it (serenity's `Message` JSON).
    pub fn message(&self, id: u64) -> Option<Value> {
        self.inner.state().messages.get(&id).cloned()
    }

    /// The messages in a channel, oldest first.
    pub fn messages_in(&self, channel: u64) -> Vec<Value> {
        let st = self.inner.state();
        let mut list: Vec<Value> = st
            .messages
            .values()
            .filter(|m| m["channel_id"] == json!(channel.to_string()))
            .cloned()
            .collect();
        list.sort_by_key(|m| m["id"].as_str().and_then(|s| s.parse::<u64>().ok()));
        list
    }

    /// The message `@original` of this interaction now refers to; panics if there is none.
    pub fn original_message(&self, sent: &SentInteraction) -> Value {
        let st = self.inner.state();
        let id = st.interactions.get(&sent.id).and_then(|i| i.original);
        match id.and_then(|id| st.messages.get(&id)) {
            Some(m) => m.clone(),
            None => panic!("interaction {} has no original message (yet)", sent.id),
        }
    }

    /// The bytes of an attachment of a message, by filename.
    pub fn attachment_bytes(&self, message: &Value, filename: &str) -> Option<Vec<u8>> {
        let attachment = message["attachments"]
            .as_array()?
            .iter()
            .find(|a| a["filename"] == json!(filename))?;
        let id: u64 = attachment["id"].as_str()?.parse().ok()?;
        self.inner.state().files.get(&id).map(|f| f.bytes.clone())
    }

    /// A file a person attaches to a command, as Discord holds it: the attachment object of
    /// `data.resolved.attachments` (give it to [`opt_attachment`]), its bytes on the CDN.
    pub fn attach(&self, filename: &str, bytes: &[u8]) -> Value {
        self.attach_with(filename, bytes, AttachmentServing::default())
    }

    /// [`Self::attach`], with the CDN serving it as `serving` says (slowly, or under a size
    /// that is not its own).
    pub fn attach_with(&self, filename: &str, bytes: &[u8], serving: AttachmentServing) -> Value {
        let id = snowflake();
        let url = format!(
            "{}/attachments/{}/{id}/{filename}",
            self.base_url(),
            snowflake()
        );
        let mut st = self.inner.state();
        st.files.insert(
            id,
            UploadedFile {
                field: "attachment".to_owned(),
                filename: filename.to_owned(),
                content_type: Some("application/octet-stream".to_owned()),
                bytes: bytes.to_vec(),
            },
        );
        if let Some(delay) = serving.delay {
            st.file_delays.insert(id, delay);
        }
        json!({
            "id": id.to_string(),
            "filename": filename,
            "size": serving.declared_size.unwrap_or(bytes.len() as u64),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
            "ephemeral": true,
        })
    }

    /// How many times the CDN was asked for an attachment (by its JSON).
    pub fn attachment_fetches(&self, attachment: &Value) -> u32 {
        let id: u64 = attachment["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("an attachment made by attach");
        self.inner
            .state()
            .cdn_fetches
            .get(&id)
            .copied()
            .unwrap_or(0)
    }

    /// Puts a message into a channel as if `author` had posted it (an old board, say): returns
    /// its JSON, which [`Self::button_click`] can use.
    pub fn post_message(
        &self,
        place: Place,
        author: &TestUser,
        content: &str,
        components: Value,
    ) -> Value {
        let id = snowflake();
        let mut message = rest::message_base(&self.inner, id, place, author.json(), 0);
        message["content"] = json!(content);
        message["components"] = components;
        rest::check_message(&message)
            .unwrap_or_else(|e| panic!("post_message builds a bad message: {e}"));
        let mut st = self.inner.state();
        if let Some(guild) = place.guild {
            st.channel_guilds.insert(place.channel, guild);
        }
        st.messages.insert(id, message.clone());
        message
    }

    /// Sets the bot's permissions in a channel (and its threads): what interactions carry in
    /// `app_permissions` and what REST checks.
    pub fn set_app_permissions(&self, channel: u64, bits: u64) {
        self.inner.state().app_permissions.insert(channel, bits);
    }

    /// Lets the bot open public threads in a channel (the invite's permissions plus Create
    /// Public Threads).
    pub fn allow_threads(&self, channel: u64) {
        self.set_app_permissions(channel, DEFAULT_APP_PERMISSIONS | CREATE_PUBLIC_THREADS);
    }

    /// A thread as the stand-in holds it now.
    pub fn thread(&self, id: u64) -> Option<ThreadInfo> {
        self.inner.state().threads.get(&id).cloned()
    }

    /// The threads opened in a channel, oldest first.
    pub fn threads_in(&self, parent: u64) -> Vec<ThreadInfo> {
        let mut list: Vec<ThreadInfo> = self
            .inner
            .state()
            .threads
            .values()
            .filter(|t| t.parent == parent)
            .cloned()
            .collect();
        list.sort_by_key(|t| t.id);
        list
    }

    /// The bot's next successful thread creation in a channel; returns the thread.
    pub async fn thread_created(&self, parent: u64) -> ThreadInfo {
        let rec = self
            .next_request_within(
                self.inner.cfg.wait,
                &format!("a thread opened in channel {parent}"),
                |r| {
                    r.method == "POST"
                        && r.status < 300
                        && matches!(r.route,
                            Route::Threads { channel } | Route::MessageThreads { channel, .. }
                            if channel == parent)
                },
            )
            .await;
        let id = rec.message_id().expect("a created thread has an id");
        self.thread(id)
            .expect("the stand-in holds the thread it created")
    }

    /// Waits until a thread is archived (and not reopened since).
    pub async fn wait_thread_archived(&self, id: u64) -> ThreadInfo {
        self.wait_state(
            &format!("thread {id} to be archived"),
            self.inner.cfg.wait,
            |st| st.threads.get(&id).filter(|t| t.archived).cloned(),
        )
        .await
    }

    /// Sends any dispatch event (`t`, `d`) to the connected bot, on the shard that carries
    /// `d.guild_id` (shard 0 without one); returns its sequence number.
    pub async fn dispatch(&self, t: &str, d: Value) -> u64 {
        self.dispatch_on_shard(t, d, false).await.0
    }

    /// Sends a dispatch to the newest resumable session of its shard, connected or not
    /// (replayed on RESUME).
    pub async fn queue_dispatch(&self, t: &str, d: Value) -> u64 {
        self.dispatch_on_shard(t, d, true).await.0
    }

    /// Sends a dispatch on the session of the shard that carries its guild; with `queue`,
    /// also to a session whose connection is down. Returns its sequence number and the shard.
    async fn dispatch_on_shard(&self, t: &str, d: Value, queue: bool) -> (u64, (u64, u64)) {
        let guild: Option<u64> = d["guild_id"].as_str().and_then(|s| s.parse().ok());
        let what = format!("a connected bot (the shard of guild {guild:?}) to send {t} to");
        let t = t.to_owned();
        self.wait_state(&what, self.inner.cfg.wait, |st| {
            let session = st
                .live_session_for(guild)
                .or_else(|| queue.then(|| st.resumable_session_for(guild)).flatten())?;
            let shard = st.sessions[&session].shard;
            Some((st.dispatch(&session, &t, d.clone()), shard))
        })
        .await
    }

    /// Asks the bot to reconnect (op 7 RECONNECT): serenity then resumes on a new connection.
    pub fn request_reconnect(&self) {
        for conn in self.inner.state().conns.values() {
            let _ = conn.tx.send(Outgoing::Frame(json!({"op": 7, "d": null})));
        }
    }

    /// Cuts every websocket connection without a close frame, like a network failure; sessions
    /// stay resumable and events dispatched meanwhile are replayed on RESUME.
    pub fn drop_connections(&self) {
        let mut st = self.inner.state();
        for conn in st.conns.values() {
            let _ = conn.tx.send(Outgoing::Drop);
        }
        // Detach now, so that what is dispatched next is queued for the RESUME.
        for session in st.sessions.values_mut() {
            session.conn = None;
            session.live = false;
        }
        drop(st);
        self.inner.bump();
    }

    /// Sends op 9 INVALID_SESSION (not resumable) on every connection: serenity re-identifies.
    pub fn invalidate_sessions(&self) {
        let mut st = self.inner.state();
        for s in st.sessions.values_mut() {
            s.resumable = false;
        }
        for conn in st.conns.values() {
            let _ = conn.tx.send(Outgoing::Frame(json!({"op": 9, "d": false})));
        }
    }
}

/// A serenity client running in a task, to stop cleanly between tests or to simulate a restart.
pub struct RunningClient {
    pub shard_manager: Arc<serenity::gateway::ShardManager>,
    task: tokio::task::JoinHandle<Result<(), serenity::Error>>,
}

impl RunningClient {
    /// Runs `client.start()` (one shard) in a task.
    pub fn spawn(mut client: serenity::Client) -> Self {
        let shard_manager = Arc::clone(&client.shard_manager);
        let task = tokio::spawn(async move { client.start().await });
        Self {
            shard_manager,
            task,
        }
    }

    /// Builds a client on the stand-in with this handler and runs it.
    pub async fn start(
        standin: &StandIn,
        intents: serenity::model::gateway::GatewayIntents,
        handler: impl serenity::client::EventHandler + 'static,
    ) -> Self {
        let client = standin
            .client_builder(intents)
            .event_handler(handler)
            .await
            .expect("build the serenity client");
        Self::spawn(client)
    }

    /// `shard_manager.shutdown_all()` (close 1000, so the session ends), then waits up to 10 s
    /// for `client.start()` to return, and panics unless it returned `Ok`.
    pub async fn stop(self) {
        self.shard_manager.shutdown_all().await;
        match tokio::time::timeout(Duration::from_secs(10), self.task).await {
            Err(_) => panic!("the serenity client did not stop within 10 s of shutdown_all"),
            Ok(Err(e)) => panic!("the serenity client task failed: {e}"),
            Ok(Ok(Err(e))) => panic!("the serenity client returned an error: {e:?}"),
            Ok(Ok(Ok(()))) => {}
        }
    }

    /// Waits (up to 10 s) for the client to end by itself, e.g. refused by the gateway.
    pub async fn finished(self) -> Result<(), serenity::Error> {
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the serenity client did not end within 10 s")
            .expect("the serenity client task failed")
    }
}

/// Where a message is (its channel and guild).
pub fn place_of(message: &Value) -> Place {
    let id = |v: &Value| v.as_str().and_then(|s| s.parse::<u64>().ok());
    Place {
        channel: id(&message["channel_id"]).expect("message without channel_id"),
        guild: id(&message["guild_id"]),
    }
}
