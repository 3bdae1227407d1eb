//! Models lanes name beside the page's model ("is it the knobs or the
//! model?"): what each costs before it loads, its load, and whether it fits
//! beside what the worker already holds. The worker loads one model at a
//! time, so the page asks for them one after another.

pub use super::lane_model_trouble::{LaneModelCost, LaneModelTrouble};
use super::memory_need::MemoryNeed;
use super::model::{BUNDLED_BYTES, WASM32_BYTES};
use crate::said::Said;
use ntl_decoding::ModelInfo;
use ntl_protocol::site_models::SiteModel;
use ntl_protocol::trouble::LoadTrouble;
use ntl_protocol::{LoadWeights, ModelShape, ModelSource, ToWorker};

/// Where a lane's model stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LaneModelStatus {
    /// Its size is being asked of the hub or the site (not listed anywhere).
    Measuring,
    /// Measured and fits; not asked to load yet (no run has needed it).
    Sized,
    /// A run needs it: waits for the worker to finish another load.
    Queued,
    Loading {
        file: String,
        loaded: u64,
        total: Option<u64>,
    },
    Ready {
        info: ModelInfo,
    },
    Failed(Said),
}

#[derive(Debug, Clone, PartialEq)]
pub struct LaneModel {
    /// As the lane names it (`bundled`, `owner/name`, `models/x/`).
    pub name: String,
    pub source: ModelSource,
    pub status: LaneModelStatus,
    pub cost: Option<LaneModelCost>,
    /// A run waits for it to load.
    pub wanted: bool,
}

/// The models lanes named, each once, in the order first named.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneModels {
    pub models: Vec<LaneModel>,
    /// The worker's wasm memory after its last load (a peak; it never
    /// shrinks), what a new model is added to.
    pub worker_memory: Option<u64>,
}

pub use super::model::source_of;

/// The cost of weights of `bytes`, as the worker keeps them.
fn cost_of(bytes: u64, shape: Option<&ModelShape>) -> LaneModelCost {
    let need = MemoryNeed::estimate(bytes, shape);
    LaneModelCost {
        download: bytes,
        memory: need.in_tab(),
    }
}

impl LaneModels {
    pub fn get(&self, name: &str) -> Option<&LaneModel> {
        self.models.iter().find(|m| m.name == name)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut LaneModel> {
        self.models.iter_mut().find(|m| m.name == name)
    }

    pub fn status(&self, name: &str) -> Option<&LaneModelStatus> {
        self.get(name).map(|m| &m.status)
    }

    /// A model a run waits for is still measured or loaded.
    pub fn busy(&self) -> bool {
        self.models.iter().any(|m| {
            m.wanted
                && matches!(
                    m.status,
                    LaneModelStatus::Measuring
                        | LaneModelStatus::Queued
                        | LaneModelStatus::Loading { .. }
                )
        })
    }

    fn loading(&self) -> bool {
        self.models
            .iter()
            .any(|m| matches!(m.status, LaneModelStatus::Loading { .. }))
    }

    /// Starts on `name` if it is new (or failed before: a second try): its
    /// size from what the page already knows (the bundled model, the site's
    /// index, the catalogue), else a `Measure` to ask; loaded once it is
    /// known to fit if `load` (a run needs it), else only sized, so the
    /// lane says what it costs before anything downloads.
    pub fn want(
        &mut self,
        name: &str,
        site: &[SiteModel],
        device_gb: Option<f64>,
        load: bool,
    ) -> Vec<ToWorker> {
        if let Some(m) = self.get_mut(name) {
            if !matches!(m.status, LaneModelStatus::Failed(_)) {
                m.wanted |= load;
                if load && m.status == LaneModelStatus::Sized {
                    m.status = LaneModelStatus::Queued;
                    return self.next_load().into_iter().collect();
                }
                return vec![];
            }
        }
        self.models.retain(|m| m.name != name);
        let Some(source) = source_of(name) else {
            self.models.push(LaneModel {
                name: name.into(),
                source: ModelSource::Files { names: vec![] },
                status: LaneModelStatus::Failed(Said::LaneModel {
                    name: name.into(),
                    trouble: LaneModelTrouble::NotAModel,
                }),
                cost: None,
                wanted: load,
            });
            return vec![];
        };
        let known = match &source {
            ModelSource::Bundled { .. } => Some(BUNDLED_BYTES),
            ModelSource::Folder { path } => site
                .iter()
                .find(|m| m.path() == *path)
                .and_then(|m| m.bytes),
            ModelSource::Hub { repo, gguf: None } => {
                super::model_catalog::find(repo).map(|m| m.download_bytes)
            }
            _ => None,
        };
        self.models.push(LaneModel {
            name: name.into(),
            source: source.clone(),
            status: LaneModelStatus::Measuring,
            cost: None,
            wanted: load,
        });
        match known {
            Some(bytes) => self.sized(name, Some(bytes), None, device_gb),
            None => vec![ToWorker::Measure {
                repo: source.fetched_name().unwrap_or_else(|| name.into()),
            }],
        }
    }

    /// The worker measured a model (`for_name`: the repo or folder asked);
    /// `false` when no lane model asked.
    pub fn measured(
        &mut self,
        for_name: &str,
        bytes: Option<u64>,
        shape: Option<ModelShape>,
        device_gb: Option<f64>,
    ) -> (bool, Vec<ToWorker>) {
        let asked = self.models.iter().find(|m| {
            m.status == LaneModelStatus::Measuring
                && m.source.fetched_name().as_deref() == Some(for_name)
        });
        let Some(name) = asked.map(|m| m.name.clone()) else {
            return (false, vec![]);
        };
        (true, self.sized(&name, bytes, shape.as_ref(), device_gb))
    }

    /// A model's size is known: refused if it will not fit beside what the
    /// worker holds, else queued, and loaded if the worker is free.
    fn sized(
        &mut self,
        name: &str,
        bytes: Option<u64>,
        shape: Option<&ModelShape>,
        device_gb: Option<f64>,
    ) -> Vec<ToWorker> {
        let held = self.worker_memory.unwrap_or(0);
        let Some(m) = self.get_mut(name) else {
            return vec![];
        };
        let Some(bytes) = bytes else {
            m.status = LaneModelStatus::Failed(Said::LaneModel {
                name: name.into(),
                trouble: LaneModelTrouble::SizeUnknown,
            });
            return vec![];
        };
        let cost = cost_of(bytes, shape);
        m.cost = Some(cost);
        let need = MemoryNeed::estimate(bytes, shape);
        let beyond_wasm = held + need.in_wasm() > WASM32_BYTES;
        let device = device_gb.filter(|g| *g > 0.0);
        let beyond_device = device.is_some_and(|gb| (held + cost.memory) as f64 / 1e9 > gb / 2.0);
        if beyond_wasm || beyond_device {
            m.status = LaneModelStatus::Failed(Said::LaneModel {
                name: name.into(),
                trouble: LaneModelTrouble::TooBig {
                    cost,
                    held,
                    device_gb: device,
                },
            });
            return vec![];
        }
        if !m.wanted {
            m.status = LaneModelStatus::Sized;
            return vec![];
        }
        m.status = LaneModelStatus::Queued;
        self.next_load().into_iter().collect()
    }

    /// The next queued model's load, when no other is loading.
    pub fn next_load(&mut self) -> Option<ToWorker> {
        if self.loading() {
            return None;
        }
        let m = self
            .models
            .iter_mut()
            .find(|m| m.status == LaneModelStatus::Queued)?;
        m.status = LaneModelStatus::Loading {
            file: String::new(),
            loaded: 0,
            total: None,
        };
        Some(ToWorker::LoadLaneModel {
            name: m.name.clone(),
            source: m.source.clone(),
            weights: LoadWeights::AsStored,
        })
    }

    pub fn progress(&mut self, name: &str, file: String, loaded: u64, total: Option<u64>) -> bool {
        match self.get_mut(name) {
            Some(m) if matches!(m.status, LaneModelStatus::Loading { .. }) => {
                m.status = LaneModelStatus::Loading {
                    file,
                    loaded,
                    total,
                };
                true
            }
            _ => false,
        }
    }

    /// The worker holds `name` now; the next queued load, if any.
    pub fn loaded(&mut self, name: &str, info: ModelInfo, memory: Option<u64>) -> Option<ToWorker> {
        if memory.is_some() {
            self.worker_memory = memory;
        }
        if let Some(m) = self.get_mut(name) {
            m.status = LaneModelStatus::Ready { info };
        }
        self.next_load()
    }

    pub fn failed(
        &mut self,
        name: &str,
        file: Option<String>,
        trouble: LoadTrouble,
    ) -> Option<ToWorker> {
        if let Some(m) = self.get_mut(name) {
            m.status = LaneModelStatus::Failed(Said::LaneModel {
                name: name.into(),
                trouble: LaneModelTrouble::Load {
                    file,
                    trouble: Box::new(trouble),
                },
            });
        }
        self.next_load()
    }

    /// The models no lane names any more, let go.
    pub fn keep_only(&mut self, named: &[&str]) -> Vec<ToWorker> {
        let (kept, gone): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.models).into_iter().partition(|m| {
                named.contains(&m.name.as_str())
                    || matches!(m.status, LaneModelStatus::Loading { .. })
            });
        self.models = kept;
        gone.into_iter()
            .filter(|m| matches!(m.status, LaneModelStatus::Ready { .. }))
            .map(|m| ToWorker::ForgetLaneModel { name: m.name })
            .collect()
    }
}
