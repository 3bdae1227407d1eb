//! What a transition returns: whether the screen changed, and what the page
//! must do outside its state (talk to the worker, start one).

use ntl_protocol::ToWorker;

/// What a transition asks of the world outside the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// A message for the worker (which is running whenever this is asked).
    Send(ToWorker),
    /// Start a new worker: the threaded build, or the single-threaded one.
    SpawnWorker { threaded: bool },
    /// Read the site's `models/index.json`, then `Page::site_models_arrived`.
    FetchSiteModels,
    /// Calls `Page::run_watch(run_id)` after `after_ms`.
    WatchRun { run_id: u64, after_ms: u32 },
    /// Fetch a lesson file from this site (`?lesson=`).
    FetchLesson { path: String },
    /// Open the browser's print dialog once the page has rendered (a
    /// handout).
    Print,
    /// Fetch the recorded run of a lesson step from beside its lesson.
    FetchRecording {
        url: String,
        at: crate::lesson_check::StepRef,
    },
    /// Hand a file to the browser as a download (a lesson written here).
    SaveFile {
        name: String,
        mime: &'static str,
        text: String,
    },
    /// Fetch the page's file list, to say what a lesson package holds.
    MeasurePackage,
    /// Fetch the package's files, zip them and save the zip.
    Pack(Box<crate::lesson_package::Plan>),
    /// Keep the lesson being written in the browser (`None`: forget it).
    KeepDraft { json: Option<String> },
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

    pub(super) fn unchanged() -> Self {
        Outcome::default()
    }

    pub(super) fn changed(redraw: bool) -> Self {
        Outcome {
            redraw,
            commands: vec![],
        }
    }

    pub(super) fn and_maybe(self, command: Option<Command>) -> Self {
        match command {
            Some(c) => self.and(c),
            None => self,
        }
    }

    pub(super) fn and(mut self, command: Command) -> Self {
        self.commands.push(command);
        self
    }

    /// Every message, sent in order.
    pub(super) fn and_all(mut self, messages: Vec<ToWorker>) -> Self {
        self.commands
            .extend(messages.into_iter().map(Command::Send));
        self
    }

    pub(super) fn and_send(self, message: Option<ToWorker>) -> Self {
        match message {
            Some(m) => self.and(Command::Send(m)),
            None => self,
        }
    }
}
