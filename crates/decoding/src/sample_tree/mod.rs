//! Many samples of one sampling lane as a tree: N runs of the same config
//! for a few tokens, each with its own random stream, counted where they
//! branch. Samples that share a prefix share its forward pass (one row per
//! distinct prefix, never per sample), and every row shares the prompt's
//! keys and values (kept once), so a thousand samples cost the distinct
//! continuations they write, not a thousand runs.

mod grow;
mod limits;
mod record;

pub use grow::{TreeProgress, TreeRun};
pub use limits::{
    TreeError, TreeRefusal, TreeRequest, TreeUnsupported, MAX_TREE_SAMPLES, MAX_TREE_TOKENS,
    TREE_CACHE_BUDGET,
};
pub use record::{SampleTree, TreeDocument, TreeNode};

#[cfg(test)]
mod tests;
