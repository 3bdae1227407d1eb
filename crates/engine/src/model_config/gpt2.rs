//! `config.json` of a GPT-2 checkpoint (`GPT2LMHeadModel`: distilgpt2, gpt2).

use super::shape::{
    err, size, token, Architecture, Family, ModelConfig, MAX_LAYERS, MAX_POSITIONS, MAX_VOCAB,
    MAX_WIDTH,
};
use crate::error::LoadError;
use serde::Deserialize;

#[derive(Deserialize)]
pub(crate) struct Raw {
    vocab_size: Option<i64>,
    n_positions: Option<i64>,
    n_embd: Option<i64>,
    n_layer: Option<i64>,
    n_head: Option<i64>,
    layer_norm_epsilon: Option<f64>,
    activation_function: Option<String>,
    bos_token_id: Option<i64>,
    eos_token_id: Option<i64>,
    scale_attn_by_inverse_layer_idx: Option<bool>,
    add_cross_attention: Option<bool>,
    n_inner: Option<i64>,
}

pub(crate) fn parse(raw: Raw) -> Result<ModelConfig, LoadError> {
    if let Some(act) = raw.activation_function.as_deref() {
        if act != "gelu_new" && act != "gelu_pytorch_tanh" {
            return Err(err(format!(
                "uses activation `{act}`; GPT-2 here runs `gelu_new` only"
            )));
        }
    }
    if raw.scale_attn_by_inverse_layer_idx == Some(true) {
        return Err(err(
            "sets `scale_attn_by_inverse_layer_idx`, which this engine does not implement".into(),
        ));
    }
    if raw.add_cross_attention == Some(true) {
        return Err(err(
            "sets `add_cross_attention`; only decoder-only GPT-2 runs here".into(),
        ));
    }
    let n_embd = size("n_embd", raw.n_embd, 768, MAX_WIDTH)?;
    let n_head = size("n_head", raw.n_head, 12, 256)?;
    if n_embd % n_head != 0 {
        return Err(err(format!(
            "`n_embd` ({n_embd}) is not a multiple of `n_head` ({n_head})"
        )));
    }
    if let Some(inner) = raw.n_inner {
        if inner as usize != 4 * n_embd {
            return Err(err(format!(
                "`n_inner` is {inner}; this engine expects 4 * n_embd = {}",
                4 * n_embd
            )));
        }
    }
    let vocab_size = size("vocab_size", raw.vocab_size, 50257, MAX_VOCAB)?;
    let eps = raw.layer_norm_epsilon.unwrap_or(1e-5);
    if !(eps > 0.0 && eps < 1.0) {
        return Err(err(format!(
            "`layer_norm_epsilon` is {eps}; it must be in (0, 1)"
        )));
    }
    let n_positions = size("n_positions", raw.n_positions, 1024, MAX_POSITIONS)?;
    if n_positions < 2 {
        return Err(err("`n_positions` must be at least 2".into()));
    }
    Ok(ModelConfig {
        architecture: Architecture::Gpt2,
        vocab_size,
        n_positions,
        n_embd,
        n_layer: size("n_layer", raw.n_layer, 12, MAX_LAYERS)?,
        n_head,
        bos_token_id: token(
            "bos_token_id",
            raw.bos_token_id.unwrap_or(50256),
            vocab_size,
        )?,
        eos_token_ids: vec![token(
            "eos_token_id",
            raw.eos_token_id.unwrap_or(50256),
            vocab_size,
        )?],
        family: Family::Gpt2 {
            layer_norm_epsilon: eps,
        },
    })
}
