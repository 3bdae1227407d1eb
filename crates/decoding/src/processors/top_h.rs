use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::{logsumexp, softmax, top_indices};

/// How many of the best tokens HF's Top-H looks at (its `top_n`).
const TOP_N: usize = 100;

/// HF `TopHLogitsWarper` (entropy-bounded truncation): among the 100 most
/// likely tokens, keep them in order of probability while their summed
/// entropy terms `−p·ln p` stay within `top_h` times the entropy of those 100
/// (renormalised); the most likely token always stays.
pub struct TopH {
    pub top_h: f64,
}

impl LogitsProcessor for TopH {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::TopH)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let top = top_indices(scores, TOP_N.min(scores.len()));
        let top_logits: Vec<f32> = top.iter().map(|&i| scores[i]).collect();
        // torch.distributions.Categorical(logits=...): normalised logits, their softmax.
        let lse = logsumexp(&top_logits);
        let normalized: Vec<f32> = top_logits.iter().map(|&l| l - lse).collect();
        let probs = softmax(&normalized);
        let entropy = -normalized
            .iter()
            .zip(&probs)
            .map(|(&l, &p)| f64::from(l.max(f32::MIN) * p))
            .sum::<f64>() as f32;
        let tau = entropy * self.top_h as f32;
        // −p·ln p summed in probability order (NaN for p = 0, which never passes),
        // a CPU cumsum: f64 running sum, each partial rounded to f32.
        let mut keep = vec![false; scores.len()];
        let mut cum = 0.0f64;
        for (rank, (&i, &p)) in top.iter().zip(&probs).enumerate() {
            cum += f64::from(-p * p.ln());
            keep[i] = rank == 0 || (cum as f32) <= tau;
        }
        for (s, k) in scores.iter_mut().zip(keep) {
            if !k {
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
    fn keeps_tokens_while_their_entropy_stays_within_the_bound() {
        // p = 0.7, 0.2, 0.1: entropy terms 0.250, 0.322, 0.230; H = 0.802.
        let logits: Vec<f32> = [0.7f32, 0.2, 0.1].iter().map(|p| p.ln()).collect();
        let keep = |h| {
            run(&TopH { top_h: h }, &[], 0, &logits)
                .iter()
                .filter(|s| s.is_finite())
                .count()
        };
        assert_eq!(keep(0.2), 1, "the best token always stays");
        assert_eq!(keep(0.5), 1);
        assert_eq!(keep(0.75), 2);
        assert_eq!(keep(1.0), 3);
    }

    #[test]
    fn only_the_hundred_best_are_candidates() {
        let logits: Vec<f32> = (0..150).map(|i| -(i as f32) * 1e-3).collect();
        let out = run(&TopH { top_h: 1.0 }, &[], 0, &logits);
        assert_eq!(out.iter().filter(|s| s.is_finite()).count(), 100);
        assert_eq!(out[120], NEG);
    }
}
