//! Every slash command, described once: its name, its options and their choices. Discord's
//! registration, Discord's dispatch and the console's parser read this table, so a command
//! added here exists everywhere. The console also knows a few words of its own for what
//! Discord does with buttons (`/accept`, `/decline`, `/moves`, `/m`, `/quit`: see
//! `console`). Words a person reads (localized names, descriptions, choice
//! labels) live in the Fluent files under ids derived from the names here; choice values come
//! from [`Variant`], [`Level`], [`Color`] and [`OpeningChoice`], never from copies.

use super::ballot::OpeningChoice;
use super::i18n::{t, Lang};
use super::puzzle::PuzzlePick;
use super::reply::Reply;
use super::{Actor, Answer, App, Place, UserRef};
use crate::ai::Level;
use crate::engine::{Color, Variant};

/// What a command does (the dispatch matches on this, not on a name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandId {
    Challenge,
    Play,
    Move,
    Board,
    Resign,
    Draw,
    Undo,
    Explain,
    Rules,
    Stats,
    Leaderboard,
    Pdn,
    Help,
    Cancel,
    ForgetMe,
    Puzzle,
    Review,
}

/// The answer given with `/draw answer:…`; without it `/draw` offers, or accepts an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAnswer {
    Accept,
    Decline,
}

impl DrawAnswer {
    pub const ALL: [DrawAnswer; 2] = [DrawAnswer::Accept, DrawAnswer::Decline];

    pub const fn id(self) -> &'static str {
        match self {
            DrawAnswer::Accept => "accept",
            DrawAnswer::Decline => "decline",
        }
    }
}

const COLOURS: [Color; 2] = [Color::White, Color::Black];

/// The identifier of a colour in options and choices.
pub const fn colour_id(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A fixed set of values an option offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choices {
    Variant,
    Level,
    Colour,
    DrawAnswer,
    /// `/puzzle`'s: the puzzle of the day or a random one.
    PuzzlePick,
    /// `/leaderboard`'s: games or puzzles.
    LeaderboardType,
    Opening,
    /// Whether a new game gets a thread of its own: [`THREAD_YES`] or [`THREAD_NO`].
    Thread,
    /// Whether `/board` answers with the board in words: [`TEXT_YES`] or [`TEXT_NO`].
    Text,
}

/// The values of the `thread` option.
pub const THREAD_YES: &str = "yes";
pub const THREAD_NO: &str = "no";

/// Where a new game is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threading {
    /// In the channel where it was asked for.
    #[default]
    InChannel,
    /// In a new public thread of that channel.
    InThread,
    /// A thread was asked for but the bot may not open one here: in the channel, saying why.
    Unavailable,
}

/// The values of the `text` option.
pub const TEXT_YES: &str = "yes";
pub const TEXT_NO: &str = "no";

/// The values of [`Choices::LeaderboardType`].
const LEADERBOARD_TYPES: [&str; 2] = ["games", "puzzles"];

impl Choices {
    /// The option's name, also the prefix of its labels' Fluent ids (`choice-level-easy`).
    const fn key(self) -> &'static str {
        match self {
            Choices::Variant => "variant",
            Choices::Level => "level",
            Choices::Colour => "colour",
            Choices::DrawAnswer => "answer",
            Choices::Thread => "thread",
            Choices::Opening => "opening",
            Choices::PuzzlePick => "pick",
            Choices::LeaderboardType => "type",
            Choices::Text => "text",
        }
    }

    /// The values sent by Discord and typed in the console, in display order.
    pub fn values(self) -> Vec<&'static str> {
        match self {
            Choices::Variant => Variant::ALL.iter().map(|v| v.id()).collect(),
            Choices::Level => Level::ALL.iter().map(|l| l.id()).collect(),
            Choices::Colour => COLOURS.iter().map(|&c| colour_id(c)).collect(),
            Choices::DrawAnswer => DrawAnswer::ALL.iter().map(|a| a.id()).collect(),
            Choices::Thread => vec![THREAD_YES, THREAD_NO],
            Choices::Opening => OpeningChoice::ALL.iter().map(|o| o.id()).collect(),
            Choices::PuzzlePick => PuzzlePick::ALL.iter().map(|p| p.id()).collect(),
            Choices::LeaderboardType => LEADERBOARD_TYPES.to_vec(),
            Choices::Text => vec![TEXT_YES, TEXT_NO],
        }
    }

    /// The Fluent id of a value's label.
    pub fn label_id(self, value: &str) -> String {
        format!("choice-{}-{value}", self.key())
    }

    /// The value a person meant: the value itself, its label in either language, or one of
    /// the names [`Variant`] and [`Level`] accept (`españolas`, `fácil`…). Case does not
    /// matter.
    pub fn parse(self, text: &str) -> Option<&'static str> {
        let wanted = text.trim().to_lowercase();
        let by_name = match self {
            Choices::Variant => wanted.parse::<Variant>().ok().map(|v| v.id()),
            Choices::Level => wanted.parse::<Level>().ok().map(|l| l.id()),
            Choices::Colour => match wanted.as_str() {
                "w" => Some("white"),
                "b" => Some("black"),
                _ => None,
            },
            Choices::DrawAnswer
            | Choices::Thread
            | Choices::Opening
            | Choices::PuzzlePick
            | Choices::LeaderboardType
            | Choices::Text => None,
        };
        by_name.or_else(|| {
            self.values().into_iter().find(|v| {
                *v == wanted
                    || [Lang::Es, Lang::En]
                        .iter()
                        .any(|&l| t(l, &self.label_id(v)).to_lowercase() == wanted)
            })
        })
    }
}

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A member of the server (in the console: a name).
    User,
    /// Free text; `autocomplete` asks the front end to suggest legal moves.
    Text { autocomplete: bool },
    /// One of a fixed set.
    Choice(Choices),
    /// A whole number within bounds (room for options such as a challenge's days).
    Integer { min: i64, max: i64 },
    /// A file the person attaches (on Discord an attachment; in the console a path). The
    /// front end fetches it and hands over its bytes ([`Upload`]).
    File,
}

#[derive(Debug)]
pub struct OptionSpec {
    /// The name Discord sends (English, lower case); `opt-<name>` is its localized name.
    pub name: &'static str,
    pub kind: OptionKind,
    pub required: bool,
    /// The Fluent id of its description.
    pub description: &'static str,
}

impl OptionSpec {
    pub fn name_id(&self) -> String {
        format!("opt-{}", self.name)
    }

    pub fn localized_name(&self, lang: Lang) -> String {
        t(lang, &self.name_id())
    }
}

#[derive(Debug)]
pub struct CommandSpec {
    pub id: CommandId,
    /// The name Discord registers (English, lower case); `cmd-<name>` is its localized name
    /// and `cmd-<name>-desc` its description.
    pub name: &'static str,
    pub options: &'static [OptionSpec],
}

impl CommandSpec {
    pub fn name_id(&self) -> String {
        format!("cmd-{}", self.name)
    }

    pub fn description_id(&self) -> String {
        format!("cmd-{}-desc", self.name)
    }

    pub fn localized_name(&self, lang: Lang) -> String {
        t(lang, &self.name_id())
    }

    /// An option by its name, in English or in either language's localization.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        let name = name.trim().to_lowercase();
        // `self.options` is 'static: every spec lives in `COMMANDS`.
        let options: &'static [OptionSpec] = self.options;
        options.iter().find(|o| {
            o.name == name
                || [Lang::Es, Lang::En].iter().any(|&l| {
                    let local = o.localized_name(l);
                    local == name || without_accents(&local) == name
                })
        })
    }

    /// `/name option [option]…` in a language, for usage lines.
    pub fn usage(&self, lang: Lang) -> String {
        let mut out = format!("/{}", self.localized_name(lang));
        for o in self.options {
            let name = o.localized_name(lang);
            if o.required {
                out.push_str(&format!(" {name}"));
            } else {
                out.push_str(&format!(" [{name}]"));
            }
        }
        out
    }
}

/// An optional option with fixed choices (most options are).
const fn choice(name: &'static str, choices: Choices, description: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Choice(choices),
        required: false,
        description,
    }
}

const VARIANT: OptionSpec = choice("variant", Choices::Variant, "opt-variant-desc");
const COLOUR: OptionSpec = choice("colour", Choices::Colour, "opt-colour-desc");
const THREAD: OptionSpec = choice("thread", Choices::Thread, "opt-thread-desc");
const LEVEL: OptionSpec = choice("level", Choices::Level, "opt-level-desc");

/// Every command, in the order the help lists them.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        id: CommandId::Challenge,
        name: "challenge",
        options: &[
            OptionSpec {
                name: "opponent",
                kind: OptionKind::User,
                required: true,
                description: "opt-opponent-desc",
            },
            VARIANT,
            COLOUR,
            OptionSpec {
                name: "days",
                kind: OptionKind::Integer {
                    min: *DAYS_PER_MOVE.start(),
                    max: *DAYS_PER_MOVE.end(),
                },
                required: false,
                description: "opt-days-desc",
            },
            THREAD,
            OptionSpec {
                name: "opening",
                kind: OptionKind::Choice(Choices::Opening),
                required: false,
                description: "opt-opening-desc",
            },
        ],
    },
    CommandSpec {
        id: CommandId::Play,
        name: "play",
        options: &[LEVEL, VARIANT, COLOUR, THREAD],
    },
    CommandSpec {
        id: CommandId::Move,
        name: "move",
        options: &[OptionSpec {
            name: "move",
            kind: OptionKind::Text { autocomplete: true },
            required: true,
            description: "opt-move-desc",
        }],
    },
    CommandSpec {
        id: CommandId::Board,
        name: "board",
        options: &[choice("text", Choices::Text, "opt-text-desc")],
    },
    CommandSpec {
        id: CommandId::Resign,
        name: "resign",
        options: &[],
    },
    CommandSpec {
        id: CommandId::Draw,
        name: "draw",
        options: &[OptionSpec {
            name: "answer",
            kind: OptionKind::Choice(Choices::DrawAnswer),
            required: false,
            description: "opt-answer-desc",
        }],
    },
    CommandSpec {
        id: CommandId::Undo,
        name: "undo",
        options: &[],
    },
    CommandSpec {
        id: CommandId::Explain,
        name: "explain",
        options: &[OptionSpec {
            name: "move",
            kind: OptionKind::Text {
                autocomplete: false,
            },
            required: false,
            description: "opt-explain-move-desc",
        }],
    },
    CommandSpec {
        id: CommandId::Rules,
        name: "rules",
        options: &[VARIANT],
    },
    CommandSpec {
        id: CommandId::Stats,
        name: "stats",
        options: &[OptionSpec {
            name: "user",
            kind: OptionKind::User,
            required: false,
            description: "opt-user-desc",
        }],
    },
    CommandSpec {
        id: CommandId::Leaderboard,
        name: "leaderboard",
        options: &[
            VARIANT,
            LEVEL,
            choice("type", Choices::LeaderboardType, "opt-type-desc"),
        ],
    },
    CommandSpec {
        id: CommandId::Pdn,
        name: "pdn",
        options: &[],
    },
    CommandSpec {
        id: CommandId::Help,
        name: "help",
        options: &[],
    },
    CommandSpec {
        id: CommandId::Cancel,
        name: "cancel",
        options: &[],
    },
    CommandSpec {
        id: CommandId::ForgetMe,
        name: "forget-me",
        options: &[],
    },
    CommandSpec {
        id: CommandId::Puzzle,
        name: "puzzle",
        options: &[
            OptionSpec {
                name: "pick",
                kind: OptionKind::Choice(Choices::PuzzlePick),
                required: false,
                description: "opt-pick-desc",
            },
            VARIANT,
        ],
    },
    CommandSpec {
        id: CommandId::Review,
        name: "review",
        options: &[
            OptionSpec {
                name: "game",
                kind: OptionKind::Text {
                    autocomplete: false,
                },
                required: false,
                description: "opt-game-desc",
            },
            OptionSpec {
                name: "file",
                kind: OptionKind::File,
                required: false,
                description: "opt-file-desc",
            },
            OptionSpec {
                name: "number",
                kind: OptionKind::Integer {
                    min: 1,
                    max: MAX_GAME_NUMBER,
                },
                required: false,
                description: "opt-number-desc",
            },
            choice("variant", Choices::Variant, "opt-file-variant-desc"),
        ],
    },
];

/// The largest game number `/review number:` takes (a file of 256 KB holds fewer games).
pub const MAX_GAME_NUMBER: i64 = 100_000;

/// The time limit a challenge may set, in days per move.
pub const DAYS_PER_MOVE: std::ops::RangeInclusive<i64> = 1..=14;

/// A command by its name: the registered English name or its localization in either
/// language (`/desafiar`, `/estadísticas`, and `/estadisticas` without the accent).
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    let name = name.trim().trim_start_matches('/').to_lowercase();
    COMMANDS.iter().find(|c| {
        c.name == name
            || [Lang::Es, Lang::En].iter().any(|&l| {
                let local = c.localized_name(l);
                local == name || without_accents(&local) == name
            })
    })
}

/// Spanish names typed without their accents (`clasificacion`) still find the command.
fn without_accents(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' | 'ü' => 'u',
            c => c,
        })
        .collect()
}

/// An option's value as a front end received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    Text(String),
    User(UserRef),
    Integer(i64),
    File(Upload),
}

/// A file a person attached, as the front end fetched it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// Its name as the person gave it (shown back, never used as a path).
    pub filename: String,
    /// Its bytes, or why the front end could not get them.
    pub content: Result<Vec<u8>, UploadError>,
}

/// Why an attached file's bytes could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadError {
    /// Larger than [`MAX_UPLOAD_BYTES`]: not read further.
    TooBig,
    /// Not where the platform keeps attachments: not fetched at all.
    NotAllowed,
    /// The fetch took longer than allowed.
    TimedOut,
    /// The fetch failed (network, status).
    Failed,
}

/// The most bytes of an attached file read: a PDN file of a few hundred games.
pub const MAX_UPLOAD_BYTES: usize = 256 * 1024;

/// A command with its arguments, keyed by option name, ready for [`App::run_command`].
#[derive(Clone, Debug)]
pub struct Invocation {
    pub command: &'static CommandSpec,
    pub args: Vec<(&'static str, ArgValue)>,
    /// Whether the bot may open public threads where the command was run (on Discord, the
    /// interaction's app permissions; never in the console). Decides the `thread` option's
    /// default.
    pub can_create_threads: bool,
}

impl Invocation {
    pub fn new(command: &'static CommandSpec) -> Invocation {
        Invocation {
            command,
            args: vec![],
            can_create_threads: false,
        }
    }

    fn get(&self, option: &str) -> Option<&ArgValue> {
        self.args.iter().find(|(n, _)| *n == option).map(|(_, v)| v)
    }

    pub fn text(&self, option: &str) -> Option<&str> {
        match self.get(option)? {
            ArgValue::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn user(&self, option: &str) -> Option<&UserRef> {
        match self.get(option)? {
            ArgValue::User(u) => Some(u),
            _ => None,
        }
    }

    pub fn integer(&self, option: &str) -> Option<i64> {
        match self.get(option)? {
            ArgValue::Integer(i) => Some(*i),
            _ => None,
        }
    }

    pub fn file(&self, option: &str) -> Option<&Upload> {
        match self.get(option)? {
            ArgValue::File(u) => Some(u),
            _ => None,
        }
    }

    /// `/review`: what to review — a game played here, or a game of an attached file.
    pub fn review_request(&self) -> ReviewRequest<'_> {
        match self.file("file") {
            Some(upload) => ReviewRequest::File {
                upload,
                number: self.integer("number"),
                variant: self.variant(),
                game_too: self.text("game").is_some_and(|g| !g.trim().is_empty()),
            },
            None => ReviewRequest::Game(self.text("game")),
        }
    }

    fn choice(&self, option: &str, choices: Choices) -> Option<&'static str> {
        self.text(option).and_then(|s| choices.parse(s))
    }

    pub fn variant(&self) -> Option<Variant> {
        self.choice("variant", Choices::Variant)
            .and_then(|v| v.parse().ok())
    }

    pub fn level(&self) -> Option<Level> {
        self.choice("level", Choices::Level)
            .and_then(|v| v.parse().ok())
    }

    pub fn colour(&self) -> Option<Color> {
        let id = self.choice("colour", Choices::Colour)?;
        COLOURS.into_iter().find(|&c| colour_id(c) == id)
    }

    /// Where a new game is played: in a thread when asked (by default, where the bot may
    /// open threads), in the channel otherwise.
    pub fn threading(&self) -> Threading {
        let asked = self.choice("thread", Choices::Thread);
        match (asked, self.can_create_threads) {
            (Some(THREAD_NO), _) => Threading::InChannel,
            (Some(_) | None, true) => Threading::InThread,
            (Some(_), false) => Threading::Unavailable,
            (None, false) => Threading::InChannel,
        }
    }

    pub fn puzzle_pick(&self) -> Option<PuzzlePick> {
        let id = self.choice("pick", Choices::PuzzlePick)?;
        PuzzlePick::ALL.into_iter().find(|p| p.id() == id)
    }

    /// Whether `/leaderboard` asks for the puzzle solvers.
    pub fn puzzles_board(&self) -> bool {
        self.choice("type", Choices::LeaderboardType) == Some("puzzles")
    }

    /// Whether `/board` asks for the board in words.
    pub fn board_as_text(&self) -> bool {
        self.choice("text", Choices::Text) == Some(TEXT_YES)
    }

    pub fn draw_answer(&self) -> Option<DrawAnswer> {
        let id = self.choice("answer", Choices::DrawAnswer)?;
        DrawAnswer::ALL.into_iter().find(|a| a.id() == id)
    }

    pub fn opening(&self) -> Option<OpeningChoice> {
        let id = self.choice("opening", Choices::Opening)?;
        OpeningChoice::ALL.into_iter().find(|o| o.id() == id)
    }
}

/// What `/review` was asked to review.
#[derive(Clone, Copy, Debug)]
pub enum ReviewRequest<'a> {
    /// A game played here: its id, or the channel's game.
    Game(Option<&'a str>),
    /// Game `number` (from 1) of an attached PDN file, as `variant` when given.
    File {
        upload: &'a Upload,
        number: Option<i64>,
        variant: Option<Variant>,
        /// A game id was given as well (one or the other is meant).
        game_too: bool,
    },
}

impl App {
    /// Runs a command from any front end.
    pub async fn run_command(&self, actor: &Actor, place: Place, inv: &Invocation) -> Answer {
        let lang = actor.lang();
        match inv.command.id {
            CommandId::Challenge => match inv.user("opponent") {
                Some(opponent) => {
                    let days = inv
                        .integer("days")
                        .map(|d| d.clamp(*DAYS_PER_MOVE.start(), *DAYS_PER_MOVE.end()) as u32);
                    let terms = super::challenge::Terms {
                        variant: inv.variant(),
                        colour: inv.colour(),
                        move_time_ms: days.map(|d| u64::from(d) * 86_400_000),
                        threading: inv.threading(),
                        opening: inv.opening(),
                        same_opening: None,
                    };
                    self.challenge_on(actor, place, opponent, terms).await
                }
                None => Reply::private(inv.command.usage(lang)).into(),
            },
            CommandId::Play => {
                let (level, variant, colour) = (inv.level(), inv.variant(), inv.colour());
                self.play_bot_in(actor, place, level, variant, colour, inv.threading())
                    .await
            }
            CommandId::Move => {
                let text = inv.text("move").unwrap_or_default();
                if let Some(answer) = self.puzzle_move_for(actor, place, text).await {
                    return answer;
                }
                self.play_move(actor, place, text).await
            }
            CommandId::Board if inv.board_as_text() => self.board_text(actor, place).await,
            CommandId::Board => self.board(actor, place).await,
            CommandId::Resign => self.resign(actor, place).await,
            CommandId::Draw => match inv.draw_answer() {
                None => self.draw(actor, place).await,
                Some(answer) => self.answer_draw(actor, place, answer).await,
            },
            CommandId::Undo => self.undo(actor, place).await,
            CommandId::Explain => self.explain(actor, place, inv.text("move")).await,
            CommandId::Rules => self.rules(actor, inv.variant()),
            CommandId::Stats => self.stats(actor, inv.user("user")),
            CommandId::Leaderboard if inv.puzzles_board() => self.puzzle_leaderboard(actor, place),
            CommandId::Leaderboard => self.leaderboard(actor, place, inv.variant(), inv.level()),
            CommandId::Pdn => self.pdn(actor, place).await,
            CommandId::Help => self.help(actor),
            CommandId::Cancel => self.cancel(actor, place).await,
            CommandId::ForgetMe => self.forget_me(actor, place),
            CommandId::Puzzle => {
                let pick = inv.puzzle_pick().unwrap_or(PuzzlePick::Today);
                self.puzzle(actor, place, pick, inv.variant()).await
            }
            // Front ends that show progress call `App::review_requested` themselves.
            CommandId::Review => {
                self.review_requested(actor, place, inv.review_request(), &|_, _| {})
                    .await
            }
        }
    }
}
