//! A model's sizes that decide how much memory a run takes besides the
//! weights: known from `config.json` before the download, so the page can
//! estimate the whole before it starts one.

use crate::ModelInfo;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelShape {
    pub n_layer: usize,
    /// Query heads.
    pub n_head: usize,
    /// Key/value heads (fewer than the query heads with grouped-query attention).
    pub n_kv_head: usize,
    /// The width of one head's keys and values.
    pub head_dim: usize,
    pub n_embd: usize,
    pub vocab_size: usize,
    /// The context the model was trained for.
    pub n_positions: usize,
}

impl ModelShape {
    /// The shape of a loaded model.
    pub fn of(info: &ModelInfo) -> ModelShape {
        ModelShape {
            n_layer: info.n_layer,
            n_head: info.n_head,
            n_kv_head: info.n_kv_head.unwrap_or(info.n_head),
            head_dim: info.n_embd / info.n_head.max(1),
            n_embd: info.n_embd,
            vocab_size: info.vocab_size,
            n_positions: info.n_positions,
        }
    }
}
