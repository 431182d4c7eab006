//! damas as a Discord Activity: the board page inside Discord's frame. The page's script
//! (Discord's Embedded App SDK, bundled by `npm run build` in `web/`) asks Discord for an
//! OAuth2 code; the page sends it to `POST /board/session`, which exchanges it at Discord's
//! token endpoint with the application's secret, reads who signed in from `/users/@me`, and
//! answers the access token (for the SDK's `authenticate`) and that person's key to the game
//! of the Activity's channel: the same signed token as their link's
//! ([`crate::app::board_page`]), so every move goes through the same checks.
//!
//! Discord serves the Activity through its proxy from the application's URL mapping, root
//! `/` to `<public host>/activity`: the page itself is `GET /activity/`, and the page's
//! requests (`/board/…`, relative to the Activity's own origin) reach this listener as
//! `/activity/board/…`, which is answered as `/board/…`. Requests need no `/.proxy/`
//! prefix (Discord dropped it in July 2025).
//!
//! Each sign-in costs a call to Discord's token endpoint: they are limited ([`limit::SignIns`]),
//! and a refused one asks Discord nothing.
//!
//! Codes, access tokens and the secret are never logged: a failed exchange logs its status.

use super::limit::{self, SignInWait, SignIns};
use crate::app::settings::BadSetting;
use serde::Deserialize;
use std::fmt;
use std::time::Duration;

/// The application's id, which OAuth2 calls its client id.
pub const CLIENT_ID_ENV: &str = "DISCORD_CLIENT_ID";
/// The application's OAuth2 secret: set, the Activity is on.
pub const CLIENT_SECRET_ENV: &str = "DISCORD_CLIENT_SECRET";
/// Discord's API, where no `DISCORD_API_PROXY` says otherwise.
pub const DISCORD_API: &str = "https://discord.com";
/// How long a call to Discord may take: the person is waiting for the board.
const EXCHANGE_TIME: Duration = Duration::from_secs(10);
/// How long to leave Discord alone after a 429 that does not say.
const DISCORD_WAIT_UNSAID: Duration = Duration::from_secs(5);
/// The largest sign-in request taken: a code and a channel id.
pub const SESSION_BODY_LIMIT: usize = 1024;

/// The Activity's keys (`DISCORD_CLIENT_ID`, `DISCORD_CLIENT_SECRET`; the secret is never
/// shown), and how many sign-ins a minute it takes ([`limit::SIGN_INS_ENV`]).
#[derive(Clone, PartialEq, Eq)]
pub struct ActivityKeys {
    pub client_id: u64,
    secret: String,
    pub sign_ins_per_minute: u32,
}

impl fmt::Debug for ActivityKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivityKeys")
            .field("client_id", &self.client_id)
            .field("secret", &"<redacted>")
            .field("sign_ins_per_minute", &self.sign_ins_per_minute)
            .finish()
    }
}

impl ActivityKeys {
    pub fn new(client_id: u64, secret: &str) -> ActivityKeys {
        ActivityKeys {
            client_id,
            secret: secret.to_string(),
            sign_ins_per_minute: limit::DEFAULT_SIGN_INS_PER_MINUTE,
        }
    }

    /// The same, taking at most `per_minute` sign-ins a minute.
    pub fn sign_ins_per_minute(mut self, per_minute: u32) -> ActivityKeys {
        self.sign_ins_per_minute = per_minute;
        self
    }

    /// Reads `DISCORD_CLIENT_ID` and `DISCORD_CLIENT_SECRET`: `None` when neither is set;
    /// and the sign-ins' limit ([`limit::SIGN_INS_ENV`]).
    /// Both are needed, and the board page (`board_page`: `DAMAS_PUBLIC_URL` set), since the
    /// Activity is that page and its keys are that page's.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
        board_page: bool,
    ) -> Result<Option<ActivityKeys>, BadSetting> {
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let (id, secret) = match (set(CLIENT_ID_ENV), set(CLIENT_SECRET_ENV)) {
            (None, None) => return Ok(None),
            (Some(id), Some(secret)) => (id, secret),
            (None, Some(_)) => {
                return Err(BadSetting {
                    variable: CLIENT_ID_ENV,
                    problem: format!(
                        "is not set: with {CLIENT_SECRET_ENV} set (the Activity), it must be the application's id (Developer Portal, General Information)"
                    ),
                })
            }
            (Some(_), None) => {
                return Err(BadSetting {
                    variable: CLIENT_SECRET_ENV,
                    problem: format!(
                        "is not set: with {CLIENT_ID_ENV} set, the Activity needs the application's client secret (Developer Portal, OAuth2)"
                    ),
                })
            }
        };
        let client_id = id
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| BadSetting {
                variable: CLIENT_ID_ENV,
                problem: format!(
                    "must be the application's id, a number like 1234567890123456789, not {id:?}"
                ),
            })?;
        if !board_page {
            return Err(BadSetting {
                variable: CLIENT_SECRET_ENV,
                problem: format!(
                    "needs the board page too ({} and {}): the Activity is that page, inside Discord",
                    crate::app::board_page::PUBLIC_URL_ENV,
                    crate::app::board_page::SECRET_ENV
                ),
            });
        }
        let per_minute = SignIns::per_minute_from_vars(&var)?;
        Ok(Some(
            ActivityKeys::new(client_id, secret.trim()).sign_ins_per_minute(per_minute),
        ))
    }
}

/// Why a sign-in failed.
#[derive(Debug, PartialEq, Eq)]
pub enum SignIn {
    /// Discord refused the code or the token (a wrong, used or expired code; a wrong secret).
    Refused,
    /// Discord could not be asked (no answer in time, no connection), or answered something
    /// else (a 5xx).
    Unreachable,
    /// Discord said to wait (429), or said so a moment ago: try again after this long.
    DiscordBusy(Duration),
    /// Past this server's limit of sign-ins: Discord was not asked; try again after this
    /// long.
    Limited(Duration),
}

/// What Discord's token endpoint answers (the fields used).
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

/// What `/users/@me` answers (the fields used).
#[derive(Deserialize)]
struct UserAnswer {
    id: String,
}

/// A person signed in through Discord: who, and the access token the SDK authenticates with.
pub struct SignedIn {
    pub user: u64,
    pub access_token: String,
}

/// Signs people in through Discord's OAuth2: the keys, and the API they are checked at.
pub struct Activity {
    keys: ActivityKeys,
    /// Discord's API base (or the `DISCORD_API_PROXY` the bot's calls go through).
    api: String,
    http: reqwest::Client,
    /// How long each call to Discord may take.
    answer_within: Duration,
    sign_ins: SignIns,
}

impl Activity {
    /// `api_base`: the bot's `DISCORD_API_PROXY`, else Discord itself.
    pub fn new(keys: ActivityKeys, api_base: Option<&str>) -> Activity {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Activity {
            sign_ins: SignIns::new(keys.sign_ins_per_minute),
            keys,
            api: api_base
                .unwrap_or(DISCORD_API)
                .trim_end_matches('/')
                .to_string(),
            http,
            answer_within: EXCHANGE_TIME,
        }
    }

    /// The same, giving up on a call to Discord after `time` (10 s otherwise).
    pub fn answer_within(mut self, time: Duration) -> Activity {
        self.answer_within = time;
        self
    }

    pub fn client_id(&self) -> u64 {
        self.keys.client_id
    }

    /// Exchanges `code`, which the Activity's page in `channel` sent, for an access token,
    /// and reads whose it is; within the sign-ins' limits, else Discord is not asked.
    pub async fn sign_in(&self, code: &str, channel: u64) -> Result<SignedIn, SignIn> {
        self.sign_ins.admit(channel).map_err(|wait| match wait {
            SignInWait::Limited(d) => SignIn::Limited(d),
            SignInWait::Discord(d) => SignIn::DiscordBusy(d),
        })?;
        let client_id = self.keys.client_id.to_string();
        let form = [
            ("client_id", client_id.as_str()),
            ("client_secret", self.keys.secret.as_str()),
            ("grant_type", "authorization_code"),
            ("code", code),
        ];
        let token: TokenAnswer = self
            .call(
                "the token exchange",
                self.http
                    .post(format!("{}/api/v10/oauth2/token", self.api))
                    .form(&form),
            )
            .await?;
        let user: UserAnswer = self
            .call(
                "/users/@me",
                self.http
                    .get(format!("{}/api/v10/users/@me", self.api))
                    .bearer_auth(&token.access_token),
            )
            .await?;
        let user = user.id.parse().map_err(|_| {
            tracing::warn!("Activity sign-in: /users/@me answered a user id that is no number");
            SignIn::Unreachable
        })?;
        Ok(SignedIn {
            user,
            access_token: token.access_token,
        })
    }

    /// One call to Discord, its JSON answer read as `T`. What is logged is the call's name
    /// and status, never a request or an answer (they carry codes and tokens).
    async fn call<T: for<'de> Deserialize<'de>>(
        &self,
        what: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<T, SignIn> {
        let response = request
            .timeout(self.answer_within)
            .send()
            .await
            .map_err(|e| {
                tracing::warn!(
                    "Activity sign-in: {what} failed: {}",
                    e.without_url().to_string()
                );
                SignIn::Unreachable
            })?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = discord_wait(response).await;
            tracing::warn!(
                "Activity sign-in: Discord answered {what} with 429: no sign-in asks it for {} s",
                wait.as_secs_f64()
            );
            self.sign_ins.discord_said_wait(wait);
            return Err(SignIn::DiscordBusy(wait));
        }
        if status.is_client_error() && status != reqwest::StatusCode::TOO_MANY_REQUESTS {
            tracing::info!("Activity sign-in: Discord refused {what} ({status})");
            return Err(SignIn::Refused);
        }
        if !status.is_success() {
            tracing::warn!("Activity sign-in: Discord answered {what} with {status}");
            return Err(SignIn::Unreachable);
        }
        let unexpected = || {
            tracing::warn!("Activity sign-in: Discord's answer to {what} was not as expected");
            SignIn::Unreachable
        };
        let body = response.bytes().await.map_err(|_| unexpected())?;
        serde_json::from_slice::<T>(&body).map_err(|_| unexpected())
    }
}

/// How long Discord's 429 says to wait: its body's `retry_after` (seconds, with a fraction),
/// else its `Retry-After` header, else [`DISCORD_WAIT_UNSAID`]; at most an hour.
async fn discord_wait(response: reqwest::Response) -> Duration {
    #[derive(Deserialize)]
    struct RateLimited {
        retry_after: f64,
    }
    let header = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok());
    let body = response.bytes().await.ok();
    let said = body
        .and_then(|b| serde_json::from_slice::<RateLimited>(&b).ok())
        .map(|r| r.retry_after)
        .or(header)
        .filter(|s| s.is_finite() && *s >= 0.0);
    said.map_or(DISCORD_WAIT_UNSAID, |s| {
        Duration::from_secs_f64(s.min(3600.0))
    })
}

/// The sign-in request the Activity's page sends.
#[derive(Deserialize)]
pub struct SessionRequest {
    pub code: String,
    /// The Activity's channel (`discordSdk.channelId`), as a string (a snowflake).
    pub channel: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(vars: &[(&str, &str)], board_page: bool) -> Result<Option<ActivityKeys>, BadSetting> {
        ActivityKeys::from_vars(
            |name| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            },
            board_page,
        )
    }

    #[test]
    fn the_keys_come_together_and_name_their_variable() {
        assert_eq!(read(&[], true), Ok(None));
        assert_eq!(read(&[], false), Ok(None));
        let keys = read(
            &[(CLIENT_ID_ENV, " 42 "), (CLIENT_SECRET_ENV, "s3cret")],
            true,
        )
        .unwrap()
        .unwrap();
        assert_eq!(keys.client_id, 42);
        assert_eq!(keys.sign_ins_per_minute, limit::DEFAULT_SIGN_INS_PER_MINUTE);
        let keys = read(
            &[
                (CLIENT_ID_ENV, "42"),
                (CLIENT_SECRET_ENV, "s3cret"),
                (limit::SIGN_INS_ENV, "5"),
            ],
            true,
        )
        .unwrap()
        .unwrap();
        assert_eq!(keys.sign_ins_per_minute, 5);
        assert!(!format!("{keys:?}").contains("s3cret"), "never shown");
        for (vars, page, variable) in [
            (vec![(CLIENT_SECRET_ENV, "s")], true, CLIENT_ID_ENV),
            (vec![(CLIENT_ID_ENV, "42")], true, CLIENT_SECRET_ENV),
            (
                vec![(CLIENT_ID_ENV, "forty-two"), (CLIENT_SECRET_ENV, "s")],
                true,
                CLIENT_ID_ENV,
            ),
            (
                vec![(CLIENT_ID_ENV, "0"), (CLIENT_SECRET_ENV, "s")],
                true,
                CLIENT_ID_ENV,
            ),
            (
                vec![(CLIENT_ID_ENV, "42"), (CLIENT_SECRET_ENV, "s")],
                false,
                CLIENT_SECRET_ENV,
            ),
            (
                vec![
                    (CLIENT_ID_ENV, "42"),
                    (CLIENT_SECRET_ENV, "s"),
                    (limit::SIGN_INS_ENV, "none"),
                ],
                true,
                limit::SIGN_INS_ENV,
            ),
        ] {
            let e = read(&vars, page).unwrap_err();
            assert_eq!(e.variable, variable, "{vars:?}: {}", e.problem);
            assert!(!e.problem.contains("s3cret"));
        }
    }
}
