use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `NoRepeatNGramLogitsProcessor`: bans every token that would complete an
/// n-gram already present anywhere in prompt + generated.
pub struct NoRepeatNGram {
    pub size: usize,
}

impl NoRepeatNGram {
    pub fn banned(&self, ids: &[u32]) -> Vec<u32> {
        let n = self.size;
        if ids.len() + 1 < n {
            return vec![];
        }
        let prefix = &ids[ids.len() + 1 - n..];
        ids.windows(n)
            .filter(|w| &w[..n - 1] == prefix)
            .map(|w| w[n - 1])
            .collect()
    }
}

impl LogitsProcessor for NoRepeatNGram {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::NoRepeatNgramSize)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        for id in self.banned(ctx.ids) {
            if let Some(s) = scores.get_mut(id as usize) {
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
    fn bans_the_token_that_would_repeat_a_bigram() {
        // "1 2 ... 1" -> 2 would repeat the bigram (1, 2).
        let out = run(&NoRepeatNGram { size: 2 }, &[1, 2, 3, 1], 4, &[0.0; 4]);
        assert_eq!(out, vec![0.0, 0.0, NEG, 0.0]);
    }

    #[test]
    fn size_one_bans_every_seen_token() {
        let out = run(&NoRepeatNGram { size: 1 }, &[0, 3], 1, &[0.0; 4]);
        assert_eq!(out, vec![NEG, 0.0, 0.0, NEG]);
    }

    #[test]
    fn does_nothing_before_enough_tokens_exist() {
        let out = run(&NoRepeatNGram { size: 3 }, &[1], 1, &[0.0; 3]);
        assert_eq!(out, vec![0.0; 3]);
    }
}
