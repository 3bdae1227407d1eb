//! The page's state and what changes it. Views live in `components`.

use crate::components::lesson_panel::{Export, LessonPanel};
use crate::components::{
    divergence_note::DivergenceNote, lane_column::LaneColumn, model_panel::ModelPanel,
    plots::Plots, step_table::StepTable,
};
use crate::lane_config::LaneConfig;
use crate::lane_result::LaneResult;
use crate::worker_link::WorkerLink;
use crate::{download, export, page_url, presets};
use ntl_decoding::divergence::{first_divergence, LanePath};
use ntl_decoding::{ConfigError, Document, Mode};
use ntl_protocol::share::{Shared, BUNDLED};
use ntl_protocol::{FromWorker, LaneRequest, ModelInfo, ModelSource, RunRequest, ToWorker};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

pub const LANES: usize = 4;
pub const DEFAULT_HUB_REPO: &str = "distilbert/distilgpt2";
pub const BUNDLED_BASE: &str = "./models/kjv-gpt2";

#[derive(Debug, Clone, PartialEq)]
pub enum ModelState {
    Starting,
    Loading {
        label: String,
        file: String,
        loaded: u64,
        total: Option<u64>,
    },
    Ready {
        info: ModelInfo,
        label: String,
        load_ms: f64,
        threads: u32,
    },
    Failed {
        message: String,
        file: Option<String>,
        network: bool,
    },
    /// A share link names a hub model other than the default: nothing is
    /// fetched until the user says so.
    Confirm {
        repo: String,
    },
}

/// What a run does: generate, or follow a given text in every lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunKind {
    Generate,
    Score,
}

/// The largest recorded run the page reads back (a long four-lane run with
/// 20-row tables is a few MB).
const MAX_REPLAY_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

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
    ScoreInput(String),
    Score,
    Branch {
        lane: usize,
        step: usize,
        token_id: u32,
    },
    Share,
    Embed,
    Export(Export),
    ReplayFile(web_sys::File),
    Replayed(Result<(String, Document), String>),
    LaneField {
        lane: usize,
        field: &'static str,
        value: String,
    },
    LaneMode {
        lane: usize,
        mode: Mode,
    },
    LaneJson {
        lane: usize,
        text: String,
    },
    Select {
        lane: usize,
        step: usize,
    },
    CloseTable,
    ConfirmModel,
    LoadBundled,
    LoadHub,
    HubInput(String),
    FilesPicked(crate::model_files::PickedFiles),
}

pub struct App {
    link: Option<WorkerLink>,
    worker_ready: bool,
    /// Use the threaded worker build (the page is cross-origin isolated, and
    /// the threaded worker has not failed to start).
    threaded: bool,
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
    prompt_cropped: usize,
    selected: Option<(usize, usize)>,
    error: Option<String>,
    /// `?embed=1`: the lanes without the editors, for a course page's iframe.
    embed: bool,
    /// Run as soon as the model is ready (a share link, an embed).
    pending_run: Option<RunKind>,
    /// The prompt and its token ids behind the results on screen (for branching).
    ran_prompt: String,
    prompt_ids: Vec<u32>,
    /// A branch's exact token ids; editing the prompt drops them.
    branch_ids: Option<Vec<u32>>,
    score_text: String,
    last_kind: RunKind,
    /// The finished (or replayed) run, for export.
    document: Option<Document>,
    /// Viewing a recorded run loaded from this file.
    replay: Option<String>,
    share_link: Option<String>,
    embed_code: Option<String>,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// A share link's model, else `?model=bundled` or `?model=owner/name`, else the
/// hub default; only the bundled model or a valid hub repo id are accepted.
fn initial_source(requested: Option<&str>) -> ModelSource {
    match requested {
        Some(BUNDLED) => ModelSource::Bundled {
            base: BUNDLED_BASE.into(),
        },
        Some(repo) if ntl_protocol::valid_repo_id(repo) => ModelSource::Hub { repo: repo.into() },
        _ => ModelSource::Hub {
            repo: DEFAULT_HUB_REPO.into(),
        },
    }
}

impl App {
    fn spawn_worker(&mut self, ctx: &Context<Self>) {
        self.worker_ready = false;
        match WorkerLink::spawn(
            self.threaded,
            ctx.link().callback(Msg::Worker),
            ctx.link().callback(Msg::WorkerCrashed),
        ) {
            Ok(link) => self.link = Some(link),
            Err(e) => self.error = Some(e),
        }
    }

    fn load(&mut self, source: ModelSource) {
        self.model = ModelState::Loading {
            label: source.label(),
            file: "config.json".into(),
            loaded: 0,
            total: None,
        };
        self.source = Some(source.clone());
        if let (Some(link), true) = (&self.link, self.worker_ready) {
            link.send(&ToWorker::Load { source });
        }
    }

    fn start_run(&mut self, kind: RunKind) {
        let forced_text = match kind {
            RunKind::Score if self.score_text.is_empty() => {
                self.error = Some("type a continuation to score first".into());
                return;
            }
            RunKind::Score => Some(self.score_text.clone()),
            RunKind::Generate => None,
        };
        let mut lanes = Vec::with_capacity(LANES);
        let mut ok = true;
        for (i, l) in self.lanes.iter().enumerate() {
            match l.config().and_then(|c| c.validate().map(|_| c)) {
                Ok(config) => {
                    self.lane_errors[i] = None;
                    lanes.push(LaneRequest {
                        config,
                        forced_ids: None,
                    });
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
        self.replay = None;
        self.last_kind = kind;
        self.ran_prompt = self.prompt.clone();
        let shared_seed = self.shared_randomness.then_some(self.shared_seed);
        let request = RunRequest {
            prompt: self.prompt.clone(),
            lanes,
            top_n: 20,
            shared_seed,
            prompt_ids: self.branch_ids.clone(),
            forced_text,
        };
        link.send(&ToWorker::Run { run_id, request });
    }

    /// The page as a share link holds it.
    fn shared_state(&self) -> Shared {
        Shared {
            prompt: self.prompt.clone(),
            lanes: self.lanes.iter().map(|l| l.fields().clone()).collect(),
            shared_seed: self.shared_randomness.then_some(self.shared_seed),
            model: match &self.source {
                Some(ModelSource::Bundled { .. }) => Some(BUNDLED.into()),
                Some(ModelSource::Hub { repo }) => Some(repo.clone()),
                // Picked files cannot travel in a link; it opens on the default model.
                Some(ModelSource::Files { .. }) | None => None,
            },
            score: (self.last_kind == RunKind::Score && !self.score_text.is_empty())
                .then(|| self.score_text.clone()),
        }
    }

    /// Restores a share link's page; lanes it does not hold keep the first preset's.
    fn apply_shared(&mut self, s: Shared) {
        self.prompt = s.prompt;
        let defaults = presets::lanes(&presets::PRESETS[0]);
        for (i, slot) in self.lanes.iter_mut().enumerate() {
            *slot = match s.lanes.get(i) {
                Some(fields) => LaneConfig::from_fields(fields.clone()).unwrap_or_default(),
                None => defaults[i].clone(),
            };
            self.lane_errors[i] = slot.validate().err();
        }
        self.shared_randomness = s.shared_seed.is_some();
        self.shared_seed = s.shared_seed.unwrap_or(0);
        self.score_text = s.score.clone().unwrap_or_default();
        self.pending_run = Some(if s.score.is_some() {
            RunKind::Score
        } else {
            RunKind::Generate
        });
    }

    /// Every lane continues from the prompt, `lane`'s tokens before `step`, and `token_id`.
    fn branch(&mut self, lane: usize, step: usize, token_id: u32) {
        let Some(r) = self.results[lane].as_ref() else {
            return;
        };
        if r.rewritten || step >= r.steps.len() || self.prompt_ids.is_empty() {
            return;
        }
        let token = r.steps[step]
            .top
            .iter()
            .find(|c| c.id == token_id)
            .map(|c| c.token.clone())
            .unwrap_or_default();
        let mut ids = self.prompt_ids.clone();
        ids.extend(r.steps[..step].iter().map(|s| s.token_id));
        ids.push(token_id);
        self.prompt = format!("{}{}{}", self.ran_prompt, r.pieces[..step].concat(), token);
        self.notice = Some(format!(
            "Branched from lane {} at step {} with “{}”: every lane continues from these exact {} tokens. Editing the prompt starts afresh.",
            lane + 1,
            step + 1,
            crate::format::visible(&token),
            ids.len()
        ));
        self.branch_ids = Some(ids);
        self.selected = None;
        self.start_run(RunKind::Generate);
    }

    /// Shows a recorded run: texts, tables, plots, no model needed.
    fn replayed(&mut self, name: String, doc: Document) {
        if doc.runs.is_empty() {
            self.error = Some(format!("`{name}` holds no runs to replay"));
            return;
        }
        if doc.runs.len() > LANES {
            self.notice = Some(format!(
                "`{name}` holds {} runs; the first {LANES} are shown.",
                doc.runs.len()
            ));
        }
        self.next_run += 1;
        self.running = None;
        self.selected = None;
        self.error = None;
        self.branch_ids = None;
        self.prompt = doc.prompt.clone();
        self.ran_prompt = doc.prompt.clone();
        self.prompt_ids = doc.prompt_ids.clone();
        self.prompt_cropped = doc.prompt_cropped;
        self.results = Default::default();
        for (i, run) in doc.runs.iter().take(LANES).enumerate() {
            self.lanes[i] =
                LaneConfig::from_json(&export::config_diff(&run.config)).unwrap_or_default();
            self.lane_errors[i] = None;
            self.results[i] = Some(LaneResult::from_run(self.next_run, run));
        }
        self.last_kind = if doc.runs.iter().all(|r| r.steps.iter().all(|s| s.forced)) {
            RunKind::Score
        } else {
            RunKind::Generate
        };
        self.document = Some(doc);
        self.replay = Some(name);
    }

    fn export(&mut self, kind: Export) {
        let Some(doc) = &self.document else { return };
        let saved = match kind {
            Export::Json => download::save(
                "next-token-lab-run.json",
                "application/json",
                &export::json(doc),
            ),
            Export::Csv => {
                download::save("next-token-lab-steps.csv", "text/csv", &export::csv(doc))
            }
            Export::Markdown => download::save(
                "next-token-lab-lanes.md",
                "text/markdown",
                &export::markdown(doc),
            ),
            Export::PlotsSvg => match download::plots_svg() {
                Some(svg) => download::save("next-token-lab-plots.svg", "image/svg+xml", &svg),
                None => Err("there are no plots to save yet".into()),
            },
        };
        if let Err(e) = saved {
            self.error = Some(e);
        }
    }

    fn on_worker(&mut self, msg: FromWorker) {
        match msg {
            FromWorker::Ready => {
                self.worker_ready = true;
                if let (Some(source), false) = (
                    self.source.clone(),
                    matches!(self.model, ModelState::Confirm { .. }),
                ) {
                    self.load(source);
                }
            }
            FromWorker::Progress {
                file,
                loaded,
                total,
            } => {
                let label = match &self.model {
                    ModelState::Loading { label, .. } => label.clone(),
                    _ => String::new(),
                };
                self.model = ModelState::Loading {
                    label,
                    file,
                    loaded,
                    total,
                };
            }
            FromWorker::Loaded {
                info,
                label,
                load_ms,
                threads,
                ..
            } => {
                self.model = ModelState::Ready {
                    info,
                    label,
                    load_ms,
                    threads,
                };
                if let Some(kind) = self.pending_run.take() {
                    self.start_run(kind);
                }
            }
            FromWorker::LoadFailed {
                file,
                message,
                network,
            } => {
                let hub = matches!(self.source, Some(ModelSource::Hub { .. }));
                if network && hub && self.hub_is_default {
                    self.hub_is_default = false;
                    self.notice = Some(format!("The model hub could not be reached ({message}). Running the bundled offline model instead."));
                    self.load(ModelSource::Bundled {
                        base: BUNDLED_BASE.into(),
                    });
                } else {
                    self.model = ModelState::Failed {
                        message,
                        file,
                        network,
                    };
                }
            }
            FromWorker::Started {
                run_id,
                prompt_ids,
                prompt_cropped,
                ..
            } if Some(run_id) == self.running => {
                self.prompt_ids = prompt_ids;
                self.prompt_cropped = prompt_cropped;
            }
            FromWorker::Step {
                run_id,
                lane,
                index,
                step,
                text,
            } if lane < LANES && self.running == Some(run_id) => {
                let now = now_ms();
                let slot = &mut self.results[lane];
                if slot.as_ref().map(|r| r.run_id) != Some(run_id) {
                    // The first step of a new run replaces this lane's old result.
                    *slot = Some(LaneResult::new(run_id, now));
                    if self.selected.map(|(l, _)| l) == Some(lane) {
                        self.selected = None;
                    }
                }
                slot.as_mut()
                    .expect("set above")
                    .push(index, *step, text, now);
            }
            FromWorker::LaneDone {
                run_id,
                lane,
                reason,
            } if lane < LANES => {
                if let Some(r) = self.results[lane].as_mut().filter(|r| r.run_id == run_id) {
                    r.stop = Some(reason);
                }
            }
            FromWorker::Finished {
                run_id, document, ..
            } => {
                for (lane, run) in document.runs.iter().enumerate().take(LANES) {
                    if let Some(r) = self.results[lane].as_mut().filter(|r| r.run_id == run_id) {
                        r.finish(run);
                    }
                }
                if self.running == Some(run_id) {
                    self.running = None;
                    self.document = Some(document);
                }
            }
            FromWorker::RunFailed {
                run_id,
                lane,
                field,
                message,
            } => {
                if self.running == Some(run_id) || run_id == 0 {
                    self.running = None;
                }
                match lane {
                    Some(l) if l < LANES => {
                        self.lane_errors[l] = Some(ConfigError { field, message })
                    }
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
        let requested = page_url::read();
        let (shared, link_error) = match requested.shared {
            Some(Ok(s)) => (Some(s), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, None),
        };
        let source = initial_source(
            shared
                .as_ref()
                .and_then(|s| s.model.as_deref())
                .or(requested.model.as_deref()),
        );
        // The default hub model falls back to the bundled one, with a notice, when offline.
        let hub_is_default =
            matches!(&source, ModelSource::Hub { repo } if repo == DEFAULT_HUB_REPO);
        let model = match (&source, shared.is_some()) {
            (ModelSource::Hub { repo }, true) if !hub_is_default => {
                ModelState::Confirm { repo: repo.clone() }
            }
            _ => ModelState::Starting,
        };
        let mut app = App {
            link: None,
            worker_ready: false,
            threaded: crate::worker_link::threads_available(),
            model,
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
            prompt_cropped: 0,
            selected: None,
            error: link_error,
            embed: requested.embed,
            pending_run: requested.embed.then_some(RunKind::Generate),
            ran_prompt: String::new(),
            prompt_ids: vec![],
            branch_ids: None,
            score_text: String::new(),
            last_kind: RunKind::Generate,
            document: None,
            replay: None,
            share_link: None,
            embed_code: None,
        };
        if let Some(s) = shared {
            app.apply_shared(s);
        }
        app.spawn_worker(ctx);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Worker(m) => self.on_worker(m),
            Msg::WorkerCrashed(message) if self.threaded && !self.worker_ready => {
                // The threaded build did not start (missing from this host, or
                // shared memory refused): the single-threaded one does the same work.
                web_sys::console::warn_1(
                    &format!(
                        "threaded worker did not start ({message}); using the single-threaded one"
                    )
                    .into(),
                );
                self.threaded = false;
                self.spawn_worker(ctx);
            }
            Msg::WorkerCrashed(message) => {
                self.link = None;
                self.worker_ready = false;
                self.running = None;
                self.error = Some(format!(
                    "{message}. Your prompt and settings are kept; restart the worker to go on."
                ));
                self.model = ModelState::Failed {
                    message,
                    file: None,
                    network: false,
                };
            }
            Msg::RestartWorker => {
                self.error = None;
                self.spawn_worker(ctx);
                if let Some(s) = self.source.clone() {
                    self.load(s);
                }
            }
            Msg::Prompt(p) => {
                self.prompt = p;
                self.branch_ids = None;
            }
            Msg::Preset(i) => {
                if let Some(p) = presets::PRESETS.get(i) {
                    self.branch_ids = None;
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
                self.start_run(RunKind::Generate);
            }
            Msg::Run => self.start_run(RunKind::Generate),
            Msg::ScoreInput(t) => self.score_text = t,
            Msg::Score => self.start_run(RunKind::Score),
            Msg::Branch {
                lane,
                step,
                token_id,
            } => self.branch(lane, step, token_id),
            Msg::Share => {
                let url = page_url::share_url(&self.shared_state());
                download::copy(&url);
                self.share_link = Some(url);
            }
            Msg::Embed => {
                let code = page_url::embed_code(&self.shared_state());
                download::copy(&code);
                self.embed_code = Some(code);
            }
            Msg::Export(kind) => self.export(kind),
            Msg::ReplayFile(file) => {
                let name = file.name();
                if file.size() > MAX_REPLAY_BYTES {
                    self.error = Some(format!(
                        "`{name}` is {:.0} MB; a recorded run is at most {:.0} MB",
                        file.size() / 1e6,
                        MAX_REPLAY_BYTES / 1e6
                    ));
                } else {
                    let cb = ctx.link().callback(Msg::Replayed);
                    wasm_bindgen_futures::spawn_local(async move {
                        let text = wasm_bindgen_futures::JsFuture::from(file.text())
                            .await
                            .ok()
                            .and_then(|v| v.as_string());
                        cb.emit(match text {
                            None => Err(format!("could not read `{name}`")),
                            Some(t) => serde_json::from_str::<Document>(&t)
                                .map(|d| (name.clone(), d))
                                .map_err(|e| format!("`{name}` is not a run exported by this page (JSON export or `decode --json`): {e}")),
                        });
                    });
                }
            }
            Msg::Replayed(Ok((name, doc))) => self.replayed(name, doc),
            Msg::Replayed(Err(e)) => self.error = Some(e),
            Msg::Stop => {
                if let (Some(link), Some(run_id)) = (&self.link, self.running) {
                    link.send(&ToWorker::Cancel { run_id });
                }
            }
            Msg::LaneField { lane, field, value } => {
                self.lane_errors[lane] = self.lanes[lane]
                    .set(field, &value)
                    .err()
                    .or_else(|| self.lanes[lane].validate().err());
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
            Msg::ConfirmModel => {
                if let Some(s) = self.source.clone() {
                    self.load(s);
                }
            }
            Msg::LoadBundled => {
                self.notice = None;
                self.load(ModelSource::Bundled {
                    base: BUNDLED_BASE.into(),
                });
            }
            Msg::HubInput(r) => self.hub_repo = r.trim().to_string(),
            Msg::LoadHub => {
                if ntl_protocol::valid_repo_id(&self.hub_repo) {
                    self.notice = None;
                    self.hub_is_default = false;
                    self.load(ModelSource::Hub {
                        repo: self.hub_repo.clone(),
                    });
                } else {
                    self.model = ModelState::Failed {
                        message: format!(
                            "`{}` is not a hub repo id like distilbert/distilgpt2",
                            self.hub_repo
                        ),
                        file: None,
                        network: false,
                    };
                }
            }
            Msg::FilesPicked(Ok((names, buffers))) => {
                let source = ModelSource::Files { names };
                self.model = ModelState::Loading {
                    label: source.label(),
                    file: "model.safetensors".into(),
                    loaded: 0,
                    total: None,
                };
                self.source = None; // picked files cannot be re-read after a crash
                self.notice = None;
                match &self.link {
                    Some(link) => link.send_with_buffers(&ToWorker::Load { source }, buffers),
                    None => {
                        self.error =
                            Some("the model worker is not running; restart it first".into())
                    }
                }
            }
            Msg::FilesPicked(Err(message)) => {
                self.model = ModelState::Failed {
                    message,
                    file: None,
                    network: false,
                }
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let model_ready = matches!(self.model, ModelState::Ready { .. });
        let on_prompt = link.callback(|e: InputEvent| {
            Msg::Prompt(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        });
        let on_score_text = link.callback(|e: InputEvent| {
            Msg::ScoreInput(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        });
        let selected = self.selected.and_then(|(lane, step)| {
            let r = self.results[lane].as_ref()?;
            Some((
                lane,
                r.steps.get(step)?.clone(),
                r.mode.clone(),
                step,
                !r.rewritten,
            ))
        });
        let paths: Vec<LanePath> = self
            .results
            .iter()
            .enumerate()
            .filter_map(|(lane, r)| {
                r.as_ref().map(|r| LanePath {
                    lane,
                    mode: &r.mode,
                    steps: &r.steps,
                })
            })
            .collect();
        // Only once every lane is done: mid-run the answer would move under the reader.
        let divergence = (self.running.is_none())
            .then(|| first_divergence(&paths))
            .flatten();
        let diverge_at = |lane: usize| {
            divergence
                .as_ref()
                .filter(|d| d.lanes.iter().any(|l| l.lane == lane))
                .map(|d| d.step)
        };
        let embed = self.embed;
        html! {
            <div class={classes!("page", embed.then_some("embed"))} data-run={self.next_run.to_string()} data-running={self.running.is_some().to_string()}
                data-replay={self.replay.is_some().to_string()}>
                <header>
                    if embed {
                        <h1 class="embed-title">{ "How does the model pick the next token?" }
                            <a class="full-page" data-testid="open-full-page" href={page_url::share_url(&self.shared_state())} target="_blank" rel="noopener">{ "Open the full page ↗" }</a>
                        </h1>
                    } else {
                        <h1>{ "How does the model pick the next token?" }</h1>
                    }
                    <ModelPanel
                        model={self.model.clone()}
                        notice={self.notice.clone()}
                        hub_repo={self.hub_repo.clone()}
                        worker_alive={self.link.is_some()}
                        compact={embed}
                        on_bundled={link.callback(|_| Msg::LoadBundled)}
                        on_confirm={link.callback(|_| Msg::ConfirmModel)}
                        on_hub={link.callback(|_| Msg::LoadHub)}
                        on_hub_input={link.callback(Msg::HubInput)}
                        on_files={link.callback(Msg::FilesPicked)}
                        on_restart={link.callback(|_| Msg::RestartWorker)}
                    />
                    if let Some(name) = &self.replay {
                        <p class="notice" data-testid="replay-notice">{ format!("Replaying the recorded run in `{name}`: tables and plots as recorded, no model needed. Run to generate afresh.") }</p>
                    }
                </header>
                <section class="prompt-row">
                    if embed {
                        <p class="embed-prompt" data-testid="embed-prompt"><span class="label">{ "Prompt: " }</span>{ self.prompt.clone() }</p>
                    } else {
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
                    }
                    <div class="actions">
                        <button data-testid="run" class="primary" disabled={!model_ready}
                            onclick={link.callback(|_| Msg::Run)}>{ if self.running.is_some() { "Run again" } else { "Run" } }</button>
                        <button data-testid="stop" disabled={self.running.is_none()} onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                        <button data-testid="reroll" disabled={!model_ready} title="new seeds for every sampling lane, then run"
                            onclick={link.callback(|_| Msg::Reroll)}>{ "Re-roll" }</button>
                    </div>
                    if !embed {
                        <label class="shared" title="every sampling lane uses the same random numbers at each step, so lanes differ only by their knobs">
                            <input type="checkbox" data-testid="shared-randomness" checked={self.shared_randomness}
                                onchange={link.callback(|e: Event| Msg::SharedRandomness(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()))} />
                            { " Shared randomness: sampling lanes draw the same random numbers, so they differ only by their knobs" }
                            if self.shared_randomness { { format!(" (shared seed {})", self.shared_seed) } }
                        </label>
                        <div class="score-row">
                            <label for="score-text" title="teacher forcing: every lane follows this text and shows what its knobs made of each token">{ "Score a text: " }</label>
                            <input id="score-text" data-testid="score-text" placeholder=" a continuation of the prompt, e.g.  to practice every day"
                                value={self.score_text.clone()} oninput={on_score_text} />
                            <button data-testid="score" disabled={!model_ready || self.running.is_some()} onclick={link.callback(|_| Msg::Score)}
                                title="each lane shows the probability its configuration gave every token of this text">{ "Score in every lane" }</button>
                        </div>
                    }
                    if self.prompt_cropped > 0 {
                        <p class="notice">{ format!("The prompt was longer than the model's context: its first {} tokens were left out.", self.prompt_cropped) }</p>
                    }
                    if !embed {
                        <p class="hint" data-testid="preset-notice"><strong>{ presets::PRESETS[self.preset].name }</strong>{ ": " }{ presets::PRESETS[self.preset].notice }</p>
                    }
                </section>
                if let Some(e) = &self.error {
                    <div class="error" data-testid="error" role="alert">{ e }</div>
                }
                if let Some(d) = &divergence {
                    <DivergenceNote divergence={d.clone()} on_select={link.callback(|(lane, step)| Msg::Select { lane, step })} />
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
                            diverge={diverge_at(i)}
                            compact={embed}
                            on_field={link.callback(move |(field, value)| Msg::LaneField { lane: i, field, value })}
                            on_mode={link.callback(move |mode| Msg::LaneMode { lane: i, mode })}
                            on_json={link.callback(move |text| Msg::LaneJson { lane: i, text })}
                            on_select={link.callback(move |step| Msg::Select { lane: i, step })}
                        />
                    }) }
                </main>
                <Plots results={self.results.to_vec()} on_select={link.callback(|(lane, step)| Msg::Select { lane, step })} />
                if let Some((lane, step, mode, index, one_path)) = selected {
                    <StepTable lane={lane} index={index} step={step} mode={mode}
                        can_branch={one_path && model_ready && !self.prompt_ids.is_empty()}
                        on_branch={link.callback(move |token_id| Msg::Branch { lane, step: index, token_id })}
                        on_close={link.callback(|_| Msg::CloseTable)} />
                }
                if !embed {
                    <LessonPanel has_document={self.document.is_some()} share_link={self.share_link.clone()} embed_code={self.embed_code.clone()}
                        on_share={link.callback(|_| Msg::Share)} on_embed={link.callback(|_| Msg::Embed)}
                        on_export={link.callback(Msg::Export)} on_replay={link.callback(Msg::ReplayFile)} />
                }
            </div>
        }
    }
}
