//! `top_k`: the `k` highest logits, sorted (`llama_sampler_init_top_k`).

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct TopKSampler {
    pub k: i32,
}

impl Sampler for TopKSampler {
    fn name(&self) -> SamplerName {
        SamplerName::TopK
    }
    fn apply(&mut self, cur: &mut Candidates) {
        cur.top_k(self.k);
    }
}
