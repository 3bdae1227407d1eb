//! The lesson open on the page: which one, which step, whether that step's
//! recorded run is on screen, and a lesson on its way from `?lesson=`
//! (the model waits for it when the address names no model, since the
//! lesson says which model it was written for). Its transitions are in
//! `lesson_steps`.

use super::quiz::Quiz;
use crate::lesson_check::StepRef;
use crate::lessons::OpenLesson;
use crate::said::Said;
use ntl_protocol::lesson::link::TooLongForALink;
use ntl_protocol::lesson::{self, Recording};

/// Whether the open step's recorded run is on screen.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Recorded {
    #[default]
    NotShown,
    Fetching,
    Shown,
    Failed(Said),
}

#[derive(Debug, Clone, PartialEq)]
pub struct LessonPlayer {
    pub open: OpenLesson,
    /// From 0.
    pub step: usize,
    /// A `?lesson=` being fetched.
    pub waiting: Option<String>,
    /// The model is not chosen until that lesson arrives.
    pub model_waits: bool,
    /// The open lesson as a link, once asked for: the page's address with
    /// `#lesson=`, and how many recordings stay behind.
    pub link: Option<Result<(String, usize), TooLongForALink>>,
    /// The last lesson refused, and why (the open lesson stays).
    pub error: Option<Said>,
    pub recorded: Recorded,
    /// The open lesson's answers and score.
    pub quiz: Quiz,
}

impl Default for LessonPlayer {
    fn default() -> Self {
        LessonPlayer {
            open: OpenLesson::built_in(0).expect("a built-in lesson ships"),
            step: 0,
            waiting: None,
            model_waits: false,
            link: None,
            error: None,
            recorded: Recorded::NotShown,
            quiz: Quiz::default(),
        }
    }
}

impl LessonPlayer {
    pub fn here(&self) -> StepRef {
        StepRef {
            from: self.open.from.clone(),
            step: self.step,
        }
    }

    pub fn current(&self) -> &lesson::LessonStep {
        &self.open.lesson.steps[self.step]
    }

    /// The open lesson's score: answers against every question it asks.
    pub fn score(&self) -> super::quiz::Score {
        let total = self
            .open
            .lesson
            .steps
            .iter()
            .map(|s| s.questions.len())
            .sum();
        self.quiz.score(total)
    }

    pub fn has_recording(&self) -> bool {
        let inline = matches!(self.current().recording, Some(Recording::Inline(_)));
        inline || self.open.recording_url(self.step).is_some()
    }
}
