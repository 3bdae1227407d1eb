//! Causal self-attention over a cache's keys and values, shared by every
//! family (GPT-2, Llama/Qwen2, MiniGPT).

use crate::kv_cache::{CachedLayer, Positions};
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

/// q, k, v `[rows, heads, t, d]` out of a fused projection
/// `[rows, t, 3, heads, d]` (GPT-2's `c_attn`, MiniGPT's stacked q/k/v).
pub(crate) fn split_qkv(qkv: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    let part = |i: usize| {
        qkv.narrow(2, i, 1)?
            .squeeze(2)?
            .transpose(1, 2)?
            .contiguous()
    };
    Ok((part(0)?, part(1)?, part(2)?))
}

/// This step's keys and values after the cache's (`[rows, heads, s, d]`,
/// on dim 2): the pair attention reads (shared positions first, broadcast
/// to the rows — the same values, so the same logits, as a cache that holds
/// them per row), and the pair the next cache keeps (the rows' own).
pub(crate) fn after_cached(
    cached: Option<CachedLayer>,
    k: Tensor,
    v: Tensor,
) -> Result<((Tensor, Tensor), (Positions, Positions))> {
    let own = match cached.and_then(|c| c.own) {
        Some((pk, pv)) => (pk.append(&k)?, pv.append(&v)?),
        None => (Positions::new(k)?, Positions::new(v)?),
    };
    let (own_k, own_v) = (own.0.view()?, own.1.view()?);
    let attended = match cached.and_then(|c| c.shared) {
        Some((sk, sv)) => {
            let rows = own_k.dim(0)?;
            let wide = |shared: &Tensor, own: &Tensor| -> Result<Tensor> {
                let (_, h, p, d) = shared.dims4()?;
                // Materialised first: `cat` of a broadcast view is a strided view.
                let shared = shared.broadcast_as((rows, h, p, d))?.contiguous()?;
                Tensor::cat(&[&shared, own], 2)
            };
            (wide(sk, &own_k)?, wide(sv, &own_v)?)
        }
        None => (own_k, own_v),
    };
    Ok((attended, own))
}

/// `[t, s]` additive mask: query `i` (at absolute position `past + i`) sees keys `0..=past + i`.
pub(crate) fn causal_mask(t: usize, s: usize, past: usize) -> Result<Tensor> {
    let m: Vec<f32> = (0..t)
        .flat_map(|i| (0..s).map(move |j| if j > past + i { f32::NEG_INFINITY } else { 0.0 }))
        .collect();
    Tensor::from_vec(m, (t, s), &Device::Cpu)?.to_dtype(DType::F32)
}
