//! `damas bot` (the gateway) with `DAMAS_WEB_LISTEN`: the process that runs the bot serves
//! the board page and the Activity on that listener — the game of a channel played in
//! Discord is on its page, a player signed in through Discord gets their key there, and a
//! move made with it is posted in the channel; the page's resign button ends the game as
//! the one in Discord does.

use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::engine::{legal_notations, Game, Variant};
use serde_json::{json, Value};
use std::time::Duration;

const SECRET: &str = "a board secret for the tests, long enough";

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let body = response.bytes().await.expect("a body");
    let value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    (status, value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damas_bot_serves_the_board_page_and_the_activity_on_its_listener() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await;
    let client_id = standin.application_id().to_string();
    let bot = BotProcess::start_with_env(
        &standin,
        &dir.path().join("db"),
        "warn,serenity=error",
        &[
            ("DAMAS_WEB_LISTEN", "127.0.0.1:0"),
            ("DAMAS_PUBLIC_URL", "http://localhost:9"),
            ("DAMAS_WEB_SECRET", SECRET),
            ("DISCORD_CLIENT_ID", &client_id),
            ("DISCORD_CLIENT_SECRET", standin.client_secret()),
        ],
    )
    .await;
    let mut listening = None;
    for _ in 0..100 {
        listening = bot.printed("board page listening on ").first().cloned();
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
    let base = format!("http://{addr}");

    // A game played in Discord, over the gateway.
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");
    let place = Place::guild(GUILD, snowflake());
    let channel = place.channel;
    let accepted = standin
        .challenge_accepted(
            &alice,
            &bob,
            place,
            Slash::challenge(&bob).with("colour", "white"),
        )
        .await;
    standin.callback(&accepted).await;

    // Its page, through the listener.
    let (status, state) = json_of(
        reqwest::get(format!("{base}/board/{channel}/state"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["ply"], json!(0));
    assert_eq!(state["viewer"], json!("spectator"));

    // alice signs in as in the Activity, and moves with the key she is given.
    let code = standin.authorize(&alice);
    let (status, signed_in) = json_of(
        reqwest::Client::new()
            .post(format!("{base}/board/session"))
            .header("content-type", "application/json")
            .body(json!({"code": code, "channel": channel.to_string()}).to_string())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{signed_in}");
    let key = signed_in["key"].as_str().expect("alice's key").to_string();
    let game = Game::new(Variant::Spanish);
    let (_, first) = legal_notations(game.position())[0].clone();
    let moved = reqwest::Client::new()
        .post(format!("{base}/board/{channel}/move"))
        .bearer_auth(&key)
        .body(first)
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status().as_u16(), 200);
    // The move is in Discord: the new board posted in the channel.
    standin.next_request(bot_post_in(channel)).await;

    // Resigning from the page (bob's turn now) ends the game, as the button in Discord does.
    let (_, bob_in) = json_of(
        reqwest::Client::new()
            .post(format!("{base}/board/session"))
            .header("content-type", "application/json")
            .body(
                json!({"code": standin.authorize(&bob), "channel": channel.to_string()})
                    .to_string(),
            )
            .send()
            .await
            .unwrap(),
    )
    .await;
    let bob_key = bob_in["key"].as_str().expect("bob's key").to_string();
    // Without a key, nobody resigns.
    let refused = reqwest::Client::new()
        .post(format!("{base}/board/{channel}/resign"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let resigned = reqwest::Client::new()
        .post(format!("{base}/board/{channel}/resign"))
        .bearer_auth(&bob_key)
        .send()
        .await
        .unwrap();
    assert_eq!(resigned.status().as_u16(), 200);
    let (_, state) = json_of(
        reqwest::get(format!("{base}/board/{channel}/state"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(state["over"], json!(true), "{state}");
    standin.assert_no_refusals();
}
