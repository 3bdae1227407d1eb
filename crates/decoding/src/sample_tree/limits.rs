//! What a tree may ask for, and why a request is refused: a refusal is
//! data (the page words it in the reader's language, before sending and
//! when the worker refuses).

use crate::config::ValidConfig;
use crate::mode::Mode;
use crate::model::ModelError;
use serde::{Deserialize, Serialize};

/// Samples per tree: enough for shares to settle near the model's
/// probabilities (±1.6 points at 95 % for a branch of 50 %).
pub const MAX_TREE_SAMPLES: usize = 1000;
/// Tokens per sample: a tree deeper than this is too wide to read.
pub const MAX_TREE_TOKENS: usize = 16;
/// The keys and values the deepest level may hold (its rows' own
/// positions; the prompt's are kept once). distilgpt2: 1,000 samples × 8
/// tokens need at most 258 MB; × 16 tokens 553 MB, refused.
pub const TREE_CACHE_BUDGET: usize = 512 << 20;

/// A tree asked for: a sampling lane's config, how many samples, how many tokens each.
#[derive(Debug, Clone)]
pub struct TreeRequest {
    pub config: ValidConfig,
    pub samples: usize,
    pub tokens: usize,
}

/// What a tree does not draw from yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TreeUnsupported {
    LlamaCpp,
    Tutorial,
    Dola,
    Guidance,
}

/// Why a tree is refused before any pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TreeRefusal {
    #[error("a tree draws {asked} samples; it may draw 1 to {max}")]
    Samples { asked: usize, max: usize },
    #[error("a tree follows each sample for {asked} tokens; it may follow 1 to {max}")]
    Tokens { asked: usize, max: usize },
    #[error("a tree needs a sampling lane: this lane decodes by {mode}, which writes the same text however often it runs; switch do_sample on")]
    NotSampling { mode: Mode },
    #[error("a tree does not draw from {} yet: choose a transformers sampling lane without it", unsupported_name(*.what))]
    Unsupported { what: TreeUnsupported },
    #[error("{samples} samples × {tokens} tokens could hold {need_mb}.0 MB of keys and values on this model, more than the {budget_mb}.0 MB a tree may use: choose fewer samples or tokens")]
    TooLarge {
        samples: usize,
        tokens: usize,
        need_mb: usize,
        budget_mb: usize,
    },
}

fn unsupported_name(what: TreeUnsupported) -> &'static str {
    match what {
        TreeUnsupported::LlamaCpp => "a llama.cpp sampler chain",
        TreeUnsupported::Tutorial => "the tutorial's loop",
        TreeUnsupported::Dola => "DoLa (dola_layers)",
        TreeUnsupported::Guidance => "classifier-free guidance (guidance_scale)",
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    #[error(transparent)]
    Refused(#[from] TreeRefusal),
    #[error(transparent)]
    Model(#[from] ModelError),
}

impl TreeRequest {
    /// Refuses what a tree cannot do or hold, before any pass; `cache_bytes`
    /// is the model's cache per row and position.
    pub fn check(&self, cache_bytes: usize) -> Result<(), TreeRefusal> {
        if !(1..=MAX_TREE_SAMPLES).contains(&self.samples) {
            return Err(TreeRefusal::Samples {
                asked: self.samples,
                max: MAX_TREE_SAMPLES,
            });
        }
        if !(1..=MAX_TREE_TOKENS).contains(&self.tokens) {
            return Err(TreeRefusal::Tokens {
                asked: self.tokens,
                max: MAX_TREE_TOKENS,
            });
        }
        let cfg = &self.config;
        let unsupported = |what| Err(TreeRefusal::Unsupported { what });
        match cfg.mode {
            Mode::Sample => {}
            Mode::LlamaCpp => return unsupported(TreeUnsupported::LlamaCpp),
            Mode::Tutorial => return unsupported(TreeUnsupported::Tutorial),
            mode => return Err(TreeRefusal::NotSampling { mode }),
        }
        if cfg.dola_layers.is_some() {
            return unsupported(TreeUnsupported::Dola);
        }
        if cfg.guidance_scale().is_some() {
            return unsupported(TreeUnsupported::Guidance);
        }
        // The deepest pass feeds token `tokens − 1`: that many own positions per row.
        let need = self
            .samples
            .saturating_mul(self.tokens - 1)
            .saturating_mul(cache_bytes);
        if need > TREE_CACHE_BUDGET {
            return Err(TreeRefusal::TooLarge {
                samples: self.samples,
                tokens: self.tokens,
                need_mb: need.div_ceil(1_000_000),
                budget_mb: TREE_CACHE_BUDGET / 1_000_000,
            });
        }
        Ok(())
    }
}
