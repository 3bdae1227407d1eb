//! The lesson format's types and limits (version 1).

use ntl_decoding::{Document, LaneKnobs};
use serde::{Deserialize, Serialize};

/// The format version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The largest lesson file read (long recorded runs belong in files of their own).
pub const MAX_LESSON_BYTES: usize = 2 * 1024 * 1024;
pub const MAX_STEPS: usize = 100;
pub const MAX_QUESTIONS: usize = 10;
pub const MAX_OPTIONS: usize = 8;
pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_PROSE_CHARS: usize = 20_000;

/// A lesson: a title, its language, the model it was written for, and steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// [`FORMAT_VERSION`].
    pub version: u32,
    pub title: String,
    /// A BCP 47 tag: `en`, `zh-CN`.
    pub language: String,
    /// `bundled` (the page's offline model) or a hub repo id (`owner/name`).
    #[serde(default = "bundled")]
    pub model: String,
    /// How the lesson's model keeps its weights: `q8_0` quantizes a
    /// safetensors model to 8 bits as it loads (a school's tablets hold a
    /// third of the memory), as the page's *8 bits* box does.
    #[serde(default, skip_serializing_if = "crate::LoadWeights::is_as_stored")]
    pub weights: crate::LoadWeights,
    /// One or two sentences on what the lesson teaches (Markdown).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub summary: String,
    /// Where the lesson's material comes from, e.g. a textbook chapter.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    pub steps: Vec<LessonStep>,
}

fn bundled() -> String {
    crate::share::BUNDLED.to_string()
}

/// One step: what to read, the prompt and lanes to run, and optionally the
/// run recorded, questions before it is shown, and a book's printed output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Markdown (no raw HTML: it is shown as text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prose: String,
    pub prompt: String,
    /// One to four lanes, each as a share link carries it: the HF
    /// `generation_config` fields set, or llama.cpp's after
    /// `"semantics": "llama.cpp"`.
    pub lanes: Vec<LaneKnobs>,
    /// Each lane's own model, by lane (`null`: the lesson's model), named as
    /// the lesson's `model` is: "is it the knobs or the model?".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lane_models: Vec<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recording: Option<Recording>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<Question>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printed: Option<Printed>,
    /// A step of the run to open in every lane once it shows (live or
    /// recorded), with the logit lens or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<OpenStep>,
    /// Many samples of one lane as a tree, grown when the step's run is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<TreeStep>,
}

/// The sample tree a lesson step grows: which lane (from 1), how many
/// samples, how many tokens each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeStep {
    pub lane: usize,
    pub samples: usize,
    pub tokens: usize,
}

/// The step a lesson step opens in the compare view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenStep {
    /// The generated token whose step opens, from 1.
    pub step: usize,
    /// Show the logit lens there (a live run records it; a recording must
    /// have been made with it, `decode --lens`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lens: bool,
}

/// The run this step's lanes make, so the step shows with no download: the
/// page's export document, inline or in a file beside the lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Recording {
    /// A path relative to the lesson file (`recordings/step-1.json`).
    File(String),
    Inline(Box<Document>),
}

/// What another tool printed for some of the step's lanes (a textbook's
/// `generate()` output), shown beside the page's own lanes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Printed {
    /// Where it was printed (a chapter's title).
    pub source: String,
    /// The hub repo it was printed on (`distilbert/distilgpt2`).
    pub model: String,
    pub lanes: Vec<PrintedLane>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrintedLane {
    /// 1 to 4.
    pub lane: usize,
    pub text: String,
}

/// A question the class answers before the step's run is shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// "Which token comes next in lane 2?": pick a candidate or type text.
    NextToken {
        /// 1 to the step's lane count.
        lane: usize,
        /// The generated token asked about, from 1 (the first new token).
        #[serde(default = "first")]
        step: usize,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        explanation: String,
    },
    /// "Which lane is greedy?": the answer is a lane.
    WhichLane {
        ask: String,
        /// 1 to the step's lane count.
        answer: usize,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        explanation: String,
    },
    /// Multiple choice written by the teacher.
    Choice {
        ask: String,
        options: Vec<String>,
        /// 1 to the number of options.
        answer: usize,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        explanation: String,
    },
}

fn first() -> usize {
    1
}

impl Lesson {
    /// The lesson as a file (pretty JSON, as a teacher would read it).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("lessons serialise")
    }
}

impl Printed {
    /// Whether `repo` is the model this was printed on, also by the bare
    /// name the hub still answers to (`distilgpt2` is `distilbert/distilgpt2`).
    pub fn printed_on(&self, repo: &str) -> bool {
        repo == self.model
            || (!repo.contains('/')
                && self
                    .model
                    .strip_suffix(repo)
                    .is_some_and(|o| o.ends_with('/')))
    }
}
