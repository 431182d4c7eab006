//! `/review [game]`: a game judged move by move (see [`crate::ai::review_in_pool`]), answered
//! with a summary per player, the evaluation chart, and buttons paging through the moves
//! worth a look — each a board with the move played (red arrow) and the better one (green).
//!
//! The analysis runs on the search pool; the front end passes a plain callback to follow its
//! progress ([`progress_text`] words it). Reviews are kept in memory (the last
//! [`KEPT_REVIEWS`]) so the page buttons answer at once; after a restart a button asks for a
//! new `/review`.

use super::board::{caption_of, off_the_async_workers, perspective, players_line};
use super::i18n::{self, n, s, t, tr, u, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{plain, Button, ButtonStyle, Reply};
use super::{game_of, seat_arg, seat_of, storage_failed, Actor, Answer, App, Place};
use crate::ai::{
    expected_score, format_eval, line_notation, review_in_pool, JobClass, MoveClass, PlyReview,
    PoolError, Review, ReviewError, ReviewOptions,
};
use crate::engine::{Color, Game};
use crate::render::{self, BoardView, Caption, ChartLabels, ChartMark, MoveArrow};
use crate::store::GameRecord;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// How many reviews are kept for their page buttons.
pub const KEPT_REVIEWS: usize = 16;
/// Cells of the progress bar.
const BAR_CELLS: usize = 10;
/// Moves of a line shown after a page's better move and refutation.
const LINE_SHOWN: usize = 8;

/// A callback told `(positions searched, positions to search)` as the analysis goes.
pub type ReviewProgress<'a> = &'a (dyn Fn(usize, usize) + Send + Sync);

/// A finished review with the game it judges.
struct Reviewed {
    rec: GameRecord,
    game: Game,
    review: Review,
}

/// Reviews by game id, newest last.
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
        Reply::private(t(
            lang,
            match self {
                ReviewFailed::NoMoves => "err-review-no-moves",
                ReviewFailed::Stopping => "err-restarting",
                ReviewFailed::Busy => "err-bot-busy",
                ReviewFailed::Failed => "err-review-failed",
            },
        ))
    }
}

type ReviewOutcome = Option<Result<Arc<Reviewed>, ReviewFailed>>;

/// The reviews of this process: the last ones made (for their page buttons and for whoever
/// asks again), those being made (so a game is reviewed once at a time, its result shared
/// with everyone who asked meanwhile) and who is waiting for one (one each).
#[derive(Default)]
struct ReviewState {
    kept: KeptReviews,
    running: HashMap<u64, watch::Receiver<ReviewOutcome>>,
    asking: HashSet<u64>,
}

/// The reviews, shared by the clones of the app.
#[derive(Clone, Default)]
pub(crate) struct ReviewCache(Arc<Mutex<ReviewState>>);

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

/// A review being made: dropping it (done or not) lets the game be reviewed again, and
/// tells whoever waits that it failed unless a result was sent.
struct Making {
    cache: ReviewCache,
    game_id: u64,
    result: watch::Sender<ReviewOutcome>,
}

impl Drop for Making {
    fn drop(&mut self) {
        self.cache.lock().running.remove(&self.game_id);
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
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `None` when the person already waits for a review.
    fn start_asking(&self, user_id: u64) -> Option<Asking> {
        self.lock().asking.insert(user_id).then(|| Asking {
            cache: self.clone(),
            user_id,
        })
    }

    fn join(&self, game_id: u64, at_once: usize) -> Join {
        let mut state = self.lock();
        if let Some((_, r)) = state.kept.iter().find(|(id, _)| *id == game_id) {
            return Join::Kept(Arc::clone(r));
        }
        if let Some(running) = state.running.get(&game_id) {
            return Join::Running(running.clone());
        }
        if state.running.len() >= at_once {
            return Join::Full;
        }
        let (result, waiting) = watch::channel(None);
        state.running.insert(game_id, waiting);
        Join::Make(Making {
            cache: self.clone(),
            game_id,
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
                reviewed.rec = rec;
            }
            let kept = Arc::new(reviewed);
            state.kept.retain(|(id, _)| *id != making.game_id);
            state.kept.push_back((making.game_id, Arc::clone(&kept)));
            while state.kept.len() > KEPT_REVIEWS {
                state.kept.pop_front();
            }
            kept
        };
        making.result.send_replace(Some(Ok(Arc::clone(&kept))));
        kept
    }

    fn get(&self, game_id: u64) -> Option<Arc<Reviewed>> {
        self.lock()
            .kept
            .iter()
            .find(|(id, _)| *id == game_id)
            .map(|(_, r)| Arc::clone(r))
    }

    /// Forgets every kept review of a game `user_id` played (`/forget-me`): their name goes
    /// with it.
    pub(crate) fn forget_user(&self, user_id: u64) {
        self.lock()
            .kept
            .retain(|(_, r)| seat_of(&r.rec, user_id).is_none());
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
        "review-progress",
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
        let Some(_asking) = self.reviews.start_asking(actor.user_id) else {
            return Reply::private(t(lang, "err-review-already-asking")).into();
        };
        let reviewed = match self.reviews.join(rec.id, self.config.max_reviews) {
            Join::Kept(kept) => Ok(kept),
            Join::Full => Err(ReviewFailed::Busy),
            Join::Running(mut theirs) => match theirs.wait_for(Option::is_some).await {
                Ok(outcome) => outcome.clone().unwrap_or(Err(ReviewFailed::Failed)),
                Err(_) => Err(ReviewFailed::Failed),
            },
            Join::Make(making) => self.make_review(&making, rec, game, progress).await,
        };
        match reviewed {
            Ok(r) => summary_reply(lang, &r.rec, &r.game, &r.review, place.channel_id).into(),
            Err(failed) => failed.reply(lang).into(),
        }
    }

    /// Searches a review on the pool, if the pool takes new work now.
    async fn make_review(
        &self,
        making: &Making,
        rec: GameRecord,
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
        let options = ReviewOptions::default();
        let review = match review_in_pool(&self.pool, &game, &options, progress).await {
            Ok(r) => r,
            Err(ReviewError::NoMoves) => return failed(ReviewFailed::NoMoves),
            // The process is stopping: the next one will do it.
            Err(ReviewError::Pool(PoolError::ShutDown)) => {
                tracing::info!("review of game {} cut short: stopping", rec.id);
                return failed(ReviewFailed::Stopping);
            }
            Err(ReviewError::Pool(PoolError::Busy)) => return failed(ReviewFailed::Busy),
            Err(ReviewError::Pool(e)) => {
                tracing::error!("review of game {} failed: {e}", rec.id);
                return failed(ReviewFailed::Failed);
            }
        };
        let id = rec.id;
        let reviewed = Reviewed { rec, game, review };
        Ok(self.reviews.finish(making, reviewed, || {
            self.store.archived_game(id).ok().flatten()
        }))
    }

    /// Whether the engine may judge `game`'s moves now for `actor`, in `place`: fair play
    /// says never while that could help a game under way — the game itself, one that began
    /// with the same moves or one it continues, among the games under way in this channel and
    /// those the actor plays anywhere. Otherwise the refusal, saying why and when the game
    /// under way can be analysed. For `/review` of a stored game and of an attached record
    /// alike. (Judging someone else's game from elsewhere is not prevented: only its
    /// players, and the channel they play in, are known here.)
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
                return Err(Reply::private(tr(
                    lang,
                    "err-review-under-way",
                    &[("id", s(rec.id.to_string()))],
                )));
            }
        }
        Ok(())
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
            return rec.ok_or_else(|| Reply::private(t(lang, "err-no-game")));
        };
        let unknown = || Reply::private(tr(lang, "err-review-unknown-game", &[("id", u(text))]));
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

    /// A page button: the `index`th move worth a look of game `game_id`'s review, privately,
    /// in `place` (where the review was shown, which need not be where the game was played).
    pub async fn review_page(
        &self,
        actor: &Actor,
        place: Place,
        game_id: u64,
        index: usize,
    ) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(game_id) else {
            return Reply::private(t(lang, "err-review-expired")).into();
        };
        let shown = pages(&kept.review);
        let Some(ply) = shown.get(index) else {
            return Reply::private(t(lang, "err-stale")).into();
        };
        page_reply(lang, &kept, ply, index, shown.len(), place.channel_id).into()
    }
}

/// Whether a review of `record` could show the move to play in `under_way` (whose first
/// `opening` plies were given, not played): the record passes through the position on its
/// board now (it is that game, or continues it), or stops close enough before it for a line
/// a review page shows ([`LINE_SHOWN`] plies) to reach it. A game whose players have not
/// moved yet stands at the start every game shares, and gives nothing away.
fn reveals(record: &Game, under_way: &Game, opening: usize) -> bool {
    if record.variant() != under_way.variant()
        || record.start_position() != under_way.start_position()
    {
        return false;
    }
    let (r, g) = (record.moves(), under_way.moves());
    if g.len() <= opening {
        return false;
    }
    if r.len() >= g.len() {
        r[..g.len()] == *g
    } else {
        g.len() - r.len() <= LINE_SHOWN && g[..r.len()] == *r
    }
}

impl App {
    /// The game as an animated GIF (see [`render::replay_gif`]), drawn on the search pool as
    /// a long job; `None`, logged, if it cannot be drawn: the PDN goes out without it.
    pub(crate) async fn replay_gif(
        &self,
        lang: Lang,
        rec: &GameRecord,
        game: &Game,
    ) -> Option<Vec<u8>> {
        let notations = game.notations();
        let captions: Vec<Caption> = (0..=game.ply())
            .map(|ply| {
                let status = match ply.checked_sub(1) {
                    None => t(lang, "replay-start"),
                    Some(i) => tr(
                        lang,
                        "replay-status",
                        &[
                            ("number", s(move_number(game, i))),
                            ("move", s(&notations[i])),
                        ],
                    ),
                };
                caption_of(
                    i18n::variant_title(lang, rec.variant),
                    players_line(lang, rec),
                    status,
                )
            })
            .collect();
        let game = game.clone();
        let perspective = game.variant().first_player();
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
                tracing::error!("replay GIF of game {} failed: {e}", rec.id);
                None
            }
            // Stopping: the PDN goes out without its replay.
            Err(PoolError::ShutDown) => {
                tracing::info!("replay GIF of game {} not drawn: stopping", rec.id);
                None
            }
            Err(e) => {
                tracing::error!("replay GIF of game {} not drawn: {e}", rec.id);
                None
            }
        }
    }
}

/// The summary: a line per player, the chart, a button to the first page.
/// `shown_in`: the channel the summary is posted in, whose clicks its buttons answer.
fn summary_reply(
    lang: Lang,
    rec: &GameRecord,
    game: &Game,
    review: &Review,
    shown_in: u64,
) -> Reply {
    let mut lines = Vec::new();
    for c in [Color::White, Color::Black] {
        let p = review.player(c);
        let mut line = tr(
            lang,
            "review-player",
            &[
                ("name", seat_arg(lang, rec.seat(c))),
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
                "review-swing",
                &[
                    ("number", s(move_number(game, ply))),
                    ("move", s(&pr.played_text)),
                ],
            ));
        }
        lines.push(line);
    }
    let count = pages(review).len();
    lines.push(if count == 0 {
        t(lang, "review-no-errors")
    } else {
        tr(lang, "review-errors", &[("count", n(count as f64))])
    });
    let title = tr(
        lang,
        "review-title",
        &[("players", s(players_line(lang, rec)))],
    );
    let mut reply = Reply::public(lines.join("\n")).with_title(title);
    // The first player's expected score at every position (the chart's light side).
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
    let labels = ChartLabels {
        title: plain(&players_line(lang, rec)).into_owned(),
    };
    match off_the_async_workers(|| render::eval_chart_png(&expected, &marks, &labels)) {
        Ok(png) => reply.image = Some(png),
        Err(e) => tracing::error!("review chart failed: {e}"),
    }
    if count > 0 {
        reply.buttons.push(page_button(
            shown_in,
            rec.id,
            0,
            t(lang, "button-review-first"),
        ));
    }
    reply
}

fn page_button(channel_id: u64, game_id: u64, index: usize, label: String) -> Button {
    let mut id = ComponentId::new(Action::ReviewPage, channel_id, game_id);
    id.arg = Some(index.to_string());
    Button {
        id: id.encode(),
        label,
        style: ButtonStyle::Secondary,
    }
}

/// One move worth a look: the position before it with the move played and the better one as
/// arrows, what each leads to, and buttons to the neighbours.
fn page_reply(
    lang: Lang,
    kept: &Reviewed,
    p: &PlyReview,
    index: usize,
    count: usize,
    shown_in: u64,
) -> Reply {
    let (rec, game) = (&kept.rec, &kept.game);
    let before = game.positions()[p.ply];
    let after = game.positions()[p.ply + 1];
    let mut class = class_name(lang, p.class);
    if p.missed_shot {
        class.push_str(&format!(" · {}", t(lang, "review-missed-shot")));
    }
    if p.allowed_shot {
        class.push_str(&format!(" · {}", t(lang, "review-allowed-shot")));
    }
    let heading = tr(
        lang,
        "review-page-move",
        &[
            ("number", s(move_number(game, p.ply))),
            ("colour", s(i18n::color_name(lang, p.mover))),
            ("move", s(&p.played_text)),
            ("class", s(&class)),
        ],
    );
    let first = game.variant().first_player();
    let eval = tr(
        lang,
        "review-eval",
        &[
            ("before", s(format_eval(p.eval_before))),
            ("after", s(format_eval(p.eval_after))),
            ("colour", s(i18n::color_name(lang, first))),
        ],
    );
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
        "review-page-better",
        &[
            ("move", s(&p.best_text)),
            ("line", s(shorten(line_notation(&before, &p.best_line)))),
        ],
    );
    let refutation = tr(
        lang,
        "review-page-refutation",
        &[
            ("move", s(&p.played_text)),
            ("line", s(shorten(line_notation(&after, &p.refutation)))),
        ],
    );
    let text = [heading.clone(), eval, better, refutation].join("\n");
    let mut reply = Reply::private(text).with_title(format!(
        "{} ({}/{count})",
        t(lang, "review-page-title"),
        index + 1
    ));
    let view = BoardView {
        caption: caption_of(
            i18n::variant_title(lang, rec.variant),
            players_line(lang, rec),
            heading,
        ),
        last_move: p.ply.checked_sub(1).map(|i| game.moves()[i]),
        ..BoardView::new(&before, perspective(rec, game))
    };
    let arrows = [(p.played, MoveArrow::Played), (p.best, MoveArrow::Better)];
    let png = off_the_async_workers(|| {
        let renderer = render::Renderer::shared()?;
        render::encode_png(&renderer.draw_with_arrows(&view, &arrows))
    });
    match png {
        Ok(png) => reply.image = Some(png),
        Err(e) => tracing::error!("review page picture failed: {e}"),
    }
    if index > 0 {
        let label = t(lang, "button-review-prev");
        reply
            .buttons
            .push(page_button(shown_in, rec.id, index - 1, label));
    }
    if index + 1 < count {
        let label = t(lang, "button-review-next");
        reply
            .buttons
            .push(page_button(shown_in, rec.id, index + 1, label));
    }
    reply
}
