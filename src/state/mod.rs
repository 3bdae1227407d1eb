//! The page's state in plain Rust, with its transitions: the model in use
//! (`model`), what the user sets up (`editor`), the run on screen (`run`),
//! and here what ties them together — the worker's messages, starting and
//! stopping runs, branches, links. Transitions say what the page must do
//! outside itself (talk to the worker) as [`Command`]s, and whether the
//! screen changed; the `App` component performs the one and renders the other.

pub mod chat;
pub mod editor;
pub mod inspector;
pub mod lane_outlook;
pub mod model;
pub mod model_catalog;
pub mod run;
pub mod sandbox;

use crate::lesson_check::LessonRun;
use crate::page_error::PageError;
use crate::page_url::Requested;
use crate::rc_eq::RcEq;
use editor::Editor;
use inspector::Inspector;
use model::{ModelState, ModelStatus};
use ntl_decoding::llama_cpp::LlamaKnob;
use ntl_decoding::{Document, Knob, Mode, Semantics};
use ntl_protocol::share::Shared;
use ntl_protocol::ModelSource;
use ntl_protocol::{FromWorker, RunRequest, ToWorker};
use run::{RunKind, RunState};
use sandbox::Sandbox;

pub use crate::lanes::LANES;

/// How long a worker may take to say it listens before the page offers to
/// start it again (on one thread, if it was the threaded build). Not forced:
/// on a slow connection the worker's wasm alone can take longer to arrive.
pub const WORKER_START_PATIENCE_MS: u32 = 20_000;

/// What a transition asks of the world outside the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// A message for the worker (which is running whenever this is asked).
    Send(ToWorker),
    /// Start a new worker: the threaded build, or the single-threaded one.
    SpawnWorker { threaded: bool },
}

/// What a transition did: whether the screen changed, and what to do.
#[must_use]
#[derive(Debug, Default, PartialEq)]
pub struct Outcome {
    pub redraw: bool,
    pub commands: Vec<Command>,
}

impl Outcome {
    pub fn redraw() -> Self {
        Outcome {
            redraw: true,
            commands: vec![],
        }
    }

    fn unchanged() -> Self {
        Outcome::default()
    }

    fn changed(redraw: bool) -> Self {
        Outcome {
            redraw,
            commands: vec![],
        }
    }

    fn and_maybe(self, command: Option<Command>) -> Self {
        match command {
            Some(c) => self.and(c),
            None => self,
        }
    }

    fn and(mut self, command: Command) -> Self {
        self.commands.push(command);
        self
    }

    fn and_send(self, message: Option<ToWorker>) -> Self {
        match message {
            Some(m) => self.and(Command::Send(m)),
            None => self,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorkerState {
    /// A worker exists (it has not crashed or failed to start).
    pub alive: bool,
    /// It said it is listening.
    pub ready: bool,
    /// It is the threaded build (the page is cross-origin isolated, and that
    /// build has not failed to start).
    pub threaded: bool,
    /// Counts the workers started, so a late start check names its worker.
    pub spawned: u32,
    /// It has not said it listens within `WORKER_START_PATIENCE_MS`.
    pub slow: bool,
}

/// What a looked-up text becomes in a lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LookupUse {
    /// Its one token, as `eos_token_id`.
    Eos,
    /// The text, as a stop string.
    StopString,
    /// Its tokens, one more sequence in `bad_words_ids`.
    BadWords,
    /// Its tokens, one more phrase in `force_words_ids` (the lane becomes a
    /// constrained beam search).
    ForceWords,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub model: ModelState,
    pub editor: Editor,
    pub run: RunState,
    pub worker: WorkerState,
    /// `?embed=1`: the lanes without the editors, for a course page's iframe.
    pub embed: bool,
    pub notice: Option<String>,
    pub error: Option<String>,
    /// Run as soon as the model is ready (a share link, an embed).
    pending_run: Option<RunKind>,
    /// Open the compare view at this step once that run is done (a link).
    pending_step: Option<usize>,
    pub share_link: Option<String>,
    pub embed_code: Option<String>,
    pub sandbox: RcEq<Sandbox>,
    pub inspector: RcEq<Inspector>,
    /// The prompt as a conversation (models with a chat template).
    pub chat: chat::Chat,
}

impl Page {
    /// The page the address asks for, and the worker to start for it.
    pub fn new(requested: Requested, threads: bool) -> (Page, Command) {
        let (shared, link_error) = match requested.shared {
            Some(Ok(s)) => (Some(s), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, None),
        };
        let model_name = shared
            .as_ref()
            .and_then(|s| s.model.as_deref())
            .or(requested.model.as_deref());
        let mut page = Page {
            model: ModelState::new(model_name, shared.is_some()),
            editor: Editor::default(),
            run: RunState::default(),
            worker: WorkerState {
                alive: false,
                ready: false,
                threaded: threads,
                spawned: 0,
                slow: false,
            },
            embed: requested.embed,
            notice: None,
            error: link_error,
            pending_run: requested.embed.then_some(RunKind::Generate),
            pending_step: None,
            share_link: None,
            embed_code: None,
            sandbox: RcEq::default(),
            inspector: RcEq::default(),
            chat: chat::Chat::default(),
        };
        if let Some(s) = shared {
            page.pending_step = s.step;
            let scoring = page.editor.apply_shared(s);
            page.pending_run = Some(if scoring {
                RunKind::Score
            } else {
                RunKind::Generate
            });
        }
        (page, Command::SpawnWorker { threaded: threads })
    }

    /// The worker asked for exists (or could not be created).
    pub fn worker_spawned(&mut self, result: Result<(), &PageError>) {
        self.worker.ready = false;
        self.worker.slow = false;
        self.worker.spawned = self.worker.spawned.wrapping_add(1);
        match result {
            Ok(()) => self.worker.alive = true,
            Err(e) => {
                self.worker.alive = false;
                self.error = Some(e.to_string());
            }
        }
    }

    /// Loads `source` now if the worker listens, else when it says it does.
    fn load(&mut self, message: ToWorker) -> Outcome {
        let ready = self.worker.alive && self.worker.ready;
        Outcome::redraw().and_send(ready.then_some(message))
    }

    /// A message from the worker, at `now` (ms, the page's clock).
    pub fn on_worker(&mut self, msg: FromWorker, now: f64) -> Outcome {
        match msg {
            FromWorker::Ready => {
                self.worker.ready = true;
                self.worker.slow = false;
                Outcome::redraw().and_send(self.model.reload())
            }
            FromWorker::Progress {
                file,
                loaded,
                total,
            } => {
                self.model.progress(file, loaded, total);
                Outcome::redraw()
            }
            FromWorker::Retrying {
                file,
                reason,
                seconds,
                attempt,
                attempts,
            } => {
                self.model
                    .retrying(file, &reason, seconds, attempt, attempts);
                Outcome::redraw()
            }
            FromWorker::Measured {
                repo,
                bytes,
                cached,
            } => {
                self.model.measured(&repo, bytes, cached);
                Outcome::redraw()
            }
            FromWorker::Waiting { file, reason } => {
                self.model.waiting(file, reason);
                Outcome::redraw()
            }
            FromWorker::Notice { message } => {
                self.notice = Some(message);
                Outcome::redraw()
            }
            FromWorker::Loaded {
                info,
                label,
                load_ms,
                threads,
                ..
            } => {
                self.model.loaded(info, label, load_ms, threads);
                // Another model may cut the prompt into other tokens.
                self.inspector = RcEq::default();
                match self.pending_run.take() {
                    Some(kind) => self.start_run(kind),
                    None => Outcome::redraw(),
                }
            }
            FromWorker::LoadFailed {
                file,
                message,
                network,
            } => match self.model.load_failed(file, message, network) {
                Some((fallback, notice)) => {
                    self.notice = Some(notice);
                    self.load(fallback)
                }
                None => Outcome::redraw(),
            },
            FromWorker::Started {
                run_id,
                prompt_ids,
                prompt_cropped,
                lanes,
            } => {
                let n_positions = match &self.model.status {
                    ModelStatus::Ready { info, .. } => Some(info.n_positions),
                    _ => None,
                };
                let ids = prompt_ids;
                let changed = self
                    .run
                    .started(run_id, ids, prompt_cropped, &lanes, n_positions);
                Outcome::changed(changed)
            }
            FromWorker::Step {
                run_id,
                lane,
                index,
                step,
                text,
            } => Outcome::changed(self.run.step(run_id, lane, index, *step, text, now)),
            FromWorker::LaneDone {
                run_id,
                lane,
                reason,
            } => Outcome::changed(self.run.lane_done(run_id, lane, reason)),
            FromWorker::Finished {
                run_id, document, ..
            } => {
                let changed = self.run.finished(run_id, document);
                if changed && self.run.running.is_none() {
                    self.run.check_watermarks(self.model.vocab_size());
                    if let Some(step) = self.pending_step.take() {
                        self.run.select(0, step);
                    }
                }
                Outcome::changed(changed)
            }
            FromWorker::RunFailed {
                run_id,
                lane,
                field,
                message,
            } => {
                self.run.failed(run_id);
                match lane {
                    Some(l) => self.editor.lane_failed(l, field, message),
                    None => self.error = Some(message),
                }
                Outcome::redraw()
            }
            FromWorker::WhatIf {
                request_id,
                step,
                vocab,
                ms,
            } => Outcome::changed(
                self.sandbox
                    .make_mut()
                    .answered(request_id, *step, vocab, ms),
            ),
            FromWorker::Inspected {
                request_id,
                tokens,
                predictions,
                context,
                cropped,
            } => Outcome::changed(self.inspector.make_mut().answered(
                request_id,
                tokens,
                predictions,
                context,
                cropped,
            )),
            FromWorker::ChatRendered { text } => {
                if let Some(text) = self.chat.rendered(text) {
                    self.editor.set_prompt(text);
                }
                Outcome::redraw()
            }
            FromWorker::Tokenized { request_id, tokens } => {
                Outcome::changed(self.inspector.make_mut().looked_up(request_id, tokens))
            }
            FromWorker::InspectFailed {
                request_id,
                message,
            } => Outcome::changed(self.inspector.make_mut().failed(request_id, message)),
            FromWorker::WhatIfFailed {
                request_id,
                field,
                message,
            } => Outcome::changed(self.sandbox.make_mut().failed(request_id, field, message)),
        }
    }

    /// The worker stopped or never started.
    pub fn worker_crashed(&mut self, message: String) -> Outcome {
        if self.worker.threaded && !self.worker.ready {
            // The threaded build did not start (missing from this host, or
            // shared memory refused): the single-threaded one does the same work.
            self.worker.threaded = false;
            return Outcome::unchanged().and(Command::SpawnWorker { threaded: false });
        }
        self.worker.alive = false;
        self.worker.ready = false;
        self.run.worker_lost();
        // Its answers are lost with it.
        self.inspector = RcEq::default();
        self.sandbox.make_mut().pending = None;
        self.error = Some(format!(
            "{message}. Your prompt and settings are kept; restart the worker to go on."
        ));
        self.model.failed(message);
        Outcome::redraw()
    }

    /// `WORKER_START_PATIENCE_MS` after worker number `spawned` was started:
    /// if that worker still has not said it listens, the page says so and
    /// offers a restart. Says whether to render.
    pub fn worker_start_overdue(&mut self, spawned: u32) -> bool {
        let overdue = spawned == self.worker.spawned && self.worker.alive && !self.worker.ready;
        if overdue {
            self.worker.slow = true;
        }
        overdue
    }

    pub fn restart_worker(&mut self) -> Outcome {
        self.error = None;
        if self.worker.slow {
            // The threaded build may be what will not start: go on one thread.
            self.worker.threaded = false;
        }
        // Shown as loading at once; the load itself is sent when the new
        // worker says it is ready.
        let _ = self.model.reload();
        Outcome::redraw().and(Command::SpawnWorker {
            threaded: self.worker.threaded,
        })
    }

    /// Starts a run of every lane, or says (next to the knob, or above the
    /// lanes) why it cannot start.
    pub fn start_run(&mut self, kind: RunKind) -> Outcome {
        let forced_text = match kind {
            RunKind::Score if self.editor.score_text.is_empty() => {
                self.error = Some("type a continuation to score first".into());
                return Outcome::redraw();
            }
            RunKind::Score => Some(self.editor.score_text.clone()),
            RunKind::Generate => None,
        };
        let Some(lanes) = self.editor.lane_requests(self.model.generation_defaults()) else {
            return Outcome::redraw();
        };
        if !self.worker.alive {
            self.error = Some("the model worker is not running; restart it first".into());
            return Outcome::redraw();
        }
        self.error = None;
        let run_id = self.run.begin(kind, &self.editor.prompt);
        self.run.lesson = self
            .editor
            .unchanged_preset()
            .filter(|_| kind == RunKind::Generate)
            .map(|preset| LessonRun {
                preset,
                hub_repo: match &self.model.source {
                    Some(ModelSource::Hub { repo }) => Some(repo.clone()),
                    _ => None,
                },
            });
        let request = RunRequest {
            prompt: self.editor.prompt.clone(),
            lanes,
            top_n: 20,
            shared_seed: self.editor.shared_seed(),
            prompt_ids: self.editor.branch_ids.clone(),
            forced_text,
            negative_prompt: Some(self.editor.negative_prompt.clone())
                .filter(|n| !n.is_empty() && self.editor.guided()),
        };
        Outcome::redraw().and(Command::Send(ToWorker::Run { run_id, request }))
    }

    pub fn stop(&self) -> Outcome {
        let cancel = self.run.running.map(|run_id| ToWorker::Cancel { run_id });
        Outcome::unchanged().and_send(cancel.filter(|_| self.worker.alive))
    }

    pub fn reroll(&mut self) -> Outcome {
        self.editor.reroll();
        self.start_run(RunKind::Generate)
    }

    /// Every lane continues from the prompt, `lane`'s tokens before `step`,
    /// and `token_id`.
    pub fn branch(&mut self, lane: usize, step: usize, token_id: u32) -> Outcome {
        let Some(b) = self.run.branch(lane, step, token_id) else {
            return Outcome::unchanged();
        };
        self.notice = Some(format!(
            "Branched from lane {} at step {} with “{}”: every lane continues from these \
             exact {} tokens. Editing the prompt starts afresh.",
            lane + 1,
            step + 1,
            crate::format::visible(&b.token),
            b.ids.len()
        ));
        self.editor.branch_to(b.prompt, b.ids);
        self.run.close_table();
        self.start_run(RunKind::Generate)
    }

    /// Shows a recorded run (a file the user picked); its lanes' configs
    /// come into the editors.
    pub fn replayed(&mut self, name: String, doc: Document) {
        let lanes = doc
            .runs
            .iter()
            .map(|r| {
                crate::lane_config::LaneConfig::from_json(&crate::export::config_diff(&r.config))
            })
            .map(Result::unwrap_or_default)
            .collect();
        let prompt = doc.prompt.clone();
        match self.run.replay(name, doc) {
            Ok(notice) => {
                self.run.check_watermarks(self.model.vocab_size());
                self.error = None;
                if notice.is_some() {
                    self.notice = notice;
                }
                self.editor.show_recorded(&prompt, lanes);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    // The model panel's actions.

    pub fn load_bundled(&mut self) -> Outcome {
        self.notice = None;
        let message = self.model.load_bundled();
        self.load(message)
    }

    pub fn load_hub(&mut self) -> Outcome {
        match self.model.load_hub() {
            Some(message) => {
                self.notice = None;
                self.load(message)
            }
            None => Outcome::redraw(),
        }
    }

    /// A model from the picker: loaded as if its repo id were typed in the box.
    pub fn pick_model(&mut self, repo: &str) -> Outcome {
        self.model.set_hub_repo(repo);
        self.load_hub()
    }

    pub fn confirm_model(&mut self) -> Outcome {
        match self.model.confirm() {
            Some(message) => self.load(message),
            None => Outcome::unchanged(),
        }
    }

    /// Picked model files: the message to send with their bytes, when a
    /// worker is there to take them.
    pub fn load_files(&mut self, names: Vec<String>) -> Option<ToWorker> {
        self.notice = None;
        let message = self.model.load_files(names);
        if !self.worker.alive {
            self.error = Some("the model worker is not running; restart it first".into());
            return None;
        }
        Some(message)
    }

    /// The sandbox holds `lane`'s step `step` (its whole row, from the
    /// worker), starting from the knobs that lane ran with.
    pub fn open_sandbox(&mut self, lane: usize, step: usize) -> Outcome {
        let Some(r) = self.run.results.get(lane).and_then(|r| r.as_ref()) else {
            return Outcome::unchanged();
        };
        let Some(chosen) = r.steps.get(step).map(|s| s.token_id) else {
            return Outcome::unchanged();
        };
        if self.run.prompt_ids.is_empty() || !self.worker.alive {
            return Outcome::unchanged();
        }
        // A beam lane's table is one beam's row: the one its records trace back to.
        let Some(generated) = ntl_decoding::step_context::step_context(&r.steps, step) else {
            return Outcome::unchanged();
        };
        let mut ids = self.run.prompt_ids.clone();
        ids.extend(generated);
        let config = self
            .run
            .document
            .as_ref()
            .and_then(|d| d.runs.get(lane))
            .map(|run| run.config.clone())
            .unwrap_or_else(|| self.editor.lanes[lane].config());
        let llama = config.llama_cpp().is_some();
        let config = sandbox_start(&config);
        let beam = r.steps[step].beams.is_some();
        let source = sandbox::StepSource {
            lane,
            step,
            ids: std::rc::Rc::new(ids),
            prompt_len: self.run.prompt_ids.len(),
            chosen,
            beam,
            // The ids the lane named; none named: the model's, in the worker.
            eos_token_ids: if beam && config.eos_token_id.is_some() {
                config.validate().ok().map(|valid| valid.eos_token_ids)
            } else {
                None
            },
            guided: config.guidance_scale.is_some_and(|g| g != 1.0),
            dola: r.steps[step].dola.is_some(),
            llama,
        };
        let request = self.sandbox.make_mut().open_step(source, &config);
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// A knob typed into the sandbox.
    pub fn set_sandbox_knob(&mut self, knob: Knob, text: String) -> Outcome {
        let request = self.sandbox.make_mut().set_knob(knob, text);
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// Asks the worker for the prompt's tokens and predictions when the
    /// prompt is not the one shown (called after every message).
    pub fn inspect_prompt(&mut self) -> Outcome {
        if !self.model.is_ready() || !self.worker.alive {
            return Outcome::unchanged();
        }
        // Checked before `make_mut`, which would copy the inspector on every
        // streamed step.
        if !self.inspector.needs(&self.editor.prompt) {
            return Outcome::unchanged();
        }
        let request = self.inspector.make_mut().ask(&self.editor.prompt);
        Outcome::unchanged().and_maybe(request.map(Command::Send))
    }

    /// The conversation through the model's chat template, into the prompt box.
    pub fn render_chat(&mut self) -> Outcome {
        if !self.model.is_ready() || !self.worker.alive {
            self.chat.error = Some("the model is not ready yet".into());
            return Outcome::redraw();
        }
        let request = self.chat.render();
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// A text typed into the inspector's look-up.
    pub fn look_up(&mut self, text: String) -> Outcome {
        let request = if self.model.is_ready() && self.worker.alive {
            self.inspector.make_mut().look_up(text)
        } else {
            self.inspector.make_mut().lookup_text = text;
            None
        };
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// The looked-up text put to use in a lane: as its eos token (one token
    /// only) or as its stop string.
    pub fn use_lookup(&mut self, lane: usize, use_as: LookupUse) -> Outcome {
        if lane >= LANES {
            return Outcome::unchanged();
        }
        match use_as {
            LookupUse::Eos => {
                let Some(id) = self.inspector.lookup_single() else {
                    return Outcome::unchanged();
                };
                self.editor
                    .set_knob(lane, Knob::EosTokenId, &id.to_string());
            }
            LookupUse::StopString => {
                let text = self.inspector.lookup_text.clone();
                if text.is_empty() {
                    return Outcome::unchanged();
                }
                let json = serde_json::to_string(&[text]).expect("strings serialise");
                self.editor.set_knob(lane, Knob::StopStrings, &json);
            }
            LookupUse::BadWords => {
                let Some(Ok(tokens)) = &self.inspector.lookup else {
                    return Outcome::unchanged();
                };
                let word: Vec<i64> = tokens.iter().map(|t| i64::from(t.id)).collect();
                if word.is_empty() {
                    return Outcome::unchanged();
                }
                if self.editor.lanes[lane].semantics() == Semantics::LlamaCpp {
                    // llama.cpp bans tokens, not sequences: each token of the
                    // text gets `false`, as llama-server does for a text key.
                    let mut biases: Vec<serde_json::Value> = self.editor.lanes[lane]
                        .llama()
                        .and_then(|c| c.logit_bias.clone())
                        .and_then(|v| v.as_array().cloned())
                        .unwrap_or_default();
                    for id in &word {
                        let entry = serde_json::json!([id, false]);
                        if !biases.contains(&entry) {
                            biases.push(entry);
                        }
                    }
                    let json = serde_json::Value::Array(biases).to_string();
                    self.editor
                        .set_llama_knob(lane, LlamaKnob::LogitBias, &json);
                    return Outcome::redraw();
                }
                // Added to the lane's list, once.
                let mut words = self.editor.lanes[lane]
                    .hf()
                    .and_then(|c| c.bad_words_ids.clone())
                    .unwrap_or_default();
                if !words.contains(&word) {
                    words.push(word);
                }
                let json = serde_json::to_string(&words).expect("ids serialise");
                self.editor.set_knob(lane, Knob::BadWordsIds, &json);
            }
            LookupUse::ForceWords => {
                let Some(Ok(tokens)) = &self.inspector.lookup else {
                    return Outcome::unchanged();
                };
                let word: Vec<i64> = tokens.iter().map(|t| i64::from(t.id)).collect();
                if word.is_empty() {
                    return Outcome::unchanged();
                }
                let Some(config) = self.editor.lanes[lane].hf().cloned() else {
                    self.editor.lane_failed(
                        lane,
                        None,
                        "llama.cpp has no constrained beam search: switch the lane to \
                         transformers to make it include a phrase"
                            .into(),
                    );
                    return Outcome::redraw();
                };
                let mut words = config.force_words_ids.clone().unwrap_or_default();
                let phrase = ntl_decoding::constraints::ForceWord::Phrase(word);
                if !words.contains(&phrase) {
                    words.push(phrase);
                }
                // Constrained search runs on beams, without sampling or groups.
                let mode = config.mode();
                // (Beam sampling becomes plain beam search: HF's constrained search cannot sample.)
                if !matches!(mode, Mode::Beam | Mode::ConstrainedBeam) {
                    self.editor.set_mode(lane, Mode::Beam);
                }
                let json = serde_json::to_string(&words).expect("ids serialise");
                self.editor.set_knob(lane, Knob::ForceWordsIds, &json);
            }
        }
        Outcome::redraw()
    }

    /// The sandbox's knobs copied into a lane (nothing while its input is wrong).
    pub fn use_sandbox(&mut self, lane: usize) -> Outcome {
        match self.sandbox.lane_knobs() {
            Some(knobs) => {
                self.editor.use_knobs(lane, &knobs);
                Outcome::redraw()
            }
            None => Outcome::default(),
        }
    }

    /// The page as a share link holds it.
    pub fn shared(&self) -> Shared {
        let scoring = self.run.kind == RunKind::Score;
        let step = self.run.selected.map(|(_, step)| step);
        Shared {
            step,
            ..self.editor.shared(self.model.link_name(), scoring)
        }
    }
}

/// The HF knobs the sandbox starts from: a lane's own, or a llama.cpp
/// lane's same-named knobs as an HF sampling config.
fn sandbox_start(config: &ntl_decoding::LaneConfig) -> ntl_decoding::GenerationConfig {
    match config {
        ntl_decoding::LaneConfig::Transformers(c) => c.clone(),
        ntl_decoding::LaneConfig::LlamaCpp(c) => ntl_decoding::GenerationConfig {
            do_sample: c.temperature > 0.0,
            temperature: if c.temperature > 0.0 {
                c.temperature
            } else {
                1.0
            },
            top_k: (c.top_k > 0).then_some(c.top_k),
            top_p: c.top_p,
            min_p: (c.min_p > 0.0).then_some(c.min_p),
            typical_p: c.typical_p,
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::{GenerationConfig, Mode};
    use ntl_protocol::share;
    use ntl_protocol::{LaneStart, ModelSource};

    fn info() -> FromWorker {
        FromWorker::Loaded {
            info: model::tests::info(),
            label: "bundled".into(),
            load_ms: 1.0,
            memory_bytes: None,
            threads: 1,
        }
    }

    /// A page whose worker is up and whose model is loaded.
    fn ready_page(requested: Requested) -> Page {
        let (mut page, spawn) = Page::new(requested, false);
        assert_eq!(spawn, Command::SpawnWorker { threaded: false });
        page.worker_spawned(Ok(()));
        let out = page.on_worker(FromWorker::Ready, 0.0);
        assert!(
            matches!(out.commands[..], [Command::Send(ToWorker::Load { .. })]),
            "{out:?}"
        );
        page
    }

    /// The worker's word that run `run_id` started, every lane in `mode`.
    fn started(run_id: u64, mode: Mode) -> FromWorker {
        let lanes = vec![
            LaneStart {
                mode,
                config: GenerationConfig::default().into()
            };
            LANES
        ];
        FromWorker::Started {
            run_id,
            prompt_ids: vec![1],
            prompt_cropped: 0,
            lanes,
        }
    }

    fn sent_run(out: &Outcome) -> Option<(u64, RunRequest)> {
        out.commands.iter().find_map(|c| match c {
            Command::Send(ToWorker::Run { run_id, request }) => Some((*run_id, request.clone())),
            _ => None,
        })
    }

    #[test]
    fn a_run_sends_every_lane_and_its_stream_fills_the_lanes() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        let out = page.start_run(RunKind::Generate);
        let (run_id, request) = sent_run(&out).expect("a run request");
        assert_eq!(request.lanes.len(), LANES);
        assert_eq!(request.prompt, page.editor.prompt);
        assert!(page.on_worker(started(run_id, Mode::Sample), 0.0).redraw);
        // A step of a run that is not the current one does not redraw the page.
        let stale = FromWorker::LaneDone {
            run_id: run_id + 1,
            lane: 0,
            reason: ntl_decoding::StopReason::Eos,
        };
        assert_eq!(page.on_worker(stale, 0.0), Outcome::unchanged());
        let stop = page.stop();
        assert_eq!(stop.commands, [Command::Send(ToWorker::Cancel { run_id })]);
    }

    #[test]
    fn a_looked_up_text_joins_a_lanes_bad_words_once() {
        let mut page = ready_page(Requested::default());
        let token = |id: u32| ntl_decoding::inspect::PromptToken {
            id,
            token: String::new(),
            bytes: vec![],
        };
        page.inspector.make_mut().lookup = Some(Ok(vec![token(262), token(13)]));
        let _ = page.use_lookup(2, LookupUse::BadWords);
        let _ = page.use_lookup(2, LookupUse::BadWords);
        page.inspector.make_mut().lookup = Some(Ok(vec![token(11)]));
        let _ = page.use_lookup(2, LookupUse::BadWords);
        assert_eq!(
            page.editor.lanes[2].hf().unwrap().bad_words_ids,
            Some(vec![vec![262, 13], vec![11]])
        );
        assert!(page.editor.errors[2].is_none());
        // A text that is not one token cannot be an eos.
        page.inspector.make_mut().lookup = Some(Ok(vec![token(262), token(13)]));
        assert!(!page.use_lookup(0, LookupUse::Eos).redraw);
    }

    #[test]
    fn a_run_of_a_lesson_preset_unchanged_remembers_the_preset_and_the_hub_model() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        let sweep = crate::presets::PRESETS
            .iter()
            .position(|p| p.name == "Temperature sweep")
            .unwrap();
        page.editor.apply_preset(sweep);
        page.model.source = Some(ModelSource::Hub {
            repo: "distilbert/distilgpt2".into(),
        });
        let _ = page.start_run(RunKind::Generate);
        assert_eq!(
            page.run.lesson,
            Some(LessonRun {
                preset: sweep,
                hub_repo: Some("distilbert/distilgpt2".into())
            })
        );
        // A knob edited: the run is no longer the lesson's.
        page.editor.set_knob(3, Knob::MaxNewTokens, "13");
        let _ = page.start_run(RunKind::Generate);
        assert_eq!(page.run.lesson, None);
        // Nor is a scored text.
        page.editor.apply_preset(sweep);
        page.editor.score_text = " to".into();
        let _ = page.start_run(RunKind::Score);
        assert_eq!(page.run.lesson, None);
    }

    #[test]
    fn the_sandboxs_knobs_make_a_lane_sample_with_exactly_them() {
        let mut page = ready_page(Requested::default());
        let before = page.editor.lanes[0].text(Knob::MaxNewTokens);
        let sandbox = page.sandbox.make_mut();
        let _ = sandbox.set_knob(Knob::Temperature, "0.5".into());
        let _ = sandbox.set_knob(Knob::MinP, "0.1".into());
        assert!(page.use_sandbox(0).redraw);
        let lane = &page.editor.lanes[0];
        assert_eq!(lane.mode(), Mode::Sample);
        let cfg = lane.hf().unwrap();
        assert_eq!(
            (cfg.temperature, cfg.min_p, cfg.top_k),
            (0.5, Some(0.1), Some(0))
        );
        assert_eq!(
            lane.text(Knob::MaxNewTokens),
            before,
            "the lane's other knobs stay"
        );
        assert_eq!(page.editor.errors[0], None);
        // A wrong input copies nothing.
        let _ = page.sandbox.make_mut().set_knob(Knob::TopP, "lots".into());
        let lanes = page.editor.lanes.clone();
        assert!(!page.use_sandbox(1).redraw);
        assert_eq!(page.editor.lanes, lanes);
    }

    #[test]
    fn a_beam_lanes_step_opens_the_sandbox_keeping_what_its_beams_keep() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        page.editor.set_json(
            0,
            r#"{"num_beams": 3, "do_sample": true, "top_p": 0.5, "eos_token_id": [5, 7]}"#,
        );
        page.editor.set_json(1, r#"{"num_beams": 3, "top_p": 0.5}"#);
        page.editor
            .set_json(2, r#"{"do_sample": true, "eos_token_id": 9}"#);
        let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
        let _ = page.on_worker(started(run_id, Mode::BeamSample), 0.0);
        for lane in 0..3 {
            let mut step = run::tests::step(3, " a");
            if lane < 2 {
                step.beams = Some(vec![ntl_decoding::record::BeamCandidate {
                    beam: 0,
                    token_id: 3,
                    token: " a".into(),
                    score: -0.5,
                    finished: false,
                    running: true,
                    group: None,
                    diversity_penalty: None,
                    padding: false,
                    constraints: None,
                    pushed: false,
                }]);
            }
            let step = Box::new(step);
            let text = " a".into();
            let _ = page.on_worker(
                FromWorker::Step {
                    run_id,
                    lane,
                    index: 0,
                    step,
                    text,
                },
                0.0,
            );
        }
        let asked = |page: &mut Page, lane: usize| {
            let out = page.open_sandbox(lane, 0);
            out.commands.iter().find_map(|c| match c {
                Command::Send(ToWorker::WhatIf {
                    log_probs,
                    eos_token_ids,
                    ..
                }) => Some((*log_probs, eos_token_ids.clone())),
                _ => None,
            })
        };
        // The lane's own eos ids go with its step: its beams keep three tokens.
        assert_eq!(asked(&mut page, 0), Some((true, Some(vec![5, 7]))));
        // None named: the worker keeps as many as the model's eos ids ask.
        assert_eq!(asked(&mut page, 1), Some((true, None)));
        // A sampling lane keeps one token, whatever its eos.
        assert_eq!(asked(&mut page, 2), Some((false, None)));
    }

    #[test]
    fn an_invalid_knob_blocks_the_run_and_a_knob_the_worker_refuses_shows_next_to_it() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        page.editor.set_knob(2, Knob::TopP, "1.5");
        assert_eq!(sent_run(&page.start_run(RunKind::Generate)), None);
        page.editor.set_knob(2, Knob::TopP, "");
        let (run_id, _) = sent_run(&page.start_run(RunKind::Generate)).unwrap();
        let failed = FromWorker::RunFailed {
            run_id,
            lane: Some(3),
            field: Some(Knob::EosTokenId.name().into()),
            message: "outside the vocabulary".into(),
        };
        let _ = page.on_worker(failed, 0.0);
        assert_eq!(page.run.running, None);
        assert_eq!(
            page.editor.errors[3].as_ref().unwrap().field.as_deref(),
            Some("eos_token_id")
        );
    }

    #[test]
    fn a_share_link_restores_the_page_and_runs_once_the_model_is_ready() {
        let mut e = Editor::default();
        e.set_knob(0, Knob::MaxNewTokens, "5");
        let link = Shared {
            step: Some(3),
            ..e.shared(Some("bundled".into()), false)
        };
        let link = share::decode(&share::encode(&link)).unwrap();
        let requested = Requested {
            embed: false,
            model: None,
            shared: Some(Ok(link)),
        };
        let mut page = ready_page(requested);
        assert_eq!(
            page.model.source,
            Some(ModelSource::Bundled {
                base: model::BUNDLED_BASE.into()
            })
        );
        assert_eq!(page.editor.lanes, e.lanes);
        let (run_id, _) = sent_run(&page.on_worker(info(), 0.0)).expect("runs on load");
        // Once that run is done, the compare view opens at the link's step.
        let _ = page.on_worker(started(run_id, Mode::Greedy), 0.0);
        for index in 0..5 {
            let step = Box::new(run::tests::step(index as u32, " a"));
            let text = " a".repeat(index + 1);
            let _ = page.on_worker(
                FromWorker::Step {
                    run_id,
                    lane: 0,
                    index,
                    step,
                    text,
                },
                0.0,
            );
        }
        assert_eq!(page.run.selected, None, "not while it runs");
        let document = Document {
            prompt_ids: vec![1],
            prompt: String::new(),
            prompt_cropped: 0,
            runs: vec![],
        };
        let finished = FromWorker::Finished {
            run_id,
            document,
            ms: 1.0,
            first_step_ms: None,
            memory_bytes: None,
        };
        let _ = page.on_worker(finished, 0.0);
        assert_eq!(page.run.selected, Some((0, 3)));
        assert_eq!(page.shared().step, Some(3), "and a link made now keeps it");
    }

    #[test]
    fn a_broken_share_link_is_reported_and_the_page_opens_normally() {
        let requested = Requested {
            shared: Some(share::decode("2.xyz")),
            ..Default::default()
        };
        let (page, _) = Page::new(requested, false);
        assert!(page.error.as_deref().unwrap().contains("another version"));
        assert_eq!(page.editor, Editor::default());
    }

    #[test]
    fn a_threaded_worker_that_cannot_start_gives_way_to_the_single_threaded_one() {
        let (mut page, spawn) = Page::new(Requested::default(), true);
        assert_eq!(spawn, Command::SpawnWorker { threaded: true });
        page.worker_spawned(Ok(()));
        let out = page.worker_crashed("no shared memory".into());
        assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
        assert_eq!(page.error, None, "quietly");
    }

    #[test]
    fn a_threaded_worker_silent_past_the_patience_is_offered_a_restart_on_one_thread() {
        let (mut page, _) = Page::new(Requested::default(), true);
        page.worker_spawned(Ok(()));
        let first = page.worker.spawned;
        assert!(page.worker_start_overdue(first));
        assert!(page.worker.slow);
        assert!(page.worker.alive, "not killed: it may still come");
        let out = page.restart_worker();
        assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
        page.worker_spawned(Ok(()));
        assert!(!page.worker.slow, "a new worker gets its own patience");
        assert!(
            !page.worker_start_overdue(first),
            "the first worker's check does not touch the second"
        );
        let out = page.on_worker(FromWorker::Ready, 0.0);
        assert!(matches!(
            out.commands[..],
            [Command::Send(ToWorker::Load { .. })]
        ));
        assert!(
            !page.worker_start_overdue(page.worker.spawned),
            "it listens"
        );
        assert!(!page.worker.slow);
    }

    #[test]
    fn a_worker_that_said_ready_in_time_is_never_called_slow_and_restarts_as_it_was() {
        let (mut page, _) = Page::new(Requested::default(), true);
        page.worker_spawned(Ok(()));
        let _ = page.on_worker(FromWorker::Ready, 0.0);
        assert!(!page.worker_start_overdue(page.worker.spawned));
        let _ = page.worker_crashed("the model worker stopped (out of memory?)".into());
        let out = page.restart_worker();
        assert_eq!(out.commands, [Command::SpawnWorker { threaded: true }]);
    }

    #[test]
    fn a_crashed_worker_keeps_the_prompt_and_knobs_and_a_restart_reloads_the_model() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        page.editor.set_prompt("my prompt".into());
        let _ = page.start_run(RunKind::Generate);
        let _ = page.worker_crashed("the model worker stopped (out of memory?)".into());
        assert_eq!(page.run.running, None);
        assert!(page
            .error
            .as_deref()
            .unwrap()
            .contains("restart the worker"));
        assert_eq!(page.editor.prompt, "my prompt");
        assert!(
            sent_run(&page.start_run(RunKind::Generate)).is_none(),
            "no worker to run on"
        );
        let out = page.restart_worker();
        assert_eq!(out.commands, [Command::SpawnWorker { threaded: false }]);
        page.worker_spawned(Ok(()));
        let out = page.on_worker(FromWorker::Ready, 0.0);
        assert!(matches!(
            out.commands[..],
            [Command::Send(ToWorker::Load { .. })]
        ));
    }

    #[test]
    fn scoring_needs_a_text_and_sends_it_to_every_lane() {
        let mut page = ready_page(Requested::default());
        let _ = page.on_worker(info(), 0.0);
        assert_eq!(sent_run(&page.start_run(RunKind::Score)), None);
        assert!(page.error.is_some());
        page.editor.score_text = " to read".into();
        let (_, request) = sent_run(&page.start_run(RunKind::Score)).unwrap();
        assert_eq!(request.forced_text.as_deref(), Some(" to read"));
        assert_eq!(page.shared().score.as_deref(), Some(" to read"));
    }
}
