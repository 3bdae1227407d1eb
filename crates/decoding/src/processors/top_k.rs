use super::processor::{remove, Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::kth_largest;

/// HF `TopKLogitsWarper`: removes scores below the k-th largest; ties at the
/// threshold are kept, so more than k tokens can survive.
pub struct TopK {
    pub top_k: usize,
}

impl LogitsProcessor for TopK {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::TopK)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        let k = self.top_k.min(scores.len());
        let threshold = kth_largest(scores, k);
        remove(scores, |_, s| s < threshold);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn keeps_ties_at_the_threshold() {
        let out = run(&TopK { top_k: 2 }, &[], 0, &[3.0, 1.0, 2.0, 2.0]);
        assert_eq!(out, vec![3.0, NEG, 2.0, 2.0]);
    }
}
