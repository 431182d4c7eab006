//! Turning the application's [`Reply`] into Discord messages.
//!
//! A reply is laid out once ([`Rendered`]) and then poured into whichever of serenity's
//! builders the delivery needs: an interaction response, a follow-up, an edit of the deferred
//! original, or a plain channel message.

use crate::app::reply::{is_bidi_control, plain, show_user_text};
use crate::app::{Button as AppButton, ButtonStyle as AppButtonStyle, Menu, MenuOption, Reply};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
    EditInteractionResponse, EditMessage, UserId,
};

/// The picture's file name, referenced by the embed as `attachment://board.png`.
pub const BOARD_FILE: &str = "board.png";

/// Discord's limits.
const CONTENT_LIMIT: usize = 2000;
const DESCRIPTION_LIMIT: usize = 4096;
const ATTACHMENT_DESCRIPTION_LIMIT: usize = 1024;
const BUTTONS_PER_ROW: usize = 5;
/// A select menu holds at most this many options, and an autocomplete answer this many choices.
pub const MENU_OPTIONS_LIMIT: usize = 25;

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The ASCII characters Discord's markdown gives a meaning to somewhere: emphasis, code,
/// spoilers, quotes, headings and subtext (`#`, `-#`), lists (`-`, `+`, `1.`), masked links
/// (`[x](url)`), mentions, channels, timestamps and custom emoji (`<…>`), `@everyone`, and
/// the backslash itself. Discord drops a backslash before any such character and shows the
/// character, so escaping one that would not have been markup changes nothing on screen.
const MARKDOWN: &[char] = &[
    '\\', '*', '_', '~', '`', '|', '>', '<', '#', '-', '+', '.', ':', '[', ']', '(', ')', '@', '!',
];

/// Text a person wrote (a display name, a typed move, a tag of an attached file), made to
/// show as typed inside a message: each markdown character escaped; line breaks and other
/// control characters become spaces (a name never starts a line of its own, so never a
/// heading or a quote); explicit bidirectional controls are dropped (they would reorder the
/// bot's words around the name). The one place user text is made safe for Discord: the app
/// marks it ([`crate::app::reply::UserText`]), [`Rendered::new`] calls this on every marked
/// part of a reply's text and title.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        match c {
            c if is_bidi_control(c) => {}
            c if c.is_control() => out.push(' '),
            c if MARKDOWN.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

fn button_style(s: AppButtonStyle) -> ButtonStyle {
    match s {
        AppButtonStyle::Primary => ButtonStyle::Primary,
        AppButtonStyle::Secondary => ButtonStyle::Secondary,
        AppButtonStyle::Success => ButtonStyle::Success,
        AppButtonStyle::Danger => ButtonStyle::Danger,
    }
}

/// Discord allows this many action rows in a message.
const ROWS_LIMIT: usize = 5;
/// Buttons take at most this many rows, so a menu always has one.
const BUTTON_ROWS_LIMIT: usize = 4;
/// Joins a menu's id to the number of its part when a long menu is split: custom ids must be
/// unique within a message. Never in the app's ids (`damas:<action>:…`).
const PART_MARK: char = '#';

/// Action rows: the menu first (in as many rows as it takes), then buttons five to a row.
pub fn components(reply: &Reply) -> Vec<CreateActionRow> {
    let button_rows: Vec<&[AppButton]> = reply
        .buttons
        .chunks(BUTTONS_PER_ROW)
        .take(BUTTON_ROWS_LIMIT)
        .collect();
    let mut rows = match &reply.menu {
        Some(menu) => menu_rows(menu, ROWS_LIMIT - button_rows.len()),
        None => Vec::new(),
    };
    for chunk in button_rows {
        rows.push(CreateActionRow::Buttons(
            chunk
                .iter()
                .map(|b| {
                    CreateButton::new(b.id.clone())
                        .label(clip(&plain(&b.label), 80))
                        .style(button_style(b.style))
                })
                .collect(),
        ));
    }
    rows
}

/// A menu within Discord's limits, in at most `room` rows: one select menu when its options
/// fit; else one of its groups, whose pick the app answers with that group's options; else
/// (no groups, or too many) its options split over several select menus.
fn menu_rows(menu: &Menu, room: usize) -> Vec<CreateActionRow> {
    if menu.options.len() <= MENU_OPTIONS_LIMIT {
        return vec![select_menu(&menu.id, &menu.placeholder, &menu.options)];
    }
    if let Some(g) = menu
        .groups
        .as_ref()
        .filter(|g| g.groups.len() <= MENU_OPTIONS_LIMIT)
    {
        return vec![select_menu(&g.id, &g.placeholder, &g.groups)];
    }
    let parts = menu.options.chunks(MENU_OPTIONS_LIMIT);
    if parts.len() > room {
        tracing::warn!(
            "menu {} has {} options, more than {room} menus hold; the rest are left out",
            menu.id,
            menu.options.len()
        );
    }
    parts
        .take(room)
        .enumerate()
        .map(|(k, options)| select_menu(&part_id(&menu.id, k), &menu.placeholder, options))
        .collect()
}

/// The custom id of part `k` of a split menu: the menu's own id for the first.
fn part_id(id: &str, k: usize) -> String {
    if k == 0 {
        id.to_string()
    } else {
        format!("{id}{PART_MARK}{k}")
    }
}

/// The app's component id behind a custom id that Discord sends back (see [`part_id`]).
pub fn app_component_id(custom_id: &str) -> &str {
    custom_id
        .split_once(PART_MARK)
        .map_or(custom_id, |(id, _)| id)
}

fn select_menu(id: &str, placeholder: &str, options: &[MenuOption]) -> CreateActionRow {
    let options = options
        .iter()
        .map(|o| {
            let mut opt =
                CreateSelectMenuOption::new(clip(&plain(&o.label), 100), clip(&o.value, 100));
            if let Some(d) = &o.description {
                opt = opt.description(clip(&plain(d), 100));
            }
            opt
        })
        .collect();
    CreateActionRow::SelectMenu(
        CreateSelectMenu::new(id, CreateSelectMenuKind::String { options })
            .placeholder(clip(&plain(placeholder), 150)),
    )
}

/// Fills one of serenity's two interaction message builders, whose methods share names but
/// no trait.
macro_rules! interaction_message {
    ($rendered:ident, $builder:expr) => {{
        let mut m = $builder
            .ephemeral($rendered.ephemeral)
            .allowed_mentions($rendered.mentions)
            .components($rendered.components)
            .files($rendered.files);
        if !$rendered.content.is_empty() {
            m = m.content($rendered.content);
        }
        if let Some(e) = $rendered.embed {
            m = m.embed(e);
        }
        m
    }};
}

/// A reply laid out for Discord: what goes in the content, the embed, the components and the
/// files, and who may be notified.
pub struct Rendered {
    content: String,
    embed: Option<CreateEmbed>,
    components: Vec<CreateActionRow>,
    files: Vec<CreateAttachment>,
    mentions: CreateAllowedMentions,
    ephemeral: bool,
}

impl Rendered {
    pub fn new(reply: &Reply) -> Rendered {
        // What people wrote shows as they wrote it, never as markup.
        let text = show_user_text(&reply.text, escape_markdown);
        let title = reply
            .title
            .as_deref()
            .map(|t| show_user_text(t, escape_markdown));
        // Text goes into an embed when there is a title or a picture, else into the content.
        let embed = (title.is_some() || reply.image.is_some()).then(|| {
            let mut e = CreateEmbed::new().description(clip(&text, DESCRIPTION_LIMIT));
            if let Some(t) = &title {
                e = e.title(clip(t, 256));
            }
            if reply.image.is_some() {
                e = e.image(format!("attachment://{BOARD_FILE}"));
            }
            e
        });
        // Discord notifies only for mentions in the content, and only those that
        // allowed_mentions lets through: the one person the app asks to notify, nobody else —
        // so names and typed text never ping anyone, @everyone and roles included.
        let mention = (!reply.mention.is_empty()).then(|| {
            reply
                .mention
                .iter()
                .map(|id| format!("<@{id}>"))
                .collect::<Vec<_>>()
                .join(" ")
        });
        let text = if embed.is_none() {
            Some(text.as_str())
        } else {
            None
        };
        let mut content = match (mention, text) {
            (Some(m), Some(t)) => format!("{m} {t}"),
            (Some(m), None) => m,
            (None, Some(t)) => t.to_string(),
            (None, None) => String::new(),
        };
        // A channel link (a game's thread) is Discord's `<#id>`, clickable in the content.
        if let Some(channel) = reply.links_to {
            if !content.is_empty() {
                content.push(' ');
            }
            content.push_str(&format!("<#{channel}>"));
        }
        let mentions = CreateAllowedMentions::new()
            .users(reply.mention.iter().map(|&id| UserId::new(id.max(1))));
        // A picture's description is its alt text: screen readers read it out.
        let mut files = Vec::new();
        if let Some(picture) = &reply.image {
            files.push(
                CreateAttachment::bytes(picture.png.clone(), BOARD_FILE).description(clip(
                    &plain(&picture.description),
                    ATTACHMENT_DESCRIPTION_LIMIT,
                )),
            );
        }
        for f in &reply.files {
            let mut file = CreateAttachment::bytes(f.bytes.clone(), f.filename.clone());
            if let Some(d) = &f.description {
                file = file.description(clip(&plain(d), ATTACHMENT_DESCRIPTION_LIMIT));
            }
            files.push(file);
        }
        Rendered {
            content: clip(&content, CONTENT_LIMIT),
            embed,
            components: components(reply),
            files,
            mentions,
            ephemeral: reply.is_private(),
        }
    }

    /// The answer to an interaction (callback type 4).
    pub fn response(self) -> CreateInteractionResponseMessage {
        interaction_message!(self, CreateInteractionResponseMessage::new())
    }

    /// A follow-up message of an interaction.
    pub fn followup(self) -> CreateInteractionResponseFollowup {
        interaction_message!(self, CreateInteractionResponseFollowup::new())
    }

    /// The completion of a deferred answer: the original message is edited into the reply.
    pub fn edit_original(self) -> EditInteractionResponse {
        let mut m = EditInteractionResponse::new()
            .allowed_mentions(self.mentions)
            .components(self.components)
            .content(self.content);
        // (An empty content clears the deferred "thinking…" text.)
        for f in self.files {
            m = m.new_attachment(f);
        }
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }

    /// A channel message rewritten in place (an expired challenge): new text, the controls
    /// gone, the attachments kept.
    pub fn edit_message(self) -> EditMessage {
        let mut m = EditMessage::new()
            .allowed_mentions(self.mentions)
            .components(self.components)
            .content(self.content);
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }

    /// A plain message in the channel (the bot's own moves, and answers whose interaction
    /// can no longer be answered). Never private: callers only post public replies this way.
    pub fn channel_message(self) -> CreateMessage {
        let mut m = CreateMessage::new()
            .allowed_mentions(self.mentions)
            .components(self.components)
            .add_files(self.files);
        if !self.content.is_empty() {
            m = m.content(self.content);
        }
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Button, MenuGroups};

    fn options(prefix: &str, count: usize) -> Vec<MenuOption> {
        (0..count)
            .map(|i| MenuOption {
                label: format!("{prefix}{i}"),
                value: format!("{prefix}{i}"),
                description: None,
            })
            .collect()
    }

    fn moves(count: usize, pieces: Option<usize>) -> Menu {
        Menu {
            id: "damas:move:20:4".into(),
            placeholder: "Choose your move".into(),
            options: options("m", count),
            groups: pieces.map(|n| MenuGroups {
                id: "damas:piece:20:4".into(),
                placeholder: "Choose which piece to move".into(),
                groups: options("p", n),
            }),
        }
    }

    fn buttons(count: usize) -> Vec<Button> {
        (0..count)
            .map(|i| Button {
                id: format!("damas:resign:20:{i}"),
                label: "Resign".into(),
                style: AppButtonStyle::Danger,
            })
            .collect()
    }

    /// The select menus a reply becomes, as Discord receives them: (custom id, option values).
    fn select_menus(menu: Menu, button_count: usize) -> Vec<(String, Vec<String>)> {
        let mut reply = Reply::public("board");
        reply.menu = Some(menu);
        reply.buttons = buttons(button_count);
        let rows = serde_json::to_value(components(&reply)).unwrap();
        let rows = rows.as_array().unwrap();
        assert!(rows.len() <= ROWS_LIMIT, "{rows:#?}");
        rows.iter()
            .flat_map(|row| row["components"].as_array().unwrap().clone())
            .filter(|c| c["type"] == 3)
            .map(|c| {
                let values = c["options"].as_array().unwrap();
                assert!(values.len() <= MENU_OPTIONS_LIMIT);
                (
                    c["custom_id"].as_str().unwrap().to_string(),
                    values
                        .iter()
                        .map(|o| o["value"].as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn moves_that_fit_make_one_menu_of_moves() {
        let menus = select_menus(moves(25, Some(12)), 4);
        assert_eq!(menus.len(), 1);
        assert_eq!(menus[0].0, "damas:move:20:4");
        assert_eq!(menus[0].1.len(), 25);
    }

    #[test]
    fn too_many_moves_offer_the_pieces_first() {
        let menus = select_menus(moves(26, Some(12)), 4);
        assert_eq!(menus.len(), 1);
        assert_eq!(menus[0].0, "damas:piece:20:4");
        assert_eq!(
            menus[0].1,
            (0..12).map(|i| format!("p{i}")).collect::<Vec<_>>()
        );
    }

    #[test]
    fn too_many_options_without_groups_are_split_over_menus_with_their_own_ids() {
        let menus = select_menus(moves(60, None), 4);
        let ids: Vec<&str> = menus.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            ["damas:move:20:4", "damas:move:20:4#1", "damas:move:20:4#2"]
        );
        let all: Vec<String> = menus.iter().flat_map(|(_, v)| v.clone()).collect();
        assert_eq!(all, (0..60).map(|i| format!("m{i}")).collect::<Vec<_>>());
        // A pick in any part reaches the app under the menu's own id.
        for id in ids {
            assert_eq!(app_component_id(id), "damas:move:20:4");
        }
        // With four rows of buttons, one row is left: the first part only.
        let menus = select_menus(moves(60, None), 20);
        assert_eq!(menus.len(), 1);
        assert_eq!(menus[0].1.len(), MENU_OPTIONS_LIMIT);
    }

    #[test]
    fn app_ids_pass_through_unchanged() {
        for id in [
            "damas:move:20:4",
            "damas:accept:20:1700000000000",
            "colour:pick",
        ] {
            assert_eq!(app_component_id(id), id);
        }
    }
}
