//! The store: durability across reopen, compare-and-swap under concurrency, corruption,
//! players, scores, ratings, leaderboards, busy channels, losses on time, board posts,
//! challenges, erasure and old formats — each on sled and on PostgreSQL (a server of this
//! test binary's own: see `store_common/postgres.rs`).

mod store_common;

use damas::engine::{Color, DrawReason, Outcome, Position, Variant, WinReason};
use damas::store::{
    score, BoardPost, Challenge, ForgetSummary, GameResult, Invalid, PostRecorded, Store,
    StoreError, StoredMove, UserRef, DEFAULT_MOVE_TIME_MS, FORMAT_VERSION, TREES, TREE_ARCHIVE,
    TREE_CHALLENGES, TREE_GAMES, TREE_PLAYERS, TREE_PLAYING,
};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use store_common::*;

/// The store closed and opened again. sled lets go of its folder's lock when its own I/O
/// threads are done with it, which may be a moment after the last handle is dropped: the
/// open is tried again while the lock is still held (for at most ten seconds).
fn reopen(db: &TestDb, store: Store) -> Store {
    drop(store);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match Store::open(&db.spec) {
            Ok(store) => return store,
            Err(e)
                if e.to_string().contains("could not acquire lock")
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => panic!("reopen {:?}: {e}", db.backend),
        }
    }
}

fn key(id: u64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

/// Black (first in English) takes White's last man with 18x25: a win in one move with two
/// pieces left, worth 2 * 100 + 59 * 10 = 790 for a human against the computer.
const ONE_MOVE_WIN: &str = "B:W22:B14,18";
const ONE_MOVE_WIN_SCORE: u32 = 790;

fn one_move_win_game(
    id: u64,
    guild: u64,
    channel: u64,
    black: u64,
    level: &str,
) -> damas::store::GameRecord {
    let mut rec = new_game(
        id,
        Some(guild),
        channel,
        Variant::English,
        [bot(level), human(black)],
    );
    rec.start_fen = Some(ONE_MOVE_WIN.to_string());
    rec
}

/// Plays the winning 18x25 and finishes the game.
async fn win_it(store: &Store, mut rec: damas::store::GameRecord) -> damas::store::FinishSummary {
    let pos = Position::from_fen(Variant::English, ONE_MOVE_WIN).unwrap();
    let mv = pos.parse_move("18x25").unwrap();
    push_move(&mut rec, mv, 2_000);
    assert!(rec.outcome.is_some());
    store
        .finish_game(rec.channel_id, 0, &rec)
        .await
        .expect("finish")
}

on_both_backends! {
#[tokio::test]
async fn reopening_keeps_every_game_exactly(db) {
    let store = db.open();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut active = Vec::new();
    let setups = [
        (Variant::Spanish, [human(1), human(2)], None),
        (Variant::Portuguese, [human(3), bot("medium")], None),
        (Variant::English, [bot("expert"), human(4)], None),
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
        .finish_game(done.channel_id, done.ply(), &done)
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
            let mv = rec
                .to_game()
                .unwrap()
                .position()
                .parse_move("11-15")
                .unwrap();
            push_move(&mut rec, mv, 5_000);
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
    sendable(store.finish_game(1, 0, &rec));
    sendable(store.put_challenge(1, &challenge(1, 2, 0)));
    sendable(store.take_challenge(1, |_| true));
    sendable(store.flush());
}

on_both_backends! {
#[tokio::test]
async fn a_write_built_on_an_outdated_read_is_refused(db) {
    let store = db.open();
    let rec = new_game(1, None, 7, Variant::Spanish, [human(1), bot("easy")]);
    store.create_game(rec.clone()).await.unwrap();
    // Read at ply 0; meanwhile the game goes 11-15, then takes it back (ply 0 again).
    let stale = store.active_game(7).unwrap().unwrap();
    let mut moved = stale.clone();
    let mv = moved
        .to_game()
        .unwrap()
        .position()
        .parse_move("11-15")
        .unwrap();
    push_move(&mut moved, mv, 2_000);
    moved.revision = store.update_game(7, 0, &moved).await.unwrap();
    let mut undone = moved.clone();
    undone.moves.clear();
    undone.undo_used = true;
    store.update_game(7, 1, &undone).await.unwrap();
    // The old read matches the ply but not the revision: refused, nothing written.
    let mut late = stale.clone();
    let mv = late
        .to_game()
        .unwrap()
        .position()
        .parse_move("12-16")
        .unwrap();
    push_move(&mut late, mv, 3_000);
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
    let err = store.finish_game(10, 0, &finished).await.unwrap_err();
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
    other.outcome = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::Resignation,
    });
    let summary = store.finish_game(11, 0, &other).await.unwrap();
    assert!(matches!(
        summary.skipped.as_slice(),
        [StoreError::Corrupt { tree, key, .. }] if *tree == TREE_PLAYERS && key == "2"
    ));
    assert!(summary.seats[0].is_some() && summary.seats[1].is_none());
    assert!(matches!(store.player(2), Err(StoreError::Corrupt { .. })));
    let store = reopen(&db, store);
    let raw = |tree: &'static str, k: u64| store.raw_get(tree, &key(k)).unwrap();
    assert_eq!(raw(TREE_GAMES, 10).as_deref(), Some(garbage));
    assert_eq!(raw(TREE_CHALLENGES, 10).as_deref(), Some(newer_format));
    assert_eq!(raw(TREE_PLAYERS, 2).as_deref(), Some(garbage));
}
}

on_both_backends! {
#[tokio::test]
async fn wins_against_the_computer_score_and_rank_per_seed_002(db) {
    let store = db.open();
    let guild = 77;
    // A ranked win.
    let rec = one_move_win_game(1, guild, 10, 500, "hard");
    store.create_game(rec.clone()).await.unwrap();
    let summary = win_it(&store, rec).await;
    let seat = summary.seats[1].as_ref().expect("the human is Black");
    assert_eq!(seat.result, GameResult::Win);
    assert_eq!(seat.score, Some(ONE_MOVE_WIN_SCORE));
    assert!(seat.ranked && seat.new_best);
    assert_eq!(
        score(&store.archived_game(1).unwrap().unwrap()),
        ONE_MOVE_WIN_SCORE
    );

    // The same win with an undo: counted, never ranked.
    let mut undo = one_move_win_game(2, guild, 11, 600, "hard");
    undo.undo_used = true;
    store.create_game(undo.clone()).await.unwrap();
    let summary = win_it(&store, undo).await;
    let seat = summary.seats[1].as_ref().unwrap();
    assert!(!seat.ranked && !seat.new_best);
    let p = store.player(600).unwrap().unwrap();
    let hard = p.bot(Variant::English, "hard").unwrap();
    assert_eq!(
        (hard.tally.wins, hard.unranked_wins, hard.best_score),
        (1, 1, None)
    );

    // Abandoning half way is a loss.
    let mut left = new_game(
        3,
        Some(guild),
        12,
        Variant::English,
        [bot("hard"), human(500)],
    );
    store.create_game(left.clone()).await.unwrap();
    left.outcome = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::Abandoned,
    });
    let summary = store.finish_game(12, 0, &left).await.unwrap();
    let seat = summary.seats[1].as_ref().unwrap();
    assert_eq!(
        (seat.result, seat.score, seat.ranked),
        (GameResult::Loss, Some(0), false)
    );
    let p = store.player(500).unwrap().unwrap();
    let hard = p.bot(Variant::English, "hard").unwrap();
    assert_eq!(
        (hard.tally.wins, hard.tally.losses, hard.best_score),
        (1, 1, Some(ONE_MOVE_WIN_SCORE))
    );

    // A lower score later does not replace the best one.
    let mut slower = one_move_win_game(4, guild, 13, 500, "hard");
    slower.start_fen = Some("B:W22:B18".to_string());
    let pos = Position::from_fen(Variant::English, "B:W22:B18").unwrap();
    store.create_game(slower.clone()).await.unwrap();
    push_move(&mut slower, pos.parse_move("18x25").unwrap(), 2_000);
    let summary = store.finish_game(13, 0, &slower).await.unwrap();
    let seat = summary.seats[1].as_ref().unwrap();
    assert_eq!(
        (seat.score, seat.ranked, seat.new_best),
        (Some(690), true, false)
    );

    let board = store
        .leaderboard(guild, Variant::English, Some("hard"), 10)
        .unwrap();
    assert_eq!(board.len(), 1, "the undo win is not ranked: {board:?}");
    assert_eq!(
        (board[0].user_id, board[0].score, board[0].games),
        (500, ONE_MOVE_WIN_SCORE, 3)
    );
    assert!(store
        .leaderboard(guild, Variant::English, Some("easy"), 10)
        .unwrap()
        .is_empty());
    assert!(store
        .leaderboard(guild + 1, Variant::English, Some("hard"), 10)
        .unwrap()
        .is_empty());
    assert!(matches!(
        store.leaderboard(guild, Variant::English, Some("grandmaster"), 10),
        Err(StoreError::Invalid(Invalid::UnknownLevel(_)))
    ));
    assert_eq!(
        store
            .games_of_player(500, 10)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec![4, 3, 1]
    );
}
}

on_both_backends! {
#[tokio::test]
async fn glicko2_ratings_follow_results_on_every_guilds_board(db) {
    let store = db.open();
    let (alice, bob, carol) = (1, 2, 3);
    let resign = |loser: Color| Outcome::Win {
        winner: loser.opposite(),
        reason: WinReason::Resignation,
    };
    // Guild 10: Alice (White) beats Bob.
    let mut g = new_game(
        1,
        Some(10),
        100,
        Variant::Spanish,
        [human(alice), human(bob)],
    );
    store.create_game(g.clone()).await.unwrap();
    g.outcome = Some(resign(Color::Black));
    let summary = store.finish_game(100, 0, &g).await.unwrap();
    let (before, after) = summary.seats[0].as_ref().unwrap().rating.unwrap();
    assert!(after.rating > before.rating);
    let (_, bob_after) = summary.seats[1].as_ref().unwrap().rating.unwrap();
    assert!(bob_after.rating < before.rating);
    let board = store.leaderboard(10, Variant::Spanish, None, 10).unwrap();
    assert_eq!(
        board.iter().map(|e| e.user_id).collect::<Vec<_>>(),
        vec![alice, bob]
    );
    assert_eq!(board[0].score, after.rating.round() as u32);
    assert_eq!(board[0].games, 1);

    // Guild 20: Carol beats Alice twice; Alice's line in guild 10 follows her rating down.
    for (i, id) in [2u64, 3].into_iter().enumerate() {
        let channel = 200 + i as u64;
        let mut g = new_game(
            id,
            Some(20),
            channel,
            Variant::Spanish,
            [human(carol), human(alice)],
        );
        store.create_game(g.clone()).await.unwrap();
        g.outcome = Some(resign(Color::Black));
        store.finish_game(channel, 0, &g).await.unwrap();
    }
    let alice_now = store.player(alice).unwrap().unwrap();
    let spanish = alice_now.variant(Variant::Spanish);
    assert_eq!((spanish.people.wins, spanish.people.losses), (1, 2));
    assert!(spanish.rating.rating < after.rating);
    let board10 = store.leaderboard(10, Variant::Spanish, None, 10).unwrap();
    let line = board10.iter().find(|e| e.user_id == alice).unwrap();
    assert_eq!(
        (line.score, line.games),
        (spanish.rating.rating.round() as u32, 3)
    );
    assert_eq!(board10.len(), 2, "Carol never played in guild 10");
    let board20 = store.leaderboard(20, Variant::Spanish, None, 10).unwrap();
    assert_eq!(
        board20.iter().map(|e| e.user_id).collect::<Vec<_>>(),
        vec![carol, alice]
    );
    assert!(store
        .leaderboard(20, Variant::English, None, 10)
        .unwrap()
        .is_empty());
    assert_eq!(
        store
            .leaderboard(20, Variant::Spanish, None, 1)
            .unwrap()
            .len(),
        1
    );

    assert_eq!(
        store.last_game_between(alice, carol).unwrap().unwrap().id,
        3
    );
    assert_eq!(store.last_game_between(bob, alice).unwrap().unwrap().id, 1);
    assert!(store.last_game_between(bob, carol).unwrap().is_none());
    let in_201 = store.games_in_channel(201, 10).unwrap();
    assert_eq!(in_201.iter().map(|g| g.id).collect::<Vec<_>>(), vec![3]);
    assert_eq!(
        store
            .games_of_player(alice, 2)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec![3, 2]
    );
}
}

on_both_backends! {
#[tokio::test]
async fn a_busy_channel_is_refused_however_old_its_game(db) {
    let store = db.open();
    let t0 = 50 * DAY_MS;
    let mut g = people_game(1, 30, t0);
    store.create_game(g.clone()).await.unwrap();
    let mv = g.to_game().unwrap().position().parse_move("11-15").unwrap();
    push_move(&mut g, mv, t0 + 1);
    store.update_game(30, 0, &g).await.unwrap();

    // A year without a move: the game still holds its channel (the sweeper ends it on time).
    let next = people_game(2, 30, t0 + 365 * DAY_MS);
    match store.create_game(next.clone()).await {
        Err(StoreError::ChannelBusy { game }) => assert_eq!(game.id, 1),
        other => panic!("expected ChannelBusy, got {other:?}"),
    }
    assert_eq!(store.active_game(30).unwrap().unwrap().id, 1);
    assert!(store.archived_game(1).unwrap().is_none(), "nothing ended");
    assert!(store.player(2).unwrap().is_none(), "nobody was scored");
}
}

on_both_backends! {
#[tokio::test]
async fn a_loss_on_time_is_archived_and_scored_like_any_loss(db) {
    let store = db.open();
    let t0 = 50 * DAY_MS;
    // Between people: White moves, then Black's time runs out.
    let mut g = people_game(1, 30, t0);
    g.move_time_ms = DAY_MS;
    store.create_game(g.clone()).await.unwrap();
    let mv = g.to_game().unwrap().position().parse_move("11-15").unwrap();
    push_move(&mut g, mv, t0 + 1);
    g.revision = store.update_game(30, 0, &g).await.unwrap();
    let g = store.active_game(30).unwrap().unwrap();
    assert_eq!(g.deadline_ms(), t0 + 1 + DAY_MS);
    assert_eq!(g.reminder_due_ms(), t0 + 1 + DAY_MS / 2);

    // The sweeper reminds Black once: the mark is no revision, so a move read before it
    // still goes through, and it keeps while the ply stays.
    assert!(!g.reminded());
    assert!(store.mark_reminded(30, 1, 1).await.unwrap());
    assert!(
        !store.mark_reminded(30, 1, 0).await.unwrap(),
        "not at that ply"
    );
    assert!(
        !store.mark_reminded(30, 9, 1).await.unwrap(),
        "not that game"
    );
    let marked = store.active_game(30).unwrap().unwrap();
    assert!(marked.reminded());
    assert_eq!(marked.revision, g.revision);
    let mut offer = g.clone();
    offer.draw_offer = Some(Color::Black);
    offer.revision = store.update_game(30, 1, &offer).await.unwrap();
    assert!(
        store.active_game(30).unwrap().unwrap().reminded(),
        "a draw offer keeps the reminder of this turn"
    );

    let mut timed_out = offer.clone();
    timed_out.outcome = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::Time,
    });
    let summary = store.finish_game(30, 1, &timed_out).await.unwrap();
    assert_eq!(summary.outcome, timed_out.outcome.unwrap());
    let archived = store.archived_game(1).unwrap().unwrap();
    assert_eq!(archived.outcome, timed_out.outcome);
    assert_eq!(
        archived.to_game().unwrap().outcome(),
        timed_out.outcome,
        "the loss on time survives the replay"
    );
    let white = store.player(1).unwrap().unwrap();
    let black = store.player(2).unwrap().unwrap();
    assert_eq!(white.variant(Variant::Spanish).people.wins, 1);
    assert_eq!(black.variant(Variant::Spanish).people.losses, 1);
    assert!(
        white.variant(Variant::Spanish).rating.rating
            > black.variant(Variant::Spanish).rating.rating
    );
    assert_eq!(store.active_game(30).unwrap(), None);

    // Against the computer, the human's loss on time scores 0 and counts as a loss.
    let mut b = new_game(3, Some(1), 31, Variant::Spanish, [human(9), bot("easy")]);
    store.create_game(b.clone()).await.unwrap();
    b.outcome = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Time,
    });
    let summary = store.finish_game(31, 0, &b).await.unwrap();
    let human = summary.seats[0].as_ref().unwrap();
    assert_eq!((human.result, human.score), (GameResult::Loss, Some(0)));
    let record = store.player(9).unwrap().unwrap();
    assert_eq!(
        record.bot(Variant::Spanish, "easy").unwrap().tally.losses,
        1
    );
}
}

/// A Spanish game between users 1 (White) and 2, started at `now_ms`.
fn people_game(id: u64, channel: u64, now_ms: u64) -> damas::store::GameRecord {
    let mut g = new_game(id, Some(1), channel, Variant::Spanish, [human(1), human(2)]);
    g.created_at_ms = now_ms;
    g.last_move_at_ms = now_ms;
    g
}

fn challenge(from: u64, to: u64, now_ms: u64) -> Challenge {
    Challenge {
        challenger: UserRef {
            user_id: from,
            name: format!("player {from}"),
            is_bot: false,
        },
        challenged: UserRef {
            user_id: to,
            name: format!("player {to}"),
            is_bot: false,
        },
        variant: Variant::Spanish,
        challenger_color: None,
        created_at_ms: now_ms,
        expires_at_ms: now_ms + 60_000,
        message_id: Some(1),
        lang: "es".into(),
        move_time_ms: Some(86_400_000),
        opening: None,
    }
}

on_both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_challenge_per_channel_taken_once(db) {
    let store = db.open();
    let first = challenge(1, 2, 1_000);
    store.put_challenge(5, &first).await.unwrap();
    // Someone else cannot replace an open challenge...
    assert!(matches!(
        store.put_challenge(5, &challenge(3, 4, 2_000)).await,
        Err(StoreError::ChallengeExists { challenge }) if *challenge == first
    ));
    // ...the challenger can, and anyone can once it expired.
    let again = challenge(1, 4, 3_000);
    store.put_challenge(5, &again).await.unwrap();
    let later = challenge(3, 4, again.expires_at_ms);
    store.put_challenge(5, &later).await.unwrap();
    assert_eq!(store.challenge(5).unwrap(), Some(later.clone()));
    assert_eq!(store.open_challenges().unwrap(), vec![(5, later.clone())]);

    // The wrong user's click takes nothing.
    assert_eq!(
        store
            .take_challenge(5, |c| c.challenged.user_id == 99)
            .await
            .unwrap(),
        None
    );
    // Twenty Accept clicks at once: one wins.
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            store.take_challenge(5, |c| c.challenged.user_id == 4).await
        }));
    }
    let mut taken = Vec::new();
    for t in tasks {
        if let Some(c) = t.await.unwrap().unwrap() {
            taken.push(c);
        }
    }
    assert_eq!(taken, vec![later]);
    assert_eq!(store.challenge(5).unwrap(), None);
}
}

on_both_backends! {
#[tokio::test]
async fn records_the_store_will_not_write(db) {
    let store = db.open();
    let odd = new_game(1, None, 1, Variant::Spanish, [human(1), bot("grandmaster")]);
    assert!(matches!(
        store.create_game(odd).await,
        Err(StoreError::Invalid(Invalid::UnknownLevel(l))) if l == "grandmaster"
    ));
    let rec = new_game(2, None, 1, Variant::Spanish, [human(1), human(2)]);
    store.create_game(rec.clone()).await.unwrap();
    assert!(matches!(
        store.finish_game(1, 0, &rec).await,
        Err(StoreError::Invalid(Invalid::NotFinished))
    ));
    assert!(matches!(
        store.update_game(2, 0, &rec).await,
        Err(StoreError::Invalid(Invalid::WrongChannel {
            asked: 2,
            record: 1
        }))
    ));
    let mut other = new_game(3, None, 1, Variant::Spanish, [human(1), human(2)]);
    other.outcome = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert!(matches!(
        store.finish_game(1, 0, &other).await,
        Err(StoreError::Conflict { .. })
    ));
    let elsewhere = damas::store::GameRecord {
        channel_id: 4,
        ..other.clone()
    };
    assert!(matches!(
        store.finish_game(4, 0, &elsewhere).await,
        Err(StoreError::Conflict {
            found_ply: None,
            ..
        })
    ));
    // A rule outcome the moves do not give is refused.
    let mut wrong = rec.clone();
    wrong.outcome = Some(Outcome::Win {
        winner: Color::White,
        reason: WinReason::NoPieces,
    });
    assert!(matches!(
        store.finish_game(1, 0, &wrong).await,
        Err(StoreError::OutcomeMismatch { .. })
    ));
    assert!(store.active_game(1).unwrap().is_some());
}
}

on_both_backends! {
#[tokio::test]
async fn a_board_post_is_current_only_while_it_shows_the_game_as_it_stands(db) {
    let store = db.open();
    let post = |game_id, message_id, ply| BoardPost {
        game_id,
        message_id,
        ply,
    };
    let mut g = people_game(1, 30, 1_000);
    store.create_game(g.clone()).await.unwrap();
    assert_eq!(store.board_post(30).unwrap(), None);
    assert_eq!(
        store.record_board_post(30, post(1, 100, 0)).await.unwrap(),
        PostRecorded::Current { replaced: None }
    );
    // The same message again replaces nothing.
    assert_eq!(
        store.record_board_post(30, post(1, 100, 0)).await.unwrap(),
        PostRecorded::Current { replaced: None }
    );

    // A move: the board of ply 1 replaces that of ply 0; the late board of ply 0 is history
    // and the posts tree never races the game's revision.
    let revision_before = store.active_game(30).unwrap().unwrap().revision;
    let mv = g.to_game().unwrap().position().parse_move("11-15").unwrap();
    push_move(&mut g, mv, 2_000);
    g.revision = store.update_game(30, 0, &g).await.unwrap();
    assert_eq!(
        store.record_board_post(30, post(1, 101, 1)).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(100)
        }
    );
    assert_eq!(g.revision, revision_before + 1, "posting wrote no revision");
    assert_eq!(
        store.record_board_post(30, post(1, 102, 0)).await.unwrap(),
        PostRecorded::Outdated
    );
    assert_eq!(
        store.record_board_post(30, post(1, 103, 2)).await.unwrap(),
        PostRecorded::Outdated,
        "a ply the game has not reached"
    );
    assert_eq!(store.board_post(30).unwrap(), Some(post(1, 101, 1)));

    // An undo brings the game back to a lower ply: its board is current again.
    let mut undone = g.clone();
    undone.moves.pop();
    undone.undo_used = true;
    undone.revision = store.update_game(30, 1, &undone).await.unwrap();
    assert_eq!(
        store.record_board_post(30, post(1, 104, 0)).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(101)
        }
    );

    // The final board of a finished game is current; the post outlives the game.
    let mut done = undone.clone();
    done.outcome = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    });
    store.finish_game(30, 0, &done).await.unwrap();
    assert_eq!(store.board_post(30).unwrap(), Some(post(1, 104, 0)));
    assert_eq!(
        store.record_board_post(30, post(1, 105, 0)).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(104)
        }
    );

    // A new game's first board replaces it; the old game's boards are outdated from then on.
    let next = people_game(2, 30, 3_000);
    store.create_game(next).await.unwrap();
    assert_eq!(
        store.record_board_post(30, post(1, 106, 0)).await.unwrap(),
        PostRecorded::Outdated,
        "another game is active"
    );
    assert_eq!(
        store.record_board_post(30, post(2, 107, 0)).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(105)
        }
    );
    store.cancel_game(30, 0).await.unwrap();
    assert_eq!(store.board_post(30).unwrap(), Some(post(2, 107, 0)));
    assert_eq!(
        store.record_board_post(30, post(2, 108, 0)).await.unwrap(),
        PostRecorded::Outdated,
        "a cancelled game has no current board"
    );
    assert_eq!(
        store.record_board_post(30, post(1, 109, 0)).await.unwrap(),
        PostRecorded::Outdated,
        "an older game's board never replaces a newer game's"
    );
}
}

on_both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_board_posts_leave_the_newest_board_recorded(db) {
    let store = db.open();
    let mut rng = SmallRng::seed_from_u64(3);
    let mut g = people_game(1, 30, 1_000);
    store.create_game(g.clone()).await.unwrap();
    for ply in 0..30usize {
        // The board of this ply and the one before race each other.
        let old = tokio::spawn({
            let store = store.clone();
            async move {
                let post = BoardPost {
                    game_id: 1,
                    message_id: 1_000 + ply as u64,
                    ply: ply.saturating_sub(1),
                };
                store.record_board_post(30, post).await.unwrap()
            }
        });
        let new = tokio::spawn({
            let store = store.clone();
            async move {
                let post = BoardPost {
                    game_id: 1,
                    message_id: 2_000 + ply as u64,
                    ply,
                };
                store.record_board_post(30, post).await.unwrap()
            }
        });
        let (old, new) = (old.await.unwrap(), new.await.unwrap());
        assert!(matches!(new, PostRecorded::Current { .. }), "ply {ply}");
        if ply > 0 {
            assert_eq!(old, PostRecorded::Outdated, "ply {ply}");
        }
        assert_eq!(store.board_post(30).unwrap().unwrap().ply, ply);
        let Some(mv) = random_move(&g, &mut rng) else {
            break;
        };
        let mut next = g.clone();
        push_move(&mut next, mv, 2_000);
        if next.outcome.is_some() {
            break;
        }
        next.revision = store.update_game(30, g.ply(), &next).await.unwrap();
        g = next;
    }
}
}

on_both_backends! {
#[tokio::test]
async fn cancelling_the_games_of_channels_that_are_gone(db) {
    let store = db.open();
    for channel in [40, 41, 42] {
        store
            .create_game(people_game(channel, channel, 1_000))
            .await
            .unwrap();
    }
    let mut moved = store.active_game(41).unwrap().unwrap();
    let mv = moved
        .to_game()
        .unwrap()
        .position()
        .parse_move("11-15")
        .unwrap();
    push_move(&mut moved, mv, 2_000);
    store.update_game(41, 0, &moved).await.unwrap();

    let cancelled = store.cancel_games_in(|c| c != 42).await.unwrap();
    let mut ids: Vec<u64> = cancelled.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![40, 41]);
    assert!(store.active_game(40).unwrap().is_none());
    assert!(store.active_game(41).unwrap().is_none());
    assert!(store.active_game(42).unwrap().is_some());
    assert!(store.archived_game(41).unwrap().is_none(), "not archived");
    assert!(store.player(1).unwrap().is_none(), "counted for no one");
}
}

on_both_backends! {
#[tokio::test]
async fn a_challenge_remembers_its_message(db) {
    let store = db.open();
    let mut c = challenge(1, 2, 1_000);
    c.message_id = None;
    store.put_challenge(5, &c).await.unwrap();
    assert!(store.set_challenge_message(5, 1_000, 77).await.unwrap());
    assert_eq!(store.challenge(5).unwrap().unwrap().message_id, Some(77));
    assert_eq!(
        store.open_challenges().unwrap()[0].1.message_id,
        Some(77),
        "the sweeper finds the message to edit"
    );
    assert!(
        !store.set_challenge_message(5, 999, 78).await.unwrap(),
        "another challenge's message"
    );
    assert!(!store.set_challenge_message(6, 1_000, 78).await.unwrap());
    assert_eq!(store.challenge(5).unwrap().unwrap().message_id, Some(77));
}
}

/// Every key and value in every tree of the database.
fn all_bytes(store: &Store) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for tree in TREES {
        for (k, v) in store.raw_page(tree, None, usize::MAX).unwrap() {
            out.push((tree.to_string(), k, v));
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

on_both_backends! {
#[tokio::test]
async fn forgetting_a_user_leaves_no_trace_of_them(db) {
    let store = db.open();
    // Ids of Discord's size, unlike any other number in the data.
    let (gone, other) = (0x0123_4567_89AB_CDEF_u64, 0x0FED_CBA9_8765_4321_u64);
    let name = "Zoraida Quintanilla";
    let person = |user_id: u64, name: &str| damas::store::Seat::Human {
        user_id,
        name: name.to_string(),
    };
    // A game between them in two guilds, one against the computer, one they lost on time.
    let mut finished = Vec::new();
    for (id, guild, players) in [
        (1, 500, [person(gone, name), person(other, "Other")]),
        (2, 600, [person(other, "Other"), person(gone, name)]),
    ] {
        let mut g = new_game(id, Some(guild), id, Variant::Spanish, players);
        store.create_game(g.clone()).await.unwrap();
        g.outcome = Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time,
        });
        store.finish_game(id, 0, &g).await.unwrap();
        finished.push(g);
    }
    let mut vs_bot = one_move_win_game(3, 500, 3, gone, "hard");
    if let damas::store::Seat::Human { name: n, .. } = &mut vs_bot.players[1] {
        *n = name.to_string();
    }
    store.create_game(vs_bot.clone()).await.unwrap();
    win_it(&store, vs_bot).await;
    store
        .put_challenge(
            9,
            &Challenge {
                challenger: UserRef {
                    user_id: other,
                    name: "Other".into(),
                    is_bot: false,
                },
                challenged: UserRef {
                    user_id: gone,
                    name: name.into(),
                    is_bot: false,
                },
                ..challenge(1, 2, 1_000)
            },
        )
        .await
        .unwrap();
    store
        .put_challenge(10, &challenge(7, 8, 1_000))
        .await
        .unwrap();
    assert!(!store
        .leaderboard(500, Variant::Spanish, None, 10)
        .unwrap()
        .is_empty());
    // A puzzle solved in guild 500: the record and the place on its puzzle board.
    store
        .update_puzzle_player(gone, name, 500, |mut p| {
            p.record_attempt(1500.0, true);
            Ok::<_, ()>((p, ()))
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(store.puzzle_leaderboard(500, 10).unwrap().len(), 1);

    let summary = store.forget_user(gone).await.unwrap();
    assert_eq!(
        summary,
        ForgetSummary {
            games: 3,
            // People's board in guilds 500 and 600, the hard level's board in 500.
            leaderboard_lines: 3,
            challenges: 1,
            player_record: true,
            puzzle_record: true,
        }
    );
    assert_eq!(
        store.forget_user(gone).await.unwrap(),
        ForgetSummary::default()
    );

    // What stays: the games, in their opponents' histories, with a deleted seat.
    let first = store.archived_game(1).unwrap().unwrap();
    assert_eq!(first.players[0], damas::store::Seat::Deleted);
    assert_eq!(first.players[1], person(other, "Other"));
    assert_eq!(first.moves, finished[0].moves);
    assert_eq!(store.games_of_player(other, 10).unwrap().len(), 2);
    assert!(store.games_of_player(gone, 10).unwrap().is_empty());
    assert!(store.player(gone).unwrap().is_none());
    assert!(store.player(other).is_ok_and(|p| p.is_some()));
    assert!(store.last_game_between(gone, other).unwrap().is_none());
    assert_eq!(
        store
            .leaderboard(500, Variant::Spanish, None, 10)
            .unwrap()
            .len(),
        1
    );
    assert!(
        store.challenge(10).unwrap().is_some(),
        "others' challenges stay"
    );
    assert!(store.puzzle_player(gone).unwrap().is_none());
    assert!(store.puzzle_leaderboard(500, 10).unwrap().is_empty());
    let id_forms = [
        gone.to_be_bytes().to_vec(),
        postcard::to_allocvec(&gone).unwrap(),
    ];
    let store = reopen(&db, store);
    for (tree, k, v) in all_bytes(&store) {
        for form in &id_forms {
            assert!(
                !contains(&k, form) && !contains(&v, form),
                "{tree} still holds the id: {k:?}"
            );
        }
        assert!(
            !contains(&v, name.as_bytes()),
            "{tree} still holds the name: {k:?}"
        );
    }
}
}

/// A challenge as format version 1 laid it out, field for field.
#[derive(serde::Serialize)]
struct ChallengeV1 {
    challenger: UserRef,
    challenged: UserRef,
    variant: Variant,
    challenger_color: Option<Color>,
    created_at_ms: u64,
    expires_at_ms: u64,
    message_id: Option<u64>,
}

on_both_backends! {
#[tokio::test]
async fn version_1_challenges_still_read(db) {
    let v1 = ChallengeV1 {
        challenger: UserRef {
            user_id: 1,
            name: "ana".into(),
            is_bot: false,
        },
        challenged: UserRef {
            user_id: 2,
            name: "beto".into(),
            is_bot: false,
        },
        variant: Variant::English,
        challenger_color: Some(Color::Black),
        created_at_ms: 5,
        expires_at_ms: 900_005,
        message_id: Some(31),
    };
    let mut bytes = vec![1u8];
    bytes.extend(postcard::to_allocvec(&v1).unwrap());
    let store = db.open();
    store
        .raw_put(TREE_CHALLENGES, &[(key(12), bytes)])
        .await
        .unwrap();
    let store = reopen(&db, store);
    let c = store.challenge(12).unwrap().expect("version 1 decodes");
    assert_eq!(
        (c.challenger.name.as_str(), c.challenged.user_id),
        ("ana", 2)
    );
    assert_eq!(
        (c.variant, c.challenger_color),
        (Variant::English, Some(Color::Black))
    );
    assert_eq!((c.expires_at_ms, c.message_id), (900_005, Some(31)));
    assert_eq!((c.lang.as_str(), c.move_time_ms), ("en", None));
}
}

/// A game record as format version 1 laid it out, field for field.
#[derive(serde::Serialize)]
struct GameRecordV1 {
    id: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    variant: Variant,
    start_fen: Option<String>,
    players: [damas::store::Seat; 2],
    moves: Vec<StoredMove>,
    draw_offer: Option<Color>,
    undo_used: bool,
    created_at_ms: u64,
    last_move_at_ms: u64,
    board_message_id: Option<u64>,
    outcome: Option<Outcome>,
    rematch_of: Option<u64>,
    revision: u64,
}

on_both_backends! {
#[tokio::test]
async fn version_1_game_records_still_read_and_play_on(db) {
    let mut game = damas::engine::Game::new(Variant::Spanish);
    let mv = game.play_text("11-15").unwrap();
    let v1 = GameRecordV1 {
        id: 77,
        guild_id: Some(3),
        channel_id: 10,
        variant: Variant::Spanish,
        start_fen: None,
        players: [human(1), bot("hard")],
        moves: vec![StoredMove::from_move(&mv)],
        draw_offer: Some(Color::Black),
        undo_used: true,
        created_at_ms: 1_000,
        last_move_at_ms: 2_000,
        board_message_id: Some(123_456_789),
        outcome: None,
        rematch_of: None,
        revision: 4,
    };
    let mut bytes = vec![1u8];
    bytes.extend(postcard::to_allocvec(&v1).unwrap());
    let store = db.open();
    store
        .raw_put(TREE_GAMES, &[(key(10), bytes.clone())])
        .await
        .unwrap();
    store
        .raw_put(TREE_ARCHIVE, &[(key(78), {
                let mut done = bytes.clone();
                // The same layout finished by agreement: outcome is the third-last field.
                let mut rec = v1;
                rec.id = 78;
                rec.outcome = Some(Outcome::Draw {
                    reason: DrawReason::Agreement,
                });
                done.truncate(1);
                done.extend(postcard::to_allocvec(&rec).unwrap());
                done
            })])
        .await
        .unwrap();
    let store = reopen(&db, store);
    let rec = store.active_game(10).unwrap().expect("version 1 decodes");
    assert_eq!(rec.id, 77);
    assert_eq!(rec.players, [human(1), bot("hard")]);
    assert_eq!(rec.moves.len(), 1);
    assert_eq!(rec.draw_offer, Some(Color::Black));
    assert!(rec.undo_used);
    assert_eq!((rec.created_at_ms, rec.last_move_at_ms), (1_000, 2_000));
    assert_eq!(rec.move_time_ms, DEFAULT_MOVE_TIME_MS);
    assert_eq!(rec.reminded_ply, None);
    assert_eq!(rec.revision, 4);
    assert_eq!(
        store.board_post(10).unwrap(),
        None,
        "the old pointer is dropped"
    );
    let archived = store.archived_game(78).unwrap().unwrap();
    assert_eq!(
        archived.outcome,
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );

    // It plays on, written in the current format.
    let mut next = rec.clone();
    let reply = next
        .to_game()
        .unwrap()
        .position()
        .parse_move("22-18")
        .unwrap();
    push_move(&mut next, reply, 3_000);
    store.update_game(10, 1, &next).await.unwrap();
    let store = reopen(&db, store);
    let raw = store.raw_get(TREE_GAMES, &key(10)).unwrap().unwrap();
    assert_eq!(raw[0], FORMAT_VERSION);
}
}

/// Fills `store` with one of everything: finished games between people (ratings and their
/// leaderboard) and against the computer (a score on its board), a running game with its
/// board post, a cancelled game, open challenges. Returns the running game.
async fn one_of_everything(store: &Store) -> damas::store::GameRecord {
    // Finished: a win on time between people in two guilds, a ranked win against the computer.
    for (channel, guild) in [(1, 10), (2, 20)] {
        let mut g = new_game(
            store.new_game_id().unwrap(),
            Some(guild),
            channel,
            Variant::Spanish,
            [human(1), human(2)],
        );
        store.create_game(g.clone()).await.unwrap();
        g.outcome = Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time,
        });
        store.finish_game(channel, 0, &g).await.unwrap();
    }
    let bot_game = one_move_win_game(store.new_game_id().unwrap(), 10, 3, 7, "hard");
    store.create_game(bot_game.clone()).await.unwrap();
    win_it(store, bot_game).await;
    // Cancelled: created, moved, cancelled; nothing of it stays but its id.
    let mut cancelled = people_game(store.new_game_id().unwrap(), 4, 1_000);
    store.create_game(cancelled.clone()).await.unwrap();
    let mv = cancelled
        .to_game()
        .unwrap()
        .position()
        .parse_move("11-15")
        .unwrap();
    push_move(&mut cancelled, mv, 2_000);
    store.update_game(4, 0, &cancelled).await.unwrap();
    assert!(store.cancel_game(4, 1).await.unwrap());
    // Running, with its board shown.
    let mut running = people_game(store.new_game_id().unwrap(), 5, 1_000);
    store.create_game(running.clone()).await.unwrap();
    let mv = running
        .to_game()
        .unwrap()
        .position()
        .parse_move("11-15")
        .unwrap();
    push_move(&mut running, mv, 2_000);
    running.revision = store.update_game(5, 0, &running).await.unwrap();
    let post = BoardPost {
        game_id: running.id,
        message_id: 555,
        ply: 1,
    };
    store.record_board_post(5, post).await.unwrap();
    // Open challenges, one with its message.
    store
        .put_challenge(6, &challenge(1, 3, 1_000))
        .await
        .unwrap();
    store
        .put_challenge(7, &challenge(2, 3, 1_000))
        .await
        .unwrap();
    assert!(store.set_challenge_message(7, 1_000, 777).await.unwrap());
    // A game thread with its line in the parent channel.
    let thread = damas::store::GameThread {
        parent_channel_id: 5,
        game_id: running.id,
        line_message_id: Some(556),
    };
    store.put_game_thread(8, &thread).await.unwrap();
    // A puzzle solver on a server's puzzle board.
    store
        .update_puzzle_player(3, "solver", 10, |mut p| {
            p.record_attempt(1_350.0, true);
            Ok::<_, ()>((p, ()))
        })
        .await
        .unwrap()
        .unwrap();
    running
}

/// What the bot reads of [`one_of_everything`]'s data, record by record.
fn readings(store: &Store) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        store
            .active_games()
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect::<Vec<_>>(),
        store.board_post(5).unwrap(),
        store.open_challenges().unwrap(),
        store.games_of_player(1, 10).unwrap(),
        store.games_in_channel(2, 10).unwrap(),
        store.last_game_between(2, 1).unwrap(),
        [
            store.player(1).unwrap(),
            store.player(2).unwrap(),
            store.player(7).unwrap()
        ],
        store.leaderboard(10, Variant::Spanish, None, 10).unwrap(),
        store.leaderboard(20, Variant::Spanish, None, 10).unwrap(),
        store
            .leaderboard(10, Variant::English, Some("hard"), 10)
            .unwrap(),
    )
}

/// `damas store copy`'s work, both ways: sled to PostgreSQL and back, every byte and every
/// record the same, ids going on past the copied ones, and the copy usable.
#[tokio::test]
async fn a_copy_round_trips_between_sled_and_postgres() {
    let sled_db = TestDb::new(Backend::Sled);
    let source = sled_db.open();
    let running = one_of_everything(&source).await;
    let expected_bytes = all_bytes(&source);
    let expected = readings(&source);
    for tree in TREES {
        assert!(source.raw_count(tree).unwrap() > 0, "the test fills {tree}");
    }

    let pg_db = TestDb::new(Backend::Postgres);
    let pg = pg_db.open();
    let summary = damas::store::copy::copy(&source, &pg).await.unwrap();
    assert_eq!(summary.total(), expected_bytes.len() as u64);
    assert_eq!(all_bytes(&pg), expected_bytes);
    assert_eq!(readings(&pg), expected);

    let back_db = TestDb::new(Backend::Sled);
    let back = back_db.open();
    damas::store::copy::copy(&pg, &back).await.unwrap();
    assert_eq!(all_bytes(&back), expected_bytes);
    assert_eq!(readings(&back), expected);

    // New ids go past every copied one, and the copied running game plays on.
    let last_id = running.id;
    for store in [&pg, &back] {
        assert!(store.new_game_id().unwrap() > last_id);
        let mut next = store.active_game(5).unwrap().unwrap();
        let mv = next
            .to_game()
            .unwrap()
            .position()
            .parse_move("22-18")
            .unwrap();
        push_move(&mut next, mv, 3_000);
        store.update_game(5, 1, &next).await.unwrap();
    }

    // A copy never merges: a target with records is refused and left as it was.
    let before = all_bytes(&back);
    assert!(matches!(
        damas::store::copy::copy(&source, &back).await,
        Err(damas::store::copy::CopyError::TargetNotEmpty { .. })
    ));
    assert_eq!(all_bytes(&back), before);
}

on_both_backends! {
#[tokio::test]
async fn a_copy_of_a_corrupt_record_fails_its_verification(db) {
    let source = db.open();
    one_of_everything(&source).await;
    source
        .raw_put(TREE_ARCHIVE, &[(key(999), vec![FORMAT_VERSION, 0xff, 0xff])])
        .await
        .unwrap();
    let target_db = TestDb::new(match db.backend {
        Backend::Sled => Backend::Postgres,
        Backend::Postgres => Backend::Sled,
    });
    let target = target_db.open();
    let err = damas::store::copy::copy(&source, &target).await.unwrap_err();
    assert!(
        matches!(
            &err,
            damas::store::copy::CopyError::Undecodable(StoreError::Corrupt { tree, key, .. })
                if *tree == TREE_ARCHIVE && key == "999"
        ),
        "{err}"
    );
}
}

/// `damas store copy` from the command line: copies and verifies, then refuses to copy into
/// the now full target (exit code 2, nothing changed).
#[tokio::test]
async fn the_store_copy_command_copies_into_an_empty_database_only() {
    let source_db = TestDb::new(Backend::Sled);
    let source = source_db.open();
    one_of_everything(&source).await;
    let expected = all_bytes(&source);
    // sled opens in one process at a time: the command's.
    drop(source);
    let target_db = TestDb::new(Backend::Postgres);
    let copy = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["store", "copy", "--from"])
            .arg(&source_db.spec)
            .arg("--to")
            .arg(&target_db.spec)
            .output()
            .expect("damas runs")
    };
    let out = copy();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("copied and verified {} entries", expected.len())),
        "{stdout}"
    );
    assert_eq!(all_bytes(&target_db.open()), expected);

    let out = copy();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("copy into an empty database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(all_bytes(&target_db.open()), expected);
}

// ---- PostgreSQL for real deployments: TLS, and a database that stops answering ------------

mod postgres_deployment {
    use super::store_common::postgres::{self, SilenceableProxy};
    use damas::app::i18n::{t, Lang};
    use damas::app::{App, Config, Place, Visibility};
    use damas::engine::{Color, Variant};
    use damas::store::{DbTimeouts, Durability, Store, StoreError, TREE_GAMES};
    use std::path::Path;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// Short timeouts, so that the tests of a silent database take seconds.
    const SHORT: DbTimeouts = DbTimeouts {
        connect: Duration::from_secs(1),
        statement: Duration::from_secs(1),
        pool_wait: Duration::from_secs(1),
    };

    /// Whether the connections to `database` (the store's pool) are encrypted, as the server
    /// sees them; `None` when there is none.
    fn encrypted(database: &str) -> Option<bool> {
        let admin = postgres::server().url("postgres");
        let database = database.to_owned();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
                    .await
                    .expect("connect as the admin");
                tokio::spawn(conn);
                let row = client
                    .query_one(
                        "SELECT count(*), bool_and(s.ssl) FROM pg_stat_ssl s \
                         JOIN pg_stat_activity a USING (pid) WHERE a.datname = $1",
                        &[&database],
                    )
                    .await
                    .expect("pg_stat_ssl");
                let n: i64 = row.get(0);
                (n > 0).then(|| row.get(1))
            })
        })
        .join()
        .unwrap()
    }

    /// A fresh database's URL with `params`, reached as `host`; and its name.
    fn database(host: &str, params: &str) -> (String, String) {
        let url = postgres::server().fresh_database();
        let name = url.rsplit('/').next().unwrap().to_owned();
        let url = url.replace("127.0.0.1", host);
        (format!("{url}{params}"), name)
    }

    /// A store round trip: one entry written (a transaction) and read back.
    async fn round_trip(store: &Store) {
        let entry = (vec![1u8, 2, 3], vec![9u8; 40]);
        store
            .raw_put(TREE_GAMES, std::slice::from_ref(&entry))
            .await
            .expect("write");
        assert_eq!(store.raw_get(TREE_GAMES, &entry.0).unwrap(), Some(entry.1));
    }

    /// A root certificate of no concern to the server (PEM in a file).
    fn another_root(dir: &Path) -> std::path::PathBuf {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let key = rcgen::KeyPair::generate().unwrap();
        let path = dir.join("other-root.pem");
        std::fs::write(&path, params.self_signed(&key).unwrap().pem()).unwrap();
        path
    }

    /// The test server offers TLS with a certificate for 127.0.0.1, signed by a root of its
    /// own: each `sslmode` encrypts, checks and refuses as libpq's does.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn tls_follows_the_urls_sslmode() {
        let root = postgres::server().root_certificate().display().to_string();
        let dir = tempfile::tempdir().unwrap();
        let other = another_root(dir.path()).display().to_string();
        for (host, params, tls) in [
            ("127.0.0.1", "?sslmode=disable".to_owned(), false),
            // libpq's default, prefer: encrypted when the server offers it.
            ("127.0.0.1", String::new(), true),
            ("127.0.0.1", "?sslmode=require".to_owned(), true),
            (
                "127.0.0.1",
                format!("?sslmode=verify-full&sslrootcert={root}"),
                true,
            ),
            // verify-ca checks the signature, not the name.
            (
                "localhost",
                format!("?sslmode=verify-ca&sslrootcert={root}"),
                true,
            ),
        ] {
            let (url, name) = database(host, &params);
            let store = Store::open(&url).unwrap_or_else(|e| panic!("{params}: {e}"));
            round_trip(&store).await;
            assert_eq!(encrypted(&name), Some(tls), "{host}{params}");
        }
        for (host, params, says) in [
            // The certificate names 127.0.0.1, not localhost.
            (
                "localhost",
                format!("?sslmode=verify-full&sslrootcert={root}"),
                "certificate not valid for name \"localhost\"",
            ),
            (
                "127.0.0.1",
                format!("?sslmode=verify-full&sslrootcert={other}"),
                "invalid peer certificate",
            ),
        ] {
            let (url, name) = database(host, &params);
            let e = Store::open(&url).expect_err(&params).to_string();
            assert!(e.contains(says), "{params}: {e}");
            assert_eq!(encrypted(&name), None, "nothing connected");
        }
    }

    /// Accepts connections and never says a word.
    fn silent_listener() -> std::net::SocketAddr {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming().map_while(Result::ok) {
                held.push(stream);
            }
        });
        addr
    }

    /// A database that accepts the connection and never answers: opening gives up after the
    /// connect timeout, and the error does not show the password.
    #[test]
    fn opening_a_database_that_never_answers_gives_up() {
        let addr = silent_listener();
        let url = format!("postgres://damas:hunter2-secret@{addr}/damas");
        // Without a connect timeout this would wait forever: the test bounds its own wait.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(Store::open_configured(&url, Durability::default(), SHORT).err());
        });
        let e = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("an answer within 20 s")
            .expect("nothing answered")
            .to_string();
        assert!(e.contains("could not reach PostgreSQL"), "{e}");
        assert!(!e.contains("hunter2-secret"), "{e}");
    }

    /// PostgreSQL stops answering under a running bot (a network cut between them): a
    /// command gets "try again" within the timeouts, nothing is stored, and no write that may
    /// have landed is reported as not done — such a one stops the process (here: the hook).
    /// Once the network is back the same command works.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_database_that_stops_answering_gets_try_again_and_acknowledges_nothing() {
        let url = postgres::server().fresh_database();
        let proxy = SilenceableProxy::start(postgres::server().port());
        let fatal = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&fatal);
        let store = Store::open_configured(proxy.url(&url), Durability::default(), SHORT)
            .expect("open through the proxy")
            .with_fatal_hook(Arc::new(move |e: &StoreError| {
                seen.lock().unwrap().push(e.to_string())
            }));
        let app = App::new(
            store.clone(),
            Config {
                search_threads: 1,
                search_memory_mb: 8,
                ..Config::default()
            },
        );
        let actor = damas::app::Actor {
            user_id: 7,
            name: "alice".into(),
            locale: "en-US".into(),
            can_manage_messages: false,
        };
        let place = Place {
            guild_id: Some(1),
            channel_id: 4242,
        };
        let play = || {
            app.play_bot(
                &actor,
                place,
                None,
                Some(Variant::Spanish),
                Some(Color::White),
            )
        };

        proxy.silence();
        let asked = Instant::now();
        // The store's calls block their thread, so a timeout around them would never fire:
        // the command runs on a thread of its own, and the test bounds its wait.
        let (tx, rx) = std::sync::mpsc::channel();
        let (waiting_app, waiting_actor) = (app.clone(), actor.clone());
        let runtime = tokio::runtime::Handle::current();
        std::thread::spawn(move || {
            let _ = tx.send(runtime.block_on(waiting_app.play_bot(
                &waiting_actor,
                place,
                None,
                Some(Variant::Spanish),
                Some(Color::White),
            )));
        });
        let answer = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("an answer within 20 s");
        let took = asked.elapsed();
        let reply = &answer.replies[0];
        assert_eq!(answer.replies.len(), 1, "{:#?}", answer.replies);
        assert_eq!(reply.text, t(Lang::En, "err-storage"), "{reply:#?}");
        assert_eq!(reply.visibility, Visibility::Private);
        // The statement timeout and its grace, and a little for the pool's connection.
        assert!(took < Duration::from_secs(6), "answered after {took:?}");
        assert!(fatal.lock().unwrap().is_empty(), "{:?}", fatal.lock());

        proxy.resume();
        let direct = Store::open(&url).expect("the database, directly");
        assert!(direct.active_game(place.channel_id).unwrap().is_none());
        let answer = play().await;
        assert!(
            answer.replies[0].board_of.is_some(),
            "{:#?}",
            answer.replies
        );
        assert!(direct.active_game(place.channel_id).unwrap().is_some());

        // A write that commits on its own, unanswered: it may have landed, so it is fatal.
        proxy.silence();
        let e = store.reserve_ids_through(1_000).expect_err("no answer");
        assert!(matches!(e, StoreError::OutcomeUnknown { .. }), "{e}");
        assert_eq!(fatal.lock().unwrap().len(), 1, "{:?}", fatal.lock());
    }

    /// `/readyz` (as both listeners answer it) for `health`: its status and body.
    async fn readyz(health: &damas::discord::health::Health) -> (u16, String) {
        let answer = damas::discord::health::probe(health, &hyper::Method::GET, "/readyz")
            .await
            .expect("an answer to /readyz");
        let status = answer.status().as_u16();
        let body = http_body_util::BodyExt::collect(answer.into_body())
            .await
            .expect("a body")
            .to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// Asks `/readyz` until it says `status` (each answer is reused for a second), at most
    /// 20 s; returns the last answer.
    async fn readyz_until(health: &damas::discord::health::Health, status: u16) -> (u16, String) {
        let mut last = readyz(health).await;
        let deadline = Instant::now() + Duration::from_secs(20);
        while last.0 != status && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(200)).await;
            last = readyz(health).await;
        }
        last
    }

    /// `/readyz` follows the database: 200 while it answers, 503 naming the store while it
    /// is silent (answered within the store's timeouts, not hanging), 200 again once it
    /// answers, and 503 for good once the process is stopping.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn readiness_follows_the_database() {
        use damas::discord::health::Health;
        let url = postgres::server().fresh_database();
        let proxy = SilenceableProxy::start(postgres::server().port());
        let store = Store::open_configured(proxy.url(&url), Durability::default(), SHORT)
            .expect("open through the proxy");
        let app = App::new(
            store,
            Config {
                search_threads: 1,
                search_memory_mb: 8,
                ..Config::default()
            },
        );
        let health = Health::new(app, SHORT);
        // Nothing listens yet (no gateway shard, no endpoint): not ready.
        assert_eq!(readyz(&health).await, (503, "not ready: gateway\n".into()));
        health.listening();
        assert_eq!(readyz_until(&health, 200).await, (200, "ready\n".into()));

        proxy.silence();
        let asked = Instant::now();
        assert_eq!(
            readyz_until(&health, 503).await,
            (503, "not ready: store\n".into())
        );
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "{:?}",
            asked.elapsed()
        );

        proxy.resume();
        assert_eq!(readyz_until(&health, 200).await, (200, "ready\n".into()));
        health.stopping();
        assert_eq!(
            readyz(&health).await,
            (503, "not ready: shutting down\n".into())
        );
    }
}

on_both_backends! {
#[tokio::test]
async fn forgetting_someone_who_plays_erases_nothing(db) {
    let store = db.open();
    let (gone, other) = (71, 72);
    let mut first = new_game(1, Some(5), 1, Variant::Spanish, [human(gone), human(other)]);
    store.create_game(first.clone()).await.unwrap();
    first.outcome = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    });
    store.finish_game(1, 0, &first).await.unwrap();
    store
        .update_puzzle_player(gone, "gone", 5, |p| Ok::<_, ()>((p, ())))
        .await
        .unwrap()
        .unwrap();
    // Under way, against the bot in another channel.
    let playing = new_game(2, Some(5), 2, Variant::English, [bot("easy"), human(gone)]);
    store.create_game(playing.clone()).await.unwrap();
    assert_eq!(store.playing(gone).unwrap().games.len(), 1);
    let before = all_bytes(&store);
    assert!(matches!(
        store.forget_user(gone).await,
        Err(StoreError::PlayingNow { user_id }) if user_id == gone
    ));
    assert_eq!(all_bytes(&store), before, "nothing erased");
    // Once it is over, everything goes, the index of games under way included.
    store.cancel_game(2, 0).await.unwrap();
    let summary = store.forget_user(gone).await.unwrap();
    assert!(summary.player_record && summary.puzzle_record && summary.games == 1);
    assert_eq!(store.playing(gone).unwrap(), damas::store::Playing::default());
    assert!(store.raw_get(TREE_PLAYING, &key(gone)).unwrap().is_none());
}
}

on_both_backends! {
/// `/forget-me` racing a new game of the same person: the check that they play no game is in
/// the erasure's own transaction, so the game either stops the erasure or starts after it —
/// never starts in between, leaving a game under way that the erased index no longer lists.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_never_starts_between_the_check_and_the_erasure(db) {
    let store = db.open();
    for round in 0..40u64 {
        let user = 1_000 + round;
        let channel = 2_000 + round;
        // A finished game, so there is something to erase (and scans to make).
        let mut old = new_game(3_000 + round, Some(5), 4_000 + round, Variant::Spanish, [human(user), human(9)]);
        store.create_game(old.clone()).await.unwrap();
        old.outcome = Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        });
        store.finish_game(old.channel_id, 0, &old).await.unwrap();
        let game = new_game(5_000 + round, Some(5), channel, Variant::Spanish, [human(user), bot("easy")]);
        let (a, b) = (store.clone(), store.clone());
        let create = tokio::spawn(async move { a.create_game(game).await });
        let forget = tokio::spawn(async move { b.forget_user(user).await });
        create.await.unwrap().unwrap();
        let forgot = forget.await.unwrap();
        let indexed = store
            .playing(user)
            .unwrap()
            .games
            .iter()
            .any(|g| g.channel_id == channel);
        assert!(
            indexed,
            "round {round}: a game under way the index lost (forget: {forgot:?})"
        );
        match forgot {
            // Erased first: the game started after, on a clean slate.
            Ok(_) => assert!(store.games_of_player(user, 10).unwrap().is_empty()),
            Err(StoreError::PlayingNow { .. }) => {
                assert_eq!(store.games_of_player(user, 10).unwrap().len(), 1)
            }
            Err(e) => panic!("round {round}: {e}"),
        }
    }
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
        .create_game(new_game(2, Some(5), 101, Variant::Spanish, [bot("easy"), human(44)]))
        .await
        .unwrap();
    let tasks: Vec<_> = (0..8u64)
        .map(|i| {
            let store = store.clone();
            let rec = new_game(10 + i, Some(5), 200 + i, Variant::English, [bot("easy"), human(me)]);
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
    let over = new_game(20, Some(5), 300, Variant::English, [bot("easy"), human(me)]);
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
        .create_game(new_game(1, Some(5), 100, Variant::Spanish, [human(7), bot("hard")]))
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
