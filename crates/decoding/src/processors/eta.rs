use super::processor::{remove, Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::{kth_largest, log_softmax, softmax};

/// HF `EtaLogitsWarper`: an entropy-dependent cutoff
/// `eta = min(epsilon, sqrt(epsilon) * exp(-entropy))`.
pub struct EtaCutoff {
    pub epsilon: f64,
    pub min_tokens_to_keep: usize,
}

impl LogitsProcessor for EtaCutoff {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::EtaCutoff)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let probs = softmax(scores);
        // torch's Categorical entropy: -sum(p * log_softmax), with -inf clamped so 0 * log 0 = 0.
        let entropy = -log_softmax(scores)
            .iter()
            .zip(&probs)
            .map(|(&l, &p)| f64::from(l.max(f32::MIN) * p))
            .sum::<f64>() as f32;
        let eps = self.epsilon as f32;
        let eta = eps.min(eps.sqrt() * (-entropy).exp());
        let keep_above = kth_largest(scores, self.min_tokens_to_keep.min(scores.len()));
        remove(scores, |i, s| probs[i] < eta && s < keep_above);
    }
}
