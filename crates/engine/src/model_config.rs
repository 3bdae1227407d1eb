//! `config.json` of a GPT-2-family checkpoint, checked before any weight is read.

use crate::error::LoadError;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    pub vocab_size: usize,
    pub n_positions: usize,
    pub n_embd: usize,
    pub n_layer: usize,
    pub n_head: usize,
    pub layer_norm_epsilon: f64,
    pub bos_token_id: u32,
    pub eos_token_id: u32,
}

#[derive(Deserialize)]
struct Raw {
    model_type: Option<String>,
    architectures: Option<Vec<String>>,
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

/// Sizes past these are not a GPT-2 this page can hold in memory; reject before allocating.
const MAX_LAYERS: usize = 64;
const MAX_WIDTH: usize = 4096;
const MAX_POSITIONS: usize = 16384;
const MAX_VOCAB: usize = 1 << 20;

impl ModelConfig {
    pub fn from_json(bytes: &[u8]) -> Result<ModelConfig, LoadError> {
        let err = LoadError::config;
        let raw: Raw = serde_json::from_slice(bytes).map_err(|e| LoadError::Config {
            message: format!("not valid JSON for a model config ({e})"),
            source: Some(e),
        })?;
        let is_gpt2_arch = raw
            .architectures
            .as_ref()
            .is_some_and(|a| a.iter().any(|s| s.starts_with("GPT2")));
        match raw.model_type.as_deref() {
            Some("gpt2") => {}
            Some(other) => {
                return Err(err(format!(
                    "describes a `{other}` model; only GPT-2-family checkpoints \
                     (model_type \"gpt2\", e.g. distilgpt2, gpt2) run here"
                )))
            }
            None if is_gpt2_arch => {}
            None => return Err(err("has no `model_type`; expected \"gpt2\"".into())),
        }
        if let Some(act) = raw.activation_function.as_deref() {
            if act != "gelu_new" && act != "gelu_pytorch_tanh" {
                return Err(err(format!(
                    "uses activation `{act}`; GPT-2 here runs `gelu_new` only"
                )));
            }
        }
        if raw.scale_attn_by_inverse_layer_idx == Some(true) {
            return Err(err(
                "sets `scale_attn_by_inverse_layer_idx`, which this engine does not implement"
                    .into(),
            ));
        }
        if raw.add_cross_attention == Some(true) {
            return Err(err(
                "sets `add_cross_attention`; only decoder-only GPT-2 runs here".into(),
            ));
        }
        let size =
            |name: &str, v: Option<i64>, default: i64, max: usize| -> Result<usize, LoadError> {
                let v = v.unwrap_or(default);
                if v < 1 || v as u64 > max as u64 {
                    return Err(err(format!(
                        "`{name}` is {v}; it must be between 1 and {max}"
                    )));
                }
                Ok(v as usize)
            };
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
        let token = |name: &str, v: Option<i64>| -> Result<u32, LoadError> {
            let v = v.unwrap_or(50256);
            if v < 0 || v as usize >= vocab_size {
                return Err(err(format!(
                    "`{name}` is {v}, outside the vocabulary of {vocab_size}"
                )));
            }
            Ok(v as u32)
        };
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
            vocab_size,
            n_positions,
            n_embd,
            n_layer: size("n_layer", raw.n_layer, 12, MAX_LAYERS)?,
            n_head,
            layer_norm_epsilon: eps,
            bos_token_id: token("bos_token_id", raw.bos_token_id)?,
            eos_token_id: token("eos_token_id", raw.eos_token_id)?,
        })
    }

    pub fn head_dim(&self) -> usize {
        self.n_embd / self.n_head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_a_llama_config_by_name() {
        let e =
            ModelConfig::from_json(br#"{"model_type": "llama", "hidden_size": 4096}"#).unwrap_err();
        assert!(e.to_string().contains("`llama` model"), "{e}");
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
        assert_eq!((c.n_layer, c.head_dim(), c.eos_token_id), (6, 64, 50256));
    }
}
