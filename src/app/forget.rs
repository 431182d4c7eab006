//! `/forget-me`: a person's name and id leave every record, after they confirm.

use super::i18n::t;
use super::ids::{Action, ComponentId};
use super::reply::{Button, ButtonStyle, Reply};
use super::{seat_of, storage_failed, Actor, Answer, App, Place};

impl App {
    /// `/forget-me`: says what will be erased and asks, privately, for a confirmation.
    pub fn forget_me(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        // The buttons carry the person's id, so nobody else's click can confirm.
        let id = |action| ComponentId::new(action, place.channel_id, actor.user_id).encode();
        let mut reply = Reply::private(t(lang, "erase-confirm"));
        reply.buttons = vec![
            Button {
                id: id(Action::ForgetConfirm),
                label: t(lang, "button-forget"),
                style: ButtonStyle::Danger,
            },
            Button {
                id: id(Action::ForgetCancel),
                label: t(lang, "button-keep"),
                style: ButtonStyle::Secondary,
            },
        ];
        Answer::one(reply)
    }

    /// The answer to `/forget-me`'s question.
    pub(crate) async fn forget_answered(&self, actor: &Actor, id: &ComponentId) -> Answer {
        let lang = actor.lang();
        if id.ply != actor.user_id {
            return Reply::refusal(t(lang, "err-not-yours")).into();
        }
        if id.action == Action::ForgetCancel {
            return Reply::private(t(lang, "erase-kept")).into();
        }
        // A game under way would bring the name back when it ends: finish it first.
        match self.store.active_games() {
            Ok(games) => {
                let playing = games
                    .into_iter()
                    .filter_map(Result::ok)
                    .any(|g| seat_of(&g, actor.user_id).is_some());
                if playing {
                    return Reply::refusal(t(lang, "err-forget-while-playing")).into();
                }
            }
            Err(e) => return storage_failed(lang, &e).into(),
        }
        match self.store.forget_user(actor.user_id).await {
            Ok(_) => Reply::private(t(lang, "erase-done")).into(),
            Err(e) => storage_failed(lang, &e).into(),
        }
    }
}
