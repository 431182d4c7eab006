//! What the app does once a front end has shown something, through the [`Delivery`] port:
//! it remembers the messages it will need again (a board to strip, a challenge to close, a
//! thread's line to complete), takes the controls off boards that no longer stand, and opens
//! and closes the threads games are played in. Front ends only report what they showed, to
//! [`App::serve`].

use super::deliver::{Delivery, MessageId};
use super::{Answer, App, BoardPosted, Reply, ThreadEnd};

impl App {
    /// `reply` is now shown as `message`: remember a challenge's or a thread line's message
    /// (to close or complete it later), and record a board — stripping the board it
    /// replaces, or this one if the game moved on while it was being shown; a final board in
    /// a game's thread closes the thread.
    pub(crate) async fn shown(&self, reply: &Reply, message: MessageId, out: &dyn Delivery) {
        if let Some(challenge) = reply.challenge_of {
            self.challenge_posted(challenge, message).await;
        }
        if let Some(line) = reply.line_of {
            self.thread_line_posted(line, message).await;
        }
        let Some(board) = reply.board_of else {
            return;
        };
        match self.board_posted(board, message).await {
            BoardPosted::Current { strip } => {
                if let Some(old) = strip {
                    strip_controls(out, board.channel_id, old).await;
                }
                if let Some(end) = self.thread_game_over(board).await {
                    self.close_thread(end, out).await;
                }
                if board.over {
                    self.tournament_game_ended(board.game_id, out).await;
                }
            }
            BoardPosted::Outdated => strip_controls(out, board.channel_id, message).await,
        }
    }

    /// Posts a public reply in `channel` and records it ([`App::shown`]); its message, or
    /// `None` when it could not be shown (logged). Where nothing can be posted
    /// ([`Delivery::answer_only`]) it is held for the next request made there.
    pub(crate) async fn publish(
        &self,
        channel: u64,
        reply: &Reply,
        out: &dyn Delivery,
    ) -> Option<MessageId> {
        if out.answer_only(channel) {
            self.held.hold(channel, reply.clone());
            return None;
        }
        let message = post(out, channel, reply).await?;
        self.shown(reply, message, out).await;
        Some(message)
    }

    /// A game in a thread ended: its line in the parent channel shows the result (edited,
    /// or posted anew and remembered when it cannot be), and the thread is archived (kept,
    /// readable, and reopened by any new message in it).
    pub(crate) async fn close_thread(&self, end: ThreadEnd, out: &dyn Delivery) {
        let parent = end.parent_channel_id;
        let edited = match end.line_message_id {
            Some(message) => out
                .edit(parent, message, &end.line)
                .await
                .map_err(|e| {
                    tracing::warn!("could not edit the line of thread {}: {e}", end.thread_id)
                })
                .is_ok(),
            None => false,
        };
        if !edited {
            if let (Some(m), Some(line)) = (post(out, parent, &end.line).await, end.line.line_of) {
                self.thread_line_posted(line, m).await;
            }
        }
        if let Err(e) = out.archive_thread(end.thread_id).await {
            // The front end archives it by itself after a while (Discord: a week).
            tracing::warn!("could not archive thread {}: {e}", end.thread_id);
        }
    }

    /// Opens the thread `answer` asks for and starts its game there; when the front end
    /// refuses (no permission after all, a thread limit, no threads at all), the game
    /// starts in the channel and says why. Any other answer is returned as it is.
    /// A tournament the answer names moves on first (its round's games start in threads of
    /// their own).
    pub async fn open_requested_thread(&self, answer: Answer, out: &dyn Delivery) -> Answer {
        if let Some(id) = answer.tournament {
            self.advance_tournament(id, out).await;
        }
        let Some(request) = answer.new_thread else {
            return answer;
        };
        let parent = request.parent.channel_id;
        match out.open_thread(parent, &request.name).await {
            Ok(thread) => self.start_in_thread(request, thread).await,
            Err(e) => {
                tracing::warn!("could not open a thread in channel {parent}: {e}");
                self.start_without_thread(request).await
            }
        }
    }

    /// Takes the controls off a board whose game ended without a new board (`/cancel`).
    pub(crate) async fn strip_board(
        &self,
        (channel, message): (u64, MessageId),
        out: &dyn Delivery,
    ) {
        strip_controls(out, channel, message).await;
    }
}

/// Posts a public reply; its message, or `None` (logged).
pub(crate) async fn post(out: &dyn Delivery, channel: u64, reply: &Reply) -> Option<MessageId> {
    match out.post(channel, reply).await {
        Ok(m) => Some(m),
        Err(e) => {
            tracing::error!("could not post in channel {channel}: {e}");
            None
        }
    }
}

/// Removes a board message's buttons and menu (it keeps its picture).
async fn strip_controls(out: &dyn Delivery, channel: u64, message: MessageId) {
    if out.answer_only(channel) {
        // Nothing can be edited there; an outdated button answers "outdated".
        return;
    }
    if let Err(e) = out.strip_controls(channel, message).await {
        // Harmless: an outdated button answers "outdated" anyway.
        tracing::debug!("could not strip old board {message}: {e}");
    }
}
