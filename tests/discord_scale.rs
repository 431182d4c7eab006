//! Beyond one gateway connection: `damas bot` runs the shards Discord recommends (or a range of
//! them), and `damas serve` takes interactions on Discord's HTTP endpoint. These run the real
//! `damas` binary as a child process against the stand-in.

mod bot_support;
mod discord_stand_in;
mod store_common;

use bot_support::*;
use discord_stand_in::*;
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;

/// serenity starts one shard every 5 s: four take 15 s and more.
async fn standin_recommending(shards: u32) -> StandIn {
    StandIn::start_with(Config {
        wait: Duration::from_secs(45),
        recommended_shards: shards,
        ..Config::default()
    })
    .await
}

/// A guild whose events Discord sends on shard `shard` of `count`.
fn guild_on_shard(shard: u64, count: u64) -> u64 {
    ((count + shard) << 22) | 4242
}

/// `/help` in a channel of `guild`: answered (type 4) on the shard that carries the guild.
async fn help_is_answered(standin: &StandIn, guild: u64) -> SentInteraction {
    let alice = TestUser::random("alice");
    let sent = standin
        .send_interaction(standin.slash_command(
            &alice,
            Place::guild(guild, snowflake()),
            "help",
            vec![],
        ))
        .await;
    let cb = standin.callback(&sent).await;
    assert_eq!(cb.callback_type(), Some(4), "{}", cb.summary());
    assert_eq!(cb.status, 204, "{}", cb.summary());
    sent
}

fn commands_puts(standin: &StandIn) -> usize {
    standin
        .log()
        .iter()
        .filter(|r| r.method == "PUT" && matches!(r.route, Route::Commands { .. }))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_runs_every_shard_discord_recommends() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin_recommending(4).await;
    let _bot = BotProcess::start(&standin, &dir.path().join("db")).await;

    let connected = standin.wait_shards_connected(4).await;
    assert_eq!(connected, vec![(0, 4), (1, 4), (2, 4), (3, 4)]);
    let mut identified = standin.identified_shards();
    identified.sort_unstable();
    assert_eq!(identified, connected, "one IDENTIFY per shard");
    for shard in 0..4 {
        let sent = help_is_answered(&standin, guild_on_shard(shard, 4)).await;
        assert_eq!(sent.shard, (shard, 4));
    }
    // The commands are registered once, by shard 0, not once per shard.
    assert_eq!(commands_puts(&standin), 1, "{}", standin.log_text());
    standin.assert_no_refusals();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_range_connects_only_its_shards() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin_recommending(4).await;
    let _bot = BotProcess::start_with_env(
        &standin,
        &dir.path().join("db"),
        "info,serenity=warn",
        &[("DISCORD_SHARDS", "2-3"), ("DISCORD_SHARD_COUNT", "4")],
    )
    .await;

    assert_eq!(standin.wait_shards_connected(2).await, vec![(2, 4), (3, 4)]);
    // serenity would start a third shard 5 s after the second.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let mut identified = standin.identified_shards();
    identified.sort_unstable();
    assert_eq!(identified, vec![(2, 4), (3, 4)], "{}", standin.log_text());
    help_is_answered(&standin, guild_on_shard(3, 4)).await;
    // Shard 0 runs elsewhere, and registers the commands there.
    assert_eq!(commands_puts(&standin), 0);
    assert!(
        !standin.log().iter().any(|r| r.route == Route::GatewayBot),
        "a range needs no recommendation"
    );
    standin.assert_no_refusals();
}

/// A bad shard range or a bad `DAMAS_*` setting: one line naming the variable, exit 2, before
/// anything connects.
#[tokio::test]
async fn a_bad_setting_is_a_one_line_error_naming_the_variable() {
    for (variable, value) in [
        ("DISCORD_SHARDS", "2-4"),
        ("DAMAS_MOVE_TIME", "3"),
        ("DAMAS_SWEEP_EVERY", "fast"),
        ("DAMAS_CHALLENGE_TTL", "0m"),
        ("DAMAS_SEARCH_THREADS", "0"),
        ("DAMAS_SEARCH_MEMORY_MB", "lots"),
        ("DAMAS_MAX_BOT_GAMES", "0"),
        ("DAMAS_MAX_CHALLENGES", "many"),
        ("DAMAS_MAX_REVIEWS", "-2"),
        ("DAMAS_SEARCH_QUEUE", "1.5"),
    ] {
        let mut damas = Command::new(env!("CARGO_BIN_EXE_damas"));
        damas
            .arg("bot")
            .env("DISCORD_TOKEN", "x")
            .env(variable, value);
        if variable == "DISCORD_SHARDS" {
            // A range outside the count.
            damas.env("DISCORD_SHARD_COUNT", "4");
        }
        let out = damas
            .current_dir(tempfile::tempdir().unwrap().path())
            .output()
            .expect("damas runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{variable}={value}: {err}");
        assert!(
            err.trim().starts_with(&format!("error: {variable} ")),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_each_shard_catches_up_on_its_own_servers_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let standin = standin_recommending(2).await;
    let range = |r: &'static str| [("DISCORD_SHARDS", r), ("DISCORD_SHARD_COUNT", "2")];
    let log = "info,serenity=warn";
    let bot = BotProcess::start_with_env(&standin, &db, log, &range("0-1")).await;
    standin.wait_shards_connected(2).await;
    let place = Place::guild(guild_on_shard(1, 2), snowflake());
    hand_the_bot_its_turn(&standin, place).await;
    bot.signal("KILL");
    drop(bot);
    standin.wait_disconnected().await;

    // Shard 0 alone: the game is on shard 1, so this process leaves it alone.
    let bot = BotProcess::start_with_env(&standin, &db, log, &range("0-0")).await;
    standin
        .assert_no_request_within(Duration::from_secs(5), bot_post_in(place.channel))
        .await;
    bot.signal("KILL");
    drop(bot);
    standin.wait_disconnected().await;

    // Shard 1: its READY makes the move.
    let _bot = BotProcess::start_with_env(&standin, &db, log, &range("1-1")).await;
    the_bot_moves_once_in(&standin, place.channel).await;
}

/// The bot's move is posted in `channel` within 15 s, and nothing more in the 3 s after.
async fn the_bot_moves_once_in(standin: &StandIn, channel: u64) {
    let post = standin
        .next_request_within(
            Duration::from_secs(15),
            "the bot's move",
            bot_post_in(channel),
        )
        .await;
    assert!(text(&post).contains("Bot · expert"), "{}", text(&post));
    standin
        .assert_no_request_within(Duration::from_secs(3), bot_post_in(channel))
        .await;
}

/// Runs `statement` on the database at `url`: what the test sees of the lease table.
async fn sql(url: &str, statement: &str) -> Vec<tokio_postgres::Row> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(connection);
    client.query(statement, &[]).await.expect(statement)
}

/// `damas bot` on PostgreSQL is killed while the expert thinks: its lease on the turn stays
/// behind. The next process's READY catch-up is refused the move while that lease holds, and
/// no person will act; once it expires, the sweeper's nudge makes the move, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_refused_by_a_dead_processs_lease_is_made_once_the_lease_expires() {
    let db = store_common::postgres::server().fresh_database();
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let launch = Launch {
        http: false,
        db: &db,
        workdir: dir.path(),
        log: "info,serenity=warn",
        vars: &[("DAMAS_SWEEP_EVERY", "1s")],
    };
    let mut bot = BotProcess::launch(&standin, launch).await;
    let place = Place::guild(GUILD, snowflake());
    hand_the_bot_its_turn(&standin, place).await;
    let leased = "SELECT holder FROM bot_turn_leases";
    for _ in 0..200 {
        if !sql(&db, leased).await.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bot.kill();
    standin.wait_disconnected().await;
    assert_eq!(sql(&db, leased).await.len(), 1, "the dead process's lease");
    assert!(
        !standin.log().iter().any(bot_post_in(place.channel)),
        "the expert moved before the kill"
    );
    // However long the new process takes to start, the old lease still holds at its READY.
    sql(
        &db,
        "UPDATE bot_turn_leases SET expires_at = now() + interval '1 hour'",
    )
    .await;

    let _bot = BotProcess::launch(&standin, launch).await;
    standin
        .assert_no_request_within(Duration::from_secs(3), bot_post_in(place.channel))
        .await;
    sql(
        &db,
        "UPDATE bot_turn_leases SET expires_at = now() - interval '1 second'",
    )
    .await;
    the_bot_moves_once_in(&standin, place.channel).await;
    assert!(sql(&db, leased).await.is_empty(), "the lease is released");
}

// ---- the HTTP interactions endpoint ------------------------------------------------------------

async fn standin() -> StandIn {
    StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await
}

/// The completion of a deferred answer: `PATCH .../messages/@original` of this interaction.
async fn original_edit(standin: &StandIn, sent: &SentInteraction) -> Recorded {
    let token = sent.token.clone();
    standin
        .next_request(move |r| {
            r.method == "PATCH" && matches!(&r.route, Route::Original { token: t } if *t == token)
        })
        .await
}

fn reaches_discord(r: &Recorded) -> bool {
    matches!(
        r.route,
        Route::Callback { .. }
            | Route::Original { .. }
            | Route::Followup { .. }
            | Route::ChannelMessages { .. }
            | Route::ChannelMessage { .. }
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_answers_a_ping_and_refuses_what_discord_did_not_sign() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let serve = BotProcess::serve(&standin, &dir.path().join("db")).await;

    let ping = serde_json::to_vec(&json!({
        "type": 1,
        "id": snowflake().to_string(),
        "application_id": standin.application_id().to_string(),
        "token": "cGluZw.ping.stand-in",
        "version": 1,
    }))
    .unwrap();
    let pong = standin
        .post_raw(&serve.url, &standin.signature_headers(&ping), &ping)
        .await;
    assert_eq!((pong.status, pong.body), (200, json!({"type": 1})));

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let play = |standin: &StandIn| {
        standin.slash_command(
            &alice,
            place,
            "play",
            vec![opt_str("level", "easy"), opt_str("colour", "white")],
        )
    };
    let body = serde_json::to_vec(&play(&standin)).unwrap();
    let signed_elsewhere = standin.signature_headers(b"{}");
    let mut other_time = standin.signature_headers(&body);
    other_time[1].1 = "1".to_owned();
    let no_such_key = vec![
        ("X-Signature-Ed25519", "ab".repeat(64)),
        other_time[1].clone(),
    ];
    for (what, headers) in [
        ("no signature", vec![]),
        ("the signature of another body", signed_elsewhere),
        ("another timestamp", other_time),
        ("a signature by no key", no_such_key),
    ] {
        let answered = standin.post_raw(&serve.url, &headers, &body).await;
        assert_eq!(answered.status, 401, "{what}: {:?}", answered.body);
    }
    // Nothing reached Discord, and no game was started: the same command, signed, starts one.
    standin
        .assert_no_request_within(Duration::from_secs(2), reaches_discord)
        .await;
    let (sent, answered) = standin.post_interaction(&serve.url, play(&standin)).await;
    assert_eq!(answered.status, 200);
    // A board has a picture, which the response body cannot carry: deferred, then edited in.
    assert_eq!(answered.body["type"], 5, "{}", answered.body);
    let board = original_edit(&standin, &sent).await;
    board_png(&board);
    standin.assert_no_refusals();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_is_played_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let serve = BotProcess::serve(&standin, &dir.path().join("db")).await;
    // The commands were registered at start.
    standin.commands_put().await;

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let (sent, answered) = standin
        .post_interaction(
            &serve.url,
            standin.slash_command(
                &alice,
                place,
                "play",
                vec![
                    opt_str("level", "easy"),
                    opt_str("variant", "spanish"),
                    opt_str("colour", "white"),
                ],
            ),
        )
        .await;
    assert_eq!(
        (answered.status, answered.body["type"].clone()),
        (200, json!(5))
    );
    original_edit(&standin, &sent).await;

    // Text only: answered in the response body itself.
    let (_, help) = standin
        .post_interaction(
            &serve.url,
            standin.slash_command(&alice, place, "help", vec![]),
        )
        .await;
    assert_eq!(help.body["type"], 4, "{}", help.body);
    assert!(
        !help.body["data"]["content"]
            .as_str()
            .unwrap_or_default()
            .is_empty()
            || help.body["data"]["embeds"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
    );

    let (_, suggestions) = standin
        .post_interaction(
            &serve.url,
            standin.autocomplete(&alice, place, "move", vec![opt_focused("move", 3, "10")]),
        )
        .await;
    assert_eq!(suggestions.body["type"], 8, "{}", suggestions.body);
    let choices: Vec<Value> = suggestions.body["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap();
    assert!(choices.iter().any(|c| c["value"] == "10-14"), "{choices:?}");

    let (sent, answered) = standin
        .post_interaction(
            &serve.url,
            standin.slash_command(&alice, place, "move", vec![opt_str("move", "10-14")]),
        )
        .await;
    assert_eq!(answered.body["type"], 5, "{}", answered.body);
    let shown = original_edit(&standin, &sent).await;
    assert!(
        text(&shown).contains("alice played 10-14"),
        "{}",
        text(&shown)
    );

    // No gateway: the move alice's interaction owed the bot is posted in the channel.
    let reply = standin.next_request(bot_post_in(place.channel)).await;
    assert!(text(&reply).contains("played"), "{}", text(&reply));
    let board = standin
        .message(reply.message_id().expect("the post's id"))
        .expect("the bot's board");

    // alice answers with the board's menu: a component, acknowledged in the body (type 6),
    // her board then as a follow-up.
    let pick = first_menu_move(&standin, &alice, &board).expect("a move menu");
    let (sent, answered) = standin.post_interaction(&serve.url, pick).await;
    assert_eq!(answered.body["type"], 6, "{}", answered.body);
    let token = sent.token.clone();
    let followup = standin
        .next_request(move |r| {
            r.method == "POST" && matches!(&r.route, Route::Followup { token: t } if *t == token)
        })
        .await;
    assert!(
        text(&followup).contains("alice played"),
        "{}",
        text(&followup)
    );
    standin.next_request(bot_post_in(place.channel)).await;
    standin.assert_no_refusals();
}

// ---- two `serve` processes sharing one PostgreSQL ----------------------------------------------

/// The canonical notation of the first legal move of the channel's game, and its ply, read
/// from the shared database.
fn next_move(store: &damas::store::Store, channel: u64) -> (String, usize) {
    let rec = store
        .active_game(channel)
        .expect("read the game")
        .expect("a game in the channel");
    let game = rec.to_game().expect("a readable game");
    let position = game.position();
    let mv = position.legal_moves()[0];
    (position.move_notation(&mv), rec.moves.len())
}

fn plies(store: &damas::store::Store, channel: u64) -> usize {
    store
        .active_game(channel)
        .expect("read the game")
        .map_or(0, |r| r.moves.len())
}

fn played(notation: &str) -> impl Fn(&Recorded) -> bool + '_ {
    move |r| reaches_discord(r) && text(r).contains(&format!("alice played {notation}"))
}

/// Both processes take interactions of one game; each catches up every second, so both
/// try to make every bot move while the expert thinks: the lease lets one search.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_serve_processes_on_one_postgresql_apply_each_move_once() {
    let db = store_common::postgres::server().fresh_database();
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let env = [("DAMAS_SWEEP_EVERY", "1s")];
    let serve = [
        BotProcess::serve_with(&standin, &db, dir.path(), &env).await,
        BotProcess::serve_with(&standin, &db, dir.path(), &env).await,
    ];
    let store = damas::store::Store::open(&db).expect("the test's view of the database");
    for s in &serve {
        let said = s.printed("");
        assert_eq!(
            s.printed("the bot's turns are claimed as").len(),
            1,
            "{said:#?}"
        );
    }

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let (sent, answered) = standin
        .post_interaction(
            &serve[0].url,
            standin.slash_command(
                &alice,
                place,
                "play",
                vec![
                    opt_str("level", "expert"),
                    opt_str("variant", "spanish"),
                    opt_str("colour", "white"),
                ],
            ),
        )
        .await;
    assert_eq!(answered.status, 200, "{:?}", answered.body);
    original_edit(&standin, &sent).await;

    // alice's moves go to one process, then the other.
    let turns = 4;
    for turn in 0..turns {
        let (notation, ply) = next_move(&store, place.channel);
        assert_eq!(ply, 2 * turn, "every move applied once");
        let (sent, answered) = standin
            .post_interaction(
                &serve[turn % 2].url,
                standin.slash_command(&alice, place, "move", vec![opt_str("move", &notation)]),
            )
            .await;
        assert_eq!(answered.status, 200, "{:?}", answered.body);
        let shown = original_edit(&standin, &sent).await;
        assert!(text(&shown).contains(&format!("alice played {notation}")));
        let reply = standin.next_request(bot_post_in(place.channel)).await;
        assert!(text(&reply).contains("Bot · expert"), "{}", text(&reply));
    }
    assert_eq!(plies(&store, place.channel), 2 * turns);

    // 100 identical moves at once, half to each process: one is applied.
    let (notation, ply) = next_move(&store, place.channel);
    let racing = (0..100).map(|i| {
        let payload =
            standin.slash_command(&alice, place, "move", vec![opt_str("move", &notation)]);
        let (standin, url) = (&standin, &serve[i % 2].url);
        async move { standin.post_interaction(url, payload).await }
    });
    let answers = futures::future::join_all(racing).await;
    assert!(answers.iter().all(|(_, a)| a.status == 200));
    standin.next_request(bot_post_in(place.channel)).await;
    assert_eq!(
        plies(&store, place.channel),
        ply + 2,
        "one move and the bot's"
    );
    // The winner's board (an edit of its deferred answer) is the only one saying it.
    let winner = standin.next_request(played(&notation)).await;
    assert!(
        matches!(winner.route, Route::Original { .. }),
        "{}",
        winner.summary()
    );

    // A request Discord did not sign changes nothing.
    let (notation, ply) = next_move(&store, place.channel);
    let body = serde_json::to_vec(&standin.slash_command(
        &alice,
        place,
        "move",
        vec![opt_str("move", &notation)],
    ))
    .unwrap();
    let mut forged = standin.signature_headers(b"{}");
    forged[1].1 = standin.signature_headers(&body)[1].1.clone();
    for s in &serve {
        assert_eq!(standin.post_raw(&s.url, &forged, &body).await.status, 401);
    }

    // The bot answered once per turn, and neither process searched a move the other made.
    standin
        .assert_no_request_within(Duration::from_secs(4), |r| {
            bot_post_in(place.channel)(r) || played(&notation)(r) || played("")(r)
        })
        .await;
    assert_eq!(plies(&store, place.channel), ply);
    for s in &serve {
        assert_eq!(s.printed("this search was wasted"), Vec::<String>::new());
    }
    standin.assert_no_refusals();
}
