//! `/forget-me`: nothing is erased without the person's own confirmation; then their name and
//! id leave every game, record and leaderboard.

use crate::support::app::*;
use damas::app::commands::{find, Invocation};
use damas::app::{Action, Actor, App, Place, Reply, Settings, UserRef};
use damas::engine::{Color, Variant};
use damas::store::{Seat, Store};

const PLACE: Place = Place {
    guild_id: Some(10),
    channel_id: 20,
};

/// alice (White) and bob play in PLACE; bob resigns.
async fn finished_game(app: &App, alice: &Actor, bob: &Actor) {
    let bob_ref = UserRef {
        user_id: bob.user_id,
        name: bob.name.clone(),
        is_bot: false,
    };
    let a = app
        .challenge(
            alice,
            PLACE,
            &bob_ref,
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    app.component(bob, PLACE, &accept, &[]).await;
    app.play_move(alice, PLACE, "10-14").await;
    app.resign(bob, PLACE).await;
}

async fn forget_me(app: &App, who: &Actor) -> Reply {
    let inv = Invocation::new(find("forget-me").expect("the command"));
    only(&app.run_command(who, PLACE, &inv).await).clone()
}

#[tokio::test]
async fn forget_me_asks_first_and_then_erases_everything() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(
        Store::open(dir.path().join("db")).unwrap(),
        Settings::default(),
    );
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    finished_game(&app, &alice, &bob).await;
    let store = app.store();
    assert!(store.player(1).unwrap().is_some());
    let board = |s: &Store| s.leaderboard(10, Variant::Spanish, None, 10).unwrap();
    assert!(board(store).iter().any(|e| e.user_id == 1));

    // The command alone erases nothing: it asks, privately.
    let ask = forget_me(&app, &alice).await;
    assert!(ask.is_private());
    assert!(
        store.player(1).unwrap().is_some(),
        "nothing erased without confirmation"
    );
    let confirm = button_id(&ask, Action::ForgetConfirm);
    let keep = button_id(&ask, Action::ForgetCancel);

    // Only alice can confirm; "keep" keeps.
    let other = app.component(&bob, PLACE, &confirm, &[]).await;
    assert!(only(&other).is_private());
    assert!(store.player(1).unwrap().is_some());
    app.component(&alice, PLACE, &keep, &[]).await;
    assert!(store.player(1).unwrap().is_some());

    // Not while she plays.
    let bob_ref = UserRef {
        user_id: 2,
        name: "bob".into(),
        is_bot: false,
    };
    let a = app
        .challenge(
            &bob,
            PLACE,
            &UserRef {
                user_id: 1,
                name: "alice".into(),
                is_bot: false,
            },
            None,
            None,
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    app.component(&alice, PLACE, &accept, &[]).await;
    let refused = app.component(&alice, PLACE, &confirm, &[]).await;
    assert!(
        only(&refused).text.contains("Finish or resign"),
        "{}",
        only(&refused).text
    );
    assert!(store.player(1).unwrap().is_some());
    app.resign(&alice, PLACE).await;
    let _ = bob_ref;

    let done = app.component(&alice, PLACE, &confirm, &[]).await;
    assert!(only(&done).is_private());
    assert!(store.player(1).unwrap().is_none(), "her record is gone");
    assert!(!board(store)
        .iter()
        .any(|e| e.user_id == 1 || e.name == "alice"));
    for game in store.games_of_player(2, 10).unwrap() {
        assert!(
            game.players.iter().all(|s| s.user_id() != Some(1)),
            "{game:?}"
        );
        assert!(game.players.iter().any(|s| *s == Seat::Deleted), "{game:?}");
    }
    assert!(store.games_of_player(1, 10).unwrap().is_empty());
    // bob keeps his own history.
    assert!(store.player(2).unwrap().is_some());
}

/// The reviews the bot keeps in memory forget the person too: asked again after
/// `/forget-me`, the review of their game names a deleted player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_me_leaves_no_name_in_the_kept_reviews() {
    use damas::app::reply::plain;
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(
        Store::open(dir.path().join("db")).unwrap(),
        Settings {
            search_threads: 1,
            ..Settings::default()
        },
    );
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    finished_game(&app, &alice, &bob).await;
    let review = |app: App| async move {
        let a = app.review(&actor(2, "bob"), PLACE, None, &|_, _| {}).await;
        plain(&only(&a).text).into_owned()
    };
    let before = review(app.clone()).await;
    assert!(before.contains("alice (White): accuracy"), "{before}");
    let confirm = button_id(&forget_me(&app, &alice).await, Action::ForgetConfirm);
    let done = app.component(&alice, PLACE, &confirm, &[]).await;
    assert!(only(&done).text.starts_with("Done"), "{}", only(&done).text);
    let after = review(app.clone()).await;
    assert!(!after.contains("alice"), "{after}");
    assert!(
        after.contains("deleted player (White): accuracy"),
        "{after}"
    );
}
