//! The terminal front end: the bot's commands read from standard input, one per line, so two
//! people can share a keyboard, one can play the bot, and scripts can drive it:
//!
//! ```text
//! alice: /challenge bob
//! bob: /accept
//! alice: /move 11-15
//! ```
//!
//! Replies are printed; every board picture is saved as a PNG in a folder.

use crate::ai::Level;
use crate::app::i18n::Lang;
use crate::app::{Actor, Answer, App, Config, Place, Reply, UserRef};
use crate::engine::{Color, Variant};
use crate::store::Store;
use clap::Args;
use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ConsoleArgs {
    /// Folder where every board picture is saved.
    #[arg(long, default_value = "boards")]
    pub boards: PathBuf,
    /// Database folder; a fresh temporary one when left out.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Language of the replies: es or en.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Fixed seed for the bot (repeatable sessions).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// The console's one channel.
const CHANNEL: u64 = 1;
const GUILD: u64 = 1;

pub fn run(args: ConsoleArgs) -> ExitCode {
    let Some(lang) = Lang::from_code(&args.lang) else {
        return crate::cli::fail(format!("unknown language {:?}: use es or en", args.lang));
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return crate::cli::fail(format!("cannot start the runtime: {e}")),
    };
    let temp;
    let db_path = match &args.db {
        Some(p) => p.clone(),
        None => {
            temp = std::env::temp_dir().join(format!("damas-console-{}", std::process::id()));
            temp.clone()
        }
    };
    let store = match Store::open(&db_path) {
        Ok(s) => s,
        Err(e) => {
            return crate::cli::fail(format!(
                "cannot open the database {}: {e}",
                db_path.display()
            ))
        }
    };
    if let Err(e) = std::fs::create_dir_all(&args.boards) {
        return crate::cli::fail(format!("cannot create {}: {e}", args.boards.display()));
    }
    let config = Config {
        bot_seed: args.seed,
        ..Config::default()
    };
    let app = App::new(store, config);
    let mut console = Console {
        app,
        lang,
        users: HashMap::new(),
        boards: args.boards.clone(),
        saved: 0,
        out: std::io::stdout(),
    };
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    console.say(&console.greeting());
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
        if matches!(line, "/quit" | "/exit" | "quit" | "exit") {
            break;
        }
        runtime.block_on(console.handle(line));
    }
    drop(console);
    if args.db.is_none() {
        let _ = std::fs::remove_dir_all(&db_path);
    }
    ExitCode::SUCCESS
}

struct Console {
    app: App,
    lang: Lang,
    /// Names typed so far, each given a stable id.
    users: HashMap<String, u64>,
    boards: PathBuf,
    saved: usize,
    out: std::io::Stdout,
}

impl Console {
    fn greeting(&self) -> String {
        let intro = match self.lang {
            Lang::Es => "damas — consola. Escribe /help para ver los comandos; /play para jugar contra el bot; \
                         «ana: /challenge beto» para dos personas. Los tableros se guardan en "
                .to_string(),
            Lang::En => "damas console. Type /help for the commands; /play to play the bot; \
                         \"alice: /challenge bob\" for two people. Boards are saved in "
                .to_string(),
        };
        format!("{intro}{}/", self.boards.display())
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn user_id(&mut self, name: &str) -> u64 {
        let next = 1000 + self.users.len() as u64;
        *self.users.entry(name.to_string()).or_insert(next)
    }

    fn actor(&mut self, name: &str) -> Actor {
        Actor {
            user_id: self.user_id(name),
            name: name.to_string(),
            locale: self.lang.code().to_string(),
            can_manage_messages: true,
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
            _ => ("player".to_string(), line),
        };
        let actor = self.actor(&name);
        let place = Place {
            guild_id: Some(GUILD),
            channel_id: CHANNEL,
        };
        let mut words = command.split_whitespace();
        let cmd = words
            .next()
            .unwrap_or("")
            .trim_start_matches('/')
            .to_lowercase();
        let args: Vec<&str> = words.collect();
        let rest = args.join(" ");
        let answer = match cmd.as_str() {
            "challenge" => {
                let Some(opponent) = args.first() else {
                    return self.say(&usage(self.lang, "/challenge NAME [variant] [white|black]"));
                };
                let opponent = UserRef {
                    user_id: self.user_id(opponent),
                    name: opponent.to_string(),
                    is_bot: false,
                };
                let (variant, colour) = variant_colour(&args[1..]);
                self.app
                    .challenge(&actor, place, &opponent, variant, colour)
                    .await
            }
            "accept" | "decline" => {
                let Ok(Some(c)) = self.app.store().challenge(CHANNEL) else {
                    return self.say(&crate::app::i18n::t(self.lang, "err-challenge-gone"));
                };
                let action = if cmd == "accept" { "accept" } else { "decline" };
                let id = format!("damas:{action}:{CHANNEL}:{}", c.created_at_ms);
                self.app.component(&actor, place, &id, &[]).await
            }
            "play" => {
                let level = args.iter().find_map(|a| a.parse::<Level>().ok());
                let (variant, colour) = variant_colour(&args);
                self.app
                    .play_bot(&actor, place, level, variant, colour)
                    .await
            }
            "move" | "m" => self.app.play_move(&actor, place, &rest).await,
            "board" => self.app.board(&actor, place).await,
            "resign" => self.app.resign(&actor, place).await,
            "draw" => self.app.draw(&actor, place).await,
            "nodraw" | "decline-draw" => self.app.decline_draw(&actor, place).await,
            "undo" => self.app.undo(&actor, place).await,
            "explain" => {
                let m = (!rest.is_empty()).then_some(rest.as_str());
                self.app.explain(&actor, place, m).await
            }
            "moves" => {
                let list = self.app.autocomplete_move(place, &rest).await;
                return self.say(&list.join(", "));
            }
            "rules" => self
                .app
                .rules(&actor, args.first().and_then(|v| v.parse().ok())),
            "stats" => {
                let user = args.first().map(|n| UserRef {
                    user_id: self.user_id(n),
                    name: n.to_string(),
                    is_bot: false,
                });
                self.app.stats(&actor, user.as_ref())
            }
            "leaderboard" => {
                let variant = args.iter().find_map(|a| a.parse::<Variant>().ok());
                let level = args.iter().find_map(|a| a.parse::<Level>().ok());
                self.app.leaderboard(&actor, place, variant, level)
            }
            "pdn" => self.app.pdn(&actor, place).await,
            "help" => self.app.help(&actor),
            "cancel" => self.app.cancel(&actor, place).await,
            _ => {
                return self.say(&match self.lang {
                    Lang::Es => format!("No conozco «{command}». Escribe /help."),
                    Lang::En => format!("Unknown command {command:?}. Type /help."),
                })
            }
        };
        self.show(&name, answer).await;
    }

    /// Prints an answer, then lets the bot move if it is its turn.
    async fn show(&mut self, name: &str, answer: Answer) {
        let mut answer = answer;
        loop {
            for r in &answer.replies {
                self.print_reply(name, r);
            }
            match answer.bot_turn {
                Some(place) => answer = self.app.bot_turn(place, self.lang).await,
                None => break,
            }
        }
    }

    fn print_reply(&mut self, name: &str, r: &Reply) {
        let mut text = String::new();
        if r.is_private() {
            text.push_str(&match self.lang {
                Lang::Es => format!("(solo lo ve {name}) "),
                Lang::En => format!("(only {name} sees this) "),
            });
        }
        if let Some(t) = &r.title {
            text.push_str(&format!("== {t} ==\n"));
        }
        text.push_str(&self.unmention(&r.text));
        if let Some(png) = &r.image {
            self.saved += 1;
            let path = self.boards.join(format!("board-{:04}.png", self.saved));
            match save(&path, png) {
                Ok(()) => text.push_str(&format!("\n[board: {}]", path.display())),
                Err(e) => text.push_str(&format!("\n[board not saved: {e}]")),
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
            match save(&path, &f.bytes) {
                Ok(()) => text.push_str(&format!("\n[file: {}]", path.display())),
                Err(e) => text.push_str(&format!("\n[file not saved: {e}]")),
            }
        }
        self.say(&text);
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

fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

fn variant_colour(args: &[&str]) -> (Option<Variant>, Option<Color>) {
    let variant = args.iter().find_map(|a| a.parse::<Variant>().ok());
    let colour = args.iter().find_map(|a| match a.to_lowercase().as_str() {
        "white" | "blancas" | "w" => Some(Color::White),
        "black" | "negras" | "b" => Some(Color::Black),
        _ => None,
    });
    (variant, colour)
}

fn usage(lang: Lang, u: &str) -> String {
    match lang {
        Lang::Es => format!("Uso: {u}"),
        Lang::En => format!("Usage: {u}"),
    }
}
