//! Lessons on the page: the built-in ones (the files under `www/lessons/`,
//! compiled in so the list is there before anything loads), where an open
//! lesson came from, and what a step puts in the editor. The format itself
//! is `ntl_protocol::lesson`.

use crate::lane_config::LaneKnobs;
use crate::lanes::LANES;
use crate::rc_eq::RcEq;
use ntl_protocol::lesson::{self, link, Lesson, LessonStep, Recording};

pub mod address;

#[cfg(test)]
mod tests;

/// Where the built-in lessons and their recordings are served, beside the page.
pub const BUILT_IN_DIR: &str = "lessons/";

/// `(file, text)` in the order of `www/lessons/index.json` (see `build.rs`).
const BUILT_IN_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/built_in_lessons.rs"));

pub struct BuiltIn {
    /// Its file under `www/lessons/`: `four-runs.json`, and its Chinese
    /// version `four-runs.zh-CN.json` (a translation is named after its
    /// original and has the same steps, prompts, lanes and recordings).
    pub file: &'static str,
    pub lesson: RcEq<Lesson>,
}

// Parsed on first use, per thread (`RcEq` is not `Sync`; the page has one).
thread_local! {
    static BUILT_IN: Vec<BuiltIn> = BUILT_IN_FILES
        .iter()
        .map(|&(file, text)| BuiltIn {
            file,
            lesson: RcEq::new(
                lesson::parse(text.as_bytes())
                    .unwrap_or_else(|e| panic!("built-in lesson {file}: {e}")),
            ),
        })
        .collect();
}

/// The built-in lessons (a test proves every file parses).
pub fn built_in<R>(f: impl FnOnce(&[BuiltIn]) -> R) -> R {
    BUILT_IN.with(|all| f(all))
}

/// The file name a built-in lesson's version in `lang` has: the original's
/// for English, `<original>.<lang>.json` for another language.
fn file_in(file: &str, lang: &str) -> String {
    let stem = original_stem(file);
    if lang == crate::i18n::ENGLISH {
        format!("{stem}.json")
    } else {
        format!("{stem}.{lang}.json")
    }
}

/// `four-runs` for `four-runs.json` and `four-runs.zh-CN.json`.
fn original_stem(file: &str) -> &str {
    let stem = file.strip_suffix(".json").unwrap_or(file);
    crate::i18n::tags()
        .find_map(|tag| stem.strip_suffix(&format!(".{tag}")))
        .unwrap_or(stem)
}

/// Built-in lesson `i` in `lang`: its translation, or itself where there is none.
pub fn counterpart(i: usize, lang: &str) -> usize {
    built_in(|all| {
        let Some(b) = all.get(i) else {
            return i;
        };
        let want = file_in(b.file, lang);
        all.iter().position(|o| o.file == want).unwrap_or(i)
    })
}

/// The built-in lessons a reader of `lang` is offered, in the originals'
/// order: each in `lang` where it is translated, else as written.
pub fn offered(lang: &str) -> Vec<usize> {
    let originals: Vec<usize> = built_in(|all| {
        (0..all.len())
            .filter(|&i| original_stem(all[i].file) == all[i].file.trim_end_matches(".json"))
            .collect()
    });
    originals
        .into_iter()
        .map(|i| counterpart(i, lang))
        .collect()
}

/// A lesson's title as a file name's stem: its words (letters and digits
/// of any script) in lower case joined by dashes, at most 60 characters;
/// `lesson` when it has none.
pub fn title_slug(title: &str) -> String {
    let slug: String = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
        .chars()
        .take(60)
        .collect();
    if slug.is_empty() {
        "lesson".into()
    } else {
        slug
    }
}

/// Where an open lesson came from.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonFrom {
    /// The n-th built-in lesson.
    BuiltIn(usize),
    /// `?lesson=`: a path on this site, relative to the page.
    Site(String),
    /// A file the user picked or dropped (its name).
    File(String),
    /// A lesson link (`#lesson=`): its recordings are paths on this site,
    /// relative to the page.
    Link,
    /// The lesson being written on this page, previewed (its recordings
    /// are inline).
    Writer,
}

/// A lesson the page holds.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenLesson {
    pub lesson: RcEq<Lesson>,
    pub from: LessonFrom,
}

impl OpenLesson {
    pub fn built_in(i: usize) -> Option<OpenLesson> {
        built_in(|all| all.get(i).map(|b| b.lesson.clone())).map(|lesson| OpenLesson {
            lesson,
            from: LessonFrom::BuiltIn(i),
        })
    }

    pub fn step(&self, i: usize) -> Option<&LessonStep> {
        self.lesson.steps.get(i)
    }

    /// Where step `i`'s recording file is, relative to the page; `None` when
    /// it has none, holds it inline, or came from a picked file (whose
    /// neighbours the page cannot read).
    pub fn recording_url(&self, i: usize) -> Option<String> {
        let Some(Recording::File(path)) = &self.step(i)?.recording else {
            return None;
        };
        match &self.from {
            LessonFrom::BuiltIn(_) => Some(format!("{BUILT_IN_DIR}{path}")),
            LessonFrom::Site(lesson) => Some(address::beside(lesson, path)),
            LessonFrom::Link => Some(path.clone()),
            LessonFrom::File(_) | LessonFrom::Writer => None,
        }
    }

    /// The lesson as a `#lesson=` value, and how many recordings stay
    /// behind: a recording file keeps travelling as its path from the page
    /// (the link opens on the same site); inline recordings and a picked
    /// file's neighbours do not.
    pub fn as_link(&self) -> Result<(String, usize), link::TooLongForALink> {
        let mut lesson = (*self.lesson).clone();
        let mut left = 0;
        for (i, step) in lesson.steps.iter_mut().enumerate() {
            if let Some(Recording::File(_)) = step.recording {
                step.recording = self
                    .recording_url(i)
                    .filter(|p| lesson::validate::recording_path(p))
                    .map(Recording::File);
                left += usize::from(step.recording.is_none());
            }
        }
        let (text, inline) = link::encode(&lesson)?;
        Ok((text, left + inline))
    }
}

/// The editor's four lanes for a step: its own, then the first built-in
/// lesson's for lanes it does not set (as a share link's are filled).
pub fn step_lanes(step: &LessonStep) -> [LaneKnobs; LANES] {
    let first = built_in(|all| {
        all.first()
            .map(|b| b.lesson.steps[0].lanes.clone())
            .unwrap_or_default()
    });
    std::array::from_fn(|i| {
        step.lanes
            .get(i)
            .or(first.get(i))
            .cloned()
            .unwrap_or_default()
    })
}

/// A built-in lesson's step by the lesson's title (tests name lessons so).
#[cfg(test)]
pub fn built_in_step(title: &str, step: usize) -> LessonStep {
    built_in(|all| {
        all.iter()
            .find(|b| b.lesson.title == title)
            .unwrap_or_else(|| panic!("no built-in lesson {title:?}"))
            .lesson
            .steps[step]
            .clone()
    })
}
