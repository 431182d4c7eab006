//! Every interaction is acted on once, however often it arrives: a signed request captured
//! and posted again to `damas serve`, or the gateway delivering an event twice (a RESUME
//! replaying what was already handled). Commands and component clicks pass [`ReplayGuard`]
//! before anything is done; autocomplete only reads, and is not guarded.
//!
//! What is checked, and where:
//! - by HTTP, the signed `X-Signature-Timestamp` must be within [`REPLAY_WINDOW`] of this
//!   clock ([`timestamp_is_fresh`], in the endpoint): an older capture is refused whole;
//! - every interaction's id is remembered here for [`REMEMBERED_FOR`] (twice the window, for
//!   Discord's clock and ours to differ): a second arrival is refused. The memory is bounded
//!   ([`MAX_REMEMBERED`] ids): past it the oldest are forgotten and anything not newer than
//!   them is refused, so a forgotten id can never pass again;
//! - by HTTP, an interaction made before this process started listening (Discord's ids carry
//!   their creation time) cannot have been sent to it before, and an HTTP interaction older
//!   than what is remembered cannot be checked: both are refused;
//! - on PostgreSQL, processes share their sightings ([`Store::first_sighting`]): a replay
//!   posted to another process behind the same address is refused there too. sled has one
//!   process, whose memory and start time suffice.

use crate::app::{App, StoreError};
use serenity::all::Interaction;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A signed request's timestamp may differ from this clock by at most this much.
pub const REPLAY_WINDOW: Duration = Duration::from_secs(5 * 60);
/// How long an interaction is remembered.
pub const REMEMBERED_FOR: Duration = Duration::from_secs(2 * 5 * 60);
/// The most interaction ids remembered at once (about 40 bytes each).
pub const MAX_REMEMBERED: usize = 500_000;
/// An HTTP interaction made this long before the process started listening is still taken:
/// Discord's clock and this one may differ by that much.
const START_SLACK: Duration = Duration::from_secs(5);
/// Discord's ids count milliseconds from 2015-01-01.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Whether an `X-Signature-Timestamp` (seconds since 1970) is within [`REPLAY_WINDOW`] of
/// `now`. Empty, signed, fractional or otherwise malformed values are not.
pub fn timestamp_is_fresh(raw: &str, now: SystemTime) -> bool {
    if raw.is_empty() || raw.len() > 20 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let (Ok(sent), Ok(now)) = (raw.parse::<u64>(), now.duration_since(UNIX_EPOCH)) else {
        return false;
    };
    now.as_secs().abs_diff(sent) <= REPLAY_WINDOW.as_secs()
}

/// The smallest Discord id made at `at` or later.
fn first_id_at(at: SystemTime) -> u64 {
    let ms = at
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    ms.saturating_sub(DISCORD_EPOCH_MS) << 22
}

/// What to do with an interaction.
#[derive(Debug)]
pub enum Admission {
    /// Never seen: act on it.
    First,
    /// Seen before, or too old to tell: it was (or may have been) acted on. Do nothing.
    Repeat,
    /// The shared record could not be read: it is not known whether another process took it.
    /// Act on nothing; say so.
    Unsure(StoreError),
}

struct Seen {
    ids: BTreeSet<u64>,
    /// Ids up to this one are refused: forgotten to keep the memory bounded.
    forgotten_through: u64,
}

/// The interactions this process took (see the module doc).
pub struct ReplayGuard {
    seen: Mutex<Seen>,
    /// HTTP interactions made before this are refused.
    http_since: u64,
    app: App,
    limit: usize,
}

impl ReplayGuard {
    /// A guard for a process starting now, sharing its sightings through the app's store (on
    /// PostgreSQL).
    pub fn new(app: App) -> ReplayGuard {
        ReplayGuard::with_limit(app, MAX_REMEMBERED, SystemTime::now())
    }

    fn with_limit(app: App, limit: usize, started: SystemTime) -> ReplayGuard {
        ReplayGuard {
            seen: Mutex::new(Seen {
                ids: BTreeSet::new(),
                forgotten_through: 0,
            }),
            http_since: first_id_at(started.checked_sub(START_SLACK).unwrap_or(started)),
            app,
            limit,
        }
    }

    /// Decides about `interaction`, which came by HTTP (`over_http`) or over the gateway,
    /// and remembers it.
    pub fn admit(&self, interaction: &Interaction, over_http: bool) -> Admission {
        let id = match interaction {
            Interaction::Command(c) => c.id.get(),
            Interaction::Component(c) => c.id.get(),
            // Autocomplete and pings change nothing.
            _ => return Admission::First,
        };
        self.admit_id(id, over_http, SystemTime::now())
    }

    fn admit_id(&self, id: u64, over_http: bool, now: SystemTime) -> Admission {
        let oldest_kept = first_id_at(now.checked_sub(REMEMBERED_FOR).unwrap_or(now));
        {
            let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
            // What is older than the memory is forgotten (by HTTP it is refused below).
            seen.ids = seen.ids.split_off(&oldest_kept);
            if over_http && (id < oldest_kept || id < self.http_since) {
                return Admission::Repeat;
            }
            if id <= seen.forgotten_through || !seen.ids.insert(id) {
                return Admission::Repeat;
            }
            while seen.ids.len() > self.limit {
                if let Some(oldest) = seen.ids.pop_first() {
                    seen.forgotten_through = seen.forgotten_through.max(oldest);
                }
            }
        }
        match self.app.first_sighting(id) {
            Ok(Some(false)) => Admission::Repeat,
            Ok(Some(true) | None) => Admission::First,
            Err(e) => {
                // Another arrival may find the database back: it is not remembered here.
                self.seen
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .ids
                    .remove(&id);
                Admission::Unsure(e)
            }
        }
    }

    /// Forgets the shared sightings no replay can match any more (the sweeper, every pass).
    pub fn forget_old(&self) {
        if let Err(e) = self.app.forget_sightings(REMEMBERED_FOR) {
            tracing::warn!("could not forget old interactions: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> (tempfile::TempDir, App) {
        let dir = tempfile::tempdir().unwrap();
        let settings = crate::app::Settings {
            search_threads: 1,
            ..crate::app::Settings::default()
        };
        let app = crate::app::boot::boot(&dir.path().join("db"), settings).unwrap();
        (dir, app)
    }

    #[test]
    fn only_a_fresh_whole_number_of_seconds_is_a_timestamp() {
        let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert!(timestamp_is_fresh("1700000000", now));
        assert!(timestamp_is_fresh("1699999700", now));
        assert!(timestamp_is_fresh("1700000300", now));
        for stale in [
            "1699999699",
            "1700000301",
            "1",
            "0",
            "",
            "not-a-time",
            "+1700000000",
            "-1700000000",
            " 1700000000",
            "1700000000.5",
            "99999999999999999999999",
        ] {
            assert!(!timestamp_is_fresh(stale, now), "{stale:?}");
        }
    }

    #[test]
    fn an_interaction_is_taken_once() {
        let (_dir, app) = app();
        let now = SystemTime::now();
        let guard = ReplayGuard::with_limit(app, 100, now - Duration::from_secs(60));
        let id = first_id_at(now);
        for over_http in [false, true] {
            let id = id + u64::from(over_http);
            assert!(matches!(
                guard.admit_id(id, over_http, now),
                Admission::First
            ));
            assert!(matches!(
                guard.admit_id(id, over_http, now),
                Admission::Repeat
            ));
            assert!(matches!(
                guard.admit_id(id, !over_http, now),
                Admission::Repeat
            ));
        }
    }

    #[test]
    fn by_http_what_predates_the_process_or_the_memory_is_refused() {
        let (_dir, app) = app();
        let now = SystemTime::now();
        let started = now - Duration::from_secs(60);
        let guard = ReplayGuard::with_limit(app, 100, started);
        let before_start = first_id_at(started - Duration::from_secs(10));
        assert!(matches!(
            guard.admit_id(before_start, true, now),
            Admission::Repeat
        ));
        // The gateway's own duplicates are the only ones it can send: it is not held to the
        // clock.
        assert!(matches!(
            guard.admit_id(before_start, false, now),
            Admission::First
        ));
        let long_ago = now - REMEMBERED_FOR - Duration::from_secs(1);
        let guard =
            ReplayGuard::with_limit(guard.app.clone(), 100, long_ago - Duration::from_secs(60));
        let long_ago = first_id_at(long_ago);
        assert!(matches!(
            guard.admit_id(long_ago, true, now),
            Admission::Repeat
        ));
        assert!(matches!(
            guard.admit_id(first_id_at(started), true, now),
            Admission::First
        ));
    }

    #[test]
    fn the_memory_is_bounded_and_what_it_forgot_never_passes() {
        let (_dir, app) = app();
        let now = SystemTime::now();
        let guard = ReplayGuard::with_limit(app, 3, now - Duration::from_secs(60));
        let first = first_id_at(now - Duration::from_secs(30));
        for i in 0..10 {
            assert!(matches!(
                guard.admit_id(first + i, false, now),
                Admission::First
            ));
        }
        assert_eq!(guard.seen.lock().unwrap().ids.len(), 3);
        for i in 0..10 {
            assert!(matches!(
                guard.admit_id(first + i, false, now),
                Admission::Repeat
            ));
        }
        // Older than what is remembered: forgotten, and over HTTP refused.
        let later = now + REMEMBERED_FOR + Duration::from_secs(1);
        assert!(matches!(
            guard.admit_id(first, true, later),
            Admission::Repeat
        ));
        assert!(guard.seen.lock().unwrap().ids.is_empty());
    }
}
