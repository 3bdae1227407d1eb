//! llama.cpp's samplers, one file each (`src/llama-sampler.cpp`), beside
//! HF's processors in `crate::processors`.

mod adaptive_p;
mod dist;
pub mod dry;
mod logit_bias;
mod min_p;
mod mirostat;
mod penalties;
mod temperature;
mod top_k;
mod top_n_sigma;
mod top_p;
mod typical;
mod xtc;

pub use adaptive_p::AdaptivePSampler;
pub use dist::DistSampler;
pub use dry::DrySampler;
pub use logit_bias::LogitBiasSampler;
pub use min_p::MinPSampler;
pub use mirostat::{MirostatSampler, MirostatV2Sampler};
pub use penalties::PenaltiesSampler;
pub use temperature::TemperatureSampler;
pub use top_k::TopKSampler;
pub use top_n_sigma::TopNSigmaSampler;
pub use top_p::TopPSampler;
pub use typical::TypicalSampler;
pub use xtc::XtcSampler;
