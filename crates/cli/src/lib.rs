//! What the `decode` and `lesson` binaries share: a model folder read from
//! disk, and a lesson step run on it.

pub mod lesson_runs;
pub mod model_dir;
