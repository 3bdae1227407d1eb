//! The logit lens: what the model would predict if it stopped after each
//! layer — the final norm and the head applied to that layer's output at
//! the last position (HF's `hidden_states[l]` for `l` = 1..=layers, through
//! `ln_f` / `norm` and `lm_head`). The last layer's row is the pass's own
//! logits, so it is the step's raw distribution exactly.

use crate::{model_err, Engine};
use ntl_decoding::ModelError;

impl Engine {
    /// Logits after each layer for the position after `ids`: row `l - 1`
    /// after layer `l`, the last row the model's own. `ids` longer than the
    /// context are cropped from the left, as a run crops them; none give no rows.
    pub fn lens(&self, ids: &[u32]) -> Result<Vec<Vec<f32>>, ModelError> {
        let cfg = self.model.cfg();
        let ids = &ids[ids.len().saturating_sub(cfg.n_positions)..];
        if ids.is_empty() {
            return Ok(vec![]);
        }
        // Entering layer `l` is leaving layer `l - 1`; the last layer's
        // output is what the final norm and the head see anyway.
        let exits: Vec<(usize, usize)> = (1..cfg.n_layer).map(|l| (0, l)).collect();
        let out = self
            .model
            .forward(ids, 1, None, &exits)
            .map_err(model_err)?;
        let mut layers: Vec<Vec<f32>> = match &out.taps {
            Some(taps) => {
                let normed = self.model.final_norm_rows(taps).map_err(model_err)?;
                let logits = self.model.head_rows(&normed).map_err(model_err)?;
                logits.to_vec2().map_err(model_err)?
            }
            None => vec![],
        };
        let last = out.logits.flatten_all().and_then(|t| t.to_vec1());
        layers.push(last.map_err(model_err)?);
        Ok(layers)
    }
}
