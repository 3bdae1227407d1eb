//! The page's one component: it holds the state (`state::Page`) and the
//! worker, hands each message to a state transition, performs what the
//! transition asks (talk to the worker), and composes the views.

use crate::components::lesson_panel::LessonAction;
use crate::components::lesson_player::PlayerAction;
use crate::components::model_panel::ModelAction;
use crate::components::prompt_row::PromptAction;
use crate::components::question_panel::QuizAction;
use crate::state::run::RunKind;
use crate::state::{Command, Outcome, Page, WORKER_START_PATIENCE_MS};
use crate::worker_link::WorkerLink;
use crate::{download, page_url};
use ntl_protocol::lesson::MAX_LESSON_BYTES;
use ntl_protocol::{FromWorker, ModelSource};
use yew::prelude::*;

mod browser;
mod frame_height;
mod messages;
mod present_keys;
mod view;

use messages::Callbacks;
pub use messages::{LaneAction, Msg};

/// A lesson step's recorded run (a few hundred KB; a long one a few MB).
const MAX_RECORDING_BYTES: usize = 32 * 1024 * 1024;

pub struct App {
    page: Page,
    link: Option<WorkerLink>,
    /// Made once: a view whose props are unchanged (its callbacks included)
    /// is not rendered again, so an unchanged lane costs nothing per step.
    callbacks: Callbacks,
    /// `navigator.storage.persist()` has been asked for.
    persist_asked: bool,
    /// An embed's height, told to the page around it as it changes.
    frame_height: Option<frame_height::FrameHeight>,
    /// Projector mode's keys, heard while the mode is on.
    present_keys: Option<present_keys::PresentKeys>,
    /// Open the print dialog once the handout is on the page.
    print_after: bool,
    /// Where projector mode scrolls once the key's change is on screen.
    scroll_after: Option<present_keys::ScrollTo>,
}

impl App {
    /// Does what a transition asked, and says whether to render.
    fn perform(&mut self, ctx: &Context<Self>, outcome: Outcome) -> bool {
        for command in outcome.commands {
            match command {
                Command::Send(message) => match &self.link {
                    Some(link) => link.send(&message),
                    None => web_sys::console::warn_1(&"no worker to send to".into()),
                },
                Command::Print => self.print_after = true,
                Command::FetchLesson { path } => {
                    let from = crate::lessons::LessonFrom::Site(path.clone());
                    let done = ctx
                        .link()
                        .callback(move |bytes| Msg::LessonArrived(from.clone(), bytes));
                    browser::fetch_bytes(path, MAX_LESSON_BYTES, done);
                }
                Command::FetchRecording { url, at } => {
                    let name = url.clone();
                    let done = ctx.link().callback(move |bytes: Result<Vec<u8>, _>| {
                        Msg::RecordingArrived(at.clone(), browser::recording(&name, bytes))
                    });
                    browser::fetch_bytes(url, MAX_RECORDING_BYTES, done);
                }
                Command::SpawnWorker { threaded } => {
                    // Dropping the old link terminates its worker.
                    self.link = None;
                    let on_message = ctx.link().callback(Msg::Worker);
                    let on_crash = ctx.link().callback(Msg::WorkerCrashed);
                    let on_unreadable = ctx
                        .link()
                        .callback(|(kind, detail)| Msg::WorkerUnreadable { kind, detail });
                    let spawned = WorkerLink::spawn(threaded, on_message, on_crash, on_unreadable);
                    self.page.worker_spawned(spawned.as_ref().map(drop));
                    self.link = spawned.ok();
                    let spawned = self.page.worker.spawned;
                    let overdue = ctx
                        .link()
                        .callback(move |_| Msg::WorkerStartOverdue(spawned));
                    browser::after(WORKER_START_PATIENCE_MS, overdue);
                }
            }
        }
        outcome.redraw
    }

    fn on_model(&mut self, ctx: &Context<Self>, action: ModelAction) -> bool {
        let outcome = match action {
            ModelAction::UseBundled => self.page.load_bundled(),
            ModelAction::RunLive => self.page.run_live(),
            ModelAction::ConfirmDownload => self.page.confirm_model(),
            ModelAction::LoadHub => self.page.load_hub(),
            ModelAction::Pick(repo) => self.page.pick_model(repo),
            ModelAction::HubInput(text) => {
                self.page.model.set_hub_repo(&text);
                Outcome::redraw()
            }
            ModelAction::RestartWorker => self.page.restart_worker(),
            ModelAction::Files(Ok((names, buffers))) => {
                if let (Some(message), Some(link)) = (self.page.load_files(names), &self.link) {
                    link.send_with_buffers(&message, buffers);
                }
                Outcome::redraw()
            }
            ModelAction::Files(Err(e)) => {
                self.page.model.failed(e.to_string());
                Outcome::redraw()
            }
        };
        self.perform(ctx, outcome)
    }

    fn on_prompt(&mut self, ctx: &Context<Self>, action: PromptAction) -> bool {
        let editor = &mut self.page.editor;
        let outcome = match action {
            PromptAction::Prompt(text) => {
                editor.set_prompt(text);
                Outcome::redraw()
            }
            PromptAction::Preset(i) => self.page.open_built_in(i),
            PromptAction::Lesson(PlayerAction::Step(i)) => self.page.lesson_step(i),
            PromptAction::Lesson(PlayerAction::ShowRecording) => self.page.show_recording(),
            PromptAction::Lesson(PlayerAction::Pick(file)) => {
                let done = ctx.link().callback(Msg::LessonPicked);
                browser::read_lesson(file, done);
                Outcome::default()
            }
            PromptAction::SharedRandomness(on) => {
                editor.shared_randomness = on;
                Outcome::redraw()
            }
            PromptAction::ScoreText(text) => {
                editor.score_text = text;
                Outcome::redraw()
            }
            PromptAction::NegativePrompt(text) => {
                editor.negative_prompt = text;
                Outcome::redraw()
            }
            PromptAction::Run => self.page.start_run(RunKind::Generate),
            PromptAction::Score => self.page.start_run(RunKind::Score),
            PromptAction::Stop => self.page.stop(),
            PromptAction::AddLane => {
                editor.add_lane();
                Outcome::redraw()
            }
            PromptAction::RemoveLane => {
                editor.remove_lane();
                Outcome::redraw()
            }
            PromptAction::Reroll => self.page.reroll(),
        };
        self.perform(ctx, outcome)
    }

    fn on_lane(&mut self, lane: usize, action: LaneAction) {
        let editor = &mut self.page.editor;
        match action {
            LaneAction::Field(name, text) => editor.set_field(lane, &name, &text),
            LaneAction::Semantics(s) => editor.set_semantics(lane, s),
            LaneAction::Mode(mode) => editor.set_mode(lane, mode),
            LaneAction::Json(text) => editor.set_json(lane, &text),
            LaneAction::Select(step) => self.page.run.select(lane, step),
            LaneAction::Edit => editor.toggle_editor(lane),
            LaneAction::StartsFrom(from) => editor.set_starts_from(lane, from),
        }
    }

    fn on_lesson(&mut self, ctx: &Context<Self>, action: LessonAction) {
        match action {
            LessonAction::PrintHandout => {
                let outcome = self.page.print_handout();
                let _ = self.perform(ctx, outcome);
            }
            LessonAction::Share => {
                let url = page_url::share_url(&self.page.shared());
                download::copy(&url);
                self.page.share_link = Some(url);
            }
            LessonAction::Embed => {
                let code = page_url::embed_code(&self.page.shared());
                download::copy(&code);
                self.page.embed_code = Some(code);
            }
            LessonAction::Export(kind) => {
                if let Some(doc) = &self.page.run.document {
                    if let Err(e) = download::export(kind, doc) {
                        self.page.error = Some(e.to_string());
                    }
                }
            }
            LessonAction::Replay(file) => {
                let done = ctx.link().callback(Msg::Replayed);
                if let Err(e) = browser::read_recording(file, done) {
                    self.page.error = Some(e.to_string());
                }
            }
        }
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let (mut page, commands) =
            Page::new(page_url::read(), crate::worker_link::threads_available());
        page.model.device_memory_gb = browser::device_memory_gb();
        let mut app = App {
            page,
            link: None,
            callbacks: Callbacks::new(ctx.link()),
            persist_asked: false,
            frame_height: None,
            present_keys: None,
            scroll_after: None,
            print_after: false,
        };
        let _ = app.perform(
            ctx,
            Outcome {
                redraw: true,
                commands,
            },
        );
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let redraw = self.handle(ctx, msg);
        // Whatever changed the prompt (typing, a preset, a link, a branch, a
        // model loaded), the inspector follows it.
        let follow = self.page.inspect_prompt();
        self.perform(ctx, follow) || redraw
    }

    fn view(&self, _ctx: &Context<Self>) -> Html {
        self.render()
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        if first && self.page.embed {
            self.frame_height = frame_height::observe();
        }
        match (self.page.present, self.present_keys.is_some()) {
            (true, false) => {
                self.present_keys = present_keys::listen(ctx.link().callback(Msg::PresentKey));
            }
            (false, true) => self.present_keys = None,
            _ => {}
        }
        if let Some(to) = self.scroll_after.take() {
            present_keys::scroll(to);
        }
        if std::mem::take(&mut self.print_after) {
            if let Some(window) = web_sys::window() {
                let _ = window.print();
            }
        }
    }
}

impl App {
    fn handle(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Worker(m) => {
                // A hub model is now in the browser's cache: ask the browser
                // to keep it through storage pressure (once; best effort).
                let hub_cached = matches!(m, FromWorker::Loaded { .. })
                    && matches!(self.page.model.source, Some(ModelSource::Hub { .. }));
                if hub_cached && !self.persist_asked {
                    self.persist_asked = true;
                    wasm_bindgen_futures::spawn_local(async {
                        crate::model_cache::persist().await;
                    });
                }
                let outcome = self.page.on_worker(m, browser::now_ms());
                self.perform(ctx, outcome)
            }
            Msg::WorkerUnreadable { kind, detail } => {
                let outcome = self.page.worker_message_unreadable(kind, detail);
                self.perform(ctx, outcome)
            }
            Msg::WorkerStartOverdue(spawned) => self.page.worker_start_overdue(spawned),
            Msg::WorkerCrashed(message) => {
                if self.page.worker.threaded && !self.page.worker.ready {
                    let warning = format!(
                        "threaded worker did not start ({message}); using the single-threaded one"
                    );
                    web_sys::console::warn_1(&warning.into());
                }
                let outcome = self.page.worker_crashed(message);
                if !self.page.worker.alive {
                    self.link = None;
                }
                self.perform(ctx, outcome)
            }
            Msg::Model(action) => self.on_model(ctx, action),
            Msg::Prompt(action) => self.on_prompt(ctx, action),
            Msg::Lane(lane, action) => {
                self.on_lane(lane, action);
                true
            }
            Msg::Select { lane, step } => {
                self.page.run.select(lane, step);
                true
            }
            Msg::Compare(action) => {
                let outcome = self.page.on_compare(action);
                self.perform(ctx, outcome)
            }
            Msg::Quiz(action) => {
                let outcome = match action {
                    QuizAction::Answer(at, input) => self.page.answer_question(at, input),
                    QuizAction::Reset => self.page.reset_quiz(),
                };
                self.perform(ctx, outcome)
            }
            Msg::Lesson(action) => {
                self.on_lesson(ctx, action);
                true
            }
            Msg::TogglePresent => {
                let outcome = self.page.toggle_present();
                page_url::set_flag("present", self.page.present);
                self.perform(ctx, outcome)
            }
            Msg::PresentKey(key) => {
                let outcome = self.page.present_key(key);
                if outcome.redraw {
                    self.scroll_after = present_keys::ScrollTo::after(key);
                }
                self.perform(ctx, outcome)
            }
            Msg::Chat(action) => {
                let outcome = self.page.on_chat(action);
                self.perform(ctx, outcome)
            }
            Msg::Inspector(action) => {
                let outcome = self.page.on_inspector(action);
                self.perform(ctx, outcome)
            }
            Msg::Sandbox(action) => {
                let outcome = self.page.on_sandbox(action);
                self.perform(ctx, outcome)
            }
            Msg::LessonArrived(from, bytes) => {
                let outcome = self.page.lesson_arrived(from, bytes);
                self.perform(ctx, outcome)
            }
            Msg::LessonPicked(Ok((name, bytes))) => {
                let from = crate::lessons::LessonFrom::File(name);
                let outcome = self.page.lesson_arrived(from, Ok(bytes));
                self.perform(ctx, outcome)
            }
            Msg::LessonPicked(Err(e)) => {
                self.page.lessons.error = Some(e.to_string());
                true
            }
            Msg::RecordingArrived(at, doc) => {
                let outcome = self.page.recording_arrived(at, doc);
                self.perform(ctx, outcome)
            }
            Msg::Replayed(Ok((name, doc))) => {
                self.page.replayed(name, doc);
                true
            }
            Msg::Replayed(Err(e)) => {
                self.page.error = Some(e.to_string());
                true
            }
        }
    }
}
