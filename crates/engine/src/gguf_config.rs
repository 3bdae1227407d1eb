//! A GGUF file's metadata as the `config.json` HF would have written for the
//! same model, so one parser checks every model's sizes and refuses what the
//! engine does not implement by the same names: llama.cpp's keys
//! (`{arch}.embedding_length`, `{arch}.attention.head_count_kv`, …) mapped
//! to HF's for the three architectures the page runs.

use crate::error::LoadError;
use candle_core::quantized::gguf_file::{Content, Value};
use serde_json::{json, Map, Value as Json};

/// The architectures whose GGUF files this engine reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GgufArch {
    Gpt2,
    Llama,
    Qwen2,
}

impl GgufArch {
    pub fn of(content: &Content) -> Result<GgufArch, LoadError> {
        let arch = match content.metadata.get("general.architecture") {
            Some(Value::String(s)) => s.as_str(),
            _ => {
                return Err(LoadError::gguf(
                    "has no `general.architecture`; is it a model file llama.cpp wrote?",
                ))
            }
        };
        Ok(match arch {
            "gpt2" => GgufArch::Gpt2,
            "llama" => GgufArch::Llama,
            "qwen2" => GgufArch::Qwen2,
            other => {
                return Err(LoadError::gguf(format!(
                    "holds a `{other}` model; this engine runs GGUF files of the gpt2, llama \
                     (SmolLM2) and qwen2 (Qwen2.5) architectures"
                )))
            }
        })
    }

    fn key(self) -> &'static str {
        match self {
            GgufArch::Gpt2 => "gpt2",
            GgufArch::Llama => "llama",
            GgufArch::Qwen2 => "qwen2",
        }
    }
}

/// A whole number from the metadata (GGUF writers differ in integer widths).
fn whole(v: &Value) -> Option<i64> {
    Some(match v {
        Value::U8(x) => *x as i64,
        Value::I8(x) => *x as i64,
        Value::U16(x) => *x as i64,
        Value::I16(x) => *x as i64,
        Value::U32(x) => *x as i64,
        Value::I32(x) => *x as i64,
        Value::U64(x) => i64::try_from(*x).ok()?,
        Value::I64(x) => *x,
        _ => return None,
    })
}

fn real(v: &Value) -> Option<f64> {
    match v {
        Value::F32(x) => Some(*x as f64),
        Value::F64(x) => Some(*x),
        v => whole(v).map(|x| x as f64),
    }
}

/// `config.json`'s value for the file: `vocab_size` from the token
/// embedding's rows (what the weights need), `tie_word_embeddings` from
/// whether the file has an `output.weight`.
pub(crate) fn hf_config(
    content: &Content,
    arch: GgufArch,
    vocab_size: usize,
) -> Result<Json, LoadError> {
    let a = arch.key();
    let get = |key: &str| content.metadata.get(&format!("{a}.{key}"));
    let int = |key: &str| -> Result<Option<i64>, LoadError> {
        get(key)
            .map(|v| {
                whole(v).ok_or_else(|| {
                    LoadError::gguf(format!("`{a}.{key}` is {v:?}; it must be a whole number"))
                })
            })
            .transpose()
    };
    let float = |key: &str| -> Result<Option<f64>, LoadError> {
        get(key)
            .map(|v| {
                real(v).ok_or_else(|| {
                    LoadError::gguf(format!("`{a}.{key}` is {v:?}; it must be a number"))
                })
            })
            .transpose()
    };
    let need = |key: &str| -> Result<i64, LoadError> {
        int(key)?.ok_or_else(|| LoadError::gguf(format!("has no `{a}.{key}` in its metadata")))
    };
    let token = |key: &str| -> Result<Option<i64>, LoadError> {
        content
            .metadata
            .get(&format!("tokenizer.ggml.{key}"))
            .map(|v| {
                whole(v).ok_or_else(|| {
                    LoadError::gguf(format!(
                        "`tokenizer.ggml.{key}` is {v:?}; it must be a token id"
                    ))
                })
            })
            .transpose()
    };
    let mut c = Map::new();
    let mut put = |k: &str, v: Json| {
        c.insert(k.into(), v);
    };
    let (bos, eos) = (token("bos_token_id")?, token("eos_token_id")?);
    match arch {
        GgufArch::Gpt2 => {
            let d = need("embedding_length")?;
            put("model_type", json!("gpt2"));
            put("n_embd", json!(d));
            put("n_layer", json!(need("block_count")?));
            put("n_head", json!(need("attention.head_count")?));
            put("n_positions", json!(need("context_length")?));
            put("vocab_size", json!(vocab_size));
            if let Some(eps) = float("attention.layer_norm_epsilon")? {
                put("layer_norm_epsilon", json!(eps));
            }
            if let Some(ff) = int("feed_forward_length")?.filter(|&ff| ff != 4 * d) {
                put("n_inner", json!(ff));
            }
            put("activation_function", json!("gelu_new"));
        }
        GgufArch::Llama | GgufArch::Qwen2 => {
            put("model_type", json!(a));
            put("hidden_size", json!(need("embedding_length")?));
            put("intermediate_size", json!(need("feed_forward_length")?));
            put("num_hidden_layers", json!(need("block_count")?));
            let heads = need("attention.head_count")?;
            put("num_attention_heads", json!(heads));
            put(
                "num_key_value_heads",
                json!(int("attention.head_count_kv")?.unwrap_or(heads)),
            );
            if let Some(hd) = int("attention.key_length")? {
                put("head_dim", json!(hd));
            }
            put("max_position_embeddings", json!(need("context_length")?));
            put("vocab_size", json!(vocab_size));
            if let Some(eps) = float("attention.layer_norm_rms_epsilon")? {
                put("rms_norm_eps", json!(eps));
            }
            put(
                "rope_theta",
                json!(float("rope.freq_base")?.unwrap_or(10000.0)),
            );
            // Rope scaling is refused by the config's own reader, by name.
            if let Some(Value::String(t)) = get("rope.scaling.type") {
                if t != "none" {
                    put("rope_scaling", json!({ "rope_type": t }));
                }
            }
            put(
                "tie_word_embeddings",
                json!(!content.tensor_infos.contains_key("output.weight")),
            );
            if arch == GgufArch::Llama {
                put(
                    "attention_bias",
                    json!(content.tensor_infos.contains_key("blk.0.attn_q.bias")),
                );
            }
            put("hidden_act", json!("silu"));
        }
    }
    if let Some(bos) = bos {
        c.insert("bos_token_id".into(), json!(bos));
    }
    if let Some(eos) = eos {
        c.insert("eos_token_id".into(), json!(eos));
    }
    Ok(Json::Object(c))
}
