//! Playing like a club (issue 13, items 1 and 2): a game in a thread of its own, announced by
//! one line in its channel that shows the result at the end, the thread archived then; many
//! such games in one channel; the fallback to the channel where threads cannot be opened; and
//! the Rematch button of a finished game. End to end against the Discord stand-in, plus the
//! application layer alone where that is enough.

use crate::support::app::*;
use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::ai::Level;
use damas::app::commands::{self, ArgValue, Command, Invocation, Threading};
use damas::app::{Action, App, Place as AppPlace};
use damas::engine::{ByColour, Color, Variant};
use damas::store::Seat;
use serde_json::Value;

/// The user ids in a game's seats, White first (0 for the bot).
fn seat_ids(players: &ByColour<Seat>) -> [u64; 2] {
    [&players.white, &players.black].map(|s| match s {
        Seat::Human { user_id, .. } => *user_id,
        _ => 0,
    })
}

/// The user ids in the seats of the game going on in `channel`, White first (0 for the bot).
fn players_in(app: &App, channel: u64) -> [u64; 2] {
    let game = app.store().active_game(channel).unwrap();
    seat_ids(&game.expect("a game in the channel").players)
}

/// The bot against the stand-in, answering slow work without deferring (up to 2.5 s, within
/// Discord's 3 s), so that each interaction's own answer carries what these tests read.
async fn start(standin: &StandIn, dir: &std::path::Path) -> (RunningClient, App) {
    let mut config = bot_config(standin, &dir.join("db"));
    config.defer_after = std::time::Duration::from_millis(2500);
    start_bot_app(standin, config, |a| a).await
}

/// The bot on a store of its own, and a server channel where it may open threads.
struct Club {
    _dir: tempfile::TempDir,
    standin: StandIn,
    bot: RunningClient,
    app: App,
    channel: Place,
}

impl Club {
    async fn start() -> Club {
        let dir = tempfile::tempdir().unwrap();
        let standin = StandIn::start().await;
        let (bot, app) = start(&standin, dir.path()).await;
        let channel = Place::guild(GUILD, snowflake());
        standin.allow_threads(channel.channel);
        Club {
            _dir: dir,
            standin,
            bot,
            app,
            channel,
        }
    }

    /// `who` plays the bot at easy, with White, from the channel: the game's thread, the
    /// interaction and the id of the thread's first board, once the callback and the board
    /// are in.
    async fn play_in_thread(&self, who: &TestUser) -> (ThreadInfo, SentInteraction, u64) {
        let sent = self
            .standin
            .send_slash(who, self.channel, Slash::play_easy("white"))
            .await;
        let thread = self.standin.thread_created(self.channel.channel).await;
        let cb = self.standin.callback(&sent).await;
        assert!(
            cb.content().contains(&channel_link(thread.id)),
            "{}",
            cb.summary()
        );
        let board = self.standin.channel_post(thread.id).await;
        (thread, sent, board.message_id().expect("the board's id"))
    }

    async fn stop(self) {
        self.standin.assert_no_refusals();
        self.bot.stop().await;
    }
}

fn channel_link(thread: u64) -> String {
    format!("<#{thread}>")
}

/// The bot's next edit of a channel message.
async fn message_edit(standin: &StandIn, channel: u64, message: u64) -> Recorded {
    standin
        .next_request(|r| {
            r.method == "PATCH"
                && matches!(r.route, Route::ChannelMessage { channel: c, message: m }
                    if c == channel && m == message)
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_played_in_its_own_thread_which_is_archived_at_the_end() {
    let club = Club::start().await;
    let (standin, app, channel) = (&club.standin, &club.app, club.channel);
    let (alice, bob) = (TestUser::random("alice"), TestUser::random("bob"));

    // No `thread` option: where the bot may open threads, the game gets one.
    let click = standin
        .challenge_accepted(
            &alice,
            &bob,
            channel,
            Slash::challenge(&bob).with("colour", "white"),
        )
        .await;

    // A public thread named after the players; the channel gets one line linking to it.
    let thread = standin.thread_created(channel.channel).await;
    assert_eq!(thread.kind, 11, "a public thread");
    assert_eq!(thread.name, "alice vs bob · Spanish draughts");
    let cb = standin.callback(&click).await;
    assert!(!cb.is_ephemeral());
    let line = standin.original_message(&click);
    let line_id: u64 = line["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(line["channel_id"], Value::from(channel.channel.to_string()));
    assert_body_says(&line, "alice vs bob");
    assert!(text_of(&line).contains(&channel_link(thread.id)));

    // The board is in the thread, and the game is stored by the thread's id.
    let board = standin.channel_post(thread.id).await;
    assert_says(&board, "The game begins");
    assert_eq!(players_in(app, thread.id), [alice.id, bob.id]);
    assert!(app.store().active_game(channel.channel).unwrap().is_none());

    // alice moves from the thread's board menu; bob resigns from the next board.
    let board = standin.message(board.message_id().unwrap()).unwrap();
    let pick = first_menu_move(standin, &alice, &board).expect("a move menu");
    assert_eq!(place_of(&pick["message"]).channel, thread.id);
    let sent = standin.send_interaction(pick).await;
    standin.callback(&sent).await;
    let board = standin.original_message(&sent);
    assert_eq!(place_of(&board).channel, thread.id);
    let sent = standin.click_button(&bob, &board, "damas:resign:").await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, "White wins by resignation");
    let last_board = standin.original_message(&sent);

    // The channel's line shows the result, still linking to the thread; the thread is
    // archived, not deleted.
    let edit = message_edit(standin, channel.channel, line_id).await;
    assert_says(&edit, "White wins by resignation");
    assert!(text(&edit).contains(&channel_link(thread.id)));
    let archived = standin.wait_thread_archived(thread.id).await;
    assert_eq!(archived.times_archived, 1);
    assert_eq!(standin.threads_in(channel.channel).len(), 1);

    // Rematch, from the archived thread: only alice may accept bob's challenge, and colours
    // swap. The thread reopens for the new game, and the channel gets a new line.
    let sent = standin
        .click_button(&bob, &last_board, "damas:rematch:")
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert!(
        cb.content().contains(&format!("<@{}>", alice.id)),
        "{}",
        cb.summary()
    );
    assert!(
        !standin.thread(thread.id).unwrap().archived,
        "a message reopens the thread"
    );
    let challenge = standin.original_message(&sent);
    let own = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&own).await;
    assert!(
        cb.is_ephemeral() && text(&cb).contains("not for you"),
        "{}",
        cb.summary()
    );
    let sent = standin
        .click_button(&alice, &challenge, "damas:accept:")
        .await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, "⚪ bob vs ⚫ alice");
    assert_eq!(players_in(app, thread.id), [bob.id, alice.id]);
    let line = standin.channel_post(channel.channel).await;
    assert_says(&line, "bob vs alice");
    assert!(text(&line).contains(&channel_link(thread.id)));
    assert_eq!(
        standin.threads_in(channel.channel).len(),
        1,
        "no new thread"
    );
    club.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_run_in_threads_of_one_channel_at_once() {
    let club = Club::start().await;
    let (standin, app) = (&club.standin, &club.app);
    let (alice, carol) = (TestUser::random("alice"), TestUser::random("carol"));

    let mut threads = Vec::new();
    for who in [&alice, &carol] {
        threads.push(club.play_in_thread(who).await.0);
    }
    assert_ne!(threads[0].id, threads[1].id);
    assert_eq!(threads[1].name, "carol vs Bot · easy · Spanish draughts");
    for (thread, who) in threads.iter().zip([&alice, &carol]) {
        assert_eq!(players_in(app, thread.id)[0], who.id);
    }

    // alice's move is answered by the bot in her thread, not in the channel nor carol's.
    let board = standin.messages_in(threads[0].id).pop().unwrap();
    let pick = first_menu_move(standin, &alice, &board).expect("a move menu");
    let sent = standin.send_interaction(pick).await;
    standin.callback(&sent).await;
    let reply = standin.channel_post(threads[0].id).await;
    assert_says(&reply, "Bot");
    let game = app.store().active_game(threads[0].id).unwrap().unwrap();
    assert_eq!(game.moves.len(), 2);
    let other = app.store().active_game(threads[1].id).unwrap().unwrap();
    assert_eq!(other.moves.len(), 0);
    club.stop().await;
}

/// `/cancel` in a game's thread ends it as a finished game's end does: the channel's line says
/// so and the thread is archived.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_cancelled_in_its_thread_closes_the_thread_and_says_so_in_the_channel() {
    let club = Club::start().await;
    let (standin, app, channel) = (&club.standin, &club.app, club.channel);
    let alice = TestUser::random("alice");
    let (thread, sent, board_id) = club.play_in_thread(&alice).await;
    let line = standin.original_message(&sent);
    let line_id: u64 = line["id"].as_str().unwrap().parse().unwrap();
    let in_thread = Place::guild(GUILD, thread.id);

    // Not a moderator (the player herself): refused, and nothing changes.
    let sent = standin
        .send_slash(&alice, in_thread, Slash::named("cancel"))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert!(app.store().active_game(thread.id).unwrap().is_some());

    let moderator = TestUser::random("mod").with_manage_messages();
    let sent = standin
        .send_slash(&moderator, in_thread, Slash::named("cancel"))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(
        text(&cb).contains("mod cancelled the game"),
        "{}",
        cb.summary()
    );
    assert!(app.store().active_game(thread.id).unwrap().is_none());
    // The board loses its controls; the line says the game was cancelled.
    let stripped = message_edit(standin, thread.id, board_id).await;
    assert_eq!(stripped.body()["components"], serde_json::json!([]));
    let edit = message_edit(standin, channel.channel, line_id).await;
    assert_says(&edit, "cancelled");
    assert!(text(&edit).contains(&channel_link(thread.id)));
    let archived = standin.wait_thread_archived(thread.id).await;
    assert_eq!(archived.times_archived, 1);
    club.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_threads_the_game_is_played_in_the_channel_and_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let (bot, _app) = start(&standin, dir.path()).await;
    let (alice, bob) = (TestUser::random("alice"), TestUser::random("bob"));

    // The invite's permissions hold no Create Public Threads: asked for, no thread.
    let channel = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(
            &alice,
            channel,
            Slash::named("play")
                .with("thread", "yes")
                .with("colour", "white"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, "Create Public Threads");
    assert_says(&cb, "The game begins");
    let board = standin.original_message(&sent);
    assert_eq!(place_of(&board).channel, channel.channel);
    // It says so once: the next board does not.
    let pick = first_menu_move(&standin, &alice, &board).unwrap();
    let sent = standin.send_interaction(pick).await;
    let cb = standin.callback(&sent).await;
    assert!(
        !text(&cb).contains("Create Public Threads"),
        "{}",
        text(&cb)
    );
    // Not asked for: no thread and nothing to explain.
    let other = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(&alice, other, Slash::challenge(&bob))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!text(&cb).contains("thread"), "{}", text(&cb));
    assert!(
        !custom_id_starting(&standin.original_message(&sent), "damas:accept:").ends_with(":thread")
    );

    // Allowed, but Discord refuses the thread itself: the game starts in the channel.
    let third = Place::guild(GUILD, snowflake());
    standin.allow_threads(third.channel);
    standin.inject(FaultRoute::ThreadCreate, FaultAction::Forbidden, 1);
    let sent = standin
        .send_slash(&bob, third, Slash::named("play").with("colour", "white"))
        .await;
    let cb = standin.callback(&sent).await;
    assert_says(&cb, "would not let me open a thread");
    assert_eq!(
        place_of(&standin.original_message(&sent)).channel,
        third.channel
    );

    for place in [channel, other, third] {
        assert!(standin.threads_in(place.channel).is_empty());
    }
    standin.assert_no_refusals();
    bot.stop().await;
}

/// The stand-in's threads behave as Discord's do, so the tests above mean something: opening
/// takes Create Public Threads and a server channel that is not a thread; the opener may
/// archive; a message reopens an archived thread unless it is locked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stand_in_threads_follow_discord() {
    use serenity::all::{
        AutoArchiveDuration, ChannelId, ChannelType, CreateMessage, CreateThread, EditThread,
    };
    let standin = StandIn::start().await;
    let http = standin.http();
    let status_of = |e: serenity::Error| match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("not an HTTP refusal: {other:?}"),
    };
    let place = Place::random_guild();
    let someone = TestUser::random("someone");
    let starter = standin.post_message(place, &someone, "hello", serde_json::json!([]));
    let parent = ChannelId::new(place.channel);
    let public = || {
        CreateThread::new("a game")
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(AutoArchiveDuration::OneWeek)
    };

    // Not allowed by the invite's permissions.
    let err = parent.create_thread(&http, public()).await.unwrap_err();
    assert_eq!(status_of(err), (403, 50013));
    standin.allow_threads(place.channel);
    let thread = parent.create_thread(&http, public()).await.unwrap();
    assert_eq!(thread.kind, ChannelType::PublicThread);
    assert_eq!(thread.parent_id, Some(parent));
    let meta = thread.thread_metadata.expect("thread metadata");
    assert!(!meta.archived);
    // Threads do not nest; a message opens at most one thread.
    let err = thread.id.create_thread(&http, public()).await.unwrap_err();
    assert_eq!(status_of(err).0, 400);
    let starter_id: u64 = starter["id"].as_str().unwrap().parse().unwrap();
    parent
        .create_thread_from_message(&http, starter_id, public())
        .await
        .unwrap();
    let err = parent
        .create_thread_from_message(&http, starter_id, public())
        .await
        .unwrap_err();
    assert_eq!(status_of(err), (400, 160004));
    // Interactions in a thread carry the thread and the parent's permissions.
    let inside = standin.thread(thread.id.get()).unwrap().place();
    let payload = standin.slash(&someone, inside, Slash::named("board"));
    assert_eq!(payload["channel"]["type"], 11);
    assert_eq!(payload["channel"]["parent_id"], place.channel.to_string());
    assert_eq!(
        payload["app_permissions"],
        (DEFAULT_APP_PERMISSIONS | CREATE_PUBLIC_THREADS).to_string()
    );

    // The opener archives; a message reopens.
    let archived = thread
        .id
        .edit_thread(&http, EditThread::new().archived(true))
        .await
        .unwrap();
    assert!(archived.thread_metadata.unwrap().archived);
    assert!(standin.thread(thread.id.get()).unwrap().archived);
    thread
        .id
        .send_message(&http, CreateMessage::new().content("again"))
        .await
        .unwrap();
    assert!(!standin.thread(thread.id.get()).unwrap().archived);
    // Locking takes Manage Threads, which the bot lacks here.
    let err = thread
        .id
        .edit_thread(&http, EditThread::new().locked(true))
        .await
        .unwrap_err();
    assert_eq!(status_of(err), (403, 50013));
}

// ---- the application layer alone ---------------------------------------------------------------

#[test]
fn the_thread_option_defaults_to_where_threads_may_be_opened() {
    let spec = commands::find("play").unwrap();
    let with = |asked: Option<&str>, allowed: bool| {
        let mut inv = Invocation::new(spec);
        if let Some(v) = asked {
            inv.args.push(("thread", ArgValue::Text(v.into())));
        }
        inv.can_create_threads = allowed;
        let Some(Command::Play(play)) = Command::read(&inv) else {
            panic!("/play reads as /play");
        };
        Threading::new(play.thread, inv.can_create_threads)
    };
    assert_eq!(with(None, true), Threading::InThread);
    assert_eq!(with(None, false), Threading::InChannel);
    assert_eq!(with(Some("yes"), true), Threading::InThread);
    assert_eq!(with(Some("sí"), false), Threading::Unavailable);
    assert_eq!(with(Some("no"), true), Threading::InChannel);
    assert!(commands::find("challenge")
        .unwrap()
        .option("hilo")
        .is_some());
}

#[tokio::test]
async fn a_rematch_between_people_swaps_colours_and_only_the_opponent_accepts() {
    let w = world();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    // Colours drawn by lot the first time (docs/GAME-APP.md): whoever had White, the rematches
    // alternate.
    let a = w
        .app
        .challenge_for_days(
            &alice,
            PLACE,
            &user(&bob),
            Some(Variant::English),
            None,
            Some(2),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&bob, PLACE, &accept, &[]).await;
    let first = w.active_game(PLACE.channel_id).unwrap();
    let mut white = seat_ids(&first.players)[0];

    for round in 0..2 {
        let a = w.app.resign(&alice, PLACE).await;
        let final_board = only(&a);
        assert!(final_board.board_of.unwrap().over);
        let rematch = button_id(final_board, Action::Rematch);

        // Someone else's press changes nothing.
        let a = w.app.component(&carol, PLACE, &rematch, &[]).await;
        assert!(only(&a).is_private());
        assert!(
            only(&a).text.contains("Only the two players"),
            "{}",
            only(&a).text
        );

        let a = w.app.component(&bob, PLACE, &rematch, &[]).await;
        let challenge = only(&a);
        assert!(!challenge.is_private(), "{round}: {}", challenge.text);
        assert_eq!(challenge.mention, vec![alice.user_id]);
        let accept = button_id(challenge, Action::Accept);
        for stranger in [&bob, &carol] {
            let a = w.app.component(stranger, PLACE, &accept, &[]).await;
            assert!(only(&a).is_private(), "{}", only(&a).text);
        }
        assert!(w.active_game(PLACE.channel_id).is_none());
        w.app.component(&alice, PLACE, &accept, &[]).await;
        let game = w.active_game(PLACE.channel_id).unwrap();
        assert_ne!(
            seat_ids(&game.players)[0],
            white,
            "round {round}: colours swap"
        );
        white = seat_ids(&game.players)[0];
        assert_eq!(game.variant, Variant::English, "the same variant");
        assert_eq!(game.move_time_ms, 2 * 86_400_000, "the same time per move");

        // The old board's button is history now.
        let a = w.app.component(&alice, PLACE, &rematch, &[]).await;
        assert!(only(&a).is_private());
        assert!(only(&a).text.contains("outdated"), "{}", only(&a).text);
    }
}

#[tokio::test]
async fn a_rematch_against_the_bot_starts_at_once_with_colours_swapped() {
    let w = world();
    let (alice, carol) = (actor(1, "alice"), actor(3, "carol"));
    play_easy_bot_as_black(&w.app, &alice, PLACE).await;
    let a = w.app.resign(&alice, PLACE).await;
    let rematch = button_id(only(&a), Action::Rematch);

    let a = w.app.component(&carol, PLACE, &rematch, &[]).await;
    assert!(only(&a).is_private());

    let a = w.app.component(&alice, PLACE, &rematch, &[]).await;
    let board = only(&a);
    assert!(!board.is_private());
    assert!(board.text.contains("The game begins"), "{}", board.text);
    let game = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(
        game.players,
        ByColour::new(
            Seat::Human {
                user_id: alice.user_id,
                name: "alice".into()
            },
            Seat::Bot { level: Level::Easy }
        ),
        "alice has White now, against the same level"
    );
    assert_eq!(game.variant, Variant::English);
    // In English draughts Black moves first: the bot, now.
    assert_eq!(a.bot_turn(), Some(PLACE));
}

#[tokio::test]
async fn a_game_thread_announces_its_game_and_its_end_in_the_parent_channel() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let mut inv = Invocation::new(commands::find("challenge").unwrap());
    inv.args.push(("opponent", ArgValue::User(user(&bob))));
    inv.args.push(("colour", ArgValue::Text("white".into())));
    inv.can_create_threads = true;
    let a = w.app.run_command(&alice, PLACE, &inv).await;
    let accept = button_id(only(&a), Action::Accept);
    let a = w.app.component(&bob, PLACE, &accept, &[]).await;
    assert!(a.replies.is_empty());
    let request = a.new_thread().cloned().expect("a thread is asked for");
    assert_eq!(request.name, "alice vs bob · Spanish draughts");
    assert_eq!(request.parent, PLACE);

    let thread = AppPlace {
        guild_id: PLACE.guild_id,
        channel_id: 555,
    };
    let a = w.app.start_in_thread(request, thread.channel_id).await;
    let (board, line) = (&a.replies[0], &a.replies[1]);
    assert_eq!(board.channel, Some(thread.channel_id));
    assert_eq!(board.board_of.unwrap().channel_id, thread.channel_id);
    assert_eq!(line.channel, Some(PLACE.channel_id));
    assert_eq!(line.links_to, Some(thread.channel_id));
    let line_ref = line.line_of.expect("the line is to be recorded");
    w.app.thread_line_posted(line_ref, 9001).await;
    // Threads do not nest: asked from inside the game thread, no new thread.
    let mut inv = Invocation::new(commands::find("play").unwrap());
    inv.can_create_threads = true;
    let a = w.app.run_command(&alice, thread, &inv).await;
    assert!(a.new_thread().is_none());
    assert!(
        only(&a).is_private(),
        "the thread is busy: {}",
        only(&a).text
    );

    let a = w.app.resign(&bob, thread).await;
    let final_board = only(&a).board_of.unwrap();
    let end = w
        .app
        .thread_game_over(final_board)
        .await
        .expect("a thread game ended");
    assert_eq!(end.thread_id, thread.channel_id);
    assert_eq!(end.parent_channel_id, PLACE.channel_id);
    assert_eq!(end.line_message_id, Some(9001));
    assert!(
        end.line.text.contains("White wins by resignation"),
        "{}",
        end.line.text
    );
    assert_eq!(end.line.links_to, Some(thread.channel_id));
    // A game in a plain channel has no thread to close.
    w.app
        .play_bot(&alice, PLACE, Some(Level::Easy), None, Some(Color::White))
        .await;
    let a = w.app.resign(&alice, PLACE).await;
    assert!(w
        .app
        .thread_game_over(only(&a).board_of.unwrap())
        .await
        .is_none());
}
