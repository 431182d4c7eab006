//! The search pool: order of jobs, places in the queue, panics, cancellation, shutdown,
//! table reuse and the moves it finds. Checked by order and by counts, never by time: the
//! pool's one worker is held by a gate job while the queue is built.

use crate::support::search::nodes;
use damas::ai::{
    best_move, shallow_best_move, tables_allocated_on_this_thread, JobClass, Level, PoolError,
    SearchOptions, SearchPool, SearchResult, Ticket,
};
use damas::engine::{Game, Position, Variant};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Long enough for any job here on a loaded machine; only reached when the pool is broken.
const PATIENCE: Duration = Duration::from_secs(120);

fn game(variant: Variant, fen: &str) -> Game {
    match Position::from_fen(variant, fen) {
        Ok(p) => Game::from_position(p),
        Err(e) => panic!("bad test FEN {fen}: {e}"),
    }
}

/// Waits for a ticket, failing the test instead of hanging when the pool never answers.
fn wait<T: Send + 'static>(ticket: Ticket<T>) -> Result<T, PoolError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(ticket.wait());
    });
    match rx.recv_timeout(PATIENCE) {
        Ok(result) => result,
        Err(_) => panic!("the pool gave no answer"),
    }
}

/// Occupies the pool's only worker until the returned sender is dropped or sent to, so jobs
/// queued meanwhile wait in a known order.
fn hold_the_worker(pool: &SearchPool) -> (mpsc::Sender<()>, Ticket<()>) {
    let (started_tx, started_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let ticket = pool.submit(JobClass::Long, move |_| {
        let _ = started_tx.send(());
        let _ = release_rx.recv();
    });
    if started_rx.recv_timeout(PATIENCE).is_err() {
        panic!("the gate job never started");
    }
    (release_tx, ticket)
}

/// A maker of search jobs at a level that each give their place in the order jobs started.
fn start_order_recorder(
) -> impl Fn(Level) -> Box<dyn FnOnce(&mut damas::ai::JobContext<'_>) -> usize + Send> {
    let started = Arc::new(AtomicUsize::new(0));
    let position = game(Variant::Spanish, "W:W1,3,8,12,14,15:B21,22,23,29,30");
    move |level: Level| {
        let started = Arc::clone(&started);
        let position = position.clone();
        Box::new(move |ctx: &mut damas::ai::JobContext<'_>| {
            let order = started.fetch_add(1, Ordering::SeqCst);
            ctx.best_move(&position, level, &nodes(2_000));
            order
        })
    }
}

#[test]
fn a_short_search_starts_before_every_waiting_expert_search() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let job = start_order_recorder();
    let experts: Vec<Ticket<usize>> = (0..20)
        .map(|_| pool.submit(JobClass::of(Level::Expert), job(Level::Expert)))
        .collect();
    let easy = pool.submit(JobClass::of(Level::Easy), job(Level::Easy));
    drop(release);
    assert_eq!(wait(gate), Ok(()));
    let easy_started = wait(easy).unwrap_or(usize::MAX);
    for expert in experts {
        let expert_started = wait(expert).unwrap_or(0);
        assert!(
            easy_started < expert_started,
            "easy started {easy_started}th, an expert {expert_started}th"
        );
    }
}

/// Easy and medium are milliseconds of work; hard's node budget is a good part of a second:
/// queued behind a burst of hard searches, an easy move would still keep its player waiting.
#[test]
fn easy_and_medium_start_before_every_waiting_hard_search_and_hard_before_expert() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let job = start_order_recorder();
    let submit = |level: Level, n: usize| -> Vec<Ticket<usize>> {
        (0..n)
            .map(|_| pool.submit(JobClass::of(level), job(level)))
            .collect()
    };
    let experts = submit(Level::Expert, 5);
    let hards = submit(Level::Hard, 10);
    let mut quick = submit(Level::Medium, 1);
    quick.extend(submit(Level::Easy, 1));
    drop(release);
    assert_eq!(wait(gate), Ok(()));
    let order = |tickets: Vec<Ticket<usize>>| -> Vec<usize> {
        tickets
            .into_iter()
            .map(|t| wait(t).unwrap_or(usize::MAX))
            .collect()
    };
    let (quick, hards, experts) = (order(quick), order(hards), order(experts));
    assert_eq!(
        quick,
        [0, 1],
        "medium, then easy, first: in order of arrival"
    );
    assert_eq!(hards, (2..12).collect::<Vec<_>>(), "then every hard search");
    assert!(experts.iter().all(|&e| e >= 12), "expert last: {experts:?}");
}

#[test]
fn tickets_know_their_place_in_the_queue() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let spanish = Game::new(Variant::Spanish);
    let expert =
        |pool: &SearchPool| pool.submit_best_move(spanish.clone(), Level::Expert, nodes(1_000));
    let hard =
        |pool: &SearchPool| pool.submit_best_move(spanish.clone(), Level::Hard, nodes(1_000));
    let first_expert = expert(&pool);
    let second_expert = expert(&pool);
    let first_hard = hard(&pool);
    let second_hard = pool.submit(JobClass::Short, |_| ());
    let third_expert = expert(&pool);
    let medium = pool.submit_best_move(spanish.clone(), Level::Medium, nodes(1_000));
    assert_eq!(pool.queued(), 6);
    assert_eq!(first_expert.ahead(), 0);
    assert_eq!(second_expert.ahead(), 1);
    // Short jobs queue only behind quick and short ones.
    assert_eq!(first_hard.ahead(), 0);
    assert_eq!(second_hard.ahead(), 1);
    // A long job waits for everything queued before it.
    assert_eq!(third_expert.ahead(), 4);
    // A quick job, for nothing but quick ones.
    assert_eq!(medium.ahead(), 0);
    drop(release);
    assert_eq!(wait(gate), Ok(()));
    for ticket in [
        first_expert,
        second_expert,
        first_hard,
        third_expert,
        medium,
    ] {
        assert!(matches!(wait(ticket), Ok(Some(_))));
    }
    assert_eq!(wait(second_hard), Ok(()));
}

#[test]
fn a_job_is_told_how_many_wait_behind_it() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let tickets: Vec<Ticket<usize>> = (0..4)
        .map(|_| pool.submit(JobClass::Long, |ctx| ctx.waiting()))
        .collect();
    drop(release);
    assert_eq!(wait(gate), Ok(()));
    let waiting: Vec<usize> = tickets.into_iter().map(|t| wait(t).unwrap_or(99)).collect();
    assert_eq!(waiting, [3, 2, 1, 0]);
}

#[test]
fn a_panicking_job_gives_an_error_and_the_worker_keeps_serving() {
    let pool = SearchPool::new(1, 16);
    let worker = |_: &mut damas::ai::JobContext<'_>| std::thread::current().id();
    let before = wait(pool.submit(JobClass::Short, worker));
    let panicked = wait(pool.submit(JobClass::Short, |_| -> u32 {
        panic!("a search bug");
    }));
    assert_eq!(
        panicked,
        Err(PoolError::Panicked("a search bug".to_string()))
    );
    let after = wait(pool.submit(JobClass::Short, worker));
    assert!(before.is_ok());
    assert_eq!(before, after, "the same worker thread serves on");
    let position = Game::new(Variant::English);
    assert!(matches!(
        wait(pool.submit_best_move(position, Level::Hard, nodes(5_000))),
        Ok(Some(_))
    ));
}

#[test]
fn a_dropped_ticket_skips_its_job() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let ran = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&ran);
    let skipped = pool.submit(JobClass::Short, move |_| flag.store(true, Ordering::SeqCst));
    let kept = pool.submit(JobClass::Short, |_| 7);
    drop(skipped);
    drop(release);
    assert_eq!(wait(gate), Ok(()));
    assert_eq!(wait(kept), Ok(7));
    assert!(!ran.load(Ordering::SeqCst), "the cancelled job ran");
}

#[test]
fn shutdown_finishes_the_running_job_and_refuses_the_rest() {
    let pool = SearchPool::new(1, 16);
    let (release, gate) = hold_the_worker(&pool);
    let queued = pool.submit(JobClass::Short, |_| 1);
    let log = Arc::new(Mutex::new(Vec::new()));
    let releaser = {
        let log = Arc::clone(&log);
        std::thread::spawn(move || {
            // Released only once shutdown is under way: shutdown must wait for it.
            std::thread::sleep(Duration::from_millis(50));
            if let Ok(mut log) = log.lock() {
                log.push("released");
            }
            let _ = release.send(());
        })
    };
    pool.shutdown();
    if let Ok(mut log) = log.lock() {
        log.push("shut down");
    }
    let _ = releaser.join();
    assert_eq!(
        *log.lock().unwrap_or_else(|e| e.into_inner()),
        ["released", "shut down"]
    );
    assert_eq!(wait(gate), Ok(()));
    assert_eq!(wait(queued), Err(PoolError::ShutDown));
    assert_eq!(
        wait(pool.submit(JobClass::Short, |_| 2)),
        Err(PoolError::ShutDown)
    );
}

/// An expert search on an hour's clock, submitted to an idle pool; returns once it is running
/// (the queue is empty).
fn an_hour_long_expert_search(pool: &SearchPool) -> Ticket<Option<SearchResult>> {
    let an_hour = SearchOptions {
        time: Some(Duration::from_secs(3600)),
        ..SearchOptions::default()
    };
    let search = pool.submit_best_move(Game::new(Variant::Spanish), Level::Expert, an_hour);
    while pool.queued() > 0 {
        std::thread::yield_now();
    }
    search
}

#[test]
fn shutdown_stops_a_running_expert_search() {
    let pool = SearchPool::new(1, 16);
    // Shut down while it runs: without the pool's stop flag this would take an hour.
    let search = an_hour_long_expert_search(&pool);
    let (done_tx, done_rx) = mpsc::channel();
    let pool = Arc::new(pool);
    let shutting = Arc::clone(&pool);
    std::thread::spawn(move || {
        shutting.shutdown();
        let _ = done_tx.send(());
    });
    // On failure the pool is leaked rather than dropped, so the test fails instead of
    // waiting an hour for the search.
    if done_rx.recv_timeout(PATIENCE).is_err() {
        std::mem::forget(pool);
        panic!("shutdown did not stop the search");
    }
    assert!(matches!(wait(search), Ok(Some(_))));
}

/// A job of `class` that runs, once started, until it is hurried (answering whether it
/// was: [`PATIENCE`] bounds a broken pool).
fn running_until_hurried(pool: &SearchPool, class: JobClass) -> Ticket<bool> {
    let (started_tx, started_rx) = mpsc::channel();
    let job = pool.submit(class, move |ctx| {
        let hurry = ctx.hurry();
        let _ = started_tx.send(());
        let waited = std::time::Instant::now();
        while !hurry.load(Ordering::Relaxed) && waited.elapsed() < PATIENCE {
            std::thread::yield_now();
        }
        hurry.load(Ordering::Relaxed)
    });
    if started_rx.recv_timeout(PATIENCE).is_err() {
        panic!("the {class:?} job never started");
    }
    job
}

#[test]
fn a_short_job_hurries_the_long_job_holding_the_only_thread() {
    let pool = SearchPool::new(1, 16);
    let long = running_until_hurried(&pool, JobClass::Long);
    let easy = pool.submit_best_move(Game::new(Variant::Spanish), Level::Easy, nodes(1_000));
    assert_eq!(
        wait(long),
        Ok(true),
        "the queued easy move hurried the long job"
    );
    assert!(matches!(wait(easy), Ok(Some(_))));
}

#[test]
fn a_hurried_expert_search_returns_its_move_instead_of_thinking_for_an_hour() {
    let pool = SearchPool::new(1, 16);
    let expert = an_hour_long_expert_search(&pool);
    // The expert search is running; an easy move arrives and must not wait an hour.
    let easy = pool.submit_best_move(Game::new(Variant::Spanish), Level::Easy, nodes(1_000));
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send((expert.wait(), easy.wait()));
    });
    match done_rx.recv_timeout(PATIENCE) {
        Ok((expert, easy)) => {
            assert!(matches!(expert, Ok(Some(_))), "expert still gives its move");
            assert!(matches!(easy, Ok(Some(_))));
        }
        Err(_) => {
            // Leak the pool rather than wait an hour for the unhurried search.
            std::mem::forget(pool);
            panic!("the easy move did not hurry the expert search");
        }
    }
}

/// An expert search that started with nothing queued is not left to think its whole clock
/// once many jobs arrive behind it: its clock follows the queue as it grows.
#[test]
fn an_expert_search_thinks_less_as_jobs_queue_behind_it() {
    let pool = SearchPool::new(1, 16);
    let expert = an_hour_long_expert_search(&pool);
    // An hour shared with 36,000 jobs is 0.1 s. Long jobs: they do not hurry it.
    let behind: Vec<Ticket<()>> = (0..36_000)
        .map(|_| pool.submit(JobClass::Long, |_| ()))
        .collect();
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(expert.wait());
    });
    match done_rx.recv_timeout(PATIENCE) {
        Ok(expert) => assert!(matches!(expert, Ok(Some(_))), "expert gives its move"),
        Err(_) => {
            // Leak the pool rather than wait an hour for the search.
            std::mem::forget(pool);
            panic!("the queue did not shorten the expert search");
        }
    }
    for ticket in behind {
        assert_eq!(wait(ticket), Ok(()));
    }
}

#[test]
fn a_long_job_is_not_hurried_by_another_long_job() {
    let pool = SearchPool::new(1, 16);
    let (started_tx, started_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let first = pool.submit(JobClass::Long, move |ctx| {
        let hurry = ctx.hurry();
        let _ = started_tx.send(());
        let _ = release_rx.recv_timeout(PATIENCE);
        hurry.load(Ordering::Relaxed)
    });
    if started_rx.recv_timeout(PATIENCE).is_err() {
        panic!("the long job never started");
    }
    let second = pool.submit(JobClass::Long, |_| ());
    let _ = release_tx.send(());
    assert_eq!(wait(first), Ok(false), "only short jobs hurry long ones");
    assert_eq!(wait(second), Ok(()));
}

/// A review's searches come after every bot move: an expert move queued behind a running
/// review search hurries it, and starts before the review's next search, which waited first.
#[test]
fn an_expert_move_hurries_a_review_search_and_starts_before_the_next_one() {
    let pool = SearchPool::new(1, 16);
    let review = running_until_hurried(&pool, JobClass::Review);
    let job = start_order_recorder();
    let next_review = pool.submit(JobClass::Review, job(Level::Hard));
    let expert = pool.submit(JobClass::of(Level::Expert), job(Level::Expert));
    assert_eq!(
        wait(review),
        Ok(true),
        "the queued expert move hurried the review's search"
    );
    assert_eq!(wait(expert), Ok(0), "the expert move started first");
    assert_eq!(wait(next_review), Ok(1));
}

#[test]
fn each_worker_keeps_one_table_for_every_search() {
    let pool = SearchPool::new(1, 16);
    let spanish = Game::new(Variant::Spanish);
    for seed in 0..5 {
        let opts = SearchOptions {
            seed,
            ..nodes(20_000)
        };
        assert!(matches!(
            wait(pool.submit_best_move(spanish.clone(), Level::Expert, opts)),
            Ok(Some(_))
        ));
    }
    let by_hand = spanish.clone();
    let tables = wait(pool.submit(JobClass::Long, move |ctx| {
        ctx.best_move(&by_hand, Level::Expert, &nodes(20_000));
        tables_allocated_on_this_thread()
    }));
    assert_eq!(tables, Ok(1));
}

#[test]
fn the_pool_finds_the_same_moves_as_a_direct_search() {
    // A two-for-one shot: 15-19 forces 22x15, then 12x19x28 takes 15 and 23.
    let shot = game(Variant::Spanish, "W:W1,3,8,12,14,15:B21,22,23,29,30");
    let pool = SearchPool::new(2, 64);
    for level in [Level::Medium, Level::Hard, Level::Expert] {
        let opts = nodes(100_000);
        let pooled = wait(pool.submit_best_move(shot.clone(), level, opts.clone()));
        let found = pooled.ok().flatten().map(|r| r.mv.to_string());
        assert_eq!(found.as_deref(), Some("15-19"), "{level}");
    }
    // Seeded and bounded by nodes, a pooled search repeats a direct one exactly, whatever
    // the table held before.
    for seed in 0..6 {
        let opts = SearchOptions {
            seed,
            ..nodes(30_000)
        };
        let start = Game::new(Variant::English);
        let direct = best_move(&start, Level::Expert, &opts);
        let pooled = wait(pool.submit_best_move(start, Level::Expert, opts));
        assert_eq!(pooled, Ok(direct), "seed {seed}");
    }
}

#[test]
fn a_finished_game_has_no_move_in_the_pool_either() {
    let pool = SearchPool::new(1, 16);
    let lost = game(Variant::Spanish, "W:W:B20");
    assert_eq!(
        wait(pool.submit_best_move(lost, Level::Expert, nodes(1_000))),
        Ok(None)
    );
}

#[test]
fn the_shallow_fallback_does_not_give_a_man_away() {
    // The first moves generated hang a man; one (English) or two (Spanish) moves are safe.
    for (variant, fen) in [
        (Variant::English, "B:W18,19:B11,21"),
        (Variant::Spanish, "W:W22,23,9:B18,30"),
    ] {
        let g = game(variant, fen);
        let legal = g.position().legal_moves();
        let hangs = |mv: &damas::engine::Move| {
            let after = g.position().apply(mv);
            after.legal_moves().iter().any(|reply| reply.is_capture())
        };
        assert!(
            legal.first().is_some_and(hangs),
            "the test needs a bad first move"
        );
        let chosen = shallow_best_move(&g);
        assert!(
            chosen.is_some_and(|mv| legal.contains(&mv) && !hangs(&mv)),
            "{fen}"
        );
    }
}

#[test]
fn the_shallow_fallback_plays_a_legal_move_whenever_there_is_one() {
    assert_eq!(shallow_best_move(&game(Variant::Spanish, "W:W:B20")), None);
    for variant in Variant::ALL {
        let mut g = Game::new(variant);
        for _ in 0..80 {
            let Some(mv) = shallow_best_move(&g) else {
                assert!(g.position().legal_moves().is_empty());
                break;
            };
            assert!(g.position().legal_moves().contains(&mv));
            if g.play(mv).is_err() || g.is_over() {
                break;
            }
        }
    }
}

#[tokio::test]
async fn async_code_awaits_a_ticket() {
    let pool = SearchPool::new(1, 16);
    let ticket = pool.submit_best_move(Game::new(Variant::Portuguese), Level::Medium, nodes(5_000));
    let result = tokio::time::timeout(PATIENCE, ticket).await;
    assert!(matches!(result, Ok(Ok(Some(_)))));
    pool.shutdown();
    let refused = tokio::time::timeout(PATIENCE, pool.submit(JobClass::Short, |_| 1)).await;
    assert_eq!(refused, Ok(Err(PoolError::ShutDown)));
}

/// A bounded pool refuses new work once the limit of jobs waits, queuing nothing, while work
/// owed already (the bot's move in a game under way) still queues past the limit and runs.
#[test]
fn a_full_queue_refuses_new_work_but_never_owed_work() {
    let pool = SearchPool::new(1, 16).with_queue_limit(2);
    let (release, gate) = hold_the_worker(&pool);
    assert!(pool.has_room());
    let first = pool
        .try_submit(JobClass::Long, |_| 1)
        .expect("room for the first");
    let second = pool
        .try_submit(JobClass::Quick, |_| 2)
        .expect("room for the second");
    assert!(!pool.has_room());
    for class in [JobClass::Quick, JobClass::Short, JobClass::Long] {
        assert!(matches!(
            pool.try_submit(class, |_| 0),
            Err(PoolError::Busy)
        ));
    }
    assert_eq!(pool.queued(), 2, "a refused job is not queued");
    let owed = pool.submit(JobClass::Short, |_| 3);
    assert_eq!(pool.queued(), 3, "owed work queues past the limit");
    release.send(()).unwrap();
    wait(gate).unwrap();
    assert_eq!(wait(second), Ok(2));
    assert_eq!(wait(owed), Ok(3));
    assert_eq!(wait(first), Ok(1));
    assert!(pool.has_room());
    assert!(pool.try_submit(JobClass::Long, |_| ()).is_ok());
}

/// With a quick lane, an easy move starts while the only other thread holds a long job, and
/// that job is not hurried for it; a hard move (not quick) still hurries it.
#[test]
fn the_quick_lane_starts_an_easy_move_at_once_and_leaves_the_long_job_alone() {
    let pool = SearchPool::new(1, 16).with_quick_lane();
    let (started_tx, started_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let long = pool.submit(JobClass::Long, move |ctx| {
        let _ = started_tx.send(ctx.hurry());
        let _ = release_rx.recv_timeout(PATIENCE);
    });
    let Ok(hurried) = started_rx.recv_timeout(PATIENCE) else {
        panic!("the long job never started");
    };
    // The long job waits for its release, which comes only after the quick moves are made:
    // without the lane they would wait until PATIENCE runs out.
    for level in [Level::Easy, Level::Medium] {
        let quick = pool.submit_best_move(Game::new(Variant::Spanish), level, nodes(1_000));
        assert!(
            matches!(wait(quick), Ok(Some(_))),
            "the {level:?} move was made"
        );
    }
    assert!(
        !hurried.load(Ordering::Relaxed),
        "the quick moves did not hurry the long job"
    );
    let order = start_order_recorder();
    let hard = pool.submit(JobClass::of(Level::Hard), order(Level::Hard));
    assert!(hurried.load(Ordering::Relaxed), "the hard move hurried it");
    let _ = release_tx.send(());
    assert_eq!(wait(long), Ok(()));
    assert_eq!(wait(hard), Ok(0));
}
