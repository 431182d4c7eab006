//! The checks Discord makes on what a bot sends, so that a test fails where Discord would answer
//! 400 "Invalid Form Body" (code 50035) or drop something silently.
//!
//! Each problem is a path into the JSON body (`data.components.0.components.1.custom_id`) and a
//! message; [`form_error`] turns them into Discord's error body, which serenity parses.

use serde_json::{json, Map, Value};

use super::payloads::DISCORD_LOCALES;

/// One thing Discord would refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

#[derive(Default)]
pub(crate) struct Problems(pub Vec<Problem>);

impl Problems {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Problem {
            path: path.into(),
            message: message.into(),
        });
    }

    fn max_chars(&mut self, path: &str, value: &Value, max: usize) {
        if let Some(text) = value.as_str() {
            let n = text.chars().count();
            if n > max {
                self.add(path, format!("Must be {max} or fewer in length (is {n})."));
            }
        }
    }

    fn chars_between(&mut self, path: &str, value: &Value, min: usize, max: usize) {
        match value.as_str() {
            Some(text) => {
                let n = text.chars().count();
                if n < min || n > max {
                    self.add(
                        path,
                        format!("Must be between {min} and {max} in length (is {n})."),
                    );
                }
            }
            None => self.add(path, "This field is required and must be a string."),
        }
    }
}

/// Discord's 400 body for these problems: `{"code":50035,"message":"Invalid Form Body",
/// "errors":{path…:{"_errors":[{code,message}]}}}`.
pub fn form_error(problems: &[Problem]) -> Value {
    let mut errors = Value::Object(Map::new());
    for problem in problems {
        let mut at = &mut errors;
        for part in problem.path.split('.').filter(|p| !p.is_empty()) {
            at = &mut at[part];
        }
        let list = &mut at["_errors"];
        if !list.is_array() {
            *list = json!([]);
        }
        list.as_array_mut()
            .expect("just made an array")
            .push(json!({"code": "STAND_IN_INVALID", "message": problem.message}));
    }
    json!({"code": 50035, "message": "Invalid Form Body", "errors": errors})
}

/// What kind of message body this is: creating a message needs some content, an edit does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MessageUse {
    Create,
    Edit,
}

/// Checks a message body (interaction response `data`, webhook execute/edit, channel message).
/// `files` are the uploaded file names (`files[n]`), `kept` the names of attachments an edit keeps.
pub(crate) fn message(
    problems: &mut Problems,
    prefix: &str,
    body: &Value,
    use_: MessageUse,
    files: &[String],
    kept: &[String],
) {
    let p = |s: &str| {
        if prefix.is_empty() {
            s.to_owned()
        } else {
            format!("{prefix}.{s}")
        }
    };
    if !body.is_object() {
        problems.add(prefix, "A message body must be a JSON object.");
        return;
    }
    problems.max_chars(&p("content"), &body["content"], 2000);

    // embeds
    let embeds = body["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > 10 {
        problems.add(
            p("embeds"),
            format!("Must be 10 or fewer in length (is {}).", embeds.len()),
        );
    }
    let attachment_names: Vec<String> = files.iter().chain(kept).cloned().collect();
    let mut total = 0;
    for (i, embed) in embeds.iter().enumerate() {
        let e = |s: &str| p(&format!("embeds.{i}.{s}"));
        for (field, max) in [("title", 256), ("description", 4096)] {
            problems.max_chars(&e(field), &embed[field], max);
            total += embed[field].as_str().map_or(0, |t| t.chars().count());
        }
        problems.max_chars(&e("footer.text"), &embed["footer"]["text"], 2048);
        problems.max_chars(&e("author.name"), &embed["author"]["name"], 256);
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            problems.add(e("fields"), "Must be 25 or fewer in length.");
        }
        for (j, field) in fields.iter().enumerate() {
            problems.chars_between(&e(&format!("fields.{j}.name")), &field["name"], 1, 256);
            problems.chars_between(&e(&format!("fields.{j}.value")), &field["value"], 1, 1024);
        }
        for key in ["image", "thumbnail"] {
            if let Some(url) = embed[key]["url"].as_str() {
                if let Some(name) = url.strip_prefix("attachment://") {
                    if !attachment_names.iter().any(|n| n == name) {
                        // Discord shows no picture at all: a silent failure worth a loud one.
                        problems.add(
                            e(&format!("{key}.url")),
                            format!(
                                "refers to attachment://{name} but the message has no such \
                                 attachment (has {attachment_names:?})"
                            ),
                        );
                    }
                }
            }
        }
    }
    if total > 6000 {
        problems.add(
            p("embeds"),
            "Embeds must hold at most 6000 characters in all.",
        );
    }

    // attachments: a description (alt text) is at most 1024 characters
    if let Some(list) = body["attachments"].as_array() {
        for (i, a) in list.iter().enumerate() {
            problems.max_chars(
                &p(&format!("attachments.{i}.description")),
                &a["description"],
                1024,
            );
        }
    }

    // components
    if let Some(rows) = body.get("components").filter(|c| !c.is_null()) {
        components(problems, &p("components"), rows);
    }

    // flags: SUPPRESS_EMBEDS 4, EPHEMERAL 64, SUPPRESS_NOTIFICATIONS 4096
    if let Some(flags) = body["flags"].as_u64() {
        if flags & !(4 | 64 | 4096) != 0 {
            problems.add(
                p("flags"),
                format!("Flags {flags} hold bits a bot may not set."),
            );
        }
    }

    if use_ == MessageUse::Create {
        let has_content = body["content"].as_str().is_some_and(|c| !c.is_empty());
        let has_components = body["components"].as_array().is_some_and(|c| !c.is_empty());
        if !has_content && embeds.is_empty() && files.is_empty() && !has_components {
            // Discord: 50006 "Cannot send an empty message".
            problems.add(prefix, "Cannot send an empty message.");
        }
    }
}

fn components(problems: &mut Problems, prefix: &str, rows: &Value) {
    let Some(rows) = rows.as_array() else {
        problems.add(prefix, "Must be an array of action rows.");
        return;
    };
    if rows.len() > 5 {
        problems.add(
            prefix,
            format!("Must be 5 or fewer in length (is {}).", rows.len()),
        );
    }
    let mut seen_ids: Vec<String> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let r = format!("{prefix}.{i}");
        if row["type"] != json!(1) {
            problems.add(
                format!("{r}.type"),
                "A top-level component must be an action row (1).",
            );
            continue;
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            problems.add(
                format!("{r}.components"),
                "An action row holds 1 to 5 components.",
            );
        }
        let has_select = items
            .iter()
            .any(|c| (3..=8).contains(&c["type"].as_u64().unwrap_or(0)));
        if has_select && items.len() > 1 {
            problems.add(
                format!("{r}.components"),
                "A select menu must be alone in its row.",
            );
        }
        for (j, item) in items.iter().enumerate() {
            let c = |s: &str| format!("{r}.components.{j}.{s}");
            if let Some(id) = item["custom_id"].as_str() {
                if seen_ids.iter().any(|s| s == id) {
                    problems.add(c("custom_id"), format!("custom_id {id:?} is used twice."));
                }
                seen_ids.push(id.to_owned());
            }
            match item["type"].as_u64() {
                Some(2) => {
                    let style = item["style"].as_u64().unwrap_or(0);
                    if !(1..=6).contains(&style) {
                        problems.add(c("style"), format!("Unknown button style {style}."));
                    }
                    if style == 5 {
                        if item["url"].as_str().is_none() || !item["custom_id"].is_null() {
                            problems.add(c("url"), "A link button has a url and no custom_id.");
                        }
                    } else if style != 6 {
                        problems.chars_between(&c("custom_id"), &item["custom_id"], 1, 100);
                    }
                    problems.max_chars(&c("label"), &item["label"], 80);
                    if item["label"].as_str().map_or(true, str::is_empty) && item["emoji"].is_null()
                    {
                        problems.add(c("label"), "A button needs a label or an emoji.");
                    }
                }
                Some(3) => {
                    problems.chars_between(&c("custom_id"), &item["custom_id"], 1, 100);
                    problems.max_chars(&c("placeholder"), &item["placeholder"], 150);
                    let options = item["options"].as_array().cloned().unwrap_or_default();
                    if options.is_empty() || options.len() > 25 {
                        problems.add(c("options"), "A string select holds 1 to 25 options.");
                    }
                    let mut values: Vec<String> = Vec::new();
                    for (k, option) in options.iter().enumerate() {
                        let o = |s: &str| c(&format!("options.{k}.{s}"));
                        problems.chars_between(&o("label"), &option["label"], 1, 100);
                        problems.chars_between(&o("value"), &option["value"], 1, 100);
                        problems.max_chars(&o("description"), &option["description"], 100);
                        let value = option["value"].as_str().unwrap_or_default().to_owned();
                        if values.contains(&value) {
                            problems
                                .add(o("value"), format!("Option value {value:?} is repeated."));
                        }
                        values.push(value);
                    }
                    let min = item["min_values"].as_u64().unwrap_or(1);
                    let max = item["max_values"].as_u64().unwrap_or(1);
                    if min > max || max > 25 || max as usize > options.len().max(1) {
                        problems.add(
                            c("max_values"),
                            "min_values/max_values do not fit the options.",
                        );
                    }
                }
                Some(4..=8) => {
                    problems.chars_between(&c("custom_id"), &item["custom_id"], 1, 100);
                }
                other => problems.add(c("type"), format!("Unknown component type {other:?}.")),
            }
        }
    }
}

/// Checks an autocomplete answer's `data` (`choices`).
pub(crate) fn autocomplete(problems: &mut Problems, data: &Value) {
    let choices = data["choices"].as_array().cloned().unwrap_or_default();
    if data["choices"].as_array().is_none() {
        problems.add(
            "data.choices",
            "An autocomplete answer needs a choices array.",
        );
    }
    if choices.len() > 25 {
        problems.add(
            "data.choices",
            format!("Must be 25 or fewer in length (is {}).", choices.len()),
        );
    }
    for (i, choice) in choices.iter().enumerate() {
        problems.chars_between(&format!("data.choices.{i}.name"), &choice["name"], 1, 100);
        match &choice["value"] {
            Value::String(_) => {
                problems.max_chars(&format!("data.choices.{i}.value"), &choice["value"], 100)
            }
            Value::Number(_) => {}
            _ => problems.add(
                format!("data.choices.{i}.value"),
                "A choice value is a string or number.",
            ),
        }
        localizations(
            problems,
            &format!("data.choices.{i}.name_localizations"),
            &choice["name_localizations"],
            1,
            100,
        );
    }
}

fn is_command_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || c == '-' || c == '_') && c.to_lowercase().eq(std::iter::once(c))
        })
}

fn localizations(problems: &mut Problems, path: &str, map: &Value, min: usize, max: usize) {
    let Some(map) = map.as_object() else { return };
    for (locale, text) in map {
        if !DISCORD_LOCALES.contains(&locale.as_str()) {
            problems.add(
                format!("{path}.{locale}"),
                format!("Invalid locale {locale:?}."),
            );
        }
        problems.chars_between(&format!("{path}.{locale}"), text, min, max);
    }
}

fn name_localizations(problems: &mut Problems, path: &str, map: &Value) {
    localizations(problems, path, map, 1, 32);
    if let Some(map) = map.as_object() {
        for (locale, text) in map {
            if !text.as_str().is_some_and(is_command_name) {
                problems.add(
                    format!("{path}.{locale}"),
                    format!("Invalid command name {text}."),
                );
            }
        }
    }
}

/// Checks a bulk overwrite of application commands (`PUT .../commands`).
pub(crate) fn commands(problems: &mut Problems, body: &Value) {
    let Some(list) = body.as_array() else {
        problems.add("", "A bulk overwrite takes a JSON array of commands.");
        return;
    };
    let mut names: Vec<(u64, String)> = Vec::new();
    for (i, command) in list.iter().enumerate() {
        let c = |s: &str| format!("{i}.{s}");
        let kind = command["type"].as_u64().unwrap_or(1);
        let name = command["name"].as_str().unwrap_or_default().to_owned();
        if kind == 1 {
            if !is_command_name(&name) {
                problems.add(c("name"), format!("Invalid slash command name {name:?}."));
            }
            problems.chars_between(&c("description"), &command["description"], 1, 100);
            name_localizations(
                problems,
                &c("name_localizations"),
                &command["name_localizations"],
            );
            localizations(
                problems,
                &c("description_localizations"),
                &command["description_localizations"],
                1,
                100,
            );
        } else {
            problems.chars_between(&c("name"), &command["name"], 1, 32);
        }
        if kind == 4 {
            // The App Launcher's entry point: a description like a slash command's, no
            // options; its handler 1 (the app answers) or 2 (Discord launches the Activity).
            problems.chars_between(&c("description"), &command["description"], 1, 100);
            if command["options"].as_array().is_some_and(|o| !o.is_empty()) {
                problems.add(c("options"), "Entry point commands cannot have options.");
            }
            if !command["handler"].is_null() && !matches!(command["handler"].as_u64(), Some(1 | 2))
            {
                problems.add(
                    c("handler"),
                    format!("Value {} is not a valid enum value.", command["handler"]),
                );
            }
        } else if !command["handler"].is_null() {
            problems.add(c("handler"), "Only entry point commands have a handler.");
        }
        if !matches!(kind, 1..=4) {
            problems.add(
                c("type"),
                format!("Value {kind} is not a valid enum value."),
            );
        }
        if kind == 2 || kind == 3 {
            // A member's or a message's menu command: a name, no options, no description.
            if command["options"].as_array().is_some_and(|o| !o.is_empty()) {
                problems.add(c("options"), "Context menu commands cannot have options.");
            }
            if command["description"]
                .as_str()
                .is_some_and(|d| !d.is_empty())
            {
                problems.add(
                    c("description"),
                    "Context menu commands cannot have a description.",
                );
            }
        }
        // "integration_types": where it can be installed (0 server, 1 user); "contexts":
        // where it can be used (0 server, 1 the bot's DM, 2 other DMs and group DMs).
        for (field, allowed) in [("integration_types", 0..=1), ("contexts", 0..=2)] {
            let Some(values) = command[field].as_array() else {
                continue;
            };
            let numbers: Vec<Option<u64>> = values.iter().map(Value::as_u64).collect();
            if numbers.is_empty() {
                problems.add(c(field), "Must be 1 or more in length.");
            }
            for (j, n) in numbers.iter().enumerate() {
                if !n.is_some_and(|n| allowed.contains(&n)) || numbers[..j].contains(n) {
                    problems.add(
                        format!("{i}.{field}.{j}"),
                        format!("Value {:?} is not a valid enum value.", values[j]),
                    );
                }
            }
        }
        if names.contains(&(kind, name.clone())) {
            problems.add(
                c("name"),
                format!("Application command names must be unique ({name:?})."),
            );
        }
        names.push((kind, name));
        if let Some(options) = command["options"].as_array() {
            command_options(problems, &c("options"), options, 0);
        }
    }
    if names.iter().filter(|(k, _)| *k == 1).count() > 100 {
        problems.add("", "At most 100 slash commands.");
    }
    if names.iter().filter(|(k, _)| *k == 2).count() > 5 {
        problems.add("", "At most 5 user commands.");
    }
}

fn command_options(problems: &mut Problems, prefix: &str, options: &[Value], depth: usize) {
    if options.len() > 25 {
        problems.add(
            prefix,
            format!("Must be 25 or fewer in length (is {}).", options.len()),
        );
    }
    let mut optional_seen = false;
    let mut names: Vec<String> = Vec::new();
    for (i, option) in options.iter().enumerate() {
        let o = |s: &str| format!("{prefix}.{i}.{s}");
        let name = option["name"].as_str().unwrap_or_default().to_owned();
        if !is_command_name(&name) {
            problems.add(o("name"), format!("Invalid option name {name:?}."));
        }
        if names.contains(&name) {
            problems.add(o("name"), format!("Option name {name:?} is repeated."));
        }
        names.push(name);
        problems.chars_between(&o("description"), &option["description"], 1, 100);
        name_localizations(
            problems,
            &o("name_localizations"),
            &option["name_localizations"],
        );
        localizations(
            problems,
            &o("description_localizations"),
            &option["description_localizations"],
            1,
            100,
        );
        let kind = option["type"].as_u64().unwrap_or(0);
        if kind == 1 || kind == 2 {
            if depth >= 2 || (kind == 2 && depth >= 1) {
                problems.add(o("type"), "Subcommands nest too deep.");
            }
            let inner = option["options"].as_array().cloned().unwrap_or_default();
            command_options(problems, &o("options"), &inner, depth + 1);
            continue;
        }
        if !(3..=11).contains(&kind) {
            problems.add(o("type"), format!("Unknown option type {kind}."));
        }
        let required = option["required"] == json!(true);
        if required && optional_seen {
            problems.add(
                o("required"),
                "Required options must be placed before non-required options.",
            );
        }
        optional_seen |= !required;
        let choices = option["choices"].as_array().cloned().unwrap_or_default();
        if choices.len() > 25 {
            problems.add(o("choices"), "Must be 25 or fewer in length.");
        }
        if !choices.is_empty() && option["autocomplete"] == json!(true) {
            problems.add(
                o("autocomplete"),
                "Autocomplete and choices are mutually exclusive.",
            );
        }
        for (j, choice) in choices.iter().enumerate() {
            problems.chars_between(&o(&format!("choices.{j}.name")), &choice["name"], 1, 100);
            localizations(
                problems,
                &o(&format!("choices.{j}.name_localizations")),
                &choice["name_localizations"],
                1,
                100,
            );
        }
    }
}
