//! Seed 004's own generate loop as a lane semantics (`"semantics": "tutorial"`):
//! the loop a course writes right after training its MiniGPT. Each step it
//! keeps only the last `block_size` ids (so it never stops at the context's
//! end: past it, the window slides and is recomputed, since learned
//! positions shift), then `sample_next_token`: the last row's logits divided
//! by the temperature, its `top_k_sampling`, its `top_p_sampling` (which
//! keeps the first token past p), softmax and a draw; `argmax` of the raw
//! logits when `do_sample` is false. No eos stop: the loop runs
//! `max_new_tokens` steps.
//!
//! The draw is this lab's seeded one (the same as HF lanes'), not torch's
//! `multinomial` stream: the same seed repeats here, not in Python.

pub mod config;
pub mod filter;

pub use config::{TutorialConfig, TutorialSettings};
