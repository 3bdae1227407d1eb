//! Gathering a lesson's handout: every step's recording, then the print
//! dialog.

use super::handout::{checked, Handout, StepRecording};
use super::outcome::{Command, Outcome};
use super::Page;
use crate::lesson_check::StepRef;
use crate::page_error::PageError;
use ntl_decoding::Document;
use ntl_protocol::lesson::Recording;

impl Page {
    /// Gathers the open lesson's recordings for its handout; prints when
    /// they are all in.
    pub fn print_handout(&mut self) -> Outcome {
        let open = self.lessons.open.clone();
        let mut commands = vec![];
        let recordings = open
            .lesson
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| match &step.recording {
                Some(Recording::Inline(doc)) => checked(step, Ok((**doc).clone())),
                Some(Recording::File(_)) => match open.recording_url(i) {
                    Some(url) => {
                        let at = StepRef {
                            from: open.from.clone(),
                            step: i,
                        };
                        commands.push(Command::FetchRecording { url, at });
                        StepRecording::Fetching
                    }
                    None => StepRecording::None,
                },
                None => StepRecording::None,
            })
            .collect();
        let handout = Handout {
            lesson: open,
            recordings,
        };
        if handout.complete() {
            commands.push(Command::Print);
        }
        self.handout = Some(handout);
        Outcome {
            redraw: true,
            commands,
        }
    }

    /// The handout is waiting for this step's recording.
    pub(super) fn handout_waits_for(&self, at: &StepRef) -> bool {
        self.handout.as_ref().is_some_and(|h| {
            h.lesson.from == at.from && h.recordings.get(at.step) == Some(&StepRecording::Fetching)
        })
    }

    /// The handout's recording arrived; the last one prints.
    pub(super) fn handout_recording(
        &mut self,
        at: &StepRef,
        doc: Result<Document, PageError>,
    ) -> Outcome {
        let Some(handout) = self.handout.as_mut() else {
            return Outcome::unchanged();
        };
        let Some(step) = handout.lesson.lesson.steps.get(at.step) else {
            return Outcome::unchanged();
        };
        handout.recordings[at.step] = checked(step, doc);
        let print = handout.complete().then_some(Command::Print);
        Outcome::redraw().and_maybe(print)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::LessonFrom;
    use crate::page_url::Requested;

    fn on_walk_003() -> Page {
        let (mut page, _) = Page::new(
            Requested::default(),
            crate::worker_choice::Abilities::default(),
        );
        let i = crate::lessons::built_in(|all| {
            all.iter()
                .position(|b| b.lesson.title.starts_with("Logits and the four knobs"))
        })
        .expect("walk-003 ships");
        let _ = page.open_built_in(i);
        page
    }

    fn fetches(out: &Outcome) -> Vec<StepRef> {
        out.commands
            .iter()
            .filter_map(|c| match c {
                Command::FetchRecording { at, .. } => Some(at.clone()),
                _ => None,
            })
            .collect()
    }

    fn recording(step: usize) -> Document {
        let path = format!(
            "{}/www/lessons/recordings/walk-003-four-knobs-{}.json",
            env!("CARGO_MANIFEST_DIR"),
            step + 1
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).expect("a shipped recording")
    }

    #[test]
    fn a_handout_fetches_every_steps_recording_and_prints_when_the_last_arrives() {
        let mut page = on_walk_003();
        let out = page.print_handout();
        let asked = fetches(&out);
        let steps = page.lessons.open.lesson.steps.len();
        assert_eq!(
            asked.len(),
            steps,
            "every step of walk-003 has a recording file"
        );
        assert!(
            !out.commands.contains(&Command::Print),
            "not before they are in"
        );
        for (n, at) in asked.iter().enumerate() {
            let out = page.recording_arrived(at.clone(), Ok(recording(at.step)));
            let last = n + 1 == steps;
            assert_eq!(out.commands.contains(&Command::Print), last, "step {n}");
        }
        let handout = page.handout.as_ref().unwrap();
        assert!(handout
            .recordings
            .iter()
            .all(|r| matches!(r, StepRecording::Ready(_))));
        // The handout's fetches never put a recording on screen.
        assert_ne!(
            page.lessons.recorded,
            crate::state::lesson_player::Recorded::Shown
        );
    }

    #[test]
    fn a_recording_that_does_not_fit_its_step_is_marked_and_the_handout_still_prints() {
        let mut page = on_walk_003();
        let asked = fetches(&page.print_handout());
        let mut last = Outcome::default();
        for at in &asked {
            // Step 2's recording under every step: only step 2 fits.
            last = page.recording_arrived(at.clone(), Ok(recording(1)));
        }
        assert!(last.commands.contains(&Command::Print));
        let r = &page.handout.as_ref().unwrap().recordings;
        assert!(matches!(r[1], StepRecording::Ready(_)));
        assert!(
            matches!(r[0], StepRecording::Failed(ref why) if why.to_string().contains("recording"))
        );
    }

    #[test]
    fn opening_another_lesson_sets_the_handout_aside_and_another_step_keeps_it() {
        let mut page = on_walk_003();
        let _ = page.print_handout();
        let _ = page.lesson_step(1);
        assert!(page.handout.is_some(), "the same lesson");
        let _ = page.open_built_in(0);
        assert_eq!(page.handout, None);
    }

    #[test]
    fn a_recording_for_another_lesson_is_not_the_handouts() {
        let mut page = on_walk_003();
        let asked = fetches(&page.print_handout());
        let stranger = StepRef {
            from: LessonFrom::File("other.json".into()),
            step: asked[0].step,
        };
        let _ = page.recording_arrived(stranger, Ok(recording(0)));
        assert_eq!(page.handout.as_ref().unwrap().fetching(), asked.len());
    }
}
