//! Why the lesson writer refuses to save a step or write the lesson out.

use ntl_protocol::lesson::{LessonError, MAX_STEPS};
use ntl_protocol::LoadWeights;

/// Why a step cannot be saved or the lesson written out. Each says what to
/// do instead.
#[derive(Debug, thiserror::Error)]
pub enum WriterTrouble {
    #[error(
        "there is no finished run of these lanes to attach: run them first, \
         or save the step without its run"
    )]
    NoRun,
    #[error(
        "the run on screen is not of this prompt and these lanes (they changed after it ran): \
         run again, or save the step without its run"
    )]
    RunDiffers,
    #[error(
        "shared randomness is on, and a lesson step gives each lane its own seed, \
         so the step would not run as it does here: turn shared randomness off to save it"
    )]
    SharedRandomness,
    #[error(
        "lane {lane} starts from the library's defaults; a lesson step's lanes start from \
         the model's settings: switch lane {lane} to the model's settings to save this step"
    )]
    LibraryDefaults { lane: usize },
    #[error(
        "the model was loaded from files on this computer, and a lesson names the bundled \
         model or a hub repo: load one of those to write a lesson"
    )]
    NoModelName,
    #[error(
        "this lesson is written for {lesson}, and the page runs {page} now: \
         load {lesson} again, or start a new lesson"
    )]
    OtherModel { lesson: String, page: String },
    #[error(
        "this lesson keeps its model's weights {}, and the page keeps them {} now: \
         set “Keep weights in 8 bits” as the lesson has it, or start a new lesson",
        kept(.lesson),
        kept(.page)
    )]
    OtherWeights {
        lesson: LoadWeights,
        page: LoadWeights,
    },
    #[error(
        "with this run the lesson would be {kb} kB, and a lesson file is read up to {max_kb} kB: \
         save this step without its run"
    )]
    TooLarge { kb: usize, max_kb: usize },
    #[error("a lesson holds at most {MAX_STEPS} steps")]
    Full,
    #[error("{0}")]
    Invalid(#[source] LessonError),
}

/// How weights are kept, in the English message.
fn kept(w: &LoadWeights) -> &'static str {
    match w {
        LoadWeights::AsStored => "as stored",
        LoadWeights::Q8_0 => "in 8 bits",
    }
}
