//! llama.cpp's sampler chain, the second ecosystem a lane can speak: its
//! knob names and defaults (llama-server's), its samplers in its order, its
//! seeded draw. Same logits in, same candidates and same token out as
//! llama.cpp (checked against llama.cpp itself: `tests/reference/`).

pub mod candidates;
pub mod chain;
pub mod cmath;
pub mod config;
pub mod knob;
pub mod knob_table;
pub mod observe;
pub mod sampler;
pub mod samplers;
pub mod std_random;
pub mod warnings;

pub use chain::{Chain, ChainModel};
pub use config::{LlamaCppConfig, LlamaCppKnob, LlamaCppSettings};
pub use sampler::SamplerName;
