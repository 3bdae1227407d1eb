//! The what-if sandbox: one distribution held still — a typed list of toy
//! logits, as the lessons start — and knobs moved over it. Every change
//! recomputes with the decoding crate's own processors, so the numbers are a
//! lane's.

use ntl_decoding::processors::Context;
use ntl_decoding::sandbox::{self, KNOBS};
use ntl_decoding::{Knob, Step};
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
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sandbox {
    pub logits_text: String,
    /// What is typed in each knob's box, in [`KNOBS`] order; empty is off.
    pub drafts: Vec<(Knob, String)>,
    /// The distribution after the knobs: the last input that made sense, so
    /// a half-typed number does not blank the table.
    pub shown: Option<Rc<Step>>,
    /// The typed logits behind `shown`.
    pub logits: Rc<Vec<f32>>,
    pub error: Option<SandboxError>,
}

impl Default for Sandbox {
    fn default() -> Self {
        let mut s = Sandbox {
            logits_text: LESSON_LOGITS.into(),
            drafts: KNOBS.iter().map(|&k| (k, String::new())).collect(),
            shown: None,
            logits: Rc::default(),
            error: None,
        };
        s.recompute();
        s
    }
}

impl Sandbox {
    /// The knobs a toy list offers: all but the repetition penalty, which
    /// needs a text before the step to look at.
    pub fn knobs(&self) -> impl Iterator<Item = &(Knob, String)> {
        self.drafts
            .iter()
            .filter(|(k, _)| *k != Knob::RepetitionPenalty)
    }

    pub fn set_logits(&mut self, text: String) {
        self.logits_text = text;
        self.recompute();
    }

    pub fn set_knob(&mut self, knob: Knob, text: String) {
        if let Some(d) = self.drafts.iter_mut().find(|(k, _)| *k == knob) {
            d.1 = text;
        }
        self.recompute();
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
                        message: format!("`{k}`: `{t}` is not a number (leave it empty for off)"),
                    })
            })
            .collect()
    }

    fn recompute(&mut self) {
        match self.compute() {
            Ok((logits, step)) => {
                self.logits = Rc::new(logits);
                self.shown = Some(Rc::new(step));
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn compute(&self) -> Result<(Vec<f32>, Step), SandboxError> {
        let logits = sandbox::parse_logits(&self.logits_text).map_err(|e| SandboxError {
            knob: None,
            message: e.to_string(),
        })?;
        let cfg = sandbox::config(&self.settings()?).map_err(|e| SandboxError {
            knob: e.knob(),
            message: e.to_string(),
        })?;
        let vocab = sandbox::toy_vocab(logits.len());
        let ctx = Context {
            ids: &[],
            prompt_len: 0,
        };
        let step = sandbox::what_if(&logits, ctx, None, &cfg, &vocab, TOP_N);
        Ok((logits, step))
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
            KNOBS
                .iter()
                .map(|&k| {
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
        s.set_knob(Knob::TopK, "3".into());
        assert_eq!(s.shown.as_ref().unwrap().kept, 3);
        s.set_knob(Knob::TopP, "0.5".into());
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
        s.set_knob(Knob::TopK, "3".into());
        let before = s.shown.clone();
        s.set_knob(Knob::Temperature, "-".into());
        assert_eq!(s.error.as_ref().unwrap().knob, Some(Knob::Temperature));
        assert_eq!(s.shown, before, "the table stays");
        s.set_knob(Knob::Temperature, "0".into());
        assert_eq!(s.error.as_ref().unwrap().knob, Some(Knob::Temperature));
        s.set_knob(Knob::Temperature, "".into());
        assert_eq!(s.error, None);
        s.set_logits("1, x".into());
        assert_eq!(s.error.as_ref().unwrap().knob, None);
        assert!(s.error.as_ref().unwrap().message.contains("`x`"));
        assert_eq!(s.lane_knobs(), None, "nothing to copy while input is wrong");
    }

    #[test]
    fn the_knobs_copied_into_a_lane_turn_off_what_the_sandbox_left_off() {
        let mut s = Sandbox::default();
        s.set_knob(Knob::Temperature, "0.7".into());
        s.set_knob(Knob::TopP, "0.9".into());
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
}
