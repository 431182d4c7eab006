//! Every command, described once as a type. `commands!` below turns each entry into a struct
//! whose fields are the command's options, with their types and limits (`Days` is a whole number
//! from 1 to 14, `Option<Level>` an optional choice of the bot's levels…); from the same entry
//! come the table Discord registers ([`COMMANDS`]: names, choices, bounds), the reading of an
//! interaction or a console line ([`Command::read`]) and the dispatch ([`App::run_command`]
//! matches on [`Command`]). The words a person reads (localized names, descriptions, choice
//! labels) live in the Fluent files under ids derived from the names here, checked while
//! compiling: a command, option or choice without its texts does not build.

use super::ballot::OpeningChoice;
use super::i18n::{self, t, Lang};
use super::puzzle::PuzzlePick;
use super::reply::Reply;
use super::tournament::run::{NewTournament, DEFAULT_SWISS_ROUNDS};
use super::tournament::Format;
use super::{Actor, Answer, App, Place, UserRef};
use crate::ai::Level;
use crate::engine::{Color, Variant};

// ---------------------------------------------------------------------------------------------
// Choices

/// A fixed set of values an option offers. Each value's label is the Fluent message
/// `choice-<KEY>-<id>` (checked while compiling by [`choice!`]).
pub trait Choice: Copy + 'static {
    /// The middle of its labels' Fluent ids.
    const KEY: &'static str;
    /// Every value, in display order.
    const ALL: &'static [Self];
    /// The value Discord sends and the console accepts.
    fn id(self) -> &'static str;
    /// Other names a person may type (`españolas`, `fácil`, `w`); ids and labels always work.
    fn other_name(_text: &str) -> Option<Self> {
        None
    }

    /// The Fluent id of a value's label.
    fn label_id(self) -> String {
        label_id(Self::KEY, self.id())
    }

    /// The value a person meant: its id, its label in either language, or another name it
    /// goes by. Case does not matter.
    fn parse(text: &str) -> Option<Self> {
        let wanted = text.trim().to_lowercase();
        Self::other_name(&wanted).or_else(|| {
            Self::ALL.iter().copied().find(|v| {
                v.id() == wanted
                    || [Lang::Es, Lang::En]
                        .iter()
                        .any(|&l| t(l, &v.label_id()).to_lowercase() == wanted)
            })
        })
    }
}

/// The Fluent id of a choice's label: `choice-<key>-<value>` (the compile-time check in
/// [`choice!`] spells the same id in parts).
fn label_id(key: &str, value: &str) -> String {
    format!("choice-{key}-{value}")
}

/// Implements [`Choice`] for a type from its list of values and its `const fn` naming each,
/// and checks while compiling that every value has its label in the Fluent files.
macro_rules! choice {
    ($ty:ty, $key:literal, $all:expr, $id:path $(, other_name: $other:expr)?) => {
        impl Choice for $ty {
            const KEY: &'static str = $key;
            const ALL: &'static [Self] = &$all;
            fn id(self) -> &'static str {
                $id(self)
            }
            $(fn other_name(text: &str) -> Option<Self> {
                ($other)(text)
            })?
        }
        const _: () = {
            let all = $all;
            let mut i = 0;
            while i < all.len() {
                assert!(
                    i18n::has_joined(&["choice-", $key, "-", $id(all[i])]),
                    concat!("a value of ", $key, " has no choice-", $key, "-… label in the Fluent files")
                );
                i += 1;
            }
        };
    };
}

/// Declares a choice of the command table's own: an enum with its ids, and its [`Choice`].
macro_rules! choice_enum {
    ($(#[$doc:meta])* $name:ident, $key:literal, { $($(#[$vdoc:meta])* $variant:ident = $id:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }
        impl $name {
            pub const ALL: [$name; [$($id),+].len()] = [$($name::$variant),+];
            pub const fn id(self) -> &'static str {
                match self {
                    $($name::$variant => $id),+
                }
            }
        }
        choice!($name, $key, $name::ALL, $name::id);
    };
}

choice!(Variant, "variant", Variant::ALL, Variant::id, other_name: |t: &str| t.parse().ok());
choice!(Level, "level", Level::ALL, Level::id, other_name: |t: &str| t.parse().ok());
choice!(Color, "colour", COLOURS, colour_id, other_name: |t: &str| match t {
    "w" => Some(Color::White),
    "b" => Some(Color::Black),
    _ => None,
});
choice!(
    OpeningChoice,
    "opening",
    OpeningChoice::ALL,
    OpeningChoice::id
);
choice!(PuzzlePick, "pick", PuzzlePick::ALL, PuzzlePick::id);

const COLOURS: [Color; 2] = [Color::White, Color::Black];

/// The identifier of a colour in options and choices.
pub const fn colour_id(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

choice_enum!(
    /// The answer given with `/draw answer:…`; without it `/draw` offers, or accepts an offer.
    DrawAnswer, "answer", { Accept = "accept", Decline = "decline" }
);
choice_enum!(
    /// `/play` and `/challenge`'s `thread`: whether a new game gets a thread of its own.
    ThreadWanted, "thread", { Yes = "yes", No = "no" }
);
choice_enum!(
    /// `/board`'s `text`: the board in words instead of a picture.
    BoardInWords, "text", { Yes = "yes", No = "no" }
);
choice_enum!(
    /// `/tournament create`'s `format`: how the rounds are paired.
    TournamentFormat, "format", { Swiss = "swiss", RoundRobin = "round-robin" }
);
choice_enum!(
    /// `/leaderboard`'s `type`: the players of games or the puzzle solvers.
    Ranking, "type", { Games = "games", Puzzles = "puzzles" }
);
choice_enum!(
    /// `/settings`' `language`: the language of the bot's public messages in the server.
    PublicLanguage, "language", { Spanish = "es", English = "en" }
);
choice_enum!(
    /// `/settings`' `reset`: a setting (or all) back to the bot's default.
    SettingName, "setting", {
        Variant = "variant",
        Days = "days",
        Thread = "thread",
        Channels = "channels",
        Role = "role",
        Language = "language",
        All = "all",
    }
);

/// The values of a choice, for front ends that list or read them without knowing its type.
#[derive(Clone, Copy)]
pub struct ChoiceSet {
    /// The middle of its labels' Fluent ids (`choice-<key>-<value>`).
    pub key: &'static str,
    ids: fn() -> Vec<&'static str>,
    parse: fn(&str) -> Option<&'static str>,
}

impl ChoiceSet {
    pub const fn of<C: Choice>() -> ChoiceSet {
        fn ids<C: Choice>() -> Vec<&'static str> {
            C::ALL.iter().map(|v| v.id()).collect()
        }
        fn parse<C: Choice>(text: &str) -> Option<&'static str> {
            C::parse(text).map(C::id)
        }
        ChoiceSet {
            key: C::KEY,
            ids: ids::<C>,
            parse: parse::<C>,
        }
    }

    /// The values sent by Discord and typed in the console, in display order.
    pub fn values(self) -> Vec<&'static str> {
        (self.ids)()
    }

    /// The Fluent id of a value's label.
    pub fn label_id(self, value: &str) -> String {
        label_id(self.key, value)
    }

    /// The value a person meant (see [`Choice::parse`]).
    pub fn parse(self, text: &str) -> Option<&'static str> {
        (self.parse)(text)
    }
}

impl std::fmt::Debug for ChoiceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChoiceSet({})", self.key)
    }
}

impl PartialEq for ChoiceSet {
    fn eq(&self, other: &ChoiceSet) -> bool {
        self.key == other.key
    }
}

// ---------------------------------------------------------------------------------------------
// Options: the types a command's fields may have

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    /// A member of the server (in the console: a name).
    User,
    /// Free text; `autocomplete` asks the front end to suggest legal moves.
    Text { autocomplete: bool },
    /// One of a fixed set.
    Choice(ChoiceSet),
    /// A whole number within bounds.
    Integer { min: i64, max: i64 },
    /// A file the person attaches (on Discord an attachment; in the console a path). The
    /// front end fetches it and hands over its bytes ([`Upload`]).
    File,
    /// A text channel of the server (in the console: its id).
    Channel,
    /// A role of the server (in the console: its id).
    Role,
}

/// A type an option's value can have.
pub trait OptionValue: Sized {
    const KIND: OptionKind;
    /// The value from what a front end received; `None` when it is not one.
    fn from_arg(arg: &ArgValue) -> Option<Self>;
}

impl<C: Choice> OptionValue for C {
    const KIND: OptionKind = OptionKind::Choice(ChoiceSet::of::<C>());
    fn from_arg(arg: &ArgValue) -> Option<C> {
        match arg {
            ArgValue::Text(s) => C::parse(s),
            _ => None,
        }
    }
}

impl OptionValue for UserRef {
    const KIND: OptionKind = OptionKind::User;
    fn from_arg(arg: &ArgValue) -> Option<UserRef> {
        match arg {
            ArgValue::User(u) => Some(u.clone()),
            _ => None,
        }
    }
}

/// Free text.
impl OptionValue for String {
    const KIND: OptionKind = OptionKind::Text {
        autocomplete: false,
    };
    fn from_arg(arg: &ArgValue) -> Option<String> {
        match arg {
            ArgValue::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

/// A move as typed (`11-15`, `22x15`), the legal moves offered as it is typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText(pub String);

impl OptionValue for MoveText {
    const KIND: OptionKind = OptionKind::Text { autocomplete: true };
    fn from_arg(arg: &ArgValue) -> Option<MoveText> {
        String::from_arg(arg).map(MoveText)
    }
}

impl OptionValue for Upload {
    const KIND: OptionKind = OptionKind::File;
    fn from_arg(arg: &ArgValue) -> Option<Upload> {
        match arg {
            ArgValue::File(u) => Some(u.clone()),
            _ => None,
        }
    }
}

/// A channel of the server, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelRef(pub u64);

impl OptionValue for ChannelRef {
    const KIND: OptionKind = OptionKind::Channel;
    fn from_arg(arg: &ArgValue) -> Option<ChannelRef> {
        match arg {
            ArgValue::Channel(id) => Some(ChannelRef(*id)),
            _ => None,
        }
    }
}

/// A role of the server, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleRef(pub u64);

impl OptionValue for RoleRef {
    const KIND: OptionKind = OptionKind::Role;
    fn from_arg(arg: &ArgValue) -> Option<RoleRef> {
        match arg {
            ArgValue::Role(id) => Some(RoleRef(*id)),
            _ => None,
        }
    }
}

/// A whole number from `MIN` to `MAX`. Discord and the console refuse others; one sent by an
/// older registration with other bounds is brought within them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounded<const MIN: i64, const MAX: i64>(i64);

impl<const MIN: i64, const MAX: i64> Bounded<MIN, MAX> {
    pub const RANGE: std::ops::RangeInclusive<i64> = MIN..=MAX;

    pub fn get(self) -> i64 {
        self.0
    }
}

impl<const MIN: i64, const MAX: i64> OptionValue for Bounded<MIN, MAX> {
    const KIND: OptionKind = OptionKind::Integer { min: MIN, max: MAX };
    fn from_arg(arg: &ArgValue) -> Option<Self> {
        match arg {
            ArgValue::Integer(i) => Some(Bounded((*i).clamp(MIN, MAX))),
            _ => None,
        }
    }
}

/// The time limit a challenge may set, in days per move.
pub type Days = Bounded<1, 14>;

/// A Swiss tournament's rounds.
pub type Rounds = Bounded<1, 15>;

/// A round of a tournament, from 1.
pub type RoundNumber = Bounded<1, 63>;

/// A game's number in a PDN file, from 1 (a file of 256 KB holds fewer games than the most).
pub type GameNumber = Bounded<1, 100_000>;

/// A command's field: an option's value (required) or `Option` of one (optional).
pub trait OptionField: Sized {
    const KIND: OptionKind;
    const REQUIRED: bool;
    /// The field from the option's value, if given; `None` when a required option is missing.
    fn take(arg: Option<&ArgValue>) -> Option<Self>;
}

impl<T: OptionValue> OptionField for Option<T> {
    const KIND: OptionKind = T::KIND;
    const REQUIRED: bool = false;
    fn take(arg: Option<&ArgValue>) -> Option<Option<T>> {
        Some(arg.and_then(T::from_arg))
    }
}

/// The types a required option may have.
macro_rules! required {
    ($($ty:ty),*) => {$(
        impl OptionField for $ty {
            const KIND: OptionKind = <$ty as OptionValue>::KIND;
            const REQUIRED: bool = true;
            fn take(arg: Option<&ArgValue>) -> Option<$ty> {
                arg.and_then(<$ty as OptionValue>::from_arg)
            }
        }
    )*};
}
required!(UserRef, MoveText, String);

// ---------------------------------------------------------------------------------------------
// The table

#[derive(Debug)]
pub struct OptionSpec {
    /// The name Discord sends (English, lower case); `opt-<name>` is its localized name.
    pub name: &'static str,
    pub kind: OptionKind,
    pub required: bool,
    /// Its description.
    pub description: i18n::Msg<'static>,
}

impl OptionSpec {
    pub fn name_id(&self) -> String {
        format!("opt-{}", self.name)
    }

    pub fn localized_name(&self, lang: Lang) -> String {
        t(lang, &self.name_id())
    }
}

/// Where a command can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Registered on Discord and typed in the console.
    Everywhere,
    /// Only typed in the console, for what Discord does with buttons and menus.
    Console,
}

#[derive(Debug)]
pub struct CommandSpec {
    pub id: CommandId,
    /// The name Discord registers (English, lower case): the command's, or the subcommand's
    /// within its [`group`](CommandSpec::group).
    pub name: &'static str,
    /// The command this one is a subcommand of (`tournament` for `/tournament create`),
    /// registered on Discord as one command with a SUB_COMMAND option per member.
    pub group: Option<&'static str>,
    /// The middle of its Fluent ids: `cmd-<key>` is its localized name and `cmd-<key>-desc`
    /// its description (`tournament-create` for a subcommand, the name otherwise).
    pub key: &'static str,
    pub surface: Surface,
    /// Short names the console also accepts (`/m` for `/move`).
    pub aliases: &'static [&'static str],
    pub options: &'static [OptionSpec],
}

impl CommandSpec {
    pub fn name_id(&self) -> String {
        format!("cmd-{}", self.key)
    }

    pub fn description_id(&self) -> String {
        format!("cmd-{}-desc", self.key)
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

    /// `/name option [option]…` (`/group name option…` for a subcommand) in a language, for
    /// usage lines.
    pub fn usage(&self, lang: Lang) -> String {
        let mut out = match self.group {
            Some(group) => format!(
                "/{} {}",
                t(lang, &group_name_id(group)),
                self.localized_name(lang)
            ),
            None => format!("/{}", self.localized_name(lang)),
        };
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

/// The Fluent id of a group of subcommands' localized name (`cmd-tournament`); its
/// description is that id with `-desc`.
pub fn group_name_id(group: &str) -> String {
    format!("cmd-{group}")
}

/// A spec's registered name and group from the entry's one or two names.
macro_rules! spec_name {
    ($name:literal) => {
        $name
    };
    ($group:literal $sub:literal) => {
        $sub
    };
}
macro_rules! spec_group {
    ($name:literal) => {
        None
    };
    ($group:literal $sub:literal) => {
        Some($group)
    };
}

/// An option's name: the field's, or the one given with `as` (`mv as "move"`).
macro_rules! option_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident $name:literal) => {
        $name
    };
}

/// An option's description id: `opt-<name>-desc`, or the one given after `=>`.
macro_rules! option_description {
    ([$($name:tt)+]) => {
        concat!("opt-", option_name!($($name)+), "-desc")
    };
    ([$($name:tt)+] $desc:literal) => {
        $desc
    };
}

/// The command table. Each entry: the variant, the registered name, where it is used, the
/// console's short names, and its options as fields (`name: Type`, `field as "name": Type`,
/// `=> "description-id"` where one option name serves two commands with different
/// descriptions). A required option's type is the value's; an optional one's is `Option` of it.
/// A subcommand gives its group's name, then its own (`"tournament" "create"`).
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $id:ident $name:literal $($sub:literal)? $surface:ident [$($alias:literal),*] {
            $($field:ident $(as $oname:literal)? : $ty:ty $(=> $desc:literal)?),* $(,)?
        }
    )*) => {
        /// What a command does (the dispatch matches on [`Command`]; this names it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum CommandId {
            $($(#[doc = $doc])* $id),*
        }

        $(
            $(#[doc = $doc])*
            #[derive(Clone, Debug)]
            pub struct $id {
                $(pub $field: $ty),*
            }
        )*

        /// A command with its options read and typed.
        #[derive(Clone, Debug)]
        pub enum Command {
            $($id($id)),*
        }

        /// Every command, in the order the help lists them.
        pub static COMMANDS: &[CommandSpec] = &[$(
            CommandSpec {
                id: CommandId::$id,
                name: spec_name!($name $($sub)?),
                group: spec_group!($name $($sub)?),
                key: concat!($name $(, "-", $sub)?),
                surface: Surface::$surface,
                aliases: &[$($alias),*],
                options: &[$(
                    OptionSpec {
                        name: option_name!($field $($oname)?),
                        kind: <$ty as OptionField>::KIND,
                        required: <$ty as OptionField>::REQUIRED,
                        description: i18n::Msg::checked(option_description!([$field $($oname)?] $($desc)?)),
                    }
                ),*],
            }
        ),*];

        // Every name, description and option has its words in the Fluent files.
        $(
            const _: () = assert!(
                i18n::has(concat!("cmd-", $name)) && i18n::has(concat!("cmd-", $name, "-desc")),
                concat!("/", $name, " needs cmd-", $name, " and cmd-", $name, "-desc in the Fluent files")
            );
            $(
                const _: () = assert!(
                    i18n::has(concat!("cmd-", $name, "-", $sub))
                        && i18n::has(concat!("cmd-", $name, "-", $sub, "-desc")),
                    concat!("/", $name, " ", $sub, " needs cmd-", $name, "-", $sub, " and its -desc in the Fluent files")
                );
            )?
            $(
                const _: () = assert!(
                    i18n::has(concat!("opt-", option_name!($field $($oname)?))),
                    concat!("/", $name, "'s option ", option_name!($field $($oname)?), " needs its name in the Fluent files")
                );
            )*
        )*

        impl Command {
            /// Which command this is.
            pub fn id(&self) -> CommandId {
                match self {
                    $(Command::$id(_) => CommandId::$id),*
                }
            }

            /// The command an invocation asks for, its options typed; `None` when a required
            /// option is missing or not of its type.
            pub fn read(inv: &Invocation) -> Option<Command> {
                Some(match inv.command.id {
                    $(CommandId::$id => Command::$id($id {
                        $($field: <$ty as OptionField>::take(inv.get(option_name!($field $($oname)?)))?),*
                    })),*
                })
            }
        }
    };
}

commands! {
    /// Challenge someone to a game.
    Challenge "challenge" Everywhere [] {
        opponent: UserRef,
        variant: Option<Variant>,
        colour: Option<Color>,
        days: Option<Days>,
        thread: Option<ThreadWanted>,
        opening: Option<OpeningChoice>,
    }
    /// Play the bot.
    Play "play" Everywhere [] {
        level: Option<Level>,
        variant: Option<Variant>,
        colour: Option<Color>,
        thread: Option<ThreadWanted>,
    }
    Move "move" Everywhere ["m"] {
        mv as "move": MoveText,
    }
    Board "board" Everywhere [] {
        text: Option<BoardInWords>,
    }
    Resign "resign" Everywhere [] {}
    Draw "draw" Everywhere [] {
        answer: Option<DrawAnswer>,
    }
    Undo "undo" Everywhere [] {}
    Explain "explain" Everywhere [] {
        mv as "move": Option<String> => "opt-explain-move-desc",
    }
    Rules "rules" Everywhere [] {
        variant: Option<Variant>,
    }
    Stats "stats" Everywhere [] {
        user: Option<UserRef>,
    }
    Leaderboard "leaderboard" Everywhere [] {
        variant: Option<Variant>,
        level: Option<Level>,
        ranking as "type": Option<Ranking>,
    }
    Pdn "pdn" Everywhere [] {}
    Help "help" Everywhere [] {}
    Cancel "cancel" Everywhere [] {}
    ForgetMe "forget-me" Everywhere [] {}
    /// Everything the bot keeps about the caller, as a file only they see.
    MyData "my-data" Everywhere [] {}
    Puzzle "puzzle" Everywhere [] {
        pick: Option<PuzzlePick>,
        variant: Option<Variant>,
    }
    Review "review" Everywhere [] {
        game: Option<String>,
        file: Option<Upload>,
        number: Option<GameNumber>,
        variant: Option<Variant> => "opt-file-variant-desc",
    }
    /// A tournament taking entries in this channel.
    TournamentCreate "tournament" "create" Everywhere [] {
        name: String,
        variant: Option<Variant>,
        format: Option<TournamentFormat>,
        rounds: Option<Rounds>,
        days: Option<Days>,
        start: Option<String>,
        opening: Option<OpeningChoice>,
    }
    TournamentJoin "tournament" "join" Everywhere [] {}
    TournamentLeave "tournament" "leave" Everywhere [] {}
    TournamentStart "tournament" "start" Everywhere [] {}
    TournamentStandings "tournament" "standings" Everywhere [] {
        tournament: Option<String>,
    }
    TournamentPairings "tournament" "pairings" Everywhere [] {
        round: Option<RoundNumber>,
        tournament: Option<String>,
    }
    TournamentWithdraw "tournament" "withdraw" Everywhere [] {
        player: UserRef,
    }
    TournamentCancel "tournament" "cancel" Everywhere [] {}
    TournamentPdn "tournament" "pdn" Everywhere [] {
        tournament: Option<String>,
    }
    /// The server's settings: shown without options, changed with them.
    Settings "settings" Everywhere [] {
        variant: Option<Variant> => "opt-settings-variant-desc",
        days: Option<Days> => "opt-settings-days-desc",
        thread: Option<ThreadWanted> => "opt-settings-thread-desc",
        channel_add as "add-channel": Option<ChannelRef>,
        channel_remove as "remove-channel": Option<ChannelRef>,
        role: Option<RoleRef>,
        language: Option<PublicLanguage>,
        reset: Option<SettingName>,
    }
    /// The challenge's Accept button, at the keyboard.
    Accept "accept" Console [] {}
    /// The challenge's Decline button, at the keyboard.
    Decline "decline" Console [] {}
    /// The legal moves starting with what follows (Discord's autocomplete, at the keyboard).
    Moves "moves" Console [] {
        from: Option<String>,
    }
    /// Leave the console.
    Quit "quit" Console ["exit"] {}
}

/// Where a command can be used: in a server's channels only, or also in private
/// conversations (on Discord: a direct message with the bot, and the direct and group
/// messages between friends where a person installed the app for themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Only in a server: it reads or changes what belongs to a server (its tournaments, its
    /// leaderboards, its moderators' work, its settings).
    Server,
    /// In a server and in private conversations: it needs no more than the channel's game
    /// and the person who acts.
    Anywhere,
}

impl CommandId {
    /// Where the command can be used (registered on Discord as its `contexts`, and checked
    /// again by [`App::run`], since an older registration may still offer it elsewhere).
    pub const fn reach(self) -> Reach {
        match self {
            CommandId::Challenge
            | CommandId::Play
            | CommandId::Move
            | CommandId::Board
            | CommandId::Resign
            | CommandId::Draw
            | CommandId::Undo
            | CommandId::Explain
            | CommandId::Rules
            | CommandId::Stats
            | CommandId::Pdn
            | CommandId::Help
            | CommandId::ForgetMe
            | CommandId::MyData
            | CommandId::Puzzle
            | CommandId::Review => Reach::Anywhere,
            CommandId::Leaderboard
            | CommandId::Cancel
            | CommandId::Settings
            | CommandId::TournamentCreate
            | CommandId::TournamentJoin
            | CommandId::TournamentLeave
            | CommandId::TournamentStart
            | CommandId::TournamentStandings
            | CommandId::TournamentPairings
            | CommandId::TournamentWithdraw
            | CommandId::TournamentCancel
            | CommandId::TournamentPdn => Reach::Server,
            // The console's own: it has no servers.
            CommandId::Accept | CommandId::Decline | CommandId::Moves | CommandId::Quit => {
                Reach::Anywhere
            }
        }
    }
}

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

impl Threading {
    /// In a thread when asked (by default, where the bot may open threads), in the channel
    /// otherwise.
    pub fn new(asked: Option<ThreadWanted>, can_create_threads: bool) -> Threading {
        Threading::with_default(asked, true, can_create_threads)
    }

    /// As [`Threading::new`], with the server's default for a command that does not say
    /// (`/settings thread`). A default the bot cannot follow here (inside a thread, say) is
    /// no request: the game is played in the channel without a word about it.
    pub fn with_default(
        asked: Option<ThreadWanted>,
        threads_by_default: bool,
        can_create_threads: bool,
    ) -> Threading {
        match (asked, can_create_threads) {
            (Some(ThreadWanted::No), _) => Threading::InChannel,
            (Some(ThreadWanted::Yes), true) => Threading::InThread,
            (None, true) if threads_by_default => Threading::InThread,
            (Some(ThreadWanted::Yes), false) => Threading::Unavailable,
            (None, _) => Threading::InChannel,
        }
    }
}

/// Who may use a command, beyond everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    /// Every member.
    Everyone,
    /// Members with Manage Messages, or the server's organiser role (`/settings role`).
    ManageMessagesOrOrganiser,
    /// Members with Manage Events, the server's organiser role, or the tournament's creator.
    ManageEventsOrOrganiser,
    /// Members with Manage Server.
    ManageServer,
}

impl CommandId {
    /// Who may use the command. Discord is told with the command's default member
    /// permissions (a default each server may change), and the app checks again.
    pub const fn permission(self) -> Permission {
        match self {
            CommandId::Cancel => Permission::ManageMessagesOrOrganiser,
            CommandId::TournamentStart
            | CommandId::TournamentWithdraw
            | CommandId::TournamentCancel => Permission::ManageEventsOrOrganiser,
            CommandId::Settings => Permission::ManageServer,
            // Anyone may create a tournament (and organise it) unless the server named an
            // organiser role: then only that role and Manage Events (checked by the app).
            CommandId::TournamentCreate
            | CommandId::Challenge
            | CommandId::Play
            | CommandId::Move
            | CommandId::Board
            | CommandId::Resign
            | CommandId::Draw
            | CommandId::Undo
            | CommandId::Explain
            | CommandId::Rules
            | CommandId::Stats
            | CommandId::Leaderboard
            | CommandId::Pdn
            | CommandId::Help
            | CommandId::ForgetMe
            | CommandId::MyData
            | CommandId::Puzzle
            | CommandId::Review
            | CommandId::TournamentJoin
            | CommandId::TournamentLeave
            | CommandId::TournamentStandings
            | CommandId::TournamentPairings
            | CommandId::TournamentPdn
            | CommandId::Accept
            | CommandId::Decline
            | CommandId::Moves
            | CommandId::Quit => Permission::Everyone,
        }
    }
}

/// A command by its name: the registered English name or its localization in either
/// language (`/desafiar`, `/estadísticas`, and `/estadisticas` without the accent). Not a
/// subcommand: see [`find_group`] and [`find_in_group`].
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    let name = name.trim().trim_start_matches('/').to_lowercase();
    COMMANDS.iter().filter(|c| c.group.is_none()).find(|c| {
        c.name == name || c.aliases.contains(&name.as_str()) || names_match(&c.name_id(), &name)
    })
}

/// A group of subcommands by its name in English or either language (`/torneo`): its
/// registered name.
pub fn find_group(name: &str) -> Option<&'static str> {
    let name = name.trim().trim_start_matches('/').to_lowercase();
    groups().find(|&g| g == name || names_match(&group_name_id(g), &name))
}

/// A subcommand of `group` by its name in English or either language.
pub fn find_in_group(group: &str, name: &str) -> Option<&'static CommandSpec> {
    let name = name.trim().to_lowercase();
    COMMANDS
        .iter()
        .filter(|c| c.group == Some(group))
        .find(|c| c.name == name || names_match(&c.name_id(), &name))
}

/// Every group of subcommands, each once, in the table's order.
pub fn groups() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().enumerate().filter_map(|(i, c)| {
        let g = c.group?;
        (!COMMANDS[..i].iter().any(|o| o.group == Some(g))).then_some(g)
    })
}

/// Whether `name` (lower case) is the message `id` in either language, with or without its
/// accents.
fn names_match(id: &str, name: &str) -> bool {
    [Lang::Es, Lang::En].iter().any(|&l| {
        let local = t(l, &id.to_owned());
        local == name || without_accents(&local) == name
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
    /// A channel's id.
    Channel(u64),
    /// A role's id.
    Role(u64),
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

/// A command with its arguments as a front end received them, keyed by option name; read
/// into a [`Command`] by [`Command::read`].
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

impl Review {
    /// What to review — a game played here, or a game of an attached file.
    pub fn request(&self) -> ReviewRequest<'_> {
        match &self.file {
            Some(upload) => ReviewRequest::File {
                upload,
                number: self.number.map(GameNumber::get),
                variant: self.variant,
                game_too: self.game.as_ref().is_some_and(|g| !g.trim().is_empty()),
            },
            None => ReviewRequest::Game(self.game.as_deref()),
        }
    }
}

impl App {
    /// Runs a command from any front end: reads it against the table, then does it. A
    /// required option missing gets the command's usage, privately.
    pub async fn run_command(&self, actor: &Actor, place: Place, inv: &Invocation) -> Answer {
        match Command::read(inv) {
            Some(command) => {
                self.run(actor, place, command, inv.can_create_threads)
                    .await
            }
            None => Reply::private(inv.command.usage(actor.lang())).into(),
        }
    }

    /// Does a command. `can_create_threads`: see [`Invocation::can_create_threads`].
    ///
    /// In a server, its settings (`/settings`) come first: a game or tournament starts only in
    /// its game channels, what the command leaves out is the server's default, and what the
    /// whole channel reads is in the server's language. A refusal changes nothing (every
    /// use case checks before it writes), so one worded in the server's language is asked
    /// again in the member's own: it is shown to them alone.
    pub async fn run(
        &self,
        actor: &Actor,
        place: Place,
        command: Command,
        can_create_threads: bool,
    ) -> Answer {
        let id = command.id();
        if place.guild_id.is_none() && id.reach() == Reach::Server {
            return needs_server(actor.lang());
        }
        use super::server_settings::{speaks_in_public, starts_something};
        let lang = actor.lang();
        let server = match self.server_settings(place.guild_id) {
            Ok(s) => s,
            Err(e) => return super::storage_failed(lang, &e).into(),
        };
        if starts_something(id) {
            if let Some(refusal) = self.start_refused(lang, place, &server) {
                return refusal.into();
            }
        }
        let server = &server;
        self.in_server_language(actor, server, speaks_in_public(id), |speaker| {
            let command = command.clone();
            async move {
                self.dispatch(&speaker, place, command, can_create_threads, server)
                    .await
            }
        })
        .await
    }

    /// Does a command with the server's settings.
    async fn dispatch(
        &self,
        actor: &Actor,
        place: Place,
        command: Command,
        can_create_threads: bool,
        server: &crate::store::ServerSettings,
    ) -> Answer {
        let threads_by_default = server.threads.value.unwrap_or(true);
        let server_days = server
            .days_per_move
            .value
            .map(|d| u64::from(d) * 86_400_000);
        let server_variant = server.variant.value;
        match command {
            Command::Challenge(c) => {
                // A ballot implies English draughts: the server's variant is not its default.
                let variant = match c.opening {
                    Some(OpeningChoice::Ballot) => c.variant,
                    _ => c.variant.or(server_variant),
                };
                let terms = super::challenge::Terms {
                    variant,
                    colour: c.colour,
                    move_time_ms: c.days.map(|d| d.get() as u64 * 86_400_000).or(server_days),
                    threading: Threading::with_default(
                        c.thread,
                        threads_by_default,
                        can_create_threads,
                    ),
                    opening: c.opening,
                    same_opening: None,
                };
                self.challenge_on(actor, place, &c.opponent, terms).await
            }
            Command::Play(p) => {
                let threading =
                    Threading::with_default(p.thread, threads_by_default, can_create_threads);
                let variant = p.variant.or(server_variant);
                self.play_bot_in(actor, place, p.level, variant, p.colour, threading)
                    .await
            }
            Command::Move(Move { mv: MoveText(text) }) => {
                self.move_command(actor, place, &text).await
            }
            Command::Board(Board {
                text: Some(BoardInWords::Yes),
            }) => self.board_text(actor, place).await,
            Command::Board(_) => self.board(actor, place).await,
            Command::Resign(_) => self.resign(actor, place).await,
            Command::Draw(Draw { answer: None }) => self.draw(actor, place).await,
            Command::Draw(Draw {
                answer: Some(answer),
            }) => self.answer_draw(actor, place, answer).await,
            Command::Undo(_) => self.undo(actor, place).await,
            Command::Explain(e) => self.explain(actor, place, e.mv.as_deref()).await,
            Command::Rules(r) => self.rules(actor, r.variant.or(server_variant)),
            Command::Stats(s) => self.stats(actor, s.user.as_ref()),
            Command::Leaderboard(Leaderboard {
                ranking: Some(Ranking::Puzzles),
                ..
            }) => self.puzzle_leaderboard(actor, place),
            Command::Leaderboard(l) => {
                self.leaderboard(actor, place, l.variant.or(server_variant), l.level)
            }
            Command::Pdn(_) => self.pdn(actor, place).await,
            Command::Help(_) => self.help(actor),
            Command::Cancel(_) => self.cancel(actor, place).await,
            Command::ForgetMe(_) => self.forget_me(actor, place),
            Command::MyData(_) => self.my_data(actor),
            Command::Puzzle(p) => {
                let pick = p.pick.unwrap_or(PuzzlePick::Today);
                self.puzzle(actor, place, pick, p.variant.or(server_variant))
                    .await
            }
            // Front ends that show progress call `App::review_requested` themselves.
            Command::Review(r) => {
                self.review_requested(actor, place, r.request(), &|_, _| {})
                    .await
            }
            Command::Accept(_) => self.answer_challenge_here(actor, place, true).await,
            Command::Decline(_) => self.answer_challenge_here(actor, place, false).await,
            Command::Moves(m) => {
                let moves = self
                    .autocomplete_move(place, m.from.as_deref().unwrap_or(""))
                    .await;
                let lang = actor.lang();
                let text = if moves.is_empty() {
                    t(lang, i18n::fl!("moves-none"))
                } else {
                    moves.join(", ")
                };
                Reply::private(text).into()
            }
            Command::TournamentCreate(c) => {
                if let Some(refusal) = self.tournament_create_refused(actor.lang(), actor, server) {
                    return refusal.into();
                }
                let format = match c.format.unwrap_or(TournamentFormat::Swiss) {
                    TournamentFormat::Swiss => Format::Swiss {
                        rounds: c.rounds.map_or(DEFAULT_SWISS_ROUNDS, |r| r.get() as u8),
                    },
                    TournamentFormat::RoundRobin => Format::RoundRobin,
                };
                let new = NewTournament {
                    name: c.name,
                    variant: match c.opening {
                        Some(OpeningChoice::Ballot) => c.variant,
                        _ => c.variant.or(server_variant),
                    }
                    .unwrap_or_default(),
                    format,
                    move_time_ms: c
                        .days
                        .map(|d| d.get() as u64 * 86_400_000)
                        .or(server_days)
                        .unwrap_or(self.settings.move_time.as_millis() as u64),
                    ballot: c.opening == Some(OpeningChoice::Ballot),
                    start: c.start,
                };
                self.tournament_create(actor, place, new).await
            }
            Command::TournamentJoin(_) => self.tournament_join(actor, place).await,
            Command::TournamentLeave(_) => self.tournament_leave(actor, place).await,
            Command::TournamentStart(_) => self.tournament_start(actor, place).await,
            Command::TournamentStandings(c) => {
                self.tournament_standings(actor, place, c.tournament.as_deref())
            }
            Command::TournamentPairings(c) => self.tournament_pairings(
                actor,
                place,
                c.round.map(|r| r.get() as u8),
                c.tournament.as_deref(),
            ),
            Command::TournamentWithdraw(c) => {
                self.tournament_withdraw(actor, place, &c.player).await
            }
            Command::TournamentCancel(_) => self.tournament_cancel(actor, place).await,
            Command::TournamentPdn(c) => self.tournament_pdn(actor, place, c.tournament.as_deref()),
            Command::Settings(c) => self.settings_command(actor, place, &c).await,
            // The front end leaves before asking (the console): nothing to do here.
            Command::Quit(_) => Answer::default(),
        }
    }
}

/// The refusal of a command that works only in a server, used elsewhere.
fn needs_server(lang: Lang) -> Answer {
    Reply::refusal(t(lang, i18n::fl!("err-needs-server"))).into()
}
