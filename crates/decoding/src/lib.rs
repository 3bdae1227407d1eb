//! HF `transformers` `generate()` semantics on plain `f32` rows, with a record
//! of what every knob did at every step. No tensors here: the model behind the
//! [`model::LanguageModel`] trait does the math; this crate decides.

pub mod beam_tree;
pub mod chat;
pub mod config;
pub mod config_error;
pub mod config_rule;
pub mod constraints;
pub mod divergence;
pub mod dola;
pub mod draws;
pub mod exp;
pub mod fresh_seed;
pub mod generate;
pub mod inspect;
pub mod knob;
pub mod knob_table;
pub mod lane;
pub mod lane_knobs;
pub mod lens;
pub mod llama_cpp;
pub mod mode;
pub mod model;
pub mod model_defaults;
pub mod observe;
pub mod one_or_many;
pub mod precision_drift;
pub mod processors;
pub mod prompt;
pub mod record;
pub mod sample_tree;
pub mod sandbox;
pub mod scores;
pub mod semantics;
pub mod softmax_terms;
pub mod step_context;
pub mod stop;
pub mod token_rules;
pub mod torch_rng;
pub mod tutorial;
pub mod vocab;
pub mod warnings;
pub mod watermark;
pub mod wire_float;

pub use config::{GenerationConfig, ValidConfig};
pub use config_error::ConfigError;
pub use generate::{Event, Generation, LaneRequest, LaneSpec, Options};
pub use knob::{Knob, Stage};
pub use lane_knobs::LaneKnobs;
pub use mode::Mode;
pub use model::{Exit, Forward, LanguageModel, ModelError, ModelInfo};
pub use model_defaults::{Defaults, ModelDefaults};
pub use prompt::{prepare_prompt, Prompt};
pub use record::{Document, Run, Sequence, Step, StopReason};
pub use semantics::{LaneConfig, Semantics};
pub use vocab::Vocab;
