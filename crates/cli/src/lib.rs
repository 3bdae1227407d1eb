//! What the `decode` and `lesson` binaries share: a model folder read from
//! disk, a lesson step run on it, a run's drift from full precision, and a
//! sample tree as text.

pub mod drift;
pub mod lesson_runs;
pub mod model_dir;
pub mod tree_text;
pub mod visible;
