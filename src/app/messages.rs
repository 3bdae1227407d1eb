//! What reaches the page's component: the worker's messages and each
//! view's requests, and the callbacks that send them, made once.

use crate::components::lesson_panel::LessonAction;
use crate::components::model_panel::ModelAction;
use crate::components::prompt_row::PromptAction;
use crate::components::question_panel::QuizAction;
use crate::lanes::LANES;
use crate::lesson_check::StepRef;
use crate::lessons::LessonFrom;
use crate::page_error::PageError;
use crate::state::lesson_writer::WriterAction;
use crate::state::page_actions::{ChatAction, CompareAction, InspectorAction, SandboxAction};
use crate::state::projector::PresentKey;
use ntl_decoding::{Defaults, Document, Mode, Semantics};
use ntl_protocol::FromWorker;
use yew::prelude::*;

/// One lane's editor, asking.
pub enum LaneAction {
    /// A field typed into, by the name its lane's ecosystem gives it.
    Field(String, String),
    /// The lane switched ecosystem.
    Semantics(Semantics),
    Mode(Mode),
    Json(String),
    /// The lane's own model named (empty: the page's).
    Model(String),
    Select(usize),
    /// Unfold or fold the knob editor.
    Edit,
    /// Where the lane's unset knobs come from.
    StartsFrom(Defaults),
    /// The seed drawn for the run on screen becomes the lane's own.
    KeepSeed,
}

pub enum Msg {
    Worker(FromWorker),
    WorkerCrashed(String),
    /// A message from a healthy worker that did not parse: its `type`, and why.
    WorkerUnreadable {
        kind: Option<String>,
        detail: String,
    },
    /// The model folder the worker zipped (`ToWorker::SaveFolder`): its file name and bytes.
    FolderSaved(String, Vec<u8>),
    /// The start check of worker number `spawned` (see `Page::worker_start_overdue`).
    WorkerStartOverdue(u32),
    /// The stall check of a run (see `Page::run_watch`).
    WatchRun(u64),
    Model(ModelAction),
    Prompt(PromptAction),
    Lane(usize, LaneAction),
    Select {
        lane: usize,
        step: usize,
    },
    Compare(CompareAction),
    Tree(crate::state::tree_steps::TreeAction),
    BeamTree(crate::state::beam_tree::BeamTreeAction),
    Lesson(LessonAction),
    Writer(WriterAction),
    Sandbox(SandboxAction),
    Inspector(InspectorAction),
    Chat(ChatAction),
    Quiz(QuizAction),
    /// Projector mode on or off (its button).
    TogglePresent,
    /// A key that means something in projector mode.
    PresentKey(PresentKey),
    /// The reader picked the page's language (a catalog's tag).
    Language(String),
    Replayed(Result<(String, Document), PageError>),
    /// A `?lesson=` file fetched (or not).
    LessonArrived(LessonFrom, Result<Vec<u8>, PageError>),
    /// The site's `models/index.json`, or why it could not be read.
    SiteModelsArrived(Result<Vec<u8>, PageError>),
    /// A lesson file picked or dropped: its name and bytes.
    LessonPicked(Result<(String, Vec<u8>), PageError>),
    RecordingArrived(StepRef, Result<Document, PageError>),
    /// The page's file list for a lesson package (or why not).
    PackageMeasured(Result<Vec<crate::lesson_package::SiteFile>, PageError>),
    /// Files fetched for the package so far, of all.
    PackageProgress(usize, usize),
    /// The package saved (its name and size), or why not.
    PackageDone(Result<(String, u64), PageError>),
}

pub(super) struct LaneCallbacks {
    pub(super) field: Callback<(String, String)>,
    pub(super) semantics: Callback<Semantics>,
    pub(super) mode: Callback<Mode>,
    pub(super) json: Callback<String>,
    pub(super) model: Callback<String>,
    pub(super) select: Callback<usize>,
    pub(super) edit: Callback<()>,
    pub(super) starts_from: Callback<Defaults>,
    pub(super) keep_seed: Callback<()>,
}

pub(super) struct Callbacks {
    pub(super) lanes: Vec<LaneCallbacks>,
    pub(super) select: Callback<(usize, usize)>,
    pub(super) compare: Callback<CompareAction>,
    pub(super) tree: Callback<crate::state::tree_steps::TreeAction>,
    pub(super) beam_tree: Callback<crate::state::beam_tree::BeamTreeAction>,
    pub(super) model: Callback<ModelAction>,
    pub(super) prompt: Callback<PromptAction>,
    pub(super) lesson: Callback<LessonAction>,
    pub(super) writer: Callback<WriterAction>,
    pub(super) sandbox: Callback<SandboxAction>,
    pub(super) inspector: Callback<InspectorAction>,
    pub(super) chat: Callback<ChatAction>,
    pub(super) quiz: Callback<QuizAction>,
    pub(super) toggle_present: Callback<()>,
    pub(super) language: Callback<String>,
}

impl Callbacks {
    pub(super) fn new<C: Component<Message = Msg>>(link: &yew::html::Scope<C>) -> Self {
        let lane = |i: usize| LaneCallbacks {
            field: link.callback(move |(name, text)| Msg::Lane(i, LaneAction::Field(name, text))),
            semantics: link.callback(move |s| Msg::Lane(i, LaneAction::Semantics(s))),
            mode: link.callback(move |mode| Msg::Lane(i, LaneAction::Mode(mode))),
            json: link.callback(move |text| Msg::Lane(i, LaneAction::Json(text))),
            model: link.callback(move |name| Msg::Lane(i, LaneAction::Model(name))),
            select: link.callback(move |step| Msg::Lane(i, LaneAction::Select(step))),
            edit: link.callback(move |_| Msg::Lane(i, LaneAction::Edit)),
            starts_from: link.callback(move |d| Msg::Lane(i, LaneAction::StartsFrom(d))),
            keep_seed: link.callback(move |_| Msg::Lane(i, LaneAction::KeepSeed)),
        };
        Callbacks {
            lanes: (0..LANES).map(lane).collect(),
            select: link.callback(|(lane, step)| Msg::Select { lane, step }),
            compare: link.callback(Msg::Compare),
            tree: link.callback(Msg::Tree),
            beam_tree: link.callback(Msg::BeamTree),
            model: link.callback(Msg::Model),
            prompt: link.callback(Msg::Prompt),
            lesson: link.callback(Msg::Lesson),
            writer: link.callback(Msg::Writer),
            sandbox: link.callback(Msg::Sandbox),
            inspector: link.callback(Msg::Inspector),
            chat: link.callback(Msg::Chat),
            quiz: link.callback(Msg::Quiz),
            toggle_present: link.callback(|_| Msg::TogglePresent),
            language: link.callback(Msg::Language),
        }
    }
}
