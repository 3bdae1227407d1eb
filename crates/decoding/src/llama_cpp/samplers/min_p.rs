//! `min_p`: tokens whose logit is within `ln p` of the best one, at least
//! `min_keep` of them (`llama_sampler_init_min_p`). Unsorted candidates are
//! filtered in place (their order kept); sorted ones, or too few survivors,
//! go the sorted way.

use crate::llama_cpp::candidates::Candidates;
use crate::llama_cpp::cmath::CMath;
use crate::llama_cpp::sampler::{Sampler, SamplerName};

pub struct MinPSampler {
    pub p: f32,
    pub min_keep: usize,
}

impl Sampler for MinPSampler {
    fn name(&self) -> SamplerName {
        SamplerName::MinP
    }
    fn apply(&mut self, cur: &mut Candidates) {
        if self.p <= 0.0 || cur.is_empty() {
            return;
        }
        if !cur.sorted {
            let max = cur.data.iter().fold(-f32::MAX, |m, d| m.max(d.logit));
            let min_logit = max + self.p.c_ln();
            let kept: Vec<_> = cur
                .data
                .iter()
                .copied()
                .filter(|d| d.logit >= min_logit)
                .collect();
            if !kept.is_empty() && kept.len() >= self.min_keep {
                cur.data = kept;
                return;
            }
            let n = cur.len();
            cur.sort_truncate(n);
        }
        let min_logit = cur.data[0].logit + self.p.c_ln();
        let mut i = 1;
        while i < cur.len() {
            if cur.data[i].logit < min_logit && i >= self.min_keep {
                break;
            }
            i += 1;
        }
        cur.data.truncate(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsorted_candidates_keep_their_order() {
        let logits = [0.0f32, 5.0, 4.5, -3.0];
        let mut c = Candidates::from_logits(&logits);
        MinPSampler {
            p: 0.5,
            min_keep: 0,
        }
        .apply(&mut c);
        assert_eq!(c.data.iter().map(|d| d.id).collect::<Vec<_>>(), [1, 2]);
        assert!(!c.sorted);
    }

    #[test]
    fn too_few_survivors_fall_back_to_sorted_with_min_keep() {
        let mut c = Candidates::from_logits(&[0.0f32, 5.0, 1.0]);
        MinPSampler {
            p: 0.9,
            min_keep: 2,
        }
        .apply(&mut c);
        assert_eq!(c.data.iter().map(|d| d.id).collect::<Vec<_>>(), [1, 2]);
        assert!(c.sorted);
    }
}
