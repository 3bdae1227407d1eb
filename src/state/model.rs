//! Which model the page uses: where it comes from, how far its download is,
//! and what happens when the hub cannot be reached.

use super::memory_need::MemoryNeed;
use crate::said::{Retry, Said};
use ntl_protocol::hub_gguf::Listing;
use ntl_protocol::share::BUNDLED;
use ntl_protocol::site_models::SiteModel;
use ntl_protocol::trouble::{LoadTrouble, NetTrouble};
use ntl_protocol::{LoadWeights, ModelInfo, ModelShape, ModelSource, ToWorker};
use std::rc::Rc;

pub use super::model_catalog::DEFAULT_HUB_REPO;
pub const BUNDLED_BASE: &str = "./models/kjv-gpt2";

/// What the bundled model downloads, summed from its files at build time.
pub const BUNDLED_BYTES: u64 = include!(concat!(env!("OUT_DIR"), "/bundled_bytes.rs"));

#[derive(Debug, Clone, PartialEq)]
pub enum ModelStatus {
    Starting,
    Loading {
        /// What is loading (unknown when a retry is the first word of it).
        source: Option<ModelSource>,
        file: String,
        loaded: u64,
        total: Option<u64>,
        /// Why the bar stands still: a retry's reason and the seconds
        /// left, or another tab downloading the same file.
        retry: Option<Retry>,
    },
    Ready {
        info: ModelInfo,
        source: ModelSource,
        load_ms: f64,
        threads: u32,
    },
    Failed {
        message: Said,
        file: Option<String>,
        network: bool,
    },
    /// A share link names a hub model other than the default, or a repo
    /// was typed into the box (`typed`): nothing is fetched until the user
    /// says so.
    Confirm {
        repo: String,
        size: DownloadSize,
        typed: bool,
    },
    /// An embedded lesson shows its recorded runs; the model (`source`)
    /// downloads only when the student asks to run live.
    OnRequest {
        size: DownloadSize,
    },
}

/// What the page knows of a download's size before it starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DownloadSize {
    /// The worker is asking the hub.
    Asking,
    Known {
        bytes: u64,
        cached: bool,
    },
    /// The hub would not say; the size shows once the download starts.
    Unknown,
}

impl ModelStatus {
    /// Starting or loading: another load must wait.
    pub fn is_busy(&self) -> bool {
        matches!(self, ModelStatus::Loading { .. } | ModelStatus::Starting)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelState {
    pub status: ModelStatus,
    /// The source being loaded or in use (loaded again after a worker restart).
    pub source: Option<ModelSource>,
    /// The hub was the default, not the user's explicit choice: fall back quietly.
    hub_is_default: bool,
    /// What the "model hub repo" box holds.
    pub hub_repo: String,
    /// `navigator.deviceMemory` (GB, rounded by the browser; Chromium only).
    pub device_memory_gb: Option<f64>,
    /// The weights about to download may not fit this device's memory.
    pub memory_warning: Option<MemoryWarning>,
    /// A hub repo's sizes from its `config.json`, as measured before the
    /// download (the cache's share of the memory estimate).
    measured_shape: Option<(String, ModelShape)>,
    /// A hub repo of llama.cpp files: the `.gguf` files it offers.
    gguf_offer: Option<GgufOffer>,
    /// The model folders the site lists in `models/index.json`.
    pub site_models: std::rc::Rc<Vec<SiteModel>>,
    /// Why the site's index could not be read.
    pub site_models_error: Option<Said>,
    /// The index was asked for (once per page).
    pub site_models_asked: bool,
    /// While a typed repo waits for the user's word: the model still in the
    /// worker, to go back to.
    before_confirm: Option<Box<(ModelStatus, Option<ModelSource>)>>,
    /// The model did not fit in memory: a fresh worker does not load it
    /// again by itself (the user picks one, or asks for it again).
    pub held: bool,
    /// Safetensors models are quantized to Q8_0 while loading (off: HF-exact).
    pub eight_bit: bool,
    /// The model the worker still holds while another loads: a load refused
    /// before the worker let it go gives it back (`keep_previous`).
    previous: Option<Box<(ModelStatus, Option<ModelSource>)>>,
    /// A MiniGPT's head count for picked files without a `config.json`
    /// (its `.pt` cannot say): the tutorial's 4 until the user says otherwise.
    pub minigpt_heads: usize,
}

/// The tutorial's MiniGPT has 4 heads (seed 004: `num_heads=4`).
pub const TUTORIAL_HEADS: usize = 4;

/// Most heads the field takes (the engine checks that they divide the width).
pub const MOST_HEADS: usize = 1024;

fn default_hub() -> ModelSource {
    ModelSource::Hub {
        repo: DEFAULT_HUB_REPO.into(),
        gguf: None,
    }
}

fn bundled() -> ModelSource {
    ModelSource::Bundled {
        base: BUNDLED_BASE.into(),
    }
}

/// The source a model's name stands for, as `?model=`, links and lanes
/// name one: `bundled`, a hub repo id, or a folder beside the page.
pub fn source_of(name: &str) -> Option<ModelSource> {
    match name {
        BUNDLED => Some(bundled()),
        _ => ModelSource::from_fetched_name(name),
    }
}

impl ModelState {
    /// `requested`: a share link's model, else `?model=`; only the bundled
    /// model, a valid hub repo id or a model folder beside the page are
    /// taken, anything else means the default. A link (`from_link`) naming
    /// another hub model or a folder waits for the user's word before
    /// downloading it.
    pub fn new(requested: Option<&str>, from_link: bool) -> ModelState {
        let source = requested.and_then(source_of).unwrap_or_else(default_hub);
        let hub_is_default = source == default_hub();
        let status = match source.fetched_name() {
            Some(name) if from_link && !hub_is_default => ModelStatus::Confirm {
                repo: name,
                size: DownloadSize::Asking,
                typed: false,
            },
            _ => ModelStatus::Starting,
        };
        ModelState {
            status,
            source: Some(source),
            hub_is_default,
            hub_repo: DEFAULT_HUB_REPO.into(),
            device_memory_gb: None,
            memory_warning: None,
            measured_shape: None,
            gguf_offer: None,
            site_models: Default::default(),
            site_models_error: None,
            site_models_asked: false,
            held: false,
            before_confirm: None,
            eight_bit: false,
            previous: None,
            minigpt_heads: TUTORIAL_HEADS,
        }
    }

    /// Before another load or a refused pick: the model the worker holds
    /// now (in use, or kept while a typed repo waits) is remembered.
    fn hold_previous(&mut self) {
        if let Some(b) = self.before_confirm.take() {
            self.previous = Some(b);
        } else if matches!(self.status, ModelStatus::Ready { .. }) {
            self.previous = Some(Box::new((self.status.clone(), self.source.clone())));
        }
    }

    /// The name of the model a failed load left in the worker, to go on with.
    pub fn previous(&self) -> Option<&ModelSource> {
        // The status's source: picked files keep none in `source` (they
        // cannot be read again), but their model is in the worker all the same.
        match (&self.status, self.previous.as_deref()) {
            (ModelStatus::Failed { .. }, Some((ModelStatus::Ready { source, .. }, _))) => {
                Some(source)
            }
            _ => None,
        }
    }

    /// Goes on with the model the worker still holds after a failed load.
    pub fn keep_previous(&mut self) {
        if let (ModelStatus::Failed { .. }, Some(b)) = (&self.status, self.previous.take()) {
            (self.status, self.source) = *b;
            self.memory_warning = None;
        }
    }

    /// A MiniGPT read from a picked `.pt` can be saved as a model folder, to
    /// host beside the page: the folder's name (the `.pt`'s, `minigpt`).
    pub fn folder_to_save(&self) -> Option<String> {
        let ModelStatus::Ready {
            source: ModelSource::Files { names },
            ..
        } = &self.status
        else {
            return None;
        };
        names
            .iter()
            .find_map(|n| ntl_protocol::picked::state_dict_stem(n).map(String::from))
    }

    /// The heads field: a whole number from 1; anything else keeps the count.
    pub fn set_minigpt_heads(&mut self, text: &str) {
        if let Ok(h @ 1..=MOST_HEADS) = text.trim().parse::<usize>() {
            self.minigpt_heads = h;
        }
    }

    /// How the next load keeps a safetensors model's matrices.
    pub fn weights(&self) -> LoadWeights {
        match self.eight_bit {
            true => LoadWeights::Q8_0,
            false => LoadWeights::AsStored,
        }
    }

    /// 8-bit at load on or off: a safetensors model in use loads again
    /// (its files come from the cache); a `.gguf` file keeps its own types,
    /// and picked files, which cannot be read again, take it at their next pick.
    pub fn set_eight_bit(&mut self, on: bool) -> Option<ToWorker> {
        if std::mem::replace(&mut self.eight_bit, on) == on {
            return None;
        }
        match (&self.status, &self.source) {
            (ModelStatus::Ready { info, .. }, Some(source))
                if !info.storage_dtype.starts_with("GGUF") =>
            {
                let source = source.clone();
                Some(self.load(source))
            }
            _ => None,
        }
    }

    /// Weights of `bytes` as the worker will keep them: with 8 bits at load,
    /// Q8_0's 34 bytes per 32 weights of a file of at least 16 bits a weight
    /// (an f32 file comes to half this; a `.gguf` keeps its own size).
    fn kept(&self, need: MemoryNeed, gguf: bool) -> MemoryNeed {
        match self.eight_bit && !gguf {
            true => need.quantized_to_q8_0(),
            false => need,
        }
    }

    /// The model in use is a safetensors model kept in 8 bits at load: a
    /// lane naming it gets it as stored, beside it (full precision beside
    /// 8 bits).
    pub fn quantized_at_load(&self) -> bool {
        self.eight_bit && !self.is_gguf()
    }

    /// Whether the model in use or loading is a llama.cpp file.
    fn is_gguf(&self) -> bool {
        let named = |s: &ModelSource| match s {
            ModelSource::Hub { gguf, .. } => gguf.is_some(),
            ModelSource::Files { names } => names.iter().any(|n| is_gguf_name(n)),
            _ => false,
        };
        match &self.status {
            ModelStatus::Ready { info, .. } => info.storage_dtype.starts_with("GGUF"),
            ModelStatus::Loading { file, .. } if is_gguf_name(file) => true,
            _ => self.source.as_ref().is_some_and(named) || self.gguf_offer.is_some(),
        }
    }

    /// The loaded model's generation_config.json knobs, if it has the file.
    pub fn generation_defaults(&self) -> Option<&ntl_decoding::ModelDefaults> {
        match &self.status {
            ModelStatus::Ready { info, .. } => info.generation_defaults.as_ref(),
            _ => None,
        }
    }

    pub fn is_ready(&self) -> bool {
        matches!(self.status, ModelStatus::Ready { .. })
    }

    /// Starts loading `source`; the message for the worker.
    pub fn load(&mut self, source: ModelSource) -> ToWorker {
        self.hold_previous();
        self.memory_warning = None;
        self.held = false;
        self.status = ModelStatus::Loading {
            source: Some(source.clone()),
            file: "config.json".into(),
            loaded: 0,
            total: None,
            retry: None,
        };
        self.source = Some(source.clone());
        ToWorker::Load {
            source,
            weights: self.weights(),
            heads: None,
        }
    }

    /// What a worker that has just started should do: load the source in
    /// use, or, while the page waits for the user to confirm a download,
    /// find out how large it is.
    pub fn reload(&mut self) -> Option<ToWorker> {
        if let ModelStatus::Confirm { repo, .. } = &self.status {
            return Some(ToWorker::Measure { repo: repo.clone() });
        }
        if let ModelStatus::OnRequest { size } = &self.status {
            let name = self.source.as_ref().and_then(ModelSource::fetched_name);
            return match (name, size) {
                (Some(repo), DownloadSize::Asking) => Some(ToWorker::Measure { repo }),
                _ => None,
            };
        }
        let source = self.source.clone()?;
        let message = self.load(source);
        // A fresh worker holds no model to go back to.
        self.previous = None;
        Some(message)
    }

    /// The worker's answer to `Measure`; one for a repo no longer asked about is stale.
    pub fn measured(
        &mut self,
        for_repo: &str,
        bytes: Option<u64>,
        cached: bool,
        shape: Option<ModelShape>,
        gguf: Option<Listing>,
    ) {
        let asked = match (&self.source, &self.status) {
            (_, ModelStatus::Confirm { repo, .. }) => repo == for_repo,
            (Some(source), ModelStatus::OnRequest { .. }) => {
                source.fetched_name().as_deref() == Some(for_repo)
            }
            _ => false,
        };
        let (ModelStatus::Confirm { size, .. } | ModelStatus::OnRequest { size }) =
            &mut self.status
        else {
            return;
        };
        if !asked {
            return;
        }
        *size = match bytes {
            Some(bytes) => DownloadSize::Known { bytes, cached },
            None => DownloadSize::Unknown,
        };
        self.measured_shape = shape.map(|s| (for_repo.to_string(), s));
        self.memory_warning = bytes.and_then(|b| self.warning_for(b));
        let repo = ntl_protocol::hub_gguf::parse_hub_name(for_repo).map(|h| h.repo.to_string());
        self.gguf_offer = gguf.zip(repo).map(|(listing, repo)| GgufOffer {
            repo,
            listing: Rc::new(listing),
        });
        // llama.cpp's own choice when the name picks none: said in the link.
        if let (Some(file), true) = (self.gguf_choice().and_then(|c| c.chosen), bytes.is_some()) {
            self.choose_gguf(&file);
        }
    }

    /// The `.gguf` files the repo waiting for the user's word offers, and
    /// the one its name picks.
    pub fn gguf_choice(&self) -> Option<GgufChoice> {
        let offer = self.gguf_offer.as_ref()?;
        let ModelStatus::Confirm { repo, .. } = &self.status else {
            return None;
        };
        let name = ntl_protocol::hub_gguf::parse_hub_name(repo)?;
        (name.repo == offer.repo).then(|| GgufChoice {
            listing: offer.listing.clone(),
            chosen: ntl_protocol::hub_gguf::pick(&offer.listing, name.gguf)
                .ok()
                .map(|f| f.name.clone()),
        })
    }

    /// The user chose one of the repo's `.gguf` files: its size is known,
    /// and the link names it (by its quant tag when that is unique).
    pub fn choose_gguf(&mut self, file: &str) {
        let Some(offer) = &self.gguf_offer else {
            return;
        };
        let Some(f) = offer.listing.files.iter().find(|f| f.name == file) else {
            return;
        };
        let ModelStatus::Confirm { repo, size, .. } = &mut self.status else {
            return;
        };
        let sel = ntl_protocol::hub_gguf::selector_for(&offer.listing, f);
        *repo = ntl_protocol::hub_gguf::hub_name(&offer.repo, Some(&sel));
        *size = DownloadSize::Known {
            bytes: f.bytes,
            cached: f.cached,
        };
        let bytes = f.bytes;
        self.source = Some(ModelSource::Hub {
            repo: offer.repo.clone(),
            gguf: Some(sel),
        });
        self.memory_warning = self.warning_for(bytes);
    }

    /// Waits for the student's word before downloading the model in use
    /// (an embedded lesson showing its recordings). The bundled model's size
    /// is known; a hub model's is asked for once a worker is there.
    pub fn on_request(&mut self) {
        let size = match &self.source {
            Some(ModelSource::Bundled { .. }) => DownloadSize::Known {
                bytes: BUNDLED_BYTES,
                cached: false,
            },
            _ => DownloadSize::Asking,
        };
        self.status = ModelStatus::OnRequest { size };
    }

    /// The user confirmed the download a link or the repo box asked for.
    pub fn confirm(&mut self) -> Option<ToWorker> {
        // Past what wasm32 addresses: the download would only end in a crash.
        if self.memory_warning.is_some_and(|w| w.beyond_wasm) {
            return None;
        }
        // A repo of llama.cpp files: one of them must be chosen first.
        if self.gguf_choice().is_some_and(|c| c.chosen.is_none()) {
            return None;
        }
        let source = self.source.clone()?;
        Some(self.load(source))
    }

    /// A typed repo waits for the user's word, and a model is there to keep.
    pub fn can_keep_current(&self) -> bool {
        self.before_confirm.is_some()
    }

    /// The typed repo is not downloaded after all: the model in the worker stays.
    pub fn keep_current(&mut self) {
        if let Some(b) = self.before_confirm.take() {
            (self.status, self.source) = *b;
            self.memory_warning = None;
        }
    }

    pub fn load_bundled(&mut self) -> ToWorker {
        self.load(bundled())
    }

    pub fn set_hub_repo(&mut self, text: &str) {
        self.hub_repo = text.trim().to_string();
    }

    /// The repo in the box: its size is asked for first and shown, and it
    /// downloads once the user says so (`confirm`), as a share link's does;
    /// or why it is not a repo id.
    pub fn load_hub(&mut self) -> Option<ToWorker> {
        if !self.hub_repo_valid() {
            return None;
        }
        let repo = self.hub_repo.clone();
        let source = ModelSource::from_fetched_name(&repo)?;
        if self.source.as_ref() == Some(&source) && self.is_ready() {
            return None;
        }
        if self.before_confirm.is_none() && self.is_ready() {
            self.before_confirm = Some(Box::new((self.status.clone(), self.source.clone())));
        }
        self.hub_is_default = false;
        self.status = ModelStatus::Confirm {
            repo: repo.clone(),
            size: DownloadSize::Asking,
            typed: true,
        };
        self.source = Some(source);
        self.measured_shape = None;
        self.gguf_offer = None;
        self.memory_warning =
            super::model_catalog::find(&repo).and_then(|m| self.warning_for(m.download_bytes));
        Some(ToWorker::Measure { repo })
    }

    fn hub_repo_valid(&mut self) -> bool {
        let valid = ntl_protocol::hub_gguf::parse_hub_name(&self.hub_repo).is_some();
        if !valid {
            self.status = ModelStatus::Failed {
                message: Said::NotARepoId(self.hub_repo.clone()),
                file: None,
                network: false,
            };
        }
        valid
    }

    /// A model picked from the list, whose size the list showed: loads now.
    pub fn load_hub_now(&mut self) -> Option<ToWorker> {
        if !ntl_protocol::valid_repo_id(&self.hub_repo) {
            self.status = ModelStatus::Failed {
                message: Said::NotARepoId(self.hub_repo.clone()),
                file: None,
                network: false,
            };
            return None;
        }
        self.hub_is_default = false;
        let message = self.load(ModelSource::Hub {
            repo: self.hub_repo.clone(),
            gguf: None,
        });
        // A listed model's size is known before the hub is asked.
        self.memory_warning = super::model_catalog::find(&self.hub_repo)
            .and_then(|m| self.warning_for(m.download_bytes));
        Some(message)
    }

    /// A folder from the site's list, whose size the list shows: loads now,
    /// unless its weights are past what wasm32 addresses (the warning says so
    /// and the model in use stays).
    pub fn load_folder_now(&mut self, path: &str) -> Option<ToWorker> {
        if !ntl_protocol::valid_folder_path(path) {
            return None;
        }
        let listed = self.site_models.iter().find(|m| m.path() == path);
        let warning = listed.and_then(|m| m.bytes).and_then(|b| {
            let need = self.kept(MemoryNeed::estimate(b, None), false);
            memory_warning(need, self.device_memory_gb)
        });
        if warning.is_some_and(|w| w.beyond_wasm) {
            self.memory_warning = warning;
            return None;
        }
        self.hub_is_default = false;
        let message = self.load(ModelSource::Folder { path: path.into() });
        self.memory_warning = warning;
        Some(message)
    }

    /// Files the user picked; they cannot be read again after a worker
    /// crash, so there is no source to reload.
    pub fn load_files(&mut self, names: Vec<String>) -> ToWorker {
        self.hold_previous();
        // A MiniGPT's .pt picked without the config.json that would say its heads.
        let heads = (names
            .iter()
            .any(|n| ntl_protocol::picked::state_dict_stem(n).is_some())
            && !names.iter().any(|n| n == "config.json"))
        .then_some(self.minigpt_heads);
        let source = ModelSource::Files { names };
        self.status = ModelStatus::Loading {
            source: Some(source.clone()),
            file: "model.safetensors".into(),
            loaded: 0,
            total: None,
            retry: None,
        };
        self.source = None;
        ToWorker::Load {
            source,
            weights: self.weights(),
            heads,
        }
    }

    /// The model in use or loading, and what it needs of memory when known.
    pub fn memory_facts(&self) -> (Option<ModelSource>, Option<MemoryNeed>) {
        let need = match &self.status {
            ModelStatus::Ready { info, .. } => Some(MemoryNeed::estimate(
                info.weight_bytes as u64,
                Some(&ModelShape::of(info)),
            ))
            .map(|need| {
                match info.storage_dtype.starts_with("Q8_0 (quantized at load") {
                    // The weights as kept: 34 bytes per 32 parameters.
                    true => need.with_weights(info.parameters as u64 * 34 / 32),
                    false => need,
                }
            }),
            ModelStatus::Loading { file, total, .. } if is_weights(file) => {
                total.map(|t| self.kept(MemoryNeed::estimate(t, self.shape()), is_gguf_name(file)))
            }
            _ => None,
        };
        (self.source.clone(), need)
    }

    /// The measured shape of the hub model or folder in use, if it was measured.
    fn shape(&self) -> Option<&ModelShape> {
        let name = self.source.as_ref().and_then(ModelSource::fetched_name)?;
        match &self.measured_shape {
            Some((measured, shape)) if *measured == name => Some(shape),
            _ => None,
        }
    }

    /// The warning for weights of `bytes` of the model in use, if any.
    fn warning_for(&self, bytes: u64) -> Option<MemoryWarning> {
        memory_warning(
            self.kept(MemoryNeed::estimate(bytes, self.shape()), self.is_gguf()),
            self.device_memory_gb,
        )
    }

    /// The worker is gone, and the model with it.
    pub fn failed(&mut self, message: Said) {
        self.previous = None;
        self.status = ModelStatus::Failed {
            message,
            file: None,
            network: false,
        };
    }

    /// Picked files that make no model: the worker never saw them, so the
    /// model it holds is still there to go on with.
    pub fn pick_refused(&mut self, message: Said) {
        self.hold_previous();
        self.status = ModelStatus::Failed {
            message,
            file: None,
            network: false,
        };
    }

    pub fn progress(&mut self, file: String, loaded: u64, total: Option<u64>) {
        if let (true, Some(total)) = (is_weights(&file), total) {
            self.memory_warning = self.warning_for(total);
        }
        let source = match &self.status {
            ModelStatus::Loading { source, .. } => source.clone(),
            _ => None,
        };
        self.status = ModelStatus::Loading {
            source,
            file,
            loaded,
            total,
            retry: None,
        };
    }

    /// The download waits `seconds` before its `attempt`-th try: the bar
    /// stays where it was, with the countdown beside it.
    pub fn retrying(&mut self, file: String, why: NetTrouble, seconds: u32, attempt: u32, of: u32) {
        let countdown = Retry::Countdown {
            why,
            seconds,
            attempt,
            of,
        };
        match &mut self.status {
            ModelStatus::Loading { file: f, retry, .. } => {
                *f = file;
                *retry = Some(countdown);
            }
            _ => {
                self.status = ModelStatus::Loading {
                    source: None,
                    file,
                    loaded: 0,
                    total: None,
                    retry: Some(countdown),
                }
            }
        }
    }

    /// Another tab is downloading `file`; the bar waits until it is done.
    pub fn waiting(&mut self, file: String) {
        if let ModelStatus::Loading { file: f, retry, .. } = &mut self.status {
            *retry = Some(Retry::OtherTab { file: file.clone() });
            *f = file;
        }
    }

    pub fn loaded(&mut self, info: ModelInfo, source: ModelSource, load_ms: f64, threads: u32) {
        self.previous = None;
        self.status = ModelStatus::Ready {
            info,
            source,
            load_ms,
            threads,
        };
    }

    /// A load that failed. The default hub model, unreachable, gives way to
    /// the bundled one: the message to load it, and the notice that says why.
    pub fn load_failed(
        &mut self,
        file: Option<String>,
        trouble: LoadTrouble,
        network: bool,
        kept: bool,
    ) -> Option<(ToWorker, Said)> {
        if !kept {
            self.previous = None;
        }
        let hub = matches!(self.source, Some(ModelSource::Hub { .. }));
        if network && hub && self.hub_is_default {
            self.hub_is_default = false;
            return Some((self.load_bundled(), Said::HubOffline(trouble)));
        }
        self.status = ModelStatus::Failed {
            message: Said::Load(trouble),
            file,
            network,
        };
        None
    }

    /// The model a share link can name: picked files cannot travel in a
    /// link, which then opens on the default model.
    /// The loaded model's vocabulary; GPT-2's before one is loaded (a replay).
    pub fn vocab_size(&self) -> usize {
        match &self.status {
            ModelStatus::Ready { info, .. } => info.vocab_size,
            _ => 50257,
        }
    }

    pub fn link_name(&self) -> Option<String> {
        match &self.source {
            Some(ModelSource::Bundled { .. }) => Some(BUNDLED.into()),
            Some(s @ (ModelSource::Hub { .. } | ModelSource::Folder { .. })) => s.fetched_name(),
            Some(ModelSource::Files { .. }) | None => None,
        }
    }
}

/// A file the progress bar names that holds weights (`model.safetensors`,
/// a shard, `model.gguf`, a hub repo's `SmolLM2-135M-Q8_0.gguf`).
fn is_weights(file: &str) -> bool {
    file.starts_with("model") || is_gguf_name(file)
}

fn is_gguf_name(file: &str) -> bool {
    file.to_ascii_lowercase().ends_with(".gguf")
}

/// A hub repo's `.gguf` files, as measured for the repo named `repo`.
#[derive(Debug, Clone, PartialEq)]
struct GgufOffer {
    repo: String,
    listing: Rc<Listing>,
}

/// What the confirm line offers of a repo of llama.cpp files.
#[derive(Debug, Clone, PartialEq)]
pub struct GgufChoice {
    pub listing: Rc<Listing>,
    /// The file the name picks, if it picks one.
    pub chosen: Option<String>,
}

/// Weights that may not fit the device: their size, the memory they need
/// to run, and what the device reports (the page words it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryWarning {
    pub bytes: u64,
    /// What the tab needs at its peak ([`MemoryNeed::in_tab`]).
    pub need_bytes: u64,
    /// What WebAssembly's memory must hold ([`MemoryNeed::in_wasm`]).
    pub wasm_bytes: u64,
    /// The tokens per lane the estimate's cache holds, when the shape was known.
    pub cache_tokens: Option<usize>,
    /// `navigator.deviceMemory`, where the browser says it (Chromium).
    pub device_gb: Option<f64>,
    /// More than wasm32 can address: no device runs it in a tab, and the
    /// page does not start the download.
    pub beyond_wasm: bool,
}

/// What WebAssembly's 32-bit memory can hold at most (4 GiB), every byte of
/// the worker's heap included.
pub const WASM32_BYTES: u64 = 1 << 32;

/// A warning when a model needing `need` may not fit: a tab gets about half
/// of the device's memory, and no tab's WebAssembly more than 4 GiB (the
/// downloaded file is held outside it).
pub fn memory_warning(need: MemoryNeed, device_gb: Option<f64>) -> Option<MemoryWarning> {
    let need_bytes = need.in_tab();
    let device_gb = device_gb.filter(|g| *g > 0.0);
    let beyond_wasm = need.in_wasm() > WASM32_BYTES;
    let beyond_device = device_gb.is_some_and(|gb| need_bytes as f64 / 1e9 > gb / 2.0);
    (beyond_wasm || beyond_device).then_some(MemoryWarning {
        bytes: need.weights,
        need_bytes,
        wasm_bytes: need.in_wasm(),
        cache_tokens: need.cache_tokens,
        device_gb,
        beyond_wasm,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A model's facts, for tests that need one loaded.
    pub(crate) fn info() -> ModelInfo {
        ModelInfo {
            architecture: "GPT2LMHeadModel".into(),
            parameters: 1,
            n_layer: 1,
            n_head: 1,
            n_kv_head: None,
            n_embd: 1,
            vocab_size: 1,
            n_positions: 2,
            storage_dtype: "F16".into(),
            weight_bytes: 1,
            generation_defaults: None,
            chat_template: false,
        }
    }

    #[test]
    fn the_default_hub_model_falls_back_to_the_bundled_one_when_the_hub_is_unreachable() {
        let mut m = ModelState::new(None, false);
        assert_eq!(m.link_name().as_deref(), Some(DEFAULT_HUB_REPO));
        m.reload();
        let (msg, notice) = m
            .load_failed(
                None,
                LoadTrouble::Other {
                    message: "offline".into(),
                },
                true,
                false,
            )
            .expect("falls back");
        assert_eq!(
            msg,
            ToWorker::Load {
                source: bundled(),
                weights: LoadWeights::AsStored,
                heads: None
            }
        );
        assert!(notice.to_string().contains("(offline)"), "{notice}");
        assert_eq!(m.link_name().as_deref(), Some(BUNDLED));
        // The bundled model failing too is reported, not retried.
        assert!(m
            .load_failed(
                None,
                LoadTrouble::Other {
                    message: "gone".into()
                },
                true,
                false
            )
            .is_none());
        assert!(matches!(m.status, ModelStatus::Failed { .. }));
    }

    #[test]
    fn a_model_the_user_chose_does_not_fall_back() {
        let mut m = ModelState::new(Some("openai-community/gpt2"), false);
        assert_eq!(m.status, ModelStatus::Starting);
        assert!(m
            .load_failed(
                Some("model.safetensors".into()),
                LoadTrouble::Other {
                    message: "cut".into()
                },
                true,
                false
            )
            .is_none());
        let mut m = ModelState::new(None, false);
        m.set_hub_repo(" openai-community/gpt2 ");
        assert!(m.load_hub().is_some());
        assert!(m
            .load_failed(
                None,
                LoadTrouble::Other {
                    message: "offline".into()
                },
                true,
                false
            )
            .is_none());
    }

    #[test]
    fn a_link_naming_another_hub_model_waits_for_the_users_word() {
        let mut m = ModelState::new(Some("someone/big-model"), true);
        assert_eq!(
            m.status,
            ModelStatus::Confirm {
                repo: "someone/big-model".into(),
                size: DownloadSize::Asking,
                typed: false,
            }
        );
        assert_eq!(
            m.reload(),
            Some(ToWorker::Measure {
                repo: "someone/big-model".into()
            }),
            "a started worker only measures it"
        );
        let msg = m.confirm().expect("confirmed");
        assert!(matches!(
            msg,
            ToWorker::Load {
                source: ModelSource::Hub { .. },
                ..
            }
        ));
        assert!(m.status.is_busy());
    }

    #[test]
    fn only_the_bundled_model_a_hub_repo_id_or_a_folder_beside_the_page_is_taken_from_the_address()
    {
        assert_eq!(
            ModelState::new(Some("bundled"), true).source,
            Some(bundled())
        );
        for hostile in [
            "https://evil.example/x",
            "https://evil.example/models/x/",
            "//evil.example/models/x/",
            "../secret/",
            "/models/x/",
        ] {
            let m = ModelState::new(Some(hostile), true);
            assert_eq!(
                m.link_name().as_deref(),
                Some(DEFAULT_HUB_REPO),
                "{hostile}"
            );
        }
        let mut m = ModelState::new(None, false);
        m.set_hub_repo("../../etc");
        assert_eq!(m.load_hub(), None);
        assert!(matches!(m.status, ModelStatus::Failed { .. }));
    }

    #[test]
    fn picked_files_are_not_reloaded_after_a_crash_and_cannot_travel_in_a_link() {
        let mut m = ModelState::new(None, false);
        m.load_files(vec!["config.json".into()]);
        assert_eq!(m.reload(), None);
        assert_eq!(m.link_name(), None);
    }

    #[test]
    fn progress_keeps_the_source_and_loaded_makes_it_ready() {
        let mut m = ModelState::new(Some("bundled"), false);
        m.reload();
        m.progress("model.safetensors".into(), 5, Some(10));
        let bundled = match &m.status {
            ModelStatus::Loading { source, loaded, .. } => {
                assert!(matches!(source, Some(ModelSource::Bundled { .. })));
                assert_eq!(*loaded, 5);
                source.clone().unwrap()
            }
            other => panic!("{other:?}"),
        };
        m.loaded(info(), bundled, 10.0, 2);
        assert!(m.is_ready());
    }

    #[test]
    fn weights_too_large_for_the_device_warn_before_the_bytes_arrive() {
        let need = |bytes| MemoryNeed::estimate(bytes, None);
        // distilgpt2 (352 MB of F32) on a 1 GB phone, a 4 GB laptop, and where unknown.
        assert_eq!(
            memory_warning(need(352_000_000), Some(1.0)),
            Some(MemoryWarning {
                bytes: 352_000_000,
                need_bytes: need(352_000_000).in_tab(),
                wasm_bytes: need(352_000_000).in_wasm(),
                cache_tokens: None,
                device_gb: Some(1.0),
                beyond_wasm: false,
            })
        );
        assert_eq!(memory_warning(need(352_000_000), Some(4.0)), None);
        assert!(memory_warning(need(1_100_000_000), Some(2.0)).is_some());
        assert_eq!(memory_warning(need(352_000_000), None), None);
        // Past what wasm32 addresses, on any device and where none is known.
        let huge = memory_warning(need(4_000_000_000), None).expect("4.5 GB in wasm");
        assert!(huge.beyond_wasm && huge.device_gb.is_none());
        assert!(
            memory_warning(need(4_000_000_000), Some(32.0))
                .unwrap()
                .beyond_wasm
        );
        assert_eq!(
            memory_warning(need(3_000_000_000), None),
            None,
            "3.4 GB in wasm fits, the file held outside it"
        );
        let mut m = ModelState::new(None, false);
        m.device_memory_gb = Some(0.5);
        m.reload();
        m.progress("config.json".into(), 0, Some(700));
        assert_eq!(m.memory_warning, None, "only the weights count");
        m.progress("model.safetensors".into(), 0, Some(352_000_000));
        assert!(m.memory_warning.is_some());
        m.load_bundled();
        assert_eq!(m.memory_warning, None, "another load starts without it");
    }

    #[test]
    fn a_listed_model_warns_of_its_memory_as_its_load_starts_before_any_byte_arrives() {
        let mut m = ModelState::new(Some(BUNDLED), false);
        m.device_memory_gb = Some(2.0);
        m.set_hub_repo(" Qwen/Qwen2.5-0.5B-Instruct ");
        let repo = "Qwen/Qwen2.5-0.5B-Instruct".to_string();
        assert_eq!(
            m.load_hub_now(),
            Some(ToWorker::Load {
                source: ModelSource::Hub { repo, gguf: None },
                weights: LoadWeights::AsStored,
                heads: None
            })
        );
        assert_eq!(m.memory_warning.map(|w| w.bytes), Some(988_097_824));
        // A repo the list does not know waits for the hub's size.
        m.set_hub_repo("someone/gpt2-variant");
        assert!(m.load_hub_now().is_some());
        assert_eq!(m.memory_warning, None);
    }

    #[test]
    fn a_typed_repo_asks_its_size_first_and_downloads_only_when_confirmed_or_keeps_the_model() {
        let mut m = ModelState::new(Some(BUNDLED), false);
        let bundled = m.reload().unwrap();
        let ToWorker::Load { source, .. } = bundled else {
            panic!()
        };
        m.loaded(info(), source, 1.0, 1);
        m.set_hub_repo("someone/gpt2-variant");
        assert_eq!(
            m.load_hub(),
            Some(ToWorker::Measure {
                repo: "someone/gpt2-variant".into()
            }),
            "nothing is downloaded yet"
        );
        assert!(matches!(
            m.status,
            ModelStatus::Confirm {
                typed: true,
                size: DownloadSize::Asking,
                ..
            }
        ));
        assert!(m.can_keep_current());
        m.measured("someone/gpt2-variant", Some(500_000_000), false, None, None);
        // Not after all: the bundled model, still in the worker, is back.
        m.keep_current();
        assert!(m.is_ready());
        assert_eq!(m.link_name().as_deref(), Some(BUNDLED));
        // Asked again, and confirmed: now it downloads.
        assert!(matches!(m.load_hub(), Some(ToWorker::Measure { .. })));
        assert!(matches!(m.confirm(), Some(ToWorker::Load { .. })));
        assert!(!m.can_keep_current());
        // A repo id that is not one is refused at once.
        m.set_hub_repo("not a repo");
        assert_eq!(m.load_hub(), None);
        assert!(matches!(m.status, ModelStatus::Failed { .. }));
    }

    #[test]
    fn a_links_model_shows_its_size_and_memory_warning_before_the_download() {
        let mut m = ModelState::new(Some("someone/big-model"), true);
        m.device_memory_gb = Some(1.0);
        m.reload();
        m.measured("someone/other", Some(5), false, None, None);
        assert!(
            matches!(
                m.status,
                ModelStatus::Confirm {
                    size: DownloadSize::Asking,
                    ..
                }
            ),
            "an answer about another repo is stale"
        );
        m.measured("someone/big-model", Some(1_400_000_000), false, None, None);
        assert!(matches!(
            m.status,
            ModelStatus::Confirm {
                size: DownloadSize::Known {
                    bytes: 1_400_000_000,
                    cached: false
                },
                ..
            }
        ));
        assert_eq!(m.memory_warning.map(|w| w.bytes), Some(1_400_000_000));
        m.measured("someone/big-model", None, false, None, None);
        assert!(matches!(
            m.status,
            ModelStatus::Confirm {
                size: DownloadSize::Unknown,
                ..
            }
        ));
        assert_eq!(m.memory_warning, None);
        // Once the user agrees the download starts as before.
        assert!(matches!(m.confirm(), Some(ToWorker::Load { .. })));
        m.measured("someone/big-model", Some(5), true, None, None);
        assert!(
            matches!(m.status, ModelStatus::Loading { .. }),
            "a late answer changes nothing"
        );
    }

    #[test]
    fn waiting_for_another_tab_is_said_until_bytes_flow() {
        let mut m = ModelState::new(Some("bundled"), false);
        m.reload();
        m.waiting("model.safetensors".into());
        assert!(
            matches!(&m.status, ModelStatus::Loading { retry: Some(Retry::OtherTab { file: f }), file, .. }
            if f == "model.safetensors" && file == "model.safetensors")
        );
        m.progress("model.safetensors".into(), 10, Some(100));
        assert!(matches!(
            &m.status,
            ModelStatus::Loading { retry: None, .. }
        ));
    }

    #[test]
    fn a_retry_keeps_the_bar_and_counts_down_until_bytes_flow_again() {
        let mut m = ModelState::new(Some("bundled"), false);
        m.reload();
        m.progress("model.safetensors".into(), 60, Some(100));
        let why = NetTrouble::HubAnswered {
            status: 503,
            text: String::new(),
        };
        m.retrying("model.safetensors".into(), why, 2, 2, 5);
        match &m.status {
            ModelStatus::Loading {
                loaded,
                total,
                retry,
                ..
            } => {
                assert_eq!((*loaded, *total), (60, Some(100)));
                let shown = retry
                    .as_ref()
                    .map(|r| crate::i18n::I18n::default().retry(r));
                assert_eq!(
                    shown.as_deref(),
                    Some("the hub answered 503; trying again in 2 s (try 2 of 5)")
                );
            }
            other => panic!("{other:?}"),
        }
        m.progress("model.safetensors".into(), 70, Some(100));
        assert!(matches!(
            &m.status,
            ModelStatus::Loading {
                retry: None,
                loaded: 70,
                ..
            }
        ));
    }

    #[test]
    fn a_model_folder_loads_from_the_address_at_once_and_from_a_link_after_its_size_is_shown() {
        let path = "models/class-gpt2/";
        let folder = ModelSource::Folder { path: path.into() };
        let mut m = ModelState::new(Some(path), false);
        assert_eq!(
            m.reload(),
            Some(ToWorker::Load {
                source: folder.clone(),
                weights: LoadWeights::AsStored,
                heads: None
            })
        );
        assert_eq!(
            m.link_name().as_deref(),
            Some(path),
            "a link made now names it"
        );
        // A link's folder waits, its size and shape asked of the page's own server.
        let mut m = ModelState::new(Some(path), true);
        assert_eq!(m.reload(), Some(ToWorker::Measure { repo: path.into() }));
        let shape = ModelShape {
            n_layer: 6,
            n_head: 12,
            n_kv_head: 12,
            head_dim: 64,
            n_embd: 768,
            vocab_size: 50257,
            n_positions: 1024,
        };
        m.device_memory_gb = Some(1.0);
        m.measured(path, Some(352_000_000), false, Some(shape), None);
        let warning = m.memory_warning.expect("0.94 GB on a 1 GB device");
        assert_eq!(warning.cache_tokens, Some(1024), "its config's context");
        assert_eq!(
            m.confirm(),
            Some(ToWorker::Load {
                source: folder,
                weights: LoadWeights::AsStored,
                heads: None
            })
        );
    }

    #[test]
    fn a_confirmed_download_past_wasm32s_memory_does_not_start() {
        let mut m = ModelState::new(Some("big/model"), true);
        assert!(
            matches!(m.status, ModelStatus::Confirm { .. }),
            "a link's model waits"
        );
        m.measured("big/model", Some(4_500_000_000), false, None, None);
        assert!(m.memory_warning.unwrap().beyond_wasm);
        assert_eq!(m.confirm(), None);
        m.measured("big/model", Some(300_000_000), false, None, None);
        assert!(m.confirm().is_some(), "one that fits loads");
    }
}
