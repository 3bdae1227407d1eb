//! 8-bit at load: a safetensors checkpoint's weight matrices quantized to
//! Q8_0 blocks as they are read, so a full-precision repo runs from a quarter
//! of its f32 memory (and reads a quarter of the bytes per step) without a
//! GGUF file. Norms, biases and position tables stay f32, as llama.cpp's
//! quantizer leaves them; each matrix is widened to f32 alone before its
//! blocks are made, so the file is never held twice. candle's Q8_0 rounding is
//! llama.cpp's reference quantizer's (scale `amax / 127` stored as f16,
//! rounded half away from zero), so the weights equal those of llama.cpp's
//! Q8_0 file of the same checkpoint.

use crate::checkpoint::Checkpoint;
use crate::error::LoadError;
use crate::matmul::{Layout, Matrix};
use crate::quantized_matrix::QuantizedMatrix;
use crate::weights::Weights;
use candle_core::quantized::k_quants::{BlockQ8_0, GgmlType, QK8_0};
use candle_core::quantized::{QStorage, QTensor};
use candle_core::Tensor;

/// How the weight matrices of a safetensors checkpoint are kept in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    /// As the file stores them (f32; 16-bit stays 16-bit in the browser): HF-exact.
    #[default]
    AsStored,
    /// Quantized to Q8_0 blocks while loading.
    Q8_0,
}

impl Precision {
    /// What the model line adds to the file's own type.
    pub fn describe(self, stored: &str) -> String {
        match self {
            Precision::AsStored => stored.to_string(),
            Precision::Q8_0 => format!("Q8_0 (quantized at load from {stored})"),
        }
    }
}

/// A checkpoint whose matrices come out as Q8_0.
pub(crate) struct QuantizedAtLoad<'c, 'a> {
    pub ck: &'c mut Checkpoint<'a>,
}

/// Rows widened at a time: 64 rows of Qwen2.5's 896 (or GPT-2's 768) are
/// about 230 KB, where its whole embedding in f32 is 545 MB (wasm memory
/// never shrinks, so the load's peak is what the tab keeps).
const CHUNK_ROWS: usize = 64;

impl Weights for QuantizedAtLoad<'_, '_> {
    fn take(&mut self, key: &str, shape: &[usize], hint: &str) -> Result<Tensor, LoadError> {
        self.ck.take(key, shape, hint)
    }

    fn take_matrix(
        &mut self,
        key: &str,
        layout: Layout,
        [n, k]: [usize; 2],
        hint: &str,
    ) -> Result<Matrix, LoadError> {
        // Q8_0 blocks run along a row's inputs; a width no block divides
        // (no GPT-2, Llama or Qwen2 size) stays as stored.
        if k % QK8_0 != 0 {
            return Weights::take_matrix(self.ck, key, layout, [n, k], hint);
        }
        let failed = |e: candle_core::Error| LoadError::Weights {
            message: format!("tensor `{key}` could not be quantized to Q8_0: {e}"),
            source: Some(e),
        };
        let per_row = k / QK8_0;
        let mut blocks = vec![BlockQ8_0::zeros(); n * per_row];
        match layout {
            // Rows as stored: quantized a few at a time.
            Layout::OutIn => self
                .ck
                .take_rows(key, [n, k], hint, CHUNK_ROWS, |first, rows| {
                    let out = &mut blocks[first * per_row..][..rows.len() / QK8_0];
                    BlockQ8_0::from_float(rows, out);
                    Ok(())
                })?,
            // HF's Conv1D stores inputs first: transposed whole (GPT-2's
            // block matrices, a few MB each), then quantized.
            Layout::InOut => {
                let rows: Vec<f32> = self
                    .ck
                    .take(key, &[k, n], hint)?
                    .t()
                    .and_then(|t| t.contiguous())
                    .and_then(|t| t.flatten_all())
                    .and_then(|t| t.to_vec1())
                    .map_err(failed)?;
                BlockQ8_0::from_float(&rows, &mut blocks);
            }
        }
        QTensor::new(QStorage::Cpu(Box::new(blocks)), (n, k))
            .and_then(QuantizedMatrix::new)
            .map(Matrix::Quantized)
            .map_err(failed)
    }
}
