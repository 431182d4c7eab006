//! Tournaments run by the app: the `/tournament` use cases and their refusals, and the rounds
//! moving on by themselves as games end — driven as a front end drives them (answers shown,
//! final boards reported through `App::shown`), on a delivery port that records what the app
//! posted and the threads it opened.

use crate::support::app::{actor, seeded, user, world, World};
use damas::app::commands::{Command, TournamentCreate, TournamentFormat};
use damas::app::deliver::{Delivery, MessageId, NotShown, Why};
use damas::app::i18n::Lang;
use damas::app::reply::plain;
use damas::app::serve::{Respond, Shown as Served};
use damas::app::tournament::run::{Stage, Tournament};
use damas::app::tournament::{Board, Entry};
use damas::app::{Actor, Answer, App, Place, Reply, ReplyOutcome};
use damas::engine::Color;
use damas::store::{Seat, TournamentRecord};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

const GUILD: u64 = 10;
const CHANNEL: u64 = 2_000;

fn place(channel_id: u64) -> Place {
    Place {
        guild_id: Some(GUILD),
        channel_id,
    }
}

/// What the app showed outside its answers: posts by channel, threads opened. Channels in
/// `gone` were deleted: posting or opening a thread there fails as Discord's 404 does.
#[derive(Default)]
struct Shown {
    next: AtomicU64,
    posts: Mutex<Vec<(u64, Reply)>>,
    threads: Mutex<Vec<(u64, u64, String)>>,
    gone: Mutex<HashSet<u64>>,
}

impl Shown {
    fn gone(channel: u64) -> NotShown {
        NotShown {
            why: Why::Gone,
            detail: format!("channel {channel} is gone"),
        }
    }

    fn posts_in(&self, channel: u64) -> Vec<Reply> {
        self.posts
            .lock()
            .unwrap()
            .iter()
            .filter(|(c, _)| *c == channel)
            .map(|(_, r)| r.clone())
            .collect()
    }

    fn thread_names(&self) -> Vec<String> {
        self.threads
            .lock()
            .unwrap()
            .iter()
            .map(|t| t.2.clone())
            .collect()
    }
}

#[async_trait::async_trait]
impl Delivery for Shown {
    async fn post(&self, channel: u64, reply: &Reply) -> Result<MessageId, NotShown> {
        if self.gone.lock().unwrap().contains(&channel) {
            return Err(Shown::gone(channel));
        }
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
        if self.gone.lock().unwrap().contains(&parent) {
            return Err(Shown::gone(parent));
        }
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

/// Shows an answer as a front end does: through [`App::serve`], with its replies here recorded
/// in `out` as the channel's posts (private ones are seen by their reader only).
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

fn refused(a: &Answer) -> &str {
    assert_eq!(a.replies.len(), 1, "{:#?}", a.replies);
    assert_eq!(
        a.replies[0].outcome,
        ReplyOutcome::Refused,
        "{:#?}",
        a.replies
    );
    &a.replies[0].text
}

fn stored(app: &App) -> TournamentRecord<Tournament> {
    let all = app.store().tournaments::<Tournament>().unwrap();
    all.into_iter()
        .map(Result::unwrap)
        .next_back()
        .expect("a tournament")
}

fn players(n: u64) -> Vec<Actor> {
    [
        "ana", "beto", "carla", "dani", "eva", "fede", "gala", "hugo",
    ]
    .iter()
    .take(n as usize)
    .enumerate()
    .map(|(i, name)| actor(100 + i as u64, name))
    .collect()
}

fn create(name: &str, format: TournamentFormat, rounds: Option<i64>) -> Command {
    let mut c = TournamentCreate {
        name: name.to_string(),
        variant: None,
        format: Some(format),
        rounds: None,
        days: None,
        start: None,
        opening: None,
    };
    if let Some(r) = rounds {
        c.rounds = damas::app::commands::Rounds::RANGE
            .contains(&r)
            .then(|| read_rounds(r));
    }
    Command::TournamentCreate(c)
}

/// A `rounds` option as an interaction sends it.
fn read_rounds(r: i64) -> damas::app::commands::Rounds {
    use damas::app::commands::{ArgValue, OptionValue};
    damas::app::commands::Rounds::from_arg(&ArgValue::Integer(r)).unwrap()
}

/// A tournament created by `organiser` in [`CHANNEL`] and joined by `entrants`.
async fn entered(w: &World, out: &Shown, organiser: &Actor, entrants: &[Actor], rounds: i64) {
    let a = w
        .app
        .run(
            organiser,
            place(CHANNEL),
            create("Spring open", TournamentFormat::Swiss, Some(rounds)),
            false,
        )
        .await;
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
    for p in entrants {
        let a = w.app.tournament_join(p, place(CHANNEL)).await;
        assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
    }
    let _ = out;
}

/// A Swiss of `n` players (all entered, the first its organiser) over `rounds` rounds,
/// started: round 1 paired and its games open.
async fn started(n: u64, rounds: i64) -> (World, Arc<Shown>, Vec<Actor>) {
    let w = world();
    let out = Arc::new(Shown::default());
    let people = players(n);
    entered(&w, &out, &people[0], &people, rounds).await;
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    (w, out, people)
}

/// The games of the current round still in play: (thread, white, black).
fn games_in_play(app: &App) -> Vec<(u64, u64, u64)> {
    let rec = stored(app);
    let round = rec.state.games.last().cloned().unwrap_or_default();
    let id = |e: Entry| match &rec.entrants[usize::from(e.0)] {
        Seat::Human { user_id, .. } => *user_id,
        other => panic!("{other:?}"),
    };
    round
        .iter()
        .flatten()
        .filter(|s| s.result.is_none())
        .map(|s| (s.channel.expect("started"), id(s.white), id(s.black)))
        .collect()
}

/// Every game of the round in play ends: White wins each by Black's resignation.
async fn white_wins_all(w: &World, out: &Arc<Shown>, people: &[Actor]) {
    for (thread, _, black) in games_in_play(&w.app) {
        let who = people.iter().find(|p| p.user_id == black).unwrap();
        let a = w.app.resign(who, place(thread)).await;
        assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
        show(&w.app, a, out, thread).await;
    }
}

#[tokio::test]
async fn a_swiss_runs_from_entries_to_the_final_standings_by_itself() {
    let (w, out, people) = started(4, 2).await;

    let rec = stored(&w.app);
    assert_eq!(rec.state.stage, Stage::Running);
    assert_eq!(rec.state.rounds.len(), 1);
    // Two games, each in a thread of the tournament's channel named after it and the round.
    let names = out.thread_names();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.contains("Spring open") && n.contains("round 1")),
        "{names:?}"
    );
    let in_play = games_in_play(&w.app);
    assert_eq!(in_play.len(), 2);
    for (thread, white, _) in &in_play {
        let game = w.active_game(*thread).expect("a game in the thread");
        assert!(matches!(game.seat(Color::White), Seat::Human { user_id, .. } if user_id == white));
        assert_eq!(
            w.app.store().tournament_of_game(game.id).unwrap(),
            Some(rec.id)
        );
    }

    // Round 1's announcement notifies its four players, each once, and nobody else.
    let announced = out.posts_in(CHANNEL);
    let round1 = announced
        .iter()
        .find(|r| r.title.as_deref().is_some_and(|t| t.contains("round 1")))
        .expect("round 1 announced");
    let mut notified = round1.mention.clone();
    notified.sort_unstable();
    assert_eq!(notified, vec![100, 101, 102, 103]);

    // Round 1 ends: round 2 is paired and its games start, without anyone asking.
    white_wins_all(&w, &out, &people).await;
    let rec = stored(&w.app);
    assert_eq!(rec.state.rounds.len(), 2);
    assert!(rec.state.rounds[0].is_complete());
    assert_eq!(out.thread_names().len(), 4);
    // Winners meet winners.
    let winners: HashSet<u64> = in_play.iter().map(|g| g.1).collect();
    let round2 = games_in_play(&w.app);
    assert!(round2
        .iter()
        .any(|g| winners.contains(&g.1) && winners.contains(&g.2)));

    // A result reported again changes nothing.
    let before = stored(&w.app);
    let old_game = w.app.store().games_in_channel(in_play[0].0, 1).unwrap();
    w.app.tournament_game_ended(old_game[0].id, &*out).await;
    assert_eq!(stored(&w.app), before);

    white_wins_all(&w, &out, &people).await;
    let rec = stored(&w.app);
    assert_eq!(rec.state.stage, Stage::Finished);
    assert_eq!(rec.state.rounds.len(), 2);
    // The whole tournament as one PDN file: every game, with its event and round.
    let a = w.app.tournament_pdn(&people[0], place(CHANNEL), None);
    let pdn = String::from_utf8(a.replies[0].files[0].bytes.clone()).unwrap();
    assert_eq!(pdn.matches("[Event \"Spring open\"]").count(), 4, "{pdn}");
    for round in ["1.1", "1.2", "2.1", "2.2"] {
        assert!(pdn.contains(&format!("[Round \"{round}\"]")), "{pdn}");
    }
    assert_eq!(
        pdn.matches("[Result \"*\"]").count(),
        0,
        "every game has its result: {pdn}"
    );
    let last = out.posts_in(CHANNEL);
    let finals = last.last().expect("the final standings");
    assert!(
        finals.title.as_deref().unwrap().contains("final standings"),
        "{finals:#?}"
    );
    assert!(finals.text.contains("The winner is"), "{}", finals.text);
    // The winner is notified, nobody else.
    let standings = damas::app::tournament::standings::standings(
        rec.state.format,
        &rec.state.field,
        &rec.state.rounds,
    );
    assert_eq!(standings[0].points, 4);
    assert_eq!(standings[0].rank, 1);
    assert_eq!(
        finals.mention,
        vec![100 + u64::from(standings[0].entry.0)],
        "the winner"
    );
    // With the crosstable as a picture, described in words for a screen reader.
    let picture = finals.image.as_ref().expect("the standings picture");
    assert!(picture.png.starts_with(b"\x89PNG"), "a PNG");
    let winner = match &rec.entrants[usize::from(standings[0].entry.0)] {
        Seat::Human { name, .. } => name.clone(),
        other => panic!("a person wins, not {other:?}"),
    };
    assert!(
        picture.description.contains(&winner),
        "{}",
        picture.description
    );
    // Nothing more happens however often it is moved on.
    w.app.advance_tournaments(&*out).await;
    assert_eq!(stored(&w.app).version, rec.version);
}

#[tokio::test]
async fn bad_entries_and_starts_are_refused_and_change_nothing() {
    let w = world();
    let out = Arc::new(Shown::default());
    let people = players(3);
    entered(&w, &out, &people[0], &people[..2], 3).await;

    // Joining twice.
    let before = stored(&w.app);
    let a = w.app.tournament_join(&people[1], place(CHANNEL)).await;
    assert!(refused(&a).contains("already joined"), "{a:#?}");
    assert_eq!(stored(&w.app), before);

    // Fewer than 3 players.
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    assert!(refused(&a).contains("at least 3 players"), "{a:#?}");
    assert_eq!(stored(&w.app), before);

    // Someone else than the organiser.
    w.app.tournament_join(&people[2], place(CHANNEL)).await;
    let before = stored(&w.app);
    let a = w.app.tournament_start(&people[1], place(CHANNEL)).await;
    assert!(
        refused(&a).contains("Only the tournament's organiser"),
        "{a:#?}"
    );
    let a = w.app.tournament_cancel(&people[1], place(CHANNEL)).await;
    assert!(
        refused(&a).contains("Only the tournament's organiser"),
        "{a:#?}"
    );
    let a = w
        .app
        .tournament_withdraw(&people[1], place(CHANNEL), &user(&people[2]))
        .await;
    assert!(
        refused(&a).contains("Only the tournament's organiser"),
        "{a:#?}"
    );
    assert_eq!(stored(&w.app), before);

    // A member with Manage Events may start it.
    let mut steward = actor(999, "steward");
    steward.can_manage_events = true;
    let a = w.app.tournament_start(&steward, place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    assert_eq!(stored(&w.app).state.stage, Stage::Running);

    // Once it runs, entries no longer change, and it cannot start again.
    let late = actor(500, "late");
    let a = w.app.tournament_join(&late, place(CHANNEL)).await;
    assert!(refused(&a).contains("already started"), "{a:#?}");
    // A second tournament in the same channel.
    let a = w
        .app
        .run(
            &late,
            place(CHANNEL),
            create("Other", TournamentFormat::RoundRobin, None),
            false,
        )
        .await;
    assert!(refused(&a).contains("already runs"), "{a:#?}");
    // No tournament in another channel.
    let a = w.app.tournament_join(&late, place(CHANNEL + 1)).await;
    assert!(refused(&a).contains("no tournament"), "{a:#?}");
}

#[tokio::test]
async fn leaving_before_the_start_removes_the_entry() {
    let w = world();
    let out = Arc::new(Shown::default());
    let people = players(4);
    entered(&w, &out, &people[0], &people, 3).await;
    let a = w.app.tournament_leave(&people[1], place(CHANNEL)).await;
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done);
    let rec = stored(&w.app);
    assert_eq!(rec.entrants.len(), 3);
    assert!(rec
        .state
        .field
        .players
        .iter()
        .enumerate()
        .all(|(i, p)| p.entry == Entry(i as u16)));
    let a = w.app.tournament_leave(&people[1], place(CHANNEL)).await;
    assert!(refused(&a).contains("not in this tournament"));
}

#[tokio::test]
async fn a_player_who_leaves_mid_tournament_is_withdrawn_and_paired_no_more() {
    let (w, out, people) = started(5, 3).await;
    let (thread, white, black) = games_in_play(&w.app)[0];
    let leaver = people.iter().find(|p| p.user_id == black).unwrap().clone();

    let a = w.app.tournament_leave(&leaver, place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    // Their game is over, lost by forfeit; the tournament scored it.
    assert!(w.active_game(thread).is_none());
    let rec = stored(&w.app);
    let entry = rec
        .entrants
        .iter()
        .position(|s| matches!(s, Seat::Human { user_id, .. } if *user_id == black))
        .unwrap();
    let board = rec.state.rounds[0]
        .boards
        .iter()
        .find(|b| matches!(b, Board::Game { black: e, .. } if usize::from(e.0) == entry))
        .unwrap();
    let Board::Game {
        score: Some(score), ..
    } = board
    else {
        panic!("scored: {board:?}")
    };
    assert_eq!((score.white, score.black, score.forfeit), (2, 0, true));
    assert_eq!(rec.state.field.players[entry].withdrawn_from, Some(2));
    let _ = white;

    // The other games end: round 2 is paired without them.
    white_wins_all(&w, &out, &people).await;
    let rec = stored(&w.app);
    assert_eq!(rec.state.rounds.len(), 2);
    let paired: Vec<Entry> = rec.state.rounds[1]
        .boards
        .iter()
        .flat_map(|b| match b {
            Board::Game { white, black, .. } => vec![*white, *black],
            Board::Bye(e) => vec![*e],
        })
        .collect();
    assert!(!paired.contains(&Entry(entry as u16)), "{paired:?}");
    assert_eq!(paired.len(), 4);

    // Withdrawing again is refused.
    let a = w.app.tournament_leave(&leaver, place(CHANNEL)).await;
    assert!(refused(&a).contains("already been withdrawn"), "{a:#?}");
}

#[tokio::test]
async fn a_game_cancelled_by_a_moderator_counts_as_lost_by_both() {
    let (w, out, _) = started(4, 2).await;
    let (thread, ..) = games_in_play(&w.app)[0];
    let mut moderator = actor(77, "mod");
    moderator.can_manage_messages = true;
    let a = w.app.cancel(&moderator, place(thread)).await;
    show(&w.app, a, &out, thread).await;
    let rec = stored(&w.app);
    let scored: Vec<_> = rec.state.games[0]
        .iter()
        .flatten()
        .filter_map(|s| s.result)
        .collect();
    assert_eq!(scored.len(), 1, "{scored:?}");
    assert_eq!(
        (scored[0].white, scored[0].black, scored[0].forfeit),
        (0, 0, true)
    );
}

#[tokio::test]
async fn a_tournament_whose_channel_was_deleted_is_cancelled() {
    let w = world();
    let out = Arc::new(Shown::default());
    let people = players(3);
    entered(&w, &out, &people[0], &people, 2).await;
    out.gone.lock().unwrap().insert(CHANNEL);
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    assert_eq!(stored(&w.app).state.stage, Stage::Cancelled);
    assert!(out.thread_names().is_empty());
}

#[tokio::test]
async fn a_round_that_ended_while_nobody_watched_is_caught_up_once() {
    let (w, out, people) = started(4, 3).await;
    // The games end, but their final boards are never shown (the process stopped).
    for (thread, _, black) in games_in_play(&w.app) {
        let who = people.iter().find(|p| p.user_id == black).unwrap();
        w.app.resign(who, place(thread)).await;
    }
    assert_eq!(stored(&w.app).state.rounds.len(), 1);
    // The sweeper, twice (or two processes): round 2 once.
    w.app.advance_tournaments(&*out).await;
    w.app.advance_tournaments(&*out).await;
    let rec = stored(&w.app);
    assert_eq!(rec.state.rounds.len(), 2);
    assert_eq!(out.thread_names().len(), 4);
}

#[tokio::test]
async fn standings_and_pairings_answer_in_the_tournaments_words() {
    let w = world();
    let out = Arc::new(Shown::default());
    let people = players(3);
    entered(&w, &out, &people[0], &people, 2).await;
    let a = w
        .app
        .tournament_pairings(&people[0], place(CHANNEL), None, None);
    assert!(refused(&a).contains("has not started"));
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    let a = w
        .app
        .tournament_pairings(&people[0], place(CHANNEL), None, None);
    let text = &a.replies[0].text;
    assert!(text.contains("Board 1.") && text.contains("bye"), "{text}");
    let a = w
        .app
        .tournament_pairings(&people[0], place(CHANNEL), Some(3), None);
    assert!(refused(&a).contains("no round 3"));
    let a = w.app.tournament_standings(&people[0], place(CHANNEL), None);
    let text = &a.replies[0].text;
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("Buchholz"), "{text}");
    // From inside a game's thread, the tournament is found too.
    let (thread, ..) = games_in_play(&w.app)[0];
    let a = w.app.tournament_standings(&people[0], place(thread), None);
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{a:#?}");
    // And by its number from anywhere in the server.
    let id = stored(&w.app).id.to_string();
    let a = w.app.tournament_standings(&people[0], place(1), Some(&id));
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{a:#?}");
    let a = w
        .app
        .tournament_standings(&people[0], place(1), Some("12345"));
    assert!(refused(&a).contains("no tournament number"));
}

#[tokio::test]
async fn a_loss_on_time_found_by_the_sweeper_ends_the_round() {
    const DAY: u64 = 86_400_000;
    let w = World::clocked(seeded(7), 100 * DAY);
    let out = Arc::new(Shown::default());
    let people = players(3);
    entered(&w, &out, &people[0], &people, 2).await;
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    let (thread, ..) = games_in_play(&w.app)[0];
    let game = w.active_game(thread).unwrap();
    let to_move = match game.seat(game.variant.first_player()) {
        Seat::Human { user_id, .. } => *user_id,
        other => panic!("{other:?}"),
    };
    // Nobody moves for longer than the time per move (3 days).
    w.at(4 * DAY);
    w.app.sweep_and_show(&*out).await;
    assert!(w.active_game(thread).is_none(), "lost on time");
    let rec = stored(&w.app);
    assert_eq!(rec.state.rounds.len(), 2, "round 2 paired at once");
    let slot = &rec.state.games[0].iter().flatten().next().unwrap();
    let result = slot.result.expect("scored");
    let white_id = match &rec.entrants[usize::from(slot.white.0)] {
        Seat::Human { user_id, .. } => *user_id,
        other => panic!("{other:?}"),
    };
    let (for_mover, for_other) = if white_id == to_move {
        (result.white, result.black)
    } else {
        (result.black, result.white)
    };
    assert_eq!((for_mover, for_other, result.forfeit), (0, 2, false));
}

/// 2026-12-04 12:00 UTC, when the scheduled tournaments below are created.
const NOON: u64 = 1_796_385_600_000;
const HOUR: u64 = 3_600_000;

/// `/tournament create` of a Swiss in 2 rounds that starts by itself at `start`, as typed.
fn create_starting(start: &str) -> Command {
    let Command::TournamentCreate(mut c) = create("Spring open", TournamentFormat::Swiss, Some(2))
    else {
        unreachable!("create makes a /tournament create")
    };
    c.start = Some(start.to_string());
    Command::TournamentCreate(c)
}

/// A tournament created at [`NOON`] by `people[0]` to start at `start`, joined by `people`.
async fn scheduled(w: &World, people: &[Actor], start: &str) -> Answer {
    let a = w
        .app
        .run(&people[0], place(CHANNEL), create_starting(start), false)
        .await;
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{:#?}", a.replies);
    for p in people {
        let joined = w.app.tournament_join(p, place(CHANNEL)).await;
        assert_eq!(joined.replies[0].outcome, ReplyOutcome::Done, "{joined:#?}");
    }
    a
}

/// How many times round `round` was announced in the tournament's channel.
fn announced(out: &Shown, round: u32) -> usize {
    let title = format!("“Spring open”, round {round}");
    out.posts_in(CHANNEL)
        .iter()
        .filter(|r| r.title.as_deref().map(plain).as_deref() == Some(title.as_str()))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_starts_by_itself_at_its_time_once() {
    let w = World::clocked(seeded(7), NOON);
    let out = Arc::new(Shown::default());
    let people = players(4);
    let created = scheduled(&w, &people, "in 2h").await;
    let said = plain(&created.replies[0].text);
    assert!(
        said.contains("It starts by itself at 2026-12-04 14:00 UTC"),
        "{said}"
    );
    assert_eq!(stored(&w.app).state.starts_at_ms, Some(NOON + 2 * HOUR));

    // Before its time the sweeper leaves it open.
    w.at(2 * HOUR - 1);
    w.app.sweep_and_show(&*out).await;
    assert_eq!(stored(&w.app).state.stage, Stage::Open);
    assert_eq!(announced(&out, 1), 0);

    // At its time two processes sweep at once: round 1 is paired and announced once, each
    // player notified once, and its games start.
    w.at(2 * HOUR);
    let other = App::new(w.app.store().clone(), seeded(7)).with_clock(|| NOON + 2 * HOUR);
    tokio::join!(w.app.sweep_and_show(&*out), other.sweep_and_show(&*out));
    let rec = stored(&w.app);
    assert_eq!(rec.state.stage, Stage::Running);
    assert_eq!(rec.state.rounds.len(), 1);
    assert_eq!(announced(&out, 1), 1);
    let round1 = out
        .posts_in(CHANNEL)
        .into_iter()
        .find(|r| r.title.as_deref().map(plain).as_deref() == Some("“Spring open”, round 1"))
        .unwrap();
    let mut notified = round1.mention.clone();
    notified.sort_unstable();
    assert_eq!(notified, vec![100, 101, 102, 103]);
    assert_eq!(out.thread_names().len(), 2);
    assert_eq!(games_in_play(&w.app).len(), 2);

    // Later sweeps start nothing more.
    w.at(3 * HOUR);
    w.app.sweep_and_show(&*out).await;
    assert_eq!(stored(&w.app).state.rounds.len(), 1);
    assert_eq!(announced(&out, 1), 1);
    assert_eq!(out.thread_names().len(), 2);
}

/// A delivery that holds every post until [`Held::release`]: a process stopped in the middle
/// of a sweep, having read the tournaments, while others act.
struct Held {
    out: Arc<Shown>,
    reached: tokio::sync::Notify,
    gate: tokio::sync::Semaphore,
}

impl Held {
    fn release(&self) {
        self.gate.add_permits(1_000);
    }
}

#[async_trait::async_trait]
impl Delivery for Held {
    async fn post(&self, channel: u64, reply: &Reply) -> Result<MessageId, NotShown> {
        self.reached.notify_one();
        let _pass = self.gate.acquire().await.expect("the gate stays");
        self.out.post(channel, reply).await
    }
    async fn edit(&self, channel: u64, message: MessageId, reply: &Reply) -> Result<(), NotShown> {
        self.out.edit(channel, message, reply).await
    }
    async fn strip_controls(&self, channel: u64, message: MessageId) -> Result<(), NotShown> {
        self.out.strip_controls(channel, message).await
    }
    async fn open_thread(&self, parent: u64, name: &str) -> Result<u64, NotShown> {
        self.out.open_thread(parent, name).await
    }
    async fn archive_thread(&self, thread: u64) -> Result<(), NotShown> {
        self.out.archive_thread(thread).await
    }
}

/// Two tournaments due at the same time; a sweep stops while announcing the first, having
/// read the second as open; its organiser cancels the second meanwhile. The sweep goes on and
/// must not start it: each start reads the tournament afresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_that_read_a_tournament_before_it_was_cancelled_does_not_start_it() {
    const OTHER: u64 = 3_000;
    let w = World::clocked(seeded(7), NOON);
    let people = players(3);
    scheduled(&w, &people, "in 1h").await;
    let a = w
        .app
        .run(&people[0], place(OTHER), create_starting("in 1h"), false)
        .await;
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{a:#?}");
    for p in &people {
        w.app.tournament_join(p, place(OTHER)).await;
    }
    w.at(HOUR);
    let held = Arc::new(Held {
        out: Arc::new(Shown::default()),
        reached: tokio::sync::Notify::new(),
        gate: tokio::sync::Semaphore::new(0),
    });
    let sweeping = {
        let (app, held) = (w.app.clone(), held.clone());
        tokio::spawn(async move { app.sweep_and_show(&*held).await })
    };
    held.reached.notified().await;
    let a = w.app.tournament_cancel(&people[0], place(OTHER)).await;
    assert_eq!(a.replies[0].outcome, ReplyOutcome::Done, "{a:#?}");
    held.release();
    sweeping.await.unwrap();
    let all: Vec<_> = w
        .app
        .store()
        .tournaments::<Tournament>()
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let stage_in = |channel| {
        all.iter()
            .find(|r| r.channel_id == channel)
            .map(|r| (r.state.stage, r.state.rounds.len()))
    };
    assert_eq!(stage_in(CHANNEL), Some((Stage::Running, 1)));
    assert_eq!(stage_in(OTHER), Some((Stage::Cancelled, 0)));
    assert!(held.out.posts_in(OTHER).is_empty());
}

#[tokio::test]
async fn a_tournament_short_of_players_at_its_time_is_cancelled_and_says_so() {
    let w = World::clocked(seeded(7), NOON);
    let out = Arc::new(Shown::default());
    let people = players(2);
    scheduled(&w, &people, "2026-12-04 18:00").await;
    w.at(6 * HOUR);
    w.app.sweep_and_show(&*out).await;
    assert_eq!(stored(&w.app).state.stage, Stage::Cancelled);
    let posts = out.posts_in(CHANNEL);
    assert_eq!(posts.len(), 1, "{posts:#?}");
    let said = plain(&posts[0].text);
    assert!(
        said.contains("“Spring open” was due to start at 2026-12-04 18:00 UTC")
            && said.contains("only 2 players had joined")
            && said.contains("cancelled"),
        "{said}"
    );
    assert!(out.thread_names().is_empty());
    // Said once.
    w.at(7 * HOUR);
    w.app.sweep_and_show(&*out).await;
    assert_eq!(out.posts_in(CHANNEL).len(), 1);
}

#[tokio::test]
async fn a_scheduled_tournament_can_still_be_started_by_hand_before_its_time() {
    let w = World::clocked(seeded(7), NOON);
    let out = Arc::new(Shown::default());
    let people = players(3);
    scheduled(&w, &people, "in 1d").await;
    w.at(HOUR);
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    show(&w.app, a, &out, CHANNEL).await;
    let started = stored(&w.app);
    assert_eq!(started.state.stage, Stage::Running);
    assert_eq!(announced(&out, 1), 1);
    // Its time comes: nothing is started again.
    w.at(25 * HOUR);
    w.app.sweep_and_show(&*out).await;
    let rec = stored(&w.app);
    assert_eq!(rec.state.rounds, started.state.rounds);
    assert_eq!(announced(&out, 1), 1);
    assert_eq!(out.thread_names().len(), 1);
}

#[tokio::test]
async fn a_bad_start_time_is_refused_in_both_languages_and_nothing_is_created() {
    let w = World::clocked(seeded(7), NOON);
    let en = actor(100, "ana");
    let es = Actor {
        locale: "es-ES".into(),
        ..actor(101, "beto")
    };
    let cases = [
        (
            "tomorrow at six",
            "I cannot read “tomorrow at six” as a start time",
            "No entiendo «tomorrow at six» como hora de inicio",
        ),
        (
            "2026-12-04 11:00",
            "has already passed (times are UTC; it is 2026-12-04 12:00 UTC now)",
            "ya pasó (las horas son UTC; ahora son las 2026-12-04 12:00 UTC)",
        ),
        ("in 0m", "has already passed", "ya pasó"),
        ("in 91d", "at most 90 days ahead", "como mucho con 90 días"),
    ];
    for (start, in_english, in_spanish) in cases {
        for (who, expected) in [(&en, in_english), (&es, in_spanish)] {
            let a = w
                .app
                .run(who, place(CHANNEL), create_starting(start), false)
                .await;
            let said = plain(refused(&a));
            assert!(said.contains(expected), "{start:?}: {said}");
        }
    }
    assert!(w
        .app
        .store()
        .tournaments::<Tournament>()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_tournament_stored_before_start_times_existed_still_reads() {
    let w = World::clocked(seeded(7), NOON);
    let people = players(3);
    entered(&w, &Shown::default(), &people[0], &people, 2).await;
    let now = stored(&w.app);
    assert_eq!(now.state.starts_at_ms, None);
    // The same record as the version before wrote it: without the last field (a `None` is
    // postcard's one zero byte).
    let mut entries = w.app.store().raw_page("tournaments", None, 10).unwrap();
    assert_eq!(entries.len(), 1);
    let bytes = &mut entries[0].1;
    assert_eq!(
        bytes.pop(),
        Some(0),
        "the start time is the record's last byte"
    );
    w.app
        .store()
        .raw_put("tournaments", &entries)
        .await
        .unwrap();
    assert_eq!(stored(&w.app), now);
    // A record with bytes left over after it is still refused.
    entries[0].1.extend_from_slice(&[0, 7]);
    w.app
        .store()
        .raw_put("tournaments", &entries)
        .await
        .unwrap();
    let read = w.app.store().tournament::<Tournament>(now.id);
    assert!(read.is_err(), "{read:?}");
}

#[test]
fn start_times_read_in_both_forms_as_utc() {
    use damas::app::tournament::schedule::{parse_start, start_text, BadStart};
    const MINUTE: u64 = 60_000;
    const DAY: u64 = 24 * HOUR;
    assert_eq!(start_text(NOON), "2026-12-04 12:00 UTC");
    let evening = NOON + 30 * HOUR;
    for text in [
        "2026-12-05 18:00",
        " 2026-12-05T18:00 ",
        "2026-12-05 18:00 UTC",
        "2026-12-05 18:00Z",
    ] {
        assert_eq!(parse_start(text, NOON), Ok(evening), "{text:?}");
    }
    assert_eq!(parse_start("in 2h", NOON), Ok(NOON + 2 * HOUR));
    assert_eq!(parse_start("en 90m", NOON), Ok(NOON + 90 * MINUTE));
    assert_eq!(parse_start("3d", NOON), Ok(NOON + 3 * DAY));
    assert_eq!(parse_start("In 1 hour", NOON), Ok(NOON + HOUR));
    assert_eq!(parse_start("in 90d", NOON), Ok(NOON + 90 * DAY));
    for text in [
        "",
        "tomorrow",
        "in h",
        "in 2w",
        "18:00",
        "2026-13-05 18:00",
        "in -2h",
    ] {
        assert_eq!(
            parse_start(text, NOON),
            Err(BadStart::Unreadable),
            "{text:?}"
        );
    }
    for text in ["2026-12-04 12:00", "2025-01-01 00:00", "in 0m"] {
        assert_eq!(parse_start(text, NOON), Err(BadStart::Past), "{text:?}");
    }
    for text in ["in 91d", "2027-12-05 18:00", "in 99999999999999d"] {
        assert_eq!(parse_start(text, NOON), Err(BadStart::TooFar), "{text:?}");
    }
}

/// The same actor, speaking Spanish.
fn in_spanish(a: &Actor) -> Actor {
    Actor {
        locale: "es-ES".into(),
        ..a.clone()
    }
}

#[tokio::test]
async fn a_second_start_says_the_tournament_has_started_and_in_which_round() {
    let (w, _out, people) = started(4, 3).await;
    let before = stored(&w.app);
    let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
    assert_eq!(
        plain(refused(&a)),
        "The tournament has already started (round 1)."
    );
    let a = w
        .app
        .tournament_start(&in_spanish(&people[0]), place(CHANNEL))
        .await;
    assert_eq!(plain(refused(&a)), "El torneo ya ha empezado (ronda 1).");
    assert_eq!(stored(&w.app), before);
}

#[tokio::test]
async fn standings_say_a_round_is_in_progress_until_it_ends() {
    let (w, out, people) = started(4, 2).await;
    let title = |a: &Answer| plain(a.replies[0].title.as_deref().unwrap_or("")).into_owned();
    let described = |a: &Answer| {
        a.replies[0]
            .image
            .as_ref()
            .map(|p| p.description.clone())
            .unwrap_or_default()
    };
    let a = w.app.tournament_standings(&people[0], place(CHANNEL), None);
    assert!(title(&a).contains("round 1 in progress"), "{}", title(&a));
    assert!(
        described(&a).contains("round 1 in progress"),
        "{}",
        described(&a)
    );
    let a = w
        .app
        .tournament_standings(&in_spanish(&people[0]), place(CHANNEL), None);
    assert!(title(&a).contains("ronda 1 en juego"), "{}", title(&a));

    // Round 1 ends and round 2 is paired: round 2 is now the one in progress.
    white_wins_all(&w, &out, &people).await;
    let a = w.app.tournament_standings(&people[0], place(CHANNEL), None);
    assert!(title(&a).contains("round 2 in progress"), "{}", title(&a));
    assert!(!title(&a).contains("after"), "{}", title(&a));

    // The last round ends: the standings are after round 2.
    white_wins_all(&w, &out, &people).await;
    assert_eq!(stored(&w.app).state.stage, Stage::Finished);
    let a = w.app.tournament_standings(&people[0], place(CHANNEL), None);
    assert!(title(&a).contains("after round 2"), "{}", title(&a));
    assert!(!title(&a).contains("progress"), "{}", title(&a));
}

#[tokio::test]
async fn a_withdrawn_player_is_marked_in_the_standings_in_both_languages() {
    for (spanish, mark, points) in [
        (false, "(withdrawn)", "0 points"),
        (true, "(se retiró)", "0 puntos"),
    ] {
        let w = world();
        let out = Arc::new(Shown::default());
        // The organiser's language is the tournament's.
        let people: Vec<Actor> = players(5)
            .iter()
            .map(|p| if spanish { in_spanish(p) } else { p.clone() })
            .collect();
        entered(&w, &out, &people[0], &people, 3).await;
        let a = w.app.tournament_start(&people[0], place(CHANNEL)).await;
        show(&w.app, a, &out, CHANNEL).await;
        let (_, _, black) = games_in_play(&w.app)[0];
        let leaver = people.iter().find(|p| p.user_id == black).unwrap().clone();
        let a = w.app.tournament_leave(&leaver, place(CHANNEL)).await;
        show(&w.app, a, &out, CHANNEL).await;
        let a = w.app.tournament_standings(&people[0], place(CHANNEL), None);
        let text = plain(&a.replies[0].text).into_owned();
        let marked = format!("{} {mark}", leaver.name);
        assert!(text.contains(&marked), "{text}");
        assert_eq!(text.matches(mark).count(), 1, "{text}");
        // Points in the one scale people read, with their unit: a forfeit lost scores 0.
        assert!(text.contains(&format!("{marked} — {points}")), "{text}");
    }
}
