//! The what-if sandbox: one distribution held still — a typed list of toy
//! logits, as the lessons start, or one step of a lane (its whole row, which
//! the worker computes and keeps) — and knobs moved over it. Every change
//! recomputes with the decoding crate's own processors (here for typed
//! logits, in the worker for a step), so the numbers are a lane's.

use crate::said::Said;
use ntl_decoding::observe::Input;
use ntl_decoding::processors::Context;
use ntl_decoding::sandbox::{self, knobs, Keeping};
use ntl_decoding::{GenerationConfig, Knob, Step};
use ntl_protocol::ToWorker;
use std::rc::Rc;

/// The lesson's five logits (a–e).
pub const LESSON_LOGITS: &str = "2, 1, 0.1, -1, -2";

/// Rows in the table: the lessons' "top 20".
const TOP_N: usize = 20;

/// What is wrong with the sandbox's input, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct SandboxError {
    /// The knob at fault; `None` for the typed logits.
    pub knob: Option<Knob>,
    pub message: Said,
}

/// One step of a lane, as the sandbox holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepSource {
    pub lane: usize,
    pub step: usize,
    /// The context before the step: the prompt's ids and the lane's tokens.
    pub ids: Rc<Vec<u32>>,
    pub prompt_len: usize,
    /// The token the lane picked there.
    pub chosen: u32,
    /// A beam lane: its knobs act on log-probabilities, and the row is the
    /// beam its best continuation extended.
    pub beam: bool,
    /// A beam lane's own end-of-text ids, when its config names them: its
    /// warpers keep one token more per beam (the model's when `None`).
    pub eos_token_ids: Option<Vec<u32>>,
    /// The lane used guidance, which the sandbox does not apply.
    pub guided: bool,
    /// The lane contrasted layers (DoLa), which the sandbox does not.
    pub dola: bool,
    /// A llama.cpp lane: the sandbox starts from its same-named knobs but
    /// applies them in HF's order.
    pub llama: bool,
    /// The lane's model: a lane model's name (`None`: the page's).
    pub model: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// The typed logits.
    Toy,
    Step(StepSource),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sandbox {
    pub source: Source,
    /// How many tokens the distribution has.
    pub vocab: usize,
    /// The worker's answer being waited for; older answers are dropped.
    pub pending: Option<u64>,
    next_request: u64,
    /// Worker time of the last answer (ms).
    pub last_ms: Option<f64>,
    pub logits_text: String,
    /// What is typed in each knob's box, in [`knobs`] order; empty is off.
    pub drafts: Vec<(Knob, String)>,
    /// The distribution after the knobs: the last input that made sense, so
    /// a half-typed number does not blank the table.
    pub shown: Option<Rc<Step>>,
    pub error: Option<SandboxError>,
}

impl Default for Sandbox {
    fn default() -> Self {
        let mut s = Sandbox {
            source: Source::Toy,
            vocab: 0,
            pending: None,
            next_request: 0,
            last_ms: None,
            logits_text: LESSON_LOGITS.into(),
            drafts: knobs().map(|k| (k, String::new())).collect(),
            shown: None,
            error: None,
        };
        s.recompute();
        s
    }
}

impl Sandbox {
    /// The knobs on offer: a typed list has no text before it, so no
    /// repetition penalty.
    pub fn knobs(&self) -> impl Iterator<Item = &(Knob, String)> {
        let toy = self.source == Source::Toy;
        self.drafts
            .iter()
            .filter(move |(k, _)| !(toy && *k == Knob::RepetitionPenalty))
    }

    /// Typed logits: the sandbox holds them from now on.
    pub fn set_logits(&mut self, text: String) {
        self.logits_text = text;
        self.source = Source::Toy;
        self.pending = None;
        self.recompute();
    }

    /// A knob typed into; for a step, the request to send the worker.
    pub fn set_knob(&mut self, knob: Knob, text: String) -> Option<ToWorker> {
        if let Some(d) = self.drafts.iter_mut().find(|(k, _)| *k == knob) {
            d.1 = text;
        }
        self.recompute()
    }

    /// Holds one step of a lane, starting from that lane's own knobs (so the
    /// table first shows what the lane's showed); the request for the worker.
    pub fn open_step(&mut self, source: StepSource, lane: &GenerationConfig) -> Option<ToWorker> {
        self.drafts = lane_drafts(lane);
        self.source = Source::Step(source);
        self.shown = None;
        self.recompute()
    }

    /// The worker's answer; `false` for one that was overtaken.
    pub fn answered(&mut self, request_id: u64, step: Step, vocab: usize, ms: f64) -> bool {
        if self.pending != Some(request_id) {
            return false;
        }
        self.pending = None;
        self.shown = Some(Rc::new(step));
        self.vocab = vocab;
        self.last_ms = Some(ms);
        self.error = None;
        true
    }

    pub fn failed(&mut self, request_id: u64, knob: Option<Knob>, message: String) -> bool {
        if self.pending != Some(request_id) {
            return false;
        }
        self.pending = None;
        self.error = Some(SandboxError {
            knob,
            message: Said::Verbatim(message),
        });
        true
    }

    /// The knobs that are set, as numbers.
    fn settings(&self) -> Result<Vec<(Knob, f64)>, SandboxError> {
        self.knobs()
            .filter(|(_, t)| !t.trim().is_empty())
            .map(|(k, t)| {
                let t = t.trim().replace('−', "-");
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .map(|v| (*k, v))
                    .ok_or_else(|| SandboxError {
                        knob: Some(*k),
                        message: Said::SandboxNotANumber {
                            knob: k.to_string(),
                            text: t.clone(),
                        },
                    })
            })
            .collect()
    }

    fn recompute(&mut self) -> Option<ToWorker> {
        let Source::Step(src) = &self.source else {
            match self.compute() {
                Ok((vocab, step)) => {
                    self.vocab = vocab;
                    self.shown = Some(Rc::new(step));
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
            return None;
        };
        // Checked here, with the lanes' messages, before the worker is asked
        // (which knows the model's eos ids; they change no message).
        let keeping = if src.beam {
            Keeping::PerBeam {
                eos_token_ids: src.eos_token_ids.clone().unwrap_or_default(),
            }
        } else {
            Keeping::One
        };
        let checked = self.settings().and_then(|set| {
            sandbox::config(&set, &keeping)
                .map(|_| set)
                .map_err(|e| SandboxError {
                    knob: e.knob(),
                    message: Said::Config(e),
                })
        });
        match checked {
            Ok(knobs) => {
                self.next_request += 1;
                self.pending = Some(self.next_request);
                self.error = None;
                Some(ToWorker::WhatIf {
                    request_id: self.next_request,
                    ids: src.ids.to_vec(),
                    prompt_len: src.prompt_len,
                    chosen: src.chosen,
                    log_probs: src.beam,
                    eos_token_ids: src.eos_token_ids.clone(),
                    knobs,
                    model: src.model.clone(),
                })
            }
            Err(e) => {
                self.pending = None;
                self.error = Some(e);
                None
            }
        }
    }

    /// The typed logits' count, and their step after the knobs.
    fn compute(&self) -> Result<(usize, Step), SandboxError> {
        let logits = sandbox::parse_logits(&self.logits_text).map_err(|e| SandboxError {
            knob: None,
            message: Said::Toy(e),
        })?;
        let cfg = sandbox::config(&self.settings()?, &Keeping::One).map_err(|e| SandboxError {
            knob: e.knob(),
            message: Said::Config(e),
        })?;
        let vocab = sandbox::toy_vocab(logits.len());
        let ctx = Context::new(&[], 0);
        let step = sandbox::what_if(&logits, ctx, None, Input::Logits, &cfg, &vocab, TOP_N);
        Ok((logits.len(), step))
    }

    /// The knobs to copy into a lane, as a lane's boxes take them: every
    /// sandbox knob, `top_k` off (0) unless set; `None` while the input is
    /// wrong.
    pub fn lane_knobs(&self) -> Option<Vec<(Knob, String)>> {
        if self.error.is_some() {
            return None;
        }
        let set = self.settings().ok()?;
        Some(
            knobs()
                .map(|k| {
                    let text = match set.iter().find(|(s, _)| *s == k) {
                        Some((_, v)) => format_value(k, *v),
                        None if k == Knob::TopK => "0".into(),
                        None => String::new(),
                    };
                    (k, text)
                })
                .collect(),
        )
    }
}

/// A lane's own values of the sandbox's knobs, as their boxes show them:
/// what its sampling applies (top_k 50 when unset, HF's default), and every
/// warper off for a lane that does not sample.
fn lane_drafts(cfg: &GenerationConfig) -> Vec<(Knob, String)> {
    let sampling = cfg.do_sample;
    knobs()
        .map(|k| {
            let value = match k {
                Knob::RepetitionPenalty => Some(cfg.repetition_penalty).filter(|&v| v != 1.0),
                _ if !sampling => None,
                Knob::Temperature => Some(cfg.temperature).filter(|&v| v != 1.0),
                Knob::TopK => Some(cfg.top_k.unwrap_or(50) as f64),
                Knob::TopH => cfg.top_h,
                Knob::TopP => Some(cfg.top_p).filter(|&v| v < 1.0),
                Knob::MinP => cfg.min_p,
                Knob::TypicalP => Some(cfg.typical_p).filter(|&v| v < 1.0),
                Knob::EpsilonCutoff => Some(cfg.epsilon_cutoff).filter(|&v| v > 0.0),
                Knob::EtaCutoff => Some(cfg.eta_cutoff).filter(|&v| v > 0.0),
                _ => None,
            };
            (k, value.map(|v| format_value(k, v)).unwrap_or_default())
        })
        .collect()
}

fn format_value(knob: Knob, v: f64) -> String {
    if knob == Knob::TopK {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(s: &Sandbox) -> Vec<(u32, f32)> {
        s.shown
            .as_ref()
            .unwrap()
            .top
            .iter()
            .map(|c| (c.id, c.prob))
            .collect()
    }

    #[test]
    fn it_opens_on_the_lessons_five_logits_with_every_knob_off() {
        let s = Sandbox::default();
        let p = probs(&s);
        assert_eq!(p.len(), 5);
        assert_eq!(p.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert!((p[0].1 - 0.6307).abs() < 1e-4);
        assert_eq!(s.shown.as_ref().unwrap().kept, 5);
    }

    #[test]
    fn each_knob_typed_recomputes_the_funnel_in_hfs_order() {
        let mut s = Sandbox::default();
        let _ = s.set_knob(Knob::TopK, "3".into());
        assert_eq!(s.shown.as_ref().unwrap().kept, 3);
        let _ = s.set_knob(Knob::TopP, "0.5".into());
        assert_eq!(s.shown.as_ref().unwrap().kept, 1, "a alone holds 63%");
        let names: Vec<&str> = s
            .shown
            .as_ref()
            .unwrap()
            .funnel
            .iter()
            .map(|f| f.name.name())
            .collect();
        assert_eq!(names, ["model", "top_k", "top_p"]);
    }

    #[test]
    fn a_half_typed_or_invalid_value_is_reported_at_its_knob() {
        let mut s = Sandbox::default();
        let _ = s.set_knob(Knob::TopK, "3".into());
        let before = s.shown.clone();
        let _ = s.set_knob(Knob::Temperature, "-".into());
        assert_eq!(s.error.as_ref().unwrap().knob, Some(Knob::Temperature));
        assert_eq!(s.shown, before, "the table stays");
        let _ = s.set_knob(Knob::Temperature, "0".into());
        assert_eq!(s.error.as_ref().unwrap().knob, Some(Knob::Temperature));
        let _ = s.set_knob(Knob::Temperature, "".into());
        assert_eq!(s.error, None);
        s.set_logits("1, x".into());
        assert_eq!(s.error.as_ref().unwrap().knob, None);
        assert!(s
            .error
            .as_ref()
            .unwrap()
            .message
            .to_string()
            .contains("`x`"));
        assert_eq!(s.lane_knobs(), None, "nothing to copy while input is wrong");
    }

    #[test]
    fn the_knobs_copied_into_a_lane_turn_off_what_the_sandbox_left_off() {
        let mut s = Sandbox::default();
        let _ = s.set_knob(Knob::Temperature, "0.7".into());
        let _ = s.set_knob(Knob::TopP, "0.9".into());
        let k = s.lane_knobs().unwrap();
        let get = |knob| k.iter().find(|(x, _)| *x == knob).unwrap().1.clone();
        assert_eq!(get(Knob::Temperature), "0.7");
        assert_eq!(get(Knob::TopP), "0.9");
        assert_eq!(
            get(Knob::TopK),
            "0",
            "HF's default 50 would change the result"
        );
        assert_eq!(get(Knob::MinP), "");
    }

    fn any_step() -> Step {
        (*Sandbox::default().shown.unwrap()).clone()
    }

    fn lane_step() -> StepSource {
        StepSource {
            lane: 1,
            step: 2,
            ids: Rc::new(vec![10, 11, 12, 13]),
            prompt_len: 2,
            chosen: 7,
            beam: false,
            eos_token_ids: None,
            guided: false,
            dola: false,
            llama: false,
            model: None,
        }
    }

    fn sent(req: Option<ToWorker>) -> (u64, Vec<(Knob, f64)>) {
        match req {
            Some(ToWorker::WhatIf {
                request_id,
                ids,
                prompt_len,
                chosen,
                log_probs,
                eos_token_ids,
                knobs,
                model: None,
            }) => {
                assert_eq!(
                    (ids, prompt_len, chosen, log_probs, eos_token_ids),
                    (vec![10, 11, 12, 13], 2, 7, false, None)
                );
                (request_id, knobs)
            }
            other => panic!("expected a what-if request, got {other:?}"),
        }
    }

    #[test]
    fn a_lanes_step_opens_with_the_lanes_own_knobs_and_asks_the_worker() {
        let mut s = Sandbox::default();
        let lane = GenerationConfig::from_json(
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "repetition_penalty": 1.2}"#,
        )
        .unwrap();
        let (id, knobs) = sent(s.open_step(lane_step(), &lane));
        assert_eq!(
            knobs,
            [
                (Knob::RepetitionPenalty, 1.2),
                (Knob::Temperature, 0.7),
                (Knob::TopK, 50.0),
                (Knob::TopP, 0.9)
            ],
            "HF samples with top_k 50 unless told, so the sandbox starts there too"
        );
        assert!(
            s.knobs().any(|(k, _)| *k == Knob::RepetitionPenalty),
            "a step has a context"
        );
        assert_eq!(s.shown, None, "nothing until the worker answers");
        let (newer, _) = sent(s.set_knob(Knob::TopK, "".into()));
        assert!(newer > id);
        assert!(
            !s.answered(id, any_step(), 50257, 3.0),
            "an overtaken answer is dropped"
        );
        assert!(s.answered(newer, any_step(), 50257, 3.0));
        assert_eq!(s.vocab, 50257);
        // A wrong value is caught before the worker is asked.
        assert!(s.set_knob(Knob::TopP, "2".into()).is_none());
        assert_eq!(s.error.as_ref().unwrap().knob, Some(Knob::TopP));
        // Typing logits goes back to them.
        let _ = s.set_knob(Knob::TopP, "".into());
        s.set_logits("1, 2".into());
        assert_eq!(s.source, Source::Toy);
        assert_eq!(s.vocab, 2);
    }

    #[test]
    fn a_greedy_lanes_step_opens_with_every_warper_off() {
        let mut s = Sandbox::default();
        let greedy = GenerationConfig::from_json(r#"{"temperature": 0.7}"#).unwrap();
        let (_, knobs) = sent(s.open_step(lane_step(), &greedy));
        assert_eq!(knobs, [], "HF ignores temperature without do_sample");
    }
}
