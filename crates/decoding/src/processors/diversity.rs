use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF 4.55 `HammingDiversityLogitsProcessor`: in diverse beam search, a
/// group's log-probabilities lose `penalty` for every beam of an earlier group
/// that chose the token at this same step.
pub struct HammingDiversity {
    pub penalty: f32,
}

impl LogitsProcessor for HammingDiversity {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::DiversityPenalty)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        // HF counts with `bincount` (an integer tensor) and subtracts
        // `penalty * count` in f32; counts are small, so this is exact.
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for &t in ctx.earlier_groups {
            match counts.iter_mut().find(|(id, _)| *id == t) {
                Some((_, n)) => *n += 1,
                None => counts.push((t, 1)),
            }
        }
        for (id, n) in counts {
            if let Some(s) = scores.get_mut(id as usize) {
                *s -= self.penalty * n as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(earlier: &[u32], scores: &[f32]) -> Vec<f32> {
        let mut s = scores.to_vec();
        let ctx = Context {
            earlier_groups: earlier,
            ..Context::new(&[0], 1)
        };
        HammingDiversity { penalty: 0.5 }.process(&ctx, &mut s);
        s
    }

    #[test]
    fn the_first_group_is_not_penalised() {
        assert_eq!(apply(&[], &[-1.0, -2.0, -3.0]), [-1.0, -2.0, -3.0]);
    }

    #[test]
    fn each_earlier_beam_choosing_a_token_costs_the_penalty_once() {
        // Two beams of earlier groups chose token 2, one chose token 0.
        assert_eq!(apply(&[2, 0, 2], &[-1.0, -2.0, -3.0]), [-1.5, -2.0, -4.0]);
    }
}
