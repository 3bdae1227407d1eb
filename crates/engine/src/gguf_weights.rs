//! A `.gguf` file's tensors under the names the families' loaders ask for
//! (HF's): llama.cpp's names mapped back (`blk.3.attn_q.weight` is
//! `model.layers.3.self_attn.q_proj.weight`), llama's query and key rows put
//! back in HF's order (llama.cpp's converter interleaves each head's halves
//! for its rotary layout), quantized matrices kept in their block format
//! and F32/F16/BF16 ones read as a safetensors file's are.
//!
//! The header is read with `candle_core`'s GGUF reader, which bounds every
//! count and length by the file's size before allocating; tensors are read
//! one by one from a [`WeightSource`], as safetensors files are, so the page's
//! worker never holds the file and the weights in wasm memory at once.

use crate::checkpoint::WeightSource;
use crate::error::LoadError;
use crate::gguf_config::GgufArch;
use crate::matmul::{Layout, Matrix};
use crate::quantized_matrix::QuantizedMatrix;
use crate::weights::Weights;
use candle_core::quantized::ggml_file::qtensor_from_ggml;
use candle_core::quantized::gguf_file::Content;
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};

/// A [`WeightSource`] as a reader for candle's header parser.
struct SourceReader<'a> {
    source: &'a dyn WeightSource,
    pos: u64,
}

impl Read for SourceReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let len = self.source.len() as u64;
        let n = (len.saturating_sub(self.pos)).min(buf.len() as u64) as usize;
        self.source.read(self.pos as usize, &mut buf[..n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for SourceReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let len = self.source.len() as i128;
        let pos = match to {
            SeekFrom::Start(o) => o as i128,
            SeekFrom::End(d) => len + d as i128,
            SeekFrom::Current(d) => self.pos as i128 + d as i128,
        };
        if pos < 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before the start of the file",
            ));
        }
        self.pos = pos as u64;
        Ok(self.pos)
    }
}

/// ggml's block formats that candle cannot run, by their numbers in the
/// file, so a refusal names the one the user downloaded.
fn unrunnable_type(n: u32) -> Option<&'static str> {
    Some(match n {
        16 => "IQ2_XXS",
        17 => "IQ2_XS",
        18 => "IQ3_XXS",
        19 => "IQ1_S",
        20 => "IQ4_NL",
        21 => "IQ3_S",
        22 => "IQ2_S",
        23 => "IQ4_XS",
        24 => "I8",
        25 => "I16",
        26 => "I32",
        27 => "I64",
        28 => "F64",
        29 => "IQ1_M",
        34 => "TQ1_0",
        35 => "TQ2_0",
        39 => "MXFP4",
        _ => return None,
    })
}

/// The block formats this engine runs, for messages.
pub const RUNNABLE: &str = "F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K \
                            and Q6_K (the files named Q8_0, Q4_0, Q4_K_M, Q5_K_M, Q6_K…)";

fn gguf_err(message: String, source: candle_core::Error) -> LoadError {
    LoadError::Gguf {
        message,
        source: Some(source),
    }
}

/// llama.cpp's name for the tensor HF calls `key` (without a `transformer.`
/// prefix): GPT-2's and the Llama family's.
pub(crate) fn gguf_name(key: &str) -> Option<String> {
    let (stem, suffix) = key.rsplit_once('.')?;
    let fixed = match stem {
        "wte" | "model.embed_tokens" => Some("token_embd"),
        "wpe" => Some("position_embd"),
        "ln_f" | "model.norm" => Some("output_norm"),
        "lm_head" => Some("output"),
        _ => None,
    };
    if let Some(name) = fixed {
        return Some(format!("{name}.{suffix}"));
    }
    let (layer, part) = stem
        .strip_prefix("h.")
        .or_else(|| stem.strip_prefix("model.layers."))?
        .split_once('.')?;
    let layer: usize = layer.parse().ok()?;
    let part = match part {
        "ln_1" | "input_layernorm" => "attn_norm",
        "attn.c_attn" => "attn_qkv",
        "attn.c_proj" | "self_attn.o_proj" => "attn_output",
        "ln_2" | "post_attention_layernorm" => "ffn_norm",
        "mlp.c_fc" | "mlp.up_proj" => "ffn_up",
        "mlp.c_proj" | "mlp.down_proj" => "ffn_down",
        "mlp.gate_proj" => "ffn_gate",
        "self_attn.q_proj" => "attn_q",
        "self_attn.k_proj" => "attn_k",
        "self_attn.v_proj" => "attn_v",
        _ => return None,
    };
    Some(format!("blk.{layer}.{part}.{suffix}"))
}

pub(crate) struct GgufWeights<'a> {
    reader: SourceReader<'a>,
    pub content: Content,
    pub arch: GgufArch,
    /// Query and key heads, whose rows llama's converter interleaved.
    heads: (usize, usize),
}

impl<'a> GgufWeights<'a> {
    /// Reads and checks the header; tensors are read later, one by one.
    pub fn parse(source: &'a dyn WeightSource) -> Result<GgufWeights<'a>, LoadError> {
        let len = source.len();
        if len < 4 {
            return Err(LoadError::gguf(format!(
                "is {len} bytes long; a GGUF file starts with the 4 bytes `GGUF`"
            )));
        }
        let mut magic = [0u8; 4];
        source.read(0, &mut magic);
        if &magic != b"GGUF" {
            return Err(LoadError::gguf(
                "does not start with `GGUF`; is it really a .gguf file (and not, say, a \
                 safetensors file or a web page saying the download failed)?",
            ));
        }
        let mut reader = SourceReader { source, pos: 0 };
        let content = Content::read(&mut reader).map_err(|e| {
            // Its first line: candle may add a backtrace below.
            let text = e.to_string().lines().next().unwrap_or_default().to_string();
            // candle names a format it does not know by its number.
            let unknown = text
                .rsplit_once("unknown dtype for tensor ")
                .and_then(|(_, n)| n.trim().parse::<u32>().ok());
            let message = match unknown {
                Some(n) => match unrunnable_type(n) {
                    Some(name) => format!(
                        "stores tensors as {name}, which this engine cannot run; download the \
                         model in one of {RUNNABLE}"
                    ),
                    None => format!(
                        "stores tensors in ggml type {n}, which this engine does not know; \
                         download the model in one of {RUNNABLE}"
                    ),
                },
                None if text.contains("failed to fill whole buffer") => format!(
                    "is truncated: it ends inside its own header ({len} bytes arrived); the \
                     download was cut short: download it again"
                ),
                None => format!(
                    "cannot be read ({text}); it may be cut short or corrupt: download it again"
                ),
            };
            gguf_err(message, e)
        })?;
        check_extents(&content, len as u64)?;
        let arch = GgufArch::of(&content)?;
        Ok(GgufWeights {
            reader,
            content,
            arch,
            heads: (0, 0),
        })
    }

    /// Drops the vocabulary's lists from the metadata (a 50k vocabulary's
    /// tokens, merges and token types are some 8 MB as parsed values),
    /// once the tokenizer has been read from them or is not wanted.
    pub fn forget_tokenizer_lists(&mut self) {
        for key in ["tokens", "merges", "token_type", "scores"] {
            self.content
                .metadata
                .remove(&format!("tokenizer.ggml.{key}"));
        }
    }

    /// Rows of the token embedding: the vocabulary the weights are for.
    pub fn vocab_rows(&self) -> Result<usize, LoadError> {
        let info = self
            .content
            .tensor_infos
            .get("token_embd.weight")
            .ok_or_else(|| LoadError::gguf("has no `token_embd.weight`"))?;
        match info.shape.dims() {
            [rows, _] => Ok(*rows),
            dims => Err(LoadError::gguf(format!(
                "`token_embd.weight` has shape {dims:?}; it must be a matrix"
            ))),
        }
    }

    /// The counts llama's query and key rows are grouped by.
    pub fn set_heads(&mut self, n_head: usize, n_kv_head: usize) {
        self.heads = (n_head, n_kv_head);
    }

    /// What the model line says of the weights: llama.cpp's name for the
    /// file's mix where it gives one (`general.file_type`), else the block
    /// formats its matrices use.
    pub fn describe(&self) -> String {
        use candle_core::quantized::gguf_file::Value;
        let named = match self.content.metadata.get("general.file_type") {
            Some(Value::U32(n)) => file_type_name(*n),
            Some(Value::I32(n)) => u32::try_from(*n).ok().and_then(file_type_name),
            _ => None,
        };
        match named {
            Some(name) => format!("GGUF {name}"),
            None => {
                let mut bytes: BTreeMap<String, u64> = BTreeMap::new();
                for info in self.content.tensor_infos.values() {
                    if info.shape.rank() == 2 {
                        *bytes.entry(format!("{:?}", info.ggml_dtype)).or_default() +=
                            byte_size(info.ggml_dtype, info.shape.dims()).unwrap_or(0) as u64;
                    }
                }
                let mut types: Vec<(String, u64)> = bytes.into_iter().collect();
                types.sort_by_key(|t| std::cmp::Reverse(t.1));
                let names: Vec<String> = types.into_iter().map(|(t, _)| t).collect();
                format!("GGUF {}", names.join("+"))
            }
        }
    }

    /// Where the tensor HF calls `key` lies in the file, its shape checked
    /// against `shape` (llama.cpp's order: outputs, then inputs).
    fn locate(&mut self, key: &str, shape: &[usize], hint: &str) -> Result<Located, LoadError> {
        let name = gguf_name(key).ok_or_else(|| {
            LoadError::gguf(format!(
                "has no name for `{key}` (an engine fault: report it)"
            ))
        })?;
        let info = self.content.tensor_infos.remove(&name).ok_or_else(|| {
            LoadError::gguf(format!(
                "has no tensor `{name}`; is it a complete {:?} model file?",
                self.arch
            ))
        })?;
        if info.shape.dims() != shape {
            return Err(LoadError::gguf(format!(
                "tensor `{name}` has shape {:?}, but its metadata ({hint}) needs {shape:?}",
                info.shape.dims()
            )));
        }
        let block = info.ggml_dtype.block_size();
        if shape.last().is_some_and(|k| k % block != 0) {
            return Err(LoadError::gguf(format!(
                "tensor `{name}` has rows of {} values, which do not split into {:?}'s blocks \
                 of {block}",
                shape.last().unwrap_or(&0),
                info.ggml_dtype
            )));
        }
        let bytes = byte_size(info.ggml_dtype, shape)
            .ok_or_else(|| LoadError::gguf(bad_shape(&name, shape)))?;
        let groups = self.interleaved_groups(key);
        let rows = shape.first().copied().unwrap_or(1);
        if groups.is_some_and(|g| !interleave_fits(rows, g)) {
            return Err(LoadError::gguf(format!(
                "tensor `{name}` has {rows} rows, which do not split into {} heads of two \
                 halves",
                groups.unwrap_or(0)
            )));
        }
        Ok(Located {
            start: (self.content.tensor_data_offset + info.offset) as usize,
            bytes,
            dtype: info.ggml_dtype,
            groups,
            name,
        })
    }

    /// The tensor's rows `rows` (in HF's order) into `dst`, end to end.
    fn read_rows(&self, at: &Located, rows: std::ops::Range<usize>, n: usize, dst: &mut [u8]) {
        let row_bytes = at.bytes / n.max(1);
        match at.groups {
            None => self
                .reader
                .source
                .read(at.start + rows.start * row_bytes, dst),
            Some(groups) => {
                for (i, row) in rows.enumerate() {
                    let from = llama_cpp_row(row, n, groups);
                    self.reader.source.read(
                        at.start + from * row_bytes,
                        &mut dst[i * row_bytes..(i + 1) * row_bytes],
                    );
                }
            }
        }
    }

    /// The raw blocks of the tensor HF calls `key`, in HF's row order.
    fn raw(
        &mut self,
        key: &str,
        shape: &[usize],
        hint: &str,
    ) -> Result<(String, GgmlDType, Vec<u8>), LoadError> {
        let at = self.locate(key, shape, hint)?;
        let raw = self.read_all(&at, shape.first().copied().unwrap_or(1));
        Ok((at.name, at.dtype, raw))
    }

    /// The tensor's `n` rows (in HF's order) as one buffer.
    fn read_all(&self, at: &Located, n: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; at.bytes];
        self.read_rows(at, 0..n, n, &mut bytes);
        bytes
    }

    /// Llama's query and key projections (and their biases), whose rows the
    /// converter interleaved, by heads.
    fn interleaved_groups(&self, key: &str) -> Option<usize> {
        if self.arch != GgufArch::Llama {
            return None;
        }
        if key.contains(".self_attn.q_proj.") {
            Some(self.heads.0)
        } else if key.contains(".self_attn.k_proj.") {
            Some(self.heads.1)
        } else {
            None
        }
    }

    fn qtensor(
        name: &str,
        dtype: GgmlDType,
        raw: &[u8],
        shape: &[usize],
    ) -> Result<QTensor, LoadError> {
        qtensor_from_ggml(dtype, raw, shape.to_vec(), &Device::Cpu)
            .map_err(|e| gguf_err(format!("tensor `{name}`: {e}"), e))
    }
}

/// Every tensor's bytes lie inside the file: a cut download is named
/// before any tensor is read.
fn check_extents(content: &Content, len: u64) -> Result<(), LoadError> {
    let mut need = 0u64;
    for (name, info) in &content.tensor_infos {
        let bytes = byte_size(info.ggml_dtype, info.shape.dims())
            .ok_or_else(|| LoadError::gguf(bad_shape(name, info.shape.dims())))?;
        let end = content
            .tensor_data_offset
            .checked_add(info.offset)
            .and_then(|s| s.checked_add(bytes as u64))
            .ok_or_else(|| LoadError::gguf(format!("tensor `{name}` lies past any file")))?;
        need = need.max(end);
    }
    if need > len {
        return Err(LoadError::gguf(format!(
            "is truncated: its tensors need {need} bytes but the file has {len} (an \
             interrupted download?)"
        )));
    }
    Ok(())
}

fn bad_shape(name: &str, dims: &[usize]) -> String {
    format!("tensor `{name}` has an impossible shape {dims:?}")
}

/// Bytes of a tensor of `dims` in `dtype`'s blocks; `None` on overflow.
fn byte_size(dtype: GgmlDType, dims: &[usize]) -> Option<usize> {
    let elems = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
    (elems / dtype.block_size()).checked_mul(dtype.type_size())
}

/// llama.cpp's `LLAMA_FTYPE_*` names (`general.file_type`).
fn file_type_name(n: u32) -> Option<&'static str> {
    Some(match n {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K_S",
        12 => "Q3_K_M",
        13 => "Q3_K_L",
        14 => "Q4_K_S",
        15 => "Q4_K_M",
        16 => "Q5_K_S",
        17 => "Q5_K_M",
        18 => "Q6_K",
        32 => "BF16",
        _ => return None,
    })
}

/// A tensor's place in the file.
struct Located {
    name: String,
    dtype: GgmlDType,
    start: usize,
    bytes: usize,
    /// Heads whose rows llama's converter interleaved, if any.
    groups: Option<usize>,
}

/// Whether `rows` split into `groups` heads of two halves.
fn interleave_fits(rows: usize, groups: usize) -> bool {
    groups > 0 && rows.is_multiple_of(groups) && (rows / groups).is_multiple_of(2)
}

/// Which of llama.cpp's rows is HF's row `row`: within each of `groups`
/// heads, the converter moved row `s·half + j` (half `s` of the rotary
/// pair, index `j`) to `2j + s`. Rows are whole blocks, so reading them in
/// this order is byte-exact in any format.
fn llama_cpp_row(row: usize, rows: usize, groups: usize) -> usize {
    let head = rows / groups;
    let half = head / 2;
    let (g, r) = (row / head, row % head);
    g * head + 2 * (r % half) + r / half
}

impl Weights for GgufWeights<'_> {
    fn take(&mut self, key: &str, shape: &[usize], hint: &str) -> Result<Tensor, LoadError> {
        let (name, dtype, raw) = self.raw(key, shape, hint)?;
        GgufWeights::qtensor(&name, dtype, &raw, shape)?
            .dequantize(&Device::Cpu)
            .map_err(|e| gguf_err(format!("tensor `{name}`: {e}"), e))
    }

    /// GGUF stores every matrix outputs-first (the converter transposed
    /// GPT-2's Conv1D weights), whatever `_layout` says of HF's file.
    fn take_matrix(
        &mut self,
        key: &str,
        _layout: Layout,
        [n, k]: [usize; 2],
        hint: &str,
    ) -> Result<Matrix, LoadError> {
        let at = self.locate(key, &[n, k], hint)?;
        match at.dtype {
            GgmlDType::F32 | GgmlDType::F16 | GgmlDType::BF16 => {
                float_matrix(&at.name, at.dtype, self.read_all(&at, n), n, k)
            }
            // Straight from the file into the kernels' blocks, one copy.
            dtype => QuantizedMatrix::read(dtype, n, k, |rows, dst| {
                self.read_rows(&at, rows, n, dst);
                Ok(())
            })
            .map_err(|e| gguf_err(format!("tensor `{}`: {e}", at.name), e))
            .map(Matrix::Quantized),
        }
    }

    fn has_gpt2_head(&self) -> bool {
        self.content.tensor_infos.contains_key("output.weight")
    }
}

/// An F32/F16/BF16 matrix as a safetensors file's is held: natively f32 for
/// candle's gemm, in wasm the kernel's panels in the stored type.
#[cfg(not(target_arch = "wasm32"))]
fn float_matrix(
    name: &str,
    dtype: GgmlDType,
    raw: Vec<u8>,
    n: usize,
    k: usize,
) -> Result<Matrix, LoadError> {
    let w = GgufWeights::qtensor(name, dtype, &raw, &[n, k])?;
    drop(raw);
    w.dequantize(&Device::Cpu)
        .map(Matrix::OutIn)
        .map_err(|e| gguf_err(format!("tensor `{name}`: {e}"), e))
}

#[cfg(target_arch = "wasm32")]
fn float_matrix(
    _name: &str,
    dtype: GgmlDType,
    raw: Vec<u8>,
    n: usize,
    k: usize,
) -> Result<Matrix, LoadError> {
    use crate::checkpoint::Stored;
    // Little-endian bytes into values (wasm is little-endian).
    fn cast<T: bytemuck::Pod>(raw: &[u8]) -> Vec<T> {
        let mut v = vec![T::zeroed(); raw.len() / std::mem::size_of::<T>()];
        bytemuck::cast_slice_mut(&mut v).copy_from_slice(raw);
        v
    }
    let stored = match dtype {
        GgmlDType::F16 => Stored::F16(cast(&raw)),
        GgmlDType::BF16 => Stored::BF16(cast(&raw)),
        _ => Stored::F32(cast(&raw)),
    };
    Ok(Matrix::packed(stored, Layout::OutIn, n, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hf_names_map_to_llama_cpp_names() {
        for (hf, gguf) in [
            ("wte.weight", "token_embd.weight"),
            ("wpe.weight", "position_embd.weight"),
            ("h.1.attn.c_attn.bias", "blk.1.attn_qkv.bias"),
            ("h.0.mlp.c_proj.weight", "blk.0.ffn_down.weight"),
            ("ln_f.bias", "output_norm.bias"),
            ("model.embed_tokens.weight", "token_embd.weight"),
            (
                "model.layers.11.self_attn.k_proj.weight",
                "blk.11.attn_k.weight",
            ),
            (
                "model.layers.0.post_attention_layernorm.weight",
                "blk.0.ffn_norm.weight",
            ),
            (
                "model.layers.2.mlp.gate_proj.weight",
                "blk.2.ffn_gate.weight",
            ),
            ("lm_head.weight", "output.weight"),
        ] {
            assert_eq!(gguf_name(hf).as_deref(), Some(gguf), "{hf}");
        }
        assert_eq!(gguf_name("model.layers.x.mlp.up_proj.weight"), None);
    }

    #[test]
    fn unpermuting_undoes_the_converters_interleave() {
        // Two heads of four rows, one byte per row: the converter's
        // `reshape(n_head, 2, half).swapaxes(1, 2)` sends HF row s·2+j to 2j+s.
        let hf: Vec<u8> = (0..8).collect();
        let mut converted = [0u8; 8];
        for g in 0..2 {
            for s in 0..2 {
                for j in 0..2 {
                    converted[g * 4 + 2 * j + s] = hf[g * 4 + s * 2 + j];
                }
            }
        }
        let read: Vec<u8> = (0..8)
            .map(|row| converted[llama_cpp_row(row, 8, 2)])
            .collect();
        assert_eq!(read, hf);
        assert!(interleave_fits(8, 2));
        assert!(
            !interleave_fits(8, 3),
            "three heads do not split eight rows"
        );
        assert!(
            !interleave_fits(6, 2),
            "heads of three rows have no two halves"
        );
    }

    #[test]
    fn a_file_that_is_not_gguf_is_named_so() {
        let bytes: &[u8] = b"{\"not\": \"gguf\"}";
        let e = GgufWeights::parse(&bytes).err().unwrap();
        assert!(e.to_string().contains("does not start with `GGUF`"), "{e}");
    }

    /// A header declaring one tensor of ggml type `dtype`.
    fn header_with_type(dtype: u32) -> Vec<u8> {
        let mut b = b"GGUF".to_vec();
        b.extend(3u32.to_le_bytes());
        b.extend(1u64.to_le_bytes()); // tensors
        b.extend(0u64.to_le_bytes()); // metadata
        let name = b"token_embd.weight";
        b.extend((name.len() as u64).to_le_bytes());
        b.extend(name);
        b.extend(2u32.to_le_bytes());
        b.extend(256u64.to_le_bytes());
        b.extend(4u64.to_le_bytes());
        b.extend(dtype.to_le_bytes());
        b.extend(0u64.to_le_bytes());
        b
    }

    #[test]
    fn an_iq_file_is_refused_by_its_type_s_name() {
        let bytes = header_with_type(19);
        let e = GgufWeights::parse(&bytes.as_slice()).err().unwrap();
        let text = e.to_string();
        assert!(text.contains("IQ1_S") && text.contains("Q4_K_M"), "{text}");
    }

    #[test]
    fn a_cut_file_is_named_before_any_tensor_is_read() {
        // Q8_0 (type 8): 4 rows of 256 need 1088 bytes that are not there.
        let bytes = header_with_type(8);
        let e = GgufWeights::parse(&bytes.as_slice()).err().unwrap();
        assert!(e.to_string().contains("truncated"), "{e}");
    }
}
