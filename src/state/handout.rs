//! A lesson's handout: every step's prose, prompt, lanes, recorded texts and
//! first tables, its questions, and an answer key at the end — printed (or
//! saved as PDF) by the browser. Asking for one gathers each step's
//! recording (fetched when it is a file beside the lesson), then prints:
//! those transitions are in `handout_steps`.

use crate::lessons::OpenLesson;
use crate::page_error::PageError;
use crate::rc_eq::RcEq;
use crate::said::Said;
use ntl_decoding::Document;
use ntl_protocol::lesson;

/// One step's recording, as the handout has it.
#[derive(Debug, Clone, PartialEq)]
pub enum StepRecording {
    /// The step has none (or the lesson was picked, so files beside it
    /// cannot be read).
    None,
    Fetching,
    Ready(RcEq<Document>),
    Failed(Said),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Handout {
    pub lesson: OpenLesson,
    /// One per step.
    pub recordings: Vec<StepRecording>,
}

impl Handout {
    /// Every recording is in or known missing.
    pub fn complete(&self) -> bool {
        !self.recordings.contains(&StepRecording::Fetching)
    }

    pub fn fetching(&self) -> usize {
        self.recordings
            .iter()
            .filter(|r| **r == StepRecording::Fetching)
            .count()
    }
}

/// A recording that does not fit its step is refused, as on screen.
pub(super) fn checked(
    step: &lesson::LessonStep,
    doc: Result<Document, PageError>,
) -> StepRecording {
    let fits = doc.and_then(|d| {
        lesson::validate::recording_fits("recording", step, &d)
            .map(|()| d)
            .map_err(PageError::from)
    });
    match fits {
        Ok(d) => StepRecording::Ready(RcEq::new(d)),
        Err(why) => StepRecording::Failed(why.into()),
    }
}
