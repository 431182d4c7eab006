//! Which gateway shards this process runs, and which games belong to a shard.
//!
//! Discord delivers a server's events on shard `(guild_id >> 22) % shard_count` and direct
//! messages on shard 0. One process may run every shard Discord recommends (the default), or a
//! range of them (`DISCORD_SHARDS=first-last` with `DISCORD_SHARD_COUNT=total`), so that N
//! processes share the gateway.

use super::BotError;

/// The shards this process connects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardPlan {
    /// As many as `GET /gateway/bot` recommends, all in this process.
    Recommended,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl ShardPlan {
    /// Reads `DISCORD_SHARDS` and `DISCORD_SHARD_COUNT` (both or neither).
    pub fn from_vars(shards: Option<String>, count: Option<String>) -> Result<ShardPlan, BotError> {
        let bad =
            |variable: &'static str, problem: String| BotError::BadSetting { variable, problem };
        let (shards, count) = match (shards, count) {
            (None, None) => return Ok(ShardPlan::Recommended),
            (Some(_), None) => {
                return Err(bad(
                    "DISCORD_SHARD_COUNT",
                    "must be set with DISCORD_SHARDS: the total number of shards of the bot".into(),
                ))
            }
            (None, Some(_)) => {
                return Err(bad(
                    "DISCORD_SHARDS",
                    "must be set with DISCORD_SHARD_COUNT: the range this process runs, like 0-3"
                        .into(),
                ))
            }
            (Some(s), Some(c)) => (s, c),
        };
        let total = match count.trim().parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(bad(
                    "DISCORD_SHARD_COUNT",
                    format!("must be a whole number of shards, at least 1, not {count:?}"),
                ))
            }
        };
        let range = || {
            let (first, last) = shards.trim().split_once('-')?;
            Some((
                first.trim().parse::<u32>().ok()?,
                last.trim().parse::<u32>().ok()?,
            ))
        };
        let Some((first, last)) = range() else {
            return Err(bad(
                "DISCORD_SHARDS",
                format!("must be a range first-last of shard ids, like 0-3, not {shards:?}"),
            ));
        };
        if first > last || last >= total {
            return Err(bad(
                "DISCORD_SHARDS",
                format!(
                    "must be a range first-last with first <= last < DISCORD_SHARD_COUNT ({total}), not {shards:?}"
                ),
            ));
        }
        Ok(ShardPlan::Range { first, last, total })
    }
}

/// The shard a game's events arrive on: its server's shard, or shard 0 outside a server.
pub fn shard_of(guild_id: Option<u64>, shard_count: u32) -> u32 {
    match guild_id {
        Some(g) if shard_count > 1 => ((g >> 22) % u64::from(shard_count)) as u32,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(shards: Option<&str>, count: Option<&str>) -> Result<ShardPlan, BotError> {
        ShardPlan::from_vars(shards.map(String::from), count.map(String::from))
    }

    fn variable(r: Result<ShardPlan, BotError>) -> &'static str {
        match r {
            Err(BotError::BadSetting { variable, .. }) => variable,
            other => panic!("expected a bad setting, got {other:?}"),
        }
    }

    #[test]
    fn ranges_are_inclusive_and_checked_against_the_count() {
        assert_eq!(plan(None, None).unwrap(), ShardPlan::Recommended);
        assert_eq!(
            plan(Some("2-3"), Some("4")).unwrap(),
            ShardPlan::Range {
                first: 2,
                last: 3,
                total: 4
            }
        );
        assert_eq!(
            plan(Some(" 0 - 0 "), Some("1")).unwrap(),
            ShardPlan::Range {
                first: 0,
                last: 0,
                total: 1
            }
        );
        for bad in ["3-2", "2-4", "x-3", "2", "-1-3", "", "1-"] {
            assert_eq!(
                variable(plan(Some(bad), Some("4"))),
                "DISCORD_SHARDS",
                "{bad}"
            );
        }
        for bad in ["0", "-4", "four", "4.0"] {
            assert_eq!(
                variable(plan(Some("0-0"), Some(bad))),
                "DISCORD_SHARD_COUNT",
                "{bad}"
            );
        }
        assert_eq!(variable(plan(Some("0-1"), None)), "DISCORD_SHARD_COUNT");
        assert_eq!(variable(plan(None, Some("4"))), "DISCORD_SHARDS");
        let e = plan(Some("2-4"), Some("4")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn a_guild_belongs_to_the_shard_discord_sends_its_events_on() {
        // The example of Discord's documentation: this guild is on shard 4 of 16.
        assert_eq!(shard_of(Some(175928847299117063), 16), 4);
        assert_eq!(shard_of(Some(175928847299117063), 1), 0);
        for k in 0..4u64 {
            assert_eq!(shard_of(Some(k << 22), 4), k as u32);
            assert_eq!(shard_of(Some((k + 4) << 22 | 12345), 4), k as u32);
        }
        assert_eq!(shard_of(None, 4), 0);
    }
}
