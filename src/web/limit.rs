//! The rate limit of requests carrying a key: a token bucket per key, [`BURST`] requests at
//! once and [`PER_SECOND`] after that. A page asks for its state once per change and sends a
//! move now and then, far below; a script hammering the app with one key is refused (429).
//! Keys are kept in memory only, and only as long as their bucket is not full again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Requests a key may make at once.
pub const BURST: f64 = 20.0;
/// Requests a key may make each second, over time.
pub const PER_SECOND: f64 = 2.0;
/// Above this many keys tracked, full buckets are forgotten.
const TIDY_ABOVE: usize = 4_096;

#[derive(Default)]
pub struct PerKey {
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl PerKey {
    /// Whether a request with `key` may go on now (and counts it).
    pub fn allow(&self, key: &str) -> bool {
        self.allow_at(key, Instant::now())
    }

    fn allow_at(&self, key: &str, now: Instant) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > TIDY_ABOVE {
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_duration_since(*at).as_secs_f64() * PER_SECOND < BURST
            });
        }
        let (tokens, at) = buckets.entry(key.to_string()).or_insert((BURST, now));
        *tokens =
            (*tokens + now.saturating_duration_since(*at).as_secs_f64() * PER_SECOND).min(BURST);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_key_gets_its_burst_then_its_rate_and_others_are_apart() {
        let limits = PerKey::default();
        let t0 = Instant::now();
        for i in 0..BURST as usize {
            assert!(limits.allow_at("a", t0), "request {i}");
        }
        assert!(!limits.allow_at("a", t0));
        assert!(limits.allow_at("b", t0), "another key has its own bucket");
        let later = t0 + Duration::from_secs_f64(1.0 / PER_SECOND);
        assert!(limits.allow_at("a", later));
        assert!(!limits.allow_at("a", later));
    }
}
