//! A Swiss tournament run through the application layer, as a front end drives it: 64 players
//! join a Swiss of 5 rounds, and every game of every round is played with random legal moves
//! through `App::play_move` (a game still going after `--plies` plies, 200 by default, is
//! resigned by the side to move), each answer shown through `App::serve` on a delivery port that
//! records posts and threads, so results feed the tournament as they do in the bot. Times, on a
//! durable sled store in a temporary folder:
//! - the round transition: the move (or resignation) that ends a round's last game, shown,
//!   which pairs the next round, opens its threads, starts its games and announces it (after
//!   the last round: the final standings with their picture);
//! - a move that does not end its game, and one that ends a game but not the round;
//! - a `/tournament standings` answer, picture included, after each round.
//!
//! About 40 s long: run by hand with `cargo bench --bench tournament_app` (`-- --players N
//! --rounds N --plies N` change the sizes), not in CI.

use damas::app::commands::{
    ArgValue, Command, OptionValue, Rounds, TournamentCreate, TournamentFormat,
};
use damas::app::deliver::{Delivery, MessageId, NotShown};
use damas::app::i18n::Lang;
use damas::app::serve::{Respond, Shown as Served};
use damas::app::tournament::run::{Stage, Tournament};
use damas::app::{Actor, Answer, App, Place, Reply, ReplyOutcome, Settings};
use damas::store::{Seat, Store, TournamentRecord};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GUILD: u64 = 10;
const CHANNEL: u64 = 2_000;

fn place(channel_id: u64) -> Place {
    Place {
        guild_id: Some(GUILD),
        channel_id,
    }
}

fn actor(id: u64, name: &str) -> Actor {
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

/// What the app posted outside its answers and the threads it opened.
#[derive(Default)]
struct Shown {
    next: AtomicU64,
    posts: Mutex<Vec<(u64, Reply)>>,
    threads: Mutex<Vec<(u64, u64, String)>>,
}

#[async_trait::async_trait]
impl Delivery for Shown {
    async fn post(&self, channel: u64, reply: &Reply) -> Result<MessageId, NotShown> {
        self.posts.lock().unwrap().push((channel, reply.clone()));
        Ok(900_000 + self.next.fetch_add(1, Ordering::SeqCst))
    }
    async fn edit(&self, _: u64, _: MessageId, _: &Reply) -> Result<(), NotShown> {
        Ok(())
    }
    async fn strip_controls(&self, _: u64, _: MessageId) -> Result<(), NotShown> {
        Ok(())
    }
    async fn open_thread(&self, parent: u64, name: &str) -> Result<u64, NotShown> {
        let id = 50_000 + self.next.fetch_add(1, Ordering::SeqCst);
        self.threads
            .lock()
            .unwrap()
            .push((parent, id, name.to_string()));
        Ok(id)
    }
    async fn archive_thread(&self, _: u64) -> Result<(), NotShown> {
        Ok(())
    }
}

/// Shows an answer as a front end does: through [`App::serve`], its public replies recorded as
/// the channel's posts.
async fn show(app: &App, answer: Answer, out: &Arc<Shown>, channel: u64) {
    struct Here<'a> {
        out: &'a Shown,
        channel: u64,
    }
    #[async_trait::async_trait]
    impl Respond for Here<'_> {
        async fn answer(&self, reply: &Reply) -> Served {
            self.follow_up(reply).await
        }
        async fn follow_up(&self, reply: &Reply) -> Served {
            if !reply.is_private() {
                self.out
                    .posts
                    .lock()
                    .unwrap()
                    .push((self.channel, reply.clone()));
            }
            Served::Message(800_000 + self.out.next.fetch_add(1, Ordering::SeqCst))
        }
        async fn acknowledge(&self) {}
    }
    let delivery: Arc<dyn Delivery> = out.clone();
    let here = Here { out, channel };
    app.serve(answer, place(channel), Lang::En, &here, &delivery)
        .await;
}

fn stored(app: &App) -> TournamentRecord<Tournament> {
    app.store()
        .tournaments::<Tournament>()
        .expect("the store reads")
        .into_iter()
        .map(|t| t.expect("a tournament record"))
        .next_back()
        .expect("a tournament")
}

/// The threads of the current round's games still in play.
fn games_in_play(app: &App) -> Vec<u64> {
    let rec = stored(app);
    let round = rec.state.games.last().cloned().unwrap_or_default();
    round
        .iter()
        .flatten()
        .filter(|s| s.result.is_none())
        .map(|s| s.channel.expect("a started game"))
        .collect()
}

/// `--name N` from the command line, else `default`.
fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number"))
        })
        .unwrap_or(default)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mean(times: &[Duration]) -> f64 {
    times.iter().map(|d| ms(*d)).sum::<f64>() / times.len().max(1) as f64
}

fn main() {
    // `cargo test --benches` runs bench binaries without `--bench`: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let players = arg("--players", if quick { 6 } else { 64 });
    let rounds = arg("--rounds", if quick { 2 } else { 5 });
    let plies = arg("--plies", if quick { 10 } else { 200 });
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("db")).expect("store");
    let app = App::new(store, Settings::default());
    let out = Arc::new(Shown::default());
    let people: Vec<Actor> = (0..players)
        .map(|i| actor(100 + i, &format!("player{i}")))
        .collect();
    let mut rng = SmallRng::seed_from_u64(25);

    let mut moves: Vec<Duration> = Vec::new();
    let mut game_ends: Vec<Duration> = Vec::new();
    // Per round: (games, resigned at the cap, transition, standings).
    let mut table: Vec<(usize, usize, Duration, Duration)> = Vec::new();
    runtime.block_on(async {
        let create = Command::TournamentCreate(TournamentCreate {
            name: "Load open".into(),
            variant: None,
            format: Some(TournamentFormat::Swiss),
            rounds: Some(
                Rounds::from_arg(&ArgValue::Integer(rounds as i64))
                    .expect("a valid number of rounds"),
            ),
            days: None,
            start: None,
            opening: None,
        });
        let a = app.run(&people[0], place(CHANNEL), create, false).await;
        assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
        for p in &people {
            let a = app.tournament_join(p, place(CHANNEL)).await;
            assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
        }
        let a = app.tournament_start(&people[0], place(CHANNEL)).await;
        show(&app, a, &out, CHANNEL).await;

        for round in 1..=rounds {
            assert_eq!(stored(&app).state.rounds.len() as u64, round);
            let threads = games_in_play(&app);
            let (games, mut resigned) = (threads.len(), 0);
            let mut transition = Duration::ZERO;
            for (g, &thread) in threads.iter().enumerate() {
                let last_of_round = g + 1 == threads.len();
                for ply in 0.. {
                    let rec = app
                        .store()
                        .active_game(thread)
                        .expect("the store reads")
                        .expect("a game in play");
                    let game = rec.to_game().expect("a game");
                    let side = game.side_to_move();
                    let who = match rec.seat(side) {
                        Seat::Human { user_id, .. } => &people[(*user_id - 100) as usize],
                        other => panic!("a person plays, not {other:?}"),
                    };
                    let t = Instant::now();
                    let answer = if ply < plies {
                        let legal = damas::engine::legal_notations(game.position());
                        let pick = &legal[rng.gen_range(0..legal.len())].1;
                        app.play_move(who, place(thread), pick).await
                    } else {
                        resigned += 1;
                        app.resign(who, place(thread)).await
                    };
                    assert_eq!(
                        answer.replies[0].outcome,
                        ReplyOutcome::Done,
                        "{:#?}",
                        answer.replies
                    );
                    show(&app, answer, &out, thread).await;
                    let took = t.elapsed();
                    let over = app
                        .store()
                        .active_game(thread)
                        .expect("the store reads")
                        .is_none();
                    match (over, last_of_round) {
                        (false, _) => moves.push(took),
                        (true, false) => game_ends.push(took),
                        (true, true) => transition = took,
                    }
                    if over {
                        break;
                    }
                }
            }
            let t = Instant::now();
            let a = app.tournament_standings(&people[0], place(CHANNEL), None);
            let standings = t.elapsed();
            assert!(a.replies[0].image.is_some(), "a standings picture");
            table.push((games, resigned, transition, standings));
        }
        assert_eq!(stored(&app).state.stage, Stage::Finished);
    });

    println!(
        "{players}-player Swiss, {rounds} rounds, random moves (resigned after {plies} plies), \
         through App::play_move + App::serve on a durable sled store"
    );
    println!("| round | games | resigned at the cap | round transition | standings answer with picture |");
    println!("|---|---|---|---|---|");
    for (i, (games, resigned, transition, standings)) in table.iter().enumerate() {
        println!(
            "| {} | {games} | {resigned} | {:.1} ms | {:.1} ms |",
            i + 1,
            ms(*transition),
            ms(*standings)
        );
    }
    println!(
        "moves not ending their game: {}, mean {:.2} ms; moves ending a game but not the round: {}, mean {:.2} ms",
        moves.len(),
        mean(&moves),
        game_ends.len(),
        mean(&game_ends)
    );
    println!(
        "threads opened: {}, posts: {}",
        out.threads.lock().unwrap().len(),
        out.posts.lock().unwrap().len()
    );
}
