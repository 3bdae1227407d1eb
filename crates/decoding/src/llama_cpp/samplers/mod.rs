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

pub use adaptive_p::AdaptiveP;
pub use dist::Dist;
pub use dry::Dry;
pub use logit_bias::LogitBias;
pub use min_p::MinP;
pub use mirostat::{Mirostat, MirostatV2};
pub use penalties::Penalties;
pub use temperature::Temperature;
pub use top_k::TopK;
pub use top_n_sigma::TopNSigma;
pub use top_p::TopP;
pub use typical::Typical;
pub use xtc::Xtc;
