//! End to end: the real serenity client, our router and application layer, against a local
//! stand-in for Discord that speaks its real JSON over HTTP and the gateway websocket.

use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::app::{App, Settings};
use damas::discord::Token;
use damas::engine::{Color, Position, Variant};
use damas::store::Store;

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
            // "men 1 to 12, 14": ranges spelled out.
            let mut numbers: Vec<u8> = Vec::new();
            for item in part.split(',') {
                let ends: Vec<u8> = item
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .collect();
                match ends[..] {
                    [first, last] if item.contains(" to ") || item.contains(" a ") => {
                        numbers.extend(first..=last)
                    }
                    _ => numbers.extend(ends),
                }
            }
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
        .send_slash(
            &alice,
            place,
            Slash::challenge(&bob)
                .with("variant", "spanish")
                .with("colour", "white"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert_eq!(cb.callback_type(), Some(4));
    assert!(!cb.is_ephemeral());
    assert_says(&cb, &format!("<@{}>", bob.id));
    let challenge = standin.original_message(&sent);

    // carol's click is refused privately.
    let click = standin
        .click_button(&carol, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&click).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, "not for you");

    // bob accepts: the board, in Spanish for him, with the start position in the picture.
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral());
    assert_says(&cb, "Empieza");
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
    let mv = standin.send_slash(&alice, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert_says(&cb, "alice played 10-14");
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
    assert_says(&cb, "bob jugó 23-19");
    pos = pos.apply(&pos.parse_move("23-19").unwrap());
    assert_picture_shows(&board_png(&cb), &pos, Color::White);
    let board3 = standin.original_message(&pick);

    // A click on an outdated board says so and changes nothing.
    let stale = standin.click_button(&bob, &board2, "damas:resign:").await;
    let cb = standin.callback(&stale).await;
    assert!(cb.is_ephemeral());
    assert_says(&cb, "desactualizado");

    // An illegal move is answered privately with its reason and the legal moves.
    let bad = standin.send_slash(&alice, place, Slash::mv("9-13")).await;
    let cb = standin.callback(&bad).await;
    assert!(cb.is_ephemeral());
    assert_says(&cb, "Capturing is mandatory");
    assert_says(&cb, "14x23");

    // Someone else's move is refused.
    let intruder = standin.send_slash(&carol, place, Slash::mv("14x23")).await;
    assert!(standin.callback(&intruder).await.is_ephemeral());

    // alice takes: a forced capture. bob asks why.
    let take = standin.send_slash(&alice, place, Slash::mv("14x23")).await;
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
        .split("Capturing is mandatory")
        .nth(1)
        .unwrap_or_else(|| panic!("no compulsory captures in {alt}"));
    for c in &captures {
        assert!(listed.contains(c.as_str()), "{c} missing: {alt}");
    }
    let why = standin
        .send_slash(&bob, place, Slash::named("explain"))
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
    let after = standin.send_slash(&bob, place, Slash::mv("28x19")).await;
    let cb = standin.callback(&after).await;
    assert!(!cb.is_ephemeral(), "{}", text(&cb));
    pos = pos.apply(&pos.parse_move("28x19").unwrap());
    assert_picture_shows(&board_png(&cb), &pos, Color::White);
    let board = standin.original_message(&after);

    // alice resigns with the button.
    let r = standin.click_button(&alice, &board, "damas:resign:").await;
    let cb = standin.callback(&r).await;
    assert_says(&cb, "Black wins by resignation");
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
        .send_slash(&alice, place, Slash::play_bot("easy", "english", "black"))
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
        assert_says(&f, "Bot · easy played");
        let id = f.message_id().expect("the bot's message id");
        board = standin.message(id).expect("the bot's board");
        if text(&f).contains("wins") || text(&f).contains("Draw") {
            finished = true;
            break;
        }
    }
    assert!(finished, "the game ends by the rules");
    let text = standin.pdn_text(&alice, place).await;
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
    let err = damas::discord::client(&config, App::new(store, Settings::default()))
        .await
        .err()
        .expect("a wrong token is refused");
    let msg = err.to_string();
    assert!(msg.contains("rejected") && msg.contains(".env"), "{msg}");
    assert!(!msg.contains("wrong.token.here"), "the token never shows");
    assert!(!format!("{config:?}").contains("wrong.token.here"));
}

/// The answer to an interaction that only its author sees: the callback itself, or (when the
/// work took long enough to be deferred) the ephemeral follow-up.
async fn private_answer(standin: &StandIn, sent: &SentInteraction) -> Recorded {
    let cb = standin.callback(sent).await;
    let answer = match cb.callback_type() {
        Some(4) => cb,
        _ => standin.followup(sent).await,
    };
    assert!(answer.is_ephemeral(), "{}", answer.summary());
    answer
}

/// A PDN file of two games played over the board.
const CLUB_PDN: &str = "[Event \"club\"]\n[White \"Ana\"]\n[Black \"Luis\"]\n[GameType \"24\"]\n\
    1. 11-15 24-20 2. 15x24 22-18 1-1\n\n[Event \"club\"]\n[White \"Eva\"]\n[Black \"Juan\"]\n\
    [SetUp \"1\"]\n[FEN \"W:W1-5,9-12:B18,19,22,25,26,29-32\"]\n1. 4-7 19-14 2. 10x19 22x8 0-2\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pdn_file_of_a_game_played_anywhere_is_reviewed() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let mut config = bot_config(&standin, &dir.path().join("db"));
    config.settings.file_fetch_time = std::time::Duration::from_secs(1);
    let bot = start_bot_with(&standin, config, |app| app).await;
    let put = standin.commands_put().await;
    let review = put
        .body()
        .as_array()
        .and_then(|l| l.iter().find(|c| c["name"] == "review"))
        .cloned()
        .expect("/review is registered");
    let file_option = review["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == "file"))
        .expect("/review takes a file");
    assert_eq!(file_option["type"], 11, "an attachment option");
    assert_eq!(file_option["name_localizations"]["es-ES"], "archivo");

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let club = standin.attach("club.pdn", CLUB_PDN.as_bytes());
    let sent = standin
        .send_interaction(standin.slash_command(
            &alice,
            place,
            "review",
            vec![opt_attachment("file", &club), opt_int("number", 2)],
        ))
        .await;
    // The review takes a while: deferred, its progress shown, then the summary.
    let cb = standin.callback(&sent).await;
    let summary = if cb.callback_type() == Some(4) {
        cb
    } else {
        let mut edit = standin.original_edit(&sent).await;
        while !text(&edit).contains("Review:") {
            edit = standin.original_edit(&sent).await;
        }
        edit
    };
    let shown = text(&summary);
    assert!(!summary.is_ephemeral(), "{}", summary.summary());
    assert!(shown.contains("Review: ⚪ Eva vs ⚫ Juan"), "{shown}");
    // The file's name is what a person wrote: escaped (Discord hides the backslash).
    assert!(shown.contains(r"Game 2 of club\.pdn"), "{shown}");
    assert!(shown.contains("Black won, as the record says."), "{shown}");
    assert!(shown.contains("Eva (White): accuracy"), "{shown}");
    assert!(standin.attachment_fetches(&club) == 1);
    let message = standin.original_message(&sent);

    // The first move worth a look: White's 4-7, which walks into the shot.
    let click = standin
        .click_button(&alice, &message, "damas:review:")
        .await;
    let page = private_answer(&standin, &click).await;
    assert_says(&page, "4-7");
    assert!(page.file("board.png").is_some(), "{}", page.summary());
    // The animation, on request.
    let click = standin
        .click_button(&alice, &message, "damas:reviewgif:")
        .await;
    let animation = private_answer(&standin, &click).await;
    let gif = animation.file("damas-review.gif").expect("the GIF");
    assert!(gif.bytes.starts_with(b"GIF89a"));

    // What is refused, privately, and why.
    let big = standin.attach("big.pdn", &vec![b' '; 300 * 1024]);
    let lying = standin.attach_with(
        "small.pdn",
        &vec![b' '; 300 * 1024],
        AttachmentServing {
            declared_size: Some(1000),
            delay: None,
        },
    );
    let notes = standin.attach("notes.pdn", b"eggs, milk, a new board");
    let picture = standin.attach("board.pdn", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let slow = standin.attach_with(
        "slow.pdn",
        CLUB_PDN.as_bytes(),
        AttachmentServing {
            declared_size: None,
            delay: Some(std::time::Duration::from_secs(3)),
        },
    );
    let mut elsewhere = standin.attach("secret.pdn", CLUB_PDN.as_bytes());
    elsewhere["url"] = serde_json::json!(format!("{}/private/secret.pdn", standin.base_url()));
    let cases = [
        (
            &big,
            None,
            "That file is too big: a PDN file may have at most 256 KB.",
        ),
        (
            &lying,
            None,
            "That file is too big: a PDN file may have at most 256 KB.",
        ),
        (&notes, None, "That file is not a PDN game record"),
        (&picture, None, "That file is not a PDN game record"),
        (
            &club,
            Some(3),
            "That file holds 2 games: there is no game 3.",
        ),
        (&slow, None, "Fetching that file took too long; try again."),
        (
            &elsewhere,
            None,
            "That file does not come from Discord's attachments",
        ),
    ];
    for (file, number, expected) in cases {
        let mut options = vec![opt_attachment("file", file)];
        if let Some(n) = number {
            options.push(opt_int("number", n));
        }
        let sent = standin
            .send_interaction(standin.slash_command(&alice, place, "review", options))
            .await;
        let answer = private_answer(&standin, &sent).await;
        assert!(text(&answer).contains(expected), "{}", answer.summary());
    }
    // The size Discord declares is enough to refuse a file: it is never fetched.
    assert_eq!(standin.attachment_fetches(&big), 0);
    assert_eq!(standin.attachment_fetches(&lying), 1);
    // A file elsewhere is never asked for.
    assert!(
        !standin.log().iter().any(|r| r.path.contains("/private/")),
        "{}",
        standin.log_text()
    );
    standin.assert_no_refusals();
    bot.stop().await;
}

/// A display name written in markdown, and markdown typed into `/explain`, reach Discord
/// escaped in every message and embed the bot sends: shown as typed, never as a link, bold
/// text or a heading. The refusal that repeats the typed text is private.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markup_in_names_and_typed_text_reaches_discord_escaped() {
    const NAME: &str = "[free nitro](https://evil.example) **x**";
    const NAME_ESCAPED: &str = r"\[free nitro\]\(https\://evil\.example\) \*\*x\*\*";
    const TYPED: &str = "# [a](https://evil.example) ||b||";
    const TYPED_ESCAPED: &str = r"\# \[a\]\(https\://evil\.example\) \|\|b\|\|";
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    standin.commands_put().await;
    let evil = TestUser::new(snowflake(), NAME);
    let bob = TestUser::random("bob");
    let place = Place::guild(GUILD, snowflake());

    let sent = standin
        .send_slash(&evil, place, Slash::challenge(&bob).with("colour", "white"))
        .await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, NAME_ESCAPED);
    let challenge = standin.original_message(&sent);
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    standin.callback(&click).await;
    let mv = standin.send_slash(&evil, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert_says(&cb, &format!("{NAME_ESCAPED} played 10-14"));
    let why = standin
        .send_slash(&bob, place, Slash::named("explain").with("move", TYPED))
        .await;
    let cb = standin.callback(&why).await;
    assert!(cb.is_ephemeral(), "{}", text(&cb));
    assert_says(&cb, TYPED_ESCAPED);
    let resign = standin
        .send_slash(&bob, place, Slash::named("resign"))
        .await;
    standin.callback(&resign).await;
    // Against the bot, whose moves are posted in the channel.
    let place2 = Place::guild(GUILD, snowflake());
    let play = standin
        .send_slash(&evil, place2, Slash::play_easy("black"))
        .await;
    standin.callback(&play).await;
    let post = standin.channel_post(place2.channel).await;
    assert_says(&post, NAME_ESCAPED);

    let mut shown = 0;
    for r in standin.log() {
        let body = r.message_body();
        if !body.is_object() {
            continue;
        }
        let t = text_of(body);
        for raw in ["](https://evil.example)", "**x**", "||b||", "# [a]"] {
            assert!(!t.contains(raw), "{raw} reached Discord unescaped: {t}");
        }
        shown += usize::from(t.contains(NAME_ESCAPED));
    }
    assert!(shown >= 6, "the name shown escaped in {shown} messages");
    standin.assert_no_refusals();
    bot.stop().await;
}
