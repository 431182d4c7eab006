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
//! new `/review`.

use super::board::{describe_board, off_the_async_workers, perspective};
use super::commands::{ReviewRequest, Upload, UploadError, MAX_UPLOAD_BYTES};
use super::i18n::{self, n, s, t, tr, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{Attachment, Button, ButtonStyle, Picture, Reply};
use super::{game_of, seat_name, seat_of, storage_failed, Actor, Answer, App, Place};
use crate::ai::{
    expected_score, line_notation, review_in_pool, EndgameVerdict, JobClass, MoveClass, PlyReview,
    PoolError, Review, ReviewError, ReviewOptions,
};
use crate::engine::{
    decode_pdn, read_pdn_by_game_type, Color, Game, GameError, MoveError, PdnError, PdnRecord,
    PdnRefusal, Variant,
};
use crate::render::{self, BoardView, Caption, ChartLabels, ChartMark, MoveArrow};
use crate::store::GameRecord;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// The channel the review's buttons work in.
    pub channel_id: u64,
    pub variant: Variant,
    pub white: String,
    pub black: String,
    /// The side the boards are seen from.
    pub perspective: Color,
    /// For a file's game: which one, the result its record states, and where live play
    /// would have declared a draw the players did not take.
    pub record_lines: Vec<String>,
}

impl Subject {
    /// A game played here.
    pub fn of_game(lang: Lang, rec: &GameRecord, game: &Game) -> Subject {
        Subject {
            id: rec.id,
            channel_id: rec.channel_id,
            variant: rec.variant,
            white: seat_name(lang, rec.seat(Color::White)),
            black: seat_name(lang, rec.seat(Color::Black)),
            perspective: perspective(rec, game),
            record_lines: Vec::new(),
        }
    }

    /// "⚪ alice vs ⚫ bob".
    pub fn players_line(&self, lang: Lang) -> String {
        tr(
            lang,
            "players-line",
            &[("white", s(&self.white)), ("black", s(&self.black))],
        )
    }

    fn name(&self, c: Color) -> &str {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
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

/// The last reviews, shared by the clones of the app.
#[derive(Clone, Default)]
pub(crate) struct ReviewCache {
    kept: Arc<Mutex<KeptReviews>>,
    /// Counts the reviews of files' games, for their keys.
    files: Arc<AtomicU64>,
}

impl ReviewCache {
    fn put(&self, r: Reviewed) {
        let key = r.subject.id;
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(id, _)| *id != key);
        kept.push_back((key, Arc::new(r)));
        while kept.len() > KEPT_REVIEWS {
            kept.pop_front();
        }
    }

    fn get(&self, key: u64) -> Option<Arc<Reviewed>> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .find(|(id, _)| *id == key)
            .map(|(_, r)| Arc::clone(r))
    }

    /// A new key for the review of a file's game.
    fn file_key(&self) -> u64 {
        FILE_REVIEW | (self.files.fetch_add(1, Ordering::Relaxed) & !FILE_REVIEW)
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
                Reply::refusal(t(actor.lang(), "err-review-file-and-game")).into()
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
        let subject = Subject::of_game(lang, &rec, &game);
        self.review_subject(lang, subject, game, progress).await
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
        let record = match self.record_to_review(lang, place, upload, number, variant) {
            Ok(r) => r,
            Err(reply) => return reply.into(),
        };
        let subject = Subject {
            id: self.reviews.file_key(),
            channel_id: place.channel_id,
            variant: record.game.variant(),
            white: tag_name(lang, record.tag("White")),
            black: tag_name(lang, record.tag("Black")),
            perspective: record.game.variant().first_player(),
            record_lines: record_lines(lang, &upload.filename, &record),
        };
        self.review_subject(lang, subject, record.game, progress)
            .await
    }

    /// The game of a file that `/review file:` means, or the private reply refusing it.
    fn record_to_review(
        &self,
        lang: Lang,
        place: Place,
        upload: &Upload,
        number: Option<i64>,
        variant: Option<Variant>,
    ) -> Result<PdnRecord, Reply> {
        let refuse = |id: &str| Reply::refusal(t(lang, id));
        let bytes = match &upload.content {
            Ok(bytes) if bytes.len() > MAX_UPLOAD_BYTES => {
                return Err(too_big(lang));
            }
            Ok(bytes) => bytes,
            Err(UploadError::TooBig) => return Err(too_big(lang)),
            Err(UploadError::NotAllowed) => return Err(refuse("err-review-file-not-allowed")),
            Err(UploadError::TimedOut) => return Err(refuse("err-review-file-slow")),
            Err(UploadError::Failed) => return Err(refuse("err-review-file-unreachable")),
        };
        // A picture, an archive: bytes no text file holds.
        if bytes.contains(&0) {
            return Err(refuse("err-review-file-not-pdn"));
        }
        let text = decode_pdn(bytes);
        let games = match variant {
            Some(v) => crate::engine::read_pdn(&text, v),
            None => read_pdn_by_game_type(&text, Variant::default()),
        };
        let wanted = usize::try_from(number.unwrap_or(1).max(1)).unwrap_or(usize::MAX);
        let mut count = 0usize;
        let mut chosen = None;
        let mut first = None;
        for game in games {
            count += 1;
            if count == 1 {
                first = Some(game.clone());
            }
            if count == wanted {
                chosen = Some(game);
            }
        }
        let Some(first) = first else {
            return Err(refuse("err-review-file-not-pdn"));
        };
        if !looks_like_pdn(&first) {
            return Err(refuse("err-review-file-not-pdn"));
        }
        let record = match chosen {
            None => {
                return Err(Reply::refusal(tr(
                    lang,
                    "err-review-file-number",
                    &[("count", n(count as f64)), ("number", n(wanted as f64))],
                )))
            }
            Some(Err(refusal)) => {
                return Err(Reply::refusal(tr(
                    lang,
                    "err-review-file-game-refused",
                    &[("reason", s(i18n::pdn_refusal_text(lang, &refusal)))],
                )))
            }
            Some(Ok(record)) => record,
        };
        if record.game.ply() == 0 {
            return Err(refuse("err-review-no-moves"));
        }
        if record.game.ply() > MAX_FILE_REVIEW_PLIES {
            return Err(Reply::refusal(tr(
                lang,
                "err-review-file-too-long",
                &[
                    ("plies", n(record.game.ply() as f64)),
                    ("limit", n(MAX_FILE_REVIEW_PLIES as f64)),
                ],
            )));
        }
        self.not_the_game_under_way(lang, place, &record.game)?;
        Ok(record)
    }

    /// Fair play: a record that reaches the position on the board of the game under way in
    /// this channel is that game (or its copy played on), and a review would tell its
    /// players what to play; it waits until the game is over, as `/review` of the game
    /// itself does. The start position alone proves nothing.
    fn not_the_game_under_way(&self, lang: Lang, place: Place, record: &Game) -> Result<(), Reply> {
        let rec = match self.store.active_game(place.channel_id) {
            Ok(Some(rec)) => rec,
            Ok(None) => return Ok(()),
            Err(e) => return Err(storage_failed(lang, &e)),
        };
        let live = game_of(lang, &rec)?;
        if live.ply() == 0 || live.variant() != record.variant() {
            return Ok(());
        }
        let now = live.position();
        if record.positions().iter().any(|p| p == now) {
            return Err(Reply::refusal(t(lang, "err-review-file-under-way")));
        }
        Ok(())
    }

    /// Reviews a game on the search pool and answers with its summary, keeping the review
    /// for its buttons.
    async fn review_subject(
        &self,
        lang: Lang,
        subject: Subject,
        game: Game,
        progress: ReviewProgress<'_>,
    ) -> Answer {
        let options = ReviewOptions::default();
        let review = match review_in_pool(&self.pool, &game, &options, progress).await {
            Ok(r) => r,
            Err(ReviewError::NoMoves) => {
                return Reply::refusal(t(lang, "err-review-no-moves")).into()
            }
            // The process is stopping: the next one will do it.
            Err(ReviewError::Pool(PoolError::ShutDown)) => {
                tracing::info!("review {:#x} cut short: stopping", subject.id);
                return Reply::refusal(t(lang, "err-restarting")).into();
            }
            Err(ReviewError::Pool(e)) => {
                tracing::error!("review {:#x} failed: {e}", subject.id);
                return Reply::refusal(t(lang, "err-review-failed")).into();
            }
        };
        let reply = summary_reply(lang, &subject, &game, &review);
        self.reviews.put(Reviewed {
            subject,
            game,
            review,
        });
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
            return rec.ok_or_else(|| Reply::refusal(t(lang, "err-no-game")));
        };
        let unknown = || {
            Reply::refusal(tr(
                lang,
                "err-review-unknown-game",
                &[("id", s(text.to_string()))],
            ))
        };
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

    /// A page button: the `index`th move worth a look of review `key`, privately.
    pub async fn review_page(&self, actor: &Actor, key: u64, index: usize) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(key) else {
            return Reply::refusal(t(lang, "err-review-expired")).into();
        };
        let shown = pages(&kept.review);
        let Some(ply) = shown.get(index) else {
            return Reply::refusal(t(lang, "err-stale")).into();
        };
        page_reply(lang, &kept, ply, index, shown.len()).into()
    }

    /// The GIF button of a review: the reviewed game as an animation, privately.
    pub async fn review_gif(&self, actor: &Actor, key: u64) -> Answer {
        let lang = actor.lang();
        let Some(kept) = self.reviews.get(key) else {
            return Reply::refusal(t(lang, "err-review-expired")).into();
        };
        match self.replay_gif(lang, &kept.subject, &kept.game).await {
            Some(gif) => {
                let mut reply = Reply::private(t(lang, "review-gif-attached"));
                // Said as the replay of a Discord game is: what it is, then the final position.
                let description = describe_board(
                    lang,
                    &i18n::variant_title(lang, kept.subject.variant),
                    &[t(lang, "alt-replay"), kept.subject.players_line(lang)],
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
            None => Reply::refusal(t(lang, "err-review-gif-failed")).into(),
        }
    }
}

/// "That file is too big: at most 256 KB."
fn too_big(lang: Lang) -> Reply {
    Reply::refusal(tr(
        lang,
        "err-review-file-too-big",
        &[("limit", n((MAX_UPLOAD_BYTES / 1024) as f64))],
    ))
}

/// Whether a file's first game shows it is PDN at all: it has a tag, or its moves read (a
/// text that is not PDN fails on its first word).
fn looks_like_pdn(first: &Result<PdnRecord, PdnRefusal>) -> bool {
    match first {
        Ok(_) => true,
        Err(r) => {
            !r.tags.is_empty()
                || !matches!(
                    r.error,
                    PdnError::Move {
                        ply: 1,
                        error: GameError::Move(MoveError::Notation(_)),
                        ..
                    }
                )
        }
    }
}

/// A player's name from a file's tag: trimmed, cut to [`NAME_CHARS`], without control
/// characters; "?" or nothing reads as an unknown player.
fn tag_name(lang: Lang, tag: Option<&str>) -> String {
    let name: String = tag
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let name = name.trim();
    if name.is_empty() || name == "?" {
        return t(lang, "record-unknown-player");
    }
    let mut cut: String = name.chars().take(NAME_CHARS).collect();
    if cut.len() < name.len() {
        cut.push('…');
    }
    cut
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
        "review-file-game",
        &[("number", n(record.number as f64)), ("file", s(file))],
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
            .map(|ply| Caption {
                title: i18n::variant_title(lang, subject.variant),
                players: subject.players_line(lang),
                status: match ply.checked_sub(1) {
                    None => t(lang, "replay-start"),
                    Some(i) => tr(
                        lang,
                        "replay-status",
                        &[
                            ("number", s(move_number(game, i))),
                            ("move", s(&notations[i])),
                        ],
                    ),
                },
            })
            .collect();
        let game = game.clone();
        let perspective = game.variant().first_player();
        let id = subject.id;
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

/// The summary: a line per player, the chart, a button to the first page.
fn summary_reply(lang: Lang, subject: &Subject, game: &Game, review: &Review) -> Reply {
    let mut lines = subject.record_lines.clone();
    for c in [Color::White, Color::Black] {
        let p = review.player(c);
        let mut line = tr(
            lang,
            "review-player",
            &[
                ("name", s(subject.name(c))),
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
            "review-chart-side",
            &[("side", s(i18n::color_name(lang, c)))],
        )
    };
    let labels = ChartLabels {
        title: subject.players_line(lang),
        upper: side(Color::White),
        lower: side(Color::Black),
    };
    let end = review.evals.last().copied().unwrap_or(0);
    let description = tr(lang, "alt-chart", &[("end", s(i18n::eval_text(lang, end)))]);
    match off_the_async_workers(|| render::eval_chart_png(&expected, &marks, &labels)) {
        Ok(png) => reply.image = Some(Picture { png, description }),
        Err(e) => tracing::error!("review chart failed: {e}"),
    }
    if count > 0 {
        reply.buttons.push(page_button(
            subject.channel_id,
            subject.id,
            0,
            t(lang, "button-review-first"),
        ));
    }
    reply.buttons.push(Button {
        id: ComponentId::new(Action::ReviewGif, subject.channel_id, subject.id).encode(),
        label: t(lang, "button-review-gif"),
        style: ButtonStyle::Secondary,
    });
    reply
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
/// arrows, what each leads to, and buttons to the neighbours.
fn page_reply(lang: Lang, kept: &Reviewed, p: &PlyReview, index: usize, count: usize) -> Reply {
    let (subject, game) = (&kept.subject, &kept.game);
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
    // Where the endgame tables hold a position its result is exact: won, drawn or lost
    // (for White, as every score here is).
    let shown = |exact: Option<EndgameVerdict>, score: i32| match exact {
        Some(v) => i18n::exact_text(lang, v),
        None => i18n::eval_text(lang, score),
    };
    let eval = tr(
        lang,
        "review-eval",
        &[
            ("before", s(shown(p.exact_before, p.eval_before))),
            ("after", s(shown(p.exact_after, p.eval_after))),
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
        caption: Caption {
            title: i18n::variant_title(lang, subject.variant),
            players: subject.players_line(lang),
            status: heading.clone(),
        },
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
        "alt-review-arrows",
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
        let label = t(lang, "button-review-prev");
        reply.buttons.push(page_button(
            subject.channel_id,
            subject.id,
            index - 1,
            label,
        ));
    }
    if index + 1 < count {
        let label = t(lang, "button-review-next");
        reply.buttons.push(page_button(
            subject.channel_id,
            subject.id,
            index + 1,
            label,
        ));
    }
    reply
}
