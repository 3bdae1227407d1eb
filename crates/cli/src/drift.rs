//! What quantized weights cost, over a run: each lane's tokens fed again to
//! the model the run used and to the same checkpoint at full precision, and
//! at every step the KL divergence of the quantized distribution from the
//! full one (the raw distribution, before any knob) and whether their top
//! tokens agree.

use ntl_decoding::precision_drift::kl_nats;
use ntl_decoding::scores::argmax;
use ntl_decoding::{Document, LanguageModel, ModelError};
use ntl_engine::Engine;
use serde::Serialize;

/// One lane's drift from full precision.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneDrift {
    /// Steps measured: the lane's tokens, up to the context's end.
    pub steps: usize,
    /// KL(full ‖ quantized) per step, in nats.
    pub kl: Vec<f64>,
    pub mean_kl: f64,
    pub max_kl: f64,
    /// Steps at which both models' most likely token is the same.
    pub top_agrees: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum DriftError {
    #[error("the reference model's vocabulary has {reference} tokens and the run's model {model}: compare a model with its own checkpoint")]
    Vocabularies { model: usize, reference: usize },
    #[error("while measuring against the reference model: {0}")]
    Model(#[from] ModelError),
}

/// Each lane of `doc` (run on `model`) measured against `reference`.
pub fn drift(
    model: &Engine,
    reference: &Engine,
    doc: &Document,
) -> Result<Vec<LaneDrift>, DriftError> {
    if model.vocab_size() != reference.vocab_size() {
        return Err(DriftError::Vocabularies {
            model: model.vocab_size(),
            reference: reference.vocab_size(),
        });
    }
    let context = model.n_positions().min(reference.n_positions());
    doc.runs
        .iter()
        .map(|run| lane(model, reference, &doc.prompt_ids, &run.token_ids, context))
        .collect()
}

fn lane(
    model: &Engine,
    reference: &Engine,
    prompt: &[u32],
    tokens: &[u32],
    context: usize,
) -> Result<LaneDrift, DriftError> {
    let mut kl = Vec::new();
    let mut top_agrees = 0;
    if !prompt.is_empty() && prompt.len() < context {
        let (mut m, mut r) = (model.prefill(prompt)?, reference.prefill(prompt)?);
        // A step's distribution comes before its token; the last token's
        // successor is not part of the run.
        let room = context - prompt.len();
        for (i, &token) in tokens.iter().enumerate().take(room) {
            kl.push(kl_nats(&r.logits, &m.logits));
            top_agrees += usize::from(argmax(&r.logits) == argmax(&m.logits));
            if i + 1 < tokens.len().min(room) {
                m = model.step(&m.cache, &[token])?;
                r = reference.step(&r.cache, &[token])?;
            }
        }
    }
    let steps = kl.len();
    Ok(LaneDrift {
        steps,
        mean_kl: kl.iter().sum::<f64>() / steps.max(1) as f64,
        max_kl: kl.iter().copied().fold(0.0, f64::max),
        top_agrees,
        kl,
    })
}
