//! The delivery port: how the app shows what it has to show outside the answer to a request
//! (a board posted in a channel, a message edited, a board's controls taken away, a game's
//! thread opened or closed). The app states what must happen; each front end implements
//! [`Delivery`] and only translates (Discord: REST calls with their retries).
//!
//! Who is notified stays [`Reply::mention`], the one field a front end reads for it.

use super::Reply;
use async_trait::async_trait;

/// A message the front end showed, as it names it (a Discord message id). A `u64`, as the
/// store keeps them ([`crate::store::BoardPost`]).
pub type MessageId = u64;

/// Why something was not shown. Transient failures were already retried by the front end:
/// the app never retries a delivery (it would multiply the front end's backoff).
#[derive(Debug, thiserror::Error)]
#[error("{why:?}: {detail}")]
pub struct NotShown {
    pub why: Why,
    /// For the log line: what the front end was told.
    pub detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The place, message or request is gone (a deleted channel, an unknown message).
    Gone,
    /// Refused for good (no permission, a limit, a front end without threads).
    Refused,
    /// Still failing after the front end's retries.
    Failed,
}

/// Everything the app shows outside an answer to a request. Shared with the tasks that
/// make the bot's moves, so `'static`.
#[async_trait]
pub trait Delivery: Send + Sync + 'static {
    /// Posts a public reply in `channel`, notifying the users of `reply.mention` and nobody else.
    async fn post(&self, channel: u64, reply: &Reply) -> Result<MessageId, NotShown>;
    /// Rewrites a message to show `reply` (its text and controls; its pictures stay).
    async fn edit(&self, channel: u64, message: MessageId, reply: &Reply) -> Result<(), NotShown>;
    /// Takes a board's controls away (it keeps its picture and words).
    async fn strip_controls(&self, channel: u64, message: MessageId) -> Result<(), NotShown>;
    /// Opens a public thread named `name` (plain text, already within the front end's
    /// limit) in `parent`; its id.
    async fn open_thread(&self, parent: u64, name: &str) -> Result<u64, NotShown>;
    /// Closes a game's thread, keeping it readable.
    async fn archive_thread(&self, thread: u64) -> Result<(), NotShown>;
    /// Whether the front end can only answer requests made in `channel`, and never post, edit
    /// or notify there on its own (Discord: a direct or group message where a person
    /// installed the app for themselves; the bot is no member there). The app then shows
    /// there only in answers: the bot's move in the follow-up of the move it answers, and
    /// what it could not post at the next request made there ([`crate::app::held`]).
    fn answer_only(&self, _channel: u64) -> bool {
        false
    }
}
