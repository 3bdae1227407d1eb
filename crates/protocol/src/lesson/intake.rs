//! From a file's bytes to a checked [`Lesson`]: size, JSON, version, shape
//! (with the path of the field at fault), then the rules in `validate`.

use super::error::LessonError;
use super::format::{Lesson, FORMAT_VERSION, MAX_LESSON_BYTES};
use super::validate;
use ntl_decoding::{Document, LaneKnobs};
use serde_json::Value;

/// Reads a lesson file; every refusal names what to fix.
pub fn parse(bytes: &[u8]) -> Result<Lesson, LessonError> {
    if bytes.len() > MAX_LESSON_BYTES {
        return Err(LessonError::TooLarge(bytes.len()));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(LessonError::NotJson)?;
    let Some(object) = value.as_object() else {
        return Err(LessonError::NotAnObject);
    };
    match object.get("version") {
        None => return Err(LessonError::NoVersion),
        Some(v) if v.as_u64() == Some(FORMAT_VERSION.into()) => {}
        Some(v) => {
            return Err(LessonError::OtherVersion(
                v.to_string().chars().take(16).collect(),
            ))
        }
    }
    inline_recordings(&value)?;
    lanes(&value)?;
    let lesson: Lesson = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        LessonError::Shape {
            path,
            source: e.into_inner(),
        }
    })?;
    validate::lesson(&lesson)?;
    Ok(lesson)
}

/// A lane the decoding crate refuses, reported under its own path with the
/// crate's message (inside serde it would lose both).
fn lanes(value: &Value) -> Result<(), LessonError> {
    let Some(steps) = value.get("steps").and_then(Value::as_array) else {
        return Ok(());
    };
    for (i, step) in steps.iter().enumerate() {
        let Some(lanes) = step.get("lanes").and_then(Value::as_array) else {
            continue;
        };
        for (j, lane) in lanes.iter().enumerate() {
            LaneKnobs::from_value(lane.clone()).map_err(|source| LessonError::Lane {
                path: format!("steps[{i}].lanes[{j}]"),
                source,
            })?;
        }
    }
    Ok(())
}

/// An inline recording that is not a run document, reported under its own
/// field (the untagged `Recording` would only say it matched no variant).
fn inline_recordings(value: &Value) -> Result<(), LessonError> {
    let Some(steps) = value.get("steps").and_then(Value::as_array) else {
        return Ok(());
    };
    for (i, step) in steps.iter().enumerate() {
        match step.get("recording") {
            Some(r @ Value::Object(_)) => {
                serde_path_to_error::deserialize::<_, Document>(r.clone()).map_err(|e| {
                    LessonError::Shape {
                        path: format!("steps[{i}].recording.{}", e.path()),
                        source: e.into_inner(),
                    }
                })?;
            }
            None | Some(Value::String(_) | Value::Null) => {}
            Some(_) => return Err(LessonError::Shape {
                path: format!("steps[{i}].recording"),
                source: serde::de::Error::custom(
                    "expected a path to a recorded run (a string) or the run itself (an object)",
                ),
            }),
        }
    }
    Ok(())
}
