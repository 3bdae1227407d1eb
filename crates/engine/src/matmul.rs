//! A layer's weight product as each target runs it best: natively candle's
//! (threaded) gemm on f32 weights; in wasm the small-batch kernel
//! (`skinny_matmul`) over weights laid out `[out, in]` and kept as the
//! checkpoint stored them (16-bit stays 16-bit, widened exactly as read).

use crate::checkpoint::Checkpoint;
use crate::error::LoadError;
#[cfg(target_arch = "wasm32")]
use candle_core::{DType, Device};
use candle_core::{Result, Tensor};

/// A weight matrix: in wasm as the checkpoint stores it (half the memory for
/// F16/BF16), natively in f32 for candle's gemm.
pub(crate) fn take_matrix(
    ck: &mut Checkpoint,
    key: &str,
    shape: &[usize],
    hint: &str,
) -> std::result::Result<Tensor, LoadError> {
    if cfg!(target_arch = "wasm32") {
        ck.take_as_stored(key, shape, hint)
    } else {
        ck.take(key, shape, hint)
    }
}

/// `x` (`[rows, k]`) times `w`ᵀ, `w` stored `[n, k]` (HF's `nn.Linear`, a tied head).
pub(crate) fn matmul_t(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    #[cfg(target_arch = "wasm32")]
    return matmul_nt(x, w);
    #[cfg(not(target_arch = "wasm32"))]
    x.matmul(&w.t()?)
}

/// Most rows that go through the small-batch kernel: it passes over the
/// weights once per four rows, so long prompts' prefill is left to gemm.
/// (A head only ever sees each sequence's last position, so a 16-bit head is
/// never copied: only a block's matrices are, one at a time.)
#[cfg(target_arch = "wasm32")]
const SKINNY_MAX_ROWS: usize = 16;

/// `x` (`[rows, k]`) times `w`ᵀ (`w`: `[n, k]`, contiguous f32, F16 or BF16):
/// in wasm (one thread) the small-batch kernel beats candle's gemm for a few rows.
#[cfg(target_arch = "wasm32")]
pub(crate) fn matmul_nt(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    use crate::skinny_matmul::matmul_nt as kernel;
    use candle_core::{CpuStorage, Storage};
    let (rows, k) = x.dims2()?;
    let (n, wk) = w.dims2()?;
    if rows > SKINNY_MAX_ROWS {
        // A long prompt's prefill, once per prompt: gemm on an f32 copy (for
        // 16-bit weights a block's matrix at a time, never the whole model).
        return x.matmul(&w.to_dtype(DType::F32)?.t()?);
    }
    let (storage, layout) = w.storage_and_layout();
    let (Storage::Cpu(cpu), Some((from, to)), true) =
        (&*storage, layout.contiguous_offsets(), wk == k)
    else {
        return Err(candle_core::Error::Msg(format!(
            "the small-batch kernel needs a contiguous [n, {k}] weight, got {:?}",
            w.dims()
        )));
    };
    let xs = || -> Result<Vec<f32>> { x.contiguous()?.flatten_all()?.to_vec1::<f32>() };
    let out = match cpu {
        CpuStorage::F32(data) => kernel(&xs()?, rows, &data[from..to], k),
        CpuStorage::F16(data) => kernel(&xs()?, rows, &data[from..to], k),
        CpuStorage::BF16(data) => kernel(&xs()?, rows, &data[from..to], k),
        _ => {
            return Err(candle_core::Error::Msg(format!(
                "weights stored as {:?} are not supported",
                w.dtype()
            )))
        }
    };
    Tensor::from_vec(out, (rows, n), &Device::Cpu)
}
