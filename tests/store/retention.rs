//! Finished games kept for a time (`DAMAS_KEEP_GAMES_DAYS`): the old ones leave the store with
//! their index entries and pointers, on both backends; what they counted for (records,
//! ratings, leaderboards) stays, and so do recent games, games under way and the games of a
//! tournament still running.

use super::*;
use damas::store::{RemovedGames, TournamentRecord, TREE_BY_CHANNEL, TREE_BY_PLAYER};
use std::collections::BTreeSet;

const GUILD: u64 = 500;

/// A Spanish game between `white` and `black` in `channel`, created at `created`, ended by
/// Black's resignation at `ended`: archived.
async fn finished(store: &Store, id: u64, channel: u64, players: (u64, u64), at: (u64, u64)) {
    let (white, black) = players;
    let (created, ended) = at;
    let mut g = new_game(
        id,
        Some(GUILD),
        channel,
        Variant::Spanish,
        [human(white), human(black)],
    );
    g.created_at_ms = created;
    g.last_move_at_ms = created;
    store.create_game(g.clone()).await.unwrap();
    g.outcome = Some(win(Color::White, WinReason::Resignation));
    g.last_move_at_ms = ended;
    store.finish_game(channel, 0, &g, &Scoring).await.unwrap();
}

fn ids(games: Vec<damas::store::GameRecord>) -> Vec<u64> {
    games.into_iter().map(|g| g.id).collect()
}

/// Tournament `id`, its one game `game`.
async fn tournament_with_game(store: &Store, id: u64, game: u64) {
    let t = TournamentRecord {
        id,
        version: 0,
        guild_id: Some(GUILD),
        channel_id: 90,
        organiser: 1,
        entrants: vec![human(6), human(7)],
        state: format!("tournament {id}"),
    };
    store.create_tournament(&t).await.unwrap();
    store.update_tournament(&t, &[game]).await.unwrap();
}

on_both_backends! {
#[tokio::test]
async fn old_finished_games_go_with_their_pointers_and_what_they_counted_for_stays(db) {
    let store = db.open();
    let day = DAY_MS;
    // Ids in the order the games were created, as the store hands them out.
    finished(&store, 1, 30, (1, 2), (1_000, 2 * day)).await;
    // Against the computer, with its final board recorded as the channel's board.
    let vs_bot = one_move_win_game(2, GUILD, 31, 1, Level::Hard);
    store.create_game(vs_bot.clone()).await.unwrap();
    win_it(&store, vs_bot).await;
    let post = BoardPost { game_id: 2, message_id: 78, ply: 1 };
    assert!(matches!(
        store.record_board_post(31, post, true).await.unwrap(),
        PostRecorded::Current { .. }
    ));
    // The last game between 2 and 3.
    finished(&store, 3, 32, (2, 3), (3 * day, 4 * day)).await;
    // Under way since long ago: never touched.
    let mut under_way = new_game(4, Some(GUILD), 33, Variant::Spanish, [human(1), human(3)]);
    under_way.created_at_ms = 3 * day;
    store.create_game(under_way.clone()).await.unwrap();
    // Games of a running tournament and of one that is over.
    finished(&store, 5, 34, (6, 7), (5 * day, 6 * day)).await;
    tournament_with_game(&store, 100, 5).await;
    finished(&store, 6, 35, (6, 7), (5 * day, 6 * day)).await;
    tournament_with_game(&store, 101, 6).await;
    // Started before the cutoff, ended after it: kept.
    finished(&store, 7, 36, (4, 5), (50 * day, 150 * day)).await;
    // Recent, in the channel of game 1 and between the same two people, its board recorded.
    finished(&store, 10, 30, (1, 2), (200 * day, 201 * day)).await;
    let post = BoardPost { game_id: 10, message_id: 79, ply: 0 };
    store.record_board_post(30, post, true).await.unwrap();

    let players_before: Vec<_> = (1..=7).map(|u| store.player(u).unwrap()).collect();
    let boards = |s: &Store| {
        (
            s.leaderboard(GUILD, Variant::Spanish, None, 10).unwrap(),
            s.leaderboard(GUILD, Variant::English, Some(Level::Hard), 10).unwrap(),
        )
    };
    let boards_before = boards(&store);
    assert!(!boards_before.0.is_empty() && !boards_before.1.is_empty());
    assert_eq!(store.raw_count(TREE_BY_CHANNEL).unwrap(), 7);

    let over = BTreeSet::from([101]);
    let removed = store.remove_finished_games(100 * day, &over, 100).await.unwrap();
    assert_eq!(removed, RemovedGames { games: 4, more_due: false });

    for gone in [1, 2, 3, 6] {
        assert!(store.archived_game(gone).unwrap().is_none(), "game {gone}");
    }
    for kept in [5, 7, 10] {
        assert!(store.archived_game(kept).unwrap().is_some(), "game {kept}");
    }
    assert_eq!(store.active_game(33).unwrap(), Some(under_way));
    assert_eq!(ids(store.games_of_player(1, usize::MAX).unwrap()), [10]);
    assert_eq!(ids(store.games_of_player(2, usize::MAX).unwrap()), [10]);
    assert!(store.games_of_player(3, usize::MAX).unwrap().is_empty());
    assert_eq!(ids(store.games_in_channel(30, usize::MAX).unwrap()), [10]);
    assert!(store.games_in_channel(31, usize::MAX).unwrap().is_empty());
    assert_eq!(store.raw_count(TREE_BY_CHANNEL).unwrap(), 3);
    // 1 and 2 in game 10, 6 and 7 in game 5, 4 and 5 in game 7.
    assert_eq!(store.raw_count(TREE_BY_PLAYER).unwrap(), 6);
    // The last game between two people goes with it, but not a later one.
    assert!(store.last_game_between(2, 3).unwrap().is_none());
    assert_eq!(store.last_game_between(2, 1).unwrap().map(|g| g.id), Some(10));
    // A board post showing a removed game goes; one showing a later game stays.
    assert!(store.board_post(31).unwrap().is_none());
    assert_eq!(store.board_post(30).unwrap().map(|p| p.game_id), Some(10));
    assert_eq!(store.tournament_of_game(5).unwrap(), Some(100));
    assert_eq!(store.tournament_of_game(6).unwrap(), None);

    // What the games counted for is untouched.
    let players_after: Vec<_> = (1..=7).map(|u| store.player(u).unwrap()).collect();
    assert_eq!(players_after, players_before);
    assert_eq!(boards(&store), boards_before);

    // Nothing more is due.
    let again = store.remove_finished_games(100 * day, &over, 100).await.unwrap();
    assert_eq!(again, RemovedGames::default());
}
}

on_both_backends! {
#[tokio::test]
async fn a_long_backlog_is_removed_a_limited_number_at_a_time(db) {
    let store = db.open();
    for id in 1..=3 {
        finished(&store, id, 40 + id, (1, 2), (id * 1_000, id * 2_000)).await;
    }
    let none = BTreeSet::new();
    let first = store.remove_finished_games(DAY_MS, &none, 2).await.unwrap();
    assert_eq!(first, RemovedGames { games: 2, more_due: true });
    assert_eq!(ids(store.games_of_player(1, usize::MAX).unwrap()), [3]);
    let second = store.remove_finished_games(DAY_MS, &none, 2).await.unwrap();
    assert_eq!(second, RemovedGames { games: 1, more_due: false });
    assert!(store.archived_game(3).unwrap().is_none());
    assert!(store.player(1).unwrap().is_some(), "the records stay");
}
}
