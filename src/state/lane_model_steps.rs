//! A run whose lanes name their own models: the models asked for before it
//! starts (each once, one load at a time), the run started when the last is
//! ready, and a lane whose model will not load marked with why.

use super::lane_models::LaneModelStatus;
use super::outcome::Outcome;
use super::run::RunKind;
use super::Page;
use crate::lanes::LANES;
use ntl_decoding::{ModelDefaults, ModelInfo};
use ntl_protocol::trouble::LoadTrouble;
use ntl_protocol::{ModelShape, ModelSource, ToWorker};

impl Page {
    /// Each running lane's model other than the page's, by name. A lane
    /// naming the page's model while it is kept in 8 bits runs on the model
    /// as stored, loaded beside it.
    pub fn lane_model_names(&self) -> Vec<Option<String>> {
        let page = match &self.model.status {
            super::model::ModelStatus::Ready { source, .. } => Some(source),
            _ => self.model.source.as_ref(),
        }
        .filter(|_| !self.model.quantized_at_load());
        let is_page_model = |name: &String| {
            let (Some(page), Some(lane)) = (page, super::lane_models::source_of(name)) else {
                return false;
            };
            match (page, &lane) {
                (ModelSource::Bundled { .. }, ModelSource::Bundled { .. }) => true,
                _ => page.fetched_name().is_some() && page.fetched_name() == lane.fetched_name(),
            }
        };
        self.editor.models[..self.editor.count]
            .iter()
            .map(|m| m.clone().filter(|name| !is_page_model(name)))
            .collect()
    }

    /// Every model `names` holds has the page model's vocabulary size.
    pub(super) fn one_vocabulary(&self, names: &[Option<String>]) -> bool {
        let page = self.model.vocab_size();
        names.iter().flatten().all(|name| {
            matches!(
                self.lane_models.status(name),
                Some(LaneModelStatus::Ready { info }) if info.vocab_size == page
            )
        })
    }

    /// What each lane starts its unset knobs from: its model's
    /// `generation_config.json`, as `generate()` on that model would.
    pub(super) fn lane_defaults(&self) -> [Option<ModelDefaults>; LANES] {
        let names = self.lane_model_names();
        std::array::from_fn(|lane| match names.get(lane).cloned().flatten() {
            None => self.model.generation_defaults().cloned(),
            Some(name) => match self.lane_models.status(&name) {
                Some(LaneModelStatus::Ready { info }) => info.generation_defaults.clone(),
                _ => None,
            },
        })
    }

    /// The run's `lane_models` when every one is loaded or has failed (with
    /// what to send first: models no lane names any more, let go); else
    /// what to do now: ask for the models (the run starts when they are
    /// loaded or fail).
    pub(super) fn lane_models_for_run(
        &mut self,
        kind: RunKind,
        retry_failed: bool,
    ) -> Result<(Vec<Option<String>>, Vec<ToWorker>), Outcome> {
        let names = self.lane_model_names();
        let named: Vec<&str> = names.iter().flatten().map(String::as_str).collect();
        let mut sends = self.lane_models.keep_only(&named);
        for name in &named {
            let site = self.model.site_models.clone();
            if !retry_failed
                && matches!(
                    self.lane_models.status(name),
                    Some(LaneModelStatus::Failed(_))
                )
            {
                continue;
            }
            sends.extend(
                self.lane_models
                    .want(name, &site, self.model.device_memory_gb, true),
            );
        }
        if self.lane_models.busy() {
            self.pending_run = Some(kind);
            return Err(Outcome::redraw().and_all(sends));
        }
        let any = names.iter().any(Option::is_some);
        Ok((if any { names } else { vec![] }, sends))
    }

    /// A lane's model typed or picked: the lane says at once what it costs
    /// (measured if the page does not know), nothing downloads until a run.
    pub fn lane_model_named(&mut self, lane: usize, text: &str) -> Outcome {
        self.editor.set_model(lane, text);
        let Some(name) = self.editor.models.get(lane).cloned().flatten() else {
            return Outcome::redraw();
        };
        if !self.lane_model_names().contains(&Some(name.clone())) {
            return Outcome::redraw();
        }
        let site = self.model.site_models.clone();
        let device = self.model.device_memory_gb;
        let sends = self.lane_models.want(&name, &site, device, false);
        Outcome::redraw().and_all(sends)
    }

    /// A lane's JSON edited: its model, if it names one, sized as when typed.
    pub fn lane_json_set(&mut self, lane: usize, text: &str) -> Outcome {
        self.editor.set_json(lane, text);
        match self.editor.models.get(lane).cloned().flatten() {
            Some(name) if self.editor.errors[lane].is_none() => self.lane_model_named(lane, &name),
            _ => Outcome::redraw(),
        }
    }

    /// The run waiting for lane models goes when none is left to load (a
    /// lane whose model failed says why and stays out of it; a failed model
    /// is tried again at the user's next run).
    fn after_lane_model(&mut self, next: Option<ToWorker>) -> Outcome {
        let waiting = self.pending_run.is_some() && self.model.is_ready();
        if next.is_some() || !waiting || self.lane_models.busy() {
            return Outcome::redraw().and_send(next);
        }
        let kind = self.pending_run.take().unwrap_or(RunKind::Generate);
        // A model that just failed is not tried again at once: only the
        // reader's next Run does.
        self.launch(kind, false)
    }

    /// The lanes whose model failed, each marked with why (after the knobs'
    /// own checks, which would clear it).
    pub(super) fn failed_lanes(&mut self) -> Vec<usize> {
        let mut failed = vec![];
        for (lane, name) in self.lane_model_names().iter().enumerate() {
            let Some(name) = name else { continue };
            if let Some(LaneModelStatus::Failed(said)) = self.lane_models.status(name) {
                let said = said.clone();
                self.editor.lane_failed(lane, Some("model".into()), said);
                failed.push(lane);
            }
        }
        failed
    }

    pub(super) fn lane_model_loaded(
        &mut self,
        name: &str,
        info: ModelInfo,
        memory: Option<u64>,
    ) -> Outcome {
        let next = self.lane_models.loaded(name, info, memory);
        self.after_lane_model(next)
    }

    pub(super) fn lane_model_failed(
        &mut self,
        name: &str,
        file: Option<String>,
        trouble: LoadTrouble,
    ) -> Outcome {
        let next = self.lane_models.failed(name, file, trouble);
        self.after_lane_model(next)
    }

    /// A `Measure` answer: a lane model's, if one asked (`None`: not ours).
    pub(super) fn lane_model_measured(
        &mut self,
        repo: &str,
        bytes: Option<u64>,
        shape: Option<ModelShape>,
    ) -> Option<Outcome> {
        let device = self.model.device_memory_gb;
        let (ours, sends) = self.lane_models.measured(repo, bytes, shape, device);
        if !ours {
            return None;
        }
        let mut sends = sends.into_iter();
        let first = sends.next();
        Some(self.after_lane_model(first).and_all(sends.collect()))
    }
}
