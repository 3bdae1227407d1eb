//! The key/value cache as a value: one entry per layer, one row per sequence.
//! Cloning is cheap (tensors are shared); `select` builds the rows a lane,
//! beam or branch needs.

use candle_core::{Result, Tensor};

#[derive(Clone, Debug)]
pub struct KvCache {
    /// Per layer: keys and values, each `[rows, heads, len, head_dim]`.
    pub(crate) layers: Vec<(Tensor, Tensor)>,
}

impl KvCache {
    /// Positions already cached.
    pub fn len(&self) -> usize {
        self.layers
            .first()
            .map(|(k, _)| k.dim(2).unwrap_or(0))
            .unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i` of the result is row `rows[i]` of `self`.
    pub fn select(&self, rows: &[usize]) -> Result<KvCache> {
        let idx: Vec<u32> = rows.iter().map(|&r| r as u32).collect();
        let device = self
            .layers
            .first()
            .map(|(k, _)| k.device().clone())
            .unwrap_or(candle_core::Device::Cpu);
        let idx = Tensor::from_vec(idx, rows.len(), &device)?;
        let layers = self
            .layers
            .iter()
            .map(|(k, v)| Ok((k.index_select(&idx, 0)?, v.index_select(&idx, 0)?)))
            .collect::<Result<_>>()?;
        Ok(KvCache { layers })
    }
}
