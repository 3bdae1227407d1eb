use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `ExponentialDecayLengthPenalty`: after `start` new tokens, each eos
/// token's score grows by `|score| · (factor^n − 1)`, `n` tokens past the
/// start — ending the text gets likelier without a hard cut-off.
pub struct ExponentialDecay {
    /// Prompt length plus `start_index` (HF's `regulation_start`).
    pub regulation_start: usize,
    pub factor: f64,
    pub eos: Vec<u32>,
}

impl LogitsProcessor for ExponentialDecay {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::ExponentialDecayLengthPenalty)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        let cur_len = ctx.ids.len();
        if cur_len <= self.regulation_start {
            return;
        }
        let n = (cur_len - self.regulation_start) as f64;
        // Python's float pow, then a float32 tensor times that scalar.
        let grow = (self.factor.powf(n) - 1.0) as f32;
        let original: Vec<(usize, f32)> = self
            .eos
            .iter()
            .filter_map(|&id| scores.get(id as usize).map(|&s| (id as usize, s)))
            .collect();
        for (i, s) in original {
            let penalty = if s.is_finite() { s.abs() * grow } else { 0.0 };
            scores[i] = s + penalty;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::run;
    use super::*;

    #[test]
    fn eos_grows_by_its_magnitude_times_factor_power_minus_one_after_the_start() {
        let p = ExponentialDecay {
            regulation_start: 3,
            factor: 2.0,
            eos: vec![0],
        };
        assert_eq!(run(&p, &[1, 1, 1], 1, &[-2.0, 1.0]), [-2.0, 1.0]);
        // One past the start: |−2|·(2¹ − 1) = 2.
        assert_eq!(run(&p, &[1, 1, 1, 1], 1, &[-2.0, 1.0]), [0.0, 1.0]);
        // Three past: |−2|·(2³ − 1) = 14.
        assert_eq!(run(&p, &[1; 6], 1, &[-2.0, 1.0]), [12.0, 1.0]);
    }
}
