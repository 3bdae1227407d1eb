//! What a book printed for a lesson step's lanes beside this page's lanes.
//! On the book's model a lane that decodes without randomness must write
//! exactly what was printed; a sampled lane cannot, because torch's random
//! numbers are its own — the same distribution, a different draw.

use crate::lane_config::LaneKnobs;
use crate::lessons::{step_lanes, LessonFrom};
use ntl_decoding::{Document, StopReason};
use ntl_protocol::lesson::{LessonStep, Printed};

/// A step of an open lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRef {
    pub from: LessonFrom,
    pub step: usize,
}

/// The run on screen, when it ran a lesson step exactly as written.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRun {
    pub step: StepRef,
    /// The model's hub repo, `None` for the bundled model or local files.
    pub hub_repo: Option<String>,
}

/// How one lane's text compares with the printed one.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Same,
    /// The texts part at this character; the lane's text from there.
    Differs {
        at: usize,
        here: String,
    },
    /// This step has not been run unchanged (knobs or prompt edited, no
    /// run yet, a run under way or stopped).
    NotRun,
    /// Run unchanged, but on another model.
    OtherModel,
}

impl Verdict {
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Differs { .. } => "differs",
            Verdict::NotRun => "not-run",
            Verdict::OtherModel => "other-model",
        }
    }
}

/// One printed output and what this page made of the same lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// From 0.
    pub lane: usize,
    pub printed: String,
    /// Greedy, beam, contrastive or top-k 1: no random numbers involved.
    pub deterministic: bool,
    pub verdict: Verdict,
}

/// A lane whose tokens no random number can change (llama.cpp's greedy is
/// temperature at or below zero: one candidate left to draw from).
pub fn deterministic(c: &ntl_decoding::LaneConfig) -> bool {
    match c {
        ntl_decoding::LaneConfig::Transformers(c) => !c.do_sample || c.top_k == Some(1),
        ntl_decoding::LaneConfig::LlamaCpp(c) => c.temperature <= 0.0 || c.top_k == 1,
        ntl_decoding::LaneConfig::Tutorial(c) => !c.do_sample || c.top_k == Some(1),
    }
}

/// Whether the editor holds `step` exactly: its prompt and its lanes' knobs.
pub fn is_unchanged(
    step: &LessonStep,
    prompt: &str,
    lanes: &[LaneKnobs],
    models: &[Option<String>],
) -> bool {
    let model = |lane: usize| step.lane_models.get(lane).cloned().flatten();
    prompt == step.prompt
        && models.iter().enumerate().all(|(lane, m)| *m == model(lane))
        && step_lanes(step)
            .iter()
            .zip(lanes)
            .all(|(p, l)| p.config() == l.config())
}

/// What HF's `decode(..., skip_special_tokens=True)` prints of a lane's text:
/// GPT-2's one special token left out.
fn as_printed(text: &str) -> String {
    text.replace("<|endoftext|>", "")
}

fn compare(printed: &str, text: &str) -> Verdict {
    let text = as_printed(text);
    if text == printed {
        return Verdict::Same;
    }
    let at = printed
        .chars()
        .zip(text.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let here: String = text.chars().skip(at).take(24).collect();
    Verdict::Differs { at, here }
}

/// The step's printed outputs, each judged against the run on screen when
/// that run was this step (`here`), unchanged, finished.
pub fn lines(
    here: &StepRef,
    step: &LessonStep,
    ran: Option<&LessonRun>,
    document: Option<&Document>,
) -> Vec<Line> {
    let Some(printed) = step.printed.as_ref().filter(|p| !p.lanes.is_empty()) else {
        return vec![];
    };
    let configs = step_lanes(step);
    printed
        .lanes
        .iter()
        .filter(|p| (1..=configs.len()).contains(&p.lane))
        .map(|p| {
            let lane = p.lane - 1;
            let run = document
                .filter(|_| ran.is_some_and(|r| &r.step == here))
                .and_then(|d| d.runs.get(lane))
                .filter(|r| r.stop_reason != StopReason::Cancelled);
            let on_its_model = ran
                .and_then(|r| r.hub_repo.as_deref())
                .is_some_and(|repo| printed.printed_on(repo));
            let verdict = match run {
                None => Verdict::NotRun,
                Some(_) if !on_its_model => Verdict::OtherModel,
                Some(r) => compare(&p.text, &r.text),
            };
            Line {
                lane,
                printed: p.text.clone(),
                deterministic: deterministic(&configs[lane].config()),
                verdict,
            }
        })
        .collect()
}

/// The printed model's short name (`distilgpt2`), as the book calls it.
pub fn model_name(printed: &Printed) -> &str {
    printed.model.rsplit('/').next().unwrap_or(&printed.model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane_config::KnobText;
    use crate::lessons::{built_in, OpenLesson};
    use ntl_decoding::record::Run;

    /// A built-in single-step lesson by title: where it is, and its step.
    fn preset(name: &str) -> (StepRef, LessonStep) {
        let i =
            built_in(|all| all.iter().position(|b| b.lesson.title == name)).expect("lesson exists");
        let open = OpenLesson::built_in(i).unwrap();
        (
            StepRef {
                from: open.from.clone(),
                step: 0,
            },
            open.lesson.steps[0].clone(),
        )
    }

    fn texts(s: &LessonStep) -> Vec<String> {
        s.printed
            .as_ref()
            .unwrap()
            .lanes
            .iter()
            .map(|l| l.text.clone())
            .collect()
    }

    fn document(s: &LessonStep, texts: [&str; 4], stop: StopReason) -> Document {
        let runs = step_lanes(s)
            .iter()
            .zip(texts)
            .map(|(l, t)| Run {
                config: l.config().clone(),
                mode: l.mode(),
                token_ids: vec![],
                text: t.into(),
                stop_reason: stop,
                sequences: vec![],
                steps: vec![],
                model: None,
            })
            .collect();
        Document {
            prompt_ids: vec![],
            prompt: s.prompt.clone(),
            prompt_cropped: 0,
            runs,
        }
    }

    fn ran(step: &StepRef, repo: Option<&str>) -> LessonRun {
        LessonRun {
            step: step.clone(),
            hub_repo: repo.map(Into::into),
        }
    }

    #[test]
    fn the_lessons_printed_lengths_are_the_steps_lengths() {
        // Printed outputs belong to lanes configured as the book's code.
        let (_, s) = preset("Temperature sweep");
        for l in step_lanes(&s) {
            assert_eq!(l.hf().unwrap().max_new_tokens, Some(12));
        }
        let (_, s) = preset("Repetition: penalty and stop");
        let lengths: Vec<_> = step_lanes(&s)
            .iter()
            .map(|l| l.hf().unwrap().max_new_tokens)
            .collect();
        assert_eq!(lengths, [Some(40), Some(40), Some(30), Some(40)]);
    }

    #[test]
    fn greedy_and_top_k_1_are_deterministic_sampling_is_not() {
        let (_, s) = preset("Greedy = top-k 1");
        let d: Vec<bool> = step_lanes(&s)
            .iter()
            .map(|l| deterministic(&l.config()))
            .collect();
        assert_eq!(d, [true, true, true, false]);
        let (at, s) = preset("Temperature sweep");
        assert_eq!(
            lines(&at, &s, None, None)
                .iter()
                .map(|l| l.deterministic)
                .collect::<Vec<_>>(),
            [false, false, false, true]
        );
    }

    #[test]
    fn the_lesson_text_on_distilgpt2_is_the_same_and_an_end_of_text_is_not_printed() {
        let (at, s) = preset("Temperature sweep");
        let greedy = format!("{}<|endoftext|>", texts(&s)[3]);
        let doc = document(&s, ["x", "y", "z", &greedy], StopReason::MaxNewTokens);
        for repo in ["distilgpt2", "distilbert/distilgpt2"] {
            let ls = lines(&at, &s, Some(&ran(&at, Some(repo))), Some(&doc));
            assert_eq!(ls[3].verdict, Verdict::Same);
            assert_eq!(ls[3].lane, 3);
            assert!(matches!(ls[0].verdict, Verdict::Differs { at: 0, .. }));
        }
        assert_eq!(model_name(s.printed.as_ref().unwrap()), "distilgpt2");
    }

    #[test]
    fn a_differing_text_says_where_it_parts() {
        let (at, s) = preset("Repetition: penalty and stop");
        let doc = document(&s, ["a", "b", "c", " a fascinating two."], StopReason::Eos);
        let ls = lines(&at, &s, Some(&ran(&at, Some("distilgpt2"))), Some(&doc));
        assert_eq!(
            ls[3].verdict,
            Verdict::Differs {
                at: 15,
                here: "two.".into()
            }
        );
    }

    #[test]
    fn another_model_an_edited_step_or_a_stopped_run_is_not_judged() {
        let (at, s) = preset("Seeds at low temperature");
        let t = texts(&s);
        let t = [t[0].as_str(), &t[1], &t[2], &t[3]];
        let doc = document(&s, t, StopReason::MaxNewTokens);
        let on = |r: Option<&LessonRun>, d: Option<&Document>| {
            lines(&at, &s, r, d)
                .into_iter()
                .map(|l| l.verdict)
                .collect::<Vec<_>>()
        };
        assert!(on(Some(&ran(&at, Some("distilgpt2"))), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::Same));
        assert!(
            on(Some(&ran(&at, Some("openai-community/gpt2"))), Some(&doc))
                .iter()
                .all(|v| *v == Verdict::OtherModel)
        );
        assert!(on(Some(&ran(&at, None)), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::OtherModel));
        // The run on screen was another lesson, or this one edited.
        let (other, _) = preset("Beam search vs greedy");
        assert!(on(Some(&ran(&other, Some("distilgpt2"))), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::NotRun));
        assert!(on(None, Some(&doc)).iter().all(|v| *v == Verdict::NotRun));
        let stopped = document(&s, t, StopReason::Cancelled);
        assert!(on(Some(&ran(&at, Some("distilgpt2"))), Some(&stopped))
            .iter()
            .all(|v| *v == Verdict::NotRun));
    }

    #[test]
    fn a_step_is_unchanged_until_its_prompt_or_a_knob_is_edited() {
        let (_, s) = preset("Greedy = top-k 1");
        let mut lanes = step_lanes(&s);
        let none = [None, None, None, None];
        assert!(is_unchanged(&s, &s.prompt, &lanes, &none));
        assert!(!is_unchanged(&s, "The best way", &lanes, &none));
        let other_model = [
            None,
            Some("models/tutorial-minigpt/".to_string()),
            None,
            None,
        ];
        assert!(
            !is_unchanged(&s, &s.prompt, &lanes, &other_model),
            "another model is another run"
        );
        lanes[2].set_text(ntl_decoding::Knob::TopK, "3").unwrap();
        assert!(!is_unchanged(&s, &s.prompt, &lanes, &none));
    }
}
