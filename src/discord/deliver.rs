//! Delivering what the bot shows: every REST call that shows a game is retried on Discord's
//! transient failures (5xx, network errors, 429), with jittered exponential backoff. Moves are
//! applied once, in the store; only their delivery is repeated.
//!
//! serenity's own rate limiter waits out 429s, but it is off in proxy mode (it would bypass
//! the proxy), and it never retries a 5xx or a dropped connection: so the bot retries itself.
//! serenity 0.12 drops a 429's body and headers before we see the error (its `ErrorResponse`
//! keeps only `code`, `message` and `errors`), so `retry_after` cannot be read here: a 429 waits
//! at least [`RATE_LIMITED_WAIT`], more than the per-route resets Discord sends for
//! interaction endpoints, and backs off from there.

use crate::metrics::{self, DeliveryFailure};
use rand::Rng;
use serenity::all::HttpError;
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// Attempts per delivery, the first included.
pub const ATTEMPTS: u32 = 5;
/// The first wait after a 5xx or a network error; doubled each time.
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// The least wait after a 429 (see the module doc).
pub const RATE_LIMITED_WAIT: Duration = Duration::from_millis(1000);
/// No single wait is longer.
const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// Discord's JSON error code for an interaction that was already answered.
pub const ALREADY_ACKNOWLEDGED: isize = 40060;
/// Discord's JSON error code for an interaction (or its token) that is gone.
pub const UNKNOWN_INTERACTION: isize = 10062;
/// Discord's JSON error code for a message that no longer exists.
pub const UNKNOWN_MESSAGE: isize = 10008;

/// What a failed call means for the next attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Worth trying again after at least this long.
    Transient { at_least: Duration },
    /// Trying again cannot help (a 4xx other than 429, a bad request, a dead token).
    Final,
}

/// Classifies a serenity error.
pub fn classify(e: &serenity::Error) -> Failure {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            if status == 429 {
                Failure::Transient {
                    at_least: RATE_LIMITED_WAIT,
                }
            } else if status >= 500 {
                Failure::Transient {
                    at_least: Duration::ZERO,
                }
            } else {
                Failure::Final
            }
        }
        // The request never got an answer: connection refused or reset, timeout.
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => {
            Failure::Transient {
                at_least: Duration::ZERO,
            }
        }
        _ => Failure::Final,
    }
}

/// The reason a call failed, as the delivery metrics count it.
pub fn failure_reason(e: &serenity::Error) -> DeliveryFailure {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => match r.status_code.as_u16() {
            429 => DeliveryFailure::RateLimited,
            500.. => DeliveryFailure::ServerError,
            _ => DeliveryFailure::Final,
        },
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => {
            DeliveryFailure::Network
        }
        _ => DeliveryFailure::Final,
    }
}

/// The JSON error code of a Discord error answer, if the error is one.
pub fn json_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// The wait before attempt `attempt` (1 = the first retry): exponential with full jitter
/// above half, at least `at_least`.
pub fn backoff(attempt: u32, at_least: Duration) -> Duration {
    let base = FIRST_BACKOFF
        .saturating_mul(1 << attempt.saturating_sub(1).min(8))
        .min(MAX_BACKOFF);
    let jittered = base.mul_f64(rand::thread_rng().gen_range(0.5..1.0));
    jittered.max(at_least).min(MAX_BACKOFF.max(at_least))
}

/// Runs `call` until it succeeds, fails for good, runs out of attempts, or the next wait would
/// end after `deadline` (an interaction callback is useless after Discord's 3 s).
pub async fn with_retries<T, F, Fut>(
    what: &str,
    deadline: Option<Instant>,
    mut call: F,
) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        let e = match call().await {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let at_least = match classify(&e) {
            Failure::Transient { at_least } if attempt < ATTEMPTS => at_least,
            _ => {
                // A retry finding its first attempt had landed is no failure.
                if json_code(&e) != Some(ALREADY_ACKNOWLEDGED) {
                    metrics::delivery_failed(failure_reason(&e));
                }
                return Err(e);
            }
        };
        let wait = backoff(attempt, at_least);
        if deadline.is_some_and(|d| Instant::now() + wait >= d) {
            tracing::warn!("{what}: giving up before the deadline: {e}");
            metrics::delivery_failed(DeliveryFailure::Deadline);
            return Err(e);
        }
        metrics::delivery_retried(failure_reason(&e));
        tracing::info!(
            "{what}: attempt {attempt} failed ({e}); again in {} ms",
            wait.as_millis()
        );
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_respects_the_floor() {
        for attempt in 1..6 {
            let d = backoff(attempt, Duration::ZERO);
            let base = FIRST_BACKOFF * (1 << (attempt - 1));
            assert!(
                d >= base / 2 && d <= base.min(MAX_BACKOFF),
                "{attempt}: {d:?}"
            );
        }
        assert!(backoff(1, RATE_LIMITED_WAIT) >= RATE_LIMITED_WAIT);
        assert!(backoff(30, Duration::ZERO) <= MAX_BACKOFF);
    }

    #[tokio::test(start_paused = true)]
    async fn transient_failures_are_retried_and_final_ones_are_not() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let calls = AtomicU32::new(0);
        let io = || serenity::Error::Io(std::io::Error::other("reset"));
        let r: serenity::Result<u32> = with_retries("test", None, || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if n < 2 {
                    Err(io())
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(r.unwrap(), 2);
        assert_eq!(calls.load(Ordering::SeqCst), 3);

        let calls = AtomicU32::new(0);
        let r: serenity::Result<()> = with_retries("test", None, || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(serenity::Error::Other("bad request")) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);

        // Out of time: one attempt, no wait past the deadline.
        let calls = AtomicU32::new(0);
        let deadline = Instant::now() + Duration::from_millis(10);
        let r: serenity::Result<()> = with_retries("test", Some(deadline), || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(io()) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
