//! A lesson being written on the page, so a teacher never opens a text
//! editor: each "Save as lesson step" adds the page's prompt and lanes, a
//! note and, if asked, the run on screen; steps are retitled, reordered and
//! removed here, and the whole is checked as the lesson file it becomes.
//! The transitions that read the rest of the page are in `writer_steps`.

pub use super::writer_trouble::WriterTrouble;
use crate::lane_config::LaneKnobs;
use crate::said::Said;
use ntl_decoding::Document;
use ntl_protocol::lesson::{
    self, Lesson, LessonStep, Question, Recording, FORMAT_VERSION, MAX_LESSON_BYTES, MAX_STEPS,
};
use ntl_protocol::LoadWeights;

/// The question a step is saved with, as its fields are filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuestionKind {
    #[default]
    None,
    NextToken,
    WhichLane,
    Choice,
}

impl QuestionKind {
    pub const ALL: [QuestionKind; 4] = [
        QuestionKind::None,
        QuestionKind::NextToken,
        QuestionKind::WhichLane,
        QuestionKind::Choice,
    ];

    /// The lesson format's name (the select's value); `none` for no question.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionKind::None => "none",
            QuestionKind::NextToken => "next_token",
            QuestionKind::WhichLane => "which_lane",
            QuestionKind::Choice => "choice",
        }
    }

    pub fn parse(s: &str) -> QuestionKind {
        Self::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .unwrap_or_default()
    }
}

/// The form for the next step: its title, note, whether the run on screen
/// goes with it, and its question.
#[derive(Debug, Clone, PartialEq)]
pub struct NextStep {
    pub title: String,
    /// The step's prose (Markdown).
    pub note: String,
    pub attach: bool,
    pub kind: QuestionKind,
    /// The lane asked about (next token) or the right lane, from 1.
    pub lane: usize,
    pub ask: String,
    /// One option per line.
    pub options: String,
    /// The right option, from 1.
    pub answer: usize,
    pub explanation: String,
}

impl Default for NextStep {
    fn default() -> Self {
        NextStep {
            title: String::new(),
            note: String::new(),
            attach: true,
            kind: QuestionKind::None,
            lane: 1,
            ask: String::new(),
            options: String::new(),
            answer: 1,
            explanation: String::new(),
        }
    }
}

impl NextStep {
    /// The question as the lesson file holds it (checked with the step).
    pub fn question(&self) -> Option<Question> {
        let explanation = self.explanation.trim().to_string();
        match self.kind {
            QuestionKind::None => None,
            QuestionKind::NextToken => Some(Question::NextToken {
                lane: self.lane,
                step: 1,
                explanation,
            }),
            QuestionKind::WhichLane => Some(Question::WhichLane {
                ask: self.ask.trim().to_string(),
                answer: self.lane,
                explanation,
            }),
            QuestionKind::Choice => Some(Question::Choice {
                ask: self.ask.trim().to_string(),
                options: self
                    .options
                    .lines()
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect(),
                answer: self.answer,
                explanation,
            }),
        }
    }
}

/// What the lesson writer asks of the page.
#[derive(Debug, Clone, PartialEq)]
pub enum WriterAction {
    /// The next step's form as filled in.
    Form(NextStep),
    Title(String),
    Language(String),
    StepTitle(usize, String),
    StepNote(usize, String),
    /// Step `i` one place up (`true`) or down.
    Move(usize, bool),
    Remove(usize),
    /// "Save as lesson step", in the page's language (a new lesson's).
    SaveStep {
        language: &'static str,
    },
    Preview,
    Download,
    /// Start a new lesson (the draft goes).
    Clear,
}

/// What the page holds when a step is saved.
pub struct PageNow<'a> {
    pub prompt: &'a str,
    pub lanes: &'a [LaneKnobs],
    /// Each lane's own model (empty: every lane on the page's).
    pub lane_models: Vec<Option<String>>,
    /// Lanes (from 0) that start from the library's defaults.
    pub library_lanes: Vec<usize>,
    pub shared_randomness: bool,
    /// `bundled` or a hub repo; `None` for files from this computer.
    pub model: Option<String>,
    /// How the page keeps the model's weights (the *8 bits* box).
    pub weights: LoadWeights,
    /// The finished run on screen, when it ran exactly this prompt and
    /// these lanes; `Err` says why there is none to attach.
    pub run: Result<&'a Document, WriterTrouble>,
    /// The page's language, for a lesson's first step.
    pub language: &'a str,
    /// The step open in the compare view, and whether the lens shows.
    pub open: Option<ntl_protocol::lesson::OpenStep>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LessonWriter {
    /// The lesson so far (no steps yet, or an empty title, until written out).
    pub lesson: Lesson,
    pub next: NextStep,
    /// Whether the browser keeps the draft between visits (storage may be
    /// full or off: then the teacher is told to download it).
    pub kept: bool,
    /// The step just saved (from 0), said once.
    pub saved: Option<usize>,
    /// Why the last save, preview or download was refused.
    pub error: Option<Said>,
}

impl Default for LessonWriter {
    fn default() -> Self {
        LessonWriter {
            lesson: Lesson {
                version: FORMAT_VERSION,
                title: String::new(),
                language: crate::i18n::ENGLISH.to_string(),
                model: ntl_protocol::share::BUNDLED.to_string(),
                weights: LoadWeights::AsStored,
                summary: String::new(),
                source: String::new(),
                steps: vec![],
            },
            next: NextStep::default(),
            kept: true,
            saved: None,
            error: None,
        }
    }
}

impl LessonWriter {
    /// A draft the browser kept: read as a lesson, but unchecked (it may
    /// have no title or steps yet). `None` for anything else.
    pub fn restored(json: &str) -> Option<LessonWriter> {
        let lesson: Lesson = serde_json::from_str(json).ok()?;
        (lesson.version == FORMAT_VERSION).then(|| LessonWriter {
            lesson,
            ..Default::default()
        })
    }

    /// The draft as the browser keeps it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.lesson).expect("lessons serialise")
    }

    pub fn is_empty(&self) -> bool {
        self.lesson.steps.is_empty() && self.lesson.title.is_empty()
    }

    /// Adds the page as it is as the lesson's next step; the form empties
    /// for the step after. Nothing changes when it is refused.
    pub fn save_step(&mut self, now: PageNow<'_>) -> Result<(), WriterTrouble> {
        if self.lesson.steps.len() >= MAX_STEPS {
            return Err(WriterTrouble::Full);
        }
        let model = now.model.ok_or(WriterTrouble::NoModelName)?;
        if !self.lesson.steps.is_empty() && model != self.lesson.model {
            return Err(WriterTrouble::OtherModel {
                lesson: self.lesson.model.clone(),
                page: model,
            });
        }
        if !self.lesson.steps.is_empty() && now.weights != self.lesson.weights {
            return Err(WriterTrouble::OtherWeights {
                lesson: self.lesson.weights,
                page: now.weights,
            });
        }
        if now.shared_randomness {
            return Err(WriterTrouble::SharedRandomness);
        }
        if let Some(&lane) = now.library_lanes.first() {
            return Err(WriterTrouble::LibraryDefaults { lane: lane + 1 });
        }
        let recording = match (self.next.attach, now.run) {
            (false, _) => None,
            (true, Ok(doc)) => Some(Recording::Inline(Box::new(doc.clone()))),
            (true, Err(why)) => return Err(why),
        };
        let step = LessonStep {
            title: self.next.title.trim().to_string(),
            prose: self.next.note.trim().to_string(),
            prompt: now.prompt.to_string(),
            lanes: now.lanes.to_vec(),
            lane_models: now.lane_models,
            recording,
            questions: self.next.question().into_iter().collect(),
            printed: None,
            open: now.open,
            tree: None,
        };
        let mut lesson = self.lesson.clone();
        if lesson.steps.is_empty() {
            lesson.model = model;
            lesson.weights = now.weights;
            if lesson.title.is_empty() {
                lesson.language = now.language.to_string();
            }
        }
        lesson.steps.push(step);
        let bytes = lesson.to_json().len();
        if bytes > MAX_LESSON_BYTES {
            return Err(WriterTrouble::TooLarge {
                kb: bytes.div_ceil(1000),
                max_kb: MAX_LESSON_BYTES / 1000,
            });
        }
        check_step(&lesson, lesson.steps.len() - 1)?;
        self.lesson = lesson;
        let attach = self.next.attach;
        self.next = NextStep {
            attach,
            ..NextStep::default()
        };
        Ok(())
    }

    /// Step `i` one place earlier (`up`) or later.
    pub fn move_step(&mut self, i: usize, up: bool) {
        let j = if up { i.checked_sub(1) } else { Some(i + 1) };
        if let Some(j) = j.filter(|&j| j < self.lesson.steps.len() && i < self.lesson.steps.len()) {
            self.lesson.steps.swap(i, j);
        }
    }

    pub fn remove_step(&mut self, i: usize) {
        if i < self.lesson.steps.len() {
            self.lesson.steps.remove(i);
        }
    }

    pub fn set_step_title(&mut self, i: usize, title: String) {
        if let Some(s) = self.lesson.steps.get_mut(i) {
            s.title = title;
        }
    }

    pub fn set_step_note(&mut self, i: usize, note: String) {
        if let Some(s) = self.lesson.steps.get_mut(i) {
            s.prose = note;
        }
    }

    /// A new lesson; the form keeps whether runs are attached.
    pub fn clear(&mut self) {
        let attach = self.next.attach;
        *self = LessonWriter {
            next: NextStep {
                attach,
                ..NextStep::default()
            },
            kept: self.kept,
            ..LessonWriter::default()
        };
    }

    /// The lesson as the file it becomes, checked exactly as the page reads
    /// a lesson file (so a downloaded lesson always opens).
    pub fn written(&self) -> Result<Lesson, WriterTrouble> {
        let mut lesson = self.lesson.clone();
        lesson.title = lesson.title.trim().to_string();
        for s in &mut lesson.steps {
            s.title = s.title.trim().to_string();
            s.prose = s.prose.trim().to_string();
        }
        lesson::parse(lesson.to_json().as_bytes()).map_err(WriterTrouble::Invalid)
    }

    /// The file's name: the title's words joined by dashes.
    pub fn file_name(&self) -> String {
        format!("{}.json", crate::lessons::title_slug(&self.lesson.title))
    }
}

/// Step `i` of `lesson` checked as a lesson file's step would be (its
/// questions' lanes, options, lengths); the title is not required yet.
fn check_step(lesson: &Lesson, i: usize) -> Result<(), WriterTrouble> {
    let mut one = lesson.clone();
    if one.title.trim().is_empty() {
        one.title = "draft".into();
    }
    // Only this step is checked, under its own index so the path names it.
    let step = one.steps[i].clone();
    let placeholder = LessonStep {
        recording: None,
        questions: vec![],
        printed: None,
        ..step.clone()
    };
    one.steps = vec![placeholder; i];
    one.steps.push(step);
    lesson::parse(one.to_json().as_bytes())
        .map(drop)
        .map_err(WriterTrouble::Invalid)
}
