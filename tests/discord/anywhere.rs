//! Play anywhere (issue 43): the app installed to a person as well as to a server, its games
//! in the DM with the bot and in DMs and group DMs between friends. Where only a person
//! installed it, the bot is no member of the conversation: everything it shows there is an
//! answer to an interaction or a follow-up on its token (the stand-in refuses any channel
//! post there with 403, 50001 Missing Access, and `assert_no_refusals` fails the test).

use crate::support::bot::*;
use crate::support::stand_in::*;
use serde_json::{json, Value};
use std::time::Duration;

/// The registered command called `name` (of type `kind`: 1 slash, 2 a member's menu).
fn registered<'a>(commands: &'a [Value], name: &str, kind: u64) -> &'a Value {
    commands
        .iter()
        .find(|c| c["name"] == json!(name) && c["type"].as_u64().unwrap_or(1) == kind)
        .unwrap_or_else(|| panic!("no command {name:?} of type {kind} registered"))
}

/// A request from the bot that posts, edits or opens anything in `channel` on its own.
fn on_its_own_in(channel: u64) -> impl Fn(&Recorded) -> bool {
    move |r| {
        matches!(r.route,
            Route::ChannelMessages { channel: c }
            | Route::ChannelMessage { channel: c, .. }
            | Route::Threads { channel: c }
            | Route::MessageThreads { channel: c, .. }
            | Route::Channel { channel: c } if c == channel)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registration_offers_each_command_where_it_works_for_both_installs() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    // Discord reads installs and contexts on global commands only.
    let mut config = bot_config(&standin, &dir.path().join("db"));
    config.guild_id = None;
    let bot = start_bot_with(&standin, config, |app| app).await;
    let put = standin.commands_put().await;
    assert!(matches!(put.route, Route::Commands { guild: None }));
    let commands = put.body().as_array().unwrap().clone();
    for name in [
        "challenge",
        "play",
        "move",
        "board",
        "explain",
        "resign",
        "draw",
        "puzzle",
        "review",
    ] {
        let c = registered(&commands, name, 1);
        // Installable to a server and to a person; usable in servers, the bot's DM, and
        // other DMs and group DMs.
        assert_eq!(c["integration_types"], json!([0, 1]), "/{name}");
        assert_eq!(c["contexts"], json!([0, 1, 2]), "/{name}");
    }
    for name in ["leaderboard", "cancel", "tournament"] {
        let c = registered(&commands, name, 1);
        // A server's own: offered only where a server installed the app, in its channels.
        assert_eq!(c["integration_types"], json!([0]), "/{name}");
        assert_eq!(c["contexts"], json!([0]), "/{name}");
    }
    // The member's menu: "Challenge to draughts", in Spanish too, everywhere.
    let menu = registered(&commands, "Challenge to draughts", 2);
    assert_eq!(menu["name_localizations"]["es-ES"], "Desafiar a damas");
    assert_eq!(menu["name_localizations"]["es-419"], "Desafiar a damas");
    assert_eq!(menu["integration_types"], json!([0, 1]));
    assert_eq!(menu["contexts"], json!([0, 1, 2]));
    assert!(menu.get("options").map_or(true, |o| o == &json!([])));
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_play_in_a_group_dm_through_answers_alone() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob").with_locale("es-ES");
    // Only alice installed the app; bob plays with the buttons and menus of her answers.
    standin.install_for(&alice);
    let place = standin.group_dm();

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

    // bob accepts: the board is the click's answer, with its controls, in his Spanish.
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral());
    assert!(cb.file("board.png").is_some(), "{}", cb.summary());
    assert_says(&cb, "juegan las blancas (alice)");
    let board = standin.original_message(&click);
    assert!(custom_ids(&board)
        .iter()
        .any(|id| id.starts_with("damas:move:")));

    // alice moves by command: her answer is the new board, saying it is bob's turn.
    let mv = standin.send_slash(&alice, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert_says(&cb, "alice played 10-14");
    assert_says(&cb, "Black to play (bob)");
    assert!(cb.file("board.png").is_some());
    let board = standin.original_message(&mv);

    // bob answers from that board's menu; the old board keeps its controls (nothing can be
    // edited there) and answers that it is outdated.
    let menu = custom_id_starting(&board, "damas:move:");
    let pick = standin
        .send_interaction(standin.select_menu(&bob, &board, &menu, &["23-19"]))
        .await;
    let cb = standin.callback(&pick).await;
    assert_says(&cb, "bob jugó 23-19");
    assert!(cb.file("board.png").is_some());
    let stale = standin.click_button(&bob, &board, "damas:resign:").await;
    let cb = standin.callback(&stale).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());

    // alice resigns: the final board is her answer.
    let resign = standin
        .send_slash(&alice, place, Slash::named("resign"))
        .await;
    let cb = standin.callback(&resign).await;
    assert!(cb.file("board.png").is_some(), "{}", cb.summary());
    standin
        .assert_no_request_within(Duration::from_millis(300), on_its_own_in(place.channel))
        .await;
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_move_in_a_group_dm_follows_the_move_it_answers() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    standin.install_for(&alice);
    let place = standin.group_dm();

    let play = standin
        .send_slash(&alice, place, Slash::play_bot("easy", "spanish", "white"))
        .await;
    let cb = standin.callback(&play).await;
    assert!(cb.file("board.png").is_some(), "{}", cb.summary());
    // No thread outside a server, whatever the default.
    assert!(standin.threads_in(place.channel).is_empty());
    // The /play request is done (it shows what waits in the channel after its answer) before
    // alice moves, as a person's would be: a move sent while it still runs has its bot move
    // shown as a follow-up of /play instead, which CI once saw.
    standin
        .assert_no_request_within(Duration::from_millis(500), on_its_own_in(place.channel))
        .await;

    let mv = standin.send_slash(&alice, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert_says(&cb, "alice played 10-14");
    // The bot's answer is the follow-up of alice's move: its board, her turn again.
    let reply = standin.followup(&mv).await;
    assert_says(&reply, "played");
    assert_says(&reply, "White to play (alice)");
    assert!(reply.file("board.png").is_some(), "{}", reply.summary());
    let board = standin.message(reply.message_id().unwrap()).unwrap();
    assert!(custom_ids(&board)
        .iter()
        .any(|id| id.starts_with("damas:move:")));
    standin
        .assert_no_request_within(Duration::from_millis(300), on_its_own_in(place.channel))
        .await;
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_dm_with_the_bot_it_posts_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    let place = Place::dm(snowflake());

    let play = standin
        .send_slash(&alice, place, Slash::play_bot("easy", "spanish", "white"))
        .await;
    standin.callback(&play).await;
    let mv = standin.send_slash(&alice, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert_says(&cb, "alice played 10-14");
    // The DM is the bot's own channel: its move is a message of its own there.
    let post = standin.channel_post(place.channel).await;
    assert_says(&post, "White to play (alice)");
    assert!(post.file("board.png").is_some());
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_member_menu_challenges_with_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");
    let carol = TestUser::random("carol").with_locale("es-ES");
    standin.install_for(&carol);

    // In a server: right-click bob, Apps, "Challenge to draughts".
    let place = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_interaction(standin.user_command(&alice, place, "Challenge to draughts", &bob))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, &format!("<@{}>", bob.id));
    assert_says(&cb, "Spanish draughts");
    let challenge = standin.original_message(&sent);
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&click).await;
    assert!(cb.file("board.png").is_some(), "{}", cb.summary());

    // In a group DM, from a Spanish client.
    let dm = standin.group_dm();
    let sent = standin
        .send_interaction(standin.user_command(&carol, dm, "Challenge to draughts", &alice))
        .await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, &format!("<@{}>", alice.id));
    assert_says(&cb, "damas españolas");
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_command_outside_a_server_says_it_needs_one() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    let ana = TestUser::random("ana").with_locale("es-ES");
    let place = Place::dm(snowflake());
    // An older registration (or the console) may still offer them here.
    let cancel = standin
        .send_slash(&alice, place, Slash::named("cancel"))
        .await;
    let cb = standin.callback(&cancel).await;
    assert!(cb.is_ephemeral());
    assert_says(&cb, "This command needs a server");
    let leaderboard = standin
        .send_slash(&ana, place, Slash::named("leaderboard"))
        .await;
    let cb = standin.callback(&leaderboard).await;
    assert!(cb.is_ephemeral());
    assert_says(&cb, "Este comando necesita un servidor");
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_and_a_loss_on_time_in_a_group_dm_follow_the_next_request() {
    use damas::app::{App, Settings};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let mut config = bot_config(&standin, &dir.path().join("db"));
    // The app's clock is the test's: the reminder (at half the time) and the loss (at its end)
    // are each seen by the sweeper however busy the machine is. On the wall clock a sweep
    // late by the gap between them showed the loss alone.
    config.settings.move_time = Duration::from_secs(60);
    let clock = TestClock::new();
    let store = open_store(&config.db_path).await;
    let app = App::new(
        store,
        Settings {
            move_time: config.settings.move_time,
            search_threads: 1,
            search_memory_mb: 32,
            ..Settings::default()
        },
    );
    let app = clock.drive(app);
    // The sweeper shares the handler of the interactions, as `damas bot` runs them: it knows
    // which channels take answers only.
    let handler = Arc::new(damas::discord::router::Handler::new(app.clone(), &config));
    let client = damas::discord::client_with(&config, Arc::clone(&handler))
        .await
        .expect("the bot builds its client");
    let bot = RunningClient::spawn(client);
    standin.wait_connected().await;
    let sweeper = tokio::spawn(damas::discord::sweep_every(
        Arc::new(standin.http()),
        Arc::clone(&handler),
        Duration::from_millis(200),
    ));
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");
    standin.install_for(&alice);
    standin.install_for(&bob);
    let place = standin.group_dm();

    // alice plays White and never moves: reminded at half her time, she loses at its end.
    let click = standin
        .challenge_accepted(
            &alice,
            &bob,
            place,
            Slash::challenge(&bob).with("colour", "white"),
        )
        .await;
    standin.callback(&click).await;
    // Half her time gone: the sweeper reminds her (held, nothing can be posted here).
    clock.advance(31_000);
    let reminded = |app: &App| {
        app.store()
            .active_game(place.channel)
            .unwrap()
            .is_some_and(|g| g.reminded_ply.is_some())
    };
    for _ in 0..150 {
        if reminded(&app) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reminded(&app), "the sweeper never reminded alice");
    // All of it gone: she loses on time.
    clock.advance(30_000);
    for _ in 0..150 {
        if app.store().active_game(place.channel).unwrap().is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(app.store().active_game(place.channel).unwrap().is_none());
    // Nothing was posted: both wait for the next request there, bob's.
    standin
        .assert_no_request_within(Duration::from_millis(300), on_its_own_in(place.channel))
        .await;
    let board = standin.send_slash(&bob, place, Slash::named("board")).await;
    let cb = standin.callback(&board).await;
    assert_says(&cb, "There is no game in this channel");
    let reminder = standin.followup(&board).await;
    assert_says(&reminder, "Your move");
    assert!(!reminder.is_ephemeral());
    let lost = standin.followup(&board).await;
    assert_says(&lost, "alice ran out of time");
    assert!(lost.file("board.png").is_some(), "{}", lost.summary());
    // Shown once.
    let again = standin.send_slash(&bob, place, Slash::named("board")).await;
    standin.callback(&again).await;
    standin
        .assert_no_request_within(
            Duration::from_millis(300),
            |r| matches!(&r.route, Route::Followup { token } if *token == again.token),
        )
        .await;
    sweeper.abort();
    standin.assert_no_refusals();
    bot.stop().await;
}
