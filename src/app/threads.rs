//! Games in threads of their own: many games in one channel, each in a public thread named
//! after its players, with one line in the channel linking to it that shows the result at the
//! end. The app only says what is to happen ("start this game in a new thread named X",
//! "post this line in the parent channel", "the game in this thread is over"); the front end
//! opens, links and archives threads its own way.

use super::challenge::GameStart;
use super::commands::Threading;
use super::i18n::{self, s, t, tr, Lang};
use super::reply::{is_bidi_control, plain, BoardRef, Reply, ThreadLineRef};
use super::{seat_arg, Answer, App, Place};
use crate::engine::{ByColour, Variant};
use crate::fl;
use crate::store::{GameRecord, GameThread, Seat};

/// Discord's longest thread name.
const THREAD_NAME_LIMIT: usize = 100;

/// A game to be started in a new public thread of `parent`, named `name`. The front end
/// opens the thread, then calls [`App::start_in_thread`]; if it cannot,
/// [`App::start_without_thread`].
#[derive(Clone, Debug)]
pub struct ThreadRequest {
    pub name: String,
    /// Where the thread is to be opened (and where the game was asked for).
    pub parent: Place,
    start: GameStart,
}

/// A game in a thread ended: the line announcing it now shows the result, and the thread is
/// to be archived (not deleted: the game stays readable).
#[derive(Clone, Debug)]
pub struct ThreadEnd {
    pub thread_id: u64,
    pub parent_channel_id: u64,
    /// The line to edit; `None` when it was never recorded: post `line` anew instead.
    pub line_message_id: Option<u64>,
    /// The line's new text (links to the thread).
    pub line: Reply,
}

/// "Ana vs Beto · damas españolas" (White first), the players' names marked as theirs: the
/// game as its line in the parent channel names it.
fn game_title(lang: Lang, players: &ByColour<Seat>, variant: Variant) -> String {
    tr(
        lang,
        fl!("thread-name"),
        &[
            ("white", seat_arg(lang, &players.white)),
            ("black", seat_arg(lang, &players.black)),
            ("variant", s(i18n::variant_name(lang, variant))),
        ],
    )
}

/// The thread's name: [`game_title`] as typed (Discord shows thread names as they are, with
/// no markdown), on one line, without bidirectional controls, within Discord's length.
fn thread_name(lang: Lang, players: &ByColour<Seat>, variant: Variant) -> String {
    plain(&game_title(lang, players, variant))
        .chars()
        .filter(|&c| !is_bidi_control(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(THREAD_NAME_LIMIT)
        .collect()
}

/// The parent channel's line for a game cancelled in its thread (`/cancel`): no result.
fn cancelled_line_text(lang: Lang, rec: &GameRecord) -> String {
    let name = game_title(lang, &rec.players, rec.variant);
    tr(lang, fl!("thread-line-cancelled"), &[("name", s(name))])
}

/// What closes game thread `thread_id`: its line (`text`) in the parent channel, edited in
/// place when it was recorded, and the thread archived.
fn thread_end(thread_id: u64, thread: &GameThread, text: String) -> ThreadEnd {
    let mut line = Reply::public(text);
    line.channel = Some(thread.parent_channel_id);
    line.links_to = Some(thread_id);
    if thread.line_message_id.is_none() {
        line.line_of = Some(ThreadLineRef {
            thread_id,
            game_id: thread.game_id,
        });
    }
    ThreadEnd {
        thread_id,
        parent_channel_id: thread.parent_channel_id,
        line_message_id: thread.line_message_id,
        line,
    }
}

/// The parent channel's line for a game: its name, and its result once it is over.
fn line_text(lang: Lang, rec: &GameRecord) -> String {
    let name = game_title(lang, &rec.players, rec.variant);
    match rec.outcome {
        None => tr(lang, fl!("thread-line"), &[("name", s(name))]),
        Some(o) => tr(
            lang,
            fl!("thread-line-over"),
            &[
                ("name", s(name)),
                ("result", s(i18n::result_text(lang, Some(o)))),
            ],
        ),
    }
}

impl App {
    /// Whether a game asked for with `threading` gets a new thread: only in a server, and
    /// never from inside one of the bot's game threads (threads do not nest).
    pub(crate) fn opens_thread(&self, place: Place, threading: Threading) -> bool {
        threading == Threading::InThread
            && place.guild_id.is_some()
            && !matches!(self.store.game_thread(place.channel_id), Ok(Some(_)))
    }

    /// The answer that asks the front end for a new thread for this game.
    pub(crate) fn thread_request(&self, place: Place, start: GameStart) -> Answer {
        Answer {
            new_thread: Some(ThreadRequest {
                name: thread_name(start.lang, &start.players, start.variant),
                parent: place,
                start,
            }),
            ..Answer::default()
        }
    }

    /// The front end opened thread `thread_id` for `req`: the game starts there, and the
    /// parent channel gets the line that links to it.
    pub async fn start_in_thread(&self, req: ThreadRequest, thread_id: u64) -> Answer {
        let place = Place {
            guild_id: req.parent.guild_id,
            channel_id: thread_id,
        };
        let mut start = req.start;
        start.thread_parent = Some(req.parent.channel_id);
        self.start_game(place, start).await
    }

    /// The front end could not open the thread: the game starts in the channel instead, and
    /// its first board says why.
    pub async fn start_without_thread(&self, req: ThreadRequest) -> Answer {
        let mut start = req.start;
        start.note = Some(t(start.lang, fl!("thread-failed")));
        self.start_game(req.parent, start).await
    }

    /// A game just started in `rec.channel_id`: if that is a game thread (a new one opened
    /// in `new_parent`, or an old one holding a rematch), records it and returns the line
    /// for the parent channel.
    pub(crate) async fn announce_thread_game(
        &self,
        lang: Lang,
        rec: &GameRecord,
        new_parent: Option<u64>,
    ) -> Option<Reply> {
        let parent = match new_parent {
            Some(p) => p,
            None => match self.store.game_thread(rec.channel_id) {
                Ok(Some(t)) => t.parent_channel_id,
                Ok(None) => return None,
                Err(e) => {
                    tracing::warn!("cannot read game thread {}: {e}", rec.channel_id);
                    return None;
                }
            },
        };
        let thread = GameThread {
            parent_channel_id: parent,
            game_id: rec.id,
            line_message_id: None,
        };
        if let Err(e) = self.store.put_game_thread(rec.channel_id, &thread).await {
            // The game goes on; only its line will not show the result.
            tracing::warn!("game thread {} not recorded: {e}", rec.channel_id);
        }
        let mut line = Reply::public(line_text(lang, rec));
        line.channel = Some(parent);
        line.links_to = Some(rec.channel_id);
        line.line_of = Some(ThreadLineRef {
            thread_id: rec.channel_id,
            game_id: rec.id,
        });
        Some(line)
    }

    /// The front end posted a thread's line: remember it, to show the result there later.
    pub async fn thread_line_posted(&self, line: ThreadLineRef, message_id: u64) {
        if let Err(e) = self
            .store
            .set_thread_line(line.thread_id, line.game_id, message_id)
        {
            tracing::warn!("thread line not recorded: {e}");
        }
    }

    /// A final board was posted: if its game was played in a thread, what to do in the
    /// parent channel and with the thread. `None` for any other board.
    pub async fn thread_game_over(&self, board: BoardRef) -> Option<ThreadEnd> {
        if !board.over {
            return None;
        }
        let thread = match self.store.game_thread(board.channel_id) {
            Ok(Some(t)) if t.game_id == board.game_id => t,
            Ok(_) => return None,
            Err(e) => {
                tracing::warn!("cannot read game thread {}: {e}", board.channel_id);
                return None;
            }
        };
        let rec = match self.store.archived_game(board.game_id) {
            Ok(Some(rec)) => rec,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!("cannot read finished game {}: {e}", board.game_id);
                return None;
            }
        };
        let lang = self.lang_of(&rec);
        Some(thread_end(board.channel_id, &thread, line_text(lang, &rec)))
    }

    /// Game `rec` was cancelled: if it was played in a thread of its own, the thread is
    /// closed as a finished game's is, its line saying it was cancelled.
    pub(crate) fn thread_game_cancelled(&self, rec: &GameRecord) -> Option<ThreadEnd> {
        match self.store.game_thread(rec.channel_id) {
            Ok(Some(thread)) if thread.game_id == rec.id => Some(thread_end(
                rec.channel_id,
                &thread,
                cancelled_line_text(self.lang_of(rec), rec),
            )),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!("cannot read game thread {}: {e}", rec.channel_id);
                None
            }
        }
    }
}
