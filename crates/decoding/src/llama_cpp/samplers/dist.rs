//! `dist`: the chain's last step, a seeded draw (`llama_sampler_init_dist`).
//! Probabilities are `expf` of the logits (in `float`) over their sum (in
//! `double`); one uniform (two `mt19937` words) times the sum is walked in
//! the candidates' current order. One candidate still takes a draw.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::cmath::CMath;
use crate::llama_cpp::sampler::{Sampler, SamplerName};
use crate::llama_cpp::std_random::{Mt19937, StdDistributions};

pub struct DistSampler {
    pub rng: Mt19937,
}

impl Sampler for DistSampler {
    fn name(&self) -> SamplerName {
        SamplerName::Dist
    }
    fn picks(&self) -> bool {
        true
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if cur.is_empty() {
            cur.selected = None;
            return;
        }
        cur.selected = Some(0);
        if cur.len() == 1 {
            self.rng.uniform_f64();
            cur.data[0].p = 1.0;
            return;
        }
        let max = if cur.sorted {
            cur.data[0].logit
        } else {
            cur.data
                .iter()
                .fold(cur.data[0].logit, |m, d| m.max(d.logit))
        };
        let mut sum = 0.0f64;
        for d in &mut cur.data {
            d.p = (d.logit - max).c_exp();
            sum += d.p as f64;
        }
        let target = sum * self.rng.uniform_f64();
        let mut run = 0.0f64;
        let mut found = None;
        for (i, d) in cur.data.iter_mut().enumerate() {
            if found.is_none() {
                run += d.p as f64;
                if run >= target {
                    found = Some(i);
                }
            }
            d.p = (d.p as f64 / sum) as f32;
        }
        cur.selected = Some(found.unwrap_or(cur.len() - 1));
    }
}
