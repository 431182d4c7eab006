//! Beyond one gateway connection: `damas bot` runs the shards Discord recommends (or a range of
//! them), and `damas serve` takes interactions on Discord's HTTP endpoint. These run the real
//! `damas` binary as a child process against the stand-in.

use crate::support::bot::*;
use crate::support::stand_in::*;
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
        .send_slash(
            &alice,
            Place::guild(guild, snowflake()),
            Slash::named("help"),
        )
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
        ("DAMAS_EXPERT_TIME", "0s"),
        ("DAMAS_SWEEP_EVERY", "fast"),
        ("DAMAS_CHALLENGE_TTL", "0m"),
        ("DAMAS_SEARCH_THREADS", "0"),
        ("DAMAS_SEARCH_MEMORY_MB", "lots"),
        ("DAMAS_DB_CONNECT_TIMEOUT", "5"),
        ("DAMAS_DB_STATEMENT_TIMEOUT", "0s"),
        ("DAMAS_DB_POOL_WAIT", "soon"),
        // The bot token would cross the network in clear.
        ("DISCORD_API_PROXY", "http://proxy.example:3000"),
        ("DISCORD_API_PROXY", "http://10.1.2.3:3000"),
        ("DAMAS_MAX_BOT_GAMES", "0"),
        ("DAMAS_MAX_CHALLENGES", "many"),
        ("DAMAS_MAX_REVIEWS", "-2"),
        ("DAMAS_SEARCH_QUEUE", "1.5"),
    ] {
        let mut damas = crate::support::cli::command();
        damas
            .arg("bot")
            .env("DISCORD_TOKEN", "x")
            .env(variable, value);
        if variable == "DISCORD_SHARDS" {
            // A range outside the count.
            damas.env("DISCORD_SHARD_COUNT", "4");
        }
        assert_one_line_error(&mut damas, variable, value);
    }
    // `damas serve`'s own: its connection cap.
    let mut serve = crate::support::cli::command();
    serve
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("DISCORD_TOKEN", "x")
        .env("DISCORD_PUBLIC_KEY", EXAMPLE_PUBLIC_KEY)
        .env("DAMAS_HTTP_MAX_CONNECTIONS", "0");
    assert_one_line_error(&mut serve, "DAMAS_HTTP_MAX_CONNECTIONS", "0");
}

/// Runs `damas`, so set up, in an empty directory: it must exit 2 with one line that names
/// `variable` (set to `value`).
fn assert_one_line_error(damas: &mut Command, variable: &str, value: &str) {
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

/// A valid Ed25519 public key (serenity's documentation's example).
const EXAMPLE_PUBLIC_KEY: &str = "67c6bd767ca099e79efac9fcce4d2022a63bf7dea780e7f3d813f694c1597089";

/// `damas bot` and `damas serve` that cannot reach their PostgreSQL say which database, without
/// its password, even logging everything (`RUST_LOG=trace`).
#[tokio::test]
async fn a_database_password_never_appears_in_the_output() {
    // A port nobody listens on: the connection is refused at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let url = format!("postgres://damas:hunter2-secret@{closed}/damas?sslmode=disable");
    for front in [vec!["bot"], vec!["serve", "--listen", "127.0.0.1:0"]] {
        let out = crate::support::cli::command()
            .args(&front)
            .env("DISCORD_TOKEN", "x")
            .env("DISCORD_PUBLIC_KEY", EXAMPLE_PUBLIC_KEY)
            .env("DAMAS_DB", &url)
            .env("DAMAS_DB_CONNECT_TIMEOUT", "1s")
            .env("RUST_LOG", "trace")
            .current_dir(tempfile::tempdir().unwrap().path())
            .output()
            .expect("damas runs");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{front:?}: {said}");
        assert!(
            said.contains(&format!("postgres://damas:***@{closed}/damas")),
            "{front:?}: {said}"
        );
        assert!(!said.contains("hunter2"), "{front:?}: {said}");
    }
}

/// At `RUST_LOG=trace`, the most the README suggests, a game's whole log holds no token:
/// neither the interactions' (in REST URLs, in gateway frames) nor the bot's (IDENTIFY).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_reaches_the_log_even_at_trace() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let bot = BotProcess::start_logging(&standin, &dir.path().join("db"), "trace").await;
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let mut tokens = vec![standin.token().to_owned()];
    // The bot's move fails once on its way to the channel: logged with its error, retried.
    standin.inject(FaultRoute::ChannelPost, FaultAction::ServerError(502), 1);
    // The first answer's connection is cut: the bot retries it and logs the failure, whose
    // error must not carry the callback's URL (its token) into the line.
    standin.inject(FaultRoute::Callback, FaultAction::HangUp, 1);
    for (command, options) in [
        (
            "play",
            vec![opt_str("level", "easy"), opt_str("colour", "white")],
        ),
        ("move", vec![opt_str("move", "10-14")]),
    ] {
        let sent = standin
            .send_interaction(standin.slash_command(&alice, place, command, options))
            .await;
        standin.callback(&sent).await;
        tokens.push(sent.token);
    }
    standin.next_request(bot_post_in(place.channel)).await;
    let resign = standin
        .send_slash(&alice, place, Slash::named("resign"))
        .await;
    standin.callback(&resign).await;
    tokens.push(resign.token);
    // Everything of the game was logged, down to the gateway's frames.
    assert!(!bot.printed("TRACE").is_empty(), "not a trace log");
    // The libraries whose details carry tokens log nothing below their cap, whatever
    // RUST_LOG says (src/discord/logs.rs): the cap holds on its own, not only the redaction
    // after it.
    for (target, below_cap) in [
        ("serenity::http::", &["INFO", "DEBUG", "TRACE"][..]),
        ("serenity::gateway::", &["DEBUG", "TRACE"]),
        ("tungstenite::", &["DEBUG", "TRACE"]),
        ("reqwest::", &["DEBUG", "TRACE"]),
    ] {
        let below: Vec<String> = bot
            .printed(target)
            .into_iter()
            .filter(|line| {
                // The level is the second word (after the time).
                line.split_whitespace()
                    .nth(1)
                    .is_some_and(|level| below_cap.iter().any(|l| level.contains(l)))
            })
            .collect();
        assert_no_lines(&below, &format!("of {target} below its cap"), 300);
    }
    assert!(
        !bot.printed("answer an interaction: attempt 1 failed")
            .is_empty(),
        "the cut connection's retry is not in the log"
    );
    for token in &tokens {
        assert_no_lines(&bot.printed(token), "show a token", 600);
    }
}

/// Fails, saying how many lines there are and the first (cut to `shown` characters), unless
/// `lines` is empty.
fn assert_no_lines(lines: &[String], what: &str, shown: usize) {
    let first: String = lines
        .first()
        .map_or("", String::as_str)
        .chars()
        .take(shown)
        .collect();
    assert!(
        lines.is_empty(),
        "{} lines {what}; the first: {first}",
        lines.len()
    );
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
    assert_says(&post, "Bot · expert");
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
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let db = server.fresh_database();
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

    let pong = standin.post_ping(&serve.url).await;
    assert_eq!((pong.status, pong.body), (200, json!({"type": 1})));

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let play = |standin: &StandIn| standin.slash(&alice, place, Slash::play_easy("white"));
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

/// Now, in seconds since 1970, as `X-Signature-Timestamp` says it.
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The text an interaction posted by HTTP was answered with: the response body itself, or
/// the edit (command) or follow-up (click) completing a deferred one.
async fn http_answer_text(
    standin: &StandIn,
    sent: &SentInteraction,
    answered: &crate::support::stand_in::http_mode::HttpAnswered,
) -> String {
    assert_eq!(answered.status, 200, "{:?}", answered.body);
    let token = sent.token.clone();
    match answered.body["type"].as_u64() {
        Some(5) => text(&original_edit(standin, sent).await),
        Some(6) => text(
            &standin
                .next_request(move |r| {
                    r.method == "POST"
                        && matches!(&r.route, Route::Followup { token: t } if *t == token)
                })
                .await,
        ),
        _ => text_of(&answered.body["data"]),
    }
}

/// Whether the bot sent Discord anything that shows or changes something (a GET reads only)
/// since the log had `mark` requests.
fn acted_since(standin: &StandIn, mark: usize) -> Vec<String> {
    standin.log()[mark..]
        .iter()
        .filter(|r| r.method != "GET" && reaches_discord(r))
        .map(Recorded::summary)
        .collect()
}

/// A signed request is good for 5 minutes and once: a timestamp further from the clock is
/// refused (401) whatever the signature, and a captured `/resign` or Resign click posted
/// again is refused (409) instead of ending the next game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_and_replayed_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let serve = BotProcess::serve(&standin, &dir.path().join("db")).await;
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let play = || standin.slash(&alice, place, Slash::play_easy("white"));

    // Signed with Discord's key, at the wrong time.
    let body = serde_json::to_vec(&play()).unwrap();
    let now = unix_now();
    for timestamp in [
        (now - 301).to_string(),
        (now + 301).to_string(),
        "1".to_owned(),
        String::new(),
        "not-a-time".to_owned(),
    ] {
        let headers = standin.signature_headers_at(&body, &timestamp);
        let answered = standin.post_raw(&serve.url, &headers, &body).await;
        assert_eq!(answered.status, 401, "{timestamp:?}: {:?}", answered.body);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(acted_since(&standin, 0), Vec::<String>::new());

    // Game 1 ends with /resign, game 2 with its board's Resign button.
    let (game, answered) = standin.post_interaction(&serve.url, play()).await;
    http_answer_text(&standin, &game, &answered).await;
    let (resign, answered) = standin
        .post_interaction(
            &serve.url,
            standin.slash(&alice, place, Slash::named("resign")),
        )
        .await;
    let said = http_answer_text(&standin, &resign, &answered).await;
    assert!(said.contains("alice resigned"), "{said}");
    let (game, answered) = standin.post_interaction(&serve.url, play()).await;
    http_answer_text(&standin, &game, &answered).await;
    let board = standin.original_message(&game);
    let click = standin.button_click(&alice, &board, &custom_id_starting(&board, "damas:resign:"));
    let (click, answered) = standin.post_interaction(&serve.url, click).await;
    let said = http_answer_text(&standin, &click, &answered).await;
    assert!(said.contains("alice resigned"), "{said}");

    // Game 3 is where game 2 was when its Resign was clicked; the captures come again.
    let (game, answered) = standin.post_interaction(&serve.url, play()).await;
    http_answer_text(&standin, &game, &answered).await;
    // Whatever the game 2 board's clean-up still does happens first.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mark_replays = standin.log().len();
    for captured in [&resign, &click] {
        let answered = standin.replay_http(&serve.url, captured).await;
        assert_eq!(answered.status, 409, "{:?}", answered.body);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(acted_since(&standin, mark_replays), Vec::<String>::new());
    let (mv, answered) = standin
        .post_interaction(&serve.url, standin.slash(&alice, place, Slash::mv("10-14")))
        .await;
    let said = http_answer_text(&standin, &mv, &answered).await;
    assert!(said.contains("alice played 10-14"), "game 3 ended: {said}");
    standin.assert_no_refusals();
}

/// The endpoint's `host:port`.
fn endpoint_addr(serve: &BotProcess) -> String {
    serve
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/interactions")
        .to_owned()
}

/// Whether the server closes `stream` within `within` (reading through any answer it sends
/// first, a 408 say).
async fn closed_by_server(stream: &mut tokio::net::TcpStream, within: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let deadline = tokio::time::Instant::now() + within;
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// Sends `head` (and `body`) on a new connection and returns the status answered within 3 s.
async fn status_of(addr: &str, head: &str, body: &[u8]) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    // The server may answer and close before taking it all.
    let _ = stream.write_all(body).await;
    let mut answer = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(3), stream.read(&mut answer))
        .await
        .expect("an answer within 3 s")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer[..n]);
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"))
}

/// Three times as many idle and half-sent connections as the cap: a signed PING is still
/// answered within Discord's 3 s, and the server closes every one of them. Without Discord's
/// signature headers no body is read; a body past the limit is refused. SIGTERM with a
/// request half sent still ends the process in time, its store flushed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_clients_cannot_hold_the_endpoint() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let standin = standin().await;
    let db = dir.path().join("db");
    let mut serve = BotProcess::serve_with(
        &standin,
        db.to_str().unwrap(),
        dir.path(),
        &[("DAMAS_HTTP_MAX_CONNECTIONS", "8")],
    )
    .await;
    let addr = endpoint_addr(&serve);
    let now = unix_now();
    let signed_looking = format!(
        "POST /interactions HTTP/1.1\r\nHost: x\r\nX-Signature-Ed25519: {}\r\n\
         X-Signature-Timestamp: {now}\r\n",
        "ab".repeat(64)
    );
    let mut crowd = Vec::new();
    for i in 0..24 {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        let sent = match i % 3 {
            0 => String::new(),
            1 => "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Le".to_owned(),
            _ => format!("{signed_looking}Content-Length: 1000\r\n\r\n{{\"type\":"),
        };
        stream.write_all(sent.as_bytes()).await.unwrap();
        crowd.push(stream);
    }

    let pong = tokio::time::timeout(Duration::from_secs(3), standin.post_ping(&serve.url))
        .await
        .expect("a PING answered within Discord's 3 s");
    assert_eq!((pong.status, pong.body), (200, json!({"type": 1})));
    let closed = futures::future::join_all(
        crowd
            .iter_mut()
            .map(|s| closed_by_server(s, Duration::from_secs(20))),
    )
    .await;
    assert!(closed.iter().all(|c| *c), "left open: {closed:?}");

    // No signature headers: 401 before the 2 MB body is sent.
    let unsigned = "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n";
    assert_eq!(status_of(&addr, unsigned, b"").await, 401);
    // Larger than any interaction: 413 unread, whether the length is said or not.
    let declared = format!("{signed_looking}Content-Length: 100000\r\n\r\n");
    assert_eq!(status_of(&addr, &declared, b"").await, 413);
    let chunked = format!("{signed_looking}Transfer-Encoding: chunked\r\n\r\n");
    let chunk = [
        format!("{:x}\r\n", 70 * 1024).into_bytes(),
        vec![b' '; 70 * 1024],
    ]
    .concat();
    assert_eq!(status_of(&addr, &chunked, &chunk).await, 413);

    // SIGTERM while a request is half sent and a connection idles; the request's head is
    // finished after the signal (within the 5 s it has), so that its body could keep the
    // connection busy for 10 s more.
    let mut half = tokio::net::TcpStream::connect(&addr).await.unwrap();
    half.write_all(b"POST /interactions HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let _idle = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    serve.signal("TERM");
    let signalled = std::time::Instant::now();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rest = format!(
        "X-Signature-Ed25519: {}\r\nX-Signature-Timestamp: {now}\r\nContent-Length: 1000\r\n\r\n{{",
        "ab".repeat(64)
    );
    let _ = half.write_all(rest.as_bytes()).await;
    let status = serve
        .wait_exit(Duration::from_secs(10).saturating_sub(signalled.elapsed()))
        .await;
    assert!(status.success(), "{status:?}");
    assert!(
        serve
            .printed("stopped")
            .iter()
            .any(|l| l.trim_end().ends_with("stopped")),
        "{:#?}",
        serve.printed("")
    );
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
            standin.slash(&alice, place, Slash::play_bot("easy", "spanish", "white")),
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
            standin.slash(&alice, place, Slash::named("help")),
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
        .post_interaction(&serve.url, standin.slash(&alice, place, Slash::mv("10-14")))
        .await;
    assert_eq!(answered.body["type"], 5, "{}", answered.body);
    let shown = original_edit(&standin, &sent).await;
    assert_says(&shown, "alice played 10-14");

    // No gateway: the move alice's interaction owed the bot is posted in the channel.
    let reply = standin.next_request(bot_post_in(place.channel)).await;
    assert_says(&reply, "played");
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
    assert_says(&followup, "alice played");
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
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let db = server.fresh_database();
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
            standin.slash(&alice, place, Slash::play_bot("expert", "spanish", "white")),
        )
        .await;
    assert_eq!(answered.status, 200, "{:?}", answered.body);
    original_edit(&standin, &sent).await;
    // The same signed /play posted to the other process: taken already, by the first.
    let replayed = standin.replay_http(&serve[1].url, &sent).await;
    assert_eq!(replayed.status, 409, "{:?}", replayed.body);

    // alice's moves go to one process, then the other.
    let turns = 4;
    for turn in 0..turns {
        let (notation, ply) = next_move(&store, place.channel);
        assert_eq!(ply, 2 * turn, "every move applied once");
        let (sent, answered) = standin
            .post_interaction(
                &serve[turn % 2].url,
                standin.slash(&alice, place, Slash::mv(&notation)),
            )
            .await;
        assert_eq!(answered.status, 200, "{:?}", answered.body);
        let shown = original_edit(&standin, &sent).await;
        assert!(text(&shown).contains(&format!("alice played {notation}")));
        let reply = standin.next_request(bot_post_in(place.channel)).await;
        assert_says(&reply, "Bot · expert");
    }
    assert_eq!(plies(&store, place.channel), 2 * turns);

    // 100 identical moves at once, half to each process: one is applied.
    let (notation, ply) = next_move(&store, place.channel);
    let racing = (0..100).map(|i| {
        let payload = standin.slash(&alice, place, Slash::mv(&notation));
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
    let body = serde_json::to_vec(&standin.slash(&alice, place, Slash::mv(&notation))).unwrap();
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
