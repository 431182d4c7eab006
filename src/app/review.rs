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
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

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

/// The last reviews, shared by the clones of the app.
#[derive(Clone, Default)]
pub(crate) struct ReviewCache(Arc<Mutex<KeptReviews>>);

impl ReviewCache {
    fn put(&self, game_id: u64, r: Reviewed) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(id, _)| *id != game_id);
        kept.push_back((game_id, Arc::new(r)));
        while kept.len() > KEPT_REVIEWS {
            kept.pop_front();
        }
    }

    fn get(&self, game_id: u64) -> Option<Arc<Reviewed>> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .find(|(id, _)| *id == game_id)
            .map(|(_, r)| Arc::clone(r))
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
    /// `/review [game]`: the game named by its id, or the channel's game (under way or the
    /// last finished). `progress` is called as positions are searched.
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
        let options = ReviewOptions::default();
        let review = match review_in_pool(&self.pool, &game, &options, progress).await {
            Ok(r) => r,
            Err(ReviewError::NoMoves) => {
                return Reply::private(t(lang, "err-review-no-moves")).into()
            }
            // The process is stopping: the next one will do it.
            Err(ReviewError::Pool(PoolError::ShutDown)) => {
                tracing::info!("review of game {} cut short: stopping", rec.id);
                return Reply::private(t(lang, "err-restarting")).into();
            }
            Err(ReviewError::Pool(e)) => {
                tracing::error!("review of game {} failed: {e}", rec.id);
                return Reply::private(t(lang, "err-review-failed")).into();
            }
        };
        let reply = summary_reply(lang, &rec, &game, &review);
        self.reviews.put(rec.id, Reviewed { rec, game, review });
        reply.into()
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
        let rec = match self.store.active_game(place.channel_id) {
            Ok(Some(r)) if r.id == id => Some(r),
            Ok(_) => self
                .store
                .archived_game(id)
                .map_err(|e| storage_failed(lang, &e))?,
            Err(e) => return Err(storage_failed(lang, &e)),
        };
        // A game is reviewed where it was played, or by someone who played it.
        match rec {
            Some(r) if r.channel_id == place.channel_id || seat_of(&r, actor.user_id).is_some() => {
                Ok(r)
            }
            _ => Err(unknown()),
        }
    }

    /// A page button: the `index`th move worth a look of game `game_id`'s review, privately.
    pub async fn review_page(&self, actor: &Actor, game_id: u64, index: usize) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(game_id) else {
            return Reply::private(t(lang, "err-review-expired")).into();
        };
        let shown = pages(&kept.review);
        let Some(ply) = shown.get(index) else {
            return Reply::private(t(lang, "err-stale")).into();
        };
        page_reply(lang, &kept, ply, index, shown.len()).into()
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
        let drawn = self
            .pool
            .submit(JobClass::Long, move |_| {
                render::replay_gif(&game, perspective, |ply| {
                    captions.get(ply).cloned().unwrap_or_default()
                })
            })
            .await;
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
fn summary_reply(lang: Lang, rec: &GameRecord, game: &Game, review: &Review) -> Reply {
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
            rec.channel_id,
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
fn page_reply(lang: Lang, kept: &Reviewed, p: &PlyReview, index: usize, count: usize) -> Reply {
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
            .push(page_button(rec.channel_id, rec.id, index - 1, label));
    }
    if index + 1 < count {
        let label = t(lang, "button-review-next");
        reply
            .buttons
            .push(page_button(rec.channel_id, rec.id, index + 1, label));
    }
    reply
}
