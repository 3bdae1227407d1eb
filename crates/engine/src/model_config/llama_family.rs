//! `config.json` of a Llama-family checkpoint (`LlamaForCausalLM`: SmolLM2;
//! `Qwen2ForCausalLM`: Qwen2.5), as transformers 4.x and 5.x write it (5.x
//! moved `rope_theta` into `rope_parameters`). What this engine does not
//! implement (rope scaling, sliding windows, other activations) is refused
//! by name rather than run wrongly.

use super::shape::{
    err, size, token, Architecture, Family, LlamaShape, ModelConfig, MAX_LAYERS, MAX_VOCAB,
    MAX_WIDTH,
};
use crate::error::LoadError;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Raw {
    vocab_size: Option<i64>,
    hidden_size: Option<i64>,
    intermediate_size: Option<i64>,
    num_hidden_layers: Option<i64>,
    num_attention_heads: Option<i64>,
    num_key_value_heads: Option<i64>,
    head_dim: Option<i64>,
    hidden_act: Option<String>,
    max_position_embeddings: Option<i64>,
    rms_norm_eps: Option<f64>,
    rope_theta: Option<f64>,
    rope_parameters: Option<Value>,
    rope_scaling: Option<Value>,
    partial_rotary_factor: Option<f64>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    tie_word_embeddings: Option<bool>,
    use_sliding_window: Option<bool>,
    layer_types: Option<Vec<String>>,
    bos_token_id: Option<Value>,
    eos_token_id: Option<Value>,
}

/// Contexts past this are not a model a tab runs; reject before allocating.
const MAX_POSITIONS: usize = 1 << 17;
const MAX_INTERMEDIATE: usize = 1 << 16;

pub(crate) fn parse(architecture: Architecture, value: Value) -> Result<ModelConfig, LoadError> {
    let family = architecture.class_name();
    let raw: Raw = serde_json::from_value(value).map_err(|e| LoadError::Config {
        message: format!("is not a valid {family} config ({e})"),
        source: Some(e),
    })?;
    let qwen2 = architecture == Architecture::Qwen2;
    if let Some(act) = raw.hidden_act.as_deref() {
        if act != "silu" {
            return Err(err(format!(
                "uses `hidden_act` `{act}`; the {family} here runs `silu` (SwiGLU) only"
            )));
        }
    }
    let rope_theta = rope_theta(&raw)?;
    if raw.use_sliding_window == Some(true)
        || raw
            .layer_types
            .iter()
            .flatten()
            .any(|t| t != "full_attention")
    {
        return Err(err(
            "uses sliding-window attention, which this engine does not implement".into(),
        ));
    }
    let n_embd = size("hidden_size", raw.hidden_size, 4096, MAX_WIDTH)?;
    let n_head = size("num_attention_heads", raw.num_attention_heads, 32, 256)?;
    let n_kv_head = size(
        "num_key_value_heads",
        raw.num_key_value_heads,
        n_head as i64,
        n_head,
    )?;
    if n_head % n_kv_head != 0 {
        return Err(err(format!(
            "`num_attention_heads` ({n_head}) is not a multiple of `num_key_value_heads` ({n_kv_head})"
        )));
    }
    let head_dim = match raw.head_dim {
        Some(d) => size("head_dim", Some(d), 0, 1024)?,
        None if n_embd % n_head == 0 => n_embd / n_head,
        None => {
            return Err(err(format!(
                "`hidden_size` ({n_embd}) is not a multiple of `num_attention_heads` ({n_head})"
            )))
        }
    };
    if head_dim % 2 != 0 {
        return Err(err(format!(
            "`head_dim` is {head_dim}; rotary embeddings need an even head size"
        )));
    }
    let vocab_size = size(
        "vocab_size",
        raw.vocab_size,
        if qwen2 { 151936 } else { 32000 },
        MAX_VOCAB,
    )?;
    let eps = raw.rms_norm_eps.unwrap_or(1e-6);
    if !(eps > 0.0 && eps < 1.0) {
        return Err(err(format!(
            "`rms_norm_eps` is {eps}; it must be in (0, 1)"
        )));
    }
    let n_positions = size(
        "max_position_embeddings",
        raw.max_position_embeddings,
        if qwen2 { 32768 } else { 2048 },
        MAX_POSITIONS,
    )?;
    if n_positions < 2 {
        return Err(err("`max_position_embeddings` must be at least 2".into()));
    }
    let eos_token_ids = ids("eos_token_id", raw.eos_token_id.as_ref(), vocab_size)?;
    let bos = ids("bos_token_id", raw.bos_token_id.as_ref(), vocab_size)?;
    // An empty prompt starts from bos; a model without one starts from its eos.
    let bos_token_id = match (bos.first(), eos_token_ids.first()) {
        (Some(&b), _) | (None, Some(&b)) => b,
        (None, None) => return Err(err(
            "has neither `bos_token_id` nor `eos_token_id`; one is needed to start an empty prompt"
                .into(),
        )),
    };
    let attention_bias = raw.attention_bias.unwrap_or(false);
    Ok(ModelConfig {
        architecture,
        vocab_size,
        n_positions,
        n_embd,
        n_layer: size("num_hidden_layers", raw.num_hidden_layers, 32, MAX_LAYERS)?,
        n_head,
        bos_token_id,
        eos_token_ids,
        family: Family::Llama(LlamaShape {
            n_kv_head,
            head_dim,
            intermediate_size: size(
                "intermediate_size",
                raw.intermediate_size,
                if qwen2 { 22016 } else { 11008 },
                MAX_INTERMEDIATE,
            )?,
            rms_norm_eps: eps,
            rope_theta,
            qkv_bias: qwen2 || attention_bias,
            o_bias: !qwen2 && attention_bias,
            mlp_bias: !qwen2 && raw.mlp_bias.unwrap_or(false),
            tie_word_embeddings: raw.tie_word_embeddings.unwrap_or(false),
        }),
    })
}

/// The rotary base: transformers 5's `rope_parameters.rope_theta`, or 4's
/// top-level `rope_theta`; only the default (unscaled) rotary embedding.
fn rope_theta(raw: &Raw) -> Result<f64, LoadError> {
    let params = raw.rope_parameters.as_ref().filter(|v| !v.is_null());
    let scaling = raw.rope_scaling.as_ref().filter(|v| !v.is_null());
    for p in params.into_iter().chain(scaling) {
        let kind = p
            .get("rope_type")
            .or_else(|| p.get("type"))
            .and_then(|t| t.as_str())
            .unwrap_or("default");
        if kind != "default" {
            return Err(err(format!(
                "uses rope scaling `{kind}`; this engine implements the default rotary embedding only"
            )));
        }
        if let Some(f) = p.get("partial_rotary_factor").and_then(|f| f.as_f64()) {
            if f != 1.0 {
                return Err(err(format!(
                    "rotates a part of each head (`partial_rotary_factor` {f}); this engine rotates whole heads only"
                )));
            }
        }
    }
    if let Some(f) = raw.partial_rotary_factor {
        if f != 1.0 {
            return Err(err(format!(
                "rotates a part of each head (`partial_rotary_factor` {f}); this engine rotates whole heads only"
            )));
        }
    }
    let theta = params
        .and_then(|p| p.get("rope_theta"))
        .and_then(|t| t.as_f64())
        .or(raw.rope_theta)
        .unwrap_or(10000.0);
    if !(theta.is_finite() && theta > 1.0) {
        return Err(err(format!(
            "`rope_theta` is {theta}; it must be a number above 1"
        )));
    }
    Ok(theta)
}

/// A token id field that may be missing, null, one id, or a list of ids.
fn ids(name: &str, v: Option<&Value>, vocab_size: usize) -> Result<Vec<u32>, LoadError> {
    let bad = || {
        err(format!(
            "`{name}` must be a token id or a list of token ids"
        ))
    };
    match v {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| token(name, x.as_i64().ok_or_else(bad)?, vocab_size))
            .collect(),
        Some(x) => Ok(vec![token(name, x.as_i64().ok_or_else(bad)?, vocab_size)?]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_json(json: &str) -> Result<ModelConfig, LoadError> {
        ModelConfig::from_json(json.as_bytes())
    }

    /// SmolLM2-135M's config.json as the hub serves it (transformers 4.x keys).
    const SMOLLM2_135M: &str = r#"{"architectures":["LlamaForCausalLM"],"attention_bias":false,
        "attention_dropout":0.0,"bos_token_id":0,"eos_token_id":0,"hidden_act":"silu",
        "hidden_size":576,"initializer_range":0.041666666666666664,"intermediate_size":1536,
        "is_llama_config":true,"max_position_embeddings":8192,"model_type":"llama",
        "num_attention_heads":9,"num_hidden_layers":30,"num_key_value_heads":3,
        "pretraining_tp":1,"rms_norm_eps":1e-05,"rope_interleaved":false,"rope_scaling":null,
        "rope_theta":100000,"tie_word_embeddings":true,"torch_dtype":"bfloat16",
        "transformers_version":"4.40.1","use_cache":true,"vocab_size":49152}"#;

    /// Qwen2.5-0.5B-Instruct's config.json (transformers 4.x keys).
    const QWEN25_05B: &str = r#"{"architectures":["Qwen2ForCausalLM"],"attention_dropout":0.0,
        "bos_token_id":151643,"eos_token_id":151645,"hidden_act":"silu","hidden_size":896,
        "initializer_range":0.02,"intermediate_size":4864,"max_position_embeddings":32768,
        "max_window_layers":21,"model_type":"qwen2","num_attention_heads":14,
        "num_hidden_layers":24,"num_key_value_heads":2,"rms_norm_eps":1e-06,
        "rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":true,
        "torch_dtype":"bfloat16","transformers_version":"4.43.1","use_cache":true,
        "use_sliding_window":false,"vocab_size":151936}"#;

    fn shape(c: &ModelConfig) -> &LlamaShape {
        match &c.family {
            Family::Llama(s) => s,
            other => panic!("not a Llama-family config: {other:?}"),
        }
    }

    #[test]
    fn smollm2_reads_with_grouped_heads_and_a_tied_head() {
        let c = parse_json(SMOLLM2_135M).unwrap();
        assert_eq!(c.architecture, Architecture::Llama);
        assert_eq!((c.n_layer, c.n_embd, c.n_head), (30, 576, 9));
        assert_eq!((c.vocab_size, c.n_positions), (49152, 8192));
        assert_eq!((c.bos_token_id, c.eos_token_ids.clone()), (0, vec![0]));
        let s = shape(&c);
        assert_eq!(
            (s.n_kv_head, s.head_dim, s.intermediate_size),
            (3, 64, 1536)
        );
        assert_eq!(s.rope_theta, 100000.0);
        assert!(s.tie_word_embeddings && !s.qkv_bias && !s.o_bias && !s.mlp_bias);
    }

    #[test]
    fn qwen2_has_qkv_biases_but_no_output_bias() {
        let c = parse_json(QWEN25_05B).unwrap();
        assert_eq!(c.architecture, Architecture::Qwen2);
        let s = shape(&c);
        assert!(s.qkv_bias && !s.o_bias && !s.mlp_bias);
        assert_eq!((s.n_kv_head, s.head_dim, s.rope_theta), (2, 64, 1e6));
        assert_eq!(c.eos_token_ids, vec![151645]);
    }

    #[test]
    fn transformers_5_rope_parameters_give_the_base() {
        let c = parse_json(
            r#"{"model_type":"qwen2","hidden_size":32,"num_attention_heads":4,
                "num_key_value_heads":1,"vocab_size":100,"eos_token_id":[7, 9],
                "rope_parameters":{"rope_theta":1000000.0,"rope_type":"default"}}"#,
        )
        .unwrap();
        assert_eq!(shape(&c).rope_theta, 1e6);
        // No bos: an empty prompt starts from the first eos.
        assert_eq!((c.bos_token_id, c.eos_token_ids), (7, vec![7, 9]));
    }

    #[test]
    fn refuses_what_it_does_not_implement_by_name() {
        for (json, says) in [
            (
                r#"{"model_type":"llama","rope_scaling":{"rope_type":"llama3","factor":8.0}}"#,
                "rope scaling `llama3`",
            ),
            (
                r#"{"model_type":"llama","rope_parameters":{"rope_type":"yarn","rope_theta":1e4}}"#,
                "rope scaling `yarn`",
            ),
            (
                r#"{"model_type":"qwen2","use_sliding_window":true}"#,
                "sliding-window",
            ),
            (r#"{"model_type":"llama","hidden_act":"gelu"}"#, "`gelu`"),
            (
                r#"{"model_type":"llama","num_attention_heads":6,"num_key_value_heads":4}"#,
                "not a multiple",
            ),
            (
                r#"{"model_type":"llama","vocab_size":10,"eos_token_id":12}"#,
                "outside the vocabulary",
            ),
            (
                r#"{"model_type":"llama","eos_token_id":"two"}"#,
                "token id or a list",
            ),
        ] {
            let e = parse_json(json).unwrap_err();
            assert!(e.to_string().contains(says), "{json}: {e}");
        }
    }
}
