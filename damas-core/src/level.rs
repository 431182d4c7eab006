//! The computer's four levels as values: their ids and names, nothing about how they search.
//!
//! Its own module below `ai` and `store` because both need it: a stored game names the level
//! the computer plays at and a player's record keeps one tally per level, while the search
//! limits of each level stay in `ai` (`ai::SearchLimits`, `Level::limits`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// How strong the computer plays. Easy, Medium and Hard judge positions with the evaluation
/// described to players in docs/GAME-APP.md; Expert adds its own knowledge and a transposition
/// table.
///
/// Stored (and written in JSON) as its [`Level::id`], the string records held before the
/// type existed; a stored id that names no level is an error, never a guess (see the
/// `Deserialize` impl).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Level {
    /// One move in four at random, the rest from a two-ply search with a very noisy evaluation.
    Easy,
    /// Four plies plus every capture sequence.
    #[default]
    Medium,
    /// A fixed node budget: usually 8 to 12 plies plus captures.
    Hard,
    /// Iterative deepening with a transposition table and a richer evaluation, on a clock.
    Expert,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?}: use easy, medium, hard or expert")]
pub struct UnknownLevel(pub String);

impl Level {
    /// In order of strength, which is also [`Level::index`]'s order: a player's record keeps
    /// one tally per level in this order and the leaderboards' keys use it, so a new level
    /// goes at the end.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The identifier used on the command line, in storage, in metrics and in component ids.
    pub const fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The level whose [`Level::id`] is `id` exactly (what storage holds; people's words go
    /// through [`FromStr`]).
    pub fn from_id(id: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.id() == id)
    }

    /// Position in [`Level::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What a person types, in English or Spanish, any case.
impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" | "facil" | "fácil" => Ok(Level::Easy),
            "medium" | "medio" => Ok(Level::Medium),
            "hard" | "dificil" | "difícil" => Ok(Level::Hard),
            "expert" | "experto" => Ok(Level::Expert),
            _ => Err(UnknownLevel(s.to_string())),
        }
    }
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// An unknown id is an error (the store reports the record as corrupt): the store has refused
/// to write a game with any other level name since its first version, so such a record was
/// not written by this bot, and guessing a level would change who the player faces and which
/// tally and leaderboard the game counts for.
impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let id = String::deserialize(d)?;
        Level::from_id(&id).ok_or_else(|| serde::de::Error::custom(UnknownLevel(id)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(level.index(), i);
            assert_eq!(level.id().parse::<Level>(), Ok(level));
            assert_eq!(Level::from_id(level.id()), Some(level));
            let json = serde_json::to_string(&level).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", level.id()));
            assert_eq!(serde_json::from_str::<Level>(&json).ok(), Some(level));
        }
        assert!("grandmaster".parse::<Level>().is_err());
        assert_eq!(Level::from_id("Hard"), None, "storage holds ids exactly");
        assert!(serde_json::from_str::<Level>("\"grandmaster\"").is_err());
    }
}
