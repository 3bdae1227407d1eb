use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::scores::log_softmax;

/// HF `UnbatchedClassifierFreeGuidanceLogitsProcessor`, first of all: the
/// scores become log-probabilities `c`, the unconditional pass's `u`, and
/// then `scale·(c − u) + u` — a scale above 1 pushes away from what the
/// model would say without the prompt (or given the negative prompt).
pub struct Guidance {
    pub scale: f64,
}

impl LogitsProcessor for Guidance {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::GuidanceScale)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        let c = log_softmax(scores);
        match ctx.unconditional {
            Some(u) => {
                let u = log_softmax(u);
                let g = self.scale as f32;
                for ((s, c), u) in scores.iter_mut().zip(c).zip(u) {
                    *s = g * (c - u) + u;
                }
            }
            None => scores.copy_from_slice(&c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guidance_moves_away_from_the_unconditional_distribution() {
        let cond = [2.0f32.ln(), 1.0f32.ln()];
        let uncond = [1.0f32.ln(), 3.0f32.ln()];
        let mut s = cond.to_vec();
        let ctx = Context {
            unconditional: Some(&uncond),
            ..Context::new(&[1], 1)
        };
        Guidance { scale: 2.0 }.process(&ctx, &mut s);
        // log p: (ln 2/3, ln 1/3) against (ln 1/4, ln 3/4): token 0 gains, token 1 loses.
        let want0 = 2.0 * ((2.0f32 / 3.0).ln() - 0.25f32.ln()) + 0.25f32.ln();
        assert!((s[0] - want0).abs() < 1e-5);
        assert!(s[0] > (2.0f32 / 3.0).ln() && s[1] < (1.0f32 / 3.0).ln());
    }
}
