//! A lane's step measured against another loaded model after the same
//! context: both models read the context once, and their last rows are
//! compared (`ntl_decoding::precision_drift`). Asked by the page for a
//! quantized lane beside a full-precision copy of its model.

use crate::State;
use ntl_decoding::precision_drift::RowDrift;
use ntl_decoding::LanguageModel;
use ntl_engine::Engine;
use ntl_protocol::{FromWorker, StepDrift, Unanswered};
use std::rc::Rc;

/// The page's model for `None`, else the lane model of that name.
pub(crate) fn engine(state: &State, name: Option<&str>) -> Result<Rc<Engine>, Unanswered> {
    let found = match name {
        None => state.engine.borrow().clone(),
        Some(name) => state
            .lane_models
            .borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.clone()),
    };
    found.ok_or(Unanswered::NoModel)
}

fn engine_error(message: String) -> Unanswered {
    Unanswered::Engine { message }
}

fn measure(
    state: &State,
    ids: &[u32],
    model: Option<&str>,
    reference: Option<&str>,
) -> Result<StepDrift, Unanswered> {
    let (model, reference) = (engine(state, model)?, engine(state, reference)?);
    let vocab = model.vocab_size();
    if reference.vocab_size() != vocab {
        return Err(engine_error(format!(
            "the two models' vocabularies differ ({vocab} and {} tokens): only a model \
             and a copy of it can be compared",
            reference.vocab_size()
        )));
    }
    let context = model.n_positions().min(reference.n_positions());
    if ids.is_empty() || ids.len() > context || ids.iter().any(|&id| id as usize >= vocab) {
        return Err(engine_error(format!(
            "the step's context is not one both models read: {} ids, {context} positions, \
             {vocab} tokens",
            ids.len()
        )));
    }
    let row = model.prefill(ids).map_err(Unanswered::engine)?.logits;
    let reference_row = reference.prefill(ids).map_err(Unanswered::engine)?.logits;
    let drift = RowDrift::measure(&row, &reference_row)
        .ok_or_else(|| engine_error("the two rows differ in length".into()))?;
    Ok(StepDrift {
        top: model.tokenizer_vocab().display(drift.top.id),
        reference_top: reference.tokenizer_vocab().display(drift.reference_top.id),
        drift,
    })
}

pub fn answer(
    state: &State,
    request_id: u64,
    ids: &[u32],
    model: Option<&str>,
    reference: Option<&str>,
) -> FromWorker {
    FromWorker::Drifted {
        request_id,
        drift: measure(state, ids, model, reference),
    }
}
