//! `config.json` of a MiniGPT (seed 004's `dnnlpy.models.gpt.MiniGPT`): its
//! constructor's own argument names, `model_type` `"minigpt"`. The engine
//! writes one when it reads a student's `minigpt.pt` (the sizes from the
//! tensors, the head count from a `config.json` beside it or the page);
//! a hosted MiniGPT folder carries it.

use super::shape::{
    err, size, token, Architecture, Family, ModelConfig, MAX_LAYERS, MAX_POSITIONS, MAX_VOCAB,
    MAX_WIDTH,
};
use crate::error::LoadError;
use serde::{Deserialize, Serialize};

/// dnnlpy's `MiniGPT(...)` arguments, as its tutorial passes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MiniGptArgs {
    pub vocab_size: i64,
    pub block_size: i64,
    #[serde(default = "embed_dim")]
    pub embed_dim: i64,
    #[serde(default = "four")]
    pub num_layers: i64,
    #[serde(default = "four")]
    pub num_heads: i64,
    #[serde(default = "hidden_dim")]
    pub hidden_dim: i64,
    #[serde(default = "yes")]
    pub bias: bool,
    #[serde(default = "yes")]
    pub weight_tying: bool,
    /// Not a dnnlpy argument: the id that ends a text, when the tokenizer has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eos_token_id: Option<i64>,
}

// dnnlpy 2026.10's defaults.
fn embed_dim() -> i64 {
    128
}
fn four() -> i64 {
    4
}
fn hidden_dim() -> i64 {
    512
}
fn yes() -> bool {
    true
}

/// dnnlpy's LayerNorm `eps` (its default; MiniGPT never sets it).
pub const LAYER_NORM_EPS: f64 = 1e-5;

pub(crate) fn parse(value: serde_json::Value) -> Result<ModelConfig, LoadError> {
    let a: MiniGptArgs = serde_json::from_value(value).map_err(|e| LoadError::Config {
        message: format!("is not a MiniGPT config ({e})"),
        source: Some(e),
    })?;
    let n_embd = size("embed_dim", Some(a.embed_dim), 128, MAX_WIDTH)?;
    let n_head = size("num_heads", Some(a.num_heads), 4, 256)?;
    if n_embd % n_head != 0 {
        return Err(err(format!(
            "`num_heads` ({n_head}) does not divide `embed_dim` ({n_embd}); MiniGPT's \
             attention splits the width evenly between its heads"
        )));
    }
    let vocab_size = size("vocab_size", Some(a.vocab_size), 0, MAX_VOCAB)?;
    let block_size = size("block_size", Some(a.block_size), 0, MAX_POSITIONS)?;
    let eos_token_ids = match a.eos_token_id {
        Some(id) => vec![token("eos_token_id", id, vocab_size)?],
        None => vec![],
    };
    Ok(ModelConfig {
        architecture: Architecture::MiniGpt,
        vocab_size,
        n_positions: block_size,
        n_embd,
        n_layer: size("num_layers", Some(a.num_layers), 4, MAX_LAYERS)?,
        n_head,
        bos_token_id: 0,
        eos_token_ids,
        family: Family::MiniGpt {
            hidden_dim: size("hidden_dim", Some(a.hidden_dim), 512, 4 * MAX_WIDTH)?,
            bias: a.bias,
            weight_tying: a.weight_tying,
        },
    })
}
