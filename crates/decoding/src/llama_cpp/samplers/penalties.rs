//! `penalties`: repetition, frequency and presence penalties over the last
//! `repeat_last_n` accepted tokens — the prompt's included, as llama-server
//! feeds them in (`llama_sampler_init_penalties`). Unlike HF's, the window is
//! short (64 by default) and the three act together, in one pass.

use std::collections::{HashMap, VecDeque};

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct PenaltiesSampler {
    last_n: usize,
    repeat: f32,
    frequency: f32,
    presence: f32,
    window: VecDeque<u32>,
    counts: HashMap<u32, u32>,
}

impl PenaltiesSampler {
    pub fn new(last_n: usize, repeat: f32, frequency: f32, presence: f32) -> PenaltiesSampler {
        PenaltiesSampler {
            last_n,
            repeat,
            frequency,
            presence,
            window: VecDeque::with_capacity(last_n),
            counts: HashMap::new(),
        }
    }

    /// llama.cpp leaves the sampler out when it would change nothing.
    pub fn is_disabled(last_n: usize, repeat: f32, frequency: f32, presence: f32) -> bool {
        last_n == 0 || (repeat == 1.0 && frequency == 0.0 && presence == 0.0)
    }
}

impl Sampler for PenaltiesSampler {
    fn name(&self) -> SamplerName {
        SamplerName::Penalties
    }

    fn accept(&mut self, token: u32) {
        if self.last_n == 0 {
            return;
        }
        *self.counts.entry(token).or_insert(0) += 1;
        if self.window.len() >= self.last_n {
            let old = self.window.pop_front().expect("a full window");
            if let Some(c) = self.counts.get_mut(&old) {
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(&old);
                }
            }
        }
        self.window.push_back(token);
    }

    fn apply(&mut self, cur: &mut Candidates) {
        if PenaltiesSampler::is_disabled(self.last_n, self.repeat, self.frequency, self.presence) {
            return;
        }
        for d in &mut cur.data {
            let Some(&count) = self.counts.get(&d.id) else {
                continue;
            };
            if d.logit <= 0.0 {
                d.logit *= self.repeat;
            } else {
                d.logit /= self.repeat;
            }
            d.logit -= count as f32 * self.frequency + (count > 0) as u8 as f32 * self.presence;
        }
        cur.sorted = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_window_counts_and_negative_logits_are_multiplied() {
        let mut p = PenaltiesSampler::new(2, 2.0, 0.5, 0.25);
        for t in [0, 1, 1] {
            p.accept(t);
        }
        // Window: [1, 1]; token 0 has left it.
        let mut c = Candidates::from_logits(&[1.0, 1.0, -1.0]);
        p.accept(2);
        // Window: [1, 2].
        p.apply(&mut c);
        assert_eq!(c.data[0].logit, 1.0, "out of the window");
        assert_eq!(c.data[1].logit, 1.0 / 2.0 - 0.5 - 0.25);
        assert_eq!(c.data[2].logit, -2.0 - 0.5 - 0.25);
    }
}
