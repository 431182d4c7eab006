//! JSON shaped the way Discord sends it: ids, users, places, command options, messages.
//!
//! Every builder here produces *all* the fields serenity 0.12.5 requires: a payload that misses
//! one is dropped by serenity without a word (an "unknown event" logged at DEBUG), so the stand-in
//! also checks each interaction against serenity's own types before sending it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

/// Discord's epoch (2015-01-01) in Unix milliseconds.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
static LAST_SNOWFLAKE: AtomicU64 = AtomicU64::new(0);

/// A fresh snowflake: increasing, unique within the test process, and dated now like Discord's.
pub fn snowflake() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock before 1970");
    let candidate = (now.as_millis() as u64 - DISCORD_EPOCH_MS) << 22;
    let mut last = LAST_SNOWFLAKE.load(Ordering::Relaxed);
    loop {
        let next = candidate.max(last + 1);
        match LAST_SNOWFLAKE.compare_exchange(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// Now, as Discord writes timestamps (RFC 3339).
pub fn timestamp_now() -> String {
    serenity::model::Timestamp::now().to_string()
}

/// The locales Discord accepts, in interactions (`locale`) and in command localizations. Anything
/// else (say `es` instead of `es-ES`) makes Discord reject a command registration.
pub const DISCORD_LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

/// A person (or bot) on the Discord side. `locale` is the language of their Discord client:
/// Discord sends it as the interaction's `locale`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestUser {
    pub id: u64,
    pub name: String,
    pub bot: bool,
    pub locale: String,
    /// Has Manage Messages in every channel (a server's moderator).
    pub moderator: bool,
    /// Has Manage Server (a server's admin).
    pub admin: bool,
    /// The member's roles in the server.
    pub roles: Vec<u64>,
}

/// A member's permissions: VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS and friends.
const MEMBER_PERMISSIONS: u64 = 2_248_473_465_835_073;
/// MANAGE_MESSAGES.
const MANAGE_MESSAGES: u64 = 1 << 13;
/// MANAGE_GUILD.
const MANAGE_GUILD: u64 = 1 << 5;

impl TestUser {
    /// A human with a fixed id, speaking `en-US`.
    pub fn new(id: u64, name: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
            bot: false,
            locale: "en-US".to_owned(),
            moderator: false,
            admin: false,
            roles: Vec::new(),
        }
    }

    /// A human with a fresh snowflake id.
    pub fn random(name: &str) -> Self {
        Self::new(snowflake(), name)
    }

    /// The same user flagged as a bot.
    pub fn into_bot(mut self) -> Self {
        self.bot = true;
        self
    }

    /// The same user with Manage Messages, as a server's moderators have.
    pub fn with_manage_messages(mut self) -> Self {
        self.moderator = true;
        self
    }

    /// The same user with Manage Server, as a server's admins have.
    pub fn with_manage_guild(mut self) -> Self {
        self.admin = true;
        self
    }

    /// The same user with these roles in the server.
    pub fn with_roles(mut self, roles: &[u64]) -> Self {
        self.roles = roles.to_vec();
        self
    }

    /// The member's permissions in the interaction's channel.
    fn permissions(&self) -> String {
        let moderator = if self.moderator { MANAGE_MESSAGES } else { 0 };
        let admin = if self.admin { MANAGE_GUILD } else { 0 };
        (MEMBER_PERMISSIONS | moderator | admin).to_string()
    }

    fn roles_json(&self) -> Value {
        self.roles.iter().map(|r| json!(r.to_string())).collect()
    }

    /// The same user with another client language; must be one of [`DISCORD_LOCALES`].
    pub fn with_locale(mut self, locale: &str) -> Self {
        assert!(
            DISCORD_LOCALES.contains(&locale),
            "Discord never sends the locale {locale:?}; use one of {DISCORD_LOCALES:?}"
        );
        self.locale = locale.to_owned();
        self
    }

    /// The user object, as in `author`, `user`, `mentions`.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": null,
            "bot": self.bot,
            "public_flags": 0,
        })
    }

    /// The guild member object of an interaction (`member`): `user, roles, deaf, mute, flags` are
    /// required by serenity.
    pub fn member_json(&self) -> Value {
        json!({
            "user": self.json(),
            "nick": null,
            "avatar": null,
            "roles": self.roles_json(),
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": self.permissions(),
            "communication_disabled_until": null,
        })
    }

    /// The partial member object of `resolved.members` (no `user`, no `deaf`/`mute`).
    pub fn partial_member_json(&self) -> Value {
        json!({
            "nick": null,
            "avatar": null,
            "roles": self.roles_json(),
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": null,
            "flags": 0,
            "pending": false,
            "permissions": self.permissions(),
            "communication_disabled_until": null,
        })
    }
}

/// Where an interaction happens: a channel, in a guild or in the bot's DMs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub channel: u64,
    pub guild: Option<u64>,
}

impl Place {
    /// A text channel of a guild.
    pub fn guild(guild: u64, channel: u64) -> Self {
        Self {
            channel,
            guild: Some(guild),
        }
    }

    /// The DM channel between a user and the bot.
    pub fn dm(channel: u64) -> Self {
        Self {
            channel,
            guild: None,
        }
    }

    /// A fresh guild with a fresh channel.
    pub fn random_guild() -> Self {
        Self::guild(snowflake(), snowflake())
    }

    /// The full guild channel object of `CHANNEL_DELETE` (what serenity's `GuildChannel`
    /// requires).
    pub fn deleted_channel_json(&self) -> Value {
        json!({
            "id": self.channel.to_string(),
            "type": 0,
            "guild_id": self.guild.unwrap_or(1).to_string(),
            "name": "draughts",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "parent_id": null,
            "topic": null,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "flags": 0,
        })
    }

    /// The partial channel object an interaction carries in `channel`.
    pub fn channel_json(&self) -> Value {
        match self.guild {
            Some(guild) => json!({
                "id": self.channel.to_string(),
                "type": 0,
                "name": "draughts",
                "guild_id": guild.to_string(),
                "permissions": MEMBER_PERMISSIONS.to_string(),
                "parent_id": null,
            }),
            None => json!({
                "id": self.channel.to_string(),
                "type": 1,
                "permissions": MEMBER_PERMISSIONS.to_string(),
            }),
        }
    }
}

// ---- command options -------------------------------------------------------------------------

/// A string option (`type 3`).
pub fn opt_str(name: &str, value: &str) -> Value {
    json!({ "name": name, "type": 3, "value": value })
}

/// An integer option (`type 4`).
pub fn opt_int(name: &str, value: i64) -> Value {
    json!({ "name": name, "type": 4, "value": value })
}

/// A boolean option (`type 5`).
pub fn opt_bool(name: &str, value: bool) -> Value {
    json!({ "name": name, "type": 5, "value": value })
}

/// A number option (`type 10`).
pub fn opt_num(name: &str, value: f64) -> Value {
    json!({ "name": name, "type": 10, "value": value })
}

/// A user option (`type 6`). The interaction builders move the user into `data.resolved` (users
/// and, in a guild, members) the way Discord does.
pub fn opt_user(name: &str, user: &TestUser) -> Value {
    json!({ "name": name, "type": 6, "value": user.id.to_string(), "__resolved_user": {
        "user": user.json(), "member": user.partial_member_json() } })
}

/// A channel option (`type 7`): a text channel of the guild, which the interaction builders
/// move into `data.resolved.channels` the way Discord does.
pub fn opt_channel(name: &str, channel: u64) -> Value {
    json!({ "name": name, "type": 7, "value": channel.to_string(), "__resolved_channel": {
        "id": channel.to_string(), "name": "games", "type": 0,
        "permissions": MEMBER_PERMISSIONS.to_string(), "parent_id": null } })
}

/// A role option (`type 8`), moved into `data.resolved.roles` by the interaction builders.
pub fn opt_role(name: &str, role: u64) -> Value {
    json!({ "name": name, "type": 8, "value": role.to_string(), "__resolved_role": {
        "id": role.to_string(), "name": "organisers", "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false, "icon": null, "unicode_emoji": null, "position": 1,
        "permissions": "0", "managed": false, "mentionable": true, "flags": 0 } })
}

/// An attachment option (`type 11`) with a file made by `StandIn::attach`: the interaction
/// builders move the attachment into `data.resolved.attachments` the way Discord does.
pub fn opt_attachment(name: &str, attachment: &Value) -> Value {
    json!({ "name": name, "type": 11, "value": attachment["id"],
        "__resolved_attachment": attachment })
}

/// A subcommand (`type 1`) with its own options.
pub fn subcommand(name: &str, options: Vec<Value>) -> Value {
    json!({ "name": name, "type": 1, "options": options })
}

/// A subcommand group (`type 2`) holding subcommands.
pub fn subcommand_group(name: &str, subcommands: Vec<Value>) -> Value {
    json!({ "name": name, "type": 2, "options": subcommands })
}

/// The option being typed in an autocomplete interaction: `kind` is the option's declared type
/// (3 string, 4 integer, 10 number), and the partial value is a JSON *string* whatever the type.
pub fn opt_focused(name: &str, kind: u8, partial: &str) -> Value {
    json!({ "name": name, "type": kind, "value": partial, "focused": true })
}

/// Moves the `__resolved_user` markers of [`opt_user`] and the `__resolved_attachment` ones of
/// [`opt_attachment`] out of the options into `resolved`.
pub(crate) fn take_resolved(options: &mut [Value], in_guild: bool, resolved: &mut Value) {
    for option in options {
        let Some(map) = option.as_object_mut() else {
            continue;
        };
        if let Some(found) = map.remove("__resolved_attachment") {
            let id = map["value"].as_str().unwrap_or_default().to_owned();
            resolved["attachments"][&id] = found;
        }
        for (marker, kind) in [
            ("__resolved_channel", "channels"),
            ("__resolved_role", "roles"),
        ] {
            if let Some(found) = map.remove(marker) {
                let id = map["value"].as_str().unwrap_or_default().to_owned();
                resolved[kind][&id] = found;
            }
        }
        if let Some(found) = map.remove("__resolved_user") {
            let id = map["value"].as_str().unwrap_or_default().to_owned();
            resolved["users"][&id] = found["user"].clone();
            if in_guild {
                resolved["members"][&id] = found["member"].clone();
            }
        }
        if let Some(Value::Array(inner)) = map.get_mut("options") {
            take_resolved(inner, in_guild, resolved);
        }
    }
}

/// How many options in the tree are focused.
pub(crate) fn count_focused(options: &[Value]) -> usize {
    options
        .iter()
        .map(|o| {
            usize::from(o["focused"] == json!(true))
                + o["options"]
                    .as_array()
                    .map_or(0, |inner| count_focused(inner))
        })
        .sum()
}

// ---- components in a message ----------------------------------------------------------------

/// Every component (buttons, select menus) of a message JSON, flattened out of its rows.
pub fn components_of(message: &Value) -> Vec<Value> {
    message["components"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// The component of a message with this `custom_id`, if any.
pub fn component(message: &Value, custom_id: &str) -> Option<Value> {
    components_of(message)
        .into_iter()
        .find(|c| c["custom_id"] == json!(custom_id))
}

/// The `custom_id`s of a message's components, in order.
pub fn custom_ids(message: &Value) -> Vec<String> {
    components_of(message)
        .iter()
        .filter_map(|c| c["custom_id"].as_str().map(str::to_owned))
        .collect()
}

/// The `value` of each item of a JSON list (a select menu's options, an option's choices).
pub fn values_of(list: &Value) -> Vec<&str> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["value"].as_str())
        .collect()
}
