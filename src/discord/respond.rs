//! Turning the application's [`Reply`] into Discord messages.

use crate::app::{ButtonStyle as AppButtonStyle, Reply};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

/// The picture's file name, referenced by the embed as `attachment://board.png`.
pub const BOARD_FILE: &str = "board.png";

/// Discord's limits.
const CONTENT_LIMIT: usize = 2000;
const DESCRIPTION_LIMIT: usize = 4096;
const BUTTONS_PER_ROW: usize = 5;

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
            .take(25)
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

/// Text goes into an embed when there is a title or a picture, else into the content.
fn embed(reply: &Reply) -> Option<CreateEmbed> {
    if reply.title.is_none() && reply.image.is_none() {
        return None;
    }
    let mut e = CreateEmbed::new().description(clip(&reply.text, DESCRIPTION_LIMIT));
    if let Some(t) = &reply.title {
        e = e.title(clip(t, 256));
    }
    if reply.image.is_some() {
        e = e.image(format!("attachment://{BOARD_FILE}"));
    }
    Some(e)
}

fn files(reply: &Reply) -> Vec<CreateAttachment> {
    let mut v = Vec::new();
    if let Some(png) = &reply.image {
        v.push(CreateAttachment::bytes(png.clone(), BOARD_FILE));
    }
    for f in &reply.files {
        v.push(CreateAttachment::bytes(f.bytes.clone(), f.filename.clone()));
    }
    v
}

/// Mentions name people but only the challenged one is pinged, through the content.
fn mentions() -> CreateAllowedMentions {
    CreateAllowedMentions::new().all_users(true)
}

pub fn response_message(reply: &Reply) -> CreateInteractionResponseMessage {
    let mut m = CreateInteractionResponseMessage::new()
        .ephemeral(reply.is_private())
        .allowed_mentions(mentions())
        .components(components(reply))
        .files(files(reply));
    match embed(reply) {
        Some(e) => m = m.embed(e),
        None => m = m.content(clip(&reply.text, CONTENT_LIMIT)),
    }
    m
}

pub fn followup_message(reply: &Reply) -> CreateInteractionResponseFollowup {
    let mut m = CreateInteractionResponseFollowup::new()
        .ephemeral(reply.is_private())
        .allowed_mentions(mentions())
        .components(components(reply))
        .files(files(reply));
    match embed(reply) {
        Some(e) => m = m.embed(e),
        None => m = m.content(clip(&reply.text, CONTENT_LIMIT)),
    }
    m
}
