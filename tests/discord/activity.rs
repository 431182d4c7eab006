//! The board page as a Discord Activity, over a `damas serve` child process and the Discord
//! stand-in, at the HTTP level (no browser: what the page's script would send): the App
//! Launcher's entry point registered and answered with LAUNCH_ACTIVITY, so is the game's
//! "Open the board" button; the sign-in's code exchanged with Discord's OAuth2 for who
//! signed in (a wrong code or secret refused clearly, changing nothing); the key it gives
//! lets that player move in the game of the Activity's channel and anyone else only watch;
//! the Activity's page framable by Discord only, the plain page by nobody. Sign-ins past
//! their limits (all channels', one channel's) are told to wait without asking Discord;
//! Discord's token endpoint failing (5xx, 429 with its wait, no answer, a hang-up) is said
//! clearly, gives nothing and changes nothing.

use crate::support::board::{self, json_of, sign_in, sign_in_answer, BoardServer, Players};
use crate::support::bot::*;
use crate::support::stand_in::*;
use crate::support::store::optional;
use damas::engine::{legal_notations, Game, Variant};
use damas::web::activity::{Activity, ActivityKeys, SignIn};
use damas::web::limit;
use serde_json::{json, Value};
use std::time::Duration;

async fn json_body(response: reqwest::Response) -> Value {
    json_of(response).await.1
}

/// The page's state of `channel` for `key` (through the path Discord's proxy uses).
async fn state(base: &str, channel: u64, key: Option<&str>) -> Value {
    let mut request = reqwest::Client::new().get(format!("{base}/activity/board/{channel}/state"));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("the page answers");
    assert_eq!(response.status().as_u16(), 200);
    json_body(response).await
}

/// A move posted as the page does (through the path Discord's proxy uses), with `key` if
/// any: its status.
async fn post_move(base: &str, channel: u64, key: Option<&str>, notation: &str) -> u16 {
    board::post_move(&format!("{base}/activity"), channel, key, notation).await
}

/// The Activity's sign-in in this process, at the stand-in, with `secret`.
fn activity_with(standin: &StandIn, secret: &str) -> Activity {
    Activity::new(
        ActivityKeys::new(standin.application_id(), secret),
        Some(&standin.base_url()),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_activity_launches_signs_in_through_discord_and_shows_the_channels_game() {
    let server = BoardServer::serve(true, &[]).await;
    let (standin, base) = (&server.standin, server.base.as_str());
    let client_id = standin.application_id().to_string();

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
        .post_interaction(server.url(), standin.entry_point(&carol, place))
        .await;
    assert_eq!(answered.status, 200);
    assert_eq!(answered.body["type"], json!(12), "{}", answered.body);

    // alice (White) challenges bob, who accepts.
    server.challenge_accepted(&alice, &bob, place).await;

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
    let (_, answered) = standin.post_interaction(server.url(), click).await;
    assert_eq!(answered.body["type"], json!(12), "{}", answered.body);

    // Codes Discord never gave, or gave once, are refused clearly; nothing is given.
    let game = Game::new(Variant::Spanish);
    let before = state(base, channel, None).await;
    assert_eq!(before["ply"], json!(0));
    for code in ["made-up", ""] {
        let (status, said) = sign_in(base, code, channel).await;
        assert!(status == 401 || status == 400, "{code:?}: {status} {said}");
        assert_eq!(said["ok"], json!(false));
        assert!(said.get("key").is_none() && said.get("access_token").is_none());
    }
    let (status, said) = sign_in(base, "made-up", channel).await;
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
    let (status, alice_in) = sign_in(base, &code, channel).await;
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
    let (status, _) = sign_in(base, &code, channel).await;
    assert_eq!(status, 401);

    // bob is the other player; carol holds no seat and only watches.
    let (_, bob_in) = sign_in(base, &standin.authorize(&bob), channel).await;
    let bob_key = bob_in["key"].as_str().expect("a player's key").to_string();
    let (status, carol_in) = sign_in(base, &standin.authorize(&carol), channel).await;
    assert_eq!(status, 200);
    assert_eq!(carol_in["key"], Value::Null, "a spectator gets no key");
    // In a channel without a game, nobody gets a key.
    let (status, elsewhere) = sign_in(base, &standin.authorize(&alice), snowflake()).await;
    assert_eq!(status, 200);
    assert_eq!(elsewhere["key"], Value::Null);

    let seen = state(base, channel, Some(&alice_key)).await;
    assert_eq!(seen["viewer"], json!("player"));
    assert_eq!(seen["you"], json!("white"));
    assert!(
        !seen["moves"].as_array().unwrap().is_empty(),
        "alice's turn"
    );
    assert_eq!(
        state(base, channel, Some(&bob_key)).await["viewer"],
        json!("player")
    );
    assert_eq!(
        state(base, channel, None).await["viewer"],
        json!("spectator")
    );

    // Only the player to move moves: not bob out of turn, not a spectator.
    let (_, first) = legal_notations(game.position())[0].clone();
    assert_eq!(post_move(base, channel, Some(&bob_key), &first).await, 409);
    assert_eq!(post_move(base, channel, None, &first).await, 403);
    assert_eq!(state(base, channel, None).await["ply"], json!(0));
    assert_eq!(
        post_move(base, channel, Some(&alice_key), &first).await,
        200
    );
    assert_eq!(state(base, channel, None).await["ply"], json!(1));

    // A wrong client secret is refused by Discord, and the code it carried is not used up.
    let code = standin.authorize(&carol);
    let given = standin.access_tokens_given();
    let wrong = activity_with(standin, "not the secret");
    assert_eq!(
        wrong.sign_in(&code, channel).await.err(),
        Some(SignIn::Refused)
    );
    assert_eq!(standin.access_tokens_given(), given);
    let right = activity_with(standin, standin.client_secret());
    assert_eq!(
        right.sign_in(&code, channel).await.map(|s| s.user).ok(),
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

/// The sign-in's refusal for Discord's sake: its status, `Retry-After` (seconds) and words.
async fn sign_in_refused(base: &str, code: &str, channel: u64) -> (u16, Option<u64>, String) {
    let response = sign_in_answer(base, code, channel).await;
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().expect("whole seconds"));
    let (status, said) = json_of(response).await;
    assert_eq!(said["ok"], json!(false), "{said}");
    assert!(
        said.get("key").is_none() && said.get("access_token").is_none(),
        "nothing is given: {said}"
    );
    let words = said["message"]
        .as_str()
        .expect("words for the page")
        .to_string();
    (status, retry_after, words)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_past_the_limit_wait_and_cost_discord_nothing() {
    let server = BoardServer::serve(true, &[("DAMAS_ACTIVITY_SIGN_INS", "3")]).await;
    let (standin, base) = (&server.standin, server.base.as_str());
    // Three sign-ins in three channels reach Discord (their codes are refused there)…
    for _ in 0..3 {
        let (status, said) = sign_in(base, "made-up", snowflake()).await;
        assert_eq!(status, 401, "{said}");
    }
    assert_eq!(standin.token_exchanges(), 3);
    // …the fourth, with a good code, is told to wait (3 a minute: one every 20 s), and
    // Discord is not asked: its code is still good afterwards.
    let alice = TestUser::random("alice");
    let code = standin.authorize(&alice);
    let (status, retry_after, words) = sign_in_refused(base, &code, snowflake()).await;
    assert_eq!(status, 429);
    assert_eq!(retry_after, Some(20));
    assert!(
        words.contains("Many people are opening the board") && words.contains("20"),
        "{words}"
    );
    assert_eq!(standin.token_exchanges(), 3);
    assert_eq!(standin.access_tokens_given(), 0);
    // In Spanish too.
    let spanish = reqwest::Client::new()
        .post(format!("{base}/board/session"))
        .header("accept-language", "es-ES")
        .header("content-type", "application/json")
        .body(json!({"code": code, "channel": "1"}).to_string())
        .send()
        .await
        .unwrap();
    let (status, said) = json_of(spanish).await;
    assert_eq!(status, 429);
    assert!(
        said["message"]
            .as_str()
            .unwrap()
            .contains("Vuelve a intentarlo"),
        "{said}"
    );
    assert_eq!(standin.token_exchanges(), 3);

    // The limit per channel, on the same code as the page's: 10 at once in one channel,
    // while another channel still signs in.
    let activity = activity_with(standin, standin.client_secret());
    let channel = snowflake();
    for _ in 0..limit::CHANNEL_SIGN_INS.burst as usize {
        assert_eq!(
            activity.sign_in("made-up", channel).await.err(),
            Some(SignIn::Refused)
        );
    }
    let asked = standin.token_exchanges();
    assert!(matches!(
        activity.sign_in(&code, channel).await,
        Err(SignIn::Limited(_))
    ));
    assert_eq!(standin.token_exchanges(), asked, "Discord is not asked");
    let signed_in = activity.sign_in(&code, snowflake()).await;
    assert_eq!(signed_in.map(|s| s.user).ok(), Some(alice.id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_failing_to_sign_in_gives_nothing_and_changes_nothing() {
    let server = BoardServer::serve(true, &[]).await;
    let (standin, base) = (&server.standin, server.base.as_str());
    let Players { alice, place, .. } = server.new_game().await;
    let channel = place.channel;
    let game_now = |state: Value| (state["ply"].clone(), state["over"].clone());
    let before = game_now(state(base, channel, None).await);
    let code = standin.authorize(&alice);

    // Discord's token endpoint fails (5xx): Discord could not be reached.
    for status in [500, 502, 503] {
        let fault = standin.inject(FaultRoute::OAuthToken, FaultAction::ServerError(status), 1);
        let (answered, retry_after, words) = sign_in_refused(base, &code, channel).await;
        assert_eq!(standin.fault_hits(fault), 1);
        assert_eq!((answered, retry_after), (502, None), "Discord's {status}");
        assert!(words.contains("Discord could not be reached"), "{words}");
    }

    // Discord says to wait (429, retry_after 1.5 s): the page is told so, and no sign-in
    // asks Discord again until then.
    let fault = standin.inject(
        FaultRoute::OAuthToken,
        FaultAction::RateLimited { retry_after: 1.5 },
        1,
    );
    let (answered, retry_after, words) = sign_in_refused(base, &code, channel).await;
    assert_eq!(standin.fault_hits(fault), 1);
    assert_eq!((answered, retry_after), (503, Some(2)));
    assert!(words.contains("Discord could not be reached"), "{words}");
    let asked = standin.token_exchanges();
    let (answered, retry_after, _) = sign_in_refused(base, &code, channel).await;
    assert_eq!(answered, 503);
    assert!(
        retry_after.is_some_and(|s| (1..=2).contains(&s)),
        "{retry_after:?}"
    );
    assert_eq!(
        standin.token_exchanges(),
        asked,
        "Discord is not asked meanwhile"
    );

    // Nothing was given and nothing changed: no access token, the same game, and the code
    // still good once Discord's wait is over.
    assert_eq!(standin.access_tokens_given(), 0);
    assert_eq!(game_now(state(base, channel, None).await), before);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, alice_in) = sign_in(base, &code, channel).await;
    assert_eq!(status, 200, "{alice_in}");
    assert!(alice_in["key"].is_string(), "{alice_in}");
    assert_eq!(game_now(state(base, channel, None).await), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_endpoint_that_hangs_or_hangs_up_is_unreachable() {
    let standin = StandIn::start_with(Config::default()).await;
    let alice = TestUser::random("alice");
    let activity =
        activity_with(&standin, standin.client_secret()).answer_within(Duration::from_millis(500));
    // No answer in time (the stand-in holds the request far longer).
    let fault = standin.inject(
        FaultRoute::OAuthToken,
        FaultAction::Delay(Duration::from_secs(30)),
        1,
    );
    let code = standin.authorize(&alice);
    assert_eq!(
        activity.sign_in(&code, 1).await.err(),
        Some(SignIn::Unreachable)
    );
    assert_eq!(standin.fault_hits(fault), 1);
    // The connection dropped unanswered.
    let fault = standin.inject(FaultRoute::OAuthToken, FaultAction::HangUp, 1);
    let code = standin.authorize(&alice);
    assert_eq!(
        activity.sign_in(&code, 2).await.err(),
        Some(SignIn::Unreachable)
    );
    assert_eq!(standin.fault_hits(fault), 1);
    assert_eq!(standin.access_tokens_given(), 0);
    // The code the hang-up left unused still signs in.
    assert_eq!(
        activity.sign_in(&code, 2).await.map(|s| s.user).ok(),
        Some(alice.id)
    );
}
