//! One game and one challenge a channel, records the store refuses, board posts current only
//! while they show the game as it stands, channels that are gone.

use super::*;

on_both_backends! {
#[tokio::test]
async fn a_busy_channel_is_refused_however_old_its_game(db) {
    let store = db.open();
    let t0 = 50 * DAY_MS;
    people_game_after_a_move(&store, t0, DEFAULT_MOVE_TIME_MS).await;

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
    // An unknown computer level is no longer a record one can build (`Level` is a type); one
    // in stored bytes is versions.rs' concern.
    let rec = new_game(2, None, 1, Variant::Spanish, [human(1), human(2)]);
    store.create_game(rec.clone()).await.unwrap();
    assert!(matches!(
        store.finish_game(1, 0, &rec, &Scoring).await,
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
        store.finish_game(1, 0, &other, &Scoring).await,
        Err(StoreError::Conflict { .. })
    ));
    let elsewhere = damas::store::GameRecord {
        channel_id: 4,
        ..other.clone()
    };
    assert!(matches!(
        store.finish_game(4, 0, &elsewhere, &Scoring).await,
        Err(StoreError::Conflict {
            found_ply: None,
            ..
        })
    ));
    // A rule outcome the moves do not give is refused.
    let mut wrong = rec.clone();
    wrong.outcome = Some(win(Color::White, WinReason::NoPieces));
    assert!(matches!(
        store.finish_game(1, 0, &wrong, &Scoring).await,
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
        store.record_board_post(30, post(1, 100, 0), false).await.unwrap(),
        PostRecorded::Current { replaced: None }
    );
    // The same message again replaces nothing.
    assert_eq!(
        store.record_board_post(30, post(1, 100, 0), false).await.unwrap(),
        PostRecorded::Current { replaced: None }
    );

    // A move: the board of ply 1 replaces that of ply 0; the late board of ply 0 is history
    // and the posts tree never races the game's revision.
    let revision_before = store.active_game(30).unwrap().unwrap().revision;
    play_notation(&mut g, "11-15", 2_000);
    g.revision = store.update_game(30, 0, &g).await.unwrap();
    assert_eq!(
        store.record_board_post(30, post(1, 101, 1), false).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(100)
        }
    );
    assert_eq!(g.revision, revision_before + 1, "posting wrote no revision");
    expect_posts(
        &store,
        vec![
            (post(1, 102, 0), false, PostRecorded::Outdated, ""),
            (post(1, 103, 2), false, PostRecorded::Outdated, "a ply the game has not reached"),
            (post(1, 111, 1), true, PostRecorded::Outdated, "a final board of a game going on"),
        ],
    )
    .await;
    assert_eq!(store.board_post(30).unwrap(), Some(post(1, 101, 1)));

    // An undo brings the game back to a lower ply: its board is current again.
    let mut undone = g.clone();
    undone.moves.pop();
    undone.undo_used = true;
    undone.revision = store.update_game(30, 1, &undone).await.unwrap();
    assert_eq!(
        store.record_board_post(30, post(1, 104, 0), false).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(101)
        }
    );

    // The final board of a finished game is current; the post outlives the game.
    let mut done = undone.clone();
    done.outcome = Some(win(Color::Black, WinReason::Resignation));
    store.finish_game(30, 0, &done, &Scoring).await.unwrap();
    assert_eq!(store.board_post(30).unwrap(), Some(post(1, 104, 0)));
    assert_eq!(
        store.record_board_post(30, post(1, 105, 0), true).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(104)
        }
    );
    // A resignation ends the game at the ply it stood at: a board of the game going on at
    // that ply, shown late (after the final one), must not replace the final board.
    assert_eq!(
        store.record_board_post(30, post(1, 110, 0), false).await.unwrap(),
        PostRecorded::Outdated,
        "a board of the game going on, after its final board"
    );
    assert_eq!(store.board_post(30).unwrap(), Some(post(1, 105, 0)));

    // A new game's first board replaces it; the old game's boards are outdated from then on.
    let next = people_game(2, 30, 3_000);
    store.create_game(next).await.unwrap();
    expect_posts(
        &store,
        vec![
            (post(1, 106, 0), true, PostRecorded::Outdated, "another game is active"),
            (post(2, 107, 0), false, PostRecorded::Current { replaced: Some(105) }, ""),
        ],
    )
    .await;
    store.cancel_game(30, 0).await.unwrap();
    assert_eq!(store.board_post(30).unwrap(), Some(post(2, 107, 0)));
    expect_posts(
        &store,
        vec![
            (
                post(2, 108, 0),
                false,
                PostRecorded::Outdated,
                "a cancelled game has no current board",
            ),
            (
                post(1, 109, 0),
                true,
                PostRecorded::Outdated,
                "an older game's board never replaces a newer game's",
            ),
        ],
    )
    .await;
}
}

/// Records each board post of channel 30 (a final board where its flag says so) in turn:
/// each is answered as expected (`why` says why, where that needs saying).
async fn expect_posts(store: &Store, posts: Vec<(BoardPost, bool, PostRecorded, &str)>) {
    for (post, over, expected, why) in posts {
        let answer = store.record_board_post(30, post, over).await.unwrap();
        assert_eq!(answer, expected, "{why}");
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
        let post_in_task = |message_id: u64, ply: usize| {
            let store = store.clone();
            tokio::spawn(async move {
                let post = BoardPost {
                    game_id: 1,
                    message_id,
                    ply,
                };
                store.record_board_post(30, post, false).await.unwrap()
            })
        };
        let old = post_in_task(1_000 + ply as u64, ply.saturating_sub(1));
        let new = post_in_task(2_000 + ply as u64, ply);
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
    play_notation(&mut moved, "11-15", 2_000);
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
