//! The application layer's use cases, driven as the Discord adapter and the console drive
//! them: permissions, turns, refusals that change nothing, draws, undo, explanations.

use crate::support::app::*;
use damas::ai::Level;
use damas::app::{Action, Actor, Answer, App, Owed, Place, Reply, Settings, UserRef};
use damas::engine::{Color, Variant};
use damas::store::Store;

/// alice (White) challenges bob; bob accepts. Returns the first board.
async fn started(w: &World, alice: &Actor, bob: &Actor) -> Reply {
    let a = w
        .app
        .challenge(
            alice,
            PLACE,
            &user(bob),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    let a = w.app.component(bob, PLACE, &accept, &[]).await;
    only(&a).clone()
}

#[tokio::test]
async fn a_challenge_is_accepted_only_by_the_challenged() {
    let w = world();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    let a = w
        .app
        .challenge(&alice, PLACE, &user(&bob), None, Some(Color::White))
        .await;
    let r = only(&a);
    assert!(!r.is_private());
    // Names in the text; only the challenged is to be notified.
    assert!(
        r.text.contains("alice") && r.text.contains("bob"),
        "{}",
        r.text
    );
    assert_eq!(r.mention, vec![2]);
    let accept = button_id(r, Action::Accept);
    // Carol's click is refused privately and changes nothing.
    let refused = w.app.component(&carol, PLACE, &accept, &[]).await;
    assert!(only(&refused).is_private());
    assert!(w.active_game(PLACE.channel_id).is_none());
    // Bob accepts: the board is public, with a picture, a move menu and controls.
    let board = only(&w.app.component(&bob, PLACE, &accept, &[]).await).clone();
    assert!(!board.is_private());
    assert!(board.image.as_ref().is_some_and(
        |p| p.png.starts_with(b"\x89PNG") && p.description.contains("White: men 1 to 12;")
    ));
    let menu = board.menu.as_ref().expect("move menu");
    assert_eq!(menu.options.len(), 7, "White's seven first moves");
    assert!(menu.options.iter().any(|o| o.value == "11-15"));
    // A second click on the same Accept is refused: the challenge is gone.
    let again = w.app.component(&bob, PLACE, &accept, &[]).await;
    assert!(only(&again).is_private());
}

#[tokio::test]
async fn challenging_yourself_or_a_bot_is_refused() {
    let w = world();
    let alice = actor(1, "alice");
    let me = w
        .app
        .challenge(&alice, PLACE, &user(&alice), None, None)
        .await;
    assert!(only(&me).is_private());
    let bot = UserRef {
        user_id: 99,
        name: "somebot".into(),
        is_bot: true,
    };
    let b = w.app.challenge(&alice, PLACE, &bot, None, None).await;
    assert!(only(&b).is_private());
    assert!(w.app.store().challenge(PLACE.channel_id).unwrap().is_none());
}

#[tokio::test]
async fn moves_are_checked_for_player_turn_and_legality() {
    let w = world();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    started(&w, &alice, &bob).await;
    // Not bob's turn; carol is not playing.
    assert!(only(&w.app.play_move(&bob, PLACE, "22-18").await).is_private());
    assert!(only(&w.app.play_move(&carol, PLACE, "11-15").await).is_private());
    // A man moves only forward: the reason and the legal moves, privately.
    let bad = w.app.play_move(&alice, PLACE, "11-7").await;
    let r = only(&bad);
    assert!(r.is_private());
    assert!(r.text.contains("forward"), "{}", r.text);
    assert!(r.text.contains("11-15"), "{}", r.text);
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 0, "a refused move changes nothing");
    // A good move: public board, bob to move.
    let ok = w.app.play_move(&alice, PLACE, "11x15").await;
    let r = only(&ok);
    assert!(!r.is_private());
    assert!(r.text.contains("11-15"), "canonical echo: {}", r.text);
    assert!(r.text.contains("bob"), "{}", r.text);
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 1);
}

#[tokio::test]
async fn outdated_buttons_say_so_and_do_nothing() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let board = started(&w, &alice, &bob).await;
    let resign_old = button_id(&board, Action::Resign);
    w.app.play_move(&alice, PLACE, "11-15").await;
    let r = w.app.component(&alice, PLACE, &resign_old, &[]).await;
    assert!(only(&r).is_private());
    assert!(only(&r).text.contains("outdated"), "{}", only(&r).text);
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert!(rec.outcome.is_none());
    // Garbage ids too.
    let r = w.app.component(&alice, PLACE, "damas:zzz", &[]).await;
    assert!(only(&r).is_private());
}

#[tokio::test]
async fn the_move_menu_plays_the_chosen_move() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let board = started(&w, &alice, &bob).await;
    let menu = board.menu.expect("menu");
    let a = w
        .app
        .component(&alice, PLACE, &menu.id, &["12-16".to_string()])
        .await;
    assert!(!only(&a).is_private());
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 1);
}

#[tokio::test]
async fn autocomplete_offers_matching_legal_moves() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    let mut all = w.app.autocomplete_move(PLACE, "").await;
    all.sort();
    assert_eq!(
        all,
        vec!["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
    );
    let mut some = w.app.autocomplete_move(PLACE, "11").await;
    some.sort();
    assert_eq!(some, vec!["11-14", "11-15"]);
    assert!(w.app.autocomplete_move(PLACE, "5").await.is_empty());
}

#[tokio::test]
async fn a_forced_capture_is_explained_with_its_law() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    // 10-14 23-19 leaves White one capture: 14x23.
    w.app.play_move(&alice, PLACE, "10-14").await;
    w.app.play_move(&bob, PLACE, "23-19").await;
    let refused = w.app.play_move(&alice, PLACE, "9-13").await;
    assert!(
        only(&refused).text.contains("mandatory"),
        "{}",
        only(&refused).text
    );
    assert!(
        only(&refused).text.contains("14x23"),
        "{}",
        only(&refused).text
    );
    w.app.play_move(&alice, PLACE, "14x23").await;
    let e = w.app.explain(&bob, PLACE, None).await;
    let r = only(&e);
    assert!(r.text.contains("14x23"), "{}", r.text);
    assert!(r.text.to_lowercase().contains("mandatory"), "{}", r.text);
    assert!(r.image.is_some());
    // With a move: why it is not legal now.
    let e = w.app.explain(&bob, PLACE, Some("21-17")).await;
    let said = damas::app::reply::plain(&only(&e).text).into_owned();
    assert!(said.contains("21-17 is not legal"), "{said}");
}

#[tokio::test]
async fn draws_are_offered_and_answered_by_the_opponent_only() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    let offer = w.app.draw(&alice, PLACE).await;
    assert!(!only(&offer).is_private());
    // The offerer cannot accept their own offer.
    assert!(only(&w.app.draw(&alice, PLACE).await).is_private());
    let accept = w.app.draw(&bob, PLACE).await;
    assert!(
        only(&accept).text.contains("Draw"),
        "{}",
        only(&accept).text
    );
    assert!(w.active_game(PLACE.channel_id).is_none());
}

#[tokio::test]
async fn resignation_ends_the_game_and_frees_the_channel() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    let r = w.app.resign(&bob, PLACE).await;
    assert!(only(&r).text.contains("White wins"), "{}", only(&r).text);
    // A final board keeps only the Rematch button.
    let ids: Vec<Option<Action>> = only(&r)
        .buttons
        .iter()
        .map(|b| damas::app::ComponentId::parse(&b.id).map(|id| id.action))
        .collect();
    assert_eq!(ids, vec![Some(Action::Rematch)]);
    assert!(w.active_game(PLACE.channel_id).is_none());
    // The channel takes a new game.
    let again = w
        .app
        .challenge(&alice, PLACE, &user(&bob), None, None)
        .await;
    assert!(!only(&again).is_private());
}

#[tokio::test]
async fn one_game_per_channel() {
    let w = world();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    started(&w, &alice, &bob).await;
    let r = w
        .app
        .challenge(&carol, PLACE, &user(&alice), None, None)
        .await;
    assert!(only(&r).is_private());
    let r = w.app.play_bot(&carol, PLACE, None, None, None).await;
    assert!(only(&r).is_private());
}

#[tokio::test]
async fn the_bot_answers_and_undo_takes_back_a_pair() {
    let w = world();
    let alice = actor(1, "alice");
    let start = play_easy_bot_as_black(&w.app, &alice, PLACE).await;
    // English: Black moves first, so alice moves and the bot answers.
    assert!(start.bot_turn().is_none());
    let a = w.app.play_move(&alice, PLACE, "11-15").await;
    let place = a.bot_turn().expect("the bot must move next");
    let b = w.app.bot_turn(place, alice.lang()).await;
    assert!(only(&b).text.contains("Bot"), "{}", only(&b).text);
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 2);
    let u = w.app.undo(&alice, PLACE).await;
    assert!(!only(&u).is_private(), "{}", only(&u).text);
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 0);
    assert!(rec.undo_used);
}

#[tokio::test]
async fn undo_is_refused_between_people() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    w.app.play_move(&alice, PLACE, "11-15").await;
    assert!(only(&w.app.undo(&alice, PLACE).await).is_private());
}

#[tokio::test]
async fn replies_follow_the_discord_locale() {
    let w = world();
    let mut alice = actor(1, "alice");
    alice.locale = "es-419".into();
    let bob = actor(2, "bob");
    started(&w, &alice, &bob).await;
    let bad = w.app.play_move(&alice, PLACE, "11-7").await;
    assert!(only(&bad).text.contains("adelante"), "{}", only(&bad).text);
    let bad_en = w.app.play_move(&bob, PLACE, "22-18").await;
    assert!(
        only(&bad_en).text.contains("turn"),
        "{}",
        only(&bad_en).text
    );
}

#[tokio::test]
async fn cancel_needs_manage_messages() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    let mut moderator = actor(5, "mod");
    assert!(only(&w.app.cancel(&moderator, PLACE).await).is_private());
    assert!(w.active_game(PLACE.channel_id).is_some());
    moderator.can_manage_messages = true;
    assert!(!only(&w.app.cancel(&moderator, PLACE).await).is_private());
    assert!(w.active_game(PLACE.channel_id).is_none());
}

#[tokio::test]
async fn the_pdn_of_a_game_is_a_file() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    w.app.play_move(&alice, PLACE, "11-15").await;
    let p = w.app.pdn(&alice, PLACE).await;
    let f = &only(&p).files[0];
    let text = String::from_utf8(f.bytes.clone()).unwrap();
    assert!(text.contains("[GameType \"24\"]"), "{text}");
    assert!(text.contains("1. 11-15"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_apply_once() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::sync::Arc;
    const RACERS: usize = 20;
    // Every racer reads the game before any of them writes: a move reads the clock between
    // loading the game and storing it, and once armed the clock lets none of the first
    // RACERS readers on until all of them got there. `block_in_place` hands the waiting
    // worker's other tasks to another thread, so the waits cannot starve the runtime.
    let armed = Arc::new(AtomicBool::new(false));
    let arrived = Arc::new(AtomicUsize::new(0));
    let all_read = Arc::new(std::sync::Barrier::new(RACERS));
    let mut w = world();
    w.app = w.app.clone().with_clock({
        let (armed, arrived, all_read) = (armed.clone(), arrived.clone(), all_read.clone());
        move || {
            if armed.load(SeqCst) && arrived.fetch_add(1, SeqCst) < RACERS {
                tokio::task::block_in_place(|| {
                    all_read.wait();
                });
            }
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as u64
        }
    });
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    started(&w, &alice, &bob).await;
    armed.store(true, SeqCst);
    let start = Arc::new(tokio::sync::Barrier::new(RACERS));
    let mut tasks = Vec::new();
    for _ in 0..RACERS {
        let app = w.app.clone();
        let alice = alice.clone();
        let start = start.clone();
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            app.play_move(&alice, PLACE, "11-15").await
        }));
    }
    let mut public = 0;
    for t in tasks {
        let a = t.await.unwrap();
        if !only(&a).is_private() {
            public += 1;
        }
    }
    assert_eq!(public, 1, "exactly one of the racing moves is played");
    assert!(
        arrived.load(SeqCst) >= RACERS,
        "every racer got as far as storing its move"
    );
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.moves.len(), 1);
}

#[tokio::test]
async fn a_forgotten_player_shows_as_a_deleted_player_in_old_games() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bobbinette"));
    started(&w, &alice, &bob).await;
    w.app.resign(&bob, PLACE).await;
    w.app.store().forget_user(bob.user_id).await.unwrap();
    let a = w.app.pdn(&alice, PLACE).await;
    let pdn = String::from_utf8(only(&a).files[0].bytes.clone()).unwrap();
    assert!(pdn.contains("[White \"alice\"]"), "{pdn}");
    assert!(pdn.contains("[Black \"deleted player\"]"), "{pdn}");
    assert!(!pdn.contains("bobbinette"), "{pdn}");
}

/// The bot's turn claimed by someone else (another process sharing the store).
struct ClaimedElsewhere;

impl damas::app::BotTurnClaims for ClaimedElsewhere {
    fn claim(
        &self,
        _channel_id: u64,
        _scope: damas::app::ClaimScope,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Option<damas::app::BotTurnClaim>> + Send + '_>,
    > {
        Box::pin(std::future::ready(None))
    }

    fn held_here(&self, _channel_id: u64) -> bool {
        false
    }
}

#[tokio::test]
async fn the_bot_moves_only_when_it_holds_the_claim_of_its_turn() {
    let w = world();
    let alice = actor(1, "alice");
    owe_the_bot_a_move(&w.app, &alice, PLACE).await;
    let moves = || w.active_game(PLACE.channel_id).unwrap().moves.len();
    let elsewhere = w
        .app
        .clone()
        .with_bot_turn_claims(std::sync::Arc::new(ClaimedElsewhere));
    let b = elsewhere.bot_turn(PLACE, alice.lang()).await;
    assert!(b.replies.is_empty(), "{:?}", b.replies);
    assert_eq!(moves(), 1);
    // This process's own claim: the move is made.
    let b = w.app.bot_turn(PLACE, alice.lang()).await;
    assert!(only(&b).text.contains("Bot"), "{}", only(&b).text);
    assert_eq!(moves(), 2);
}

/// Stores a game in `variant` from `fen`, in its own channel.
async fn stored_game(
    w: &World,
    channel_id: u64,
    players: [damas::store::Seat; 2],
    variant: Variant,
    fen: &str,
) -> Place {
    let store = w.app.store();
    let mut rec = damas::store::GameRecord::new(
        store.new_game_id().unwrap(),
        PLACE.guild_id,
        channel_id,
        variant,
        players.into(),
        0,
    );
    rec.start_fen = Some(fen.to_string());
    store.create_game(rec).await.unwrap();
    Place {
        guild_id: PLACE.guild_id,
        channel_id,
    }
}

fn seat(a: &Actor) -> damas::store::Seat {
    damas::store::Seat::Human {
        user_id: a.user_id,
        name: a.name.clone(),
    }
}

/// Stores a game of `person` (Black) against the bot at Medium, in English draughts, from
/// `fen`, in its own channel.
async fn against_medium_from(w: &World, channel_id: u64, person: &Actor, fen: &str) -> Place {
    let bot = damas::store::Seat::Bot {
        level: Level::Medium,
    };
    stored_game(w, channel_id, [bot, seat(person)], Variant::English, fen).await
}

/// Black's 18x25 takes White's last man: 2 pieces left after one move score 790 (Expert);
/// with eight more men, 1,590 (Pro).
const EXPERT_WIN: &str = "B:W22:B14,18";
const PRO_WIN: &str = "B:W22:B1,2,3,4,5,6,7,8,14,18";

#[tokio::test]
async fn titles_are_announced_once_and_shown_in_stats_and_leaderboards() {
    let w = world();
    let ana = actor(1, "ana");
    let mut ana_es = actor(1, "ana");
    ana_es.locale = "es-ES".into();
    let final_text = |a: &damas::app::Answer| {
        let r = only(a);
        // A final board keeps only its Rematch button.
        assert!(
            r.buttons.iter().all(|b| b.id.starts_with("damas:rematch:")),
            "a final board: {r:#?}"
        );
        damas::app::reply::plain(&r.text).into_owned()
    };

    let place = against_medium_from(&w, 101, &ana, EXPERT_WIN).await;
    let text = final_text(&w.app.play_move(&ana, place, "18x25").await);
    assert!(text.contains("ana earns the title Expert"), "{text}");
    let stats = only(&w.app.stats(&ana, None)).text.clone();
    assert!(stats.contains(": Expert (best score 790"), "{stats}");

    // The same score again earns nothing new: no announcement.
    let place = against_medium_from(&w, 102, &ana, EXPERT_WIN).await;
    let text = final_text(&w.app.play_move(&ana, place, "18x25").await);
    assert!(!text.contains("title"), "{text}");

    // Crossing 1,000 earns Pro, announced in Spanish to a Spanish speaker.
    let place = against_medium_from(&w, 103, &ana, PRO_WIN).await;
    let text = final_text(&w.app.play_move(&ana_es, place, "18x25").await);
    assert!(text.contains("ana gana el título Pro"), "{text}");
    let stats = only(&w.app.stats(&ana, None)).text.clone();
    assert!(stats.contains(": Pro (best score 1"), "{stats}");
    assert!(!stats.contains("Expert"), "{stats}");
    let stats_es = only(&w.app.stats(&ana_es, None)).text.clone();
    assert!(stats_es.contains(": Pro (mejor puntuación 1"), "{stats_es}");

    // Every leaderboard of the variant names the title; other variants do not.
    let board = only(
        &w.app
            .leaderboard(&ana, PLACE, Some(Variant::English), Some(Level::Medium)),
    )
    .text
    .clone();
    let board = damas::app::reply::plain(&board);
    assert!(board.contains("1. ana · Pro —"), "{board}");
    let board = only(
        &w.app
            .leaderboard(&ana, PLACE, Some(Variant::English), Some(Level::Easy)),
    )
    .text
    .clone();
    assert!(!board.contains("Pro"), "no line at Easy: {board}");
}

#[tokio::test]
async fn a_long_move_list_is_sent_whole_with_its_pieces_and_a_piece_pick_lists_its_moves() {
    let w = world();
    let (ana, bob) = (actor(1, "ana"), actor(2, "bob"));
    // Flying kings in the middle and two corners (28 moves): more moves than one Discord menu holds.
    let place = stored_game(
        &w,
        104,
        [seat(&ana), seat(&bob)],
        Variant::Spanish,
        "W:WK1,K4,K14,K15,K18,K19:B32",
    )
    .await;
    let board = only(&w.app.board(&ana, place).await).clone();
    let menu = board.menu.expect("a move menu");
    assert!(menu.options.len() > 25, "{} moves", menu.options.len());
    assert_eq!(
        damas::app::ComponentId::parse(&menu.id).unwrap().action,
        Action::Move
    );
    let groups = menu.groups.expect("moves grouped by piece");
    assert_eq!(
        damas::app::ComponentId::parse(&groups.id).unwrap().action,
        Action::Piece
    );
    let pieces: Vec<&str> = groups.groups.iter().map(|g| g.value.as_str()).collect();
    assert_eq!(pieces, ["1", "4", "14", "15", "18", "19"]);

    // Picking a piece lists exactly its moves, privately; the lists make up the whole menu.
    let mut listed = Vec::new();
    for piece in pieces {
        let a = w
            .app
            .component(&ana, place, &groups.id, &[piece.to_string()])
            .await;
        let r = only(&a);
        assert!(r.is_private());
        let step = r.menu.as_ref().expect("the piece's moves");
        assert_eq!(step.id, menu.id);
        assert!(step.groups.is_none());
        assert!(
            step.options
                .iter()
                .all(|o| o.value.starts_with(&format!("{piece}-"))),
            "{piece}: {:?}",
            step.options
        );
        listed.extend(step.options.iter().map(|o| o.value.clone()));
    }
    let mut all: Vec<String> = menu.options.iter().map(|o| o.value.clone()).collect();
    all.sort();
    listed.sort();
    assert_eq!(listed, all);

    // A move from the second step is played.
    let a = w
        .app
        .component(&ana, place, &menu.id, &[all[0].clone()])
        .await;
    assert!(
        damas::app::reply::plain(&only(&a).text).contains(&format!("ana played {}", all[0])),
        "{:#?}",
        a.replies
    );
}

/// A stopping process leaves the bot's queued moves owed, for the next start to make with a
/// proper search, rather than playing each at once from a shallow one (or making the stop
/// wait for every queued search); a running search the stop cuts short is not played either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_bot_leaves_its_queued_moves_to_the_next_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("db")).expect("store");
    let config = Settings {
        bot_seed: Some(7),
        search_threads: 1,
        ..Settings::default()
    };
    // The first search holds the one search thread until released.
    let (entered, search_entered) = std::sync::mpsc::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = std::sync::Mutex::new(released);
    let app = App::new(store.clone(), config.clone()).with_search_hook(move |_| {
        let _ = entered.send(());
        let _ = released.lock().unwrap().recv();
    });
    let alice = actor(1, "alice");
    let [first, second] = [20, 21].map(|channel_id| Place {
        guild_id: Some(10),
        channel_id,
    });
    for place in [first, second] {
        owe_the_hard_bot_a_move(&app, &alice, place).await;
    }
    let lang = alice.lang();
    let running = tokio::spawn({
        let app = app.clone();
        async move { app.bot_turn(first, lang).await }
    });
    tokio::task::spawn_blocking(move || search_entered.recv())
        .await
        .unwrap()
        .expect("the first search started");
    let queued = tokio::spawn({
        let app = app.clone();
        async move { app.bot_turn(second, lang).await }
    });
    while app.searches_waiting() == 0 {
        tokio::task::yield_now().await;
    }

    app.stop_searches();
    let answer = queued.await.unwrap();
    assert!(answer.replies.is_empty(), "{:?}", answer.replies);
    // The running search starts after the stop: it is cut at once.
    drop(release);
    let answer = running.await.unwrap();
    assert!(answer.replies.is_empty(), "{:?}", answer.replies);
    let moves = |channel_id| store.active_game(channel_id).unwrap().unwrap().moves.len();
    for place in [first, second] {
        assert_eq!(moves(place.channel_id), 1, "no bot move in {place:?}");
        assert!(app
            .owed_work()
            .iter()
            .any(|(owed, _)| *owed == Owed::BotMove(place)));
    }

    // The next start makes them.
    let next = App::new(store.clone(), config);
    for place in [first, second] {
        let b = next.bot_turn(place, lang).await;
        assert!(only(&b).text.contains("Bot"), "{}", only(&b).text);
        assert_eq!(moves(place.channel_id), 2);
    }
}

/// A bot move nobody has made for longer than two leases live (a process died searching it) is
/// stalled: the sweeper then starts it whether or not its board was shown.
#[tokio::test]
async fn a_bot_move_waiting_past_two_leases_is_stalled() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("db")).expect("store");
    let now = Arc::new(AtomicU64::new(1_800_000_000_000));
    let clock = Arc::clone(&now);
    let config = Settings {
        bot_seed: Some(7),
        ..Settings::default()
    };
    let app = App::new(store, config).with_clock(move || clock.load(Ordering::Relaxed));
    let alice = actor(1, "alice");
    let place = Place {
        guild_id: Some(10),
        channel_id: 20,
    };
    owe_the_bot_a_move(&app, &alice, place).await;
    let lease = damas::store::BOT_TURN_LEASE_TTL.as_millis() as u64;

    now.fetch_add(2 * lease, Ordering::Relaxed);
    assert!(!app.bot_move_stalled(place), "two leases: not yet");
    now.fetch_add(1_000, Ordering::Relaxed);
    assert!(app.bot_move_stalled(place));
    // Once the bot has moved, nothing is stalled: it is alice's turn.
    app.bot_turn(place, alice.lang()).await;
    assert!(!app.bot_move_stalled(place));
}

/// `alice` plays Black against easy at English draughts in `place` and moves 11-15 (Black
/// moves first): the bot owes its move.
async fn owe_the_bot_a_move(app: &App, alice: &Actor, place: Place) {
    play_easy_bot_as_black(app, alice, place).await;
    let a = app.play_move(alice, place, "11-15").await;
    assert_eq!(a.bot_turn(), Some(place), "{:?}", a.replies);
}

/// [`owe_the_bot_a_move`] against hard, whose searches wait for the pool's threads (easy and
/// medium ones have a thread of their own besides).
async fn owe_the_hard_bot_a_move(app: &App, alice: &Actor, place: Place) {
    let started = app
        .play_bot(
            alice,
            place,
            Some(damas::ai::Level::Hard),
            Some(damas::engine::Variant::English),
            Some(damas::engine::Color::Black),
        )
        .await;
    assert!(!only(&started).is_private(), "{}", only(&started).text);
    let a = app.play_move(alice, place, "11-15").await;
    assert_eq!(a.bot_turn(), Some(place), "{:?}", a.replies);
}

fn world_with(config: Settings) -> World {
    World::new(Settings {
        bot_seed: Some(7),
        ..config
    })
}

fn channel(channel_id: u64) -> Place {
    Place {
        guild_id: Some(10),
        channel_id,
    }
}

/// One person may have `max_bot_games` games against the bot under way and
/// `max_challenges` open challenges: the next is refused, privately, in their language, and
/// nothing is stored; one ended (or withdrawn) makes room again. Others are not limited by
/// them.
#[tokio::test]
async fn a_person_has_at_most_the_capped_bot_games_and_open_challenges() {
    let w = world_with(Settings {
        max_bot_games: 2,
        max_challenges: 2,
        ..Settings::default()
    });
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));
    let play = |who: &Actor, place: Place| {
        let app = w.app.clone();
        let who = who.clone();
        async move { play_easy_bot_as_black(&app, &who, place).await }
    };
    for c in [31, 32] {
        assert!(!only(&play(&alice, channel(c)).await).is_private());
    }
    let refused = play(&alice, channel(33)).await;
    assert!(only(&refused).is_private());
    assert_eq!(
        only(&refused).text,
        "You already have 2 games against the bot under way: finish or resign one first."
    );
    assert!(w.active_game(33).is_none());
    let alicia = Actor {
        locale: "es-419".into(),
        ..alice.clone()
    };
    let refused = play(&alicia, channel(33)).await;
    assert_eq!(
        only(&refused).text,
        "Ya tienes 2 partidas en curso contra el bot: termina o abandona una primero."
    );
    // Someone else plays on.
    assert!(!only(&play(&bob, channel(33)).await).is_private());
    // A game between people does not count.
    let a = w
        .app
        .challenge(&carol, channel(34), &user(&alice), None, None)
        .await;
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&alice, channel(34), &accept, &[]).await;
    assert!(w.active_game(34).is_some());
    // One resigned: room for another.
    w.app.resign(&alice, channel(31)).await;
    assert!(!only(&play(&alice, channel(35)).await).is_private());

    // Challenges.
    for c in [41, 42] {
        let a = w
            .app
            .challenge(&alice, channel(c), &user(&bob), None, None)
            .await;
        assert!(!only(&a).is_private(), "{}", only(&a).text);
    }
    let refused = w
        .app
        .challenge(&alice, channel(43), &user(&carol), None, None)
        .await;
    assert!(only(&refused).is_private());
    assert_eq!(
        only(&refused).text,
        "You already have 2 open challenges: wait for an answer or withdraw one first."
    );
    assert!(
        w.app.store().challenge(43).unwrap().is_none(),
        "nothing stored"
    );
    let a = w
        .app
        .challenge(&bob, channel(43), &user(&carol), None, None)
        .await;
    assert!(!only(&a).is_private(), "{}", only(&a).text);
    // Withdrawn: room again.
    let open = w.app.store().challenge(41).unwrap().unwrap();
    let withdraw = damas::app::ComponentId::new(Action::Decline, 41, open.created_at_ms);
    w.app
        .component(&alice, channel(41), &withdraw.encode(), &[])
        .await;
    let a = w
        .app
        .challenge(&alice, channel(44), &user(&carol), None, None)
        .await;
    assert!(!only(&a).is_private(), "{}", only(&a).text);
}

/// A display name full of markup and a typed move full of markup reach every reply marked as
/// written by a person, wherever they appear (front ends escape exactly those parts): never
/// in the bot's own words unmarked. An `/explain` of text that is no move is answered
/// privately. A thread's name is the names as typed, on one line, within Discord's length.
#[tokio::test]
async fn what_people_wrote_is_marked_in_every_reply() {
    use damas::app::reply::{plain, user_parts};
    let w = world();
    const EVIL: &str = "[free nitro](https://evil.example) **x**";
    let (evil, bob) = (actor(1, EVIL), actor(2, "bob"));
    let mut replies: Vec<Reply> = Vec::new();
    let mut keep = |a: Answer| replies.extend(a.replies);
    let a = w
        .app
        .challenge(&evil, PLACE, &user(&bob), None, Some(Color::White))
        .await;
    let accept = button_id(only(&a), Action::Accept);
    keep(a);
    keep(w.app.component(&bob, PLACE, &accept, &[]).await);
    keep(w.app.play_move(&evil, PLACE, "10-14").await);
    keep(w.app.draw(&bob, PLACE).await);
    keep(w.app.board(&bob, PLACE).await);
    keep(
        w.app
            .play_move(&evil, PLACE, "[x](https://evil.example)")
            .await,
    );
    let typed = w
        .app
        .explain(&bob, PLACE, Some("[a](https://evil.example) **b**"))
        .await;
    assert!(only(&typed).is_private(), "a refusal that repeats input");
    keep(typed);
    keep(w.app.resign(&evil, PLACE).await);
    keep(w.app.stats(&bob, Some(&user(&evil))));
    keep(w.app.leaderboard(&bob, PLACE, None, None));
    keep(w.app.review(&bob, PLACE, None, &|_, _| {}).await);
    let thread = w
        .app
        .play_bot_in(
            &actor(
                3,
                "x\n# \u{202E}big **name** that goes on and on and on and on and on and on and on",
            ),
            channel(50),
            None,
            None,
            Some(Color::White),
            damas::app::commands::Threading::InThread,
        )
        .await;
    let name = thread
        .new_thread()
        .expect("a thread is asked for")
        .name
        .clone();
    assert!(name.chars().count() <= 100, "{name}");
    assert!(!name.contains('\n'), "{name}");
    // (the right-to-left override dropped: it would turn the rest of the name around)
    assert!(name.starts_with("x # big **name** that goes on"), "{name}");
    assert_eq!(plain(&name), name, "no marks in a thread's name");

    assert!(replies.len() >= 10, "{replies:#?}");
    let mut names_seen = 0;
    for r in &replies {
        for text in std::iter::once(&r.text).chain(&r.title) {
            for (part, theirs) in user_parts(text) {
                if theirs {
                    names_seen += usize::from(part == EVIL);
                } else {
                    assert!(
                        !part.contains("evil.example") && !part.contains("**"),
                        "unmarked user text in {text:?}"
                    );
                }
            }
        }
    }
    assert!(names_seen >= 8, "the name appears, marked: {names_seen}");
    // As shown where nothing is markup: exactly as typed.
    assert!(plain(&replies[0].text).contains(&format!("{EVIL} challenges bob")));
}

/// `/undo` says the game no longer counts: lost afterwards, it is not a loss in `/stats`,
/// in either language; the same game lost without an undo is.
#[tokio::test]
async fn a_game_lost_after_an_undo_is_not_in_stats() {
    for undo in [true, false] {
        let w = world();
        let alice = actor(1, "alice");
        let mut alicia = actor(1, "alice");
        alicia.locale = "es-ES".into();
        play_easy_bot_as_black(&w.app, &alice, PLACE).await;
        let a = w.app.play_move(&alice, PLACE, "11-15").await;
        let place = a.bot_turn().expect("the bot must move next");
        w.app.bot_turn(place, alice.lang()).await;
        if undo {
            let u = w.app.undo(&alice, PLACE).await;
            let said = damas::app::reply::plain(&only(&u).text).into_owned();
            assert!(said.contains("no longer ranked"), "{said}");
        }
        w.app.resign(&alice, PLACE).await;
        assert!(w.active_game(PLACE.channel_id).is_none(), "the game ended");
        let record = w.app.store().player(1).unwrap().expect("alice's record");
        let easy = record.bot(Variant::English, Level::Easy);
        assert_eq!(easy.tally.losses, u32::from(!undo), "undo {undo}: {easy:?}");
        let stats = damas::app::reply::plain(&only(&w.app.stats(&alice, None)).text).into_owned();
        // The line of games against the easy bot is there only for a game that counts.
        assert_eq!(stats.contains("(easy)"), !undo, "{stats}");
        let stats = damas::app::reply::plain(&only(&w.app.stats(&alicia, None)).text).into_owned();
        assert_eq!(stats.contains("(fácil)"), !undo, "{stats}");
    }
}
