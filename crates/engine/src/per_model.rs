//! Lanes on different models in one document: each model runs the lanes
//! that name it as one batch — exactly the run it would make alone — and
//! the document lists every lane in its place, a lane on a model other
//! than the document's saying which and how that model's tokenizer read
//! the prompt.

use crate::{Engine, RunError, RunInput};
use ntl_decoding::record::LaneModel;
use ntl_decoding::{Document, Event};
use std::ops::ControlFlow;

/// A model the lanes may run on: the engine, and its name as the lanes
/// gave it.
pub struct LaneEngine<'a> {
    pub engine: &'a Engine,
    pub name: String,
}

/// Runs `input`'s lanes, lane `i` on `models[on_model[i]]`. The document's
/// model is the first lane's: its prompt ids head the document (given ids,
/// `input.prompt_ids`, are that model's and only its), and a lane on any
/// other model says which in `model`. Events carry each lane's place in `input`.
pub fn run_on_models(
    models: &[LaneEngine],
    on_model: &[usize],
    input: RunInput,
    mut on_event: impl FnMut(Event) -> ControlFlow<()>,
) -> Result<Document, RunError> {
    assert_eq!(on_model.len(), input.lanes.len(), "a model for every lane");
    assert!(on_model.iter().all(|&m| m < models.len()), "known models");
    let Some(&first) = on_model.first() else {
        return Err(RunError::NoLanes);
    };
    let mut runs = vec![None; input.lanes.len()];
    let mut head = None;
    // The document's model first, so its lanes stream first.
    let order = std::iter::once(first).chain((0..models.len()).filter(|&m| m != first));
    for m in order {
        let model = &models[m];
        let places: Vec<usize> = (0..on_model.len()).filter(|&i| on_model[i] == m).collect();
        if places.is_empty() {
            continue;
        }
        let part = RunInput {
            lanes: places.iter().map(|&i| input.lanes[i].clone()).collect(),
            prompt_ids: if m == first {
                input.prompt_ids.clone()
            } else {
                None
            },
            ..input.clone()
        };
        let doc = model.engine.run(part, |event| {
            let global = |lane: usize| places[lane];
            on_event(match event {
                Event::Step {
                    lane,
                    step,
                    index,
                    text,
                } => Event::Step {
                    lane: global(lane),
                    step,
                    index,
                    text,
                },
                Event::LaneDone { lane, reason } => Event::LaneDone {
                    lane: global(lane),
                    reason,
                },
            })
        })?;
        for (run, &i) in doc.runs.into_iter().zip(&places) {
            let mut run = run;
            if m != first {
                run.model = Some(LaneModel {
                    name: model.name.clone(),
                    prompt_ids: doc.prompt_ids.clone(),
                    prompt_cropped: doc.prompt_cropped,
                });
            }
            runs[i] = Some(run);
        }
        if m == first {
            head = Some((doc.prompt, doc.prompt_ids, doc.prompt_cropped));
        }
    }
    let (prompt, prompt_ids, prompt_cropped) = head.expect("the document's model ran");
    Ok(Document {
        prompt_ids,
        prompt,
        prompt_cropped,
        runs: runs
            .into_iter()
            .map(|r| r.expect("every lane ran on its model"))
            .collect(),
    })
}
