//! The model a checkpoint describes: GPT-2, the Llama family or MiniGPT, behind one
//! stateless forward pass with the same inputs and outputs.

use crate::error::LoadError;
use crate::gpt2::Gpt2;
use crate::kv_cache::KvCache;
use crate::llama_family::Llama;
use crate::minigpt::MiniGpt;
use crate::model_config::{Family, ModelConfig};
use crate::output::Output;
use crate::weights::Weights;
use candle_core::{Result, Tensor};

pub(crate) enum Model {
    Gpt2(Gpt2),
    Llama(Llama),
    MiniGpt(MiniGpt),
}

impl Model {
    pub fn load(cfg: ModelConfig, ck: &mut dyn Weights) -> std::result::Result<Model, LoadError> {
        Ok(match cfg.family.clone() {
            Family::Gpt2 { layer_norm_epsilon } => {
                Model::Gpt2(Gpt2::load(cfg, layer_norm_epsilon, ck)?)
            }
            Family::Llama(shape) => Model::Llama(Llama::load(cfg, shape, ck)?),
            Family::MiniGpt {
                hidden_dim,
                bias,
                weight_tying,
            } => Model::MiniGpt(MiniGpt::load(cfg, hidden_dim, bias, weight_tying, ck)?),
        })
    }

    pub fn cfg(&self) -> &ModelConfig {
        match self {
            Model::Gpt2(m) => &m.cfg,
            Model::Llama(m) => &m.cfg,
            Model::MiniGpt(m) => &m.cfg,
        }
    }

    pub fn parameter_count(&self) -> usize {
        match self {
            Model::Gpt2(m) => m.parameter_count(),
            Model::Llama(m) => m.parameter_count(),
            Model::MiniGpt(m) => m.parameter_count(),
        }
    }

    /// Whether the output head is the input embedding (HF's `tie_word_embeddings`).
    pub fn tied_head(&self) -> bool {
        match self {
            Model::Gpt2(m) => m.tied_head(),
            Model::Llama(m) => m.tied_head(),
            Model::MiniGpt(m) => m.tied_head(),
        }
    }

    pub fn forward(
        &self,
        tokens: &[u32],
        rows: usize,
        cache: Option<&KvCache>,
        exits: &[(usize, usize)],
    ) -> Result<Output> {
        match self {
            Model::Gpt2(m) => m.forward(tokens, rows, cache, exits),
            Model::Llama(m) => m.forward(tokens, rows, cache, exits),
            Model::MiniGpt(m) => m.forward(tokens, rows, cache, exits),
        }
    }

    /// The final norm on `rows` (`[rows, hidden]` states no norm has seen).
    pub fn final_norm_rows(&self, rows: &Tensor) -> Result<Tensor> {
        match self {
            Model::Gpt2(m) => m.final_norm_rows(rows),
            Model::Llama(m) => m.final_norm_rows(rows),
            Model::MiniGpt(m) => m.final_norm_rows(rows),
        }
    }

    /// The logits after each of `rows` (`[rows, hidden]` final hidden states).
    pub fn head_rows(&self, rows: &Tensor) -> Result<Tensor> {
        match self {
            Model::Gpt2(m) => m.head_rows(rows),
            Model::Llama(m) => m.head_rows(rows),
            Model::MiniGpt(m) => m.head_rows(rows),
        }
    }
}
