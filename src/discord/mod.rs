//! The Discord adapter: command definitions, routing of interactions into the application
//! layer, and turning its replies into Discord responses. Holds no game logic.

// Startup errors happen once; boxing serenity's large error would buy nothing.
#![allow(clippy::result_large_err)]

pub mod commands;
pub mod respond;
pub mod router;

use crate::app::{App, Config};
use crate::store::Store;
use serenity::all::{Client, GatewayIntents, HttpBuilder};
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

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
}

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot's token there (see README).")]
    MissingToken,
    #[error("Discord rejected DISCORD_TOKEN (it is wrong, or was reset). Get the token from the Developer Portal's Bot page and update .env (see .env.example).")]
    TokenRejected,
    #[error("DISCORD_GUILD_ID must be a server id (a number), not {0:?}")]
    BadGuildId(String),
    #[error("cannot open the database at {path}: {source}")]
    Store {
        path: PathBuf,
        source: crate::store::StoreError,
    },
    #[error("Discord: {0}")]
    Discord(#[from] serenity::Error),
}

impl BotConfig {
    /// Reads `DISCORD_TOKEN`, `DAMAS_DB`, `DISCORD_GUILD_ID`, `DISCORD_API_PROXY`.
    pub fn from_env() -> Result<BotConfig, BotError> {
        let token = std::env::var("DISCORD_TOKEN")
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .ok_or(BotError::MissingToken)?;
        let guild_id = match std::env::var("DISCORD_GUILD_ID") {
            Ok(g) if !g.trim().is_empty() => Some(
                g.trim()
                    .parse()
                    .map_err(|_| BotError::BadGuildId(g.clone()))?,
            ),
            _ => None,
        };
        let api_proxy = std::env::var("DISCORD_API_PROXY")
            .ok()
            .map(|p| p.trim().trim_end_matches('/').to_string())
            .filter(|p| !p.is_empty());
        Ok(BotConfig {
            token: Token(token),
            db_path: crate::store::default_path(),
            guild_id,
            api_proxy,
        })
    }
}

/// Builds the serenity client over an [`App`]. With a proxy, serenity's own rate limiter is
/// off (it would bypass the proxy) and every REST call goes to the proxy.
pub async fn client(config: &BotConfig, app: App) -> Result<Client, BotError> {
    let mut http = HttpBuilder::new(&config.token.0);
    if let Some(proxy) = &config.api_proxy {
        http = http.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    let http = http.build();
    // Check the token first, for a clear message instead of a gateway error loop.
    match http.get_current_user().await {
        Ok(_) => {}
        Err(serenity::Error::Http(e)) if e.status_code().is_some_and(|s| s.as_u16() == 401) => {
            return Err(BotError::TokenRejected)
        }
        Err(e) => return Err(BotError::Discord(e)),
    }
    // Commands, autocomplete and components need no privileged intent.
    let intents = GatewayIntents::GUILDS;
    let handler = router::Handler {
        app,
        guild_id: config.guild_id,
    };
    Ok(serenity::all::ClientBuilder::new_with_http(http, intents)
        .event_handler(handler)
        .await?)
}

/// Opens the store and runs the bot until it stops.
pub async fn serve(config: BotConfig) -> Result<(), BotError> {
    let store = Store::open(&config.db_path).map_err(|source| BotError::Store {
        path: config.db_path.clone(),
        source,
    })?;
    let app = App::new(store, Config::default());
    let mut client = client(&config, app).await?;
    let shards = client.shard_manager.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("shutting down");
            shards.shutdown_all().await;
        }
    });
    client.start().await?;
    Ok(())
}

pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,serenity=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}

/// `damas bot`.
pub fn run() -> ExitCode {
    let _ = dotenvy::dotenv();
    init_logging();
    let config = match BotConfig::from_env() {
        Ok(c) => c,
        Err(e) => return crate::cli::fail(e),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => return crate::cli::fail(format!("cannot start the runtime: {e}")),
    };
    match runtime.block_on(serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::cli::fail(e),
    }
}

/// `damas` alone: the bot when a token is configured, otherwise a pointer to the console.
pub fn run_default() -> ExitCode {
    let _ = dotenvy::dotenv();
    if std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty()) {
        return run();
    }
    crate::cli::fail(
        "no DISCORD_TOKEN configured. To try damas without Discord run `damas console`; \
         to run the bot copy .env.example to .env and fill it in. `damas --help` lists every command.",
    )
}
