//! `xtc` (exclude top choices, `llama_sampler_init_xtc`): with probability
//! `xtc_probability`, every token at or above `xtc_threshold` except the
//! least likely of them is removed. Its own `mt19937`, seeded like `dist`,
//! decides each step (one `float` draw whenever two or more candidates are left).

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};
use crate::llama_cpp::std_random::{Mt19937, StdDistributions};

pub struct XtcSampler {
    pub probability: f32,
    pub threshold: f32,
    pub min_keep: usize,
    pub rng: Mt19937,
}

impl Sampler for XtcSampler {
    fn name(&self) -> SamplerName {
        SamplerName::Xtc
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.probability <= 0.0 || self.threshold > 0.5 || cur.len() < 2 {
            return;
        }
        if self.rng.uniform_f32() > self.probability {
            return;
        }
        cur.softmax(true);
        let mut pos_last = 0;
        for (i, d) in cur.data.iter().enumerate() {
            if d.p >= self.threshold {
                pos_last = i;
            } else {
                break;
            }
        }
        if cur.len() - pos_last >= self.min_keep && pos_last > 0 {
            cur.data.drain(..pos_last);
        }
    }
}
