//! A three-move ballot game through Discord (the stand-in): the option is registered with its
//! choices, the challenge names the drawn opening, the first board shows the position after
//! its three plies, and `/pdn` records it.

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
    let values: Vec<&str> = opening["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["value"].as_str())
        .collect();
    assert_eq!(values, ["free", "ballot"]);
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
    assert!(text(&cb).contains(&expected.to_string()), "{}", text(&cb));
    let challenge = standin.original_message(&sent);
    let accept = custom_id_starting(&challenge, "damas:accept:");

    let click = standin
        .send_interaction(standin.button_click(&bob, &challenge, &accept))
        .await;
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert!(
        text(&cb).contains(&format!("Three-move ballot: {expected}")),
        "{}",
        text(&cb)
    );
    // White (bob) to move, after Black's two plies and White's one.
    let after = expected.position();
    assert_eq!(after.variant(), Variant::English);
    assert_picture_shows(&board_png(&cb), &after, Color::White);
    assert!(text(&cb).contains("bob"), "{}", text(&cb));

    let pdn = standin.send_slash(&alice, place, Slash::named("pdn")).await;
    // The replay GIF may take long enough (on a busy machine) for the answer to be deferred.
    let cb = standin.callback(&pdn).await;
    let cb = match cb.callback_type() {
        Some(5) => standin.original_edit(&pdn).await,
        _ => cb,
    };
    let file = cb
        .files
        .iter()
        .find(|f| f.filename.ends_with(".pdn"))
        .expect("a .pdn file");
    let pdn = String::from_utf8(file.bytes.clone()).unwrap();
    assert!(
        pdn.contains(&format!("[Opening \"Three-move ballot: {expected}\"]")),
        "{pdn}"
    );
    let n = expected.notations();
    assert!(
        pdn.contains(&format!("1. {} {} 2. {}", n[0], n[1], n[2])),
        "{pdn}"
    );
    standin.assert_no_refusals();
    bot.stop().await;
}
