//! The rules a well-typed lesson must still follow: sizes, lane and option
//! numbers that exist, lanes the decoding crate accepts, recordings that
//! belong to their step.

use super::error::{LessonError, Problem};
use super::format::*;
use crate::share::{MAX_LANES, MAX_PROMPT_CHARS};
use ntl_decoding::Document;

fn invalid(path: impl Into<String>, problem: Problem) -> LessonError {
    LessonError::Invalid {
        path: path.into(),
        problem,
    }
}

fn text(path: &str, text: &str, max: usize, required: bool) -> Result<(), LessonError> {
    if required && text.trim().is_empty() {
        return Err(invalid(path, Problem::Empty));
    }
    if text.chars().count() > max {
        return Err(invalid(path, Problem::TooLong(max)));
    }
    Ok(())
}

fn count(path: &str, found: usize, max: usize) -> Result<(), LessonError> {
    match found {
        0 => Err(invalid(path, Problem::Empty)),
        n if n > max => Err(invalid(path, Problem::TooMany { found, max })),
        _ => Ok(()),
    }
}

/// `en`, `zh-CN`, `pt-BR`, `zh-Hant-TW`: letters, then subtags.
fn language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    (2..=3).contains(&primary.len())
        && primary.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn model(path: &str, name: &str) -> Result<(), LessonError> {
    if crate::valid_model_name(name) {
        Ok(())
    } else {
        Err(invalid(
            path,
            Problem::Model(name.chars().take(80).collect()),
        ))
    }
}

/// A path beside the lesson: relative, inside its folder, a `.json` file.
pub fn recording_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 200
        && path.ends_with(".json")
        && !path.starts_with('/')
        && !path.contains("://")
        && !path.contains('\\')
        && !path.contains(':')
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

pub(super) fn lesson(l: &Lesson) -> Result<(), LessonError> {
    text("title", &l.title, MAX_TITLE_CHARS, true)?;
    if !language_tag(&l.language) {
        return Err(invalid(
            "language",
            Problem::Language(l.language.chars().take(20).collect()),
        ));
    }
    model("model", &l.model)?;
    text("summary", &l.summary, MAX_PROSE_CHARS, false)?;
    text("source", &l.source, MAX_TITLE_CHARS, false)?;
    count("steps", l.steps.len(), MAX_STEPS)?;
    for (i, s) in l.steps.iter().enumerate() {
        step(&format!("steps[{i}]"), s)?;
    }
    Ok(())
}

fn step(at: &str, s: &LessonStep) -> Result<(), LessonError> {
    text(&format!("{at}.title"), &s.title, MAX_TITLE_CHARS, false)?;
    text(&format!("{at}.prose"), &s.prose, MAX_PROSE_CHARS, false)?;
    text(&format!("{at}.prompt"), &s.prompt, MAX_PROMPT_CHARS, false)?;
    count(&format!("{at}.lanes"), s.lanes.len(), MAX_LANES)?;
    let lanes = s.lanes.len();
    if s.lane_models.len() > lanes {
        return Err(invalid(
            format!("{at}.lane_models"),
            Problem::TooMany {
                found: s.lane_models.len(),
                max: lanes,
            },
        ));
    }
    for (i, name) in s.lane_models.iter().enumerate() {
        if let Some(name) = name {
            model(&format!("{at}.lane_models[{i}]"), name)?;
        }
    }
    let lane = |path: String, lane: usize| {
        if (1..=lanes).contains(&lane) {
            Ok(())
        } else {
            Err(invalid(path, Problem::NoSuchLane { lane, lanes }))
        }
    };
    match &s.recording {
        None => {}
        Some(Recording::File(path)) if !recording_path(path) => {
            return Err(invalid(
                format!("{at}.recording"),
                Problem::RecordingPath(path.chars().take(80).collect()),
            ))
        }
        Some(Recording::File(_)) => {}
        Some(Recording::Inline(doc)) => recording_fits(&format!("{at}.recording"), s, doc)?,
    }
    if s.open.is_some_and(|o| o.step == 0) {
        return Err(invalid(format!("{at}.open.step"), Problem::StepZero));
    }
    if let Some(tree) = s.tree {
        use ntl_decoding::sample_tree::{MAX_TREE_SAMPLES, MAX_TREE_TOKENS};
        lane(format!("{at}.tree.lane"), tree.lane)?;
        for (field, found, max) in [
            ("samples", tree.samples, MAX_TREE_SAMPLES),
            ("tokens", tree.tokens, MAX_TREE_TOKENS),
        ] {
            if !(1..=max).contains(&found) {
                let problem = Problem::OutOfRange { found, min: 1, max };
                return Err(invalid(format!("{at}.tree.{field}"), problem));
            }
        }
    }
    if s.questions.len() > MAX_QUESTIONS {
        return Err(invalid(
            format!("{at}.questions"),
            Problem::TooMany {
                found: s.questions.len(),
                max: MAX_QUESTIONS,
            },
        ));
    }
    for (i, q) in s.questions.iter().enumerate() {
        let at = format!("{at}.questions[{i}]");
        match q {
            Question::NextToken {
                lane: l,
                step,
                explanation,
            } => {
                lane(format!("{at}.lane"), *l)?;
                if *step == 0 {
                    return Err(invalid(format!("{at}.step"), Problem::StepZero));
                }
                text(
                    &format!("{at}.explanation"),
                    explanation,
                    MAX_PROSE_CHARS,
                    false,
                )?;
            }
            Question::WhichLane {
                ask,
                answer,
                explanation,
            } => {
                text(&format!("{at}.ask"), ask, MAX_TITLE_CHARS * 4, true)?;
                lane(format!("{at}.answer"), *answer)?;
                text(
                    &format!("{at}.explanation"),
                    explanation,
                    MAX_PROSE_CHARS,
                    false,
                )?;
            }
            Question::Choice {
                ask,
                options,
                answer,
                explanation,
            } => {
                text(&format!("{at}.ask"), ask, MAX_TITLE_CHARS * 4, true)?;
                if !(2..=MAX_OPTIONS).contains(&options.len()) {
                    return Err(invalid(
                        format!("{at}.options"),
                        Problem::OptionCount {
                            found: options.len(),
                            max: MAX_OPTIONS,
                        },
                    ));
                }
                for (k, o) in options.iter().enumerate() {
                    text(&format!("{at}.options[{k}]"), o, MAX_TITLE_CHARS * 2, true)?;
                }
                if !(1..=options.len()).contains(answer) {
                    return Err(invalid(
                        format!("{at}.answer"),
                        Problem::NoSuchOption {
                            answer: *answer,
                            options: options.len(),
                        },
                    ));
                }
                text(
                    &format!("{at}.explanation"),
                    explanation,
                    MAX_PROSE_CHARS,
                    false,
                )?;
            }
        }
    }
    if let Some(p) = &s.printed {
        text(
            &format!("{at}.printed.source"),
            &p.source,
            MAX_TITLE_CHARS,
            true,
        )?;
        model(&format!("{at}.printed.model"), &p.model)?;
        for (i, pl) in p.lanes.iter().enumerate() {
            lane(format!("{at}.printed.lanes[{i}].lane"), pl.lane)?;
        }
    }
    Ok(())
}

/// A recorded run belongs to its step: one run per lane, the same prompt
/// (a file's recording is checked the same way once it is fetched).
pub fn recording_fits(at: &str, s: &LessonStep, doc: &Document) -> Result<(), LessonError> {
    if doc.runs.len() != s.lanes.len() {
        return Err(invalid(
            at,
            Problem::RecordingLanes {
                runs: doc.runs.len(),
                lanes: s.lanes.len(),
            },
        ));
    }
    if doc.prompt != s.prompt {
        return Err(invalid(at, Problem::RecordingPrompt));
    }
    Ok(())
}
