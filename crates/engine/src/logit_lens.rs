//! The logit lens: what the model would predict if it stopped after each
//! layer — the final norm and the head applied to that layer's output at
//! the last position (HF's `hidden_states[l]` for `l` = 1..=layers, through
//! `ln_f` / `norm` and `lm_head`). The last layer's row is the pass's own
//! logits, so it is the step's raw distribution exactly. A run records the
//! same rows step by step (`Options::lens`) through the same early exits.

use crate::Engine;
use ntl_decoding::{Exit, LanguageModel, ModelError};

impl Engine {
    /// Logits after each layer for the position after `ids`: row `l - 1`
    /// after layer `l`, the last row the model's own. `ids` longer than the
    /// context are cropped from the left, as a run crops them; none give no rows.
    pub fn lens(&self, ids: &[u32]) -> Result<Vec<Vec<f32>>, ModelError> {
        let ids = &ids[ids.len().saturating_sub(self.n_positions())..];
        if ids.is_empty() {
            return Ok(vec![]);
        }
        // Entering layer `l` is leaving layer `l - 1`; the last layer's
        // output is what the final norm and the head see anyway.
        let exits: Vec<Exit> = (1..self.n_layers())
            .map(|layer| Exit {
                row: 0,
                layer,
                normed: true,
            })
            .collect();
        let out = self.prefill_with_exits(ids, &exits)?;
        let v = self.vocab_size();
        let mut layers: Vec<Vec<f32>> = out.exits.chunks_exact(v).map(<[f32]>::to_vec).collect();
        layers.push(out.logits[out.logits.len() - v..].to_vec());
        Ok(layers)
    }
}
