use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::{softmax, top_indices};

/// HF `MinPLogitsWarper`: removes tokens whose probability is below
/// `min_p * max_probability`, keeping at least `min_tokens_to_keep`.
pub struct MinP {
    pub min_p: f64,
    pub min_tokens_to_keep: usize,
}

impl LogitsProcessor for MinP {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::MinP)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let probs = softmax(scores);
        let top = probs.iter().copied().fold(0.0f32, f32::max);
        let scaled = self.min_p as f32 * top;
        let mut drop: Vec<bool> = probs.iter().map(|&p| p < scaled).collect();
        for i in top_indices(&probs, self.min_tokens_to_keep) {
            drop[i] = false;
        }
        for (s, d) in scores.iter_mut().zip(drop) {
            if d {
                *s = f32::NEG_INFINITY;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn removes_tokens_below_a_fraction_of_the_best() {
        let logits: Vec<f32> = [0.6f32, 0.3, 0.1].iter().map(|p| p.ln()).collect();
        let out = run(
            &MinP {
                min_p: 0.4,
                min_tokens_to_keep: 1,
            },
            &[],
            0,
            &logits,
        );
        assert!(out[0].is_finite() && out[1].is_finite());
        assert_eq!(out[2], NEG);
    }
}
