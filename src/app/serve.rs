//! One request's answer, from the use case to the work it leaves, in one place: the front end
//! shows the replies meant for where the request was made (through [`Respond`]) and says
//! what became of each; the app does the rest itself — it records what was shown, posts the
//! replies meant for other channels and the public ones the request could not carry, takes
//! the controls off a board, closes a thread and starts the bot's turn (through the
//! [`Delivery`] port). A front end never calls back into the app after answering.

use super::deliver::{Delivery, MessageId};
use super::i18n::Lang;
use super::owed::BotTrigger;
use super::{Answer, App, Place, Reply};
use async_trait::async_trait;
use std::sync::Arc;

/// What became of one reply a front end was asked to show as part of an answer.
#[derive(Debug)]
pub enum Shown {
    /// Shown as this message (what the app records for boards, challenges and thread lines).
    Message(MessageId),
    /// Shown, and the app needs no message for it (a reply that is not a board, a challenge
    /// or a thread line).
    Shown,
    /// Not shown (after the front end's retries); why, for the log. A public reply is then
    /// posted in the channel instead.
    Lost(String),
}

/// How a front end shows an answer where the request was made: Discord as the interaction's
/// response and its follow-ups, the console as printed lines.
#[async_trait]
pub trait Respond: Send + Sync {
    /// Shows the answer's first reply, as the answer itself.
    async fn answer(&self, reply: &Reply) -> Shown;
    /// Shows one more reply after the first.
    async fn follow_up(&self, reply: &Reply) -> Shown;
    /// The answer has nothing to say: the request is acknowledged without words.
    async fn acknowledge(&self);
}

impl App {
    /// Shows `answer`, the answer to a request made in `place` in `lang`, and does all it
    /// leaves to do: the thread it asks for is opened (if the front end has not had it opened
    /// while the request was being answered, [`App::open_requested_thread`]), what was shown
    /// is recorded ([`App::shown`]), replies for other channels are posted, a board's controls
    /// are taken away and a thread closed when the answer says so, and then, whatever
    /// happened, a game waiting for the bot gets its move (in the game's own thread when one
    /// was just opened).
    pub async fn serve(
        &self,
        answer: Answer,
        place: Place,
        lang: Lang,
        respond: &dyn Respond,
        out: &Arc<dyn Delivery>,
    ) {
        let answer = self.open_requested_thread(answer, &**out).await;
        // Replies for another channel (a new game thread, a thread's parent) are posted there.
        let here = place.channel_id;
        let (local, elsewhere): (Vec<&Reply>, Vec<&Reply>) = answer
            .replies
            .iter()
            .partition(|r| r.channel.map_or(true, |c| c == here));
        if local.is_empty() {
            respond.acknowledge().await;
        }
        for (i, reply) in local.into_iter().enumerate() {
            let shown = match i {
                0 => respond.answer(reply).await,
                _ => respond.follow_up(reply).await,
            };
            match shown {
                Shown::Message(m) => self.shown(reply, m, &**out).await,
                Shown::Shown => {}
                Shown::Lost(e) if reply.is_private() => {
                    tracing::warn!("a private reply was lost: {e}")
                }
                Shown::Lost(e) => {
                    tracing::warn!(
                        "the request could not show a reply ({e}); posting it in the channel"
                    );
                    self.publish(here, reply, &**out).await;
                }
            }
        }
        for reply in elsewhere.into_iter().filter(|r| !r.is_private()) {
            let channel = reply.channel.unwrap_or(here);
            self.publish(channel, reply, &**out).await;
        }
        if let Some(board) = answer.strip_board {
            self.strip_board(board, &**out).await;
        }
        if let Some(end) = answer.close_thread {
            self.close_thread(end, &**out).await;
        }
        if out.answer_only(here) {
            self.follow_with_what_waits(place, lang, respond, out).await;
            return;
        }
        let (trigger, bot_place) = match answer.bot_turn {
            Some(owed) => (BotTrigger::Owed, owed),
            None if answer.between_people => return,
            None => (BotTrigger::Nudge, place),
        };
        self.start_bot_turn(out, bot_place, lang, trigger);
    }

    /// In a channel where only answers can be shown ([`Delivery::answer_only`]), everything
    /// waiting to be shown there follows the answer, as follow-ups of the same request: what
    /// was held since the last request (reminders, a loss on time, an expired challenge, a
    /// bot move made meanwhile), then the bot's move if it owes one — made now, whatever
    /// triggered it, since nothing else could show it — or else the game's board if it was
    /// stored but never shown (the process stopped in between).
    async fn follow_with_what_waits(
        &self,
        place: Place,
        lang: Lang,
        respond: &dyn Respond,
        out: &Arc<dyn Delivery>,
    ) {
        let channel = place.channel_id;
        for reply in self.held.take(channel) {
            self.follow_up_with(channel, &reply, respond, out).await;
        }
        let bot = self.bot_turn(place, lang).await;
        for reply in &bot.replies {
            self.follow_up_with(channel, reply, respond, out).await;
        }
        if !bot.replies.is_empty() {
            return;
        }
        let unshown = match self.store.active_game(channel) {
            Ok(Some(rec)) => self.board_shown_at(&rec) != Some(rec.moves.len()),
            Ok(None) => false,
            Err(e) => {
                tracing::warn!("cannot read the game of channel {channel}: {e}");
                false
            }
        };
        if unshown {
            for reply in self.current_board(place, lang).await.replies {
                self.follow_up_with(channel, &reply, respond, out).await;
            }
        }
    }

    /// Shows `reply` as a follow-up of the request and records it; a public one that could
    /// not be shown waits for the next request in the channel.
    async fn follow_up_with(
        &self,
        channel: u64,
        reply: &Reply,
        respond: &dyn Respond,
        out: &Arc<dyn Delivery>,
    ) {
        match respond.follow_up(reply).await {
            Shown::Message(m) => self.shown(reply, m, &**out).await,
            Shown::Shown => {}
            Shown::Lost(e) if reply.is_private() => {
                tracing::warn!("a private reply was lost: {e}")
            }
            Shown::Lost(e) => {
                tracing::warn!("a follow-up was lost ({e}); it waits for the next request");
                self.held.hold(channel, reply.clone());
            }
        }
    }
}
