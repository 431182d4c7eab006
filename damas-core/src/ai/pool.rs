//! A pool of search threads with a fixed set of transposition tables.
//!
//! The bot's moves, and later game reviews, puzzle checks and GIFs, run here rather than on
//! the async runtime: a few dedicated OS threads, each keeping one transposition table for
//! its whole life. Jobs wait in four queues, one per [`JobClass`]: a job starts before every
//! waiting job of a slower class, first come first served inside a class, so an easy move is
//! never stuck behind hard or expert searches, nor a bot's move behind a review's; and a job
//! that finds every thread busy with slower ones hurries one of them ([`JobContext::hurry`]):
//! a review's search first, for any bot move, else an expert search, for a quick or short
//! job; so it waits at most about [`EXPERT_FLOOR_UNDER_LOAD`], not a whole slow search. A pool
//! may also keep a thread for quick jobs alone ([`SearchPool::with_quick_lane`]), so that an
//! easy or medium move waits for no search at all. When many jobs wait, an
//! expert search thinks for less ([`expert_time_under_load`]). Search threads run at a lower
//! CPU priority than the rest of the process, so answering people comes before thinking.
//! Results come back through a [`Ticket`], awaited from async code or waited for on a plain
//! thread.

use super::hash::Table;
use super::level::{Level, SearchLimits};
use super::search::{
    best_move, best_move_with_table, time_under_load, Hurry, SearchOptions, SearchResult,
};
use crate::engine::{Game, Move};
use std::collections::VecDeque;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::oneshot;

/// Which queue a job waits in, quickest first: a job starts before every waiting job of a
/// later class.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum JobClass {
    /// Bounded by a small depth, done in milliseconds (easy, medium).
    Quick,
    /// Bounded by a node budget, done within about a third of a second (hard).
    Short,
    /// On a clock or long by nature (expert).
    Long,
    /// One position of a game's review: nobody is playing, so any bot move goes first.
    Review,
}

impl JobClass {
    /// The classes in the order their jobs start.
    pub const BY_PRIORITY: [JobClass; 4] = [
        JobClass::Quick,
        JobClass::Short,
        JobClass::Long,
        JobClass::Review,
    ];

    /// Its name in logs and metrics.
    pub const fn id(self) -> &'static str {
        match self {
            JobClass::Quick => "quick",
            JobClass::Short => "short",
            JobClass::Long => "long",
            JobClass::Review => "review",
        }
    }

    /// The queue of a bot move at `level`.
    pub const fn of(level: Level) -> JobClass {
        match level {
            Level::Easy | Level::Medium => JobClass::Quick,
            Level::Hard => JobClass::Short,
            Level::Expert => JobClass::Long,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// Why a job gave no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The job panicked; the worker survived and serves the next job. The caller may retry.
    #[error("the search job panicked: {0}")]
    Panicked(String),
    /// The pool shut down before the job ran.
    #[error("the search pool has shut down")]
    ShutDown,
    /// The queues hold as many jobs as the pool takes new work for
    /// ([`SearchPool::with_queue_limit`]): the job was not queued.
    #[error("the search queues are full")]
    Busy,
}

/// Expert's thinking time while `waiting` jobs are queued: `base / (1 + waiting)`, never less
/// than [`EXPERT_FLOOR_UNDER_LOAD`] (about what Hard's node budget takes), so expert never
/// plays weaker than hard; never more than `base`. A long job's search follows it as the
/// queue changes ([`JobContext::best_move`]), so a search that started alone is cut short
/// when many arrive behind it.
pub fn expert_time_under_load(base: Duration, waiting: usize) -> Duration {
    time_under_load(base, waiting, EXPERT_FLOOR_UNDER_LOAD)
}

/// The least time expert is given under load, and what a hurried expert search still gets:
/// about what Hard's [`super::HARD_NODES`] take on this project's 2-core box (about 0.1 s),
/// so expert then searches about as far as hard (and at 0.1 s it still beats hard; see the
/// ladder in docs/BENCHMARKS.md).
pub const EXPERT_FLOOR_UNDER_LOAD: Duration = Duration::from_millis(100);

/// What a running job gets from its worker.
pub struct JobContext<'a> {
    table: &'a mut Table,
    waiting: usize,
    stop: &'a Arc<AtomicBool>,
    hurry: Arc<AtomicBool>,
    /// The jobs queued now, for the search's clock.
    queued: &'a Arc<AtomicUsize>,
    /// A long or review job: one that can be hurried.
    long: bool,
}

impl JobContext<'_> {
    /// How many jobs were queued, in all classes, when this one started.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Raised when the pool shuts down: a long job should return what it has.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(self.stop)
    }

    /// Raised when a quicker job waits for this thread (long and review jobs only: a quick or
    /// short job for a long one, any bot move for a review's): the job should return what it
    /// has once it has had [`EXPERT_FLOOR_UNDER_LOAD`].
    pub fn hurry(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.hurry)
    }

    /// [`best_move`] with this thread's transposition table. In a long or review job, unless `opts`
    /// brings a hurry of its own, the search also obeys [`JobContext::hurry`], and a clock
    /// shrinks as jobs queue up ([`expert_time_under_load`], the queue read as it runs).
    pub fn best_move(
        &mut self,
        game: &Game,
        level: Level,
        opts: &SearchOptions,
    ) -> Option<SearchResult> {
        if self.long && opts.hurry.is_none() {
            let hurried = SearchOptions {
                hurry: Some(Hurry {
                    flag: self.hurry(),
                    within: EXPERT_FLOOR_UNDER_LOAD,
                    waiting: Some(Arc::clone(self.queued)),
                }),
                ..opts.clone()
            };
            return best_move_with_table(game, level, &hurried, self.table);
        }
        best_move_with_table(game, level, opts, self.table)
    }
}

/// A job waiting in a queue, its result type erased.
trait QueuedJob: Send {
    /// Whether nobody waits for the result any more (its ticket was dropped).
    fn abandoned(&self) -> bool;
    fn run(self: Box<Self>, ctx: &mut JobContext<'_>);
}

struct Job<F, T> {
    work: F,
    reply: oneshot::Sender<Result<T, PoolError>>,
}

impl<F, T> QueuedJob for Job<F, T>
where
    F: FnOnce(&mut JobContext<'_>) -> T + Send,
    T: Send,
{
    fn abandoned(&self) -> bool {
        self.reply.is_closed()
    }

    fn run(self: Box<Self>, ctx: &mut JobContext<'_>) {
        let Job { work, reply } = *self;
        let result = catch_unwind(AssertUnwindSafe(|| work(ctx))).map_err(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            PoolError::Panicked(message)
        });
        // The ticket may have been dropped meanwhile: nobody to tell.
        let _ = reply.send(result);
    }
}

#[derive(Default)]
struct Queues {
    /// One queue per [`JobClass`], in [`JobClass::BY_PRIORITY`] order.
    waiting: [VecDeque<Box<dyn QueuedJob>>; 4],
    closed: bool,
    /// Workers waiting for a job.
    idle: usize,
    /// Quick-lane workers ([`SearchPool::with_quick_lane`]), and those waiting for a job.
    lanes: usize,
    lane_idle: usize,
    /// The hurry flags of the long jobs running now that nobody has hurried yet.
    unhurried_long: Vec<Arc<AtomicBool>>,
    /// The same for the review jobs running now.
    unhurried_review: Vec<Arc<AtomicBool>>,
}

impl Queues {
    fn len(&self) -> usize {
        self.waiting.iter().map(VecDeque::len).sum()
    }

    /// The queued jobs no idle worker is about to take: what the running searches share
    /// their time with (a job pushed while a worker sleeps is that worker's at once).
    fn backlog(&self) -> usize {
        let lane_takes = self
            .lane_idle
            .min(self.waiting[JobClass::Quick.index()].len());
        self.len().saturating_sub(self.idle + lane_takes)
    }

    /// The queued jobs that start before a job of `class` queued now: those of its class and
    /// of every quicker one.
    fn ahead_of(&self, class: JobClass) -> usize {
        self.waiting[..=class.index()]
            .iter()
            .map(VecDeque::len)
            .sum()
    }

    /// The next job to start and its class: the quickest class first, each in order of
    /// arrival.
    fn next(&mut self) -> Option<(Box<dyn QueuedJob>, JobClass)> {
        JobClass::BY_PRIORITY
            .into_iter()
            .find_map(|class| Some((self.waiting[class.index()].pop_front()?, class)))
    }
}

struct Shared {
    queues: Mutex<Queues>,
    /// `queues`' backlog ([`Queues::backlog`]), kept up to date under its lock, for searches
    /// to read as they run.
    queued: Arc<AtomicUsize>,
    work_ready: Condvar,
    /// Quick jobs have come (the quick lane's own signal: it takes nothing else).
    quick_ready: Condvar,
    /// Raised at shutdown; searches submitted without their own stop flag watch it.
    stop: Arc<AtomicBool>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        // Jobs run outside the lock, so a poisoned lock only means a panic in this file's
        // few lines of queue handling; the queues themselves stay consistent.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Dedicated search threads, each with its own transposition table, fed from three queues.
pub struct SearchPool {
    shared: Arc<Shared>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    threads: usize,
    /// Queued jobs beyond which new work is refused ([`SearchPool::try_submit`]).
    queue_limit: usize,
}

impl SearchPool {
    /// Starts `threads` workers (at least one) sharing `memory_mb` MiB of transposition
    /// tables equally. Each table is allocated once, grows to what the searches ask for
    /// within its share, and is emptied before each search that uses it.
    pub fn new(threads: usize, memory_mb: usize) -> SearchPool {
        let threads = threads.max(1);
        let table_bytes = memory_mb.saturating_mul(1 << 20) / threads;
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            queued: Arc::new(AtomicUsize::new(0)),
            work_ready: Condvar::new(),
            quick_ready: Condvar::new(),
            stop: Arc::new(AtomicBool::new(false)),
        });
        let mut workers = Vec::with_capacity(threads);
        for i in 0..threads {
            let shared = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{i}"))
                .spawn(move || work(&shared, table_bytes, Worker::Any));
            match spawned {
                Ok(handle) => workers.push(handle),
                // Fewer threads is still a working pool, as long as there is one.
                Err(e) if !workers.is_empty() => {
                    tracing::warn!("search thread {i} not started: {e}");
                }
                Err(e) => panic!("cannot start any search thread: {e}"),
            }
        }
        let threads = workers.len();
        SearchPool {
            shared,
            workers: Mutex::new(workers),
            threads,
            queue_limit: usize::MAX,
        }
    }

    /// Bounds the queues for new work: [`SearchPool::try_submit`] refuses a job, and
    /// [`SearchPool::has_room`] says no, while `limit` jobs (at least one) wait. Work owed
    /// already (the bot's move in a game under way) goes through [`SearchPool::submit`],
    /// which never refuses: a refused owed move would leave a game waiting for a move nobody
    /// makes. Bounding what starts new work bounds the owed work that follows from it.
    pub fn with_queue_limit(mut self, limit: usize) -> SearchPool {
        self.queue_limit = limit.max(1);
        self
    }

    /// Adds a thread that takes quick jobs alone (easy and medium moves, done in
    /// milliseconds), with a small table of its own: such a move then starts at once even
    /// while every other thread holds a long search, rather than hurrying one and waiting for
    /// it to stop (up to [`EXPERT_FLOOR_UNDER_LOAD`]). A thread more, idle but for those
    /// milliseconds; the other threads take quick jobs too when they are free.
    pub fn with_quick_lane(self) -> SearchPool {
        let shared = Arc::clone(&self.shared);
        let spawned = std::thread::Builder::new()
            .name("search-quick".to_string())
            .spawn(move || work(&shared, QUICK_LANE_TABLE_BYTES, Worker::QuickLane));
        match spawned {
            Ok(handle) => {
                self.shared.lock().lanes += 1;
                self.workers
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(handle);
            }
            // Without it quick jobs hurry a slower one, as in any pool.
            Err(e) => tracing::warn!("the quick search thread was not started: {e}"),
        }
        self
    }

    /// Whether new work would be taken now (fewer jobs wait than the queue limit).
    pub fn has_room(&self) -> bool {
        self.shared.lock().len() < self.queue_limit
    }

    /// The default number of threads: the machine's cores less one (left to the async
    /// runtime and the store), at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get().saturating_sub(1))
            .max(1)
    }

    /// The number of worker threads (and of transposition tables).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs queued and not yet started.
    pub fn queued(&self) -> usize {
        self.shared.lock().len()
    }

    /// Jobs of `class` queued and not yet started.
    pub fn queued_in(&self, class: JobClass) -> usize {
        self.shared.lock().waiting[class.index()].len()
    }

    /// The jobs that would start before a job of `class` submitted now.
    pub fn ahead_of(&self, class: JobClass) -> usize {
        self.shared.lock().ahead_of(class)
    }

    /// Queues `job`; it runs on a worker with that worker's table. A job that panics gives
    /// [`PoolError::Panicked`]; after [`SearchPool::close`] (or [`SearchPool::shutdown`])
    /// every job gives [`PoolError::ShutDown`] without running. Never refused for a full
    /// queue: for work owed already; new work goes through [`SearchPool::try_submit`].
    pub fn submit<T, F>(&self, class: JobClass, job: F) -> Ticket<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut JobContext<'_>) -> T + Send + 'static,
    {
        // Without a limit it is always queued; were it not, the ticket says why.
        self.queue(class, job, usize::MAX).unwrap_or_else(|e| {
            let (reply, result) = oneshot::channel();
            let _ = reply.send(Err(e));
            Ticket { ahead: 0, result }
        })
    }

    /// [`SearchPool::submit`] for new work: refused with [`PoolError::Busy`], and not
    /// queued, while the queues hold the pool's queue limit.
    pub fn try_submit<T, F>(&self, class: JobClass, job: F) -> Result<Ticket<T>, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut JobContext<'_>) -> T + Send + 'static,
    {
        self.queue(class, job, self.queue_limit)
    }

    fn queue<T, F>(&self, class: JobClass, job: F, limit: usize) -> Result<Ticket<T>, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut JobContext<'_>) -> T + Send + 'static,
    {
        let (reply, result) = oneshot::channel();
        let mut queues = self.shared.lock();
        if queues.closed {
            let _ = reply.send(Err(PoolError::ShutDown));
            return Ok(Ticket { ahead: 0, result });
        }
        if queues.len() >= limit {
            return Err(PoolError::Busy);
        }
        // (as in `ahead_of`, under the same lock as the push)
        let ahead = queues.ahead_of(class);
        queues.waiting[class.index()].push_back(Box::new(Job { work: job, reply }));
        self.shared
            .queued
            .store(queues.backlog(), Ordering::Relaxed);
        // A quicker job with no idle worker would wait for a whole slow search: one of those
        // is told to finish soon (the oldest, likeliest to be near its end anyway), a
        // review's before an expert move's.
        // A quick job with a lane waits for the lane's quick jobs at most, never for a slow one.
        let lane_takes_it = class == JobClass::Quick && queues.lanes > 0;
        if queues.idle == 0 && !lane_takes_it {
            let slower = if class < JobClass::Review && !queues.unhurried_review.is_empty() {
                Some(queues.unhurried_review.remove(0))
            } else if class < JobClass::Long && !queues.unhurried_long.is_empty() {
                Some(queues.unhurried_long.remove(0))
            } else {
                None
            };
            if let Some(flag) = slower {
                flag.store(true, Ordering::Relaxed);
            }
        }
        drop(queues);
        self.shared.work_ready.notify_one();
        if class == JobClass::Quick {
            self.shared.quick_ready.notify_one();
        }
        Ok(Ticket { ahead, result })
    }

    /// The bot's move at `level`, in the level's queue. An expert search on a clock thinks
    /// for [`expert_time_under_load`] of it as the queue changes; without a stop flag in
    /// `opts` the search stops when the pool shuts down.
    pub fn submit_best_move(
        &self,
        game: Game,
        level: Level,
        mut opts: SearchOptions,
    ) -> Ticket<Option<SearchResult>> {
        if opts.stop.is_none() {
            opts.stop = Some(Arc::clone(&self.shared.stop));
        }
        self.submit(JobClass::of(level), move |ctx| {
            ctx.best_move(&game, level, &opts)
        })
    }

    /// Stops taking jobs, drops the queued ones (their tickets give
    /// [`PoolError::ShutDown`]), raises the pool's stop flag so running searches return what
    /// they have, and waits for the workers to finish. Called by `Drop`; calling it again
    /// does nothing.
    pub fn shutdown(&self) {
        self.close();
        let workers = std::mem::take(&mut *self.workers.lock().unwrap_or_else(|e| e.into_inner()));
        let me = std::thread::current().id();
        for worker in workers {
            // A job that shuts its own pool down cannot wait for itself.
            if worker.thread().id() != me {
                let _ = worker.join();
            }
        }
    }

    /// [`SearchPool::shutdown`] without waiting for the workers: fit for async code. The
    /// running jobs finish soon after (their searches see the stop flag).
    pub fn close(&self) {
        let dropped = {
            let mut queues = self.shared.lock();
            queues.closed = true;
            self.shared.queued.store(0, Ordering::Relaxed);
            std::mem::take(&mut queues.waiting)
        };
        // Outside the lock: dropping a job's sender wakes its ticket.
        drop(dropped);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.work_ready.notify_all();
        self.shared.quick_ready.notify_all();
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The quick lane's table: quick jobs are searches of a small depth.
const QUICK_LANE_TABLE_BYTES: usize = 4 << 20;

/// Which jobs a worker takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Worker {
    /// Any, quickest class first.
    Any,
    /// Quick jobs only ([`SearchPool::with_quick_lane`]).
    QuickLane,
}

/// A worker: one table for its whole life, jobs until the pool closes.
fn work(shared: &Shared, table_bytes: usize, worker: Worker) {
    let name = match worker {
        Worker::Any => "search thread",
        Worker::QuickLane => "quick search thread",
    };
    lower_this_threads_priority(SEARCH_NICENESS, name);
    let mut table = Table::with_memory(table_bytes);
    loop {
        let hurry = Arc::new(AtomicBool::new(false));
        let (job, waiting, long) = {
            let mut queues = shared.lock();
            loop {
                if queues.closed {
                    return;
                }
                let next = match worker {
                    Worker::Any => queues.next(),
                    Worker::QuickLane => queues.waiting[JobClass::Quick.index()]
                        .pop_front()
                        .map(|job| (job, JobClass::Quick)),
                };
                shared.queued.store(queues.backlog(), Ordering::Relaxed);
                match next {
                    Some((job, _)) if job.abandoned() => continue,
                    Some((job, class)) => {
                        match class {
                            JobClass::Long => queues.unhurried_long.push(Arc::clone(&hurry)),
                            JobClass::Review => queues.unhurried_review.push(Arc::clone(&hurry)),
                            JobClass::Quick | JobClass::Short => {}
                        }
                        break (job, queues.len(), class >= JobClass::Long);
                    }
                    None if worker == Worker::QuickLane => {
                        queues.lane_idle += 1;
                        queues = shared
                            .quick_ready
                            .wait(queues)
                            .unwrap_or_else(|e| e.into_inner());
                        queues.lane_idle -= 1;
                    }
                    None => {
                        queues.idle += 1;
                        queues = shared
                            .work_ready
                            .wait(queues)
                            .unwrap_or_else(|e| e.into_inner());
                        queues.idle -= 1;
                    }
                }
            }
        };
        let mut ctx = JobContext {
            table: &mut table,
            waiting,
            stop: &shared.stop,
            hurry: Arc::clone(&hurry),
            queued: &shared.queued,
            long,
        };
        job.run(&mut ctx);
        if long {
            let mut queues = shared.lock();
            queues
                .unhurried_long
                .retain(|flag| !Arc::ptr_eq(flag, &hurry));
            queues
                .unhurried_review
                .retain(|flag| !Arc::ptr_eq(flag, &hurry));
        }
    }
}

/// Lowers the calling thread's CPU priority to `niceness` (Linux niceness, 0–19), so that it
/// yields to the async runtime, which answers people; threads it starts inherit it. Best
/// effort: where it cannot be done, the thread keeps the default priority. `who` names the
/// thread in the debug line that says so.
pub(crate) fn lower_this_threads_priority(niceness: i32, who: &str) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on this thread's own id, no memory handed over.
        let done = unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, niceness as libc::c_int)
        };
        if done != 0 {
            tracing::debug!("{who} keeps its priority: setpriority failed");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (niceness, who);
}

/// How much lower than the process the search threads run (Linux niceness, 0–19).
const SEARCH_NICENESS: i32 = 10;

/// A queued job's place and its coming result. Await it from async code, or [`Ticket::wait`]
/// on a plain thread. Dropping it before the job starts skips the job.
#[must_use = "dropping a ticket cancels its job"]
pub struct Ticket<T> {
    ahead: usize,
    result: oneshot::Receiver<Result<T, PoolError>>,
}

impl<T> Ticket<T> {
    /// How many queued jobs were to start before this one when it was submitted (0: next).
    /// Quicker jobs submitted later can still overtake it.
    pub fn ahead(&self) -> usize {
        self.ahead
    }

    /// Blocks the calling thread until the result comes. Not for async code (it panics
    /// there, as tokio's blocking receive does): await the ticket instead.
    pub fn wait(self) -> Result<T, PoolError> {
        self.result
            .blocking_recv()
            .unwrap_or(Err(PoolError::ShutDown))
    }
}

impl<T> Future for Ticket<T> {
    type Output = Result<T, PoolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.result)
            .poll(cx)
            .map(|received| received.unwrap_or(Err(PoolError::ShutDown)))
    }
}

/// The last resort when searches keep failing: the best move of a two-ply search with the
/// basic evaluation, or, should even that fail, the first legal move. `None` only when the
/// side to move has no legal move.
pub fn shallow_best_move(game: &Game) -> Option<Move> {
    let first = *game.position().legal_moves().first()?;
    let two_plies = SearchOptions {
        limits: Some(SearchLimits {
            time: None,
            nodes: Some(SHALLOW_NODES),
            depth: Some(2),
        }),
        ..SearchOptions::default()
    };
    let searched = catch_unwind(AssertUnwindSafe(|| {
        best_move(game, Level::Medium, &two_plies).map(|r| r.mv)
    }));
    Some(match searched {
        Ok(Some(mv)) if game.position().legal_moves().contains(&mv) => mv,
        _ => first,
    })
}

/// A bound on the shallow search's work, whatever the position (kings can have many moves).
const SHALLOW_NODES: u64 = 20_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expert_keeps_its_time_when_nothing_waits() {
        let base = Duration::from_secs(2);
        assert_eq!(expert_time_under_load(base, 0), base);
    }

    #[test]
    fn expert_time_shrinks_with_the_queue_down_to_the_floor() {
        let base = Duration::from_secs(2);
        assert_eq!(expert_time_under_load(base, 1), Duration::from_secs(1));
        assert_eq!(expert_time_under_load(base, 3), Duration::from_millis(500));
        let mut last = base;
        for waiting in 0..100 {
            let t = expert_time_under_load(base, waiting);
            assert!(t <= last, "more waiting never means more time");
            last = t;
        }
        assert_eq!(last, EXPERT_FLOOR_UNDER_LOAD);
        assert_eq!(
            expert_time_under_load(base, usize::MAX),
            EXPERT_FLOOR_UNDER_LOAD
        );
    }

    #[test]
    fn a_short_clock_is_never_lengthened() {
        let base = Duration::from_millis(100);
        assert_eq!(expert_time_under_load(base, 0), base);
        assert_eq!(expert_time_under_load(base, 10), base);
    }

    #[test]
    fn levels_fall_into_their_queues() {
        assert_eq!(JobClass::of(Level::Easy), JobClass::Quick);
        assert_eq!(JobClass::of(Level::Medium), JobClass::Quick);
        assert_eq!(JobClass::of(Level::Hard), JobClass::Short);
        assert_eq!(JobClass::of(Level::Expert), JobClass::Long);
    }

    #[test]
    fn default_threads_leaves_a_core_but_is_never_zero() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = SearchPool::default_threads();
        assert!(threads >= 1);
        assert!(threads < cores || cores == 1);
    }
}
