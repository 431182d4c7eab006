//! The two languages the bot speaks, as values.
//!
//! Its own module below `store` and `app` because both need it: a stored game and challenge
//! keep the language the bot uses when it speaks in them on its own, and the texts
//! (`app::i18n`, which re-exports it) are worded per language.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Stored as its [`Lang::code`] (`es`, `en`), the string records held before the type
/// existed. English is the default: the language of old records, of locales that are neither
/// language, and of a stored code that names neither (see the `Deserialize` impl).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Lang {
    Es,
    #[default]
    En,
}

impl Lang {
    /// `es` or `en` (also `es-ES`, `en-US`…).
    pub fn from_code(code: &str) -> Option<Lang> {
        let c = code.trim().to_ascii_lowercase();
        if c == "es" || c.starts_with("es-") || c.starts_with("es_") {
            Some(Lang::Es)
        } else if c == "en" || c.starts_with("en-") || c.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// Spanish for every `es-*` Discord locale, English otherwise.
    pub fn from_locale(locale: &str) -> Lang {
        Lang::from_code(locale).unwrap_or_default()
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
        }
    }
}

impl Serialize for Lang {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A code that names neither language reads as English, as the app read such a string before
/// records held a `Lang`: the language only words what the bot says on its own in a game or
/// about a challenge, which is no reason to make the game or the challenge unreadable.
impl<'de> Deserialize<'de> for Lang {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let code = String::deserialize(d)?;
        Ok(Lang::from_locale(&code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_read_as_english() {
        for lang in [Lang::Es, Lang::En] {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
            let json = serde_json::to_string(&lang).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", lang.code()));
            assert_eq!(serde_json::from_str::<Lang>(&json).ok(), Some(lang));
        }
        assert_eq!(Lang::from_locale("es-419"), Lang::Es);
        assert_eq!(Lang::from_locale("pt-BR"), Lang::En);
        assert_eq!(
            serde_json::from_str::<Lang>("\"es-ES\"").ok(),
            Some(Lang::Es)
        );
        assert_eq!(serde_json::from_str::<Lang>("\"pt\"").ok(), Some(Lang::En));
    }
}
