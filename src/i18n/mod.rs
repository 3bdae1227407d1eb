//! The page's words in the reader's language. Each language is a Project
//! Fluent catalog, `www/locales/<tag>.ftl` (compiled in by `build.rs`, so a
//! new language is a file); English is the reference, and the fallback for
//! any message another catalog lacks. Components read the current language
//! from a Yew context ([`I18n`]) and ask for messages by id.
//!
//! - `choose`: which language a visit opens in.
//! - `knobs`: the knobs' help and headings.
//! - `notes`: the engine's "does nothing here" notes.
//! - `errors`: typed errors (engine, lesson format, page) worded.
//! - `said`: what the page says above the lanes and beside knobs.
//! - `tree`: why a sample tree is refused.

pub mod choose;
pub mod errors;
#[cfg(test)]
mod errors_tests;
pub mod knobs;
pub mod notes;
pub mod said;
#[cfg(test)]
mod tests;
pub mod tree;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use std::rc::Rc;
use unic_langid::LanguageIdentifier;

/// `(tag, catalog text)`, English first.
const CATALOGS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/locales.rs"));

/// The reference language.
pub const ENGLISH: &str = "en";

struct Catalog {
    tag: &'static str,
    bundle: FluentBundle<FluentResource>,
}

fn catalog(tag: &'static str, text: &'static str) -> Catalog {
    // A catalog with a syntax error still gives the messages it could read
    // (a test keeps the shipped ones error-free).
    let resource = FluentResource::try_new(text.to_string()).unwrap_or_else(|(r, _)| r);
    let id: LanguageIdentifier = tag.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new(vec![id]);
    // No Unicode isolation marks around variables: the page sets `lang` and
    // `dir` itself, and the marks would show in copied text.
    bundle.set_use_isolating(false);
    let _ = bundle.add_resource(resource);
    Catalog { tag, bundle }
}

thread_local! {
    static ALL: Rc<Vec<Catalog>> =
        Rc::new(CATALOGS.iter().map(|&(tag, text)| catalog(tag, text)).collect());
}

/// The language the page speaks: a catalog, with English behind it.
#[derive(Clone)]
pub struct I18n {
    all: Rc<Vec<Catalog>>,
    /// Index into `all` (0 is English).
    at: usize,
}

impl PartialEq for I18n {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at
    }
}

impl std::fmt::Debug for I18n {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

impl Default for I18n {
    fn default() -> Self {
        I18n::new(ENGLISH)
    }
}

impl I18n {
    /// The catalog for `tag` (one of [`tags`]); English for any other.
    pub fn new(tag: &str) -> I18n {
        let all = ALL.with(Rc::clone);
        let at = all.iter().position(|c| c.tag == tag).unwrap_or(0);
        I18n { all, at }
    }

    /// The language's tag, as `lang` and `?lang=` write it.
    pub fn tag(&self) -> &'static str {
        self.all[self.at].tag
    }

    /// A message with no variables.
    pub fn t(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// A message with variables (numbers choose the plural form).
    pub fn t_with(&self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            fa.set(*k, v.clone());
        }
        self.format(id, Some(&fa))
    }

    /// Lanes named in a sentence: "lane 3", "lanes 1, 2 and 4" (0-based in).
    pub fn lane_list(&self, lanes: &[usize]) -> String {
        let Some((last, init)) = lanes.split_last() else {
            return String::new();
        };
        let init = init
            .iter()
            .map(|l| (l + 1).to_string())
            .collect::<Vec<_>>()
            .join(&self.t("list-separator"));
        self.t_with(
            "lane-list",
            &[
                ("count", lanes.len().into()),
                ("init", init.into()),
                ("last", (last + 1).into()),
            ],
        )
    }

    fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        let own = &self.all[self.at];
        let english = &self.all[0];
        for c in [own, english] {
            if let Some(pattern) = c.bundle.get_message(id).and_then(|m| m.value()) {
                let mut errors = vec![];
                return c
                    .bundle
                    .format_pattern(pattern, args, &mut errors)
                    .into_owned();
            }
        }
        // Not in English either: a bug the catalog tests catch; the id shows.
        id.to_string()
    }
}

/// Every language the page speaks: its tag and its own name for itself.
pub fn languages() -> Vec<(&'static str, String)> {
    CATALOGS
        .iter()
        .map(|&(tag, _)| (tag, I18n::new(tag).t("language-name")))
        .collect()
}

/// The tags of the catalogs, English first.
pub fn tags() -> impl Iterator<Item = &'static str> {
    CATALOGS.iter().map(|&(tag, _)| tag)
}
