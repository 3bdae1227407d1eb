//! "This knob does nothing here": the pitfalls the lessons warn about, in
//! either ecosystem — from the config alone (HF silently ignores these), and
//! from what a finished run's funnel shows.

pub mod hf;
pub mod note;
pub mod warning;

pub use hf::{config_warnings, run_warnings};
pub use note::{NotSampling, Note};
pub use warning::Warning;

use crate::llama_cpp::warnings::llama_cpp_warnings;
use crate::semantics::LaneConfig;

/// A lane's config warnings in either ecosystem, as (field name, note).
pub fn lane_warnings(c: &LaneConfig) -> Vec<(&'static str, Note)> {
    match c {
        LaneConfig::Transformers(c) => config_warnings(c)
            .into_iter()
            .map(|w| (w.field.name(), w.note))
            .collect(),
        LaneConfig::LlamaCpp(c) => llama_cpp_warnings(c)
            .into_iter()
            .map(|w| (w.field.name(), w.note))
            .collect(),
        LaneConfig::Tutorial(_) => vec![],
    }
}
