//! A lesson step run on a model, as its recording is made and checked: the
//! page shows a step's recording before any download, so a recording must
//! be exactly what the model writes for the step's lanes.

use crate::model_dir::ModelDirError;
use ntl_decoding::{ConfigError, Defaults, Document, LaneRequest, Options};
use ntl_engine::per_model::{run_on_models, LaneEngine};
use ntl_engine::{Engine, Precision, RunError, RunInput};
use ntl_protocol::lesson::{Lesson, LessonStep};
use ntl_protocol::LoadWeights;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Candidates kept per step table in a recording: ten keep a lesson's
/// recordings small (a four-lane, 40-token run is about 240 KB with ten,
/// 450 KB with the page's twenty) and show every candidate a lesson names.
pub const RECORDING_TOP: usize = 10;

/// Probabilities may differ by this much between machines (the order of
/// float sums in matrix kernels); token ids may not differ at all.
pub const PROB_TOLERANCE: f32 = 1e-4;

#[derive(Debug, thiserror::Error)]
pub enum StepRunError {
    #[error("lane {}: {source}", .lane + 1)]
    Lane {
        lane: usize,
        #[source]
        source: ConfigError,
    },
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("lane {}: its model `{name}` was not loaded beside the lesson's", .lane + 1)]
    NoLaneModel { lane: usize, name: String },
    #[error("the lesson's model kept in 8 bits did not load: {0}")]
    EightBit(#[source] Box<ModelDirError>),
    #[error("lane {}: its model `{name}` ({path}) did not load: {source}", .lane + 1)]
    LaneModelLoad {
        lane: usize,
        name: String,
        path: std::path::PathBuf,
        #[source]
        source: Box<ModelDirError>,
    },
}

/// The models a lesson's steps run on, each loaded once: the lesson's own
/// folder as stored, the same kept in 8 bits once a lesson asks for it
/// (`"weights": "q8_0"`), and the folders its lanes name.
pub struct LessonModels {
    folder: PathBuf,
    stored: Engine,
    eight_bit: Option<Engine>,
    lanes: Vec<(String, Engine)>,
}

impl LessonModels {
    /// The lesson model's folder (the bundled one: `www/models/kjv-gpt2`).
    pub fn load(folder: &Path) -> Result<LessonModels, ModelDirError> {
        Ok(LessonModels {
            folder: folder.to_path_buf(),
            stored: crate::model_dir::load(folder)?,
            eight_bit: None,
            lanes: vec![],
        })
    }

    /// `step` of `lesson` run as the page runs it, its lane models
    /// (folders under `site`, the page's folder) loaded first. A lane naming
    /// the lesson's own model runs it as stored: the page loads it so beside
    /// the model it keeps in 8 bits.
    pub fn run(
        &mut self,
        site: &Path,
        lesson: &Lesson,
        step: &LessonStep,
    ) -> Result<Document, StepRunError> {
        for (lane, name) in step.lane_models.iter().enumerate() {
            let Some(name) = name else { continue };
            if self.lanes.iter().any(|(n, _)| n == name) {
                continue;
            }
            let path = match *name == lesson.model {
                true => self.folder.clone(),
                false => site.join(name),
            };
            let engine =
                crate::model_dir::load(&path).map_err(|source| StepRunError::LaneModelLoad {
                    lane,
                    name: name.clone(),
                    path: path.clone(),
                    source: Box::new(source),
                })?;
            self.lanes.push((name.clone(), engine));
        }
        let engine = match lesson.weights {
            LoadWeights::AsStored => &self.stored,
            LoadWeights::Q8_0 => match &mut self.eight_bit {
                Some(e) => &*e,
                none => none.insert(
                    crate::model_dir::load_as(&self.folder, Precision::Q8_0)
                        .map_err(|e| StepRunError::EightBit(Box::new(e)))?,
                ),
            },
        };
        run_step(engine, &self.lanes, step)
    }
}

/// The step's lanes on `engine` — a lane naming a model of its own on that
/// model, from `lane_models` — each over its model's own defaults, as the
/// page runs them.
pub fn run_step(
    engine: &Engine,
    lane_models: &[(String, Engine)],
    step: &LessonStep,
) -> Result<Document, StepRunError> {
    let mut models = vec![LaneEngine {
        engine,
        name: String::new(),
    }];
    let mut on_model = Vec::with_capacity(step.lanes.len());
    for lane in 0..step.lanes.len() {
        let Some(name) = step.lane_models.get(lane).cloned().flatten() else {
            on_model.push(0);
            continue;
        };
        if let Some(m) = models.iter().position(|m| m.name == name) {
            on_model.push(m);
            continue;
        }
        let (_, e) =
            lane_models
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or(StepRunError::NoLaneModel {
                    lane,
                    name: name.clone(),
                })?;
        models.push(LaneEngine { engine: e, name });
        on_model.push(models.len() - 1);
    }
    let mut lanes = Vec::with_capacity(step.lanes.len());
    for (lane, knobs) in step.lanes.iter().enumerate() {
        let model = models[on_model[lane]]
            .engine
            .info()
            .generation_defaults
            .clone()
            .unwrap_or_default();
        let config = model
            .lane(knobs, Defaults::Model)
            .map_err(|source| StepRunError::Lane { lane, source })?;
        lanes.push(LaneRequest {
            config,
            forced_ids: None,
        });
    }
    let input = RunInput {
        prompt: step.prompt.clone(),
        prompt_ids: None,
        lanes,
        forced_text: None,
        negative_prompt: None,
        options: Options {
            top_n: RECORDING_TOP,
            shared_seed: None,
            negative_prompt: None,
            full_prompt: None,
            // A step that opens with the lens shows it from its recording.
            lens: step.open.is_some_and(|o| o.lens),
        },
    };
    if models.len() == 1 {
        return Ok(engine.run(input, |_| ControlFlow::Continue(()))?);
    }
    Ok(run_on_models(&models, &on_model, input, |_| {
        ControlFlow::Continue(())
    })?)
}

/// Where a recording parts from a fresh run, in words; `None` when it is
/// the same run (ids, texts and stops exactly, probabilities within
/// [`PROB_TOLERANCE`]).
pub fn difference(recorded: &Document, fresh: &Document) -> Option<String> {
    if recorded.prompt_ids != fresh.prompt_ids {
        return Some("the prompt's token ids differ (another tokenizer?)".into());
    }
    if recorded.runs.len() != fresh.runs.len() {
        return Some(format!(
            "{} lanes recorded, {} run",
            recorded.runs.len(),
            fresh.runs.len()
        ));
    }
    for (lane, (r, f)) in recorded.runs.iter().zip(&fresh.runs).enumerate() {
        let lane = lane + 1;
        if r.token_ids != f.token_ids || r.text != f.text {
            return Some(format!(
                "lane {lane} wrote {:?} where the recording has {:?}",
                f.text, r.text
            ));
        }
        if r.stop_reason != f.stop_reason || r.steps.len() != f.steps.len() {
            return Some(format!("lane {lane} stopped otherwise"));
        }
        for (i, (rs, fs)) in r.steps.iter().zip(&f.steps).enumerate() {
            let ids = |s: &ntl_decoding::Step| s.top.iter().map(|c| c.id).collect::<Vec<_>>();
            if ids(rs) != ids(fs) {
                return Some(format!(
                    "lane {lane}, step {}: the candidates differ",
                    i + 1
                ));
            }
            for (rc, fc) in rs.top.iter().zip(&fs.top) {
                let close =
                    |a: f32, b: f32| a.to_bits() == b.to_bits() || (a - b).abs() <= PROB_TOLERANCE;
                if !close(rc.prob, fc.prob) || !close(rc.raw_prob, fc.raw_prob) {
                    return Some(format!(
                        "lane {lane}, step {}: {:?} has probability {} recorded, {} now",
                        i + 1,
                        rc.token,
                        rc.prob,
                        fc.prob
                    ));
                }
            }
        }
    }
    None
}
