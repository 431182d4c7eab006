//! `/move` and the bot's move play on the game as this process last saw it, and `/move`
//! asks its memory whether its player is solving a puzzle, without reading the store again:
//! two processes sharing PostgreSQL each remember what they last left, so each must fall back
//! on the store whenever its copy is outdated — neither refusing a move the stored game
//! allows, nor making one on the outdated copy, nor leaving a bot's move unmade.

use crate::support::app::{actor, only, seeded, start_spanish_game};
use damas::ai::Level;
use damas::app::boot::boot;
use damas::app::commands::{find, ArgValue, Invocation};
use damas::app::puzzle::puzzle_set;
use damas::app::{Actor, App, Place};
use damas::engine::{Color, Variant};
use std::path::Path;
use std::time::Duration;

const PLACE: Place = Place {
    guild_id: Some(1),
    channel_id: 30,
};

/// The first legal move of the stored game, in notation.
fn first_legal_move(app: &App) -> String {
    let rec = app.store().active_game(PLACE.channel_id).unwrap().unwrap();
    let game = rec.to_game().unwrap();
    let position = game.position();
    position.move_notation(&position.legal_moves()[0])
}

/// `who` plays the stored game's first legal move through `app`: it is made (a public
/// board), and the stored game is one ply further on.
async fn plays(app: &App, who: &Actor, stored: &App) {
    let before = stored
        .store()
        .active_game(PLACE.channel_id)
        .unwrap()
        .unwrap();
    let mv = first_legal_move(stored);
    let answer = app.play_move(who, PLACE, &mv).await;
    assert!(
        !only(&answer).is_private(),
        "{} playing {mv} at ply {}: {}",
        who.name,
        before.ply(),
        only(&answer).text
    );
    let after = stored
        .store()
        .active_game(PLACE.channel_id)
        .unwrap()
        .unwrap();
    assert_eq!(after.ply(), before.ply() + 1, "one move, made once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_an_outdated_copy_is_played_on_the_stored_game() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let db = server.fresh_database();
    let a = boot(Path::new(&db), seeded(1)).expect("process a");
    let b = boot(Path::new(&db), seeded(2)).expect("process b");
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    start_spanish_game(&a, &alice, &bob, PLACE).await;

    // a makes alice's move and remembers the game with bob to move.
    plays(&a, &alice, &b).await;
    // bob moves through b: a's copy still says bob is to move, and would refuse alice.
    plays(&b, &bob, &b).await;
    plays(&a, &alice, &b).await;
    // Two moves through b: a's copy has bob to move, as the stored game has, but two plies
    // behind — its move is refused by the store's compare-and-swap, or by the copy as
    // illegal; either way it is played on the stored game.
    plays(&b, &bob, &b).await;
    plays(&b, &alice, &b).await;
    plays(&a, &bob, &b).await;

    // And a refusal the stored game makes too stays a refusal, changing nothing.
    let stored = b.store().active_game(PLACE.channel_id).unwrap().unwrap();
    let answer = a.play_move(&bob, PLACE, &first_legal_move(&b)).await;
    assert!(only(&answer).is_private(), "{}", only(&answer).text);
    assert_eq!(
        b.store().active_game(PLACE.channel_id).unwrap().unwrap(),
        stored
    );
    assert_eq!(stored.ply(), 6);
}

/// The stored game's ply in `place`, read through `reader` (a process that plays no part:
/// a read refreshes the reading process's memory).
fn stored_ply(reader: &App, place: Place) -> usize {
    let rec = reader
        .store()
        .active_game(place.channel_id)
        .unwrap()
        .unwrap();
    rec.ply()
}

/// `who` plays the stored game's first legal move in `place` through `app`.
async fn moves(app: &App, who: &Actor, place: Place, reader: &App) {
    let rec = reader
        .store()
        .active_game(place.channel_id)
        .unwrap()
        .unwrap();
    let game = rec.to_game().unwrap();
    let mv = game
        .position()
        .move_notation(&game.position().legal_moves()[0]);
    let answer = app.play_move(who, place, &mv).await;
    assert!(!only(&answer).is_private(), "{}", only(&answer).text);
}

/// The bot's turn through `app` makes exactly one move, shown in public.
async fn bot_moves(app: &App, place: Place, who: &Actor, reader: &App) {
    let before = stored_ply(reader, place);
    let answer = app.bot_turn(place, who.lang()).await;
    assert_eq!(
        stored_ply(reader, place),
        before + 1,
        "the bot's move was made, once"
    );
    assert!(!only(&answer).is_private(), "{}", only(&answer).text);
}

/// Carol's Spanish game against the easy bot, playing White, in a fresh database shared by
/// processes a and b, which play, and c, which only reads; begun through a.
struct EasyGameOnThreeProcesses {
    a: App,
    b: App,
    c: App,
    carol: Actor,
    place: Place,
}

/// [`EasyGameOnThreeProcesses`] in channel `channel_id`; `None` (the test skipped) without
/// PostgreSQL.
async fn easy_game_on_three_processes(channel_id: u64) -> Option<EasyGameOnThreeProcesses> {
    let db = crate::support::postgres()?.fresh_database();
    let process = |seed, name| boot(Path::new(&db), seeded(seed)).expect(name);
    let (a, b, c) = (
        process(1, "process a"),
        process(2, "process b"),
        process(3, "process c, which only reads"),
    );
    let carol = actor(3, "carol");
    let place = Place {
        guild_id: Some(1),
        channel_id,
    };
    let play = a
        .play_bot(
            &carol,
            place,
            Some(Level::Easy),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    assert!(!only(&play).is_private(), "{}", only(&play).text);
    Some(EasyGameOnThreeProcesses {
        a,
        b,
        c,
        carol,
        place,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_move_is_made_on_the_stored_game_when_the_copy_is_outdated() {
    let Some(EasyGameOnThreeProcesses {
        a,
        b,
        c,
        carol,
        place,
    }) = easy_game_on_three_processes(40).await
    else {
        return;
    };

    // The usual path: carol's move and the bot's answer through one process.
    moves(&a, &carol, place, &c).await;
    bot_moves(&a, place, &carol, &c).await;
    // a remembers carol to move; she moves through b. a's copy shows no bot to move, yet the
    // stored game waits for one.
    moves(&b, &carol, place, &c).await;
    bot_moves(&a, place, &carol, &c).await;
    // a remembers the bot to move, two plies behind: the bot's move through b, carol's
    // through b; a's move on its copy finds the game changed and is made on the stored game.
    moves(&a, &carol, place, &c).await;
    bot_moves(&b, place, &carol, &c).await;
    moves(&b, &carol, place, &c).await;
    bot_moves(&a, place, &carol, &c).await;
    assert_eq!(stored_ply(&c, place), 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_command_finds_a_puzzle_begun_through_another_process() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let db = server.fresh_database();
    let a = boot(Path::new(&db), seeded(1)).expect("process a");
    let b = boot(Path::new(&db), seeded(2)).expect("process b");
    let alice = actor(1, "alice");
    let command = |name: &str, args: &[(&'static str, &str)]| {
        let mut invocation = Invocation::new(find(name).expect("command"));
        for (k, v) in args {
            invocation.args.push((k, ArgValue::Text(v.to_string())));
        }
        invocation
    };

    // a learns that alice is solving no puzzle (there is no game here either).
    let nothing = a
        .run_command(&alice, PLACE, &command("move", &[("move", "11-15")]))
        .await;
    assert!(only(&nothing).is_private(), "{}", only(&nothing).text);
    // She begins one through b.
    b.run_command(&alice, PLACE, &command("puzzle", &[])).await;
    let session = b
        .store()
        .puzzle_player(alice.user_id)
        .unwrap()
        .and_then(|p| p.session)
        .expect("a puzzle begun");
    let puzzle = puzzle_set(session.variant)
        .iter()
        .find(|p| p.id == session.puzzle_id)
        .expect("the puzzle");
    let first = puzzle.line_notation()[0].clone();

    // Her /move through a goes to that puzzle, once.
    let answer = a
        .run_command(&alice, PLACE, &command("move", &[("move", &first)]))
        .await;
    let after = b.store().puzzle_player(alice.user_id).unwrap().unwrap();
    assert_ne!(
        after.session.map(|s| s.ply),
        Some(0),
        "the puzzle's first move was played: {}",
        only(&answer).text
    );
    assert_eq!(after.failed, 0, "{}", only(&answer).text);
}

/// An easy bot's move asked of two processes at once (the person's move answered through
/// one, the other's catch-up finding the move owed): a quick move takes no claim shared
/// between processes, so both may search it, and the store's compare-and-swap lets exactly
/// one of them make it and show it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_asked_for_one_easy_bot_move_at_once_make_it_once() {
    let Some(EasyGameOnThreeProcesses {
        a,
        b,
        c,
        carol,
        place,
    }) = easy_game_on_three_processes(50).await
    else {
        return;
    };
    for _ in 0..5 {
        moves(&a, &carol, place, &c).await;
        let before = stored_ply(&c, place);
        // Both in this task: neither may swallow the other's wake-up (src/store/pg.rs).
        let (here, there) = tokio::time::timeout(Duration::from_secs(60), async {
            tokio::join!(
                a.bot_turn(place, carol.lang()),
                b.bot_turn(place, carol.lang())
            )
        })
        .await
        .expect("both bot turns ended");
        assert_eq!(stored_ply(&c, place), before + 1, "one bot move, made once");
        let shown: Vec<_> = [here, there]
            .into_iter()
            .filter(|answer| !answer.replies.is_empty())
            .collect();
        assert_eq!(shown.len(), 1, "one board of the bot's move");
        assert!(!only(&shown[0]).is_private(), "{}", only(&shown[0]).text);
    }
}
