use super::processor::{argsort_ascending, Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::{log_softmax, softmax};

/// HF `TypicalLogitsWarper` (locally typical sampling): keep the tokens whose
/// surprisal is closest to the entropy until their mass reaches `mass`.
pub struct Typical {
    pub mass: f64,
    pub min_tokens_to_keep: usize,
}

impl LogitsProcessor for Typical {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::TypicalP)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let normalized = log_softmax(scores);
        // nansum: -inf * 0 terms are NaN in torch and skipped.
        let ent = -normalized
            .iter()
            .map(|&l| l * l.exp())
            .filter(|x| !x.is_nan())
            .map(f64::from)
            .sum::<f64>() as f32;
        let shifted: Vec<f32> = normalized.iter().map(|&l| (-l - ent).abs()).collect();
        let order = argsort_ascending(&shifted);
        let sorted_logits: Vec<f32> = order.iter().map(|&i| scores[i]).collect();
        let probs = softmax(&sorted_logits);
        let mass = self.mass as f32;
        // torch's CPU cumsum accumulates f32 in f64 and rounds each partial sum.
        let mut cum = 0.0f64;
        let mut last_ind = 0usize;
        for &p in &probs {
            cum += p as f64;
            if (cum as f32) < mass {
                last_ind += 1;
            }
        }
        let last_ind = last_ind.min(order.len() - 1);
        let cutoff = shifted[order[last_ind]];
        for (rank, &i) in order.iter().enumerate() {
            if rank >= self.min_tokens_to_keep && shifted[i] > cutoff {
                scores[i] = f32::NEG_INFINITY;
            }
        }
    }
}
