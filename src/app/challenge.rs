//! Starting games: `/challenge` (with Accept and Decline buttons) and `/play` against the bot.

use super::ballot::{self, Opening, OpeningChoice};
use super::board::notify_side_to_move;
use super::commands::Threading;
use super::i18n::{self, s, t, tr, u, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{Button, ButtonStyle, ChallengeRef, Reply};
use super::{storage_failed, Actor, Answer, App, Place, UserRef};
use crate::ai::Level;
use crate::engine::{ByColour, Color, Game, Variant};
use crate::fl;
use crate::store::{Challenge, GameRecord, Seat, StoreError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The ballot deck could not be read (a broken build; logged where it happens).
pub(crate) struct BallotUnavailable;

impl BallotUnavailable {
    fn into_reply(self, lang: Lang) -> Reply {
        Reply::refusal(t(lang, fl!("err-ballot-deck")))
    }
}

/// "Three-move ballot: 9-13 22-18 11-15"
pub fn ballot_line(lang: Lang, opening: &Opening) -> String {
    tr(lang, fl!("ballot-drawn"), &[("moves", s(opening))])
}

impl App {
    /// `/challenge opponent [variant] [colour]`, with the bot's time per move.
    pub async fn challenge(
        &self,
        actor: &Actor,
        place: Place,
        opponent: &UserRef,
        variant: Option<Variant>,
        colour: Option<Color>,
    ) -> Answer {
        self.challenge_for_days(actor, place, opponent, variant, colour, None)
            .await
    }

    /// `/challenge opponent [variant] [colour] [days]`: `days` per move (within
    /// [`DAYS_PER_MOVE`](super::commands::DAYS_PER_MOVE)).
    pub async fn challenge_for_days(
        &self,
        actor: &Actor,
        place: Place,
        opponent: &UserRef,
        variant: Option<Variant>,
        colour: Option<Color>,
        days: Option<u32>,
    ) -> Answer {
        let terms = Terms {
            variant,
            colour,
            move_time_ms: days.map(|d| u64::from(d) * 86_400_000),
            threading: Threading::InChannel,
            opening: None,
            same_opening: None,
        };
        self.challenge_on(actor, place, opponent, terms).await
    }

    /// `/challenge` with all its terms: posts the challenge with Accept and Decline buttons.
    /// A game to be played in a thread does not need the channel free. A ballot opening is
    /// drawn now, so the challenge names it; it needs English draughts (the variant it
    /// implies when none is named) and is refused in the others.
    pub async fn challenge_on(
        &self,
        actor: &Actor,
        place: Place,
        opponent: &UserRef,
        terms: Terms,
    ) -> Answer {
        let opening = terms.opening;
        let variant = terms.variant;
        let lang = actor.lang();
        let ballot = opening == Some(OpeningChoice::Ballot);
        let variant = match variant {
            None if ballot => Some(ballot::VARIANT),
            Some(v) if ballot && v != ballot::VARIANT => {
                return Reply::refusal(tr(
                    lang,
                    fl!("err-ballot-variant"),
                    &[("variant", s(i18n::variant_name(lang, v)))],
                ))
                .into()
            }
            v => v,
        };
        if opponent.user_id == actor.user_id {
            return Reply::refusal(t(lang, fl!("err-challenge-self"))).into();
        }
        if opponent.is_bot {
            return Reply::refusal(t(lang, fl!("err-challenge-bot"))).into();
        }
        let in_thread = self.opens_thread(place, terms.threading);
        if !in_thread {
            if let Some(r) = self.channel_busy(lang, place) {
                return r.into();
            }
        }
        let now = self.now_ms();
        match self.store.challenge(place.channel_id) {
            Ok(Some(c)) if c.expires_at_ms > now => {
                return Reply::refusal(t(lang, fl!("err-challenge-open"))).into()
            }
            Ok(_) => {}
            Err(e) => return storage_failed(lang, &e).into(),
        }
        match self.open_challenges_by(actor.user_id, now) {
            Ok(n) if n >= self.settings.max_challenges => {
                return too_many_challenges(lang, self.settings.max_challenges).into()
            }
            Ok(_) => {}
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let variant = variant.unwrap_or_default();
        let drawn = if let Some(same) = terms.same_opening.clone() {
            Some(same)
        } else if ballot {
            match self.draw_ballot() {
                Ok(o) => Some(o),
                Err(r) => return r.into_reply(lang).into(),
            }
        } else {
            None
        };
        let challenge = Challenge {
            challenger: UserRef {
                user_id: actor.user_id,
                name: actor.name.clone(),
                is_bot: false,
            },
            challenged: opponent.clone(),
            variant,
            challenger_color: terms.colour,
            created_at_ms: now,
            expires_at_ms: now + self.settings.challenge_ttl.as_millis() as u64,
            message_id: None,
            lang,
            move_time_ms: terms.move_time_ms,
            opening: drawn.as_ref().map(|o| o.to_string()),
        };
        if let Err(e) = self.store.put_challenge(place.channel_id, &challenge).await {
            return storage_failed(lang, &e).into();
        }
        // Counted again now that it is stored: of challenges made at the same moment
        // elsewhere, those that went over the cap take themselves back.
        match self.open_challenges_by(actor.user_id, now) {
            Ok(n) if n > self.settings.max_challenges => {
                let mine =
                    |c: &Challenge| c.created_at_ms == now && c.challenger.user_id == actor.user_id;
                if let Err(e) = self.store.take_challenge(place.channel_id, mine).await {
                    return storage_failed(lang, &e).into();
                }
                return too_many_challenges(lang, self.settings.max_challenges).into();
            }
            Ok(_) => {}
            // Stored and under the cap when it was checked: it stands.
            Err(e) => tracing::warn!("open challenges not counted again: {e}"),
        }
        let minutes = self.settings.challenge_ttl.as_secs().div_ceil(60);
        let mut text = tr(
            lang,
            fl!("challenge-posted"),
            &[
                ("challenger", u(&actor.name)),
                ("opponent", u(&opponent.name)),
                ("variant", s(i18n::variant_name(lang, variant))),
                ("minutes", i18n::n(minutes as f64)),
            ],
        );
        if terms.threading == Threading::Unavailable {
            text.push('\n');
            text.push_str(&t(lang, fl!("thread-unavailable")));
        }
        if let Some(o) = &drawn {
            text.push('\n');
            text.push_str(&ballot_line(lang, o));
        }
        let mut reply = Reply::public(text).with_title(t(lang, fl!("challenge-title")));
        // The embed names them; only the content's mention notifies, and only them.
        reply.mention = vec![opponent.user_id];
        reply.challenge_of = Some(ChallengeRef {
            channel_id: place.channel_id,
            created_at_ms: now,
        });
        // Whether the game gets a thread travels in the Accept button's id.
        let mut accept = ComponentId::new(Action::Accept, place.channel_id, now);
        accept.arg = in_thread.then(|| IN_THREAD.to_string());
        reply.buttons = vec![
            Button {
                id: accept.encode(),
                label: t(lang, fl!("button-accept")),
                style: ButtonStyle::Success,
            },
            Button {
                id: ComponentId::new(Action::Decline, place.channel_id, now).encode(),
                label: t(lang, fl!("button-decline")),
                style: ButtonStyle::Danger,
            },
        ];
        Answer::one(reply)
    }

    /// The challenges `user_id` made that are still open at `now`.
    fn open_challenges_by(&self, user_id: u64, now: u64) -> Result<usize, StoreError> {
        Ok(self
            .store
            .open_challenges()?
            .iter()
            .filter(|(_, c)| c.challenger.user_id == user_id && !c.is_expired(now))
            .count())
    }

    /// The Accept button of a challenge created at `created_at`.
    /// `in_thread`: the game is to be played in a new thread (the button's id says so).
    pub(crate) async fn accept_challenge(
        &self,
        actor: &Actor,
        place: Place,
        created_at: u64,
        in_thread: bool,
    ) -> Answer {
        let lang = actor.lang();
        let c = match self.open_challenge(lang, actor, place, created_at) {
            Ok(c) => c,
            Err(r) => return r.into(),
        };
        if !in_thread {
            if let Some(r) = self.channel_busy(lang, place) {
                return r.into();
            }
        }
        // Taking it out atomically makes a double click start one game, not two.
        match self
            .store
            .take_challenge(place.channel_id, |c| c.created_at_ms == created_at)
            .await
        {
            Ok(Some(_)) => {}
            Ok(None) => return Reply::refusal(t(lang, fl!("err-challenge-gone"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let challenger_color = match c.challenger_color {
            Some(col) => col,
            None => self.rematch_or_random(c.challenger.user_id, c.challenged.user_id),
        };
        let challenger = Seat::Human {
            user_id: c.challenger.user_id,
            name: c.challenger.name.clone(),
        };
        let challenged = Seat::Human {
            user_id: c.challenged.user_id,
            name: c.challenged.name.clone(),
        };
        let players = match challenger_color {
            Color::White => ByColour::new(challenger, challenged),
            Color::Black => ByColour::new(challenged, challenger),
        };
        let opening = match c.opening.as_deref().map(Opening::parse) {
            None => None,
            Some(Ok(o)) => Some(o),
            Some(Err(e)) => {
                tracing::error!(
                    "challenge in {}: stored opening {:?} unreadable: {e}",
                    place.channel_id,
                    c.opening
                );
                return Reply::failure(t(lang, fl!("err-storage"))).into();
            }
        };
        let start = GameStart {
            lang,
            variant: c.variant,
            opening,
            players,
            bot: None,
            move_time_ms: c.move_time_ms,
            note: None,
            thread_parent: None,
            game_id: None,
        };
        if in_thread {
            return self.thread_request(place, start);
        }
        self.start_game(place, start).await
    }

    /// A ballot opening from the deck: seeded by the bot's seed when one is configured (tests,
    /// `console --seed`), random otherwise.
    pub(crate) fn draw_ballot(&self) -> Result<Opening, BallotUnavailable> {
        let deck = ballot::deck().map_err(|e| {
            tracing::error!("ballot deck unreadable: {e}");
            BallotUnavailable
        })?;
        let drawn = match self.settings.bot_seed {
            Some(seed) => deck.draw(&mut SmallRng::seed_from_u64(seed)),
            None => deck.draw(&mut rand::thread_rng()),
        };
        drawn.cloned().ok_or(BallotUnavailable)
    }

    /// `/accept` or `/decline` typed where there are no buttons (the console): answers the
    /// challenge open in this channel as its buttons would. The game is played here: a front
    /// end without buttons has no threads either.
    pub async fn answer_challenge_here(&self, actor: &Actor, place: Place, accept: bool) -> Answer {
        let lang = actor.lang();
        let created_at = match self.store.challenge(place.channel_id) {
            Ok(Some(c)) => c.created_at_ms,
            Ok(None) => return Reply::refusal(t(lang, fl!("err-challenge-gone"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        if accept {
            self.accept_challenge(actor, place, created_at, false).await
        } else {
            self.decline_challenge(actor, place, created_at).await
        }
    }

    /// The Decline button: the challenged declines, or the challenger withdraws.
    pub(crate) async fn decline_challenge(
        &self,
        actor: &Actor,
        place: Place,
        created_at: u64,
    ) -> Answer {
        let lang = actor.lang();
        let c = match self.store.challenge(place.channel_id) {
            Ok(Some(c)) if c.created_at_ms == created_at => c,
            Ok(_) => return Reply::refusal(t(lang, fl!("err-challenge-gone"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        if actor.user_id != c.challenged.user_id && actor.user_id != c.challenger.user_id {
            return Reply::refusal(t(lang, fl!("err-not-your-challenge"))).into();
        }
        match self
            .store
            .take_challenge(place.channel_id, |c| c.created_at_ms == created_at)
            .await
        {
            Ok(Some(_)) => {}
            Ok(None) => return Reply::refusal(t(lang, fl!("err-challenge-gone"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let id = if actor.user_id == c.challenger.user_id {
            fl!("challenge-withdrawn")
        } else {
            fl!("challenge-declined")
        };
        Reply::public(tr(lang, id, &[("name", u(&actor.name))])).into()
    }

    fn open_challenge(
        &self,
        lang: Lang,
        actor: &Actor,
        place: Place,
        created_at: u64,
    ) -> Result<Challenge, Reply> {
        let c = match self.store.challenge(place.channel_id) {
            Ok(Some(c)) if c.created_at_ms == created_at => c,
            Ok(_) => return Err(Reply::refusal(t(lang, fl!("err-challenge-gone")))),
            Err(e) => return Err(storage_failed(lang, &e)),
        };
        if actor.user_id != c.challenged.user_id {
            return Err(Reply::refusal(t(lang, fl!("err-not-your-challenge"))));
        }
        if c.expires_at_ms <= self.now_ms() {
            return Err(Reply::refusal(t(lang, fl!("err-challenge-expired"))));
        }
        Ok(c)
    }

    /// Colours for the challenger: a rematch swaps the last game's colours (docs/GAME-APP.md), a
    /// first game draws them by lot.
    fn rematch_or_random(&self, challenger: u64, challenged: u64) -> Color {
        if let Ok(Some(last)) = self.store.last_game_between(challenger, challenged) {
            let was_white = matches!(&last.players.white, Seat::Human { user_id, .. } if *user_id == challenger);
            return if was_white {
                Color::Black
            } else {
                Color::White
            };
        }
        if rand::thread_rng().gen_bool(0.5) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `/play [level] [variant] [colour]`: a game against the bot, in this channel.
    pub async fn play_bot(
        &self,
        actor: &Actor,
        place: Place,
        level: Option<Level>,
        variant: Option<Variant>,
        colour: Option<Color>,
    ) -> Answer {
        self.play_bot_in(actor, place, level, variant, colour, Threading::InChannel)
            .await
    }

    /// `/play [level] [variant] [colour] [thread]`: a game against the bot, in this channel or
    /// in a new thread.
    pub async fn play_bot_in(
        &self,
        actor: &Actor,
        place: Place,
        level: Option<Level>,
        variant: Option<Variant>,
        colour: Option<Color>,
        threading: Threading,
    ) -> Answer {
        let lang = actor.lang();
        let in_thread = self.opens_thread(place, threading);
        // Before a thread is opened for it. In the channel, the game's creation checks all
        // (a busy channel, too many games against the bot, full search queues) and refuses
        // with the same words: asked here too, they would cost a read or more each, at the
        // busiest moment.
        if in_thread {
            if let Some(r) = self.bot_game_refused(lang, actor.user_id) {
                return r.into();
            }
        }
        let level = level.unwrap_or(Level::Medium);
        let colour = colour.unwrap_or_else(|| {
            if rand::thread_rng().gen_bool(0.5) {
                Color::White
            } else {
                Color::Black
            }
        });
        let me = Seat::Human {
            user_id: actor.user_id,
            name: actor.name.clone(),
        };
        let bot = Seat::Bot { level };
        let players = match colour {
            Color::White => ByColour::new(me, bot),
            Color::Black => ByColour::new(bot, me),
        };
        let start = GameStart {
            lang,
            variant: variant.unwrap_or_default(),
            opening: None,
            players,
            bot: Some(level),
            move_time_ms: None,
            note: (threading == Threading::Unavailable).then(|| t(lang, fl!("thread-unavailable"))),
            thread_parent: None,
            game_id: None,
        };
        if in_thread {
            return self.thread_request(place, start);
        }
        self.start_game(place, start).await
    }

    /// Why a new game against the bot cannot start for `user_id` now, if it cannot: the
    /// search queues are full (the games under way come first), or they have as many games
    /// against the bot under way as one person may.
    fn bot_game_refused(&self, lang: Lang, user_id: u64) -> Option<Reply> {
        if !self.pool.has_room() {
            return Some(Reply::refusal(t(lang, fl!("err-bot-busy"))));
        }
        let playing = match self.store.playing(user_id) {
            Ok(p) => p,
            Err(e) => return Some(storage_failed(lang, &e)),
        };
        let mut under_way = 0;
        for g in playing.games.iter().filter(|g| g.vs_bot) {
            match self.store.active_game(g.channel_id) {
                Ok(Some(rec)) if rec.id == g.game_id => under_way += 1,
                Ok(_) => {}
                Err(e) => return Some(storage_failed(lang, &e)),
            }
        }
        (under_way >= self.settings.max_bot_games)
            .then(|| too_many_bot_games(lang, self.settings.max_bot_games))
    }

    /// Refuses when the channel already has a game that still blocks it.
    fn channel_busy(&self, lang: Lang, place: Place) -> Option<Reply> {
        match self.store.active_game(place.channel_id) {
            Ok(Some(_)) => Some(Reply::refusal(t(lang, fl!("err-channel-busy")))),
            Ok(_) => None,
            Err(e) => Some(storage_failed(lang, &e)),
        }
    }

    /// Starts a game in `place`, from the variant's start or a ballot opening's three plies.
    /// In a thread the bot opened for games (or is opening now), the channel it was opened
    /// in gets a line announcing the game.
    pub(crate) async fn start_game(&self, place: Place, start: GameStart) -> Answer {
        let GameStart {
            lang,
            variant,
            opening,
            players,
            bot,
            move_time_ms,
            note,
            thread_parent,
            game_id,
        } = start;
        let opening = opening.as_ref();
        let now = self.now_ms();
        if bot.is_some() && !self.pool.has_room() {
            return Reply::refusal(t(lang, fl!("err-bot-busy"))).into();
        }
        let id = match game_id.map_or_else(|| self.store.new_game_id(), Ok) {
            Ok(id) => id,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let mut rec = GameRecord::new(id, place.guild_id, place.channel_id, variant, players, now);
        rec.move_time_ms = move_time_ms.unwrap_or(self.settings.move_time.as_millis() as u64);
        rec.lang = lang;
        if let Some(o) = opening {
            rec.moves = o.stored_moves();
            rec.opening = Some(o.to_string());
        }
        let cap = match bot {
            Some(_) => self.settings.max_bot_games,
            None => usize::MAX,
        };
        match self.store.create_game_capped(rec.clone(), cap).await {
            Ok(_) => self.game_changed(rec.channel_id),
            Err(StoreError::ChannelBusy { .. }) => {
                return Reply::refusal(t(lang, fl!("err-channel-busy"))).into()
            }
            Err(StoreError::TooManyBotGames { limit, .. }) => {
                return too_many_bot_games(lang, limit).into()
            }
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let game = match opening {
            Some(o) => o.game(),
            None => Game::new(variant),
        };
        let mut headline = t(lang, fl!("game-started"));
        if let Some(o) = opening {
            headline.push('\n');
            headline.push_str(&ballot_line(lang, o));
        }
        if let Some(note) = note {
            headline.push('\n');
            headline.push_str(&note);
        }
        let mut reply = self.board_reply(lang, &rec, &game, Some(headline));
        notify_side_to_move(&mut reply, &rec, &game);
        let bot_first = bot.is_some() && matches!(rec.seat(game.side_to_move()), Seat::Bot { .. });
        if bot_first {
            self.bot_thinking(lang, &rec, &game, &mut reply);
        }
        let mut replies = vec![reply];
        if let Some(line) = self.announce_thread_game(lang, &rec, thread_parent).await {
            replies[0].channel = Some(place.channel_id);
            replies.push(line);
        }
        Answer {
            replies,
            bot_turn: bot_first.then_some(place),
            ..Answer::default()
        }
    }
}

fn too_many_challenges(lang: Lang, limit: usize) -> Reply {
    Reply::refusal(tr(
        lang,
        fl!("err-too-many-challenges"),
        &[("limit", i18n::n(limit as f64))],
    ))
}

fn too_many_bot_games(lang: Lang, limit: usize) -> Reply {
    Reply::refusal(tr(
        lang,
        fl!("err-too-many-bot-games"),
        &[("limit", i18n::n(limit as f64))],
    ))
}

/// The Accept button's argument for a challenge whose game gets a thread.
pub(crate) const IN_THREAD: &str = "thread";

/// What a challenge asks for, besides the opponent.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    pub variant: Option<Variant>,
    /// The challenger's colour; `None` draws it (or alternates, between the same players).
    pub colour: Option<Color>,
    /// A person's time for each move; `None` for the bot's default.
    pub move_time_ms: Option<u64>,
    pub threading: Threading,
    /// `ballot` draws a three-move opening (English only).
    pub opening: Option<OpeningChoice>,
    /// This very opening, not a drawn one: a rematch of a ballot game keeps its opening.
    pub same_opening: Option<Opening>,
}

/// Everything needed to start a game, once it is known where.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub(crate) lang: Lang,
    pub(crate) variant: Variant,
    /// A ballot opening whose three plies the game starts with.
    pub(crate) opening: Option<Opening>,
    pub(crate) players: ByColour<Seat>,
    pub(crate) bot: Option<Level>,
    pub(crate) move_time_ms: Option<u64>,
    /// A line added under the headline of the first board (why there is no thread).
    pub(crate) note: Option<String>,
    /// When the game starts in a thread just opened: the channel it was opened in.
    pub(crate) thread_parent: Option<u64>,
    /// The id reserved for the game (a tournament's pairing); a fresh one when `None`.
    pub(crate) game_id: Option<u64>,
}
