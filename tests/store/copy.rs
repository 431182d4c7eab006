//! `damas store copy` between sled and PostgreSQL, verified; a corrupt record fails the copy.

use super::*;

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
        g.outcome = Some(win(Color::White, WinReason::Time));
        store.finish_game(channel, 0, &g, &Scoring).await.unwrap();
    }
    let bot_game = one_move_win_game(store.new_game_id().unwrap(), 10, 3, 7, Level::Hard);
    store.create_game(bot_game.clone()).await.unwrap();
    win_it(store, bot_game).await;
    // Cancelled: created, moved, cancelled; nothing of it stays but its id.
    let mut cancelled = people_game(store.new_game_id().unwrap(), 4, 1_000);
    store.create_game(cancelled.clone()).await.unwrap();
    play_notation(&mut cancelled, "11-15", 2_000);
    store.update_game(4, 0, &cancelled).await.unwrap();
    assert!(store.cancel_game(4, 1).await.unwrap());
    // Running, with its board shown.
    let mut running = people_game(store.new_game_id().unwrap(), 5, 1_000);
    store.create_game(running.clone()).await.unwrap();
    play_notation(&mut running, "11-15", 2_000);
    running.revision = store.update_game(5, 0, &running).await.unwrap();
    let post = BoardPost {
        game_id: running.id,
        message_id: 555,
        ply: 1,
    };
    store.record_board_post(5, post, false).await.unwrap();
    // Open challenges, one with its message.
    put_open_challenge(store, 6, 1, 3).await;
    put_open_challenge(store, 7, 2, 3).await;
    assert!(store.set_challenge_message(7, 1_000, 777).await.unwrap());
    // A game thread with its line in the parent channel.
    let thread = damas::store::GameThread {
        parent_channel_id: 5,
        game_id: running.id,
        line_message_id: Some(556),
    };
    store.put_game_thread(8, &thread).await.unwrap();
    // A tournament whose game is the running one (its state the app's; here a stand-in).
    let tournament = damas::store::TournamentRecord {
        id: 9,
        version: 0,
        guild_id: Some(10),
        channel_id: 5,
        organiser: 1,
        entrants: vec![human(1), human(2)],
        state: ("spring".to_string(), vec![1u32, 2]),
    };
    store.create_tournament(&tournament).await.unwrap();
    store
        .update_tournament(&tournament, &[running.id])
        .await
        .unwrap();
    // A puzzle solver on a server's puzzle board.
    puzzle_solved(store, 3, "solver", 10, 1_350.0).await;
    // A server's settings.
    store
        .change_server_settings(10, |s| {
            s.variant.set(Some(Variant::English), 1, 3_000);
            s.channels.set(Some(vec![5]), 2, 4_000);
        })
        .await
        .unwrap();
    running
}

/// What the bot reads of [`one_of_everything`]'s data, record by record.
fn readings(store: &Store) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
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
            .leaderboard(10, Variant::English, Some(Level::Hard), 10)
            .unwrap(),
        store.tournaments::<(String, Vec<u32>)>().unwrap(),
        store.server_settings(10).unwrap(),
    )
}

/// `damas store copy`'s work, both ways: sled to PostgreSQL and back, every byte and every
/// record the same, ids going on past the copied ones, and the copy usable.
#[tokio::test]
async fn a_copy_round_trips_between_sled_and_postgres() {
    let Some(pg_db) = TestDb::optional(Backend::Postgres) else {
        return;
    };
    let sled_db = TestDb::new(Backend::Sled);
    let source = sled_db.open();
    let running = one_of_everything(&source).await;
    let expected_bytes = all_bytes(&source);
    let expected = readings(&source);
    for tree in TREES {
        assert!(source.raw_count(tree).unwrap() > 0, "the test fills {tree}");
    }

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
        play_notation(&mut next, "22-18", 3_000);
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
    let Some(target_db) = TestDb::optional(match db.backend {
        Backend::Sled => Backend::Postgres,
        Backend::Postgres => Backend::Sled,
    }) else {
        return;
    };
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
    let Some(target_db) = TestDb::optional(Backend::Postgres) else {
        return;
    };
    let source_db = TestDb::new(Backend::Sled);
    let source = source_db.open();
    one_of_everything(&source).await;
    let expected = all_bytes(&source);
    // sled opens in one process at a time: the command's.
    drop(source);
    let copy = || {
        crate::support::cli::command()
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
