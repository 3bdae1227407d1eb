use super::processor::{argsort_ascending_subset, Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::softmax;

/// HF `TopPLogitsWarper`: sort ascending, remove tokens whose cumulative
/// probability is `<= 1 - top_p`, always keeping the `min_tokens_to_keep` best.
pub struct TopP {
    pub top_p: f64,
    pub min_tokens_to_keep: usize,
}

impl LogitsProcessor for TopP {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::TopP)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        // Removed tokens (-inf) sort first in HF's ascending order and add exactly 0
        // to the cumulative sum, so leaving them out changes nothing but the cost:
        // after top_k=50 this sorts 50 tokens instead of the whole vocabulary.
        let finite: Vec<usize> = (0..scores.len())
            .filter(|&i| scores[i] != f32::NEG_INFINITY)
            .collect();
        let order = argsort_ascending_subset(scores, finite);
        let sorted: Vec<f32> = order.iter().map(|&i| scores[i]).collect();
        let probs = softmax(&sorted);
        // torch compares the f32 cumsum with the Python float `1 - top_p` cast to f32.
        let threshold = (1.0 - self.top_p) as f32;
        let protected_from = order.len().saturating_sub(self.min_tokens_to_keep);
        // torch's CPU cumsum accumulates f32 in f64 and rounds each partial sum.
        let mut cum = 0.0f64;
        for (rank, (&i, &p)) in order.iter().zip(&probs).enumerate() {
            cum += p as f64;
            if rank < protected_from && (cum as f32) <= threshold {
                scores[i] = f32::NEG_INFINITY;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn keeps_the_smallest_set_reaching_top_p() {
        // probs 0.5, 0.3, 0.2 -> top_p 0.75 keeps the first two.
        let logits: Vec<f32> = [0.5f32, 0.3, 0.2].iter().map(|p| p.ln()).collect();
        let out = run(
            &TopP {
                top_p: 0.75,
                min_tokens_to_keep: 1,
            },
            &[],
            0,
            &logits,
        );
        assert!(out[0].is_finite() && out[1].is_finite());
        assert_eq!(out[2], NEG);
    }

    #[test]
    fn tokens_already_removed_do_not_change_the_cut() {
        let logits: Vec<f32> = [0.5f32, 0.3, 0.2].iter().map(|p| p.ln()).collect();
        let mut with_removed = vec![NEG, NEG];
        with_removed.extend(&logits);
        let a = run(
            &TopP {
                top_p: 0.75,
                min_tokens_to_keep: 1,
            },
            &[],
            0,
            &logits,
        );
        let b = run(
            &TopP {
                top_p: 0.75,
                min_tokens_to_keep: 1,
            },
            &[],
            0,
            &with_removed,
        );
        assert_eq!(b[2..], a[..]);
        assert_eq!(
            run(
                &TopP {
                    top_p: 1e-9,
                    min_tokens_to_keep: 2
                },
                &[],
                0,
                &[NEG, 1.0, 2.0, 3.0]
            ),
            vec![NEG, NEG, 2.0, 3.0]
        );
    }

    #[test]
    fn always_keeps_one_token() {
        let out = run(
            &TopP {
                top_p: 1e-9,
                min_tokens_to_keep: 1,
            },
            &[],
            0,
            &[1.0, 2.0, 3.0],
        );
        assert_eq!(out, vec![NEG, NEG, 3.0]);
    }
}
