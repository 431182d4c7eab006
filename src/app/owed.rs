//! The work the app starts by itself, whoever asked: the bot's moves (after a person's move,
//! after a (re)connection, on the sweeper's nudge), the boards stored but never shown, and
//! what the sweeper found. Each bot move or board runs as a task of its own, counted in
//! [`App::work`] so that a shutdown waits for it, and shows what it made through the
//! [`Delivery`] port. The claim on a bot turn ([`App::bot_turn`]) and the compare-and-set
//! save are untouched: two triggers, or two processes, still make one move.

use super::deliver::Delivery;
use super::i18n::Lang;
use super::{App, Owed, Place, Swept};
use std::sync::Arc;

/// Why a bot turn is started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotTrigger {
    /// A use case said the bot is to move now, or a (re)connection found the move owed.
    Owed,
    /// Something else happened in the channel: the move starts only if the board of the move
    /// it answers has been shown, so that the bot never answers before that board appears
    /// (the request that made that move starts the bot itself, once it is shown).
    Nudge,
}

impl App {
    /// Makes the bot's move in `place` if it owes one, and posts it there. Runs as a task of
    /// its own, so the request that triggered it is answered meanwhile; nothing starts once
    /// the app is winding down (the move stays owed to the next start).
    pub(crate) fn start_bot_turn(
        &self,
        out: &Arc<dyn Delivery>,
        place: Place,
        lang: Lang,
        trigger: BotTrigger,
    ) {
        let Some(working) = self.work.start() else {
            return;
        };
        let (app, out) = (self.clone(), Arc::clone(out));
        tokio::spawn(async move {
            let _working = working;
            if trigger == BotTrigger::Nudge && !app.bot_move_due_after_its_board(place) {
                return;
            }
            let answer = app.bot_turn(place, lang).await;
            for reply in answer.replies.iter().filter(|r| !r.is_private()) {
                app.publish(place.channel_id, reply, &*out).await;
            }
        });
    }

    /// Posts the current board of `place`, whose last board was never shown, as a task of
    /// its own.
    pub fn repost_board(&self, out: &Arc<dyn Delivery>, place: Place, lang: Lang) {
        let Some(working) = self.work.start() else {
            return;
        };
        let (app, out) = (self.clone(), Arc::clone(out));
        tokio::spawn(async move {
            let _working = working;
            let answer = app.current_board(place, lang).await;
            for reply in answer.replies.iter().filter(|r| !r.is_private()) {
                app.publish(place.channel_id, reply, &*out).await;
            }
        });
    }

    /// Waits until the work the app started (bot moves, boards) is done: a front end that
    /// shows one request at a time (the console) lets the bot's move appear before it reads
    /// the next one.
    pub async fn settled(&self) {
        self.work.idle().await;
    }

    /// After a (re)connection: makes every move the bot owes and, with `boards_too`, posts
    /// the boards stored but never shown (the process stopped in between) — in the games
    /// whose server (`None`: a direct message) `only` keeps. A front end with several
    /// connections (Discord's shards) keeps each connection's own servers, so N connections
    /// never start a move N times.
    pub fn catch_up(
        &self,
        out: &Arc<dyn Delivery>,
        only: impl Fn(Option<u64>) -> bool,
        boards_too: bool,
    ) {
        for (owed, lang) in self.owed_work() {
            match owed {
                Owed::BotMove(place) if only(place.guild_id) => {
                    self.start_bot_turn(out, place, lang, BotTrigger::Owed)
                }
                Owed::Board(place) if boards_too && only(place.guild_id) => {
                    self.repost_board(out, place, lang)
                }
                Owed::BotMove(_) | Owed::Board(_) => {}
            }
        }
    }

    /// Starts the moves the bot owes whose boards have been shown, and those stalled for
    /// longer than a lease lives ([`App::bot_move_stalled`]): the sweeper's catch-up. A move
    /// whose board is still being shown is started by its request. (A (re)connection's
    /// catch-up can be refused such a move: on PostgreSQL, a process that died searching
    /// leaves its lease for up to [`crate::store::BOT_TURN_LEASE_TTL`], and nothing else
    /// would start the move once it expires.)
    pub fn nudge_owed_moves(&self, out: &Arc<dyn Delivery>) {
        for (owed, lang) in self.owed_work() {
            if let Owed::BotMove(place) = owed {
                let trigger = if self.bot_move_stalled(place) {
                    BotTrigger::Owed
                } else {
                    BotTrigger::Nudge
                };
                self.start_bot_turn(out, place, lang, trigger);
            }
        }
    }

    /// One pass of the sweeper ([`App::sweep`]), shown: reminders and games lost on time
    /// posted in their channels (a loss on time in a thread closes it), expired challenges
    /// edited to say so without their buttons (posted anew when their message was never
    /// recorded).
    pub async fn sweep_and_show(&self, out: &dyn Delivery) {
        for swept in self.sweep().await {
            match swept {
                Swept::Post { place, reply } => {
                    self.publish(place.channel_id, &reply, out).await;
                }
                Swept::ChallengeExpired {
                    channel_id,
                    message_id: Some(message_id),
                    reply,
                } if !out.answer_only(channel_id) => {
                    if let Err(e) = out.edit(channel_id, message_id, &reply).await {
                        tracing::warn!("could not close the expired challenge {message_id}: {e}");
                    }
                }
                // Posted anew; held for the next request where nothing can be posted.
                Swept::ChallengeExpired {
                    channel_id, reply, ..
                } => {
                    self.publish(channel_id, &reply, out).await;
                }
            }
        }
        // Rounds whose last game ended while no process was there to see it.
        self.advance_tournaments(out).await;
    }
}
