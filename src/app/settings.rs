//! The app's one configuration: every limit an operator tunes, read from the environment by
//! the front end (time per move, Expert's time a move, how often the sweeper runs, how long a
//! challenge stays open, the search pool's size, how long PostgreSQL is waited for, the caps
//! per person and per bot), and what only tests and the console set (the bot's seed).
//! [`crate::app::boot::boot`] builds the app from it for every front end.
//! Durations are written like `90s`, `15m`, `3d`; a bad value names its variable.

use crate::ai::Level;
use crate::store::DbTimeouts;
use std::time::Duration;

/// One setting that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{variable} {problem}")]
pub struct BadSetting {
    pub variable: &'static str,
    pub problem: String,
}

/// The limits of one bot process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `DAMAS_MOVE_TIME`: a person's time for each move before losing on time.
    pub move_time: Duration,
    /// `DAMAS_EXPERT_TIME`: Expert's thinking time a move (the pool shortens it while other
    /// searches wait). Its default is the level's own ([`Level::default_time`]).
    pub expert_time: Duration,
    /// Fixed seed for the bot's randomness (tests, the console's `--seed`); random when
    /// `None`. No variable sets it: a bot serving people plays unpredictably.
    pub bot_seed: Option<u64>,
    /// `DAMAS_SWEEP_EVERY`: how often reminders, losses on time and expired challenges are
    /// looked for.
    pub sweep_every: Duration,
    /// `DAMAS_CHALLENGE_TTL`: how long a challenge waits for its answer.
    pub challenge_ttl: Duration,
    /// `DAMAS_SEARCH_THREADS`: threads searching the bot's moves.
    pub search_threads: usize,
    /// `DAMAS_SEARCH_MEMORY_MB`: the search pool's transposition tables, in all.
    pub search_memory_mb: usize,
    /// `DAMAS_FILE_FETCH_TIME`: how long fetching a file attached to a command (a PDN for
    /// `/review`) may take.
    pub file_fetch_time: Duration,
    /// `DAMAS_DB_CONNECT_TIMEOUT`, `DAMAS_DB_STATEMENT_TIMEOUT`, `DAMAS_DB_POOL_WAIT`: how
    /// long PostgreSQL is waited for.
    pub db_timeouts: DbTimeouts,
    /// `DAMAS_MAX_BOT_GAMES`: games against the bot one person may have under way at once.
    pub max_bot_games: usize,
    /// `DAMAS_MAX_CHALLENGES`: open challenges one person may have made at once.
    pub max_challenges: usize,
    /// `DAMAS_MAX_REVIEWS`: reviews being made at once, for everyone (one per person).
    pub max_reviews: usize,
    /// Positions a review searches again more deeply, at most ([`ReviewOptions`]'s
    /// `deep_positions`). No variable sets it: tests lower it to keep their CPU small.
    ///
    /// [`ReviewOptions`]: crate::ai::ReviewOptions
    pub review_deep_positions: usize,
    /// `DAMAS_SEARCH_QUEUE`: searches waiting beyond which new games against the bot,
    /// reviews and replays are refused ("the bot is busy"); the bot's moves in games under
    /// way are never refused.
    pub search_queue: usize,
    /// `DAMAS_KEEP_GAMES_DAYS`: days a finished game is kept before the sweeper removes it
    /// (`store::retention`); `None` (`off`) keeps games for ever.
    pub keep_games_days: Option<u32>,
    /// `DAMAS_PRIVACY_URL`: where the operator publishes their privacy statement, linked
    /// from `/help`; `None`: `/help` names `/my-data` and `/forget-me` only.
    pub privacy_url: Option<String>,
    /// `DAMAS_PUBLIC_URL`, `DAMAS_WEB_SECRET`, `DAMAS_WEB_LINK_TTL`: the board page's links,
    /// when it is set up.
    pub board_links: Option<super::board_page::BoardLinks>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            move_time: Duration::from_millis(crate::store::DEFAULT_MOVE_TIME_MS),
            expert_time: EXPERT_DEFAULT_TIME,
            bot_seed: None,
            sweep_every: Duration::from_secs(60),
            challenge_ttl: Duration::from_secs(15 * 60),
            search_threads: crate::ai::SearchPool::default_threads(),
            search_memory_mb: 256,
            file_fetch_time: Duration::from_secs(10),
            db_timeouts: DbTimeouts::default(),
            max_bot_games: DEFAULT_MAX_BOT_GAMES,
            max_challenges: DEFAULT_MAX_CHALLENGES,
            max_reviews: DEFAULT_MAX_REVIEWS,
            review_deep_positions: crate::ai::DEEP_POSITIONS,
            search_queue: DEFAULT_SEARCH_QUEUE,
            keep_games_days: Some(DEFAULT_KEEP_GAMES_DAYS),
            privacy_url: None,
            board_links: None,
        }
    }
}

/// Expert's own clock ([`Level::default_time`]): the one place its default time is written.
const EXPERT_DEFAULT_TIME: Duration = match Level::Expert.default_time() {
    Some(t) => t,
    None => panic!("Expert plays on a clock"),
};

/// Enough for a game in a few channels or threads at once; each waits for searches.
pub const DEFAULT_MAX_BOT_GAMES: usize = 3;
/// Each challenge pings someone: a handful at once is plenty.
pub const DEFAULT_MAX_CHALLENGES: usize = 3;
/// A review searches every position at hard's budget, then a few again much more deeply
/// (half a minute of CPU), after every bot move: two at once on a small machine.
pub const DEFAULT_MAX_REVIEWS: usize = 2;
/// Above the load benchmark's peak (90 games against the bot started at once), far below
/// what would keep a move waiting for minutes.
pub const DEFAULT_SEARCH_QUEUE: usize = 128;

/// A year: long enough to look back on a season's games and their PDN, short enough that
/// nobody's games stay for ever by default. Ratings and records outlive it.
pub const DEFAULT_KEEP_GAMES_DAYS: u32 = 365;
/// A hundred years: the most `DAMAS_KEEP_GAMES_DAYS` takes (`off` is for ever).
pub const MAX_KEEP_GAMES_DAYS: u32 = 36_500;

/// Reads `DAMAS_KEEP_GAMES_DAYS`: a whole number of days, or `off` (`None`: kept for ever).
pub fn parse_keep_days(text: &str) -> Result<Option<u32>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    t.parse::<u32>()
        .ok()
        .filter(|d| (1..=MAX_KEEP_GAMES_DAYS).contains(d))
        .map(Some)
        .ok_or_else(|| {
            format!("must be a whole number of days from 1 to {MAX_KEEP_GAMES_DAYS}, or off, not {text:?}")
        })
}

/// Reads `DAMAS_PRIVACY_URL`: an `https://` (or `http://`) address, shown as it is.
pub fn parse_privacy_url(text: &str) -> Result<String, String> {
    let t = text.trim();
    match url::Url::parse(t) {
        Ok(u) if matches!(u.scheme(), "https" | "http") && u.has_host() => Ok(t.to_string()),
        _ => Err(format!(
            "must be a web address like https://example.org/damas/privacy, not {text:?}"
        )),
    }
}

/// Reads `90s`, `15m`, `3h`, `3d` (a whole number and a unit).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("needs a unit: s, m, h or d (like 90s, 15m, 3d), not {text:?}"))?;
    let (number, unit) = t.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("must start with a whole number (like 90s, 15m, 3d), not {text:?}"))?;
    let seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "has an unknown unit {unit:?}: use s, m, h or d, not {text:?}"
            ))
        }
    };
    if n == 0 {
        return Err(format!("must be more than zero, not {text:?}"));
    }
    n.checked_mul(seconds)
        .map(Duration::from_secs)
        .ok_or_else(|| format!("is too long: {text:?}"))
}

impl Settings {
    /// The longest a store check may take: a connection, a pool slot and a statement.
    pub fn store_check_time(&self) -> std::time::Duration {
        let t = &self.db_timeouts;
        t.connect + t.pool_wait + t.statement
    }

    /// Reads the settings from a source of variables (the environment); unset ones keep
    /// their defaults.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, BadSetting> {
        let mut s = Settings::default();
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let duration = |variable: &'static str, into: &mut Duration| {
            if let Some(v) = set(variable) {
                *into = parse_duration(&v).map_err(|problem| BadSetting { variable, problem })?;
            }
            Ok::<(), BadSetting>(())
        };
        duration("DAMAS_MOVE_TIME", &mut s.move_time)?;
        duration("DAMAS_EXPERT_TIME", &mut s.expert_time)?;
        duration("DAMAS_SWEEP_EVERY", &mut s.sweep_every)?;
        duration("DAMAS_CHALLENGE_TTL", &mut s.challenge_ttl)?;
        duration("DAMAS_FILE_FETCH_TIME", &mut s.file_fetch_time)?;
        duration("DAMAS_DB_CONNECT_TIMEOUT", &mut s.db_timeouts.connect)?;
        duration("DAMAS_DB_STATEMENT_TIMEOUT", &mut s.db_timeouts.statement)?;
        duration("DAMAS_DB_POOL_WAIT", &mut s.db_timeouts.pool_wait)?;
        let count = |variable: &'static str, into: &mut usize, max: usize| {
            if let Some(v) = set(variable) {
                *into = v
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| BadSetting {
                        variable,
                        problem: format!("must be a whole number from 1 to {max}, not {v:?}"),
                    })?;
            }
            Ok::<(), BadSetting>(())
        };
        count("DAMAS_SEARCH_THREADS", &mut s.search_threads, 256)?;
        count("DAMAS_SEARCH_MEMORY_MB", &mut s.search_memory_mb, 65_536)?;
        count("DAMAS_MAX_BOT_GAMES", &mut s.max_bot_games, 1_000)?;
        count("DAMAS_MAX_CHALLENGES", &mut s.max_challenges, 1_000)?;
        count("DAMAS_MAX_REVIEWS", &mut s.max_reviews, 1_000)?;
        count("DAMAS_SEARCH_QUEUE", &mut s.search_queue, 100_000)?;
        if let Some(v) = set("DAMAS_KEEP_GAMES_DAYS") {
            s.keep_games_days = parse_keep_days(&v).map_err(|problem| BadSetting {
                variable: "DAMAS_KEEP_GAMES_DAYS",
                problem,
            })?;
        }
        if let Some(v) = set("DAMAS_PRIVACY_URL") {
            s.privacy_url = Some(parse_privacy_url(&v).map_err(|problem| BadSetting {
                variable: "DAMAS_PRIVACY_URL",
                problem,
            })?);
        }
        s.board_links = super::board_page::BoardLinks::from_vars(&var)?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(vars: &[(&str, &str)]) -> Result<Settings, BadSetting> {
        Settings::from_vars(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn durations_read_as_written() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_duration(" 3d "), Ok(Duration::from_secs(3 * 86_400)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        for bad in [
            "",
            "90",
            "s",
            "1.5h",
            "-3d",
            "3w",
            "0s",
            "3 d",
            "99999999999999999999d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn settings_name_the_bad_variable() {
        assert_eq!(from(&[]).unwrap(), Settings::default());
        let s = from(&[("DAMAS_MOVE_TIME", "2s"), ("DAMAS_SEARCH_THREADS", "3")]).unwrap();
        assert_eq!(s.move_time, Duration::from_secs(2));
        assert_eq!(s.search_threads, 3);
        assert_eq!(
            from(&[]).unwrap().expert_time,
            Level::Expert.default_time().unwrap_or_default()
        );
        let s = from(&[("DAMAS_EXPERT_TIME", "5s")]).unwrap();
        assert_eq!(s.expert_time, Duration::from_secs(5));
        assert_eq!(s.bot_seed, None, "no variable seeds the bot");
        let s = from(&[("DAMAS_DB_STATEMENT_TIMEOUT", "2s")]).unwrap();
        assert_eq!(s.db_timeouts.statement, Duration::from_secs(2));
        assert_eq!(s.db_timeouts.connect, DbTimeouts::default().connect);
        for (var, value) in [
            ("DAMAS_MOVE_TIME", "3"),
            ("DAMAS_EXPERT_TIME", "2"),
            ("DAMAS_EXPERT_TIME", "0s"),
            ("DAMAS_SWEEP_EVERY", "fast"),
            ("DAMAS_CHALLENGE_TTL", "0m"),
            ("DAMAS_SEARCH_THREADS", "0"),
            ("DAMAS_SEARCH_MEMORY_MB", "lots"),
            ("DAMAS_DB_CONNECT_TIMEOUT", "5"),
            ("DAMAS_DB_STATEMENT_TIMEOUT", "0s"),
            ("DAMAS_DB_POOL_WAIT", "soon"),
            ("DAMAS_MAX_BOT_GAMES", "0"),
            ("DAMAS_MAX_CHALLENGES", "-1"),
            ("DAMAS_MAX_REVIEWS", "two"),
            ("DAMAS_SEARCH_QUEUE", "100001"),
            ("DAMAS_KEEP_GAMES_DAYS", "0"),
            ("DAMAS_KEEP_GAMES_DAYS", "365d"),
            ("DAMAS_KEEP_GAMES_DAYS", "never"),
            ("DAMAS_KEEP_GAMES_DAYS", "36501"),
            ("DAMAS_PRIVACY_URL", "docs/PRIVACY.md"),
            ("DAMAS_PRIVACY_URL", "javascript:alert(1)"),
            ("DAMAS_PRIVACY_URL", "ftp://example.org/privacy"),
        ] {
            let e = from(&[(var, value)]).unwrap_err();
            assert_eq!(e.variable, var);
            assert!(e.to_string().starts_with(var), "{e}");
        }
    }

    #[test]
    fn games_are_kept_a_year_unless_told_otherwise() {
        assert_eq!(from(&[]).unwrap().keep_games_days, Some(365));
        let days = |v: &str| from(&[("DAMAS_KEEP_GAMES_DAYS", v)]).map(|s| s.keep_games_days);
        assert_eq!(days("30"), Ok(Some(30)));
        assert_eq!(days("off"), Ok(None));
        assert_eq!(days(" OFF "), Ok(None));
        assert_eq!(from(&[]).unwrap().privacy_url, None);
        let url = "https://example.org/damas/privacy";
        let s = from(&[("DAMAS_PRIVACY_URL", url)]).unwrap();
        assert_eq!(s.privacy_url.as_deref(), Some(url));
    }
}
