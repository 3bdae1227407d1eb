//! `GenerationConfig`: HF `generation_config.json` field names and HF defaults,
//! parsed and validated once at the boundary. Everything downstream takes a
//! [`ValidConfig`] and never re-checks.
//!
//! - [`fields`]: the fields as given, and HF's mode selection;
//! - [`intake`]: reading them from JSON;
//! - [`validate`]: checking them into a [`ValidConfig`];
//! - [`valid`]: the checked form the decoding loop reads.

pub mod fields;
pub mod intake;
pub mod valid;
pub mod validate;

pub use crate::dola::DolaLayers;
pub use crate::one_or_many::{Strings, TokenIds};
pub use crate::token_rules::TokenRules;
pub use fields::{EarlyStopping, GenerationConfig};
pub use valid::{ValidConfig, DEFAULT_MAX_NEW_TOKENS, MAX_BEAMS, MAX_SAMPLES};

#[cfg(test)]
mod tests;
