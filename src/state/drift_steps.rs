//! The page's side of measuring a quantized lane against full precision:
//! for the step open in the compare view, each lane on quantized weights is
//! matched with a loaded full-precision model of its vocabulary, and the
//! worker asked once per step.

use super::drift::{is_quantized, DriftKey, DriftLine, Held, Measure, Reference};
use super::lane_models::LaneModelStatus;
use super::model::ModelStatus;
use super::outcome::Outcome;
use super::Page;
use crate::lanes::LANES;
use ntl_decoding::ModelInfo;

/// A quantized lane's open step, and what it is measured against.
struct Plan {
    key: DriftKey,
    held: Held,
    dtype: String,
    reference: Option<Reference>,
}

impl Page {
    /// The model the run on screen ran page lane `lane` on.
    pub(super) fn lane_held(&self, lane: usize) -> Held {
        let worker_lane = self.run.worker_lane(lane);
        let named = self
            .run
            .request
            .as_ref()
            .and_then(|r| r.lane_models.get(worker_lane?).cloned().flatten());
        named.map_or(Held::Page, Held::Lane)
    }

    fn held_info(&self, held: &Held) -> Option<&ModelInfo> {
        match held {
            Held::Page => match &self.model.status {
                ModelStatus::Ready { info, .. } => Some(info),
                _ => None,
            },
            Held::Lane(name) => match self.lane_models.status(name) {
                Some(LaneModelStatus::Ready { info }) => Some(info),
                _ => None,
            },
        }
    }

    /// Every model the worker holds, the page's first, with its name.
    fn held_models(&self) -> Vec<(Held, Option<String>, &ModelInfo)> {
        let page = self
            .held_info(&Held::Page)
            .map(|info| (Held::Page, self.model.link_name(), info));
        let lanes = self
            .lane_models
            .models
            .iter()
            .filter_map(|m| match &m.status {
                LaneModelStatus::Ready { info } => {
                    Some((Held::Lane(m.name.clone()), Some(m.name.clone()), info))
                }
                _ => None,
            });
        page.into_iter().chain(lanes).collect()
    }

    /// Lane `lane` at the open step, if its weights are quantized.
    fn drift_plan(&self, lane: usize) -> Option<Plan> {
        // A replayed run (a recording, an export) does not say which
        // weights wrote it: only a run made here is measured.
        self.run.request.as_ref()?;
        let (_, step) = self.run.selected?;
        let result = self.run.results.get(lane)?.as_ref()?;
        result.steps.get(step)?;
        let held = self.lane_held(lane);
        let info = self.held_info(&held)?;
        if !is_quantized(&info.storage_dtype) {
            return None;
        }
        let reference = self
            .held_models()
            .into_iter()
            .find(|(h, _, other)| {
                *h != held
                    && other.vocab_size == info.vocab_size
                    && !is_quantized(&other.storage_dtype)
            })
            .map(|(held, name, other)| Reference {
                held,
                name,
                dtype: other.storage_dtype.clone(),
            });
        Some(Plan {
            key: DriftKey {
                run_id: result.run_id,
                lane,
                step,
            },
            dtype: info.storage_dtype.clone(),
            held,
            reference,
        })
    }

    /// What lane `lane`'s column says about its weights at the open step:
    /// nothing for a full-precision lane.
    pub fn drift_line(&self, lane: usize) -> Option<DriftLine> {
        let plan = self.drift_plan(lane)?;
        let Some(reference) = plan.reference.clone() else {
            return Some(DriftLine::NoReference { dtype: plan.dtype });
        };
        // Not asked yet: a lane model's prompt ids come with the finished
        // run (measuring till then); a step whose context is not one path
        // cannot be asked about (no line).
        let measure = match self.drifts.get(plan.key, &reference) {
            Some(m) => m.clone(),
            None if self.run.running.is_some() || self.step_ids(&plan).is_some() => {
                Measure::Asked { request_id: 0 }
            }
            None => return None,
        };
        Some(DriftLine::Against {
            dtype: plan.dtype,
            reference,
            measure,
        })
    }

    /// Asks the worker about the open step of each quantized lane with a
    /// reference to measure against, once per step (called after every
    /// change, as the inspector follows the prompt).
    pub fn measure_drift(&mut self) -> Outcome {
        if self.run.selected.is_none() || !self.worker.alive {
            return Outcome::unchanged();
        }
        let mut sends = vec![];
        for lane in 0..LANES {
            let Some(plan) = self.drift_plan(lane) else {
                continue;
            };
            let Some(reference) = &plan.reference else {
                continue;
            };
            if self.drifts.get(plan.key, reference).is_some() {
                continue;
            }
            if let Some(ids) = self.step_ids(&plan) {
                sends.extend(self.drifts.ask(plan.key, &plan.held, reference, ids));
            }
        }
        match sends.is_empty() {
            true => Outcome::unchanged(),
            false => Outcome::redraw().and_all(sends),
        }
    }

    /// The context before the plan's step: its model's prompt ids (a lane
    /// model's come with the finished run) and the lane's tokens before it.
    fn step_ids(&self, plan: &Plan) -> Option<Vec<u32>> {
        let mut ids = match &plan.held {
            Held::Page => self.run.prompt_ids.clone(),
            Held::Lane(_) => self
                .run
                .doc_run(plan.key.lane)?
                .model
                .as_ref()?
                .prompt_ids
                .clone(),
        };
        if ids.is_empty() {
            return None;
        }
        let result = self.run.results.get(plan.key.lane)?.as_ref()?;
        ids.extend(ntl_decoding::step_context::step_context(
            &result.steps,
            plan.key.step,
        )?);
        Some(ids)
    }
}
