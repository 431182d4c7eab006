//! Turning the application's [`Reply`] into Discord messages.
//!
//! A reply is laid out once ([`Rendered`]) and then poured into whichever of serenity's
//! builders the delivery needs: an interaction response, a follow-up, an edit of the deferred
//! original, or a plain channel message.

use crate::app::{ButtonStyle as AppButtonStyle, Reply};
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
const BUTTONS_PER_ROW: usize = 5;
/// A select menu holds at most this many options.
pub const MENU_OPTIONS_LIMIT: usize = 25;

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
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

/// Action rows: the menu first (a row of its own), then buttons five to a row.
pub fn components(reply: &Reply) -> Vec<CreateActionRow> {
    let mut rows = Vec::new();
    if let Some(menu) = &reply.menu {
        let options = menu
            .options
            .iter()
            .take(MENU_OPTIONS_LIMIT)
            .map(|o| {
                let mut opt = CreateSelectMenuOption::new(clip(&o.label, 100), clip(&o.value, 100));
                if let Some(d) = &o.description {
                    opt = opt.description(clip(d, 100));
                }
                opt
            })
            .collect();
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(menu.id.clone(), CreateSelectMenuKind::String { options })
                .placeholder(clip(&menu.placeholder, 150)),
        ));
    }
    for chunk in reply.buttons.chunks(BUTTONS_PER_ROW).take(4) {
        rows.push(CreateActionRow::Buttons(
            chunk
                .iter()
                .map(|b| {
                    CreateButton::new(b.id.clone())
                        .label(clip(&b.label, 80))
                        .style(button_style(b.style))
                })
                .collect(),
        ));
    }
    rows
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
        // Text goes into an embed when there is a title or a picture, else into the content.
        let embed = (reply.title.is_some() || reply.image.is_some()).then(|| {
            let mut e = CreateEmbed::new().description(clip(&reply.text, DESCRIPTION_LIMIT));
            if let Some(t) = &reply.title {
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
        let mention = reply.mention.map(|id| format!("<@{id}>"));
        let text = if embed.is_none() {
            Some(reply.text.as_str())
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
        let mentions = match reply.mention {
            Some(id) => CreateAllowedMentions::new().users([UserId::new(id.max(1))]),
            None => CreateAllowedMentions::new(),
        };
        let mut files = Vec::new();
        if let Some(png) = &reply.image {
            files.push(CreateAttachment::bytes(png.clone(), BOARD_FILE));
        }
        for f in &reply.files {
            files.push(CreateAttachment::bytes(f.bytes.clone(), f.filename.clone()));
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
