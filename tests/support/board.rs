//! The board page's set-up, shared by its tests (tests/discord/web.rs, activity.rs,
//! board_listen.rs): the Discord stand-in and a damas child process serving the page —
//! `damas serve`, or `damas bot` with `DAMAS_WEB_LISTEN` — with the Activity on when asked;
//! a challenge accepted over Discord's HTTP interactions; the page's requests as its script
//! sends them.

use super::bot::{custom_id_starting, text, text_of, BotProcess};
use super::stand_in::http_mode::HttpAnswered;
use super::stand_in::*;
use serde_json::{json, Value};
use std::time::Duration;

/// The key the players' links are signed with (`DAMAS_WEB_SECRET`).
pub const SECRET: &str = "a board secret for the tests, long enough";
/// What the links start with (`DAMAS_PUBLIC_URL`): a test reads the rest and asks the real
/// address.
pub const PUBLIC_URL: &str = "http://localhost:9";

/// A damas process serving the board page, and the stand-in it speaks to.
pub struct BoardServer {
    pub process: BotProcess,
    pub standin: StandIn,
    /// Where the page is served, like `http://127.0.0.1:PORT` (no slash at the end).
    pub base: String,
    _dir: tempfile::TempDir,
}

/// The players of a game [`BoardServer::new_game`] began, and where.
pub struct Players {
    /// White.
    pub alice: TestUser,
    pub bob: TestUser,
    pub place: Place,
}

/// The Discord Activity's settings, on the stand-in's application.
fn activity_vars(standin: &StandIn) -> Vec<(String, String)> {
    vec![
        (
            "DISCORD_CLIENT_ID".into(),
            standin.application_id().to_string(),
        ),
        (
            "DISCORD_CLIENT_SECRET".into(),
            standin.client_secret().into(),
        ),
    ]
}

async fn standin() -> StandIn {
    StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await
}

/// The board page's settings, the Activity's when `activity`, then `vars`.
fn page_vars(standin: &StandIn, activity: bool, vars: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = vec![
        ("DAMAS_PUBLIC_URL".into(), PUBLIC_URL.into()),
        ("DAMAS_WEB_SECRET".into(), SECRET.into()),
    ];
    if activity {
        all.extend(activity_vars(standin));
    }
    all.extend(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    all
}

fn borrowed(vars: &[(String, String)]) -> Vec<(&str, &str)> {
    vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

impl BoardServer {
    /// `damas serve` with the board page (and the Activity when `activity`), and `vars`.
    pub async fn serve(activity: bool, vars: &[(&str, &str)]) -> BoardServer {
        let dir = tempfile::tempdir().unwrap();
        let standin = standin().await;
        let vars = page_vars(&standin, activity, vars);
        let process = BotProcess::serve_with(
            &standin,
            dir.path().join("db").to_str().unwrap(),
            dir.path(),
            &borrowed(&vars),
        )
        .await;
        let base = process.url.trim_end_matches("/interactions").to_string();
        BoardServer {
            process,
            standin,
            base,
            _dir: dir,
        }
    }

    /// `damas bot` (the gateway) serving the board page and the Activity at
    /// `DAMAS_WEB_LISTEN`, once it says where.
    pub async fn bot() -> BoardServer {
        let dir = tempfile::tempdir().unwrap();
        let standin = standin().await;
        let vars = page_vars(&standin, true, &[("DAMAS_WEB_LISTEN", "127.0.0.1:0")]);
        let process = BotProcess::start_with_env(
            &standin,
            &dir.path().join("db"),
            "warn,serenity=error",
            &borrowed(&vars),
        )
        .await;
        let mut listening = None;
        for _ in 0..100 {
            listening = process.printed("board page listening on ").first().cloned();
            if listening.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let addr = listening
            .expect("damas bot says where the board page listens")
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
        BoardServer {
            process,
            standin,
            base: format!("http://{addr}"),
            _dir: dir,
        }
    }

    /// `damas serve`'s interactions endpoint.
    pub fn url(&self) -> &str {
        &self.process.url
    }

    /// A game begun in a new channel of the test's server: alice (White) challenged bob, who
    /// accepted, over HTTP interactions.
    pub async fn new_game(&self) -> Players {
        let players = Players {
            alice: TestUser::random("alice"),
            bob: TestUser::random("bob"),
            place: Place::guild(super::bot::GUILD, snowflake()),
        };
        self.challenge_accepted(&players.alice, &players.bob, players.place)
            .await;
        players
    }

    /// `alice` (White) challenges `bob` in `place` and bob accepts, over HTTP interactions.
    pub async fn challenge_accepted(&self, alice: &TestUser, bob: &TestUser, place: Place) {
        let standin = &self.standin;
        let challenge = standin.slash(alice, place, Slash::challenge(bob).with("colour", "white"));
        let (sent, answered) = standin.post_interaction(self.url(), challenge).await;
        answer_text(standin, &sent, &answered).await;
        let message = standin.original_message(&sent);
        let accept = standin.button_click(
            bob,
            &message,
            &custom_id_starting(&message, "damas:accept:"),
        );
        let (sent, answered) = standin.post_interaction(self.url(), accept).await;
        answer_text(standin, &sent, &answered).await;
    }
}

/// The words an interaction posted by HTTP was answered with (at once, or completed later).
pub async fn answer_text(
    standin: &StandIn,
    sent: &SentInteraction,
    answered: &HttpAnswered,
) -> String {
    assert_eq!(answered.status, 200, "{:?}", answered.body);
    let token = sent.token.clone();
    match answered.body["type"].as_u64() {
        Some(5) => {
            let t = token.clone();
            let r = standin
                .next_request(move |r| {
                    r.method == "PATCH"
                        && matches!(&r.route, Route::Original { token: x } if *x == t)
                })
                .await;
            text(&r)
        }
        Some(6) => {
            let r = standin
                .next_request(move |r| {
                    r.method == "POST"
                        && matches!(&r.route, Route::Followup { token: x } if *x == token)
                })
                .await;
            text(&r)
        }
        _ => text_of(&answered.body["data"]),
    }
}

/// An answer's status and JSON body.
pub async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let body = response.bytes().await.expect("a body");
    let value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    (status, value)
}

/// The Activity's sign-in as its page sends it (`POST /board/session`): the answer.
pub async fn sign_in_answer(base: &str, code: &str, channel: u64) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{base}/board/session"))
        .header("content-type", "application/json")
        .body(json!({"code": code, "channel": channel.to_string()}).to_string())
        .send()
        .await
        .expect("the page answers")
}

/// The same: its status and JSON body.
pub async fn sign_in(base: &str, code: &str, channel: u64) -> (u16, Value) {
    json_of(sign_in_answer(base, code, channel).await).await
}

/// A move POSTed to the page's API as its script does, with `key` if any: its status.
pub async fn post_move(base: &str, channel: u64, key: Option<&str>, notation: &str) -> u16 {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/board/{channel}/move"))
        .body(notation.to_string());
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request
        .send()
        .await
        .expect("the page answers")
        .status()
        .as_u16()
}
