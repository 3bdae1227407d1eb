//! HF 4.55's `BeamHypotheses`: the best finished hypotheses of a beam
//! search, kept as transformers 4.55.4's scorers (group and constrained beam
//! search) keep them.

use super::contract::{finish_run, sequence, LaneEnv};
use crate::config::{EarlyStopping, ValidConfig};
use crate::record::{Run, Sequence, Step, StopReason};

/// HF 4.55's `BeamHypotheses`: the best `size` finished hypotheses of one group.
pub(super) struct Hypotheses {
    size: usize,
    /// (length-normalised score, tokens), in the order HF's list keeps them.
    pub(super) beams: Vec<(f64, Vec<u32>)>,
    worst: f64,
}

impl Hypotheses {
    pub(super) fn new(size: usize) -> Hypotheses {
        Hypotheses {
            size,
            beams: Vec::with_capacity(size + 1),
            worst: 1e9,
        }
    }

    pub(super) fn add(
        &mut self,
        tokens: Vec<u32>,
        sum_logprobs: f32,
        generated_len: usize,
        lp: f32,
    ) {
        // Python floats: the division is in f64.
        let score = sum_logprobs as f64 / (generated_len as f64).powf(lp as f64);
        if self.beams.len() < self.size || score > self.worst {
            self.beams.push((score, tokens));
            if self.beams.len() > self.size {
                let mut order: Vec<(f64, usize)> = self
                    .beams
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (b.0, i))
                    .collect();
                order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                self.beams.remove(order[0].1);
                self.worst = order[1].0;
            } else {
                self.worst = self.worst.min(score);
            }
        }
    }

    /// Whether no running beam can beat the worst kept hypothesis (HF's
    /// `is_done`); `len` and `max_len` count new tokens (this step's on, and
    /// the most allowed).
    pub(super) fn is_done(
        &self,
        best_sum_logprobs: f32,
        len: usize,
        cfg: &ValidConfig,
        max_len: usize,
    ) -> bool {
        if self.beams.len() < self.size {
            return false;
        }
        let lp = cfg.length_penalty as f64;
        let len = match cfg.early_stopping {
            EarlyStopping::Always => return true,
            EarlyStopping::Never if lp > 0.0 => max_len,
            _ => len,
        };
        self.worst >= best_sum_logprobs as f64 / (len as f64).powf(lp)
    }
}

/// Hypotheses best first, in the order HF's finalize pops them (a stable
/// ascending sort read from the end: the later of equal scores first).
pub(super) fn ranked(mut all: Vec<(f64, Vec<u32>)>) -> Vec<(f64, Vec<u32>)> {
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    all.reverse();
    all
}

/// The lane's run from its ranked hypotheses: the first is its text.
pub(super) fn hypotheses_run(
    cfg: &ValidConfig,
    best: &[(f64, Vec<u32>)],
    stop: Option<StopReason>,
    steps: Vec<Step>,
    env: &LaneEnv,
) -> Run {
    let sequences: Vec<Sequence> = best
        .iter()
        .take(cfg.num_return_sequences)
        .map(|(score, tokens)| sequence(tokens, Some(*score as f32), env.vocab))
        .collect();
    finish_run(cfg, sequences, stop, steps)
}
