//! The terminal front end: the bot's commands read from standard input, one per line, so two
//! people can share a keyboard, one can play the bot, and scripts can drive it:
//!
//! ```text
//! alice: /challenge bob
//! bob: /accept
//! alice: /move 11-15
//! beto: /jugar nivel:difícil variante:inglesas
//! ```
//!
//! Commands are read with the app's command table: English or Spanish names, options by
//! position or as `option:value` as typed on Discord. `/accept` and `/decline` stand for the
//! challenge's buttons, `/moves` lists the legal moves. Replies are printed in the language
//! given with `--lang`; every board picture is saved as a PNG in a folder.

use crate::app::commands::{
    self, ArgValue, CommandId, CommandSpec, Invocation, OptionKind, Surface, Upload, UploadError,
    MAX_UPLOAD_BYTES,
};
use crate::app::deliver::{Delivery, MessageId, NotShown, Why};
use crate::app::i18n::{n, s, t, tr, Lang};
use crate::app::reply::plain;
use crate::app::serve::{Respond, Shown};
use crate::app::settings::Settings;
use crate::app::{Actor, Answer, App, Place, Reply, UserRef};
use crate::fl;
use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// How the console is started (`damas console`'s options).
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    /// Folder where every board picture is saved.
    pub boards: PathBuf,
    /// The database; `None`: `DAMAS_DB` if set, else a fresh temporary folder.
    pub db: Option<PathBuf>,
    /// Language of the replies: es or en.
    pub lang: String,
    /// Fixed seed for the bot (repeatable sessions).
    pub seed: Option<u64>,
    /// Also print what each picture shows, in words (the text a screen reader reads).
    pub text_boards: bool,
}

/// The console's one channel.
const CHANNEL: u64 = 1;
const GUILD: u64 = 1;

/// Why the console could not start. Exit code 2 for bad settings, 1 for the rest.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error("unknown language {0:?}: use es or en")]
    Language(String),
    #[error(transparent)]
    Database(#[from] crate::app::boot::BootError),
    /// A `DAMAS_*` setting that cannot be used.
    #[error("{variable} {problem}")]
    BadSetting {
        variable: &'static str,
        problem: String,
    },
    #[error("cannot create {path}: {source}")]
    Boards {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
}

impl ConsoleError {
    /// The settings given were wrong (a language, a folder), as opposed to a failure of the
    /// machine.
    pub fn is_bad_settings(&self) -> bool {
        !matches!(self, ConsoleError::Runtime(_))
    }
}

/// The database the console opens: `--db`, else `DAMAS_DB` when set (as the bot reads it),
/// else `None` (a fresh temporary folder). A `DAMAS_DB` naming no kind of database damas
/// opens is a bad setting.
pub fn db_from(
    given: Option<&Path>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<PathBuf>, ConsoleError> {
    if let Some(db) = given {
        return Ok(Some(db.to_path_buf()));
    }
    let Some(db) = var(crate::app::DB_ENV).filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    let db = PathBuf::from(db);
    crate::app::check_db_name(&db).map_err(|e| ConsoleError::BadSetting {
        variable: crate::app::DB_ENV,
        problem: crate::app::db_name_problem(&e),
    })?;
    Ok(Some(db))
}

pub fn run(args: ConsoleOptions) -> Result<(), ConsoleError> {
    let lang =
        Lang::from_code(&args.lang).ok_or_else(|| ConsoleError::Language(args.lang.clone()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ConsoleError::Runtime)?;
    // Only the temporary database is removed at the end: one DAMAS_DB or --db names is kept.
    let (db_path, temporary) = match db_from(args.db.as_deref(), |name| std::env::var(name).ok())? {
        Some(p) => (p, false),
        None => (
            std::env::temp_dir().join(format!("damas-console-{}", std::process::id())),
            true,
        ),
    };
    // The same settings as the bot's (DAMAS_SEARCH_THREADS, DAMAS_MOVE_TIME, …).
    let settings = Settings::from_vars(|name| std::env::var(name).ok()).map_err(|e| {
        ConsoleError::BadSetting {
            variable: e.variable,
            problem: e.problem,
        }
    })?;
    std::fs::create_dir_all(&args.boards).map_err(|source| ConsoleError::Boards {
        path: args.boards.clone(),
        source,
    })?;
    let app = crate::app::boot::boot(
        &db_path,
        Settings {
            bot_seed: args.seed,
            ..settings
        },
    )?;
    let printer = Arc::new(Mutex::new(Printer {
        lang,
        users: HashMap::new(),
        boards: args.boards.clone(),
        saved: 0,
        text_boards: args.text_boards,
        out: std::io::stdout(),
        printed: 0,
    }));
    let mut console = Console {
        app,
        lang,
        delivery: Arc::new(ConsoleOut(Arc::clone(&printer))),
        printer,
    };
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let greeting = tr(
        lang,
        fl!("console-greeting"),
        &[("folder", s(format!("{}/", args.boards.display())))],
    );
    console.say(&greeting);
    let mut lines = stdin.lock().lines();
    loop {
        if interactive {
            print!("> ");
            let _ = std::io::stdout().flush();
        }
        let Some(Ok(line)) = lines.next() else { break };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if console.is_quit(line) {
            break;
        }
        runtime.block_on(console.handle(line));
    }
    // The input ended: the one shutdown sequence (no sweeper runs here).
    let stopped = runtime.block_on(
        console
            .app
            .shut_down(crate::app::boot::SHUTDOWN_GRACE, None),
    );
    drop(console);
    if temporary {
        let _ = std::fs::remove_dir_all(&db_path);
    }
    stopped.map_err(|source| crate::app::boot::BootError {
        path: db_path.clone(),
        source,
    })?;
    Ok(())
}

struct Console {
    app: App,
    lang: Lang,
    /// What prints, shared with [`Self::delivery`].
    printer: Arc<Mutex<Printer>>,
    /// The app's way out ([`ConsoleOut`]): the bot's moves, made by the app's own tasks,
    /// are printed through it.
    delivery: Arc<dyn Delivery>,
}

/// What the console prints, and the state printing needs: shared by the console's loop and
/// the app's tasks that post the bot's moves ([`ConsoleOut`]).
struct Printer {
    lang: Lang,
    /// Names typed so far, with their ids ([`console_user_id`]).
    users: HashMap<String, u64>,
    boards: PathBuf,
    saved: usize,
    /// Print each picture's description under it.
    text_boards: bool,
    out: std::io::Stdout,
    /// Messages printed so far: the next one's id. The app records boards by their message,
    /// as it does on Discord.
    printed: MessageId,
}

/// The app's [`Delivery`] port in a terminal: what the app posts is printed; an edit prints
/// the message's new text; a printed line has no controls to take away; there are no
/// threads (the console never asks for one: a game starts where it was asked for).
struct ConsoleOut(Arc<Mutex<Printer>>);

#[async_trait::async_trait]
impl Delivery for ConsoleOut {
    async fn post(&self, _channel: u64, reply: &Reply) -> Result<MessageId, NotShown> {
        Ok(lock(&self.0).print_reply(None, reply))
    }

    async fn edit(&self, _channel: u64, _: MessageId, reply: &Reply) -> Result<(), NotShown> {
        lock(&self.0).print_reply(None, reply);
        Ok(())
    }

    async fn strip_controls(&self, _channel: u64, _: MessageId) -> Result<(), NotShown> {
        Ok(())
    }

    async fn open_thread(&self, _parent: u64, _name: &str) -> Result<u64, NotShown> {
        Err(NotShown {
            why: Why::Refused,
            detail: "the console has no threads".to_string(),
        })
    }

    async fn archive_thread(&self, _thread: u64) -> Result<(), NotShown> {
        Ok(())
    }
}

/// The printer, even if a task printing with it panicked (what it holds stays usable).
fn lock(printer: &Mutex<Printer>) -> MutexGuard<'_, Printer> {
    printer.lock().unwrap_or_else(|e| e.into_inner())
}

impl Console {
    fn printer(&self) -> MutexGuard<'_, Printer> {
        lock(&self.printer)
    }

    fn say(&mut self, text: &str) {
        self.printer().say(text);
    }

    fn user_id(&mut self, name: &str) -> u64 {
        let id = console_user_id(name);
        self.printer().users.insert(name.to_string(), id);
        id
    }

    fn user(&mut self, name: &str) -> UserRef {
        UserRef {
            user_id: self.user_id(name),
            name: name.to_string(),
            is_bot: false,
        }
    }

    fn actor(&mut self, name: &str) -> Actor {
        Actor {
            user_id: self.user_id(name),
            name: name.to_string(),
            locale: self.lang.code().to_string(),
            can_manage_messages: true,
            can_manage_events: true,
            can_manage_guild: true,
            roles: vec![],
        }
    }

    /// `[name:] /command args…`
    async fn handle(&mut self, line: &str) {
        let (name, command) = match line.split_once(':') {
            Some((n, rest))
                if !n.trim().is_empty()
                    && !n.contains(' ')
                    && rest.trim_start().starts_with('/') =>
            {
                (n.trim().to_string(), rest.trim())
            }
            _ => (t(self.lang, fl!("console-default-name")), line),
        };
        let actor = self.actor(&name);
        let place = Place {
            guild_id: Some(GUILD),
            channel_id: CHANNEL,
        };
        let inv = match self.parse(command) {
            Ok(inv) => inv,
            Err(message) => return self.say(&message),
        };
        let answer = if inv.command.id == CommandId::Help {
            // With the commands only the console has, for what Discord does with buttons.
            self.app.help_with(&actor, &[Surface::Console])
        } else {
            self.app.run_command(&actor, place, &inv).await
        };
        self.show(&name, answer).await;
    }

    /// Whether a line is `/quit` (or `quit`, `/salir`, `/exit`…): the console ends.
    fn is_quit(&self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or("");
        words.next().is_none() && commands::find(name).is_some_and(|c| c.id == CommandId::Quit)
    }

    /// Reads a command line, or says in the console's language what is wrong with it.
    fn parse(&mut self, command: &str) -> Result<Invocation, String> {
        let lang = self.lang;
        let Some(words) = words_of(command) else {
            return Err(t(lang, fl!("console-unclosed-quote")));
        };
        let mut words = words.into_iter();
        let name = words
            .next()
            .map(|w| w.text)
            .unwrap_or_default()
            .trim_start_matches('/')
            .to_lowercase();
        let mut words: Vec<Word> = words.collect();
        let found = commands::find(&name).or_else(|| {
            // A group's member: `/tournament join`, `/torneo unirse`.
            let group = commands::find_group(&name)?;
            let sub = commands::find_in_group(group, &words.first()?.text)?;
            words.remove(0);
            Some(sub)
        });
        let Some(spec) = found else {
            return Err(tr(
                lang,
                fl!("console-unknown-command"),
                &[("command", s(command))],
            ));
        };
        let usage = || {
            tr(
                lang,
                fl!("console-usage"),
                &[("usage", s(spec.usage(lang)))],
            )
        };
        let mut inv = Invocation::new(spec);
        // The free-text option last given a word: further words belong to it (`/move 22 x 15`,
        // `/tournament create Copa de Otoño rounds:3`) until the next `option:` — or, when it
        // was given by position, a word that names a choice of another option.
        let mut open_text: Option<(&'static str, bool)> = None;
        for word in &words {
            let (quoted, complete, word) = (word.quoted, word.has_quotes, word.text.as_str());
            if let Some((key, value)) = word.split_once(':').filter(|_| !quoted) {
                if let Some(option) = spec.option(key) {
                    let value = self.value(spec, option.name, value)?;
                    inv.args.retain(|(n, _)| *n != option.name);
                    inv.args.push((option.name, value));
                    open_text = (matches!(option.kind, OptionKind::Text { .. }) && !complete)
                        .then_some((option.name, true));
                    continue;
                }
                if is_option_like(key) {
                    return Err(tr(
                        lang,
                        fl!("console-unknown-option"),
                        &[
                            ("command", s(spec.localized_name(lang))),
                            ("option", s(key)),
                            ("usage", s(spec.usage(lang))),
                        ],
                    ));
                }
            }
            let free = |n: &str| !inv.args.iter().any(|(a, _)| *a == n);
            // A word goes to the first free option that takes it: a choice it names, else
            // the open text, else the next free text, user or number option.
            let choice = spec.options.iter().find(|o| {
                free(o.name) && matches!(o.kind, OptionKind::Choice(c) if c.parse(word).is_some())
            });
            let next_free = || {
                spec.options.iter().find(|o| {
                    free(o.name)
                        && matches!(
                            o.kind,
                            OptionKind::Text { .. } | OptionKind::User | OptionKind::Integer { .. }
                        )
                })
            };
            if complete {
                // A value in quotes stands alone.
                open_text = None;
            }
            let target = match open_text {
                Some((_, true)) => None,
                Some((_, false)) => choice,
                None => choice.or_else(next_free),
            };
            match (target, open_text) {
                (Some(o), _) => {
                    let value = self.value(spec, o.name, word)?;
                    open_text = (matches!(o.kind, OptionKind::Text { .. }) && !complete)
                        .then_some((o.name, false));
                    inv.args.push((o.name, value));
                }
                (None, Some((text, _))) => {
                    for (n, v) in inv.args.iter_mut() {
                        if let (true, ArgValue::Text(t)) = (*n == text, v) {
                            t.push(' ');
                            t.push_str(word);
                        }
                    }
                }
                (None, None) => {
                    return Err(tr(
                        lang,
                        fl!("console-extra-words"),
                        &[("value", s(word)), ("usage", s(spec.usage(lang)))],
                    ))
                }
            }
        }
        if spec
            .options
            .iter()
            .any(|o| o.required && !inv.args.iter().any(|(n, _)| *n == o.name))
        {
            return Err(usage());
        }
        Ok(inv)
    }

    /// An option's value from what was typed, checked against its kind.
    fn value(&mut self, spec: &CommandSpec, option: &str, text: &str) -> Result<ArgValue, String> {
        let lang = self.lang;
        let Some(o) = spec.option(option) else {
            return Err(tr(
                lang,
                fl!("console-usage"),
                &[("usage", s(spec.usage(lang)))],
            ));
        };
        match o.kind {
            OptionKind::User => Ok(ArgValue::User(self.user(text))),
            OptionKind::Text { .. } => Ok(ArgValue::Text(text.to_string())),
            OptionKind::Choice(choices) => match choices.parse(text) {
                Some(v) => Ok(ArgValue::Text(v.to_string())),
                None => {
                    let labels: Vec<String> = choices
                        .values()
                        .into_iter()
                        .map(|v| t(lang, &choices.label_id(v)).to_lowercase())
                        .collect();
                    Err(tr(
                        lang,
                        fl!("console-bad-choice"),
                        &[
                            ("value", s(text)),
                            ("option", s(o.localized_name(lang))),
                            ("choices", s(crate::app::i18n::or_list(lang, &labels))),
                        ],
                    ))
                }
            },
            OptionKind::File => Ok(ArgValue::File(read_upload(text))),
            // The console has no channels nor roles of its own: their ids, as `123`, `#123`
            // or the `<#123>` / `<@&123>` the bot writes.
            OptionKind::Channel | OptionKind::Role => {
                let digits = text.trim_matches(|c: char| !c.is_ascii_digit());
                match digits.parse::<u64>() {
                    Ok(id) if id > 0 && o.kind == OptionKind::Channel => Ok(ArgValue::Channel(id)),
                    Ok(id) if id > 0 => Ok(ArgValue::Role(id)),
                    _ => Err(tr(
                        lang,
                        fl!("console-bad-id"),
                        &[("value", s(text)), ("option", s(o.localized_name(lang)))],
                    )),
                }
            }
            OptionKind::Integer { min, max } => match text.parse::<i64>() {
                Ok(i) if (min..=max).contains(&i) => Ok(ArgValue::Integer(i)),
                _ => Err(tr(
                    lang,
                    fl!("console-bad-number"),
                    &[
                        ("value", s(text)),
                        ("option", s(o.localized_name(lang))),
                        ("min", n(min as f64)),
                        ("max", n(max as f64)),
                    ],
                )),
            },
        }
    }

    /// Prints an answer as the app asks every front end to show one, then waits for the
    /// work it started (the bot's move, printed by [`ConsoleOut`]) so that it is printed
    /// before the next line is read.
    async fn show(&mut self, name: &str, answer: Answer) {
        let place = Place {
            guild_id: Some(GUILD),
            channel_id: CHANNEL,
        };
        let printed = Printed {
            printer: &self.printer,
            name,
        };
        self.app
            .serve(answer, place, self.lang, &printed, &self.delivery)
            .await;
        self.app.settled().await;
    }
}

/// The app's [`Respond`] port in a terminal: an answer's replies are printed, the private
/// ones marked as shown only to `name`.
struct Printed<'a> {
    printer: &'a Arc<Mutex<Printer>>,
    name: &'a str,
}

#[async_trait::async_trait]
impl Respond for Printed<'_> {
    async fn answer(&self, reply: &Reply) -> Shown {
        Shown::Message(lock(self.printer).print_reply(Some(self.name), reply))
    }

    async fn follow_up(&self, reply: &Reply) -> Shown {
        self.answer(reply).await
    }

    async fn acknowledge(&self) {}
}

impl Printer {
    /// Prints the app's words. A terminal has no markup: what people wrote (names, typed
    /// moves, a file's tags — marked in the app's text) is printed as they wrote it, the
    /// marks removed, here for everything the console prints.
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}", plain(text));
    }

    /// Prints a reply (`name`: to whom a private one is shown); its message id.
    fn print_reply(&mut self, name: Option<&str>, r: &Reply) -> MessageId {
        let lang = self.lang;
        let mut text = String::new();
        if let (true, Some(name)) = (r.is_private(), name) {
            text.push_str(&tr(lang, fl!("console-only-you"), &[("name", s(name))]));
            text.push(' ');
        }
        if let Some(t) = &r.title {
            text.push_str(&format!("== {t} ==\n"));
        }
        text.push_str(&self.unmention(&r.text));
        if let Some(picture) = &r.image {
            self.saved += 1;
            let path = self.boards.join(format!("board-{:04}.png", self.saved));
            let line = match save(&path, &picture.png) {
                Ok(()) => tr(
                    lang,
                    fl!("console-board-saved"),
                    &[("path", s(path.display()))],
                ),
                Err(e) => tr(lang, fl!("console-board-not-saved"), &[("error", s(e))]),
            };
            text.push('\n');
            text.push_str(&line);
            if self.text_boards {
                text.push('\n');
                text.push_str(&self.unmention(&picture.description));
            }
        }
        if !r.buttons.is_empty() {
            let labels: Vec<String> = r.buttons.iter().map(|b| format!("[{}]", b.label)).collect();
            text.push_str(&format!("\n{}", labels.join(" ")));
        }
        if let Some(menu) = &r.menu {
            let opts: Vec<&str> = menu.options.iter().map(|o| o.label.as_str()).collect();
            text.push_str(&format!("\n{}: {}", menu.placeholder, opts.join(", ")));
        }
        for f in &r.files {
            let path = self.boards.join(&f.filename);
            let line = match save(&path, &f.bytes) {
                Ok(()) => tr(
                    lang,
                    fl!("console-file-saved"),
                    &[("path", s(path.display()))],
                ),
                Err(e) => tr(lang, fl!("console-file-not-saved"), &[("error", s(e))]),
            };
            text.push('\n');
            text.push_str(&line);
            if let Some(d) = f.description.as_ref().filter(|_| self.text_boards) {
                text.push('\n');
                text.push_str(&self.unmention(d));
            }
        }
        self.say(&text);
        self.printed += 1;
        self.printed
    }

    /// `<@id>` → the name typed for that id.
    fn unmention(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (name, id) in &self.users {
            out = out.replace(&format!("<@{id}>"), name);
        }
        out
    }
}

/// A word of a console line: `quoted` when it was typed in quotes, so that it is a value as it
/// stands (never `option:value`).
struct Word {
    text: String,
    quoted: bool,
    /// Quotes were typed in it: its value is complete, later words are not added to it.
    has_quotes: bool,
}

/// The words of a line: split at spaces, except within double quotes (`"Copa de Otoño"`, or
/// `name:"Copa de Otoño"`), which are taken away. `None` when a quote is left open.
fn words_of(line: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    let mut in_quotes = false;
    for c in line.chars() {
        match c {
            '"' | '“' | '”' => {
                let word = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    quoted: true,
                    has_quotes: true,
                });
                word.has_quotes = true;
                // Only quotes that open the word make it a plain value; `name:"…"` stays an
                // option.
                word.quoted &= word.text.is_empty() || in_quotes;
                in_quotes = !in_quotes;
            }
            c if c.is_whitespace() && !in_quotes => words.extend(current.take()),
            c => current
                .get_or_insert_with(|| Word {
                    text: String::new(),
                    quoted: false,
                    has_quotes: false,
                })
                .text
                .push(c),
        }
    }
    if in_quotes {
        return None;
    }
    words.extend(current.take());
    Some(words)
}

/// A console user's id: the same name gets the same id in every run (a console with `--db`
/// finds its players' records again), different names different ids. CRC-32 of the name,
/// above the ids a test or a script would pick by hand.
fn console_user_id(name: &str) -> u64 {
    let mut crc = flate2::Crc::new();
    crc.update(name.as_bytes());
    CONSOLE_USER_IDS + u64::from(crc.sum())
}

/// Where console users' ids start.
const CONSOLE_USER_IDS: u64 = 1 << 40;

/// `word:` looks like an option name (letters only), not like a move written `22:15`.
fn is_option_like(key: &str) -> bool {
    !key.is_empty() && key.chars().all(char::is_alphabetic)
}

fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

/// A file named in the console (`file:game.pdn`), read as Discord's attachments are: at
/// most [`MAX_UPLOAD_BYTES`] of it.
fn read_upload(path: &str) -> Upload {
    use std::io::Read;
    let path = std::path::Path::new(path.trim());
    let filename = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| f.take(MAX_UPLOAD_BYTES as u64 + 1).read_to_end(&mut bytes));
    let content = match read {
        Err(_) => Err(UploadError::Failed),
        Ok(_) if bytes.len() > MAX_UPLOAD_BYTES => Err(UploadError::TooBig),
        Ok(_) => Ok(bytes),
    };
    Upload { filename, content }
}
