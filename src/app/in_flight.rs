//! Work in flight (requests being answered, bot moves being made and posted, sweeper passes),
//! so that a shutdown stops taking new work and waits for what was started. One per [`App`]
//! (its clones share it): the front ends count the requests they take, the app the work it
//! starts itself.
//!
//! [`App`]: super::App

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

#[derive(Default)]
pub struct InFlight {
    count: AtomicUsize,
    closed: AtomicBool,
    idle: Notify,
}

/// One piece of work; dropping it (also on panic) marks it done.
pub struct Working(Arc<InFlight>);

impl InFlight {
    pub fn new() -> Arc<InFlight> {
        Arc::new(InFlight::default())
    }

    /// Starts a piece of work, unless the app is shutting down.
    pub fn start(self: &Arc<Self>) -> Option<Working> {
        self.count.fetch_add(1, Ordering::SeqCst);
        if self.closed.load(Ordering::SeqCst) {
            self.finish();
            return None;
        }
        Some(Working(Arc::clone(self)))
    }

    fn finish(&self) {
        if self.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.idle.notify_waiters();
        }
    }

    pub fn active(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Waits until no work is under way (it may start again after).
    pub async fn idle(&self) {
        loop {
            let idle = self.idle.notified();
            if self.active() == 0 {
                return;
            }
            idle.await;
        }
    }

    /// Takes no more work and waits until the work under way is done, at most `limit`.
    /// Returns whether everything finished.
    pub async fn close_and_drain(&self, limit: Duration) -> bool {
        self.closed.store(true, Ordering::SeqCst);
        tokio::time::timeout(limit, self.idle()).await.is_ok()
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        self.0.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn draining_waits_for_started_work_and_refuses_new_work() {
        let work = InFlight::new();
        let a = work.start().expect("open");
        let waiter = {
            let work = Arc::clone(&work);
            tokio::spawn(async move { work.close_and_drain(Duration::from_secs(5)).await })
        };
        tokio::task::yield_now().await;
        // Closing: new work is refused while the old one goes on.
        while !work.closed.load(Ordering::SeqCst) {
            tokio::task::yield_now().await;
        }
        assert!(work.start().is_none());
        assert!(!waiter.is_finished());
        drop(a);
        assert!(waiter.await.unwrap());
        assert_eq!(work.active(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn draining_gives_up_after_the_limit() {
        let work = InFlight::new();
        let _stuck = work.start().expect("open");
        assert!(!work.close_and_drain(Duration::from_secs(10)).await);
    }
}
