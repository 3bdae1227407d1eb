//! The batched decoding loop: one prefill of the shared prompt, then every
//! lane's rows advance together in one forward pass per step.

use crate::config::ValidConfig;
use crate::lane::{lane_for, Lane, LaneEnv, Next, RowOutputs};
use crate::model::{LanguageModel, ModelError};
use crate::record::{Run, Step, StopReason};
use crate::sampler::Draws;
use crate::vocab::{streamable_text, Vocab};
use std::ops::ControlFlow;

pub struct LaneSpec {
    pub config: ValidConfig,
    /// Teacher forcing: follow these ids, recording this config's distributions.
    pub forced: Option<Vec<u32>>,
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Candidates kept per step table.
    pub top_n: usize,
    /// When set, every sampling lane uses the same uniform draw at each step
    /// (seeded by this), so lanes differ by their knobs, not by luck.
    pub shared_seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options { top_n: 20, shared_seed: None }
    }
}

/// Streamed while the loop runs.
pub enum Event<'a> {
    Step { lane: usize, step: &'a Step, index: usize, text: String },
    LaneDone { lane: usize, reason: StopReason },
}

/// A prompt ready for the model: never empty, never longer than the context.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    pub ids: Vec<u32>,
    /// Tokens dropped from the left to fit the context.
    pub cropped: usize,
}

/// An empty prompt starts from `bos` (HF does the same for GPT-2). A prompt
/// longer than the context keeps its last tokens, leaving room for
/// `max_new_tokens` (at most half the context), as a `block_size` crop does.
pub fn prepare_prompt(ids: &[u32], bos: u32, n_positions: usize, max_new_tokens: usize) -> Prompt {
    if ids.is_empty() {
        return Prompt { ids: vec![bos], cropped: 0 };
    }
    let room = max_new_tokens.clamp(1, (n_positions / 2).max(1));
    let keep = n_positions.saturating_sub(room).max(1);
    if ids.len() <= keep.max(n_positions - 1) && ids.len() < n_positions {
        return Prompt { ids: ids.to_vec(), cropped: 0 };
    }
    let cropped = ids.len() - keep;
    Prompt { ids: ids[cropped..].to_vec(), cropped }
}

/// Runs every lane to its end (or until `on_event` breaks) and returns one run per lane.
pub fn generate<M: LanguageModel>(
    model: &M,
    vocab: &Vocab,
    prompt: &[u32],
    lanes: Vec<LaneSpec>,
    opts: &Options,
    mut on_event: impl FnMut(Event) -> ControlFlow<()>,
) -> Result<Vec<Run>, ModelError> {
    if prompt.is_empty() || prompt.len() >= model.n_positions() {
        return Err(ModelError(format!(
            "the prompt must hold 1 to {} tokens; prepare it with prepare_prompt",
            model.n_positions() - 1
        )));
    }
    let env = LaneEnv { vocab, prompt, n_positions: model.n_positions(), top_n: opts.top_n };
    let pre = model.prefill(prompt)?;
    let h = model.hidden_size();
    let v = model.vocab_size();
    let mut lanes: Vec<Box<dyn Lane>> = lanes.into_iter().map(|s| lane_for(s.config, s.forced, &pre.hidden, &env)).collect();
    let mut active = vec![true; lanes.len()];
    let mut shared = opts.shared_seed.map(Draws::new);
    let mut steps_done = vec![0usize; lanes.len()];

    let mut cache = pre.cache;
    let mut cache_rows = 1usize;
    let mut logits = pre.logits;
    let last = pre.hidden.len() / h - 1;
    let mut hidden = pre.hidden[last * h..].to_vec();
    // Each active lane's rows in the current outputs: (offset, count). After the
    // prefill every lane reads the one shared row.
    let mut ranges: Vec<(usize, usize)> = vec![(0, 1); lanes.len()];
    let mut cancelled = false;

    loop {
        let draw = shared.as_mut().filter(|_| lanes.iter().zip(&active).any(|(l, &a)| a && l.uses_draws())).map(|d| d.uniform());
        let mut src = Vec::new();
        let mut tokens = Vec::new();
        let mut next_ranges = ranges.clone();
        for i in 0..lanes.len() {
            if !active[i] {
                continue;
            }
            let (off, n) = ranges[i];
            let out = RowOutputs {
                logits: &logits[off * v..(off + n) * v],
                hidden: &hidden[off * h..(off + n) * h],
                vocab_size: v,
                hidden_size: h,
            };
            let (step, next) = lanes[i].advance(&out, &env, draw);
            if let Some(step) = &step {
                let text = streamable_text(&vocab.concat_bytes(lanes[i].generated()));
                let index = steps_done[i];
                steps_done[i] += 1;
                if on_event(Event::Step { lane: i, step, index, text }).is_break() {
                    cancelled = true;
                }
            }
            match next {
                Next::Feed { src: s, tokens: t } => {
                    next_ranges[i] = (src.len(), s.len());
                    src.extend(s.into_iter().map(|r| off + r));
                    tokens.extend(t);
                }
                Next::Done(reason) => {
                    active[i] = false;
                    let _ = on_event(Event::LaneDone { lane: i, reason });
                }
            }
        }
        if cancelled {
            for (i, lane) in lanes.iter_mut().enumerate() {
                if active[i] {
                    lane.cancel();
                    active[i] = false;
                    let _ = on_event(Event::LaneDone { lane: i, reason: StopReason::Cancelled });
                }
            }
            break;
        }
        if tokens.is_empty() {
            break;
        }
        let identity = src.len() == cache_rows && src.iter().enumerate().all(|(i, &r)| i == r);
        if !identity {
            cache = model.select(&cache, &src)?;
        }
        let fwd = model.step(&cache, &tokens)?;
        cache = fwd.cache;
        cache_rows = tokens.len();
        logits = fwd.logits;
        hidden = fwd.hidden;
        ranges = next_ranges;
    }
    Ok(lanes.into_iter().map(|l| l.into_run(&env)).collect())
}
