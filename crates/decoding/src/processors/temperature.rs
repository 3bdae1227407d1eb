use super::processor::{Context, LogitsProcessor};
use crate::knob::{Knob, Stage};

/// HF `TemperatureLogitsWarper`: scores / temperature.
pub struct Temperature {
    pub temperature: f64,
}

impl LogitsProcessor for Temperature {
    fn stage(&self) -> Stage {
        Stage::Knob(Knob::Temperature)
    }
    fn process(&self, _ctx: &Context, scores: &mut [f32]) {
        // torch divides an f32 tensor by the Python float cast to f32.
        let t = self.temperature as f32;
        scores.iter_mut().for_each(|s| *s /= t);
    }
}
