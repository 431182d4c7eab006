//! The load benchmark of issue 10: many games at once against one `damas bot` process (or two
//! on one PostgreSQL, issue 47), over the Discord stand-in (`tests/support/stand_in/`), with
//! one SIGTERM and restart in the middle.
//!
//! ```text
//! cargo bench --bench load                      # the issue's figures: 100 + 30 + 60 games
//! cargo bench --bench load -- --games 50        # 50 games between people only
//! cargo bench --bench load -- --people 20 --easy 4 --medium 3 --hard 3 --expert 0 --plies 20
//! cargo bench --bench load -- --db both --processes 2 --no-restart   # sled beside PostgreSQL
//! ```
//!
//! `--db postgres` (or `LOAD_DB`) keeps the games on PostgreSQL: `DAMAS_DB`'s server when it
//! names one, else a throwaway server on this machine (`tests/support/store/postgres.rs`;
//! PostgreSQL's server programs needed). `--db both` runs the same scenario on sled, then on
//! PostgreSQL, and prints the figures side by side with their ratios to sled's;
//! `--processes 2` (PostgreSQL only) runs two bot processes on one database, each connecting
//! one of the gateway's two shards, the games spread over two servers, one on each shard
//! (with `--db both`, after the one-process run); `--search-threads N` gives the one-process
//! runs N search threads (`--search-threads 2` matches the two processes' one each). `--ramp-s N` starts the games one after
//! the other over N seconds instead of all at once (on a machine too busy to answer 190
//! `/challenge`s and `/play`s within Discord's 3 s).
//!
//! It prints: the callback time of people's `/move`s (sending the interaction to the callback,
//! [`Recorded::elapsed`]) p50/p99; the bot's answer time per level (the person's callback to
//! the bot's board posted in the channel) p50/p99; callbacks after Discord's 3 s (the stand-in
//! refuses them, as Discord does); failed interactions (no accepted answer within 15 s), by
//! kind; games finished; the bot's peak RSS (`VmHWM`, sampled every 100 ms, the larger of the
//! two processes); moves per second (all plies, people's and the bot's); the bot's boards that
//! showed no new move (after the restart, or a move made twice); the database's size on disk
//! (`du` of the sled folder, or PostgreSQL's database size, after the bot exits).
//! `--no-restart` leaves out the SIGTERM. `--metrics` (or `LOAD_METRICS=1`) runs the bot with
//! `DAMAS_METRICS_LISTEN`, reads the `/move` answer histogram from its `/metrics` before each
//! stop, and says whether its p50 and p99 fall in the same bucket as the stand-in's, or the
//! next one (the cost of the metrics is the difference between runs with and without it),
//! and prints the store's operations with their count and mean time (where a backend's time
//! goes).
//!
//! Sizes come from the arguments, or else from the environment (`LOAD_PEOPLE`, `LOAD_EASY`,
//! `LOAD_MEDIUM`, `LOAD_HARD`, `LOAD_EXPERT`, `LOAD_PLIES`, `LOAD_RESTART` = 0/1,
//! `LOAD_MIN_DELAY_MS`, `LOAD_MAX_DELAY_MS`, `LOAD_TIME_LIMIT_S`, `LOAD_DB`,
//! `LOAD_PROCESSES`, `LOAD_RAMP_S`, `LOAD_SEARCH_THREADS`), or else the issue's. The bot processes start as every test's
//! `damas` does (`support::cli::command`): none of the caller's `DAMAS_*` settings reach them,
//! so two runs on two machines measure the same configuration.
//!
//! People play with `/challenge` and the Accept button, then `/move` with a legal move chosen
//! at random (the engine runs here too, to know the legal moves), after a pause of 0.2–1 s.
//! Against the bot, a person plays White and waits for the bot's board in the channel. Every
//! wait is bounded, and the whole run too (`LOAD_TIME_LIMIT_S`): it stops by itself. The
//! stand-in listens on 127.0.0.1 only. Not part of `cargo test`: benches are built only by
//! `cargo bench` (or `--benches`/`--all-targets`), and `harness = false` runs nothing else.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

use damas::engine::{legal_notations, Color, Game, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::bot::{text, text_of, BotProcess, Launch, GUILD};
use support::stand_in::*;
use tokio::sync::{mpsc, oneshot};

/// Discord's answer window: a callback later than this fails for the user.
const DISCORD_DEADLINE: Duration = Duration::from_secs(3);
/// How long a driver waits for a callback (or a deferred answer's edit) before calling the
/// interaction failed. Longer than Discord's window, so late answers are seen and counted.
const ANSWER_WAIT: Duration = Duration::from_secs(15);
/// A human move's callback slower than this is placed in time in the report.
const SLOW_CALLBACK: Duration = Duration::from_millis(100);
/// How long the stand-in waits for a connected bot (the restart) before giving up.
const CONNECT_WAIT: Duration = Duration::from_secs(120);
/// How often a person tries a move whose interaction failed before giving up the game.
const ATTEMPTS: usize = 3;

// ---- sizes -------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Sizes {
    people: usize,
    /// Games against the bot per level: easy, medium, hard, expert.
    bots: [(&'static str, usize); 4],
    plies: usize,
    restart: bool,
    /// Run the bot with its metrics listener and compare its figures.
    metrics: bool,
    min_delay: Duration,
    max_delay: Duration,
    time_limit: Duration,
    /// The games start one after the other over this long (all at once by default).
    ramp: Duration,
    /// Where the bot keeps its games.
    db: Db,
    /// Bot processes on PostgreSQL, splitting the gateway's shards (1 or 2).
    processes: usize,
    /// Search threads of a run's one bot process (`DAMAS_SEARCH_THREADS`; the bot's default
    /// when `None`). Two processes keep one each: `--search-threads 2` gives the one-process
    /// runs the search the two processes have between them.
    search_threads: Option<usize>,
}

/// The databases a run measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Db {
    Sled,
    Postgres,
    /// sled, then PostgreSQL: the same scenario, one after the other, side by side.
    Both,
}

impl Sizes {
    fn issue() -> Sizes {
        Sizes {
            people: 100,
            bots: [("easy", 10), ("medium", 10), ("hard", 10), ("expert", 60)],
            plies: 40,
            restart: true,
            metrics: false,
            min_delay: Duration::from_millis(200),
            max_delay: Duration::from_millis(1000),
            time_limit: Duration::from_secs(30 * 60),
            ramp: Duration::ZERO,
            db: Db::Sled,
            processes: 1,
            search_threads: None,
        }
    }

    fn read() -> Result<Sizes, String> {
        let mut sizes = Sizes::issue();
        let env = |name: &str| std::env::var(name).ok();
        let num = |name: &str, text: &str| -> Result<u64, String> {
            text.trim()
                .parse::<u64>()
                .map_err(|_| format!("{name}: {text:?} is not a whole number"))
        };
        let apply = |sizes: &mut Sizes, key: &str, name: &str, text: &str| -> Result<(), String> {
            if key == "db" {
                sizes.db = match text.trim() {
                    "sled" => Db::Sled,
                    "postgres" => Db::Postgres,
                    "both" => Db::Both,
                    other => {
                        return Err(format!("{name}: {other:?} is not sled, postgres or both"))
                    }
                };
                return Ok(());
            }
            let n = num(name, text)?;
            match key {
                "people" => sizes.people = n as usize,
                "easy" => sizes.bots[0].1 = n as usize,
                "medium" => sizes.bots[1].1 = n as usize,
                "hard" => sizes.bots[2].1 = n as usize,
                "expert" => sizes.bots[3].1 = n as usize,
                "plies" => sizes.plies = n as usize,
                "restart" => sizes.restart = n != 0,
                "min-delay-ms" => sizes.min_delay = Duration::from_millis(n),
                "max-delay-ms" => sizes.max_delay = Duration::from_millis(n),
                "time-limit-s" => sizes.time_limit = Duration::from_secs(n),
                "ramp-s" => sizes.ramp = Duration::from_secs(n),
                "processes" if (1..=2).contains(&n) => sizes.processes = n as usize,
                "processes" => return Err(format!("{name}: one or two processes, not {n}")),
                "search-threads" if (1..=8).contains(&n) => sizes.search_threads = Some(n as usize),
                "search-threads" => return Err(format!("{name}: 1 to 8 threads, not {n}")),
                "games" => {
                    sizes.people = n as usize;
                    for level in &mut sizes.bots {
                        level.1 = 0;
                    }
                }
                _ => return Err(format!("unknown size {key}")),
            }
            Ok(())
        };
        const KEYS: [&str; 14] = [
            "people",
            "easy",
            "medium",
            "hard",
            "expert",
            "plies",
            "restart",
            "min-delay-ms",
            "max-delay-ms",
            "time-limit-s",
            "ramp-s",
            "db",
            "processes",
            "search-threads",
        ];
        if env("LOAD_METRICS").is_some_and(|v| v.trim() == "1") {
            sizes.metrics = true;
        }
        for key in KEYS {
            let name = format!("LOAD_{}", key.to_uppercase().replace('-', "_"));
            if let Some(v) = env(&name) {
                apply(&mut sizes, key, &name, &v)?;
            }
        }
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                // cargo bench passes --bench to every bench binary.
                "--bench" => {}
                "--no-restart" => sizes.restart = false,
                "--metrics" => sizes.metrics = true,
                flag if flag.starts_with("--")
                    && (KEYS.contains(&&flag[2..]) || flag == "--games") =>
                {
                    let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
                    apply(&mut sizes, &flag[2..], flag, &value)?;
                }
                other => {
                    return Err(format!(
                        "unknown argument {other:?}; use --games N, --people N, --easy N, \
                         --medium N, --hard N, --expert N, --plies N, --no-restart, \
                         --min-delay-ms N, --max-delay-ms N, --time-limit-s N, \
                         --ramp-s N, --db sled|postgres|both, --processes 1|2, \
                         --search-threads N"
                    ))
                }
            }
        }
        if sizes.min_delay > sizes.max_delay {
            return Err("the least pause between moves is longer than the longest".into());
        }
        if sizes.plies == 0 {
            return Err("plies must be at least 1".into());
        }
        if sizes.processes > 1 && sizes.db == Db::Sled {
            return Err("two processes share PostgreSQL only: add --db postgres or both".into());
        }
        Ok(sizes)
    }

    fn bot_games(&self) -> usize {
        self.bots.iter().map(|(_, n)| n).sum()
    }

    fn games(&self) -> usize {
        self.people + self.bot_games()
    }
}

// ---- following the stand-in's requests ---------------------------------------------------------

/// Hands each request the bot makes to the driver waiting for it, by interaction or channel.
#[derive(Default)]
struct Router {
    callbacks: Mutex<HashMap<u64, oneshot::Sender<Recorded>>>,
    originals: Mutex<HashMap<String, oneshot::Sender<Recorded>>>,
    channels: Mutex<HashMap<u64, mpsc::UnboundedSender<Recorded>>>,
}

/// What the whole run saw, beyond what each driver measures.
#[derive(Default)]
struct Counters {
    callbacks: AtomicUsize,
    callbacks_late: AtomicUsize,
    refused: AtomicUsize,
    refused_examples: Mutex<Vec<String>>,
}

fn route_requests(
    mut tap: mpsc::UnboundedReceiver<Recorded>,
    router: Arc<Router>,
    counters: Arc<Counters>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(rec) = tap.recv().await {
            if rec.status >= 400 && !rec.injected {
                counters.refused.fetch_add(1, Ordering::Relaxed);
                let mut examples = counters.refused_examples.lock().unwrap();
                if examples.len() < 3 {
                    let mut line = format!("{} {} -> {}", rec.method, rec.path, rec.status);
                    if let Some(problem) = rec.problems.first() {
                        line = format!("{line}: {problem}");
                    }
                    examples.push(line);
                }
            }
            match &rec.route {
                Route::Callback { interaction, .. } => {
                    counters.callbacks.fetch_add(1, Ordering::Relaxed);
                    if rec.elapsed.is_some_and(|e| e > DISCORD_DEADLINE) {
                        counters.callbacks_late.fetch_add(1, Ordering::Relaxed);
                    }
                    let waiter = router.callbacks.lock().unwrap().remove(interaction);
                    if let Some(tx) = waiter {
                        let _ = tx.send(rec);
                    }
                }
                Route::Original { token } if rec.method == "PATCH" => {
                    let waiter = router.originals.lock().unwrap().remove(token);
                    if let Some(tx) = waiter {
                        let _ = tx.send(rec);
                    }
                }
                Route::ChannelMessages { channel } if rec.method == "POST" && rec.status < 300 => {
                    if let Some(tx) = router.channels.lock().unwrap().get(channel) {
                        let _ = tx.send(rec);
                    }
                }
                _ => {}
            }
        }
    })
}

/// An interaction answered, as the person saw it. `None` instead: no accepted answer (none at
/// all, refused, e.g. after Discord's 3 s, or a deferral never completed).
struct Shown {
    sent: SentInteraction,
    callback: Recorded,
    /// The callback, or the edit of a deferred answer.
    message: Recorded,
}

/// What drivers share.
struct Shared {
    standin: StandIn,
    router: Arc<Router>,
    sizes: Sizes,
    plies_played: AtomicUsize,
    stats: Mutex<Stats>,
    started: Instant,
}

#[derive(Default)]
struct Stats {
    /// Callback times of people's `/move`s.
    move_callbacks: Vec<Duration>,
    /// The bot's answer time per level: from the person's callback to the bot's board posted.
    bot_answers: HashMap<&'static str, Vec<Duration>>,
    interactions: usize,
    failed: usize,
    /// The first few failures, and how many of each kind.
    failures: Vec<String>,
    failure_kinds: HashMap<String, usize>,
    /// When each failed interaction was sent, in seconds from the start.
    failures_sent_at: Vec<f64>,
    /// When the SIGTERM was sent, in seconds from the start.
    sigterm_at: Option<f64>,
    /// When each move whose callback took over [`SLOW_CALLBACK`] was sent, in seconds from
    /// the start: the slow tail, placed in time (the restart, a flush, the start).
    slow_callbacks_at: Vec<f64>,
    /// Moves the app refused (answered privately): a driver out of step with its game.
    moves_refused: usize,
    /// The bot's boards that showed no new move: boards shown again after the restart, or a
    /// move made twice (by two processes).
    boards_again: usize,
    finished: usize,
    /// How the games that ended before their last ply ended.
    outcomes: HashMap<String, usize>,
    abandoned: Vec<String>,
}

impl Shared {
    /// Sends an interaction and waits for its answer (and, if deferred, the deferred answer).
    /// The callback time of a `/move` counts, whether the callback was accepted or not.
    async fn interact(&self, payload: Value) -> Option<Shown> {
        let id: u64 = payload["id"].as_str().and_then(|s| s.parse().ok()).unwrap();
        let token = payload["token"].as_str().unwrap().to_owned();
        let is_move = payload["type"] == 2 && payload["data"]["name"] == "move";
        let what = payload["data"]["name"]
            .as_str()
            .or(payload["data"]["custom_id"].as_str())
            .unwrap_or("?")
            .to_owned();
        let mut why = "no callback within 15 s".to_owned();
        let (cb_tx, cb_rx) = oneshot::channel();
        let (edit_tx, edit_rx) = oneshot::channel();
        self.router.callbacks.lock().unwrap().insert(id, cb_tx);
        self.router
            .originals
            .lock()
            .unwrap()
            .insert(token.clone(), edit_tx);
        let sent_at = self.started.elapsed().as_secs_f64();
        let sent = self.standin.send_interaction(payload).await;
        let callback = tokio::time::timeout(ANSWER_WAIT, cb_rx)
            .await
            .ok()
            .and_then(Result::ok);
        let shown = match callback {
            Some(callback) if callback.status < 300 => {
                if is_move {
                    let elapsed = callback.elapsed.unwrap_or_default();
                    let mut stats = self.stats.lock().unwrap();
                    stats.move_callbacks.push(elapsed);
                    if elapsed > SLOW_CALLBACK {
                        stats.slow_callbacks_at.push(sent_at);
                    }
                }
                if callback.callback_type() == Some(5) {
                    let edit = tokio::time::timeout(ANSWER_WAIT, edit_rx).await;
                    match edit.ok().and_then(Result::ok) {
                        Some(message) if message.status < 300 => Some(Shown {
                            sent,
                            callback,
                            message,
                        }),
                        _ => {
                            why = "deferred, never completed".to_owned();
                            None
                        }
                    }
                } else {
                    Some(Shown {
                        sent,
                        message: callback.clone(),
                        callback,
                    })
                }
            }
            Some(refused) => {
                why = format!(
                    "callback refused with {} after {} ms",
                    refused.status,
                    refused.elapsed.unwrap_or_default().as_millis()
                );
                if is_move {
                    let elapsed = refused.elapsed.unwrap_or_default();
                    self.stats.lock().unwrap().move_callbacks.push(elapsed);
                }
                None
            }
            None => None,
        };
        self.router.callbacks.lock().unwrap().remove(&id);
        self.router.originals.lock().unwrap().remove(&token);
        let mut stats = self.stats.lock().unwrap();
        stats.interactions += 1;
        if shown.is_none() {
            stats.failed += 1;
            let kind = why.split(" after ").next().unwrap_or_default().to_owned();
            *stats.failure_kinds.entry(kind).or_default() += 1;
            stats.failures_sent_at.push(sent_at);
            if stats.failures.len() < 5 {
                stats
                    .failures
                    .push(format!("{what} sent at {sent_at:.2} s: {why}"));
            }
        }
        shown
    }

    /// A person's move: waits 0.2–1 s, sends `/move`. Retries a failed one (up to
    /// [`ATTEMPTS`] in all): if a retry is refused, an earlier try was played after all. Returns
    /// when the person saw it played: its callback, or else when the first try was sent.
    async fn human_move(
        &self,
        rng: &mut SmallRng,
        who: &TestUser,
        place: Place,
        game: &mut Game,
    ) -> Result<Instant, String> {
        let pause = rng.gen_range(self.sizes.min_delay..=self.sizes.max_delay);
        tokio::time::sleep(pause).await;
        let first_sent = Instant::now();
        let legal = legal_notations(game.position());
        let (_, notation) = &legal[rng.gen_range(0..legal.len())];
        for attempt in 0..ATTEMPTS {
            let payload =
                self.standin
                    .slash_command(who, place, "move", vec![opt_str("move", notation)]);
            if let Some(Shown {
                callback, message, ..
            }) = self.interact(payload).await
            {
                if text(&message).contains(" played ") {
                    play(game, notation)?;
                    return Ok(callback.at);
                }
                self.stats.lock().unwrap().moves_refused += 1;
                if attempt == 0 {
                    return Err(format!("{notation} refused: {}", text(&message)));
                }
                // An earlier, failed try had been played.
                play(game, notation)?;
                return Ok(first_sent);
            }
        }
        Err(format!("{notation}: {ATTEMPTS} failed interactions"))
    }
}

fn play(game: &mut Game, notation: &str) -> Result<(), String> {
    game.play_text(notation)
        .map(|_| ())
        .map_err(|e| format!("{notation} does not apply here: {e:?}"))
}

/// The move in a bot's board: "Bot · easy played 22-18."
fn bot_move_in(text: &str) -> Option<String> {
    let from = text.find("Bot · ")?;
    let rest = &text[from..];
    let after = &rest[rest.find(" played ")? + " played ".len()..];
    let mv: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-' || *c == 'x')
        .collect();
    (!mv.is_empty()).then_some(mv)
}

// ---- the games ---------------------------------------------------------------------------------

/// The server of game `index`: the games alternate between two servers whose events arrive
/// on shard 0 and shard 1 of two (`(guild >> 22) % 2`), so that two processes share them.
fn guild_of(index: usize) -> u64 {
    ((2 + index as u64 % 2) << 22) | GUILD
}

async fn people_game(shared: Arc<Shared>, index: usize) -> Result<Option<String>, String> {
    let mut rng = SmallRng::seed_from_u64(index as u64);
    let white = TestUser::random(&format!("white{index}"));
    let black = TestUser::random(&format!("black{index}"));
    let place = Place::guild(guild_of(index), snowflake());
    let standin = &shared.standin;
    let challenge = standin.slash_command(
        &white,
        place,
        "challenge",
        vec![
            opt_user("opponent", &black),
            opt_str("variant", "spanish"),
            opt_str("colour", "white"),
        ],
    );
    let Some(Shown { sent, .. }) = shared.interact(challenge).await else {
        return Err("the challenge failed".into());
    };
    let challenge = standin.original_message(&sent);
    let accept = custom_ids(&challenge)
        .into_iter()
        .find(|id| id.starts_with("damas:accept:"))
        .ok_or_else(|| format!("no Accept button: {}", text_of(&challenge)))?;
    let click = standin.button_click(&black, &challenge, &accept);
    let Some(_) = shared.interact(click).await else {
        return Err("the acceptance failed".into());
    };
    let mut game = Game::new(Variant::Spanish);
    while game.ply() < shared.sizes.plies && !game.is_over() {
        let who = if game.side_to_move() == Color::White {
            &white
        } else {
            &black
        };
        shared.human_move(&mut rng, who, place, &mut game).await?;
        shared.plies_played.fetch_add(1, Ordering::Relaxed);
    }
    Ok(game.outcome().map(|o| format!("{o:?}")))
}

async fn bot_game(
    shared: Arc<Shared>,
    index: usize,
    level: &'static str,
) -> Result<Option<String>, String> {
    let mut rng = SmallRng::seed_from_u64(1_000_000 + index as u64);
    let person = TestUser::random(&format!("{level}{index}"));
    let place = Place::guild(guild_of(index), snowflake());
    let (posts_tx, mut posts) = mpsc::unbounded_channel();
    shared
        .router
        .channels
        .lock()
        .unwrap()
        .insert(place.channel, posts_tx);
    let play = shared.standin.slash_command(
        &person,
        place,
        "play",
        vec![
            opt_str("level", level),
            opt_str("variant", "spanish"),
            opt_str("colour", "white"),
        ],
    );
    let Some(_) = shared.interact(play).await else {
        return Err("/play failed".into());
    };
    let mut game = Game::new(Variant::Spanish);
    let bot_wait = shared.sizes.time_limit;
    while game.ply() < shared.sizes.plies && !game.is_over() {
        if game.side_to_move() == Color::White {
            let asked_at = shared
                .human_move(&mut rng, &person, place, &mut game)
                .await?;
            shared.plies_played.fetch_add(1, Ordering::Relaxed);
            if game.is_over() || game.ply() >= shared.sizes.plies {
                break;
            }
            // The bot's board, posted in the channel; anything else posted there is skipped.
            let deadline = tokio::time::Instant::now() + bot_wait;
            loop {
                let post = tokio::time::timeout_at(deadline, posts.recv())
                    .await
                    .ok()
                    .flatten()
                    .ok_or("the bot never answered")?;
                let Some(mv) = bot_move_in(&text(&post)) else {
                    continue;
                };
                if game.play_text(&mv).is_err() {
                    // A board shown again (after the restart), or a move made twice: not a
                    // new move.
                    shared.stats.lock().unwrap().boards_again += 1;
                    continue;
                }
                shared
                    .stats
                    .lock()
                    .unwrap()
                    .bot_answers
                    .entry(level)
                    .or_default()
                    .push(post.at.saturating_duration_since(asked_at));
                shared.plies_played.fetch_add(1, Ordering::Relaxed);
                break;
            }
        } else {
            return Err("the bot's turn, with no board from it".into());
        }
    }
    shared
        .router
        .channels
        .lock()
        .unwrap()
        .remove(&place.channel);
    Ok(game.outcome().map(|o| format!("{o:?}")))
}

// ---- the bot process ---------------------------------------------------------------------------

/// `processes` `damas bot`s on `db` against the stand-in, quieter than the tests'
/// [`BotProcess::start`]; two split the gateway's two shards between them
/// (`DISCORD_SHARDS`); with `sizes.metrics`, each with its metrics listener on a free port,
/// and one process with `sizes.search_threads`.
async fn start_bots(
    standin: &StandIn,
    db: &str,
    workdir: &Path,
    sizes: &Sizes,
    processes: usize,
) -> Vec<BotProcess> {
    let (metrics, search_threads) = (sizes.metrics, sizes.search_threads);
    let log = std::env::var("LOAD_BOT_LOG").unwrap_or_else(|_| "warn,serenity=error".into());
    let count = processes.to_string();
    let threads = search_threads.map(|n| n.to_string());
    let mut bots = Vec::new();
    for i in 0..processes {
        let shards = format!("{i}-{i}");
        let mut vars: Vec<(&str, &str)> = Vec::new();
        if metrics {
            vars.push(("DAMAS_METRICS_LISTEN", "127.0.0.1:0"));
        }
        if processes > 1 {
            vars.push(("DISCORD_SHARDS", &shards));
            vars.push(("DISCORD_SHARD_COUNT", &count));
        } else if let Some(threads) = &threads {
            vars.push(("DAMAS_SEARCH_THREADS", threads));
        }
        let launch = Launch {
            http: false,
            db,
            workdir,
            log: &log,
            vars: &vars,
        };
        bots.push(BotProcess::launch(standin, launch).await);
    }
    standin.wait_shards_connected(processes).await;
    bots
}

/// The cumulative buckets (upper bound in seconds, count) of the bot's `/move` answer
/// histogram, read from its `/metrics`.
async fn move_answer_buckets(bot: &BotProcess) -> Vec<(f64, f64)> {
    let addr = bot.metrics_addr().await;
    let scrape = support::bot::http_get(&addr, "/metrics").await.1;
    let mut buckets: Vec<(f64, f64)> = scrape
        .lines()
        .filter(|l| l.starts_with("damas_answer_seconds_bucket{") && l.contains("kind=\"move\""))
        .filter_map(|l| {
            let le = l.split("le=\"").nth(1)?.split('"').next()?;
            let le = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().ok()?
            };
            Some((le, l.rsplit(' ').next()?.parse().ok()?))
        })
        .collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    buckets
}

/// Adds each store operation's count and total seconds (`op` → (count, sum)), read from the
/// bot's `/metrics`, to `ops`: where a backend's time goes.
async fn add_store_operations(ops: &mut HashMap<String, (f64, f64)>, bot: &BotProcess) {
    let addr = bot.metrics_addr().await;
    let scrape = support::bot::http_get(&addr, "/metrics").await.1;
    for line in scrape.lines() {
        let (field, rest) =
            if let Some(rest) = line.strip_prefix("damas_store_operation_seconds_count{") {
                (0, rest)
            } else if let Some(rest) = line.strip_prefix("damas_store_operation_seconds_sum{") {
                (1, rest)
            } else {
                continue;
            };
        let Some(op) = rest.split("op=\"").nth(1).and_then(|r| r.split('"').next()) else {
            continue;
        };
        let Some(value) = line.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()) else {
            continue;
        };
        let entry = ops.entry(op.to_string()).or_default();
        if field == 0 {
            entry.0 += value;
        } else {
            entry.1 += value;
        }
    }
}

/// The store's operations, the busiest first: count and mean time.
fn store_operations_line(ops: &HashMap<String, (f64, f64)>) -> String {
    let mut ops: Vec<_> = ops.iter().filter(|(_, (n, _))| *n > 0.0).collect();
    ops.sort_by(|a, b| b.1 .1.total_cmp(&a.1 .1));
    ops.iter()
        .map(|(op, (n, sum))| format!("{op} {n:.0} × {:.2} ms", sum / n * 1e3))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The index of the first bucket whose cumulative count reaches `q` of the total.
fn bucket_of_quantile(buckets: &[(f64, f64)], q: f64) -> Option<usize> {
    let total = buckets.last()?.1;
    (total > 0.0).then(|| buckets.iter().position(|&(_, n)| n >= q * total))?
}

/// The index of the bucket holding `value`.
fn bucket_of(buckets: &[(f64, f64)], value: Duration) -> Option<usize> {
    buckets
        .iter()
        .position(|&(le, _)| value.as_secs_f64() <= le)
}

/// The bot's p50 and p99 (by bucket) beside the stand-in's, and whether they agree within
/// one bucket.
fn compare_with_metrics(buckets: &[(f64, f64)], mut own: Vec<Duration>) -> String {
    own.sort();
    let mut lines = Vec::new();
    for q in [0.5, 0.99] {
        let mine = percentile(&own, q);
        let (Some(theirs), Some(ours)) = (bucket_of_quantile(buckets, q), bucket_of(buckets, mine))
        else {
            lines.push(format!("p{}: no figures", (q * 100.0) as u32));
            continue;
        };
        let bound = |i: usize| {
            let lower = if i == 0 {
                0.0
            } else {
                buckets[i - 1].0 * 1000.0
            };
            format!("{lower}–{} ms", buckets[i].0 * 1000.0)
        };
        lines.push(format!(
            "p{}: /metrics {} , stand-in {} ms ({}): {}",
            (q * 100.0) as u32,
            bound(theirs),
            mine.as_millis(),
            bound(ours),
            if theirs.abs_diff(ours) <= 1 {
                "agree within one bucket"
            } else {
                "DISAGREE"
            }
        ));
    }
    lines.join("; ")
}

/// The peak resident set of a process so far (`VmHWM`), in KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Samples the bots' `VmHWM` every 100 ms, whichever processes are the bot now.
fn sample_rss(pids: Arc<Mutex<Vec<u32>>>, peak: Arc<AtomicU64>, stop: Arc<AtomicBool>) {
    tokio::spawn(async move {
        while !stop.load(Ordering::Relaxed) {
            let now = pids.lock().unwrap().clone();
            for kib in now.into_iter().filter_map(peak_rss_kib) {
                peak.fetch_max(kib, Ordering::Relaxed);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}

/// Sends SIGTERM to every bot and waits for their exits (killing one after `within`).
/// Returns whether they all exited by themselves, successfully.
async fn stop_bots(
    bots: &mut [BotProcess],
    pids: &Mutex<Vec<u32>>,
    peak: &AtomicU64,
    within: Duration,
) -> bool {
    let mut clean = true;
    for bot in bots.iter() {
        if let Some(kib) = peak_rss_kib(bot.pid()) {
            peak.fetch_max(kib, Ordering::Relaxed);
        }
        bot.signal("TERM");
    }
    let deadline = Instant::now() + within;
    for bot in bots.iter_mut() {
        clean &= loop {
            if let Some(kib) = peak_rss_kib(bot.pid()) {
                peak.fetch_max(kib, Ordering::Relaxed);
            }
            match bot.try_wait() {
                Some(status) => break status.success(),
                None if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await
                }
                None => {
                    bot.kill();
                    break false;
                }
            }
        };
    }
    pids.lock().unwrap().clear();
    clean
}

/// What `du` says of a folder, in bytes (allocated blocks).
fn disk_usage(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    let own = meta.blocks() * 512;
    if !meta.is_dir() {
        return own;
    }
    let children: u64 = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| disk_usage(&e.path()))
        .sum();
    own + children
}

// ---- the run -----------------------------------------------------------------------------------

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn p50_p99(mut v: Vec<Duration>) -> String {
    v.sort();
    format!(
        "p50 {:>5} ms  p99 {:>5} ms  max {:>5} ms  (n = {})",
        percentile(&v, 0.5).as_millis(),
        percentile(&v, 0.99).as_millis(),
        v.last().copied().unwrap_or_default().as_millis(),
        v.len()
    )
}

/// Where one run keeps its games.
#[derive(Clone, Debug)]
enum RunDb {
    /// A sled folder of a temporary folder.
    Sled,
    /// A PostgreSQL URL: `DAMAS_DB`'s, or a fresh database of the throwaway server.
    Postgres(String),
}

/// What one run measured, for the side-by-side table.
struct Figures {
    label: String,
    move_callbacks: Vec<Duration>,
    bot_answers: HashMap<&'static str, Vec<Duration>>,
    late: usize,
    failed: usize,
    finished: usize,
    boards_again: usize,
    moves_refused: usize,
    plies: usize,
    wall: Duration,
}

async fn run(sizes: &Sizes, run_db: RunDb, processes: usize) -> Figures {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let label = match (&run_db, processes) {
        (RunDb::Sled, _) => "sled".to_owned(),
        (RunDb::Postgres(_), 1) => "PostgreSQL".to_owned(),
        (RunDb::Postgres(_), n) => format!("PostgreSQL, {n} processes"),
    };
    println!(
        "load on {label}: {} games between people, {} against the bot ({}), {} plies each, \
         restart: {}, {cores} cores",
        sizes.people,
        sizes.bot_games(),
        sizes
            .bots
            .iter()
            .map(|(level, n)| format!("{n} {level}"))
            .collect::<Vec<_>>()
            .join(", "),
        sizes.plies,
        if sizes.restart {
            "SIGTERM midway"
        } else {
            "none"
        },
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let folder: PathBuf = dir.path().join("db");
    let db = match &run_db {
        RunDb::Sled => folder.to_str().expect("a UTF-8 path").to_owned(),
        RunDb::Postgres(url) => url.clone(),
    };
    let (tap, tapped) = mpsc::unbounded_channel();
    let standin = StandIn::start_with(Config {
        wait: CONNECT_WAIT,
        interaction_deadline: Some(DISCORD_DEADLINE),
        tap: Some(tap),
        keep_uploads: false,
        ..Config::default()
    })
    .await;
    let router = Arc::new(Router::default());
    let counters = Arc::new(Counters::default());
    let routing = route_requests(tapped, Arc::clone(&router), Arc::clone(&counters));

    let pids = Arc::new(Mutex::new(Vec::new()));
    let peak = Arc::new(AtomicU64::new(0));
    let stop_sampling = Arc::new(AtomicBool::new(false));
    let mut bots = start_bots(&standin, &db, dir.path(), sizes, processes).await;
    // The bot's own /move answer histogram, and its store operations, summed over its
    // processes (and over the restart).
    let mut answer_buckets: Vec<(f64, f64)> = Vec::new();
    let mut store_ops: HashMap<String, (f64, f64)> = HashMap::new();
    let add_buckets = |sum: &mut Vec<(f64, f64)>, more: Vec<(f64, f64)>| {
        if sum.is_empty() {
            *sum = more;
        } else {
            for (into, (_, n)) in sum.iter_mut().zip(more) {
                into.1 += n;
            }
        }
    };
    *pids.lock().unwrap() = bots.iter().map(BotProcess::pid).collect();
    sample_rss(
        Arc::clone(&pids),
        Arc::clone(&peak),
        Arc::clone(&stop_sampling),
    );

    let shared = Arc::new(Shared {
        standin,
        router,
        sizes: sizes.clone(),
        plies_played: AtomicUsize::new(0),
        stats: Mutex::new(Stats::default()),
        started: Instant::now(),
    });
    let started = shared.started;
    let mut games = tokio::task::JoinSet::new();
    // Game `k` of all starts `k / games` of the ramp after the first.
    let start_of = |k: usize| sizes.ramp.mul_f64(k as f64 / sizes.games() as f64);
    for i in 0..sizes.people {
        let shared = Arc::clone(&shared);
        let wait = start_of(i);
        games.spawn(async move {
            tokio::time::sleep(wait).await;
            (format!("people {i}"), people_game(shared, i).await)
        });
    }
    let mut n = 0;
    for (level, count) in sizes.bots {
        for _ in 0..count {
            let shared = Arc::clone(&shared);
            let i = n;
            let wait = start_of(sizes.people + i);
            games.spawn(async move {
                tokio::time::sleep(wait).await;
                (format!("{level} {i}"), bot_game(shared, i, level).await)
            });
            n += 1;
        }
    }

    // The restart, once half the plies are played.
    let total_plies = sizes.games() * sizes.plies;
    let mut restart_note = String::from("no restart");
    let deadline = tokio::time::Instant::now() + sizes.time_limit;
    let mut restarted = !sizes.restart;
    loop {
        if !restarted && shared.plies_played.load(Ordering::Relaxed) * 2 >= total_plies {
            restarted = true;
            shared.stats.lock().unwrap().sigterm_at = Some(started.elapsed().as_secs_f64());
            if sizes.metrics {
                for bot in &bots {
                    add_buckets(&mut answer_buckets, move_answer_buckets(bot).await);
                    add_store_operations(&mut store_ops, bot).await;
                }
            }
            let t = Instant::now();
            let clean = stop_bots(&mut bots, &pids, &peak, Duration::from_secs(30)).await;
            let stopped_in = t.elapsed();
            drop(bots);
            shared.standin.wait_disconnected().await;
            bots = start_bots(&shared.standin, &db, dir.path(), sizes, processes).await;
            *pids.lock().unwrap() = bots.iter().map(BotProcess::pid).collect();
            restart_note = format!(
                "SIGTERM at {:.1} s: {} in {} ms, back in {} ms",
                started.elapsed().as_secs_f64() - t.elapsed().as_secs_f64(),
                if clean { "exit 0" } else { "NOT a clean exit" },
                stopped_in.as_millis(),
                t.elapsed().as_millis()
            );
            println!("load: {restart_note}");
        }
        let next = tokio::time::timeout_at(
            deadline.min(tokio::time::Instant::now() + Duration::from_millis(200)),
            games.join_next(),
        )
        .await;
        match next {
            Ok(None) => break,
            Ok(Some(joined)) => {
                let mut stats = shared.stats.lock().unwrap();
                match joined {
                    Ok((_, Ok(outcome))) => {
                        stats.finished += 1;
                        if let Some(outcome) = outcome {
                            *stats.outcomes.entry(outcome).or_default() += 1;
                        }
                    }
                    Ok((name, Err(why))) => stats.abandoned.push(format!("{name}: {why}")),
                    Err(e) => stats.abandoned.push(format!("a driver panicked: {e}")),
                }
            }
            Err(_) if tokio::time::Instant::now() >= deadline => {
                let left = games.len();
                games.abort_all();
                shared
                    .stats
                    .lock()
                    .unwrap()
                    .abandoned
                    .push(format!("{left} games still going at the time limit"));
                break;
            }
            Err(_) => {}
        }
    }
    let wall = started.elapsed();
    if sizes.metrics {
        for bot in &bots {
            add_buckets(&mut answer_buckets, move_answer_buckets(bot).await);
            add_store_operations(&mut store_ops, bot).await;
        }
    }
    let clean = stop_bots(&mut bots, &pids, &peak, Duration::from_secs(30)).await;
    stop_sampling.store(true, Ordering::Relaxed);
    drop(bots);
    routing.abort();
    let db_bytes = match &run_db {
        RunDb::Sled => disk_usage(&folder),
        RunDb::Postgres(url) => damas::store::Store::open(url)
            .and_then(|s| s.size_on_disk())
            .unwrap_or(0),
    };

    let stats = std::mem::take(&mut *shared.stats.lock().unwrap());
    println!("load: done in {:.1} s; {restart_note}", wall.as_secs_f64());
    println!(
        "  human-move callback      {}",
        p50_p99(stats.move_callbacks.clone())
    );
    if sizes.metrics {
        println!(
            "  the same from /metrics   {}",
            compare_with_metrics(&answer_buckets, stats.move_callbacks.clone())
        );
        println!(
            "  store operations, all processes (count × mean, by total time): {}",
            store_operations_line(&store_ops)
        );
    }
    if !stats.slow_callbacks_at.is_empty() {
        // Where the slow tail sits in time: the seconds holding most of it.
        let mut by_second: HashMap<u64, usize> = HashMap::new();
        for &t in &stats.slow_callbacks_at {
            *by_second.entry(t as u64).or_default() += 1;
        }
        let mut seconds: Vec<(u64, usize)> = by_second.into_iter().collect();
        seconds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let top: Vec<String> = seconds
            .iter()
            .take(5)
            .map(|(s, n)| format!("{n} in {s}–{} s", s + 1))
            .collect();
        println!(
            "  callbacks over {} ms     {} (sent: {})",
            SLOW_CALLBACK.as_millis(),
            stats.slow_callbacks_at.len(),
            top.join(", ")
        );
    }
    for (level, _) in sizes.bots.iter().filter(|(_, n)| *n > 0) {
        println!(
            "  bot answer ({level:<6})      {}",
            p50_p99(stats.bot_answers.get(level).cloned().unwrap_or_default())
        );
    }
    println!(
        "  callbacks after 3 s      {} of {}",
        counters.callbacks_late.load(Ordering::Relaxed),
        counters.callbacks.load(Ordering::Relaxed)
    );
    println!(
        "  failed interactions      {} of {} (no accepted callback, or refused)",
        stats.failed, stats.interactions
    );
    for (kind, n) in &stats.failure_kinds {
        println!("      {n} × {kind}");
    }
    if let Some(sigterm) = stats.sigterm_at {
        // What Discord handed the old process as it closed its gateway connection: lost with
        // the connection, as they would be with Discord.
        let at_close = stats
            .failures_sent_at
            .iter()
            .filter(|&&t| (sigterm - 0.1..=sigterm + 1.0).contains(&t))
            .count();
        println!("      {at_close} of them sent from 0.1 s before the SIGTERM to 1 s after");
    }
    for failure in &stats.failures {
        println!("      e.g. {failure}");
    }
    println!(
        "  moves refused by the app {}  (answered privately)",
        stats.moves_refused
    );
    println!(
        "  requests refused         {}  (by the stand-in, all kinds)",
        counters.refused.load(Ordering::Relaxed)
    );
    for example in counters.refused_examples.lock().unwrap().iter() {
        println!("      {example}");
    }
    println!(
        "  games finished           {} of {} ({} ended by the rules before {} plies)",
        stats.finished,
        sizes.games(),
        stats.outcomes.values().sum::<usize>(),
        sizes.plies
    );
    for (outcome, n) in &stats.outcomes {
        println!("      {n} × {outcome}");
    }
    for why in stats.abandoned.iter().take(10) {
        println!("      not finished: {why}");
    }
    if stats.abandoned.len() > 10 {
        println!("      … and {} more", stats.abandoned.len() - 10);
    }
    println!(
        "  bot boards with no new move {}  (shown again after the restart, or a move made twice)",
        stats.boards_again
    );
    println!(
        "  moves per second         {:.1}  ({} plies in {:.1} s)",
        shared.plies_played.load(Ordering::Relaxed) as f64 / wall.as_secs_f64(),
        shared.plies_played.load(Ordering::Relaxed),
        wall.as_secs_f64()
    );
    println!(
        "  peak RSS of the bot      {:.1} MiB (VmHWM, the largest of its processes)",
        peak.load(Ordering::Relaxed) as f64 / 1024.0
    );
    println!(
        "  database size            {:.1} MiB (du of the folder, or PostgreSQL's size)",
        db_bytes as f64 / (1024.0 * 1024.0)
    );
    if !clean {
        println!("  the bot did NOT exit cleanly at the end");
    }
    Figures {
        label,
        late: counters.callbacks_late.load(Ordering::Relaxed),
        failed: stats.failed,
        finished: stats.finished,
        boards_again: stats.boards_again,
        moves_refused: stats.moves_refused,
        plies: shared.plies_played.load(Ordering::Relaxed),
        move_callbacks: stats.move_callbacks,
        bot_answers: stats.bot_answers,
        wall,
    }
}

/// The runs side by side: each figure, and its ratio to the first run's.
fn compare(runs: &[Figures], sizes: &Sizes) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    let mut quantiles = |name: &str, pick: &dyn Fn(&Figures) -> Vec<Duration>| {
        for (q, qn) in [(0.5, "p50"), (0.99, "p99")] {
            let values = runs
                .iter()
                .map(|f| {
                    let mut v = pick(f);
                    v.sort();
                    ms(percentile(&v, q))
                })
                .collect();
            rows.push((format!("{name} {qn} (ms)"), values));
        }
    };
    quantiles("human-move callback", &|f| f.move_callbacks.clone());
    for (level, _) in sizes.bots.iter().filter(|(_, n)| *n > 0) {
        quantiles(&format!("bot answer, {level}"), &|f| {
            f.bot_answers.get(level).cloned().unwrap_or_default()
        });
    }
    println!();
    let mut head = String::from("| figure |");
    let mut rule = String::from("|---|");
    for (i, f) in runs.iter().enumerate() {
        head += &format!(" {} |", f.label);
        rule += "---|";
        if i > 0 {
            head += &format!(" ÷ {} |", runs[0].label);
            rule += "---|";
        }
    }
    println!("{head}\n{rule}");
    for (name, values) in rows {
        let mut line = format!("| {name} |");
        for (i, v) in values.iter().enumerate() {
            line += &format!(" {v:.0} |");
            if i > 0 {
                line += &format!(" {:.2} |", v / values[0].max(1.0));
            }
        }
        println!("{line}");
    }
    /// A figure of a run, as shown.
    type Figure = fn(&Figures) -> String;
    let counts: [(&str, Figure); 4] = [
        ("moves per second", |f| {
            format!("{:.1}", f.plies as f64 / f.wall.as_secs_f64())
        }),
        ("late / failed", |f| format!("{} / {}", f.late, f.failed)),
        ("games finished", |f| f.finished.to_string()),
        ("refused / boards again", |f| {
            format!("{} / {}", f.moves_refused, f.boards_again)
        }),
    ];
    for (name, value) in counts {
        let mut line = format!("| {name} |");
        for (i, f) in runs.iter().enumerate() {
            line += &format!(" {} |", value(f));
            if i > 0 {
                line += " |";
            }
        }
        println!("{line}");
    }
}

/// A PostgreSQL database for one run: `DAMAS_DB`'s when it names one (the operator's server,
/// shared by the runs), else a fresh database of a throwaway server on this machine.
fn postgres_db() -> RunDb {
    match std::env::var("DAMAS_DB") {
        Ok(url) if damas::store::is_postgres_url(&url) => RunDb::Postgres(url),
        _ => RunDb::Postgres(support::store::postgres::server().fresh_database()),
    }
}

fn main() {
    let sizes = match Sizes::read() {
        Ok(sizes) => sizes,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let plan: Vec<(bool, usize)> = match sizes.db {
        Db::Sled => vec![(false, 1)],
        Db::Postgres => vec![(true, sizes.processes)],
        Db::Both if sizes.processes > 1 => vec![(false, 1), (true, 1), (true, sizes.processes)],
        Db::Both => vec![(false, 1), (true, 1)],
    };
    let runs: Vec<Figures> = plan
        .into_iter()
        .map(|(postgres, processes)| {
            let db = if postgres { postgres_db() } else { RunDb::Sled };
            runtime.block_on(run(&sizes, db, processes))
        })
        .collect();
    if runs.len() > 1 {
        compare(&runs, &sizes);
    }
}
