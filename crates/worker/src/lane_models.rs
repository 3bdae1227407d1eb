//! Models lanes name (`RunRequest::lane_models`), held beside the page's
//! model, each once: loaded and let go by name, and looked up for a run.

use crate::post::post;
use crate::{base_of, build_engine, fetch, memory_bytes, model_files, now_ms, State};
use ntl_engine::Engine;
use ntl_protocol::trouble::LoadTrouble;
use ntl_protocol::{FromWorker, LoadWeights, ModelSource};
use std::rc::Rc;

/// Fetches and builds the model `name` stands for; a model already held
/// under that name goes first (two would double its memory).
pub async fn load(state: &State, name: String, source: ModelSource, weights: LoadWeights) {
    let started = now_ms();
    let base = base_of(&source);
    let failed = |file, trouble, network| FromWorker::LaneModelFailed {
        name: name.clone(),
        file,
        trouble,
        network,
    };
    if matches!(source, ModelSource::Files { .. }) {
        return post(&failed(None, LoadTrouble::NothingToLoad, false));
    }
    crate::post::lane_load(Some(name.clone()));
    let files = model_files(&source, &base, None).await;
    crate::post::lane_load(None);
    let files = match files {
        Ok(f) => f,
        Err(e) => return post(&failed(e.file, e.trouble, e.network)),
    };
    state.lane_models.borrow_mut().retain(|(n, _)| *n != name);
    match build_engine(files, weights, None) {
        Ok(built) => {
            let info = built.engine.info().clone();
            state
                .lane_models
                .borrow_mut()
                .push((name.clone(), Rc::new(built.engine)));
            post(&FromWorker::LaneModelLoaded {
                name,
                info,
                load_ms: now_ms() - started,
                memory_bytes: memory_bytes(),
            });
        }
        Err(e) => {
            // A refused file must not come back from the cache on the next try.
            if let Some(base) = &base {
                fetch::forget(base).await;
            }
            let trouble = LoadTrouble::Other {
                message: e.to_string(),
            };
            post(&failed(Some(e.file().into()), trouble, false));
        }
    }
}

pub fn forget(state: &State, name: &str) {
    state.lane_models.borrow_mut().retain(|(n, _)| n != name);
}

/// Engines by the name lanes give them (the page's model: "").
pub type Named = Vec<(String, Rc<Engine>)>;

/// The engines a run's lanes need (the page's model first) and which each
/// lane runs on; the first lane naming a model that is not held, if one does.
pub fn for_run(
    state: &State,
    page_model: Rc<Engine>,
    lanes: usize,
    named: &[Option<String>],
) -> Result<(Named, Vec<usize>), (usize, String)> {
    let mut engines = vec![(String::new(), page_model)];
    let mut on_model = Vec::with_capacity(lanes);
    for lane in 0..lanes {
        let Some(name) = named.get(lane).cloned().flatten() else {
            on_model.push(0);
            continue;
        };
        if let Some(m) = engines.iter().position(|(n, _)| *n == name) {
            on_model.push(m);
            continue;
        }
        let held = state
            .lane_models
            .borrow()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, e)| e.clone());
        match held {
            Some(engine) => {
                engines.push((name, engine));
                on_model.push(engines.len() - 1);
            }
            None => return Err((lane, name)),
        }
    }
    Ok((engines, on_model))
}
