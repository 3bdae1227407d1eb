use super::processor::{remove, Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::{kth_largest, softmax};

/// HF `EpsilonLogitsWarper`: removes tokens with probability below `epsilon`,
/// except the `min_tokens_to_keep` best.
pub struct EpsilonCutoff {
    pub epsilon: f64,
    pub min_tokens_to_keep: usize,
}

impl LogitsProcessor for EpsilonCutoff {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::EpsilonCutoff)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let probs = softmax(scores);
        let keep_above = kth_largest(scores, self.min_tokens_to_keep.min(scores.len()));
        let eps = self.epsilon as f32;
        remove(scores, |i, s| probs[i] < eps && s < keep_above);
    }
}
