use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `InfNanRemoveLogitsProcessor` (`remove_invalid_values`): NaN becomes 0,
/// ±inf the largest finite values — so a `-inf` set by an earlier knob
/// becomes finite again (its probability stays 0 after softmax).
pub struct RemoveInvalid;

impl LogitsProcessor for RemoveInvalid {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::RemoveInvalidValues)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        for s in scores.iter_mut() {
            if s.is_nan() {
                *s = 0.0;
            } else if *s == f32::INFINITY {
                *s = f32::MAX;
            } else if *s == f32::NEG_INFINITY {
                *s = f32::MIN;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{run, NEG};
    use super::*;

    #[test]
    fn nan_and_infinities_become_finite() {
        let out = run(
            &RemoveInvalid,
            &[0],
            1,
            &[f32::NAN, f32::INFINITY, NEG, 1.5],
        );
        assert_eq!(out, [0.0, f32::MAX, f32::MIN, 1.5]);
    }
}
