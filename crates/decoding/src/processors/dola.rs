use super::processor::{Context, LogitsProcessor};
use crate::dola::relative_top_contrast;
use crate::knob::{Knob, Stage};

/// DoLa's contrast as the first stage (HF 4.55 computes it before the
/// processors): the final layer's logits become `log p_final −
/// log p_premature` on the tokens within 10% of the top probability, −∞
/// elsewhere. The lane picks the premature layer and passes its logits in
/// the context; without them (the sandbox) the stage passes the logits on.
pub struct DolaContrast;

impl LogitsProcessor for DolaContrast {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::DolaLayers)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        if let Some(premature) = ctx.premature {
            let contrast = relative_top_contrast(scores, premature);
            scores.copy_from_slice(&contrast);
        }
    }
}
