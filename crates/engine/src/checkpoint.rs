//! Reads `model.safetensors`: HF key layouts with or without the
//! `transformer.` prefix, F32/F16/BF16 storage (computed in f32; in wasm the
//! big matrices stay 16-bit and are widened in the kernel), every shape
//! checked against the config with a message naming the tensor.
//!
//! The file is read tensor by tensor from a [`WeightSource`], so the page's
//! worker never holds the whole file in wasm memory beside the f32 weights:
//! peak memory stays near one copy of the weights.

use crate::error::LoadError;
use crate::model_config::{Architecture, ModelConfig};
use candle_core::{Device, Tensor};
use std::collections::HashMap;

/// Where the checkpoint's bytes are: a slice natively, a JS buffer in the worker.
pub trait WeightSource {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copies `out.len()` bytes starting at `offset` (always within `len`).
    fn read(&self, offset: usize, out: &mut [u8]);
}

impl WeightSource for &[u8] {
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
    fn read(&self, offset: usize, out: &mut [u8]) {
        out.copy_from_slice(&self[offset..offset + out.len()]);
    }
}

/// A tensor's elements as the file stores them (F16/BF16 kept 16-bit): the
/// wasm kernel's panels keep them so.
#[cfg(target_arch = "wasm32")]
pub enum Stored {
    F32(Vec<f32>),
    F16(Vec<half::f16>),
    BF16(Vec<half::bf16>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Storage {
    F32,
    F16,
    BF16,
}

struct Entry {
    storage: Storage,
    shape: Vec<usize>,
    /// Which file of a sharded checkpoint holds it.
    shard: usize,
    /// Absolute byte offset in that file.
    start: usize,
}

pub struct Checkpoint<'a> {
    sources: Vec<&'a dyn WeightSource>,
    tensors: HashMap<String, Entry>,
    pub storage_dtype: String,
}

fn err(m: impl Into<String>) -> LoadError {
    LoadError::weights(m)
}

fn weights(key: &str, e: candle_core::Error) -> LoadError {
    LoadError::Weights {
        message: format!("tensor `{key}`: {e}"),
        source: Some(e),
    }
}

/// Bytes per element of every safetensors dtype (to check sizes, even of
/// tensors we skip); `None` for a name safetensors does not define.
fn element_size(dtype: &str) -> Option<usize> {
    Some(match dtype {
        "F64" | "I64" | "U64" | "C64" => 8,
        "F32" | "I32" | "U32" => 4,
        "F16" | "BF16" | "I16" | "U16" => 2,
        "I8" | "U8" | "BOOL" | "F8_E5M2" | "F8_E4M3" | "F8_E8M0" => 1,
        _ => return None,
    })
}

/// HF buffers that are not weights (the causal mask GPT-2 used to store).
fn is_buffer(key: &str) -> bool {
    key.ends_with(".attn.bias") || key.ends_with(".attn.masked_bias")
}

impl<'a> Checkpoint<'a> {
    /// Reads and checks the headers; tensors are read later, one by one, by
    /// `take`. Usually one file; or a checkpoint split into files (`model-0000i-of-0000n.safetensors`, as
    /// the hub's larger GPT-2s ship): each header checked, the tensors of all
    /// of them as one checkpoint.
    pub fn parse_shards(sources: &[&'a dyn WeightSource]) -> Result<Checkpoint<'a>, LoadError> {
        let mut tensors = HashMap::new();
        let mut dtypes = std::collections::BTreeSet::new();
        let n = sources.len();
        for (shard, source) in sources.iter().enumerate() {
            let in_shard = |e: LoadError| match e {
                LoadError::Weights { message, source } if n > 1 => LoadError::Weights {
                    message: format!("shard {} of {n} {message}", shard + 1),
                    source,
                },
                e => e,
            };
            for (key, dtype, entry) in Checkpoint::parse_one(*source, shard).map_err(in_shard)? {
                dtypes.insert(dtype);
                if tensors.insert(key.clone(), entry).is_some() {
                    return Err(err(format!(
                        "tensor `{key}` is in two shards; the shards do not belong together"
                    )));
                }
            }
        }
        Ok(Checkpoint {
            sources: sources.to_vec(),
            tensors,
            storage_dtype: dtypes.into_iter().collect::<Vec<_>>().join("+"),
        })
    }

    /// One file's header: its tensors' keys, dtypes and places.
    // Walked here, not by the `safetensors` crate: its `read_metadata` takes
    // the whole file as one slice (in the worker the file stays in JS
    // buffers; a copy of distilgpt2 is 353 MB of wasm memory that never
    // shrinks), and its `Metadata` names no tensor when a shape and its
    // offsets disagree, where the loading tests pin the tensor's name.
    fn parse_one(
        source: &dyn WeightSource,
        shard: usize,
    ) -> Result<Vec<(String, String, Entry)>, LoadError> {
        let len = source.len();
        if len < 8 {
            return Err(err(format!(
                "is {len} bytes long; a safetensors file starts with an 8-byte header length"
            )));
        }
        let mut n8 = [0u8; 8];
        source.read(0, &mut n8);
        let n = u64::from_le_bytes(n8);
        if n > 100_000_000 {
            return Err(err(format!(
                "declares a {n}-byte header; this is not a safetensors file (or it is corrupt)"
            )));
        }
        let n = n as usize;
        if len < 8 + n {
            return Err(err(format!(
                "is truncated: its header needs {} bytes but the file has {len}",
                8 + n
            )));
        }
        let mut header = vec![0u8; n];
        source.read(8, &mut header);
        let not_safetensors = || {
            err("does not start with a safetensors JSON header; is it really a .safetensors file?")
        };
        let header: serde_json::Value =
            serde_json::from_slice(&header).map_err(|_| not_safetensors())?;
        let entries = header.as_object().ok_or_else(not_safetensors)?;
        let data_start = 8 + n;
        let have = (len - data_start) as u64;
        let mut parsed = Vec::with_capacity(entries.len());
        let mut need = 0u64;
        for (name, t) in entries {
            if name == "__metadata__" {
                continue;
            }
            let bad = |why: &str| {
                err(format!(
                    "is not a valid safetensors file (tensor `{name}`: {why})"
                ))
            };
            let dtype = t
                .get("dtype")
                .and_then(|d| d.as_str())
                .ok_or_else(|| bad("no dtype"))?;
            let size =
                element_size(dtype).ok_or_else(|| bad(&format!("unknown dtype {dtype}")))? as u64;
            let shape: Vec<usize> = t
                .get("shape")
                .and_then(|s| s.as_array())
                .and_then(|a| {
                    a.iter()
                        .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| bad("no shape"))?;
            let offsets = t
                .get("data_offsets")
                .and_then(|o| o.as_array())
                .filter(|o| o.len() == 2)
                .ok_or_else(|| bad("no data_offsets"))?;
            let (begin, end) = match (offsets[0].as_u64(), offsets[1].as_u64()) {
                (Some(b), Some(e)) if b <= e => (b, e),
                _ => return Err(bad("data_offsets out of order")),
            };
            let bytes = shape
                .iter()
                .try_fold(size, |acc, &d| acc.checked_mul(d as u64))
                .ok_or_else(|| bad("shape too large"))?;
            if end - begin != bytes {
                return Err(bad(&format!(
                    "its shape {shape:?} needs {bytes} bytes but its offsets span {}",
                    end - begin
                )));
            }
            need = need.max(end);
            parsed.push((name.clone(), dtype.to_string(), shape, begin));
        }
        if need > have {
            return Err(err(format!(
                "is truncated: its tensors need {need} bytes of data but only {have} arrived \
                 (an interrupted download?)"
            )));
        }
        let mut tensors = Vec::with_capacity(parsed.len());
        for (name, dtype, shape, begin) in parsed {
            let key = name
                .strip_prefix("transformer.")
                .unwrap_or(&name)
                .to_string();
            if is_buffer(&key) {
                continue;
            }
            let storage = match dtype.as_str() {
                "F32" => Storage::F32,
                "F16" => Storage::F16,
                "BF16" => Storage::BF16,
                other => {
                    return Err(err(format!(
                    "tensor `{name}` is stored as {other}; only F32, F16 and BF16 are supported"
                )))
                }
            };
            let entry = Entry {
                storage,
                shape,
                shard,
                start: data_start + begin as usize,
            };
            tensors.push((key, dtype, entry));
        }
        Ok(tensors)
    }

    /// One tensor's values in f32, read straight into their final buffer (F32)
    /// or widened from 16 bits a block at a time (F16/BF16).
    fn read_f32(&self, e: &Entry) -> Vec<f32> {
        let n: usize = e.shape.iter().product();
        let mut v = vec![0f32; n];
        self.read_f32_into(e, 0, &mut v);
        v
    }

    /// Elements `from..from + out.len()` of the tensor, in f32.
    fn read_f32_into(&self, e: &Entry, from: usize, out: &mut [f32]) {
        let source = self.sources[e.shard];
        match e.storage {
            Storage::F32 => {
                source.read(e.start + from * 4, bytemuck::cast_slice_mut(out));
                if cfg!(target_endian = "big") {
                    out.iter_mut()
                        .for_each(|x| *x = f32::from_le_bytes(x.to_ne_bytes()));
                }
            }
            Storage::F16 | Storage::BF16 => {
                // Widened a block at a time through one small buffer. A
                // whole-tensor 16-bit copy beside the f32 one raised the
                // load's peak, and after a model switch it took part of the
                // hole the old model left, so the new f32 tensor did not fit
                // and wasm memory (which never shrinks) grew by a model.
                const BLOCK: usize = 1 << 16;
                let mut h = vec![0u16; BLOCK.min(out.len())];
                let widen = |x: u16| {
                    let x = u16::from_le_bytes(x.to_ne_bytes());
                    match e.storage {
                        Storage::F16 => half::f16::from_bits(x).to_f32(),
                        _ => half::bf16::from_bits(x).to_f32(),
                    }
                };
                for (i, out) in out.chunks_mut(BLOCK).enumerate() {
                    let h = &mut h[..out.len()];
                    source.read(
                        e.start + (from + i * BLOCK) * 2,
                        bytemuck::cast_slice_mut(h),
                    );
                    for (o, &x) in out.iter_mut().zip(h.iter()) {
                        *o = widen(x);
                    }
                }
            }
        }
    }

    /// One tensor's 16-bit values as stored (`T`: `half::f16` or
    /// `half::bf16`), read straight into their final buffer.
    #[cfg(target_arch = "wasm32")]
    fn read_16<T: bytemuck::Pod + Default>(&self, e: &Entry) -> Vec<T> {
        let n: usize = e.shape.iter().product();
        let mut v = vec![T::default(); n];
        self.sources[e.shard].read(e.start, bytemuck::cast_slice_mut(&mut v));
        if cfg!(target_endian = "big") {
            let bits: &mut [u16] = bytemuck::cast_slice_mut(&mut v);
            bits.iter_mut()
                .for_each(|x| *x = u16::from_le_bytes(x.to_ne_bytes()));
        }
        v
    }

    /// Takes a tensor by its key without prefix, checking its shape, in f32.
    pub fn take(
        &mut self,
        key: &str,
        shape: &[usize],
        cfg_hint: &str,
    ) -> Result<Tensor, LoadError> {
        let entry = self.entry(key, shape, cfg_hint)?;
        Tensor::from_vec(self.read_f32(&entry), shape, &Device::Cpu).map_err(|e| weights(key, e))
    }

    /// Takes a `[rows, width]` tensor a few rows at a time, in f32: `each`
    /// gets the first row's index and the rows, so a large table (an
    /// embedding) is never widened whole.
    pub fn take_rows(
        &mut self,
        key: &str,
        [rows, width]: [usize; 2],
        cfg_hint: &str,
        chunk_rows: usize,
        mut each: impl FnMut(usize, &[f32]) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        let entry = self.entry(key, &[rows, width], cfg_hint)?;
        let chunk_rows = chunk_rows.max(1);
        let mut buf = vec![0f32; chunk_rows.min(rows) * width];
        for first in (0..rows).step_by(chunk_rows) {
            let n = chunk_rows.min(rows - first);
            let buf = &mut buf[..n * width];
            self.read_f32_into(&entry, first * width, buf);
            each(first, buf)?;
        }
        Ok(())
    }

    /// Like [`Checkpoint::take`], but an F16 or BF16 tensor stays 16-bit,
    /// and the elements come back as a vector to rearrange in place: the big
    /// matrices, which the small-batch kernel packs and widens as it reads
    /// them (exactly: every 16-bit value is an f32).
    #[cfg(target_arch = "wasm32")]
    pub fn take_stored(
        &mut self,
        key: &str,
        shape: &[usize],
        cfg_hint: &str,
    ) -> Result<Stored, LoadError> {
        let entry = self.entry(key, shape, cfg_hint)?;
        Ok(match entry.storage {
            Storage::F32 => Stored::F32(self.read_f32(&entry)),
            Storage::F16 => Stored::F16(self.read_16(&entry)),
            Storage::BF16 => Stored::BF16(self.read_16(&entry)),
        })
    }

    /// Removes a tensor's entry by its key without prefix, checking its shape.
    fn entry(&mut self, key: &str, shape: &[usize], cfg_hint: &str) -> Result<Entry, LoadError> {
        let entry = self.tensors.remove(key).ok_or_else(|| {
            err(format!(
                "has no tensor `{key}`{}; does this checkpoint belong with config.json?",
                if key.starts_with("model.") || key == "lm_head.weight" {
                    String::new()
                } else {
                    format!(" (nor `transformer.{key}`)")
                }
            ))
        })?;
        if entry.shape != shape {
            return Err(err(format!(
                "tensor `{key}` has shape {:?}, but config.json ({cfg_hint}) needs {shape:?}",
                entry.shape
            )));
        }
        Ok(entry)
    }

    pub fn hint(cfg: &ModelConfig) -> String {
        match cfg.architecture {
            Architecture::Gpt2 => format!(
                "n_embd={}, n_layer={}, vocab_size={}, n_positions={}",
                cfg.n_embd, cfg.n_layer, cfg.vocab_size, cfg.n_positions
            ),
            Architecture::MiniGpt => format!(
                "embed_dim={}, num_layers={}, num_heads={}, vocab_size={}, block_size={}",
                cfg.n_embd, cfg.n_layer, cfg.n_head, cfg.vocab_size, cfg.n_positions
            ),
            _ => format!(
                "hidden_size={}, num_hidden_layers={}, num_attention_heads={}, vocab_size={}",
                cfg.n_embd, cfg.n_layer, cfg.n_head, cfg.vocab_size
            ),
        }
    }
}
