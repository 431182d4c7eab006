//! The app's [`Delivery`] port on Discord: every message the bot shows outside an
//! interaction's answer goes out here, as REST calls retried on Discord's transient failures
//! ([`with_retries`]).

use super::deliver::{json_code, with_retries, UNKNOWN_INTERACTION, UNKNOWN_MESSAGE};
use super::reach::{AnswerOnlyChannels, MISSING_ACCESS};
use super::respond::Rendered;
use crate::app::deliver::{Delivery, MessageId, NotShown, Why};
use crate::app::Reply;
use async_trait::async_trait;
use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, CreateThread, EditMessage, EditThread, Http,
    HttpError,
};
use std::sync::Arc;

/// Discord's channels, through the bot's REST client.
pub struct DiscordChannels {
    http: Arc<Http>,
    /// Where the bot can only answer interactions, shared by every port of the process.
    answer_only: Arc<AnswerOnlyChannels>,
}

impl DiscordChannels {
    pub fn new(http: Arc<Http>, answer_only: Arc<AnswerOnlyChannels>) -> DiscordChannels {
        DiscordChannels { http, answer_only }
    }

    /// The port over `http`, as the app takes it.
    pub fn port(http: &Arc<Http>, answer_only: &Arc<AnswerOnlyChannels>) -> Arc<dyn Delivery> {
        Arc::new(DiscordChannels::new(
            Arc::clone(http),
            Arc::clone(answer_only),
        ))
    }

    /// A failure in `channel`: a refusal for want of access there teaches that only answers
    /// reach it (a conversation learned before a restart, whose game the bot takes up again).
    fn failed_in(&self, channel: u64, e: serenity::Error) -> NotShown {
        if json_code(&e) == Some(MISSING_ACCESS) {
            self.answer_only.learn(channel, true);
        }
        not_shown(e)
    }
}

/// What a failure (after the retries) means to the app: a 404 or an unknown message or
/// interaction is gone, another 4xx refused for good, anything else (5xx, network) failed.
fn not_shown(e: serenity::Error) -> NotShown {
    let why = match &e {
        _ if matches!(json_code(&e), Some(UNKNOWN_MESSAGE | UNKNOWN_INTERACTION)) => Why::Gone,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => match r.status_code.as_u16() {
            404 => Why::Gone,
            400..=499 if r.status_code.as_u16() != 429 => Why::Refused,
            _ => Why::Failed,
        },
        _ => Why::Failed,
    };
    NotShown {
        why,
        detail: e.to_string(),
    }
}

#[async_trait]
impl Delivery for DiscordChannels {
    async fn post(&self, channel: u64, reply: &Reply) -> Result<MessageId, NotShown> {
        let id = channel;
        let channel = ChannelId::new(channel);
        with_retries("post in the channel", None, || {
            channel.send_message(&self.http, Rendered::new(reply).channel_message())
        })
        .await
        .map(|m| m.id.get())
        .map_err(|e| self.failed_in(id, e))
    }

    async fn edit(&self, channel: u64, message: MessageId, reply: &Reply) -> Result<(), NotShown> {
        with_retries("edit a message", None, || {
            ChannelId::new(channel).edit_message(
                &self.http,
                serenity::all::MessageId::new(message),
                Rendered::new(reply).edit_message(),
            )
        })
        .await
        .map(|_| ())
        .map_err(|e| self.failed_in(channel, e))
    }

    async fn strip_controls(&self, channel: u64, message: MessageId) -> Result<(), NotShown> {
        with_retries("strip an old board", None, || {
            ChannelId::new(channel).edit_message(
                &self.http,
                serenity::all::MessageId::new(message),
                EditMessage::new().components(vec![]),
            )
        })
        .await
        .map(|_| ())
        .map_err(|e| self.failed_in(channel, e))
    }

    async fn open_thread(&self, parent: u64, name: &str) -> Result<u64, NotShown> {
        let thread = CreateThread::new(name)
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(AutoArchiveDuration::OneWeek);
        with_retries("open a game thread", None, || {
            ChannelId::new(parent).create_thread(&self.http, thread.clone())
        })
        .await
        .map(|t| t.id.get())
        .map_err(not_shown)
    }

    async fn archive_thread(&self, thread: u64) -> Result<(), NotShown> {
        with_retries("archive a game thread", None, || {
            ChannelId::new(thread).edit_thread(&self.http, EditThread::new().archived(true))
        })
        .await
        .map(|_| ())
        .map_err(not_shown)
    }

    fn answer_only(&self, channel: u64) -> bool {
        self.answer_only.contains(channel)
    }
}
