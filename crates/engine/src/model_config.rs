//! `config.json`, checked before any weight is read: which family the
//! checkpoint belongs to (GPT-2, or the Llama family: Llama and Qwen2), and
//! the sizes the loader and the run need, the same for every family.

use crate::error::LoadError;
use crate::llama_config::LlamaShape;
use serde::Deserialize;

/// The model classes this engine runs, named as HF's `architectures` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    Gpt2,
    Llama,
    Qwen2,
}

impl Architecture {
    /// HF's class name, as the model line shows it.
    pub fn class_name(self) -> &'static str {
        match self {
            Architecture::Gpt2 => "GPT2LMHeadModel",
            Architecture::Llama => "LlamaForCausalLM",
            Architecture::Qwen2 => "Qwen2ForCausalLM",
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

#[derive(Deserialize)]
struct Raw {
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

/// Sizes past these are not a model this page can hold in memory; reject before allocating.
pub(crate) const MAX_LAYERS: usize = 64;
pub(crate) const MAX_WIDTH: usize = 4096;
const MAX_POSITIONS: usize = 16384;
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
    pub fn from_json(bytes: &[u8]) -> Result<ModelConfig, LoadError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| LoadError::Config {
                message: format!("not valid JSON for a model config ({e})"),
                source: Some(e),
            })?;
        let architectures: Vec<&str> = value
            .get("architectures")
            .and_then(|a| a.as_array())
            .map(|a| a.iter().filter_map(|s| s.as_str()).collect())
            .unwrap_or_default();
        let named = |prefix: &str| architectures.iter().any(|s| s.starts_with(prefix));
        let architecture = match value.get("model_type").and_then(|t| t.as_str()) {
            Some("gpt2") => Architecture::Gpt2,
            Some("llama") => Architecture::Llama,
            Some("qwen2") => Architecture::Qwen2,
            Some(other) => {
                return Err(err(format!(
                    "describes a `{other}` model; this engine runs GPT-2 (model_type \"gpt2\": \
                     distilgpt2, gpt2), Llama (\"llama\": SmolLM2) and Qwen2 (\"qwen2\": \
                     Qwen2.5) checkpoints"
                )))
            }
            None if named("GPT2") => Architecture::Gpt2,
            None if named("Llama") => Architecture::Llama,
            None if named("Qwen2") => Architecture::Qwen2,
            None => {
                return Err(err(
                    "has no `model_type`; expected \"gpt2\", \"llama\" or \"qwen2\"".into(),
                ))
            }
        };
        match architecture {
            Architecture::Gpt2 => {
                let raw: Raw = serde_json::from_value(value).map_err(|e| LoadError::Config {
                    message: format!("is not a GPT-2 config ({e})"),
                    source: Some(e),
                })?;
                gpt2(raw)
            }
            Architecture::Llama | Architecture::Qwen2 => {
                crate::llama_config::parse(architecture, value)
            }
        }
    }

    pub fn head_dim(&self) -> usize {
        match &self.family {
            Family::Gpt2 { .. } => self.n_embd / self.n_head,
            Family::Llama(s) => s.head_dim,
        }
    }

    /// The first of the model's eos ids (the one HF pads with).
    pub fn eos_token_id(&self) -> u32 {
        self.eos_token_ids[0]
    }
}

fn gpt2(raw: Raw) -> Result<ModelConfig, LoadError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_another_family_by_name() {
        let e = ModelConfig::from_json(br#"{"model_type": "mistral", "hidden_size": 4096}"#)
            .unwrap_err();
        assert!(e.to_string().contains("`mistral` model"), "{e}");
        assert!(e.to_string().contains("Qwen2"), "{e}");
    }

    #[test]
    fn rejects_malformed_json() {
        let e = ModelConfig::from_json(b"{\"model_type\": \"gpt2\",").unwrap_err();
        assert!(
            e.to_string().starts_with("config.json: not valid JSON"),
            "{e}"
        );
        let source = std::error::Error::source(&e).expect("serde's error is kept");
        assert!(source.downcast_ref::<serde_json::Error>().is_some());
    }

    #[test]
    fn rejects_absurd_sizes_before_allocating() {
        let e =
            ModelConfig::from_json(br#"{"model_type": "gpt2", "n_embd": 100000000}"#).unwrap_err();
        assert!(e.to_string().contains("`n_embd`"), "{e}");
    }

    #[test]
    fn distilgpt2_shapes_parse() {
        let c = ModelConfig::from_json(br#"{"model_type":"gpt2","n_layer":6,"n_embd":768,"n_head":12,"vocab_size":50257,"n_positions":1024,"activation_function":"gelu_new"}"#).unwrap();
        assert_eq!((c.n_layer, c.head_dim(), c.eos_token_id()), (6, 64, 50256));
        assert_eq!(c.architecture, Architecture::Gpt2);
    }
}
