//! `adaptive_p` (`llama_sampler_init_adaptive_p`): picks tokens near a target
//! probability. Each step reshapes the logits around a target adapted from
//! the recent picks' probabilities (an exponential moving average with
//! `adaptive_decay`), then draws. Listed in `samplers`, it replaces `dist` at
//! the end of the chain; with a negative target it just draws.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};
use crate::llama_cpp::std_random::{Mt19937, StdDistributions};

const DISTRIBUTION_WIDTH: f32 = 0.3;
const PEAK_LOGIT_VALUE: f32 = 5.0;
const SHARPNESS: f32 = 10.0;

pub struct AdaptivePSampler {
    target: f32,
    decay: f32,
    rng: Mt19937,
    weighted_sum: f32,
    total_weight: f32,
    original: Vec<f32>,
    pending: Option<(u32, usize)>,
}

impl AdaptivePSampler {
    pub fn new(target: f32, decay: f32, seed: u32) -> AdaptivePSampler {
        let decay = decay.clamp(0.0, 0.99);
        AdaptivePSampler {
            target,
            decay,
            rng: Mt19937::new(seed),
            weighted_sum: target / (1.0 - decay),
            total_weight: 1.0 / (1.0 - decay),
            original: vec![],
            pending: None,
        }
    }
}

impl Sampler for AdaptivePSampler {
    fn name(&self) -> SamplerName {
        SamplerName::AdaptiveP
    }
    fn picks(&self) -> bool {
        true
    }
    fn apply(&mut self, cur: &mut Candidates) {
        cur.softmax(false);
        if self.target < 0.0 {
            cur.selected = Some(self.rng.discrete(cur.data.iter().map(|d| d.p)));
            return;
        }
        self.original = cur.data.iter().map(|d| d.p).collect();
        let target = self.target.clamp(0.0, 1.0);
        let adapted = if self.total_weight == 0.0 {
            target
        } else {
            2.0 * target - self.weighted_sum / self.total_weight
        }
        .clamp(0.0, 1.0);
        let inv_width = 1.0f32 / DISTRIBUTION_WIDTH;
        for d in cur.data.iter_mut().filter(|d| d.logit != f32::NEG_INFINITY) {
            let dist = ((d.p - adapted) * inv_width).abs();
            d.logit = PEAK_LOGIT_VALUE - SHARPNESS * dist * dist / (1.0 + dist);
        }
        cur.softmax(false);
        let idx = self.rng.discrete(cur.data.iter().map(|d| d.p));
        cur.selected = Some(idx);
        self.pending = Some((cur.data[idx].id, idx));
    }
    fn accept(&mut self, token: u32) {
        if let Some((id, idx)) = self.pending.take() {
            if id == token {
                self.weighted_sum = self.original[idx] + self.decay * self.weighted_sum;
                self.total_weight = 1.0 + self.decay * self.total_weight;
            }
        }
    }
}
