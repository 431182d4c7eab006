//! `/forget-me` in the store: no trace of the person left, nothing erased while they play, no
//! game started between the check and the erasure.

use super::*;

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
        g.outcome = Some(win(Color::White, WinReason::Time));
        store.finish_game(id, 0, &g, &Scoring).await.unwrap();
        finished.push(g);
    }
    let mut vs_bot = one_move_win_game(3, 500, 3, gone, Level::Hard);
    if let damas::store::Seat::Human { name: n, .. } = &mut vs_bot.players.black {
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
    put_open_challenge(&store, 10, 7, 8).await;
    assert!(!store
        .leaderboard(500, Variant::Spanish, None, 10)
        .unwrap()
        .is_empty());
    // A puzzle solved in guild 500: the record and the place on its puzzle board.
    puzzle_solved(&store, gone, name, 500, 1500.0).await;
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
            tournaments: 0,
            server_settings: 0,
        }
    );
    assert_eq!(
        store.forget_user(gone).await.unwrap(),
        ForgetSummary::default()
    );

    // What stays: the games, in their opponents' histories, with a deleted seat.
    let first = store.archived_game(1).unwrap().unwrap();
    assert_eq!(first.players.white, damas::store::Seat::Deleted);
    assert_eq!(first.players.black, person(other, "Other"));
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

on_both_backends! {
#[tokio::test]
async fn forgetting_someone_who_plays_erases_nothing(db) {
    let store = db.open();
    let (gone, other) = (71, 72);
    let mut first = new_game(1, Some(5), 1, Variant::Spanish, [human(gone), human(other)]);
    store.create_game(first.clone()).await.unwrap();
    first.outcome = Some(win(Color::Black, WinReason::Resignation));
    store.finish_game(1, 0, &first, &Scoring).await.unwrap();
    store
        .update_puzzle_player(gone, "gone", 5, |p| Ok::<_, ()>((p, ())))
        .await
        .unwrap()
        .unwrap();
    // Under way, against the bot in another channel.
    let playing = new_game(2, Some(5), 2, Variant::English, [bot(Level::Easy), human(gone)]);
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
        store.finish_game(old.channel_id, 0, &old, &Scoring).await.unwrap();
        let game = new_game(5_000 + round, Some(5), channel, Variant::Spanish, [human(user), bot(Level::Easy)]);
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
