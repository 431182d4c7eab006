//! The Discord adapter: command definitions, routing of interactions into the application
//! layer, and turning its replies into Discord responses. Holds no game logic.

// Startup errors happen once; boxing serenity's large error would buy nothing.
#![allow(clippy::result_large_err)]

pub mod attachments;
pub mod channels;
pub mod commands;
pub mod deliver;
pub mod health;
pub mod logs;
pub mod reach;
pub mod replay;
pub mod respond;
pub mod router;
pub mod shards;
pub mod webhook;

use crate::app::boot::BootError;
use crate::app::settings::Settings;
use crate::app::App;
use serenity::all::{Client, GatewayIntents, Http, HttpBuilder};
use shards::ShardPlan;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The bot token; never printed (its Debug and Display are redacted).
#[derive(Clone)]
pub struct Token(String);

impl Token {
    pub fn new(t: impl Into<String>) -> Token {
        Token(t.into())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// Everything the bot reads from the environment (or `.env`).
#[derive(Clone, Debug)]
pub struct BotConfig {
    pub token: Token,
    pub db_path: PathBuf,
    pub guild_id: Option<u64>,
    /// Base URL every REST call goes to instead of discord.com (rate-limit proxy, tests).
    pub api_proxy: Option<String>,
    /// Work still running after this long is deferred ([`router::DEFER_AFTER`]; tests use 0
    /// to take the deferred path every time).
    pub defer_after: Duration,
    /// Time limits and the search pool (`DAMAS_*`).
    pub settings: Settings,
    /// The gateway shards this process runs (`DISCORD_SHARDS`, `DISCORD_SHARD_COUNT`).
    pub shards: ShardPlan,
    /// Where `/metrics`, `/healthz` and `/readyz` are served (`DAMAS_METRICS_LISTEN`); `None`:
    /// nowhere, and no metrics are recorded.
    pub metrics_listen: Option<std::net::SocketAddr>,
    /// `DAMAS_WEB_LISTEN`: where `damas bot` serves the board page (`damas serve` serves it
    /// on its own listener).
    pub web_listen: Option<std::net::SocketAddr>,
    /// `DISCORD_CLIENT_ID` and `DISCORD_CLIENT_SECRET`: the board page as a Discord
    /// Activity (launched from the App Launcher and by the game's "Open the board" button).
    pub activity: Option<crate::web::activity::ActivityKeys>,
}

/// The variable naming where `damas bot` serves the board page.
pub const WEB_LISTEN_ENV: &str = "DAMAS_WEB_LISTEN";

/// Reads `DAMAS_WEB_LISTEN`: an address and port, and only with the page's public URL set
/// (its links need it).
fn web_listen_from_vars(
    var: impl Fn(&str) -> Option<String>,
    settings: &Settings,
) -> Result<Option<std::net::SocketAddr>, BotError> {
    let Some(raw) = var(WEB_LISTEN_ENV).filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    let addr = raw
        .trim()
        .parse::<std::net::SocketAddr>()
        .map_err(|_| BotError::BadSetting {
            variable: WEB_LISTEN_ENV,
            problem: format!("must be an address and port like 127.0.0.1:8080, not {raw:?}"),
        })?;
    if settings.board_links.is_none() {
        return Err(BotError::BadSetting {
            variable: WEB_LISTEN_ENV,
            problem: format!(
                "needs {} too: the board page's links start with it",
                crate::app::board_page::PUBLIC_URL_ENV
            ),
        });
    }
    Ok(Some(addr))
}

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot's token there (see README).")]
    MissingToken,
    #[error("Discord rejected DISCORD_TOKEN (it is wrong, or was reset). Get the token from the Developer Portal's Bot page and update .env (see .env.example).")]
    TokenRejected,
    /// A setting that cannot be used: names the variable and says what it must be.
    #[error("{variable} {problem}")]
    BadSetting {
        variable: &'static str,
        problem: String,
    },
    #[error(transparent)]
    Store(#[from] BootError),
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    #[error("Discord: {0}")]
    Discord(#[from] serenity::Error),
}

impl BotError {
    /// 2 for what the person running the bot must fix in its settings, 1 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            BotError::MissingToken | BotError::TokenRejected | BotError::BadSetting { .. } => 2,
            _ => 1,
        }
    }
}

/// A server id: a positive number.
fn parse_guild_id(raw: &str) -> Result<u64, BotError> {
    match raw.trim().parse::<std::num::NonZeroU64>() {
        Ok(id) => Ok(id.get()),
        Err(_) => Err(BotError::BadSetting {
            variable: "DISCORD_GUILD_ID",
            problem: format!("must be a server id (a positive number), not {raw:?}"),
        }),
    }
}

/// The proxy's base URL: http or https, a host, nothing after the path. Every REST call
/// carries the bot token, so plain `http://` only to this machine (a proxy beside the bot);
/// anywhere else, `https://`.
fn parse_proxy(raw: &str) -> Result<String, BotError> {
    let bad = |why: &str| BotError::BadSetting {
        variable: "DISCORD_API_PROXY",
        problem: format!("must be a base URL like http://127.0.0.1:3000 ({why}), not {raw:?}"),
    };
    let trimmed = raw.trim().trim_end_matches('/');
    let url = url::Url::parse(trimmed).map_err(|e| bad(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("the scheme must be http or https"));
    }
    if url.host_str().map_or(true, str::is_empty) {
        return Err(bad("it has no host"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("it must have no query or fragment"));
    }
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if url.scheme() == "http" && !loopback {
        return Err(BotError::BadSetting {
            variable: "DISCORD_API_PROXY",
            problem: format!(
                "must use https:// unless the proxy runs on this machine (127.0.0.1, ::1, localhost): every request carries the bot token, which plain http:// sends in clear, not {raw:?}"
            ),
        });
    }
    Ok(trimmed.to_string())
}

impl BotConfig {
    /// Reads `DISCORD_TOKEN`, `DAMAS_DB`, `DISCORD_GUILD_ID`, `DISCORD_API_PROXY`,
    /// `DISCORD_SHARDS`, `DISCORD_SHARD_COUNT` and the `DAMAS_*` settings.
    pub fn from_env() -> Result<BotConfig, BotError> {
        BotConfig::from_vars(|name| std::env::var(name).ok())
    }

    /// The same from any source of variables (tests).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<BotConfig, BotError> {
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let token = set("DISCORD_TOKEN")
            .map(|t| t.trim().to_string())
            .ok_or(BotError::MissingToken)?;
        let guild_id = set("DISCORD_GUILD_ID")
            .map(|g| parse_guild_id(&g))
            .transpose()?;
        let api_proxy = set("DISCORD_API_PROXY")
            .map(|p| parse_proxy(&p))
            .transpose()?;
        let db_path = crate::app::boot::db_from_vars(&var);
        // A URL of another database would otherwise become a folder named after it.
        crate::app::check_db_name(&db_path).map_err(|e| BotError::BadSetting {
            variable: crate::app::DB_ENV,
            problem: crate::app::db_name_problem(&e),
        })?;
        let shards = ShardPlan::from_vars(set("DISCORD_SHARDS"), set("DISCORD_SHARD_COUNT"))?;
        let metrics_listen = health::metrics_listen_from_vars(&var)?;
        let settings = Settings::from_vars(&var).map_err(|e| BotError::BadSetting {
            variable: e.variable,
            problem: e.problem,
        })?;
        let web_listen = web_listen_from_vars(&var, &settings)?;
        let activity =
            crate::web::activity::ActivityKeys::from_vars(&var, settings.board_links.is_some())
                .map_err(|e| BotError::BadSetting {
                    variable: e.variable,
                    problem: e.problem,
                })?;
        Ok(BotConfig {
            activity,
            token: Token(token),
            shards,
            metrics_listen,
            web_listen,
            db_path,
            guild_id,
            api_proxy,
            defer_after: router::DEFER_AFTER,
            settings,
        })
    }
}

/// serenity's REST client for the configured token (through the proxy, if any), once Discord
/// took the token.
async fn checked_http(config: &BotConfig) -> Result<Http, BotError> {
    let mut http = HttpBuilder::new(&config.token.0);
    if let Some(proxy) = &config.api_proxy {
        http = http.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    let http = http.build();
    // Check the token first, for a clear message instead of a gateway error loop.
    match http.get_current_user().await {
        Ok(_) => Ok(http),
        Err(serenity::Error::Http(e)) if e.status_code().is_some_and(|s| s.as_u16() == 401) => {
            Err(BotError::TokenRejected)
        }
        Err(e) => Err(BotError::Discord(e)),
    }
}

/// Whether this process builds the endgame tables missing from their folder
/// (`DAMAS_EGDB_BUILD`), read before anything starts so that a bad value stops it at once.
fn table_building() -> Result<bool, BotError> {
    crate::app::boot::table_building_from_vars(|name| std::env::var(name).ok()).map_err(|e| {
        BotError::BadSetting {
            variable: e.variable,
            problem: e.problem,
        }
    })
}

/// Opens the store and builds the application over it with the configured settings.
fn open_app(config: &BotConfig) -> Result<App, BotError> {
    Ok(crate::app::boot::boot(
        &config.db_path,
        config.settings.clone(),
    )?)
}

/// Builds the serenity client over an [`App`]. With a proxy, serenity's own rate limiter is
/// off (it would bypass the proxy) and every REST call goes to the proxy.
pub async fn client(config: &BotConfig, app: App) -> Result<Client, BotError> {
    let handler = router::Handler::new(app, config);
    client_with(config, Arc::new(handler)).await
}

/// [`client`] with its event handler, shared with the sweeper ([`sweep_every`]).
pub async fn client_with(
    config: &BotConfig,
    handler: Arc<router::Handler>,
) -> Result<Client, BotError> {
    let http = checked_http(config).await?;
    // Commands, autocomplete and components need no privileged intent.
    let intents = GatewayIntents::GUILDS;
    Ok(serenity::all::ClientBuilder::new_with_http(http, intents)
        .event_handler_arc(handler)
        .await?)
}

/// Every `every` until the task is aborted: the sweeper (reminders, losses on time, expired
/// challenges; each pass counts as work under way for a clean shutdown), then the moves the
/// bot owes whose boards are shown. A (re)connection's catch-up can be refused such a move:
/// on PostgreSQL, a process that died while searching leaves its lease for up to
/// [`crate::store::BOT_TURN_LEASE_TTL`], and nothing else would start the move once it expires.
pub async fn sweep_every(http: Arc<Http>, handler: Arc<router::Handler>, every: Duration) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: the start's own catch-up is starting those moves.
    let mut first = true;
    let out = channels::DiscordChannels::port(&http, &handler.answer_only);
    loop {
        ticks.tick().await;
        let Some(working) = handler.app.work().start() else {
            return;
        };
        handler.app.sweep_and_show(&*out).await;
        handler.replays.forget_old();
        drop(working);
        if !std::mem::take(&mut first) {
            handler.app.nudge_owed_moves(&out);
        }
    }
}

pub use crate::app::boot::SHUTDOWN_GRACE;

/// Resolves on SIGTERM or Ctrl-C (SIGINT).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Opens the store and runs the bot until Discord stops it or a signal asks it to stop. On
/// SIGTERM or Ctrl-C it takes no more interactions, stops the searches (their bot moves stay
/// owed to the next start), lets the interactions under way finish (at most
/// [`SHUTDOWN_GRACE`]), flushes the store and returns.
pub async fn serve(config: BotConfig) -> Result<(), BotError> {
    if config.activity.is_some() && config.web_listen.is_none() {
        return Err(BotError::BadSetting {
            variable: crate::web::activity::CLIENT_SECRET_ENV,
            problem: format!(
                "needs {WEB_LISTEN_ENV} with `damas bot`: the Activity is the board page, which this process must serve"
            ),
        });
    }
    let build_tables = table_building()?;
    if config.metrics_listen.is_some() {
        // Before the store opens: its first operations are counted too.
        crate::metrics::install();
    }
    let app = open_app(&config)?;
    if build_tables {
        crate::app::boot::build_missing_tables();
    }
    let settings = &config.settings;
    let handler = Arc::new(router::Handler::new(app.clone(), &config));
    if let Some(addr) = config.metrics_listen {
        health::start_metrics(addr, Arc::clone(&handler.health)).await?;
    }
    let mut client = client_with(&config, Arc::clone(&handler)).await?;
    let shards = client.shard_manager.clone();
    let web_stop = match config.web_listen {
        Some(addr) => Some(start_board_page(addr, &config, &handler, &client.http).await?),
        None => None,
    };
    let sweeper = tokio::spawn(sweep_every(
        client.http.clone(),
        Arc::clone(&handler),
        settings.sweep_every,
    ));
    let started = async {
        match config.shards {
            ShardPlan::Recommended => client.start_autosharded().await,
            // serenity's range end is inclusive, like DISCORD_SHARDS.
            ShardPlan::Range { first, last, total } => {
                client.start_shard_range(first..last, total).await
            }
        }
    };
    tokio::select! {
        ended = started => ended?,
        () = stop_signal() => {
            // First of all: a load balancer or orchestrator stops sending work here.
            handler.health.stopping();
            tracing::info!("stopping: no new interactions; finishing the work under way");
            // The gateway closes first: interactions it already delivered are still
            // answered; then the work under way gets its time.
            shards.shutdown_all().await;
        }
    }
    // The gateway stopped (by the signal, or by Discord): the one shutdown sequence.
    if let Some(stop) = web_stop {
        let _ = stop.send(());
    }
    app.shut_down(SHUTDOWN_GRACE, Some(sweeper))
        .await
        .map_err(|source| BootError {
            path: config.db_path.clone(),
            source,
        })?;
    drop(client);
    tracing::info!("stopped");
    Ok(())
}

/// The process's log (see [`logs`]), in the format `DAMAS_LOG_FORMAT` names.
/// Opens `damas bot`'s board page listener at `addr`, with `damas serve`'s timeouts and
/// connection cap; it closes when the returned sender is used (or dropped).
async fn start_board_page(
    addr: std::net::SocketAddr,
    config: &BotConfig,
    handler: &Arc<router::Handler>,
    http: &Arc<Http>,
) -> Result<tokio::sync::oneshot::Sender<()>, BotError> {
    let cap = webhook::max_connections_from_vars(|name| std::env::var(name).ok())?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| BotError::BadSetting {
            variable: WEB_LISTEN_ENV,
            problem: format!("cannot listen on {addr}: {e}"),
        })?;
    let bound = listener.local_addr().map_err(BotError::Runtime)?;
    let web = Arc::new(board_page(config, handler, http));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(webhook::accept_until(
        listener,
        Arc::new(webhook::Endpoint::board_page(web)),
        cap,
        async move {
            let _ = stopped.await;
        },
    ));
    tracing::info!("the board page is served on {bound} (at most {cap} connections)");
    println!("board page listening on {bound}");
    Ok(stop)
}

/// The board page over the bot's app, posting moves through `http`; the Activity's sign-in
/// goes to the API the bot's calls go to.
fn board_page(config: &BotConfig, handler: &router::Handler, http: &Arc<Http>) -> crate::web::Web {
    let web = crate::web::Web::new(
        handler.app.clone(),
        channels::DiscordChannels::port(http, &handler.answer_only),
    );
    match &config.activity {
        Some(keys) => web.with_activity(crate::web::activity::Activity::new(
            keys.clone(),
            config.api_proxy.as_deref(),
        )),
        None => web,
    }
}

pub fn init_logging() -> Result<(), BotError> {
    logs::init(logs::log_format_from_vars(|name| std::env::var(name).ok())?);
    Ok(())
}

/// `damas bot`.
pub fn run() -> Result<(), BotError> {
    let _ = dotenvy::dotenv();
    init_logging()?;
    let config = BotConfig::from_env()?;
    logs::hide(&config.token.0);
    let runtime = tokio::runtime::Runtime::new().map_err(BotError::Runtime)?;
    runtime.block_on(serve(config))
}

/// Whether a token is configured (`damas` alone then runs the bot).
pub fn token_configured() -> bool {
    let _ = dotenvy::dotenv();
    std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<BotConfig, BotError> {
        BotConfig::from_vars(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    fn bad_variable(r: Result<BotConfig, BotError>) -> &'static str {
        match r {
            Err(BotError::BadSetting { variable, .. }) => variable,
            other => panic!("expected a bad setting, got {other:?}"),
        }
    }

    #[test]
    fn bad_settings_name_their_variable_and_never_panic() {
        let t = ("DISCORD_TOKEN", "x");
        for g in ["0", "-3", "abc", "1e3", "18446744073709551616"] {
            assert_eq!(
                bad_variable(config(&[t, ("DISCORD_GUILD_ID", g)])),
                "DISCORD_GUILD_ID"
            );
        }
        for p in [
            "localhost:3000",
            "ftp://proxy",
            "http://",
            "not a url",
            "http://h/?a=1",
            // The token would cross the network in clear.
            "http://proxy.internal:3000",
            "http://10.0.0.5:3000",
            "http://[2001:db8::1]:3000",
            "http://localhost.evil.example",
        ] {
            assert_eq!(
                bad_variable(config(&[t, ("DISCORD_API_PROXY", p)])),
                "DISCORD_API_PROXY",
                "{p}"
            );
        }
        // A URL of a database damas has no driver for: refused, not made a folder, and
        // named without its password.
        let e = config(&[t, ("DAMAS_DB", "mysql://u:hunter2@h/db")]).unwrap_err();
        assert!(
            e.to_string().starts_with("DAMAS_DB must be ") && !e.to_string().contains("hunter2"),
            "{e}"
        );
        assert_eq!(e.exit_code(), 2);
        let e = config(&[t, ("DISCORD_GUILD_ID", "0")]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().starts_with("DISCORD_GUILD_ID "), "{e}");
        assert!(!e.to_string().contains('\n'));
    }

    #[test]
    fn good_settings_are_read() {
        let c = config(&[
            ("DISCORD_TOKEN", " tok "),
            ("DISCORD_GUILD_ID", "42"),
            ("DISCORD_API_PROXY", "http://127.0.0.1:3000/"),
            ("DAMAS_DB", "/tmp/x"),
        ])
        .unwrap();
        assert_eq!(c.guild_id, Some(42));
        assert_eq!(c.api_proxy.as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(c.db_path, PathBuf::from("/tmp/x"));
        for proxy in [
            "http://localhost:3000",
            "http://127.0.0.2:3000",
            "http://[::1]:3000",
            "https://proxy.internal",
        ] {
            let c = config(&[("DISCORD_TOKEN", "t"), ("DISCORD_API_PROXY", proxy)]).unwrap();
            assert_eq!(c.api_proxy.as_deref(), Some(proxy));
        }
        assert_eq!(format!("{:?}", c.token), "Token(<redacted>)");
        assert!(matches!(config(&[]), Err(BotError::MissingToken)));
    }
}
