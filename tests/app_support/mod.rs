//! What the tests of the application layer share: people, and reading answers.
#![allow(dead_code)]

use damas::app::{Action, Actor, Answer, ComponentId, Reply, UserRef};

/// A person with an English Discord locale.
pub fn actor(id: u64, name: &str) -> Actor {
    Actor {
        user_id: id,
        name: name.into(),
        locale: "en-US".into(),
        can_manage_messages: false,
    }
}

/// The same person as named in a command (an opponent).
pub fn user(a: &Actor) -> UserRef {
    UserRef {
        user_id: a.user_id,
        name: a.name.clone(),
        is_bot: false,
    }
}

/// The one reply of an answer.
pub fn only(a: &Answer) -> &Reply {
    assert_eq!(a.replies.len(), 1, "one reply expected: {:#?}", a.replies);
    &a.replies[0]
}

/// The component id of a reply's button for `action`.
pub fn button_id(r: &Reply, action: Action) -> String {
    r.buttons
        .iter()
        .find(|b| ComponentId::parse(&b.id).is_some_and(|id| id.action == action))
        .unwrap_or_else(|| panic!("no {action:?} button in {r:#?}"))
        .id
        .clone()
}
