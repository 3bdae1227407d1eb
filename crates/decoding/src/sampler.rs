//! Drawing a token from a processed distribution, reproducibly: ChaCha8 seeded
//! with the lane's seed gives the same draws natively and in wasm.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

pub struct Draws {
    rng: ChaCha8Rng,
}

impl Draws {
    pub fn new(seed: u64) -> Draws {
        Draws { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Inverse CDF over tokens ordered by probability, highest first: a small draw
/// picks a likely token, so lanes sharing draws differ only by their knobs.
pub fn pick(probs: &[f32], u: f64) -> usize {
    let mut order: Vec<usize> = (0..probs.len()).filter(|&i| probs[i] > 0.0).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    let total: f64 = order.iter().map(|&i| probs[i] as f64).sum();
    let target = u * total;
    let mut cum = 0.0f64;
    for &i in &order {
        cum += probs[i] as f64;
        if target < cum {
            return i;
        }
    }
    *order.last().unwrap_or(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws_and_different_seeds_differ() {
        let a: Vec<f64> = { let mut d = Draws::new(1); (0..4).map(|_| d.uniform()).collect() };
        let b: Vec<f64> = { let mut d = Draws::new(1); (0..4).map(|_| d.uniform()).collect() };
        let c: Vec<f64> = { let mut d = Draws::new(2); (0..4).map(|_| d.uniform()).collect() };
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|u| (0.0..1.0).contains(u)));
    }

    #[test]
    fn pick_walks_from_the_most_likely_token() {
        let probs = [0.1, 0.6, 0.0, 0.3];
        assert_eq!(pick(&probs, 0.0), 1);
        assert_eq!(pick(&probs, 0.65), 3);
        assert_eq!(pick(&probs, 0.95), 0);
    }
}
