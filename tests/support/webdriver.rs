//! The few WebDriver commands the board page's browser test sends to chromedriver, as plain
//! JSON over HTTP (the W3C WebDriver protocol). A client crate (fantoccini) did the same with
//! about twenty more crates in every `cargo test` build — among them ICU's text segmenter —,
//! for seven commands.
#![allow(dead_code)]

use base64::Engine as _;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The key under which WebDriver names an element (W3C WebDriver, "Elements").
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How an element is found.
pub enum Locator<'a> {
    Css(&'a str),
    Id(&'a str),
}

impl Locator<'_> {
    fn css(&self) -> String {
        match self {
            Locator::Css(css) => css.to_string(),
            Locator::Id(id) => format!("#{id}"),
        }
    }
}

/// One browser session: a Chromium window chromedriver started for it.
pub struct Client {
    http: reqwest::Client,
    /// chromedriver's address and the session's path: `http://127.0.0.1:PORT/session/ID`.
    session: String,
}

/// An element of the page the session shows.
pub struct Element<'a> {
    client: &'a Client,
    id: String,
}

/// What went wrong: WebDriver's error name and message, or the transport's.
pub type Error = String;

/// A command's answer: WebDriver wraps every result in `{"value": …}`, and an error in a
/// `value` with an `error` field.
async fn answer(response: reqwest::Result<reqwest::Response>) -> Result<Value, Error> {
    let response = response.map_err(|e| format!("chromedriver: {e}"))?;
    let status = response.status();
    let bytes = response
        .bytes()
        .await
        .map_err(|e| format!("chromedriver's answer ({status}): {e}"))?;
    let body: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("chromedriver's answer ({status}) is not JSON: {e}"))?;
    let value = body.get("value").cloned().unwrap_or(Value::Null);
    match value.get("error").and_then(Value::as_str) {
        Some(error) => Err(format!(
            "{error}: {}",
            value.get("message").and_then(Value::as_str).unwrap_or("")
        )),
        None if !status.is_success() => Err(format!("chromedriver answered {status}: {body}")),
        None => Ok(value),
    }
}

impl Client {
    /// A new session of chromedriver at `driver` with these capabilities.
    pub async fn connect(driver: &str, capabilities: Value) -> Result<Client, Error> {
        let http = reqwest::Client::new();
        let value = answer(
            http.post(format!("{driver}/session"))
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(json!({ "capabilities": { "alwaysMatch": capabilities } }).to_string())
                .send()
                .await,
        )
        .await?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {value}"))?;
        Ok(Client {
            http,
            session: format!("{driver}/session/{id}"),
        })
    }

    async fn post(&self, path: &str, body: Value) -> Result<Value, Error> {
        answer(
            self.http
                .post(format!("{}{path}", self.session))
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.to_string())
                .send()
                .await,
        )
        .await
    }

    async fn get(&self, path: &str) -> Result<Value, Error> {
        answer(
            self.http
                .get(format!("{}{path}", self.session))
                .send()
                .await,
        )
        .await
    }

    /// Opens `url` and waits for the page's load, as WebDriver's "Navigate To" does.
    pub async fn goto(&self, url: &str) -> Result<(), Error> {
        self.post("/url", json!({ "url": url })).await.map(drop)
    }

    /// The first element matching `locator`, now.
    pub async fn find(&self, locator: Locator<'_>) -> Result<Element<'_>, Error> {
        let value = self
            .post(
                "/element",
                json!({ "using": "css selector", "value": locator.css() }),
            )
            .await?;
        let id = value[ELEMENT_KEY]
            .as_str()
            .ok_or_else(|| format!("no element reference in {value}"))?;
        Ok(Element {
            client: self,
            id: id.to_string(),
        })
    }

    /// The first element matching `locator`, asked for every 100 ms until `at_most` is over.
    pub async fn wait_for(
        &self,
        locator: Locator<'_>,
        at_most: Duration,
    ) -> Result<Element<'_>, Error> {
        let css = locator.css();
        let until = Instant::now() + at_most;
        loop {
            match self.find(Locator::Css(&css)).await {
                Ok(element) => return Ok(element),
                Err(e) if Instant::now() >= until => return Err(e),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Ends the session (chromedriver closes its Chromium).
    pub async fn close(self) -> Result<(), Error> {
        answer(self.http.delete(&self.session).send().await)
            .await
            .map(drop)
    }
}

impl Element<'_> {
    fn path(&self, command: &str) -> String {
        format!("/element/{}/{command}", self.id)
    }

    /// The element's attribute `name` (`None` when it has none).
    pub async fn attr(&self, name: &str) -> Result<Option<String>, Error> {
        let value = self
            .client
            .get(&self.path(&format!("attribute/{name}")))
            .await?;
        Ok(value.as_str().map(str::to_string))
    }

    /// Its rendered text.
    pub async fn text(&self) -> Result<String, Error> {
        let value = self.client.get(&self.path("text")).await?;
        Ok(value.as_str().unwrap_or_default().to_string())
    }

    /// A click in its middle, as a person's (WebDriver scrolls it into view first).
    pub async fn click(&self) -> Result<(), Error> {
        self.client
            .post(&self.path("click"), json!({}))
            .await
            .map(drop)
    }

    /// A PNG of the element as drawn.
    pub async fn screenshot(&self) -> Result<Vec<u8>, Error> {
        let value = self.client.get(&self.path("screenshot")).await?;
        let encoded = value
            .as_str()
            .ok_or_else(|| format!("no screenshot in {value}"))?;
        base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| format!("the screenshot is not base64: {e}"))
    }
}
