//! What the decoding loop needs from a language model. The cache is a value the
//! caller owns (one row per sequence), so lanes, beams and branches can select,
//! duplicate and reorder rows without hidden state in the model.

use serde::{Deserialize, Serialize};

/// What a model is, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// HF's class name (`GPT2LMHeadModel`, `LlamaForCausalLM`, `Qwen2ForCausalLM`).
    #[serde(default)]
    pub architecture: String,
    pub parameters: usize,
    pub n_layer: usize,
    pub n_head: usize,
    /// Key/value heads when fewer than the query heads (grouped-query attention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_kv_head: Option<usize>,
    pub n_embd: usize,
    pub vocab_size: usize,
    pub n_positions: usize,
    pub storage_dtype: String,
    pub weight_bytes: usize,
    /// The knobs of the repo's `generation_config.json`, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation_defaults: Option<crate::model_defaults::ModelDefaults>,
    /// Its tokenizer_config.json has a chat template (an Instruct model).
    #[serde(default)]
    pub chat_template: bool,
}

/// Why a forward pass (or the run around it) could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The caller skipped `prepare_prompt`.
    #[error("the prompt must hold 1 to {max} tokens; prepare it with prepare_prompt")]
    PromptLength { max: usize },
    /// An early exit asked for a layer the model does not have.
    #[error("layer {layer} does not exist: the model has {n_layers} layers")]
    NoSuchLayer { layer: usize, n_layers: usize },
    /// DoLa asked for layers this model does not have.
    #[error(transparent)]
    Dola(#[from] crate::dola::NoCandidates),
    /// The model's own computation failed (kept as the model's error).
    #[error("the model failed: {0}")]
    Compute(#[source] Box<dyn std::error::Error + Send + Sync>),
}

pub struct Forward<C> {
    pub cache: C,
    /// Logits of the last position of each row: `rows * vocab_size`.
    pub logits: Vec<f32>,
    /// Final hidden states (after the last layer norm). For `prefill`: every
    /// prompt position (`positions * hidden_size`); for `step`: one per row.
    pub hidden: Vec<f32>,
    /// The output head's logits at each asked-for [`Exit`], in the order asked:
    /// `exits.len() * vocab_size`.
    pub exits: Vec<f32>,
}

/// An early exit: the output head applied to the hidden state of a row's
/// last position as it enters `layer` (0 = the embeddings; HF's
/// `hidden_states[layer]`) — as it is, as DoLa reads it, or through the
/// final norm first, as the logit lens reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// The row of the pass (for `prefill`, 0).
    pub row: usize,
    pub layer: usize,
    /// Through the final norm before the head (the logit lens).
    pub normed: bool,
}

pub trait LanguageModel {
    type Cache: Clone;

    fn vocab_size(&self) -> usize;
    fn hidden_size(&self) -> usize;
    fn n_positions(&self) -> usize;
    /// Transformer layers (blocks); the layers an [`Exit`] may name.
    fn n_layers(&self) -> usize;
    /// Whether the output head is the input embedding (HF's `tie_word_embeddings`).
    fn tied_head(&self) -> bool;

    /// Runs a prompt (one row) from an empty cache.
    fn prefill(&self, ids: &[u32]) -> Result<Forward<Self::Cache>, ModelError> {
        self.prefill_with_exits(ids, &[])
    }
    /// Feeds one token per cache row.
    fn step(
        &self,
        cache: &Self::Cache,
        tokens: &[u32],
    ) -> Result<Forward<Self::Cache>, ModelError> {
        self.step_with_exits(cache, tokens, &[])
    }
    /// [`LanguageModel::prefill`], with early exits on its last position.
    fn prefill_with_exits(
        &self,
        ids: &[u32],
        exits: &[Exit],
    ) -> Result<Forward<Self::Cache>, ModelError>;
    /// [`LanguageModel::step`], with early exits.
    fn step_with_exits(
        &self,
        cache: &Self::Cache,
        tokens: &[u32],
        exits: &[Exit],
    ) -> Result<Forward<Self::Cache>, ModelError>;
    /// A cache whose row `i` is row `rows[i]` of `cache` (rows may repeat).
    fn select(&self, cache: &Self::Cache, rows: &[usize]) -> Result<Self::Cache, ModelError>;
    /// A one-row cache whose positions every row selected from it shares,
    /// kept once instead of copied per row (a sample tree's prompt). The
    /// passes after it give the same logits as with `cache` itself.
    fn shared(&self, cache: Self::Cache) -> Result<Self::Cache, ModelError> {
        Ok(cache)
    }
    /// `cache` with room for `positions` more per row, asked for once by a
    /// run that knows how far its lanes may go, so that its steps need not
    /// copy the cache to grow it. The logits are the same either way.
    fn with_room(&self, cache: Self::Cache, _positions: usize) -> Result<Self::Cache, ModelError> {
        Ok(cache)
    }
    /// Bytes the cache holds per row and position (every layer's keys and values).
    fn cache_bytes_per_position(&self) -> usize {
        2 * self.n_layers() * self.hidden_size() * std::mem::size_of::<f32>()
    }
}

/// A shared or borrowed model is a model: the worker keeps its engine in an
/// `Rc` while a run holds a handle to it.
macro_rules! delegate_model {
    ($($ty:ty),*) => {$(
        impl<T: LanguageModel + ?Sized> LanguageModel for $ty {
            type Cache = T::Cache;
            fn vocab_size(&self) -> usize { (**self).vocab_size() }
            fn hidden_size(&self) -> usize { (**self).hidden_size() }
            fn n_positions(&self) -> usize { (**self).n_positions() }
            fn n_layers(&self) -> usize { (**self).n_layers() }
            fn tied_head(&self) -> bool { (**self).tied_head() }
            fn prefill_with_exits(&self, ids: &[u32], exits: &[Exit])
                -> Result<Forward<Self::Cache>, ModelError> {
                (**self).prefill_with_exits(ids, exits)
            }
            fn step_with_exits(&self, cache: &Self::Cache, tokens: &[u32], exits: &[Exit])
                -> Result<Forward<Self::Cache>, ModelError> {
                (**self).step_with_exits(cache, tokens, exits)
            }
            fn select(&self, cache: &Self::Cache, rows: &[usize])
                -> Result<Self::Cache, ModelError> {
                (**self).select(cache, rows)
            }
            fn shared(&self, cache: Self::Cache) -> Result<Self::Cache, ModelError> {
                (**self).shared(cache)
            }
            fn with_room(&self, cache: Self::Cache, positions: usize)
                -> Result<Self::Cache, ModelError> {
                (**self).with_room(cache, positions)
            }
            fn cache_bytes_per_position(&self) -> usize {
                (**self).cache_bytes_per_position()
            }
        }
    )*};
}

delegate_model!(&T, std::rc::Rc<T>, std::sync::Arc<T>);
