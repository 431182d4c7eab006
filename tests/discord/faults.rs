//! Discord failing the way it does — 5xx, 429 with `retry_after`, a dropped gateway, a slow
//! answer — while people play the bot: every move is applied once, its board reaches the
//! channel, the bot's answer comes, and no interaction goes unanswered. Also who gets
//! notified: only the person a message is meant for.

use crate::support::bot::*;
use crate::support::stand_in::*;
use damas::engine::{Game, Variant};
use serde_json::Value;
use std::time::Duration;

/// A stand-in that, like Discord, refuses an interaction answered after 3 s.
async fn strict_standin() -> StandIn {
    StandIn::start_with(Config {
        interaction_deadline: Some(Duration::from_secs(3)),
        wait: Duration::from_secs(20),
        ..Config::default()
    })
    .await
}

/// A strict stand-in and the bot started against it on a new store in `dir`, its commands
/// registered.
async fn strict_bot(dir: &tempfile::TempDir) -> (StandIn, RunningClient) {
    let standin = strict_standin().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    standin.commands_put().await;
    (standin, bot)
}

/// alice starts a game against the bot in a new channel: alice, the channel, her command.
async fn alices_game(standin: &StandIn) -> (TestUser, Place, SentInteraction) {
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let start = start_game(standin, &alice, place).await;
    (alice, place, start)
}

/// The board messages of a channel, in the order they were posted.
fn boards_in(standin: &StandIn, channel: u64) -> Vec<Value> {
    standin
        .messages_in(channel)
        .into_iter()
        .filter(|m| {
            m["attachments"]
                .as_array()
                .is_some_and(|a| a.iter().any(|f| f["filename"] == "board.png"))
        })
        .collect()
}

/// Every interaction got exactly one accepted answer.
fn assert_all_answered(standin: &StandIn, sent: &[&SentInteraction]) {
    let log = standin.log();
    for s in sent {
        let answers = log
            .iter()
            .filter(|r| {
                matches!(&r.route, Route::Callback { interaction, .. } if *interaction == s.id)
                    && r.status < 300
            })
            .count();
        assert_eq!(
            answers,
            1,
            "interaction {} answered once\n{}",
            s.id,
            standin.log_text()
        );
    }
}

/// Starts a Spanish game against the easy bot, the person White (first to move).
async fn start_game(standin: &StandIn, alice: &TestUser, place: Place) -> SentInteraction {
    let sent = standin
        .send_slash(alice, place, Slash::play_bot("easy", "spanish", "white"))
        .await;
    assert!(answer_text(standin, &sent).await.contains("Bot"));
    sent
}

/// The text an interaction was answered with: its response, or the edit completing a
/// deferred one.
async fn answer_text(standin: &StandIn, sent: &SentInteraction) -> String {
    let cb = standin.callback(sent).await;
    match cb.callback_type() {
        Some(5) => text(&standin.original_edit(sent).await),
        _ => text(&cb),
    }
}

/// alice plays `mv` with /move; returns the interaction.
async fn play(standin: &StandIn, alice: &TestUser, place: Place, mv: &str) -> SentInteraction {
    standin.send_slash(alice, place, Slash::mv(mv)).await
}

/// Waits for the bot's board in the channel; returns its text.
async fn bot_answer(standin: &StandIn, channel: u64) -> String {
    let post = standin.channel_post(channel).await;
    let t = text(&post);
    assert!(t.contains("Bot · easy played"), "{t}");
    t
}

/// The channel shows the start board and one board per ply: no move was shown twice, none
/// was lost.
fn assert_one_board_per_ply(standin: &StandIn, channel: u64, plies: usize) {
    let boards = boards_in(standin, channel);
    assert_eq!(
        boards.len(),
        plies + 1,
        "boards in the channel:\n{}",
        boards
            .iter()
            .map(text_of)
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_500_on_the_answer_is_retried_and_the_move_applied_once() {
    let dir = tempfile::tempdir().unwrap();
    let (standin, bot) = strict_bot(&dir).await;
    let (alice, place, start) = alices_game(&standin).await;

    let fault = standin.inject(FaultRoute::Callback, FaultAction::ServerError(500), 1);
    let mv = play(&standin, &alice, place, "10-14").await;
    let cb = standin.callback(&mv).await;
    assert_eq!(cb.status, 500, "the first answer met the fault");
    assert!(cb.injected);
    let cb = standin.callback(&mv).await;
    assert_eq!(cb.status, 204, "{}", cb.summary());
    assert_says(&cb, "alice played 10-14");
    assert_eq!(standin.fault_hits(fault), 1);
    bot_answer(&standin, place.channel).await;

    assert_one_board_per_ply(&standin, place.channel, 2);
    assert_all_answered(&standin, &[&start, &mv]);
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_waited_out_on_the_answer_a_follow_up_and_a_channel_post() {
    let dir = tempfile::tempdir().unwrap();
    let standin = strict_standin().await;
    // Every interaction deferred, so that boards go out as follow-ups and edits too.
    let mut config = bot_config(&standin, &dir.path().join("db"));
    config.defer_after = Duration::ZERO;
    let bot = start_bot_with(&standin, config, |app| app).await;
    standin.commands_put().await;
    let (alice, place, start) = alices_game(&standin).await;
    let limited = FaultAction::RateLimited { retry_after: 0.8 };

    // On the interaction's answer (here the deferral) and on the bot's post in the channel.
    let on_callback = standin.inject(FaultRoute::Callback, limited, 1);
    let on_post = standin.inject(FaultRoute::ChannelPost, limited, 1);
    let first = play(&standin, &alice, place, "10-14").await;
    let cb = standin.callback(&first).await;
    assert_eq!(cb.status, 429);
    let retried = standin.callback(&first).await;
    assert_eq!(
        retried.callback_type(),
        Some(5),
        "deferred: {}",
        retried.summary()
    );
    let waited = retried.at.duration_since(cb.at);
    assert!(
        waited >= Duration::from_millis(800),
        "waited {waited:?} after a 429"
    );
    let edit = standin.original_edit(&first).await;
    assert_says(&edit, "alice played 10-14");
    bot_answer(&standin, place.channel).await;
    assert_eq!(standin.fault_hits(on_callback), 1);
    assert_eq!(standin.fault_hits(on_post), 1);

    // On a follow-up: a move from the board's menu is a component, answered by a follow-up.
    let board = boards_in(&standin, place.channel)
        .pop()
        .expect("the bot's board");
    let choice = first_menu_move(&standin, &alice, &board).expect("a move menu");
    let on_followup = standin.inject(FaultRoute::Followup, limited, 1);
    let pick = standin.send_interaction(choice).await;
    assert_eq!(standin.callback(&pick).await.callback_type(), Some(6));
    let limited_followup = standin.followup(&pick).await;
    assert_eq!(limited_followup.status, 429);
    let followup = standin.followup(&pick).await;
    assert_eq!(followup.status, 200, "{}", followup.summary());
    assert_says(&followup, "alice played");
    assert_eq!(standin.fault_hits(on_followup), 1);
    bot_answer(&standin, place.channel).await;

    assert_one_board_per_ply(&standin, place.channel, 4);
    assert_all_answered(&standin, &[&start, &first, &pick]);
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_gateway_resumes_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (standin, bot) = strict_bot(&dir).await;
    let (alice, place, start) = alices_game(&standin).await;
    let first = play(&standin, &alice, place, "10-14").await;
    standin.callback(&first).await;
    // The connection drops while the bot thinks; serenity comes back with RESUME.
    standin.drop_connections();
    bot_answer(&standin, place.channel).await;
    standin.next_request(|r| r.route == Route::Resume).await;
    standin.wait_connected().await;

    let board = boards_in(&standin, place.channel)
        .pop()
        .expect("the bot's board");
    let choice = first_menu_move(&standin, &alice, &board)
        .unwrap_or_else(|| panic!("no move menu on {board}\n{}", standin.log_text()));
    let pick = standin.send_interaction(choice).await;
    let cb = standin.callback(&pick).await;
    assert_says(&cb, "alice played");
    bot_answer(&standin, place.channel).await;

    assert_one_board_per_ply(&standin, place.channel, 4);
    assert_all_answered(&standin, &[&start, &first, &pick]);
    standin.assert_no_refusals();
    bot.stop().await;
}

/// Discord delivering one interaction twice (a resumed session replaying an event that was
/// handled): it is acted on once. alice resigns, starts a new game, and the same `/resign`
/// arriving again neither ends the new game nor gets a second answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_delivered_twice_is_acted_on_once() {
    let dir = tempfile::tempdir().unwrap();
    let (standin, bot) = strict_bot(&dir).await;
    let (alice, place, first) = alices_game(&standin).await;
    let resign = standin
        .send_slash(&alice, place, Slash::named("resign"))
        .await;
    let said = answer_text(&standin, &resign).await;
    assert!(said.contains("alice resigned"), "{said}");
    let second = start_game(&standin, &alice, place).await;

    // The same event again, id and token, on the same session.
    standin
        .dispatch("INTERACTION_CREATE", resign.payload.clone())
        .await;
    let mv = play(&standin, &alice, place, "10-14").await;
    let said = answer_text(&standin, &mv).await;
    assert!(
        said.contains("alice played 10-14"),
        "the new game ended: {said}"
    );
    bot_answer(&standin, place.channel).await;
    let token = resign.token.clone();
    standin
        .assert_no_request_within(Duration::from_secs(2), move |r| {
            r.method != "GET"
                && matches!(&r.route,
                    Route::Callback { token: t, .. } | Route::Original { token: t }
                        | Route::Followup { token: t } if *t == token)
        })
        .await;
    assert_all_answered(&standin, &[&first, &resign, &second, &mv]);
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_discord_still_gets_every_answer_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let (standin, bot) = strict_bot(&dir).await;
    let (alice, place, start) = alices_game(&standin).await;

    // The next REST answer (the move's own answer) takes 2 s to come back.
    let slow = standin.inject(
        FaultRoute::AnyRest,
        FaultAction::Delay(Duration::from_secs(2)),
        1,
    );
    let mv = play(&standin, &alice, place, "10-14").await;
    let cb = standin.callback(&mv).await;
    assert_eq!(cb.status, 204, "{}", cb.summary());
    assert!(
        cb.elapsed.unwrap() < Duration::from_secs(3),
        "{:?}",
        cb.elapsed
    );
    assert_eq!(standin.fault_hits(slow), 1);
    bot_answer(&standin, place.channel).await;

    assert_one_board_per_ply(&standin, place.channel, 2);
    assert_all_answered(&standin, &[&start, &mv]);
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_that_keeps_failing_still_gives_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let standin = strict_standin().await;
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let seen = attempts.clone();
    let bot = start_bot_with(
        &standin,
        bot_config(&standin, &dir.path().join("db")),
        |app| {
            app.with_search_hook(move |attempt| {
                seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                panic!("search attempt {attempt} fails");
            })
        },
    )
    .await;
    standin.commands_put().await;
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    start_game(&standin, &alice, place).await;
    let mv = play(&standin, &alice, place, "10-14").await;
    standin.callback(&mv).await;
    // Three searches failed; the bot played the shallow search's move rather than none.
    bot_answer(&standin, place.channel).await;
    assert_eq!(attempts.load(std::sync::atomic::Ordering::SeqCst), 3);
    assert_one_board_per_ply(&standin, place.channel, 2);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_typed_text_ping_nobody_only_the_one_meant() {
    let dir = tempfile::tempdir().unwrap();
    let (standin, bot) = strict_bot(&dir).await;
    let carol = TestUser::random("carol");
    // alice's display name tries to ping carol and everyone.
    let alice = TestUser::new(snowflake(), &format!("<@{}> @everyone", carol.id));
    let bob = TestUser::random("bob");
    let place = Place::guild(GUILD, snowflake());

    let sent = standin
        .send_slash(
            &alice,
            place,
            Slash::challenge(&bob).with("colour", "white"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    // The challenge mentions bob in its content, and allows only him.
    assert!(
        cb.content().contains(&format!("<@{}>", bob.id)),
        "{}",
        cb.content()
    );
    let allowed = &cb.message_body()["allowed_mentions"];
    assert_eq!(allowed["parse"], serde_json::json!([]), "{allowed}");
    assert_eq!(
        allowed["users"],
        serde_json::json!([bob.id.to_string()]),
        "{allowed}"
    );
    let challenge = standin.original_message(&sent);
    let click = standin
        .click_button(&bob, &challenge, "damas:accept:")
        .await;
    standin.callback(&click).await;

    // A short game: alice and bob each move, then bob resigns.
    let mut game = Game::new(Variant::Spanish);
    for (who, mv) in [(&alice, "10-14"), (&bob, "22-18")] {
        let sent = play(&standin, who, place, mv).await;
        let cb = standin.callback(&sent).await;
        assert!(!cb.is_ephemeral(), "{}", text(&cb));
        game.play_text(mv).unwrap();
    }
    let resign = standin
        .send_slash(&bob, place, Slash::named("resign"))
        .await;
    standin.callback(&resign).await;

    // Then a whole game against the bot in another channel.
    let place2 = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(&alice, place2, Slash::play_bot("easy", "english", "black"))
        .await;
    standin.callback(&sent).await;
    let mut board = standin.original_message(&sent);
    for _ in 0..200 {
        let Some(choice) = first_menu_move(&standin, &alice, &board) else {
            break;
        };
        let pick = standin.send_interaction(choice).await;
        let cb = standin.callback(&pick).await;
        if text(&cb).contains("wins") || text(&cb).contains("Draw") {
            break;
        }
        let post = standin.channel_post(place2.channel).await;
        board = standin.message(post.message_id().unwrap()).unwrap();
        if text(&post).contains("wins") || text(&post).contains("Draw") {
            break;
        }
    }

    let pings = standin.pings();
    assert!(!pings.is_empty());
    for p in &pings {
        assert!(!p.everyone, "@everyone took effect: {p:?}");
        assert!(p.roles.is_empty(), "{p:?}");
        assert!(!p.users.contains(&carol.id), "carol was pinged: {p:?}");
        assert_eq!(p.users.len(), 1, "one person per message: {p:?}");
    }
    // bob was pinged for the challenge and for his turn; alice for her turns.
    assert!(pings.iter().any(|p| p.users == [bob.id]));
    assert!(pings.iter().any(|p| p.users == [alice.id]));
    standin.assert_no_refusals();
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_limits_close_challenges_end_games_and_deleted_channels_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let standin = strict_standin().await;
    let mut config = bot_config(&standin, &dir.path().join("db"));
    // The app's clock is the test's: each limit is passed by moving it, so a sweep the busy
    // machine delays cannot run past the reminder into the loss.
    config.settings.move_time = Duration::from_secs(60);
    config.settings.challenge_ttl = Duration::from_secs(60);
    let clock = TestClock::new();
    let (bot, app) = start_bot_app(&standin, config.clone(), |app| clock.drive(app)).await;
    standin.commands_put().await;
    let handler = damas::discord::router::Handler::new(app.clone(), &config);
    let sweeper = tokio::spawn(damas::discord::sweep_every(
        std::sync::Arc::new(standin.http()),
        std::sync::Arc::new(handler),
        Duration::from_millis(200),
    ));
    let alice = TestUser::random("alice");
    let bob = TestUser::random("bob");

    // A challenge nobody answers: past its time its message says so and loses its buttons.
    let place = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(&alice, place, Slash::challenge(&bob))
        .await;
    standin.callback(&sent).await;
    clock.advance(61_000);
    let challenge = standin.original_message(&sent);
    let id: u64 = challenge["id"].as_str().unwrap().parse().unwrap();
    let edit = standin
        .next_request(|r| {
            r.method == "PATCH"
                && matches!(r.route, Route::ChannelMessage { message, .. } if message == id)
        })
        .await;
    assert_says(&edit, "expired");
    let closed = standin.message(id).unwrap();
    assert!(
        custom_ids(&closed).is_empty(),
        "the buttons are gone: {closed}"
    );
    assert!(app.store().challenge(place.channel).unwrap().is_none());

    // A game where alice never moves: a reminder for her only, then her loss on time.
    let place = Place::guild(GUILD, snowflake());
    let click = standin
        .challenge_accepted(
            &alice,
            &bob,
            place,
            Slash::challenge(&bob).with("colour", "white"),
        )
        .await;
    standin.callback(&click).await;
    clock.advance(31_000);
    let reminder = standin.channel_post(place.channel).await;
    assert_says(&reminder, "lose on time");
    assert!(reminder.content().contains(&format!("<@{}>", alice.id)));
    assert_eq!(
        reminder.body()["allowed_mentions"]["users"],
        serde_json::json!([alice.id.to_string()])
    );
    clock.advance(30_000);
    let lost = standin.channel_post(place.channel).await;
    assert_says(&lost, "ran out of time");
    assert!(lost.file("board.png").is_some(), "the final board");
    assert!(app.store().active_game(place.channel).unwrap().is_none());
    let winner = app.store().player(bob.id).unwrap().expect("bob's record");
    assert_eq!(winner.variant(Variant::Spanish).people.wins, 1);

    // A channel deleted with a game in it: the game ends without a result.
    let place = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(&alice, place, Slash::play_easy("white"))
        .await;
    standin.callback(&sent).await;
    assert!(app.store().active_game(place.channel).unwrap().is_some());
    let deleted = place.deleted_channel_json();
    serde_json::from_value::<serenity::all::GuildChannel>(deleted.clone())
        .expect("serenity reads the deleted channel");
    standin.dispatch("CHANNEL_DELETE", deleted).await;
    for _ in 0..100 {
        if app.store().active_game(place.channel).unwrap().is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(app.store().active_game(place.channel).unwrap().is_none());
    assert_eq!(
        app.store()
            .games_in_channel(place.channel, 5)
            .unwrap()
            .len(),
        0
    );

    sweeper.abort();
    standin.assert_no_refusals();
    bot.stop().await;
}

/// A `damas bot` process (its own metrics recorder: no other test's counts mix in) tells a
/// monitoring stack exactly what happened: one game against the bot, two moves stored, one
/// refused move, one answer retried after an injected 500; `/healthz` and `/readyz` answer,
/// and SIGTERM turns `/readyz` to 503 while the work under way drains. Its JSON log has one
/// event per interaction and per bot move, every line parses, and none carries a token, a
/// name or what a person typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_probes_and_json_logs_tell_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let standin = strict_standin().await;
    let mut bot = BotProcess::start_with_env(
        &standin,
        &dir.path().join("db"),
        "info,serenity=warn",
        &[
            ("DAMAS_METRICS_LISTEN", "127.0.0.1:0"),
            ("DAMAS_LOG_FORMAT", "json"),
            ("DAMAS_SEARCH_THREADS", "1"),
        ],
    )
    .await;
    let metrics = bot.metrics_addr().await;
    standin.commands_put().await;
    assert_eq!(http_get(&metrics, "/healthz").await.0, 200);
    assert_eq!(http_get(&metrics, "/readyz").await, (200, "ready\n".into()));

    let alice = TestUser::new(snowflake(), "quetzalcoatl");
    let place = Place::guild(GUILD, snowflake());
    let start = start_game(&standin, &alice, place).await;
    let fault = standin.inject(FaultRoute::Callback, FaultAction::ServerError(500), 1);
    let mv = play(&standin, &alice, place, "10-14").await;
    assert_eq!(standin.callback(&mv).await.status, 500);
    assert_eq!(standin.callback(&mv).await.status, 204);
    assert_eq!(standin.fault_hits(fault), 1);
    bot_answer(&standin, place.channel).await;
    let typed = "xyzzy-plover";
    let refused = play(&standin, &alice, place, typed).await;
    let cb = standin.callback(&refused).await;
    // Quoted as typed (what a person wrote reaches Discord escaped: `xyzzy\-plover`).
    assert!(
        text(&cb).contains(r"xyzzy\-plover"),
        "the refusal quotes it: {}",
        text(&cb)
    );

    // Counted once each delivery is over: wait for the three, then read everything.
    let interactions =
        |scrape: &str| metric(scrape, "damas_interactions_total", &[]).unwrap_or(0.0);
    let mut scrape = String::new();
    for _ in 0..200 {
        scrape = http_get(&metrics, "/metrics").await.1;
        if interactions(&scrape) >= 3.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let m = |name: &str, labels: &[(&str, &str)]| metric(&scrape, name, labels);
    assert_eq!(interactions(&scrape), 3.0, "{scrape}");
    let interaction = |kind, outcome| {
        m(
            "damas_interactions_total",
            &[("kind", kind), ("outcome", outcome)],
        )
    };
    assert_eq!(interaction("play", "answered"), Some(1.0), "{scrape}");
    assert_eq!(interaction("move", "answered"), Some(1.0), "{scrape}");
    assert_eq!(interaction("move", "refused"), Some(1.0), "{scrape}");
    assert_eq!(
        m("damas_answer_seconds_count", &[("kind", "play")]),
        Some(1.0)
    );
    assert_eq!(
        m("damas_answer_seconds_count", &[("kind", "move")]),
        Some(2.0)
    );
    assert_eq!(
        m("damas_deliveries_retried_total", &[("reason", "5xx")]),
        Some(1.0)
    );
    assert_eq!(
        m("damas_deliveries_retried_total", &[("reason", "429")]),
        None
    );
    assert_eq!(
        m("damas_moves_stored_total", &[("variant", "spanish")]),
        Some(2.0)
    );
    let games = |kind| {
        m(
            "damas_games_under_way",
            &[("variant", "spanish"), ("kind", kind)],
        )
    };
    assert_eq!(games("bot_easy"), Some(1.0));
    assert_eq!(games("people"), Some(0.0));
    assert_eq!(
        m("damas_bot_move_think_seconds_count", &[("level", "easy")]),
        Some(1.0)
    );
    assert_eq!(
        m("damas_bot_move_wait_seconds_count", &[("level", "easy")]),
        Some(1.0)
    );
    assert_eq!(
        m("damas_search_queue_depth", &[("class", "quick")]),
        Some(0.0)
    );
    assert_eq!(m("damas_shards_connected", &[]), Some(1.0));
    assert!(m("damas_process_resident_memory_bytes", &[]).is_some_and(|b| b > 1e6));
    // Each move is a compare-and-swap of the game.
    let swaps = m(
        "damas_store_operation_seconds_count",
        &[("backend", "sled"), ("op", "swap")],
    );
    assert!(swaps.is_some_and(|n| n >= 2.0), "{scrape}");
    assert!(
        scrape.contains("# HELP damas_interactions_total "),
        "{scrape}"
    );
    // A label's value is quoted; a bare number (a timing such as 0.007942422) may hold the
    // digits of an id by chance.
    for id in [alice.id, place.channel, GUILD] {
        assert!(
            !scrape.contains(&format!("\"{id}\"")),
            "an id as a label: {scrape}"
        );
    }

    // SIGTERM with an answer under way (Discord slow to take it): /readyz says 503 before
    // the process drains and ends.
    let slow = standin.inject(
        FaultRoute::Callback,
        FaultAction::Delay(Duration::from_secs(4)),
        1,
    );
    let last = play(&standin, &alice, place, "1-2").await;
    for _ in 0..200 {
        if standin.fault_hits(slow) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(standin.fault_hits(slow), 1, "the answer is under way");
    bot.signal("TERM");
    let mut said = None;
    for _ in 0..100 {
        let (status, body) = http_get(&metrics, "/readyz").await;
        if status != 200 {
            said = Some((status, body));
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(said, Some((503, "not ready: shutting down\n".into())));
    assert!(bot.try_wait().is_none(), "still draining while it said so");
    assert!(bot.wait_exit(Duration::from_secs(15)).await.success());

    let log: Vec<serde_json::Value> = bot
        .printed("")
        .iter()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let events = |target: &str| {
        log.iter()
            .filter(|e| e["target"] == target)
            .map(|e| e["fields"].clone())
            .collect::<Vec<_>>()
    };
    let answered = events("damas::interaction");
    assert_eq!(answered.len(), 4, "{answered:?}");
    for e in &answered {
        assert!(e["kind"].is_string() && e["outcome"].is_string(), "{e}");
        assert_eq!(e["shard"], 0, "{e}");
    }
    assert_eq!(answered[2]["outcome"], "refused");
    assert!(answered[2]["latency_ms"].is_u64());
    let bot_moves = events("damas::bot_move");
    assert_eq!(bot_moves.len(), 1, "{bot_moves:?}");
    for field in ["level", "wait_ms", "think_ms", "depth"] {
        assert!(!bot_moves[0][field].is_null(), "{field}: {}", bot_moves[0]);
    }
    let whole = bot.printed("").join("\n");
    for secret in [
        standin.token(),
        &start.token,
        &mv.token,
        &refused.token,
        &last.token,
        "quetzalcoatl",
        typed,
    ] {
        assert!(!whole.contains(secret), "{secret} is in the log");
    }
}
