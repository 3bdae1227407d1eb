//! The worker protocol. Messages travel as JSON strings; model files the user
//! picks travel beside them as transferred `ArrayBuffer`s, and the threaded
//! worker's request for helper threads is an object (`helper_threads`).

pub use model_shape::ModelShape;
use ntl_decoding::inspect::{Prediction, PromptToken};
use ntl_decoding::{Document, Knob, LaneConfig, Mode, Step, StopReason};
pub use ntl_decoding::{LaneRequest, ModelInfo};
use serde::{Deserialize, Serialize};

pub mod hub_gguf;
pub mod lesson;
pub mod model_shape;
pub mod picked;
pub mod share;
pub mod site_models;
pub mod trouble;

/// Besides the helpers' request, the one worker message that is not JSON: the zipped
/// model folder `SaveFolder` asked for, its buffer transferred.
pub mod saved_folder {
    /// The zip's file name (a string).
    pub const NAME: &str = "saved_folder";
    /// The zip (an `ArrayBuffer`).
    pub const BYTES: &str = "bytes";
}

/// The threaded worker's helper threads are started by the page, not by the
/// worker: Firefox ESR's `Worker` constructor, called inside a worker just
/// after it instantiated its shared-memory module, sometimes never returns
/// (3 page loads in 40 here), and the page then waits for ever. So the
/// threaded worker's first message is not JSON but an object
/// with these fields. Its creator starts `COUNT` helpers from `SCRIPT` and
/// posts each `{ module, memory }`; it terminates them with the worker.
pub mod helper_threads {
    /// How many helpers the worker asks for (a number).
    pub const COUNT: &str = "helper_threads";
    /// The worker's `WebAssembly.Module`.
    pub const MODULE: &str = "module";
    /// The worker's shared `WebAssembly.Memory`.
    pub const MEMORY: &str = "memory";
    /// The helper's script, beside the worker's.
    pub const SCRIPT: &str = "./worker_mt_helper.js";
    /// Most helpers the worker asks for, and a page starts.
    pub const MAX: u32 = 3;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRequest {
    pub prompt: String,
    pub lanes: Vec<LaneRequest>,
    #[serde(default = "default_top_n")]
    pub top_n: usize,
    /// Sampling lanes share one uniform draw per step (seeded by this).
    #[serde(default)]
    pub shared_seed: Option<u64>,
    /// Branching: start from these token ids instead of encoding `prompt`
    /// (the prompt, the tokens up to a step and the candidate picked there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_ids: Option<Vec<u32>>,
    /// Scoring a text: every lane without its own `forced_ids` follows this
    /// text's tokens and records what its configuration gave each of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_text: Option<String>,
    /// Guidance (`guidance_scale` lanes) steers away from this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative_prompt: Option<String>,
    /// Record each one-sequence lane's logit lens (costs a head product
    /// per layer and step, so only while the page shows it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lens: bool,
    /// A model per lane: lane `i` runs on the lane model named `lane_models[i]`
    /// (loaded with `LoadLaneModel`), or on the page's model where it is
    /// `None` or missing. Each model's lanes run as one batch, exactly the
    /// run that model makes alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lane_models: Vec<Option<String>>,
}

/// A sample tree: one sampling lane run `samples` times for `tokens`
/// tokens each, counted where the samples branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeRequest {
    pub prompt: String,
    /// Start from these ids instead of encoding `prompt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_ids: Option<Vec<u32>>,
    /// The lane every sample runs (a sampling config; no `forced_ids`).
    pub lane: LaneRequest,
    pub samples: usize,
    pub tokens: usize,
}

fn default_top_n() -> usize {
    20
}

impl Default for RunRequest {
    fn default() -> Self {
        RunRequest {
            prompt: String::new(),
            lanes: vec![],
            top_n: default_top_n(),
            shared_seed: None,
            prompt_ids: None,
            forced_text: None,
            negative_prompt: None,
            lens: false,
            lane_models: vec![],
        }
    }
}

/// Where the worker gets a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelSource {
    /// Served with the page: `{base}/config.json` etc.
    Bundled { base: String },
    /// A public model hub repo such as `distilbert/distilgpt2`; for a repo
    /// of llama.cpp files, which `.gguf` (a quant tag or the file's name).
    Hub {
        repo: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gguf: Option<String>,
    },
    /// Files the user picked; their bytes arrive as transferred buffers.
    Files { names: Vec<String> },
    /// A model folder hosted beside the page (`models/gpt2/`), fetched from
    /// the page's own origin as a hub repo's files are.
    Folder { path: String },
}

impl ModelSource {
    /// A hub repo id (with its `.gguf` selector, `owner/name:Q4_K_M`) or a
    /// model folder's path: a model fetched by a name a link carries,
    /// measured and confirmed before it downloads.
    pub fn fetched_name(&self) -> Option<String> {
        match self {
            ModelSource::Hub { repo, gguf } => Some(hub_gguf::hub_name(repo, gguf.as_deref())),
            ModelSource::Folder { path } => Some(path.clone()),
            ModelSource::Bundled { .. } | ModelSource::Files { .. } => None,
        }
    }

    /// The source a fetched name (`owner/name`, `owner/name:Q4_K_M`,
    /// `models/x/`) stands for; `None` for anything else.
    pub fn from_fetched_name(name: &str) -> Option<ModelSource> {
        if let Some(hub) = hub_gguf::parse_hub_name(name) {
            return Some(ModelSource::Hub {
                repo: hub.repo.into(),
                gguf: hub.gguf.map(String::from),
            });
        }
        valid_folder_path(name).then(|| ModelSource::Folder { path: name.into() })
    }
}

/// A model folder beside the page: a relative path of one to six names of
/// letters, digits, `-`, `_`, `.` (none starting with a dot), ending in `/`,
/// so it can only name a folder on the page's own origin — no scheme, no
/// host, no `..`, no query. The trailing slash tells it from a hub repo id.
pub fn valid_folder_path(path: &str) -> bool {
    let Some(inner) = path.strip_suffix('/') else {
        return false;
    };
    let parts: Vec<&str> = inner.split('/').collect();
    path.len() <= 200
        && (1..=6).contains(&parts.len())
        && parts.iter().all(|p| {
            !p.is_empty()
                && !p.starts_with('.')
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
}

/// A model name a link, a lesson or `?model=` may carry: the bundled model,
/// a hub repo id, or a model folder beside the page.
pub fn valid_model_name(name: &str) -> bool {
    name == share::BUNDLED || ModelSource::from_fetched_name(name).is_some()
}

/// Where a named hub repo's or model folder's files are fetched from.
pub fn model_base(name: &str) -> Option<String> {
    if let Some(hub) = hub_gguf::parse_hub_name(name) {
        Some(hub_base(hub.repo))
    } else if valid_folder_path(name) {
        Some(name.trim_end_matches('/').to_string())
    } else {
        None
    }
}

/// A hub repo id: `owner/name` of letters, digits, `-`, `_`, `.`; nothing that
/// could turn a share link into a fetch of some other address.
pub fn valid_repo_id(repo: &str) -> bool {
    let parts: Vec<&str> = repo.split('/').collect();
    parts.len() == 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 96
                && !p.starts_with('.')
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
        && !repo.contains("..")
}

/// The Cache API cache the worker keeps model files in (the page lists and
/// forgets them).
pub const MODEL_CACHE: &str = "ntl-models-v1";

/// Where a hub repo's files are downloaded from.
pub fn hub_base(repo: &str) -> String {
    format!("https://huggingface.co/{repo}/resolve/main")
}

/// The repo id a hub base names (the inverse of [`hub_base`]).
pub fn repo_of_base(base: &str) -> Option<&str> {
    let repo = base
        .strip_prefix("https://huggingface.co/")?
        .strip_suffix("/resolve/main")?;
    valid_repo_id(repo).then_some(repo)
}

/// How the worker keeps a safetensors model's weight matrices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LoadWeights {
    /// As the file stores them: the HF-exact path.
    #[default]
    #[serde(rename = "as_stored")]
    AsStored,
    /// Quantized to Q8_0 blocks while loading: a quarter of f32's memory
    /// (half of 16-bit's), probabilities slightly off full precision.
    #[serde(rename = "q8_0")]
    Q8_0,
}

impl LoadWeights {
    pub fn is_as_stored(&self) -> bool {
        *self == LoadWeights::AsStored
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    Load {
        source: ModelSource,
        /// How a safetensors model's matrices are kept; a `.gguf` file
        /// keeps the types it was quantized to.
        #[serde(default, skip_serializing_if = "LoadWeights::is_as_stored")]
        weights: LoadWeights,
        /// A MiniGPT's head count, which its `minigpt.pt` cannot say: sent
        /// for picked files without a `config.json` (the page's field).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        heads: Option<usize>,
    },
    /// A model a lane names (`RunRequest::lane_models`), loaded beside the
    /// page's model, which stays; loading a name again replaces it.
    /// Answered by `LaneModelLoaded` or `LaneModelFailed`.
    LoadLaneModel {
        name: String,
        source: ModelSource,
        #[serde(default, skip_serializing_if = "LoadWeights::is_as_stored")]
        weights: LoadWeights,
    },
    /// Lets a lane model go (its memory with it).
    ForgetLaneModel {
        name: String,
    },
    /// The MiniGPT in use as a model folder (`config.json`,
    /// `model.safetensors`, `tokenizer.json`), zipped: answered by a
    /// [`saved_folder`] message with the bytes, or a `SaveFailed`.
    SaveFolder {
        /// The folder's name inside the zip (`minigpt`).
        name: String,
    },
    Run {
        run_id: u64,
        request: RunRequest,
    },
    /// Grows a sample tree; `Cancel` with its `run_id` stops it, keeping
    /// what it grew.
    Tree {
        run_id: u64,
        request: Box<TreeRequest>,
    },
    Cancel {
        run_id: u64,
    },
    /// The what-if sandbox on one step: the distribution after `ids` (a
    /// lane's context before the step; the worker keeps the last row it
    /// computed) with only `knobs` applied, the lane's pick `chosen` marked.
    WhatIf {
        request_id: u64,
        ids: Vec<u32>,
        prompt_len: usize,
        chosen: u32,
        /// The knobs act on log-probabilities, as in beam search.
        #[serde(default)]
        log_probs: bool,
        /// A beam lane's own end-of-text ids, when its config names them
        /// (otherwise the model's, as in the run): its warpers keep one
        /// token more than it has per beam.
        #[serde(default)]
        eos_token_ids: Option<Vec<u32>>,
        knobs: Vec<(Knob, f64)>,
        /// The lane's model: a lane model's name (`None`: the page's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    /// How far a lane's step is from another loaded model's after the same
    /// context (`ids`: the lane's prompt ids and its tokens before the step):
    /// the lane's model `model` against `reference` (each a lane model's
    /// name; `None`: the page's model). Answered by `Drifted`.
    Drift {
        request_id: u64,
        ids: Vec<u32>,
        #[serde(default)]
        model: Option<String>,
        #[serde(default)]
        reference: Option<String>,
    },
    /// The token inspector: `text` as the model's tokens, and its predictions
    /// at every position.
    Inspect {
        request_id: u64,
        text: String,
    },
    /// Text to token ids, no model pass (the inspector's look-up).
    Tokenize {
        request_id: u64,
        text: String,
    },
    /// How much a hub model's or a model folder's weights would download, asked (with HEAD
    /// requests, or the cache) before the user agrees to the download.
    Measure {
        /// A hub repo id or a model folder path.
        repo: String,
    },
    /// A conversation through the model's chat template (HF's
    /// `apply_chat_template`), for the prompt box.
    RenderChat {
        messages: Vec<ntl_decoding::chat::ChatMessage>,
        add_generation_prompt: bool,
    },
}

/// Why the worker could not answer a request that needs its model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Unanswered {
    #[error("no model is loaded yet")]
    NoModel,
    /// The engine's own error: its types stay in the worker, its words travel.
    #[error("{message}")]
    Engine { message: String },
}

impl Unanswered {
    pub fn engine(e: impl std::error::Error) -> Unanswered {
        Unanswered::Engine {
            message: e.to_string(),
        }
    }
}

/// A step measured against another model: KL(reference ‖ lane) in nats and
/// each one's likeliest token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepDrift {
    pub drift: ntl_decoding::precision_drift::RowDrift,
    /// The lane's likeliest token and the reference's, as tables show them.
    pub top: String,
    pub reference_top: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneStart {
    pub mode: Mode,
    pub config: LaneConfig,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's wasm is running and listening.
    Ready,
    Progress {
        file: String,
        loaded: u64,
        total: Option<u64>,
    },
    /// A download waits before trying again (the hub said 429 or 5xx, or the
    /// connection dropped): posted once a second with the seconds left.
    Retrying {
        file: String,
        /// What happened (the hub answered 503, the connection dropped).
        why: trouble::NetTrouble,
        seconds: u32,
        attempt: u32,
        attempts: u32,
    },
    /// A download waits for another tab that is fetching the same file
    /// (a Web Lock per file), then reads it from the cache.
    Waiting {
        file: String,
    },
    /// Something the page should say while the model still loads or runs
    /// (the browser's storage is full, so the model will not be kept).
    Notice {
        notice: trouble::WorkerNotice,
    },
    /// The answer to `Measure`: the weights' bytes (`None`: the hub would
    /// not say), and whether they are already whole in this browser's cache.
    Measured {
        repo: String,
        bytes: Option<u64>,
        cached: bool,
        /// The sizes its `config.json` gives, for the cache's share of the
        /// memory estimate (`None`: no config, or one this engine cannot run).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shape: Option<ModelShape>,
        /// A hub repo of llama.cpp files: the `.gguf` files it offers, to
        /// choose from (`bytes` is the one the name's selector picks).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gguf: Option<hub_gguf::Listing>,
    },
    Loaded {
        info: ModelInfo,
        /// What was loaded (the page names it in the reader's language).
        source: ModelSource,
        load_ms: f64,
        /// The worker's wasm memory after loading (it never shrinks: a peak).
        #[serde(default)]
        memory_bytes: Option<u64>,
        /// Threads the engine works on: 1, or more in the threaded build.
        #[serde(default = "one_thread")]
        threads: u32,
    },
    /// A lane model is ready: its facts, as `Loaded` gives the page's model's.
    LaneModelLoaded {
        name: String,
        info: ModelInfo,
        load_ms: f64,
        #[serde(default)]
        memory_bytes: Option<u64>,
    },
    /// A lane model's download, as `Progress` is the page's model's (the
    /// worker loads one model at a time, so this is the load under way).
    LaneModelProgress {
        name: String,
        file: String,
        loaded: u64,
        total: Option<u64>,
    },
    /// A lane model could not load; the page's model and the other lane
    /// models stay.
    LaneModelFailed {
        name: String,
        file: Option<String>,
        trouble: trouble::LoadTrouble,
        network: bool,
    },
    LoadFailed {
        /// Which file was at fault, when one was.
        file: Option<String>,
        trouble: trouble::LoadTrouble,
        /// The network could not be reached (offer the bundled model).
        network: bool,
        /// The model loaded before is still in the worker (the load failed
        /// before it was let go): the page may go on with it.
        #[serde(default)]
        kept: bool,
    },
    /// `SaveFolder` could not be answered (no MiniGPT from a `.pt` is loaded).
    SaveFailed {
        why: String,
    },
    Started {
        run_id: u64,
        prompt_ids: Vec<u32>,
        prompt_cropped: usize,
        lanes: Vec<LaneStart>,
    },
    Step {
        run_id: u64,
        lane: usize,
        index: usize,
        step: Box<Step>,
        text: String,
    },
    LaneDone {
        run_id: u64,
        lane: usize,
        reason: StopReason,
    },
    Finished {
        run_id: u64,
        document: Document,
        /// Each run's best text as the page shows it: the document keeps HF's
        /// decoded text (U+FFFD where it ends mid-character), this one shows
        /// the dangling bytes as `<0xE4>`.
        #[serde(default)]
        shown_texts: Vec<String>,
        ms: f64,
        /// Time from the request to the first streamed step.
        #[serde(default)]
        first_step_ms: Option<f64>,
        #[serde(default)]
        memory_bytes: Option<u64>,
    },
    RunFailed {
        run_id: u64,
        /// The lane at fault, and the field as the lane names it (an HF
        /// knob, or a llama.cpp one), when they are known.
        lane: Option<usize>,
        field: Option<String>,
        /// The worker's words (its log; the page words `trouble` when there is one).
        message: String,
        #[serde(default)]
        trouble: Option<trouble::RunTrouble>,
    },
    /// A tree's growth, after each pass of the model.
    TreeGrowing {
        run_id: u64,
        /// The level being fed and the levels that need a pass.
        level: usize,
        levels: usize,
        /// Model rows computed so far (one per distinct prefix).
        rows: usize,
        /// Done, from 0 to 1.
        fraction: f64,
    },
    /// A finished or cancelled tree (its `complete` says which). A tree
    /// that could not start is a `RunFailed`.
    TreeGrown {
        run_id: u64,
        document: Box<ntl_decoding::sample_tree::TreeDocument>,
        ms: f64,
        #[serde(default)]
        memory_bytes: Option<u64>,
    },
    /// A what-if answer: the step as the knobs leave it, over `vocab` tokens.
    WhatIf {
        request_id: u64,
        step: Box<Step>,
        vocab: usize,
        /// Worker time for this answer, the forward pass included when the
        /// row was not kept.
        ms: f64,
    },
    WhatIfFailed {
        request_id: u64,
        field: Option<Knob>,
        message: String,
    },
    /// The answer to `Drift`, with each model's likeliest token as text.
    Drifted {
        request_id: u64,
        drift: Result<StepDrift, Unanswered>,
    },
    Inspected {
        request_id: u64,
        tokens: Vec<PromptToken>,
        /// After each token: the model's guesses, and the next token's rank.
        predictions: Vec<Prediction>,
        /// The model's context size (positions).
        context: usize,
        /// Tokens cut from the start of a prompt longer than the context.
        cropped: usize,
    },
    InspectFailed {
        request_id: u64,
        message: String,
    },
    Tokenized {
        request_id: u64,
        /// The text's tokens, or why there are none.
        tokens: Result<Vec<PromptToken>, Unanswered>,
    },
    /// The answer to `RenderChat`: the text the model reads, or why not.
    ChatRendered {
        text: Result<String, Unanswered>,
    },
}

fn one_thread() -> u32 {
    1
}

impl FromWorker {
    /// The run a message is about, when it is about one.
    pub fn run_id(&self) -> Option<u64> {
        match self {
            FromWorker::Started { run_id, .. }
            | FromWorker::Step { run_id, .. }
            | FromWorker::LaneDone { run_id, .. }
            | FromWorker::Finished { run_id, .. }
            | FromWorker::TreeGrowing { run_id, .. }
            | FromWorker::TreeGrown { run_id, .. }
            | FromWorker::RunFailed { run_id, .. } => Some(*run_id),
            _ => None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("protocol messages serialise")
    }
}

impl ToWorker {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("protocol messages serialise")
    }
}

/// A worker message the page could not read: its `type` when it has one,
/// and serde's account of what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("a worker message{} could not be read: {detail}", kind.as_deref().map(|k| format!(" of type `{k}`")).unwrap_or_default())]
pub struct Unreadable {
    pub kind: Option<String>,
    pub detail: String,
}

impl FromWorker {
    /// Reads one message as the page receives it. Never panics on any
    /// text (a fuzz target holds it to that).
    pub fn read(text: &str) -> Result<FromWorker, Unreadable> {
        serde_json::from_str(text).map_err(|e| Unreadable {
            kind: serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| Some(v.get("type")?.as_str()?.to_string())),
            detail: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_the_page_cannot_read_names_its_type_when_it_has_one() {
        let bad_step = r#"{"type": "step", "run_id": 1, "lane": "first"}"#;
        let u = FromWorker::read(bad_step).unwrap_err();
        assert_eq!(u.kind.as_deref(), Some("step"));
        assert!(u
            .to_string()
            .starts_with("a worker message of type `step` could not be read: "));
        for text in ["not json", "[1, 2]", r#"{"type": 7}"#, ""] {
            assert_eq!(FromWorker::read(text).unwrap_err().kind, None, "{text}");
        }
        let ready = FromWorker::Ready.to_json();
        assert_eq!(FromWorker::read(&ready).unwrap(), FromWorker::Ready);
    }

    #[test]
    fn a_tree_request_and_its_answers_cross_the_wire_unchanged() {
        let ask = ToWorker::Tree {
            run_id: 4,
            request: Box::new(TreeRequest {
                prompt: "The".into(),
                prompt_ids: None,
                lane: LaneRequest {
                    config: LaneConfig::from_json(r#"{"do_sample": true, "seed": 3}"#).unwrap(),
                    forced_ids: None,
                },
                samples: 1000,
                tokens: 8,
            }),
        };
        let back: ToWorker = serde_json::from_str(&ask.to_json()).unwrap();
        assert_eq!(back, ask);
        let growing = FromWorker::TreeGrowing {
            run_id: 4,
            level: 2,
            levels: 7,
            rows: 120,
            fraction: 0.25,
        };
        assert_eq!(FromWorker::read(&growing.to_json()).unwrap(), growing);
        assert_eq!(growing.run_id(), Some(4));
    }

    #[test]
    fn a_hub_base_names_its_repo_and_nothing_else_does() {
        let base = hub_base("distilbert/distilgpt2");
        assert_eq!(repo_of_base(&base), Some("distilbert/distilgpt2"));
        for other in [
            "./models/kjv-gpt2",
            "https://huggingface.co/a/b/c/resolve/main",
            "https://evil.example/a/b/resolve/main",
            "https://huggingface.co/a/b/resolve/dev",
        ] {
            assert_eq!(repo_of_base(other), None, "{other}");
        }
    }

    #[test]
    fn repo_ids_are_owner_slash_name_only() {
        assert!(valid_repo_id("distilbert/distilgpt2"));
        assert!(valid_repo_id("openai-community/gpt2"));
        for bad in [
            "distilgpt2",
            "a/b/c",
            "../x",
            "a/..",
            "https://evil.example/x",
            "a/b?c",
            "a/ b",
            "/x",
            "a/",
        ] {
            assert!(!valid_repo_id(bad), "{bad}");
        }
    }

    #[test]
    fn model_folders_are_relative_paths_on_the_pages_own_origin() {
        for good in [
            "models/gpt2/",
            "models/smollm2-135m_q8.0/",
            "a/",
            "class/week-3/gpt2/",
        ] {
            assert!(valid_folder_path(good), "{good}");
            assert!(valid_model_name(good), "{good}");
        }
        assert_eq!(model_base("models/gpt2/").as_deref(), Some("models/gpt2"));
        assert_eq!(
            model_base("distilbert/distilgpt2").as_deref(),
            Some("https://huggingface.co/distilbert/distilgpt2/resolve/main")
        );
        // Without its slash it is a hub repo id, and fetched from the hub.
        assert!(!valid_folder_path("models/gpt2"));
        assert!(model_base("models/gpt2")
            .unwrap()
            .starts_with("https://huggingface.co/"));
        for bad in [
            "/models/gpt2/",
            "//evil.example/m/",
            "https://evil.example/m/",
            "https:/evil/",
            "models/../secret/",
            "../models/",
            "models/./x/",
            "models/.hidden/",
            "models//x/",
            "models/x?y/",
            "models/x#/",
            "models/x y/",
            "models\\x/",
            "a/b/c/d/e/f/g/",
            "/",
            "",
        ] {
            assert!(!valid_folder_path(bad), "{bad}");
            assert_eq!(model_base(bad), None, "{bad}");
        }
        assert!(valid_model_name("bundled"));
        assert!(valid_model_name("openai-community/gpt2"));
    }

    #[test]
    fn a_hub_name_with_a_gguf_selector_is_fetched_from_its_repo() {
        let name = "unsloth/SmolLM2-135M-Instruct-GGUF:Q4_K_M";
        assert!(valid_model_name(name));
        assert_eq!(
            model_base(name).as_deref(),
            Some("https://huggingface.co/unsloth/SmolLM2-135M-Instruct-GGUF/resolve/main")
        );
        let source = ModelSource::from_fetched_name(name).unwrap();
        assert_eq!(
            source,
            ModelSource::Hub {
                repo: "unsloth/SmolLM2-135M-Instruct-GGUF".into(),
                gguf: Some("Q4_K_M".into())
            }
        );
        assert_eq!(source.fetched_name().as_deref(), Some(name));
        // Without a selector the JSON is what it always was.
        let plain = ModelSource::from_fetched_name("a/b").unwrap();
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"kind":"hub","repo":"a/b"}"#
        );
        for bad in ["a/b:../c", "a/b:c/d.gguf", "a/b:", "models/x/:Q8_0"] {
            assert!(!valid_model_name(bad), "{bad}");
        }
    }

    #[test]
    fn messages_round_trip_as_json() {
        let m = ToWorker::Run {
            run_id: 3,
            request: RunRequest {
                prompt: "Hi".into(),
                lanes: vec![LaneRequest {
                    config: LaneConfig::default(),
                    forced_ids: None,
                }],
                top_n: 20,
                shared_seed: Some(1),
                prompt_ids: Some(vec![1, 2]),
                forced_text: None,
                negative_prompt: Some("dull".into()),
                lens: true,
                lane_models: vec![None, Some("models/gpt2/".into())],
            },
        };
        assert_eq!(serde_json::from_str::<ToWorker>(&m.to_json()).unwrap(), m);
        let m = ToWorker::LoadLaneModel {
            name: "models/gpt2/".into(),
            source: ModelSource::Folder {
                path: "models/gpt2/".into(),
            },
            weights: LoadWeights::Q8_0,
        };
        assert_eq!(serde_json::from_str::<ToWorker>(&m.to_json()).unwrap(), m);
    }

    #[test]
    fn modes_and_knobs_travel_by_their_hf_names() {
        let failed = FromWorker::RunFailed {
            run_id: 1,
            lane: Some(2),
            field: Some(Knob::TopP.name().into()),
            message: "bad".into(),
            trouble: None,
        };
        assert!(
            failed.to_json().contains(r#""field":"top_p""#),
            "{}",
            failed.to_json()
        );
        let start = LaneStart {
            mode: Mode::Contrastive,
            config: LaneConfig::default(),
        };
        let json = serde_json::to_string(&start).unwrap();
        assert!(json.starts_with(r#"{"mode":"contrastive""#), "{json}");
        assert_eq!(serde_json::from_str::<LaneStart>(&json).unwrap(), start);
    }
}
