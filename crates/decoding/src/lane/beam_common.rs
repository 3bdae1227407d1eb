//! What the beam lanes share: the whole sequence a beam stands for, the step
//! table of the row a step's first continuation extends, and how a
//! hypothesis's end is read.

use super::contract::LaneEnv;
use crate::config::ValidConfig;
use crate::observe::{observe, step_record, Input, StepInfo};
use crate::processors::{Context, Pipeline};
use crate::record::{BeamCandidate, Step, StopReason};
use crate::scores::log_softmax;
use crate::stop::stop_string_hit;

/// The prompt, then a beam's new tokens.
pub(super) fn full_ids(prompt: &[u32], generated: &[u32]) -> Vec<u32> {
    let mut ids = prompt.to_vec();
    ids.extend_from_slice(generated);
    ids
}

/// One beam's candidates' scores (HF's `next_token_scores`): the row's
/// log-probabilities through the lane's knobs, plus the beam's running score.
/// `earlier_groups` is what diverse beam search's earlier groups just chose.
pub(super) fn beam_scores(
    pipeline: &Pipeline,
    ids: &[u32],
    prompt_len: usize,
    logits: &[f32],
    earlier_groups: &[u32],
    beam_score: f32,
) -> Vec<f32> {
    let mut lp = log_softmax(logits);
    let ctx = Context {
        earlier_groups,
        ..Context::new(ids, prompt_len)
    };
    pipeline.apply(&ctx, &mut lp);
    lp.iter_mut().for_each(|x| *x += beam_score);
    lp
}

/// A beam step's record: the table is the row (`logits`, after `ids`) that the
/// first listed continuation extends, on log-probabilities as HF's beam search
/// processes them; the continuations are listed beside it.
pub(super) fn beam_step(
    pipeline: &Pipeline,
    ids: &[u32],
    prompt_len: usize,
    logits: &[f32],
    beams: Vec<BeamCandidate>,
    env: &LaneEnv,
) -> Step {
    let ctx = Context::new(ids, prompt_len);
    let obs = observe(pipeline, &ctx, logits, Input::LogProbs);
    let info = StepInfo {
        logits,
        chosen: beams[0].token_id,
        draw: None,
        forced: false,
        top_n: env.top_n,
    };
    let mut step = step_record(&obs, info, env.vocab);
    step.beams = Some(beams);
    step
}

/// Whether a beam's text (`seq`, new tokens) now ends with a stop string.
pub(super) fn ends_with_stop_string(
    cfg: &ValidConfig,
    prompt: &[u32],
    seq: &[u32],
    env: &LaneEnv,
) -> bool {
    match seq.last() {
        Some(&t) if !cfg.stop_strings.is_empty() => stop_string_hit(
            &env.vocab.concat_bytes(&full_ids(prompt, seq)),
            env.vocab.bytes(t).len(),
            &cfg.stop_strings,
        ),
        _ => false,
    }
}

/// Why a beam search ended, read off its best hypothesis.
pub(super) fn stop_reason(
    cfg: &ValidConfig,
    prompt: &[u32],
    seq: &[u32],
    env: &LaneEnv,
) -> StopReason {
    match seq.last() {
        Some(t) if cfg.eos_token_ids.contains(t) => StopReason::Eos,
        Some(_) if ends_with_stop_string(cfg, prompt, seq, env) => StopReason::StopString,
        _ if seq.len() >= cfg.new_token_budget(prompt.len()) => StopReason::MaxNewTokens,
        _ if prompt.len() + seq.len() >= env.n_positions => StopReason::ContextFull,
        _ => StopReason::BeamSearchDone,
    }
}

/// HF 4.55's stopping criteria over all beams: the length is used up, or
/// every beam ends in an eos (a finished group's pad) or a stop string.
pub(super) fn all_rows_stop(
    cfg: &ValidConfig,
    prompt: &[u32],
    running: &[Vec<u32>],
    env: &LaneEnv,
) -> bool {
    let len = running[0].len();
    len >= cfg.new_token_budget(prompt.len())
        || prompt.len() + len >= env.n_positions
        || running.iter().all(|seq| {
            seq.last().is_some_and(|t| cfg.eos_token_ids.contains(t))
                || ends_with_stop_string(cfg, prompt, seq, env)
        })
}
