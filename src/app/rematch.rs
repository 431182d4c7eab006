//! Rematch: the final board of a game carries a Rematch button for either player. Between
//! people it challenges the other player (who must accept, as any challenge); colours
//! alternate between the same two players (docs/GAME-APP.md), which accepting a challenge already
//! does. Against the bot it starts the same level at once, colours swapped.

use super::challenge::{GameStart, Terms};
use super::i18n::{t, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{Button, ButtonStyle, Reply};
use super::{bot_level, seat_of, storage_failed, Actor, Answer, App, Place, UserRef};
use crate::engine::{ByColour, Color};
use crate::fl;
use crate::store::{GameRecord, Seat};

/// The Rematch button of a finished game, when there is someone to play again: two people,
/// or a person and the bot (not a player who asked to be forgotten).
pub(crate) fn rematch_button(lang: Lang, rec: &GameRecord) -> Option<Button> {
    let people = rec
        .players
        .iter()
        .filter(|p| matches!(p, Seat::Human { .. }))
        .count();
    let bots = rec
        .players
        .iter()
        .filter(|p| matches!(p, Seat::Bot { .. }))
        .count();
    if people == 0 || people + bots != 2 {
        return None;
    }
    Some(Button {
        // The game's id in the ply's place: a press names the game it answers.
        id: ComponentId::new(Action::Rematch, rec.channel_id, rec.id).encode(),
        label: t(lang, fl!("button-rematch")),
        style: ButtonStyle::Primary,
    })
}

impl App {
    /// The Rematch button of finished game `game_id`, pressed by `actor` in `place`.
    pub(crate) async fn rematch(&self, actor: &Actor, place: Place, game_id: u64) -> Answer {
        let lang = actor.lang();
        let rec = match self.store.archived_game(game_id) {
            Ok(Some(rec)) if rec.channel_id == place.channel_id => rec,
            Ok(_) => return Reply::refusal(t(lang, fl!("err-rematch-stale"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let Some(my_colour) = seat_of(&rec, actor.user_id) else {
            return Reply::refusal(t(lang, fl!("err-rematch-not-yours"))).into();
        };
        // Another game started here since: this board is history.
        match self.store.active_game(place.channel_id) {
            Ok(None) => {}
            Ok(Some(_)) => return Reply::refusal(t(lang, fl!("err-rematch-stale"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let other = rec.seat(my_colour.opposite()).clone();
        match other {
            Seat::Bot { .. } => self.rematch_bot(actor, place, &rec, my_colour).await,
            Seat::Human { user_id, name } => {
                let opponent = UserRef {
                    user_id,
                    name,
                    is_bot: false,
                };
                self.rematch_person(actor, place, &rec, opponent).await
            }
            Seat::Deleted => Reply::refusal(t(lang, fl!("err-rematch-stale"))).into(),
        }
    }

    /// Against the bot: the same level and variant, colours swapped, at once.
    async fn rematch_bot(
        &self,
        actor: &Actor,
        place: Place,
        rec: &GameRecord,
        my_colour: Color,
    ) -> Answer {
        let lang = actor.lang();
        let Some(level) = bot_level(rec, my_colour.opposite()) else {
            return Reply::refusal(t(lang, fl!("err-rematch-stale"))).into();
        };
        let me = Seat::Human {
            user_id: actor.user_id,
            name: actor.name.clone(),
        };
        let bot = Seat::Bot { level };
        let players = match my_colour.opposite() {
            Color::White => ByColour::new(me, bot),
            Color::Black => ByColour::new(bot, me),
        };
        let start = GameStart {
            lang,
            variant: rec.variant,
            opening: None,
            players,
            bot: Some(level),
            move_time_ms: None,
            note: None,
            thread_parent: None,
            game_id: None,
        };
        self.start_game(place, start).await
    }

    /// Between people: a challenge to the other player, with the same variant and time per
    /// move; colours alternate when it is accepted. If the other player already asked for
    /// the rematch, this press accepts theirs.
    async fn rematch_person(
        &self,
        actor: &Actor,
        place: Place,
        rec: &GameRecord,
        opponent: UserRef,
    ) -> Answer {
        let lang = actor.lang();
        match self
            .store
            .last_game_between(actor.user_id, opponent.user_id)
        {
            Ok(Some(last)) if last.id == rec.id => {}
            Ok(_) => return Reply::refusal(t(lang, fl!("err-rematch-stale"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let now = self.now_ms();
        match self.store.challenge(place.channel_id) {
            Ok(Some(c))
                if !c.is_expired(now)
                    && c.challenger.user_id == opponent.user_id
                    && c.challenged.user_id == actor.user_id =>
            {
                return self
                    .accept_challenge(actor, place, c.created_at_ms, false)
                    .await;
            }
            Ok(_) => {}
            Err(e) => return storage_failed(lang, &e).into(),
        }
        let terms = Terms {
            variant: Some(rec.variant),
            colour: None,
            move_time_ms: Some(rec.move_time_ms),
            // As in tournament play, the rematch of a ballot game keeps its opening.
            same_opening: super::ballot::opening_of(rec),
            ..Terms::default()
        };
        self.challenge_on(actor, place, &opponent, terms).await
    }
}
