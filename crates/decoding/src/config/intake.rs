//! Reading a config: JSON in `generation_config.json` form, each field
//! checked by name and type before any value is, keys that cannot change
//! decoding dropped, knobs this lab does not apply refused by name.

use super::fields::GenerationConfig;
use crate::config_error::{closest_knob, ConfigError};
use crate::knob::Knob;

/// Keys of HF's `GenerationConfig` (5.24) that cannot change which tokens a
/// decoder-only model generates — bookkeeping, outputs, caching, compilation,
/// the encoder-decoder start token, the model's own bos; accepted and dropped
/// so real `generation_config.json` files load unchanged.
pub(crate) const IGNORED_KEYS: &[&str] = &[
    "_from_model_config",
    "transformers_version",
    "bos_token_id",
    "pad_token_id",
    "decoder_start_token_id",
    "use_cache",
    "output_scores",
    "output_logits",
    "return_dict_in_generate",
    "output_attentions",
    "output_hidden_states",
    "cache_implementation",
    "cache_config",
    "max_cache_len",
    "compile_config",
    "disable_compile",
    "prefill_chunk_size",
    "continuous_batching_config",
    "low_memory",
];

/// Keys of HF's `GenerationConfig` (5.24, and 4.55's strategies) that change
/// decoding there and are not applied here: refused by name, with why.
pub const UNSUPPORTED_KEYS: &[(&str, &str)] = &[
    (
        "constraints",
        "it holds Python `Constraint` objects; give the words as `force_words_ids`",
    ),
    ("token_healing", "token healing is not implemented"),
    (
        "max_time",
        "a wall-clock limit would make runs unrepeatable",
    ),
    (
        "encoder_repetition_penalty",
        "it acts on an encoder's input, and GPT-2 has no encoder",
    ),
    (
        "encoder_no_repeat_ngram_size",
        "it acts on an encoder's input, and GPT-2 has no encoder",
    ),
    (
        "prompt_lookup_num_tokens",
        "speculative decoding is not implemented",
    ),
    (
        "max_matching_ngram_size",
        "speculative decoding is not implemented",
    ),
    (
        "num_assistant_tokens",
        "speculative decoding is not implemented",
    ),
    (
        "num_assistant_tokens_schedule",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_confidence_threshold",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_early_exit",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_lookbehind",
        "speculative decoding is not implemented",
    ),
    (
        "target_lookbehind",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_ensemble_weight",
        "speculative decoding is not implemented",
    ),
    ("is_assistant", "speculative decoding is not implemented"),
    (
        "speculation_type",
        "speculative decoding is not implemented",
    ),
    ("use_mtp", "multi-token prediction is not implemented"),
];

impl GenerationConfig {
    /// Parses a JSON object in `generation_config.json` form; missing fields take HF defaults.
    pub fn from_json(text: &str) -> Result<GenerationConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ConfigError::json)?;
        Self::from_value(value)
    }

    pub fn from_value(value: serde_json::Value) -> Result<GenerationConfig, ConfigError> {
        let serde_json::Value::Object(mut map) = value else {
            return Err(ConfigError::NotAnObject);
        };
        for key in IGNORED_KEYS {
            map.remove(*key);
        }
        if let Some(&(field, why)) = UNSUPPORTED_KEYS.iter().find(|(k, _)| map.contains_key(*k)) {
            return Err(ConfigError::Unsupported {
                field: field.into(),
                why,
            });
        }
        // Report the first bad field by name, so a typo points at itself.
        if let Some(key) = map.keys().find(|k| k.parse::<Knob>().is_err()) {
            return Err(ConfigError::UnknownField {
                field: key.clone(),
                suggestion: closest_knob(key),
            });
        }
        // A value of the wrong type is blamed on the field it sits under.
        serde_path_to_error::deserialize(serde_json::Value::Object(map)).map_err(|e| {
            match first_key(&e).and_then(|k| k.parse::<Knob>().ok()) {
                Some(knob) => ConfigError::bad_value(knob, e.into_inner()),
                None => ConfigError::json(e.into_inner()),
            }
        })
    }
}

/// The top-level key a deserialisation error happened under.
pub(crate) fn first_key<E>(e: &serde_path_to_error::Error<E>) -> Option<&str> {
    match e.path().iter().next()? {
        serde_path_to_error::Segment::Map { key } => Some(key),
        _ => None,
    }
}
