use super::processor::{Context, LogitsProcessor};
use crate::knob::Stage;
use std::collections::HashMap;

/// OpenAI-style penalties, which HF lacks: `logit -= frequency * count + presence * (count > 0)`
/// over the tokens generated so far (the prompt does not count, as in OpenAI's API).
pub struct FrequencyPresencePenalty {
    pub frequency: f32,
    pub presence: f32,
}

impl LogitsProcessor for FrequencyPresencePenalty {
    fn stage(&self) -> Stage {
        Stage::FrequencyPresencePenalty
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        for &id in ctx.generated() {
            *counts.entry(id).or_default() += 1;
        }
        for (id, n) in counts {
            if let Some(s) = scores.get_mut(id as usize) {
                *s -= self.frequency * n as f32 + self.presence;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::run;
    use super::*;

    #[test]
    fn counts_generated_tokens_only() {
        // Prompt [2]; generated [0, 0, 1].
        let p = FrequencyPresencePenalty {
            frequency: 0.5,
            presence: 1.0,
        };
        let out = run(&p, &[2, 0, 0, 1], 1, &[0.0, 0.0, 0.0]);
        assert_eq!(out, vec![-2.0, -1.5, 0.0]);
    }
}
