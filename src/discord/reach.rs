//! Where the bot can speak on its own, on Discord. An application installed to a server
//! has its bot in that server's channels; one a person installed for themselves ("user
//! install") can be used in any conversation of theirs — direct messages and group
//! messages between friends — but its bot is no member there. Discord's documentation
//! (Interactions, "Interaction Context Types" and "authorizing_integration_owners"; see
//! ../shared/DISCORD-NOTES.md, "User installs and where commands work"): there the app can
//! answer an interaction and use its token for follow-ups and edits for 15 minutes, and
//! nothing else — a message posted in the channel is refused (403, 50001 Missing Access).
//!
//! [`AnswerOnlyChannels`] remembers such channels, learned from each interaction's shape
//! and from such refusals, for the app's [`Delivery::answer_only`](crate::app::deliver::Delivery::answer_only).

use serenity::all::{
    AuthorizingIntegrationOwner, AuthorizingIntegrationOwners, InstallationContext,
    InteractionContext,
};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::app::commands::Reach;

/// Discord's JSON error code for a channel the bot cannot see (not a member there).
pub const MISSING_ACCESS: isize = 50001;

/// The most channels remembered; past it the ones unseen longest are forgotten (and learned
/// again from their next interaction).
const MAX_CHANNELS: usize = 100_000;

/// Whether an interaction came from a channel where the bot can only answer it: a direct or
/// group message between people (context 2, "PRIVATE_CHANNEL"), or a server's channel where
/// only the person installed the app (context 0 without a guild installation among its
/// `authorizing_integration_owners`). A direct message with the bot (context 1, "BOT_DM") is
/// the bot's own channel: it may post there. An interaction without a context (older
/// payloads) is taken as before user installs existed: the bot is where it is used.
pub fn answer_only(
    context: Option<InteractionContext>,
    owners: &AuthorizingIntegrationOwners,
) -> bool {
    match context {
        Some(InteractionContext::PrivateChannel) => true,
        Some(InteractionContext::Guild) => {
            !owners.0.is_empty()
                && !owners
                    .0
                    .iter()
                    .any(|o| matches!(o, AuthorizingIntegrationOwner::GuildInstall(Some(_))))
        }
        _ => false,
    }
}

/// The installations that offer a command that reaches `reach`: a server's, and for what
/// needs no server a person's own too. A person's installation in a server without the bot
/// does not offer the server's commands: the bot could post nothing there (no tournament
/// rounds), and they are the server's to give.
pub fn integration_types(reach: Reach) -> Vec<InstallationContext> {
    match reach {
        Reach::Server => vec![InstallationContext::Guild],
        Reach::Anywhere => vec![InstallationContext::Guild, InstallationContext::User],
    }
}

/// The interaction contexts of a command that reaches `reach`.
pub fn contexts(reach: Reach) -> Vec<InteractionContext> {
    match reach {
        Reach::Server => vec![InteractionContext::Guild],
        Reach::Anywhere => vec![
            InteractionContext::Guild,
            InteractionContext::BotDm,
            InteractionContext::PrivateChannel,
        ],
    }
}

/// The channels where the bot can only answer, as last seen.
#[derive(Default)]
pub struct AnswerOnlyChannels(Mutex<HashMap<u64, Instant>>);

impl AnswerOnlyChannels {
    /// What an interaction in `channel` (or a refused post there) showed.
    pub fn learn(&self, channel: u64, answer_only: bool) {
        let mut seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !answer_only {
            seen.remove(&channel);
            return;
        }
        if seen.len() >= MAX_CHANNELS && !seen.contains_key(&channel) {
            // Forget the tenth unseen longest, at once: this runs once per that many channels.
            let mut times: Vec<Instant> = seen.values().copied().collect();
            let cut = MAX_CHANNELS / 10;
            let (_, &mut nth, _) = times.select_nth_unstable(cut);
            seen.retain(|_, at| *at > nth);
        }
        seen.insert(channel, Instant::now());
    }

    pub fn contains(&self, channel: u64) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(&channel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::all::{GuildId, UserId};

    fn owners(list: Vec<AuthorizingIntegrationOwner>) -> AuthorizingIntegrationOwners {
        AuthorizingIntegrationOwners(list)
    }

    #[test]
    fn only_a_bot_that_is_no_member_of_the_channel_is_answer_only() {
        let user = AuthorizingIntegrationOwner::UserInstall(UserId::new(7));
        let guild = AuthorizingIntegrationOwner::GuildInstall(Some(GuildId::new(9)));
        let bot_dm = AuthorizingIntegrationOwner::GuildInstall(None);
        let group = Some(InteractionContext::PrivateChannel);
        assert!(answer_only(group, &owners(vec![user.clone()])));
        let server = Some(InteractionContext::Guild);
        assert!(answer_only(server, &owners(vec![user.clone()])));
        assert!(!answer_only(
            server,
            &owners(vec![user.clone(), guild.clone()])
        ));
        assert!(!answer_only(server, &owners(vec![guild])));
        let dm = Some(InteractionContext::BotDm);
        assert!(!answer_only(dm, &owners(vec![bot_dm])));
        assert!(!answer_only(dm, &owners(vec![user])));
        assert!(!answer_only(None, &owners(vec![])));
    }

    #[test]
    fn channels_are_learned_and_unlearned() {
        let channels = AnswerOnlyChannels::default();
        channels.learn(1, true);
        assert!(channels.contains(1));
        assert!(!channels.contains(2));
        channels.learn(1, false);
        assert!(!channels.contains(1));
    }
}
