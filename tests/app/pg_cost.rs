//! What the hot use cases cost on PostgreSQL: statements and round trips, counted on the wire
//! by a relay between the app and the server (`support::store::postgres::CountingProxy`).
//! The ceilings are the figures of docs/BENCHMARKS.md ("Statements per use case"), read from
//! there: a change that adds a statement to a hot path fails here until the document says
//! what it costs now. Prints what it measured, for the document
//! (`cargo test --test app pg_cost -- --nocapture`).

use crate::support::app::{actor, button_id, only, seeded, user};
use crate::support::store::postgres::{Cost, CountingProxy};
use async_trait::async_trait;
use damas::ai::Level;
use damas::app::boot::boot;
use damas::app::commands::{
    find, ArgValue, Command, Invocation, TournamentCreate, TournamentFormat,
};
use damas::app::deliver::{Delivery, MessageId, NotShown};
use damas::app::serve::{Respond, Shown};
use damas::app::{Action, Answer, App, Place, Reply};
use damas::engine::{Color, Variant};
use damas::lang::Lang;
use damas::store::{BoardPost, Seat};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Discord as far as the app can tell: every reply shown, as a new message.
#[derive(Default)]
struct Everything {
    next: AtomicU64,
}

impl Everything {
    fn message(&self) -> MessageId {
        700_000 + self.next.fetch_add(1, Ordering::SeqCst)
    }
}

#[async_trait]
impl Delivery for Everything {
    async fn post(&self, _: u64, _: &Reply) -> Result<MessageId, NotShown> {
        Ok(self.message())
    }
    async fn edit(&self, _: u64, _: MessageId, _: &Reply) -> Result<(), NotShown> {
        Ok(())
    }
    async fn strip_controls(&self, _: u64, _: MessageId) -> Result<(), NotShown> {
        Ok(())
    }
    async fn open_thread(&self, _: u64, _: &str) -> Result<u64, NotShown> {
        Ok(self.message())
    }
    async fn archive_thread(&self, _: u64) -> Result<(), NotShown> {
        Ok(())
    }
}

#[async_trait]
impl Respond for Everything {
    async fn answer(&self, _: &Reply) -> Shown {
        Shown::Message(self.message())
    }
    async fn follow_up(&self, _: &Reply) -> Shown {
        Shown::Message(self.message())
    }
    async fn acknowledge(&self) {}
}

/// The app as `damas bot` runs it on PostgreSQL (leases on the bot's turn included), and the
/// relay counting what it asks.
struct Counted {
    app: App,
    proxy: CountingProxy,
    out: Arc<Everything>,
    interactions: AtomicU64,
}

impl Counted {
    /// An interaction as the Discord front end takes one on PostgreSQL: its sighting recorded
    /// (shared between processes), the use case, the answer shown. The work it starts (the
    /// bot's move) is not waited for.
    async fn interact(&self, place: Place, answer: impl std::future::Future<Output = Answer>) {
        let id = 1 + self.interactions.fetch_add(1, Ordering::SeqCst);
        assert_eq!(self.app.first_sighting(id).unwrap(), Some(true));
        let answer = answer.await;
        let delivery: Arc<dyn Delivery> = self.out.clone();
        self.app
            .serve(answer, place, Lang::En, &*self.out, &delivery)
            .await;
    }
}

/// The first legal move of the game in `place`, in notation.
fn first_legal_move(app: &App, place: Place) -> String {
    let rec = app.store().active_game(place.channel_id).unwrap().unwrap();
    let game = rec.to_game().unwrap();
    let position = game.position();
    position.move_notation(&position.legal_moves()[0])
}

/// The ceilings documented in docs/BENCHMARKS.md: the row whose first cell is `label`, its
/// next three cells (statements, round trips, statements committed without waiting for the
/// disk).
fn documented(label: &str) -> Cost {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/BENCHMARKS.md"))
        .expect("docs/BENCHMARKS.md");
    let row = doc
        .lines()
        .find(|l| l.starts_with(&format!("| {label} |")))
        .unwrap_or_else(|| panic!("docs/BENCHMARKS.md has no row \"{label}\""));
    let cells: Vec<u64> = row
        .split('|')
        .skip(2)
        .take(3)
        .map(|c| {
            c.trim()
                .parse()
                .unwrap_or_else(|_| panic!("{label}: {c:?} is not a count"))
        })
        .collect();
    Cost {
        statements: cells[0],
        round_trips: cells[1],
        prepares: 0,
        relaxed: cells[2],
    }
}

/// `cost` is within the documented ceiling of `label`.
fn within_documented(label: &str, cost: Cost, report: &mut Vec<String>) {
    report.push(format!(
        "| {label} | {} | {} | {} | (prepared: {}) |",
        cost.statements, cost.round_trips, cost.relaxed, cost.prepares
    ));
    let ceiling = documented(label);
    // Exactly: fewer would wait for the disk where nothing needs it; more would leave
    // something on which a move depends (a game, a record) to a commit that may be lost.
    assert_eq!(
        cost.relaxed, ceiling.relaxed,
        "{label}: {} statements committed without waiting for the disk, documented {}",
        cost.relaxed, ceiling.relaxed
    );
    assert!(
        cost.statements <= ceiling.statements && cost.round_trips <= ceiling.round_trips,
        "{label}: {} statements and {} round trips, documented {} and {}: make it cheaper, \
         or say in docs/BENCHMARKS.md why it costs more now",
        cost.statements,
        cost.round_trips,
        ceiling.statements,
        ceiling.round_trips
    );
}

// A runtime of one thread: the bot's move, started as a task of its own once the person's
// answer is shown, runs only when the test awaits it, so each part is counted apart.
#[tokio::test]
async fn the_hot_paths_cost_no_more_than_documented() {
    if crate::support::postgres().is_none() {
        return;
    }
    let proxy = CountingProxy::start();
    let db = proxy.fresh_database();
    let app = boot(Path::new(&db), seeded(3)).expect("the app boots on PostgreSQL");
    let world = Counted {
        app,
        proxy,
        out: Arc::default(),
        interactions: AtomicU64::new(0),
    };
    let app = &world.app;
    let cost = || world.proxy.cost();
    let mut report = Vec::new();
    let (alice, bob, carol) = (actor(1, "alice"), actor(2, "bob"), actor(3, "carol"));

    // A challenge, and its acceptance: the game created, its first board recorded.
    let people = Place {
        guild_id: Some(10),
        channel_id: 20,
    };
    let before = cost();
    let mut challenged = None;
    world
        .interact(people, async {
            let a = app
                .challenge(
                    &alice,
                    people,
                    &user(&bob),
                    Some(Variant::Spanish),
                    Some(Color::White),
                )
                .await;
            challenged = Some(button_id(only(&a), Action::Accept));
            a
        })
        .await;
    let accept = challenged.expect("a challenge");
    world
        .interact(people, app.component(&bob, people, &accept, &[]))
        .await;
    app.settled().await;
    within_documented(
        "a challenge and its acceptance",
        cost() - before,
        &mut report,
    );

    // Moves between people: the first prepares what the later ones reuse.
    let mut costs = Vec::new();
    for i in 0..4 {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let mv = first_legal_move(app, people);
        let before = cost();
        world
            .interact(people, app.play_move(who, people, &mv))
            .await;
        app.settled().await;
        costs.push(cost() - before);
    }
    let played = app.store().active_game(people.channel_id).unwrap();
    assert_eq!(
        played.map(|g| g.moves.len()),
        Some(4),
        "every move was played"
    );
    within_documented("a move between people", costs[3], &mut report);

    // The same move as Discord sends it, a /move command: no more than the move, once this
    // process has read whether the player is solving a puzzle (`/move` answers puzzles too):
    // the first /move of each person reads it, the later ones remember. The server settings
    // every command in a server reads (its language, its defaults) come from what this
    // process read in the last `FRESH_FOR`, so they cost nothing.
    let mut slash_costs = Vec::new();
    for who in [&alice, &bob, &alice] {
        let mut slash = Invocation::new(find("move").expect("/move"));
        slash
            .args
            .push(("move", ArgValue::Text(first_legal_move(app, people))));
        let before = cost();
        world
            .interact(people, app.run_command(who, people, &slash))
            .await;
        app.settled().await;
        slash_costs.push(cost() - before);
    }
    let played = app.store().active_game(people.channel_id).unwrap();
    assert_eq!(
        played.map(|g| g.moves.len()),
        Some(7),
        "every /move was played"
    );
    within_documented(
        "a /move command between people",
        slash_costs[2],
        &mut report,
    );

    // The board of a move, recorded once posted (part of the move above).
    let game = app.store().active_game(people.channel_id).unwrap().unwrap();
    let before = cost();
    let post = BoardPost {
        game_id: game.id,
        message_id: 1,
        ply: game.moves.len(),
    };
    app.store()
        .record_board_post(people.channel_id, post, false)
        .await
        .unwrap();
    within_documented("a board post", cost() - before, &mut report);

    // Against the bot: the person's move, then the bot's answer (lease, search, save, its
    // board), each counted apart.
    let vs_bot = Place {
        guild_id: Some(10),
        channel_id: 30,
    };
    // `/play`: the game created, its first board recorded (the person moves first).
    let before = cost();
    world
        .interact(
            vs_bot,
            app.play_bot(
                &carol,
                vs_bot,
                Some(Level::Easy),
                Some(Variant::Spanish),
                Some(Color::White),
            ),
        )
        .await;
    app.settled().await;
    within_documented("a /play against the bot", cost() - before, &mut report);
    let mut person = Vec::new();
    let mut bot = Vec::new();
    for _ in 0..3 {
        let mv = first_legal_move(app, vs_bot);
        let before = cost();
        world
            .interact(vs_bot, app.play_move(&carol, vs_bot, &mv))
            .await;
        let answered = cost();
        app.settled().await;
        person.push(answered - before);
        bot.push(cost() - answered);
    }
    let rec = app.store().active_game(vs_bot.channel_id).unwrap().unwrap();
    assert_eq!(rec.moves.len(), 6, "the bot answered each move");
    within_documented(
        "a move against the bot (the person's part)",
        person[2],
        &mut report,
    );
    within_documented("the bot's move (easy, medium)", bot[2], &mut report);

    // At hard the bot's turn is claimed across processes: a lease row taken and given back.
    let vs_hard = Place {
        guild_id: Some(10),
        channel_id: 31,
    };
    world
        .interact(
            vs_hard,
            app.play_bot(
                &carol,
                vs_hard,
                Some(Level::Hard),
                Some(Variant::Spanish),
                Some(Color::White),
            ),
        )
        .await;
    app.settled().await;
    let mut bot = Vec::new();
    for _ in 0..2 {
        let mv = first_legal_move(app, vs_hard);
        world
            .interact(vs_hard, app.play_move(&carol, vs_hard, &mv))
            .await;
        let answered = cost();
        app.settled().await;
        bot.push(cost() - answered);
    }
    let rec = app
        .store()
        .active_game(vs_hard.channel_id)
        .unwrap()
        .unwrap();
    assert_eq!(rec.moves.len(), 4, "the bot answered each move at hard");
    within_documented("the bot's move (hard, expert)", bot[1], &mut report);

    // A tournament round: a Swiss of four started, its first round's games resigned one
    // after the other; the last resignation ends the round, which pairs the next, opens its
    // games' threads and announces them.
    let hall = Place {
        guild_id: Some(10),
        channel_id: 40,
    };
    let entrants: Vec<_> = (0..4)
        .map(|i| actor(100 + i, &format!("player {i}")))
        .collect();
    let create = Command::TournamentCreate(TournamentCreate {
        name: "Spring open".to_string(),
        variant: None,
        format: Some(TournamentFormat::Swiss),
        rounds: None,
        days: None,
        start: None,
        opening: None,
    });
    world
        .interact(hall, app.run(&entrants[0], hall, create, true))
        .await;
    for p in &entrants {
        world.interact(hall, app.tournament_join(p, hall)).await;
    }
    world
        .interact(hall, app.tournament_start(&entrants[0], hall))
        .await;
    app.settled().await;
    let in_play = || {
        let games = app.store().active_games().unwrap();
        games
            .into_iter()
            .map(Result::unwrap)
            .filter(|g| {
                g.channel_id != people.channel_id
                    && g.channel_id != vs_bot.channel_id
                    && g.channel_id != vs_hard.channel_id
            })
            .collect::<Vec<_>>()
    };
    let round_one = in_play();
    assert_eq!(round_one.len(), 2, "round 1 is paired");
    let mut last = Cost::default();
    for game in &round_one {
        let Seat::Human { user_id, .. } = game.players.black else {
            panic!("a person plays Black");
        };
        let black = entrants.iter().find(|p| p.user_id == user_id).unwrap();
        let thread = Place {
            guild_id: Some(10),
            channel_id: game.channel_id,
        };
        let before = cost();
        world.interact(thread, app.resign(black, thread)).await;
        app.settled().await;
        last = cost() - before;
    }
    let round_two = in_play();
    assert!(
        round_two.len() == 2
            && round_two
                .iter()
                .all(|g| round_one.iter().all(|r| r.id != g.id)),
        "round 2 is paired and under way"
    );
    within_documented(
        "a tournament round (the game that ends it)",
        last,
        &mut report,
    );
    println!("{}", report.join("\n"));
}
