use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

fn suppress(ids: &[u32], scores: &mut [f32]) {
    for &id in ids {
        if let Some(s) = scores.get_mut(id as usize) {
            *s = f32::NEG_INFINITY;
        }
    }
}

/// HF `SuppressTokensLogitsProcessor`: these tokens are never generated.
pub struct SuppressTokens {
    pub ids: Vec<u32>,
}

impl LogitsProcessor for SuppressTokens {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::SuppressTokens)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        suppress(&self.ids, scores);
    }
}

/// HF `SuppressTokensAtBeginLogitsProcessor`: these tokens cannot be the
/// first generated token (when the sequence is `begin_index` long).
pub struct SuppressTokensAtBegin {
    pub ids: Vec<u32>,
    pub begin_index: usize,
}

impl LogitsProcessor for SuppressTokensAtBegin {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::BeginSuppressTokens)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        if ctx.ids.len() == self.begin_index {
            suppress(&self.ids, scores);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn suppressed_tokens_are_removed_at_every_step() {
        let p = SuppressTokens { ids: vec![1, 9] };
        assert_eq!(run(&p, &[0, 0, 0], 1, &[1.0; 3]), [1.0, NEG, 1.0]);
    }

    #[test]
    fn begin_suppression_acts_at_the_first_generated_token_only() {
        let p = SuppressTokensAtBegin {
            ids: vec![2],
            begin_index: 2,
        };
        assert_eq!(run(&p, &[5, 6], 2, &[1.0; 3]), [1.0, 1.0, NEG]);
        assert_eq!(run(&p, &[5, 6, 2], 2, &[1.0; 3]), [1.0; 3]);
    }
}
