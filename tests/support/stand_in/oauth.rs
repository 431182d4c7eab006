//! Discord's OAuth2, the part an Activity uses: the code the Embedded App SDK's `authorize`
//! gives the page ([`StandIn::authorize`], standing for the person accepting in Discord),
//! its exchange at `POST /oauth2/token` (form-encoded: the application's id and client
//! secret, `grant_type=authorization_code`, the code; each code works once), and
//! `GET /users/@me` with the access token it returned (`Authorization: Bearer …`). Shapes
//! and refusals as Discord's: `{"error": "invalid_grant"}` (400) for an unknown or used
//! code, `{"error": "invalid_client"}` (401) for a wrong id or secret, 401 for an unknown
//! token. The token endpoint fails (5xx, 429 with `retry_after`), hangs up or waits as a
//! test asks ([`StandIn::inject`] with [`super::FaultRoute::OAuthToken`]); the code is then
//! not used up, unless a wait ends in serving the exchange.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::payloads::TestUser;
use super::{snowflake, Inner, Recorded, Route, StandIn};

/// The application's client secret, as the Developer Portal shows it (`DISCORD_CLIENT_SECRET`).
pub const CLIENT_SECRET: &str = "the stand-in's client secret";

/// The codes issued and not yet exchanged, and the access tokens given, each with its user.
#[derive(Default)]
pub(crate) struct OAuth {
    codes: HashMap<String, TestUser>,
    tokens: HashMap<String, TestUser>,
}

impl StandIn {
    /// The code Discord gives an Activity's page when `user` accepts its `authorize` (scope
    /// `identify`): good for one exchange.
    pub fn authorize(&self, user: &TestUser) -> String {
        let code = format!("code-{}", snowflake());
        self.inner
            .state()
            .oauth
            .codes
            .insert(code.clone(), user.clone());
        code
    }

    /// The application's client secret.
    pub fn client_secret(&self) -> &'static str {
        CLIENT_SECRET
    }

    /// The access tokens given so far (to check a refused exchange gave none).
    pub fn access_tokens_given(&self) -> usize {
        self.inner.state().oauth.tokens.len()
    }

    /// The requests the token endpoint received so far, answered or failed.
    pub fn token_exchanges(&self) -> usize {
        self.inner
            .state()
            .log
            .iter()
            .filter(|r| r.route == Route::OAuthToken)
            .count()
    }
}

/// Whether this request is OAuth2's rather than the bot's.
pub(crate) fn is_oauth(route: &Route, auth: Option<&str>) -> bool {
    *route == Route::OAuthToken
        || (*route == Route::CurrentUser && auth.is_some_and(|a| a.starts_with("Bearer ")))
}

fn json_answer(status: u16, body: Value) -> (u16, Value) {
    (status, body)
}

/// Answers `POST /oauth2/token` or `GET /users/@me` with a bearer token, and records it.
pub(crate) async fn handle(
    inner: Arc<Inner>,
    mut rec: Recorded,
    auth: Option<String>,
    req: Request,
) -> Response {
    let form_encoded = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let body = axum::body::to_bytes(req.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let (status, answer) = match (rec.method.as_str(), &rec.route) {
        ("POST", Route::OAuthToken) if !form_encoded => {
            rec.problems
                .push("the token exchange must be form-encoded".to_owned());
            json_answer(400, json!({"error": "invalid_request"}))
        }
        ("POST", Route::OAuthToken) => {
            let form: HashMap<String, String> =
                url::form_urlencoded::parse(&body).into_owned().collect();
            // Recorded without the secret, as a log should be.
            let mut shown = form.clone();
            if shown.contains_key("client_secret") {
                shown.insert("client_secret".into(), "<redacted>".into());
            }
            rec.json = Some(json!(shown));
            exchange(&inner, &form)
        }
        ("GET", Route::CurrentUser) => {
            let token = auth
                .as_deref()
                .and_then(|a| a.strip_prefix("Bearer "))
                .unwrap_or_default();
            let user = inner.state().oauth.tokens.get(token).cloned();
            match user {
                Some(user) => json_answer(
                    200,
                    json!({
                        "id": user.id.to_string(),
                        "username": user.name,
                        "discriminator": "0",
                        "global_name": user.name,
                        "avatar": null,
                    }),
                ),
                None => json_answer(401, json!({"message": "401: Unauthorized", "code": 0})),
            }
        }
        _ => {
            rec.problems
                .push("the stand-in does not serve this request".to_owned());
            json_answer(
                405,
                json!({"message": "405: Method Not Allowed", "code": 0}),
            )
        }
    };
    rec.status = status;
    rec.response = Some(answer.clone());
    {
        let mut st = inner.state();
        inner.record(&mut st, rec);
    }
    inner.bump();
    (
        StatusCode::from_u16(status).expect("a status"),
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}

/// The exchange of a code for an access token.
fn exchange(inner: &Inner, form: &HashMap<String, String>) -> (u16, Value) {
    let field = |name: &str| form.get(name).map(String::as_str);
    if field("client_id") != Some(inner.app_id.to_string().as_str())
        || field("client_secret") != Some(CLIENT_SECRET)
    {
        return json_answer(401, json!({"error": "invalid_client"}));
    }
    if field("grant_type") != Some("authorization_code") {
        return json_answer(400, json!({"error": "unsupported_grant_type"}));
    }
    let mut st = inner.state();
    // A code works once, whatever the outcome.
    let Some(user) = field("code").and_then(|c| st.oauth.codes.remove(c)) else {
        return json_answer(
            400,
            json!({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}),
        );
    };
    let token = format!("access-{}", snowflake());
    st.oauth.tokens.insert(token.clone(), user);
    json_answer(
        200,
        json!({
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 604800,
            "refresh_token": format!("refresh-{}", snowflake()),
            "scope": "identify",
        }),
    )
}
