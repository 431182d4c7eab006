//! `/review` and `/pdn`'s replay through the application layer, as the front ends drive them:
//! the summary with its chart, progress reported as positions are searched, the page
//! buttons through the moves worth a look, and refusals.

mod app_support;
mod review_support;

use app_support::*;
use damas::app::{Action, App, ComponentId, Config, Place};
use damas::engine::{Color, Variant};
use damas::store::Store;
use std::sync::Mutex;

const PLACE: Place = Place {
    guild_id: Some(10),
    channel_id: 20,
};

fn app(dir: &tempfile::TempDir) -> App {
    let store = Store::open(dir.path().join("db")).expect("store");
    let config = Config {
        bot_seed: Some(7),
        search_threads: 2,
        ..Config::default()
    };
    App::new(store, config)
}

/// alice (White) and bob play the first `plies` of the seeded long game in the channel.
async fn played(app: &App, plies: usize) {
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let a = app
        .challenge(
            &alice,
            PLACE,
            &user(&bob),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    app.component(&bob, PLACE, &accept, &[]).await;
    let game = review_support::long_game(Variant::Spanish, plies);
    for (i, text) in game.notations().iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let a = app.play_move(who, PLACE, text).await;
        assert!(
            !only(&a).is_private(),
            "move {text} refused: {}",
            only(&a).text
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_sums_up_each_player_and_pages_through_the_moves_to_look_at() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    // The seeded game's 20th ply is Black's blunder 25-21 (see `damas review` of it).
    played(&app, 20).await;
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let seen = Mutex::new(Vec::new());
    let report = |done: usize, total: usize| {
        seen.lock().expect("progress lock").push((done, total));
    };
    let a = app.review(&alice, PLACE, None, &report).await;
    let summary = only(&a);
    assert!(!summary.is_private());
    assert!(
        summary.text.contains("alice (White): accuracy"),
        "{}",
        summary.text
    );
    assert!(
        summary.text.contains("bob (Black): accuracy"),
        "{}",
        summary.text
    );
    let chart = summary.image.as_ref().expect("a chart");
    assert!(
        chart
            .description
            .contains("Above the middle line, White is better"),
        "{}",
        chart.description
    );
    let chart = image::load_from_memory(&chart.png).expect("the chart is a picture");
    assert_eq!((chart.width(), chart.height()), (640, 240));
    // Progress: every position searched, in order, ending at the total.
    let seen = seen.into_inner().expect("progress lock");
    let total = seen.last().map_or(0, |s| s.1);
    assert!(total > 0 && total <= 21);
    assert_eq!(seen, (1..=total).map(|d| (d, total)).collect::<Vec<_>>());

    // Page through: the first page has no "previous", the last no "next".
    let mut id = button_id(summary, Action::ReviewPage);
    let mut pages = Vec::new();
    loop {
        let a = app.component(&bob, PLACE, &id, &[]).await;
        let page = only(&a).clone();
        assert!(page.is_private(), "pages are for whoever asks");
        assert!(page.image.is_some(), "a page shows the board");
        let ids: Vec<ComponentId> = page
            .buttons
            .iter()
            .filter_map(|b| ComponentId::parse(&b.id))
            .collect();
        assert!(ids.iter().all(|i| i.action == Action::ReviewPage));
        let next = ids
            .iter()
            .find(|i| i.arg.as_deref() == Some(&(pages.len() + 1).to_string()))
            .map(ComponentId::encode);
        pages.push(page);
        match next {
            Some(n) => id = n,
            None => break,
        }
        assert!(pages.len() < 30, "paging never ends");
    }
    let blunder = pages
        .iter()
        // The page's heading names its move; other pages may show 25-21 in their lines.
        .find(|p| p.text.lines().next().is_some_and(|h| h.contains(" 25-21 ")))
        .expect("a page for Black's 25-21");
    assert!(blunder.text.contains("blunder"), "{}", blunder.text);
    assert!(blunder.text.contains("Better: "), "{}", blunder.text);
    assert!(
        blunder.text.contains("walks into a shot"),
        "{}",
        blunder.text
    );
    assert_eq!(pages[0].buttons.len(), usize::from(pages.len() > 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_refused_without_a_game_or_for_an_unknown_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    let alice = actor(1, "alice");
    let a = app.review(&alice, PLACE, None, &|_, _| {}).await;
    assert!(only(&a).is_private());
    let a = app.review(&alice, PLACE, Some("#12345"), &|_, _| {}).await;
    assert!(only(&a).text.contains("12345"), "{}", only(&a).text);
    let a = app
        .review(&alice, PLACE, Some("yesterday"), &|_, _| {})
        .await;
    assert!(only(&a).is_private());
    // A page of a review this process does not keep.
    let mut id = ComponentId::new(Action::ReviewPage, PLACE.channel_id, 999);
    id.arg = Some("0".into());
    let a = app.component(&alice, PLACE, &id.encode(), &[]).await;
    assert!(only(&a).text.contains("/review"), "{}", only(&a).text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdn_attaches_the_replay_with_a_frame_per_ply_plus_the_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    played(&app, 12).await;
    let a = app.pdn(&actor(1, "alice"), PLACE).await;
    let r = only(&a);
    assert_eq!(r.files.len(), 2);
    assert!(r.files[0].filename.ends_with(".pdn"));
    let gif = &r.files[1];
    assert!(gif.filename.ends_with(".gif"));
    let mut decoder = gif::DecodeOptions::new()
        .read_info(gif.bytes.as_slice())
        .expect("the GIF decodes");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 13);
}

/// A stopping process analyses nothing more: `/review` says the bot is restarting (the next
/// one will do it), and `/pdn` still gives the game, without its replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_stopping_a_review_says_to_try_again_and_a_pdn_comes_without_its_replay() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    played(&app, 12).await;
    let alice = actor(1, "alice");
    app.stop_searches();
    let a = app.review(&alice, PLACE, None, &|_, _| {}).await;
    assert!(only(&a).is_private());
    assert!(only(&a).text.contains("restarting"), "{}", only(&a).text);
    let a = app.pdn(&alice, PLACE).await;
    let names: Vec<&str> = only(&a).files.iter().map(|f| f.filename.as_str()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].ends_with(".pdn"), "{names:?}");
}

/// `/review file:` with a record as a person attaches it.
fn upload(text: &str) -> damas::app::commands::Upload {
    damas::app::commands::Upload {
        filename: "mine.pdn".into(),
        content: Ok(text.as_bytes().to_vec()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_of_the_game_under_way_waits_until_it_is_over() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    played(&app, 6).await;
    let carol = actor(3, "carol");
    let export = |plies: usize| {
        let game = review_support::long_game(Variant::Spanish, plies);
        damas::engine::export_pdn(&game, &damas::engine::PdnTags::default())
    };
    // The game on the board, and the same played on by a move to see what it is worth:
    // refused, as a review of the game itself is, whoever asks.
    for plies in [6, 7] {
        let a = app
            .review_file(
                &carol,
                PLACE,
                &upload(&export(plies)),
                None,
                None,
                &|_, _| {},
            )
            .await;
        let reply = only(&a);
        assert!(reply.is_private());
        assert!(
            reply.text.contains("the game being played in this channel"),
            "{}",
            reply.text
        );
    }
    // A record that stops before the position on the board tells nothing about the move to
    // play: it is reviewed.
    let a = app
        .review_file(&carol, PLACE, &upload(&export(4)), None, None, &|_, _| {})
        .await;
    let reply = only(&a);
    assert!(!reply.is_private(), "{}", reply.text);
    assert!(reply.text.contains("Game 1 of mine.pdn"), "{}", reply.text);
}
