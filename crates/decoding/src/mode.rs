//! The four decoding loops HF's `generate()` chooses between.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which decoding loop a config selects (HF's `get_generation_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Greedy,
    Sample,
    Beam,
    /// Beam search that samples its continuations (HF's "beam-search
    /// multinomial sampling", `num_beams` > 1 with `do_sample=true`).
    BeamSample,
    /// Diverse beam search (HF 4.55's `_group_beam_search`).
    GroupBeam,
    /// Constrained beam search (HF 4.55's `_constrained_beam_search`).
    ConstrainedBeam,
    Contrastive,
    /// llama.cpp's sampler chain (a `"semantics": "llama.cpp"` lane).
    LlamaCpp,
    /// Seed 004's own loop (a `"semantics": "tutorial"` lane).
    Tutorial,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Greedy => "greedy",
            Mode::Sample => "sample",
            Mode::Beam => "beam",
            Mode::BeamSample => "beam_sample",
            Mode::GroupBeam => "group_beam",
            Mode::ConstrainedBeam => "constrained_beam",
            Mode::Contrastive => "contrastive",
            Mode::LlamaCpp => "llama_cpp",
            Mode::Tutorial => "tutorial",
        }
    }
}

impl Mode {
    /// Beam search, plain or in groups: hypotheses scored by log-probabilities.
    pub fn is_beam(self) -> bool {
        matches!(
            self,
            Mode::Beam | Mode::BeamSample | Mode::GroupBeam | Mode::ConstrainedBeam
        )
    }

    /// Draws random numbers: the knobs HF calls warpers act.
    pub fn is_sampling(self) -> bool {
        matches!(self, Mode::Sample | Mode::BeamSample)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
