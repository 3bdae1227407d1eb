//! `top_n_sigma`: tokens whose logit is within `n` standard deviations of
//! the best (`llama_sampler_init_top_n_sigma`); the rest become `-inf` but
//! stay in the candidates.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct TopNSigmaSampler {
    pub n: f32,
}

impl Sampler for TopNSigmaSampler {
    fn name(&self) -> SamplerName {
        SamplerName::TopNSigma
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.n <= 0.0 || cur.len() <= 1 {
            return;
        }
        let mut max = cur.data[0].logit;
        let mut sum = 0.0f32;
        let mut count = 0usize;
        for d in cur.data.iter().filter(|d| d.logit != f32::NEG_INFINITY) {
            max = max.max(d.logit);
            sum += d.logit;
            count += 1;
        }
        let mean = if count > 0 { sum / count as f32 } else { 0.0 };
        // `acc += pow(x - mean, 2)`: the square in double, the sum in float.
        let mut acc = 0.0f32;
        for d in cur.data.iter().filter(|d| d.logit != f32::NEG_INFINITY) {
            acc = (acc as f64 + ((d.logit - mean) as f64).powi(2)) as f32;
        }
        let std = if count > 0 {
            (acc / count as f32).sqrt()
        } else {
            0.0
        };
        for d in &mut cur.data {
            if d.logit < max - self.n * std {
                d.logit = f32::NEG_INFINITY;
            }
        }
    }
}
