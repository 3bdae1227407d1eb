//! What can fail in the page itself (not in the worker or the engine): a
//! file the user picked, a download the browser would not start, a worker
//! it would not create, a recording that is not one. Each says what to do.

use ntl_protocol::picked::PickError;

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The picked files do not make a model.
    #[error(transparent)]
    Pick(#[from] PickError),
    #[error("could not read {name}")]
    ReadFile { name: String },
    /// Picked weights past what a browser tab's wasm32 memory holds,
    /// refused before a byte of them is read.
    #[error(
        "`{name}` is {mb:.0} MB; loading it needs about {need_gb:.1} GB of memory, more than \
         the 4 GB a browser tab's model can use"
    )]
    TooLarge { name: String, mb: f64, need_gb: f64 },
    #[error("could not save {name}: {what}")]
    Save { name: String, what: &'static str },
    #[error("there are no plots to save yet")]
    NoPlots,
    /// The browser refused `new Worker` (its own words, as it gave them).
    #[error("could not start the worker: {detail}")]
    WorkerStart { detail: String },
    #[error("`{name}` is {mb:.0} MB; a recorded run is at most {max_mb:.0} MB")]
    RecordingTooLarge { name: String, mb: f64, max_mb: f64 },
    #[error(
        "`{name}` is not a run exported by this page (JSON export or `decode --json`): {source}"
    )]
    NotARecording {
        name: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("`{name}` holds no runs to replay")]
    EmptyRecording { name: String },
    #[error(transparent)]
    Lesson(#[from] ntl_protocol::lesson::LessonError),
    /// A lesson or a recording on this site could not be fetched.
    #[error("could not fetch `{url}`: {why}")]
    Fetch { url: String, why: String },
    /// The site answered, but not with the file.
    #[error("could not fetch `{url}`: the site answered {status} {text}")]
    FetchStatus {
        url: String,
        status: u16,
        text: String,
    },
    #[error("`{url}` is larger than {max_mb} MB")]
    FetchTooLarge { url: String, max_mb: usize },
    #[error(transparent)]
    Package(#[from] crate::lesson_package::PackageError),
    /// A lesson step's recording that does not belong to it.
    #[error("the recorded run `{name}` does not fit its step: {source}")]
    RecordingMisfit {
        name: String,
        #[source]
        source: ntl_protocol::lesson::LessonError,
    },
}
