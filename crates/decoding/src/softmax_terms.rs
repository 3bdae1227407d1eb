//! A row's softmax kept as its terms, so a knob that only removes tokens
//! updates the distribution by what it removed instead of a new softmax.
//!
//! The funnel shows the distribution after every knob; most knobs (top-k,
//! top-p, min-p, no-repeat-ngram, min-new-tokens, suppression, …) only set
//! scores to `-inf`. The survivors' terms `e^(s − max)` are then unchanged
//! (the maximum survives), so removing a few tokens costs a few subtractions
//! and removing most of them a sum over the few left, never an `exp` of the
//! whole vocabulary.

use crate::scores::softmax_parts;

/// `softmax` of a row and its entropy in nats, without a logarithm per
/// token: with `p_i = e^(s_i − max) / Z`, `−Σ p_i ln p_i = ln Z − Σ p_i (s_i − max)`.
/// (The per-token `ln` of a 50k row cost about as much as the softmax in wasm.)
pub fn softmax_entropy(scores: &[f32]) -> (Vec<f32>, f32) {
    let terms = SoftmaxTerms::of(scores);
    let entropy = terms.entropy();
    (terms.into_probs(), entropy)
}

/// `e_i = e^(s_i − max)` (0 for removed tokens), `Σ e_i` and
/// `Σ e_i (s_i − max)`, both in f64: `p_i = e_i / Σ e` and the entropy
/// `ln Σ e − Σ e (s − max) / Σ e` follow without a logarithm per token.
#[derive(Debug, Clone)]
pub struct SoftmaxTerms {
    terms: Vec<f32>,
    max: f32,
    sum: f64,
    weighted: f64,
}

/// What a knob removed, found by comparing its scores with the ones before.
pub enum Change {
    /// Only these tokens went to `-inf`; every other score kept its bits.
    Removed(Vec<usize>),
    /// Some score changed value (temperature, penalties, …).
    Values,
}

impl SoftmaxTerms {
    /// The terms of `scores` from scratch.
    pub fn of(scores: &[f32]) -> SoftmaxTerms {
        let mut terms = vec![0.0; scores.len()];
        let Some((max, sum)) = softmax_parts(scores, &mut terms) else {
            return SoftmaxTerms {
                terms,
                max: f32::NEG_INFINITY,
                sum: 0.0,
                weighted: 0.0,
            };
        };
        let weighted = weighted_sum(&terms, scores, max, 0..scores.len());
        SoftmaxTerms {
            terms,
            max,
            sum,
            weighted,
        }
    }

    /// `1 / Σ e` as the probabilities are scaled by (torch's softmax divides;
    /// one reciprocal and a multiply per token is what this crate has always
    /// done, so the bits stay those of [`crate::scores::softmax`]).
    fn inv(&self) -> f32 {
        (1.0 / self.sum) as f32
    }

    /// Probability of token `i`; 0 for an all-`-inf` row.
    pub fn prob(&self, i: usize) -> f32 {
        if self.sum > 0.0 {
            self.terms[i] * self.inv()
        } else {
            0.0
        }
    }

    /// Every token's probability.
    pub fn probs(&self) -> Vec<f32> {
        if self.sum > 0.0 {
            let inv = self.inv();
            self.terms.iter().map(|&e| e * inv).collect()
        } else {
            vec![0.0; self.terms.len()]
        }
    }

    /// Every token's probability, scaled in place.
    pub fn into_probs(mut self) -> Vec<f32> {
        if self.sum > 0.0 {
            let inv = self.inv();
            self.terms.iter_mut().for_each(|e| *e *= inv);
        } else {
            self.terms.fill(0.0);
        }
        self.terms
    }

    /// Entropy in nats (0 for an all-`-inf` row).
    pub fn entropy(&self) -> f32 {
        if self.sum > 0.0 {
            ((self.sum.ln() - self.weighted / self.sum) as f32).max(0.0)
        } else {
            0.0
        }
    }

    /// The terms after `removed` tokens (finite in `scores` before, `-inf`
    /// now) are gone; `None` when the maximum went with them (every term
    /// would change: the caller starts again from the scores).
    pub fn without(mut self, removed: &[usize], before: &[f32], now: &[f32]) -> Option<Self> {
        if removed.iter().any(|&i| before[i] >= self.max) {
            return None;
        }
        let live_before = self.terms.iter().filter(|&&e| e > 0.0).count();
        if removed.len() * 2 >= live_before {
            // Most are gone: sum the few left, in index order (as a softmax
            // of the new scores would, so a top-k row gets the same bits).
            for &i in removed {
                self.terms[i] = 0.0;
            }
            let live: Vec<usize> = (0..now.len())
                .filter(|&i| now[i] > f32::NEG_INFINITY)
                .collect();
            self.sum = live.iter().map(|&i| self.terms[i] as f64).sum();
            self.weighted = weighted_sum(&self.terms, now, self.max, live.into_iter());
        } else {
            for &i in removed {
                let e = self.terms[i] as f64;
                self.sum -= e;
                self.weighted -= e * (before[i] - self.max) as f64;
                self.terms[i] = 0.0;
            }
        }
        Some(self)
    }
}

/// `Σ e_i (s_i − max)` over `at`, skipping zero terms.
fn weighted_sum(terms: &[f32], scores: &[f32], max: f32, at: impl Iterator<Item = usize>) -> f64 {
    at.filter(|&i| terms[i] > 0.0)
        .map(|i| terms[i] as f64 * (scores[i] - max) as f64)
        .sum()
}

/// How `now` differs from `before`: which tokens a knob removed, or that it
/// changed values.
pub fn change(before: &[f32], now: &[f32]) -> Change {
    let mut removed = Vec::new();
    // Compared as bits: equal floats with other bits (0.0 and -0.0) count as
    // changed, a NaN left as it was does not.
    let (b_chunks, b_rest) = before.as_chunks::<8>();
    let (n_chunks, _) = now.as_chunks::<8>();
    for (c, (b, n)) in b_chunks.iter().zip(n_chunks).enumerate() {
        let same = (0..8).all(|l| b[l].to_bits() == n[l].to_bits());
        if same {
            continue;
        }
        for l in 0..8 {
            if !classify(c * 8 + l, b[l], n[l], &mut removed) {
                return Change::Values;
            }
        }
    }
    let tail = b_chunks.len() * 8;
    for (j, &b) in b_rest.iter().enumerate() {
        if !classify(tail + j, b, now[tail + j], &mut removed) {
            return Change::Values;
        }
    }
    Change::Removed(removed)
}

/// Records token `i` as removed if it was; false if its value changed.
fn classify(i: usize, b: f32, n: f32, removed: &mut Vec<usize>) -> bool {
    if b.to_bits() == n.to_bits() {
        true
    } else if n == f32::NEG_INFINITY {
        removed.push(i);
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of mixed values with a few `-inf`, 5000 long.
    fn row() -> Vec<f32> {
        (0..5000u32)
            .map(|i| match i % 53 {
                0 => f32::NEG_INFINITY,
                _ => ((i.wrapping_mul(2654435761) % 10_007) as f32 - 5000.0) * 1e-3,
            })
            .collect()
    }

    fn remove(scores: &[f32], gone: impl Fn(usize) -> bool) -> Vec<f32> {
        (0..scores.len())
            .map(|i| {
                if gone(i) {
                    f32::NEG_INFINITY
                } else {
                    scores[i]
                }
            })
            .collect()
    }

    #[test]
    fn from_scratch_it_is_the_softmax_and_its_entropy() {
        let s = row();
        let t = SoftmaxTerms::of(&s);
        // `softmax` scales its own exponentials: the same bits, independently.
        let p = crate::scores::softmax(&s);
        assert_eq!(t.probs(), p);
        assert_eq!(t.clone().into_probs(), p);
        assert_eq!(t.prob(7).to_bits(), p[7].to_bits());
        // The entropy by its definition, a logarithm per token.
        let h: f64 = -p
            .iter()
            .filter(|&&q| q > 0.0)
            .map(|&q| q as f64 * (q as f64).ln())
            .sum::<f64>();
        assert!(
            (t.entropy() as f64 - h).abs() < 1e-5,
            "{} vs {h}",
            t.entropy()
        );
    }

    #[test]
    fn removing_a_few_tokens_matches_a_new_softmax_closely() {
        let s = row();
        let now = remove(&s, |i| i % 97 == 5 && s[i] < 4.0);
        let Change::Removed(gone) = change(&s, &now) else {
            panic!("only removals")
        };
        let want: Vec<usize> = (0..5000)
            .filter(|&i| i % 97 == 5 && s[i].is_finite() && s[i] < 4.0)
            .collect();
        assert_eq!(gone, want);
        let t = SoftmaxTerms::of(&s)
            .without(&gone, &s, &now)
            .expect("the max stays");
        let (p, h) = softmax_entropy(&now);
        for (a, b) in t.probs().iter().zip(&p) {
            assert!((a - b).abs() <= b * 1e-6, "{a} vs {b}");
        }
        assert!((t.entropy() - h).abs() < 1e-5);
        assert_eq!(t.prob(5), 0.0);
    }

    #[test]
    fn removing_most_tokens_gives_the_bits_of_a_new_softmax() {
        let s = row();
        let now = remove(&s, |i| s[i] < 4.9);
        let Change::Removed(gone) = change(&s, &now) else {
            panic!("only removals")
        };
        let t = SoftmaxTerms::of(&s)
            .without(&gone, &s, &now)
            .expect("the max stays");
        let (p, h) = softmax_entropy(&now);
        assert_eq!(t.probs(), p);
        assert_eq!(t.entropy(), h);
    }

    #[test]
    fn removing_the_maximum_asks_for_a_new_softmax() {
        let s = vec![1.0, 3.0, 2.0];
        let now = vec![1.0, f32::NEG_INFINITY, 2.0];
        let Change::Removed(gone) = change(&s, &now) else {
            panic!("only removals")
        };
        assert_eq!(gone, vec![1]);
        assert!(SoftmaxTerms::of(&s).without(&gone, &s, &now).is_none());
    }

    #[test]
    fn a_changed_value_anywhere_is_a_change_of_values() {
        let s = row();
        for at in [0, 8, 4999, 4993] {
            let mut now = s.clone();
            now[at] = if s[at].is_finite() {
                s[at] * 0.5 + 0.1
            } else {
                0.0
            };
            assert!(matches!(change(&s, &now), Change::Values), "at {at}");
        }
        assert!(matches!(change(&s, &s), Change::Removed(g) if g.is_empty()));
        assert!(matches!(change(&[0.0], &[-0.0]), Change::Values));
    }

    #[test]
    fn an_all_removed_row_has_no_probability_and_no_entropy() {
        let t = SoftmaxTerms::of(&[f32::NEG_INFINITY; 3]);
        assert_eq!(t.probs(), vec![0.0; 3]);
        assert_eq!((t.entropy(), t.prob(1)), (0.0, 0.0));
    }
}
