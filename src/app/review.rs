//! `/review [game]`: a game judged move by move (see [`crate::ai::review_in_pool`]), answered
//! with a summary per player, the evaluation chart, buttons paging through the moves worth a
//! look — each a board with the move played (red arrow) and the better one (green) — and a
//! button for the game as an animation.
//!
//! `/review file:` does the same for a game played anywhere: a game of an attached PDN file
//! (the front end fetches it; see [`crate::app::commands::Upload`]), read as a record
//! ([`crate::engine::read_pdn`]).
//!
//! The analysis runs on the search pool; the front end passes a plain callback to follow its
//! progress ([`progress_text`] words it). Reviews are kept in memory (the last
//! [`KEPT_REVIEWS`]) so the page buttons answer at once; after a restart a button asks for a
//! new `/review`. A review being made is shared with whoever asks for the same game
//! meanwhile; each person waits for one review at a time, and at most
//! [`super::Settings::max_reviews`] are made at once.
//!
//! Fair play ([`App::may_judge`]): no review, of a game here or of a record, while it could
//! help a game under way.

use super::board::{caption_of, describe_board, off_the_async_workers, perspective};
use super::commands::{ReviewRequest, Upload, UploadError, MAX_UPLOAD_BYTES};
use super::i18n::{self, n, s, t, tr, u, Lang, Msg};
use super::ids::{Action, ComponentId};
use super::reply::{plain, Attachment, Button, ButtonStyle, Picture, Reply};
use super::{game_of, seat_arg, seat_of, storage_failed, Actor, Answer, App, Place};
use crate::ai::{
    expected_score, line_notation, review_in_pool, EndgameVerdict, JobClass, MoveClass, PlyReview,
    PoolError, Review, ReviewError, ReviewOptions,
};
use crate::engine::{pdn_text, read_pdn_by_game_type, Color, Game, PdnRecord, Variant};
use crate::fl;
use crate::render::{self, BoardView, Caption, ChartLabels, ChartMark, MoveArrow};
use crate::store::{GameRecord, Seat};
use fluent_bundle::FluentValue;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// How many reviews are kept for their page buttons.
pub const KEPT_REVIEWS: usize = 16;
/// Cells of the progress bar.
const BAR_CELLS: usize = 10;
/// Moves of a line shown after a page's better move and refutation.
const LINE_SHOWN: usize = 8;
/// The longest game of a file reviewed, in plies: a review searches every position, and a
/// file may hold a game of thousands (real games stay well under 300).
pub const MAX_FILE_REVIEW_PLIES: usize = 400;
/// The bit that marks the review of a file's game in review keys (and their buttons): the
/// other keys are games' ids, which never reach it.
const FILE_REVIEW: u64 = 1 << 63;
/// Players' names longer than this, from a file's tags, are cut.
const NAME_CHARS: usize = 40;

/// A callback told `(positions searched, positions to search)` as the analysis goes.
pub type ReviewProgress<'a> = &'a (dyn Fn(usize, usize) + Send + Sync);

/// What a review is of, as its messages name it: a game played here, or a game of a file.
#[derive(Clone, Debug)]
pub(crate) struct Subject {
    /// The review's key, in the cache and in its buttons: the game's id, or [`FILE_REVIEW`]
    /// with a count for a file's game.
    pub id: u64,
    pub variant: Variant,
    pub white: Player,
    pub black: Player,
    /// The side the boards are seen from.
    pub perspective: Color,
    /// For a file's game: which one, the result its record states, and where live play
    /// would have declared a draw the players did not take.
    pub record_lines: Vec<String>,
}

/// A reviewed game's player, named in each reader's language when shown.
#[derive(Clone, Debug)]
pub(crate) enum Player {
    /// A seat of a game played here: a person (whose user id `/forget-me` looks for), the
    /// bot, or a deleted player.
    Seat(Seat),
    /// A name from a file's tag (cleaned and cut: [`tag_name`]); `None` when it names no one.
    Tagged(Option<String>),
}

impl Player {
    /// As a message's argument: what a person wrote (a display name, a tag) marked as theirs,
    /// the bot's own words as they are.
    fn arg(&self, lang: Lang) -> FluentValue<'static> {
        match self {
            Player::Seat(seat) => seat_arg(lang, seat),
            Player::Tagged(Some(name)) => u(name),
            Player::Tagged(None) => s(t(lang, fl!("record-unknown-player"))),
        }
    }
}

impl Subject {
    /// A game played here.
    pub fn of_game(rec: &GameRecord, game: &Game) -> Subject {
        Subject {
            id: rec.id,
            variant: rec.variant,
            white: Player::Seat(rec.seat(Color::White).clone()),
            black: Player::Seat(rec.seat(Color::Black).clone()),
            perspective: perspective(rec, game),
            record_lines: Vec::new(),
        }
    }

    /// "⚪ alice vs ⚫ bob", the names marked as people's text (see [`plain`]).
    pub fn players_line(&self, lang: Lang) -> String {
        tr(
            lang,
            fl!("players-line"),
            &[
                ("white", self.white.arg(lang)),
                ("black", self.black.arg(lang)),
            ],
        )
    }

    fn player(&self, c: Color) -> &Player {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Whether `user_id` played the game (a file's game names no one here).
    fn played_by(&self, user_id: u64) -> bool {
        [&self.white, &self.black]
            .into_iter()
            .any(|p| matches!(p, Player::Seat(seat) if seat.user_id() == Some(user_id)))
    }

    /// The review of a game played here, not of a file's.
    fn is_a_game_here(&self) -> bool {
        self.id & FILE_REVIEW == 0
    }
}

/// A finished review with the game it judges.
struct Reviewed {
    subject: Subject,
    game: Game,
    review: Review,
}

/// Reviews by key ([`Subject::id`]), newest last.
type KeptReviews = VecDeque<(u64, Arc<Reviewed>)>;

/// Why a review gave no result, told to everyone who waited for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReviewFailed {
    NoMoves,
    /// The process is stopping.
    Stopping,
    /// The search queues are full.
    Busy,
    Failed,
}

impl ReviewFailed {
    fn reply(self, lang: Lang) -> Reply {
        match self {
            ReviewFailed::NoMoves => Reply::refusal(t(lang, fl!("err-review-no-moves"))),
            ReviewFailed::Stopping => Reply::refusal(t(lang, fl!("err-restarting"))),
            ReviewFailed::Busy => Reply::refusal(t(lang, fl!("err-bot-busy"))),
            ReviewFailed::Failed => Reply::failure(t(lang, fl!("err-review-failed"))),
        }
    }
}

type ReviewOutcome = Option<Result<Arc<Reviewed>, ReviewFailed>>;

/// The reviews of this process: the last ones made (for their page buttons and for whoever
/// asks again), those being made (so a subject is reviewed once at a time, its result shared
/// with everyone who asked meanwhile) and who is waiting for one (one each).
#[derive(Default)]
struct ReviewState {
    kept: KeptReviews,
    running: HashMap<u64, watch::Receiver<ReviewOutcome>>,
    asking: HashSet<u64>,
}

/// The reviews, shared by the clones of the app.
#[derive(Clone, Default)]
pub(crate) struct ReviewCache {
    state: Arc<Mutex<ReviewState>>,
    /// Counts the reviews of files' games, for their keys.
    files: Arc<AtomicU64>,
}

/// What to do about a review asked for.
enum Join {
    /// It was made already.
    Kept(Arc<Reviewed>),
    /// Someone else's request is making it: wait for theirs.
    Running(watch::Receiver<ReviewOutcome>),
    /// Make it, and tell the others through this.
    Make(Making),
    /// As many reviews are being made as the bot makes at once.
    Full,
}

/// A review being made: dropping it (done or not) lets the subject be reviewed again, and
/// tells whoever waits that it failed unless a result was sent.
struct Making {
    cache: ReviewCache,
    key: u64,
    result: watch::Sender<ReviewOutcome>,
}

impl Drop for Making {
    fn drop(&mut self) {
        self.cache.lock().running.remove(&self.key);
        self.result.send_if_modified(|r| {
            let unsent = r.is_none();
            if unsent {
                *r = Some(Err(ReviewFailed::Failed));
            }
            unsent
        });
    }
}

/// A person's place among those waiting for a review; dropping it frees it.
struct Asking {
    cache: ReviewCache,
    user_id: u64,
}

impl Drop for Asking {
    fn drop(&mut self) {
        self.cache.lock().asking.remove(&self.user_id);
    }
}

impl ReviewCache {
    fn lock(&self) -> MutexGuard<'_, ReviewState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `None` when the person already waits for a review.
    fn start_asking(&self, user_id: u64) -> Option<Asking> {
        self.lock().asking.insert(user_id).then(|| Asking {
            cache: self.clone(),
            user_id,
        })
    }

    fn join(&self, key: u64, at_once: usize) -> Join {
        let mut state = self.lock();
        if let Some((_, r)) = state.kept.iter().find(|(id, _)| *id == key) {
            return Join::Kept(Arc::clone(r));
        }
        if let Some(running) = state.running.get(&key) {
            return Join::Running(running.clone());
        }
        if state.running.len() >= at_once {
            return Join::Full;
        }
        let (result, waiting) = watch::channel(None);
        state.running.insert(key, waiting);
        Join::Make(Making {
            cache: self.clone(),
            key,
            result,
        })
    }

    /// Keeps a finished review and hands it to whoever waits. `current` reads the game's
    /// record as stored now, under the same lock as [`ReviewCache::forget_user`]: a person
    /// erased while their game was being reviewed is not brought back by the review.
    fn finish(
        &self,
        making: &Making,
        mut reviewed: Reviewed,
        current: impl FnOnce() -> Option<GameRecord>,
    ) -> Arc<Reviewed> {
        let kept = {
            let mut state = self.lock();
            if let Some(rec) = current() {
                reviewed.subject.white = Player::Seat(rec.seat(Color::White).clone());
                reviewed.subject.black = Player::Seat(rec.seat(Color::Black).clone());
            }
            let kept = Arc::new(reviewed);
            state.kept.retain(|(id, _)| *id != making.key);
            state.kept.push_back((making.key, Arc::clone(&kept)));
            while state.kept.len() > KEPT_REVIEWS {
                state.kept.pop_front();
            }
            kept
        };
        making.result.send_replace(Some(Ok(Arc::clone(&kept))));
        kept
    }

    fn get(&self, key: u64) -> Option<Arc<Reviewed>> {
        self.lock()
            .kept
            .iter()
            .find(|(id, _)| *id == key)
            .map(|(_, r)| Arc::clone(r))
    }

    /// A new key for the review of a file's game.
    fn file_key(&self) -> u64 {
        FILE_REVIEW | (self.files.fetch_add(1, Ordering::Relaxed) & !FILE_REVIEW)
    }

    /// Forgets every kept review of a game `user_id` played (`/forget-me`): their name goes
    /// with it.
    pub(crate) fn forget_user(&self, user_id: u64) {
        self.lock()
            .kept
            .retain(|(_, r)| !r.subject.played_by(user_id));
    }
}

/// "Analysing ▓▓▓░░░░░░░ 24/60".
pub fn progress_text(lang: Lang, done: usize, total: usize) -> String {
    let filled = (done * BAR_CELLS)
        .checked_div(total)
        .unwrap_or(0)
        .min(BAR_CELLS);
    let bar = format!("{}{}", "▓".repeat(filled), "░".repeat(BAR_CELLS - filled));
    tr(
        lang,
        fl!("review-progress"),
        &[
            ("bar", s(bar)),
            ("done", n(done as f64)),
            ("total", n(total as f64)),
        ],
    )
}

/// The moves a review's buttons page through: inaccuracies, mistakes and blunders.
fn pages(review: &Review) -> Vec<&PlyReview> {
    review.errors().collect()
}

/// "12." for the first player's move, "12…" for the second's, numbered as the PDN does.
fn move_number(game: &Game, ply: usize) -> String {
    let first = game.variant().first_player();
    let offset = usize::from(game.start_position().side_to_move() != first);
    let p = ply + offset;
    if p % 2 == 0 {
        format!("{}.", p / 2 + 1)
    } else {
        format!("{}…", p / 2 + 1)
    }
}

fn class_name(lang: Lang, class: MoveClass) -> String {
    t(lang, &format!("review-class-{}", class.id()))
}

impl App {
    /// `/review`, as asked: a game played here, or a game of an attached file.
    pub async fn review_requested(
        &self,
        actor: &Actor,
        place: Place,
        request: ReviewRequest<'_>,
        progress: ReviewProgress<'_>,
    ) -> Answer {
        match request {
            ReviewRequest::Game(which) => self.review(actor, place, which, progress).await,
            ReviewRequest::File { game_too: true, .. } => {
                Reply::refusal(t(actor.lang(), fl!("err-review-file-and-game"))).into()
            }
            ReviewRequest::File {
                upload,
                number,
                variant,
                ..
            } => {
                self.review_file(actor, place, upload, number, variant, progress)
                    .await
            }
        }
    }

    /// `/review [game]`: the game named by its id, or the channel's last game, once it is
    /// over ([`App::may_judge`]). `progress` is called as positions are searched. One review
    /// at a time per person; a game being reviewed for someone else is not reviewed twice:
    /// its result is shared, and kept reviews are answered at once.
    pub async fn review(
        &self,
        actor: &Actor,
        place: Place,
        which: Option<&str>,
        progress: ReviewProgress<'_>,
    ) -> Answer {
        let lang = actor.lang();
        let rec = match self.game_to_review(actor, place, which) {
            Ok(rec) => rec,
            Err(r) => return r.into(),
        };
        let game = match game_of(lang, &rec) {
            Ok(g) => g,
            Err(r) => return r.into(),
        };
        if let Err(r) = self.may_judge(actor, place, &game) {
            return r.into();
        }
        let subject = Subject::of_game(&rec, &game);
        self.review_subject(actor, place, subject, game, progress)
            .await
    }

    /// `/review file:`: game `number` (from 1) of an attached PDN file, read as `variant`
    /// (else as each game's GameType tag says, Spanish without one), reviewed like a game
    /// played here.
    pub async fn review_file(
        &self,
        actor: &Actor,
        place: Place,
        upload: &Upload,
        number: Option<i64>,
        variant: Option<Variant>,
        progress: ReviewProgress<'_>,
    ) -> Answer {
        let lang = actor.lang();
        let record = match self.record_to_review(actor, place, upload, number, variant) {
            Ok(r) => r,
            Err(reply) => return reply.into(),
        };
        let subject = Subject {
            id: self.reviews.file_key(),
            variant: record.game.variant(),
            white: Player::Tagged(tag_name(record.tag("White"))),
            black: Player::Tagged(tag_name(record.tag("Black"))),
            perspective: record.game.variant().first_player(),
            record_lines: record_lines(lang, &upload.filename, &record),
        };
        self.review_subject(actor, place, subject, record.game, progress)
            .await
    }

    /// The game of a file that `/review file:` means, or the private reply refusing it.
    fn record_to_review(
        &self,
        actor: &Actor,
        place: Place,
        upload: &Upload,
        number: Option<i64>,
        variant: Option<Variant>,
    ) -> Result<PdnRecord, Reply> {
        let lang = actor.lang();
        let refuse = |id: Msg<'_>| Reply::refusal(t(lang, id));
        let bytes = match &upload.content {
            Ok(bytes) if bytes.len() > MAX_UPLOAD_BYTES => {
                return Err(too_big(lang));
            }
            Ok(bytes) => bytes,
            Err(UploadError::TooBig) => return Err(too_big(lang)),
            Err(UploadError::NotAllowed) => return Err(refuse(fl!("err-review-file-not-allowed"))),
            Err(UploadError::TimedOut) => return Err(refuse(fl!("err-review-file-slow"))),
            Err(UploadError::Failed) => return Err(refuse(fl!("err-review-file-unreachable"))),
        };
        // A picture, an archive, a letter: no PDN file at all.
        let Ok(text) = pdn_text(bytes) else {
            return Err(refuse(fl!("err-review-file-not-pdn")));
        };
        let games = match variant {
            Some(v) => crate::engine::read_pdn(&text, v),
            None => read_pdn_by_game_type(&text, Variant::default()),
        };
        let wanted = usize::try_from(number.unwrap_or(1).max(1)).unwrap_or(usize::MAX);
        let mut count = 0usize;
        let mut chosen = None;
        for game in games {
            count += 1;
            if count == wanted {
                chosen = Some(game);
            }
        }
        let record = match chosen {
            None => {
                return Err(Reply::refusal(tr(
                    lang,
                    fl!("err-review-file-number"),
                    &[("count", n(count as f64)), ("number", n(wanted as f64))],
                )))
            }
            Some(Err(refusal)) => {
                return Err(Reply::refusal(tr(
                    lang,
                    fl!("err-review-file-game-refused"),
                    &[("reason", s(i18n::pdn_refusal_text(lang, &refusal)))],
                )))
            }
            Some(Ok(record)) => record,
        };
        if record.game.ply() == 0 {
            return Err(refuse(fl!("err-review-no-moves")));
        }
        if record.game.ply() > MAX_FILE_REVIEW_PLIES {
            return Err(Reply::refusal(tr(
                lang,
                fl!("err-review-file-too-long"),
                &[
                    ("plies", n(record.game.ply() as f64)),
                    ("limit", n(MAX_FILE_REVIEW_PLIES as f64)),
                ],
            )));
        }
        self.may_judge(actor, place, &record.game)?;
        Ok(record)
    }

    /// Whether the engine may judge `game`'s moves now for `actor`, in `place`: fair play
    /// says never while that could help a game under way — the game itself, one that began
    /// with the same moves or one it continues, or one that reaches the position on its board
    /// by other moves — among the games under way in this channel and those the actor plays
    /// anywhere. Otherwise the refusal, saying why and when the game under way can be
    /// analysed. For `/review` of a stored game and of an attached record alike. (Judging
    /// someone else's game from elsewhere is not prevented: only its players, and the channel
    /// they play in, are known here.)
    pub fn may_judge(&self, actor: &Actor, place: Place, game: &Game) -> Result<(), Reply> {
        let lang = actor.lang();
        let mut under_way: Vec<GameRecord> = Vec::new();
        match self.store.active_game(place.channel_id) {
            Ok(rec) => under_way.extend(rec),
            Err(e) => return Err(storage_failed(lang, &e)),
        }
        let playing = match self.store.playing(actor.user_id) {
            Ok(p) => p.games,
            Err(e) => return Err(storage_failed(lang, &e)),
        };
        for g in playing {
            match self.store.active_game(g.channel_id) {
                Ok(Some(rec)) if rec.id == g.game_id => under_way.push(rec),
                Ok(_) => {}
                Err(e) => return Err(storage_failed(lang, &e)),
            }
        }
        for rec in under_way {
            let Ok(theirs) = rec.to_game() else {
                continue;
            };
            // A ballot game's first plies were drawn, not played.
            let opening = match rec.opening.as_deref().map(super::ballot::Opening::parse) {
                Some(Ok(o)) => o.stored_moves().len(),
                _ => 0,
            };
            if reveals(game, &theirs, opening) {
                return Err(Reply::refusal(tr(
                    lang,
                    fl!("err-review-under-way"),
                    &[("id", s(rec.id.to_string()))],
                )));
            }
        }
        Ok(())
    }

    /// Reviews a game on the search pool (or joins the review of it being made, or answers
    /// with the one kept) and answers with its summary, shown in `place`.
    async fn review_subject(
        &self,
        actor: &Actor,
        place: Place,
        subject: Subject,
        game: Game,
        progress: ReviewProgress<'_>,
    ) -> Answer {
        let lang = actor.lang();
        let Some(_asking) = self.reviews.start_asking(actor.user_id) else {
            return Reply::refusal(t(lang, fl!("err-review-already-asking"))).into();
        };
        let reviewed = match self.reviews.join(subject.id, self.settings.max_reviews) {
            Join::Kept(kept) => Ok(kept),
            Join::Full => Err(ReviewFailed::Busy),
            Join::Running(mut theirs) => match theirs.wait_for(Option::is_some).await {
                Ok(outcome) => outcome.clone().unwrap_or(Err(ReviewFailed::Failed)),
                Err(_) => Err(ReviewFailed::Failed),
            },
            Join::Make(making) => self.make_review(&making, subject, game, progress).await,
        };
        match reviewed {
            Ok(r) => summary_reply(lang, &r.subject, &r.game, &r.review, place.channel_id).into(),
            Err(failed) => failed.reply(lang).into(),
        }
    }

    /// Searches a review on the pool, if the pool takes new work now.
    async fn make_review(
        &self,
        making: &Making,
        subject: Subject,
        game: Game,
        progress: ReviewProgress<'_>,
    ) -> Result<Arc<Reviewed>, ReviewFailed> {
        let failed = |why: ReviewFailed| {
            making.result.send_replace(Some(Err(why)));
            Err(why)
        };
        if !self.pool.has_room() {
            return failed(ReviewFailed::Busy);
        }
        let options = ReviewOptions {
            deep_positions: self.settings.review_deep_positions,
            ..ReviewOptions::default()
        };
        let review = match review_in_pool(&self.pool, &game, &options, progress).await {
            Ok(r) => r,
            Err(ReviewError::NoMoves) => return failed(ReviewFailed::NoMoves),
            // The process is stopping: the next one will do it.
            Err(ReviewError::Pool(PoolError::ShutDown)) => {
                tracing::info!("review {:#x} cut short: stopping", subject.id);
                return failed(ReviewFailed::Stopping);
            }
            Err(ReviewError::Pool(PoolError::Busy)) => return failed(ReviewFailed::Busy),
            Err(ReviewError::Pool(e)) => {
                tracing::error!("review {:#x} failed: {e}", subject.id);
                return failed(ReviewFailed::Failed);
            }
        };
        let id = subject.id;
        let here = subject.is_a_game_here();
        let reviewed = Reviewed {
            subject,
            game,
            review,
        };
        Ok(self.reviews.finish(making, reviewed, || {
            // A file's game has no stored record: its names are the file's.
            here.then(|| self.store.archived_game(id).ok().flatten())
                .flatten()
        }))
    }

    /// The record `/review` means, or the reply refusing it.
    fn game_to_review(
        &self,
        actor: &Actor,
        place: Place,
        which: Option<&str>,
    ) -> Result<GameRecord, Reply> {
        let lang = actor.lang();
        let which = which.map(str::trim).filter(|w| !w.is_empty());
        let Some(text) = which else {
            let rec = match self.store.active_game(place.channel_id) {
                Ok(Some(r)) => Some(r),
                Ok(None) => match self.store.games_in_channel(place.channel_id, 1) {
                    Ok(mut v) => v.pop(),
                    Err(e) => return Err(storage_failed(lang, &e)),
                },
                Err(e) => return Err(storage_failed(lang, &e)),
            };
            return rec.ok_or_else(|| Reply::refusal(t(lang, fl!("err-no-game"))));
        };
        let unknown =
            || Reply::refusal(tr(lang, fl!("err-review-unknown-game"), &[("id", u(text))]));
        let id: u64 = text
            .trim_start_matches('#')
            .parse()
            .map_err(|_| unknown())?;
        let archived = self
            .store
            .archived_game(id)
            .map_err(|e| storage_failed(lang, &e))?;
        let rec = match archived {
            Some(r) => Some(r),
            // Under way: here, or one the actor plays (refused by fair play, with its reason).
            None => match self.store.active_game(place.channel_id) {
                Ok(Some(r)) if r.id == id => Some(r),
                Ok(_) => self.game_under_way_of(actor.user_id, id),
                Err(e) => return Err(storage_failed(lang, &e)),
            },
        };
        // A game is reviewed where it was played, or by someone who played it.
        match rec {
            Some(r) if r.channel_id == place.channel_id || seat_of(&r, actor.user_id).is_some() => {
                Ok(r)
            }
            _ => Err(unknown()),
        }
    }

    /// Game `game_id`, if it is under way and `user_id` plays in it.
    fn game_under_way_of(&self, user_id: u64, game_id: u64) -> Option<GameRecord> {
        let playing = self.store.playing(user_id).ok()?;
        let g = playing.games.iter().find(|g| g.game_id == game_id)?;
        self.store
            .active_game(g.channel_id)
            .ok()
            .flatten()
            .filter(|rec| rec.id == game_id)
    }

    /// A page button: the `index`th move worth a look of review `key`, privately, in
    /// `place` (where the review was shown, which need not be where the game was played).
    pub async fn review_page(&self, actor: &Actor, place: Place, key: u64, index: usize) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(key) else {
            return Reply::refusal(t(lang, fl!("err-review-expired"))).into();
        };
        let shown = pages(&kept.review);
        let Some(ply) = shown.get(index) else {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        };
        page_reply(lang, &kept, ply, index, shown.len(), place.channel_id).into()
    }

    /// The GIF button of a review: the reviewed game as an animation, privately.
    pub async fn review_gif(&self, actor: &Actor, key: u64) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(key) else {
            return Reply::refusal(t(lang, fl!("err-review-expired"))).into();
        };
        match self.replay_gif(lang, &kept.subject, &kept.game).await {
            Some(gif) => {
                let mut reply = Reply::private(t(lang, fl!("review-gif-attached")));
                // Said as the replay of a Discord game is: what it is, then the final position.
                let description = describe_board(
                    lang,
                    &i18n::variant_title(lang, kept.subject.variant),
                    &[
                        t(lang, fl!("alt-replay")),
                        plain(&kept.subject.players_line(lang)).into_owned(),
                    ],
                    kept.game.position(),
                    false,
                    &[],
                );
                reply.files.push(Attachment {
                    filename: "damas-review.gif".into(),
                    bytes: gif,
                    description: Some(description),
                });
                reply.into()
            }
            None => Reply::refusal(t(lang, fl!("err-review-gif-failed"))).into(),
        }
    }
}

/// Whether a review of `record` could show the move to play in `under_way` (whose first
/// `opening` plies were given, not played): the record passes through the position on its
/// board now (it is that game, continues it, or reaches it by other moves), or stops close
/// enough before it for a line a review page shows ([`LINE_SHOWN`] plies) to reach it. A
/// game whose players have not moved yet stands where every game with its opening stands,
/// and gives nothing away.
fn reveals(record: &Game, under_way: &Game, opening: usize) -> bool {
    if record.variant() != under_way.variant() {
        return false;
    }
    let (r, g) = (record.moves(), under_way.moves());
    if g.len() <= opening {
        return false;
    }
    let now = under_way.position();
    if record.positions().iter().any(|p| p == now) {
        return true;
    }
    if record.start_position() != under_way.start_position() {
        return false;
    }
    r.len() < g.len() && g.len() - r.len() <= LINE_SHOWN && g[..r.len()] == *r
}

/// "That file is too big: at most 256 KB."
fn too_big(lang: Lang) -> Reply {
    Reply::refusal(tr(
        lang,
        fl!("err-review-file-too-big"),
        &[("limit", n((MAX_UPLOAD_BYTES / 1024) as f64))],
    ))
}

/// A player's name from a file's tag: trimmed, cut to [`NAME_CHARS`], without control
/// characters; `None` for "?" or nothing (an unknown player).
fn tag_name(tag: Option<&str>) -> Option<String> {
    let name: String = tag
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let name = name.trim();
    if name.is_empty() || name == "?" {
        return None;
    }
    let mut cut: String = name.chars().take(NAME_CHARS).collect();
    if cut.len() < name.len() {
        cut.push('…');
    }
    Some(cut)
}

/// The lines a file's game adds to its review: which game of which file, its stated result,
/// and where live play would have declared a draw.
fn record_lines(lang: Lang, filename: &str, record: &PdnRecord) -> Vec<String> {
    let file: String = filename
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_CHARS)
        .collect();
    let mut lines = vec![tr(
        lang,
        fl!("review-file-game"),
        &[("number", n(record.number as f64)), ("file", u(file))],
    )];
    let game = &record.game;
    lines.push(match game.outcome() {
        Some(o) => i18n::result_text(lang, Some(o)),
        None => i18n::record_result_text(lang, record.result),
    });
    // Only where the players went on: a record that ends there ended as live play would have.
    if let Some((ply, reason)) = game.unclaimed_draw().filter(|(ply, _)| *ply < game.ply()) {
        if let Some(i) = ply.checked_sub(1) {
            let notations = game.notations();
            lines.push(i18n::unclaimed_draw_text(
                lang,
                reason,
                &move_number(game, i),
                &notations[i],
            ));
        }
    }
    lines
}

impl App {
    /// The game as an animated GIF (see [`render::replay_gif`]), drawn on the search pool as
    /// a long job; `None`, logged, if it cannot be drawn: the PDN goes out without it.
    pub(crate) async fn replay_gif(
        &self,
        lang: Lang,
        subject: &Subject,
        game: &Game,
    ) -> Option<Vec<u8>> {
        let notations = game.notations();
        let captions: Vec<Caption> = (0..=game.ply())
            .map(|ply| {
                let status = match ply.checked_sub(1) {
                    None => t(lang, fl!("replay-start")),
                    Some(i) => tr(
                        lang,
                        fl!("replay-status"),
                        &[
                            ("number", s(move_number(game, i))),
                            ("move", s(&notations[i])),
                        ],
                    ),
                };
                caption_of(
                    i18n::variant_title(lang, subject.variant),
                    subject.players_line(lang),
                    status,
                )
            })
            .collect();
        let game = game.clone();
        let perspective = game.variant().first_player();
        let id = subject.id;
        // New work: left out (the PDN goes alone) when the search queues are full.
        let drawn = match self.pool.try_submit(JobClass::Long, move |_| {
            render::replay_gif(&game, perspective, |ply| {
                captions.get(ply).cloned().unwrap_or_default()
            })
        }) {
            Ok(ticket) => ticket.await,
            Err(e) => Err(e),
        };
        match drawn {
            Ok(Ok(bytes)) => Some(bytes),
            Ok(Err(e)) => {
                tracing::error!("replay GIF {id:#x} failed: {e}");
                None
            }
            // Stopping: the PDN goes out without its replay.
            Err(PoolError::ShutDown) => {
                tracing::info!("replay GIF {id:#x} not drawn: stopping");
                None
            }
            Err(e) => {
                tracing::error!("replay GIF {id:#x} not drawn: {e}");
                None
            }
        }
    }
}

/// The summary: a line per player, the chart, a button to the first page and one for the
/// animation. `shown_in`: the channel the summary is posted in, whose clicks its buttons
/// answer.
fn summary_reply(
    lang: Lang,
    subject: &Subject,
    game: &Game,
    review: &Review,
    shown_in: u64,
) -> Reply {
    let mut lines = subject.record_lines.clone();
    for c in [Color::White, Color::Black] {
        let p = review.player(c);
        let mut line = tr(
            lang,
            fl!("review-player"),
            &[
                ("name", subject.player(c).arg(lang)),
                ("colour", s(i18n::color_name(lang, c))),
                ("accuracy", n(p.accuracy.round())),
                ("inaccuracies", n(p.inaccuracies as f64)),
                ("mistakes", n(p.mistakes as f64)),
                ("blunders", n(p.blunders as f64)),
                ("missed", n(p.missed_shots as f64)),
            ],
        );
        if let Some(ply) = p.biggest_swing {
            let pr = &review.plies[ply];
            line.push_str(" · ");
            line.push_str(&tr(
                lang,
                fl!("review-swing"),
                &[
                    ("number", s(move_number(game, ply))),
                    ("move", s(&pr.played_text)),
                ],
            ));
        }
        lines.push(line);
    }
    let book: Vec<&PlyReview> = review.plies.iter().filter(|p| p.book).collect();
    if let Some(last) = book.last() {
        lines.push(tr(
            lang,
            // English's book holds the masters' moves; the others are grown from Expert's own
            // self-play, and the text says whose moves they are.
            if game.variant() == Variant::English {
                fl!("review-book")
            } else {
                fl!("review-book-selfplay")
            },
            &[
                ("count", n(book.len() as f64)),
                ("number", s(move_number(game, last.ply))),
                ("move", s(&last.played_text)),
            ],
        ));
    }
    let count = pages(review).len();
    lines.push(if count == 0 {
        t(lang, fl!("review-no-errors"))
    } else {
        tr(lang, fl!("review-errors"), &[("count", n(count as f64))])
    });
    let title = tr(
        lang,
        fl!("review-title"),
        &[("players", s(subject.players_line(lang)))],
    );
    let mut reply = Reply::public(lines.join("\n")).with_title(title);
    // White's expected score at every position: the chart's light side is White's.
    let expected: Vec<f64> = review.evals.iter().map(|&e| expected_score(e)).collect();
    let marks: Vec<(usize, ChartMark)> = review
        .plies
        .iter()
        .filter_map(|p| {
            let mark = match p.class {
                MoveClass::Inaccuracy => ChartMark::Inaccuracy,
                MoveClass::Mistake => ChartMark::Mistake,
                MoveClass::Blunder => ChartMark::Blunder,
                _ => return None,
            };
            Some((p.ply + 1, mark))
        })
        .collect();
    let side = |c: Color| {
        tr(
            lang,
            fl!("review-chart-side"),
            &[("side", s(i18n::color_name(lang, c)))],
        )
    };
    let labels = ChartLabels {
        title: plain(&subject.players_line(lang)).into_owned(),
        upper: side(Color::White),
        lower: side(Color::Black),
    };
    let end = review.evals.last().copied().unwrap_or(0);
    let description = chart_description(lang, game, review, &i18n::eval_text(lang, end));
    match off_the_async_workers(|| render::eval_chart_png(&expected, &marks, &labels)) {
        Ok(png) => reply.image = Some(Picture { png, description }),
        Err(e) => tracing::error!("review chart failed: {e}"),
    }
    if count > 0 {
        reply.buttons.push(page_button(
            shown_in,
            subject.id,
            0,
            t(lang, fl!("button-review-first")),
        ));
    }
    reply.buttons.push(Button {
        id: ComponentId::new(Action::ReviewGif, shown_in, subject.id).encode(),
        label: t(lang, fl!("button-review-gif")),
        style: ButtonStyle::Secondary,
    });
    reply
}

/// The chart in words: what its line shows, where it ends, and each move its dots mark (as
/// many as fit the description's limit, then how many more).
fn chart_description(lang: Lang, game: &Game, review: &Review, end: &str) -> String {
    let head = tr(lang, fl!("alt-chart"), &[("end", s(end))]);
    let marked: Vec<String> = review
        .plies
        .iter()
        .filter(|p| {
            matches!(
                p.class,
                MoveClass::Inaccuracy | MoveClass::Mistake | MoveClass::Blunder
            )
        })
        .map(|p| {
            tr(
                lang,
                fl!("alt-chart-mark"),
                &[
                    ("class", s(class_name(lang, p.class))),
                    (
                        "move",
                        s(format!("{} {}", move_number(game, p.ply), p.played_text)),
                    ),
                ],
            )
        })
        .collect();
    if marked.is_empty() {
        return head;
    }
    let with = |shown: usize| {
        let mut list = marked[..shown].join(", ");
        if shown < marked.len() {
            list = tr(
                lang,
                fl!("alt-more"),
                &[
                    ("moves", s(list)),
                    ("count", n((marked.len() - shown) as f64)),
                ],
            );
        }
        let marks = tr(
            lang,
            fl!("alt-chart-marks"),
            &[("count", n(marked.len() as f64)), ("marks", s(list))],
        );
        format!("{head} {marks}")
    };
    (1..=marked.len())
        .rev()
        .map(with)
        .find(|text| text.chars().count() <= crate::app::PICTURE_DESCRIPTION_LIMIT)
        .unwrap_or(head)
}

fn page_button(channel_id: u64, key: u64, index: usize, label: String) -> Button {
    let mut id = ComponentId::new(Action::ReviewPage, channel_id, key);
    id.arg = Some(index.to_string());
    Button {
        id: id.encode(),
        label,
        style: ButtonStyle::Secondary,
    }
}

/// One move worth a look: the position before it with the move played and the better one as
/// arrows, what each leads to, and buttons to the neighbours (which answer in `shown_in`).
fn page_reply(
    lang: Lang,
    kept: &Reviewed,
    p: &PlyReview,
    index: usize,
    count: usize,
    shown_in: u64,
) -> Reply {
    let (subject, game) = (&kept.subject, &kept.game);
    let before = game.positions()[p.ply];
    let after = game.positions()[p.ply + 1];
    let mut class = class_name(lang, p.class);
    if p.missed_shot {
        class.push_str(&format!(" · {}", t(lang, fl!("review-missed-shot"))));
    }
    if p.allowed_shot {
        class.push_str(&format!(" · {}", t(lang, fl!("review-allowed-shot"))));
    }
    let heading = tr(
        lang,
        fl!("review-page-move"),
        &[
            ("number", s(move_number(game, p.ply))),
            ("colour", s(i18n::color_name(lang, p.mover))),
            ("move", s(&p.played_text)),
            ("class", s(&class)),
        ],
    );
    // Where the endgame tables hold a position its result is exact: won, drawn or lost
    // (for White, as every score here is).
    let shown = |exact: Option<EndgameVerdict>, score: i32| match exact {
        Some(v) => i18n::exact_text(lang, v),
        None => i18n::eval_text(lang, score),
    };
    let mut eval = tr(
        lang,
        fl!("review-eval"),
        &[
            ("before", s(shown(p.exact_before, p.eval_before))),
            ("after", s(shown(p.exact_after, p.eval_after))),
        ],
    );
    // The figures once, from White's side, where both positions have one (a forced or a
    // proven win is said in words).
    let figure = |exact: Option<EndgameVerdict>, score: i32| {
        exact
            .is_none()
            .then(|| i18n::eval_number(lang, score))
            .flatten()
    };
    if let (Some(before), Some(after)) = (
        figure(p.exact_before, p.eval_before),
        figure(p.exact_after, p.eval_after),
    ) {
        eval.push('\n');
        eval.push_str(&tr(
            lang,
            fl!("review-eval-score"),
            &[("before", s(before)), ("after", s(after))],
        ));
    }
    let shorten = |line: Vec<String>| {
        let more = line.len() > LINE_SHOWN;
        let mut text = line
            .into_iter()
            .take(LINE_SHOWN)
            .collect::<Vec<_>>()
            .join(" ");
        if more {
            text.push_str(" …");
        }
        text
    };
    let better = tr(
        lang,
        fl!("review-page-better"),
        &[
            ("move", s(&p.best_text)),
            ("line", s(shorten(line_notation(&before, &p.best_line)))),
        ],
    );
    let refutation = tr(
        lang,
        fl!("review-page-refutation"),
        &[
            ("move", s(&p.played_text)),
            ("line", s(shorten(line_notation(&after, &p.refutation)))),
        ],
    );
    let text = [heading.clone(), eval, better, refutation].join("\n");
    let mut reply = Reply::private(text).with_title(format!(
        "{} ({}/{count})",
        t(lang, fl!("review-page-title")),
        index + 1
    ));
    let view = BoardView {
        caption: caption_of(
            i18n::variant_title(lang, subject.variant),
            subject.players_line(lang),
            heading.clone(),
        ),
        last_move: p.ply.checked_sub(1).map(|i| game.moves()[i]),
        ..BoardView::new(&before, subject.perspective)
    };
    let arrows = [(p.played, MoveArrow::Played), (p.best, MoveArrow::Better)];
    let png = off_the_async_workers(|| {
        let renderer = render::Renderer::shared()?;
        render::encode_png(&renderer.draw_with_arrows(&view, &arrows))
    });
    let arrows_text = tr(
        lang,
        fl!("alt-review-arrows"),
        &[("played", s(&p.played_text)), ("better", s(&p.best_text))],
    );
    let description = describe_board(
        lang,
        &i18n::variant_title(lang, subject.variant),
        &[heading],
        &before,
        false,
        &[arrows_text],
    );
    match png {
        Ok(png) => reply.image = Some(Picture { png, description }),
        Err(e) => tracing::error!("review page picture failed: {e}"),
    }
    if index > 0 {
        let label = t(lang, fl!("button-review-prev"));
        reply
            .buttons
            .push(page_button(shown_in, subject.id, index - 1, label));
    }
    if index + 1 < count {
        let label = t(lang, fl!("button-review-next"));
        reply
            .buttons
            .push(page_button(shown_in, subject.id, index + 1, label));
    }
    reply
}
