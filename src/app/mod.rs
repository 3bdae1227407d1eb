//! The page's one component: it holds the state (`state::Page`) and the
//! worker, hands each message to a state transition, performs what the
//! transition asks (talk to the worker), and composes the views.

use crate::components::question_panel::QuizAction;
use crate::i18n::I18n;
use crate::page_url;
use crate::state::lesson_writer::WriterAction;
use crate::state::{Outcome, Page};
use crate::worker_link::WorkerLink;
use ntl_protocol::{FromWorker, ModelSource};
use yew::prelude::*;

mod actions;
mod browser;
mod commands;
mod frame_height;
mod messages;
mod package;
mod present_keys;
mod scorm;
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
    /// The page's language, given to every view as a context.
    i18n: I18n,
    /// The link said `?lang=`: a lesson file's own language does not override it.
    lang_from_link: bool,
    /// The LMS's SCORM API, when the page opened a lesson inside one.
    scorm: Option<scorm::Scorm>,
    /// The open lesson's last step has been on screen (a lesson without
    /// questions is complete then).
    seen_last_step: bool,
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let requested = page_url::read();
        let lang = crate::i18n::choose::choose(
            requested.lang.as_deref(),
            browser::stored_language().as_deref(),
            &browser::browser_languages(),
        );
        browser::use_language(lang, false);
        let lang_from_link = requested.lang.is_some();
        let (mut page, mut commands) = Page::new(requested, crate::worker_link::abilities());
        page.model.device_memory_gb = browser::device_memory_gb();
        if let Some(draft) = browser::kept_draft() {
            page.restore_draft(&draft);
        }
        commands.extend(page.lesson_in_language(lang).commands);
        let mut app = App {
            page,
            link: None,
            callbacks: Callbacks::new(ctx.link()),
            persist_asked: false,
            frame_height: None,
            present_keys: None,
            scroll_after: None,
            print_after: false,
            i18n: I18n::new(lang),
            lang_from_link,
            scorm: None,
            seen_last_step: false,
        };
        // Only a page opened on a lesson reports to an LMS.
        let on_a_lesson = app.page.lessons.waiting.is_some()
            || app.page.lessons.open.from == crate::lessons::LessonFrom::Link;
        if on_a_lesson {
            app.scorm = scorm::Scorm::connect();
        }
        // A lesson carried in the link speaks its language, as a fetched one does.
        if app.page.lessons.open.from == crate::lessons::LessonFrom::Link {
            app.speak_the_lessons_language();
        }
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
        // The step open in the compare view: quantized lanes measured.
        let measure = self.page.measure_drift();
        self.report_to_lms();
        let followed = self.perform(ctx, follow);
        self.perform(ctx, measure) || followed || redraw
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
    /// The lesson's score and completion, to the LMS the page runs in.
    fn report_to_lms(&mut self) {
        let Some(scorm) = &mut self.scorm else {
            return;
        };
        let player = &self.page.lessons;
        if player.waiting.is_some() {
            return;
        }
        self.seen_last_step |= player.step + 1 == player.open.lesson.steps.len();
        scorm.report(player.score(), self.seen_last_step);
    }

    /// A lesson opened from `?lesson=` is written in a language: the page
    /// speaks it too (when it has that catalog), unless the link chose one.
    /// Not remembered as the reader's pick.
    fn speak_the_lessons_language(&mut self) {
        if self.lang_from_link {
            return;
        }
        let lang = &self.page.lessons.open.lesson.language;
        if let Some(tag) = crate::i18n::tags().find(|t| t.eq_ignore_ascii_case(lang)) {
            if tag != self.i18n.tag() {
                self.i18n = I18n::new(tag);
                browser::use_language(tag, false);
            }
        }
    }
}

impl App {
    fn handle(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Worker(m) => {
                // A hub model or folder is now in the browser's cache: ask the
                // browser to keep it through storage pressure (once; best effort).
                let hub_cached = matches!(m, FromWorker::Loaded { .. })
                    && matches!(
                        self.page.model.source,
                        Some(ModelSource::Hub { .. } | ModelSource::Folder { .. })
                    );
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
            Msg::WatchRun(run_id) => {
                let outcome = self.page.run_watch(run_id, browser::now_ms());
                self.perform(ctx, outcome)
            }
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
            Msg::Lane(lane, LaneAction::Model(name)) => {
                let outcome = self.page.lane_model_named(lane, &name);
                self.perform(ctx, outcome)
            }
            Msg::Lane(lane, LaneAction::Json(text)) => {
                let outcome = self.page.lane_json_set(lane, &text);
                self.perform(ctx, outcome)
            }
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
            Msg::Tree(action) => {
                let outcome = self.page.on_tree(action);
                self.perform(ctx, outcome)
            }
            Msg::BeamTree(action) => {
                let outcome = self.page.on_beam_tree(action);
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
            Msg::PackageMeasured(files) => {
                let outcome = self.page.package_measured(files);
                self.perform(ctx, outcome)
            }
            Msg::PackageProgress(done, total) => {
                let outcome = self.page.package_progress(done, total);
                self.perform(ctx, outcome)
            }
            Msg::PackageDone(result) => {
                let outcome = self.page.package_done(result);
                self.perform(ctx, outcome)
            }
            Msg::Writer(action) => {
                let steps = self.page.writer.lesson.steps.len();
                if action == WriterAction::Clear && steps > 0 {
                    let ask = self.i18n.t_with(
                        "writer-clear-confirm",
                        &[
                            ("title", self.page.writer.lesson.title.clone().into()),
                            (
                                "named",
                                if self.page.writer.lesson.title.is_empty() {
                                    "no"
                                } else {
                                    "yes"
                                }
                                .into(),
                            ),
                            ("steps", steps.into()),
                        ],
                    );
                    if !browser::confirm(&ask) {
                        return false;
                    }
                }
                if action == WriterAction::Preview {
                    self.scroll_after = Some(present_keys::ScrollTo::Top);
                }
                let outcome = self.page.on_writer(action);
                self.perform(ctx, outcome)
            }
            Msg::TogglePresent => {
                let outcome = self.page.toggle_present();
                page_url::set_flag("present", self.page.present);
                self.perform(ctx, outcome)
            }
            Msg::Language(tag) => {
                self.i18n = I18n::new(&tag);
                let tag = self.i18n.tag();
                browser::use_language(tag, true);
                page_url::set_param("lang", Some(tag));
                let outcome = self.page.lesson_in_language(tag);
                // Every view redraws in the new language.
                let _ = self.perform(ctx, outcome);
                true
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
            Msg::SiteModelsArrived(bytes) => {
                let outcome = self.page.site_models_arrived(bytes);
                self.perform(ctx, outcome)
            }
            Msg::LessonArrived(from, bytes) => {
                let outcome = self.page.lesson_arrived(from, bytes);
                self.speak_the_lessons_language();
                // The page's language may have changed: every view redraws.
                let _ = self.perform(ctx, outcome);
                true
            }
            Msg::LessonPicked(Ok((name, bytes))) => {
                let from = crate::lessons::LessonFrom::File(name);
                let outcome = self.page.lesson_arrived(from, Ok(bytes));
                self.speak_the_lessons_language();
                // The page's language may have changed: every view redraws.
                let _ = self.perform(ctx, outcome);
                true
            }
            Msg::FolderSaved(name, bytes) => {
                if let Err(e) = crate::download::save_bytes(&name, "application/zip", &bytes) {
                    self.page.error = Some(e.into());
                }
                true
            }
            Msg::LessonPicked(Err(e)) => {
                self.page.lessons.error = Some(e.into());
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
                self.page.error = Some(e.into());
                true
            }
        }
    }
}
