use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};
use crate::watermark::Watermark;
use std::sync::Arc;

/// HF `WatermarkLogitsProcessor`: after every other knob but renormalisation,
/// the green list's scores get the bias (see [`crate::watermark`]).
pub struct WatermarkProcessor {
    pub watermark: Arc<Watermark>,
}

impl LogitsProcessor for WatermarkProcessor {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::WatermarkingConfig)
    }
    fn process(&self, ctx: &Context, scores: &mut [f32]) {
        self.watermark.mark(ctx.ids, scores);
    }
}
