//! The interface languages.

use serde::{Deserialize, Serialize};

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = LanguageCode))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Fr,
    It,
}

impl Language {
    /// Every supported language.
    pub const ALL: [Language; 3] = [Language::En, Language::Fr, Language::It];

    /// ISO 639-1 code.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
            Language::It => "it",
        }
    }

    /// The language's own name for itself.
    pub fn native_name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Fr => "Français",
            Language::It => "Italiano",
        }
    }

    /// Parses a code such as `fr` or `fr-CH`.
    pub fn parse(code: &str) -> Option<Language> {
        let primary = code.split(['-', '_']).next()?.trim().to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_and_regions() {
        assert_eq!(Language::parse("fr"), Some(Language::Fr));
        assert_eq!(Language::parse("it-CH"), Some(Language::It));
        assert_eq!(Language::parse("EN"), Some(Language::En));
        assert_eq!(Language::parse("de"), None);
        assert_eq!(Language::parse(""), None);
    }
}
