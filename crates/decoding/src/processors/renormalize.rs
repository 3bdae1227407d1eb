use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::log_softmax;

/// HF `LogitNormalization` (`renormalize_logits`), always last: the scores
/// become log-probabilities again after the other knobs — which beam search's
/// sums of scores assume.
pub struct Renormalize;

impl LogitsProcessor for Renormalize {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::RenormalizeLogits)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let normalized = log_softmax(scores);
        scores.copy_from_slice(&normalized);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn scores_become_log_probabilities() {
        let out = run(&Renormalize, &[0], 1, &[2.0f32.ln(), 2.0f32.ln(), NEG]);
        assert!((out[0] - 0.5f32.ln()).abs() < 1e-6 && (out[1] - 0.5f32.ln()).abs() < 1e-6);
        assert_eq!(out[2], NEG);
    }
}
