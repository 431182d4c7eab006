//! What the store keeps: every game exactly across reopen, one move applied once however many
//! tasks send it, compare-and-swap against outdated reads, corrupt values reported and never
//! overwritten, the cap on games against the bot under concurrency, the index mended at open.

use super::*;

on_both_backends! {
#[tokio::test]
async fn ids_start_at_one_and_grow(db) {
    // People see and type these ("tournament number 1"): a fresh database's first is 1 on
    // either backend, never 0.
    let store = db.open();
    let first = store.new_game_id().unwrap();
    assert_eq!(first, 1);
    assert!(store.new_game_id().unwrap() > first);
}
}

on_both_backends! {
#[tokio::test]
async fn reopening_keeps_every_game_exactly(db) {
    let store = db.open();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut active = Vec::new();
    let setups = [
        (Variant::Spanish, [human(1), human(2)], None),
        (Variant::Portuguese, [human(3), bot(Level::Medium)], None),
        (Variant::English, [bot(Level::Expert), human(4)], None),
        (
            Variant::Spanish,
            [human(5), human(6)],
            Some("W:W9,10,K14:B21-24,K30"),
        ),
    ];
    for (i, (variant, players, fen)) in setups.into_iter().enumerate() {
        let channel = 100 + i as u64;
        let mut rec = new_game(
            store.new_game_id().unwrap(),
            Some(9),
            channel,
            variant,
            players,
        );
        rec.start_fen = fen.map(str::to_string);
        store.create_game(rec.clone()).await.unwrap();
        for ply in 0..(5 + 3 * i) {
            let Some(mv) = random_move(&rec, &mut rng) else {
                break;
            };
            let mut next = rec.clone();
            push_move(&mut next, mv, 2_000 + ply as u64);
            if next.outcome.is_some() {
                break;
            }
            next.revision = store.update_game(channel, rec.ply(), &next).await.unwrap();
            rec = next;
        }
        rec.move_time_ms = 2 * DAY_MS;
        rec.draw_offer = Some(Color::Black);
        rec.revision = store.update_game(channel, rec.ply(), &rec).await.unwrap();
        active.push(rec);
    }
    // One finished game too, by agreement (an outcome only the record knows).
    let mut done = active.pop().unwrap();
    done.outcome = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    store
        .finish_game(done.channel_id, done.ply(), &done, &Scoring)
        .await
        .unwrap();

    let store = reopen(&db, store);
    for rec in &active {
        let back = store
            .active_game(rec.channel_id)
            .unwrap()
            .expect("still active");
        assert_eq!(&back, rec);
        let (a, b) = (back.to_game().unwrap(), rec.to_game().unwrap());
        assert_eq!(a.position(), b.position());
        assert_eq!(a.notations(), b.notations());
    }
    assert!(store.active_game(done.channel_id).unwrap().is_none());
    let archived = store.archived_game(done.id).unwrap().expect("archived");
    assert_eq!(archived.moves, done.moves);
    assert_eq!(archived.revision, done.revision + 1);
    let game = archived.to_game().unwrap();
    assert_eq!(
        game.outcome(),
        done.outcome,
        "agreement survives the replay"
    );
    assert_eq!(archived.players, done.players);
    assert_eq!(archived.start_fen, done.start_fen);
}
}

on_both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_tasks_sending_one_move_apply_it_once(db) {
    let store = db.open();
    let rec = new_game(1, Some(1), 42, Variant::Spanish, [human(1), human(2)]);
    store.create_game(rec).await.unwrap();
    // Every task reads first and only then writes, so all hundred race with the same read.
    let all_read = std::sync::Arc::new(tokio::sync::Barrier::new(100));
    let mut tasks = Vec::new();
    for _ in 0..100 {
        let store = store.clone();
        let all_read = all_read.clone();
        tasks.push(tokio::spawn(async move {
            let mut rec = store.active_game(42).unwrap().unwrap();
            let expected = rec.ply();
            play_notation(&mut rec, "11-15", 5_000);
            all_read.wait().await;
            store.update_game(42, expected, &rec).await
        }));
    }
    let (mut applied, mut conflicts) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => applied += 1,
            Err(StoreError::Conflict { found_ply, .. }) => {
                assert_eq!(found_ply, Some(1));
                conflicts += 1
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    assert_eq!((applied, conflicts), (1, 99));
    let rec = store.active_game(42).unwrap().unwrap();
    assert_eq!(rec.ply(), 1);
    assert_eq!(rec.revision, 1);
    assert_eq!(rec.to_game().unwrap().notations(), vec!["11-15"]);
}
}

on_both_backends! {
/// Durable writes from many tasks at once all land. (With sled 0.34's `flush_async` this
/// hangs — spacejam/sled#1308 — and blocks the runtime, so the timeout cannot fire; libtest
/// then reports the test running for over 60 seconds.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_channels_writing_at_once_all_land(db) {
    let store = db.open();
    let mut tasks = Vec::new();
    for channel in 0..32u64 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(channel);
            let mut rec = new_game(
                channel + 1,
                Some(1),
                channel,
                Variant::English,
                [human(1), human(2)],
            );
            store.create_game(rec.clone()).await.unwrap();
            while rec.ply() < 10 {
                let mv = random_move(&rec, &mut rng).unwrap();
                let mut next = rec.clone();
                push_move(&mut next, mv, 2_000);
                next.revision = store.update_game(channel, rec.ply(), &next).await.unwrap();
                rec = next;
            }
            rec
        }));
    }
    let all = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        let mut all = Vec::new();
        for t in tasks {
            all.push(t.await.unwrap());
        }
        all
    })
    .await
    .expect("durable writes finished (no deadlock)");
    for rec in all {
        assert_eq!(store.active_game(rec.channel_id).unwrap(), Some(rec));
    }
}
}

#[test]
fn the_store_and_its_futures_can_be_shared_across_tasks() {
    fn shared<T: Send + Sync + Clone + 'static>(_: &T) {}
    fn sendable<F: std::future::Future + Send>(_: F) {}
    let db = TestDb::new(Backend::Sled);
    let store = db.open();
    shared(&store);
    let rec = new_game(1, None, 1, Variant::Spanish, [human(1), human(2)]);
    sendable(store.create_game(rec.clone()));
    sendable(store.update_game(1, 0, &rec));
    sendable(store.finish_game(1, 0, &rec, &Scoring));
    sendable(store.put_challenge(1, &challenge(1, 2, 0)));
    sendable(store.take_challenge(1, |_| true));
    sendable(store.flush());
}

on_both_backends! {
#[tokio::test]
async fn a_write_built_on_an_outdated_read_is_refused(db) {
    let store = db.open();
    let rec = new_game(1, None, 7, Variant::Spanish, [human(1), bot(Level::Easy)]);
    store.create_game(rec.clone()).await.unwrap();
    // Read at ply 0; meanwhile the game goes 11-15, then takes it back (ply 0 again).
    let stale = store.active_game(7).unwrap().unwrap();
    let mut moved = stale.clone();
    play_notation(&mut moved, "11-15", 2_000);
    moved.revision = store.update_game(7, 0, &moved).await.unwrap();
    let mut undone = moved.clone();
    undone.moves.clear();
    undone.undo_used = true;
    store.update_game(7, 1, &undone).await.unwrap();
    // The old read matches the ply but not the revision: refused, nothing written.
    let mut late = stale.clone();
    play_notation(&mut late, "12-16", 3_000);
    assert!(matches!(
        store.update_game(7, 0, &late).await,
        Err(StoreError::Conflict {
            found_ply: Some(0),
            ..
        })
    ));
    let now = store.active_game(7).unwrap().unwrap();
    assert!(now.undo_used && now.moves.is_empty());

    // A record that does not replay is never written.
    let mut bad = now.clone();
    bad.moves.push(StoredMove {
        from: 1,
        landings: vec![30],
    });
    assert!(matches!(
        store.update_game(7, 0, &bad).await,
        Err(StoreError::Replay { ply: 0, .. })
    ));
    // Nor one whose moves ended the game: that is finish_game's job.
    let mut over = now.clone();
    over.outcome = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert!(matches!(
        store.update_game(7, 0, &over).await,
        Err(StoreError::Invalid(Invalid::AlreadyOver))
    ));
    assert_eq!(store.active_game(7).unwrap().unwrap(), now);
}
}

on_both_backends! {
#[tokio::test]
async fn corrupt_values_are_reported_and_never_overwritten(db) {
    let store = db.open();
    let rec = new_game(1, Some(3), 10, Variant::Spanish, [human(1), human(2)]);
    store.create_game(rec.clone()).await.unwrap();

    let garbage: &[u8] = &[
        1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x42,
    ];
    let newer_format: &[u8] = &[200, 1, 2, 3];
    for (tree, k, v) in [
        (TREE_GAMES, 10, garbage),
        (TREE_CHALLENGES, 10, newer_format),
        (TREE_PLAYERS, 2, garbage),
    ] {
        store.raw_put(tree, &[(key(k), v.to_vec())]).await.unwrap();
    }

    let store = reopen(&db, store);
    let is_corrupt_game = |e: &StoreError| matches!(e, StoreError::Corrupt { tree, key, .. } if *tree == TREE_GAMES && key == "10");
    let err = store.active_game(10).unwrap_err();
    assert!(is_corrupt_game(&err), "{err}");
    let err = store.update_game(10, 0, &rec).await.unwrap_err();
    assert!(is_corrupt_game(&err), "{err}");
    let err = store
        .create_game(new_game(
            2,
            Some(3),
            10,
            Variant::Spanish,
            [human(1), human(2)],
        ))
        .await
        .unwrap_err();
    assert!(
        is_corrupt_game(&err),
        "a new game does not replace a corrupt one: {err}"
    );
    let mut finished = rec.clone();
    finished.outcome = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    let err = store.finish_game(10, 0, &finished, &Scoring).await.unwrap_err();
    assert!(is_corrupt_game(&err), "{err}");

    assert!(matches!(
        store.challenge(10),
        Err(StoreError::UnknownVersion { tree, version: 200, .. }) if tree == TREE_CHALLENGES
    ));
    let c = challenge(5, 6, 1_000);
    assert!(matches!(
        store.put_challenge(10, &c).await,
        Err(StoreError::UnknownVersion { .. })
    ));
    assert!(matches!(
        store.take_challenge(10, |_| true).await,
        Err(StoreError::UnknownVersion { .. })
    ));

    // A game whose player record is corrupt still ends; that record is skipped and kept.
    let mut other = new_game(3, Some(3), 11, Variant::Spanish, [human(1), human(2)]);
    store.create_game(other.clone()).await.unwrap();
    other.outcome = Some(win(Color::White, WinReason::Resignation));
    let summary = store.finish_game(11, 0, &other, &Scoring).await.unwrap();
    assert!(matches!(
        summary.skipped.as_slice(),
        [StoreError::Corrupt { tree, key, .. }] if *tree == TREE_PLAYERS && key == "2"
    ));
    assert!(summary.seats.white.is_some() && summary.seats.black.is_none());
    assert!(matches!(store.player(2), Err(StoreError::Corrupt { .. })));
    let store = reopen(&db, store);
    let raw = |tree: &'static str, k: u64| store.raw_get(tree, &key(k)).unwrap();
    assert_eq!(raw(TREE_GAMES, 10).as_deref(), Some(garbage));
    assert_eq!(raw(TREE_CHALLENGES, 10).as_deref(), Some(newer_format));
    assert_eq!(raw(TREE_PLAYERS, 2).as_deref(), Some(garbage));
}
}

on_both_backends! {
/// The cap on games against the bot is counted in the transaction that stores the game: of
/// eight asked for at once with a cap of two, two start; games between people and others'
/// games do not count; one that ends makes room.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_cap_on_games_against_the_bot_holds_under_concurrency(db) {
    let store = db.open();
    let me = 42;
    store
        .create_game(new_game(1, Some(5), 100, Variant::Spanish, [human(me), human(43)]))
        .await
        .unwrap();
    store
        .create_game(new_game(2, Some(5), 101, Variant::Spanish, [bot(Level::Easy), human(44)]))
        .await
        .unwrap();
    let tasks: Vec<_> = (0..8u64)
        .map(|i| {
            let store = store.clone();
            let rec = new_game(10 + i, Some(5), 200 + i, Variant::English, [bot(Level::Easy), human(me)]);
            tokio::spawn(async move { store.create_game_capped(rec, 2).await })
        })
        .collect();
    let mut started = Vec::new();
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await.unwrap() {
            Ok(()) => started.push(200 + i as u64),
            Err(StoreError::TooManyBotGames { user_id, limit }) => {
                assert_eq!((user_id, limit), (me, 2));
                assert!(store.active_game(200 + i as u64).unwrap().is_none());
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(started.len(), 2, "{started:?}");
    let over = new_game(20, Some(5), 300, Variant::English, [bot(Level::Easy), human(me)]);
    assert!(matches!(
        store.create_game_capped(over.clone(), 2).await,
        Err(StoreError::TooManyBotGames { .. })
    ));
    store.cancel_game(started[0], 0).await.unwrap();
    store.create_game_capped(over, 2).await.unwrap();
}
}

on_both_backends! {
/// Games stored by a version of the bot without the index of games under way are indexed
/// when the store opens.
#[tokio::test]
async fn games_under_way_missing_from_the_index_are_added_at_open(db) {
    let store = db.open();
    store
        .create_game(new_game(1, Some(5), 100, Variant::Spanish, [human(7), bot(Level::Hard)]))
        .await
        .unwrap();
    // As an older version left it: no entry.
    let mut empty = vec![FORMAT_VERSION];
    empty.extend(postcard::to_allocvec(&damas::store::Playing::default()).unwrap());
    store.raw_put(TREE_PLAYING, &[(key(7), empty)]).await.unwrap();
    assert!(store.playing(7).unwrap().games.is_empty());
    let store = reopen(&db, store);
    let games = store.playing(7).unwrap().games;
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].channel_id, games[0].game_id, games[0].vs_bot), (100, 1, true));
}
}
