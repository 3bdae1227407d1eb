//! What a forward pass returns, and the early exits it takes on the way:
//! the same for both families.

use crate::kv_cache::KvCache;
use candle_core::{Result, Tensor};

pub struct Output {
    /// Last position's logits, `[rows, vocab]`.
    pub logits: Tensor,
    /// Final hidden states after the last norm, `[rows, tokens, hidden]`.
    pub hidden: Tensor,
    pub cache: KvCache,
    /// The hidden state at each early exit asked for, `[exits, hidden]`
    /// (no final norm): DoLa puts them through the head as they are, the
    /// logit lens through the final norm first.
    pub taps: Option<Tensor>,
}

/// The early exits that enter layer `layer` (`exits`: (row, layer) pairs):
/// each asked-for row's last position of `x` (`[rows, t, hidden]`).
pub(crate) fn take_taps(
    taps: &mut [Option<Tensor>],
    exits: &[(usize, usize)],
    layer: usize,
    x: &Tensor,
) -> Result<()> {
    let (_, t, d) = x.dims3()?;
    for (tap, &(row, _)) in taps.iter_mut().zip(exits).filter(|(_, &(_, l))| l == layer) {
        *tap = Some(x.narrow(0, row, 1)?.narrow(1, t - 1, 1)?.reshape((1, d))?);
    }
    Ok(())
}

impl Output {
    /// The pass's result from its final hidden states (`[rows, t, hidden]`):
    /// the last position's logits, and the early exits' hidden states.
    pub(crate) fn finish(
        hidden: Tensor,
        cache: KvCache,
        taps: Vec<Option<Tensor>>,
        head: impl Fn(&Tensor) -> Result<Tensor>,
    ) -> Result<Output> {
        let t = hidden.dim(1)?;
        let logits = head(&hidden.narrow(1, t - 1, 1)?.squeeze(1)?)?;
        let taps = if taps.is_empty() {
            None
        } else {
            let taps: Vec<Tensor> = taps.into_iter().collect::<Option<_>>().ok_or_else(|| {
                candle_core::Error::Msg("an early exit past the last layer".into())
            })?;
            Some(Tensor::cat(&taps, 0)?)
        };
        Ok(Output {
            logits,
            hidden,
            cache,
            taps,
        })
    }
}
