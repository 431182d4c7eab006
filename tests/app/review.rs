//! `/review` and `/pdn`'s replay through the application layer, as the front ends drive them:
//! the summary with its chart, progress reported as positions are searched, the page
//! buttons through the moves worth a look, and refusals.

use crate::support::app::*;
use damas::ai::{JobClass, Level};
use damas::app::{Action, Actor, Answer, App, ComponentId, Place, Settings};
use damas::engine::{Color, Variant};
use damas::store::Store;
use std::future::Future;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

const PLACE: Place = Place {
    guild_id: Some(10),
    channel_id: 20,
};
/// Another channel of the same server.
const OTHER: Place = Place {
    guild_id: Some(10),
    channel_id: 21,
};

/// The quick pass only: these tests check the app's plumbing, and the seeded game's pages
/// were chosen at Hard's budget (a deeper look finds Black already lost before 25-21, which
/// then is an inaccuracy). The deeper pass is tested in the engine's `review` tests.
const REVIEW_DEEP_POSITIONS: usize = 0;

fn app(dir: &tempfile::TempDir) -> App {
    let store = Store::open(dir.path().join("db")).expect("store");
    let config = Settings {
        bot_seed: Some(7),
        search_threads: 2,
        review_deep_positions: REVIEW_DEEP_POSITIONS,
        ..Settings::default()
    };
    App::new(store, config)
}

/// alice (White) and bob play the first `plies` of the seeded long game in the channel.
async fn played(app: &App, plies: usize) {
    played_in(app, PLACE, plies).await
}

/// alice and bob play the first `plies` of the seeded long game in `place`, and bob resigns.
async fn finished_in(app: &App, place: Place, plies: usize) -> u64 {
    played_in(app, place, plies).await;
    let id = app
        .store()
        .active_game(place.channel_id)
        .unwrap()
        .expect("a game")
        .id;
    app.resign(&actor(2, "bob"), place).await;
    id
}

async fn played_in(app: &App, place: Place, plies: usize) {
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let a = app
        .challenge(
            &alice,
            place,
            &user(&bob),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    app.component(&bob, place, &accept, &[]).await;
    let game = crate::support::search::long_game(Variant::Spanish, plies);
    for (i, text) in game.notations().iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let a = app.play_move(who, place, text).await;
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
    finished_in(&app, PLACE, 20).await;
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let seen = Mutex::new(Vec::new());
    let report = |done: usize, total: usize| {
        seen.lock().expect("progress lock").push((done, total));
    };
    let a = app.review(&alice, PLACE, None, &report).await;
    let summary = only(&a);
    assert!(!summary.is_private());
    let text = damas::app::reply::plain(&summary.text);
    assert!(text.contains("alice (White): accuracy"), "{text}");
    assert!(text.contains("bob (Black): accuracy"), "{text}");
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
    // Progress: every search in order, the quick pass's then the deeper pass's, out of the
    // most there can be; the last report says the review is done.
    let seen = seen.into_inner().expect("progress lock");
    let (done, last_total) = seen.last().copied().unwrap_or((0, 0));
    assert_eq!(done, last_total, "{seen:?}");
    let most = seen.first().map_or(0, |s| s.1);
    assert!(done > 0 && done <= most && most <= 21 + REVIEW_DEEP_POSITIONS);
    for (i, &(d, total)) in seen.iter().enumerate() {
        assert_eq!(d, (i + 1).min(done), "{seen:?}");
        assert!(total == most || i + 1 == seen.len(), "{seen:?}");
    }

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
    // A shot of five men: named an error (mistake or blunder by how the position before it
    // is judged), with the better move and why.
    let error = pages
        .iter()
        .find(|p| p.text.contains("25-21 (Black)"))
        .expect("a page for Black's 25-21");
    assert!(
        error.text.contains("blunder") || error.text.contains("mistake"),
        "{}",
        error.text
    );
    assert!(error.text.contains("Better: "), "{}", error.text);
    assert!(error.text.contains("walks into a shot"), "{}", error.text);
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
    finished_in(&app, PLACE, 12).await;
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
    played(&app, 20).await;
    let id = app
        .store()
        .active_game(PLACE.channel_id)
        .unwrap()
        .unwrap()
        .id;
    let carol = actor(3, "carol");
    let export = |plies: usize| {
        let game = crate::support::search::long_game(Variant::Spanish, plies);
        damas::engine::export_pdn(&game, &damas::engine::PdnTags::default())
    };
    // The game on the board, the same played on by a move to see what it is worth, and the
    // same stopped two moves short (a review page's line would reach the board): refused, as
    // a review of the game itself is, whoever asks.
    for plies in [20, 21, 18] {
        let a = app
            .review_file(
                &carol,
                PLACE,
                &upload(&export(plies)),
                None,
                None,
                &|_, _| panic!("a record of the game under way was searched"),
            )
            .await;
        refused_as_under_way(&a, id);
    }
    // A record that stops well before the position on the board tells nothing about the move
    // to play: it is reviewed.
    let a = app
        .review_file(&carol, PLACE, &upload(&export(10)), None, None, &|_, _| {})
        .await;
    let reply = only(&a);
    assert!(!reply.is_private(), "{}", reply.text);
    let text = damas::app::reply::plain(&reply.text);
    assert!(text.contains("Game 1 of mine.pdn"), "{text}");
}

/// The names in an attached file's tags and the file's name are what a person wrote: marked
/// as such in the review (so the Discord adapter escapes them), shown as written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_from_an_attached_file_are_marked_as_written_by_a_person() {
    use damas::app::reply::{plain, UserText};
    const WHITE: &str = "[free nitro](https://evil.example)";
    const BLACK: &str = "**bold**";
    const FILE: &str = "# big.pdn";
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    let game = crate::support::search::long_game(Variant::Spanish, 6);
    let tags = damas::engine::PdnTags {
        white: Some(WHITE.into()),
        black: Some(BLACK.into()),
        ..damas::engine::PdnTags::default()
    };
    let file = damas::app::commands::Upload {
        filename: FILE.into(),
        content: Ok(damas::engine::export_pdn(&game, &tags).into_bytes()),
    };
    let a = app
        .review_file(&actor(3, "carol"), PLACE, &file, None, None, &|_, _| {})
        .await;
    let reply = only(&a);
    assert!(!reply.is_private(), "{}", reply.text);
    for written in [WHITE, BLACK, FILE] {
        let marked = UserText(written).to_string();
        assert!(reply.text.contains(&marked), "{written}: {:?}", reply.text);
    }
    let title = reply.title.as_deref().expect("a title");
    for written in [WHITE, BLACK] {
        assert!(title.contains(&UserText(written).to_string()), "{title:?}");
    }
    assert!(
        plain(&reply.text).contains(&format!("{WHITE} (White): accuracy")),
        "{}",
        reply.text
    );
}

/// The refusal of a review of game `id`, under way: private, saying why and when.
fn refused_as_under_way(a: &Answer, id: u64) {
    let r = only(a);
    assert!(r.is_private(), "{r:?}");
    assert!(r.image.is_none() && r.buttons.is_empty(), "{r:?}");
    for words in [
        format!("Game #{id} is still being played"),
        "would tell a player what to play".to_string(),
        format!("as soon as it ends, with /review game:{id}"),
    ] {
        assert!(r.text.contains(&words), "{}", r.text);
    }
}

/// Fair play: no review of a game under way, by anyone, anywhere its players or its channel
/// can ask, in either language; nothing is searched or kept for it. A record with its moves
/// (what an attached file would bring) is refused alike; once the game is over, it is
/// reviewed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_under_way_is_reviewed_only_once_it_is_over() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    played(&app, 20).await;
    let rec = app.store().active_game(PLACE.channel_id).unwrap().unwrap();
    let id = rec.id;
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    let nothing_searched = |_: usize, _: usize| panic!("a game under way was searched");
    let by_id = format!("#{id}");
    for (who, place, which) in [
        (&carol, PLACE, None),
        (&carol, PLACE, Some(by_id.as_str())),
        (&alice, PLACE, None),
        // Its players, from another channel.
        (&alice, OTHER, Some(by_id.as_str())),
        (&bob, OTHER, Some(by_id.as_str())),
    ] {
        let a = app.review(who, place, which, &nothing_searched).await;
        refused_as_under_way(&a, id);
    }
    let ana = Actor {
        locale: "es-ES".into(),
        ..actor(3, "ana")
    };
    let a = app.review(&ana, PLACE, None, &nothing_searched).await;
    assert!(
        only(&a)
            .text
            .contains(&format!("La partida #{id} aún se está jugando")),
        "{}",
        only(&a).text
    );
    assert!(
        only(&a).text.contains(&format!("/analizar partida:{id}")),
        "{}",
        only(&a).text
    );
    assert_eq!(app.searches_waiting(), 0);
    // No page of it can be reached either.
    let mut page = ComponentId::new(Action::ReviewPage, PLACE.channel_id, id);
    page.arg = Some("0".into());
    let a = app.component(&carol, PLACE, &page.encode(), &[]).await;
    assert!(
        only(&a).text.contains("run /review again"),
        "{}",
        only(&a).text
    );

    // A record of its moves, of its first moves, or going on from it: refused where the
    // game is played and to its players anywhere.
    let game = rec.to_game().unwrap();
    let mut longer = game.clone();
    let next = longer.position().legal_moves()[0];
    longer.play(next).unwrap();
    let mut shorter = game.clone();
    shorter.undo().unwrap();
    for record in [&game, &longer, &shorter] {
        assert!(app.may_judge(&carol, PLACE, record).is_err());
        assert!(app.may_judge(&alice, OTHER, record).is_err());
    }
    // Another game, or a stranger asking elsewhere, is no help to this one.
    let other_game = crate::support::search::long_game(Variant::English, 10);
    assert!(app.may_judge(&carol, PLACE, &other_game).is_ok());
    assert!(app.may_judge(&carol, OTHER, &game).is_ok());

    app.resign(&bob, PLACE).await;
    let a = app.review(&carol, PLACE, None, &|_, _| {}).await;
    let summary = only(&a);
    assert!(!summary.is_private(), "{}", summary.text);
    assert!(summary.text.contains("accuracy"), "{}", summary.text);
}

/// `/review game:ID` asked in another channel than the game's: its page buttons work there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_pages_work_in_the_channel_the_review_was_asked_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = app(&dir);
    let id = finished_in(&app, PLACE, 20).await;
    let alice = actor(1, "alice");
    let a = app
        .review(&alice, OTHER, Some(&id.to_string()), &|_, _| {})
        .await;
    let first = button_id(only(&a), Action::ReviewPage);
    let a = app.component(&alice, OTHER, &first, &[]).await;
    let page = only(&a);
    assert!(page.image.is_some(), "a page, not a refusal: {}", page.text);
    assert!(page.text.contains("Better: "), "{}", page.text);
    // Its own buttons (to the neighbouring pages) answer there too.
    for b in &page.buttons {
        let id = ComponentId::parse(&b.id).expect("an app button");
        assert_eq!(id.channel_id, OTHER.channel_id, "{id:?}");
    }
}

/// Long enough for anything here on a loaded machine; reached only when a guard is broken
/// (an answer that should come at once waits for the held search thread).
const PATIENCE: Duration = Duration::from_secs(120);

async fn at_once<T>(f: impl Future<Output = T>) -> T {
    tokio::time::timeout(PATIENCE, f)
        .await
        .expect("answered without waiting for the searches")
}

/// Holds the app's one search thread until the sender is dropped.
async fn hold_the_search_thread(app: &App) -> mpsc::Sender<()> {
    let (started_tx, started) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let gate = app.search_pool().submit(JobClass::Long, move |_| {
        let _ = started_tx.send(());
        let _ = released.recv();
    });
    tokio::spawn(gate);
    tokio::task::spawn_blocking(move || started.recv_timeout(PATIENCE))
        .await
        .unwrap()
        .expect("the gate job started");
    release
}

/// Limits on reviews: one at a time per person; a game being reviewed for someone is not
/// reviewed again for another (they share the result), and a kept review is answered without
/// a search; at most `max_reviews` reviews at once; with the search queues full, a new review
/// and a new game against the bot are refused as "busy" and nothing is stored, while the
/// bot still makes the move it owes in a game under way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_shared_and_limited_and_a_busy_bot_still_makes_its_owed_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = App::new(
        Store::open(dir.path().join("db")).expect("store"),
        Settings {
            bot_seed: Some(7),
            search_threads: 1,
            max_reviews: 1,
            search_queue: 2,
            ..Settings::default()
        },
    );
    let first = finished_in(&app, PLACE, 12).await;
    let second = finished_in(&app, OTHER, 12).await;
    let (alice, bob, carol, dave) = (
        actor(1, "alice"),
        actor(2, "bob"),
        actor(3, "carol"),
        actor(4, "dave"),
    );
    let first_id = first.to_string();
    let second_id = second.to_string();

    let release = hold_the_search_thread(&app).await;
    let alices = tokio::spawn({
        let (app, alice, which) = (app.clone(), alice.clone(), first_id.clone());
        async move { app.review(&alice, PLACE, Some(&which), &|_, _| {}).await }
    });
    while app.searches_waiting() == 0 {
        tokio::task::yield_now().await;
    }
    // alice waits for hers: not a second one.
    let a = at_once(app.review(&alice, OTHER, Some(&second_id), &|_, _| {})).await;
    assert!(
        only(&a)
            .text
            .contains("You already have an analysis under way"),
        "{}",
        only(&a).text
    );
    // Another game: one review at a time in all, and one is being made.
    let a = at_once(app.review(&carol, OTHER, Some(&second_id), &|_, _| {})).await;
    assert_eq!(
        only(&a).text,
        "The bot is busy right now: try again in a minute."
    );
    // The same game: bob waits for alice's review instead of making his own.
    let mut bobs = Box::pin(app.review(&bob, PLACE, Some(&first_id), &|_, _| {}));
    assert!(futures::poll!(bobs.as_mut()).is_pending());
    assert_eq!(app.searches_waiting(), 1, "bob's review searched nothing");
    drop(release);
    let alices = at_once(alices).await.unwrap();
    let bobs = at_once(bobs).await;
    assert!(
        only(&alices).text.contains("accuracy"),
        "{}",
        only(&alices).text
    );
    assert_eq!(only(&bobs).text, only(&alices).text);
    assert!(!only(&bobs).is_private());
    // Kept: answered with the search thread held.
    let release = hold_the_search_thread(&app).await;
    let a = at_once(app.review(&dave, PLACE, Some(&first_id), &|_, _| {
        panic!("a kept review is not searched again")
    }))
    .await;
    assert_eq!(only(&a).text, only(&alices).text);

    // The queues full (two jobs wait behind the held thread): new work is refused.
    // A hard game: easy and medium moves have a search thread of their own and never queue
    // behind the held one.
    let hard_game = Place {
        guild_id: Some(10),
        channel_id: 30,
    };
    let started = app
        .play_bot(
            &alice,
            hard_game,
            Some(Level::Hard),
            Some(Variant::English),
            Some(Color::Black),
        )
        .await;
    assert!(!only(&started).is_private(), "{}", only(&started).text);
    let fillers: Vec<_> = (0..2)
        .map(|_| app.search_pool().submit(JobClass::Long, |_| ()))
        .collect();
    let a = at_once(app.review(&carol, OTHER, Some(&second_id), &|_, _| {})).await;
    assert_eq!(
        only(&a).text,
        "The bot is busy right now: try again in a minute."
    );
    let new_game = Place {
        guild_id: Some(10),
        channel_id: 31,
    };
    let a = at_once(app.play_bot(&dave, new_game, Some(Level::Easy), None, None)).await;
    assert!(only(&a).is_private());
    assert_eq!(
        only(&a).text,
        "The bot is busy right now: try again in a minute."
    );
    assert!(
        app.store().active_game(31).unwrap().is_none(),
        "nothing stored"
    );
    // ... but a move in a game under way is played, and the bot's answer queued past the
    // limit.
    let a = at_once(app.play_move(&alice, hard_game, "11-15")).await;
    assert!(!only(&a).is_private(), "{}", only(&a).text);
    assert_eq!(a.bot_turn(), Some(hard_game));
    let bot = tokio::spawn({
        let app = app.clone();
        let lang = alice.lang();
        async move { app.bot_turn(hard_game, lang).await }
    });
    while app.searches_waiting() < 3 {
        tokio::task::yield_now().await;
    }
    drop(release);
    for f in fillers {
        at_once(f).await.unwrap();
    }
    let b = at_once(bot).await.unwrap();
    assert!(only(&b).text.contains("Bot"), "{}", only(&b).text);
    assert_eq!(app.store().active_game(30).unwrap().unwrap().moves.len(), 2);
}
