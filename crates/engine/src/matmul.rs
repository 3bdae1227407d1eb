//! A layer's weight matrix as each target multiplies it best: natively an
//! f32 tensor for candle's (threaded) gemm; in wasm panels for the
//! small-batch kernel (`skinny_matmul`), kept as the checkpoint stored them
//! (16-bit stays 16-bit, widened exactly as read); a GGUF file's quantized
//! matrix, on both, in its block format (`quantized_matrix`).

use crate::checkpoint::Checkpoint;
#[cfg(target_arch = "wasm32")]
use crate::checkpoint::Stored;
use crate::error::LoadError;
use crate::quantized_matrix::QuantizedMatrix;
use candle_core::{Result, Tensor};

/// How a checkpoint lays out a matrix of `n` output columns over `k` inputs.
#[derive(Clone, Copy)]
pub(crate) enum Layout {
    /// `[n, k]`: `nn.Linear`, embeddings (a tied head's `wte`).
    OutIn,
    /// `[k, n]`: HF's Conv1D (GPT-2's blocks).
    InOut,
}

/// The matrix of `n` output columns over `k` inputs stored at `key` as
/// `layout` says.
pub(crate) fn take_matrix(
    ck: &mut Checkpoint,
    key: &str,
    layout: Layout,
    [n, k]: [usize; 2],
    hint: &str,
) -> std::result::Result<Matrix, LoadError> {
    let shape = match layout {
        Layout::OutIn => [n, k],
        Layout::InOut => [k, n],
    };
    // Natively an f32 tensor, a 16-bit file widened block by block as read.
    #[cfg(not(target_arch = "wasm32"))]
    let matrix = {
        let w = ck.take(key, &shape, hint)?;
        match layout {
            Layout::OutIn => Matrix::OutIn(w),
            Layout::InOut => Matrix::InOut(w),
        }
    };
    #[cfg(target_arch = "wasm32")]
    let matrix = Matrix::packed(ck.take_stored(key, &shape, hint)?, layout, n, k);
    Ok(matrix)
}

/// A weight matrix of `n` output columns over `k` inputs.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) enum Matrix {
    /// `[n, k]`, multiplied as `x · wᵀ`.
    OutIn(Tensor),
    /// `[k, n]`, multiplied as `x · w`.
    InOut(Tensor),
    Quantized(QuantizedMatrix),
    /// Projections that could not be stacked into one matrix (a K-quant
    /// mix stores them in different block formats), their outputs side by side.
    Parts(Vec<Matrix>),
}

#[cfg(not(target_arch = "wasm32"))]
impl Matrix {
    /// `[n, k]` f32 weights (tests).
    #[cfg(test)]
    pub(crate) fn from_rows(w: Vec<f32>, n: usize, k: usize) -> Result<Matrix> {
        let w = Tensor::from_vec(w, (n, k), &candle_core::Device::Cpu)?;
        Ok(Matrix::OutIn(w))
    }

    /// Several projections of the same input as one matrix, their columns
    /// one after another: one product instead of one per projection.
    pub(crate) fn stacked(parts: Vec<Matrix>) -> Result<Matrix> {
        if let Some(m) = stacked_quantized(&parts) {
            return m;
        }
        // Tensors are shared handles: the clones copy no weights.
        let rows = parts
            .iter()
            .map(|part| match part {
                Matrix::OutIn(w) => Some(Ok(w.clone())),
                Matrix::InOut(w) => Some(w.t().and_then(|t| t.contiguous())),
                Matrix::Quantized(_) | Matrix::Parts(_) => None,
            })
            .collect::<Option<Result<Vec<_>>>>();
        match rows {
            Some(rows) => Ok(Matrix::OutIn(Tensor::cat(&rows?, 0)?)),
            None => Ok(Matrix::Parts(parts)),
        }
    }

    /// `x` (`[rows, k]`) times the matrix: `[rows, n]`.
    pub(crate) fn matmul(&self, x: &Tensor) -> Result<Tensor> {
        match self {
            Matrix::OutIn(w) => x.matmul(&w.t()?),
            Matrix::InOut(w) => x.matmul(w),
            Matrix::Quantized(q) => q.matmul(x),
            Matrix::Parts(parts) => parts_matmul(parts, x),
        }
    }

    /// Columns `ids` as rows, `[ids.len(), k]` in f32: a tied embedding's lookup.
    pub(crate) fn embed(&self, ids: &[u32]) -> Result<Tensor> {
        let index = || Tensor::from_slice(ids, ids.len(), &candle_core::Device::Cpu);
        match self {
            Matrix::OutIn(w) => w.index_select(&index()?, 0),
            Matrix::InOut(w) => w.t()?.index_select(&index()?, 0),
            Matrix::Quantized(q) => q.embed(ids),
            Matrix::Parts(_) => candle_core::bail!("stacked projections are not an embedding"),
        }
    }
}

/// Quantized parts in one block format as one matrix; `None` when the parts
/// are not all quantized alike.
fn stacked_quantized(parts: &[Matrix]) -> Option<Result<Matrix>> {
    let quantized: Vec<&QuantizedMatrix> = parts
        .iter()
        .map(|m| match m {
            Matrix::Quantized(q) => Some(q),
            _ => None,
        })
        .collect::<Option<_>>()?;
    QuantizedMatrix::stacked(&quantized).map(|m| m.map(Matrix::Quantized))
}

/// Each part's product, side by side: `[rows, n₁ + n₂ + …]`.
fn parts_matmul(parts: &[Matrix], x: &Tensor) -> Result<Tensor> {
    let outs = parts
        .iter()
        .map(|p| p.matmul(x))
        .collect::<Result<Vec<_>>>()?;
    Tensor::cat(&outs, 1)
}

/// A weight matrix of `n` output columns over `k` inputs, in the kernel's
/// panels, in the element type the checkpoint stored.
#[cfg(target_arch = "wasm32")]
pub(crate) enum Matrix {
    Packed(Packed),
    Quantized(QuantizedMatrix),
    /// Projections that could not be stacked into one matrix (a K-quant
    /// mix stores them in different block formats), their outputs side by side.
    Parts(Vec<Matrix>),
}

/// Panels in the element type the checkpoint stored.
#[cfg(target_arch = "wasm32")]
pub(crate) enum Packed {
    F32(Panels<f32>),
    F16(Panels<half::f16>),
    /// F16 with no infinity or NaN: widened with one check fewer.
    FiniteF16(Panels<FiniteF16>),
    BF16(Panels<half::bf16>),
}

#[cfg(target_arch = "wasm32")]
use crate::skinny_matmul::{FiniteF16, Panels, Weight};

/// `$body` with `$p` bound to the panels, whatever their element type.
#[cfg(target_arch = "wasm32")]
macro_rules! with_panels {
    ($m:expr, $p:ident => $body:expr) => {
        match $m {
            Packed::F32($p) => $body,
            Packed::F16($p) => $body,
            Packed::FiniteF16($p) => $body,
            Packed::BF16($p) => $body,
        }
    };
}

#[cfg(target_arch = "wasm32")]
impl Matrix {
    /// Packed as stored; `[n, k]` in place, so the big embedding is never
    /// held twice.
    pub(crate) fn packed(stored: Stored, layout: Layout, n: usize, k: usize) -> Matrix {
        fn pack<W: Weight>(w: Vec<W>, layout: Layout, n: usize, k: usize) -> Panels<W> {
            match layout {
                Layout::OutIn => Panels::from_rows(w, n, k),
                Layout::InOut => Panels::from_columns(&w, k, n),
            }
        }
        Matrix::Packed(match stored {
            Stored::F32(w) => Packed::F32(pack(w, layout, n, k)),
            Stored::F16(w) => match FiniteF16::all(w) {
                Ok(w) => Packed::FiniteF16(pack(w, layout, n, k)),
                Err(w) => Packed::F16(pack(w, layout, n, k)),
            },
            Stored::BF16(w) => Packed::BF16(pack(w, layout, n, k)),
        })
    }

    /// `[n, k]` f32 weights (tests).
    #[cfg(test)]
    pub(crate) fn from_rows(w: Vec<f32>, n: usize, k: usize) -> Result<Matrix> {
        Ok(Matrix::Packed(Packed::F32(Panels::from_rows(w, n, k))))
    }

    /// Several projections of the same input as one matrix, their columns
    /// one after another: one pass of the kernel, and one split of the work
    /// over threads, instead of one per projection. Parts stored in
    /// different types are stacked in f32.
    pub(crate) fn stacked(parts: Vec<Matrix>) -> Result<Matrix> {
        if let Some(m) = stacked_quantized(&parts) {
            return m;
        }
        let Some(packed) = parts
            .iter()
            .map(|m| match m {
                Matrix::Packed(p) => Some(p),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
        else {
            return Ok(Matrix::Parts(parts));
        };
        macro_rules! all_as {
            ($variant:ident) => {
                packed
                    .iter()
                    .map(|m| match m {
                        Packed::$variant(p) => Some(p),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
            };
        }
        if let Some(ps) = all_as!(F32) {
            return Ok(Matrix::Packed(Packed::F32(Panels::stacked(&ps))));
        }
        if let Some(ps) = all_as!(F16) {
            return Ok(Matrix::Packed(Packed::F16(Panels::stacked(&ps))));
        }
        if let Some(ps) = all_as!(FiniteF16) {
            return Ok(Matrix::Packed(Packed::FiniteF16(Panels::stacked(&ps))));
        }
        if let Some(ps) = all_as!(BF16) {
            return Ok(Matrix::Packed(Packed::BF16(Panels::stacked(&ps))));
        }
        let widened: Vec<Panels<f32>> = packed
            .iter()
            .map(|m| with_panels!(m, p => p.widened()))
            .collect();
        Ok(Matrix::Packed(Packed::F32(Panels::stacked(
            &widened.iter().collect::<Vec<_>>(),
        ))))
    }

    /// `x` (`[rows, k]`) times the matrix: `[rows, n]`.
    pub(crate) fn matmul(&self, x: &Tensor) -> Result<Tensor> {
        let packed = match self {
            Matrix::Packed(p) => p,
            Matrix::Quantized(q) => return q.matmul(x),
            Matrix::Parts(parts) => return parts_matmul(parts, x),
        };
        let (rows, k) = x.dims2()?;
        let (n, wk) = with_panels!(packed, p => (p.n(), p.k()));
        if k != wk {
            candle_core::bail!("a [{rows}, {k}] input against a matrix over {wk} inputs");
        }
        let xs = x.contiguous()?.flatten_all()?.to_vec1::<f32>()?;
        let out = with_panels!(packed, p => p.matmul(&xs, rows));
        Tensor::from_vec(out, (rows, n), &candle_core::Device::Cpu)
    }

    /// Columns `ids` as rows, `[ids.len(), k]` in f32: a tied embedding's
    /// lookup, read from the head's own panels.
    pub(crate) fn embed(&self, ids: &[u32]) -> Result<Tensor> {
        let packed = match self {
            Matrix::Packed(p) => p,
            Matrix::Quantized(q) => return q.embed(ids),
            Matrix::Parts(_) => candle_core::bail!("stacked projections are not an embedding"),
        };
        let (n, k) = with_panels!(packed, p => (p.n(), p.k()));
        let mut out = Vec::with_capacity(ids.len() * k);
        for &id in ids {
            if id as usize >= n {
                candle_core::bail!("token id {id} is past the embedding's {n} rows");
            }
            out.extend(with_panels!(packed, p => p.column(id as usize)));
        }
        Tensor::from_vec(out, (ids.len(), k), &candle_core::Device::Cpu)
    }
}
