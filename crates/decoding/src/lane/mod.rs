//! One lane = one configuration decoding the shared prompt. Each lane is a
//! small state machine: given its rows' outputs from the last batched forward
//! pass, it records a step and says which rows and tokens to feed next.

mod beam;
mod beam_common;
mod constrained_beam;
mod contrastive;
mod group_beam;
mod hypotheses;
mod llama;
mod samples;
mod single;

pub use beam::BeamLane;
pub use constrained_beam::ConstrainedBeamLane;
pub use contrastive::ContrastiveLane;
pub use group_beam::GroupBeamLane;
pub use llama::LlamaLane;
pub use samples::SamplesLane;
pub use single::SingleLane;

use crate::config::ValidConfig;
use crate::processors::Pipeline;
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
    Done(StopReason),
}

/// Shared facts every lane needs.
pub struct LaneEnv<'a> {
    pub vocab: &'a Vocab,
    pub prompt: &'a [u32],
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
    /// The layers whose early exits each of this lane's rows needs next (DoLa).
    fn exit_layers(&self) -> &[usize] {
        &[]
    }
}

/// Builds the lane a config asks for; `dola` holds the layers a DoLa lane
/// contrasts with (resolved for the model).
pub fn lane_for(
    cfg: ValidConfig,
    forced: Option<Vec<u32>>,
    dola: Option<Vec<usize>>,
    prompt_hidden: &[f32],
    env: &LaneEnv,
) -> Box<dyn Lane> {
    use crate::mode::Mode;
    if cfg.mode == Mode::LlamaCpp {
        if let Some(lane) = LlamaLane::new(cfg.clone(), forced.clone(), env) {
            return Box::new(lane);
        }
    }
    let pipeline = Pipeline::for_config(&cfg, env.prompt.len());
    match (cfg.mode, forced) {
        (_, Some(forced)) => {
            Box::new(SingleLane::new(cfg, pipeline, env.prompt, Some(forced)).with_dola(dola))
        }
        (Mode::Sample, None) if cfg.num_return_sequences > 1 => {
            Box::new(SamplesLane::new(cfg, dola, env))
        }
        // A llama.cpp mode without its settings cannot be built (validate
        // sets both); decode greedily rather than panic.
        (Mode::Greedy | Mode::Sample | Mode::LlamaCpp, None) => {
            Box::new(SingleLane::new(cfg, pipeline, env.prompt, None).with_dola(dola))
        }
        (Mode::Beam | Mode::BeamSample, None) => Box::new(BeamLane::new(cfg, pipeline, env.prompt)),
        (Mode::GroupBeam, None) => Box::new(GroupBeamLane::new(cfg, pipeline, env.prompt)),
        (Mode::ConstrainedBeam, None) => {
            Box::new(ConstrainedBeamLane::new(cfg, pipeline, env.prompt))
        }
        (Mode::Contrastive, None) => Box::new(ContrastiveLane::new(
            cfg,
            pipeline,
            env.prompt,
            prompt_hidden,
        )),
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
