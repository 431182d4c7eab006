//! The board page as a Discord Activity, over a `damas serve` child process and the Discord
//! stand-in, at the HTTP level (no browser: what the page's script would send): the App
//! Launcher's entry point registered and answered with LAUNCH_ACTIVITY, so is the game's
//! "Open the board" button; the sign-in's code exchanged with Discord's OAuth2 for who
//! signed in (a wrong code or secret refused clearly, changing nothing); the key it gives
//! lets that player move in the game of the Activity's channel and anyone else only watch;
//! the Activity's page framable by Discord only, the plain page by nobody.

use crate::support::bot::*;
use crate::support::stand_in::http_mode::HttpAnswered;
use crate::support::stand_in::*;
use crate::support::store::optional;
use damas::engine::{legal_notations, Game, Variant};
use damas::web::activity::{Activity, ActivityKeys, SignIn};
use serde_json::{json, Value};
use std::time::Duration;

const SECRET: &str = "a board secret for the tests, long enough";
const PUBLIC_URL: &str = "http://localhost:9";

/// The words an interaction posted by HTTP was answered with (at once, or completed later).
async fn answered_text(standin: &StandIn, sent: &SentInteraction, answered: &HttpAnswered) {
    assert_eq!(answered.status, 200, "{:?}", answered.body);
    let token = sent.token.clone();
    match answered.body["type"].as_u64() {
        Some(5) => {
            standin
                .next_request(move |r| {
                    r.method == "PATCH"
                        && matches!(&r.route, Route::Original { token: x } if *x == token)
                })
                .await;
        }
        Some(6) => {
            standin
                .next_request(move |r| {
                    r.method == "POST"
                        && matches!(&r.route, Route::Followup { token: x } if *x == token)
                })
                .await;
        }
        _ => {}
    }
}

async fn json_of(response: reqwest::Response) -> Value {
    let body = response.bytes().await.expect("a body");
    serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"))
}

/// The Activity's sign-in as its page sends it: the status and the JSON answer.
async fn sign_in(base: &str, code: &str, channel: u64) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base}/board/session"))
        .header("content-type", "application/json")
        .body(json!({"code": code, "channel": channel.to_string()}).to_string())
        .send()
        .await
        .expect("the page answers");
    let status = response.status().as_u16();
    (status, json_of(response).await)
}

/// The page's state of `channel` for `key` (through the path Discord's proxy uses).
async fn state(base: &str, channel: u64, key: Option<&str>) -> Value {
    let mut request = reqwest::Client::new().get(format!("{base}/activity/board/{channel}/state"));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("the page answers");
    assert_eq!(response.status().as_u16(), 200);
    json_of(response).await
}

/// A move posted as the page does, with `key` if any: its status.
async fn post_move(base: &str, channel: u64, key: Option<&str>, notation: &str) -> u16 {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/activity/board/{channel}/move"))
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_activity_launches_signs_in_through_discord_and_shows_the_channels_game() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await;
    let client_id = standin.application_id().to_string();
    let serve = BotProcess::serve_with(
        &standin,
        dir.path().join("db").to_str().unwrap(),
        dir.path(),
        &[
            ("DAMAS_PUBLIC_URL", PUBLIC_URL),
            ("DAMAS_WEB_SECRET", SECRET),
            ("DISCORD_CLIENT_ID", &client_id),
            ("DISCORD_CLIENT_SECRET", standin.client_secret()),
        ],
    )
    .await;
    let base = serve.url.trim_end_matches("/interactions").to_string();

    // The entry point is registered globally (the other commands go to the test's server),
    // answered by the app itself.
    let registered = standin
        .next_request(|r| r.method == "POST" && matches!(r.route, Route::Commands { guild: None }))
        .await;
    assert_eq!(registered.status, 200, "{}", registered.summary());
    let entry = registered.body();
    assert_eq!(entry["type"], json!(4), "{entry}");
    assert_eq!(entry["handler"], json!(1), "{entry}");
    standin.assert_no_refusals();

    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");
    let carol = TestUser::random("carol");
    let place = Place::guild(GUILD, snowflake());
    let channel = place.channel;

    // From the App Launcher: LAUNCH_ACTIVITY.
    let (_, answered) = standin
        .post_interaction(&serve.url, standin.entry_point(&carol, place))
        .await;
    assert_eq!(answered.status, 200);
    assert_eq!(answered.body["type"], json!(12), "{}", answered.body);

    // alice (White) challenges bob, who accepts.
    let challenge = standin.slash(
        &alice,
        place,
        Slash::challenge(&bob).with("colour", "white"),
    );
    let (sent, answered) = standin.post_interaction(&serve.url, challenge).await;
    answered_text(&standin, &sent, &answered).await;
    let message = standin.original_message(&sent);
    let accept = standin.button_click(
        &bob,
        &message,
        &custom_id_starting(&message, "damas:accept:"),
    );
    let (sent, answered) = standin.post_interaction(&serve.url, accept).await;
    answered_text(&standin, &sent, &answered).await;

    // The game's "Open the board" button launches the Activity too.
    let board = standin
        .messages_in(channel)
        .into_iter()
        .rev()
        .find(|m| {
            custom_ids(m)
                .iter()
                .any(|id| id.starts_with("damas:board:"))
        })
        .expect("a board with its Open the board button");
    let click = standin.button_click(&bob, &board, &custom_id_starting(&board, "damas:board:"));
    let (_, answered) = standin.post_interaction(&serve.url, click).await;
    assert_eq!(answered.body["type"], json!(12), "{}", answered.body);

    // Codes Discord never gave, or gave once, are refused clearly; nothing is given.
    let game = Game::new(Variant::Spanish);
    let before = state(&base, channel, None).await;
    assert_eq!(before["ply"], json!(0));
    for code in ["made-up", ""] {
        let (status, said) = sign_in(&base, code, channel).await;
        assert!(status == 401 || status == 400, "{code:?}: {status} {said}");
        assert_eq!(said["ok"], json!(false));
        assert!(said.get("key").is_none() && said.get("access_token").is_none());
    }
    let (status, said) = sign_in(&base, "made-up", channel).await;
    assert_eq!(status, 401);
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .contains("Discord did not confirm"),
        "{said}"
    );
    assert_eq!(standin.access_tokens_given(), 0);

    // alice signs in: her access token, and her key to this channel's game.
    let code = standin.authorize(&alice);
    let (status, alice_in) = sign_in(&base, &code, channel).await;
    assert_eq!(status, 200, "{alice_in}");
    assert_eq!(alice_in["user"], json!(alice.id.to_string()));
    assert!(alice_in["access_token"]
        .as_str()
        .is_some_and(|t| !t.is_empty()));
    let alice_key = alice_in["key"]
        .as_str()
        .expect("a player's key")
        .to_string();
    // The same code twice: Discord takes it once.
    let (status, _) = sign_in(&base, &code, channel).await;
    assert_eq!(status, 401);

    // bob is the other player; carol holds no seat and only watches.
    let (_, bob_in) = sign_in(&base, &standin.authorize(&bob), channel).await;
    let bob_key = bob_in["key"].as_str().expect("a player's key").to_string();
    let (status, carol_in) = sign_in(&base, &standin.authorize(&carol), channel).await;
    assert_eq!(status, 200);
    assert_eq!(carol_in["key"], Value::Null, "a spectator gets no key");
    // In a channel without a game, nobody gets a key.
    let (status, elsewhere) = sign_in(&base, &standin.authorize(&alice), snowflake()).await;
    assert_eq!(status, 200);
    assert_eq!(elsewhere["key"], Value::Null);

    let seen = state(&base, channel, Some(&alice_key)).await;
    assert_eq!(seen["viewer"], json!("player"));
    assert_eq!(seen["you"], json!("white"));
    assert!(
        !seen["moves"].as_array().unwrap().is_empty(),
        "alice's turn"
    );
    assert_eq!(
        state(&base, channel, Some(&bob_key)).await["viewer"],
        json!("player")
    );
    assert_eq!(
        state(&base, channel, None).await["viewer"],
        json!("spectator")
    );

    // Only the player to move moves: not bob out of turn, not a spectator.
    let (_, first) = legal_notations(game.position())[0].clone();
    assert_eq!(post_move(&base, channel, Some(&bob_key), &first).await, 409);
    assert_eq!(post_move(&base, channel, None, &first).await, 403);
    assert_eq!(state(&base, channel, None).await["ply"], json!(0));
    assert_eq!(
        post_move(&base, channel, Some(&alice_key), &first).await,
        200
    );
    assert_eq!(state(&base, channel, None).await["ply"], json!(1));

    // A wrong client secret is refused by Discord, and the code it carried is not used up.
    let code = standin.authorize(&carol);
    let given = standin.access_tokens_given();
    let wrong = Activity::new(
        ActivityKeys::new(standin.application_id(), "not the secret"),
        Some(&standin.base_url()),
    );
    assert_eq!(wrong.sign_in(&code).await.err(), Some(SignIn::Refused));
    assert_eq!(standin.access_tokens_given(), given);
    let right = Activity::new(
        ActivityKeys::new(standin.application_id(), standin.client_secret()),
        Some(&standin.base_url()),
    );
    assert_eq!(
        right.sign_in(&code).await.map(|s| s.user).ok(),
        Some(carol.id)
    );

    // The Activity's page may be framed by Discord, the plain page by nobody.
    let page = reqwest::get(format!("{base}/activity/")).await.unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("frame-ancestors https://discord.com"), "{csp}");
    assert!(!csp.contains("'unsafe"), "{csp}");
    assert!(page.headers().get("x-frame-options").is_none());
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!(r#"data-client-id="{client_id}""#)));
    let plain = reqwest::get(format!("{base}/board/{channel}"))
        .await
        .unwrap();
    let plain_csp = plain.headers()["content-security-policy"].to_str().unwrap();
    assert!(plain_csp.contains("frame-ancestors 'none'"), "{plain_csp}");
    assert_eq!(plain.headers()["x-frame-options"], "DENY");

    // The script the Activity needs is served when it was built (`npm run build` in web/,
    // which CI runs); without it the page says so plainly.
    if html.contains("/board/static/activity.js") {
        let script = reqwest::get(format!("{base}/board/static/activity.js"))
            .await
            .unwrap();
        assert_eq!(script.status().as_u16(), 200);
    } else {
        assert!(html.contains("without the Activity"), "{html}");
        optional::skip("the Activity's script was not built (npm ci && npm run build in web/)");
    }
    // Discord refused nothing but the sign-ins meant to be refused.
    let refused: Vec<String> = standin
        .refusals()
        .iter()
        .filter(|r| r.route != Route::OAuthToken)
        .map(Recorded::summary)
        .collect();
    assert!(refused.is_empty(), "{refused:#?}");
}
