//! The page's state in plain Rust, with its transitions: the model in use
//! (`model`), what the user sets up (`editor`), the run on screen (`run`),
//! and here what ties them together — the worker's messages, starting and
//! stopping runs, branches, links. Transitions say what the page must do
//! outside itself (talk to the worker) as [`Command`]s, and whether the
//! screen changed; the `App` component performs the one and renders the other.

pub mod beam_tree;
mod beam_tree_steps;
pub mod chat;
pub mod drift;
mod drift_steps;
pub mod editor;
pub mod fresh_seeds;
pub mod handout;
mod handout_steps;
pub mod inspector;
mod lane_model_steps;
pub mod lane_model_trouble;
pub mod lane_models;
pub mod lane_outlook;
mod lens_steps;
pub mod lesson_player;
mod lesson_steps;
pub mod lesson_writer;
pub mod memory_need;
pub mod model;
pub mod model_catalog;
pub mod out_of_memory;
pub mod outcome;
pub mod package;
mod package_steps;
pub mod page_actions;
pub mod projector;
pub mod quiz;
pub mod quiz_marking;
mod quiz_steps;
pub mod run;
pub mod sample_tree;
pub mod sandbox;
mod sandbox_steps;
mod seed_steps;
pub mod stall;
pub mod token_lookup;
pub mod tree_steps;
mod worker_messages;
mod writer_steps;
pub mod writer_trouble;

#[cfg(test)]
#[cfg(test)]
mod beam_tree_tests;
#[cfg(test)]
mod drift_tests;
#[cfg(test)]
mod eight_bit_tests;
#[cfg(test)]
mod gguf_choice_tests;
#[cfg(test)]
mod lane_model_tests;
#[cfg(test)]
mod lens_tests;
#[cfg(test)]
mod lesson_tests;
#[cfg(test)]
mod package_tests;
#[cfg(test)]
mod previous_model_tests;
#[cfg(test)]
mod projector_tests;
#[cfg(test)]
mod quiz_tests;
#[cfg(test)]
mod seed_tests;
#[cfg(test)]
mod site_model_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;
#[cfg(test)]
mod writer_tests;

use crate::lesson_check::{self, LessonRun};
use crate::page_error::PageError;
use crate::page_url::Requested;
use crate::rc_eq::RcEq;
use crate::said::Said;
use editor::Editor;
use inspector::Inspector;
use model::ModelState;
use ntl_decoding::Document;
use ntl_protocol::share::Shared;
use ntl_protocol::ModelSource;
use ntl_protocol::{RunRequest, ToWorker};
use run::{RunKind, RunState};
use sandbox::Sandbox;

pub use crate::lanes::LANES;
use crate::worker_choice::{Abilities, OneThread};
pub use outcome::{Command, Outcome};
pub use quiz::QuizInput;

/// How long a worker may take to say it listens before the page offers to
/// start it again (on one thread, if it was the threaded build). Not forced:
/// on a slow connection the worker's wasm alone can take longer to arrive.
pub const WORKER_START_PATIENCE_MS: u32 = 20_000;

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
    /// Why the model runs on the single-threaded worker, when it does.
    pub one_thread: Option<OneThread>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub model: ModelState,
    pub editor: Editor,
    pub run: RunState,
    pub worker: WorkerState,
    /// `?embed=1`: the lanes without the editors, for a course page's iframe.
    pub embed: bool,
    /// `?present=1`: projector mode, large type and one thing at a time.
    pub present: bool,
    /// `?stall=N`: how long a run may go without a word from the worker.
    pub stall: stall::StallLimit,
    /// The open lesson's handout, gathered to print.
    pub handout: Option<handout::Handout>,
    pub notice: Option<Said>,
    pub error: Option<Said>,
    /// Run as soon as the model is ready (a share link, an embed).
    pending_run: Option<RunKind>,
    /// Open the compare view at this lane and step once that run is done
    /// (a link, a tree's branch).
    pending_step: Option<(usize, usize)>,
    pub share_link: Option<String>,
    pub embed_code: Option<String>,
    pub sandbox: RcEq<Sandbox>,
    pub inspector: RcEq<Inspector>,
    /// The prompt as a conversation (models with a chat template).
    pub chat: chat::Chat,
    pub lessons: lesson_player::LessonPlayer,
    /// An embedded lesson: its recordings show, and the model downloads
    /// only when the student asks to run live.
    pub live_on_request: bool,
    /// The lesson the teacher is writing on the page.
    pub writer: RcEq<lesson_writer::LessonWriter>,
    /// The open lesson on its way into a package to upload.
    pub package: RcEq<package::Packaging>,
    /// The logit lens is shown (and runs record it).
    pub lens: bool,
    /// Many samples of one lane as a tree.
    pub tree: RcEq<sample_tree::TreePanel>,
    /// Which beam lane's search the beam tree draws, and its open node.
    pub beam_view: beam_tree::BeamTreeView,
    /// The models lanes name beside the page's model.
    pub lane_models: lane_models::LaneModels,
    /// Quantized lanes' steps measured against full precision.
    pub drifts: drift::Drifts,
}

impl Page {
    /// The page the address asks for, and the worker to start for it.
    pub fn new(requested: Requested, abilities: Abilities) -> (Page, Vec<Command>) {
        let one_thread = abilities.one_thread();
        let threads = one_thread.is_none();
        let (shared, link_error) = match requested.shared {
            Some(Ok(s)) => (Some(s), None),
            Some(Err(e)) => (None, Some(Said::from(e))),
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
                one_thread,
            },
            embed: requested.embed,
            present: requested.present,
            stall: requested.stall,
            handout: None,
            notice: None,
            error: link_error,
            pending_run: requested.embed.then_some(RunKind::Generate),
            pending_step: None,
            share_link: None,
            embed_code: None,
            sandbox: RcEq::default(),
            inspector: RcEq::default(),
            chat: chat::Chat::default(),
            lessons: Default::default(),
            live_on_request: false,
            writer: RcEq::default(),
            package: RcEq::default(),
            lens: false,
            tree: RcEq::default(),
            beam_view: Default::default(),
            lane_models: Default::default(),
            drifts: Default::default(),
        };
        // A link made with 8 bits at load loads its model so.
        page.model.eight_bit = shared
            .as_ref()
            .is_some_and(|s| s.weights == ntl_protocol::LoadWeights::Q8_0);
        let mut commands = vec![Command::SpawnWorker { threaded: threads }];
        match requested.lesson {
            Some(Ok(path)) => {
                // The lesson names its model; the address or a link may
                // name one first.
                page.lessons.model_waits = model_name.is_none();
                if page.embed && shared.is_none() {
                    page.live_on_request = true;
                    page.pending_run = None;
                    if model_name.is_some() {
                        page.model.on_request();
                    }
                }
                page.lessons.waiting = Some(path.clone());
                commands.push(Command::FetchLesson { path });
            }
            Some(Err(e)) => page.lessons.error = Some(Said::from(e)),
            None => {}
        }
        match requested.lesson_link {
            Some(Ok(lesson)) => {
                // As a fetched lesson: its model unless the address names one.
                if model_name.is_none() {
                    page.take_lesson_model(&lesson.model, lesson.weights);
                }
                if page.embed && shared.is_none() {
                    page.live_on_request = true;
                    page.pending_run = None;
                    page.model.on_request();
                }
                let open = crate::lessons::OpenLesson {
                    lesson: RcEq::new(lesson),
                    from: crate::lessons::LessonFrom::Link,
                };
                commands.extend(page.open_lesson(open, 0).commands);
            }
            Some(Err(e)) => page.lessons.error = Some(Said::from(e)),
            None => {}
        }
        if let Some(mut s) = shared {
            page.pending_step = s.step.map(|step| (0, step));
            if let Some(chat) = s.chat.take() {
                page.chat.restore(chat, &s.prompt);
            }
            let scoring = page.editor.apply_shared(s);
            page.pending_run = Some(if scoring {
                RunKind::Score
            } else {
                RunKind::Generate
            });
        }
        (page, commands)
    }

    /// The worker asked for exists (or could not be created).
    pub fn worker_spawned(&mut self, result: Result<(), PageError>) {
        self.worker.ready = false;
        self.worker.slow = false;
        self.worker.spawned = self.worker.spawned.wrapping_add(1);
        // A new worker holds no lane model: they load again when a run needs them.
        self.lane_models = Default::default();
        self.drifts.forget();
        match result {
            Ok(()) => self.worker.alive = true,
            Err(e) => {
                self.worker.alive = false;
                self.error = Some(e.into());
            }
        }
    }

    /// Loads `source` now if the worker listens, else when it says it does.
    fn load(&mut self, message: ToWorker) -> Outcome {
        let ready = self.worker.alive && self.worker.ready;
        Outcome::redraw().and_send(ready.then_some(message))
    }

    /// Starts a run of every lane, or says (next to the knob, or above the
    /// lanes) why it cannot start.
    pub fn start_run(&mut self, kind: RunKind) -> Outcome {
        self.launch(kind, true)
    }

    /// As `start_run`; a lane model that failed is tried again if
    /// `retry_failed`, else its lane stays out of the run.
    fn launch(&mut self, kind: RunKind, retry_failed: bool) -> Outcome {
        let forced_text = match kind {
            RunKind::Score if self.editor.score_text.is_empty() => {
                self.error = Some(Said::ScoreNeedsText);
                return Outcome::redraw();
            }
            RunKind::Score => Some(self.editor.score_text.clone()),
            RunKind::Generate => None,
        };
        let (mut lane_models, first) = match self.lane_models_for_run(kind, retry_failed) {
            Ok(ready) => ready,
            Err(wait) => return wait,
        };
        let defaults = self.lane_defaults();
        let on = std::array::from_fn(|lane| defaults[lane].as_ref());
        let Some(mut lanes) = self.editor.lane_requests_on(on) else {
            return Outcome::redraw().and_all(first);
        };
        // Shared randomness sets the lanes' own seeds aside; a scored text
        // is followed, not drawn.
        let drawn = if kind == RunKind::Generate && self.editor.shared_seed().is_none() {
            match fresh_seeds::draw_seeds(&mut lanes) {
                Ok(drawn) => drawn,
                Err(e) => {
                    self.error = Some(e);
                    return Outcome::redraw();
                }
            }
        } else {
            [None; LANES]
        };
        // A lane whose own model would not load says why and stays out;
        // the others run.
        let failed = self.failed_lanes();
        if failed.len() == lanes.len() {
            return Outcome::redraw().and_all(first);
        }
        let lane_of: Vec<usize> = (0..lanes.len()).filter(|l| !failed.contains(l)).collect();
        if !failed.is_empty() {
            lanes = lane_of.iter().map(|&l| lanes[l].clone()).collect();
            lane_models = lane_of
                .iter()
                .map(|&l| lane_models.get(l).cloned().flatten())
                .collect();
            if lane_models.iter().all(Option::is_none) {
                lane_models = vec![];
            }
        }
        if !self.worker.alive {
            self.error = Some(Said::WorkerDown);
            return Outcome::redraw();
        }
        self.error = None;
        let one_vocabulary = self.one_vocabulary(&lane_models);
        let run_id = self.run.begin(kind, &self.editor.prompt);
        self.run.one_vocabulary = one_vocabulary;
        if !failed.is_empty() {
            self.run.lane_of = lane_of;
        }
        self.run.drawn = drawn;
        let unchanged = self.editor.branch_ids.is_none()
            && failed.is_empty()
            && lesson_check::is_unchanged(
                self.lessons.current(),
                &self.editor.prompt,
                &self.editor.lanes,
                &self.editor.models[..self.editor.count],
            );
        self.lessons.recorded = lesson_player::Recorded::NotShown;
        self.run.ran_with = (kind == RunKind::Generate)
            .then(|| (self.editor.prompt.clone(), self.editor.active().to_vec()));
        self.run.lesson = (unchanged && kind == RunKind::Generate).then(|| LessonRun {
            step: self.lessons.here(),
            hub_repo: match &self.model.source {
                Some(s @ ModelSource::Hub { .. }) => s.fetched_name(),
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
            lens: self.lens,
            lane_models,
        };
        self.run.request = Some(request.clone());
        self.run_sent(run_id, request).and_all(first)
    }

    /// A run on its way to the worker, watched for a stall.
    pub(super) fn run_sent(&self, run_id: u64, request: RunRequest) -> Outcome {
        Outcome::redraw()
            .and(Command::Send(ToWorker::Run { run_id, request }))
            .and(Command::WatchRun {
                run_id,
                after_ms: self.stall.ms(),
            })
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
        self.notice = Some(Said::Branched {
            lane: lane + 1,
            step: step + 1,
            token: crate::format::visible(&b.token),
            tokens: b.ids.len(),
        });
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
                let model = r.model.as_ref().map(|m| m.name.clone());
                (ntl_decoding::LaneKnobs::differing(&r.config), model)
            })
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
                self.run.ran_with = Some(self.ran_now());
            }
            Err(e) => self.error = Some(e.into()),
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

    /// A model folder from the site's list: loaded at once unless it cannot fit.
    pub fn pick_folder(&mut self, path: &str) -> Outcome {
        match self.model.load_folder_now(path) {
            Some(message) => {
                self.notice = None;
                self.load(message)
            }
            None => Outcome::redraw(),
        }
    }

    /// 8-bit at load switched: a safetensors model in use loads again as asked.
    pub fn set_eight_bit(&mut self, on: bool) -> Outcome {
        match self.model.set_eight_bit(on) {
            Some(message) => {
                self.notice = None;
                self.load(message)
            }
            None => Outcome::redraw(),
        }
    }

    /// The MiniGPT in use, zipped as a model folder by the worker and
    /// downloaded (`Msg::FolderSaved`).
    pub fn save_model_folder(&mut self) -> Outcome {
        match self.model.folder_to_save() {
            Some(name) if self.worker.alive => {
                Outcome::unchanged().and_send(Some(ToWorker::SaveFolder { name }))
            }
            _ => Outcome::unchanged(),
        }
    }

    /// *Change model* opened: the first time, the site's list of hosted
    /// model folders is asked for (a site without one costs one 404, and
    /// only when someone looks).
    pub fn model_choices_opened(&mut self) -> Outcome {
        if std::mem::replace(&mut self.model.site_models_asked, true) {
            return Outcome::unchanged();
        }
        Outcome::unchanged().and(Command::FetchSiteModels)
    }

    /// The site's `models/index.json`: its folders listed under *Change
    /// model*. A site without one (the fetch fails) lists none and says
    /// nothing; one that is not an index says why.
    pub fn site_models_arrived(
        &mut self,
        bytes: Result<Vec<u8>, crate::page_error::PageError>,
    ) -> Outcome {
        let Ok(bytes) = bytes else {
            return Outcome::unchanged();
        };
        match ntl_protocol::site_models::parse(&bytes) {
            Ok(index) => self.model.site_models = std::rc::Rc::new(index.models),
            Err(e) => self.model.site_models_error = Some(Said::SiteModels(e)),
        }
        Outcome::redraw()
    }

    /// A model from the picker, whose size the list shows: loaded at once.
    pub fn pick_model(&mut self, repo: &str) -> Outcome {
        self.model.set_hub_repo(repo);
        match self.model.load_hub_now() {
            Some(message) => {
                self.notice = None;
                self.load(message)
            }
            None => Outcome::redraw(),
        }
    }

    /// The typed repo is not downloaded: the model in use stays.
    pub fn keep_current_model(&mut self) -> Outcome {
        self.model.keep_current();
        Outcome::redraw()
    }

    /// The student asks an embedded lesson to run live: the model
    /// downloads, then the step runs.
    pub fn run_live(&mut self) -> Outcome {
        if !self.live_on_request {
            return Outcome::unchanged();
        }
        self.live_on_request = false;
        self.pending_run = Some(RunKind::Generate);
        match self.model.confirm() {
            Some(message) => self.load(message),
            None => Outcome::redraw(),
        }
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
            self.error = Some(Said::WorkerDown);
            return None;
        }
        Some(message)
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
            self.chat.error = Some(Said::ModelNotReady);
            return Outcome::redraw();
        }
        let request = self.chat.render();
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// The page as a share link holds it.
    pub fn shared(&self) -> Shared {
        let scoring = self.run.kind == RunKind::Score;
        let step = self.run.selected.map(|(_, step)| step);
        Shared {
            step,
            chat: self.chat.shared(&self.editor.prompt),
            lanes: self.lanes_as_run(),
            weights: self.model.weights(),
            ..self.editor.shared(self.model.link_name(), scoring)
        }
    }
}
