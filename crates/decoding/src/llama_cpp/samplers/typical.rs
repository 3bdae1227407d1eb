//! `typ_p` (locally typical sampling, `llama_sampler_init_typical`): tokens
//! ordered by how far their surprise is from the entropy, kept until their
//! probability passes `p`; the result is in that order, not by logit.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::cmath::CMath;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct TypicalSampler {
    pub p: f32,
    pub min_keep: usize,
}

impl Sampler for TypicalSampler {
    fn name(&self) -> SamplerName {
        SamplerName::TypicalP
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.p >= 1.0 {
            return;
        }
        cur.softmax(true);
        let mut entropy = 0.0f32;
        for d in &cur.data {
            entropy += -d.p * d.p.c_ln();
        }
        let shifted: Vec<f32> = cur
            .data
            .iter()
            .map(|d| (-d.p.c_ln() - entropy).abs())
            .collect();
        let mut idx: Vec<usize> = (0..cur.len()).collect();
        idx.sort_by(|&a, &b| {
            shifted[a]
                .partial_cmp(&shifted[b])
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut cum = 0.0f32;
        let mut last = idx.len();
        for (i, &k) in idx.iter().enumerate() {
            cum += cur.data[k].p;
            if cum > self.p && (self.min_keep == 0 || i + 1 >= self.min_keep) {
                last = i + 1;
                break;
            }
        }
        cur.data = idx[..last].iter().map(|&k| cur.data[k]).collect();
        cur.sorted = false;
    }
}
