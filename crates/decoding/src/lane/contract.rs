//! What every lane is: the trait the generation loop drives, what it is
//! given each step, and the helpers the lanes share to stop and finish.

use crate::config::ValidConfig;
use crate::record::{Run, Sequence, Step, StopReason};
use crate::vocab::Vocab;

/// The outputs of one lane's rows from the last forward pass.
pub struct RowOutputs<'a> {
    pub logits: &'a [f32],
    /// Classifier-free guidance: this lane's unconditional logits (one row).
    pub unconditional: Option<&'a [f32]>,
    pub hidden: &'a [f32],
    /// The early exits the lane asked for ([`Lane::exit_layers`]): per row,
    /// per layer, a row of logits.
    pub exits: &'a [f32],
    /// How many exits each row has.
    pub exits_per_row: usize,
    pub vocab_size: usize,
    pub hidden_size: usize,
}

impl<'a> RowOutputs<'a> {
    pub fn logits(&self, row: usize) -> &'a [f32] {
        &self.logits[row * self.vocab_size..(row + 1) * self.vocab_size]
    }
    pub fn hidden(&self, row: usize) -> &'a [f32] {
        &self.hidden[row * self.hidden_size..(row + 1) * self.hidden_size]
    }
    /// One row's early exits, all layers (`exits_per_row * vocab_size`).
    pub fn row_exits(&self, row: usize) -> &'a [f32] {
        let n = self.exits_per_row * self.vocab_size;
        &self.exits[row * n..(row + 1) * n]
    }
    /// A row's early-exit logits, one slice per layer asked for.
    pub fn exit_rows(&self, row: usize) -> Vec<&'a [f32]> {
        self.row_exits(row).chunks(self.vocab_size).collect()
    }
}

/// What a lane wants next.
pub enum Next {
    /// Feed `tokens[i]` on a copy of the lane's row `src[i]`.
    Feed {
        src: Vec<usize>,
        tokens: Vec<u32>,
    },
    /// A fresh pass over `ids` alone, no cache (a tutorial lane past its
    /// window: the last `block_size` ids, recomputed).
    Window {
        ids: Vec<u32>,
    },
    Done(StopReason),
}

/// Shared facts every lane needs.
pub struct LaneEnv<'a> {
    pub vocab: &'a Vocab,
    pub prompt: &'a [u32],
    /// The prompt before it was cropped to fit the context (the same ids
    /// when it was not): a tutorial lane's window slides over all of it.
    pub full_prompt: &'a [u32],
    pub n_positions: usize,
    pub top_n: usize,
}

/// `Send`: lanes decide their steps on several threads in the threaded worker.
pub trait Lane: Send {
    /// Consumes this lane's outputs; returns the new step (if one was decided) and what to feed.
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        shared: Option<&[f64]>,
    ) -> (Option<Step>, Next);
    /// Ends the lane early (cancel).
    fn cancel(&mut self);
    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run;
    fn generated(&self) -> &[u32];
    fn uses_draws(&self) -> bool {
        false
    }
    /// A pass over these ids alone, instead of the shared prompt's, for
    /// the lane's first step (a tutorial lane whose window is not the
    /// prompt as cropped).
    fn initial_window(&self) -> Option<Vec<u32>> {
        None
    }
    /// The layers whose early exits each of this lane's rows needs next (DoLa).
    fn exit_layers(&self) -> &[usize] {
        &[]
    }
    /// The lane follows one sequence, one row per step (the logit lens
    /// follows such lanes; beams and contrastive candidates have many rows).
    fn one_sequence(&self) -> bool {
        false
    }
    /// The step this lane recorded last (one-sequence lanes: the logit
    /// lens is added to it once the lane has decided).
    fn last_step_mut(&mut self) -> Option<&mut Step> {
        None
    }
}

/// A lane's finished record; the first sequence is the best.
pub(crate) fn finish_run(
    cfg: &ValidConfig,
    sequences: Vec<Sequence>,
    stop: Option<StopReason>,
    steps: Vec<Step>,
) -> Run {
    Run {
        config: cfg.effective(),
        mode: cfg.mode,
        token_ids: sequences[0].token_ids.clone(),
        text: sequences[0].text.clone(),
        stop_reason: stop.unwrap_or(StopReason::Cancelled),
        sequences,
        steps,
        model: None,
    }
}

pub(crate) fn sequence(token_ids: &[u32], score: Option<f32>, vocab: &Vocab) -> Sequence {
    Sequence {
        token_ids: token_ids.to_vec(),
        text: vocab.decode(token_ids),
        score,
        steps: vec![],
    }
}

/// The stop check shared by the one-row lanes, after `ids` gained its newest token.
pub(crate) fn stop_after(
    cfg: &ValidConfig,
    ids: &[u32],
    prompt_len: usize,
    n_positions: usize,
    vocab: &Vocab,
) -> Option<StopReason> {
    let last = *ids.last()?;
    let generated = ids.len() - prompt_len;
    if cfg.eos_token_ids.contains(&last) {
        return Some(StopReason::Eos);
    }
    if !cfg.stop_strings.is_empty() {
        let text = vocab.concat_bytes(ids);
        if crate::stop::stop_string_hit(&text, vocab.bytes(last).len(), &cfg.stop_strings) {
            return Some(StopReason::StopString);
        }
    }
    if generated >= cfg.new_token_budget(prompt_len) {
        return Some(StopReason::MaxNewTokens);
    }
    if ids.len() >= n_positions {
        return Some(StopReason::ContextFull);
    }
    None
}

/// A one-row lane's stop after taking its newest token: a forced lane ends
/// with its ids (or the context); a free one as its config says.
pub(crate) fn one_row_stop(
    cfg: &ValidConfig,
    ids: &[u32],
    prompt_len: usize,
    forced: Option<&[u32]>,
    env: &LaneEnv,
) -> Option<StopReason> {
    match forced {
        Some(f) if ids.len() - prompt_len >= f.len() => Some(StopReason::ForcedEnd),
        Some(_) if ids.len() >= env.n_positions => Some(StopReason::ContextFull),
        Some(_) => None,
        None => stop_after(cfg, ids, prompt_len, env.n_positions, env.vocab),
    }
}

/// What a one-row lane asks for next: its token fed on its row, or the end.
pub(crate) fn feed_or_done(stop: Option<StopReason>, chosen: u32) -> Next {
    match stop {
        Some(r) => Next::Done(r),
        None => Next::Feed {
            src: vec![0],
            tokens: vec![chosen],
        },
    }
}
