use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `RepetitionPenaltyLogitsProcessor`: every token present in prompt + generated
/// has its score divided by `penalty` if positive, multiplied if negative — once per
/// distinct token, however often it occurred.
pub struct RepetitionPenalty {
    pub penalty: f32,
}

impl LogitsProcessor for RepetitionPenalty {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::RepetitionPenalty)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        let mut seen = std::collections::HashSet::new();
        for &id in ctx.ids {
            let i = id as usize;
            if i < scores.len() && seen.insert(id) {
                let s = scores[i];
                scores[i] = if s < 0.0 {
                    s * self.penalty
                } else {
                    s / self.penalty
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::run;
    use super::*;

    #[test]
    fn divides_positive_and_multiplies_negative_once_per_distinct_token() {
        let out = run(
            &RepetitionPenalty { penalty: 2.0 },
            &[0, 0, 1],
            1,
            &[4.0, -1.0, 3.0],
        );
        assert_eq!(out, vec![2.0, -2.0, 3.0]);
    }
}
