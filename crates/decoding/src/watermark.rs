//! HF's watermark (Kirchenbauer et al.; `WatermarkLogitsProcessor` and
//! `WatermarkDetector`, transformers 5.24): before each token, a "green" part
//! of the vocabulary — seeded from the previous token(s) — gets `bias` added
//! to its logits; a detector that knows the key counts how many tokens of a
//! text are green and turns the count into a z-score. The green lists come
//! from torch's own random numbers ([`crate::torch_rng`]), so they are HF's.

use crate::torch_rng::randperm_prefix;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// `watermarking_config` as HF's `WatermarkingConfig.to_dict()` writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WatermarkConfig {
    pub greenlist_ratio: f64,
    pub bias: f64,
    pub hashing_key: i64,
    pub seeding_scheme: SeedingScheme,
    pub context_width: i64,
}

impl Default for WatermarkConfig {
    fn default() -> Self {
        WatermarkConfig {
            greenlist_ratio: 0.25,
            bias: 2.0,
            hashing_key: 15_485_863,
            seeding_scheme: SeedingScheme::Lefthash,
            context_width: 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeedingScheme {
    /// The green list depends on the previous token.
    Lefthash,
    /// It depends on the previous tokens and the candidate itself.
    Selfhash,
}

/// HF's table size for `selfhash` seeds.
const TABLE_SIZE: usize = 1_000_003;
/// How many of the best candidates `selfhash` tries per step (HF's 40).
const SELFHASH_TRIES: usize = 40;

/// A checked watermark, ready to mark scores or to score a text.
#[derive(Debug)]
pub struct Watermark {
    pub config: WatermarkConfig,
    context_width: usize,
    /// `torch.randperm(1_000_003)` seeded with the key (selfhash only, made once).
    table: OnceLock<Vec<u32>>,
}

/// Two watermarks are the same when their configs are.
impl PartialEq for Watermark {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
    }
}

/// What the detector says of a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detection {
    pub num_tokens_scored: usize,
    pub num_green_tokens: usize,
    pub green_fraction: f64,
    pub z_score: f64,
    pub p_value: f64,
    /// `z_score` above the threshold (HF's default 3).
    pub prediction: bool,
    /// Per position of the ids given (after a leading bos is dropped): green,
    /// red, or `None` where no n-gram ends.
    pub green: Vec<Option<bool>>,
}

/// A `watermarking_config` value HF's processor would refuse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WatermarkError {
    #[error(
        "`watermarking_config.greenlist_ratio` has to be between 0 and 1, exclusively, but is {0}"
    )]
    GreenlistRatio(f64),
    #[error("`watermarking_config.bias` must be a finite number, but is {0}")]
    Bias(f64),
    #[error("`watermarking_config.context_width` must be at least 1, but is {0}")]
    ContextWidth(i64),
}

impl Watermark {
    /// Checks the config as HF's processor does.
    pub fn new(config: WatermarkConfig) -> Result<Watermark, WatermarkError> {
        let c = &config;
        if !(c.greenlist_ratio > 0.0 && c.greenlist_ratio < 1.0) {
            return Err(WatermarkError::GreenlistRatio(c.greenlist_ratio));
        }
        if !c.bias.is_finite() {
            return Err(WatermarkError::Bias(c.bias));
        }
        if c.context_width < 1 {
            return Err(WatermarkError::ContextWidth(c.context_width));
        }
        Ok(Watermark {
            context_width: c.context_width as usize,
            config,
            table: OnceLock::new(),
        })
    }

    fn table(&self) -> &[u32] {
        self.table.get_or_init(|| {
            randperm_prefix(
                TABLE_SIZE,
                TABLE_SIZE,
                seed_of(self.config.hashing_key as i128),
            )
        })
    }

    /// The seed HF's `set_seed` computes from the last `context_width` ids.
    fn seed(&self, seq: &[u32]) -> u64 {
        let key = self.config.hashing_key as i128;
        let window = &seq[seq.len().saturating_sub(self.context_width)..];
        let last = *window.last().expect("a non-empty sequence");
        match self.config.seeding_scheme {
            SeedingScheme::Lefthash => seed_of(key * last as i128),
            SeedingScheme::Selfhash => {
                // int64 tensors: the products wrap as torch's do.
                let table = self.table();
                let b = table[last as usize % TABLE_SIZE] as i64 + 1;
                let min = window
                    .iter()
                    .map(|&t| {
                        let a = table[t as usize % TABLE_SIZE] as i64 + 1;
                        (key as i64).wrapping_mul(a).wrapping_mul(b)
                    })
                    .min()
                    .expect("a non-empty window");
                seed_of(min as i128)
            }
        }
    }

    /// The green list after `seq` for a vocabulary of `vocab` tokens.
    pub fn greenlist(&self, seq: &[u32], vocab: usize) -> Vec<u32> {
        let size = (vocab as f64 * self.config.greenlist_ratio) as usize;
        randperm_prefix(vocab, size, self.seed(seq))
    }

    /// The processor's step: `bias` added to the green tokens' scores.
    pub fn mark(&self, ids: &[u32], scores: &mut [f32]) {
        // HF skips a sequence shorter than the window (`context_width` >= 1).
        if ids.len() < self.context_width {
            return;
        }
        let vocab = scores.len();
        let green: Vec<u32> = match self.config.seeding_scheme {
            SeedingScheme::Lefthash => self.greenlist(ids, vocab),
            SeedingScheme::Selfhash => {
                // Each of the best candidates is green if it is on its own list.
                let mut seq = ids.to_vec();
                crate::scores::top_indices(scores, SELFHASH_TRIES)
                    .into_iter()
                    .map(|i| i as u32)
                    .filter(|&t| {
                        seq.push(t);
                        let green = self.greenlist(&seq, vocab).contains(&t);
                        seq.pop();
                        green
                    })
                    .collect()
            }
        };
        let bias = self.config.bias as f32;
        for t in green {
            scores[t as usize] += bias;
        }
    }

    /// HF's `WatermarkDetector(...)(ids, z_threshold)` with `ignore_repeated_ngrams=False`.
    pub fn detect(
        &self,
        ids: &[u32],
        bos: Option<u32>,
        vocab: usize,
        z_threshold: f64,
    ) -> Detection {
        let ids = match (ids.first(), bos) {
            (Some(&first), Some(b)) if first == b => &ids[1..],
            _ => ids,
        };
        let selfhash = self.config.seeding_scheme == SeedingScheme::Selfhash;
        let n = self.context_width + 1 - usize::from(selfhash);
        let mut green = vec![None; ids.len()];
        let mut cache: Vec<(&[u32], bool)> = Vec::new();
        for end in n..=ids.len() {
            let ngram = &ids[end - n..end];
            let is_green = match cache.iter().find(|(g, _)| *g == ngram) {
                Some(&(_, g)) => g,
                None => {
                    let target = ngram[n - 1];
                    let prefix = if selfhash { ngram } else { &ngram[..n - 1] };
                    let g = self.greenlist(prefix, vocab).contains(&target);
                    cache.push((ngram, g));
                    g
                }
            };
            green[end - 1] = Some(is_green);
        }
        let scored = green.iter().filter(|g| g.is_some()).count();
        let count = green.iter().filter(|g| **g == Some(true)).count();
        let gamma = self.config.greenlist_ratio;
        let t = scored as f64;
        let z = (count as f64 - gamma * t) / (t * gamma * (1.0 - gamma)).sqrt();
        Detection {
            num_tokens_scored: scored,
            num_green_tokens: count,
            green_fraction: count as f64 / t,
            z_score: z,
            p_value: 0.5 * erfc(z / std::f64::consts::SQRT_2),
            prediction: z > z_threshold,
            green,
        }
    }
}

/// Python's `seed % (2**64 - 1)` on an exact integer.
fn seed_of(x: i128) -> u64 {
    x.rem_euclid(u64::MAX as i128) as u64
}

/// The complementary error function (Numerical Recipes' Chebyshev fit,
/// relative error < 1.2e-7 — a p-value shown to a few digits).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_config_is_refused_with_hfs_words() {
        let bad = WatermarkConfig {
            greenlist_ratio: 1.0,
            ..Default::default()
        };
        assert!(Watermark::new(bad)
            .unwrap_err()
            .to_string()
            .contains("greenlist_ratio"));
    }

    #[test]
    fn green_tokens_get_the_bias_and_only_they() {
        let w = Watermark::new(WatermarkConfig::default()).unwrap();
        let mut scores = vec![0.0f32; 1000];
        w.mark(&[464], &mut scores);
        let green = w.greenlist(&[464], 1000);
        assert_eq!(green.len(), 250);
        for (i, s) in scores.iter().enumerate() {
            assert_eq!(
                *s,
                if green.contains(&(i as u32)) {
                    2.0
                } else {
                    0.0
                }
            );
        }
    }

    #[test]
    fn text_made_of_green_tokens_scores_high_and_p_falls() {
        let w = Watermark::new(WatermarkConfig::default()).unwrap();
        let mut ids = vec![7u32];
        for _ in 0..30 {
            let next = w.greenlist(&ids, 1000)[0];
            ids.push(next);
        }
        let d = w.detect(&ids, None, 1000, 3.0);
        assert_eq!((d.num_tokens_scored, d.num_green_tokens), (30, 30));
        assert!(d.prediction && d.z_score > 9.0 && d.p_value < 1e-15);
        assert_eq!(d.green[0], None);
        assert!((erfc(0.0) - 1.0).abs() < 1e-7 && (erfc(1.0) - 0.157_299_207).abs() < 1e-7);
    }
}
