//! The page's state and what changes it. Views live in `components`.

use crate::components::{lane_column::LaneColumn, model_panel::ModelPanel, plots::Plots, step_table::StepTable};
use crate::lane_config::LaneConfig;
use crate::presets;
use crate::worker_link::WorkerLink;
use ntl_decoding::{ConfigError, Mode, Sequence, Step, StopReason};
use ntl_protocol::{FromWorker, LaneRequest, ModelInfo, ModelSource, RunRequest, ToWorker};
use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

pub const LANES: usize = 4;
pub const DEFAULT_HUB_REPO: &str = "distilbert/distilgpt2";
pub const BUNDLED_BASE: &str = "./models/kjv-gpt2";

#[derive(Debug, Clone, PartialEq)]
pub enum ModelState {
    Starting,
    Loading { label: String, file: String, loaded: u64, total: Option<u64> },
    Ready { info: ModelInfo, label: String, load_ms: f64 },
    Failed { message: String, file: Option<String>, network: bool },
}

/// What one lane produced in its latest run.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneResult {
    pub run_id: u64,
    pub mode: String,
    pub steps: Vec<Step>,
    /// The text each step added, for clickable token spans (empty for beam lanes,
    /// whose best hypothesis can change under earlier tokens).
    pub pieces: Vec<String>,
    pub text: String,
    pub rewritten: bool,
    pub stop: Option<StopReason>,
    pub started_ms: f64,
    pub last_ms: f64,
    pub sequences: Vec<Sequence>,
}

impl LaneResult {
    /// Run-based notes ("`top_p` removed nothing in this run"), from the streamed steps.
    pub fn run_warnings(&self) -> Vec<ntl_decoding::warnings::Warning> {
        ntl_decoding::warnings::run_warnings(&self.mode, &self.steps)
    }

    pub fn tokens_per_s(&self) -> Option<f64> {
        let dt = self.last_ms - self.started_ms;
        (dt > 0.0 && !self.steps.is_empty()).then(|| self.steps.len() as f64 * 1000.0 / dt)
    }
}

pub enum Msg {
    Worker(FromWorker),
    WorkerCrashed(String),
    RestartWorker,
    Prompt(String),
    Preset(usize),
    SharedRandomness(bool),
    Reroll,
    Run,
    Stop,
    LaneField { lane: usize, field: &'static str, value: String },
    LaneMode { lane: usize, mode: Mode },
    LaneJson { lane: usize, text: String },
    Select { lane: usize, step: usize },
    CloseTable,
    LoadBundled,
    LoadHub,
    HubInput(String),
    FilesPicked(Result<(Vec<String>, Vec<js_sys::ArrayBuffer>), String>),
}

pub struct App {
    link: Option<WorkerLink>,
    worker_ready: bool,
    model: ModelState,
    /// The source being loaded or in use (reloaded after a worker restart).
    source: Option<ModelSource>,
    /// The hub was the default, not the user's explicit choice: fall back quietly.
    hub_is_default: bool,
    notice: Option<String>,
    hub_repo: String,
    preset: usize,
    /// All sampling lanes use the same uniforms each step (differences come from the knobs).
    shared_randomness: bool,
    shared_seed: u64,
    prompt: String,
    lanes: [LaneConfig; LANES],
    lane_errors: [Option<ConfigError>; LANES],
    results: [Option<LaneResult>; LANES],
    running: Option<u64>,
    next_run: u64,
    prompt_tokens: Vec<String>,
    prompt_cropped: usize,
    selected: Option<(usize, usize)>,
    error: Option<String>,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// `?model=bundled` or `?model=owner/name` picks the first model; only the
/// bundled model or a valid hub repo id are accepted.
fn initial_source() -> (ModelSource, bool) {
    let param = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("model"));
    match param.as_deref() {
        Some("bundled") => (ModelSource::Bundled { base: BUNDLED_BASE.into() }, false),
        Some(repo) if ntl_protocol::valid_repo_id(repo) => (ModelSource::Hub { repo: repo.into() }, false),
        _ => (ModelSource::Hub { repo: DEFAULT_HUB_REPO.into() }, true),
    }
}

impl App {
    fn spawn_worker(&mut self, ctx: &Context<Self>) {
        self.worker_ready = false;
        match WorkerLink::spawn(ctx.link().callback(Msg::Worker), ctx.link().callback(Msg::WorkerCrashed)) {
            Ok(link) => self.link = Some(link),
            Err(e) => self.error = Some(e),
        }
    }

    fn load(&mut self, source: ModelSource) {
        self.model = ModelState::Loading { label: source.label(), file: "config.json".into(), loaded: 0, total: None };
        self.source = Some(source.clone());
        if let (Some(link), true) = (&self.link, self.worker_ready) {
            link.send(&ToWorker::Load { source });
        }
    }

    fn start_run(&mut self) {
        let mut lanes = Vec::with_capacity(LANES);
        let mut ok = true;
        for (i, l) in self.lanes.iter().enumerate() {
            match l.config().and_then(|c| c.validate().map(|_| c)) {
                Ok(config) => {
                    self.lane_errors[i] = None;
                    lanes.push(LaneRequest { config, forced_ids: None });
                }
                Err(e) => {
                    self.lane_errors[i] = Some(e);
                    ok = false;
                }
            }
        }
        if !ok {
            return;
        }
        let Some(link) = &self.link else {
            self.error = Some("the model worker is not running; restart it first".into());
            return;
        };
        self.next_run += 1;
        let run_id = self.next_run;
        self.running = Some(run_id);
        self.error = None;
        let shared_seed = self.shared_randomness.then_some(self.shared_seed);
        link.send(&ToWorker::Run { run_id, request: RunRequest { prompt: self.prompt.clone(), lanes, top_n: 20, shared_seed } });
    }

    fn on_worker(&mut self, msg: FromWorker) {
        match msg {
            FromWorker::Ready => {
                self.worker_ready = true;
                if let Some(source) = self.source.clone() {
                    self.load(source);
                }
            }
            FromWorker::Progress { file, loaded, total } => {
                let label = match &self.model {
                    ModelState::Loading { label, .. } => label.clone(),
                    _ => String::new(),
                };
                self.model = ModelState::Loading { label, file, loaded, total };
            }
            FromWorker::Loaded { info, label, load_ms } => {
                self.model = ModelState::Ready { info, label, load_ms };
            }
            FromWorker::LoadFailed { file, message, network } => {
                let hub = matches!(self.source, Some(ModelSource::Hub { .. }));
                if network && hub && self.hub_is_default {
                    self.hub_is_default = false;
                    self.notice = Some(format!("The model hub could not be reached ({message}). Running the bundled offline model instead."));
                    self.load(ModelSource::Bundled { base: BUNDLED_BASE.into() });
                } else {
                    self.model = ModelState::Failed { message, file, network };
                }
            }
            FromWorker::Started { run_id, prompt_tokens, prompt_cropped, .. } if Some(run_id) == self.running => {
                self.prompt_tokens = prompt_tokens;
                self.prompt_cropped = prompt_cropped;
            }
            FromWorker::Step { run_id, lane, index, step, text } if lane < LANES => {
                let now = now_ms();
                let slot = &mut self.results[lane];
                if slot.as_ref().map(|r| r.run_id) != Some(run_id) {
                    // The first step of a new run replaces this lane's old result.
                    *slot = Some(LaneResult {
                        run_id,
                        mode: String::new(),
                        steps: vec![],
                        pieces: vec![],
                        text: String::new(),
                        rewritten: false,
                        stop: None,
                        started_ms: now,
                        last_ms: now,
                        sequences: vec![],
                    });
                    if self.selected.map(|(l, _)| l) == Some(lane) {
                        self.selected = None;
                    }
                }
                let r = slot.as_mut().expect("set above");
                if index == r.steps.len() {
                    let piece = text.strip_prefix(r.text.as_str()).map(str::to_string);
                    r.rewritten |= piece.is_none() || step.beams.is_some();
                    r.pieces.push(piece.unwrap_or_default());
                    r.steps.push(*step);
                    r.text = text;
                    r.last_ms = now;
                }
            }
            FromWorker::LaneDone { run_id, lane, reason } if lane < LANES => {
                if let Some(r) = self.results[lane].as_mut().filter(|r| r.run_id == run_id) {
                    r.stop = Some(reason);
                }
            }
            FromWorker::Finished { run_id, document, .. } => {
                for (lane, run) in document.runs.into_iter().enumerate().take(LANES) {
                    if let Some(r) = self.results[lane].as_mut().filter(|r| r.run_id == run_id) {
                        r.mode = run.mode;
                        r.stop = Some(run.stop_reason);
                        r.sequences = run.sequences;
                        if r.rewritten {
                            r.text = run.text;
                        }
                    }
                }
                if self.running == Some(run_id) {
                    self.running = None;
                }
            }
            FromWorker::RunFailed { run_id, lane, field, message } => {
                if self.running == Some(run_id) || run_id == 0 {
                    self.running = None;
                }
                match lane {
                    Some(l) if l < LANES => self.lane_errors[l] = Some(ConfigError { field, message }),
                    _ => self.error = Some(message),
                }
            }
            _ => {}
        }
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let preset = &presets::PRESETS[0];
        let (source, hub_is_default) = initial_source();
        let mut app = App {
            link: None,
            worker_ready: false,
            model: ModelState::Starting,
            source: Some(source),
            hub_is_default,
            notice: None,
            hub_repo: DEFAULT_HUB_REPO.into(),
            preset: 0,
            shared_randomness: false,
            shared_seed: 0,
            prompt: preset.prompt.into(),
            lanes: presets::lanes(preset),
            lane_errors: Default::default(),
            results: Default::default(),
            running: None,
            next_run: 0,
            prompt_tokens: vec![],
            prompt_cropped: 0,
            selected: None,
            error: None,
        };
        app.spawn_worker(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Worker(m) => self.on_worker(m),
            Msg::WorkerCrashed(message) => {
                self.link = None;
                self.worker_ready = false;
                self.running = None;
                self.error = Some(format!("{message}. Your prompt and settings are kept; restart the worker to go on."));
                self.model = ModelState::Failed { message, file: None, network: false };
            }
            Msg::RestartWorker => {
                self.error = None;
                self.spawn_worker(ctx);
                if let Some(s) = self.source.clone() {
                    self.load(s);
                }
            }
            Msg::Prompt(p) => self.prompt = p,
            Msg::Preset(i) => {
                if let Some(p) = presets::PRESETS.get(i) {
                    self.preset = i;
                    self.prompt = p.prompt.into();
                    self.lanes = presets::lanes(p);
                    self.lane_errors = Default::default();
                }
            }
            Msg::SharedRandomness(on) => self.shared_randomness = on,
            Msg::Reroll => {
                // New randomness, visibly: every sampling lane's seed moves on, and so does the shared one.
                self.shared_seed += 1;
                for (lane, err) in self.lanes.iter_mut().zip(self.lane_errors.iter_mut()) {
                    if lane.mode() == Mode::Sample {
                        let next = lane.config().ok().and_then(|c| c.seed).unwrap_or(0) + 1;
                        *err = lane.set("seed", &next.to_string()).err();
                    }
                }
                self.start_run();
            }
            Msg::Run => self.start_run(),
            Msg::Stop => {
                if let (Some(link), Some(run_id)) = (&self.link, self.running) {
                    link.send(&ToWorker::Cancel { run_id });
                }
            }
            Msg::LaneField { lane, field, value } => {
                self.lane_errors[lane] = self.lanes[lane].set(field, &value).err().or_else(|| self.lanes[lane].validate().err());
            }
            Msg::LaneMode { lane, mode } => {
                self.lanes[lane].set_mode(mode);
                self.lane_errors[lane] = self.lanes[lane].validate().err();
            }
            Msg::LaneJson { lane, text } => match LaneConfig::from_json(&text) {
                Ok(c) => {
                    self.lane_errors[lane] = c.validate().err();
                    self.lanes[lane] = c;
                }
                Err(e) => self.lane_errors[lane] = Some(e),
            },
            Msg::Select { lane, step } => self.selected = Some((lane, step)),
            Msg::CloseTable => self.selected = None,
            Msg::LoadBundled => {
                self.notice = None;
                self.load(ModelSource::Bundled { base: BUNDLED_BASE.into() });
            }
            Msg::HubInput(r) => self.hub_repo = r.trim().to_string(),
            Msg::LoadHub => {
                if ntl_protocol::valid_repo_id(&self.hub_repo) {
                    self.notice = None;
                    self.hub_is_default = false;
                    self.load(ModelSource::Hub { repo: self.hub_repo.clone() });
                } else {
                    self.model = ModelState::Failed { message: format!("`{}` is not a hub repo id like distilbert/distilgpt2", self.hub_repo), file: None, network: false };
                }
            }
            Msg::FilesPicked(Ok((names, buffers))) => {
                let source = ModelSource::Files { names };
                self.model = ModelState::Loading { label: source.label(), file: "model.safetensors".into(), loaded: 0, total: None };
                self.source = None; // picked files cannot be re-read after a crash
                self.notice = None;
                match &self.link {
                    Some(link) => link.send_with_buffers(&ToWorker::Load { source }, buffers),
                    None => self.error = Some("the model worker is not running; restart it first".into()),
                }
            }
            Msg::FilesPicked(Err(message)) => self.model = ModelState::Failed { message, file: None, network: false },
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let model_ready = matches!(self.model, ModelState::Ready { .. });
        let on_prompt = link.callback(|e: InputEvent| Msg::Prompt(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
        let selected = self.selected.and_then(|(lane, step)| {
            let r = self.results[lane].as_ref()?;
            Some((lane, r.steps.get(step)?.clone(), r.mode.clone(), step))
        });
        html! {
            <div class="page" data-run={self.next_run.to_string()} data-running={self.running.is_some().to_string()}>
                <header>
                    <h1>{ "How does the model pick the next token?" }</h1>
                    <ModelPanel
                        model={self.model.clone()}
                        notice={self.notice.clone()}
                        hub_repo={self.hub_repo.clone()}
                        worker_alive={self.link.is_some()}
                        on_bundled={link.callback(|_| Msg::LoadBundled)}
                        on_hub={link.callback(|_| Msg::LoadHub)}
                        on_hub_input={link.callback(Msg::HubInput)}
                        on_files={link.callback(Msg::FilesPicked)}
                        on_restart={link.callback(|_| Msg::RestartWorker)}
                    />
                </header>
                <section class="prompt-row">
                    <div class="preset-row">
                        <label for="preset">{ "Lesson" }</label>
                        <select id="preset" data-testid="preset" onchange={link.callback(|e: Event| Msg::Preset(
                            e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse().unwrap_or(0)))}>
                            { for presets::PRESETS.iter().enumerate().map(|(i, p)| html! {
                                <option value={i.to_string()} selected={i == self.preset}>{ p.name }</option>
                            }) }
                        </select>
                    </div>
                    <label for="prompt">{ "Prompt" }</label>
                    <textarea id="prompt" data-testid="prompt" rows="2" value={self.prompt.clone()} oninput={on_prompt} />
                    <div class="actions">
                        <button data-testid="run" class="primary" disabled={!model_ready}
                            onclick={link.callback(|_| Msg::Run)}>{ if self.running.is_some() { "Run again" } else { "Run" } }</button>
                        <button data-testid="stop" disabled={self.running.is_none()} onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                        <button data-testid="reroll" disabled={!model_ready} title="new seeds for every sampling lane, then run"
                            onclick={link.callback(|_| Msg::Reroll)}>{ "Re-roll" }</button>
                    </div>
                    <label class="shared" title="every sampling lane uses the same random numbers at each step, so lanes differ only by their knobs">
                        <input type="checkbox" data-testid="shared-randomness" checked={self.shared_randomness}
                            onchange={link.callback(|e: Event| Msg::SharedRandomness(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()))} />
                        { " Shared randomness: sampling lanes draw the same random numbers, so they differ only by their knobs" }
                        if self.shared_randomness { { format!(" (shared seed {})", self.shared_seed) } }
                    </label>
                    if self.prompt_cropped > 0 {
                        <p class="notice">{ format!("The prompt was longer than the model's context: its first {} tokens were left out.", self.prompt_cropped) }</p>
                    }
                    <p class="hint" data-testid="preset-notice"><strong>{ presets::PRESETS[self.preset].name }</strong>{ ": " }{ presets::PRESETS[self.preset].notice }</p>
                </section>
                if let Some(e) = &self.error {
                    <div class="error" data-testid="error" role="alert">{ e }</div>
                }
                <main class="lanes">
                    { for (0..LANES).map(|i| html! {
                        <LaneColumn
                            index={i}
                            config={self.lanes[i].clone()}
                            error={self.lane_errors[i].clone()}
                            result={self.results[i].clone()}
                            running={self.running.is_some()}
                            selected={self.selected.filter(|(l, _)| *l == i).map(|(_, s)| s)}
                            on_field={link.callback(move |(field, value)| Msg::LaneField { lane: i, field, value })}
                            on_mode={link.callback(move |mode| Msg::LaneMode { lane: i, mode })}
                            on_json={link.callback(move |text| Msg::LaneJson { lane: i, text })}
                            on_select={link.callback(move |step| Msg::Select { lane: i, step })}
                        />
                    }) }
                </main>
                <Plots results={self.results.to_vec()} on_select={link.callback(|(lane, step)| Msg::Select { lane, step })} />
                if let Some((lane, step, mode, index)) = selected {
                    <StepTable lane={lane} index={index} step={step} mode={mode} on_close={link.callback(|_| Msg::CloseTable)} />
                }
            </div>
        }
    }
}

/// Reads picked files as buffers, matched by name to the three HF files.
pub async fn read_model_files(files: Vec<web_sys::File>) -> Result<(Vec<String>, Vec<js_sys::ArrayBuffer>), String> {
    let mut found: [Option<web_sys::File>; 3] = Default::default();
    for f in files {
        let name = f.name();
        let slot = if name.ends_with(".safetensors") {
            1
        } else if name == "tokenizer.json" {
            2
        } else if name.ends_with(".json") && name.contains("config") {
            0
        } else {
            return Err(format!("`{name}` is not one of config.json, model.safetensors, tokenizer.json"));
        };
        found[slot] = Some(f);
    }
    let missing: Vec<&str> = ["config.json", "model.safetensors", "tokenizer.json"]
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing {}: pick all three files together", missing.join(" and ")));
    }
    let mut names = vec![];
    let mut buffers = vec![];
    for f in found.into_iter().flatten() {
        names.push(f.name());
        let buf = wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await.map_err(|_| format!("could not read {}", f.name()))?;
        buffers.push(buf.unchecked_into());
    }
    Ok((names, buffers))
}
