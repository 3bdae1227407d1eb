//! `top_p`: the smallest head, by logit, whose probabilities (in `float`,
//! summed in that order) reach `p`, and at least `min_keep` tokens
//! (`llama_sampler_init_top_p`).

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct TopPSampler {
    pub p: f32,
    pub min_keep: usize,
}

impl Sampler for TopPSampler {
    fn name(&self) -> SamplerName {
        SamplerName::TopP
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.p >= 1.0 {
            return;
        }
        // Probabilities over the current entries, then the entries by logit.
        cur.softmax(false);
        if !cur.sorted {
            let n = cur.len();
            cur.sort_truncate(n);
        }
        let mut cum = 0.0f32;
        let mut last = cur.len();
        for (i, d) in cur.data.iter().enumerate() {
            cum += d.p;
            if cum >= self.p && i + 1 >= self.min_keep {
                last = i + 1;
                break;
            }
        }
        cur.data.truncate(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_head_that_reaches_p_and_at_least_min_keep() {
        let logits = [1.0f32.ln(), 6.0f32.ln(), 3.0f32.ln()]; // p = .1 .6 .3
        let mut c = Candidates::from_logits(&logits);
        TopPSampler {
            p: 0.6,
            min_keep: 0,
        }
        .apply(&mut c);
        assert_eq!(c.data.iter().map(|d| d.id).collect::<Vec<_>>(), [1]);
        let mut c = Candidates::from_logits(&logits);
        TopPSampler {
            p: 0.6,
            min_keep: 3,
        }
        .apply(&mut c);
        assert_eq!(c.len(), 3);
    }
}
