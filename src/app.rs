//! The page's one component: it holds the state (`state::Page`) and the
//! worker, hands each message to a state transition, performs what the
//! transition asks (talk to the worker), and composes the views.

use crate::components::chat_editor::{ChatAction, ChatEditor};
use crate::components::compare_view::{CompareAction, CompareView};
use crate::components::divergence_note::DivergenceNote;
use crate::components::header::Header;
use crate::components::lane_column::LaneColumn;
use crate::components::lesson_panel::{LessonAction, LessonPanel};
use crate::components::model_panel::{ModelAction, ModelPanel};
use crate::components::plots::Plots;
use crate::components::prompt_row::{PromptAction, PromptRow};
use crate::components::sandbox_panel::{SandboxAction, SandboxPanel};
use crate::components::step_grid::StepGrid;
use crate::components::token_inspector::{InspectorAction, TokenInspector};
use crate::page_error::PageError;
use crate::state::run::RunKind;
use crate::state::{Command, LookupUse, Outcome, Page, LANES, WORKER_START_PATIENCE_MS};
use crate::worker_link::WorkerLink;
use crate::{download, page_url};
use ntl_decoding::{Defaults, Document, Mode, Semantics};
use ntl_protocol::{FromWorker, ModelSource};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The largest recorded run the page reads back (a long four-lane run with
/// 20-row tables is a few MB).
const MAX_REPLAY_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// One lane's editor, asking.
pub enum LaneAction {
    /// A field typed into, by the name its lane's ecosystem gives it.
    Field(String, String),
    /// The lane switched ecosystem.
    Semantics(Semantics),
    Mode(Mode),
    Json(String),
    Select(usize),
    /// Unfold or fold the knob editor.
    Edit,
    /// Where the lane's unset knobs come from.
    StartsFrom(Defaults),
}

pub enum Msg {
    Worker(FromWorker),
    WorkerCrashed(String),
    /// The start check of worker number `spawned` (see `Page::worker_start_overdue`).
    WorkerStartOverdue(u32),
    Model(ModelAction),
    Prompt(PromptAction),
    Lane(usize, LaneAction),
    Select {
        lane: usize,
        step: usize,
    },
    Compare(CompareAction),
    Lesson(LessonAction),
    Sandbox(SandboxAction),
    Inspector(InspectorAction),
    Chat(ChatAction),
    Replayed(Result<(String, Document), PageError>),
}

pub struct App {
    page: Page,
    link: Option<WorkerLink>,
    /// Made once: a view whose props are unchanged (its callbacks included)
    /// is not rendered again, so an unchanged lane costs nothing per step.
    callbacks: Callbacks,
    /// `navigator.storage.persist()` has been asked for.
    persist_asked: bool,
}

struct LaneCallbacks {
    field: Callback<(String, String)>,
    semantics: Callback<Semantics>,
    mode: Callback<Mode>,
    json: Callback<String>,
    select: Callback<usize>,
    edit: Callback<()>,
    starts_from: Callback<Defaults>,
}

struct Callbacks {
    lanes: Vec<LaneCallbacks>,
    select: Callback<(usize, usize)>,
    compare: Callback<CompareAction>,
    model: Callback<ModelAction>,
    prompt: Callback<PromptAction>,
    lesson: Callback<LessonAction>,
    sandbox: Callback<SandboxAction>,
    inspector: Callback<InspectorAction>,
    chat: Callback<ChatAction>,
}

impl Callbacks {
    fn new(link: &yew::html::Scope<App>) -> Self {
        let lane = |i: usize| LaneCallbacks {
            field: link.callback(move |(name, text)| Msg::Lane(i, LaneAction::Field(name, text))),
            semantics: link.callback(move |s| Msg::Lane(i, LaneAction::Semantics(s))),
            mode: link.callback(move |mode| Msg::Lane(i, LaneAction::Mode(mode))),
            json: link.callback(move |text| Msg::Lane(i, LaneAction::Json(text))),
            select: link.callback(move |step| Msg::Lane(i, LaneAction::Select(step))),
            edit: link.callback(move |_| Msg::Lane(i, LaneAction::Edit)),
            starts_from: link.callback(move |d| Msg::Lane(i, LaneAction::StartsFrom(d))),
        };
        Callbacks {
            lanes: (0..LANES).map(lane).collect(),
            select: link.callback(|(lane, step)| Msg::Select { lane, step }),
            compare: link.callback(Msg::Compare),
            model: link.callback(Msg::Model),
            prompt: link.callback(Msg::Prompt),
            lesson: link.callback(Msg::Lesson),
            sandbox: link.callback(Msg::Sandbox),
            inspector: link.callback(Msg::Inspector),
            chat: link.callback(Msg::Chat),
        }
    }
}

/// Sends `WorkerStartOverdue(spawned)` once the page's patience has run out.
fn check_start_later(ctx: &Context<App>, spawned: u32) {
    let link = ctx.link().clone();
    let check = Closure::once_into_js(move || link.send_message(Msg::WorkerStartOverdue(spawned)));
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            check.unchecked_ref(),
            WORKER_START_PATIENCE_MS as i32,
        );
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
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
                Command::SpawnWorker { threaded } => {
                    // Dropping the old link terminates its worker.
                    self.link = None;
                    let on_message = ctx.link().callback(Msg::Worker);
                    let on_crash = ctx.link().callback(Msg::WorkerCrashed);
                    let spawned = WorkerLink::spawn(threaded, on_message, on_crash);
                    self.page.worker_spawned(spawned.as_ref().map(drop));
                    self.link = spawned.ok();
                    check_start_later(ctx, self.page.worker.spawned);
                }
            }
        }
        outcome.redraw
    }

    fn on_model(&mut self, ctx: &Context<Self>, action: ModelAction) -> bool {
        let outcome = match action {
            ModelAction::UseBundled => self.page.load_bundled(),
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
            PromptAction::Preset(i) => {
                editor.apply_preset(i);
                Outcome::redraw()
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
            LessonAction::Replay(file) => read_recording(ctx, file, &mut self.page.error),
        }
    }
}

/// Reads a recorded run (an exported JSON) from a file the user picked.
fn read_recording(ctx: &Context<App>, file: web_sys::File, error: &mut Option<String>) {
    let name = file.name();
    if file.size() > MAX_REPLAY_BYTES {
        let e = PageError::RecordingTooLarge {
            name,
            mb: file.size() / 1e6,
            max_mb: MAX_REPLAY_BYTES / 1e6,
        };
        *error = Some(e.to_string());
        return;
    }
    let cb = ctx.link().callback(Msg::Replayed);
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        cb.emit(match text {
            None => Err(PageError::ReadFile { name }),
            Some(t) => match serde_json::from_str::<Document>(&t) {
                Ok(d) => Ok((name, d)),
                Err(source) => Err(PageError::NotARecording { name, source }),
            },
        });
    });
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let (mut page, spawn) =
            Page::new(page_url::read(), crate::worker_link::threads_available());
        page.model.device_memory_gb = device_memory_gb();
        let mut app = App {
            page,
            link: None,
            callbacks: Callbacks::new(ctx.link()),
            persist_asked: false,
        };
        let _ = app.perform(
            ctx,
            Outcome {
                redraw: true,
                commands: vec![spawn],
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
                let outcome = self.page.on_worker(m, now_ms());
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
                let outcome = match action {
                    CompareAction::Move(to) => {
                        self.page.run.move_step(to);
                        Outcome::redraw()
                    }
                    CompareAction::SortBy(lane) => {
                        self.page.run.sort_by(lane);
                        Outcome::redraw()
                    }
                    CompareAction::Close => {
                        self.page.run.close_table();
                        Outcome::redraw()
                    }
                    CompareAction::TryKnobs(lane) => {
                        let step = self.page.run.selected.map_or(0, |(_, s)| s);
                        self.page.open_sandbox(lane, step)
                    }
                    CompareAction::Branch { lane, token_id } => {
                        let step = self.page.run.selected.map_or(0, |(_, s)| s);
                        self.page.branch(lane, step, token_id)
                    }
                };
                self.perform(ctx, outcome)
            }
            Msg::Lesson(action) => {
                self.on_lesson(ctx, action);
                true
            }
            Msg::Chat(action) => {
                let chat = &mut self.page.chat;
                let outcome = match action {
                    ChatAction::Role(i, role) => {
                        chat.set_role(i, role);
                        Outcome::redraw()
                    }
                    ChatAction::Content(i, text) => {
                        chat.set_content(i, text);
                        Outcome::redraw()
                    }
                    ChatAction::Add => {
                        chat.add_turn();
                        Outcome::redraw()
                    }
                    ChatAction::Remove(i) => {
                        chat.remove_turn(i);
                        Outcome::redraw()
                    }
                    ChatAction::GenerationPrompt(on) => {
                        chat.add_generation_prompt = on;
                        Outcome::redraw()
                    }
                    ChatAction::Render => self.page.render_chat(),
                };
                self.perform(ctx, outcome)
            }
            Msg::Inspector(action) => {
                let outcome = match action {
                    InspectorAction::LookUp(text) => self.page.look_up(text),
                    InspectorAction::UseAsEos(lane) => self.page.use_lookup(lane, LookupUse::Eos),
                    InspectorAction::StopAt(lane) => {
                        self.page.use_lookup(lane, LookupUse::StopString)
                    }
                    InspectorAction::BadWords(lane) => {
                        self.page.use_lookup(lane, LookupUse::BadWords)
                    }
                    InspectorAction::ForceWords(lane) => {
                        self.page.use_lookup(lane, LookupUse::ForceWords)
                    }
                };
                self.perform(ctx, outcome)
            }
            Msg::Sandbox(action) => {
                let outcome = match action {
                    SandboxAction::Logits(text) => {
                        self.page.sandbox.make_mut().set_logits(text);
                        Outcome::redraw()
                    }
                    SandboxAction::Knob(knob, text) => self.page.set_sandbox_knob(knob, text),
                    SandboxAction::UseInLane(lane) => self.page.use_sandbox(lane),
                    SandboxAction::Toy => {
                        let text = self.page.sandbox.logits_text.clone();
                        self.page.sandbox.make_mut().set_logits(text);
                        Outcome::redraw()
                    }
                };
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

    fn render(&self) -> Html {
        let page = &self.page;
        let (run, editor) = (&page.run, &page.editor);
        let model_ready = page.model.is_ready();
        let chat_template = matches!(
            &page.model.status,
            crate::state::model::ModelStatus::Ready { info, .. } if info.chat_template
        );
        let divergence = run.divergence();
        let diverge_at = |lane: usize| {
            divergence
                .as_ref()
                .filter(|d| d.lanes.iter().any(|l| l.lane == lane))
                .map(|d| d.step)
        };
        let cb = &self.callbacks;
        let full_page_url = if page.embed {
            page_url::share_url(&page.shared())
        } else {
            String::new()
        };
        let lane = |i: usize| {
            html! {
                <LaneColumn
                    index={i}
                    config={editor.lanes[i].clone()}
                    error={editor.errors[i].clone()}
                    result={run.results[i].clone()}
                    selected={run.selected.filter(|(l, _)| *l == i).map(|(_, s)| s)}
                    diverge={diverge_at(i)}
                    watermark={run.watermark[i].clone()}
                    compact={page.embed}
                    on_field={cb.lanes[i].field.clone()}
                    on_semantics={cb.lanes[i].semantics.clone()}
                    on_mode={cb.lanes[i].mode.clone()}
                    on_json={cb.lanes[i].json.clone()}
                    on_select={cb.lanes[i].select.clone()}
                    open={editor.open[i]}
                    on_edit={cb.lanes[i].edit.clone()}
                    outlook={editor.outlook(i, page.model.generation_defaults())}
                    on_starts_from={cb.lanes[i].starts_from.clone()}
                />
            }
        };
        let compare = run.selected.map(|(lane, step)| {
            html! {
                <CompareView
                    results={run.results.clone()}
                    {lane}
                    {step}
                    longest={run.longest()}
                    sort_by={run.sort_by}
                    can_branch={model_ready && !run.prompt_ids.is_empty()}
                    on={cb.compare.clone()}
                />
            }
        });
        html! {
            <div
                class={classes!("page", page.embed.then_some("embed"))}
                data-run={run.latest.to_string()}
                data-running={run.running.is_some().to_string()}
                data-replay={run.replay.is_some().to_string()}
            >
                <Header embed={page.embed} {full_page_url} replay={run.replay.clone()}>
                    <ModelPanel
                        model={page.model.status.clone()}
                        notice={page.notice.clone()}
                        memory_warning={page.model.memory_warning.clone()}
                        hub_repo={page.model.hub_repo.clone()}
                        worker_alive={page.worker.alive}
                        worker_slow={page.worker.slow}
                        compact={page.embed}
                        on={cb.model.clone()}
                    />
                </Header>
                <PromptRow
                    prompt={editor.prompt.clone()}
                    preset={editor.preset}
                    shared_randomness={editor.shared_randomness}
                    seeds_differ={editor.seeds_differ()}
                    shared_seed={editor.shared_seed}
                    score_text={editor.score_text.clone()}
                    negative_prompt={editor.negative_prompt.clone()}
                    guided={editor.guided()}
                    embed={page.embed}
                    {model_ready}
                    running={run.running.is_some()}
                    prompt_cropped={run.prompt_cropped}
                    lesson={crate::lesson_check::lines(
                        editor.preset,
                        run.lesson.as_ref(),
                        run.document.as_deref(),
                    )}
                    on={cb.prompt.clone()}
                />
                if chat_template && !page.embed {
                    <ChatEditor chat={page.chat.clone()} {model_ready} on={cb.chat.clone()} />
                }
                if let Some(e) = &page.error {
                    <div class="error" data-testid="error" role="alert">{ e }</div>
                }
                if let Some(d) = divergence.clone() {
                    <DivergenceNote divergence={d} on_select={cb.select.clone()} />
                }
                <main class="lanes">{ for (0..LANES).map(lane) }</main>
                { for compare }
                <div class="overview">
                    <Plots
                        results={run.results.clone()}
                        running={run.running.is_some()}
                        planned={run.planned}
                        on_select={cb.select.clone()}
                    />
                    <StepGrid
                        results={run.results.clone()}
                        selected={run.selected}
                        diverge={divergence.as_ref().map(|d| d.step)}
                        on_select={cb.select.clone()}
                    />
                </div>
                if !page.embed {
                    <TokenInspector
                        inspector={page.inspector.clone()}
                        {model_ready}
                        on={cb.inspector.clone()}
                    />
                    <SandboxPanel sandbox={page.sandbox.clone()} on={cb.sandbox.clone()} />
                    <LessonPanel
                        has_document={run.document.is_some()}
                        share_link={page.share_link.clone()}
                        embed_code={page.embed_code.clone()}
                        on={cb.lesson.clone()}
                    />
                }
            </div>
        }
    }
}

/// `navigator.deviceMemory`: the device's RAM in GB, rounded (Chromium; other
/// browsers do not say).
fn device_memory_gb() -> Option<f64> {
    let navigator = web_sys::window()?.navigator();
    js_sys::Reflect::get(&navigator, &"deviceMemory".into())
        .ok()?
        .as_f64()
}
