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
    assert_eq!((c.lang.code(), c.move_time_ms), ("en", None));
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
        players: [human(1), bot(Level::Hard)],
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
    assert_eq!(rec.players, ByColour::new(human(1), bot(Level::Hard)));
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

/// A seat as the current format laid it out before levels were typed: the level a string.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
enum StringSeat {
    Human { user_id: u64, name: String },
    Bot { level: String },
    Deleted,
}

/// A game record of the current format (3) as it was declared before its level, language and
/// seats had types of their own: the level and the language strings, the seats an array.
#[derive(serde::Serialize, serde::Deserialize, Debug)]
struct StringGameRecord {
    id: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    variant: Variant,
    start_fen: Option<String>,
    players: [StringSeat; 2],
    moves: Vec<StoredMove>,
    draw_offer: Option<Color>,
    undo_used: bool,
    created_at_ms: u64,
    last_move_at_ms: u64,
    move_time_ms: u64,
    reminded_ply: Option<usize>,
    lang: String,
    outcome: Option<Outcome>,
    revision: u64,
    opening: Option<String>,
}

/// A challenge of the current format as it was declared with its language a string.
#[derive(serde::Serialize, serde::Deserialize, Debug)]
struct StringChallenge {
    challenger: UserRef,
    challenged: UserRef,
    variant: Variant,
    challenger_color: Option<Color>,
    created_at_ms: u64,
    expires_at_ms: u64,
    message_id: Option<u64>,
    lang: String,
    move_time_ms: Option<u64>,
    opening: Option<String>,
}

fn string_game(
    channel_id: u64,
    white: StringSeat,
    black: StringSeat,
    lang: &str,
) -> StringGameRecord {
    StringGameRecord {
        id: channel_id + 1_000,
        guild_id: Some(3),
        channel_id,
        variant: Variant::Spanish,
        start_fen: None,
        players: [white, black],
        moves: Vec::new(),
        draw_offer: None,
        undo_used: false,
        created_at_ms: 1_000,
        last_move_at_ms: 2_000,
        move_time_ms: DAY_MS,
        reminded_ply: Some(0),
        lang: lang.to_string(),
        outcome: None,
        revision: 2,
        opening: None,
    }
}

fn human_named(user_id: u64, name: &str) -> damas::store::Seat {
    damas::store::Seat::Human {
        user_id,
        name: name.to_string(),
    }
}

fn encoded<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut bytes = vec![FORMAT_VERSION];
    bytes.extend(postcard::to_allocvec(value).unwrap());
    bytes
}

on_both_backends! {
#[tokio::test]
async fn records_with_level_and_language_strings_read_as_the_typed_records(db) {
    let ana = || StringSeat::Human { user_id: 1, name: "ana".into() };
    let old = [
        string_game(10, ana(), StringSeat::Bot { level: "hard".into() }, "es"),
        string_game(11, StringSeat::Bot { level: "expert".into() }, ana(), "en"),
        // A code neither language has reads as English, as the app read it before.
        string_game(12, ana(), StringSeat::Bot { level: "easy".into() }, "pt"),
    ];
    let challenge = StringChallenge {
        challenger: UserRef { user_id: 1, name: "ana".into(), is_bot: false },
        challenged: UserRef { user_id: 2, name: "beto".into(), is_bot: false },
        variant: Variant::English,
        challenger_color: None,
        created_at_ms: 5,
        expires_at_ms: 900_005,
        message_id: None,
        lang: "es".into(),
        move_time_ms: Some(DAY_MS),
        opening: Some("9-13 22-18 11-15".into()),
    };
    let store = db.open();
    let games: Vec<_> = old.iter().map(|g| (key(g.channel_id), encoded(g))).collect();
    store.raw_put(TREE_GAMES, &games).await.unwrap();
    store
        .raw_put(TREE_CHALLENGES, &[(key(20), encoded(&challenge))])
        .await
        .unwrap();
    let store = reopen(&db, store);

    let hard = store.active_game(10).unwrap().expect("decodes");
    assert_eq!(hard.players, ByColour::new(human_named(1, "ana"), bot(Level::Hard)));
    assert_eq!(hard.lang, Lang::Es);
    assert_eq!((hard.id, hard.revision, hard.reminded_ply), (1_010, 2, Some(0)));
    let expert = store.active_game(11).unwrap().expect("decodes");
    assert_eq!(expert.players.white, bot(Level::Expert));
    assert_eq!(expert.lang, Lang::En);
    let unknown_lang = store.active_game(12).unwrap().expect("decodes");
    assert_eq!(unknown_lang.lang, Lang::En);
    assert_eq!(unknown_lang.players.black, bot(Level::Easy));
    let c = store.challenge(20).unwrap().expect("decodes");
    assert_eq!((c.lang, c.move_time_ms), (Lang::Es, Some(DAY_MS)));
    assert_eq!(c.opening.as_deref(), Some("9-13 22-18 11-15"));

    // The typed records encode to exactly the bytes of the old declaration (except for a
    // language code that named neither language, which is written back as `en`).
    assert_eq!(postcard::to_allocvec(&hard).unwrap(), postcard::to_allocvec(&old[0]).unwrap());
    assert_eq!(postcard::to_allocvec(&expert).unwrap(), postcard::to_allocvec(&old[1]).unwrap());
    assert_eq!(postcard::to_allocvec(&c).unwrap(), postcard::to_allocvec(&challenge).unwrap());

    // And what the store writes now, an older binary reads: a new game's stored bytes decode
    // in the old declaration with the level's and the language's strings.
    let mut rec = new_game(7, Some(3), 30, Variant::English, [bot(Level::Medium), human_named(1, "ana")]);
    rec.lang = Lang::Es;
    store.create_game(rec).await.unwrap();
    let raw = store.raw_get(TREE_GAMES, &key(30)).unwrap().unwrap();
    assert_eq!(raw[0], FORMAT_VERSION);
    let back: StringGameRecord = postcard::from_bytes(&raw[1..]).unwrap();
    assert_eq!(back.players[0], StringSeat::Bot { level: "medium".into() });
    assert_eq!(back.players[1], ana());
    assert_eq!(back.lang, "es");
}
}

on_both_backends! {
#[tokio::test]
async fn a_stored_level_that_names_no_level_is_reported_not_guessed(db) {
    let rec = string_game(
        10,
        StringSeat::Human { user_id: 1, name: "ana".into() },
        StringSeat::Bot { level: "grandmaster".into() },
        "en",
    );
    let store = db.open();
    store
        .raw_put(TREE_GAMES, &[(key(10), encoded(&rec))])
        .await
        .unwrap();
    let store = reopen(&db, store);
    match store.active_game(10) {
        Err(StoreError::Corrupt { tree, reason, .. }) => {
            assert_eq!(tree, TREE_GAMES);
            assert!(reason.contains("computer level"), "{reason}");
        }
        other => panic!("expected a corrupt record, got {other:?}"),
    }
    assert_eq!(
        store.raw_get(TREE_GAMES, &key(10)).unwrap(),
        Some(encoded(&rec)),
        "left as it is"
    );
}
}
