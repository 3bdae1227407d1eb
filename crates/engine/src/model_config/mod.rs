//! `config.json`, checked before any weight is read: which family the
//! checkpoint belongs to (GPT-2, or the Llama family: Llama and Qwen2), and
//! the sizes the loader and the run need, the same for every family.
//!
//! [`shape`] holds what every family's config comes to; [`gpt2`] and
//! [`llama_family`] read each family's fields; this module picks the reader.

pub mod gpt2;
pub mod llama_family;
pub mod minigpt;
pub mod shape;

pub use shape::{Architecture, Family, LlamaShape, ModelConfig};

use crate::error::LoadError;
use shape::err;

impl ModelConfig {
    pub fn from_json(bytes: &[u8]) -> Result<ModelConfig, LoadError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| LoadError::Config {
                message: format!("not valid JSON for a model config ({e})"),
                source: Some(e),
            })?;
        ModelConfig::from_value(value)
    }

    /// A config already parsed as JSON (a GGUF file's metadata made one).
    pub fn from_value(value: serde_json::Value) -> Result<ModelConfig, LoadError> {
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
            Some("minigpt") => Architecture::MiniGpt,
            Some(other) => {
                return Err(err(format!(
                    "describes a `{other}` model; this engine runs GPT-2 (model_type \"gpt2\": \
                     distilgpt2, gpt2), Llama (\"llama\": SmolLM2) and Qwen2 (\"qwen2\": \
                     Qwen2.5) checkpoints, and seed 004's MiniGPT (\"minigpt\")"
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
                let raw: gpt2::Raw =
                    serde_json::from_value(value).map_err(|e| LoadError::Config {
                        message: format!("is not a GPT-2 config ({e})"),
                        source: Some(e),
                    })?;
                gpt2::parse(raw)
            }
            Architecture::Llama | Architecture::Qwen2 => llama_family::parse(architecture, value),
            Architecture::MiniGpt => minigpt::parse(value),
        }
    }
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
        assert_eq!(
            (c.n_layer, c.head_dim(), c.eos_token_id()),
            (6, 64, Some(50256))
        );
        assert_eq!(c.architecture, Architecture::Gpt2);
    }
}
