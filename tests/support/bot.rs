//! What the end-to-end tests of the bot share: starting it against the stand-in (in this
//! process, or as a `damas bot` child process), and reading what it posted.
#![allow(dead_code)]

use super::stand_in::*;
use damas::app::{App, Settings};
use damas::discord::{BotConfig, Token};
use damas::engine::{Color, Position, Square};
use damas::store::Store;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const GUILD: u64 = 4242;

pub fn bot_config(standin: &StandIn, db: &Path) -> BotConfig {
    BotConfig {
        token: Token::new(standin.token()),
        db_path: db.to_path_buf(),
        guild_id: Some(GUILD),
        api_proxy: Some(standin.base_url()),
        defer_after: damas::discord::router::DEFER_AFTER,
        settings: Default::default(),
        shards: damas::discord::shards::ShardPlan::Recommended,
        metrics_listen: None,
        web_listen: None,
        activity: None,
    }
}

/// Opens the database, waiting for a previous holder of its lock to let go (sled's flusher
/// thread releases the file lock last, as with a real process exiting).
pub async fn open_store(db: &Path) -> Store {
    for _ in 0..100 {
        if let Ok(s) = Store::open(db) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Store::open(db).unwrap_or_else(|e| panic!("store opens: {e}"))
}

/// Waits until nothing holds the sled database `db` any more (its `db` file, which sled locks
/// with `flock`), at most 10 s: a store this process dropped lets go from sled's own threads a
/// moment later, and a `damas` process started before then would fail to open it.
pub async fn wait_store_released(db: &Path) {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::open(db.join("db")).expect("the sled database's db file");
    for _ in 0..200 {
        // SAFETY: flock on a descriptor this function owns for the whole call.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            // SAFETY: as above; the lock just taken is let go at once.
            unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store at {} was not let go within 10 s", db.display());
}

/// Starts the bot (store, app, serenity client) in this process against the stand-in.
pub async fn start_bot(standin: &StandIn, db: &Path) -> RunningClient {
    start_bot_with(standin, bot_config(standin, db), |app| app).await
}

/// [`start_bot`] with a changed configuration and app.
pub async fn start_bot_with(
    standin: &StandIn,
    config: BotConfig,
    app: impl FnOnce(App) -> App,
) -> RunningClient {
    start_bot_app(standin, config, app).await.0
}

/// [`start_bot_with`], also returning the app it runs (its store, its sweeper).
pub async fn start_bot_app(
    standin: &StandIn,
    config: BotConfig,
    app: impl FnOnce(App) -> App,
) -> (RunningClient, App) {
    let store = open_store(&config.db_path).await;
    let settings = &config.settings;
    let app = app(App::new(
        store,
        Settings {
            bot_seed: Some(11),
            challenge_ttl: settings.challenge_ttl,
            move_time: settings.move_time,
            search_threads: 1,
            search_memory_mb: 32,
            ..Settings::default()
        },
    ));
    let client = damas::discord::client(&config, app.clone())
        .await
        .expect("the bot builds its client");
    let running = RunningClient::spawn(client);
    standin.wait_connected().await;
    (running, app)
}

/// The real `damas` binary as a child process against the stand-in: `damas bot` on the
/// gateway or `damas serve` on the HTTP endpoint. Its log (standard error) is shown as the
/// test's own and kept with its standard output for [`BotProcess::printed`]. Killed, and
/// waited for, when dropped: the next process can open the same database at once.
pub struct BotProcess {
    child: Child,
    /// Its command, which holds its data folder ([`super::cli::command`]).
    _command: super::cli::Damas,
    /// `damas serve`'s endpoint, `http://ADDR/interactions` (empty for `damas bot`).
    pub url: String,
    output: Arc<Mutex<Vec<String>>>,
}

/// Which front end a [`BotProcess`] runs, and where.
#[derive(Clone, Copy)]
pub struct Launch<'a> {
    /// `damas serve --listen 127.0.0.1:0` rather than `damas bot`.
    pub http: bool,
    /// `DAMAS_DB`: a folder or a PostgreSQL URL.
    pub db: &'a str,
    /// Its working folder, away from the developer's own .env.
    pub workdir: &'a Path,
    /// `RUST_LOG`.
    pub log: &'a str,
    /// More environment variables (shard ranges, durations, settings).
    pub vars: &'a [(&'a str, &'a str)],
}

impl BotProcess {
    /// Starts `damas bot` on `db` and waits until it is connected.
    pub async fn start(standin: &StandIn, db: &Path) -> BotProcess {
        // Warnings only: the log goes to the test's standard error.
        BotProcess::start_logging(standin, db, "warn,serenity=error").await
    }

    /// [`BotProcess::start`] with its log filter (`RUST_LOG`).
    pub async fn start_logging(standin: &StandIn, db: &Path, rust_log: &str) -> BotProcess {
        BotProcess::start_with_env(standin, db, rust_log, &[]).await
    }

    /// [`BotProcess::start_logging`] with more environment variables (shard ranges).
    pub async fn start_with_env(
        standin: &StandIn,
        db: &Path,
        rust_log: &str,
        vars: &[(&str, &str)],
    ) -> BotProcess {
        BotProcess::launch(
            standin,
            Launch {
                http: false,
                db: db.to_str().expect("a UTF-8 path"),
                workdir: db.parent().expect("db has a parent"),
                log: rust_log,
                vars,
            },
        )
        .await
    }

    /// `damas serve` on the folder `db`, with one search thread.
    pub async fn serve(standin: &StandIn, db: &Path) -> BotProcess {
        let workdir = db.parent().expect("db has a parent");
        BotProcess::serve_with(standin, db.to_str().expect("a UTF-8 path"), workdir, &[]).await
    }

    /// `damas serve` on `db` (a folder or a PostgreSQL URL), in `workdir`, with one search
    /// thread and more variables.
    pub async fn serve_with(
        standin: &StandIn,
        db: &str,
        workdir: &Path,
        vars: &[(&str, &str)],
    ) -> BotProcess {
        let vars = [&[("DAMAS_SEARCH_THREADS", "1")], vars].concat();
        let launch = Launch {
            http: true,
            db,
            workdir,
            log: "info,serenity=warn",
            vars: &vars,
        };
        BotProcess::launch(standin, launch).await
    }

    /// Starts the process and waits until it is connected (`damas bot`) or says where it
    /// listens (`damas serve`, within 30 s).
    pub async fn launch(standin: &StandIn, how: Launch<'_>) -> BotProcess {
        let mut command = super::cli::command();
        if how.http {
            command
                .args(["serve", "--listen", "127.0.0.1:0"])
                .env("DISCORD_PUBLIC_KEY", standin.public_key_hex());
        } else {
            command.arg("bot");
        }
        let mut child = command
            .env("DISCORD_TOKEN", standin.token())
            .env("DISCORD_API_PROXY", standin.base_url())
            .env("DISCORD_GUILD_ID", GUILD.to_string())
            .env("DAMAS_DB", how.db)
            // Its data folder is the test's, and it builds no endgame tables unless a test
            // asks (`vars` may set either again).
            .env("DAMAS_DATA", how.workdir.join("data"))
            .env("DAMAS_EGDB_BUILD", "off")
            .env("RUST_LOG", how.log)
            .envs(how.vars.iter().copied())
            .current_dir(how.workdir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("damas starts");
        let output = Arc::new(Mutex::new(Vec::new()));
        let (listening, listens_on) = std::sync::mpsc::channel();
        let keep = |pipe: Box<dyn std::io::Read + Send>, echo: bool| {
            let (output, listening) = (Arc::clone(&output), listening.clone());
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if echo {
                        eprintln!("{line}");
                    }
                    if let Some(addr) = line.strip_prefix("listening on ") {
                        let _ = listening.send(addr.to_owned());
                    }
                    output.lock().unwrap().push(line);
                }
            });
        };
        // A trace log is kept but not shown: thousands of lines.
        let echo = !how.log.contains("trace");
        keep(Box::new(child.stderr.take().expect("stderr")), echo);
        keep(Box::new(child.stdout.take().expect("stdout")), false);
        drop(listening);
        let mut url = String::new();
        if how.http {
            let addr = tokio::task::spawn_blocking(move || {
                listens_on.recv_timeout(Duration::from_secs(30))
            })
            .await
            .expect("the wait for its address");
            let addr = addr.expect("damas serve says where it listens within 30 s");
            url = format!("http://{addr}/interactions");
        } else {
            standin.wait_connected().await;
        }
        BotProcess {
            child,
            _command: command,
            url,
            output,
        }
    }

    /// The lines it printed (log and standard output) that contain `what`.
    pub fn printed(&self, what: &str) -> Vec<String> {
        let output = self.output.lock().unwrap();
        output
            .iter()
            .filter(|l| l.contains(what))
            .cloned()
            .collect()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a signal (`KILL`, `TERM`).
    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{sig}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs")
            .success();
        assert!(ok, "kill -{sig} {}", self.child.id());
    }

    /// Kills it (SIGKILL) and waits for it to be gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Its exit status, if it has exited.
    pub fn try_wait(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().expect("try_wait")
    }

    /// Waits for the process to exit, at most `within`.
    pub async fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + within;
        loop {
            if let Some(status) = self.try_wait() {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the bot did not exit within {within:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// All the text of a message body: content and embed descriptions and titles.
pub fn text_of(v: &Value) -> String {
    let mut s = v["content"].as_str().unwrap_or_default().to_string();
    for e in v["embeds"].as_array().into_iter().flatten() {
        for k in ["title", "description"] {
            if let Some(t) = e[k].as_str() {
                s.push('\n');
                s.push_str(t);
            }
        }
    }
    s
}

/// All the text of a recorded message: [`text_of`] its body.
pub fn text(r: &Recorded) -> String {
    text_of(r.message_body())
}

/// Checks the text of a recorded message contains `words`, showing the whole text if not.
#[track_caller]
pub fn assert_says(r: &Recorded, words: &str) {
    let text = text(r);
    assert!(text.contains(words), "{text}");
}

/// Checks the text of a message body contains `words`, showing the whole text if not.
#[track_caller]
pub fn assert_body_says(v: &Value, words: &str) {
    let text = text_of(v);
    assert!(text.contains(words), "{text}");
}

/// Checks the posted PNG shows exactly `pos`, from `perspective`.
pub fn assert_picture_shows(png: &[u8], pos: &Position, perspective: Color) {
    let img = image::load_from_memory(png)
        .expect("the attachment is a PNG")
        .to_rgba8();
    for sq in Square::all() {
        let seen = damas::render::read_square(&img, pos.variant(), perspective, sq);
        assert_eq!(seen, pos.piece_at(sq), "square {sq} of the posted board");
    }
}

pub fn board_png(r: &Recorded) -> Vec<u8> {
    r.file("board.png")
        .unwrap_or_else(|| panic!("no board.png in {}", r.summary()))
        .bytes
        .clone()
}

pub fn custom_id_starting(message: &Value, prefix: &str) -> String {
    custom_ids(message)
        .into_iter()
        .find(|id| id.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix}… component in {:?}", custom_ids(message)))
}

impl StandIn {
    /// `user` clicks the button of `message` whose custom id starts with `prefix` (e.g.
    /// `"damas:accept:"`).
    pub async fn click_button(
        &self,
        user: &TestUser,
        message: &Value,
        prefix: &str,
    ) -> SentInteraction {
        let id = custom_id_starting(message, prefix);
        self.send_interaction(self.button_click(user, message, &id))
            .await
    }

    /// `user` asks for the PDN of the game in `place`: the text of the `.pdn` file answered
    /// (the answer may be deferred while the replay GIF is drawn on a busy machine).
    pub async fn pdn_text(&self, user: &TestUser, place: Place) -> String {
        let pdn = self.send_slash(user, place, Slash::named("pdn")).await;
        let cb = self.callback(&pdn).await;
        let cb = match cb.callback_type() {
            Some(5) => self.original_edit(&pdn).await,
            _ => cb,
        };
        let file = cb
            .files
            .iter()
            .find(|f| f.filename.ends_with(".pdn"))
            .unwrap_or_else(|| {
                let names: Vec<&str> = cb.files.iter().map(|f| f.filename.as_str()).collect();
                panic!("no .pdn file among {names:?}: {:?}", cb.json)
            });
        String::from_utf8(file.bytes.clone()).expect("a PDN file is UTF-8")
    }

    /// `challenger` sends `command` (a `/challenge` of `challenged`) in `place`, the bot
    /// answers, and `challenged` clicks Accept: the click, whose answer the caller reads.
    pub async fn challenge_accepted(
        &self,
        challenger: &TestUser,
        challenged: &TestUser,
        place: Place,
        command: Slash,
    ) -> SentInteraction {
        let sent = self.send_slash(challenger, place, command).await;
        self.callback(&sent).await;
        let challenge = self.original_message(&sent);
        self.click_button(challenged, &challenge, "damas:accept:")
            .await
    }
}

/// The interaction of `user` choosing the first move of a board's move menu, if it has one.
pub fn first_menu_move(standin: &StandIn, user: &TestUser, board: &Value) -> Option<Value> {
    let menu = custom_ids(board)
        .into_iter()
        .find(|id| id.starts_with("damas:move:"))?;
    let first = component(board, &menu)?["options"][0]["value"]
        .as_str()?
        .to_string();
    Some(standin.select_menu(user, board, &menu, &[&first]))
}

/// alice plays White against the expert in `place` and moves 10-14: the bot owes its move.
pub async fn hand_the_bot_its_turn(standin: &StandIn, place: Place) {
    let alice = TestUser::random("alice");
    let sent = standin
        .send_slash(&alice, place, Slash::play_bot("expert", "spanish", "white"))
        .await;
    standin.callback(&sent).await;
    let mv = standin.send_slash(&alice, place, Slash::mv("10-14")).await;
    let cb = standin.callback(&mv).await;
    assert!(text(&cb).contains("alice played 10-14"), "{}", text(&cb));
}

/// A message the bot posted in `channel` (not an interaction's answer).
pub fn bot_post_in(channel: u64) -> impl Fn(&Recorded) -> bool {
    move |r| {
        r.method == "POST"
            && r.status == 200
            && matches!(r.route, Route::ChannelMessages { channel: c } if c == channel)
    }
}

impl BotProcess {
    /// The address of its metrics listener (`DAMAS_METRICS_LISTEN`), once it has said it.
    pub async fn metrics_addr(&self) -> String {
        for _ in 0..200 {
            if let Some(line) = self.printed("metrics listening on ").first() {
                return line
                    .trim_start_matches("metrics listening on ")
                    .trim()
                    .to_owned();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the bot never said where its metrics are");
    }
}

/// `GET http://{addr}{path}`: the status and body.
pub async fn http_get(addr: &str, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("http://{addr}{path}"))
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

/// The sum of the samples `name` whose labels include `labels`, in Prometheus' text format;
/// `None` when there is none.
pub fn metric(scrape: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let mut found = None;
    for line in scrape
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (series, value) = line.rsplit_once(' ').expect("a sample line");
        let (series_name, series_labels) = match series.split_once('{') {
            Some((n, l)) => (n, l.trim_end_matches('}')),
            None => (series, ""),
        };
        if series_name != name {
            continue;
        }
        let has = |(k, v): &(&str, &str)| {
            series_labels
                .split(',')
                .any(|pair| pair == format!("{k}=\"{v}\""))
        };
        if labels.iter().all(has) {
            let value = value.parse::<f64>().expect("a number");
            found = Some(found.unwrap_or(0.0) + value);
        }
    }
    found
}

/// A clock the test moves: given to the app ([`TestClock::drive`]), it makes time limits pass
/// when the test says, however late a sweep runs on a busy machine. It starts at the wall
/// clock's now, so what the store records looks like any day's.
#[derive(Clone)]
pub struct TestClock(Arc<std::sync::atomic::AtomicU64>);

impl TestClock {
    pub fn new() -> TestClock {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("the clock is after 1970")
            .as_millis() as u64;
        TestClock(Arc::new(std::sync::atomic::AtomicU64::new(now)))
    }

    /// `app` on this clock.
    pub fn drive(&self, app: App) -> App {
        let clock = self.0.clone();
        app.with_clock(move || clock.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// Moves the clock `ms` milliseconds on.
    pub fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, std::sync::atomic::Ordering::SeqCst);
    }
}
