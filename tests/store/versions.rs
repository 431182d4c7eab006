//! Records written by format version 1 still read (and play on).

use super::*;

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
    play_notation(&mut next, "22-18", 3_000);
    store.update_game(10, 1, &next).await.unwrap();
    let store = reopen(&db, store);
    let raw = store.raw_get(TREE_GAMES, &key(10)).unwrap().unwrap();
    assert_eq!(raw[0], FORMAT_VERSION);
}
}
