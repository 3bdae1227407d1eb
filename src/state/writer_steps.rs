//! What writing a lesson on the page does: a step saved from the editor and
//! the run on screen, the lesson previewed in the lesson player, written
//! out as a file, and kept in the browser between visits.

use super::lesson_writer::{LessonWriter, PageNow, WriterAction, WriterTrouble};
use super::outcome::{Command, Outcome};
use super::run::RunKind;
use super::Page;
use crate::lessons::{LessonFrom, OpenLesson};
use crate::rc_eq::RcEq;
use crate::said::Said;
use ntl_decoding::Defaults;
use ntl_decoding::Document;

impl Page {
    pub fn on_writer(&mut self, action: WriterAction) -> Outcome {
        let w = self.writer.make_mut();
        w.saved = None;
        match action {
            WriterAction::Form(next) => {
                w.next = next;
                // The form is not kept: nothing to store.
                return Outcome::redraw();
            }
            WriterAction::Title(t) => w.lesson.title = t,
            WriterAction::Language(l) => w.lesson.language = l,
            WriterAction::StepTitle(i, t) => w.set_step_title(i, t),
            WriterAction::StepNote(i, n) => w.set_step_note(i, n),
            WriterAction::Move(i, up) => w.move_step(i, up),
            WriterAction::Remove(i) => w.remove_step(i),
            WriterAction::Clear => w.clear(),
            WriterAction::SaveStep { language } => return self.save_lesson_step(language),
            WriterAction::Preview => return self.preview_lesson(),
            WriterAction::Download => return self.download_lesson(),
        }
        self.writer.make_mut().error = None;
        self.keep_draft()
    }

    /// The page as it is, as the lesson's next step.
    fn save_lesson_step(&mut self, language: &'static str) -> Outcome {
        let e = &self.editor;
        let now = PageNow {
            prompt: &e.prompt,
            lanes: &self.lanes_as_run(),
            lane_models: match self.lane_model_names() {
                names if names.iter().any(Option::is_some) => names,
                _ => vec![],
            },
            library_lanes: (0..e.count)
                .filter(|&l| e.starts_from[l] == Defaults::Library)
                .collect(),
            shared_randomness: e.shared_randomness,
            model: self.model.link_name(),
            weights: self.model.weights(),
            run: self.run_to_attach(),
            language,
            open: self
                .run
                .selected
                .map(|(_, step)| ntl_protocol::lesson::OpenStep {
                    step: step + 1,
                    lens: self.lens,
                }),
        };
        let mut writer = (*self.writer).clone();
        match writer.save_step(now) {
            Ok(()) => {
                writer.error = None;
                writer.saved = Some(writer.lesson.steps.len() - 1);
                self.writer = RcEq::new(writer);
                self.keep_draft()
            }
            Err(e) => {
                self.writer.make_mut().error = Some(Said::Writer(RcEq::new(e)));
                Outcome::redraw()
            }
        }
    }

    /// The finished run on screen, when it ran the editor's prompt and lanes.
    fn run_to_attach(&self) -> Result<&Document, WriterTrouble> {
        let doc = self
            .run
            .document
            .as_deref()
            .filter(|_| self.run.running.is_none() && self.run.kind == RunKind::Generate)
            .ok_or(WriterTrouble::NoRun)?;
        let (prompt, lanes) = self.run.ran_with.as_ref().ok_or(WriterTrouble::NoRun)?;
        let same = *prompt == self.editor.prompt
            && lanes.len() == self.editor.count
            && lanes
                .iter()
                .zip(self.editor.active())
                .all(|(a, b)| a.config() == b.config());
        same.then_some(doc).ok_or(WriterTrouble::RunDiffers)
    }

    /// The prompt and lanes in the editor, as a run on screen ran them.
    pub(super) fn ran_now(&self) -> (String, Vec<crate::lane_config::LaneKnobs>) {
        (self.editor.prompt.clone(), self.editor.active().to_vec())
    }

    /// Opens the lesson being written in the lesson player, as a student
    /// would see it.
    fn preview_lesson(&mut self) -> Outcome {
        match self.writer.written() {
            Ok(lesson) => {
                self.writer.make_mut().error = None;
                self.open_lesson(
                    OpenLesson {
                        lesson: RcEq::new(lesson),
                        from: LessonFrom::Writer,
                    },
                    0,
                )
            }
            Err(e) => {
                self.writer.make_mut().error = Some(Said::Writer(RcEq::new(e)));
                Outcome::redraw()
            }
        }
    }

    fn download_lesson(&mut self) -> Outcome {
        match self.writer.written() {
            Ok(lesson) => {
                self.writer.make_mut().error = None;
                Outcome::redraw().and(Command::SaveFile {
                    name: self.writer.file_name(),
                    mime: "application/json",
                    text: lesson.to_json(),
                })
            }
            Err(e) => {
                self.writer.make_mut().error = Some(Said::Writer(RcEq::new(e)));
                Outcome::redraw()
            }
        }
    }

    /// Asks the browser to keep the draft (or forget it once cleared).
    fn keep_draft(&self) -> Outcome {
        let json = (!self.writer.is_empty()).then(|| self.writer.to_json());
        Outcome::redraw().and(Command::KeepDraft { json })
    }

    /// The browser kept the draft, or could not (full, or storage off).
    pub fn draft_kept(&mut self, kept: bool) {
        if self.writer.kept != kept {
            self.writer.make_mut().kept = kept;
        }
    }

    /// A draft the browser kept from an earlier visit.
    pub fn restore_draft(&mut self, json: &str) {
        if let Some(w) = LessonWriter::restored(json) {
            self.writer = RcEq::new(w);
        }
    }
}
