//! What opening a lesson, moving between its steps and showing a step's
//! recorded run do to the page.

use super::lesson_player::Recorded;
use super::model::ModelState;
use super::outcome::{Command, Outcome};
use super::Page;
use crate::lesson_check::StepRef;
use crate::lessons::{LessonFrom, OpenLesson};
use crate::page_error::PageError;
use crate::rc_eq::RcEq;
use ntl_decoding::Document;
use ntl_protocol::lesson::{self, Recording};
use ntl_protocol::share::BUNDLED;
use ntl_protocol::LoadWeights;

impl Page {
    /// Opens `lesson` at step `step`: its prompt and lanes go into the
    /// editor, and its recorded run shows when no model is ready to run it.
    pub fn open_lesson(&mut self, lesson: OpenLesson, step: usize) -> Outcome {
        if step >= lesson.lesson.steps.len() {
            return Outcome::unchanged();
        }
        if self.lessons.open != lesson {
            // Another lesson's handout would print in place of this one.
            self.handout = None;
        }
        let p = &mut self.lessons;
        if p.open != lesson {
            p.quiz = Default::default();
            p.link = None;
        }
        p.open = lesson;
        p.step = step;
        p.error = None;
        p.recorded = Recorded::NotShown;
        self.editor.apply_step(self.lessons.current());
        // A step that opens a step says whether the lens shows there (a
        // live run then records it).
        if let Some(open) = self.lessons.current().open {
            self.lens = open.lens;
        }
        // A step with a tree sets the tree panel (grown once its run is done).
        if let Some(t) = self.lessons.current().tree {
            let tree = self.tree.make_mut();
            tree.lane = t.lane.saturating_sub(1);
            tree.samples = t.samples;
            tree.tokens = t.tokens;
        }
        // Projector mode shows the step as the teacher recorded it, at once,
        // even with the model ready: Run is a click away.
        let instead_of_live = !self.model.is_ready() || self.present;
        if self.lessons.has_recording() && instead_of_live && self.run.running.is_none() {
            return self.show_recording();
        }
        Outcome::redraw()
    }

    pub fn open_built_in(&mut self, i: usize) -> Outcome {
        match OpenLesson::built_in(i) {
            Some(l) => self.open_lesson(l, 0),
            None => Outcome::unchanged(),
        }
    }

    /// Another step of the open lesson.
    pub fn lesson_step(&mut self, step: usize) -> Outcome {
        let open = self.lessons.open.clone();
        self.open_lesson(open, step)
    }

    /// Puts the open step's recorded run on screen (fetched first when it
    /// is a file beside the lesson).
    pub fn show_recording(&mut self) -> Outcome {
        let here = self.lessons.here();
        if let Some(Recording::Inline(doc)) = &self.lessons.current().recording {
            let doc = (**doc).clone();
            self.lessons.recorded = Recorded::Fetching;
            return self.recording_arrived(here, Ok(doc));
        }
        match self.lessons.open.recording_url(self.lessons.step) {
            Some(url) => {
                self.lessons.recorded = Recorded::Fetching;
                Outcome::redraw().and(Command::FetchRecording { url, at: here })
            }
            None => Outcome::unchanged(),
        }
    }

    /// A step's recording arrived (or could not be read): for the handout,
    /// or for the screen. One for a step no longer open, one not asked for
    /// on screen, or one while a live run goes on, is set aside.
    /// The reader's language changed: a built-in lesson follows it. Its
    /// translation has the same steps, prompts and lanes, so the step, the
    /// editor, the run on screen and the answers stay as they are.
    pub fn lesson_in_language(&mut self, lang: &str) -> Outcome {
        let LessonFrom::BuiltIn(i) = self.lessons.open.from else {
            return Outcome::unchanged();
        };
        let Some(open) = OpenLesson::built_in(crate::lessons::counterpart(i, lang)) else {
            return Outcome::unchanged();
        };
        if open == self.lessons.open {
            return Outcome::unchanged();
        }
        self.lessons.open = open;
        // A recording on its way was asked for under the other lesson's name.
        if self.lessons.recorded == Recorded::Fetching {
            return self.show_recording();
        }
        Outcome::redraw()
    }

    pub fn recording_arrived(&mut self, at: StepRef, doc: Result<Document, PageError>) -> Outcome {
        if self.handout_waits_for(&at) {
            return self.handout_recording(&at, doc);
        }
        let asked = self.lessons.recorded == Recorded::Fetching;
        if at != self.lessons.here() || !asked || self.run.running.is_some() {
            return Outcome::unchanged();
        }
        // No words of the page's own: the title is the lesson's language.
        let name = format!(
            "{} — {}/{}",
            self.lessons.open.lesson.title,
            self.lessons.step + 1,
            self.lessons.open.lesson.steps.len()
        );
        let doc = doc.and_then(|d| {
            lesson::validate::recording_fits("recording", self.lessons.current(), &d)
                .map(|()| d)
                .map_err(|source| PageError::RecordingMisfit {
                    name: name.clone(),
                    source,
                })
        });
        let shown = doc.and_then(|d| self.run.replay(name, d));
        let mut outcome = Outcome::redraw();
        self.lessons.recorded = match shown {
            Ok(_) => {
                self.run.check_watermarks(self.model.vocab_size());
                self.run.ran_with = Some(self.ran_now());
                outcome = self.open_lesson_step();
                Recorded::Shown
            }
            Err(e) => Recorded::Failed(e.into()),
        };
        outcome
    }

    /// The step the open lesson step names, opened in every lane.
    /// The step's run is on screen: the step it opens opens, and its tree
    /// grows when the model is here to grow it (a recording shown before
    /// the model is ready leaves *Grow the tree* to the reader).
    pub(super) fn open_lesson_step(&mut self) -> Outcome {
        if let Some(open) = self.lessons.current().open {
            self.run.select(0, open.step.saturating_sub(1));
        }
        let grow = self.lessons.current().tree.is_some()
            && self.model.is_ready()
            && self.tree.growing.is_none();
        if grow {
            self.grow_tree()
        } else {
            Outcome::redraw()
        }
    }

    /// A lesson file arrived: from `?lesson=` (`from` is `Site`) or picked.
    /// A refused one leaves the page as it was, with the reason shown.
    pub fn lesson_arrived(
        &mut self,
        from: LessonFrom,
        bytes: Result<Vec<u8>, PageError>,
    ) -> Outcome {
        let was_waiting = self.lessons.waiting.take().is_some();
        let parsed = bytes.and_then(|b| lesson::parse(&b).map_err(PageError::from));
        let mut outcome = match parsed {
            Ok(l) => {
                let wanted = (l.model.clone(), l.weights);
                let open = self.open_lesson(
                    OpenLesson {
                        lesson: RcEq::new(l),
                        from,
                    },
                    0,
                );
                if self.lessons.model_waits {
                    self.take_lesson_model(&wanted.0, wanted.1);
                    if self.live_on_request {
                        self.model.on_request();
                    }
                }
                open
            }
            Err(e) => {
                self.lessons.error = Some(e.into());
                Outcome::redraw()
            }
        };
        if was_waiting && std::mem::take(&mut self.lessons.model_waits) && self.worker.ready {
            outcome = outcome.and_send(self.model.reload());
        }
        outcome
    }

    /// The lesson's model, kept as the lesson says, in place of the page's
    /// (the worker loads it once it is ready).
    pub(super) fn take_lesson_model(&mut self, model: &str, weights: LoadWeights) {
        let memory = self.model.device_memory_gb;
        self.model = ModelState::new(Some(model), model != BUNDLED);
        self.model.device_memory_gb = memory;
        self.model.eight_bit = weights == LoadWeights::Q8_0;
    }
}
