//! What the `decode` and `lesson` binaries share: a model folder read from
//! disk, a lesson step run on it, and a run's drift from full precision.

pub mod drift;
pub mod lesson_runs;
pub mod model_dir;
