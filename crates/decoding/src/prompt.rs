//! The prompt as the model reads it: never empty, never longer than the
//! context.

/// A prompt ready for the model: never empty, never longer than the context.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    pub ids: Vec<u32>,
    /// Tokens dropped from the left to fit the context.
    pub cropped: usize,
}

/// An empty prompt starts from `bos` (HF does the same for GPT-2). A prompt
/// that does not fit the context keeps its last tokens, leaving room for
/// `max_new_tokens` (at most half the context), as a `block_size` crop does.
pub fn prepare_prompt(ids: &[u32], bos: u32, n_positions: usize, max_new_tokens: usize) -> Prompt {
    if ids.is_empty() {
        return Prompt {
            ids: vec![bos],
            cropped: 0,
        };
    }
    if ids.len() < n_positions {
        return Prompt {
            ids: ids.to_vec(),
            cropped: 0,
        };
    }
    let room = max_new_tokens.clamp(1, (n_positions / 2).max(1));
    let keep = n_positions.saturating_sub(room).max(1);
    let cropped = ids.len() - keep;
    Prompt {
        ids: ids[cropped..].to_vec(),
        cropped,
    }
}
