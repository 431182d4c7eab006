//! The bot's turn, as durable work: whatever triggers it (a person's move, a restart, any
//! click in the channel), one move is searched, stored and shown. A per-channel claim
//! ([`BotTurnClaims`]) keeps two triggers from searching at once, and the store's
//! compare-and-swap keeps two processes (or a claim lost to a restart) from storing two moves.
//! With one process (sled) the claim is an in-process set; a store shared by many processes
//! implements the same interface with a lease row, so that exactly one of them searches.

use super::board;
use super::i18n::{n, s, t, tr, Lang};
use super::play::{forced_note, Recall};
use super::reply::Reply;
use super::{bot_level, game_of, seat_arg, storage_failed, Answer, App, Place};
use crate::ai::{self, JobClass, Level, PoolError, SearchOptions, SearchResult};
use crate::engine::Game;
use crate::fl;
use crate::store::{GameRecord, StoreError};
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest the bot may think before its best move so far is taken.
const BOT_THINKING_LIMIT: Duration = Duration::from_secs(20);
/// Searches tried before the bot falls back to a shallow one.
const SEARCH_ATTEMPTS: u32 = 3;

/// A claim on a channel's bot turn: held while it lives, released when dropped (also on
/// panic). A lease in a shared database also expires on its own, for a process that dies.
pub type BotTurnClaim = Box<dyn Send + Sync>;

/// Who may make the bot's move in a channel now: at most one holder per channel, across every
/// process that shares the store.
///
/// Two implementations: [`BotMovesInFlight`] (one process, sled) and
/// [`crate::store::BotTurnLeases`] (processes sharing PostgreSQL: a lease row per channel,
/// renewed while its holder searches and stores, so it outlasts any search, and expiring on
/// its own when the holder dies).
pub trait BotTurnClaims: Send + Sync {
    /// Claims the bot's turn in `channel_id`, as far as `scope` says; `None` if someone holds
    /// it already.
    fn claim(
        &self,
        channel_id: u64,
        scope: ClaimScope,
    ) -> Pin<Box<dyn Future<Output = Option<BotTurnClaim>> + Send + '_>>;

    /// Whether this process holds the channel's claim now.
    fn held_here(&self, channel_id: u64) -> bool;
}

/// How far a claim on the bot's turn reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimScope {
    /// Every process sharing the store: a search long enough that two processes making it
    /// would waste more than the claim costs (hard, expert).
    EveryProcess,
    /// This process only: a move searched in a few milliseconds (easy, medium), which two
    /// processes may search at once — the game's compare-and-swap lets one of them make it —
    /// rather than pay a shared claim's round trips on every move.
    ThisProcess,
}

impl ClaimScope {
    /// The scope of the bot's turns in `rec`'s game: its bots' levels do not change while
    /// it lasts, so any copy of the game, however old, tells.
    pub fn of(rec: &GameRecord) -> ClaimScope {
        let quick = |seat: &crate::store::Seat| match seat {
            crate::store::Seat::Bot { level } => JobClass::of(*level) == JobClass::Quick,
            _ => true,
        };
        if rec.players.iter().all(quick) {
            ClaimScope::ThisProcess
        } else {
            ClaimScope::EveryProcess
        }
    }
}

/// The game as this process remembered it was not the game as stored: the bot's turn starts
/// again from the store.
struct OutdatedCopy;

/// Channels whose bot move is being searched or stored right now, in this process: the claim
/// when one process owns the store (sled).
#[derive(Clone, Default)]
pub struct BotMovesInFlight(Arc<Mutex<HashSet<u64>>>);

impl BotTurnClaims for BotMovesInFlight {
    fn claim(
        &self,
        channel_id: u64,
        _scope: ClaimScope,
    ) -> Pin<Box<dyn Future<Output = Option<BotTurnClaim>> + Send + '_>> {
        let claim = self
            .enter(channel_id)
            .map(|held| Box::new(held) as BotTurnClaim);
        Box::pin(std::future::ready(claim))
    }

    fn held_here(&self, channel_id: u64) -> bool {
        self.contains(channel_id)
    }
}

/// Processes sharing PostgreSQL claim a channel's bot turn with a lease row there.
impl BotTurnClaims for crate::store::BotTurnLeases {
    fn claim(
        &self,
        channel_id: u64,
        scope: ClaimScope,
    ) -> Pin<Box<dyn Future<Output = Option<BotTurnClaim>> + Send + '_>> {
        Box::pin(async move {
            if scope == ClaimScope::ThisProcess {
                return self
                    .claim_here(channel_id)
                    .map(|held| Box::new(held) as BotTurnClaim);
            }
            match crate::store::BotTurnLeases::claim(self, channel_id) {
                Ok(lease) => lease.map(|held| Box::new(held) as BotTurnClaim),
                // The next trigger (an interaction, the periodic catch-up) tries again.
                Err(e) => {
                    tracing::error!("cannot claim the bot's turn in channel {channel_id}: {e}");
                    None
                }
            }
        })
    }

    fn held_here(&self, channel_id: u64) -> bool {
        crate::store::BotTurnLeases::held_here(self, channel_id)
    }
}

/// Holds a channel's place in [`BotMovesInFlight`] until dropped (also on panic).
struct InFlight {
    set: BotMovesInFlight,
    channel_id: u64,
}

impl BotMovesInFlight {
    fn enter(&self, channel_id: u64) -> Option<InFlight> {
        let mut set = self.0.lock().unwrap_or_else(|p| p.into_inner());
        set.insert(channel_id).then(|| InFlight {
            set: self.clone(),
            channel_id,
        })
    }

    pub(crate) fn contains(&self, channel_id: u64) -> bool {
        let set = self.0.lock().unwrap_or_else(|p| p.into_inner());
        set.contains(&channel_id)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut set = self.set.0.lock().unwrap_or_else(|p| p.into_inner());
        set.remove(&self.channel_id);
    }
}

/// Work the bot owes a channel, found after a restart or a reconnection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// The game waits for the bot's move.
    BotMove(Place),
    /// The game moved on but its board was never shown (the process stopped between storing
    /// a move and posting its board).
    Board(Place),
}

/// Why a search gave no move.
#[derive(Debug)]
enum SearchFailed {
    Panicked(#[allow(dead_code)] String),
    NoMove,
    ShutDown,
}

impl App {
    /// Every channel whose game waits for the bot or whose last board was never posted, with
    /// the game's language. Called when the front end (re)connects; the answers are best
    /// shown in the channel.
    pub fn owed_work(&self) -> Vec<(Owed, Lang)> {
        let games = match self.store.active_games() {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("cannot list the active games: {e}");
                return vec![];
            }
        };
        let mut owed = Vec::new();
        for rec in games.into_iter().filter_map(Result::ok) {
            let place = Place {
                guild_id: rec.guild_id,
                channel_id: rec.channel_id,
            };
            let Ok(game) = rec.to_game() else { continue };
            let lang = self.lang_of(&rec);
            if !game.is_over() && bot_level(&rec, game.side_to_move()).is_some() {
                owed.push((Owed::BotMove(place), lang));
            } else if self.board_shown_at(&rec) != Some(rec.moves.len()) {
                owed.push((Owed::Board(place), lang));
            }
        }
        owed
    }

    /// Whether the channel's game has waited for the bot for longer than twice a bot-turn
    /// lease lives: nobody alive is making that move (a process died searching it, perhaps
    /// before the board it answers was shown), so it is to be started as owed.
    pub fn bot_move_stalled(&self, place: Place) -> bool {
        let Ok(Some(rec)) = self.store.active_game(place.channel_id) else {
            return false;
        };
        let stalled_after = 2 * crate::store::BOT_TURN_LEASE_TTL.as_millis() as u64;
        rec.to_game()
            .is_ok_and(|g| !g.is_over() && bot_level(&rec, g.side_to_move()).is_some())
            && self.now_ms().saturating_sub(rec.last_move_at_ms) > stalled_after
    }

    /// Whether the channel's game waits for the bot and the board of the move the bot answers
    /// has been shown (recorded as posted).
    pub fn bot_move_due_after_its_board(&self, place: Place) -> bool {
        let Ok(Some(rec)) = self.store.active_game(place.channel_id) else {
            return false;
        };
        let Ok(game) = rec.to_game() else {
            return false;
        };
        !game.is_over()
            && bot_level(&rec, game.side_to_move()).is_some()
            && self.board_shown_at(&rec) == Some(rec.moves.len())
    }

    /// The board of the channel's game as it stands, to post again when it was never shown;
    /// it notifies the person to move, as the lost board would have.
    pub async fn current_board(&self, place: Place, lang: Lang) -> Answer {
        let rec = match self.store.active_game(place.channel_id) {
            Ok(Some(r)) => r,
            Ok(None) => return Answer::default(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let game = match game_of(lang, &rec) {
            Ok(g) => g,
            Err(r) => return r.into(),
        };
        // Say what the lost board would have said: who played what.
        let headline = game.last_move().map(|(before, mv)| {
            let mover = rec.seat(before.side_to_move());
            let key = if mover.user_id().is_some() {
                fl!("played")
            } else {
                fl!("bot-played")
            };
            tr(
                lang,
                key,
                &[
                    ("name", seat_arg(lang, mover)),
                    ("move", s(before.move_notation(mv))),
                ],
            )
        });
        let mut reply = self.board_reply(lang, &rec, &game, headline);
        board::notify_side_to_move(&mut reply, &rec, &game);
        Answer::one(reply)
    }

    /// The bot's move in the channel's game, if it is the bot's turn and no other trigger is
    /// making it already (then the answer is empty). A search that fails is tried again;
    /// after [`SEARCH_ATTEMPTS`] failures the bot plays the best move of a shallow search, so
    /// a bot never loses by not moving. After [`App::stop_searches`] the answer is empty
    /// unless the search was already running (it then plays what it has found).
    ///
    /// It plays on the game as this process last saw it (after a person's move here, the game
    /// that move stored: no read); where that copy shows no bot to move, or the move made on
    /// it finds the game changed, it starts again from the game as stored.
    pub async fn bot_turn(&self, place: Place, lang: Lang) -> Answer {
        // The game's bot levels say how far the claim must reach; the copy read for them (or
        // the memory the read refreshed) is the one the move is searched on.
        let scope = match self.active_game_from(place, Recall::Remembered) {
            Ok(Some((rec, _))) => ClaimScope::of(&rec),
            Ok(None) => return Answer::default(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let Some(_claim) = self.bot_moves.claim(place.channel_id, scope).await else {
            return Answer::default();
        };
        match self.bot_turn_from(place, lang, Recall::Remembered).await {
            Ok(answer) => answer,
            Err(OutdatedCopy) => self
                .bot_turn_from(place, lang, Recall::Stored)
                .await
                .unwrap_or_default(),
        }
    }

    /// [`Self::bot_turn`] on the game read from `recall`, the claim held.
    async fn bot_turn_from(
        &self,
        place: Place,
        lang: Lang,
        recall: Recall,
    ) -> Result<Answer, OutdatedCopy> {
        let (rec, remembered) = match self.active_game_from(place, recall) {
            Ok(Some(r)) => r,
            Ok(None) => return Ok(Answer::default()),
            Err(e) => return Ok(storage_failed(lang, &e).into()),
        };
        // What the copy does not show may be so in the store: nothing is left undone on it.
        let outdated = |answer: Answer| {
            if remembered {
                Err(OutdatedCopy)
            } else {
                Ok(answer)
            }
        };
        let mut game = match game_of(lang, &rec) {
            Ok(g) => g,
            Err(r) => return outdated(r.into()),
        };
        if game.is_over() {
            return outdated(Answer::default());
        }
        let side = game.side_to_move();
        let Some(level) = bot_level(&rec, side) else {
            return outdated(Answer::default());
        };
        let ply = game.ply();
        let mut found = None;
        for attempt in 1..=SEARCH_ATTEMPTS {
            match self.search(&game, level, attempt).await {
                Ok(r) => {
                    found = Some(r);
                    break;
                }
                // The process is stopping: the move stays owed, and the next process (or
                // this one's next catch-up) makes it with a proper search.
                Err(SearchFailed::ShutDown) => {
                    tracing::info!(
                        "channel {}: stopping; the bot's move is left to the next start",
                        place.channel_id
                    );
                    return Ok(Answer::default());
                }
                Err(e) => tracing::error!(
                    "bot search {attempt} of {SEARCH_ATTEMPTS} in channel {} failed: {e:?}",
                    place.channel_id
                ),
            }
        }
        let Some(mv) = found.map(|r| r.mv).or_else(|| ai::shallow_best_move(&game)) else {
            tracing::error!("the bot has no move in channel {}", place.channel_id);
            return Ok(Reply::failure(t(lang, fl!("err-bot-failed"))).into());
        };
        let before = *game.position();
        if game.play(mv).is_err() {
            tracing::error!(
                "the bot chose an illegal move in channel {}",
                place.channel_id
            );
            return Ok(Reply::failure(t(lang, fl!("err-bot-failed"))).into());
        }
        let rec = match self.save(rec, &game, ply).await {
            Ok(r) => r,
            // The game changed since this process last saw it: search the game as stored.
            Err(StoreError::Conflict { .. }) if remembered => return Err(OutdatedCopy),
            // Another trigger (another process) stored a move first: it shows it.
            Err(StoreError::Conflict { .. }) => {
                tracing::info!(
                    "channel {}: another trigger stored the bot's move first; this search was wasted",
                    place.channel_id
                );
                return Ok(Answer::default());
            }
            Err(e) => return Ok(storage_failed(lang, &e).into()),
        };
        let mut headline = tr(
            lang,
            fl!("bot-played"),
            &[
                ("name", seat_arg(lang, rec.seat(side))),
                ("move", s(before.move_notation(&mv))),
            ],
        );
        if let Some(why) = forced_note(lang, &before, &mv) {
            headline.push(' ');
            headline.push_str(&why);
        }
        let mut reply = self.board_reply(lang, &rec, &game, Some(headline));
        board::notify_side_to_move(&mut reply, &rec, &game);
        Ok(Answer::one(reply))
    }

    /// One search at the level's strength, on the search pool (never on the async runtime
    /// or tokio's blocking threads, which the store's flushes use). Every level stops on its
    /// own (time or node budget); [`BOT_THINKING_LIMIT`] bounds the worst case on a starved
    /// machine, counted from the start of the search, not from the queue.
    async fn search(
        &self,
        game: &Game,
        level: Level,
        attempt: u32,
    ) -> Result<SearchResult, SearchFailed> {
        let opts = SearchOptions {
            seed: self.settings.bot_seed.unwrap_or_else(|| self.now_ms())
                ^ (game.ply() as u64)
                ^ u64::from(attempt - 1),
            // Expert opens from the book where it knows the position (after a ballot's
            // three moves, from there).
            book: true,
            ..SearchOptions::default()
        };
        let expert_time = self.settings.expert_time;
        let hook = self.search_hook.clone();
        let game = game.clone();
        let queued_at = std::time::Instant::now();
        let ticket = self.pool.submit(JobClass::of(level), move |ctx| {
            let waited = queued_at.elapsed();
            if let Some(hook) = hook {
                hook(attempt);
            }
            let opts = SearchOptions {
                stop: Some(ctx.stop_flag()),
                time: Some(match level {
                    // A busy bot stays responsive: the pool shrinks expert's clock while
                    // others wait.
                    Level::Expert => expert_time,
                    _ => BOT_THINKING_LIMIT,
                }),
                ..opts
            };
            let started = std::time::Instant::now();
            let found = ctx.best_move(&game, level, &opts);
            let thought = started.elapsed();
            crate::metrics::bot_move(level.id(), waited, thought);
            tracing::info!(
                target: "damas::bot_move",
                level = level.id(),
                wait_ms = waited.as_millis() as u64,
                think_ms = thought.as_millis() as u64,
                depth = found.as_ref().map_or(0, |r| r.depth),
                behind = ctx.waiting(),
                "bot move searched"
            );
            // A search the process's stop cut short plays weaker than its level: its move is
            // not played, and stays owed to the next start. (`None` here: stopped.)
            (!ctx.stop_flag().load(Ordering::Relaxed)).then_some(found)
        });
        match ticket.await {
            Ok(Some(Some(r))) => Ok(r),
            Ok(Some(None)) => Err(SearchFailed::NoMove),
            Ok(None) | Err(PoolError::ShutDown) => Err(SearchFailed::ShutDown),
            Err(PoolError::Panicked(why)) => Err(SearchFailed::Panicked(why)),
            // (a bot move is owed work: submitted without a limit, never refused)
            Err(PoolError::Busy) => Err(SearchFailed::Panicked("refused as busy".to_string())),
        }
    }

    /// A board shown while the bot is to move: no controls (the person cannot act; the
    /// bot's answer brings them back), and "thinking…" with the searches queued ahead of it.
    pub(crate) fn bot_thinking(
        &self,
        lang: Lang,
        rec: &GameRecord,
        game: &Game,
        reply: &mut Reply,
    ) {
        reply.menu = None;
        reply.buttons.clear();
        let Some(level) = bot_level(rec, game.side_to_move()) else {
            return;
        };
        let ahead = self.pool.ahead_of(JobClass::of(level));
        reply.text.push('\n');
        reply.text.push_str(&tr(
            lang,
            fl!("bot-thinking"),
            &[("ahead", n(ahead as f64))],
        ));
    }
}
