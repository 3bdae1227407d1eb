//! `logit_bias`: adds each bias to its token's logit, first in the chain
//! (`llama_sampler_init_logit_bias`; `false` in llama-server's JSON, and
//! `ignore_eos`, are `-inf`).

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct LogitBiasSampler {
    pub biases: Vec<(u32, f32)>,
}

impl Sampler for LogitBiasSampler {
    fn name(&self) -> SamplerName {
        SamplerName::LogitBias
    }
    fn apply(&mut self, cur: &mut Candidates) {
        let mut search = Vec::new();
        for &(token, bias) in &self.biases {
            let at = token as usize;
            if at < cur.len() && cur.data[at].id == token {
                cur.data[at].logit += bias;
            } else {
                search.push((token, bias));
            }
        }
        if search.is_empty() {
            return;
        }
        for d in &mut cur.data {
            if let Some(&(_, bias)) = search.iter().find(|(t, _)| *t == d.id) {
                d.logit += bias;
            }
        }
    }
}
