//! Lanes on different models in one document: each model runs the lanes
//! that name it as one batch — exactly the run it would make alone — the
//! models advancing a step each in turn (a worker yields between steps),
//! and the document lists every lane in its place, a lane on a model
//! other than the first lane's saying which and how that model's tokenizer
//! read the prompt.

use crate::{Engine, Prepared, RunError, RunInput};
use ntl_decoding::record::LaneModel;
use ntl_decoding::{Document, Event, Generation, LaneSpec};
use std::ops::ControlFlow;

/// A model the lanes may run on: the engine, and its name as the lanes
/// gave it.
pub struct LaneEngine<'a> {
    pub engine: &'a Engine,
    pub name: String,
}

/// One model's lanes: where they sit among all lanes, and their run.
struct Part<'a> {
    engine: &'a Engine,
    name: String,
    places: Vec<usize>,
    prepared: Prepared,
    generation: Generation<&'a Engine>,
    running: bool,
}

/// Lanes on several models, advanced together a step at a time.
pub struct ModelsRun<'a> {
    /// The first lane's model first: its prompt heads the document.
    parts: Vec<Part<'a>>,
    lanes: usize,
}

/// `e` as the caller numbers lanes.
fn at_place(e: RunError, places: &[usize]) -> RunError {
    let place = |lane: usize| places.get(lane).copied().unwrap_or(lane);
    match e {
        RunError::Config { lane, source } => RunError::Config {
            lane: place(lane),
            source,
        },
        RunError::ForcedIds { lane } => RunError::ForcedIds { lane: place(lane) },
        RunError::NegativePromptTooLong {
            lane,
            tokens,
            new_tokens,
            positions,
        } => RunError::NegativePromptTooLong {
            lane: place(lane),
            tokens,
            new_tokens,
            positions,
        },
        other => other,
    }
}

impl<'a> ModelsRun<'a> {
    /// Checks and starts `input`'s lanes, lane `i` on `models[on_model[i]]`.
    /// Given prompt ids (`input.prompt_ids`) are the first lane's model's
    /// and only its.
    pub fn start(
        models: &[LaneEngine<'a>],
        on_model: &[usize],
        input: RunInput,
    ) -> Result<ModelsRun<'a>, RunError> {
        assert_eq!(on_model.len(), input.lanes.len(), "a model for every lane");
        assert!(on_model.iter().all(|&m| m < models.len()), "known models");
        let Some(&first) = on_model.first() else {
            return Err(RunError::NoLanes);
        };
        let order = std::iter::once(first).chain((0..models.len()).filter(|&m| m != first));
        let mut parts = vec![];
        for m in order {
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
            let engine = models[m].engine;
            let prepared = engine.prepare(part).map_err(|e| at_place(e, &places))?;
            let generation = engine.start(&prepared).map_err(|e| at_place(e, &places))?;
            parts.push(Part {
                engine,
                name: models[m].name.clone(),
                places,
                prepared,
                generation,
                running: true,
            });
        }
        Ok(ModelsRun {
            parts,
            lanes: on_model.len(),
        })
    }

    /// Each lane's checked spec, in the caller's order.
    pub fn lanes(&self) -> Vec<&LaneSpec> {
        let mut out: Vec<Option<&LaneSpec>> = vec![None; self.lanes];
        for part in &self.parts {
            for (spec, &i) in part.prepared.lanes.iter().zip(&part.places) {
                out[i] = Some(spec);
            }
        }
        out.into_iter().map(|s| s.expect("every lane")).collect()
    }

    /// The document's prompt: the first lane's model's.
    pub fn prompt(&self) -> &ntl_decoding::Prompt {
        &self.parts[0].prepared.prompt
    }

    /// For each lane on another model than the first lane's: the prompt as
    /// its tokenizer read it.
    pub fn lane_prompts(&self) -> Vec<Option<&ntl_decoding::Prompt>> {
        let mut out = vec![None; self.lanes];
        for part in &self.parts[1..] {
            for &i in &part.places {
                out[i] = Some(&part.prepared.prompt);
            }
        }
        out
    }

    /// The engine lane `lane` runs on.
    pub fn engine_of(&self, lane: usize) -> &'a Engine {
        self.parts
            .iter()
            .find(|p| p.places.contains(&lane))
            .expect("every lane has a model")
            .engine
    }

    /// One step of every running model's lanes. A `Break` from `on_event`
    /// cancels every lane on every model.
    pub fn advance(
        &mut self,
        on_event: &mut impl FnMut(Event) -> ControlFlow<()>,
    ) -> Result<bool, RunError> {
        let mut broke = false;
        for part in self.parts.iter_mut().filter(|p| p.running) {
            let places = &part.places;
            let mut remapped = |event: Event| {
                let flow = on_event(place_event(event, places));
                broke |= flow.is_break();
                flow
            };
            part.running = part.generation.advance(&mut remapped)?;
            if broke {
                break;
            }
        }
        if broke {
            self.cancel(on_event);
        }
        Ok(self.parts.iter().any(|p| p.running))
    }

    /// Ends every running lane with `cancelled`.
    pub fn cancel(&mut self, on_event: &mut impl FnMut(Event) -> ControlFlow<()>) {
        for part in self.parts.iter_mut().filter(|p| p.running) {
            let places = &part.places;
            part.generation
                .cancel(&mut |event: Event| on_event(place_event(event, places)));
            part.running = false;
        }
    }

    /// The document: every lane in its place.
    pub fn finish(self) -> Document {
        let mut runs = vec![None; self.lanes];
        let mut head = None;
        for (k, part) in self.parts.into_iter().enumerate() {
            let doc = part.prepared.document(part.generation.finish());
            for (mut run, &i) in doc.runs.into_iter().zip(&part.places) {
                if k > 0 {
                    run.model = Some(LaneModel {
                        name: part.name.clone(),
                        prompt_ids: doc.prompt_ids.clone(),
                        prompt_cropped: doc.prompt_cropped,
                    });
                }
                runs[i] = Some(run);
            }
            if k == 0 {
                head = Some((doc.prompt, doc.prompt_ids, doc.prompt_cropped));
            }
        }
        let (prompt, prompt_ids, prompt_cropped) = head.expect("the first lane's model ran");
        Document {
            prompt_ids,
            prompt,
            prompt_cropped,
            runs: runs
                .into_iter()
                .map(|r| r.expect("every lane ran on its model"))
                .collect(),
        }
    }
}

/// `event` with its lane numbered among all lanes.
fn place_event<'e>(event: Event<'e>, places: &[usize]) -> Event<'e> {
    match event {
        Event::Step {
            lane,
            step,
            index,
            text,
        } => Event::Step {
            lane: places[lane],
            step,
            index,
            text,
        },
        Event::LaneDone { lane, reason } => Event::LaneDone {
            lane: places[lane],
            reason,
        },
    }
}

/// Runs `input`'s lanes, lane `i` on `models[on_model[i]]`, to their end
/// (or until `on_event` breaks).
pub fn run_on_models(
    models: &[LaneEngine],
    on_model: &[usize],
    input: RunInput,
    mut on_event: impl FnMut(Event) -> ControlFlow<()>,
) -> Result<Document, RunError> {
    let mut run = ModelsRun::start(models, on_model, input)?;
    while run.advance(&mut on_event)? {}
    Ok(run.finish())
}
