//! Reads `model.safetensors` from bytes: HF key layouts with or without the
//! `transformer.` prefix, F32/F16/BF16 storage (computed in f32), every shape
//! checked against the config with a message naming the tensor.

use crate::error::LoadError;
use crate::model_config::ModelConfig;
use candle_core::{Device, Tensor};
use safetensors::{Dtype, SafeTensors};
use std::collections::HashMap;

pub struct Checkpoint {
    tensors: HashMap<String, (Vec<usize>, Vec<f32>)>,
    pub storage_dtype: String,
}

fn err(m: impl Into<String>) -> LoadError {
    LoadError::Weights(m.into())
}

/// Says "truncated" when the header promises more bytes than the file has — the
/// usual result of a cut-off download — before safetensors' own checks run.
fn check_truncation(bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() < 8 {
        return Err(err(format!("is {} bytes long; a safetensors file starts with an 8-byte header length", bytes.len())));
    }
    let n = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    if n > 100_000_000 {
        return Err(err(format!("declares a {n}-byte header; this is not a safetensors file (or it is corrupt)")));
    }
    let n = n as usize;
    if bytes.len() < 8 + n {
        return Err(err(format!("is truncated: its header needs {} bytes but the file has {}", 8 + n, bytes.len())));
    }
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n])
        .map_err(|_| err("does not start with a safetensors JSON header; is it really a .safetensors file?"))?;
    let end = header
        .as_object()
        .map(|o| {
            o.values()
                .filter_map(|t| t.get("data_offsets")?.as_array()?.get(1)?.as_u64())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0);
    let have = (bytes.len() - 8 - n) as u64;
    if end > have {
        return Err(err(format!(
            "is truncated: its tensors need {} bytes of data but only {have} arrived (an interrupted download?)",
            end
        )));
    }
    Ok(())
}

fn to_f32(dtype: Dtype, data: &[u8], name: &str) -> Result<Vec<f32>, LoadError> {
    Ok(match dtype {
        Dtype::F32 => data.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
        Dtype::F16 => data.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
        Dtype::BF16 => data.chunks_exact(2).map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
        other => return Err(err(format!("tensor `{name}` is stored as {other:?}; only F32, F16 and BF16 are supported"))),
    })
}

/// HF buffers that are not weights (the causal mask GPT-2 used to store).
fn is_buffer(key: &str) -> bool {
    key.ends_with(".attn.bias") || key.ends_with(".attn.masked_bias")
}

impl Checkpoint {
    pub fn parse(bytes: &[u8]) -> Result<Checkpoint, LoadError> {
        check_truncation(bytes)?;
        let st = SafeTensors::deserialize(bytes).map_err(|e| err(format!("is not a valid safetensors file ({e})")))?;
        let mut tensors = HashMap::new();
        let mut dtypes = std::collections::BTreeSet::new();
        for (name, view) in st.tensors() {
            let key = name.strip_prefix("transformer.").unwrap_or(&name).to_string();
            if is_buffer(&key) || key == "lm_head.weight" {
                continue; // lm_head is tied to wte in GPT-2
            }
            dtypes.insert(format!("{:?}", view.dtype()));
            let data = to_f32(view.dtype(), view.data(), &name)?;
            tensors.insert(key, (view.shape().to_vec(), data));
        }
        Ok(Checkpoint { tensors, storage_dtype: dtypes.into_iter().collect::<Vec<_>>().join("+") })
    }

    /// Takes a tensor by its key without prefix, checking its shape.
    pub fn take(&mut self, key: &str, shape: &[usize], cfg_hint: &str) -> Result<Tensor, LoadError> {
        let (have, data) = self.tensors.remove(key).ok_or_else(|| {
            err(format!("has no tensor `{key}` (nor `transformer.{key}`); is this a GPT-2 checkpoint that matches config.json?"))
        })?;
        if have != shape {
            return Err(err(format!("tensor `{key}` has shape {have:?}, but config.json ({cfg_hint}) needs {shape:?}")));
        }
        Tensor::from_vec(data, shape, &Device::Cpu).map_err(|e| err(format!("tensor `{key}`: {e}")))
    }

    pub fn hint(cfg: &ModelConfig) -> String {
        format!("n_embd={}, n_layer={}, vocab_size={}, n_positions={}", cfg.n_embd, cfg.n_layer, cfg.vocab_size, cfg.n_positions)
    }
}
