//! Mirostat 1 and 2 (`llama_sampler_init_mirostat`, `_v2`): they replace the
//! whole chain after temperature and pick the token themselves, steering the
//! surprise of each pick towards `mirostat_tau` (their `mu` carries from step
//! to step, moved by `mirostat_eta`). The draw is `std::discrete_distribution`.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::cmath::CMath;
use crate::llama_cpp::sampler::{Sampler, SamplerName};
use crate::llama_cpp::std_random::{Mt19937, StdDistributions};

/// Mirostat 1: estimates the Zipf exponent from the top `m` tokens and keeps
/// the top `k` that would give the target surprise.
pub struct MirostatSampler {
    pub n_vocab: usize,
    pub tau: f32,
    pub eta: f32,
    pub m: usize,
    pub mu: f32,
    pub rng: Mt19937,
}

impl MirostatSampler {
    pub fn new(n_vocab: usize, seed: u32, tau: f32, eta: f32) -> MirostatSampler {
        MirostatSampler {
            n_vocab,
            tau,
            eta,
            m: 100,
            mu: 2.0 * tau,
            rng: Mt19937::new(seed),
        }
    }
}

/// Both mirostats' last move: renormalise what is left, draw, and move `mu`
/// by how far the pick's surprise (in bits) was from the target.
fn draw_and_steer(cur: &mut Candidates, rng: &mut Mt19937, mu: &mut f32, tau: f32, eta: f32) {
    cur.softmax(true);
    let idx = rng.discrete(cur.data.iter().map(|d| d.p));
    cur.selected = Some(idx);
    let surprise = -cur.data[idx].p.c_log2();
    *mu -= eta * (surprise - tau);
}

/// C's `int(x)` for a float on x86: out of range (and NaN) is `INT_MIN`.
fn c_int(x: f32) -> i32 {
    if x.is_finite() && x > i32::MIN as f32 && x < i32::MAX as f32 {
        x as i32
    } else {
        i32::MIN
    }
}

impl Sampler for MirostatSampler {
    fn name(&self) -> SamplerName {
        SamplerName::Mirostat
    }
    fn picks(&self) -> bool {
        true
    }
    fn apply(&mut self, cur: &mut Candidates) {
        cur.softmax(true);
        let mut sum_ti_bi = 0.0f32;
        let mut sum_ti_sq = 0.0f32;
        let mut i = 0;
        while i < self.m - 1 && i + 1 < cur.len() {
            let t_i = ((i + 2) as f32 / (i + 1) as f32).c_ln();
            let b_i = (cur.data[i].p / cur.data[i + 1].p).c_ln();
            sum_ti_bi += t_i * b_i;
            sum_ti_sq += t_i * t_i;
            i += 1;
        }
        let s_hat = sum_ti_bi / sum_ti_sq;
        let epsilon_hat = s_hat - 1.0;
        let k = ((epsilon_hat * 2f32.c_powf(self.mu))
            / (1.0 - (self.n_vocab as f32).c_powf(-epsilon_hat)))
        .c_powf(1.0 / s_hat);
        cur.top_k(c_int(k).max(1));
        draw_and_steer(cur, &mut self.rng, &mut self.mu, self.tau, self.eta);
    }
}

/// Mirostat 2: keeps the tokens whose surprise is at most `mu`.
pub struct MirostatV2Sampler {
    pub tau: f32,
    pub eta: f32,
    pub mu: f32,
    pub rng: Mt19937,
}

impl MirostatV2Sampler {
    pub fn new(seed: u32, tau: f32, eta: f32) -> MirostatV2Sampler {
        MirostatV2Sampler {
            tau,
            eta,
            mu: 2.0 * tau,
            rng: Mt19937::new(seed),
        }
    }
}

impl Sampler for MirostatV2Sampler {
    fn name(&self) -> SamplerName {
        SamplerName::MirostatV2
    }
    fn picks(&self) -> bool {
        true
    }
    fn apply(&mut self, cur: &mut Candidates) {
        cur.softmax(true);
        let keep = cur
            .data
            .iter()
            .position(|d| -d.p.c_log2() > self.mu)
            .unwrap_or(cur.len())
            .max(1);
        cur.data.truncate(keep);
        draw_and_steer(cur, &mut self.rng, &mut self.mu, self.tau, self.eta);
    }
}
