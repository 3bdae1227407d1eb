//! `temperature` with dynamic temperature (`llama_sampler_init_temp_ext`):
//! with `dynatemp_range` > 0 the temperature moves within
//! `temperature ± range` with the candidates' normalised entropy; at or below
//! zero it keeps only the best logit (llama.cpp's greedy). Mirostat's chain
//! uses the plain one (`llama_sampler_init_temp`): `range` 0.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::cmath::CMath;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct TemperatureSampler {
    pub temp: f32,
    pub range: f32,
    pub exponent: f32,
}

impl Sampler for TemperatureSampler {
    fn name(&self) -> SamplerName {
        SamplerName::Temperature
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.range <= 0.0 {
            cur.temperature(self.temp);
            return;
        }
        let min_temp = (self.temp - self.range).max(0.0);
        let max_temp = self.temp + self.range;
        if cur.len() <= 1 {
            return;
        }
        let max_entropy = -(1.0f32 / cur.len() as f32).c_ln();
        cur.softmax(true);
        let mut entropy = 0.0f32;
        for d in cur.data.iter().filter(|d| d.p > 0.0) {
            entropy -= d.p * d.p.c_ln();
        }
        let normalized = entropy / max_entropy;
        let dyn_temp = min_temp + (max_temp - min_temp) * normalized.c_powf(self.exponent);
        cur.temperature(dyn_temp);
        // Probabilities again, in double this time (as llama.cpp does here).
        let max = cur.data[0].logit as f64;
        let mut sum = 0.0f64;
        for d in &mut cur.data {
            let p = (d.logit as f64 - max).exp();
            d.p = p as f32;
            sum += p;
        }
        for d in &mut cur.data {
            d.p = (d.p as f64 / sum) as f32;
        }
    }
}
