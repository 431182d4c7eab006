//! Two processes on one PostgreSQL database, each its own `Store`: what one remembers of a
//! channel's game and board (to write without reading again) never lets it write over what
//! the other wrote since. sled has one process, whose every write goes through its one store.

use super::*;
use damas::store::StoreError;

/// Two stores on one fresh PostgreSQL database, as two processes open it; `None` when the
/// test is skipped for want of PostgreSQL.
fn two_processes() -> Option<(Store, Store)> {
    let db = TestDb::optional(Backend::Postgres)?;
    Some((db.open(), db.open()))
}

/// Plays the first legal move of the record's position.
fn first_move(rec: &mut damas::store::GameRecord, now_ms: u64) {
    let game = rec.to_game().expect("record replays");
    let mv = game.position().legal_moves()[0];
    push_move(rec, mv, now_ms);
}

/// Plays the last legal move of the record's position.
fn last_move(rec: &mut damas::store::GameRecord, now_ms: u64) {
    let game = rec.to_game().expect("record replays");
    let mv = *game.position().legal_moves().last().expect("a legal move");
    push_move(rec, mv, now_ms);
}

fn post(message_id: u64, ply: usize) -> BoardPost {
    BoardPost {
        game_id: 1,
        message_id,
        ply,
    }
}

#[tokio::test]
async fn a_move_built_on_what_one_process_saw_conflicts_once_the_other_moved() {
    let Some((a, b)) = two_processes() else {
        return;
    };
    let mut g = people_game(1, 30, 1_000);
    a.create_game(g.clone()).await.unwrap();
    first_move(&mut g, 2_000);
    g.revision = a.update_game(30, 0, &g).await.unwrap();
    // The other process moves next.
    let mut theirs = b.active_game(30).unwrap().unwrap();
    first_move(&mut theirs, 3_000);
    b.update_game(30, 1, &theirs).await.unwrap();
    // The first one, on its own memory of the game at ply 1, is refused.
    let mut mine = g.clone();
    last_move(&mut mine, 4_000);
    assert_ne!(mine.moves, theirs.moves);
    match a.update_game(30, 1, &mine).await {
        Err(StoreError::Conflict { found_ply, .. }) => assert_eq!(found_ply, Some(2)),
        other => panic!("a conflict expected, not {other:?}"),
    }
    assert_eq!(a.active_game(30).unwrap().unwrap().moves, theirs.moves);
}

#[tokio::test]
async fn a_board_recorded_from_memory_is_checked_against_what_is_stored() {
    let Some((a, b)) = two_processes() else {
        return;
    };
    let mut g = people_game(1, 30, 1_000);
    a.create_game(g.clone()).await.unwrap();
    assert_eq!(
        a.record_board_post(30, post(100, 0), false).await.unwrap(),
        PostRecorded::Current { replaced: None }
    );
    first_move(&mut g, 2_000);
    a.update_game(30, 0, &g).await.unwrap();
    // The other process moves before the first one's board of ply 1 is recorded.
    let mut theirs = b.active_game(30).unwrap().unwrap();
    first_move(&mut theirs, 3_000);
    b.update_game(30, 1, &theirs).await.unwrap();
    assert_eq!(
        a.record_board_post(30, post(101, 1), false).await.unwrap(),
        PostRecorded::Outdated,
        "the game moved on in the other process"
    );
    assert_eq!(
        b.record_board_post(30, post(102, 2), false).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(100)
        }
    );
    // The first process moves again: the board it remembers (100) is not the recorded one
    // any more, and the one it replaces is the other process's.
    let mut next = a.active_game(30).unwrap().unwrap();
    first_move(&mut next, 4_000);
    a.update_game(30, 2, &next).await.unwrap();
    assert_eq!(
        a.record_board_post(30, post(103, 3), false).await.unwrap(),
        PostRecorded::Current {
            replaced: Some(102)
        }
    );
    assert_eq!(b.board_post(30).unwrap(), Some(post(103, 3)));
}
