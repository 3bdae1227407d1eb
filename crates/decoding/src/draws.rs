//! Drawing a token from a processed distribution, reproducibly on every target.
//!
//! Gumbel-max: each token gets its own uniform `u` (ChaCha8, seeded) and the
//! token with the largest `ln p − ln(−ln u)` wins. That samples exactly from
//! `p`, and unlike an inverse-CDF walk it does not depend on sorting or
//! summing thousands of probabilities, so the last-bit differences between
//! native and wasm matrix kernels cannot change the token (only a near-exact
//! tie between the two best keys could). Lanes that share the uniforms are
//! coupled token by token: they differ only where their knobs differ.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

pub struct Draws {
    rng: ChaCha8Rng,
}

impl Draws {
    pub fn new(seed: u64) -> Draws {
        Draws {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Stream `k` of the same seed: stream 0 is [`Draws::new`]; a lane's
    /// `k`-th extra sample draws from stream `k`.
    pub fn stream(seed: u64, k: u64) -> Draws {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(k);
        Draws { rng }
    }

    /// Uniform in (0, 1) with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        ((self.rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// One uniform per token of the vocabulary (the stream advances by `n` every step).
    pub fn uniforms(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.uniform()).collect()
    }

    /// The uniforms `uniforms(probs.len())` would give, but drawn only for the
    /// tokens `pick` can choose (`p > 0`; the others are NaN, never read). After
    /// top-k = 50 that is 50 draws instead of 50,257: the stream is seekable,
    /// token `i`'s uniform is always the `i`-th `u64` of the step.
    pub fn uniforms_for(&mut self, probs: &[f32]) -> Vec<f64> {
        let live = probs.iter().filter(|&&p| p > 0.0).count();
        // A seek refills ChaCha's 4-block buffer: dense rows read the stream straight.
        if live * 16 > probs.len() {
            return self.uniforms(probs.len());
        }
        let start = self.rng.get_word_pos();
        let mut u = vec![f64::NAN; probs.len()];
        for (i, _) in probs.iter().enumerate().filter(|(_, &p)| p > 0.0) {
            self.rng.set_word_pos(start + 2 * i as u128);
            u[i] = self.uniform();
        }
        self.rng.set_word_pos(start + 2 * probs.len() as u128);
        u
    }
}

/// A sampling lane's draw: from the run's shared uniforms when its lanes
/// share one draw per step, else from the lane's own stream; the token and
/// the uniform that chose it.
pub fn sample(probs: &[f32], shared: Option<&[f64]>, own: &mut Draws) -> (u32, f64) {
    let mine;
    let u = match shared {
        Some(u) => u,
        None => {
            mine = own.uniforms_for(probs);
            &mine
        }
    };
    let chosen = pick(probs, u);
    (chosen as u32, u[chosen])
}

/// The inverse-CDF draw: the first token whose running sum of
/// probabilities (`cum`, in token order) passes `u` × the total; never a
/// token of probability 0. A sample tree draws this way, one uniform per
/// sample and step: the lanes' Gumbel-max reads a uniform per live token,
/// 50,257 per sample and step without top-k.
pub fn pick_by_cdf(cum: &[f64], u: f64) -> usize {
    let total = cum.last().copied().unwrap_or(0.0);
    let i = cum.partition_point(|&c| c <= u * total);
    if i < cum.len() {
        return i;
    }
    // `u × total` rounded up to the total: the last token that has mass.
    let mut last = cum.len().saturating_sub(1);
    while last > 0 && cum[last - 1] == cum[last] {
        last -= 1;
    }
    last
}

/// The Gumbel-max winner among tokens with non-zero probability.
pub fn pick(probs: &[f32], uniforms: &[f64]) -> usize {
    let mut best = (f64::NEG_INFINITY, 0usize);
    for (i, (&p, &u)) in probs.iter().zip(uniforms).enumerate() {
        if p > 0.0 {
            let key = (p as f64).ln() - (-u.ln()).ln();
            if key > best.0 {
                best = (key, i);
            }
        }
    }
    best.1
}

/// `k` draws without replacement from `softmax(scores)` (Gumbel-top-k: the `k`
/// largest `score − ln(−ln u)`), best key first, as torch's
/// `multinomial(…, replacement=False)` draws them. Scores are log-weights of
/// any offset (a beam's running score plus its log-probabilities); `−∞` is
/// never drawn while a finite one is left.
pub fn pick_k(scores: &[f32], k: usize, draws: &mut Draws) -> Vec<usize> {
    let live: Vec<f32> = scores
        .iter()
        .map(|s| if s.is_finite() { 1.0 } else { 0.0 })
        .collect();
    let u = draws.uniforms_for(&live);
    let keys: Vec<f64> = scores
        .iter()
        .zip(&u)
        .map(|(&s, &u)| {
            if s.is_finite() {
                s as f64 - (-u.ln()).ln()
            } else {
                f64::NEG_INFINITY
            }
        })
        .collect();
    // Rank only the live entries (after top-k, 50 a beam, not the vocabulary);
    // removed ones fill up, in index order, only if too few are live.
    let mut idx: Vec<usize> = (0..scores.len()).filter(|&i| keys[i].is_finite()).collect();
    let cmp = |a: &usize, b: &usize| keys[*b].total_cmp(&keys[*a]).then(a.cmp(b));
    if k < idx.len() {
        idx.select_nth_unstable_by(k.max(1) - 1, cmp);
        idx.truncate(k);
    }
    idx.sort_by(cmp);
    let short = k.min(scores.len()).saturating_sub(idx.len());
    idx.extend(
        (0..scores.len())
            .filter(|&i| !keys[i].is_finite())
            .take(short),
    );
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws_and_different_seeds_differ() {
        let a = Draws::new(1).uniforms(4);
        assert_eq!(a, Draws::new(1).uniforms(4));
        assert_ne!(a, Draws::new(2).uniforms(4));
        assert!(a.iter().all(|u| *u > 0.0 && *u < 1.0));
    }

    #[test]
    fn sparse_draws_equal_the_full_stream_where_tokens_can_be_picked() {
        let mut probs = vec![0.0f32; 1000];
        for i in [3, 500, 999] {
            probs[i] = 0.2;
        }
        let (mut full, mut sparse) = (Draws::new(9), Draws::new(9));
        for _ in 0..3 {
            let (a, b) = (full.uniforms(probs.len()), sparse.uniforms_for(&probs));
            for i in [3, 500, 999] {
                assert_eq!(a[i], b[i]);
            }
            assert!(b[0].is_nan());
        }
        // Both streams continue at the same place, dense rows included.
        assert_eq!(full.uniforms(5), sparse.uniforms_for(&[0.2; 5]));
    }

    #[test]
    fn the_inverse_cdf_draw_follows_the_distribution_and_skips_removed_tokens() {
        let probs = [0.0f64, 0.5, 0.0, 0.3, 0.2, 0.0];
        let cum: Vec<f64> = probs
            .iter()
            .scan(0.0, |s, p| {
                *s += p;
                Some(*s)
            })
            .collect();
        assert_eq!(pick_by_cdf(&cum, 0.0), 1);
        assert_eq!(pick_by_cdf(&cum, 0.5), 3);
        assert_eq!(
            pick_by_cdf(&cum, 1.0),
            4,
            "past the total: the last live token"
        );
        let mut d = Draws::new(4);
        let mut counts = [0usize; 6];
        let n = 20_000;
        for _ in 0..n {
            counts[pick_by_cdf(&cum, d.uniform())] += 1;
        }
        for (c, p) in counts.iter().zip(probs) {
            assert!((*c as f64 / n as f64 - p).abs() < 0.015, "{counts:?}");
        }
    }

    #[test]
    fn never_picks_a_removed_token_and_a_single_survivor_always_wins() {
        let mut d = Draws::new(3);
        for _ in 0..100 {
            assert_eq!(pick(&[0.0, 1.0, 0.0], &d.uniforms(3)), 1);
        }
    }

    #[test]
    fn drawing_two_without_replacement_follows_the_exact_pair_probabilities() {
        // P(first i, then j) = p_i · p_j / (1 − p_i), whatever offset the scores carry.
        let p = [0.5f64, 0.3, 0.2];
        let scores: Vec<f32> = p.iter().map(|x| (x.ln() - 7.0) as f32).collect();
        let mut d = Draws::new(11);
        let mut counts = [[0usize; 3]; 3];
        let n = 30_000;
        for _ in 0..n {
            let got = pick_k(&scores, 2, &mut d);
            assert_eq!(got.len(), 2);
            assert_ne!(got[0], got[1], "without replacement");
            counts[got[0]][got[1]] += 1;
        }
        for i in 0..3 {
            for j in (0..3).filter(|&j| j != i) {
                let want = p[i] * p[j] / (1.0 - p[i]);
                let seen = counts[i][j] as f64 / n as f64;
                assert!((seen - want).abs() < 0.012, "{i},{j}: {seen} vs {want}");
            }
        }
    }

    #[test]
    fn removed_tokens_come_last_and_only_when_nothing_else_is_left() {
        let scores = [f32::NEG_INFINITY, -1.0, f32::NEG_INFINITY, -2.0];
        let mut d = Draws::new(5);
        for _ in 0..50 {
            let got = pick_k(&scores, 3, &mut d);
            let mut first_two = got[..2].to_vec();
            first_two.sort();
            assert_eq!(first_two, [1, 3]);
            assert!(scores[got[2]].is_infinite());
        }
    }

    #[test]
    fn frequencies_follow_the_distribution() {
        let probs = [0.5f32, 0.3, 0.2];
        let mut d = Draws::new(7);
        let mut counts = [0usize; 3];
        let n = 20_000;
        for _ in 0..n {
            counts[pick(&probs, &d.uniforms(3))] += 1;
        }
        for (c, p) in counts.iter().zip(probs) {
            assert!((*c as f32 / n as f32 - p).abs() < 0.015, "{counts:?}");
        }
    }
}
