//! A config that passed validation: every knob resolved to the value the
//! decoding loop uses.

use super::fields::{EarlyStopping, GenerationConfig};
use crate::constraints::Forced;
use crate::dola::DolaLayers;
use crate::mode::Mode;
use crate::token_rules::TokenRules;
use crate::watermark::Watermark;
use std::sync::Arc;

/// HF's default when neither `max_new_tokens` nor `max_length` is given: 20 new tokens.
pub const DEFAULT_MAX_NEW_TOKENS: usize = 20;
/// More beams than this would make a four-lane page crawl; HF has no cap.
pub const MAX_BEAMS: usize = 16;
/// Samples per sampling lane (`num_return_sequences`), for the same reason.
pub const MAX_SAMPLES: usize = 8;

/// A config that passed validation, with every knob resolved to the value the
/// decoding loop uses. Built only by [`GenerationConfig::validate`].
#[derive(Debug, Clone, PartialEq)]
pub struct ValidConfig {
    pub source: GenerationConfig,
    pub mode: Mode,
    /// `None` means "20 new tokens, or `max_length` minus the prompt" (resolved per prompt).
    pub max_new_tokens: Option<usize>,
    pub max_length: Option<usize>,
    pub min_new_tokens: usize,
    pub min_length: usize,
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f32,
    pub min_p: Option<f32>,
    pub typical_p: f32,
    pub epsilon_cutoff: f32,
    pub eta_cutoff: f32,
    pub repetition_penalty: f32,
    pub no_repeat_ngram_size: usize,
    pub num_beams: usize,
    pub length_penalty: f32,
    pub early_stopping: EarlyStopping,
    pub num_return_sequences: usize,
    pub penalty_alpha: f32,
    /// Empty means "the model's eos"; filled in by [`ValidConfig::with_model_eos`].
    pub eos_token_ids: Vec<u32>,
    pub stop_strings: Vec<String>,
    pub seed: u64,
    pub frequency_penalty: f32,
    pub presence_penalty: f32,
    /// The token-level rules (bad words, biases, suppression, forcing), as ids.
    pub rules: TokenRules,
    pub watermark: Option<Arc<Watermark>>,
    /// 1 unless diverse beam search.
    pub num_beam_groups: usize,
    pub diversity_penalty: f32,
    /// DoLa's layers, for greedy and sampling lanes (HF ignores it elsewhere).
    pub dola_layers: Option<DolaLayers>,
    /// Constrained beam search's constraints (empty otherwise).
    pub force_words: Arc<[Forced]>,
    /// A llama.cpp lane's knobs (`mode` is then [`Mode::LlamaCpp`]).
    pub llama_cpp: Option<Arc<crate::llama_cpp::config::LlamaCppSettings>>,
    /// A tutorial lane's knobs (`mode` is then [`Mode::Tutorial`]).
    pub tutorial: Option<Arc<crate::tutorial::config::TutorialSettings>>,
}

impl ValidConfig {
    /// HF takes eos from the model's generation config when the user gives none.
    pub fn with_model_eos(mut self, model_eos: &[u32]) -> Self {
        if self.eos_token_ids.is_empty() && self.source.eos_token_id.is_none() {
            self.eos_token_ids = model_eos.to_vec();
        }
        self
    }

    /// New tokens allowed for a prompt of `prompt_len` tokens (HF's `_prepare_generated_length`).
    pub fn new_token_budget(&self, prompt_len: usize) -> usize {
        match (self.max_new_tokens, self.max_length) {
            (Some(n), _) => n,
            (None, Some(total)) => total.saturating_sub(prompt_len),
            (None, None) => DEFAULT_MAX_NEW_TOKENS,
        }
    }

    /// The minimum number of new tokens before eos may be chosen, from both
    /// `min_new_tokens` and `min_length` (which counts the prompt, as in HF).
    pub fn min_new_tokens_for(&self, prompt_len: usize) -> usize {
        self.min_new_tokens
            .max(self.min_length.saturating_sub(prompt_len))
    }

    /// Classifier-free guidance's scale, when it changes anything (HF adds
    /// the processor only for a scale other than 1).
    pub fn guidance_scale(&self) -> Option<f64> {
        self.source.guidance_scale.filter(|&g| g != 1.0)
    }

    pub fn is_sampling(&self) -> bool {
        self.mode.is_sampling()
    }
}
