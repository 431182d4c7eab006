//! End to end: the real serenity client, our router and application layer, against a local
//! stand-in for Discord that speaks its real JSON over HTTP and the gateway websocket.

mod bot_support;
mod discord_stand_in;

use bot_support::*;
use damas::app::{App, Config};
use damas::discord::Token;
use damas::engine::{Color, Position, Variant};
use damas::store::Store;
use discord_stand_in::*;

/// The description (alt text) Discord keeps on a message's board picture.
fn picture_description(message: &serde_json::Value) -> String {
    let board = message["attachments"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["filename"] == "board.png"))
        .unwrap_or_else(|| panic!("no board.png attachment: {message}"));
    let text = board["description"]
        .as_str()
        .unwrap_or_else(|| panic!("the board has no description: {board}"))
        .to_string();
    assert!(text.chars().count() <= 1024, "{text}");
    text
}

/// Reads each side's men and kings back from a description ("White: men 9, 10; king 14.",
/// "Negras: peones 21, 22; sin damas.") and checks they are exactly the position's.
fn assert_description_lists(text: &str, pos: &Position, labels: [&str; 2]) {
    for (label, colour) in labels.into_iter().zip([Color::White, Color::Black]) {
        let after = text
            .split(&format!("{label}: "))
            .nth(1)
            .unwrap_or_else(|| panic!("no {label:?} in {text}"));
        let side = after.split('.').next().unwrap_or_default();
        let (mut men, mut kings) = (Vec::new(), Vec::new());
        for part in side.split(';') {
            let numbers: Vec<u8> = part
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect();
            let first_word = part.split_whitespace().next().unwrap_or_default();
            match first_word {
                "man" | "men" | "peón" | "peones" => men = numbers,
                "king" | "kings" | "dama" | "damas" => kings = numbers,
                _ => assert!(numbers.is_empty(), "{part:?} in {text}"),
            }
        }
        let squares = |b: damas::engine::Bitboard| -> Vec<u8> {
            let mut v: Vec<u8> = b.squares().map(|s| s.number()).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(men, squares(pos.men(colour)), "{label} men in {text}");
        assert_eq!(kings, squares(pos.kings(colour)), "{label} kings in {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_a_short_game_in_a_channel() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &db).await;

    // The commands are registered in the guild, with Spanish localizations.
    let put = standin.commands_put().await;
    let names: Vec<&str> = put
        .body()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    for n in [
        "challenge",
        "play",
        "move",
        "board",
        "resign",
        "draw",
        "undo",
        "explain",
        "rules",
        "stats",
        "leaderboard",
        "pdn",
        "help",
        "cancel",
    ] {
        assert!(names.contains(&n), "command {n} registered: {names:?}");
    }
    let challenge_cmd = &put.body().as_array().unwrap()[0];
    assert_eq!(challenge_cmd["name_localizations"]["es-ES"], "desafiar");
    assert_eq!(challenge_cmd["name_localizations"]["es-419"], "desafiar");

    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob").with_locale("es-ES");
    let carol = TestUser::random("carol");
    let place = Place::guild(GUILD, snowflake());

    // alice challenges bob, playing White.
    let sent = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "challenge",
            vec![
                opt_user("opponent", &bob),
                opt_str("variant", "spanish"),
                opt_str("colour", "white"),
            ],
        ))
        .await;
    let cb = standin.callback(&sent).await;
    assert_eq!(cb.callback_type(), Some(4));
    assert!(!cb.is_ephemeral());
    assert!(
        text(&cb).contains(&format!("<@{}>", bob.id)),
        "{}",
        text(&cb)
    );
    let challenge = standin.original_message(&sent);
    let accept = custom_id_starting(&challenge, "damas:accept:");

    // carol's click is refused privately.
    let click = standin
        .send_interaction(standin.button_click(&carol, &challenge, &accept))
        .await;
    let cb = standin.callback(&click).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert!(text(&cb).contains("not for you"), "{}", text(&cb));

    // bob accepts: the board, in Spanish for him, with the start position in the picture.
    let click = standin
        .send_interaction(standin.button_click(&bob, &challenge, &accept))
        .await;
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral());
    assert!(text(&cb).contains("Empieza"), "{}", text(&cb));
    let start = Position::start(Variant::Spanish);
    assert_picture_shows(&board_png(&cb), &start, Color::White);
    let board1 = standin.original_message(&click);
    // The picture's alt text, in bob's Spanish, lists every piece.
    let alt = picture_description(&board1);
    assert_description_lists(&alt, &start, ["Blancas", "Negras"]);
    assert!(alt.starts_with("Damas españolas."), "{alt}");
    assert!(alt.contains("Juegan las blancas (alice)."), "{alt}");
    assert!(custom_ids(&board1)
        .iter()
        .any(|id| id.starts_with("damas:move:")));

    // Autocomplete lists the matching legal moves.
    let ac = standin
        .send_interaction(standin.autocomplete(
            &alice,
            place,
            "move",
            vec![opt_focused("move", 3, "11")],
        ))
        .await;
    let cb = standin.callback(&ac).await;
    let mut choices: Vec<String> = cb
        .choices()
        .iter()
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect();
    choices.sort();
    assert_eq!(choices, vec!["11-14", "11-15"]);

    // alice plays 10-14 by /move; the old board loses its controls.
    let mv = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "move",
            vec![opt_str("move", "10-14")],
        ))
        .await;
    let cb = standin.callback(&mv).await;
    assert!(text(&cb).contains("alice played 10-14"), "{}", text(&cb));
    let mut pos = start.apply(&start.parse_move("10-14").unwrap());
    assert_picture_shows(&board_png(&cb), &pos, Color::Black);
    let board1_id: u64 = board1["id"].as_str().unwrap().parse().unwrap();
    standin
        .next_request(|r| {
            r.method == "PATCH"
                && matches!(r.route, Route::ChannelMessage { message, .. } if message == board1_id)
        })
        .await;
    let board2 = standin.original_message(&mv);

    // bob plays 23-19 from the board's menu.
    let menu = custom_id_starting(&board2, "damas:move:");
    let pick = standin
        .send_interaction(standin.select_menu(&bob, &board2, &menu, &["23-19"]))
        .await;
    let cb = standin.callback(&pick).await;
    assert!(text(&cb).contains("bob jugó 23-19"), "{}", text(&cb));
    pos = pos.apply(&pos.parse_move("23-19").unwrap());
    assert_picture_shows(&board_png(&cb), &pos, Color::White);
    let board3 = standin.original_message(&pick);

    // A click on an outdated board says so and changes nothing.
    let resign_old = custom_id_starting(&board2, "damas:resign:");
    let stale = standin
        .send_interaction(standin.button_click(&bob, &board2, &resign_old))
        .await;
    let cb = standin.callback(&stale).await;
    assert!(cb.is_ephemeral());
    assert!(text(&cb).contains("desactualizado"), "{}", text(&cb));

    // An illegal move is answered privately with its reason and the legal moves.
    let bad = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "move",
            vec![opt_str("move", "9-13")],
        ))
        .await;
    let cb = standin.callback(&bad).await;
    assert!(cb.is_ephemeral());
    assert!(
        text(&cb).contains("Capturing is mandatory"),
        "{}",
        text(&cb)
    );
    assert!(text(&cb).contains("14x23"), "{}", text(&cb));

    // Someone else's move is refused.
    let intruder = standin
        .send_interaction(standin.slash_command(
            &carol,
            place,
            "move",
            vec![opt_str("move", "14x23")],
        ))
        .await;
    assert!(standin.callback(&intruder).await.is_ephemeral());

    // alice takes: a forced capture. bob asks why.
    let take = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "move",
            vec![opt_str("move", "14x23")],
        ))
        .await;
    standin.callback(&take).await;
    pos = pos.apply(&pos.parse_move("14x23").unwrap());
    // alice's board, in English: the last move, every piece, and the captures bob must choose
    // from.
    let alt = picture_description(&standin.original_message(&take));
    assert_description_lists(&alt, &pos, ["White", "Black"]);
    assert!(alt.contains("Last move: 14x23, by White (alice)."), "{alt}");
    let mut captures: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.move_notation(m))
        .collect();
    captures.sort();
    let listed = alt
        .split("Compulsory capture")
        .nth(1)
        .unwrap_or_else(|| panic!("no compulsory captures in {alt}"));
    for c in &captures {
        assert!(listed.contains(c.as_str()), "{c} missing: {alt}");
    }
    let why = standin
        .send_interaction(standin.slash_command(&bob, place, "explain", vec![]))
        .await;
    let cb = standin.callback(&why).await;
    let t = text(&cb);
    assert!(t.contains("14x23"), "{t}");
    assert!(t.to_lowercase().contains("comer es obligatorio"), "{t}");
    assert!(cb.file("board.png").is_some(), "the explanation picture");
    let _ = board3;

    // The bot restarts in the middle of the game; the game goes on.
    bot.stop().await;
    standin.wait_disconnected().await;
    let bot = start_bot(&standin, &db).await;
    let after = standin
        .send_interaction(standin.slash_command(
            &bob,
            place,
            "move",
            vec![opt_str("move", "28x19")],
        ))
        .await;
    let cb = standin.callback(&after).await;
    assert!(!cb.is_ephemeral(), "{}", text(&cb));
    pos = pos.apply(&pos.parse_move("28x19").unwrap());
    assert_picture_shows(&board_png(&cb), &pos, Color::White);
    let board = standin.original_message(&after);

    // alice resigns with the button.
    let resign = custom_id_starting(&board, "damas:resign:");
    let r = standin
        .send_interaction(standin.button_click(&alice, &board, &resign))
        .await;
    let cb = standin.callback(&r).await;
    assert!(
        text(&cb).contains("Black wins by resignation"),
        "{}",
        text(&cb)
    );
    let controls = custom_ids(cb.message_body());
    assert!(
        controls.len() == 1 && controls[0].starts_with("damas:rematch:"),
        "a finished game has no controls but Rematch: {controls:?}"
    );

    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_is_played_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &db).await;
    standin.commands_put().await;
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());

    let sent = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "play",
            vec![
                opt_str("level", "easy"),
                opt_str("variant", "english"),
                opt_str("colour", "black"),
            ],
        ))
        .await;
    standin.callback(&sent).await;
    let mut board = standin.original_message(&sent);
    let mut finished = false;
    for _turn in 0..200 {
        // alice plays the first move of the menu.
        let Some(choice) = first_menu_move(&standin, &alice, &board) else {
            break;
        };
        let pick = standin.send_interaction(choice).await;
        let cb = standin.callback(&pick).await;
        assert!(!cb.is_ephemeral(), "{}", text(&cb));
        if text(&cb).contains("wins") || text(&cb).contains("Draw") {
            finished = true;
            break;
        }
        // The bot's answer is posted in the channel.
        let f = standin.channel_post(place.channel).await;
        assert!(text(&f).contains("Bot · easy played"), "{}", text(&f));
        let id = f.message_id().expect("the bot's message id");
        board = standin.message(id).expect("the bot's board");
        if text(&f).contains("wins") || text(&f).contains("Draw") {
            finished = true;
            break;
        }
    }
    assert!(finished, "the game ends by the rules");
    let pdn = standin
        .send_interaction(standin.slash_command(&alice, place, "pdn", vec![]))
        .await;
    let cb = standin.callback(&pdn).await;
    let file = cb
        .files
        .iter()
        .find(|f| f.filename.ends_with(".pdn"))
        .unwrap_or_else(|| {
            let names: Vec<&str> = cb.files.iter().map(|f| f.filename.as_str()).collect();
            panic!("no .pdn file among {names:?}: {:?}", cb.json)
        });
    let text = String::from_utf8(file.bytes.clone()).unwrap();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_gives_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let mut config = bot_config(&standin, &dir.path().join("db"));
    config.token = Token::new("wrong.token.here");
    let store = Store::open(dir.path().join("db")).unwrap();
    let err = damas::discord::client(&config, App::new(store, Config::default()))
        .await
        .err()
        .expect("a wrong token is refused");
    let msg = err.to_string();
    assert!(msg.contains("rejected") && msg.contains(".env"), "{msg}");
    assert!(!msg.contains("wrong.token.here"), "the token never shows");
    assert!(!format!("{config:?}").contains("wrong.token.here"));
}
