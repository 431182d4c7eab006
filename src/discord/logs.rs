//! The process's log, on standard error: `RUST_LOG` says what is logged (default
//! `info,serenity=warn`), and whatever it says, no secret reaches it.
//!
//! Secrets and where they would leak:
//! - interaction tokens are in the URLs of the REST calls that answer an interaction
//!   (`/interactions/{id}/{token}/callback`, `/webhooks/{app}/{token}/…`). serenity's HTTP
//!   client records each call in an INFO span and logs failed ones at DEBUG; reqwest's errors
//!   quote the URL, and this bot logs delivery failures (at INFO and WARN) with the error;
//! - the gateway's frames hold the bot token (IDENTIFY) and interaction tokens: tungstenite
//!   logs every frame at TRACE, serenity logs undecodable ones at DEBUG.
//!
//! The text log is coloured only when standard error is a terminal, and never when
//! `NO_COLOR` is set (<https://no-color.org>): a file or journald gets plain lines.
//!
//! `DAMAS_LOG_FORMAT=json` writes each event as one JSON object (for a log store): the same
//! events, the same filter, the same redaction (quotes inside a JSON string are escaped, so
//! the escaped forms of the `token` fields are blanked too).
//!
//! So: the targets of [`CAPPED`] log at most at their cap whatever `RUST_LOG` asks, and every
//! line is passed through [`redact`] before it is written, which blanks interaction tokens in
//! URLs, `token` fields, and the secrets named with [`hide`] (the bot token).

use std::io::{self, Write};
use std::sync::RwLock;
use tracing::{Level, Metadata};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

/// The default filter when `RUST_LOG` is not set.
pub const DEFAULT_FILTER: &str = "info,serenity=warn";

/// Targets (and their children) that never log below a level, and that level.
pub const CAPPED: &[(&str, Level)] = &[
    // The per-request span (INFO) carries the request, token in its URL.
    ("serenity::http", Level::WARN),
    ("serenity::gateway", Level::INFO),
    ("tungstenite", Level::INFO),
    ("tokio_tungstenite", Level::INFO),
    ("reqwest", Level::INFO),
    ("hyper", Level::INFO),
    ("hyper_util", Level::INFO),
];

/// The variable choosing the log's format: `text` (the default) or `json`.
pub const LOG_FORMAT_ENV: &str = "DAMAS_LOG_FORMAT";

/// How the log is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line per event (the default).
    Text,
    /// One JSON object per line: time, level, target, fields (the message among them).
    Json,
}

/// Reads `DAMAS_LOG_FORMAT`: `text` or `json`; unset, `text`.
pub fn log_format_from_vars(
    var: impl Fn(&str) -> Option<String>,
) -> Result<LogFormat, super::BotError> {
    match var(LOG_FORMAT_ENV).as_deref().map(str::trim) {
        None | Some("") | Some("text") => Ok(LogFormat::Text),
        Some("json") => Ok(LogFormat::Json),
        Some(other) => Err(super::BotError::BadSetting {
            variable: LOG_FORMAT_ENV,
            problem: format!("must be text or json, not {other:?}"),
        }),
    }
}

/// Whether the text log is coloured: only on a terminal, and not when `NO_COLOR` is set to
/// anything but the empty string.
pub fn colours(stderr_is_terminal: bool, no_color: Option<&str>) -> bool {
    stderr_is_terminal && no_color.map_or(true, str::is_empty)
}

/// What stands in for a secret in the log.
const BLANK: &str = "<redacted>";

static HIDDEN: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Whether `meta` is within its target's cap ([`CAPPED`]).
fn within_cap(meta: &Metadata<'_>) -> bool {
    let target = meta.target();
    CAPPED
        .iter()
        .filter(|(capped, _)| {
            target
                .strip_prefix(capped)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
        })
        .all(|(_, cap)| meta.level() <= cap)
}

/// Blanks `secret` wherever it appears in the log from now on.
pub fn hide(secret: &str) {
    let secret = secret.trim();
    // A short value would blank ordinary words.
    if secret.len() >= 8 {
        let mut hidden = HIDDEN.write().unwrap_or_else(|p| p.into_inner());
        if !hidden.iter().any(|s| s == secret) {
            hidden.push(secret.to_owned());
        }
    }
}

/// Whether `c` can be part of a token in a URL or a JSON string.
fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '=' | '%' | '+' | '~')
}

/// Blanks what follows each `marker` in `text` for as long as `part` says.
fn blank_after(text: &str, marker: &str, part: impl Fn(&str) -> usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(marker) {
        let (before, after) = rest.split_at(at + marker.len());
        out.push_str(before);
        let n = part(after);
        if n > 0 {
            out.push_str(BLANK);
        }
        rest = &after[n..];
    }
    out.push_str(rest);
    out
}

/// The length of `{id}/{token}` at the start of `s`; 0 if `s` does not start so.
fn id_then_token(s: &str) -> usize {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || !s[digits..].starts_with('/') {
        return 0;
    }
    let token = &s[digits + 1..];
    let len = token.len() - token.trim_start_matches(token_char).len();
    if len == 0 {
        return 0;
    }
    digits + 1 + len
}

/// A quoted string's length up to (not including) its closing quote, escaped or not.
fn quoted(s: &str) -> usize {
    s.find(['"', '\\']).unwrap_or(s.len())
}

/// `text` with every secret blanked (see the module doc).
pub fn redact(text: &str) -> String {
    let mut clean = text.to_owned();
    for marker in ["/interactions/", "/webhooks/"] {
        if clean.contains(marker) {
            // The id goes with its token: it is no secret, but nothing is lost.
            clean = blank_after(&clean, marker, id_then_token);
        }
    }
    for marker in [
        "\"token\":\"",
        "\"token\": \"",
        "token: \"",
        "token=\"",
        // The same inside a JSON string (the JSON log).
        "\\\"token\\\":\\\"",
        "\\\"token\\\": \\\"",
        "token: \\\"",
        "token=\\\"",
    ] {
        if clean.contains(marker) {
            clean = blank_after(&clean, marker, quoted);
        }
    }
    let hidden = HIDDEN.read().unwrap_or_else(|p| p.into_inner());
    for secret in hidden.iter() {
        if clean.contains(secret.as_str()) {
            clean = clean.replace(secret.as_str(), BLANK);
        }
    }
    clean
}

/// Standard error, each line [`redact`]ed on its way.
struct RedactedStderr;

/// One line (tracing's formatter writes each event with one `write_all`).
struct RedactedLine;

impl Write for RedactedLine {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        io::stderr().write_all(redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

impl<'a> MakeWriter<'a> for RedactedStderr {
    type Writer = RedactedLine;

    fn make_writer(&'a self) -> RedactedLine {
        RedactedLine
    }
}

/// Installs the process's log in `format` (once; later calls change nothing).
pub fn init(format: LogFormat) {
    let filter = || {
        tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_FILTER))
    };
    let capped = || tracing_subscriber::filter::filter_fn(within_cap);
    let _ = match format {
        LogFormat::Text => {
            use std::io::IsTerminal;
            let ansi = colours(
                io::stderr().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
            );
            let layer = tracing_subscriber::fmt::layer()
                .with_ansi(ansi)
                .with_writer(RedactedStderr)
                .with_filter(filter())
                .with_filter(capped());
            tracing_subscriber::registry().with(layer).try_init()
        }
        LogFormat::Json => {
            let layer = tracing_subscriber::fmt::layer()
                .json()
                .with_current_span(false)
                .with_writer(RedactedStderr)
                .with_filter(filter())
                .with_filter(capped());
            tracing_subscriber::registry().with(layer).try_init()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_urls_and_fields_are_blanked_and_ids_kept() {
        let line = "send a follow-up: attempt 1 failed (error sending request for url \
                    (http://127.0.0.1:9/api/v10/webhooks/42/aW50ZXJhY3Rpb24.x-Y_z:1)); \
                    POST /api/v10/interactions/1234/tok.en-1/callback {\"token\":\"abc.def\"} \
                    Interaction { token: \"zzz\" }";
        let clean = redact(line);
        for secret in ["aW50ZXJhY3Rpb24", "tok.en-1", "abc.def", "zzz"] {
            assert!(!clean.contains(secret), "{clean}");
        }
        assert!(clean.contains("/webhooks/<redacted>)"), "{clean}");
        assert!(
            clean.contains("/interactions/<redacted>/callback"),
            "{clean}"
        );
        assert!(clean.starts_with("send a follow-up: attempt 1 failed"));
        // Nothing else changes.
        let plain = "registered 17 commands; /interactions listening on 127.0.0.1:8080";
        assert_eq!(redact(plain), plain);
    }

    #[test]
    fn tokens_inside_json_strings_are_blanked() {
        // What the JSON log writes for a message quoting an interaction and a payload.
        let line =
            r#"{"fields":{"message":"Interaction { token: \"zzz.y\" } {\"token\":\"abc.def\"}"}}"#;
        let clean = redact(line);
        for secret in ["zzz.y", "abc.def"] {
            assert!(!clean.contains(secret), "{clean}");
        }
        assert!(
            serde_json::from_str::<serde_json::Value>(&clean).is_ok(),
            "{clean}"
        );
        let read = |raw: Option<&str>| log_format_from_vars(|_| raw.map(String::from));
        assert_eq!(read(None).unwrap(), LogFormat::Text);
        assert_eq!(read(Some("json")).unwrap(), LogFormat::Json);
        let e = read(Some("JSON5")).unwrap_err();
        assert!(e.to_string().starts_with("DAMAS_LOG_FORMAT "), "{e}");
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn colours_only_on_a_terminal_and_never_with_no_color() {
        assert!(colours(true, None));
        assert!(colours(true, Some("")));
        assert!(!colours(true, Some("1")));
        assert!(!colours(false, None));
        assert!(!colours(false, Some("1")));
    }

    #[test]
    fn hidden_secrets_are_blanked() {
        hide("a-bot-token-value");
        hide("short");
        assert_eq!(
            redact("IDENTIFY a-bot-token-value short"),
            "IDENTIFY <redacted> short"
        );
    }

    #[test]
    fn capped_targets_stay_quiet_below_their_cap() {
        use tracing::callsite::Identifier;
        use tracing::field::FieldSet;
        use tracing::metadata::Kind;
        struct Site;
        impl tracing::Callsite for Site {
            fn set_interest(&self, _: tracing::subscriber::Interest) {}
            fn metadata(&self) -> &Metadata<'_> {
                unreachable!()
            }
        }
        static SITE: Site = Site;
        let meta = |target: &'static str, level: Level| {
            Metadata::new(
                "test",
                target,
                level,
                None,
                None,
                None,
                FieldSet::new(&[], Identifier(&SITE)),
                Kind::EVENT,
            )
        };
        assert!(!within_cap(&meta("serenity::http::client", Level::INFO)));
        assert!(within_cap(&meta("serenity::http::client", Level::WARN)));
        assert!(!within_cap(&meta("tungstenite::protocol", Level::TRACE)));
        assert!(!within_cap(&meta("serenity::gateway::ws", Level::DEBUG)));
        assert!(within_cap(&meta("serenity::gateway::ws", Level::INFO)));
        assert!(within_cap(&meta("damas::discord::router", Level::TRACE)));
        assert!(within_cap(&meta("serenity::model", Level::TRACE)));
        assert!(within_cap(&meta("tungstenitex", Level::TRACE)));
    }
}
