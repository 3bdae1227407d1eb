use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `MinNewTokensLengthLogitsProcessor` (and `MinLengthLogitsProcessor`, whose
/// prompt-inclusive count the config converts to new tokens): eos is impossible
/// until enough new tokens exist.
pub struct MinNewTokens {
    pub min_new_tokens: usize,
    pub eos: Vec<u32>,
}

impl LogitsProcessor for MinNewTokens {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::MinNewTokens)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        if ctx.generated().len() < self.min_new_tokens {
            for &e in &self.eos {
                if let Some(s) = scores.get_mut(e as usize) {
                    *s = f32::NEG_INFINITY;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn blocks_eos_until_the_minimum_then_releases_it() {
        let p = MinNewTokens {
            min_new_tokens: 2,
            eos: vec![1],
        };
        assert_eq!(run(&p, &[5, 0], 1, &[0.0; 2]), vec![0.0, NEG]);
        assert_eq!(run(&p, &[5, 0, 0], 1, &[0.0; 2]), vec![0.0, 0.0]);
    }
}
