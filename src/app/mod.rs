//! The application layer: every use case of the bot ("challenge", "move", "explain"…) with
//! plain inputs (user ids, channel id, locale, text) and plain replies ([`Reply`]). All game
//! logic and all permission checks live here, so Discord, the console and the tests share
//! them. Nothing in here knows about serenity.

// A refusal *is* a reply to show: use cases return `Result<_, Reply>` on purpose, and the
// size of a `Reply` on the error path is irrelevant next to rendering and storage.
#![allow(clippy::result_large_err)]

pub mod ballot;
pub mod board;
pub mod board_page;
pub mod boot;
pub mod bot;
pub mod challenge;
pub mod commands;
pub mod deliver;
pub mod forget;
pub(crate) mod held;
pub mod i18n;
pub mod ids;
pub mod in_flight;
pub mod info;
pub mod maintenance;
pub mod my_data;
pub mod owed;
pub mod play;
pub mod puzzle;
pub mod rematch;
pub mod reply;
pub mod review;
pub mod scoring;
pub mod serve;
pub mod server_settings;
pub mod settings;
pub mod shown;
pub mod sweep;
pub mod threads;
pub mod titles;
pub mod tournament;

pub use crate::store::{check_db_name, db_name_problem, StoreError, UserRef, DB_ENV};
pub use bot::{BotMovesInFlight, BotTurnClaim, BotTurnClaims, ClaimScope, Owed};
pub use ids::{Action, ComponentId};
pub use reply::{
    Attachment, BoardRef, Button, ButtonStyle, ChallengeRef, Menu, MenuGroups, MenuOption, Picture,
    Reply, ReplyOutcome, ThreadLineRef, Visibility, PICTURE_DESCRIPTION_LIMIT,
};
pub use settings::Settings;
pub use sweep::Swept;
pub use threads::{ThreadEnd, ThreadRequest};

use crate::ai::{JobClass, Level, SearchPool};
use crate::engine::{Color, Game, Variant};
use crate::fl;
use crate::metrics;
use crate::store::{BoardPost, GameRecord, PostRecorded, Seat, Store};
use i18n::Lang;
use in_flight::InFlight;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Who acts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub user_id: u64,
    pub name: String,
    /// The Discord locale (`es-ES`, `es-419`, `en-US`…).
    pub locale: String,
    /// Members with Manage Messages may cancel stuck games.
    pub can_manage_messages: bool,
    /// Members with Manage Events may run any tournament of the server.
    pub can_manage_events: bool,
    /// Members with Manage Server may change the server's settings (`/settings`).
    pub can_manage_guild: bool,
    /// The member's roles in the server (the organiser role of `/settings` is looked for
    /// here); empty outside a server.
    pub roles: Vec<u64>,
}

impl Actor {
    pub fn lang(&self) -> Lang {
        Lang::from_locale(&self.locale)
    }
}

/// Where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub guild_id: Option<u64>,
    pub channel_id: u64,
}

/// What a use case answers: messages to show, and the work the answer leaves to the app.
/// A front end shows it with [`App::serve`] and reads nothing else of it: the app does that
/// work itself, after the replies are shown. That work is the app's own (`pub(crate)`): a
/// front end cannot act on it by mistake; the tests read it through [`Answer::bot_turn`] and
/// [`Answer::new_thread`].
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub replies: Vec<Reply>,
    /// The bot must now think and move here (started once the replies are shown).
    pub(crate) bot_turn: Option<Place>,
    /// A game to start in a new thread: the app opens the thread
    /// ([`App::open_requested_thread`]), starts the game there (or in the channel if it
    /// could not) and shows that answer instead. The replies here are empty then.
    pub(crate) new_thread: Option<ThreadRequest>,
    /// The game of this thread ended without a board to say so (`/cancel`): the app closes
    /// the thread after the replies are shown.
    pub(crate) close_thread: Option<ThreadEnd>,
    /// A board whose game ended without a new board (`/cancel`), as (channel, message): the
    /// app takes its controls away.
    pub(crate) strip_board: Option<(u64, u64)>,
    /// A tournament that may have something to do now (a round to start, a result to
    /// record): the app moves it on once the answer is shown
    /// ([`App::open_requested_thread`]).
    pub(crate) tournament: Option<u64>,
    /// The answer is a move in a game between people: no bot will ever move there, so the
    /// app does not look for a bot's turn after it (a read of the game saved on every such
    /// move; a new game started there meanwhile starts its own bot turn).
    pub(crate) between_people: bool,
}

impl Answer {
    /// Where the bot must now think and move, if anywhere: [`App::serve`] starts that turn
    /// itself. For tests and tools that inspect an answer; a front end does not act on it.
    pub fn bot_turn(&self) -> Option<Place> {
        self.bot_turn
    }

    /// The new thread this answer asks for, if any: [`App::serve`] opens it itself. For tests
    /// and tools that inspect an answer (and may open the thread by hand,
    /// [`App::start_in_thread`]); a front end does not act on it.
    pub fn new_thread(&self) -> Option<&ThreadRequest> {
        self.new_thread.as_ref()
    }

    pub fn one(r: Reply) -> Answer {
        Answer {
            replies: vec![r],
            ..Answer::default()
        }
    }

    /// The answer as shown to the person who acted: nobody is notified of their own action.
    pub fn for_actor(mut self, user_id: u64) -> Answer {
        for r in &mut self.replies {
            r.mention.retain(|&u| u != user_id);
        }
        self
    }
}

impl From<Reply> for Answer {
    fn from(r: Reply) -> Answer {
        Answer::one(r)
    }
}

type Clock = Arc<dyn Fn() -> u64 + Send + Sync>;
/// Runs at the start of every bot search with the attempt number (tests make it panic).
type SearchHook = Arc<dyn Fn(u32) + Send + Sync>;

/// The bot's shared state: storage, settings, a clock. Cheap to clone.
#[derive(Clone)]
pub struct App {
    pub(crate) store: Store,
    pub(crate) settings: Settings,
    clock: Clock,
    bot_moves: Arc<dyn bot::BotTurnClaims>,
    /// Requests and bot moves under way, for a clean shutdown ([`App::wind_down`]).
    work: Arc<InFlight>,
    search_hook: Option<SearchHook>,
    /// Where every search runs: the bot's moves (and later reviews and puzzles).
    pool: Arc<SearchPool>,
    /// The last reviews, for their page buttons.
    reviews: review::ReviewCache,
    /// What could not be posted in answer-only channels, for the next request there.
    held: held::HeldReplies,
    /// Tells the board pages open on a game that it changed ([`board_page::GameFeed`]).
    feed: Arc<board_page::GameFeed>,
}

impl App {
    /// The app over `store` with `settings`; front ends start it with [`boot::boot`], which
    /// opens the store too.
    pub fn new(store: Store, settings: Settings) -> App {
        App {
            store,
            clock: Arc::new(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map(|d| d.as_millis() as u64)
                    .unwrap_or(0)
            }),
            bot_moves: Arc::new(bot::BotMovesInFlight::default()),
            work: InFlight::new(),
            search_hook: None,
            pool: Arc::new(
                SearchPool::new(settings.search_threads, settings.search_memory_mb)
                    .with_quick_lane()
                    .with_queue_limit(settings.search_queue),
            ),
            settings,
            reviews: review::ReviewCache::default(),
            held: held::HeldReplies::default(),
            feed: Arc::default(),
        }
    }

    /// Runs `hook` at the start of every bot search, with the attempt number (tests of
    /// failing searches).
    pub fn with_search_hook(mut self, hook: impl Fn(u32) + Send + Sync + 'static) -> App {
        self.search_hook = Some(Arc::new(hook));
        self
    }

    /// For a process that is stopping: no search starts any more, the queued ones are
    /// dropped and the running ones stop at once; no bot move is played from them (each
    /// stays owed, for the next start). A review cut off answers that the bot is restarting;
    /// a replay GIF is left out of its PDN.
    pub fn stop_searches(&self) {
        self.pool.close();
    }

    /// The work under way: a front end counts each request it takes with
    /// `app.work().start()` and takes none when that says the app is stopping.
    pub fn work(&self) -> &Arc<InFlight> {
        &self.work
    }

    /// What every front end does once no new request comes in: the searches stop (their bot
    /// moves stay owed to the next start), the work under way gets at most `grace` to
    /// finish; then the front end stops its sweeper and flushes the store. Returns whether
    /// everything finished.
    pub async fn wind_down(&self, grace: Duration) -> bool {
        self.stop_searches();
        let drained = self.work.close_and_drain(grace).await;
        if !drained {
            tracing::warn!(
                "{} pieces of work were still running after {grace:?}; a restart takes them up",
                self.work.active()
            );
        }
        drained
    }

    /// Searches queued and not yet started (for logs and tests).
    pub fn searches_waiting(&self) -> usize {
        self.pool.queued()
    }

    /// The search pool every search of this app runs on (tests hold its threads with jobs
    /// of their own).
    pub fn search_pool(&self) -> &SearchPool {
        &self.pool
    }

    /// Sets the gauges read from the state of things rather than counted as they happen
    /// (called before each scrape): the games under way by variant and kind, and the
    /// search queues' depths. Every (variant, kind) is set, to 0 when it has no game, so a
    /// gauge falls back when the last game of its kind ends. Blocks on the store.
    pub fn sample_metrics(&self) -> Result<(), StoreError> {
        for class in JobClass::BY_PRIORITY {
            metrics::search_queue_depth(class.id(), self.pool.queued_in(class));
        }
        let kinds = 1 + Level::ALL.len();
        let mut counts = vec![0usize; Variant::ALL.len() * kinds];
        for rec in self
            .store
            .active_games()?
            .into_iter()
            .filter_map(Result::ok)
        {
            let Some(v) = Variant::ALL.iter().position(|&v| v == rec.variant) else {
                continue;
            };
            let level = bot_level(&rec, Color::White).or_else(|| bot_level(&rec, Color::Black));
            let kind = level.map_or(0, |l| 1 + l.index());
            counts[v * kinds + kind] += 1;
        }
        for (v, variant) in Variant::ALL.into_iter().enumerate() {
            for kind in 0..kinds {
                let label = match kind {
                    0 => "people".to_string(),
                    k => metrics::bot_kind(Level::ALL[k - 1].id()),
                };
                metrics::games_under_way(variant.id(), label, counts[v * kinds + kind]);
            }
        }
        Ok(())
    }

    /// Whether this process is making the bot's move in the channel right now.
    pub fn bot_move_in_flight(&self, channel_id: u64) -> bool {
        self.bot_moves.held_here(channel_id)
    }

    /// Replaces who may make the bot's moves (a store shared by several processes claims
    /// them with a lease; the default is this process's own set).
    pub fn with_bot_turn_claims(mut self, claims: Arc<dyn bot::BotTurnClaims>) -> App {
        self.bot_moves = claims;
        self
    }

    /// Replaces the clock (tests of expiry and time limits).
    pub fn with_clock(mut self, clock: impl Fn() -> u64 + Send + Sync + 'static) -> App {
        self.clock = Arc::new(clock);
        self
    }

    pub fn now_ms(&self) -> u64 {
        (self.clock)()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The language the bot speaks in a game on its own (moves after a restart, reminders).
    pub(crate) fn lang_of(&self, rec: &GameRecord) -> Lang {
        rec.lang
    }

    /// The ply of the last board posted for this game, if any.
    pub(crate) fn board_shown_at(&self, rec: &GameRecord) -> Option<usize> {
        match self.store.board_post(rec.channel_id) {
            Ok(Some(post)) if post.game_id == rec.id => Some(post.ply),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!("cannot read the board post of {}: {e}", rec.channel_id);
                // Unknown: do not post the board again on a guess.
                Some(rec.moves.len())
            }
        }
    }

    /// A board was posted: record it as the channel's board, so the next board can strip
    /// its controls. [`BoardPosted::Outdated`] when the game moved on (or ended, or another
    /// started) while it was being posted: its own controls are stripped at once. A storage
    /// error is logged and treated as current: the board keeps its controls, which answer
    /// "outdated" themselves once the game moves.
    pub(crate) async fn board_posted(&self, board: BoardRef, message_id: u64) -> BoardPosted {
        let post = BoardPost {
            game_id: board.game_id,
            message_id,
            ply: board.ply,
        };
        match self
            .store
            .record_board_post(board.channel_id, post, board.over)
            .await
        {
            Ok(PostRecorded::Current { replaced }) => BoardPosted::Current { strip: replaced },
            Ok(PostRecorded::Outdated) => BoardPosted::Outdated,
            Err(e) => {
                tracing::warn!("board message not recorded: {e}");
                BoardPosted::Current { strip: None }
            }
        }
    }
}

/// What is done after posting a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoardPosted {
    /// The board is the channel's current one; strip the controls of message `strip`, the
    /// board it replaces.
    Current { strip: Option<u64> },
    /// The board was already history when it was recorded: strip its own controls.
    Outdated,
}

/// The colour a user plays in a game, if they play in it.
pub(crate) fn seat_of(rec: &GameRecord, user_id: u64) -> Option<Color> {
    [Color::White, Color::Black]
        .into_iter()
        .find(|&c| matches!(rec.seat(c), Seat::Human { user_id: u, .. } if *u == user_id))
}

/// The bot's level if the bot plays `color`.
pub(crate) fn bot_level(rec: &GameRecord, color: Color) -> Option<Level> {
    match rec.seat(color) {
        Seat::Bot { level } => Some(*level),
        Seat::Human { .. } | Seat::Deleted => None,
    }
}

pub(crate) fn vs_bot(rec: &GameRecord) -> bool {
    rec.players.iter().any(Seat::is_bot)
}

/// A seat's display name.
pub(crate) fn seat_name(lang: Lang, seat: &Seat) -> String {
    match seat {
        Seat::Human { name, .. } => name.clone(),
        Seat::Bot { level } => {
            let level_name = i18n::t(lang, &format!("level-{level}"));
            i18n::tr(lang, fl!("bot-name"), &[("level", i18n::s(level_name))])
        }
        Seat::Deleted => i18n::t(lang, fl!("deleted-player")),
    }
}

/// A seat's display name as a message's argument: a person's name marked as theirs (shown as
/// typed, never as markup), the bot's and "deleted player" as the bot's own words.
pub(crate) fn seat_arg(lang: Lang, seat: &Seat) -> fluent_bundle::FluentValue<'static> {
    match seat {
        Seat::Human { name, .. } => i18n::u(name),
        Seat::Bot { .. } | Seat::Deleted => i18n::s(seat_name(lang, seat)),
    }
}

/// The game a record describes, or a reply saying the record is broken.
pub(crate) fn game_of(lang: Lang, rec: &GameRecord) -> Result<Game, Reply> {
    rec.to_game().map_err(|e| {
        tracing::error!(
            "game {} in channel {} unreadable: {e}",
            rec.id,
            rec.channel_id
        );
        Reply::failure(i18n::t(lang, fl!("err-storage")))
    })
}

/// A storage failure: nothing changed; the user may try again.
pub(crate) fn storage_failed(lang: Lang, e: &StoreError) -> Reply {
    tracing::error!("storage: {e}");
    Reply::failure(i18n::t(lang, fl!("err-storage")))
}
