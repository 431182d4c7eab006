//! A three-move ballot game through Discord (the stand-in): the option is registered with its
//! choices, the challenge names the drawn opening, the first board shows the position after
//! its three plies, and `/pdn` records it.

use crate::support::app::assert_pdn_opens_with;
use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::app::ballot;
use damas::engine::{Color, Variant};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The bot's seed in `start_bot` (`support::bot`): it seeds the ballot's draw too.
const BOT_SEED: u64 = 11;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ballot_challenge_starts_from_the_drawn_opening() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;

    let put = standin.commands_put().await;
    let challenge_cmd = put
        .body()
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "challenge")
        .expect("challenge registered")
        .clone();
    let opening = challenge_cmd["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "opening")
        .expect("the opening option");
    assert_eq!(values_of(&opening["choices"]), ["free", "ballot"]);
    assert_eq!(opening["name_localizations"]["es-ES"], "apertura");

    let deck = ballot::deck().expect("the deck reads");
    let expected = deck
        .draw(&mut SmallRng::seed_from_u64(BOT_SEED))
        .expect("a kept opening")
        .clone();
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");
    let place = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(
            &alice,
            place,
            Slash::challenge(&bob)
                .with("variant", "english")
                .with("colour", "black")
                .with("opening", "ballot"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, &expected.to_string());
    let challenge = standin.original_message(&sent);
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, &format!("Three-move ballot: {expected}"));
    // White (bob) to move, after Black's two plies and White's one.
    let after = expected.position();
    assert_eq!(after.variant(), Variant::English);
    assert_picture_shows(&board_png(&cb), &after, Color::White);
    assert_says(&cb, "bob");

    let pdn = standin.pdn_text(&alice, place).await;
    assert_pdn_opens_with(&pdn, &expected, "");
    standin.assert_no_refusals();
    bot.stop().await;
}
