//! The interactions the stand-in sends the bot as a person would cause them: commands,
//! autocomplete, clicks, menus and modals, with Discord's ids, tokens and resolved data.

use super::*;

impl StandIn {
    /// The commands registered (global with `None`).
    pub fn registered_commands(&self, guild: Option<u64>) -> Vec<Value> {
        let st = self.inner.state();
        match guild {
            None => st.global_commands.clone(),
            Some(g) => st.guild_commands.get(&g).cloned().unwrap_or_default(),
        }
    }

    fn command_id(&self, guild: Option<u64>, name: &str, kind: u64) -> u64 {
        let st = self.inner.state();
        let local = guild.and_then(|g| st.guild_commands.get(&g));
        local
            .into_iter()
            .flatten()
            .chain(st.global_commands.iter())
            .find(|c| c["name"] == json!(name) && c["type"].as_u64().unwrap_or(1) == kind)
            .and_then(|c| c["id"].as_str()?.parse().ok())
            .unwrap_or_else(snowflake)
    }

    // ---- interactions ----------------------------------------------------------------------

    /// The fields every interaction has; `data` and the type vary.
    fn interaction(&self, kind: u64, user: &TestUser, place: Place, data: Value) -> Value {
        let id = snowflake();
        let (permissions, thread) = {
            let st = self.inner.state();
            (
                st.app_permissions_in(place.channel),
                st.threads.get(&place.channel).cloned(),
            )
        };
        let mut v = json!({
            "id": id.to_string(),
            "application_id": self.inner.app_id.to_string(),
            "type": kind,
            "data": data,
            "channel_id": place.channel.to_string(),
            "channel": place.channel_json(),
            "token": format!("aW50ZXJhY3Rpb24.{id}.stand-in"),
            "version": 1,
            "locale": user.locale,
            "app_permissions": permissions.to_string(),
            "entitlements": [],
            "attachment_size_limit": 10_485_760,
        });
        if let Some(thread) = thread {
            // In a thread, `channel` is the thread's partial channel object.
            let full = thread.json(permissions);
            v["channel"] = json!({
                "id": full["id"],
                "type": full["type"],
                "name": full["name"],
                "guild_id": full["guild_id"],
                "parent_id": full["parent_id"],
                "permissions": full["permissions"],
                "thread_metadata": full["thread_metadata"],
            });
        }
        match place.guild {
            Some(guild) => {
                v["guild_id"] = json!(guild.to_string());
                v["guild_locale"] = json!("en-US");
                v["member"] = user.member_json();
                v["context"] = json!(0);
                v["authorizing_integration_owners"] = json!({"0": guild.to_string()});
            }
            None => {
                // Outside a server, `user` instead of `member` (Discord's "Interaction Object").
                v["user"] = user.json();
                let private = self
                    .inner
                    .state()
                    .private_channels
                    .get(&place.channel)
                    .copied();
                match private {
                    // A conversation between people ("PRIVATE_CHANNEL", context 2): only a
                    // person's own installation of the app reaches it, and the app is no
                    // member there. A command is authorized by the installation of whoever
                    // uses it (Discord offers nobody else the app's commands); a component by
                    // that of the person whose interaction made its message (set by
                    // `component_like`).
                    Some(channel_type) => {
                        if matches!(kind, 2 | 4) {
                            assert!(
                                self.inner.state().user_installs.contains(&user.id),
                                "Discord offers {} no command of an app they did not install                                  in a conversation without the bot (StandIn::install_for)",
                                user.name
                            );
                        }
                        v["context"] = json!(2);
                        v["authorizing_integration_owners"] = json!({"1": user.id.to_string()});
                        v["channel"] = json!({
                            "id": place.channel.to_string(),
                            "type": channel_type,
                        });
                        v["app_permissions"] = json!(USER_INSTALL_APP_PERMISSIONS.to_string());
                    }
                    // The DM with the bot ("BOT_DM", context 1): the server installation
                    // reaches it, as "0" (no server).
                    None => {
                        v["context"] = json!(1);
                        v["authorizing_integration_owners"] = json!({"0": "0"});
                    }
                }
            }
        }
        v
    }

    /// Installs the app for `user` themselves (Discord's user install): their commands then
    /// work in their DMs and group DMs with friends, where the bot is no member.
    pub fn install_for(&self, user: &TestUser) {
        self.inner.state().user_installs.insert(user.id);
    }

    /// A new group DM between people, without the bot: the app reaches it only through a
    /// member's own installation ([`Self::install_for`]), and can answer interactions there
    /// but never post (403, 50001 Missing Access).
    pub fn group_dm(&self) -> Place {
        let place = Place::dm(snowflake());
        self.inner.state().private_channels.insert(place.channel, 3);
        place
    }

    /// A command of a member's menu (a USER command, `type 2` with `data.type` 2): `user`
    /// right-clicks `target`, Apps, `name`. Discord sends the member as `data.target_id`,
    /// resolved in `data.resolved.users` (and `members` in a server).
    pub fn user_command(
        &self,
        user: &TestUser,
        place: Place,
        name: &str,
        target: &TestUser,
    ) -> Value {
        let id = target.id.to_string();
        let mut resolved = json!({"users": {&id: target.json()}});
        if place.guild.is_some() {
            resolved["members"] = json!({&id: target.partial_member_json()});
        }
        let data = json!({
            "id": self.command_id(place.guild, name, 2).to_string(),
            "name": name,
            "type": 2,
            "target_id": id,
            "resolved": resolved,
        });
        self.interaction(2, user, place, data)
    }

    /// `user` opens the app's Activity from the App Launcher in `place`: its entry point
    /// command (`type 2`, `data.type` 4), as Discord sends it when the command's handler is
    /// the app's (1). Panics if the bot registered no entry point.
    pub fn entry_point(&self, user: &TestUser, place: Place) -> Value {
        let (id, name) = {
            let st = self.inner.state();
            let entry = st
                .global_commands
                .iter()
                .find(|c| c["type"].as_u64() == Some(4))
                .unwrap_or_else(|| panic!("no entry point command is registered"));
            (entry["id"].clone(), entry["name"].clone())
        };
        let data = json!({"id": id, "name": name, "type": 4});
        self.interaction(2, user, place, data)
    }

    fn command_like(
        &self,
        kind: u64,
        user: &TestUser,
        place: Place,
        name: &str,
        mut options: Vec<Value>,
    ) -> Value {
        let mut resolved = json!({});
        take_resolved(&mut options, place.guild.is_some(), &mut resolved);
        let guild_command = place.guild.filter(|g| {
            self.inner
                .state()
                .guild_commands
                .get(g)
                .is_some_and(|list| list.iter().any(|c| c["name"] == json!(name)))
        });
        let mut data = json!({
            "id": self.command_id(place.guild, name, 1).to_string(),
            "name": name,
            "type": 1,
            "options": options,
        });
        if resolved != json!({}) {
            data["resolved"] = resolved;
        }
        if let Some(guild) = guild_command {
            data["guild_id"] = json!(guild.to_string());
        }
        self.interaction(kind, user, place, data)
    }

    /// A slash command (`type 2`): `options` from [`opt_str`], [`opt_int`], [`opt_user`],
    /// [`subcommand`]…; the command id is the registered one if the bot registered `name`.
    pub fn slash_command(
        &self,
        user: &TestUser,
        place: Place,
        name: &str,
        options: Vec<Value>,
    ) -> Value {
        self.command_like(2, user, place, name, options)
    }

    /// An autocomplete request (`type 4`): exactly one option (maybe inside a subcommand) made
    /// with [`opt_focused`].
    pub fn autocomplete(
        &self,
        user: &TestUser,
        place: Place,
        name: &str,
        options: Vec<Value>,
    ) -> Value {
        assert_eq!(
            count_focused(&options),
            1,
            "an autocomplete interaction has exactly one focused option"
        );
        self.command_like(4, user, place, name, options)
    }

    fn component_like(&self, user: &TestUser, message: &Value, data: Value) -> Value {
        let place = place_of(message);
        let mut v = self.interaction(3, user, place, data);
        if v["context"] == json!(2) {
            let id: Option<u64> = message["id"].as_str().and_then(|s| s.parse().ok());
            let owner = id.and_then(|id| self.inner.state().answered_for.get(&id).copied());
            if let Some(owner) = owner {
                v["authorizing_integration_owners"] = json!({"1": owner.to_string()});
            }
        }
        v["message"] = message.clone();
        v
    }

    /// A click on the button `custom_id` of `message` (as returned by [`Self::original_message`],
    /// [`Self::message`] or [`Self::post_message`]). Panics if the message has no such enabled
    /// button: Discord would not let anyone click it.
    pub fn button_click(&self, user: &TestUser, message: &Value, custom_id: &str) -> Value {
        enabled_component(message, custom_id, 2, "button", "button");
        self.component_like(
            user,
            message,
            json!({"custom_id": custom_id, "component_type": 2}),
        )
    }

    /// A choice in the string select `custom_id` of `message`. Panics if the select does not
    /// exist or the values are not among its options or break min/max_values.
    pub fn select_menu(
        &self,
        user: &TestUser,
        message: &Value,
        custom_id: &str,
        values: &[&str],
    ) -> Value {
        let found = enabled_component(message, custom_id, 3, "string select", "select");
        let options = values_of(&found["options"]);
        for value in values {
            assert!(
                options.contains(value),
                "select {custom_id:?} has no option {value:?}; it has {options:?}"
            );
        }
        let min = found["min_values"].as_u64().unwrap_or(1) as usize;
        let max = found["max_values"].as_u64().unwrap_or(1) as usize;
        assert!(
            (min..=max).contains(&values.len()),
            "select {custom_id:?} takes {min}..={max} values"
        );
        self.component_like(
            user,
            message,
            json!({"custom_id": custom_id, "component_type": 3, "values": values}),
        )
    }

    /// A modal submit (`type 5`): `fields` are (custom_id, value) of text inputs, one per row.
    pub fn modal_submit(
        &self,
        user: &TestUser,
        place: Place,
        custom_id: &str,
        fields: &[(&str, &str)],
    ) -> Value {
        let rows: Vec<Value> = fields
            .iter()
            .map(|(id, value)| json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]}))
            .collect();
        self.interaction(
            5,
            user,
            place,
            json!({"custom_id": custom_id, "components": rows}),
        )
    }

    /// Dispatches INTERACTION_CREATE to the connected bot (waiting for one to be ready). Panics
    /// if serenity 0.12.5 would not parse the payload, since it would drop it silently.
    pub async fn send_interaction(&self, payload: Value) -> SentInteraction {
        self.send_interaction_to(payload, false).await
    }

    /// Like [`Self::send_interaction`], but also to a session whose connection is down: the
    /// event waits in the session and is replayed when the bot resumes, as Discord does.
    pub async fn queue_interaction(&self, payload: Value) -> SentInteraction {
        self.send_interaction_to(payload, true).await
    }

    async fn send_interaction_to(&self, payload: Value, queue: bool) -> SentInteraction {
        if let Err(e) =
            serde_json::from_value::<serenity::model::application::Interaction>(payload.clone())
        {
            panic!("serenity would drop this interaction silently: {e}\npayload: {payload:#}");
        }
        let (id, token, kind) = self.register_interaction(&payload);
        let (seq, shard) = self
            .dispatch_on_shard("INTERACTION_CREATE", payload.clone(), queue)
            .await;
        if let Some(st) = self.inner.state().interactions.get_mut(&id) {
            st.sent_at = Instant::now();
        }
        SentInteraction {
            id,
            token,
            kind,
            seq,
            payload,
            shard,
            http_request: None,
        }
    }

    /// Remembers an interaction about to be sent, so that its answers can be checked; returns
    /// its id, token and type.
    pub(crate) fn register_interaction(&self, payload: &Value) -> (u64, String, u64) {
        let id: u64 = payload["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("interaction id");
        let token = payload["token"]
            .as_str()
            .expect("interaction token")
            .to_owned();
        let kind = payload["type"].as_u64().expect("interaction type");
        let channel: u64 = payload["channel_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("channel_id");
        let guild: Option<u64> = payload["guild_id"].as_str().and_then(|s| s.parse().ok());
        let place = Place { channel, guild };
        let person = match payload.get("member") {
            Some(member) => &member["user"]["id"],
            None => &payload["user"]["id"],
        };
        let user: u64 = person.as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
        let message = payload.get("message").cloned();
        let message_id: Option<u64> = message
            .as_ref()
            .and_then(|m| m["id"].as_str()?.parse().ok());
        let mut st = self.inner.state();
        if let Some(guild) = guild {
            st.channel_guilds.insert(channel, guild);
        }
        if let (Some(mid), Some(m)) = (message_id, message) {
            st.messages.entry(mid).or_insert(m);
        }
        st.tokens.insert(token.clone(), id);
        st.interactions.insert(
            id,
            InteractionState {
                token: token.clone(),
                kind,
                place,
                message: message_id,
                sent_at: Instant::now(),
                ack: None,
                original: None,
                followups: Vec::new(),
                user,
            },
        );
        (id, token, kind)
    }
}

/// The component `custom_id` of `message`, which must be of `kind` (`what`, `short` in the
/// panics) and enabled: Discord lets nobody use any other.
fn enabled_component(
    message: &Value,
    custom_id: &str,
    kind: u64,
    what: &str,
    short: &str,
) -> Value {
    let found = component(message, custom_id).unwrap_or_else(|| {
        panic!(
            "the message has no component {custom_id:?}; it has {:?}",
            custom_ids(message)
        )
    });
    assert_eq!(
        found["type"],
        json!(kind),
        "component {custom_id:?} is not a {what}: {found}"
    );
    assert_ne!(
        found["disabled"],
        json!(true),
        "{short} {custom_id:?} is disabled"
    );
    found
}
