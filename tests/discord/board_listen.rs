//! `damas bot` (the gateway) with `DAMAS_WEB_LISTEN`: the process that runs the bot serves
//! the board page and the Activity on that listener — the game of a channel played in
//! Discord is on its page, a player signed in through Discord gets their key there, and a
//! move made with it is posted in the channel; the page's resign button ends the game as
//! the one in Discord does.

use crate::support::board::{json_of, post_move, sign_in, BoardServer};
use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::engine::{legal_notations, Game, Variant};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damas_bot_serves_the_board_page_and_the_activity_on_its_listener() {
    let server = BoardServer::bot().await;
    let (standin, base) = (&server.standin, server.base.as_str());

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
    let (status, signed_in) = sign_in(base, &code, channel).await;
    assert_eq!(status, 200, "{signed_in}");
    let key = signed_in["key"].as_str().expect("alice's key").to_string();
    let game = Game::new(Variant::Spanish);
    let (_, first) = legal_notations(game.position())[0].clone();
    assert_eq!(post_move(base, channel, Some(&key), &first).await, 200);
    // The move is in Discord: the new board posted in the channel.
    standin.next_request(bot_post_in(channel)).await;

    // Resigning from the page (bob's turn now) ends the game, as the button in Discord does.
    let (_, bob_in) = sign_in(base, &standin.authorize(&bob), channel).await;
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
