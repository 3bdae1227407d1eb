//! What a checkpoint's `config.json` comes to, for every family: its class,
//! the sizes the loader and the run need, and what differs between the
//! families' blocks; and the checks each family's reader shares.

use crate::error::LoadError;

/// The model classes this engine runs, named as HF's `architectures` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    Gpt2,
    Llama,
    Qwen2,
    /// Seed 004's `dnnlpy.models.gpt.MiniGPT`, a student's own model.
    MiniGpt,
}

impl Architecture {
    /// HF's class name, as the model line shows it.
    pub fn class_name(self) -> &'static str {
        match self {
            Architecture::Gpt2 => "GPT2LMHeadModel",
            Architecture::Llama => "LlamaForCausalLM",
            Architecture::Qwen2 => "Qwen2ForCausalLM",
            Architecture::MiniGpt => "MiniGPT (dnnlpy)",
        }
    }
}

/// What differs between the families' blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum Family {
    /// Learned positions, LayerNorm, GELU, fused q|k|v, head tied to `wte`.
    Gpt2 { layer_norm_epsilon: f64 },
    /// Rotary positions, RMSNorm, SwiGLU, grouped-query attention.
    Llama(LlamaShape),
    /// GPT-2's plan with separate q/k/v projections, exact GELU, an MLP
    /// width of its own, biases and the tied head optional.
    MiniGpt {
        hidden_dim: usize,
        bias: bool,
        weight_tying: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    pub architecture: Architecture,
    pub vocab_size: usize,
    /// The context: GPT-2's `n_positions`, the Llama family's `max_position_embeddings`.
    pub n_positions: usize,
    /// The hidden width (`n_embd`, `hidden_size`).
    pub n_embd: usize,
    pub n_layer: usize,
    /// Query heads.
    pub n_head: usize,
    pub bos_token_id: u32,
    /// Every id that ends a sequence by default (Llama-family configs may list several).
    pub eos_token_ids: Vec<u32>,
    pub family: Family,
}

/// The Llama family's own sizes and switches.
#[derive(Debug, Clone, PartialEq)]
pub struct LlamaShape {
    /// Key/value heads (grouped-query attention when fewer than the query heads).
    pub n_kv_head: usize,
    pub head_dim: usize,
    pub intermediate_size: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f64,
    /// Biases on q, k and v (Qwen2 always; Llama with `attention_bias`).
    pub qkv_bias: bool,
    /// A bias on the output projection (Llama's `attention_bias`; never Qwen2).
    pub o_bias: bool,
    /// Biases in the MLP (Llama's `mlp_bias`).
    pub mlp_bias: bool,
    /// The head is the input embedding (no `lm_head.weight` is read).
    pub tie_word_embeddings: bool,
}

/// Sizes past these are not a model this page can hold in memory; reject before allocating.
pub(crate) const MAX_LAYERS: usize = 64;
pub(crate) const MAX_WIDTH: usize = 4096;
pub(crate) const MAX_POSITIONS: usize = 16384;
pub(crate) const MAX_VOCAB: usize = 1 << 20;

pub(crate) fn err(message: String) -> LoadError {
    LoadError::config(message)
}

/// A size field: present or defaulted, and between 1 and `max`.
pub(crate) fn size(
    name: &str,
    v: Option<i64>,
    default: i64,
    max: usize,
) -> Result<usize, LoadError> {
    let v = v.unwrap_or(default);
    if v < 1 || v as u64 > max as u64 {
        return Err(err(format!(
            "`{name}` is {v}; it must be between 1 and {max}"
        )));
    }
    Ok(v as usize)
}

/// A token id field, inside the vocabulary.
pub(crate) fn token(name: &str, v: i64, vocab_size: usize) -> Result<u32, LoadError> {
    if v < 0 || v as u64 >= vocab_size as u64 {
        return Err(err(format!(
            "`{name}` is {v}, outside the vocabulary of {vocab_size}"
        )));
    }
    Ok(v as u32)
}

impl ModelConfig {
    pub fn head_dim(&self) -> usize {
        match &self.family {
            Family::Gpt2 { .. } | Family::MiniGpt { .. } => self.n_embd / self.n_head,
            Family::Llama(s) => s.head_dim,
        }
    }

    /// The width of one position's keys (and of its values) in the cache:
    /// the key/value heads', fewer than the query heads' under grouped-query attention.
    pub fn kv_width(&self) -> usize {
        match &self.family {
            Family::Gpt2 { .. } | Family::MiniGpt { .. } => self.n_embd,
            Family::Llama(s) => s.n_kv_head * s.head_dim,
        }
    }

    /// The first of the model's eos ids (the one HF pads with); a MiniGPT
    /// may have none.
    pub fn eos_token_id(&self) -> Option<u32> {
        self.eos_token_ids.first().copied()
    }
}
