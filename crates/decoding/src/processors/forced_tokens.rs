use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// Every token removed but `ids`, which get score 0 (HF's forcing).
fn force(ids: &[u32], scores: &mut [f32]) {
    scores.fill(f32::NEG_INFINITY);
    for &id in ids {
        if let Some(s) = scores.get_mut(id as usize) {
            *s = 0.0;
        }
    }
}

/// HF `ForcedBOSTokenLogitsProcessor`: the token generated after a
/// one-token sequence (a decoder-only model's empty prompt, i.e. bos alone).
pub struct ForcedBos {
    pub id: u32,
}

impl LogitsProcessor for ForcedBos {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::ForcedBosTokenId)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        if ctx.ids.len() == 1 {
            force(&[self.id], scores);
        }
    }
}

/// HF `ForcedEOSTokenLogitsProcessor`: the last token `max_length` allows is
/// an eos token.
pub struct ForcedEos {
    pub ids: Vec<u32>,
    /// Prompt plus new tokens, as HF's `max_length`.
    pub max_length: usize,
}

impl LogitsProcessor for ForcedEos {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::ForcedEosTokenId)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        if ctx.ids.len() + 1 == self.max_length {
            force(&self.ids, scores);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn bos_is_forced_only_after_a_one_token_sequence() {
        let p = ForcedBos { id: 1 };
        assert_eq!(run(&p, &[7], 1, &[2.0; 3]), [NEG, 0.0, NEG]);
        assert_eq!(run(&p, &[7, 8], 2, &[2.0; 3]), [2.0; 3]);
    }

    #[test]
    fn eos_is_forced_at_the_last_position_max_length_allows() {
        let p = ForcedEos {
            ids: vec![0, 2],
            max_length: 4,
        };
        assert_eq!(run(&p, &[5, 5], 1, &[2.0; 3]), [2.0; 3]);
        assert_eq!(run(&p, &[5, 5, 5], 1, &[2.0; 3]), [0.0, NEG, 0.0]);
    }
}
