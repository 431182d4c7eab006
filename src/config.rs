//! Every environment variable damas reads, in one list: its name, its default and what it is
//! for. The README's configuration table and `.env.example` are written from it, and a test
//! (`tests/app/settings_doc.rs`) keeps the three in step and fails on a `DAMAS_*` or
//! `DISCORD_*` name used in `src/` that is not listed here: a new setting cannot ship
//! undocumented.
//!
//! The code that reads each variable keeps its own constants (`store::DB_ENV`,
//! `ai::egdb::EGDB_ENV`, …) and parses it where it is used; this list only says what exists.

/// One environment variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The variable's name, like `DAMAS_MOVE_TIME`.
    pub name: &'static str,
    /// The default, as the README's table shows it: one value in backticks (`` `3d` ``),
    /// which `.env.example` then gives too, or words when there is none to write (unset, or
    /// computed where it runs).
    pub default: &'static str,
    /// What it is for, in one line of the README's table.
    pub what: &'static str,
}

impl Setting {
    /// The default as a value to write after `NAME=`, when it is one literal value (no
    /// variable in it, nothing computed).
    pub fn value(&self) -> Option<&'static str> {
        let inner = self.default.strip_prefix('`')?.strip_suffix('`')?;
        (!inner.contains('`') && !inner.contains('$')).then_some(inner)
    }

    /// The setting as a row of the README's configuration table.
    pub fn row(&self) -> String {
        format!("| `{}` | {} | {} |", self.name, self.default, self.what)
    }
}

/// Every variable damas reads, grouped as the README's table and `.env.example` group them.
pub const SETTINGS: &[Setting] = &[
    // Discord.
    Setting {
        name: "DISCORD_TOKEN",
        default: "none: required",
        what: "the bot's token (Developer Portal, your application, **Bot**, *Reset Token*); `damas bot` and `damas serve` need it, and it is never logged",
    },
    Setting {
        name: "DISCORD_PUBLIC_KEY",
        default: "none: required by `damas serve`",
        what: "the application's public key (**General Information**), to check that each HTTP request is Discord's",
    },
    Setting {
        name: "DISCORD_GUILD_ID",
        default: "unset",
        what: "register the slash commands in this one server only, at once (while trying the bot); unset: in every server, which can take up to an hour",
    },
    Setting {
        name: "DISCORD_API_PROXY",
        default: "unset",
        what: "a base URL every REST call goes to instead of discord.com, for a rate-limit proxy shared by several processes; `https://`, or `http://` only on this machine",
    },
    Setting {
        name: "DISCORD_SHARDS",
        default: "every shard",
        what: "the shards this process runs, like `0-3` (both ends included); set with `DISCORD_SHARD_COUNT`",
    },
    Setting {
        name: "DISCORD_SHARD_COUNT",
        default: "what Discord recommends",
        what: "the bot's number of shards in all, the same in every process",
    },
    // Where the data lives.
    Setting {
        name: "DAMAS_DATA",
        default: "`$XDG_DATA_HOME/damas`, else `~/.local/share/damas`",
        what: "the data folder: the sled database and the endgame tables (`./data` when there is no home folder)",
    },
    Setting {
        name: "DAMAS_DB",
        default: "`$DAMAS_DATA/damas.db`",
        what: "the database: a folder (sled, one process) or a `postgres://user:password@host/db` URL (many processes; TLS by its `sslmode`)",
    },
    Setting {
        name: "DAMAS_EGDB",
        default: "`$DAMAS_DATA/egdb`",
        what: "the endgame tables' folder; `damas bot` and `damas serve` build the missing tables there in the background on first start",
    },
    Setting {
        name: "DAMAS_EGDB_BUILD",
        default: "`on`",
        what: "`off`: `damas bot` and `damas serve` never build missing endgame tables (build them ahead with `damas egdb generate`, or keep a read-only folder)",
    },
    Setting {
        name: "DAMAS_PUZZLES",
        default: "unset: the built-in sets",
        what: "a folder whose `puzzles-spanish.txt`, `puzzles-portuguese.txt` and `puzzles-english.txt` replace the built-in puzzle sets",
    },
    // Time.
    Setting {
        name: "DAMAS_MOVE_TIME",
        default: "`3d`",
        what: "a person's time for each move (`/challenge days:` sets it per game); a reminder at half, a loss on time at the end",
    },
    Setting {
        name: "DAMAS_EXPERT_TIME",
        default: "`2s`",
        what: "Expert's thinking time a move, shortened while other searches wait",
    },
    Setting {
        name: "DAMAS_SWEEP_EVERY",
        default: "`60s`",
        what: "how often reminders, losses on time, expired challenges and owed bot moves are looked for",
    },
    Setting {
        name: "DAMAS_CHALLENGE_TTL",
        default: "`15m`",
        what: "how long a challenge waits for its answer",
    },
    Setting {
        name: "DAMAS_FILE_FETCH_TIME",
        default: "`10s`",
        what: "how long fetching a file attached to `/review` may take",
    },
    // The search.
    Setting {
        name: "DAMAS_SEARCH_THREADS",
        default: "cores − 1, at least 1",
        what: "threads of the search pool (at nice 10, so people's answers come first), and one more for easy and medium moves",
    },
    Setting {
        name: "DAMAS_SEARCH_MEMORY_MB",
        default: "`256`",
        what: "the search pool's transposition tables, in MB, in all",
    },
    Setting {
        name: "DAMAS_SEARCH_QUEUE",
        default: "`128`",
        what: "searches waiting beyond which new games against the bot, reviews and replay GIFs are refused (\"the bot is busy\"); moves of games under way never are",
    },
    // Limits per person.
    Setting {
        name: "DAMAS_MAX_BOT_GAMES",
        default: "`3`",
        what: "games against the bot one person may have under way at once",
    },
    Setting {
        name: "DAMAS_MAX_CHALLENGES",
        default: "`3`",
        what: "open challenges one person may have made at once",
    },
    Setting {
        name: "DAMAS_MAX_REVIEWS",
        default: "`2`",
        what: "`/review`s being made at once, for everyone (one per person in any case)",
    },
    // PostgreSQL.
    Setting {
        name: "DAMAS_DB_CONNECT_TIMEOUT",
        default: "`5s`",
        what: "PostgreSQL: a new connection (TCP, TLS, login)",
    },
    Setting {
        name: "DAMAS_DB_STATEMENT_TIMEOUT",
        default: "`5s`",
        what: "PostgreSQL: one statement (the server's `statement_timeout`; the bot gives up 1 s later)",
    },
    Setting {
        name: "DAMAS_DB_POOL_WAIT",
        default: "`5s`",
        what: "PostgreSQL: a free connection when all 16 of the process's are busy",
    },
    // Privacy.
    Setting {
        name: "DAMAS_KEEP_GAMES_DAYS",
        default: "`365`",
        what: "days a finished game (its moves, players and PDN) is kept before the sweeper removes it; ratings, records, leaderboards and tournament standings stay; `off` keeps games for ever ([docs/PRIVACY.md](docs/PRIVACY.md))",
    },
    Setting {
        name: "DAMAS_PRIVACY_URL",
        default: "unset",
        what: "the web address of your privacy statement (your copy of docs/PRIVACY.md), linked from `/help`; unset: `/help` names `/my-data` and `/forget-me` only",
    },
    // The board page.
    Setting {
        name: "DAMAS_PUBLIC_URL",
        default: "unset: no board page",
        what: "the board page's public base URL, like `https://damas.example.org` (`https://`, or `http://` only on this machine); set, each game's message gets an *Open the board* button",
    },
    Setting {
        name: "DAMAS_WEB_SECRET",
        default: "none: required with `DAMAS_PUBLIC_URL`",
        what: "the key each player's board link is signed with, at least 32 characters (`openssl rand -hex 32`); the same in every process, and never logged",
    },
    Setting {
        name: "DAMAS_WEB_LINK_TTL",
        default: "`1d`",
        what: "how long a player's board link works (the button gives a new one)",
    },
    Setting {
        name: "DAMAS_WEB_LISTEN",
        default: "unset",
        what: "where `damas bot` serves the board page, like `127.0.0.1:8080` behind a reverse proxy (`damas serve` serves it on its own listener)",
    },
    Setting {
        name: "DISCORD_CLIENT_ID",
        default: "unset: no Activity",
        what: "the application's id (**General Information**), with `DISCORD_CLIENT_SECRET`: the board page is also a Discord Activity ([docs/OPERATIONS.md](docs/OPERATIONS.md), \"The Discord Activity\")",
    },
    Setting {
        name: "DISCORD_CLIENT_SECRET",
        default: "unset: no Activity",
        what: "the application's client secret (**OAuth2**), to confirm who opened the Activity; needs the board page, and with `damas bot` `DAMAS_WEB_LISTEN`; never logged",
    },
    Setting {
        name: "DAMAS_ACTIVITY_SIGN_INS",
        default: "`60`",
        what: "the Activity's sign-ins a minute in all channels (each asks Discord's token endpoint); past it, or past 10 at once in one channel, the page is told to wait ([docs/OPERATIONS.md](docs/OPERATIONS.md), \"The Discord Activity\")",
    },
    // Operations.
    Setting {
        name: "DAMAS_HTTP_MAX_CONNECTIONS",
        default: "`256`",
        what: "`damas serve`, and `damas bot`'s board page: open connections at most (keep it well under `ulimit -n`)",
    },
    Setting {
        name: "DAMAS_METRICS_LISTEN",
        default: "unset",
        what: "where `/metrics`, `/healthz` and `/readyz` are served, like `127.0.0.1:9464` (a private address); unset: nowhere, and nothing is recorded",
    },
    Setting {
        name: "DAMAS_LOG_FORMAT",
        default: "`text`",
        what: "`json` writes one JSON object per log line, for a log store",
    },
    Setting {
        name: "RUST_LOG",
        default: "`info,serenity=warn`",
        what: "what the log (on standard error) holds, in tracing's filter syntax; `debug` and `trace` are safe: tokens never reach it",
    },
];

/// The setting of that name.
pub fn setting(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_a_value_is_read_only_from_one_literal() {
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(
                !SETTINGS[..i].iter().any(|t| t.name == s.name),
                "{} twice",
                s.name
            );
            assert!(
                !s.what.contains('|') && !s.default.contains('|'),
                "{}",
                s.name
            );
        }
        assert_eq!(setting("DAMAS_MOVE_TIME").unwrap().value(), Some("3d"));
        assert_eq!(
            setting("DAMAS_DB").unwrap().value(),
            None,
            "a variable in it"
        );
        assert_eq!(setting("DAMAS_DATA").unwrap().value(), None, "two values");
        assert_eq!(setting("DAMAS_SEARCH_THREADS").unwrap().value(), None);
        assert_eq!(setting("DAMAS_METRICS_LISTEN").unwrap().value(), None);
        assert!(setting("NOT_A_SETTING").is_none());
    }
}
