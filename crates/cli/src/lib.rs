//! What the `decode` and `lesson` binaries share: a model folder read from
//! disk, a lesson step run on it, a run's drift from full precision, a
//! sample tree as text, and lanes that each name their own model.

pub mod drift;
pub mod lane_models;
pub mod lesson_runs;
pub mod model_dir;
pub mod tree_text;
pub mod visible;
