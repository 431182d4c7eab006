//! Interactions by HTTP, as Discord sends them to an application's Interactions Endpoint URL
//! (`damas serve`): a POST signed with Ed25519 over timestamp + body, whose response body is
//! the interaction's first answer. The stand-in reads that answer as if it had come to the
//! callback endpoint, so the rest of a test (`callback`, `original_message`, follow-ups) is the
//! same as over the gateway.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ed25519_dalek::Signer;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::{rest, snowflake, Inner, Recorded, Route, SentInteraction, StandIn};

/// The application's public key (`DISCORD_PUBLIC_KEY`), 64 hex digits.
pub(crate) fn public_key_hex(inner: &Inner) -> String {
    hex(&inner.signing_key.verifying_key().to_bytes())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A request as posted to the endpoint: its body and its signature headers.
#[derive(Clone, Debug)]
pub struct SignedRequest {
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

/// What the endpoint answered.
#[derive(Clone, Debug)]
pub struct HttpAnswered {
    pub status: u16,
    /// The response body, as JSON if it is JSON (else a string).
    pub body: Value,
}

impl Inner {
    /// Waits (at most 5 s) until the answer to the interaction with this token, posted by
    /// HTTP, has been read.
    pub(crate) async fn wait_http_answer(&self, token: &str) {
        let mut rx = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            rx.borrow_and_update();
            if !self.state().pending_http.contains(token) {
                return;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return;
            }
        }
    }
}

/// One HTTP/1.1 POST (`url` like `http://127.0.0.1:8080/interactions`), the connection closed
/// after the answer. Returns the status and the body.
pub async fn http_post(url: &str, headers: &[(&str, String)], body: &[u8]) -> (u16, Vec<u8>) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut stream = tokio::net::TcpStream::connect(host)
        .await
        .unwrap_or_else(|e| panic!("connect to {host}: {e}"));
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    stream.write_all(body).await.expect("send");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let mut payload = answer[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        payload = dechunk(&payload);
    }
    (status, payload)
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line_end]).trim(), 16)
            .expect("a chunk size");
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
    out
}

impl StandIn {
    /// The application's public key, for `DISCORD_PUBLIC_KEY`.
    pub fn public_key_hex(&self) -> String {
        public_key_hex(&self.inner)
    }

    /// `X-Signature-Ed25519` and `X-Signature-Timestamp` for a body, as Discord signs it.
    pub fn signature_headers(&self, body: &[u8]) -> Vec<(&'static str, String)> {
        let timestamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_secs()
            .to_string();
        self.signature_headers_at(body, &timestamp)
    }

    /// The same with any `X-Signature-Timestamp`, signed with the application's key (a
    /// request captured long ago, or Discord's clock off).
    pub fn signature_headers_at(
        &self,
        body: &[u8],
        timestamp: &str,
    ) -> Vec<(&'static str, String)> {
        let timestamp = timestamp.to_owned();
        let signed = [timestamp.as_bytes(), body].concat();
        let signature = self.inner.signing_key.sign(&signed);
        vec![
            ("X-Signature-Ed25519", hex(&signature.to_bytes())),
            ("X-Signature-Timestamp", timestamp),
        ]
    }

    /// Posts an interaction to the endpoint `url`, signed, as Discord does; the answer in the
    /// response body is then taken as the interaction's callback (see [`Self::callback`]).
    pub async fn post_interaction(
        &self,
        url: &str,
        payload: Value,
    ) -> (SentInteraction, HttpAnswered) {
        if let Err(e) =
            serde_json::from_value::<serenity::model::application::Interaction>(payload.clone())
        {
            panic!("serenity would not read this interaction: {e}\npayload: {payload:#}");
        }
        let (id, token, kind) = self.register_interaction(&payload);
        self.inner.state().pending_http.insert(token.clone());
        let body = serde_json::to_vec(&payload).expect("JSON");
        let headers = self.signature_headers(&body);
        let (status, answer) = http_post(url, &headers, &body).await;
        let http_request = Some(SignedRequest {
            body: body.clone(),
            headers: headers.clone(),
        });
        let answered = HttpAnswered {
            status,
            body: serde_json::from_slice(&answer)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&answer).into_owned())),
        };
        {
            let mut st = self.inner.state();
            st.pending_http.remove(&token);
            if status == 200 {
                let mut rec = Recorded::received(
                    "POST".to_owned(),
                    format!("/api/v10/interactions/{id}/{token}/callback"),
                    String::new(),
                    Route::Callback {
                        interaction: id,
                        token: token.clone(),
                    },
                );
                rec.json = Some(answered.body.clone());
                let (status, response) = rest::callback(&self.inner, &mut st, &mut rec, id, &token);
                rec.status = status;
                rec.response = response;
                self.inner.record(&mut st, rec);
            }
        }
        self.inner.bump();
        let sent = SentInteraction {
            id,
            token,
            kind,
            seq: 0,
            payload,
            shard: (0, 1),
            http_request,
        };
        (sent, answered)
    }

    /// Posts an interaction posted before again, byte for byte with its signature, as
    /// someone who captured it would. Nothing is taken as a callback.
    pub async fn replay_http(&self, url: &str, sent: &SentInteraction) -> HttpAnswered {
        let request = sent
            .http_request
            .as_ref()
            .expect("an interaction posted by HTTP");
        self.post_raw(url, &request.headers, &request.body).await
    }

    /// Posts Discord's PING to the endpoint, signed: what Discord sends to check an endpoint
    /// before it accepts its URL, and now and then after.
    pub async fn post_ping(&self, url: &str) -> HttpAnswered {
        let ping = serde_json::to_vec(&json!({
            "type": 1,
            "id": snowflake().to_string(),
            "application_id": self.application_id().to_string(),
            "token": "cGluZw.ping.stand-in",
            "version": 1,
        }))
        .expect("JSON");
        self.post_raw(url, &self.signature_headers(&ping), &ping)
            .await
    }

    /// Posts raw bytes to the endpoint with the given headers (bad or missing signatures).
    pub async fn post_raw(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &[u8],
    ) -> HttpAnswered {
        let (status, answer) = http_post(url, headers, body).await;
        HttpAnswered {
            status,
            body: serde_json::from_slice(&answer)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&answer).into_owned())),
        }
    }
}
