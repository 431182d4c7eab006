//! Rate limits, as token buckets: a bucket holds at most `burst` requests and refills at
//! `per_second`; a request takes one, and when none is left it is refused with the time until
//! one is back (the answer's `Retry-After`).
//!
//! - [`PerKey`]: requests carrying a key, [`KEY_RATE`] each. A page asks for its state once
//!   per change and sends a move now and then, far below; a script hammering the app with one
//!   key is refused (429).
//! - [`SignIns`]: the Activity's sign-ins (`POST /board/session`), each of which costs a call
//!   to Discord's token endpoint. Nobody is known before that call, and the client's address
//!   tells nothing: every Activity request reaches the server through Discord's proxy, so all
//!   players share its few addresses. Hence one bucket for all sign-ins (the setting
//!   [`SIGN_INS_ENV`]) and one per channel the page names ([`CHANNEL_SIGN_INS`]), so that a
//!   page stuck in a loop in one channel cannot spend every other channel's share. A refused
//!   sign-in takes from neither bucket and costs Discord nothing. When Discord itself says
//!   to wait (429 with its `retry_after`), every sign-in waits that long without asking.
//!
//! Keys and channels are kept in memory only, and only as long as their bucket is not full
//! again.

use crate::app::settings::BadSetting;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A bucket's size and refill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Requests at once.
    pub burst: f64,
    /// Requests each second, over time.
    pub per_second: f64,
}

/// Requests a key may make: 20 at once, 2 a second after that.
pub const KEY_RATE: Rate = Rate {
    burst: 20.0,
    per_second: 2.0,
};
/// Sign-ins the Activity's page may start in one channel: 10 at once (the two players and
/// some watchers opening it together), then one every 6 s.
pub const CHANNEL_SIGN_INS: Rate = Rate {
    burst: 10.0,
    per_second: 1.0 / 6.0,
};
/// The setting for sign-ins in all channels together, a minute.
pub const SIGN_INS_ENV: &str = "DAMAS_ACTIVITY_SIGN_INS";
/// Its default: a minute's worth at once, one a second over time.
pub const DEFAULT_SIGN_INS_PER_MINUTE: u32 = 60;
/// Above this many keys tracked, full buckets are forgotten.
const TIDY_ABOVE: usize = 4_096;

/// Tokens left, and when they were last counted.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(rate: Rate, now: Instant) -> Bucket {
        Bucket {
            tokens: rate.burst,
            at: now,
        }
    }

    /// The bucket as it stands at `now`.
    fn refilled(self, rate: Rate, now: Instant) -> Bucket {
        let grown = now.saturating_duration_since(self.at).as_secs_f64() * rate.per_second;
        Bucket {
            tokens: (self.tokens + grown).min(rate.burst),
            at: now.max(self.at),
        }
    }

    /// How long until a request may take a token from this (refilled) bucket: zero when one
    /// is there.
    fn wait(&self, rate: Rate) -> Duration {
        if self.tokens >= 1.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((1.0 - self.tokens) / rate.per_second)
        }
    }

    fn is_full(&self, rate: Rate) -> bool {
        self.tokens >= rate.burst
    }
}

/// A bucket per key, all of one rate.
pub struct PerKey {
    rate: Rate,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Default for PerKey {
    fn default() -> PerKey {
        PerKey::new(KEY_RATE)
    }
}

impl PerKey {
    pub fn new(rate: Rate) -> PerKey {
        PerKey {
            rate,
            buckets: Mutex::default(),
        }
    }

    /// Whether a request with `key` may go on now (and counts it); if not, how long until it
    /// may.
    pub fn allow(&self, key: &str) -> Result<(), Duration> {
        self.allow_at(key, Instant::now())
    }

    /// Whether a request with `key` may go on at `now` (then it counts; a refusal takes
    /// nothing).
    fn allow_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let rate = self.rate;
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > TIDY_ABOVE {
            buckets.retain(|_, b| !b.refilled(rate, now).is_full(rate));
        }
        let bucket = buckets
            .get(key)
            .map_or(Bucket::full(rate, now), |b| b.refilled(rate, now));
        let wait = bucket.wait(rate);
        if !wait.is_zero() {
            return Err(wait);
        }
        buckets.insert(
            key.to_string(),
            Bucket {
                tokens: bucket.tokens - 1.0,
                at: bucket.at,
            },
        );
        Ok(())
    }
}

/// Why a sign-in may not go on now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInWait {
    /// Past this server's limits (all channels', or the channel's): wait this long.
    Limited(Duration),
    /// Discord said to wait (its 429): this much longer.
    Discord(Duration),
}

/// The limits of the Activity's sign-ins: see the module's documentation.
pub struct SignIns {
    all_rate: Rate,
    all: Mutex<Option<Bucket>>,
    channels: PerKey,
    /// Until when Discord asked us to make no call.
    discord_until: Mutex<Option<Instant>>,
}

impl SignIns {
    /// At most `per_minute` sign-ins a minute in all (that many at once), and
    /// [`CHANNEL_SIGN_INS`] in each channel.
    pub fn new(per_minute: u32) -> SignIns {
        SignIns {
            all_rate: Rate {
                burst: f64::from(per_minute),
                per_second: f64::from(per_minute) / 60.0,
            },
            all: Mutex::default(),
            channels: PerKey::new(CHANNEL_SIGN_INS),
            discord_until: Mutex::default(),
        }
    }

    /// Reads [`SIGN_INS_ENV`]: a whole number of sign-ins a minute, at least 1.
    pub fn per_minute_from_vars(var: impl Fn(&str) -> Option<String>) -> Result<u32, BadSetting> {
        let Some(value) = var(SIGN_INS_ENV).filter(|v| !v.trim().is_empty()) else {
            return Ok(DEFAULT_SIGN_INS_PER_MINUTE);
        };
        value
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| BadSetting {
                variable: SIGN_INS_ENV,
                problem: format!(
                    "must be how many sign-ins to the Activity a minute, a whole number of at least 1 (like {DEFAULT_SIGN_INS_PER_MINUTE}), not {value:?}"
                ),
            })
    }

    /// Whether a sign-in in `channel` may ask Discord now (and counts it in both buckets).
    pub fn admit(&self, channel: u64) -> Result<(), SignInWait> {
        self.admit_at(channel, Instant::now())
    }

    fn admit_at(&self, channel: u64, now: Instant) -> Result<(), SignInWait> {
        if let Some(until) = *self.discord_until.lock().unwrap_or_else(|p| p.into_inner()) {
            if until > now {
                return Err(SignInWait::Discord(until - now));
            }
        }
        let rate = self.all_rate;
        let mut all = self.all.lock().unwrap_or_else(|p| p.into_inner());
        let bucket = all.unwrap_or(Bucket::full(rate, now)).refilled(rate, now);
        let wait = bucket.wait(rate);
        if !wait.is_zero() {
            return Err(SignInWait::Limited(wait));
        }
        self.channels
            .allow_at(&channel.to_string(), now)
            .map_err(SignInWait::Limited)?;
        *all = Some(Bucket {
            tokens: bucket.tokens - 1.0,
            at: bucket.at,
        });
        Ok(())
    }

    /// Discord answered 429: no sign-in asks it again for `wait`.
    pub fn discord_said_wait(&self, wait: Duration) {
        self.discord_said_wait_at(wait, Instant::now());
    }

    fn discord_said_wait_at(&self, wait: Duration, now: Instant) {
        let mut until = self.discord_until.lock().unwrap_or_else(|p| p.into_inner());
        let asked = now + wait;
        *until = Some(until.map_or(asked, |u| u.max(asked)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_burst_then_its_rate_and_others_are_apart() {
        let limits = PerKey::default();
        let t0 = Instant::now();
        for i in 0..KEY_RATE.burst as usize {
            assert!(limits.allow_at("a", t0).is_ok(), "request {i}");
        }
        let wait = limits.allow_at("a", t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs_f64(1.0 / KEY_RATE.per_second));
        assert!(
            limits.allow_at("b", t0).is_ok(),
            "another key has its own bucket"
        );
        let later = t0 + wait;
        assert!(limits.allow_at("a", later).is_ok());
        assert!(limits.allow_at("a", later).is_err());
    }

    #[test]
    fn sign_ins_are_limited_in_all_and_per_channel_and_a_refusal_takes_nothing() {
        let t0 = Instant::now();
        // All channels together: 3 at once, then one every 20 s.
        let limits = SignIns::new(3);
        for channel in 1..=3 {
            assert_eq!(limits.admit_at(channel, t0), Ok(()));
        }
        assert_eq!(
            limits.admit_at(4, t0),
            Err(SignInWait::Limited(Duration::from_secs(20)))
        );
        assert_eq!(limits.admit_at(4, t0 + Duration::from_secs(20)), Ok(()));

        // One channel: its own burst, while the others still get theirs.
        let limits = SignIns::new(1_000);
        let burst = CHANNEL_SIGN_INS.burst as usize;
        for _ in 0..burst {
            assert_eq!(limits.admit_at(7, t0), Ok(()));
        }
        let Err(SignInWait::Limited(wait)) = limits.admit_at(7, t0) else {
            panic!("the channel's burst is spent");
        };
        assert_eq!(wait, Duration::from_secs(6));
        assert_eq!(limits.admit_at(8, t0), Ok(()));
        // Refused in channel 7, the sign-ins took nothing from all channels' bucket: 1,000
        // minus the 11 admitted are left.
        for _ in 0..100 {
            assert!(limits.admit_at(7, t0).is_err());
        }
        let mut admitted = 0;
        while limits.admit_at(10_000 + admitted, t0).is_ok() {
            admitted += 1;
        }
        assert_eq!(admitted as usize, 1_000 - burst - 1);
    }

    #[test]
    fn discord_asking_to_wait_holds_every_sign_in_that_long() {
        let t0 = Instant::now();
        let limits = SignIns::new(60);
        limits.discord_said_wait_at(Duration::from_secs(30), t0);
        assert_eq!(
            limits.admit_at(1, t0 + Duration::from_secs(10)),
            Err(SignInWait::Discord(Duration::from_secs(20)))
        );
        // A shorter wait said later does not shorten it.
        limits.discord_said_wait_at(Duration::from_secs(1), t0);
        assert!(limits.admit_at(2, t0 + Duration::from_secs(29)).is_err());
        assert_eq!(limits.admit_at(1, t0 + Duration::from_secs(30)), Ok(()));
    }

    #[test]
    fn the_setting_is_a_whole_number_of_at_least_one() {
        let read = |value: Option<&str>| {
            SignIns::per_minute_from_vars(|name| {
                assert_eq!(name, SIGN_INS_ENV);
                value.map(str::to_string)
            })
        };
        assert_eq!(read(None), Ok(DEFAULT_SIGN_INS_PER_MINUTE));
        assert_eq!(read(Some(" ")), Ok(DEFAULT_SIGN_INS_PER_MINUTE));
        assert_eq!(read(Some(" 5 ")), Ok(5));
        for bad in ["0", "-1", "1.5", "many"] {
            let e = read(Some(bad)).unwrap_err();
            assert_eq!(e.variable, SIGN_INS_ENV);
            assert!(e.problem.contains(bad), "{}", e.problem);
        }
    }
}
