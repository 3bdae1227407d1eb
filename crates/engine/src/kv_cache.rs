//! The key/value cache as a value: one entry per layer, one row per sequence.
//! Cloning is cheap (tensors are shared); `select` builds the rows a lane,
//! beam or branch needs. Positions every row shares (a sample tree's
//! prompt) may be kept once: `select` then copies only the rows' own.

use candle_core::{Result, Tensor};

#[derive(Clone, Debug)]
pub struct KvCache {
    /// Per layer: each row's own keys and values, each `[rows, heads, len,
    /// head_dim]`; empty while the rows have no positions of their own.
    pub(crate) layers: Vec<(Tensor, Tensor)>,
    /// Per layer: the positions before the rows' own that every row shares,
    /// `[1, heads, len, head_dim]`, kept once; empty when there are none.
    pub(crate) shared: Vec<(Tensor, Tensor)>,
}

/// One layer's cached keys and values as a pass reads them.
#[derive(Clone, Copy)]
pub(crate) struct CachedLayer<'a> {
    pub shared: Option<&'a (Tensor, Tensor)>,
    pub own: Option<&'a (Tensor, Tensor)>,
}

impl KvCache {
    /// Positions already cached (shared and own).
    pub fn len(&self) -> usize {
        let positions = |layers: &[(Tensor, Tensor)]| {
            layers
                .first()
                .map(|(k, _)| k.dim(2).unwrap_or(0))
                .unwrap_or(0)
        };
        positions(&self.shared) + positions(&self.layers)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cache after a pass over `before`: the rows' own keys and values
    /// per layer (`layers`), and the positions `before` shared, still shared.
    pub(crate) fn after(before: Option<&KvCache>, layers: Vec<(Tensor, Tensor)>) -> KvCache {
        KvCache {
            layers,
            shared: before.map(|c| c.shared.clone()).unwrap_or_default(),
        }
    }

    pub(crate) fn layer(&self, l: usize) -> CachedLayer<'_> {
        CachedLayer {
            shared: self.shared.get(l),
            own: self.layers.get(l),
        }
    }

    /// Row `i` of the result is row `rows[i]` of `self` (its own positions;
    /// the shared ones stay as they are).
    pub fn select(&self, rows: &[usize]) -> Result<KvCache> {
        let Some((first, _)) = self.layers.first() else {
            return Ok(self.clone());
        };
        let idx: Vec<u32> = rows.iter().map(|&r| r as u32).collect();
        let idx = Tensor::from_vec(idx, rows.len(), first.device())?;
        let layers = self
            .layers
            .iter()
            .map(|(k, v)| Ok((k.index_select(&idx, 0)?, v.index_select(&idx, 0)?)))
            .collect::<Result<_>>()?;
        Ok(KvCache {
            layers,
            shared: self.shared.clone(),
        })
    }

    /// The same positions, now shared by every row selected from it: a
    /// one-row cache (a prompt) that many rows continue, kept once.
    pub fn into_shared(self) -> Result<KvCache> {
        if !self.shared.is_empty() {
            return Err(candle_core::Error::Msg(
                "a cache's positions are shared once".into(),
            ));
        }
        if let Some((k, _)) = self.layers.first() {
            if k.dim(0)? != 1 {
                return Err(candle_core::Error::Msg(
                    "only a one-row cache can be shared by many rows".into(),
                ));
            }
        }
        Ok(KvCache {
            shared: self.layers,
            layers: vec![],
        })
    }
}
