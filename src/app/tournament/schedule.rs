//! When a tournament starts by itself: `/tournament create start:…` read into a time. Pure: the
//! caller gives the time it is now.
//!
//! Two forms, both in UTC so that everyone reads the same instant whatever their clock:
//! a date and time (`2026-12-05 18:00`, also with a `T` between them or `UTC` after), or a
//! time from now (`in 2h`, `in 90m`, `in 3d`; Spanish `en 2h`; or just `2h`).

use chrono::NaiveDateTime;

/// The furthest ahead a start may be set: far enough for a club's next season, near enough
/// that a slip of the keyboard (`in 900d`) is caught.
pub const START_LIMIT_DAYS: u64 = 90;

const MINUTE_MS: u64 = 60_000;
const DAY_MS: u64 = 24 * 60 * MINUTE_MS;

/// Why a start time was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadStart {
    /// Neither form.
    Unreadable,
    /// Now or before now.
    Past,
    /// More than [`START_LIMIT_DAYS`] ahead.
    TooFar,
}

/// The instant `text` names, in ms since the epoch, given that it is `now_ms`.
pub fn parse_start(text: &str, now_ms: u64) -> Result<u64, BadStart> {
    let text = text.trim();
    let at = match relative_ms(text) {
        Some(after) => now_ms.checked_add(after).ok_or(BadStart::TooFar)?,
        None => absolute_ms(text).ok_or(BadStart::Unreadable)?,
    };
    if at <= now_ms {
        return Err(BadStart::Past);
    }
    if at - now_ms > START_LIMIT_DAYS * DAY_MS {
        return Err(BadStart::TooFar);
    }
    Ok(at)
}

/// `in 2h`, `en 90m`, `3d`: the time from now, in ms. A zero amount is read (and refused as
/// not in the future by the caller).
fn relative_ms(text: &str) -> Option<u64> {
    let lower = text.to_lowercase();
    let amount = ["in ", "en "]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower)
        .trim();
    let unit_at = amount.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = amount.split_at(unit_at);
    let count: u64 = digits.parse().ok()?;
    let unit_ms = match unit.trim() {
        "m" | "min" | "mins" | "minutes" | "minutos" => MINUTE_MS,
        "h" | "hour" | "hours" | "hora" | "horas" => 60 * MINUTE_MS,
        "d" | "day" | "days" | "día" | "días" | "dia" | "dias" => DAY_MS,
        _ => return None,
    };
    // Too many to count is too far ahead: the caller says so.
    Some(count.saturating_mul(unit_ms))
}

/// `2026-12-05 18:00` (UTC), also `2026-12-05T18:00`, with `UTC` or `Z` after or not.
fn absolute_ms(text: &str) -> Option<u64> {
    let bare = text
        .trim_end_matches(|c: char| c.is_whitespace())
        .strip_suffix("UTC")
        .or_else(|| text.strip_suffix('Z'))
        .unwrap_or(text)
        .trim();
    let at = ["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(bare, f).ok())?;
    u64::try_from(at.and_utc().timestamp_millis()).ok()
}

/// An instant as the announcements write it: `2026-12-05 18:00 UTC`.
pub fn start_text(at_ms: u64) -> String {
    match i64::try_from(at_ms)
        .ok()
        .and_then(chrono::DateTime::from_timestamp_millis)
    {
        Some(at) => at.format("%Y-%m-%d %H:%M UTC").to_string(),
        None => String::new(),
    }
}
