//! Games created at once: one game per channel and the cap on games against the bot hold when
//! many creations race, on PostgreSQL too, where a game's creation guards them with keys
//! (the channel's row inserted only if absent, each person's record locked) rather than with
//! a `SERIALIZABLE` transaction.

use super::*;
use damas::store::GameRecord;

/// Runs every creation at once, each on a task of its own; their results in the same order.
async fn all_at_once(
    store: &Store,
    games: Vec<(GameRecord, usize)>,
) -> Vec<Result<(), StoreError>> {
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(games.len()));
    let tasks: Vec<_> = games
        .into_iter()
        .map(|(rec, cap)| {
            let (store, start) = (store.clone(), std::sync::Arc::clone(&start));
            tokio::spawn(async move {
                start.wait().await;
                store.create_game_capped(rec, cap).await
            })
        })
        .collect();
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.expect("the creation ran"));
    }
    results
}

on_both_backends! {
/// Two Accept clicks, two `/play`: four games asked for in each of ten channels at once, by
/// different people. One game a channel starts; the others are told the channel is busy with
/// that game, and nobody is listed as playing a game that did not start.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_game_a_channel_however_many_start_at_once(db) {
    let store = db.open();
    let mut asked = Vec::new();
    for channel in 0..10u64 {
        for i in 0..4u64 {
            let id = 1 + channel * 4 + i;
            let players = if i % 2 == 0 {
                [human(1000 + id), human(2000 + id)]
            } else {
                [bot(Level::Easy), human(1000 + id)]
            };
            let rec = new_game(id, Some(5), 100 + channel, Variant::Spanish, players);
            asked.push((rec, usize::MAX));
        }
    }
    let results = all_at_once(&store, asked.clone()).await;
    for channel in 0..10u64 {
        let stored = store
            .active_game(100 + channel)
            .unwrap()
            .expect("one game started");
        let of_channel: Vec<_> = asked
            .iter()
            .zip(&results)
            .filter(|((rec, _), _)| rec.channel_id == 100 + channel)
            .collect();
        let started: Vec<u64> = of_channel
            .iter()
            .filter(|(_, r)| r.is_ok())
            .map(|((rec, _), _)| rec.id)
            .collect();
        assert_eq!(started, vec![stored.id], "channel {}", 100 + channel);
        for ((rec, _), result) in of_channel {
            let playing = store.playing(1000 + rec.id).unwrap();
            if rec.id == stored.id {
                assert_eq!(playing.games.len(), 1, "the winner's game is listed");
                continue;
            }
            match result {
                Err(StoreError::ChannelBusy { game }) => assert_eq!(game.id, stored.id),
                other => panic!("game {}: expected ChannelBusy, got {other:?}", rec.id),
            }
            assert!(playing.games.is_empty(), "game {} is not listed", rec.id);
        }
    }
}
}

on_both_backends! {
/// Someone who never played asks for eight games against the bot at once with a cap of two:
/// the first record of theirs is written by one creation only, and two games start. Five
/// people one after the other: the first's creations also open the store's connections,
/// which makes them start one after the other; the later ones' run together.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_first_record_written_at_once_keeps_the_cap(db) {
    let store = db.open();
    for person in 0..5u64 {
        let me = 42 + person;
        let asked = (0..8u64)
            .map(|i| {
                let id = 1 + person * 8 + i;
                let rec = new_game(id, Some(5), 200 + id, Variant::English, [bot(Level::Easy), human(me)]);
                (rec, 2)
            })
            .collect();
        let results = all_at_once(&store, asked).await;
        for r in &results {
            match r {
                Ok(()) => {}
                Err(StoreError::TooManyBotGames { user_id, limit }) => {
                    assert_eq!((*user_id, *limit), (me, 2))
                }
                Err(e) => panic!("person {me}: {e}"),
            }
        }
        let started = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(started, 2, "person {me}: {results:?}");
        assert_eq!(store.playing(me).unwrap().games.len(), 2, "both are listed");
    }
}
}
