//! Why a lesson file is refused: one message, naming the field at fault.

use super::format::{FORMAT_VERSION, MAX_LESSON_BYTES};
use ntl_decoding::ConfigError;

/// Every message starts "this lesson cannot be opened" and says where.
#[derive(Debug, thiserror::Error)]
pub enum LessonError {
    #[error(
        "{PREFIX}it is {0} bytes; a lesson file may be at most {MAX_MB} MB \
         (keep long recorded runs in files of their own beside it)"
    )]
    TooLarge(usize),
    #[error("{PREFIX}it is not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("{PREFIX}it is not a JSON object with a `version` and `steps`")]
    NotAnObject,
    #[error("{PREFIX}it has no `version` (this page reads lesson format {FORMAT_VERSION})")]
    NoVersion,
    #[error(
        "{PREFIX}it is lesson format {0}; this page reads format {FORMAT_VERSION} \
         (a newer page may open it)"
    )]
    OtherVersion(String),
    /// A field of the wrong type, a missing or unknown field.
    #[error("{PREFIX}at `{path}`: {source}")]
    Shape {
        path: String,
        #[source]
        source: serde_json::Error,
    },
    /// A lane the decoding crate refuses.
    #[error("{PREFIX}at `{path}`: {source}")]
    Lane {
        path: String,
        #[source]
        source: ConfigError,
    },
    #[error("{PREFIX}at `{path}`: {problem}")]
    Invalid { path: String, problem: Problem },
}

const PREFIX: &str = "this lesson cannot be opened: ";
const MAX_MB: usize = MAX_LESSON_BYTES / (1024 * 1024);

impl LessonError {
    /// The field at fault (`steps[3].questions[0].lane`), when one is.
    pub fn path(&self) -> Option<&str> {
        match self {
            LessonError::Shape { path, .. }
            | LessonError::Lane { path, .. }
            | LessonError::Invalid { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// What is wrong with a value of the right type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    #[error("it is empty")]
    Empty,
    #[error("it is longer than {0} characters")]
    TooLong(usize),
    #[error("it holds {found}; at most {max} are read")]
    TooMany { found: usize, max: usize },
    #[error("`{0}` is not a language tag such as `en` or `zh-CN`")]
    Language(String),
    #[error(
        "`{0}` is not `bundled` (the page's offline model), a hub repo id (`owner/name`) \
         or a model folder beside the page (`models/name/`)"
    )]
    Model(String),
    #[error("lane {lane} does not exist: this step has lanes 1 to {lanes}")]
    NoSuchLane { lane: usize, lanes: usize },
    #[error("option {answer} does not exist: this question has options 1 to {options}")]
    NoSuchOption { answer: usize, options: usize },
    #[error("a multiple-choice question needs 2 to {max} options; it has {found}")]
    OptionCount { found: usize, max: usize },
    #[error("steps are counted from 1")]
    StepZero,
    #[error("it is {found}; it must be {min} to {max}")]
    OutOfRange {
        found: usize,
        min: usize,
        max: usize,
    },
    #[error(
        "`{0}` is not a path to a `.json` file beside the lesson \
         (no `..`, no leading `/`, no other site)"
    )]
    RecordingPath(String),
    #[error("the recorded run has {runs} lanes and the step {lanes}")]
    RecordingLanes { runs: usize, lanes: usize },
    #[error("the recorded run's prompt is not the step's prompt")]
    RecordingPrompt,
}
