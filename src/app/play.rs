//! Playing a game: moves (typed, from the menu, autocompleted), the bot's answer, resign,
//! draw offers, undo, explanations, and the buttons of the board message.

use super::board::{self, piece_menu};
use super::i18n::{self, s, t, tr, u, Lang, Tense};
use super::ids::{Action, ComponentId};
use super::reply::Reply;
use super::{
    bot_level, game_of, seat_of, storage_failed, titles, vs_bot, Actor, Answer, App, Place,
};
use crate::engine::{
    explain, legal_notations, Attempt, Color, Game, GameError, Law, Move, MoveError, Square,
    Verdict,
};
use crate::fl;
use crate::store::{FinishSummary, GameRecord, StoreError, StoredMove};

/// A game loaded for an action, with the actor's colour.
pub(super) struct Loaded {
    pub(super) rec: GameRecord,
    pub(super) game: Game,
}

/// Where a use case that writes the game back reads it from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Recall {
    /// What this process last read or wrote of it ([`crate::store::Store::active_game_remembered`]).
    Remembered,
    /// The store.
    Stored,
}

/// `answer` on what this process remembers, then, if that was a refusal made on a remembered
/// copy, on the store. `answer` gives `true` beside its answer when a copy was used.
async fn remembered_then_stored<F, Fut>(answer: F) -> Answer
where
    F: Fn(Recall) -> Fut,
    Fut: std::future::Future<Output = (Answer, bool)>,
{
    let (first, remembered) = answer(Recall::Remembered).await;
    // A move made answers with its board, in public; a refusal is private.
    if remembered && first.replies.iter().all(Reply::is_private) {
        return answer(Recall::Stored).await.0;
    }
    first
}

impl App {
    /// Loads the channel's active game, or the reply that there is none.
    pub(super) async fn load(&self, lang: Lang, place: Place) -> Result<Loaded, Reply> {
        Ok(self.load_from(lang, place, Recall::Stored).await?.0)
    }

    /// [`Self::load`] from `recall`; `true` beside it when the game came from memory.
    async fn load_from(
        &self,
        lang: Lang,
        place: Place,
        recall: Recall,
    ) -> Result<(Loaded, bool), Reply> {
        let (rec, remembered) = match self.active_game_from(place, recall) {
            Ok(Some(r)) => r,
            Ok(None) => return Err(Reply::refusal(t(lang, fl!("err-no-game")))),
            Err(e) => return Err(storage_failed(lang, &e)),
        };
        let game = game_of(lang, &rec)?;
        Ok((Loaded { rec, game }, remembered))
    }

    /// The channel's active game read from `recall`; `true` beside it when it came from memory.
    pub(super) fn active_game_from(
        &self,
        place: Place,
        recall: Recall,
    ) -> Result<Option<(GameRecord, bool)>, StoreError> {
        match recall {
            Recall::Remembered => self.store.active_game_remembered(place.channel_id),
            Recall::Stored => self
                .store
                .active_game(place.channel_id)
                .map(|r| r.map(|rec| (rec, false))),
        }
    }

    /// Loads the game and checks that the actor plays in it.
    async fn load_as_player(&self, actor: &Actor, place: Place) -> Result<(Loaded, Color), Reply> {
        let (loaded, colour, _) = self
            .load_as_player_from(actor, place, Recall::Stored)
            .await?;
        Ok((loaded, colour))
    }

    /// [`Self::load_as_player`] from `recall`; `true` last when the game came from memory.
    async fn load_as_player_from(
        &self,
        actor: &Actor,
        place: Place,
        recall: Recall,
    ) -> Result<(Loaded, Color, bool), Reply> {
        let lang = actor.lang();
        let (loaded, remembered) = self.load_from(lang, place, recall).await?;
        match seat_of(&loaded.rec, actor.user_id) {
            Some(c) => Ok((loaded, c, remembered)),
            None => Err(Reply::refusal(t(lang, fl!("err-not-your-game")))),
        }
    }

    /// Writes the game after a change made at `expected_ply`: an update while it goes on, the
    /// end (archive, records, ratings) once it is over. Durable before it returns. A write
    /// built on an outdated read is a [`StoreError::Conflict`].
    pub(crate) async fn save(
        &self,
        rec: GameRecord,
        game: &Game,
        expected_ply: usize,
    ) -> Result<GameRecord, StoreError> {
        Ok(self.save_reporting(rec, game, expected_ply).await?.0)
    }

    /// [`Self::save`], also returning what the end of the game changed for the players
    /// (`None` while it goes on): scores, ratings, titles earned.
    pub(crate) async fn save_reporting(
        &self,
        mut rec: GameRecord,
        game: &Game,
        expected_ply: usize,
    ) -> Result<(GameRecord, Option<FinishSummary>), StoreError> {
        let stored_before = rec.moves.len();
        rec.moves = game.moves().iter().map(StoredMove::from_move).collect();
        rec.outcome = game.outcome();
        rec.last_move_at_ms = self.now_ms();
        let mut finished = None;
        rec.revision = if game.is_over() {
            finished = Some(
                self.store
                    .finish_game(rec.channel_id, expected_ply, &rec, &super::scoring::Scoring)
                    .await?,
            );
            rec.revision + 1
        } else {
            self.store
                .update_game(rec.channel_id, expected_ply, &rec)
                .await?
        };
        crate::metrics::moves_stored(
            rec.variant.id(),
            rec.moves.len().saturating_sub(stored_before),
        );
        self.game_changed(rec.channel_id);
        Ok((rec, finished))
    }

    fn save_error(&self, lang: Lang, e: &StoreError) -> Reply {
        match e {
            StoreError::Conflict { .. } => Reply::refusal(t(lang, fl!("err-position-changed"))),
            other => storage_failed(lang, other),
        }
    }

    /// `/move`: plays a move typed in notation.
    ///
    /// On the game as this process last saw it first: where it made the channel's last move
    /// (or read it since), no read of the store. Whatever that copy refuses — and a write the
    /// store refuses because the game changed meanwhile — is tried again on the game as
    /// stored, so no move is refused on an outdated copy, and none is made on one.
    pub async fn play_move(&self, actor: &Actor, place: Place, text: &str) -> Answer {
        remembered_then_stored(|recall| self.play_move_from(actor, place, text, recall)).await
    }

    /// The `/move` command: the move of a puzzle its player is solving (unless they play in
    /// the channel's game), else a move in the channel's game ([`Self::play_move`]).
    ///
    /// Both from what this process remembers first — whether the player is solving a puzzle,
    /// and the game — then, for any refusal, from the store, as [`Self::play_move`] does.
    pub async fn move_command(&self, actor: &Actor, place: Place, text: &str) -> Answer {
        remembered_then_stored(|recall| self.move_command_from(actor, place, text, recall)).await
    }

    async fn move_command_from(
        &self,
        actor: &Actor,
        place: Place,
        text: &str,
        recall: Recall,
    ) -> (Answer, bool) {
        let (puzzle, puzzle_remembered) = self.puzzle_move_for(actor, place, text, recall).await;
        if let Some(answer) = puzzle {
            return (answer, puzzle_remembered);
        }
        let (answer, game_remembered) = self.play_move_from(actor, place, text, recall).await;
        (answer, puzzle_remembered || game_remembered)
    }

    /// [`Self::play_move`] on the game read from `recall`; `true` beside the answer when the
    /// game came from memory.
    async fn play_move_from(
        &self,
        actor: &Actor,
        place: Place,
        text: &str,
        recall: Recall,
    ) -> (Answer, bool) {
        let (Loaded { rec, mut game }, color, remembered) =
            match self.load_as_player_from(actor, place, recall).await {
                Ok(x) => x,
                // "No game here", "not your game": from memory, perhaps of an older game.
                Err(r) => return (r.into(), recall == Recall::Remembered),
            };
        let answer = self
            .play_loaded(actor, place, text, rec, &mut game, color)
            .await;
        (answer, remembered)
    }

    /// The rest of [`Self::play_move`], on the game loaded.
    async fn play_loaded(
        &self,
        actor: &Actor,
        place: Place,
        text: &str,
        rec: GameRecord,
        game: &mut Game,
        color: Color,
    ) -> Answer {
        let lang = actor.lang();
        if game.is_over() {
            return Reply::refusal(t(lang, fl!("err-game-over"))).into();
        }
        if game.side_to_move() != color {
            return Reply::refusal(t(lang, fl!("err-not-your-turn"))).into();
        }
        let before = *game.position();
        let ply = game.ply();
        let mv = match game.play_text(text) {
            Ok(mv) => mv,
            Err(GameError::Move(e)) => {
                let legal: Vec<String> = legal_notations(&before)
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect();
                let mut text = i18n::move_error_text(lang, &e);
                // A refused capture already lists the captures allowed.
                if !i18n::lists_moves(&e) {
                    text.push('\n');
                    text.push_str(&tr(
                        lang,
                        fl!("legal-moves"),
                        &[("moves", s(legal.join(", ")))],
                    ));
                }
                return Reply::refusal(text).into();
            }
            Err(_) => return Reply::refusal(t(lang, fl!("err-game-over"))).into(),
        };
        let mut rec = rec;
        // A move answers a pending draw offer with "no".
        rec.draw_offer = None;
        let (rec, finished) = match self.save_reporting(rec, game, ply).await {
            Ok(r) => r,
            Err(e) => return self.save_error(lang, &e).into(),
        };
        let mut headline = tr(
            lang,
            fl!("played"),
            &[
                ("name", u(&actor.name)),
                ("move", s(before.move_notation(&mv))),
            ],
        );
        // Only a person's own move can win them a game against the bot, so only here can a
        // title be earned.
        if let Some(news) = finished.and_then(|f| titles::earned_lines(lang, &rec, &f)) {
            headline.push('\n');
            headline.push_str(&news);
        }
        let mut reply = self.board_reply(lang, &rec, game, Some(headline));
        board::notify_side_to_move(&mut reply, &rec, game);
        let bot_next = !game.is_over() && bot_level(&rec, game.side_to_move()).is_some();
        if bot_next {
            self.bot_thinking(lang, &rec, game, &mut reply);
        }
        Answer {
            replies: vec![reply],
            bot_turn: bot_next.then_some(place),
            between_people: !vs_bot(&rec),
            ..Answer::default()
        }
    }

    /// Autocomplete for `/move`: every legal move that matches what was typed so far (a front
    /// end shows as many as it can).
    pub async fn autocomplete_move(&self, place: Place, typed: &str) -> Vec<String> {
        let Ok(Some(rec)) = self.store.active_game(place.channel_id) else {
            return vec![];
        };
        let Ok(game) = rec.to_game() else {
            return vec![];
        };
        let want = normalize(typed);
        legal_notations(game.position())
            .into_iter()
            .map(|(m, text)| (text, m.full_notation()))
            .filter(|(text, full)| {
                normalize(text).starts_with(&want) || normalize(full).starts_with(&want)
            })
            .map(|(text, _)| text)
            .collect()
    }

    /// `/resign`.
    pub async fn resign(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (Loaded { rec, mut game }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        let ply = game.ply();
        if game.resign(color).is_err() {
            return Reply::refusal(t(lang, fl!("err-game-over"))).into();
        }
        let rec = match self.save(rec, &game, ply).await {
            Ok(r) => r,
            Err(e) => return self.save_error(lang, &e).into(),
        };
        let headline = tr(lang, fl!("resigned"), &[("name", u(&actor.name))]);
        Answer::one(self.board_reply(lang, &rec, &game, Some(headline)))
    }

    /// `/draw`: offers a draw, or accepts the opponent's offer.
    pub async fn draw(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (Loaded { mut rec, mut game }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        if game.is_over() {
            return Reply::refusal(t(lang, fl!("err-game-over"))).into();
        }
        let ply = game.ply();
        if vs_bot(&rec) {
            // The bot takes a draw only when it stands worse.
            let bot = color.opposite();
            if material(&game, bot) < material(&game, color) {
                let _ = game.agree_draw();
                return match self.save(rec, &game, ply).await {
                    Ok(rec) => Answer::one(self.board_reply(
                        lang,
                        &rec,
                        &game,
                        Some(t(lang, fl!("bot-accepts-draw"))),
                    )),
                    Err(e) => self.save_error(lang, &e).into(),
                };
            }
            return Reply::public(t(lang, fl!("bot-declines-draw"))).into();
        }
        match rec.draw_offer {
            Some(c) if c == color => {
                Reply::refusal(t(lang, fl!("err-draw-already-offered"))).into()
            }
            Some(_) => {
                let _ = game.agree_draw();
                rec.draw_offer = None;
                match self.save(rec, &game, ply).await {
                    Ok(rec) => Answer::one(self.board_reply(
                        lang,
                        &rec,
                        &game,
                        Some(tr(lang, fl!("draw-accepted"), &[("name", u(&actor.name))])),
                    )),
                    Err(e) => self.save_error(lang, &e).into(),
                }
            }
            None => {
                rec.draw_offer = Some(color);
                match self.save(rec, &game, ply).await {
                    Ok(rec) => Answer::one(self.board_reply(
                        lang,
                        &rec,
                        &game,
                        Some(tr(lang, fl!("draw-offered"), &[("name", u(&actor.name))])),
                    )),
                    Err(e) => self.save_error(lang, &e).into(),
                }
            }
        }
    }

    /// `/draw answer:accept|decline`: answers the opponent's offer; without one there is
    /// nothing to answer (an offer is made with plain `/draw`).
    pub async fn answer_draw(
        &self,
        actor: &Actor,
        place: Place,
        answer: super::commands::DrawAnswer,
    ) -> Answer {
        use super::commands::DrawAnswer;
        let lang = actor.lang();
        let (Loaded { rec, .. }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        match (answer, rec.draw_offer) {
            (DrawAnswer::Accept, Some(c)) if c != color => self.draw(actor, place).await,
            (DrawAnswer::Decline, _) => self.decline_draw(actor, place).await,
            _ => Reply::refusal(t(lang, fl!("err-no-draw-offer"))).into(),
        }
    }

    /// Declines the opponent's draw offer.
    pub async fn decline_draw(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (Loaded { mut rec, game }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        match rec.draw_offer {
            Some(c) if c != color => {
                rec.draw_offer = None;
                let ply = game.ply();
                match self.save(rec, &game, ply).await {
                    Ok(rec) => Answer::one(self.board_reply(
                        lang,
                        &rec,
                        &game,
                        Some(tr(lang, fl!("draw-declined"), &[("name", u(&actor.name))])),
                    )),
                    Err(e) => self.save_error(lang, &e).into(),
                }
            }
            _ => Reply::refusal(t(lang, fl!("err-no-draw-offer"))).into(),
        }
    }

    /// `/undo`: against the bot, takes back the person's last move and the bot's answer. The
    /// game becomes unranked.
    pub async fn undo(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let (Loaded { mut rec, mut game }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        if !vs_bot(&rec) {
            return Reply::refusal(t(lang, fl!("err-undo-people"))).into();
        }
        if game.is_over() {
            return Reply::refusal(t(lang, fl!("err-game-over"))).into();
        }
        if game.side_to_move() != color {
            return Reply::refusal(t(lang, fl!("err-bot-thinking"))).into();
        }
        let ply = game.ply();
        // The bot's answer, then the person's move; with the bot moving first, its opening
        // move stays.
        let mut taken = 0;
        while taken < 2 && game.ply() > 0 {
            let _ = game.undo();
            taken += 1;
            if game.side_to_move() == color {
                break;
            }
        }
        if taken == 0 || game.side_to_move() != color {
            return Reply::refusal(t(lang, fl!("err-nothing-to-undo"))).into();
        }
        rec.undo_used = true;
        match self.save(rec, &game, ply).await {
            Ok(rec) => {
                Answer::one(self.board_reply(lang, &rec, &game, Some(t(lang, fl!("undone")))))
            }
            Err(e) => self.save_error(lang, &e).into(),
        }
    }

    /// `/explain [move]`: without a move, the last move; with one, why it is or is not legal now.
    pub async fn explain(&self, actor: &Actor, place: Place, text: Option<&str>) -> Answer {
        let lang = actor.lang();
        let Loaded { rec, game } = match self.load(lang, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        // A move asked about is judged in the position on the board now; without one, the
        // last move is judged where it was played.
        let (position, attempt, heading, tense) =
            match text.map(str::trim).filter(|t| !t.is_empty()) {
                Some(t) => (*game.position(), Attempt::Text(t), None, Tense::Present),
                None => match game.last_move() {
                    Some((p, m)) => (
                        *p,
                        Attempt::Move(*m),
                        Some(tr(
                            lang,
                            fl!("explain-last"),
                            &[("move", s(p.move_notation(m)))],
                        )),
                        Tense::Past,
                    ),
                    None => return Reply::refusal(t(lang, fl!("err-no-move-yet"))).into(),
                },
            };
        let exp = explain(&position, Some(attempt));
        let mut text = String::new();
        if let Some(h) = heading {
            text.push_str(&h);
            text.push('\n');
        }
        text.push_str(&i18n::explanation_text(lang, &exp, tense));
        // Text that is not a move at all is a refusal that repeats what was typed: for its
        // author only.
        let refusal = matches!(
            &exp.verdict,
            Some(Verdict::Illegal {
                error: MoveError::Notation(_)
            })
        );
        let mut reply = if refusal {
            Reply::private(text)
        } else {
            Reply::public(text)
        }
        .with_title(t(lang, fl!("explain-title")));
        let explained = board::Explained {
            position: &position,
            explanation: &exp,
            tense,
        };
        reply.image = board::picture(lang, &rec, &game, Some(explained), None);
        Answer::one(reply)
    }

    /// A click on a button or a choice in a menu of a board or a challenge, answered in the
    /// language of `actor` ([`App::component`] chooses it).
    pub(crate) async fn component_as(
        &self,
        actor: &Actor,
        place: Place,
        custom_id: &str,
        values: &[String],
    ) -> Answer {
        let lang = actor.lang();
        let Some(id) = ComponentId::parse(custom_id) else {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        };
        if id.action == Action::PuzzleMove {
            return match values.first() {
                Some(v) => self.puzzle_move(actor, id.ply as u32, v).await,
                None => Reply::refusal(t(lang, fl!("err-stale"))).into(),
            };
        }
        if id.channel_id != place.channel_id {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        }
        match id.action {
            Action::Accept => {
                let in_thread = id.arg.as_deref() == Some(super::challenge::IN_THREAD);
                return self.accept_challenge(actor, place, id.ply, in_thread).await;
            }
            Action::Rematch => return self.rematch(actor, place, id.ply).await,
            Action::Decline => return self.decline_challenge(actor, place, id.ply).await,
            Action::ForgetConfirm | Action::ForgetCancel => {
                return self.forget_answered(actor, &id).await
            }
            Action::ReviewPage => {
                let index = id.arg.as_deref().and_then(|a| a.parse().ok());
                return match index {
                    Some(index) => self.review_page(actor, place, id.ply, index).await,
                    None => Reply::refusal(t(lang, fl!("err-stale"))).into(),
                };
            }
            Action::ReviewGif => return self.review_gif(actor, id.ply).await,
            // Any board of the game under way gives the link: the page shows the game as it is.
            Action::Board => return self.board_link(actor, place).await,
            _ => {}
        }
        // Board controls act only on the board they belong to.
        let current = match self.store.active_game(place.channel_id) {
            Ok(Some(rec)) => rec.moves.len() as u64,
            Ok(None) => return Reply::refusal(t(lang, fl!("err-stale-over"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        if id.ply != current {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        }
        match id.action {
            Action::Resign => self.resign(actor, place).await,
            Action::DrawOffer | Action::DrawAccept => self.draw(actor, place).await,
            Action::DrawDecline => self.decline_draw(actor, place).await,
            Action::Explain => {
                let mut a = self.explain(actor, place, None).await;
                for r in &mut a.replies {
                    r.visibility = super::Visibility::Private;
                }
                a
            }
            Action::Undo => self.undo(actor, place).await,
            Action::Move => match values.first() {
                Some(v) => self.play_move(actor, place, v).await,
                None => Reply::refusal(t(lang, fl!("err-stale"))).into(),
            },
            Action::Piece => self.piece_choice(actor, place, values).await,
            Action::Accept
            | Action::Decline
            | Action::ForgetConfirm
            | Action::ForgetCancel
            | Action::Rematch
            | Action::PuzzleMove
            | Action::ReviewPage
            | Action::ReviewGif
            | Action::Board => Answer::default(),
        }
    }

    /// The first step of the two-step menu: shows the chosen piece's moves, privately.
    async fn piece_choice(&self, actor: &Actor, place: Place, values: &[String]) -> Answer {
        let lang = actor.lang();
        let (Loaded { rec, game }, color) = match self.load_as_player(actor, place).await {
            Ok(x) => x,
            Err(r) => return r.into(),
        };
        if game.side_to_move() != color {
            return Reply::refusal(t(lang, fl!("err-not-your-turn"))).into();
        }
        let from = values
            .first()
            .and_then(|v| v.parse::<u8>().ok())
            .and_then(Square::new);
        let Some(menu) = from.and_then(|sq| piece_menu(lang, place.channel_id, &game, sq)) else {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        };
        let mut reply = Reply::private(t(lang, fl!("choose-destination")));
        reply.image = board::picture(lang, &rec, &game, None, from);
        reply.menu = Some(menu);
        Answer::one(reply)
    }
}

/// After the bot captured: "It was the only capture allowed", with the law that left no
/// other in plain words; or the law that narrowed the choice. Nothing when every capture was
/// allowed and there were several (the choice was free).
pub fn forced_note(lang: Lang, before: &crate::engine::Position, mv: &Move) -> Option<String> {
    if !mv.is_capture() {
        return None;
    }
    let exp = explain(before, None);
    let counts = [
        ("best", i18n::n(exp.max_pieces)),
        ("kings", i18n::n(exp.max_kings)),
    ];
    match (exp.forced(), exp.law) {
        (true, Law::Quantity) => Some(tr(lang, fl!("forced-capture-quantity"), &counts)),
        (true, Law::Quality) => Some(tr(lang, fl!("forced-capture-quality"), &counts)),
        (true, _) => Some(t(lang, fl!("forced-capture"))),
        (false, Law::Quantity | Law::Quality) => Some(i18n::law_text(lang, &exp, Tense::Past)),
        (false, _) => None,
    }
}

/// Material in half men, for draw offers: a man counts 2 and a king 3 (a king is worth about
/// a man and a half).
fn material(game: &Game, color: Color) -> u32 {
    let p = game.position();
    p.men(color).count() * 2 + p.kings(color).count() * 3
}

/// Notation with every separator made the same, for prefix matching.
fn normalize(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            'x' | 'X' | '×' | ':' | ' ' | '–' | '—' => '-',
            c => c,
        })
        .collect()
}
