//! Causal self-attention over a cache's keys and values, shared by both
//! families.

use candle_core::{DType, Device, Result, Tensor};

/// `softmax(q kᵀ · scale + mask) v` for `q` `[rows, heads, t, d]` and `k`,
/// `v` `[rows, heads, s, d]` (grouped heads: `heads` are the key/value
/// heads, and `t` holds every query head of a group, the mask repeated).
pub(crate) fn attend(
    q: &Tensor,
    k: &Tensor,
    v: &Tensor,
    scale: f64,
    mask: Option<&Tensor>,
) -> Result<Tensor> {
    let mut att = (q.matmul(&k.t()?)? * scale)?;
    if let Some(m) = mask {
        att = att.broadcast_add(m)?;
    }
    candle_nn::ops::softmax_last_dim(&att)?.matmul(v)
}

/// `[t, s]` additive mask: query `i` (at absolute position `past + i`) sees keys `0..=past + i`.
pub(crate) fn causal_mask(t: usize, s: usize, past: usize) -> Result<Tensor> {
    let m: Vec<f32> = (0..t)
        .flat_map(|i| (0..s).map(move |j| if j > past + i { f32::NEG_INFINITY } else { 0.0 }))
        .collect();
    Tensor::from_vec(m, (t, s), &Device::Cpu)?.to_dtype(DType::F32)
}
