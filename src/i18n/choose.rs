//! Which language a visit opens in: `?lang=` when it names a catalog (any
//! other value: English, silently), else the one the reader picked on this
//! site before, else the first of the browser's languages the page speaks
//! (by language: `zh-TW` and `zh-Hans` read the Chinese catalog, `en-GB`
//! the English), else English.

use super::{tags, ENGLISH};

pub fn choose(param: Option<&str>, stored: Option<&str>, browser: &[String]) -> &'static str {
    if let Some(p) = param {
        return exact(p).unwrap_or(ENGLISH);
    }
    stored
        .and_then(exact)
        .or_else(|| browser.iter().find_map(|b| by_language(b)))
        .unwrap_or(ENGLISH)
}

/// The catalog with this tag (case aside).
fn exact(tag: &str) -> Option<&'static str> {
    tags().find(|t| t.eq_ignore_ascii_case(tag.trim()))
}

/// The catalog for a browser language: the exact tag, else the first
/// catalog of the same language.
fn by_language(tag: &str) -> Option<&'static str> {
    let language = |t: &str| {
        t.split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    exact(tag).or_else(|| tags().find(|t| language(t) == language(tag)))
}
