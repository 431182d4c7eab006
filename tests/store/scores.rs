//! Scores, ranks and Glicko-2 ratings as games end, a loss on time scored like any loss.

use super::*;

on_both_backends! {
#[tokio::test]
async fn wins_against_the_computer_score_and_rank_as_docs_game_app_says(db) {
    let store = db.open();
    let guild = 77;
    // A ranked win.
    let rec = one_move_win_game(1, guild, 10, 500, Level::Hard);
    store.create_game(rec.clone()).await.unwrap();
    let summary = win_it(&store, rec).await;
    let seat = summary.seats.black.as_ref().expect("the human is Black");
    assert_eq!(seat.result, GameResult::Win);
    assert_eq!(seat.score, Some(ONE_MOVE_WIN_SCORE));
    assert!(seat.ranked && seat.new_best);
    assert_eq!(
        score(&store.archived_game(1).unwrap().unwrap()),
        ONE_MOVE_WIN_SCORE
    );

    // The same win with an undo: `/undo` said the game no longer counts, so it stays out of
    // the wins `/stats` shows and is only noted apart, never ranked.
    let mut undo = one_move_win_game(2, guild, 11, 600, Level::Hard);
    undo.undo_used = true;
    store.create_game(undo.clone()).await.unwrap();
    let summary = win_it(&store, undo).await;
    let seat = summary.seats.black.as_ref().unwrap();
    assert!(!seat.ranked && !seat.new_best);
    let p = store.player(600).unwrap().unwrap();
    let hard = p.bot(Variant::English, Level::Hard);
    assert_eq!(
        (hard.tally.wins, hard.unranked_wins, hard.best_score),
        (0, 1, None)
    );

    // Abandoning half way is a loss.
    let mut left = new_game(
        3,
        Some(guild),
        12,
        Variant::English,
        [bot(Level::Hard), human(500)],
    );
    store.create_game(left.clone()).await.unwrap();
    left.outcome = Some(win(Color::White, WinReason::Abandoned));
    let summary = store.finish_game(12, 0, &left, &Scoring).await.unwrap();
    let seat = summary.seats.black.as_ref().unwrap();
    assert_eq!(
        (seat.result, seat.score, seat.ranked),
        (GameResult::Loss, Some(0), false)
    );
    let p = store.player(500).unwrap().unwrap();
    let hard = p.bot(Variant::English, Level::Hard);
    assert_eq!(
        (hard.tally.wins, hard.tally.losses, hard.best_score),
        (1, 1, Some(ONE_MOVE_WIN_SCORE))
    );

    // A lower score later does not replace the best one.
    let mut slower = one_move_win_game(4, guild, 13, 500, Level::Hard);
    slower.start_fen = Some("B:W22:B18".to_string());
    let pos = Position::from_fen(Variant::English, "B:W22:B18").unwrap();
    store.create_game(slower.clone()).await.unwrap();
    push_move(&mut slower, pos.parse_move("18x25").unwrap(), 2_000);
    let summary = store.finish_game(13, 0, &slower, &Scoring).await.unwrap();
    let seat = summary.seats.black.as_ref().unwrap();
    assert_eq!(
        (seat.score, seat.ranked, seat.new_best),
        (Some(690), true, false)
    );

    let board = store
        .leaderboard(guild, Variant::English, Some(Level::Hard), 10)
        .unwrap();
    assert_eq!(board.len(), 1, "the undo win is not ranked: {board:?}");
    assert_eq!(
        (board[0].user_id, board[0].score, board[0].games),
        (500, ONE_MOVE_WIN_SCORE, 3)
    );
    assert!(store
        .leaderboard(guild, Variant::English, Some(Level::Easy), 10)
        .unwrap()
        .is_empty());
    assert!(store
        .leaderboard(guild + 1, Variant::English, Some(Level::Hard), 10)
        .unwrap()
        .is_empty());
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
    let summary = store.finish_game(100, 0, &g, &Scoring).await.unwrap();
    let (before, after) = summary.seats.white.as_ref().unwrap().rating.unwrap();
    assert!(after.rating > before.rating);
    let (_, bob_after) = summary.seats.black.as_ref().unwrap().rating.unwrap();
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
        store.finish_game(channel, 0, &g, &Scoring).await.unwrap();
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
async fn a_loss_on_time_is_archived_and_scored_like_any_loss(db) {
    let store = db.open();
    let t0 = 50 * DAY_MS;
    // Between people: White moves, then Black's time runs out.
    let g = people_game_after_a_move(&store, t0, DAY_MS).await;
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
    timed_out.outcome = Some(win(Color::White, WinReason::Time));
    let summary = store.finish_game(30, 1, &timed_out, &Scoring).await.unwrap();
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
    let mut b = new_game(3, Some(1), 31, Variant::Spanish, [human(9), bot(Level::Easy)]);
    store.create_game(b.clone()).await.unwrap();
    b.outcome = Some(win(Color::Black, WinReason::Time));
    let summary = store.finish_game(31, 0, &b, &Scoring).await.unwrap();
    let human = summary.seats.white.as_ref().unwrap();
    assert_eq!((human.result, human.score), (GameResult::Loss, Some(0)));
    let record = store.player(9).unwrap().unwrap();
    assert_eq!(
        record.bot(Variant::Spanish, Level::Easy).tally.losses,
        1
    );
}
}
