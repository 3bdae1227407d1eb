//! How many lanes the page runs side by side.

/// Four decoding configurations, one prompt.
pub const LANES: usize = 4;
