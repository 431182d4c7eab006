//! What any front end can show: text, a board picture, buttons, a menu, files; public or
//! private. The Discord adapter and the console turn these into their own forms.
//!
//! Text a person wrote (display names, typed moves, PDN tags) is marked inside a reply's text
//! and title ([`UserText`]), so that each front end shows it as typed: the Discord adapter
//! escapes its markdown, the console prints it as it is.

use std::borrow::Cow;
use std::fmt;

/// Where text a person wrote starts and ends inside a reply's words: two of Unicode's
/// noncharacters, which it sets aside for a program's own use and never assigns.
const USER_START: char = '\u{FDD0}';
const USER_END: char = '\u{FDD1}';

/// Text a person wrote (a display name, a typed move, a tag of an attached file), to be put
/// in a message the bot words: displayed, it is the text marked as theirs, which
/// [`user_parts`] finds again. Marks inside the text itself are dropped, so typed text can
/// never end its own marking early.
#[derive(Clone, Copy, Debug)]
pub struct UserText<'a>(pub &'a str);

impl fmt::Display for UserText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(USER_START)?;
        for c in self.0.chars().filter(|&c| c != USER_START && c != USER_END) {
            f.write_char(c)?;
        }
        f.write_char(USER_END)
    }
}

/// Unicode's explicit bidirectional controls (embeddings, overrides, isolates): inside a
/// name they would reorder the words around it, so names are shown without them.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A reply's text in order, as (part, whether a person wrote it), the marks left out. A
/// mark left open (the text was cut) runs to the end.
pub fn user_parts(text: &str) -> Vec<(&str, bool)> {
    let mut parts = Vec::new();
    let mut rest = text;
    let mut theirs = false;
    while !rest.is_empty() {
        let mark = if theirs { USER_END } else { USER_START };
        let (part, after) = match rest.find(mark) {
            Some(i) => (&rest[..i], &rest[i + mark.len_utf8()..]),
            None => (rest, ""),
        };
        if !part.is_empty() {
            parts.push((part, theirs));
        }
        rest = after;
        theirs = !theirs;
    }
    parts
}

/// The text as shown where nothing is markup (the console, pictures, thread names, files):
/// what a person wrote, as they wrote it, without the marks.
pub fn plain(text: &str) -> Cow<'_, str> {
    if text.contains([USER_START, USER_END]) {
        Cow::Owned(text.replace([USER_START, USER_END], ""))
    } else {
        Cow::Borrowed(text)
    }
}

/// The text with each part a person wrote passed through `shown` (the others as they are)
/// and the marks gone: how a front end that has markup shows a reply's words.
pub fn show_user_text(text: &str, shown: impl Fn(&str) -> String) -> String {
    user_parts(text)
        .into_iter()
        .map(|(part, theirs)| {
            let part = plain(part);
            if theirs {
                Cow::Owned(shown(&part))
            } else {
                part
            }
        })
        .collect()
}

/// Who sees a reply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visibility {
    /// Everyone in the channel.
    Public,
    /// Only the person who acted (an ephemeral message on Discord).
    Private,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Button {
    /// Component id, `damas:<action>:<channel>:<ply>[:<arg>]`.
    pub id: String,
    pub label: String,
    pub style: ButtonStyle,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MenuOption {
    pub label: String,
    pub value: String,
    pub description: Option<String>,
}

/// A choice of one option, however many there are. Each front end shows it within its own
/// limits: the console lists every option; Discord, whose select menus are short, shows one
/// menu when the options fit, else a menu of the [`Menu::groups`] first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Menu {
    /// The component id a pick among [`Menu::options`] comes back with.
    pub id: String,
    pub placeholder: String,
    pub options: Vec<MenuOption>,
    /// The options sorted into groups (the moves by the piece that makes them), for a front
    /// end that cannot show them all at once.
    pub groups: Option<MenuGroups>,
}

/// Choosing a group before an option: a pick among [`MenuGroups::groups`] comes back with
/// [`MenuGroups::id`], and the app answers it with a [`Menu`] of that group's options.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MenuGroups {
    pub id: String,
    pub placeholder: String,
    pub groups: Vec<MenuOption>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Attachment {
    pub filename: String,
    pub bytes: Vec<u8>,
    /// What the file shows, in words, when it is a picture (see [`Picture::description`]).
    pub description: Option<String>,
}

/// The most characters a picture's description has: alt text is read aloud, so it stays
/// short (Discord refuses an attachment description longer than this).
pub const PICTURE_DESCRIPTION_LIMIT: usize = 1024;

/// A picture (PNG) with what it shows in words, for whoever cannot see it: a screen reader
/// reads the description (Discord's attachment description; the console prints it with
/// `--text-boards`; `/board text` gives a board's).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Picture {
    pub png: Vec<u8>,
    /// At most [`PICTURE_DESCRIPTION_LIMIT`] characters, in the reader's language.
    pub description: String,
}

/// One message to show.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reply {
    pub visibility: Visibility,
    /// A short heading (the embed title on Discord).
    pub title: Option<String>,
    pub text: String,
    /// The board picture (or another: a review's chart), shown as the embed image.
    pub image: Option<Picture>,
    pub buttons: Vec<Button>,
    pub menu: Option<Menu>,
    /// Other files, e.g. a `.pdn`.
    pub files: Vec<Attachment>,
    /// The channel whose board this is, when the reply is a board: the front end reports the
    /// posted message's id back with [`crate::app::App::board_posted`].
    pub board_of: Option<BoardRef>,
    /// The challenge this message shows: the front end reports the posted message's id back
    /// with [`crate::app::App::challenge_posted`], so that it can be edited when it expires.
    pub challenge_of: Option<ChallengeRef>,
    /// The users this message should notify (the challenged friend, the person to move, the
    /// players of a tournament's round), each once; the front end mentions them in its own
    /// way and notifies nobody else.
    pub mention: Vec<u64>,
    /// Post this message in that channel rather than where the person acted (a game's first
    /// board in its new thread, a thread's line in the channel it was opened in).
    pub channel: Option<u64>,
    /// The channel (a game's thread) this message points to: the front end adds its own link.
    pub links_to: Option<u64>,
    /// This message is the line announcing a game played in a thread: the front end reports
    /// the posted message's id back with [`crate::app::App::thread_line_posted`], so that the
    /// line can show the result when the game ends.
    pub line_of: Option<ThreadLineRef>,
    /// What this reply says of the request it answers (for the front ends' counts).
    pub outcome: ReplyOutcome,
}

/// What a reply says of the request it answers: done, refused (it cannot be done as asked),
/// or failed (the bot could not do it). Front ends count these; players see only the text.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ReplyOutcome {
    #[default]
    Done,
    /// An illegal move, not your turn, no game here: the request is refused.
    Refused,
    /// Storage failed, the bot crashed: the request could not be done.
    Failed,
}

/// Identifies the line announcing a game in a thread: the thread and its game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ThreadLineRef {
    pub thread_id: u64,
    pub game_id: u64,
}

/// Identifies a posted challenge: its channel and when it was made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ChallengeRef {
    pub channel_id: u64,
    pub created_at_ms: u64,
}

/// Identifies a posted board: its channel, its game and the ply it shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardRef {
    pub channel_id: u64,
    pub game_id: u64,
    pub ply: usize,
    /// The game is over: this is its final board.
    pub over: bool,
}

impl Reply {
    pub fn public(text: impl Into<String>) -> Reply {
        Reply {
            visibility: Visibility::Public,
            title: None,
            text: text.into(),
            image: None,
            buttons: vec![],
            menu: None,
            files: vec![],
            board_of: None,
            challenge_of: None,
            mention: vec![],
            channel: None,
            links_to: None,
            line_of: None,
            outcome: ReplyOutcome::Done,
        }
    }

    /// A private reply refusing the request (an illegal move, not your turn…).
    pub fn refusal(text: impl Into<String>) -> Reply {
        Reply {
            outcome: ReplyOutcome::Refused,
            ..Reply::private(text)
        }
    }

    /// A private reply saying the bot could not do it (storage, a crash).
    pub fn failure(text: impl Into<String>) -> Reply {
        Reply {
            outcome: ReplyOutcome::Failed,
            ..Reply::private(text)
        }
    }

    pub fn private(text: impl Into<String>) -> Reply {
        Reply {
            visibility: Visibility::Private,
            ..Reply::public(text)
        }
    }

    pub fn with_title(mut self, title: impl Into<String>) -> Reply {
        self.title = Some(title.into());
        self
    }

    pub fn is_private(&self) -> bool {
        self.visibility == Visibility::Private
    }
}
