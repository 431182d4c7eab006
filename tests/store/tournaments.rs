//! Tournaments in the store: their records versioned and changed by compare-and-swap only,
//! the link from each game to its tournament and `/forget-me` in their entries, on both
//! backends (`store copy` carries them: `copy.rs`). The state is the app's; here a stand-in
//! type of its own.

use crate::on_both_backends;
use crate::support::store::*;
use damas::store::{Seat, Store, StoreError, TournamentRecord};
use serde::{Deserialize, Serialize};

/// What the app keeps in a tournament, as far as the store is concerned: opaque.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct State {
    name: String,
    rounds: Vec<Vec<u32>>,
}

fn person(user_id: u64, name: &str) -> Seat {
    Seat::Human {
        user_id,
        name: name.to_string(),
    }
}

fn tournament(id: u64) -> TournamentRecord<State> {
    TournamentRecord {
        id,
        version: 0,
        guild_id: Some(10),
        channel_id: 20,
        organiser: 1,
        entrants: vec![person(1, "ana"), person(2, "beto"), person(3, "carla")],
        state: State {
            name: "Spring open".to_string(),
            rounds: vec![vec![2, 0, 1]],
        },
    }
}

fn read(store: &Store, id: u64) -> TournamentRecord<State> {
    store.tournament::<State>(id).unwrap().expect("stored")
}

on_both_backends! {
#[tokio::test]
async fn a_tournament_is_stored_versioned_and_linked_to_its_games(db) {
    let store = db.open();
    let t = tournament(7);
    store.create_tournament(&t).await.unwrap();
    // Its id cannot be taken twice.
    assert!(matches!(
        store.create_tournament(&t).await,
        Err(StoreError::TournamentConflict { tournament_id: 7, expected_version: None })
    ));
    assert_eq!(read(&store, 7), t);

    let mut next = t.clone();
    next.state.rounds.push(vec![1, 1]);
    let stored = store.update_tournament(&next, &[100, 101]).await.unwrap();
    assert_eq!(stored.version, 1);
    assert_eq!(read(&store, 7), stored);
    assert_eq!(store.tournament_of_game(100).unwrap(), Some(7));
    assert_eq!(store.tournament_of_game(101).unwrap(), Some(7));
    assert_eq!(store.tournament_of_game(102).unwrap(), None);

    // A change built on the old version is refused, and nothing of it is written.
    let mut stale = t.clone();
    stale.state.name = "stale".to_string();
    assert!(matches!(
        store.update_tournament(&stale, &[102]).await,
        Err(StoreError::TournamentConflict { tournament_id: 7, expected_version: Some(0) })
    ));
    assert_eq!(read(&store, 7), stored);
    assert_eq!(store.tournament_of_game(102).unwrap(), None);

    // Survives a reopen.
    let store = crate::reopen(&db, store);
    assert_eq!(read(&store, 7), stored);
    let all = store.tournaments::<State>().unwrap();
    assert_eq!(all.len(), 1);
}
}

on_both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_many_changes_built_on_one_version_exactly_one_is_stored(db) {
    let store = db.open();
    store.create_tournament(&tournament(9)).await.unwrap();
    let base = read(&store, 9);
    let mut tasks = Vec::new();
    for k in 0..8u32 {
        let (store, mut change) = (store.clone(), base.clone());
        change.state.rounds.push(vec![k]);
        tasks.push(tokio::spawn(async move {
            store.update_tournament(&change, &[1_000 + u64::from(k)]).await
        }));
    }
    let mut won = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(rec) => won.push(rec),
            Err(StoreError::TournamentConflict { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    // One round appended, once: a round is never paired twice.
    assert_eq!(won.len(), 1, "{won:?}");
    let now = read(&store, 9);
    assert_eq!(now, won[0]);
    assert_eq!(now.version, 1);
    assert_eq!(now.state.rounds.len(), 2);
    let linked: Vec<u64> = (0..8)
        .filter(|k| store.tournament_of_game(1_000 + k).unwrap().is_some())
        .collect();
    assert_eq!(linked.len(), 1, "only the stored change's games are linked");
}
}

on_both_backends! {
#[tokio::test]
async fn forgetting_a_player_replaces_their_entry_and_keeps_the_tournament(db) {
    let store = db.open();
    store.create_tournament(&tournament(3)).await.unwrap();
    let mut other = tournament(4);
    other.entrants = vec![person(5, "eva"), person(6, "fede"), person(7, "gala")];
    other.organiser = 5;
    store.create_tournament(&other).await.unwrap();

    let summary = store.forget_user(1).await.unwrap();
    assert_eq!(summary.tournaments, 1);
    let t = read(&store, 3);
    assert_eq!(t.entrants, vec![Seat::Deleted, person(2, "beto"), person(3, "carla")]);
    // They organised it: nobody does now; the rest is as it was.
    assert_eq!(t.organiser, 0);
    assert_eq!(t.state, tournament(3).state);
    assert_eq!(read(&store, 4), other);
    // A change built on the version before the erasure is refused (the erasure is a version
    // of its own), so it cannot bring the name back.
    assert_eq!(t.version, 1);
    assert!(matches!(
        store.update_tournament(&tournament(3), &[]).await,
        Err(StoreError::TournamentConflict { .. })
    ));
    // Again: nothing more to erase.
    assert_eq!(store.forget_user(1).await.unwrap().tournaments, 0);
}
}
