//! Slash commands as the tests type them: the commands they send again and again, each with its
//! name and options written once here.

use super::payloads::{opt_str, opt_user, subcommand, Place, TestUser};
use super::{SentInteraction, StandIn};
use serde_json::Value;

/// A slash command with its options, for [`StandIn::slash`] and [`StandIn::send_slash`].
pub struct Slash {
    pub name: &'static str,
    pub options: Vec<Value>,
}

impl Slash {
    /// `/<name>` with no options (add some with [`Slash::with`]).
    pub fn named(name: &'static str) -> Slash {
        Slash {
            name,
            options: Vec::new(),
        }
    }

    /// `/play level:… variant:… colour:…`: a game against the computer.
    pub fn play_bot(level: &str, variant: &str, colour: &str) -> Slash {
        Slash::named("play")
            .with("level", level)
            .with("variant", variant)
            .with("colour", colour)
    }

    /// `/play level:easy colour:<colour>`: a game against the computer's easiest level, in
    /// the server's variant.
    pub fn play_easy(colour: &str) -> Slash {
        Slash::named("play")
            .with("level", "easy")
            .with("colour", colour)
    }

    /// `/move move:<notation>`.
    pub fn mv(notation: &str) -> Slash {
        Slash::named("move").with("move", notation)
    }

    /// `/challenge opponent:<user>` (add the rest with [`Slash::with`]).
    pub fn challenge(opponent: &TestUser) -> Slash {
        let mut c = Slash::named("challenge");
        c.options.push(opt_user("opponent", opponent));
        c
    }

    /// `/<name> <sub>` with `options` (from [`opt_str`], [`opt_int`]…), e.g. `/tournament
    /// create name:…`.
    pub fn subcommand(name: &'static str, sub: &str, options: Vec<Value>) -> Slash {
        Slash {
            name,
            options: vec![subcommand(sub, options)],
        }
    }

    /// The command with one more text option.
    pub fn with(mut self, name: &str, value: &str) -> Slash {
        self.options.push(opt_str(name, value));
        self
    }
}

impl StandIn {
    /// The interaction of `user` typing `command` in `place`.
    pub fn slash(&self, user: &TestUser, place: Place, command: Slash) -> Value {
        self.slash_command(user, place, command.name, command.options)
    }

    /// Sends the interaction of `user` typing `command` in `place`.
    pub async fn send_slash(
        &self,
        user: &TestUser,
        place: Place,
        command: Slash,
    ) -> SentInteraction {
        self.send_interaction(self.slash(user, place, command))
            .await
    }
}
