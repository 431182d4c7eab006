//! What the tests of the application layer share: a world (an app on a temporary store),
//! people, and reading answers.

use damas::app::{Action, Actor, Answer, App, ComponentId, Place, Reply, Settings, UserRef};
use damas::store::{GameRecord, Store};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A person with an English Discord locale.
pub fn actor(id: u64, name: &str) -> Actor {
    Actor {
        user_id: id,
        name: name.into(),
        locale: "en-US".into(),
        can_manage_messages: false,
        can_manage_events: false,
        can_manage_guild: false,
        roles: vec![],
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

/// An app on a store in a temporary folder, which lives as long as the world.
pub struct World {
    pub app: App,
    /// The app's clock, in ms since the epoch, when the world was made with [`World::clocked`].
    clock: Option<(Arc<AtomicU64>, u64)>,
    _dir: tempfile::TempDir,
}

impl World {
    /// `config` on a fresh store, on the real clock.
    pub fn new(config: Settings) -> World {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path().join("db")).expect("store");
        World {
            app: App::new(store, config),
            clock: None,
            _dir: dir,
        }
    }

    /// `config` on a fresh store, on a clock that stands at `start` (ms since the epoch) until
    /// [`World::at`] moves it.
    pub fn clocked(config: Settings, start: u64) -> World {
        let mut w = World::new(config);
        let clock = Arc::new(AtomicU64::new(start));
        let now = clock.clone();
        w.app = w.app.with_clock(move || now.load(Ordering::SeqCst));
        w.clock = Some((clock, start));
        w
    }

    /// Sets the clock of a [`World::clocked`] world to `ms_after_start` after its start.
    pub fn at(&self, ms_after_start: u64) {
        let (clock, start) = self.clock.as_ref().expect("a clocked world");
        clock.store(start + ms_after_start, Ordering::SeqCst);
    }

    /// The game being played in `channel_id`, if any, as stored.
    pub fn active_game(&self, channel_id: u64) -> Option<GameRecord> {
        self.app
            .store()
            .active_game(channel_id)
            .expect("the store reads")
    }
}

/// The default configuration with the bot's moves seeded by `seed`.
pub fn seeded(seed: u64) -> Settings {
    Settings {
        bot_seed: Some(seed),
        // A review's deeper pass, kept to a couple of positions: tests' CPU is a goal too.
        review_deep_positions: 2,
        ..Settings::default()
    }
}

/// A world on the default configuration, the bot seeded with 7.
pub fn world() -> World {
    World::new(seeded(7))
}

/// The channel of a guild most tests play in.
pub const PLACE: Place = Place {
    guild_id: Some(10),
    channel_id: 20,
};

/// `who` starts a game against the easy bot at English draughts in `place`, taking Black: the
/// bot (White) owes the first move after Black's.
/// `white` challenges `black` to Spanish draughts in `place` through `app`, and `black`
/// accepts: a game between people, White to move.
pub async fn start_spanish_game(app: &App, white: &Actor, black: &Actor, place: Place) {
    let challenge = app
        .challenge(
            white,
            place,
            &user(black),
            Some(damas::engine::Variant::Spanish),
            Some(damas::engine::Color::White),
        )
        .await;
    let accept = button_id(only(&challenge), Action::Accept);
    app.component(black, place, &accept, &[]).await;
}

pub async fn play_easy_bot_as_black(app: &App, who: &Actor, place: Place) -> Answer {
    app.play_bot(
        who,
        place,
        Some(damas::ai::Level::Easy),
        Some(damas::engine::Variant::English),
        Some(damas::engine::Color::Black),
    )
    .await
}

/// The PDN names the three-move ballot `opening` and records its moves from move 1, followed
/// by `then` (e.g. `" 11-15"`, or `""`).
pub fn assert_pdn_opens_with(pdn: &str, opening: &damas::app::ballot::Opening, then: &str) {
    assert!(
        pdn.contains(&format!("[Opening \"Three-move ballot: {opening}\"]")),
        "{pdn}"
    );
    let n = opening.notations();
    assert!(
        pdn.contains(&format!("1. {} {} 2. {}{then}", n[0], n[1], n[2])),
        "{pdn}"
    );
}
