//! What the app could not post in an answer-only channel ([`Delivery::answer_only`]): a
//! reminder, a loss on time, an expired challenge, a bot move started by a (re)connection.
//! Nothing can be posted there, so nothing waits on a post: each such reply is held here, in
//! memory, and follows the answer to the next request made in that channel ([`App::serve`]).
//! A process that stops loses what it held; what the store knows (the channel's current board,
//! a move the bot owes) is shown at the next request all the same.
//!
//! [`Delivery::answer_only`]: super::deliver::Delivery::answer_only
//! [`App::serve`]: super::App::serve

use super::Reply;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The most channels with replies held: past it, the channel that has waited longest loses
/// its replies (a conversation nobody came back to).
const MAX_CHANNELS: usize = 10_000;
/// The most replies held for one channel: the newest ones (an older reminder or board says
/// less than the latest).
const MAX_PER_CHANNEL: usize = 4;

/// Replies waiting for the next request in their channel. Cheap to clone; clones share them.
#[derive(Clone, Default)]
pub(crate) struct HeldReplies(Arc<Mutex<Held>>);

#[derive(Default)]
struct Held {
    /// Counts holds, to tell which channel has waited longest.
    count: u64,
    /// Channel → (the count when it was last held for, its replies oldest first).
    by_channel: HashMap<u64, (u64, Vec<Reply>)>,
}

impl HeldReplies {
    /// Holds `reply` for the next request made in `channel`.
    pub(crate) fn hold(&self, channel: u64, reply: Reply) {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.count += 1;
        let count = held.count;
        if !held.by_channel.contains_key(&channel) && held.by_channel.len() >= MAX_CHANNELS {
            let longest = held
                .by_channel
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(&c, _)| c);
            if let Some(c) = longest {
                held.by_channel.remove(&c);
            }
        }
        let (at, replies) = held.by_channel.entry(channel).or_default();
        *at = count;
        replies.push(reply);
        if replies.len() > MAX_PER_CHANNEL {
            let extra = replies.len() - MAX_PER_CHANNEL;
            replies.drain(..extra);
        }
    }

    /// The replies held for `channel`, oldest first; none are held for it any more.
    pub(crate) fn take(&self, channel: u64) -> Vec<Reply> {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.by_channel
            .remove(&channel)
            .map(|(_, replies)| replies)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_replies_of_a_channel_are_held_until_taken() {
        let held = HeldReplies::default();
        for i in 0..MAX_PER_CHANNEL + 2 {
            held.hold(1, Reply::public(format!("notice {i}")));
        }
        held.hold(2, Reply::public("elsewhere"));
        let texts: Vec<String> = held.take(1).into_iter().map(|r| r.text).collect();
        let expected: Vec<String> = (2..MAX_PER_CHANNEL + 2)
            .map(|i| format!("notice {i}"))
            .collect();
        assert_eq!(texts, expected);
        assert!(held.take(1).is_empty(), "taken once");
        assert_eq!(held.take(2).len(), 1);
    }

    #[test]
    fn the_channel_waiting_longest_makes_room() {
        let held = HeldReplies::default();
        for channel in 0..MAX_CHANNELS as u64 {
            held.hold(channel, Reply::public("x"));
        }
        // Channel 0 is held for again: channel 1 has now waited longest.
        held.hold(0, Reply::public("again"));
        held.hold(u64::MAX, Reply::public("new"));
        assert!(held.take(1).is_empty());
        assert_eq!(held.take(0).len(), 2);
        assert_eq!(held.take(u64::MAX).len(), 1);
        assert_eq!(held.take(2).len(), 1);
    }
}
