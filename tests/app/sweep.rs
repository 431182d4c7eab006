//! Time limits, on the application layer with a clock the test moves: a reminder at half the
//! time, a loss on time at the limit (final board, archive, ratings), the bot never losing on
//! time, expired challenges closed, games of deleted channels and servers cancelled.

use crate::support::app::*;
use damas::ai::Level;
use damas::app::Swept;
use damas::app::{Action, Actor, ChallengeRef, Place, Reply, Settings};
use damas::engine::{Color, Outcome, Variant, WinReason};
use std::time::Duration;

const MOVE_TIME: Duration = Duration::from_secs(2);
const TTL: Duration = Duration::from_secs(1);
const T0: u64 = 1_000_000;

fn world() -> World {
    World::clocked(
        Settings {
            bot_seed: Some(3),
            move_time: MOVE_TIME,
            challenge_ttl: TTL,
            search_threads: 1,
            search_memory_mb: 16,
            ..Settings::default()
        },
        T0,
    )
}

fn place(channel: u64) -> Place {
    Place {
        guild_id: Some(10),
        channel_id: channel,
    }
}

/// alice (White, to move first) against bob, in `channel`.
async fn people_game(w: &World, channel: u64) -> (Actor, Actor) {
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let bob_ref = user(&bob);
    let a = w
        .app
        .challenge(
            &alice,
            place(channel),
            &bob_ref,
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    let started = w.app.component(&bob, place(channel), &accept, &[]).await;
    assert!(!only(&started).is_private());
    (alice, bob)
}

fn posts(swept: &[Swept]) -> Vec<(Place, &Reply)> {
    swept
        .iter()
        .filter_map(|s| match s {
            Swept::Post { place, reply } => Some((*place, reply)),
            Swept::ChallengeExpired { .. } => None,
        })
        .collect()
}

#[tokio::test]
async fn a_reminder_at_half_time_then_a_loss_on_time() {
    let w = world();
    people_game(&w, 30).await;

    w.at(900);
    assert!(
        w.app.sweep().await.is_empty(),
        "nothing due before half the time"
    );

    w.at(1_100);
    let swept = w.app.sweep().await;
    let reminders = posts(&swept);
    assert_eq!(reminders.len(), 1, "{swept:#?}");
    let (where_, reminder) = reminders[0];
    assert_eq!(where_.channel_id, 30);
    assert_eq!(reminder.mention, vec![1], "alice, to move, and only her");
    assert!(
        reminder.text.contains("left before you lose on time"),
        "{}",
        reminder.text
    );

    w.at(1_500);
    assert!(w.app.sweep().await.is_empty(), "one reminder per turn");

    w.at(2_100);
    let swept = w.app.sweep().await;
    let finals = posts(&swept);
    assert_eq!(finals.len(), 1, "{swept:#?}");
    let board = finals[0].1;
    assert!(
        damas::app::reply::plain(&board.text).contains("alice ran out of time"),
        "{}",
        board.text
    );
    assert!(board.image.is_some(), "the final board");
    assert!(
        board.buttons.len() == 1 && board.buttons[0].id.starts_with("damas:rematch:"),
        "a finished game has no controls but Rematch: {:?}",
        board.buttons
    );
    assert!(board.menu.is_none());

    let store = w.app.store();
    assert!(
        store.active_game(30).unwrap().is_none(),
        "the channel is free"
    );
    let archived = store.games_of_player(1, 5).unwrap();
    assert_eq!(archived.len(), 1);
    assert_eq!(
        archived[0].outcome,
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Time
        })
    );
    let (alice, bob) = (
        store.player(1).unwrap().unwrap(),
        store.player(2).unwrap().unwrap(),
    );
    let (a, b) = (
        alice.variant(Variant::Spanish),
        bob.variant(Variant::Spanish),
    );
    assert_eq!((a.people.losses, b.people.wins), (1, 1));
    assert!(b.rating.rating > a.rating.rating, "ratings moved");

    w.at(10_000);
    assert!(
        w.app.sweep().await.is_empty(),
        "a finished game is not swept again"
    );
}

#[tokio::test]
async fn a_move_restarts_the_clock_and_earns_a_new_reminder() {
    let w = world();
    let (alice, _bob) = people_game(&w, 31).await;
    w.at(1_100);
    assert_eq!(posts(&w.app.sweep().await).len(), 1);
    let moved = w.app.play_move(&alice, place(31), "10-14").await;
    assert!(!only(&moved).is_private(), "{}", only(&moved).text);
    // bob's time runs from alice's move, at 1.1 s: his reminder is due at 2.1 s.
    w.at(2_000);
    assert!(w.app.sweep().await.is_empty());
    w.at(2_300);
    let swept = w.app.sweep().await;
    let reminders = posts(&swept);
    assert_eq!(reminders.len(), 1, "{swept:#?}");
    assert_eq!(reminders[0].1.mention, vec![2]);
}

#[tokio::test]
async fn the_bot_never_loses_on_time() {
    let w = world();
    let alice = actor(1, "alice");
    // The bot plays White and moves first: its turn is owed work, not a clock.
    let started = w
        .app
        .play_bot(
            &alice,
            place(40),
            Some(Level::Easy),
            Some(Variant::Spanish),
            Some(Color::Black),
        )
        .await;
    assert!(started.bot_turn().is_some());
    w.at(60_000);
    assert!(w.app.sweep().await.is_empty());
    assert!(w.active_game(40).is_some());
}

#[tokio::test]
async fn an_expired_challenge_is_closed_and_leaves_the_store() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let bob_ref = user(&bob);
    let a = w
        .app
        .challenge(&alice, place(50), &bob_ref, None, None)
        .await;
    let posted = only(&a);
    let challenge: ChallengeRef = posted.challenge_of.expect("a challenge to record");
    w.app.challenge_posted(challenge, 555).await;
    w.at(900);
    assert!(w.app.sweep().await.is_empty());
    w.at(1_000);
    let swept = w.app.sweep().await;
    match &swept[..] {
        [Swept::ChallengeExpired {
            channel_id: 50,
            message_id: Some(555),
            reply,
        }] => {
            assert!(reply.buttons.is_empty());
            assert!(reply.text.contains("expired"), "{}", reply.text);
        }
        other => panic!("{other:#?}"),
    }
    assert!(w.app.store().challenge(50).unwrap().is_none());
    // Its Accept button now says so.
    let accept = button_id(posted, Action::Accept);
    let late = w.app.component(&bob, place(50), &accept, &[]).await;
    assert!(only(&late).is_private());
    assert!(w.active_game(50).is_none());
}

#[tokio::test]
async fn deleted_channels_and_servers_take_their_games_without_a_result() {
    let w = world();
    people_game(&w, 60).await;
    people_game(&w, 61).await;
    w.app.channel_gone(60).await;
    assert!(w.active_game(60).is_none());
    assert!(w.active_game(61).is_some());
    w.app.guild_gone(99).await;
    assert!(w.active_game(61).is_some(), "another server's");
    w.app.guild_gone(10).await;
    assert!(w.active_game(61).is_none());
    // Nobody won or lost.
    assert!(w.app.store().games_of_player(1, 5).unwrap().is_empty());
    assert!(w.app.store().player(1).unwrap().is_none());
}
