//! Discord's REST API, the part a bot uses: gateway discovery, commands, interaction callbacks,
//! interaction webhooks (original, follow-ups), channel messages, and a CDN for attachments.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request, State as AxumState};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::validate::{self, MessageUse, Problems};
use super::{
    snowflake, timestamp_now, FaultAction, Inner, Ping, Place, Recorded, Route, State, ThreadInfo,
    UploadedFile, CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS, MANAGE_THREADS,
};

type Answer = (u16, Option<Value>);

fn error(status: u16, code: u64, message: &str) -> Answer {
    (status, Some(json!({"code": code, "message": message})))
}

fn not_found() -> Answer {
    error(404, 0, "404: Not Found")
}

pub(crate) async fn handle(AxumState(inner): AxumState<Arc<Inner>>, req: Request) -> Response {
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or_default().to_owned();
    let auth = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned);
    let (route, app) = classify(&path);
    if super::oauth::is_oauth(&route, auth.as_deref()) {
        let rec = Recorded::received(method, path, query, route);
        match take_fault(&inner, &rec) {
            Some(FaultAction::Delay(d)) => tokio::time::sleep(d).await,
            Some(FaultAction::HangUp) => hang_up(&inner, rec),
            Some(action) => return injected_failure(&inner, rec, Ok((None, Vec::new())), action),
            None => {}
        }
        return super::oauth::handle(inner, rec, auth, req).await;
    }

    if let Route::Attachment { id } = route {
        // The CDN: no auth, raw bytes.
        let (file, delay) = {
            let mut st = inner.state();
            *st.cdn_fetches.entry(id).or_default() += 1;
            (st.files.get(&id).cloned(), st.file_delays.get(&id).copied())
        };
        inner.bump();
        if let Some(delay) = delay {
            tokio::time::sleep(delay).await;
        }
        return match file {
            Some(f) => {
                let mime = f
                    .content_type
                    .unwrap_or_else(|| "application/octet-stream".to_owned());
                ([(header::CONTENT_TYPE, mime)], f.bytes).into_response()
            }
            None => StatusCode::NOT_FOUND.into_response(),
        };
    }

    let body = read_body(req).await;
    let mut rec = Recorded::received(method, path, query, route);
    // A fault the test asked for answers instead of Discord (or holds the request first).
    let fault = take_fault(&inner, &rec);
    // The answer to an interaction posted by HTTP is the body of that request's response:
    // Discord has read it before the bot's next request about that interaction (an edit of
    // the answer, a follow-up) can arrive, whatever this stand-in's tasks got to first.
    if let Route::Original { token } | Route::Followup { token } = &rec.route {
        inner.wait_http_answer(token).await;
    }
    match fault {
        Some(FaultAction::Delay(d)) => tokio::time::sleep(d).await,
        Some(FaultAction::HangUp) => hang_up(&inner, rec),
        Some(action) => return injected_failure(&inner, rec, body, action),
        None => {}
    }
    let expected_auth = format!("Bot {}", inner.cfg.token);
    let (status, answer) = match body {
        Err(e) => {
            rec.problems.push(e.clone());
            error(400, 50109, &e)
        }
        Ok((json, files)) => {
            rec.json = json;
            rec.files = files;
            if rec.route != Route::Gateway && auth.as_deref() != Some(expected_auth.as_str()) {
                rec.problems.push(format!(
                    "Authorization header {auth:?} is not the bot token"
                ));
                error(401, 0, "401: Unauthorized")
            } else if app.is_some_and(|a| a != inner.app_id) {
                rec.problems
                    .push(format!("application id {app:?} is not {}", inner.app_id));
                error(404, 10002, "Unknown Application")
            } else {
                let mut st = inner.state();
                answer(&inner, &mut st, &mut rec)
            }
        }
    };
    rec.status = status;
    rec.response = answer.clone();
    {
        let mut st = inner.state();
        inner.record(&mut st, rec);
    }
    inner.bump();

    let status = StatusCode::from_u16(status).expect("valid status");
    match answer {
        Some(v) => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            v.to_string(),
        )
            .into_response(),
        None => Response::builder()
            .status(status)
            .body(Body::empty())
            .expect("empty response"),
    }
}

/// The fault the test asked for that applies to this request, if any (counted as applied).
fn take_fault(inner: &Inner, rec: &Recorded) -> Option<FaultAction> {
    let fault = inner
        .state()
        .faults
        .iter_mut()
        .find(|f| f.remaining > 0 && f.route.matches(&rec.method, &rec.route))
        .map(|f| {
            f.remaining -= 1;
            f.hits += 1;
            f.action
        });
    inner.bump();
    fault
}

/// Records the request and drops its connection unanswered, as a network failure does.
fn hang_up(inner: &Inner, mut rec: Recorded) -> ! {
    rec.injected = true;
    {
        let mut st = inner.state();
        inner.record(&mut st, rec);
    }
    inner.bump();
    // Unwinding ends this connection's task, which drops its socket unanswered;
    // `resume_unwind` skips the panic hook, so the test's output stays clean.
    std::panic::resume_unwind(Box::new("the stand-in hangs up"))
}

/// Answers a request with an injected 5xx or 429, as Discord shapes them; nothing happens.
fn injected_failure(
    inner: &Inner,
    mut rec: Recorded,
    body: Result<(Option<Value>, Vec<UploadedFile>), String>,
    action: FaultAction,
) -> Response {
    if let Ok((json, files)) = body {
        rec.json = json;
        rec.files = files;
    }
    rec.injected = true;
    let (status, answer, headers): (u16, Value, Vec<(&str, String)>) = match action {
        FaultAction::RateLimited { retry_after } => (
            429,
            json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": false}),
            vec![
                // Discord rounds the header up to whole seconds.
                ("retry-after", format!("{}", retry_after.ceil() as u64)),
                ("x-ratelimit-bucket", "stand-in-bucket".to_owned()),
                ("x-ratelimit-limit", "5".to_owned()),
                ("x-ratelimit-remaining", "0".to_owned()),
                ("x-ratelimit-reset-after", format!("{retry_after:.3}")),
                ("x-ratelimit-scope", "user".to_owned()),
            ],
        ),
        FaultAction::ServerError(code) => (
            code,
            json!({"message": "500: Internal Server Error", "code": 0}),
            vec![],
        ),
        FaultAction::Forbidden => (
            403,
            json!({"message": "Missing Permissions", "code": 50013}),
            vec![],
        ),
        FaultAction::Delay(_) | FaultAction::HangUp => {
            unreachable!("a delay serves the request; a hang-up answers nothing")
        }
    };
    rec.status = status;
    rec.response = Some(answer.clone());
    {
        let mut st = inner.state();
        inner.record(&mut st, rec);
    }
    inner.bump();
    let mut response = (
        StatusCode::from_u16(status).expect("valid status"),
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response();
    for (k, v) in headers {
        response
            .headers_mut()
            .insert(k, v.parse().expect("header value"));
    }
    response
}

/// JSON body, or multipart `payload_json` + `files[n]`.
async fn read_body(req: Request) -> Result<(Option<Value>, Vec<UploadedFile>), String> {
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if multipart {
        let mut form = Multipart::from_request(req, &())
            .await
            .map_err(|e| format!("bad multipart body: {e}"))?;
        let mut json = None;
        let mut files = Vec::new();
        while let Some(field) = form
            .next_field()
            .await
            .map_err(|e| format!("bad multipart field: {e}"))?
        {
            let name = field.name().unwrap_or_default().to_owned();
            let filename = field.file_name().map(str::to_owned);
            let content_type = field.content_type().map(str::to_owned);
            let bytes = field
                .bytes()
                .await
                .map_err(|e| format!("bad multipart field {name}: {e}"))?;
            if name == "payload_json" {
                json = Some(
                    serde_json::from_slice(&bytes)
                        .map_err(|e| format!("payload_json is not JSON: {e}"))?,
                );
            } else if name.starts_with("files[") || filename.is_some() {
                files.push(UploadedFile {
                    field: name,
                    filename: filename.unwrap_or_default(),
                    content_type,
                    bytes: bytes.to_vec(),
                });
            } else {
                return Err(format!("unexpected multipart text field {name:?}"));
            }
        }
        return Ok((json, files));
    }
    let bytes = axum::body::to_bytes(req.into_body(), 64 * 1024 * 1024)
        .await
        .map_err(|e| format!("body: {e}"))?;
    if bytes.is_empty() {
        return Ok((None, Vec::new()));
    }
    let json = serde_json::from_slice(&bytes)
        .map_err(|e| format!("The request body contains invalid JSON: {e}"))?;
    Ok((Some(json), Vec::new()))
}

/// The route and the application id in the path (if the path has one).
fn classify(path: &str) -> (Route, Option<u64>) {
    let id = |s: &str| s.parse::<u64>().ok();
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    if let ["attachments", _, att, _] = segs.as_slice() {
        if let Some(id) = id(att) {
            return (Route::Attachment { id }, None);
        }
    }
    let Some(rest) = segs.strip_prefix(&["api", "v10"]) else {
        return (Route::Unknown, None);
    };
    let route = match rest {
        ["gateway"] => Route::Gateway,
        ["gateway", "bot"] => Route::GatewayBot,
        ["users", "@me"] => Route::CurrentUser,
        ["oauth2", "applications", "@me"] => Route::CurrentApplication,
        ["oauth2", "token"] => Route::OAuthToken,
        ["applications", app, "commands"] => {
            return (Route::Commands { guild: None }, id(app).or(Some(0)))
        }
        ["applications", app, "guilds", g, "commands"] => match id(g) {
            Some(g) => return (Route::Commands { guild: Some(g) }, id(app).or(Some(0))),
            None => Route::Unknown,
        },
        ["interactions", i, token, "callback"] => match id(i) {
            Some(interaction) => Route::Callback {
                interaction,
                token: (*token).to_owned(),
            },
            None => Route::Unknown,
        },
        ["webhooks", app, token] => {
            return (
                Route::Followup {
                    token: (*token).to_owned(),
                },
                id(app).or(Some(0)),
            )
        }
        ["webhooks", app, token, "messages", "@original"] => {
            return (
                Route::Original {
                    token: (*token).to_owned(),
                },
                id(app).or(Some(0)),
            )
        }
        ["webhooks", app, token, "messages", m] => match id(m) {
            Some(message) => {
                return (
                    Route::FollowupMessage {
                        token: (*token).to_owned(),
                        message,
                    },
                    id(app).or(Some(0)),
                )
            }
            None => Route::Unknown,
        },
        ["channels", c, "messages"] => match id(c) {
            Some(channel) => Route::ChannelMessages { channel },
            None => Route::Unknown,
        },
        ["channels", c, "messages", m] => match (id(c), id(m)) {
            (Some(channel), Some(message)) => Route::ChannelMessage { channel, message },
            _ => Route::Unknown,
        },
        ["channels", c, "threads"] => match id(c) {
            Some(channel) => Route::Threads { channel },
            None => Route::Unknown,
        },
        ["channels", c, "messages", m, "threads"] => match (id(c), id(m)) {
            (Some(channel), Some(message)) => Route::MessageThreads { channel, message },
            _ => Route::Unknown,
        },
        ["channels", c] => match id(c) {
            Some(channel) => Route::Channel { channel },
            None => Route::Unknown,
        },
        _ => Route::Unknown,
    };
    (route, None)
}

fn answer(inner: &Inner, st: &mut State, rec: &mut Recorded) -> Answer {
    let method = rec.method.clone();
    let route = rec.route.clone();
    match (method.as_str(), route) {
        ("GET", Route::Gateway) => (200, Some(json!({"url": inner.gateway_url()}))),
        ("GET", Route::GatewayBot) => (
            200,
            Some(json!({
                "url": inner.gateway_url(),
                "shards": inner.cfg.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            })),
        ),
        ("GET", Route::CurrentUser) => (200, Some(inner.bot_json())),
        ("GET", Route::CurrentApplication) => (200, Some(application_json(inner))),
        ("PUT", Route::Commands { guild }) => put_commands(inner, st, rec, guild),
        ("GET", Route::Commands { guild }) => (200, Some(json!(commands_of(st, guild)))),
        ("POST", Route::Commands { guild }) => post_command(inner, st, rec, guild),
        ("POST", Route::Callback { interaction, token }) => {
            callback(inner, st, rec, interaction, &token)
        }
        (_, Route::Original { token }) => webhook_message(inner, st, rec, &token, None),
        ("POST", Route::Followup { token }) => followup(inner, st, rec, &token),
        (_, Route::FollowupMessage { token, message }) => {
            webhook_message(inner, st, rec, &token, Some(message))
        }
        ("POST", Route::ChannelMessages { channel }) => channel_post(inner, st, rec, channel),
        (_, Route::ChannelMessage { channel, message }) => {
            channel_message(inner, st, rec, channel, message)
        }
        ("POST", Route::Threads { channel }) => create_thread(inner, st, rec, channel, None),
        ("POST", Route::MessageThreads { channel, message }) => {
            create_thread(inner, st, rec, channel, Some(message))
        }
        ("GET" | "PATCH", Route::Channel { channel }) => thread_channel(inner, st, rec, channel),
        _ => {
            rec.problems
                .push("the stand-in does not serve this request".to_owned());
            not_found()
        }
    }
}

fn application_json(inner: &Inner) -> Value {
    json!({
        "id": inner.app_id.to_string(),
        "name": inner.bot.name,
        "icon": null,
        "description": "",
        "rpc_origins": [],
        "bot_public": true,
        "bot_require_code_grant": false,
        "bot": inner.bot.json(),
        "owner": {"id": "1", "username": "owner", "discriminator": "0", "global_name": "owner", "avatar": null},
        "verify_key": super::http_mode::public_key_hex(inner),
        "team": null,
        "flags": 0,
        "role_connections_verification_url": null,
    })
}

// ---- commands ----------------------------------------------------------------------------------

fn commands_of(st: &State, guild: Option<u64>) -> Vec<Value> {
    match guild {
        None => st.global_commands.clone(),
        Some(g) => st.guild_commands.get(&g).cloned().unwrap_or_default(),
    }
}

/// A registered command as Discord returns it: the body plus id, version, defaults.
fn command_json(inner: &Inner, previous: &[Value], guild: Option<u64>, body: &Value) -> Value {
    let mut c = body.clone();
    let kind = c["type"].as_u64().unwrap_or(1);
    let existing = previous
        .iter()
        .find(|p| p["name"] == c["name"] && p["type"].as_u64().unwrap_or(1) == kind)
        .and_then(|p| p["id"].as_str().map(str::to_owned));
    c["id"] = json!(existing.unwrap_or_else(|| snowflake().to_string()));
    c["type"] = json!(kind);
    c["application_id"] = json!(inner.app_id.to_string());
    c["version"] = json!(snowflake().to_string());
    if c["description"].is_null() {
        c["description"] = json!("");
    }
    if c["default_member_permissions"].is_null() {
        c["default_member_permissions"] = Value::Null;
    }
    if c["nsfw"].is_null() {
        c["nsfw"] = json!(false);
    }
    match guild {
        Some(g) => c["guild_id"] = json!(g.to_string()),
        None => {
            if c["dm_permission"].is_null() {
                c["dm_permission"] = json!(true);
            }
            if c["integration_types"].is_null() {
                c["integration_types"] = json!([0]);
            }
        }
    }
    c
}

fn store_commands(st: &mut State, guild: Option<u64>, list: Vec<Value>) {
    match guild {
        None => st.global_commands = list,
        Some(g) => {
            st.guild_commands.insert(g, list);
        }
    }
}

fn put_commands(inner: &Inner, st: &mut State, rec: &mut Recorded, guild: Option<u64>) -> Answer {
    let body = rec.body().clone();
    let mut problems = Problems::default();
    validate::commands(&mut problems, &body);
    if !problems.0.is_empty() {
        return refuse(rec, problems);
    }
    let previous = commands_of(st, guild);
    if let Some(refused) = entry_point_rules(
        rec,
        guild,
        &previous,
        body.as_array().expect("validated"),
        true,
    ) {
        return refused;
    }
    let list: Vec<Value> = body
        .as_array()
        .expect("validated")
        .iter()
        .map(|c| command_json(inner, &previous, guild, c))
        .collect();
    if let Err(e) =
        serde_json::from_value::<Vec<serenity::model::application::Command>>(json!(list))
    {
        rec.problems.push(format!(
            "stand-in bug: serenity cannot parse the commands answered: {e}"
        ));
        return error(500, 0, "stand-in bug");
    }
    store_commands(st, guild, list.clone());
    (200, Some(json!(list)))
}

fn post_command(inner: &Inner, st: &mut State, rec: &mut Recorded, guild: Option<u64>) -> Answer {
    let body = rec.body().clone();
    let mut problems = Problems::default();
    validate::commands(&mut problems, &json!([body]));
    if !problems.0.is_empty() {
        return refuse(rec, problems);
    }
    let mut list = commands_of(st, guild);
    if let Some(refused) = entry_point_rules(rec, guild, &list, std::slice::from_ref(&body), false)
    {
        return refused;
    }
    let command = command_json(inner, &list, guild, &body);
    list.retain(|c| c["id"] != command["id"]);
    list.push(command.clone());
    store_commands(st, guild, list);
    (200, Some(command))
}

/// Discord's rules for the App Launcher's entry point (type 4): global only, one per
/// application, and once it exists a bulk overwrite (`whole`) must keep it.
fn entry_point_rules(
    rec: &mut Recorded,
    guild: Option<u64>,
    previous: &[Value],
    sent: &[Value],
    whole: bool,
) -> Option<Answer> {
    let is_entry = |c: &&Value| c["type"].as_u64() == Some(4);
    let sent_entries: Vec<&Value> = sent.iter().filter(is_entry).collect();
    let mut refuse = |why: &str, code: u64| {
        rec.problems.push(why.to_owned());
        Some(error(400, code, why))
    };
    if guild.is_some() && !sent_entries.is_empty() {
        return refuse("Entry point commands can only be global.", 50035);
    }
    let existing = previous.iter().find(is_entry);
    if sent_entries.len() > 1 {
        return refuse(
            "An application can have only one entry point command.",
            50035,
        );
    }
    if let (Some(old), Some(new)) = (existing, sent_entries.first()) {
        if !whole && old["name"] != new["name"] {
            return refuse(
                "An application can have only one entry point command.",
                50035,
            );
        }
    }
    if whole && existing.is_some() && sent_entries.is_empty() {
        return refuse(
            "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
            50240,
        );
    }
    None
}

fn refuse(rec: &mut Recorded, problems: Problems) -> Answer {
    rec.problems.extend(
        problems
            .0
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message)),
    );
    (400, Some(validate::form_error(&problems.0)))
}

// ---- messages ----------------------------------------------------------------------------------

/// A message with every field serenity's `Message` requires.
pub(crate) fn message_base(
    inner: &Inner,
    id: u64,
    place: Place,
    author: Value,
    kind: u64,
) -> Value {
    let mut m = json!({
        "id": id.to_string(),
        "channel_id": place.channel.to_string(),
        "author": author,
        "content": "",
        "timestamp": timestamp_now(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": kind,
        "flags": 0,
        "components": [],
        "application_id": inner.app_id.to_string(),
    });
    if let Some(g) = place.guild {
        m["guild_id"] = json!(g.to_string());
    }
    m
}

/// Whether serenity parses this as a `Message`.
pub(crate) fn check_message(message: &Value) -> Result<(), String> {
    serde_json::from_value::<serenity::model::channel::Message>(message.clone())
        .map(|_| ())
        .map_err(|e| format!("serenity cannot parse the message: {e}; message: {message}"))
}

fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

fn mime_of(filename: &str, given: Option<&str>) -> String {
    let ext = filename
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        _ => given.unwrap_or("application/octet-stream"),
    }
    .to_owned()
}

/// The `attachments[]` entry that describes an uploaded file (`files[id]`), if any.
fn upload_entry<'a>(attachments: Option<&'a Value>, file: &UploadedFile) -> Option<&'a Value> {
    let index = file
        .field
        .trim_start_matches("files[")
        .trim_end_matches(']');
    attachments
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|a| a["id"].to_string().trim_matches('"') == index)
}

/// The names files will have once attached: `attachments[].filename` renames `files[id]`.
fn upload_names(attachments: Option<&Value>, files: &[UploadedFile]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            upload_entry(attachments, f)
                .and_then(|a| a["filename"].as_str())
                .unwrap_or(&f.filename)
                .to_owned()
        })
        .collect()
}

/// Applies a create or edit body to `message` (a fresh one, or the one being edited), Discord's
/// way. Returns the problems Discord would refuse the body for; then `message` is unusable.
/// [`apply_message`] with the request's own files; its problems refuse the request.
fn apply_request(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    message: &mut Value,
    body: &Value,
    use_: MessageUse,
    prefix: &str,
) -> Result<(), Answer> {
    let files = rec.files.clone();
    let problems = apply_message(inner, st, message, body, &files, use_, prefix);
    if problems.0.is_empty() {
        Ok(())
    } else {
        Err(refuse(rec, problems))
    }
}

fn apply_message(
    inner: &Inner,
    st: &mut State,
    message: &mut Value,
    body: &Value,
    files: &[UploadedFile],
    use_: MessageUse,
    prefix: &str,
) -> Problems {
    let mut problems = Problems::default();
    let previous: Vec<Value> = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names = upload_names(body.get("attachments"), files);
    // Attachments the result will keep from before.
    let kept: Vec<Value> = match body.get("attachments").and_then(Value::as_array) {
        None if use_ == MessageUse::Edit => previous.clone(),
        None => Vec::new(),
        Some(list) => {
            let mut kept = Vec::new();
            for (i, a) in list.iter().enumerate() {
                let id = a["id"].to_string().trim_matches('"').to_owned();
                let is_upload = files.iter().any(|f| f.field == format!("files[{id}]"));
                if is_upload {
                    continue;
                }
                match previous
                    .iter()
                    .find(|p| p["id"].as_str() == Some(id.as_str()))
                {
                    Some(p) => kept.push(p.clone()),
                    None => problems.0.push(validate::Problem {
                        path: format!("{prefix}.attachments.{i}.id"),
                        message: format!("Unknown attachment {id} (neither kept nor uploaded)."),
                    }),
                }
            }
            kept
        }
    };
    let kept_names: Vec<String> = kept
        .iter()
        .filter_map(|a| a["filename"].as_str().map(str::to_owned))
        .collect();
    validate::message(&mut problems, prefix, body, use_, &names, &kept_names);
    if !problems.0.is_empty() {
        return problems;
    }

    let channel = message["channel_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut attachments = kept;
    for (file, name) in files.iter().zip(&names) {
        let id = snowflake();
        let url = format!("{}/attachments/{channel}/{id}/{name}", inner.base_url());
        let mime = mime_of(name, file.content_type.as_deref());
        let mut a = json!({
            "id": id.to_string(),
            "filename": name,
            "size": file.bytes.len(),
            "url": url,
            "proxy_url": url,
            "content_type": mime,
        });
        if let Some((w, h)) = png_size(&file.bytes) {
            a["width"] = json!(w);
            a["height"] = json!(h);
        }
        // The alt text, as Discord keeps it on the attachment.
        if let Some(d) =
            upload_entry(body.get("attachments"), file).and_then(|e| e.get("description"))
        {
            if !d.is_null() {
                a["description"] = d.clone();
            }
        }
        st.files.insert(
            id,
            UploadedFile {
                field: file.field.clone(),
                filename: name.clone(),
                content_type: Some(mime),
                bytes: if inner.cfg.keep_uploads {
                    file.bytes.clone()
                } else {
                    Vec::new()
                },
            },
        );
        attachments.push(a);
    }
    message["attachments"] = json!(attachments);

    for key in ["content", "embeds", "components"] {
        match body.get(key) {
            Some(Value::Null) => {
                message[key] = if key == "content" {
                    json!("")
                } else {
                    json!([])
                }
            }
            Some(v) => message[key] = v.clone(),
            None => {}
        }
    }
    if let Some(flags) = body["flags"].as_u64() {
        let old = message["flags"].as_u64().unwrap_or(0);
        // EPHEMERAL is set when a message is created; an edit cannot change it.
        let ephemeral = if use_ == MessageUse::Create {
            flags & 64
        } else {
            old & 64
        };
        message["flags"] = json!((flags & !64) | ephemeral | (old & 128));
    }
    if body.get("tts") == Some(&json!(true)) && use_ == MessageUse::Create {
        message["tts"] = json!(true);
    }
    // Discord points `attachment://name` embed images at the uploaded file.
    if let Some(embeds) = message["embeds"].as_array_mut() {
        for embed in embeds {
            for key in ["image", "thumbnail"] {
                let Some(name) = embed[key]["url"]
                    .as_str()
                    .and_then(|u| u.strip_prefix("attachment://"))
                else {
                    continue;
                };
                if let Some(a) = attachments.iter().find(|a| a["filename"] == json!(name)) {
                    embed[key] = json!({
                        "url": a["url"], "proxy_url": a["proxy_url"],
                        "width": a["width"], "height": a["height"],
                    });
                }
            }
        }
    }
    if use_ == MessageUse::Edit {
        message["edited_timestamp"] = json!(timestamp_now());
    }
    problems
}

/// Stores a message after checking serenity can parse it; an error is a stand-in bug.
fn store_message(st: &mut State, rec: &mut Recorded, message: Value) -> Answer {
    if let Err(e) = check_message(&message) {
        rec.problems.push(format!("stand-in bug: {e}"));
        return error(500, 0, "stand-in bug");
    }
    let id = message["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("message id");
    st.messages.insert(id, message.clone());
    (200, Some(message))
}

fn place_in(st: &State, channel: u64) -> Place {
    Place {
        channel,
        guild: st.channel_guilds.get(&channel).copied(),
    }
}

/// Creates a message from a body (interaction response, follow-up, channel post).
#[allow(clippy::too_many_arguments)]
fn create_message(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    place: Place,
    body: &Value,
    kind: u64,
    webhook: bool,
    prefix: &str,
) -> Result<Value, Answer> {
    reopen_thread(st, place.channel)?;
    let id = snowflake();
    let mut message = message_base(inner, id, place, inner.bot.json(), kind);
    if webhook {
        message["webhook_id"] = json!(inner.app_id.to_string());
    }
    apply_request(
        inner,
        st,
        rec,
        &mut message,
        body,
        MessageUse::Create,
        prefix,
    )?;
    match store_message(st, rec, message) {
        (200, Some(m)) => {
            if let Some(p) = Ping::of(id, place.channel, body) {
                st.pings.push(p);
            }
            Ok(m)
        }
        other => Err(other),
    }
}

fn edit_message(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    id: u64,
    body: &Value,
    prefix: &str,
) -> Answer {
    let Some(mut message) = st.messages.get(&id).cloned() else {
        return error(404, 10008, "Unknown Message");
    };
    let loading = message["flags"].as_u64().unwrap_or(0) & 128 != 0;
    if let Err(refused) =
        apply_request(inner, st, rec, &mut message, body, MessageUse::Edit, prefix)
    {
        return refused;
    }
    if loading {
        // The first edit of a deferred answer replaces the "is thinking…" placeholder: its
        // first real content, which notifies like a new message.
        message["flags"] = json!(message["flags"].as_u64().unwrap_or(0) & !128);
        let channel = message["channel_id"]
            .as_str()
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        if let Some(p) = Ping::of(id, channel, body) {
            st.pings.push(p);
        }
    }
    store_message(st, rec, message)
}

// ---- interactions ------------------------------------------------------------------------------

pub(crate) fn callback(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    id: u64,
    token: &str,
) -> Answer {
    let Some(it) = st.interactions.get(&id).filter(|i| i.token == token) else {
        rec.problems
            .push("no interaction has this id and token".to_owned());
        return error(404, 10062, "Unknown interaction");
    };
    let elapsed = it.sent_at.elapsed();
    rec.elapsed = Some(elapsed);
    if let Some(deadline) = inner.cfg.interaction_deadline.filter(|d| elapsed > *d) {
        rec.problems
            .push(format!("answered after {elapsed:?}, beyond {deadline:?}"));
        return error(404, 10062, "Unknown interaction");
    }
    if let Some(ack) = it.ack {
        rec.problems
            .push(format!("already answered with type {ack}"));
        return error(400, 40060, "Interaction has already been acknowledged.");
    }
    let (kind, place, component_message) = (it.kind, it.place, it.message);
    let body = rec.body().clone();
    let Some(answer_type) = body["type"].as_u64() else {
        let mut p = Problems::default();
        p.0.push(validate::Problem {
            path: "type".into(),
            message: "This field is required".into(),
        });
        return refuse(rec, p);
    };
    // 12 launches the application's Activity (LAUNCH_ACTIVITY).
    let allowed: &[u64] = match kind {
        2 => &[4, 5, 9, 12],
        3 => &[4, 5, 6, 7, 9, 12],
        4 => &[8],
        5 => &[4, 5, 6, 7],
        _ => &[],
    };
    if !allowed.contains(&answer_type) {
        let mut p = Problems::default();
        p.0.push(validate::Problem {
            path: "type".into(),
            message: format!("Interaction type {kind} cannot be answered with type {answer_type} (allowed: {allowed:?})."),
        });
        return refuse(rec, p);
    }
    if answer_type == 12 && body.get("data").is_some_and(|d| !d.is_null()) {
        let mut p = Problems::default();
        p.0.push(validate::Problem {
            path: "data".into(),
            message: "LAUNCH_ACTIVITY takes no data.".into(),
        });
        return refuse(rec, p);
    }
    let data = match body.get("data") {
        // UPDATE_MESSAGE without data changes nothing; a new message needs data.
        None | Some(Value::Null) if answer_type == 7 => json!({}),
        other => other.cloned().unwrap_or(Value::Null),
    };
    let message_kind = if kind == 2 { 20 } else { 0 };
    let original = match answer_type {
        4 => match create_message(inner, st, rec, place, &data, message_kind, true, "data") {
            Ok(m) => m["id"].as_str().and_then(|s| s.parse().ok()),
            Err(refused) => return refused,
        },
        5 => {
            if let Err(refused) = reopen_thread(st, place.channel) {
                return refused;
            }
            let id = snowflake();
            let mut m = message_base(inner, id, place, inner.bot.json(), message_kind);
            m["webhook_id"] = json!(inner.app_id.to_string());
            // LOADING (128), plus EPHEMERAL if asked.
            m["flags"] = json!(128 | (data["flags"].as_u64().unwrap_or(0) & 64));
            let (status, answer) = store_message(st, rec, m);
            if status != 200 {
                return (status, answer);
            }
            Some(id)
        }
        6 => component_message,
        7 => {
            let Some(mid) = component_message else {
                return error(400, 50035, "Invalid Form Body");
            };
            let (status, answer) = edit_message(inner, st, rec, mid, &data, "data");
            if status != 200 {
                return (status, answer);
            }
            Some(mid)
        }
        12 => None,
        8 => {
            let mut p = Problems::default();
            validate::autocomplete(&mut p, &data);
            if !p.0.is_empty() {
                return refuse(rec, p);
            }
            None
        }
        _ => {
            // 9: a modal
            let mut p = Problems::default();
            if data["custom_id"].as_str().is_none_or_empty()
                || data["title"].as_str().is_none_or_empty()
            {
                p.0.push(validate::Problem {
                    path: "data".into(),
                    message: "A modal needs a custom_id, a title and components.".into(),
                });
                return refuse(rec, p);
            }
            None
        }
    };
    let it = st.interactions.get_mut(&id).expect("checked above");
    it.ack = Some(answer_type);
    it.original = original;
    let user = it.user;
    if let (Some(message), 4 | 5) = (original, answer_type) {
        st.answered_for.insert(message, user);
    }
    (204, None)
}

trait NoneOrEmpty {
    fn is_none_or_empty(&self) -> bool;
}

impl NoneOrEmpty for Option<&str> {
    fn is_none_or_empty(&self) -> bool {
        self.map_or(true, str::is_empty)
    }
}

/// GET/PATCH/DELETE of `@original` (message None) or of a follow-up message.
fn webhook_message(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    token: &str,
    message: Option<u64>,
) -> Answer {
    let Some(&id) = st.tokens.get(token) else {
        rec.problems
            .push("no interaction has this token".to_owned());
        return error(404, 10015, "Unknown Webhook");
    };
    let it = &st.interactions[&id];
    let target = match message {
        None => it.original,
        Some(m) if it.original == Some(m) || it.followups.contains(&m) => Some(m),
        Some(_) => None,
    };
    let Some(target) = target.filter(|t| st.messages.contains_key(t)) else {
        rec.problems.push(match message {
            None => "the interaction has no original message yet (answer it first)".to_owned(),
            Some(m) => format!("message {m} is not a message of this interaction"),
        });
        return error(404, 10008, "Unknown Message");
    };
    read_edit_or_delete(inner, st, rec, target)
}

/// `GET`, `PATCH` or `DELETE` of the message `id`, once the route has allowed it.
fn read_edit_or_delete(inner: &Inner, st: &mut State, rec: &mut Recorded, id: u64) -> Answer {
    match rec.method.as_str() {
        "GET" => (200, st.messages.get(&id).cloned()),
        "PATCH" => {
            let body = rec.body().clone();
            edit_message(inner, st, rec, id, &body, "")
        }
        "DELETE" => {
            st.messages.remove(&id);
            (204, None)
        }
        _ => {
            rec.problems
                .push("the stand-in does not serve this method here".to_owned());
            error(405, 0, "405: Method Not Allowed")
        }
    }
}

fn followup(inner: &Inner, st: &mut State, rec: &mut Recorded, token: &str) -> Answer {
    let Some(&id) = st.tokens.get(token) else {
        rec.problems
            .push("no interaction has this token".to_owned());
        return error(404, 10015, "Unknown Webhook");
    };
    let it = &st.interactions[&id];
    if it.ack.is_none() {
        rec.problems
            .push("a follow-up before any answer to the interaction".to_owned());
        return error(404, 10015, "Unknown Webhook");
    }
    let body = rec.body().clone();
    // After a deferred answer (type 5), the first follow-up takes the placeholder's place.
    if let Some(original) = it.original.filter(|o| {
        st.messages
            .get(o)
            .is_some_and(|m| m["flags"].as_u64().unwrap_or(0) & 128 != 0)
    }) {
        return edit_message(inner, st, rec, original, &body, "");
    }
    let place = it.place;
    let kind = if it.kind == 2 { 20 } else { 0 };
    match create_message(inner, st, rec, place, &body, kind, true, "") {
        Ok(m) => {
            let mid = m["id"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .expect("message id");
            let it = st.interactions.get_mut(&id).expect("known");
            it.followups.push(mid);
            let user = it.user;
            st.answered_for.insert(mid, user);
            (200, Some(m))
        }
        Err(refused) => refused,
    }
}

/// The refusal of any request about a conversation the bot is no member of (a DM or group DM
/// reached by a person's own installation): Discord answers 403, 50001 Missing Access. Only
/// the interactions' own endpoints (callback, `@original`, follow-ups) reach it.
fn no_access(st: &State, rec: &mut Recorded, channel: u64) -> Option<Answer> {
    if !st.private_channels.contains_key(&channel) {
        return None;
    }
    rec.problems.push(format!(
        "the bot is no member of conversation {channel}: only answers to interactions reach it"
    ));
    Some(error(403, 50001, "Missing Access"))
}

fn channel_post(inner: &Inner, st: &mut State, rec: &mut Recorded, channel: u64) -> Answer {
    if let Some(refused) = no_access(st, rec, channel) {
        return refused;
    }
    let body = rec.body().clone();
    let place = place_in(st, channel);
    match create_message(inner, st, rec, place, &body, 0, false, "") {
        Ok(m) => (200, Some(m)),
        Err(refused) => refused,
    }
}

fn channel_message(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    channel: u64,
    id: u64,
) -> Answer {
    if let Some(refused) = no_access(st, rec, channel) {
        return refused;
    }
    let Some(message) = st
        .messages
        .get(&id)
        .filter(|m| m["channel_id"] == json!(channel.to_string()))
    else {
        rec.problems
            .push(format!("no message {id} in channel {channel}"));
        return error(404, 10008, "Unknown Message");
    };
    let by_bot = message["author"]["id"] == json!(inner.app_id.to_string());
    if rec.method == "PATCH" && !by_bot {
        rec.problems
            .push("a bot can only edit its own messages".to_owned());
        return error(403, 50005, "Cannot edit a message authored by another user");
    }
    read_edit_or_delete(inner, st, rec, id)
}

// ---- threads -----------------------------------------------------------------------------------

/// A message into an archived thread reopens it, as on Discord; a locked one refuses it
/// (50083), since only moderators may reopen it.
fn reopen_thread(st: &mut State, channel: u64) -> Result<(), Answer> {
    let Some(thread) = st.threads.get_mut(&channel) else {
        return Ok(());
    };
    if thread.archived && thread.locked {
        return Err(error(400, 50083, "Thread is archived"));
    }
    thread.archived = false;
    Ok(())
}

fn form_error(rec: &mut Recorded, path: &str, message: &str) -> Answer {
    let mut p = Problems::default();
    p.0.push(validate::Problem {
        path: path.into(),
        message: message.into(),
    });
    refuse(rec, p)
}

/// `POST /channels/{ch}/threads` (`message` None) or `/channels/{ch}/messages/{id}/threads`.
fn create_thread(
    inner: &Inner,
    st: &mut State,
    rec: &mut Recorded,
    parent: u64,
    message: Option<u64>,
) -> Answer {
    if let Some(refused) = no_access(st, rec, parent) {
        return refused;
    }
    if st.threads.contains_key(&parent) {
        rec.problems
            .push("a thread cannot be opened in a thread".to_owned());
        return error(400, 50024, "Cannot execute action on this channel type");
    }
    let Some(&guild) = st.channel_guilds.get(&parent) else {
        rec.problems.push(format!(
            "channel {parent} is not a server channel the stand-in knows"
        ));
        return error(404, 10003, "Unknown Channel");
    };
    let body = rec.body().clone();
    let name = body["name"].as_str().unwrap_or_default().to_owned();
    let name_len = name.chars().count();
    if !(1..=100).contains(&name_len) {
        return form_error(rec, "name", "Must be between 1 and 100 in length.");
    }
    let auto_archive_duration = match body.get("auto_archive_duration") {
        None | Some(Value::Null) => 1440,
        Some(v) => match v.as_u64() {
            Some(d @ (60 | 1440 | 4320 | 10080)) => d,
            _ => {
                return form_error(
                    rec,
                    "auto_archive_duration",
                    "Value must be one of {60, 1440, 4320, 10080}.",
                )
            }
        },
    };
    let kind = match (message, body["type"].as_u64()) {
        // A thread from a message in a text channel is always public.
        (Some(_), _) => 11,
        (None, Some(k @ (11 | 12))) => k,
        (None, Some(_)) => return form_error(rec, "type", "Value must be 11 or 12."),
        (None, None) => {
            // API v9 made such a thread private; v10 wants the type said.
            rec.problems.push(
                "a thread without a message should say its type (11 public, 12 private)".to_owned(),
            );
            12
        }
    };
    let needed = if kind == 11 {
        CREATE_PUBLIC_THREADS
    } else {
        CREATE_PRIVATE_THREADS
    };
    if st.app_permissions_in(parent) & needed == 0 {
        rec.problems
            .push(format!("the bot may not open threads in channel {parent}"));
        return error(403, 50013, "Missing Permissions");
    }
    if let Some(m) = message {
        let in_parent = st
            .messages
            .get(&m)
            .is_some_and(|msg| msg["channel_id"] == json!(parent.to_string()));
        if !in_parent {
            rec.problems
                .push(format!("no message {m} in channel {parent}"));
            return error(404, 10008, "Unknown Message");
        }
        if st.threads.values().any(|t| t.starter_message == Some(m)) {
            return error(
                400,
                160004,
                "A thread has already been created for this message",
            );
        }
    }
    let thread = ThreadInfo {
        id: snowflake(),
        parent,
        guild,
        name,
        kind,
        owner: inner.app_id,
        starter_message: message,
        auto_archive_duration,
        archived: false,
        locked: false,
        times_archived: 0,
    };
    st.channel_guilds.insert(thread.id, guild);
    let json = thread.json(st.app_permissions_in(parent));
    st.threads.insert(thread.id, thread);
    (201, Some(json))
}

/// `GET`/`PATCH /channels/{id}` for a thread: archive, unarchive, lock, rename.
fn thread_channel(inner: &Inner, st: &mut State, rec: &mut Recorded, channel: u64) -> Answer {
    if let Some(refused) = no_access(st, rec, channel) {
        return refused;
    }
    let permissions = st.app_permissions_in(channel);
    let Some(thread) = st.threads.get(&channel).cloned() else {
        rec.problems.push(format!(
            "channel {channel} is not a thread (the stand-in models threads only)"
        ));
        return error(404, 10003, "Unknown Channel");
    };
    if rec.method == "GET" {
        return (200, Some(thread.json(permissions)));
    }
    let body = rec.body().clone();
    // Discord: an archived thread takes no change but being unarchived (or archived again).
    let unarchives = body.get("archived") == Some(&json!(false));
    let changes_more = body
        .as_object()
        .is_some_and(|o| o.keys().any(|k| k != "archived"));
    if thread.archived && !unarchives && changes_more {
        return error(400, 50083, "Thread is archived");
    }
    let mut next = thread.clone();
    let moderator = permissions & MANAGE_THREADS != 0;
    let owner = thread.owner == inner.app_id;
    if let Some(archived) = body.get("archived").and_then(Value::as_bool) {
        // Its owner or a moderator may archive a thread; reopening a locked one takes a
        // moderator.
        let allowed = if archived {
            owner || moderator
        } else {
            !thread.locked || moderator
        };
        if !allowed {
            rec.problems
                .push("the bot may not (un)archive this thread".to_owned());
            return error(403, 50013, "Missing Permissions");
        }
        if archived && !thread.archived {
            next.times_archived += 1;
        }
        next.archived = archived;
    }
    if let Some(locked) = body.get("locked").and_then(Value::as_bool) {
        if !moderator {
            rec.problems
                .push("locking a thread takes Manage Threads".to_owned());
            return error(403, 50013, "Missing Permissions");
        }
        next.locked = locked;
    }
    if let Some(name) = body.get("name").and_then(Value::as_str) {
        if !(1..=100).contains(&name.chars().count()) {
            return form_error(rec, "name", "Must be between 1 and 100 in length.");
        }
        next.name = name.to_owned();
    }
    let json = next.json(permissions);
    st.threads.insert(channel, next);
    (200, Some(json))
}
