//! The lessons' printed outputs beside this page's lanes. On the lessons' own
//! model (distilgpt2) a lane that decodes without randomness must write
//! exactly what the lesson printed; a sampled lane cannot, because torch's
//! random numbers are its own — the same distribution, a different draw.

use crate::lane_config::LaneConfig;
use crate::presets::{Preset, LESSON_MODEL, PRESETS};
use ntl_decoding::{Document, StopReason};

/// The run on screen, when it ran a preset exactly as the lesson did.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRun {
    pub preset: usize,
    /// The model's hub repo, `None` for the bundled model or local files.
    pub hub_repo: Option<String>,
}

/// How one lane's text compares with the lesson's.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Same,
    /// The texts part at this character; the lane's text from there.
    Differs {
        at: usize,
        here: String,
    },
    /// This preset has not been run unchanged (knobs or prompt edited, no
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
    pub lane: usize,
    pub printed: &'static str,
    /// Greedy, beam, contrastive or top-k 1: no random numbers involved.
    pub deterministic: bool,
    pub verdict: Verdict,
}

/// The repo ids distilgpt2 goes by on the hub.
pub fn is_lesson_model(repo: &str) -> bool {
    repo == LESSON_MODEL || repo == format!("distilbert/{LESSON_MODEL}")
}

/// A lane whose tokens no random number can change (llama.cpp's greedy is
/// temperature at or below zero: one candidate left to draw from).
pub fn deterministic(c: &ntl_decoding::LaneConfig) -> bool {
    match c {
        ntl_decoding::LaneConfig::Transformers(c) => !c.do_sample || c.top_k == Some(1),
        ntl_decoding::LaneConfig::LlamaCpp(c) => c.temperature <= 0.0 || c.top_k == 1,
    }
}

/// Whether the editor holds `preset` exactly: its prompt and its lanes' knobs.
pub fn is_unchanged(preset: &Preset, prompt: &str, lanes: &[LaneConfig]) -> bool {
    prompt == preset.prompt
        && crate::presets::lanes(preset)
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

/// The preset's printed outputs, each judged against the run on screen
/// when that run was this preset, unchanged, finished.
pub fn lines(
    preset_index: usize,
    ran: Option<&LessonRun>,
    document: Option<&Document>,
) -> Vec<Line> {
    // The page asks on every redraw: most presets printed nothing, and
    // parsing their lanes' JSON would be wasted there.
    let Some(preset) = PRESETS.get(preset_index).filter(|p| !p.printed.is_empty()) else {
        return vec![];
    };
    let configs = crate::presets::lanes(preset);
    preset
        .printed
        .iter()
        .map(|p| {
            let run = document
                .filter(|_| ran.is_some_and(|r| r.preset == preset_index))
                .and_then(|d| d.runs.get(p.lane))
                .filter(|r| r.stop_reason != StopReason::Cancelled);
            let on_lesson_model = ran
                .and_then(|r| r.hub_repo.as_deref())
                .is_some_and(is_lesson_model);
            let verdict = match run {
                None => Verdict::NotRun,
                Some(_) if !on_lesson_model => Verdict::OtherModel,
                Some(r) => compare(p.text, &r.text),
            };
            Line {
                lane: p.lane,
                printed: p.text,
                deterministic: deterministic(&configs[p.lane].config()),
                verdict,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;
    use ntl_decoding::record::Run;

    fn preset(name: &str) -> (usize, &'static Preset) {
        PRESETS
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
            .expect("preset exists")
    }

    fn document(p: &Preset, texts: [&str; 4], stop: StopReason) -> Document {
        let runs = crate::presets::lanes(p)
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
            })
            .collect();
        Document {
            prompt_ids: vec![],
            prompt: p.prompt.into(),
            prompt_cropped: 0,
            runs,
        }
    }

    fn ran(preset: usize, repo: Option<&str>) -> LessonRun {
        LessonRun {
            preset,
            hub_repo: repo.map(Into::into),
        }
    }

    #[test]
    fn the_lessons_printed_lengths_are_the_presets_lengths() {
        // Printed outputs belong to lanes configured as the lesson's code.
        let (_, p) = preset("Temperature sweep");
        for l in crate::presets::lanes(p) {
            assert_eq!(l.hf().unwrap().max_new_tokens, Some(12));
        }
        let (_, p) = preset("Repetition: penalty and stop");
        let lengths: Vec<_> = crate::presets::lanes(p)
            .iter()
            .map(|l| l.hf().unwrap().max_new_tokens)
            .collect();
        assert_eq!(lengths, [Some(40), Some(40), Some(30), Some(40)]);
    }

    #[test]
    fn greedy_and_top_k_1_are_deterministic_sampling_is_not() {
        let (_, p) = preset("Greedy = top-k 1");
        let d: Vec<bool> = crate::presets::lanes(p)
            .iter()
            .map(|l| deterministic(&l.config()))
            .collect();
        assert_eq!(d, [true, true, true, false]);
        let (i, _) = preset("Temperature sweep");
        assert_eq!(
            lines(i, None, None)
                .iter()
                .map(|l| l.deterministic)
                .collect::<Vec<_>>(),
            [false, false, false, true]
        );
    }

    #[test]
    fn the_lesson_text_on_distilgpt2_is_the_same_and_an_end_of_text_is_not_printed() {
        let (i, p) = preset("Temperature sweep");
        let greedy = format!("{}<|endoftext|>", p.printed[3].text);
        let doc = document(p, ["x", "y", "z", &greedy], StopReason::MaxNewTokens);
        for repo in ["distilgpt2", "distilbert/distilgpt2"] {
            let ls = lines(i, Some(&ran(i, Some(repo))), Some(&doc));
            assert_eq!(ls[3].verdict, Verdict::Same);
            assert_eq!(ls[3].lane, 3);
            assert!(matches!(ls[0].verdict, Verdict::Differs { at: 0, .. }));
        }
    }

    #[test]
    fn a_differing_text_says_where_it_parts() {
        let (i, p) = preset("Repetition: penalty and stop");
        let doc = document(p, ["a", "b", "c", " a fascinating two."], StopReason::Eos);
        let ls = lines(i, Some(&ran(i, Some("distilgpt2"))), Some(&doc));
        assert_eq!(
            ls[3].verdict,
            Verdict::Differs {
                at: 15,
                here: "two.".into()
            }
        );
    }

    #[test]
    fn another_model_an_edited_preset_or_a_stopped_run_is_not_judged() {
        let (i, p) = preset("Seeds at low temperature");
        let texts = p.printed.iter().map(|l| l.text).collect::<Vec<_>>();
        let texts = [texts[0], texts[1], texts[2], texts[3]];
        let doc = document(p, texts, StopReason::MaxNewTokens);
        let on = |r: Option<&LessonRun>, d: Option<&Document>| {
            lines(i, r, d)
                .into_iter()
                .map(|l| l.verdict)
                .collect::<Vec<_>>()
        };
        assert!(on(Some(&ran(i, Some("distilgpt2"))), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::Same));
        assert!(on(Some(&ran(i, Some("openai-community/gpt2"))), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::OtherModel));
        assert!(on(Some(&ran(i, None)), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::OtherModel));
        // The run on screen was another preset, or this one edited.
        assert!(on(Some(&ran(i + 1, Some("distilgpt2"))), Some(&doc))
            .iter()
            .all(|v| *v == Verdict::NotRun));
        assert!(on(None, Some(&doc)).iter().all(|v| *v == Verdict::NotRun));
        let stopped = document(p, texts, StopReason::Cancelled);
        assert!(on(Some(&ran(i, Some("distilgpt2"))), Some(&stopped))
            .iter()
            .all(|v| *v == Verdict::NotRun));
    }

    #[test]
    fn a_preset_is_unchanged_until_its_prompt_or_a_knob_is_edited() {
        let (_, p) = preset("Greedy = top-k 1");
        let mut lanes = crate::presets::lanes(p);
        assert!(is_unchanged(p, p.prompt, &lanes));
        assert!(!is_unchanged(p, "The best way", &lanes));
        lanes[2].set(ntl_decoding::Knob::TopK, "3").unwrap();
        assert!(!is_unchanged(p, p.prompt, &lanes));
    }
}
