//! The key/value cache as a value: one entry per layer, one row per sequence.
//! Cloning is cheap (tensors are shared); `select` builds the rows a lane,
//! beam or branch needs. Positions every row shares (a sample tree's
//! prompt) may be kept once: `select` then copies only the rows' own.

use candle_core::{Result, Tensor};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct KvCache {
    /// Per layer: each row's own keys and values, each `[rows, heads, len,
    /// head_dim]`; empty while the rows have no positions of their own.
    pub(crate) layers: Vec<(Positions, Positions)>,
    /// Per layer: the positions before the rows' own that every row shares,
    /// `[1, heads, len, head_dim]`, kept once; empty when there are none.
    pub(crate) shared: Vec<(Tensor, Tensor)>,
}

/// One layer's keys (or values) for every row, in a buffer with room for
/// more positions, so that a step writes its own position in place instead
/// of copying the whole past into a new tensor. Copying at every step grew
/// a four-lane, 64-token distilgpt2 run's wasm memory by 2.6 × its cache
/// (each step's slightly larger tensors could not reuse the last step's).
///
/// Still a value: positions below `len` are never written again, and a
/// position past `len` is written in place only by the first value to grow
/// there (`written`); another value grown from the same one copies.
#[derive(Clone, Debug)]
pub(crate) struct Positions {
    /// `[rows, heads, capacity, head_dim]`, contiguous.
    buffer: Tensor,
    len: usize,
    /// How many of `buffer`'s positions some value has written.
    written: Arc<AtomicUsize>,
}

/// Room made when a buffer is outgrown: half again (a prompt's pass gets
/// none: it may never grow; a run asks for its room at once, `with_room`).
fn capacity_for(len: usize) -> usize {
    len + (len / 2).max(1)
}

impl Positions {
    /// Exactly these positions, `[rows, heads, len, head_dim]`.
    pub(crate) fn new(t: Tensor) -> Result<Positions> {
        let buffer = t.contiguous()?;
        let len = buffer.dim(2)?;
        Ok(Positions {
            buffer,
            len,
            written: Arc::new(AtomicUsize::new(len)),
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn capacity(&self) -> Result<usize> {
        self.buffer.dim(2)
    }

    /// The positions as attention reads them (a view; no copy).
    pub(crate) fn view(&self) -> Result<Tensor> {
        if self.len == self.capacity()? {
            Ok(self.buffer.clone())
        } else {
            self.buffer.narrow(2, 0, self.len)
        }
    }

    /// These positions followed by `new`'s (`[rows, heads, t, head_dim]`).
    pub(crate) fn append(&self, new: &Tensor) -> Result<Positions> {
        let end = self.len + new.dim(2)?;
        let new = new.contiguous()?;
        if end <= self.capacity()?
            && self
                .written
                .compare_exchange(self.len, end, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            self.buffer.slice_set(&new, 2, self.len)?;
            return Ok(Positions {
                buffer: self.buffer.clone(),
                len: end,
                written: self.written.clone(),
            });
        }
        let grown = self.moved(capacity_for(end))?;
        grown.buffer.slice_set(&new, 2, self.len)?;
        Ok(Positions {
            len: end,
            written: Arc::new(AtomicUsize::new(end)),
            ..grown
        })
    }

    /// The same positions in a new buffer of `capacity` positions.
    fn moved(&self, capacity: usize) -> Result<Positions> {
        let (rows, heads, _, d) = self.buffer.dims4()?;
        let buffer = Tensor::zeros(
            (rows, heads, capacity, d),
            self.buffer.dtype(),
            self.buffer.device(),
        )?;
        buffer.slice_set(&self.view()?.contiguous()?, 2, 0)?;
        Ok(Positions {
            buffer,
            len: self.len,
            written: Arc::new(AtomicUsize::new(self.len)),
        })
    }

    /// These positions with room for `more` after them.
    fn with_room(&self, more: usize) -> Result<Positions> {
        if self.capacity()? >= self.len + more {
            Ok(self.clone())
        } else {
            self.moved(self.len + more)
        }
    }

    /// Row `i` of the result is row `rows[i]` of `self`.
    fn select(&self, rows: &Tensor) -> Result<Positions> {
        // The whole buffer (index_select reads contiguous tensors): the
        // copy keeps its room.
        Ok(Positions {
            buffer: self.buffer.index_select(rows, 0)?,
            len: self.len,
            written: Arc::new(AtomicUsize::new(self.len)),
        })
    }
}

/// One layer's cached keys and values as a pass reads them.
#[derive(Clone, Copy)]
pub(crate) struct CachedLayer<'a> {
    pub shared: Option<&'a (Tensor, Tensor)>,
    pub own: Option<&'a (Positions, Positions)>,
}

impl KvCache {
    /// Positions already cached (shared and own).
    pub fn len(&self) -> usize {
        let shared = self
            .shared
            .first()
            .map(|(k, _)| k.dim(2).unwrap_or(0))
            .unwrap_or(0);
        shared + self.layers.first().map(|(k, _)| k.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cache after a pass over `before`: the rows' own keys and values
    /// per layer (`layers`), and the positions `before` shared, still shared.
    pub(crate) fn after(before: Option<&KvCache>, layers: Vec<(Positions, Positions)>) -> KvCache {
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
        let idx = Tensor::from_vec(idx, rows.len(), first.buffer.device())?;
        let layers = self
            .layers
            .iter()
            .map(|(k, v)| Ok((k.select(&idx)?, v.select(&idx)?)))
            .collect::<Result<_>>()?;
        Ok(KvCache {
            layers,
            shared: self.shared.clone(),
        })
    }

    /// The same positions, with room for `positions` more in every layer:
    /// a run that knows how far its lanes may go writes each step in place.
    /// (Growing as it goes, a step that outgrows the room holds the old
    /// and the new buffers at once, as every step did when each step's
    /// keys were concatenated onto a copy.)
    pub fn with_room(&self, positions: usize) -> Result<KvCache> {
        let layers = self
            .layers
            .iter()
            .map(|(k, v)| Ok((k.with_room(positions)?, v.with_room(positions)?)))
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
            if k.buffer.dim(0)? != 1 {
                return Err(candle_core::Error::Msg(
                    "only a one-row cache can be shared by many rows".into(),
                ));
            }
        }
        // The positions alone, in tensors of their own size (a buffer
        // without room is taken as it is).
        let shared = self
            .layers
            .iter()
            .map(|(k, v)| Ok((k.view()?.contiguous()?, v.view()?.contiguous()?)))
            .collect::<Result<_>>()?;
        Ok(KvCache {
            shared,
            layers: vec![],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    /// `[rows, 1 head, n positions, 2]` whose values are `base + position`.
    fn positions(rows: usize, n: usize, base: f32) -> Tensor {
        let v: Vec<f32> = (0..rows * n * 2)
            .map(|i| base + (i / 2 % n) as f32)
            .collect();
        Tensor::from_vec(v, (rows, 1, n, 2), &Device::Cpu).unwrap()
    }

    fn values(p: &Positions) -> Vec<f32> {
        p.view().unwrap().flatten_all().unwrap().to_vec1().unwrap()
    }

    #[test]
    fn a_step_is_written_in_place_while_the_buffer_has_room() {
        let prompt = Positions::new(positions(2, 3, 0.0)).unwrap();
        // The prompt's pass has no room: the first step copies once.
        let one = prompt.append(&positions(2, 1, 10.0)).unwrap();
        assert!(!Arc::ptr_eq(&one.written, &prompt.written));
        assert_eq!(one.capacity().unwrap(), 6, "half again");
        let one = one.with_room(20).unwrap();
        let room = one.capacity().unwrap();
        assert_eq!(room, 4 + 20);
        let mut grown = one.clone();
        for step in 0..room - 4 {
            let next = grown.append(&positions(2, 1, 20.0 + step as f32)).unwrap();
            assert!(
                Arc::ptr_eq(&next.written, &one.written),
                "step {step} copied"
            );
            grown = next;
        }
        assert_eq!(grown.len(), room);
        let past = grown.append(&positions(2, 1, 99.0)).unwrap();
        assert!(
            !Arc::ptr_eq(&past.written, &one.written),
            "outgrown: a new buffer"
        );
        let row: Vec<f32> = values(&past)[..2 * past.len()].to_vec();
        let mut want = vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 10.0, 10.0];
        for step in 0..room - 4 {
            want.extend([20.0 + step as f32; 2]);
        }
        want.extend([99.0, 99.0]);
        assert_eq!(row, want);
    }

    #[test]
    fn two_values_grown_from_one_cache_keep_their_own_positions() {
        let base = Positions::new(positions(1, 2, 0.0))
            .unwrap()
            .append(&positions(1, 1, 5.0))
            .unwrap()
            .with_room(4)
            .unwrap();
        let a = base.append(&positions(1, 1, 7.0)).unwrap();
        // `b` grows from the same value at the same position: it must not
        // write over `a`'s, nor `a` see `b`'s.
        let b = base.append(&positions(1, 1, 8.0)).unwrap();
        assert!(!Arc::ptr_eq(&a.written, &b.written));
        assert_eq!(values(&a), [0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 7.0, 7.0]);
        assert_eq!(values(&b), [0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 8.0, 8.0]);
        assert_eq!(values(&base), [0.0, 0.0, 1.0, 1.0, 5.0, 5.0]);
        // And `a` goes on in place, as the one that got there first.
        let a2 = a.append(&positions(1, 1, 9.0)).unwrap();
        assert!(Arc::ptr_eq(&a2.written, &a.written));
        assert_eq!(values(&b), [0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 8.0, 8.0]);
    }

    #[test]
    fn selected_rows_keep_their_positions_and_room_and_grow_on_their_own() {
        let two = Tensor::cat(&[positions(1, 2, 0.0), positions(1, 2, 100.0)], 0).unwrap();
        let grown = Positions::new(two)
            .unwrap()
            .append(&positions(2, 1, 50.0))
            .unwrap();
        let idx = Tensor::new(&[1u32, 1, 0], &Device::Cpu).unwrap();
        let picked = grown.select(&idx).unwrap();
        assert_eq!(picked.len(), 3);
        assert_eq!(picked.capacity().unwrap(), grown.capacity().unwrap());
        let on = picked.append(&positions(3, 1, 60.0)).unwrap();
        assert!(Arc::ptr_eq(&on.written, &picked.written));
        let rows = on.view().unwrap().dims4().unwrap();
        assert_eq!(rows, (3, 1, 4, 2));
        let v = values(&on);
        assert_eq!(
            &v[..8],
            [100.0, 100.0, 101.0, 101.0, 50.0, 50.0, 60.0, 60.0]
        );
        assert_eq!(&v[16..], [0.0, 0.0, 1.0, 1.0, 50.0, 50.0, 60.0, 60.0]);
        // The cache selected from is untouched.
        assert_eq!(values(&grown)[..6], [0.0, 0.0, 1.0, 1.0, 50.0, 50.0]);
    }
}
