//! `/forget-me`: a person's name and id leave every record, after they confirm.

use super::i18n::t;
use super::ids::{Action, ComponentId};
use super::reply::{Button, ButtonStyle, Reply};
use super::{storage_failed, Actor, Answer, App, Place};
use crate::fl;
use crate::store::StoreError;

impl App {
    /// `/forget-me`: says what will be erased and asks, privately, for a confirmation.
    pub fn forget_me(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        // The buttons carry the person's id, so nobody else's click can confirm.
        let id = |action| ComponentId::new(action, place.channel_id, actor.user_id).encode();
        let mut reply = Reply::private(t(lang, fl!("erase-confirm")));
        reply.buttons = vec![
            Button {
                id: id(Action::ForgetConfirm),
                label: t(lang, fl!("button-forget")),
                style: ButtonStyle::Danger,
            },
            Button {
                id: id(Action::ForgetCancel),
                label: t(lang, fl!("button-keep")),
                style: ButtonStyle::Secondary,
            },
        ];
        Answer::one(reply)
    }

    /// The answer to `/forget-me`'s question.
    pub(crate) async fn forget_answered(&self, actor: &Actor, id: &ComponentId) -> Answer {
        let lang = actor.lang();
        if id.ply != actor.user_id {
            return Reply::refusal(t(lang, fl!("err-not-yours"))).into();
        }
        if id.action == Action::ForgetCancel {
            return Reply::private(t(lang, fl!("erase-kept"))).into();
        }
        // The store checks, in the erasure's own transaction, that no game is under way:
        // one would bring the name back when it ends.
        match self.store.forget_user(actor.user_id).await {
            Ok(_) => {
                self.reviews.forget_user(actor.user_id);
                Reply::private(t(lang, fl!("erase-done"))).into()
            }
            Err(StoreError::PlayingNow { .. }) => {
                Reply::refusal(t(lang, fl!("err-forget-while-playing"))).into()
            }
            // The write may have landed: saying "nothing changed" would be a lie.
            Err(e @ (StoreError::Sync { .. } | StoreError::OutcomeUnknown { .. })) => {
                tracing::error!("/forget-me of a user: {e}");
                self.reviews.forget_user(actor.user_id);
                Reply::failure(t(lang, fl!("err-forget-unsure"))).into()
            }
            // Nothing was written: the transaction did not commit.
            Err(e) => storage_failed(lang, &e).into(),
        }
    }
}
