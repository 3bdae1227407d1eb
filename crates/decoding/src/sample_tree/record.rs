//! A finished (or cancelled) tree as the CLI's `--samples --json`, the
//! worker's message and the page's export carry it.

use crate::record::StopReason;
use crate::semantics::LaneConfig;
use serde::{Deserialize, Serialize};

/// A tree with the prompt it grew from: `decode --samples N --json`'s document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeDocument {
    pub prompt_ids: Vec<u32>,
    #[serde(default)]
    pub prompt: String,
    /// Tokens cropped from the left of an over-long prompt.
    #[serde(default)]
    pub prompt_cropped: usize,
    pub tree: SampleTree,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleTree {
    /// The lane's config as it ran (its seed included).
    pub config: LaneConfig,
    pub samples: usize,
    /// How many tokens each sample was followed for (fewer where it stopped).
    pub tokens: usize,
    /// Every distinct prefix the samples wrote, parents before children,
    /// siblings most-drawn first.
    pub nodes: Vec<TreeNode>,
    /// Per sample, in draw order, the node it ended at.
    pub leaves: Vec<u32>,
    /// Rows the model computed (one per distinct prefix): what the tree
    /// cost, against `samples × tokens` for separate runs.
    pub rows: usize,
    /// False when the tree was cancelled before every sample finished.
    pub complete: bool,
}

/// A branch: a token after its parent's prefix (or after the prompt).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeNode {
    /// `None`: the first token after the prompt.
    pub parent: Option<u32>,
    /// Tokens from the prompt to this one (1 for the first).
    pub depth: u32,
    pub token_id: u32,
    pub token: String,
    /// Samples that wrote this prefix.
    pub count: u32,
    /// `count / samples`.
    pub share: f64,
    /// This token's probability after the lane's knobs, given its parent:
    /// what the samples drew from.
    #[serde(with = "crate::wire_float")]
    pub prob: f32,
    /// Its probability before any knob (the model's own).
    #[serde(with = "crate::wire_float")]
    pub raw_prob: f32,
    /// The product of `prob` from the prompt to here: the share this
    /// branch converges to as the samples grow.
    pub path_prob: f64,
    /// The product of `raw_prob`: how likely the model itself finds the path.
    pub path_raw_prob: f64,
    /// Why samples ended here (eos, a stop string, the lane's own token
    /// budget or the context); `None` where they would go on past the tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopReason>,
}
