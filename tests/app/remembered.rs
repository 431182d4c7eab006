//! `/move` plays on the game as this process last saw it, without reading it again: two
//! processes sharing PostgreSQL each remember the game as they last left it, so each must
//! fall back on the stored game whenever its copy is outdated — neither refusing a move the
//! stored game allows, nor making one on the outdated copy.

use crate::support::app::{actor, button_id, only, seeded, user};
use damas::app::boot::boot;
use damas::app::{Action, Actor, App, Place};
use damas::engine::{Color, Variant};
use std::path::Path;

const PLACE: Place = Place {
    guild_id: Some(1),
    channel_id: 30,
};

/// The first legal move of the stored game, in notation.
fn first_legal_move(app: &App) -> String {
    let rec = app.store().active_game(PLACE.channel_id).unwrap().unwrap();
    let game = rec.to_game().unwrap();
    let position = game.position();
    position.move_notation(&position.legal_moves()[0])
}

/// `who` plays the stored game's first legal move through `app`: it is made (a public
/// board), and the stored game is one ply further on.
async fn plays(app: &App, who: &Actor, stored: &App) {
    let before = stored
        .store()
        .active_game(PLACE.channel_id)
        .unwrap()
        .unwrap();
    let mv = first_legal_move(stored);
    let answer = app.play_move(who, PLACE, &mv).await;
    assert!(
        !only(&answer).is_private(),
        "{} playing {mv} at ply {}: {}",
        who.name,
        before.ply(),
        only(&answer).text
    );
    let after = stored
        .store()
        .active_game(PLACE.channel_id)
        .unwrap()
        .unwrap();
    assert_eq!(after.ply(), before.ply() + 1, "one move, made once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_an_outdated_copy_is_played_on_the_stored_game() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let db = server.fresh_database();
    let a = boot(Path::new(&db), seeded(1)).expect("process a");
    let b = boot(Path::new(&db), seeded(2)).expect("process b");
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let challenge = a
        .challenge(
            &alice,
            PLACE,
            &user(&bob),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&challenge), Action::Accept);
    a.component(&bob, PLACE, &accept, &[]).await;

    // a makes alice's move and remembers the game with bob to move.
    plays(&a, &alice, &b).await;
    // bob moves through b: a's copy still says bob is to move, and would refuse alice.
    plays(&b, &bob, &b).await;
    plays(&a, &alice, &b).await;
    // Two moves through b: a's copy has bob to move, as the stored game has, but two plies
    // behind — its move is refused by the store's compare-and-swap, or by the copy as
    // illegal; either way it is played on the stored game.
    plays(&b, &bob, &b).await;
    plays(&b, &alice, &b).await;
    plays(&a, &bob, &b).await;

    // And a refusal the stored game makes too stays a refusal, changing nothing.
    let stored = b.store().active_game(PLACE.channel_id).unwrap().unwrap();
    let answer = a.play_move(&bob, PLACE, &first_legal_move(&b)).await;
    assert!(only(&answer).is_private(), "{}", only(&answer).text);
    assert_eq!(
        b.store().active_game(PLACE.channel_id).unwrap().unwrap(),
        stored
    );
    assert_eq!(stored.ply(), 6);
}
