//! Projector mode (`?present=1`): one thing on screen at a time, read from
//! the back of a lecture hall, driven from the keyboard or a presenter's
//! clicker (which sends Page Up / Page Down). The keys' meaning is here;
//! which element had focus when one was pressed is the browser side's.

use super::lesson_player::Recorded;
use super::outcome::Outcome;
use super::quiz::QuizInput;
use super::run::StepMove;
use super::Page;

/// What a key does in projector mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PresentKey {
    /// The next token: opens the first step's table in every lane, then
    /// moves it on.
    NextToken,
    PreviousToken,
    /// The lesson's next step (its lanes again, not the last step's table).
    NextStep,
    PreviousStep,
    /// Shows the next unanswered question's answer: the class guessed aloud.
    Reveal,
    /// From a step's table back to the lanes.
    Back,
}

impl PresentKey {
    /// The key's meaning, by `KeyboardEvent.key`.
    pub fn from_key(key: &str) -> Option<PresentKey> {
        Some(match key {
            "ArrowRight" => PresentKey::NextToken,
            "ArrowLeft" => PresentKey::PreviousToken,
            "ArrowDown" | "PageDown" => PresentKey::NextStep,
            "ArrowUp" | "PageUp" => PresentKey::PreviousStep,
            " " => PresentKey::Reveal,
            "Escape" => PresentKey::Back,
            _ => return None,
        })
    }
}

impl Page {
    /// Projector mode on or off. Turned on while the lanes show something
    /// other than the open step (nothing, or another step's run), the step's
    /// recording shows, as it does on every step in the mode.
    pub fn toggle_present(&mut self) -> Outcome {
        self.present = !self.present;
        let this_step = self.run.lesson.as_ref().map(|l| &l.step) == Some(&self.lessons.here())
            || self.lessons.recorded == Recorded::Shown;
        let idle = self.run.running.is_none();
        if self.present && idle && !this_step && self.lessons.has_recording() {
            return self.show_recording();
        }
        Outcome::redraw()
    }

    /// A key pressed in projector mode; outside it keys mean nothing here.
    pub fn present_key(&mut self, key: PresentKey) -> Outcome {
        if !self.present {
            return Outcome::unchanged();
        }
        match key {
            PresentKey::NextToken | PresentKey::PreviousToken => self.present_token(key),
            PresentKey::NextStep => self.present_step(self.lessons.step + 1),
            PresentKey::PreviousStep => match self.lessons.step.checked_sub(1) {
                Some(step) => self.present_step(step),
                None => Outcome::unchanged(),
            },
            PresentKey::Reveal => self.reveal_next(),
            PresentKey::Back => {
                let open = self.run.selected.is_some();
                self.run.close_table();
                Outcome::changed(open)
            }
        }
    }

    fn present_token(&mut self, key: PresentKey) -> Outcome {
        // A question hides the tables until the class has answered.
        if self.veiled() || self.run.longest() == 0 {
            return Outcome::unchanged();
        }
        let before = self.run.selected;
        match (before, key) {
            (None, PresentKey::NextToken) => self.run.select(0, 0),
            (None, _) => return Outcome::unchanged(),
            (Some(_), PresentKey::NextToken) => self.run.move_step(StepMove::Next),
            (Some(_), _) => self.run.move_step(StepMove::Previous),
        }
        Outcome::changed(self.run.selected != before)
    }

    fn present_step(&mut self, step: usize) -> Outcome {
        if step >= self.lessons.open.lesson.steps.len() {
            return Outcome::unchanged();
        }
        self.run.close_table();
        self.lesson_step(step)
    }

    fn reveal_next(&mut self) -> Outcome {
        let step = self.lessons.step;
        let count = self.lessons.current().questions.len();
        match (0..count).find(|&q| self.lessons.quiz.answer((step, q)).is_none()) {
            Some(q) => self.answer_question((step, q), QuizInput::Skip),
            None => Outcome::unchanged(),
        }
    }
}
