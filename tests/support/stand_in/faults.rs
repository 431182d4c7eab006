//! Faults the tests inject into the stand-in's answers, and the notifications (pings) the
//! bot's messages cause.

use super::*;

/// Which requests a fault applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultRoute {
    /// `POST /interactions/{id}/{token}/callback`
    Callback,
    /// `POST /webhooks/{app}/{token}`
    Followup,
    /// `PATCH /webhooks/{app}/{token}/messages/@original`
    OriginalEdit,
    /// `POST /channels/{ch}/messages`
    ChannelPost,
    /// `PATCH /channels/{ch}/messages/{id}`
    ChannelEdit,
    /// `POST /channels/{ch}/threads` and `POST /channels/{ch}/messages/{id}/threads`
    ThreadCreate,
    /// `PATCH /channels/{thread}`: a thread archived, reopened or renamed.
    ThreadEdit,
    /// `PUT /applications/{app}/commands` and its server form: registering the commands.
    Commands,
    /// Any REST request but gateway discovery and the CDN.
    AnyRest,
    /// `POST /oauth2/token`: an Activity's sign-in exchanging its code (not counted in
    /// `AnyRest`, which is the bot's own calls).
    OAuthToken,
}

impl FaultRoute {
    pub(crate) fn matches(self, method: &str, route: &Route) -> bool {
        match self {
            FaultRoute::Callback => matches!(route, Route::Callback { .. }),
            FaultRoute::Followup => method == "POST" && matches!(route, Route::Followup { .. }),
            FaultRoute::OriginalEdit => {
                method == "PATCH" && matches!(route, Route::Original { .. })
            }
            FaultRoute::ChannelPost => {
                method == "POST" && matches!(route, Route::ChannelMessages { .. })
            }
            FaultRoute::ChannelEdit => {
                method == "PATCH" && matches!(route, Route::ChannelMessage { .. })
            }
            FaultRoute::ThreadCreate => {
                method == "POST"
                    && matches!(route, Route::Threads { .. } | Route::MessageThreads { .. })
            }
            FaultRoute::ThreadEdit => method == "PATCH" && matches!(route, Route::Channel { .. }),
            FaultRoute::Commands => method == "PUT" && matches!(route, Route::Commands { .. }),
            FaultRoute::AnyRest => !matches!(
                route,
                Route::Gateway | Route::Attachment { .. } | Route::OAuthToken
            ),
            FaultRoute::OAuthToken => matches!(route, Route::OAuthToken),
        }
    }
}

/// What Discord does instead of answering normally.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FaultAction {
    /// Answers this status (500, 502, 503…) with Discord's error body; nothing happens.
    ServerError(u16),
    /// Answers 429 with `retry_after` (seconds) in the body and the rate-limit headers;
    /// nothing happens.
    RateLimited { retry_after: f64 },
    /// Holds the request this long, then serves it. If the bot hangs up meanwhile (killed),
    /// nothing happens.
    Delay(Duration),
    /// Answers 403 Missing Permissions (50013), as when a permission was taken away after the
    /// interaction was sent; nothing happens.
    Forbidden,
    /// Cuts the connection without an answer, as a network failure does; nothing happens.
    HangUp,
}

#[derive(Clone, Debug)]
pub(crate) struct Fault {
    pub(crate) id: usize,
    pub(crate) route: FaultRoute,
    pub(crate) action: FaultAction,
    /// Requests it still applies to.
    pub(crate) remaining: u32,
    /// Requests it applied to so far.
    pub(crate) hits: u32,
}

/// Who a message notified, computed as Discord does: only mentions in the `content`, only
/// those `allowed_mentions` lets through (absent: all of them). Edits notify nobody, except the
/// first edit of a deferred answer, which is its first real content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ping {
    pub message_id: u64,
    pub channel_id: u64,
    pub users: Vec<u64>,
    pub roles: Vec<u64>,
    /// `@everyone` or `@here` took effect.
    pub everyone: bool,
}

impl Ping {
    /// The notifications a message body makes, if any.
    pub(crate) fn of(message_id: u64, channel_id: u64, body: &Value) -> Option<Ping> {
        let content = body["content"].as_str().unwrap_or_default();
        let (users, roles) = content_mentions(content);
        let everyone_written = content.contains("@everyone") || content.contains("@here");
        let allowed = body.get("allowed_mentions").filter(|a| !a.is_null());
        let parse = |what: &str| match allowed {
            None => true,
            Some(a) => a["parse"]
                .as_array()
                .is_some_and(|p| p.iter().any(|v| v == what)),
        };
        let listed = |key: &str| -> Vec<u64> {
            allowed
                .and_then(|a| a[key].as_array())
                .map(|l| {
                    l.iter()
                        .filter_map(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_u64()))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (all_users, all_roles) = (parse("users"), parse("roles"));
        let (allowed_users, allowed_roles) = (listed("users"), listed("roles"));
        let users: Vec<u64> = users
            .into_iter()
            .filter(|u| all_users || allowed_users.contains(u))
            .collect();
        let roles: Vec<u64> = roles
            .into_iter()
            .filter(|r| all_roles || allowed_roles.contains(r))
            .collect();
        let everyone = everyone_written && parse("everyone");
        (!users.is_empty() || !roles.is_empty() || everyone).then_some(Ping {
            message_id,
            channel_id,
            users,
            roles,
            everyone,
        })
    }
}

/// User and role ids mentioned in a content: `<@id>`, `<@!id>`, `<@&id>`.
fn content_mentions(content: &str) -> (Vec<u64>, Vec<u64>) {
    let (mut users, mut roles) = (Vec::new(), Vec::new());
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let (is_role, digits_from) = match rest.as_bytes().first() {
            Some(b'&') => (true, 1),
            Some(b'!') => (false, 1),
            _ => (false, 0),
        };
        let tail = &rest[digits_from..];
        let len = tail.bytes().take_while(u8::is_ascii_digit).count();
        if len > 0 && tail.as_bytes().get(len) == Some(&b'>') {
            if let Ok(id) = tail[..len].parse::<u64>() {
                let list = if is_role { &mut roles } else { &mut users };
                if !list.contains(&id) {
                    list.push(id);
                }
            }
        }
    }
    (users, roles)
}
