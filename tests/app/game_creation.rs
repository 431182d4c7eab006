//! `/play` in a channel asks the store nothing before it creates the game: the creation
//! itself refuses a busy channel, with the words the check before it used to give, and
//! changes nothing.

use crate::support::app::*;
use damas::app::Action;
use damas::engine::{Color, Variant};

#[tokio::test]
async fn play_in_a_busy_channel_is_refused_and_changes_nothing() {
    let w = world();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    let a = w
        .app
        .challenge(
            &alice,
            PLACE,
            &user(&bob),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&bob, PLACE, &accept, &[]).await;
    let game = w
        .active_game(PLACE.channel_id)
        .expect("a game between people");

    let refused = play_easy_bot_as_black(&w.app, &carol, PLACE).await;
    assert!(only(&refused).is_private());
    assert_eq!(
        only(&refused).text,
        "There is already a game in this channel. Finish it first, or play in another channel \
         or thread."
    );
    assert_eq!(
        w.active_game(PLACE.channel_id),
        Some(game),
        "the game is as it was"
    );
    assert!(
        w.app
            .store()
            .playing(carol.user_id)
            .unwrap()
            .games
            .is_empty(),
        "carol plays nothing"
    );
}
